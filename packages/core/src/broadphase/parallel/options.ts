/**
 * The options of the region-parallel sweep and prune and of its worker pool, and their checks: every
 * key, type, range and combination is checked before any buffer is made or any worker starts, and a
 * bad one throws an error naming it (unknown keys included, as everywhere in Sieve).
 */
import { checkOptionKeys } from '../../options.js';
import { checkOptions } from '../proxies.js';
import type { BroadphaseOptions, Dimensions } from '../types.js';
import type { WorkerPool } from './pool.js';

/** Options of {@link ParallelSweepAndPrune}. */
export interface ParallelSweepAndPruneOptions extends BroadphaseOptions {
  /**
   * Regions, one per thread that runs one (an integer from 1 to 256): the worker threads, and the
   * calling thread with `callerRegion` — so by default `workers: N` starts N − 1 worker threads where
   * `update()` can block (N on a browser page's main thread); `workers: 1` then starts none and runs as
   * the sequential `SweepAndPrune` on the calling thread. Default: the hardware's threads, at most 8
   * (never more threads at work than cores); with `pool`, the pool's size, plus one with `callerRegion`.
   */
  workers?: number;
  /**
   * Workers to run on (shared with other broadphases; `dispose()` leaves it running): one region each
   * (and one more on the calling thread with `callerRegion`). Not with `workerUrl`, `timeoutMs` or
   * `inThread`, which configure a pool of the broadphase's own.
   */
  pool?: WorkerPool;
  /**
   * The calling thread runs region 0 itself, beside the workers: in `update()` while it waits for them
   * (one thread less to start and to wake, and no thread idle), in `updateAsync()` between its waits;
   * with one region, it runs it alone, as the sequential `SweepAndPrune` (no worker, no shared memory).
   * Default: true without `pool` where `update()` can block (Node, a Web Worker); false with `pool`
   * (which then runs every region) and on a browser page's main thread. The results are the same either
   * way.
   */
  callerRegion?: boolean;
  /** Where the worker script is, when this broadphase starts its own pool (see {@link WorkerPoolOptions}). */
  workerUrl?: string | URL;
  /** Longest wait for a worker (ms, finite, > 0) before `update()` throws. Default 20 000. */
  timeoutMs?: number;
  /** Run the regions on the calling thread even where workers are possible. Default false. */
  inThread?: boolean;
  /**
   * Re-cut the regions when the fullest holds this many times its share (the mean, unless the cuts
   * moved to the threads' speeds; a finite number ≥ 1). Default 1.25.
   */
  rebalanceAt?: number;
  /** At least this many updates between two layouts (an integer ≥ 1). Default 8. */
  layoutInterval?: number;
  /** Below this many boxes per region (an integer ≥ 1), region 0 holds everything. Default 1 024. */
  minBoxesPerRegion?: number;
  /**
   * How a frame finds each region's boxes. `'auto'` (default): in two phases — every worker first
   * sorts its share of the changed boxes into regions, then each region reads only its own (each box's
   * bounds read once, not once per region) — from 4 regions and 4 096 changed boxes, or whenever the
   * boxes are checked in a first phase anyway (written into `bounds`); else in one, each region
   * testing every changed box. `'always'` / `'never'` force it (`'always'` needs 2 to 31
   * regions). The results are the same either way.
   */
  twoPhase?: 'auto' | 'always' | 'never';
}

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Worker threads to start (an integer from 1 to 256). Default: the hardware's threads, at most 8. */
  workers?: number;
  /**
   * Where the worker script is (`parallel-worker.js` of this package's build): a URL, or a path
   * string. Default: the file next to this module, found through `import.meta.url`: `vite build` and
   * webpack 5 emit it; Vite's dev server needs the package excluded from its pre-bundling
   * (`optimizeDeps: { exclude: ['@sieve/core'] }`), and esbuild a second entry point
   * (`parallel-worker=@sieve/core/parallel-worker`) beside the bundle.
   */
  workerUrl?: string | URL;
  /** Longest wait for a worker, in milliseconds (finite, > 0), before an update throws. Default 20 000. */
  timeoutMs?: number;
}

const BROADPHASE_KEYS: ReadonlyArray<keyof ParallelSweepAndPruneOptions> = [
  'dimensions',
  'initialCapacity',
  'validate',
  'workers',
  'pool',
  'workerUrl',
  'timeoutMs',
  'inThread',
  'rebalanceAt',
  'layoutInterval',
  'minBoxesPerRegion',
  'twoPhase',
  'callerRegion',
];

const POOL_KEYS: ReadonlyArray<keyof WorkerPoolOptions> = ['workers', 'workerUrl', 'timeoutMs'];

/** The most regions (and pool workers). */
export const MAX_WORKERS = 256;
/** The most regions a two-phase frame can sort boxes into (one bit each in a 32-bit word, and a flag). */
export const MAX_MASKED_REGIONS = 31;

/** {@link ParallelSweepAndPruneOptions} with every default filled in (`pool` as given). */
export interface ResolvedParallelOptions {
  dimensions: Dimensions;
  initialCapacity: number;
  validate: boolean;
  regions: number;
  pool: WorkerPool | undefined;
  workerUrl: string | URL | undefined;
  timeoutMs: number | undefined;
  inThread: boolean;
  /** Whether the calling thread runs region 0 when the regions run on workers. */
  callerRegion: boolean;
  rebalanceAt: number;
  layoutInterval: number;
  minBoxesPerRegion: number;
  twoPhase: 'auto' | 'always' | 'never';
}

function integerIn(where: string, name: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `${where}: ${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max}, got ${show(value)}`,
    );
  }
}

function booleanOption(where: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`${where}: ${name} must be true or false, got ${show(value)}`);
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** Checks a worker URL option: a URL or a non-empty string. */
export function checkWorkerUrl(where: string, url: unknown): void {
  if (url === undefined) return;
  const isUrl = typeof URL === 'function' && url instanceof URL;
  if (!isUrl && !(typeof url === 'string' && url.length > 0)) {
    throw new TypeError(`${where}: workerUrl must be a URL or a non-empty string, got ${show(url)}`);
  }
}

/** Checks a timeout option: a finite number of milliseconds above 0 (at most 2^31 − 1). */
export function checkTimeout(where: string, timeoutMs: unknown): void {
  if (timeoutMs === undefined) return;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= 0x7fffffff)) {
    throw new RangeError(
      `${where}: timeoutMs must be a finite number of milliseconds above 0 (at most 2^31 - 1), got ${show(timeoutMs)}`,
    );
  }
}

/** Checks a WorkerPool's options (keys, types, ranges). */
export function checkPoolOptions(options: WorkerPoolOptions | undefined): void {
  checkOptionKeys('WorkerPool: options', options, POOL_KEYS);
  if (options === undefined) return;
  if (options.workers !== undefined) integerIn('WorkerPool', 'workers', options.workers, 1, MAX_WORKERS);
  checkWorkerUrl('WorkerPool', options.workerUrl);
  checkTimeout('WorkerPool', options.timeoutMs);
}

/**
 * Checks every option of a ParallelSweepAndPrune and fills in the defaults; `defaultRegions` is the
 * region count when neither `pool` nor `workers` says. `isPool` tells a WorkerPool (passed in to keep
 * this module free of the pool's code). `callerCanBlock`: whether `update()` can block here (the
 * default of `callerRegion`).
 */
export function readParallelOptions(
  options: ParallelSweepAndPruneOptions,
  defaultRegions: () => number,
  isPool: (value: unknown) => value is WorkerPool,
  callerCanBlock: boolean,
): ResolvedParallelOptions {
  const where = 'ParallelSweepAndPrune';
  const o = checkOptions(options, where);
  checkOptionKeys(`${where}: options`, o, BROADPHASE_KEYS);
  if (o.dimensions !== 2 && o.dimensions !== 3) {
    throw new RangeError(`${where}: dimensions must be 2 or 3, got ${show(o.dimensions)}`);
  }
  if (o.initialCapacity !== undefined) {
    integerIn(where, 'initialCapacity', o.initialCapacity, 1, Number.MAX_SAFE_INTEGER);
  }
  booleanOption(where, 'validate', o.validate);
  booleanOption(where, 'inThread', o.inThread);
  booleanOption(where, 'callerRegion', o.callerRegion);
  const callerShare = o.pool !== undefined && o.callerRegion === true ? 1 : 0;
  if (o.workers !== undefined) integerIn(where, 'workers', o.workers, 1, MAX_WORKERS);
  checkWorkerUrl(where, o.workerUrl);
  checkTimeout(where, o.timeoutMs);
  if (o.pool !== undefined) {
    if (!isPool(o.pool)) throw new TypeError(`${where}: pool must be a WorkerPool, got ${show(o.pool)}`);
    if (o.pool.isDisposed) throw new Error(`${where}: the pool was disposed`);
    if (o.workers !== undefined && o.workers !== o.pool.size + callerShare) {
      throw new RangeError(
        `${where}: workers is ${o.workers} but the pool has ${o.pool.size}` +
          (callerShare === 1 ? ' (the calling thread runs one region more)' : ''),
      );
    }
    for (const key of ['workerUrl', 'timeoutMs', 'inThread'] as const) {
      if (o[key] !== undefined) {
        throw new TypeError(
          `${where}: ${key} configures a pool of the broadphase's own; with pool, give it to the WorkerPool (or leave pool out)`,
        );
      }
    }
  }
  const rebalanceAt = o.rebalanceAt ?? 1.25;
  if (typeof rebalanceAt !== 'number' || !(rebalanceAt >= 1 && rebalanceAt < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`${where}: rebalanceAt must be a finite number >= 1, got ${show(rebalanceAt)}`);
  }
  const layoutInterval = o.layoutInterval ?? 8;
  integerIn(where, 'layoutInterval', layoutInterval, 1, Number.MAX_SAFE_INTEGER);
  const minBoxesPerRegion = o.minBoxesPerRegion ?? 1024;
  integerIn(where, 'minBoxesPerRegion', minBoxesPerRegion, 1, Number.MAX_SAFE_INTEGER);
  const twoPhase = o.twoPhase ?? 'auto';
  if (twoPhase !== 'auto' && twoPhase !== 'always' && twoPhase !== 'never') {
    throw new RangeError(`${where}: twoPhase must be 'auto', 'always' or 'never', got ${show(o.twoPhase)}`);
  }
  const regions = o.pool ? o.pool.size + callerShare : (o.workers ?? Math.min(defaultRegions(), 8));
  const callerRegion = o.pool ? callerShare === 1 : (o.callerRegion ?? callerCanBlock);
  if (twoPhase === 'always' && (regions < 2 || regions > MAX_MASKED_REGIONS)) {
    throw new RangeError(
      `${where}: twoPhase 'always' needs 2 to ${MAX_MASKED_REGIONS} regions (workers), got ${regions}`,
    );
  }
  return {
    dimensions: o.dimensions,
    initialCapacity: o.initialCapacity ?? 64,
    validate: o.validate ?? false,
    regions,
    pool: o.pool,
    workerUrl: o.workerUrl,
    timeoutMs: o.timeoutMs,
    inThread: o.inThread ?? false,
    callerRegion,
    rebalanceAt,
    layoutInterval,
    minBoxesPerRegion,
    twoPhase,
  };
}
