/**
 * The region-parallel sweep and prune (`@sieve/core/parallel`) at 1, 2, 4 … workers (up to the cores
 * present) against the sequential SweepAndPrune and Rapier, at 20 000 and 100 000 boxes, on the
 * coherent scene (boxes fed through `moveMany`) and on the dense scene (turning unit cubes and spheres
 * fed body by body through `move()`, dense.ts). Frames alternate between the contestants in one
 * process, medians of the timed frames; ratios come from the same run. Also the dense scene's
 * diagnosis: SweepAndPrune against cannon-es's SAPBroadphase at 20 000, and what its extra per-box
 * cost is. Writes bench/results/broadphase-parallel.{json,svg}.
 *
 * The parallel broadphase runs its own worker file from the package build (`pnpm build` first;
 * `pnpm bench:broadphase` does).
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { SweepAndPrune } from '@sieve/core';
import { ParallelSweepAndPrune } from '../../packages/core/src/broadphase/parallel/index.js';
import { writeJson, writeText } from '../lib/results.js';
import { median, ratio } from '../lib/stats.js';
import { lineChart } from '../lib/svg.js';
import { type Contestant, cannon, rapier } from './contestants.js';
import { alternate, cannonDense, makeDenseScene, rapierDense, sieveByBody } from './dense.js';
import { makeScene, type Scene } from './scene.js';

const workerUrl = new URL('../../packages/core/dist/parallel-worker.js', import.meta.url);

export interface ParallelRow {
  scene: 'coherent' | 'dense';
  n: number;
  contestant: string;
  /** Worker threads (0: the sequential SweepAndPrune or a peer). */
  workers: number;
  msPerFrame: number;
  /** Median CPU ms per frame of all threads (workers included; Rapier: its whole step). */
  cpuMsPerFrame: number;
  /** Median critical path per frame: main thread CPU + busiest other thread's (see dense.ts). */
  criticalMsPerFrame: number;
  /** Median main-thread CPU ms per frame (for the parallel broadphase: the host's serial part). */
  mainThreadMsPerFrame: number;
  /** Median over frames of the slowest region's own time (workers only). */
  slowestRegionMs?: number;
  pairs: number;
  missed: number;
  extra: number;
}

export interface ParallelOptions {
  sizes: number[];
  /** The parallel broadphase's `twoPhase` option (default its own, `'auto'`). */
  twoPhase?: 'auto' | 'always' | 'never';
  frames: number;
  warmup: number;
  budgetSeconds: number;
  log: (line: string) => void;
}

/** 1, 2, 4 … up to the cores present (2 at least). */
export function workerCounts(): number[] {
  const cores = os.availableParallelism();
  const out: number[] = [];
  for (let w = 1; w <= Math.max(2, cores); w *= 2) out.push(w);
  return out;
}

const SEQ = 'Sieve SweepAndPrune';

function parallelContestant(
  workers: number,
  bulk: boolean,
  slowest: number[],
  twoPhase?: 'auto' | 'always' | 'never',
): Contestant {
  let bp: ParallelSweepAndPrune;
  const c = sieveByBody(
    `Sieve ParallelSweepAndPrune ×${workers}`,
    () => {
      bp = new ParallelSweepAndPrune({ dimensions: 3, workers, workerUrl, twoPhase });
      return bp;
    },
    bulk,
  );
  const frame = c.frame;
  c.frame = () => {
    const pairs = frame();
    slowest.push(Math.max(...bp.regionTimes()));
    return pairs;
  };
  return c;
}

export async function runParallel(o: ParallelOptions): Promise<ParallelRow[]> {
  if (!existsSync(fileURLToPath(workerUrl))) {
    throw new Error(`${fileURLToPath(workerUrl)} is missing: run \`pnpm build\` first`);
  }
  const counts = workerCounts();
  const rows: ParallelRow[] = [];
  for (const kind of ['coherent', 'dense'] as const) {
    for (const n of o.sizes) {
      const scene: Scene = kind === 'coherent' ? makeScene({ n, seed: 42 }) : makeDenseScene({ n, seed: 42 });
      const bulk = kind === 'coherent';
      const slowest = counts.map(() => [] as number[]);
      const contestants: Contestant[] = [
        sieveByBody(SEQ, () => new SweepAndPrune({ dimensions: 3 }), bulk),
        ...counts.map((w, i) => parallelContestant(w, bulk, slowest[i], o.twoPhase)),
        kind === 'coherent' ? rapier(Number.POSITIVE_INFINITY) : rapierDense(),
      ];
      const r = await alternate(
        scene,
        contestants,
        o,
        contestants.map((_, i) => i >= 1 && i <= counts.length),
      );
      contestants.forEach((c, i) => {
        const w = i >= 1 && i <= counts.length ? counts[i - 1] : 0;
        const row: ParallelRow = {
          scene: kind,
          n,
          contestant: c.name,
          workers: w,
          msPerFrame: r.ms[i],
          cpuMsPerFrame: r.cpuMs[i],
          criticalMsPerFrame: r.criticalMs[i],
          mainThreadMsPerFrame: r.mainMs[i],
          pairs: r.pairs[i],
          missed: r.missed[i],
          extra: r.extra[i],
        };
        if (w > 0) row.slowestRegionMs = median(slowest[i - 1]);
        rows.push(row);
        o.log(
          `${kind.padEnd(8)} N=${String(n).padStart(6)}  ${c.name.padEnd(34)} ${r.ms[i].toFixed(2).padStart(8)} ms (cpu ${r.cpuMs[i].toFixed(2)}, critical path ${r.criticalMs[i].toFixed(2)}, main thread ${r.mainMs[i].toFixed(2)})` +
            (row.slowestRegionMs !== undefined
              ? `  (slowest region ${row.slowestRegionMs.toFixed(2)} ms)`
              : '') +
            (r.missed[i] >= 0 ? `  pairs ${r.pairs[i]} missed ${r.missed[i]} extra ${r.extra[i]}` : ''),
        );
      });
    }
  }
  return rows;
}

/** Speed-ups of each worker count over the sequential SweepAndPrune and over Rapier, same run. */
export function parallelSummary(rows: ParallelRow[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) {
    if (r.workers === 0) continue;
    const seq = rows.find((x) => x.scene === r.scene && x.n === r.n && x.contestant === SEQ)!;
    const peer = rows.find((x) => x.scene === r.scene && x.n === r.n && x.contestant.startsWith('Rapier'));
    const key = `${r.scene} N=${r.n}`;
    out[key] ??= {};
    out[key][`×${r.workers} vs SweepAndPrune, wall clock`] = ratio(seq.msPerFrame, r.msPerFrame);
    out[key][`×${r.workers} vs SweepAndPrune, critical path`] = ratio(
      seq.criticalMsPerFrame,
      r.criticalMsPerFrame,
    );
    if (peer) {
      out[key][`×${r.workers} vs Rapier, wall clock`] = ratio(peer.msPerFrame, r.msPerFrame);
      out[key][`×${r.workers} vs Rapier, critical path`] = ratio(
        peer.criticalMsPerFrame,
        r.criticalMsPerFrame,
      );
    }
  }
  return out;
}

/**
 * SweepAndPrune against cannon-es's SAPBroadphase at `n` on the dense scene and on variants that
 * remove one difference from the coherent scene at a time (feeding through `moveMany`, no turning,
 * spheres only), plus the coherent scene itself; and the pair changes per frame of each, the per-box
 * cost the dense scene adds.
 */
export async function runDenseDiagnosis(
  n: number,
  o: Omit<ParallelOptions, 'sizes'>,
): Promise<Array<Record<string, number | string>>> {
  const out: Array<Record<string, number | string>> = [];
  const variants: Array<[string, () => Scene]> = [
    ['dense (turning cubes + spheres, move())', () => makeDenseScene({ n, seed: 42 })],
    ['dense, no turning', () => makeDenseScene({ n, seed: 42, spin: false })],
    ['dense, spheres only', () => makeDenseScene({ n, seed: 42, spheres: 1 })],
    ['coherent scene', () => makeScene({ n, seed: 42 })],
  ];
  for (const [name, make] of variants) {
    let churn: number[] = [];
    let sap: SweepAndPrune;
    const counting = sieveByBody('SweepAndPrune move()', () => {
      sap = new SweepAndPrune({ dimensions: 3 });
      return sap;
    });
    const frame = counting.frame;
    counting.frame = () => {
      const p = frame();
      churn.push(sap.beganCount + sap.endedCount);
      return p;
    };
    const contestants = [
      counting,
      sieveByBody('SweepAndPrune moveMany', () => new SweepAndPrune({ dimensions: 3 }), true),
      cannonDenseOr(name),
    ];
    churn = [];
    const scene = make();
    const r = await alternate(scene, contestants, o);
    const row = {
      variant: name,
      n,
      sapMoveMs: r.ms[0],
      sapMoveManyMs: r.ms[1],
      cannonMs: r.ms[2],
      cannonOverSap: +(r.ms[2] / r.ms[0]).toFixed(1),
      sapMoveCpuMs: r.cpuMs[0],
      sapMoveManyCpuMs: r.cpuMs[1],
      cannonCpuMs: r.cpuMs[2],
      cannonOverSapCpu: +(r.cpuMs[2] / r.cpuMs[0]).toFixed(1),
      pairs: r.pairs[0],
      pairChangesPerFrame: median(churn),
      cannonMissed: r.missed[2],
      cannonExtra: r.extra[2],
    };
    out.push(row);
    o.log(
      `${name.padEnd(40)} SAP move() ${row.sapMoveMs.toFixed(2)} ms, moveMany ${row.sapMoveManyMs.toFixed(2)} ms, ` +
        `cannon ${row.cannonMs.toFixed(1)} ms (${row.cannonOverSap}×; CPU time: ${row.sapMoveCpuMs.toFixed(2)} / ` +
        `${row.sapMoveManyCpuMs.toFixed(2)} / ${row.cannonCpuMs.toFixed(1)} ms, ${row.cannonOverSapCpu}×), pairs ${row.pairs}, ` +
        `pair changes/frame ${row.pairChangesPerFrame}, cannon missed ${row.cannonMissed} extra ${row.cannonExtra}`,
    );
  }
  return out;
}

/** cannon-es on the dense variants; on the coherent scene, its own contestant (the scene's boxes, unturned). */
function cannonDenseOr(variant: string): Contestant {
  return variant.startsWith('coherent') ? cannon('SAP', Number.POSITIVE_INFINITY) : cannonDense();
}

/** Where a set of results came from, when it was measured on another machine (see `--chart-from`). */
export interface ResultsOrigin {
  /** Results file name without extension (default `broadphase-parallel`). */
  name?: string;
  /** That machine's description (default: this machine's). */
  machine?: Record<string, unknown>;
  /** That machine's cores, for the chart's title. */
  cores?: number;
}

export function writeParallelResults(
  rows: ParallelRow[],
  diagnosis: Array<Record<string, number | string>>,
  quick: boolean,
  origin: ResultsOrigin = {},
): void {
  const name = origin.name ?? 'broadphase-parallel';
  const summary = parallelSummary(rows);
  const charts: string[] = [];
  for (const measure of ['wall', 'critical'] as const) {
    for (const kind of ['coherent', 'dense'] as const) {
      const value = (r: ParallelRow) => (measure === 'wall' ? r.msPerFrame : r.criticalMsPerFrame);
      const series = [];
      for (const n of [...new Set(rows.map((r) => r.n))]) {
        const here = rows.filter((r) => r.scene === kind && r.n === n);
        const par = here.filter((r) => r.workers > 0);
        const xs = par.map((r) => r.workers);
        series.push({
          name: `parallel, N=${n}`,
          points: par.map((r) => [r.workers, value(r)] as [number, number]),
        });
        for (const r of here.filter((x) => x.workers === 0)) {
          const label = r.contestant === SEQ ? 'SweepAndPrune' : 'Rapier';
          series.push({ name: `${label}, N=${n}`, points: xs.map((x) => [x, value(r)] as [number, number]) });
        }
        if (measure === 'critical' && n === Math.max(...rows.map((r) => r.n))) {
          // What stands in the way: the host's serial part (feeding + merging, flat in the worker
          // count) and the slowest region (falling with it); a frame is about their sum.
          series.push({
            name: `host thread (serial), N=${n}`,
            points: par.map((r) => [r.workers, r.mainThreadMsPerFrame] as [number, number]),
          });
          series.push({
            name: `slowest region, N=${n}`,
            points: par.map((r) => [r.workers, r.slowestRegionMs ?? Number.NaN] as [number, number]),
          });
        }
      }
      charts.push(
        lineChart(series, {
          title: `${kind} scene, ${measure === 'wall' ? 'wall clock' : 'critical path (thread CPU)'}`,
          xLabel: 'worker threads',
          yLabel: 'ms per frame (median)',
          guides: [
            { y: 16.7, label: '16.7 ms' },
            { y: 10, label: '10 ms' },
          ],
          width: 520,
        }),
      );
    }
  }
  const cores = origin.cores ?? os.availableParallelism();
  writeText(
    `${name}.svg`,
    page(charts, 2, `Parallel sweep and prune, ${cores} cores${origin.machine ? '' : ' (shared machine)'}`),
  );
  const path = writeJson(name, {
    ...(origin.machine ? { machine: origin.machine } : {}),
    quick,
    rows,
    speedUps: summary,
    denseDiagnosis: diagnosis,
  });
  console.log('\nSpeed-ups (same run):');
  for (const [k, v] of Object.entries(summary)) {
    console.log(
      `  ${k}: ${Object.entries(v)
        .map(([a, b]) => `${a} ${b}`)
        .join(', ')}`,
    );
  }
  console.log(`\nwrote ${path} and ${name}.svg`);
}

const chartFrom = process.argv.find((a) => a.startsWith('--chart-from='))?.slice('--chart-from='.length);
if (import.meta.url === `file://${process.argv[1]}` && chartFrom) {
  // Rows measured elsewhere (another machine's `{ machine, rows }` JSON): JSON and chart under --name.
  const saved = JSON.parse(readFileSync(chartFrom, 'utf8')) as {
    machine: Record<string, unknown> & { cores?: number };
    rows: ParallelRow[];
  };
  const name = process.argv.find((a) => a.startsWith('--name='))?.slice('--name='.length);
  writeParallelResults(saved.rows, [], false, {
    name: name ?? 'broadphase-parallel-elsewhere',
    machine: saved.machine,
    cores: saved.machine.cores,
  });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const log = (line: string) => console.log(line);
  const o = quick
    ? { sizes: [5000, 20000], frames: 20, warmup: 5, budgetSeconds: 10, log }
    : { sizes: [20000, 100000], frames: 60, warmup: 10, budgetSeconds: 40, log };
  const onlyDiagnosis = process.argv.includes('--diagnosis');
  const rows = onlyDiagnosis ? [] : await runParallel(o);
  console.log('\nDense scene: SweepAndPrune against cannon-es SAPBroadphase at 20 000');
  // cannon-es takes ~0.4 s of CPU a frame at 20 000: fewer frames (CPU-time medians are steady).
  const diagnosis = await runDenseDiagnosis(quick ? 5000 : 20000, { ...o, frames: 20, warmup: 3 });
  if (!onlyDiagnosis) writeParallelResults(rows, diagnosis, quick);
}

/** Charts in a grid on one page (sizes read from each chart's root tag, fractional ones included). */
function page(charts: string[], columns: number, title: string): string {
  const size = (svg: string) => {
    const root = /^<svg[^>]*>/.exec(svg)?.[0] ?? '';
    return [
      Number(/width="([\d.]+)"/.exec(root)?.[1] ?? 400),
      Number(/height="([\d.]+)"/.exec(root)?.[1] ?? 300),
    ];
  };
  const w = Math.max(...charts.map((c) => size(c)[0]));
  const h = Math.max(...charts.map((c) => size(c)[1]));
  const rows = Math.ceil(charts.length / columns);
  const W = Math.ceil(w * columns);
  const H = Math.ceil(36 + h * rows);
  const parts = [`<rect width="${W}" height="${H}" fill="white"/>`];
  parts.push(
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="18" font-weight="bold">${title}</text>`,
  );
  charts.forEach((c, i) => {
    const inner = c.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
    parts.push(
      `<g transform="translate(${(i % columns) * w} ${36 + Math.floor(i / columns) * h})">${inner}</g>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>`;
}
