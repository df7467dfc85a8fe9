/**
 * Sieve's incremental 2-D sweep and prune as matter-js's broadphase.
 *
 * matter-js 0.20's `Engine.update` calls `Detector.collisions(engine.detector)`, which sorts every
 * body by `bounds.min.x` and sweeps (a body is compared with every body whose min.x falls inside its
 * x-extent: about √N bodies each in a square scene, so O(N^1.5) per step). Here the broadphase is a
 * `SweepAndPrune` of `@sieve/core` by default (the sweep-and-prune notes, §1: per-axis endpoint lists kept
 * sorted by insertion sort, §1.3: overlap on every axis, §2: regions) holding one proxy per body with
 * the body's `bounds`, moved only when the bounds changed (static and sleeping bodies cost nothing),
 * so the candidate pairs are exactly the bounds-overlapping ones.
 *
 * Same results as stock, bit for bit:
 * - Candidates are the pairs of bodies whose bounds overlap, inclusive on both axes — stock's test
 *   (`boundsB.min.x > boundXMax` breaks, `boundYMax < boundsB.min.y || boundYMin > boundsB.max.y`
 *   skips: touching bounds are tested) and Sieve's (inclusive overlap) are the same.
 * - Then stock's filters in stock's order, and stock's order of the collisions (the body order of
 *   stock's stable sort by min.x, kept by {@link XOrder}): see {@link Candidates}.
 *
 * The bodies, their proxies and the bounds each proxy holds live in core's `BodyTable` (the engine
 * seam both adapters share): bodies are found by id, added and removed bodies noticed by a stamp pass
 * when matter-js hands over a new body list, moves batched into one `moveMany`, and pairs read back as
 * records through the tag each proxy carries.
 *
 * No allocation per step once warm: typed arrays grow by doubling; the collisions array is the
 * detector's own, reused as stock reuses it (`Collision.collides` allocates a record only for a new
 * pair, as in stock).
 */
import { BodyTable, type BodyTableHooks, type Broadphase, growArray, NO_PROXY } from '@sieve/core';
import { buildBroadphase, checkBroadphase, releaseOwnBroadphase } from './broadphase.js';
import { Candidates } from './candidates.js';
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
  checkMode,
  checkOptions,
  checkSweepBelow,
  type DetectorMode,
  type SieveOptions,
  type SieveStats,
} from './options.js';
import { COUNT_VISITS_EVERY, upkeep, VisitCounter } from './pathChoice.js';
import { callerBroadphases, uninstallSieve } from './registry.js';
import { StaticTracker } from './staticTracker.js';
import { StockSweep } from './sweep.js';
import { addTracker, canTrack, removeTracker } from './trackerPatches.js';
import { XOrder } from './xOrder.js';

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
  /**
   * The broadphase holding one proxy per body: the `SweepAndPrune` built for `options.broadphase`
   * `'sap'`, or the instance passed there (the caller's to dispose).
   */
  readonly broadphase: Broadphase;
  /** Whether {@link SieveDetector.broadphase} was built here (else the caller passed it and owns it). */
  private readonly ownsBroadphase: boolean;
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
  private readonly visitCounter = new VisitCounter();
  /** Steps in a row that preferred the other path. */
  private contrary = 0;
  private readonly sweep = new StockSweep();
  /** The static-body tracker ({@link SieveOptions.trackStatic}), or null. */
  private readonly tracker: StaticTracker | null;

  /**
   * Records (one per body; core's engine seam): the body, its proxy and the bounds the proxy holds
   * (minX, minY, maxX, maxY); `index` is the body's position in `detector.bodies` at the last resync
   * (the tie key of the sort after a resync).
   */
  private readonly table: BodyTable<MatterBodyLike>;
  /** bounds.min.x of each record: the x-order's key. */
  private minX = new Float64Array(0);
  /** Per record: the filter fields of its body, the candidates and the narrowphase of the step. */
  private readonly candidates = new Candidates();
  /** 1 for a freed record (until the table reuses it): what {@link XOrder.compact} drops. */
  private dead = new Uint8Array(0);
  /**
   * Per record: 1 when its proxy is static in the broadphase (its body static or sleeping at the last
   * sync). Two such proxies never make a pair — stock skips those pairs before any other test.
   */
  private resting = new Uint8Array(0);
  /** Whether the broadphase keeps static proxies (`setStatic`; every broadphase of `@sieve/core`). */
  private readonly staticProxies: boolean;
  private readonly xOrder = new XOrder();

  /** `detector.bodies` as of the last sync; a new array means matter-js called `Detector.setBodies`. */
  private lastBodies: MatterBodyLike[] | null = null;
  private needResync = true;

  /** Scratch of {@link SieveDetector.queryBodies}. */
  private readonly queryRecords: number[] = [];

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
    const choice = checkBroadphase(options, callerBroadphases);
    // Every option checked: from here on things are built.
    const built = buildBroadphase(choice, options);
    this.broadphase = built.broadphase;
    this.ownsBroadphase = built.owned;
    this.staticProxies = typeof (this.broadphase as Partial<Broadphase>).setStatic === 'function';
    const hooks: BodyTableHooks = {
      grow: (capacity) => {
        this.candidates.grow(capacity);
        this.minX = growArray(this.minX, capacity);
        this.dead = growArray(this.dead, capacity);
        this.resting = growArray(this.resting, capacity);
        this.xOrder.reserve(capacity);
      },
      added: (r) => {
        this.dead[r] = 0;
        this.resting[r] = 0;
        this.minX[r] = (this.table.bodies[r] as MatterBodyLike).bounds.min.x;
        this.xOrder.push(r);
      },
      removed: (r) => {
        this.dead[r] = 1;
      },
    };
    this.table = new BodyTable<MatterBodyLike>(this.broadphase, hooks);
    if (!this.ownsBroadphase) callerBroadphases.add(this.broadphase);
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
      if (!this.sweeping) this.handBackOrder();
    }
    // Back to Sieve: bounds (and maybe the body set) changed while stock answered.
    else this.needResync = true;
    this.currentMode = mode;
    if (this.tracker !== null) this.tracker.enabled = mode === 'sieve';
  }

  /**
   * {@link SieveOptions.sweepBelow}, changeable on a live engine (a number ≥ 0, else a `RangeError`):
   * `0` puts the next step on the broadphase path and keeps it there, `Infinity` on the sweep path;
   * any other value lets the detector choose again. The results are the same on either path.
   */
  get sweepBelow(): number {
    return this.threshold;
  }

  /** Sets {@link SieveOptions.sweepBelow} on the live engine (see the getter). */
  set sweepBelow(value: number) {
    checkSweepBelow(value, 'SieveDetector.sweepBelow');
    this.threshold = value;
    this.contrary = 0;
  }

  /** Whether the sweep reads only the visited bodies this step (static bodies tracked, most of them unvisited). */
  private get tracked(): boolean {
    return this.tracker?.savesReads(this.detector.bodies.length) === true;
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
    if (this.currentMode === 'sieve' && !this.sweeping) this.handBackOrder();
    this.installed = false;
    if (this.tracker !== null) removeTracker(this.matter, this.tracker);
    if (this.ownsBroadphase) {
      releaseOwnBroadphase(this.broadphase);
      return;
    }
    callerBroadphases.delete(this.broadphase);
    // The caller's instance goes back empty, ready for another engine. One it already disposed may
    // refuse the removals: its proxies are then left as they are.
    try {
      this.table.reset();
    } catch {
      // Nothing to hand back.
    }
  }

  /**
   * The bodies whose broadphase proxies overlap `bounds` (`[minX, minY, maxX, maxY]`, the bodies' bounds as
   * of the last Sieve step), written to `out[0..n)`; returns n, or -1 when the proxies are not current
   * (stock mode, or the world changed since): then scan `detector.bodies` instead. Used by the bullets.
   */
  queryBodies(bounds: ArrayLike<number>, out: MatterBodyLike[]): number {
    if (
      !this.installed ||
      this.currentMode !== 'sieve' ||
      this.sweeping ||
      this.isStale(this.detector.bodies)
    ) {
      return -1;
    }
    const records = this.queryRecords;
    records.length = 0;
    const n = this.table.queryRecords(bounds, records);
    const bodyOf = this.table.bodies;
    for (let i = 0; i < n; i++) out[i] = bodyOf[records[i]] as MatterBodyLike;
    return n;
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
    const t0 = clock === null ? Number.NaN : clock();
    stats.path = 'broadphase';
    const resync = this.isStale(bodies);
    // A world the proxies cannot stand for as stock sees it is answered by the sweep (stock's own
    // results) for as long as it lasts: a body listed twice (found by the resync, before the proxies
    // change), or a body whose bounds are not finite or inverted (found by the sync: left unplaced).
    if (resync && !this.resync(bodies)) return this.stockWorldStep(detector, false);
    stats.moved = this.syncBounds();
    this.table.commit();
    if (this.table.proxied !== this.table.live) return this.stockWorldStep(detector, !resync);
    // Stable sort by min.x: ties keep the order of detector.bodies after a resync (setBodies, or the
    // order stock left), else the previous step's order.
    this.xOrder.sort(this.minX, resync ? this.table.index : this.xOrder.rank);
    const canCollide = this.matter.Detector.canCollide as unknown as CanCollideFn;
    // Inline canCollide while it is stock's; call whatever replaced it otherwise.
    const inline = (canCollide as unknown) === this.stockCanCollide;
    const candidates = this.candidates;
    const tested = candidates.gather(this.table, this.xOrder, canCollide, inline, stats.steps);
    const t1 = clock === null ? Number.NaN : clock();
    if (detector.collisions === undefined) detector.collisions = [];
    const n = candidates.collide(
      tested,
      this.xOrder.order,
      this.table.bodies,
      this.matter.Collision.collides as unknown as CollidesFn,
      detector.collisions,
      detector.pairs,
    );
    const t2 = clock === null ? Number.NaN : clock();
    stats.broadphaseMs = t1 - t0;
    stats.narrowphaseMs = t2 - t1;
    stats.detectorMs = t2 - t0;
    stats.bodies = this.xOrder.count;
    stats.candidatePairs = this.broadphase.pairCount;
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
    // Whether to switch without waiting: forced (0 or Infinity), or a world too large for the sweep.
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
      if (t > 0 && this.stats.steps % COUNT_VISITS_EVERY === 0) {
        const cost = upkeep(this.xOrder.count, this.awake, this.tracked);
        const x = this.xOrder;
        this.visits = this.visitCounter.count(
          x.order,
          x.count,
          this.minX,
          this.table.boxes,
          this.resting,
          cost,
        );
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
      this.needResync = true;
    } else {
      this.handBackOrder();
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

  /**
   * Whether the records no longer match `bodies`: a switch back from stock, or matter-js replaced
   * (`Detector.setBodies`) or resized the array since the last resync.
   */
  private isStale(bodies: MatterBodyLike[]): boolean {
    return this.needResync || bodies !== this.lastBodies || bodies.length !== this.xOrder.count;
  }

  /**
   * Brings the records in line with `detector.bodies`: new bodies get records (their proxies come with
   * the next sync), gone ones lose them. Returns false when a body is listed twice (`Composite.add` of a
   * body already in the world: stock then pairs it with itself and twice with its neighbours); it
   * keeps one record for it, and the step is left to the sweep.
   */
  private resync(bodies: MatterBodyLike[]): boolean {
    this.needResync = false;
    this.lastBodies = bodies;
    const table = this.table;
    const n = bodies.length;
    let distinct = 0;
    table.beginPass(n);
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      const seen = table.find(body, body.id);
      if (seen >= 0 && table.visited(seen)) continue;
      table.visit(body, body.id, i);
      distinct++;
    }
    // Records not visited (their bodies left the world) are freed; freed records stay marked dead
    // until the table reuses them (compact only visits live ones).
    if (table.endPass(distinct) > 0) this.xOrder.compact(this.dead);
    return distinct === n;
  }

  /**
   * A broadphase-path step in a world whose proxies cannot give stock's answer — a body listed twice,
   * or bounds that are not finite or inverted (stock still tests such a body, by its comparisons'
   * rules) — answered by the sweep, which is stock's algorithm (and stock itself for a non-finite
   * `min.x`), so results never depend on the path. `handBack`: `detector.bodies` is not in stock's
   * order yet (no resync this step); it is put there first. The next broadphase step resyncs from it.
   */
  private stockWorldStep(detector: MatterDetectorLike, handBack: boolean): unknown[] {
    if (handBack) this.handBackOrder();
    this.needResync = true;
    return this.sweepStep(detector);
  }

  /**
   * Moves every proxy whose body's bounds changed (one `moveMany`); inserts proxies for new bodies and
   * bodies whose bounds became finite again; a body with non-finite or inverted bounds (a broken
   * simulation) has no proxy, and the step goes to the sweep (see `stockWorldStep`). Returns how
   * many proxies moved.
   */
  private syncBounds(): number {
    const table = this.table;
    const records = table.used;
    const bodyOf = table.bodies;
    const box = table.boxes;
    const minX = this.minX;
    const candidates = this.candidates;
    const step = this.stats.steps;
    const resting = this.resting;
    const statics = this.staticProxies;
    let awake = 0;
    // In record order: bodies were created (and laid out in memory) roughly in that order.
    for (let r = 0; r < records; r++) {
      const body = bodyOf[r];
      if (body === null) continue;
      const rest = body.isStatic || body.isSleeping ? 1 : 0;
      awake += 1 - rest;
      // Static or sleeping now (Body.setStatic, Sleeping.set, or the flags written directly): the
      // proxy follows at this update, before any pair is read.
      if (rest !== resting[r]) this.flip(r, statics);
      const bounds = body.bounds;
      const min = bounds.min;
      const max = bounds.max;
      const x0 = min.x;
      const y0 = min.y;
      const x1 = max.x;
      const y1 = max.y;
      minX[r] = x0;
      const o = 4 * r;
      if (box[o] === x0 && box[o + 1] === y0 && box[o + 2] === x1 && box[o + 3] === y1) continue;
      // A moving body is likely in a pair: read its flags while its object is in cache.
      candidates.read(r, body, step);
      box[o] = x0;
      box[o + 1] = y0;
      box[o + 2] = x1;
      box[o + 3] = y1;
      if (
        x0 <= x1 &&
        y0 <= y1 &&
        x0 > Number.NEGATIVE_INFINITY &&
        y0 > Number.NEGATIVE_INFINITY &&
        x1 < Number.POSITIVE_INFINITY &&
        y1 < Number.POSITIVE_INFINITY
      ) {
        if (table.handles[r] !== NO_PROXY)
          table.place(r); // a move into the batch
        else {
          table.place(r); // a new proxy: dynamic until told otherwise
          if (resting[r] === 1 && statics) this.broadphase.setStatic(table.handles[r], true);
        }
      } else {
        table.unplace(r);
      }
    }
    this.awake = awake;
    return table.pendingMoves;
  }

  /**
   * Record r's body turned static or sleeping, or woke: its proxy (if any) follows, when the
   * broadphase keeps static proxies (`statics`).
   */
  private flip(r: number, statics: boolean): void {
    const now = this.resting[r] === 1 ? 0 : 1;
    this.resting[r] = now;
    const handle = this.table.handles[r];
    if (statics && handle !== NO_PROXY) this.broadphase.setStatic(handle, now === 1);
  }

  /**
   * Before stock answers again: leave `detector.bodies` in the order stock would have left it, so a
   * switch keeps the simulation identical.
   */
  private handBackOrder(): void {
    const bodies = this.detector.bodies;
    if (this.isStale(bodies)) return;
    const order = this.xOrder.order;
    const bodyOf = this.table.bodies;
    for (let p = 0; p < bodies.length; p++) bodies[p] = bodyOf[order[p]] as MatterBodyLike;
  }
}
