/**
 * The Sieve detector of one matter-js engine: answers `Detector.collisions` with stock's collisions
 * in stock's order, by one of two paths chosen per step (see {@link SieveOptions.sweepBelow}).
 *
 * matter-js 0.20's `Engine.update` calls `Detector.collisions(engine.detector)`, which sorts every
 * body by `bounds.min.x` and sweeps (a body is compared with every body whose min.x falls inside its
 * x-extent: about √N bodies each in a square scene, so O(N^1.5) per step). The sweep path is that
 * algorithm reproduced without its per-call overheads ({@link StockSweep}), skipping resting bodies'
 * mutual pairs; the broadphase path ({@link BroadphasePath}, only with a broadphase passed as
 * `options.broadphase`) keeps one proxy per body in an incremental broadphase, so its work follows
 * the moving bodies. A cost model picks the cheaper one (Baraff's sort and sweep; Ericson, Real-Time
 * Collision Detection §7.5.2).
 *
 * No allocation per step once warm; the collisions array is the detector's own, reused as stock
 * reuses it (`Collision.collides` allocates a record only for a new pair, as in stock).
 */
import type { Broadphase } from '@sieve/core';
import { checkBroadphase } from './broadphase.js';
import { BroadphasePath } from './broadphasePath.js';
// For the TSDoc links only.
import type { installSieve } from './install.js';
import type {
  CanCollideFn,
  CollidesFn,
  CollisionsFn,
  MatterBodyLike,
  MatterDetectorLike,
  MatterEngineLike,
  MatterModuleLike,
} from './matterTypes.js';
import {
  checkChoice,
  checkMode,
  checkOptions,
  checkSweepBelow,
  type DetectorMode,
  type SieveOptions,
  type SieveStats,
} from './options.js';
import { COUNT_VISITS_EVERY, upkeep } from './pathChoice.js';
import { callerBroadphases, uninstallSieve } from './registry.js';
import { StaticTracker } from './staticTracker.js';
import { StockSweep } from './sweep.js';
import { addTracker, canTrack, removeTracker } from './trackerPatches.js';

/** Steps a path must be preferred in a row before the detector switches to it. */
const SWITCH_AFTER = 8;

/**
 * A Sieve detector installed on one matter-js engine (see {@link installSieve}). Answers the engine's
 * `Detector.collisions` calls with the same collisions stock matter-js would return, in the same order.
 */
export class SieveDetector {
  /** The engine this detector serves. */
  readonly engine: MatterEngineLike;
  /** The engine's `Matter.Detector` (its identity is what the patched `Detector.collisions` recognises). */
  readonly detector: MatterDetectorLike;
  /** Timing and counts of the last step. */
  readonly stats: SieveStats = {
    mode: 'sieve',
    path: 'sweep',
    steps: 0,
    detectorMs: Number.NaN,
    broadphaseMs: Number.NaN,
    narrowphaseMs: Number.NaN,
    bodies: 0,
    moved: 0,
    candidatePairs: Number.NaN,
    testedPairs: Number.NaN,
    collisions: 0,
  };

  private readonly matter: MatterModuleLike;
  private readonly clock: (() => number) | null;
  /** The clock of the sweep path: only one given in the options. */
  private readonly sweepClock: (() => number) | null;
  private readonly stockCollisions: CollisionsFn;
  /** `Detector.canCollide` at install: while it is still in place, its logic is inlined. */
  private readonly stockCanCollide: unknown;
  private currentMode: DetectorMode;
  private installed = true;
  /** {@link SieveOptions.sweepBelow} (see {@link SieveDetector.sweepBelow}). */
  private threshold: number;
  /** Whether Sieve-mode steps run the sweep (the records and proxies are then left as they were). */
  private sweeping = true;
  /** Bodies that were awake (neither static nor sleeping) in the last Sieve-mode step. */
  private awake = Number.POSITIVE_INFINITY;
  /** The sweep's visits (its work): measured on the sweep path, counted now and then on the other. */
  private visits = 0;
  /** Steps in a row that preferred the other path. */
  private contrary = 0;
  private readonly sweep = new StockSweep();
  /** The broadphase path, or null without a broadphase. */
  private readonly path: BroadphasePath | null;
  /** The static-body tracker ({@link SieveOptions.trackStatic}), or null. */
  private readonly tracker: StaticTracker | null;

  /** @internal Use {@link installSieve}. */
  constructor(
    engine: MatterEngineLike,
    matter: MatterModuleLike,
    stockCollisions: CollisionsFn,
    options: SieveOptions,
  ) {
    this.engine = engine;
    this.detector = engine.detector;
    this.matter = matter;
    this.stockCollisions = stockCollisions;
    this.stockCanCollide = matter.Detector.canCollide;
    const checked = checkOptions(options);
    this.clock = checked.clock;
    this.sweepClock = checked.sweepClock;
    this.threshold = checked.sweepBelow;
    this.currentMode = checked.mode;
    this.stats.mode = checked.mode;
    const broadphase = checkBroadphase(options, callerBroadphases);
    if (options.sweepBelow != null)
      checkChoice(broadphase !== null, checked.sweepBelow, 'installSieve: options.sweepBelow');
    // Every option checked: from here on things are built.
    this.path = broadphase === null ? null : new BroadphasePath(broadphase);
    if (broadphase === null) this.threshold = Number.POSITIVE_INFINITY;
    else callerBroadphases.add(broadphase);
    const world = (engine as { world?: unknown }).world;
    this.tracker =
      checked.trackStatic && canTrack(matter) && world != null && typeof world === 'object'
        ? new StaticTracker(engine as never)
        : null;
    if (this.tracker !== null) {
      this.tracker.enabled = checked.mode === 'sieve';
      addTracker(matter, this.tracker);
    }
  }

  /** `'sieve'` or `'stock'`. Setting it switches on a live engine, effective from the next step. */
  get mode(): DetectorMode {
    return this.currentMode;
  }

  /** Switches between Sieve's detector and stock's (`'sieve'` or `'stock'`, else a RangeError). */
  set mode(mode: DetectorMode) {
    checkMode(mode, 'SieveDetector.mode');
    if (mode === this.currentMode) return;
    if (mode === 'stock') {
      if (!this.sweeping) this.path?.handBack(this.detector.bodies);
    }
    // Back to Sieve: bounds (and maybe the body set) changed while stock answered.
    else this.path?.markStale();
    this.currentMode = mode;
    if (this.tracker !== null) this.tracker.enabled = mode === 'sieve';
  }

  /**
   * {@link SieveOptions.sweepBelow}, changeable on a live engine (a number ≥ 0, else a `RangeError`):
   * `0` puts the next step on the broadphase path and keeps it there, `Infinity` on the sweep path;
   * any other value lets the detector choose again. The results are the same on either path. Without
   * a broadphase (none passed to {@link installSieve}) it is `Infinity`, and any other value throws a
   * `RangeError`.
   */
  get sweepBelow(): number {
    return this.threshold;
  }

  /** Sets {@link SieveOptions.sweepBelow} on the live engine (see the getter). */
  set sweepBelow(value: number) {
    checkSweepBelow(value, 'SieveDetector.sweepBelow');
    checkChoice(this.path !== null, value, 'SieveDetector.sweepBelow');
    this.threshold = value;
    this.contrary = 0;
  }

  /** Whether the sweep reads only the visited bodies this step (static bodies tracked, most of them unvisited). */
  private get tracked(): boolean {
    return this.tracker?.savesReads(this.detector.bodies.length) === true;
  }

  /**
   * The broadphase passed as `options.broadphase` (the caller's to dispose; it holds one proxy per
   * body from the first step the broadphase path answers until uninstall), or null without one (the
   * sweep answers every step).
   */
  get broadphase(): Broadphase | null {
    return this.path?.broadphase ?? null;
  }

  /** Whether this detector is still installed on its engine. */
  get isInstalled(): boolean {
    return this.installed;
  }

  /** Removes this detector from its engine (same as {@link uninstallSieve}). */
  uninstall(): void {
    uninstallSieve(this.engine);
  }

  /** @internal Called by {@link uninstallSieve}. */
  detach(): void {
    const path = this.path;
    if (this.currentMode === 'sieve' && !this.sweeping) path?.handBack(this.detector.bodies);
    this.installed = false;
    if (this.tracker !== null) removeTracker(this.matter, this.tracker);
    if (path === null) return;
    callerBroadphases.delete(path.broadphase);
    // The caller's instance goes back empty, ready for another engine. One it already disposed may
    // refuse the removals: its proxies are then left as they are.
    try {
      path.release();
    } catch {
      // Nothing to hand back.
    }
  }

  /**
   * The bodies whose broadphase proxies overlap `bounds` (`[minX, minY, maxX, maxY]`, the bodies' bounds as
   * of the last Sieve step), written to `out[0..n)`; returns n, or -1 when there are no current
   * proxies (no broadphase passed, the sweep or stock answered the last step, or the world changed
   * since): then scan `detector.bodies` instead. Used by the bullets.
   */
  queryBodies(bounds: ArrayLike<number>, out: MatterBodyLike[]): number {
    const path = this.path;
    if (path === null || !this.installed || this.currentMode !== 'sieve' || this.sweeping) return -1;
    return path.query(bounds, out, this.detector.bodies);
  }

  /**
   * Answers `Detector.collisions(detector)`: the same collisions as stock, in the same order.
   * @internal Called by the patched `Detector.collisions`.
   */
  collisions(detector: MatterDetectorLike): unknown[] {
    const stats = this.stats;
    stats.steps++;
    stats.mode = this.currentMode;
    const clock = this.clock;
    if (this.currentMode === 'stock') {
      const t0 = clock === null ? Number.NaN : clock();
      const out = this.stockCollisions(detector);
      stats.detectorMs = clock === null ? Number.NaN : clock() - t0;
      stats.broadphaseMs = Number.NaN;
      stats.narrowphaseMs = Number.NaN;
      stats.candidatePairs = Number.NaN;
      stats.testedPairs = Number.NaN;
      stats.moved = 0;
      stats.bodies = detector.bodies.length;
      stats.collisions = out.length;
      return out;
    }
    const bodies = detector.bodies;
    if (this.choosePath(bodies.length)) return this.sweepStep(detector);
    // choosePath answers false only with a broadphase path.
    const path = this.path as BroadphasePath;
    const t0 = clock === null ? Number.NaN : clock();
    stats.path = 'broadphase';
    const moved = path.sync(bodies, stats.steps);
    // A world the proxies cannot stand for as stock sees it (a body listed twice, bounds that are
    // not finite or inverted) is answered by the sweep, stock's own algorithm, while it lasts.
    if (moved < 0) return this.sweepStep(detector);
    this.awake = path.awake;
    const canCollide = this.matter.Detector.canCollide as unknown as CanCollideFn;
    // Inline canCollide while it is stock's; call whatever replaced it otherwise.
    const inline = (canCollide as unknown) === this.stockCanCollide;
    const tested = path.gather(canCollide, inline, stats.steps);
    const t1 = clock === null ? Number.NaN : clock();
    if (detector.collisions === undefined) detector.collisions = [];
    const n = path.collide(
      tested,
      this.matter.Collision.collides as unknown as CollidesFn,
      detector.collisions,
      detector.pairs,
    );
    const t2 = clock === null ? Number.NaN : clock();
    stats.broadphaseMs = t1 - t0;
    stats.narrowphaseMs = t2 - t1;
    stats.detectorMs = t2 - t0;
    stats.bodies = path.count;
    stats.moved = moved;
    stats.candidatePairs = path.broadphase.pairCount;
    stats.testedPairs = tested;
    stats.collisions = n;
    return detector.collisions;
  }

  /**
   * Whether this step runs the sweep (see {@link SieveOptions.sweepBelow}). Both paths skip the pairs
   * of two resting bodies (static or sleeping), so both cost about the same per body, the sweep
   * more per pair it looks at (its visits: each awake body against the bodies after it in the
   * x-order up to its `max.x`, each resting one against the awake ones), the broadphase more per
   * awake body. The broadphase is preferred from `sweepBelow` bodies when the last step's visits
   * were at least `11 × bodies + 100 × awake bodies` (counted every 16 steps while it answers), and
   * kept down to 7/8 of `sweepBelow` bodies and 3/4 of that many visits. A switch waits for 8 steps
   * in a row preferring the other path. `sweepBelow` 0 or `Infinity` forces a path at once. Handing
   * back leaves `detector.bodies` in stock's order (the sweep sorts it from there, as stock would);
   * taking over resyncs from it (its order is stock's).
   */
  private choosePath(n: number): boolean {
    const t = this.threshold;
    let broadphase: boolean;
    // Whether to switch without waiting: a forced path (0 or Infinity).
    let now: boolean;
    if (t === Number.POSITIVE_INFINITY) {
      broadphase = false;
      now = true;
    } else if (this.sweeping) {
      now = t === 0;
      broadphase = now || (n >= t && this.visits >= upkeep(n, this.awake, this.tracked));
    } else {
      const low = t - Math.floor(t / 8);
      now = false;
      const path = this.path as BroadphasePath;
      if (t > 0 && this.stats.steps % COUNT_VISITS_EVERY === 0) {
        this.visits = path.countVisits(upkeep(path.count, this.awake, this.tracked));
      }
      broadphase = t === 0 || (n >= low && 4 * this.visits >= 3 * upkeep(n, this.awake, this.tracked));
    }
    if (broadphase !== this.sweeping) {
      this.contrary = 0;
      return this.sweeping;
    }
    if (!now && ++this.contrary < SWITCH_AFTER) return this.sweeping;
    this.contrary = 0;
    if (this.sweeping) {
      this.sweeping = false;
      this.path?.markStale();
    } else {
      this.path?.handBack(this.detector.bodies);
      this.sweeping = true;
    }
    return this.sweeping;
  }

  /** A Sieve-mode step answered by the sweep (stock itself when a bound is not finite). */
  private sweepStep(detector: MatterDetectorLike): unknown[] {
    const stats = this.stats;
    const clock = this.sweepClock;
    const t0 = clock === null ? Number.NaN : clock();
    stats.path = 'sweep';
    if (detector.collisions === undefined) detector.collisions = [];
    const canCollide = this.matter.Detector.canCollide as unknown as CanCollideFn;
    const n = this.sweep.collisions(
      detector.bodies,
      detector.collisions,
      detector.pairs,
      canCollide,
      (canCollide as unknown) === this.stockCanCollide,
      this.matter.Collision.collides as unknown as CollidesFn,
      this.tracker,
    );
    let out = detector.collisions;
    if (n < 0) out = this.stockCollisions(detector);
    this.awake = n < 0 ? detector.bodies.length : this.sweep.counts.awake;
    this.visits = n < 0 ? 0 : this.sweep.counts.visited;
    stats.detectorMs = clock === null ? Number.NaN : clock() - t0;
    stats.broadphaseMs = Number.NaN;
    stats.narrowphaseMs = Number.NaN;
    stats.bodies = detector.bodies.length;
    stats.moved = 0;
    stats.candidatePairs = n < 0 ? Number.NaN : this.sweep.counts.candidates;
    stats.testedPairs = n < 0 ? Number.NaN : this.sweep.counts.tested;
    stats.collisions = out.length;
    return out;
  }
}
