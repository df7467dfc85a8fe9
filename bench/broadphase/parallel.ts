/**
 * The region-parallel sweep and prune (`@sieve/core/parallel`) at 1, 2, 4 … workers (up to the cores
 * present) against the sequential SweepAndPrune and Rapier, at 20 000 and 100 000 boxes, on the
 * coherent scene (SweepAndPrune fed through `moveMany`) and on the dense scene (turning unit cubes and
 * spheres, SweepAndPrune fed body by body through `move()`, dense.ts). Frames alternate between the
 * contestants in one process, medians of the timed frames; ratios come from the same run. Also the
 * dense scene's diagnosis: SweepAndPrune against cannon-es's SAPBroadphase at 20 000, and what its
 * extra per-box cost is. Writes bench/results/broadphase-parallel.{json,svg}.
 *
 * The parallel broadphase is fed without a copy, as an engine would feed it: the scene writes each
 * box straight into the broadphase's shared `bounds` array where it writes its own (untimed, like the
 * scene's own bounds for every contestant — the engine computing its AABBs), and the timed frame is
 * `markAllMoved()` + `update()`: the bounds are checked on the workers. One more row, `×N (moveMany)`,
 * feeds the largest worker count through `moveMany` instead (checked and copied on the host), as the
 * sequential SweepAndPrune is fed.
 *
 * The parallel broadphase runs its own worker file from the package build (`pnpm build` first;
 * `pnpm bench:broadphase` does), or the one `--worker=<file>` names. `--workers=1,2,16`,
 * `--sizes=100000`, `--scenes=coherent`, `--frames=60`, `--no-diagnosis` and `--out=<file.json>` (the
 * rows and the machine, for `--chart-from` on the machine that keeps the results) shape a run on
 * another machine; `--rebalance-at=1.1` and `--two-phase=never` set those options of the broadphase,
 * `--spin-us=20` how long its threads spin at a barrier before they sleep. After the rotation, the
 * head-to-head: SweepAndPrune and 2 workers alone, in turn, at the largest size (the two-worker ratio
 * with no other contestant's frame between theirs; the median of three rounds, `headToHead` in the JSON); `--head-to-head` runs
 * only that, and writes nothing.
 *
 * `×N` is N regions on N threads: N − 1 workers and the calling thread, which runs region 0 while it
 * waits — `×1` is the calling thread alone, a plain SweepAndPrune underneath (no worker), and
 * `×1 (worker)` one region on one worker thread (`callerRegion: false`). The host's serial part is the
 * wall time of `update()` outside the workers' command (preparing the frame, concatenating the pair
 * lists).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SweepAndPrune } from '@sieve/core';
import { ParallelSweepAndPrune } from '../../packages/core/src/broadphase/parallel/index.js';
import { machineInfo, writeJson, writeText } from '../lib/results.js';
import { median, ratio } from '../lib/stats.js';
import { lineChart } from '../lib/svg.js';
import { type Contestant, cannon, rapier } from './contestants.js';
import { alternate, cannonDense, makeDenseScene, rapierDense, sieveByBody } from './dense.js';
import { makeScene, type Scene } from './scene.js';

const argument = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const workerFile = argument('worker');
const workerUrl = workerFile
  ? pathToFileURL(resolve(workerFile))
  : new URL('../../packages/core/dist/parallel-worker.js', import.meta.url);

export interface ParallelRow {
  scene: 'coherent' | 'dense';
  n: number;
  contestant: string;
  /** Worker threads (0: the sequential SweepAndPrune or a peer). */
  workers: number;
  msPerFrame: number;
  /** Median CPU ms per frame of all threads (workers included; Rapier: its whole step). */
  cpuMsPerFrame: number;
  /**
   * Median critical path per frame (see dense.ts): main thread CPU + busiest other thread's; with the
   * calling thread running a region, its serial part + the longer of its own and the busiest worker's.
   */
  criticalMsPerFrame: number;
  /** Median main-thread CPU ms per frame (for the parallel broadphase: its serial part and its region). */
  mainThreadMsPerFrame: number;
  /**
   * Median wall ms per frame of the parallel broadphase's `update()` outside the workers' command: the
   * host's serial part (its region, run alongside the workers, not counted).
   */
  hostSerialMsPerFrame?: number;
  /** Median over frames of the slowest region's own time (workers only). */
  slowestRegionMs?: number;
  /**
   * Where a frame's time goes on the workers (medians, ms): the host issuing the command, the last
   * worker starting, the slowest classify, the first barrier's release, the slowest frame, the second
   * barrier's release, the slowest merge, and the host seeing the last acknowledgement.
   */
  phases?: Record<string, number>;
  pairs: number;
  missed: number;
  extra: number;
}

export interface ParallelOptions {
  sizes: number[];
  /** Worker counts (default 1, 2, 4 … up to the cores present). */
  workers?: number[];
  /** Scenes (default both). */
  scenes?: Array<'coherent' | 'dense'>;
  /** The parallel broadphase's `twoPhase` option (default its own, `'auto'`). */
  twoPhase?: 'auto' | 'always' | 'never';
  /** The parallel broadphase's `rebalanceAt` option (default its own). */
  rebalanceAt?: number;
  /** Microseconds its threads spin at a barrier before sleeping (default its own). */
  spinUs?: number;
  frames: number;
  warmup: number;
  budgetSeconds: number;
  log: (line: string) => void;
}

/**
 * A full (or quick) run's sizes and frames. The warm-up is long: each of the broadphase's threads
 * optimizes its own copy of the code, and its first 20–40 frames at 100 000 boxes run 1.2–2× slower
 * than the rest (`SweepAndPrune`'s first 50 frames: 4 % slower).
 */
export function runFrames(quick: boolean): Omit<ParallelOptions, 'log'> {
  return quick
    ? { sizes: [5000, 20000], frames: 20, warmup: 5, budgetSeconds: 10 }
    : { sizes: [20000, 100000], frames: 60, warmup: 40, budgetSeconds: 40 };
}

/** 1, 2, 4 … up to the cores present (2 at least). */
export function workerCounts(): number[] {
  const cores = os.availableParallelism();
  const out: number[] = [];
  for (let w = 1; w <= Math.max(2, cores); w *= 2) out.push(w);
  return out;
}

const SEQ = 'Sieve SweepAndPrune';

/** A parallel contestant: its worker count, and `callerRegion` when not the default. */
interface ParallelSpec {
  workers: number;
  callerRegion?: false;
}

/**
 * The parallel broadphase on `workers` threads. `direct`: fed without a copy — `mirror` receives a
 * function that writes the scene's bounds into the broadphase's shared array (the scene calls it as it
 * computes them, untimed) and the timed frame is `markAllMoved()` + `update()`; else fed through
 * `moveMany` (`bulk`) or `move()` per body, as SweepAndPrune is.
 */
function parallelContestant(
  { workers, callerRegion }: ParallelSpec,
  bulk: boolean,
  slowest: number[],
  phases: Record<string, number[]>,
  serial: number[],
  o: Pick<ParallelOptions, 'twoPhase' | 'rebalanceAt' | 'spinUs'>,
  direct: boolean,
  mirrors: Array<(bounds: Float64Array) => void>,
): Contestant {
  let bp: ParallelSweepAndPrune;
  const feed = direct ? '' : bulk ? ' (moveMany)' : ' (move)';
  const name = `Sieve ParallelSweepAndPrune ×${workers}${callerRegion === false ? ' (worker)' : ''}${feed}`;
  const c = sieveByBody(
    name,
    () => {
      bp = new ParallelSweepAndPrune({
        dimensions: 3,
        workers,
        workerUrl,
        callerRegion,
        twoPhase: o.twoPhase,
        rebalanceAt: o.rebalanceAt,
      });
      if (o.spinUs !== undefined) bp.barrierSpinUs = o.spinUs;
      // Every update traced (tracePhases), from the first.
      bp.stepTrace();
      return bp;
    },
    bulk,
  );
  // With the calling thread running a region, the main thread works while the workers do: the path is
  // its serial part plus the longer of its own share and the busiest worker's.
  let lastSerial = 0;
  c.criticalPath = (main, busiest) =>
    bp.callerRegion ? Math.max(main, lastSerial + busiest) : main + busiest;
  const setup = c.setup;
  c.setup = async (scene) => {
    await setup(scene);
    if (!direct) return;
    // Inserted in order into an empty broadphase: box i has handle i, at 6·i of `bounds`.
    for (const i of [0, scene.n - 1]) {
      if (bp.offsetOf(i) !== 6 * i) throw new Error('bench: the parallel broadphase holds box i elsewhere');
    }
    mirrors.push((bounds) => bp.bounds.set(bounds));
  };
  c.frame = direct
    ? () => {
        bp.markAllMoved();
        const t0 = performance.now() + performance.timeOrigin;
        bp.update();
        const t1 = performance.now() + performance.timeOrigin;
        slowest.push(Math.max(...bp.regionTimes()));
        const pool = bp.stepTrace().pool;
        lastSerial = Math.max(0, t1 - t0 - (pool[0] > 0 ? pool[2] - pool[0] : 0));
        serial.push(lastSerial);
        tracePhases(bp, phases);
        return bp.pairCount;
      }
    : (() => {
        const frame = c.frame;
        return () => {
          const pairs = frame();
          slowest.push(Math.max(...bp.regionTimes()));
          return pairs;
        };
      })();
  return c;
}

export async function runParallel(o: ParallelOptions): Promise<ParallelRow[]> {
  if (!existsSync(fileURLToPath(workerUrl))) {
    throw new Error(`${fileURLToPath(workerUrl)} is missing: run \`pnpm build\` first`);
  }
  // The worker counts (and one region on a worker thread, with 1), then the largest again fed through
  // moveMany / move().
  const counts = [...(o.workers ?? workerCounts())];
  const specs: ParallelSpec[] = counts.map((workers) => ({ workers }));
  if (counts.includes(1)) specs.push({ workers: 1, callerRegion: false });
  specs.push({ workers: counts[counts.length - 1] });
  const copied = specs.length - 1;
  const rows: ParallelRow[] = [];
  for (const kind of o.scenes ?? (['coherent', 'dense'] as const)) {
    for (const n of o.sizes) {
      const { scene, mirrors } = mirrored(
        kind === 'coherent' ? makeScene({ n, seed: 42 }) : makeDenseScene({ n, seed: 42 }),
      );
      const bulk = kind === 'coherent';
      const slowest = specs.map(() => [] as number[]);
      const phases = specs.map(() => ({}) as Record<string, number[]>);
      const serial = specs.map(() => [] as number[]);
      const contestants: Contestant[] = [
        sieveByBody(SEQ, () => new SweepAndPrune({ dimensions: 3 }), bulk),
        ...specs.map((spec, i) =>
          parallelContestant(spec, bulk, slowest[i], phases[i], serial[i], o, i !== copied, mirrors),
        ),
        kind === 'coherent' ? rapier(Number.POSITIVE_INFINITY) : rapierDense(),
      ];
      const r = await alternate(
        scene,
        contestants,
        o,
        contestants.map((_, i) => i >= 1 && i <= specs.length),
      );
      contestants.forEach((c, i) => {
        const w = i >= 1 && i <= specs.length ? specs[i - 1].workers : 0;
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
        if (w > 0 && serial[i - 1].length > 0) row.hostSerialMsPerFrame = median(serial[i - 1]);
        if (w > 0 && Object.keys(phases[i - 1]).length > 0) {
          row.phases = Object.fromEntries(
            Object.entries(phases[i - 1]).map(([k, v]) => [k, +median(v).toFixed(3)]),
          );
        }
        rows.push(row);
        o.log(
          `${kind.padEnd(8)} N=${String(n).padStart(6)}  ${c.name.padEnd(34)} ${r.ms[i].toFixed(2).padStart(8)} ms (cpu ${r.cpuMs[i].toFixed(2)}, critical path ${r.criticalMs[i].toFixed(2)}, main thread ${r.mainMs[i].toFixed(2)})` +
            (row.hostSerialMsPerFrame !== undefined
              ? `  (host serial ${row.hostSerialMsPerFrame.toFixed(2)} ms)`
              : '') +
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

/**
 * The scene, stepped so that it also writes its bounds, as it computes them, through every function put
 * in `mirrors` (the directly fed parallel contestants' shared arrays; untimed, like its own bounds).
 */
function mirrored(made: Scene): { scene: Scene; mirrors: Array<(bounds: Float64Array) => void> } {
  const mirrors: Array<(bounds: Float64Array) => void> = [];
  const scene: Scene = {
    ...made,
    step() {
      made.step();
      for (const m of mirrors) m(made.bounds);
    },
  };
  return { scene, mirrors };
}

/** {@link runHeadToHead}'s result. */
export interface HeadToHead {
  scene: 'coherent';
  n: number;
  workers: number;
  /** Median wall-clock milliseconds a frame (`moveMany` + `update()`). */
  sweepAndPruneMs: number;
  /** Median wall-clock milliseconds a frame (`markAllMoved()` + `update()`, bounds written untimed). */
  parallelMs: number;
  /** `sweepAndPruneMs / parallelMs`: the round with the median ratio. */
  ratio: number;
  /** Each round's ratio, in the order they ran (fresh contestants and the same scene each round). */
  roundRatios: number[];
  missed: number;
  extra: number;
}

/** Rounds of the head-to-head: a burst of load on a shared machine spoils one, not the median. */
const HEAD_TO_HEAD_ROUNDS = 3;

/**
 * SweepAndPrune against the parallel broadphase on `workers` threads, the two alone, frame by frame in
 * turn on the coherent scene at the largest of `o.sizes`: the ratio of the two-worker target, with no other contestant's frame
 * (Rapier's, the other pools') between theirs. In {@link runParallel}'s rotation, five other frames
 * come between two of the same contestant's, which leaves every contestant's data out of the caches
 * and its threads asleep: the ratio there is that of a frame that starts cold.
 */
export async function runHeadToHead(o: ParallelOptions, workers = 2): Promise<HeadToHead> {
  const n = Math.max(...o.sizes);
  const rounds: Array<{ ms: number[]; missed: number; extra: number }> = [];
  for (let round = 0; round < HEAD_TO_HEAD_ROUNDS; round++) {
    const { scene, mirrors } = mirrored(makeScene({ n, seed: 42 }));
    const contestants = [
      sieveByBody(SEQ, () => new SweepAndPrune({ dimensions: 3 }), true),
      parallelContestant({ workers }, true, [], {}, [], o, true, mirrors),
    ];
    const r = await alternate(scene, contestants, o, [false, true]);
    rounds.push({ ms: r.ms, missed: r.missed[1], extra: r.extra[1] });
    o.log(
      `head to head, coherent N=${n}, round ${round + 1}: SweepAndPrune ${r.ms[0].toFixed(2)} ms, ×${workers} ${r.ms[1].toFixed(2)} ms: ${(r.ms[0] / r.ms[1]).toFixed(2)}×  missed ${r.missed[1]} extra ${r.extra[1]}`,
    );
  }
  const roundRatios = rounds.map((r) => r.ms[0] / r.ms[1]);
  const middle = rounds[roundRatios.indexOf([...roundRatios].sort((a, b) => a - b)[rounds.length >> 1])];
  const result: HeadToHead = {
    scene: 'coherent',
    n,
    workers,
    sweepAndPruneMs: middle.ms[0],
    parallelMs: middle.ms[1],
    ratio: middle.ms[0] / middle.ms[1],
    roundRatios,
    missed: rounds.reduce((m, r) => m + r.missed, 0),
    extra: rounds.reduce((m, r) => m + r.extra, 0),
  };
  o.log(
    `head to head, coherent N=${n}: SweepAndPrune ${result.sweepAndPruneMs.toFixed(2)} ms, ×${workers} ${result.parallelMs.toFixed(2)} ms: ${result.ratio.toFixed(2)}× (the two alone, in turn; the median of ${HEAD_TO_HEAD_ROUNDS} rounds)  missed ${result.missed} extra ${result.extra}`,
  );
  return result;
}

/** Adds the last update's phase durations (see {@link ParallelRow.phases}) to `into`. */
function tracePhases(bp: ParallelSweepAndPrune, into: Record<string, number[]>): void {
  const { pool, regions, stride } = bp.stepTrace();
  if (pool[0] === 0) return;
  const n = bp.regionCount;
  const max = (k: number) => {
    let m = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < n; r++) m = Math.max(m, regions[r * stride + k]);
    return m;
  };
  const longest = (a: number, b: number) => {
    let m = 0;
    for (let r = 0; r < n; r++) m = Math.max(m, regions[r * stride + b] - regions[r * stride + a]);
    return m;
  };
  // Milestones (shared.ts): 1 started, 2 classified, 3 first barrier, 4 framed, 5 second barrier, 6 merged.
  const add = (k: string, v: number) => {
    into[k] ??= [];
    into[k].push(v);
  };
  add('issue', pool[1] - pool[0]);
  add('lastStart', max(1) - pool[0]);
  add('classify', longest(1, 2));
  add('firstBarrier', max(3) - max(2));
  add('frame', longest(3, 4));
  add('secondBarrier', max(5) - max(4));
  add('merge', longest(5, 6));
  add('acknowledged', pool[2] - max(6));
}

/** Speed-ups of each worker count over the sequential SweepAndPrune and over Rapier, same run. */
export function parallelSummary(rows: ParallelRow[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) {
    if (r.workers === 0) continue;
    const seq = rows.find((x) => x.scene === r.scene && x.n === r.n && x.contestant === SEQ)!;
    const peer = rows.find((x) => x.scene === r.scene && x.n === r.n && x.contestant.startsWith('Rapier'));
    const key = `${r.scene} N=${r.n}`;
    const who = r.contestant.slice(r.contestant.indexOf('×'));
    out[key] ??= {};
    out[key][`${who} vs SweepAndPrune, wall clock`] = ratio(seq.msPerFrame, r.msPerFrame);
    out[key][`${who} vs SweepAndPrune, critical path`] = ratio(seq.criticalMsPerFrame, r.criticalMsPerFrame);
    if (peer) {
      out[key][`${who} vs Rapier, wall clock`] = ratio(peer.msPerFrame, r.msPerFrame);
      out[key][`${who} vs Rapier, critical path`] = ratio(peer.criticalMsPerFrame, r.criticalMsPerFrame);
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
  headToHead: HeadToHead[] = [],
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
        // The curve of the directly fed contestants (the copying row is in the JSON).
        const par = here.filter((r) => r.workers > 0 && !r.contestant.includes('('));
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
          // What stands in the way: the host's serial part (preparing the frame, concatenating the
          // pair lists; flat in the worker count) and the slowest region (falling with it).
          series.push({
            name: `host thread (serial), N=${n}`,
            points: par.map(
              (r) => [r.workers, r.hostSerialMsPerFrame ?? r.mainThreadMsPerFrame] as [number, number],
            ),
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
    ...(headToHead.length > 0 ? { headToHead } : {}),
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
  const list = (name: string) => argument(name)?.split(',');
  const o: ParallelOptions = { ...runFrames(quick), log };
  if (list('sizes')) o.sizes = list('sizes')!.map(Number);
  if (list('workers')) o.workers = list('workers')!.map(Number);
  if (list('scenes')) o.scenes = list('scenes') as ParallelOptions['scenes'];
  if (argument('frames')) o.frames = Number(argument('frames'));
  if (argument('rebalance-at')) o.rebalanceAt = Number(argument('rebalance-at'));
  if (argument('two-phase')) o.twoPhase = argument('two-phase') as ParallelOptions['twoPhase'];
  if (argument('spin-us')) o.spinUs = Number(argument('spin-us'));
  const onlyDiagnosis = process.argv.includes('--diagnosis');
  if (process.argv.includes('--head-to-head')) {
    // Only the two-worker ratio (nothing written).
    await runHeadToHead(o);
    process.exit(0);
  }
  const rows = onlyDiagnosis ? [] : await runParallel(o);
  const headToHead = onlyDiagnosis ? [] : [await runHeadToHead(o)];
  const out = argument('out');
  if (out) {
    // Rows for `--chart-from` on the machine that keeps the results.
    writeFileSync(out, `${JSON.stringify({ machine: machineInfo(), quick, rows }, null, 2)}\n`);
    console.log(`wrote ${out}`);
  }
  if (!process.argv.includes('--no-diagnosis')) {
    console.log('\nDense scene: SweepAndPrune against cannon-es SAPBroadphase at 20 000');
    // cannon-es takes ~0.4 s of CPU a frame at 20 000: fewer frames (CPU-time medians are steady).
    const diagnosis = await runDenseDiagnosis(quick ? 5000 : 20000, { ...o, frames: 20, warmup: 3 });
    if (!onlyDiagnosis && !out) writeParallelResults(rows, diagnosis, quick, {}, headToHead);
  } else if (!out) writeParallelResults(rows, [], quick, {}, headToHead);
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
