/**
 * The public options and statistics of the matter-js adapter: how {@link installSieve} is configured
 * (the broadphase, the sweep-or-broadphase threshold, the clock) and what a
 * `SieveDetector` reports after each step. Types, the default threshold and the checks of the options
 * other than the broadphase's (the algorithms and their published sources are described with the
 * detector and the sweep).
 */
import { type Broadphase, optionKeys } from '@sieve/core';
// installSieve and uninstallSieve: for the TSDoc links only.
import type { installSieve } from './install.js';
import type { MatterModuleLike, MatterPluginLike } from './matterTypes.js';
import type { uninstallSieve } from './registry.js';

/**
 * Which detector answers `Detector.collisions` for the engine: `'sieve'`, Sieve's (the same collisions
 * in the same order as stock, found faster), or `'stock'`, matter-js's own, called as if Sieve were not
 * installed (for side-by-side comparisons). Switchable on a live engine with `SieveDetector.mode`.
 */
export type DetectorMode = 'sieve' | 'stock';

/**
 * How the last Sieve-mode step was answered: `'sweep'`, matter-js's own sort and sweep (reproduced
 * exactly, without its per-call overheads) — every step without a broadphase; with one, for a small
 * world, and at any size for a step whose world the broadphase cannot stand for as stock sees it (a
 * body listed twice in the world, bounds that are not finite or are inverted), so results never
 * depend on the path; `'broadphase'`, the incremental broadphase passed as
 * {@link SieveOptions.broadphase}.
 */
export type DetectorPath = 'sweep' | 'broadphase';

/**
 * Default of {@link SieveOptions.sweepBelow} with a broadphase passed: below this many bodies a sorted
 * sweep costs less. Without a broadphase the threshold is `Infinity` (the sweep answers every step).
 */
export const DEFAULT_SWEEP_BELOW = 4096;

/** Options of {@link installSieve}. */
export interface SieveOptions {
  /**
   * A broadphase for large worlds, to be chosen over the sweep where it is cheaper (see
   * {@link SieveOptions.sweepBelow}): a `Broadphase` instance of `@sieve/core` that you built — empty
   * (`count === 0`), 2-D (`dimensions === 2`), serving no other engine — such as its incremental sweep
   * and prune (`new SweepAndPrune({ dimensions: 2 })`), its loose quadtree
   * (`new Octree({ dimensions: 2 })`) or the region-parallel sweep and prune on worker threads. Default:
   * none, and the sweep answers every step — the faster path in every scene the benchmarks measure
   * but crowds and long static bodies over many moving ones (tilemaps included: static tiles cost the
   * sweep next to nothing), and a page without a broadphase ships about 46 kB less (only the
   * broadphases a page imports are in its bundle):
   *
   * ```ts
   * import { SweepAndPrune } from '@sieve/core';
   * import { installSieve, uninstallSieve } from '@sieve/matter';
   * import Matter from 'matter-js';
   *
   * const engine = Matter.Engine.create();
   * const bp = new SweepAndPrune({ dimensions: 2 });
   * installSieve(engine, { broadphase: bp }); // the sweep, or bp from 4 096 bodies where it pays
   * // ...
   * uninstallSieve(engine); // removes the detector's proxies from bp, leaves bp usable
   * ```
   *
   * On worker threads (`sweepBelow: 0`: always the broadphase):
   *
   * ```ts
   * import { ParallelSweepAndPrune } from '@sieve/core/parallel';
   * import { installSieve, uninstallSieve } from '@sieve/matter';
   * import Matter from 'matter-js';
   *
   * const engine = Matter.Engine.create();
   * const bp = new ParallelSweepAndPrune({ dimensions: 2, workers: 2 });
   * installSieve(engine, { broadphase: bp, sweepBelow: 0 });
   * // ...
   * uninstallSieve(engine);
   * bp.dispose(); // yours to call: stops its worker threads
   * ```
   *
   * An instance is the caller's: {@link uninstallSieve} never disposes it. Its `update()` must be
   * synchronous — the parallel one blocks on `Atomics.wait`, which Node and Web Workers allow and a
   * browser page's main thread does not (run the engine in a worker there; an instance whose
   * `syncUpdate` is false throws a `RangeError` here, not inside `Engine.update`). `null` is the same as
   * leaving it out (no broadphase; so `SieveDetector.broadphase` of one engine can be passed to
   * another's install). The former names
   * `'sap'`, `'octree'` and `'parallel'` throw a `RangeError` saying what to pass instead; so does
   * any other string; a value that is not an object implementing the contract's methods throws a
   * `TypeError`; a non-empty or non-2-D instance a `RangeError`.
   */
  broadphase?: Broadphase;
  /**
   * Not supported: any value throws a `TypeError`. Build the sweep and prune yourself
   * (`new SweepAndPrune({ dimensions: 2, ... })` from `@sieve/core`, its options there) and pass it
   * as {@link SieveOptions.broadphase}.
   */
  sap?: never;
  /**
   * Not supported: any value throws a `TypeError`. Build the Octree yourself
   * (`new Octree({ dimensions: 2, ... })` from `@sieve/core`, its options there) and pass it as
   * {@link SieveOptions.broadphase}.
   */
  octree?: never;
  /**
   * Not supported: any value throws a `TypeError`. Build the parallel broadphase yourself and pass
   * it as {@link SieveOptions.broadphase}
   * (`new ParallelSweepAndPrune({ dimensions: 2, workers, ... })` from `@sieve/core/parallel`).
   */
  parallel?: never;
  /** Start in this mode (`'sieve'` or `'stock'`, else a `RangeError`). Default `'sieve'`. */
  mode?: DetectorMode;
  /**
   * Worlds with fewer bodies than this are answered by matter-js's own sort and sweep, reproduced
   * exactly but cheaper per call (see {@link DetectorPath}); so are larger worlds where the sweep
   * looks at few pairs: both paths skip the pairs of two static or sleeping bodies, the sweep pays
   * per pair it compares, the broadphase per body and per awake body for its upkeep, which pays off
   * only where the sweep compares many (at least 11 per body plus 100 per awake body — 40 per body
   * while static bodies are tracked, as the sweep then reads only the moving ones: tall columns of
   * tiles, long static bodies over many awake ones, huge crowds). The
   * switch follows the world as it grows, shrinks, falls asleep or wakes (after 8 steps in a row
   * preferring the other path, with some hysteresis), and the results are the same either way. A
   * number ≥ 0 (else `installSieve` throws a `RangeError`); `SieveDetector.sweepBelow` changes it on
   * a live engine. Default {@link DEFAULT_SWEEP_BELOW} with a broadphase, `Infinity` (fixed) without
   * one; `0`: always the broadphase; `Infinity`: always the sweep. It chooses between the sweep and {@link SieveOptions.broadphase}: without a
   * broadphase the sweep answers every step, and any value but `Infinity` throws a `RangeError`.
   */
  sweepBelow?: number;
  /**
   * The `Matter` module whose `Detector.collisions` the engine calls. Default: the `matter-js` this
   * package imports. Pass yours if your bundle holds another copy — in Phaser, the copy Phaser
   * bundles: `Phaser.Physics.Matter.Matter`, or the scene's Matter plugin `this.matter` (which holds
   * the same `Detector` and `Collision`, and is typed by Phaser's declarations).
   */
  matter?: MatterModuleLike | MatterPluginLike;
  /**
   * The clock for {@link SieveStats}' timings, in milliseconds. Default `performance.now()`, read on
   * the broadphase path and in stock mode only: a reading costs about 50 ns in Node (and allocates
   * about 0.2 KB), which is a few per cent of a whole `Engine.update` of a world of a handful of
   * bodies, so the sweep path (every step without a broadphase) is timed only when a clock is given
   * here. `false` turns timing off (the `...Ms` stats are then NaN). Anything else throws a `TypeError`.
   */
  clock?: (() => number) | false;
  /**
   * Whether static bodies are visited only after Matter's functions change them. Default `true`:
   * matter-js's `Engine.update` loops over every body several times a step, and its detector reads
   * every body's bounds, though a static body holds the same values step after step; with this on,
   * `Body.setPosition`, `setStatic`, `translate`, `rotate`, `scale`, `setVertices`, `setVelocity`,
   * `applyForce`, ..., and `Sleeping.set` mark the body they change, and each step visits the moving
   * bodies and the static ones marked in the last two steps (stock's own loop functions, on that
   * list). The results are stock's as long as static bodies are changed through Matter's functions
   * (as Matter's documentation asks, and as Phaser does); `false` visits every body every step, as
   * stock does, for code that writes a static body's fields directly (`body.position.x = ...`,
   * `body.isStatic = false`). It takes effect only with the whole Matter module (`matter-js`, or
   * `Phaser.Physics.Matter.Matter` — not the scene's plugin), whose `Body`, `Sleeping`, `Engine`,
   * `Constraint` and `Resolver` functions are wrapped while an engine uses it. `true` or `false`,
   * else a `TypeError`.
   */
  trackStatic?: boolean;
}

/**
 * The keys of {@link SieveOptions}: `installSieve` throws a `TypeError` naming any other key. Kept
 * complete by the compiler (`optionKeys`): add a new option here too.
 */
export const SIEVE_OPTION_KEYS = optionKeys<SieveOptions>({
  broadphase: true,
  sap: true,
  octree: true,
  parallel: true,
  mode: true,
  sweepBelow: true,
  matter: true,
  clock: true,
  trackStatic: true,
});
/** The removed options: known to the key check (each gets its own message), not named in its errors. */
export const REMOVED_OPTION_KEYS = ['sap', 'octree', 'parallel'];

/**
 * What the last `Detector.collisions` call did, for overlays and benchmarks. One object per detector,
 * updated in place every step (read it, do not keep references to its numbers' history).
 */
export interface SieveStats {
  /** The mode that answered the last step. */
  mode: DetectorMode;
  /**
   * In Sieve mode, how the last step was answered: the sweep, or the broadphase passed as
   * `options.broadphase` where it costs less.
   */
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
  /**
   * Pairs of bodies with overlapping bounds, not both static or sleeping (stock skips those first; the
   * broadphase never makes them), NaN in stock mode.
   */
  candidatePairs: number;
  /** Of those, pairs that passed the static/sleeping and collision-filter tests (NaN in stock mode). */
  testedPairs: number;
  /** Collisions returned (`Matter.Collision` records). */
  collisions: number;
}

const now: () => number =
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? () => performance.now()
    : () => Date.now();

/** The options {@link checkOptions} checked, with their defaults filled in. */
export interface CheckedOptions {
  /** The clock of the broadphase path and stock mode; null: no timing. */
  clock: (() => number) | null;
  /** The clock of the sweep path: only one given in the options. */
  sweepClock: (() => number) | null;
  /** {@link SieveOptions.sweepBelow}. */
  sweepBelow: number;
  /** {@link SieveOptions.mode}. */
  mode: DetectorMode;
  /** {@link SieveOptions.trackStatic}. */
  trackStatic: boolean;
}

/** Throws a `RangeError` naming `where` unless `value` is a number ≥ 0 (`Infinity` included). */
export function checkSweepBelow(value: unknown, where: string): void {
  if (typeof value !== 'number' || !(value >= 0)) {
    throw new RangeError(`${where} must be a number ≥ 0 (or Infinity), got ${String(value)}`);
  }
}

/**
 * Throws a `RangeError` naming `where` when `sweepBelow` (checked) asks for a path choice — anything
 * but `Infinity` — and there is no broadphase to choose (`hasBroadphase` false).
 */
export function checkChoice(hasBroadphase: boolean, sweepBelow: number, where: string): void {
  if (hasBroadphase || sweepBelow === Number.POSITIVE_INFINITY) return;
  throw new RangeError(
    `${where}: without options.broadphase the sweep answers every step (sweepBelow is Infinity); for ` +
      'a broadphase path, install with one: installSieve(engine, { broadphase: new SweepAndPrune({ dimensions: 2 }) }) ' +
      "with SweepAndPrune from '@sieve/core' (on a live engine, uninstallSieve(engine) first)",
  );
}

/** Throws a `RangeError` naming `where` unless `mode` is `'sieve'` or `'stock'`. */
export function checkMode(mode: unknown, where: string): void {
  if (mode !== 'sieve' && mode !== 'stock') {
    throw new RangeError(`${where} must be 'sieve' or 'stock', got ${String(mode)}`);
  }
}

/**
 * Checks `options.clock`, `options.sweepBelow` and `options.mode` (in that order; the broadphase is
 * checked apart, after them) and fills in their defaults. Throws a `TypeError` or `RangeError` naming
 * the option.
 */
export function checkOptions(options: SieveOptions): CheckedOptions {
  const clock = options.clock ?? now;
  if (clock !== false && typeof clock !== 'function') {
    throw new TypeError(`installSieve: options.clock must be a function or false, got ${String(clock)}`);
  }
  const timed = clock === false ? null : clock;
  const sweepBelow = options.sweepBelow ?? DEFAULT_SWEEP_BELOW;
  checkSweepBelow(sweepBelow, 'installSieve: options.sweepBelow');
  const mode = options.mode ?? 'sieve';
  checkMode(mode, 'installSieve: options.mode');
  const trackStatic = options.trackStatic ?? true;
  if (typeof trackStatic !== 'boolean') {
    throw new TypeError(
      `installSieve: options.trackStatic must be true or false, got ${String(trackStatic)}`,
    );
  }
  return {
    trackStatic,
    clock: timed,
    sweepClock: options.clock === undefined ? null : timed,
    sweepBelow,
    mode,
  };
}
