/**
 * The public options and statistics of the matter-js adapter: how {@link installSieve} is configured
 * (broadphase kind, the sweep-or-broadphase threshold, the clock) and what a
 * `SieveDetector` reports after each step. Types only, plus the default threshold (the
 * algorithms and their published sources are described with the detector and the sweep).
 */
import type { OctreeOptions, SweepAndPruneOptions } from '@sieve/core';
import type { MatterModuleLike } from './matterTypes.js';
import type { ParallelBroadphaseOptions } from './parallel.js';
// For the TSDoc links only.
import type { installSieve } from './sieveDetector.js';

/**
 * Which detector answers `Detector.collisions` for the engine: `'sieve'`, Sieve's (the same collisions
 * in the same order as stock, found faster), or `'stock'`, matter-js's own, called as if Sieve were not
 * installed (for side-by-side comparisons). Switchable on a live engine with `SieveDetector.mode`.
 */
export type DetectorMode = 'sieve' | 'stock';

/**
 * Which Sieve broadphase holds the proxies. `'parallel'`: the region-parallel sweep and prune on worker
 * threads (`@sieve/core/parallel`); its update blocks, so it suits Node or a Web Worker, not a page's
 * main thread (see {@link ParallelBroadphaseOptions}).
 */
export type BroadphaseKind = 'sap' | 'octree' | 'parallel';

/**
 * How the last Sieve-mode step was answered: `'sweep'`, matter-js's own sort and sweep (reproduced
 * exactly, without its per-call overheads) for a small world; `'broadphase'`, the incremental
 * broadphase.
 */
export type DetectorPath = 'sweep' | 'broadphase';

/** Default of {@link SieveOptions.sweepBelow}: below this many bodies a sorted sweep costs less. */
export const DEFAULT_SWEEP_BELOW = 4096;

/** Options of {@link installSieve}. */
export interface SieveOptions {
  /**
   * `'sap'` (default): incremental sweep and prune. `'octree'`: Sieve's loose quadtree. `'parallel'`:
   * the region-parallel sweep and prune on worker threads (see {@link BroadphaseKind}). Anything else
   * throws a `RangeError`.
   */
  broadphase?: BroadphaseKind;
  /** Extra options for the SweepAndPrune (cell size of its regions...). */
  sap?: Omit<SweepAndPruneOptions, 'dimensions'>;
  /** Extra options for the Octree. */
  octree?: Omit<OctreeOptions, 'dimensions'>;
  /** Options of the parallel broadphase (workers, a shared pool, the worker script's URL...). */
  parallel?: ParallelBroadphaseOptions;
  /** Start in this mode (`'sieve'` or `'stock'`, else a `RangeError`). Default `'sieve'`. */
  mode?: DetectorMode;
  /**
   * Worlds with fewer bodies than this are answered by matter-js's own sort and sweep, reproduced
   * exactly but cheaper per call (see {@link DetectorPath}); so are larger worlds where most bodies
   * move, up to 32 times this count: the sweep's cost grows with every body, the broadphase's with
   * the moving ones, and its upkeep pays off only when enough of them rest (static or sleeping) or
   * the world is large. The switch follows the world as it grows, shrinks, falls asleep or wakes
   * (after 8 steps in a row preferring the other path, with some hysteresis), and the results are the
   * same either way. A number ≥ 0 (else `installSieve` throws a `RangeError`). Default
   * {@link DEFAULT_SWEEP_BELOW}; `0`: always the broadphase; `Infinity`: always the sweep.
   */
  sweepBelow?: number;
  /**
   * The `Matter` module whose `Detector.collisions` the engine calls. Default: the `matter-js` this
   * package imports. Pass yours if your bundle holds another copy.
   */
  matter?: MatterModuleLike;
  /**
   * The clock for {@link SieveStats}' timings, in milliseconds. Default `performance.now()`, read on
   * the broadphase path and in stock mode only: a reading costs about 50 ns in Node (and allocates
   * about 0.2 KB), which is a few per cent of a whole `Engine.update` of a world of a handful of
   * bodies, so the sweep path of small worlds is timed only when a clock is given here. `false` turns
   * timing off (the `...Ms` stats are then NaN). Anything else throws a `TypeError`.
   */
  clock?: (() => number) | false;
}

/**
 * What the last `Detector.collisions` call did, for overlays and benchmarks. One object per detector,
 * updated in place every step (read it, do not keep references to its numbers' history).
 */
export interface SieveStats {
  /** The mode that answered the last step. */
  mode: DetectorMode;
  /** In Sieve mode, how the last step was answered (the sweep for small worlds, else the broadphase). */
  path: DetectorPath;
  /** Steps answered since install (both modes). */
  steps: number;
  /**
   * Milliseconds in the whole detector call (`Detector.collisions`), either mode; on the sweep path
   * only with a clock given to {@link installSieve} (NaN otherwise, see {@link SieveOptions.clock}).
   */
  detectorMs: number;
  /**
   * Milliseconds in the broadphase part: syncing proxies, the sweep-and-prune update, the x-order,
   * filtering and ordering candidates. NaN in stock mode and on the sweep path (a sweep is not split).
   */
  broadphaseMs: number;
  /**
   * Milliseconds in the narrowphase part (`Collision.collides` on the candidates). NaN in stock mode
   * and on the sweep path.
   */
  narrowphaseMs: number;
  /** Bodies the detector holds. */
  bodies: number;
  /** Proxies moved in the broadphase this step (0 in stock mode and on the sweep path). */
  moved: number;
  /** Pairs of bodies with overlapping bounds, from the broadphase (NaN in stock mode). */
  candidatePairs: number;
  /** Of those, pairs that passed the static/sleeping and collision-filter tests (NaN in stock mode). */
  testedPairs: number;
  /** Collisions returned (`Matter.Collision` records). */
  collisions: number;
}
