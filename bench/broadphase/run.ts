/**
 * `pnpm bench:broadphase`: the coherent-motion comparison against cannon-es, Rapier and a
 * matter-js-style sort and sweep (issue 2). Writes bench/results/broadphase.json and
 * bench/results/broadphase.svg. `--quick` runs small sizes only.
 */
import { writeJson, writeText } from '../lib/results.js';
import { ratio } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { runCoherent } from './coherent.js';

const quick = process.argv.includes('--quick');
const log = (line: string) => console.log(line);

const coherent = await runCoherent(
  quick
    ? { sizes: [1000, 5000], frames: 30, warmup: 5, budgetSeconds: 3, minFrames: 5 }
    : { sizes: [1000, 5000, 20000, 100000], frames: 100, warmup: 10, budgetSeconds: 20, minFrames: 5 },
  log,
);

const sap = 'Sieve SweepAndPrune';
const names = [...new Set(coherent.map((r) => r.contestant))];
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
  names.map((name) => ({
    name,
    points: coherent.filter((r) => r.contestant === name).map((r) => [r.n, r.msPerFrame] as [number, number]),
  })),
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
