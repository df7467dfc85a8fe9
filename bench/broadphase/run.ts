/**
 * `pnpm bench:broadphase`: the coherent-motion comparison against cannon-es, Rapier and a
 * matter-js-style sort and sweep (issue 2), then the scenarios that separate SweepAndPrune from the
 * Octree (issue 4), then the region-parallel sweep and prune's scaling and the dense scene (issue 18).
 * Then static proxies on a tilemap level (issue 25). Writes
 * bench/results/broadphase{,-scenarios,-parallel,-tilemap}.{json,svg}. `--quick` runs small sizes only;
 * `--coherent`, `--scenarios`, `--parallel` or `--tilemap` runs one part.
 */
import { writeJson, writeText } from '../lib/results.js';
import { ratio } from '../lib/stats.js';
import { lineChart, seriesBy, svgPage } from '../lib/svg.js';
import { runCoherent } from './coherent.js';
import {
  runDenseDiagnosis,
  runFrames,
  runHeadToHead,
  runParallel,
  writeParallelResults,
} from './parallel.js';
import { runScenarios, writeScenarioResults } from './scenarios.js';
import { runTilemap, writeTilemapResults } from './tilemap.js';

const quick = process.argv.includes('--quick');
const onlyScenarios = process.argv.includes('--scenarios');
const onlyCoherent = process.argv.includes('--coherent');
const onlyParallel = process.argv.includes('--parallel');
const onlyTilemap = process.argv.includes('--tilemap');
const all = !onlyScenarios && !onlyCoherent && !onlyParallel && !onlyTilemap;
const log = (line: string) => console.log(line);

if (all || onlyCoherent) await coherentPart();
if (all || onlyScenarios) await scenariosPart();
if (all || onlyParallel) await parallelPart();
if (all || onlyTilemap) tilemapPart();

function tilemapPart(): void {
  console.log('\nTilemap: static tiles against the same tiles dynamic');
  const o = quick ? { sizes: [2500, 10000], frames: 200 } : { sizes: [2500, 10000, 40000], frames: 1000 };
  writeTilemapResults(runTilemap({ ...o, log }), quick);
}

async function coherentPart(): Promise<void> {
  const coherent = await runCoherent(
    quick
      ? { sizes: [1000, 5000], frames: 30, warmup: 5, budgetSeconds: 3 }
      : { sizes: [1000, 5000, 20000, 100000], frames: 100, warmup: 10, budgetSeconds: 20 },
    log,
  );

  const sap = 'Sieve SweepAndPrune';
  const summary: Record<string, Record<string, string>> = {};
  console.log('\nSweepAndPrune speed-up (peer ms / Sieve ms, same frames):');
  for (const n of [...new Set(coherent.map((r) => r.n))]) {
    const ours = coherent.find((r) => r.n === n && r.contestant === sap)!;
    summary[n] = {};
    for (const r of coherent.filter((x) => x.n === n && x.contestant !== sap)) {
      summary[n][r.contestant] = ratio(r.msPerFrame, ours.msPerFrame);
    }
    console.log(
      `  N=${n}: ${Object.entries(summary[n])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }

  const chart = lineChart(
    seriesBy(
      coherent,
      (r) => r.contestant,
      (r) => [r.n, r.msPerFrame],
    ),
    {
      title: 'Broadphase, coherent 3-D motion (5 % volume fraction)',
      xLabel: 'boxes (N)',
      yLabel: 'ms per frame (median)',
      guides: [{ y: 16.7, label: '16.7 ms frame budget' }],
      width: 760,
    },
  );
  writeText('broadphase.svg', svgPage([chart], 1));
  const path = writeJson('broadphase', { quick, coherent, speedUpOfSweepAndPrune: summary });
  console.log(`\nwrote ${path} and broadphase.svg`);
}

async function scenariosPart(): Promise<void> {
  console.log('\nScenarios: SweepAndPrune vs Octree vs cannon-es');
  writeScenarioResults(await runScenarios({ quick, log }), quick);
}

async function parallelPart(): Promise<void> {
  console.log('\nParallel sweep and prune: 1, 2, 4 … workers, coherent and dense scenes');
  const o = { ...runFrames(quick), log };
  const rows = await runParallel(o);
  const headToHead = [await runHeadToHead(o)];
  console.log('\nDense scene: SweepAndPrune against cannon-es SAPBroadphase');
  const diagnosis = await runDenseDiagnosis(quick ? 5000 : 20000, { ...o, frames: 20, warmup: 3 });
  writeParallelResults(rows, diagnosis, quick, {}, headToHead);
}
