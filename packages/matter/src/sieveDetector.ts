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
 * - Then stock's filters in stock's order: both static-or-sleeping → skip; `Detector.canCollide` on
 *   the parents' `collisionFilter` (group, then category/mask); then, for a compound body, each pair
 *   of parts 1.. with overlapping part bounds; `Collision.collides(partA, partB, detector.pairs)`.
 * - Order: which body goes first into `Collision.collides` (it decides ties in the SAT axis choice)
 *   and the order of the collisions array (the order new pairs enter `pairs.list`, which the resolver
 *   follows, and the order of the collisionStart/Active pairs) follow stock's stable sort by min.x,
 *   kept by {@link XOrder}; the surviving pairs are sorted by (rank of first, rank of second) with
 *   core's `PairOrder` (two counting sorts).
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
import { BodyTable, type BodyTableHooks, type Broadphase, growArray, PairOrder } from '@sieve/core';
import Matter from 'matter-js';
import { buildBroadphase, checkBroadphase, releaseOwnBroadphase } from './broadphase.js';
import type {
  CanCollideFn,
  CollidesFn,
  CollisionsFn,
  MatterBodyLike,
  MatterDetectorLike,
  MatterEngineLike,
  MatterModuleLike,
} from './matterTypes.js';
import { DEFAULT_SWEEP_BELOW, type DetectorMode, type SieveOptions, type SieveStats } from './options.js';
import { StockSweep } from './sweep.js';
import { XOrder } from './xOrder.js';

export {
  type BroadphaseKind,
  DEFAULT_SWEEP_BELOW,
  type DetectorMode,
  type DetectorPath,
  type SieveOptions,
  type SieveStats,
} from './options.js';

/** Steps a path must be preferred in a row before the detector switches to it. */
const SWITCH_AFTER = 8;
/** From `ALL_MOVING × sweepBelow` bodies the broadphase is used even when every body moves. */
const ALL_MOVING = 32;

const RESTING = 1;
const COMPOUND = 2;
const EXOTIC = 4;

const now: () => number =
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? () => performance.now()
    : () => Date.now();

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
   * The broadphase holding one proxy per body: the `SweepAndPrune` or `Octree` built for
   * `options.broadphase` `'sap'` or `'octree'`, or the instance passed there (the caller's to dispose).
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
  /** {@link SieveOptions.sweepBelow}. */
  private readonly sweepBelow: number;
  /** Whether Sieve-mode steps run the sweep (the records and proxies are then left as they were). */
  private sweeping = true;
  /** Bodies that moved (broadphase path) or were awake and dynamic (sweep path) in the last step. */
  private moving = Number.POSITIVE_INFINITY;
  /** Steps in a row that preferred the other path. */
  private contrary = 0;
  private readonly sweep = new StockSweep();

  /**
   * Records (one per body; core's engine seam): the body, its proxy and the bounds the proxy holds
   * (minX, minY, maxX, maxY); `index` is the body's position in `detector.bodies` at the last resync
   * (the tie key of the sort after a resync).
   */
  private readonly table: BodyTable<MatterBodyLike>;
  /** bounds.min.x of each record: the x-order's key. */
  private minX = new Float64Array(0);
  /**
   * Per record, read once per step: while syncing bounds for a body that moved, else the first time
   * one of its pairs is looked at (a still body in no candidate pair is not read): RESTING (static or sleeping), COMPOUND (parts.length ≠ 1),
   * EXOTIC (a collision filter field that is not a number: its pairs go through
   * `Detector.canCollide` itself), with the collision filter's fields.
   */
  private flags = new Uint8Array(0);
  /** The step at which `flags`... of a record were read. */
  private readStep = new Int32Array(0);
  private group = new Float64Array(0);
  private category = new Int32Array(0);
  private mask = new Int32Array(0);
  /** 1 for a freed record (until the table reuses it): what {@link XOrder.compact} drops. */
  private dead = new Uint8Array(0);
  private readonly xOrder = new XOrder();

  /** `detector.bodies` as of the last sync; a new array means matter-js called `Detector.setBodies`. */
  private lastBodies: MatterBodyLike[] | null = null;
  private needResync = true;

  // Per-step scratch.
  /** The candidates kept this step, keyed (rank of first, rank of second) in the x-order. */
  private readonly order = new PairOrder();
  /** `Collision.collides` result per candidate (single-part pairs), computed in broadphase order. */
  private readonly results: unknown[] = [];
  /** Scratch of {@link queryBodies}. */
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
    const clock = options.clock ?? now;
    if (clock !== false && typeof clock !== 'function') {
      throw new TypeError(`installSieve: options.clock must be a function or false, got ${String(clock)}`);
    }
    this.clock = clock === false ? null : clock;
    this.sweepClock = options.clock === undefined ? null : this.clock;
    const sweepBelow = options.sweepBelow ?? DEFAULT_SWEEP_BELOW;
    if (typeof sweepBelow !== 'number' || !(sweepBelow >= 0)) {
      throw new RangeError(
        `installSieve: options.sweepBelow must be a number ≥ 0 (or Infinity), got ${String(sweepBelow)}`,
      );
    }
    this.sweepBelow = sweepBelow;
    const mode = options.mode ?? 'sieve';
    checkMode(mode, 'installSieve: options.mode');
    this.currentMode = mode;
    this.stats.mode = mode;
    const choice = checkBroadphase(options, callerBroadphases);
    // Every option checked: from here on things are built.
    const built = buildBroadphase(choice, options);
    this.broadphase = built.broadphase;
    this.ownsBroadphase = built.owned;
    const hooks: BodyTableHooks = {
      grow: (capacity) => {
        this.readStep = growArray(this.readStep, capacity);
        this.category = growArray(this.category, capacity);
        this.mask = growArray(this.mask, capacity);
        this.group = growArray(this.group, capacity);
        this.flags = growArray(this.flags, capacity);
        this.minX = growArray(this.minX, capacity);
        this.dead = growArray(this.dead, capacity);
        this.xOrder.reserve(capacity);
      },
      added: (r) => {
        this.dead[r] = 0;
        this.minX[r] = (this.table.bodies[r] as MatterBodyLike).bounds.min.x;
        this.xOrder.push(r);
      },
      removed: (r) => {
        this.dead[r] = 1;
      },
    };
    this.table = new BodyTable<MatterBodyLike>(this.broadphase, hooks);
    if (!this.ownsBroadphase) callerBroadphases.add(this.broadphase);
  }

  /** `'sieve'` or `'stock'`. Setting it switches on a live engine, effective from the next step. */
  get mode(): DetectorMode {
    return this.currentMode;
  }

  set mode(mode: DetectorMode) {
    checkMode(mode, 'SieveDetector.mode');
    if (mode === this.currentMode) return;
    if (mode === 'stock') {
      if (!this.sweeping) this.handBackOrder();
    }
    // Back to Sieve: bounds (and maybe the body set) changed while stock answered.
    else this.needResync = true;
    this.currentMode = mode;
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
    if (resync) this.resync(bodies);
    stats.moved = this.syncBounds();
    this.moving = stats.moved;
    this.table.commit();
    // Stable sort by min.x: ties keep the order of detector.bodies after a resync (setBodies, or the
    // order stock left), else the previous step's order.
    this.xOrder.sort(this.minX, resync ? this.table.index : this.xOrder.rank);
    const tested = this.gatherCandidates();
    const t1 = clock === null ? Number.NaN : clock();
    if (detector.collisions === undefined) detector.collisions = [];
    const n = this.narrowphase(tested, detector.collisions, detector.pairs);
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
   * Whether this step runs the sweep (see {@link SieveOptions.sweepBelow}). The broadphase is
   * preferred from `sweepBelow` bodies when at most half of them moved last step, or from
   * `32 × sweepBelow` bodies; once on it, it is kept down to 7/8 of those counts and up to 60 %
   * moving. A switch waits for 8 steps in a row preferring the other path, except into the
   * broadphase for a world of `32 × sweepBelow` bodies. Handing back leaves `detector.bodies` in
   * stock's order (the sweep sorts it from there, as stock would); taking over resyncs from it (its
   * order is stock's).
   */
  private choosePath(n: number): boolean {
    const t = this.sweepBelow;
    const huge = n >= ALL_MOVING * t;
    let broadphase: boolean;
    if (this.sweeping) {
      broadphase = huge || (n >= t && 2 * this.moving <= n);
    } else {
      const low = t - Math.floor(t / 8);
      broadphase = n >= ALL_MOVING * low || (n >= low && 5 * this.moving <= 3 * n);
    }
    if (broadphase !== this.sweeping) {
      this.contrary = 0;
      return this.sweeping;
    }
    if (++this.contrary < SWITCH_AFTER && !(huge && this.sweeping)) return this.sweeping;
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
    );
    let out = detector.collisions;
    if (n < 0) out = this.stockCollisions(detector);
    this.moving = n < 0 ? detector.bodies.length : this.sweep.counts.awake;
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

  /** Brings the records in line with `detector.bodies`: new bodies get proxies, gone ones lose them. */
  private resync(bodies: MatterBodyLike[]): void {
    this.needResync = false;
    this.lastBodies = bodies;
    const table = this.table;
    const n = bodies.length;
    table.beginPass(n);
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      const seen = table.find(body, body.id);
      if (seen >= 0 && table.visited(seen)) {
        throw new Error(`@sieve/matter: body ${body.id} appears twice in detector.bodies`);
      }
      table.visit(body, body.id, i);
    }
    // Records not visited (their bodies left the world) are freed; freed records stay marked dead
    // until the table reuses them (compact only visits live ones).
    if (table.endPass(n) > 0) this.xOrder.compact(this.dead);
  }

  /**
   * Moves every proxy whose body's bounds changed (one `moveMany`); inserts proxies for new bodies and bodies whose bounds became finite again; a
   * body with non-finite or inverted bounds (a broken simulation) has no proxy and so no collisions.
   * Returns how many proxies moved.
   */
  private syncBounds(): number {
    const table = this.table;
    const records = table.used;
    const bodyOf = table.bodies;
    const box = table.boxes;
    const minX = this.minX;
    const step = this.stats.steps;
    // In record order: bodies were created (and laid out in memory) roughly in that order.
    for (let r = 0; r < records; r++) {
      const body = bodyOf[r];
      if (body === null) continue;
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
      this.readBody(r, step);
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
        table.place(r); // a move into the batch, or a new proxy
      } else {
        table.unplace(r);
      }
    }
    return table.pendingMoves;
  }

  /** Reads record r's flags and collision filter for this step; returns the flags. */
  private readBody(r: number, step: number): number {
    const body = this.table.bodies[r] as MatterBodyLike;
    const filter = body.collisionFilter;
    const g = filter.group;
    const c = filter.category;
    const m = filter.mask;
    let f = body.isStatic || body.isSleeping ? RESTING : 0;
    if (body.parts.length !== 1) f |= COMPOUND;
    if (typeof g !== 'number' || typeof c !== 'number' || typeof m !== 'number') f |= EXOTIC;
    this.flags[r] = f;
    this.group[r] = g as number;
    // Stored as `&` sees them (ToInt32), which is how canCollide uses category and mask.
    this.category[r] = c as number;
    this.mask[r] = m as number;
    this.readStep[r] = step;
    return f;
  }

  /**
   * Turns the broadphase's pairs (as records) into stock's body pairs: filters (static/sleeping,
   * collision filters), keys each pair by the ranks of its bodies in the x-order (first = earlier) and
   * sorts them by (rank of first, rank of second). Returns how many remain.
   */
  private gatherCandidates(): number {
    const table = this.table;
    const pairs = table.pairRecords();
    const count = table.pairCount;
    const order = this.order;
    order.clear();
    order.reserve(count);
    const canCollide = this.matter.Detector.canCollide as unknown as CanCollideFn;
    // Inline canCollide while it is stock's; call whatever replaced it otherwise.
    const inline = (canCollide as unknown) === this.stockCanCollide;
    const step = this.stats.steps;
    const readStep = this.readStep;
    const flags = this.flags;
    const group = this.group;
    const category = this.category;
    const mask = this.mask;
    const bodyOf = table.bodies;
    const rank = this.xOrder.rank;
    for (let i = 0; i < count; i++) {
      const a = pairs[2 * i];
      const b = pairs[2 * i + 1];
      const fa = readStep[a] === step ? flags[a] : this.readBody(a, step);
      const fb = readStep[b] === step ? flags[b] : this.readBody(b, step);
      if ((fa & fb & RESTING) !== 0) continue;
      if (inline && ((fa | fb) & EXOTIC) === 0) {
        // Detector.canCollide: same non-zero group → the group's sign decides; else category/mask.
        const ga = group[a];
        if (ga === group[b] && ga !== 0) {
          if (!(ga > 0)) continue;
        } else if ((mask[a] & category[b]) === 0 || (mask[b] & category[a]) === 0) {
          continue;
        }
      } else if (
        !canCollide(
          (bodyOf[a] as MatterBodyLike).collisionFilter,
          (bodyOf[b] as MatterBodyLike).collisionFilter,
        )
      ) {
        continue;
      }
      // First = the body earlier in the x-order.
      const ra = rank[a];
      const rb = rank[b];
      if (ra < rb) order.push(ra, rb);
      else order.push(rb, ra);
    }
    order.sort(this.xOrder.count);
    return order.count;
  }

  /**
   * Stock's narrowphase over the candidates; fills `collisions` in stock's order and returns its
   * length. `Collision.collides` calls are independent of each other (each reads its two bodies and
   * the pairs table, and writes only its own collision record), so single-part pairs are tested in
   * the broadphase's order — bodies roughly in memory order, kinder to the cache than stock's x-order —
   * and their results emitted in stock's order afterwards.
   *
   * Measured and left out: an exact separating-axis cache (per pair, last step's separating
   * axis tried first, stock's arithmetic) gave no gain. This loop is bound by loading matter-js's vertex
   * objects (boxed `x`/`y`), not by the number of axes: stock's null answer usually comes from its first
   * axis, so one cached axis reads the same vertices — hot, ~0.1 µs a pair either way; cold at 20 000
   * bodies, ~1.2 µs (cached) vs ~1.4 µs (stock), and the table's lookups and misses eat the rest.
   * Any exact rejection needs every vertex of both bodies (the exact min/max), so none is cheaper.
   */
  private narrowphase(count: number, collisions: unknown[], pairs: unknown): number {
    const collides = this.matter.Collision.collides as unknown as CollidesFn;
    // Candidate i is the pair of the bodies at positions first[i] < second[i] of the x-order.
    const first = this.order.first;
    const second = this.order.second;
    const sorted = this.order.order;
    const xo = this.xOrder.order;
    const bodyOf = this.table.bodies;
    const flags = this.flags;
    const results = this.results;
    for (let i = 0; i < count; i++) {
      const a = xo[first[i]];
      const b = xo[second[i]];
      results[i] =
        ((flags[a] | flags[b]) & COMPOUND) === 0
          ? collides(bodyOf[a] as MatterBodyLike, bodyOf[b] as MatterBodyLike, pairs)
          : null;
    }
    let index = 0;
    for (let w = 0; w < count; w++) {
      const i = sorted[w];
      const a = xo[first[i]];
      const b = xo[second[i]];
      if (((flags[a] | flags[b]) & COMPOUND) === 0) {
        const collision = results[i];
        if (collision) collisions[index++] = collision;
        continue;
      }
      // A compound body: stock's loop over parts 1.. (or the body itself when it has one part).
      const partsA = (bodyOf[a] as MatterBodyLike).parts;
      const partsB = (bodyOf[b] as MatterBodyLike).parts;
      const partsALength = partsA.length;
      const partsBLength = partsB.length;
      const partsAStart = partsALength > 1 ? 1 : 0;
      const partsBStart = partsBLength > 1 ? 1 : 0;
      for (let k = partsAStart; k < partsALength; k++) {
        const partA = partsA[k];
        const boundsA = partA.bounds;
        for (let z = partsBStart; z < partsBLength; z++) {
          const partB = partsB[z];
          const boundsB = partB.bounds;
          if (
            boundsA.min.x > boundsB.max.x ||
            boundsA.max.x < boundsB.min.x ||
            boundsA.max.y < boundsB.min.y ||
            boundsA.min.y > boundsB.max.y
          ) {
            continue;
          }
          const collision = collides(partA, partB, pairs);
          if (collision) collisions[index++] = collision;
        }
      }
    }
    // Drop references to this step's records.
    for (let i = 0; i < count; i++) results[i] = null;
    if (collisions.length !== index) collisions.length = index;
    return index;
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

function checkMode(mode: unknown, where: string): void {
  if (mode !== 'sieve' && mode !== 'stock') {
    throw new RangeError(`${where} must be 'sieve' or 'stock', got ${String(mode)}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Installing: one wrapper around Detector.collisions per Matter module, dispatching on the detector.

interface Patch {
  original: CollisionsFn;
  patched: CollisionsFn;
  users: number;
}

const patches = new WeakMap<MatterModuleLike, Patch>();
/** Detector → its SieveDetector, for the patched Detector.collisions. */
const byDetector = new WeakMap<object, SieveDetector>();
/** Engine → its SieveDetector. */
const byEngine = new WeakMap<object, { sieve: SieveDetector; matter: MatterModuleLike }>();
/** The caller-owned broadphases serving an installed detector (one engine each). */
const callerBroadphases = new WeakSet<object>();

function acquirePatch(matter: MatterModuleLike): Patch {
  let patch = patches.get(matter);
  if (patch === undefined) {
    const detectorNs = matter.Detector as unknown as { collisions: CollisionsFn };
    const original = detectorNs.collisions;
    if (typeof original !== 'function') {
      throw new TypeError('installSieve: options.matter has no Detector.collisions function');
    }
    const patched: CollisionsFn = (detector) => {
      const sieve = byDetector.get(detector);
      return sieve === undefined ? original(detector) : sieve.collisions(detector);
    };
    patch = { original, patched, users: 0 };
    patches.set(matter, patch);
    detectorNs.collisions = patched;
  }
  patch.users++;
  return patch;
}

function releasePatch(matter: MatterModuleLike): void {
  const patch = patches.get(matter);
  if (patch === undefined) return;
  if (--patch.users > 0) return;
  const detectorNs = matter.Detector as unknown as { collisions: CollisionsFn };
  // Restore only if nobody wrapped it after us; otherwise our wrapper stays inside theirs (with no
  // detector registered it defers to stock) and a later install wraps whatever is current.
  if (detectorNs.collisions === patch.patched) detectorNs.collisions = patch.original;
  patches.delete(matter);
}

/**
 * Installs Sieve's broadphase on a matter-js engine: from the next `Engine.update` the engine's
 * `Detector.collisions` is answered by a {@link SieveDetector} (same collisions, same order, same
 * events as stock). Other engines in the page are untouched. Throws if the engine already has one.
 *
 * @param engine - A `Matter.Engine` (anything with an `engine.detector` holding `bodies`).
 * @param options - See {@link SieveOptions}.
 */
export function installSieve(engine: MatterEngineLike, options: SieveOptions = {}): SieveDetector {
  if (
    engine == null ||
    typeof engine !== 'object' ||
    engine.detector == null ||
    typeof engine.detector !== 'object'
  ) {
    throw new TypeError('installSieve: engine must be a Matter.Engine (with an engine.detector object)');
  }
  if (!Array.isArray(engine.detector.bodies)) {
    throw new TypeError('installSieve: engine.detector.bodies must be an array');
  }
  if (byEngine.has(engine)) {
    throw new Error('installSieve: this engine already has a Sieve detector (call uninstallSieve first)');
  }
  if (byDetector.has(engine.detector)) {
    throw new Error('installSieve: engine.detector already belongs to another engine with a Sieve detector');
  }
  const matter: MatterModuleLike = options.matter ?? Matter;
  if (matter == null || matter.Detector == null || matter.Collision == null) {
    throw new TypeError(
      'installSieve: options.matter must be the Matter module (with Detector and Collision)',
    );
  }
  const patch = acquirePatch(matter);
  let sieve: SieveDetector;
  try {
    sieve = new SieveDetector(engine, matter, patch.original, options);
  } catch (e) {
    releasePatch(matter);
    throw e;
  }
  byDetector.set(engine.detector, sieve);
  byEngine.set(engine, { sieve, matter });
  return sieve;
}

/**
 * Removes the Sieve detector from an engine: from the next `Engine.update` stock matter-js detects
 * again, from the body order Sieve kept (so the simulation continues exactly as stock's would).
 * Returns false if the engine had none.
 *
 * A broadphase instance passed as `options.broadphase` stays the caller's: it is not disposed (a
 * `ParallelSweepAndPrune` keeps its worker threads until you call its `dispose()`); the detector's
 * proxies are removed from it (their pairs end at its next `update()`), so it is empty again and can
 * serve another engine.
 */
export function uninstallSieve(engine: MatterEngineLike): boolean {
  const entry = engine == null ? undefined : byEngine.get(engine);
  if (entry === undefined) return false;
  entry.sieve.detach();
  byEngine.delete(engine);
  byDetector.delete(entry.sieve.detector);
  releasePatch(entry.matter);
  return true;
}

/** The Sieve detector installed on `engine`, if any. */
export function getSieve(engine: MatterEngineLike): SieveDetector | undefined {
  return engine == null ? undefined : byEngine.get(engine)?.sieve;
}
