/**
 * `SieveBroadphase`: a cannon-es `Broadphase` that hands the world exactly the pairs of cannon's default
 * `NaiveBroadphase`, in the same order, without its N² loop; `world.broadphase = new SieveBroadphase()`.
 *
 * What it equals: `NaiveBroadphase` with the same `useBoundingBoxes` flag (false by default, as in cannon).
 * With bounding spheres (the default) a pair is emitted when `needBroadphaseCollision` passes and
 * |xⱼ − xᵢ|² < (rᵢ + rⱼ)² on the bodies' live `position` and `boundingRadius`, computed with cannon's own
 * formula and operand order, for i in `world.bodies` order and j < i, `p1` the body of larger index.
 * Nothing is cached between steps that cannon re-reads: a pose, shape, type, filter or sleep change made
 * through the API (or by assigning fields), bodies added or removed, `world.bodies` edited by hand — all
 * are seen at the next step, as Naive sees them. With `useBoundingBoxes = true` the test is cannon's
 * `AABB.overlaps` on `body.aabb`, as Naive's box mode; from `naiveBelow` bodies up every flagged AABB is
 * refreshed at the start of the step, where Naive refreshes only those of bodies in a pair its filter
 * lets through (a lone body, or a static one among static and sleeping ones, keeps its old box). The
 * pairs of that step are the same; but a body whose box only Sieve refreshed, then moved by hand without
 * `aabbNeedsUpdate = true` (which box mode asks for, in cannon as here), is stale at another pose than in
 * stock, so later pairs and ray casts may differ from stock's.
 *
 * A body listed twice in `world.bodies` (by hand: `addBody` refuses it) is paired at both places, as
 * Naive pairs it, by the sweep; a passed tree holds one proxy a body, so it does not support that.
 *
 * How: below `naiveBelow` bodies, Naive's double loop itself runs (the fixed cost of a sort is not worth
 * it there). From `naiveBelow` bodies up, by default, a sort and sweep (`AxisSweep`: the boxes ordered on
 * the axis of widest spread, the order kept from step to step and repaired by insertion sort, as
 * cannon's own `SAPBroadphase` and I-COLLIDE sweep), which needs no tree and adds little to a page.
 * With a Sieve broadphase you pass as `sieve` (`SweepAndPrune` of `@sieve/core` for large worlds: per-axis
 * endpoint lists kept sorted by insertion sort, pairs changed on swaps, as Bullet's btAxisSweep3; its
 * octree; the parallel one), one proxy per body lives in it instead. The bodies' records then live in core's `BodyTable` (the engine
 * seam both adapters share): each step one O(N) pass over `world.bodies` reads every body's numbers
 * and notices bodies added or removed by a stamp per record; a proxy's box is a "fat" box, as
 * in Box2D's dynamic tree: the body's bounding-sphere box (or AABB) widened by a margin, moved only when
 * the body's box leaves it, so resting and slow bodies cost one comparison. The sphere box is padded by a
 * relative 2⁻⁴⁴ of its coordinates, far above float rounding, so no pair cannon's formula accepts can be
 * missed; every candidate the tree reports is then put through cannon's exact test and
 * `needBroadphaseCollision`, and the survivors are ordered as Naive's loop orders them (core's
 * `PairOrder`: two counting-sort passes, O(pairs + N)). The switch between the two paths keeps the same pairs, so a world may grow and
 * shrink across `naiveBelow` freely.
 *
 * Bodies that cannot go in the tree (a non-finite pose or radius, a radius or box wider than
 * `hugeExtent`: planes, whose radius cannon sets to `Number.MAX_VALUE`) are tested against every body
 * with the exact formula, O(N) each per step, as Naive tests them.
 *
 * `aabbQuery` (what cannon's ray casts call) is Naive's own scan: it refreshes flagged AABBs as Naive
 * does and returns the same bodies in the same order.
 */
import {
  BodyTable,
  type BodyTableHooks,
  type Broadphase as CoreBroadphase,
  checkOptionKeys,
  checkSyncUpdate,
  growArray,
  optionKeys,
  PairOrder,
} from '@sieve/core';
import { type AABB, Body, Broadphase, type World } from 'cannon-es';
import { AxisSweep } from './sweep.js';

/** Options of {@link SieveBroadphase}. */
export interface SieveBroadphaseOptions {
  /**
   * Not supported: the adapter builds no tree (its default is a sort and sweep). Any value throws a
   * `RangeError`: build the tree yourself (`new SweepAndPrune({ dimensions: 3 })` of `@sieve/core`)
   * and pass it as `sieve`, so that a bundle holds only the broadphases its page imports.
   */
  kind?: never;
  /**
   * Not supported: any value throws a `TypeError`. Build the `SweepAndPrune` yourself
   * (`new SweepAndPrune({ dimensions: 3, ...options })` from `@sieve/core`) and pass it as `sieve`.
   */
  sap?: never;
  /**
   * Not supported: any value throws a `TypeError`. Build the Octree yourself
   * (`new Octree({ dimensions: 3, ... })` from `@sieve/core`) and pass it as `sieve`.
   */
  octree?: never;
  /**
   * A body whose bounding-sphere diameter (or AABB, in box mode) is wider than this, or not finite, is
   * tested against every body instead of living in the tree. Default 1e12 (catches planes).
   */
  hugeExtent?: number;
  /** Pair by AABB (cannon's `useBoundingBoxes = true`) instead of bounding spheres. Default false. */
  useBoundingBoxes?: boolean;
  /**
   * Worlds with fewer bodies than this run Naive's double loop instead of the sweep (or tree); that is
   * dropped below three quarters of it. Same pairs either way. Default 64; 0 never runs Naive's loop.
   */
  naiveBelow?: number;
  /**
   * With a `sieve` tree: how far a proxy's fat box reaches past the body's box, as a fraction of its
   * radius. Default 0.25.
   */
  margin?: number;
  /**
   * A Sieve broadphase to keep the bodies' proxies in, instead of the default sort and sweep: an empty
   * 3-D instance of any `@sieve/core` broadphase that you built and own — `new SweepAndPrune({
   * dimensions: 3 })` for large worlds, or `new ParallelSweepAndPrune({ dimensions: 3, workers })` of
   * `@sieve/core/parallel` (the README says from what sizes they pay). Same pairs and order as the
   * default. The adapter empties it when it lets go (uninstalling, or a world shrinking to Naive's loop)
   * but never disposes it.
   */
  sieve?: CoreBroadphase;
}

/**
 * The keys of {@link SieveBroadphaseOptions}: any other key throws a `TypeError` naming it. Kept
 * complete by the compiler (`optionKeys`): add a new option here too.
 */
const SIEVE_BROADPHASE_OPTION_KEYS = optionKeys<SieveBroadphaseOptions>({
  kind: true,
  sap: true,
  octree: true,
  hugeExtent: true,
  useBoundingBoxes: true,
  naiveBelow: true,
  margin: true,
  sieve: true,
});
/** The removed options: known to the key check (each gets its own message below), not named in its errors. */
const REMOVED_KEYS = ['kind', 'sap', 'octree'];
/** How to use a tree, for the errors that meet the removed `kind`, `sap` and `octree`. */
const TREE_HINT = (tree: string) =>
  `pass sieve: new ${tree}({ dimensions: 3, ... }) from '@sieve/core' (its options there), so that only ` +
  'pages that import it ship it';

/**
 * Checks the keys of {@link SieveBroadphaseOptions} (the removed `kind`, `sap` and `octree` are
 * refused), `sieve` and `useBoundingBoxes`, as `where` (`'new SieveBroadphase: options'`). Throws a
 * `TypeError` or `RangeError` naming the option; the constructor checks the other values.
 */
export function checkSieveBroadphaseKeys(options: SieveBroadphaseOptions, where: string): void {
  checkOptionKeys(where, options, SIEVE_BROADPHASE_OPTION_KEYS, REMOVED_KEYS);
  const kind: unknown = options.kind;
  if (kind != null) {
    const tree = kind === 'octree' ? 'Octree' : 'SweepAndPrune';
    throw new RangeError(
      `${where}.kind '${String(kind)}' is not supported: the adapter builds no tree (its default is a sort and sweep); ${TREE_HINT(tree)}`,
    );
  }
  if (options.sap != null) {
    throw new TypeError(`${where}.sap is not supported; ${TREE_HINT('SweepAndPrune')}`);
  }
  if (options.octree != null) throw new TypeError(`${where}.octree is not supported; ${TREE_HINT('Octree')}`);
  if (options.sieve != null) checkSieveInstance(options.sieve, `${where}.sieve`);
  const boxes = options.useBoundingBoxes;
  if (boxes !== undefined && typeof boxes !== 'boolean') {
    throw new TypeError(`${where}.useBoundingBoxes must be true or false, got ${String(boxes)}`);
  }
}

/** The methods of the `Broadphase` contract the adapter (through core's `BodyTable`) calls. */
const CONTRACT_METHODS = [
  'insert',
  'moveMany',
  'remove',
  'update',
  'pairBuffers',
  'pairTags',
  'tagOf',
] as const;

/** Whether `value` implements the `Broadphase` contract of `@sieve/core` (a `sieve` instance). */
export function isSieveInstance(value: unknown): value is CoreBroadphase {
  if (value === null || typeof value !== 'object') return false;
  const bp = value as Record<string, unknown>;
  return CONTRACT_METHODS.every((m) => typeof bp[m] === 'function');
}

/** Throws a `TypeError` / `RangeError` naming `where` unless `value` is an empty 3-D Sieve broadphase. */
function checkSieveInstance(value: unknown, where: string): void {
  if (!isSieveInstance(value)) {
    throw new TypeError(
      `${where} must implement the Broadphase contract of @sieve/core (such as a ParallelSweepAndPrune), got ${String(value)}`,
    );
  }
  if (value.dimensions !== 3) {
    throw new RangeError(
      `${where} must be a 3-D broadphase (dimensions 3), got dimensions ${String(value.dimensions)}`,
    );
  }
  if (value.count !== 0) {
    throw new RangeError(`${where} must be empty (count 0), got count ${String(value.count)}`);
  }
  checkSyncUpdate(value, where, 'world.step', 'world');
}

/** Relative padding of a sphere box: far above the few ulps cannon's formula can round by. */
const PAD = 2 ** -44;
const STATIC = Body.STATIC;
const SLEEPING = Body.SLEEPING;
const stockNeed = Broadphase.prototype.needBroadphaseCollision;

/** cannon-es `Broadphase` with `NaiveBroadphase`'s pairs, on a sort and sweep or a Sieve tree you pass. */
export class SieveBroadphase extends Broadphase {
  /** What answers from `naiveBelow` bodies up: `'sweep'` (default) or `'instance'` (the `sieve` tree). */
  readonly kind: 'sweep' | 'instance';
  /** Bodies below which Naive's loop runs instead of the sweep (or tree). */
  readonly naiveBelow: number;
  private readonly hugeExtent: number;
  private readonly margin: number;
  /** The `sieve` tree, or null (the sort and sweep answers). */
  private readonly tree: CoreBroadphase | null;
  /** The sort and sweep (null with a tree). */
  private readonly axisSweep: AxisSweep | null;
  /** Whether the sweep or tree answers (false while Naive's loop does, in a small world). */
  private beyondNaive = false;
  /** Whether the sweep or tree was fed AABBs (box mode) rather than sphere boxes. */
  private boxMode = false;
  /** Bodies the sweep covered at the last step. */
  private swept = 0;

  /**
   * With a tree: one record per tracked body (core's engine seam): the body, its proxy, and in `boxes`
   * the proxy's (fat) box — for untreed bodies their own box. On the sweep, records are body indices.
   */
  private readonly table: BodyTable<Body> | null;
  /** One body's own box, as read by `readBody`, and how far its fat box may reach past it. */
  private readonly own = new Float64Array(6);
  private readonly reach = new Float64Array(1);
  /** What cannon's test reads: x, y, z, boundingRadius (spheres) or the AABB (boxes). */
  private exact = new Float64Array(0);
  private recGroup = new Int32Array(0);
  private recMask = new Int32Array(0);
  /** Static or sleeping (`needBroadphaseCollision` skips a pair of two such bodies). */
  private recStill = new Uint8Array(0);
  /** Position in the list of special (untreed) bodies, or -1. */
  private recSpecial = new Int32Array(0);
  /** With a tree: the special bodies' records. */
  private specials: number[] = [];
  /** On the sweep: the special bodies' indices this step, and how many. */
  private sweptSpecials = new Int32Array(0);
  private sweptSpecialCount = 0;
  /** The pairs kept this step, keyed (later body's index, earlier body's index): Naive's order. */
  private readonly order = new PairOrder();
  /** Candidate pairs the sweep or tree reported at the last `collisionPairs` (before the exact test). */
  rawPairCount = 0;

  /**
   * A broadphase with Naive's pairs (see {@link SieveBroadphaseOptions}). Throws a `TypeError` or
   * `RangeError` naming the option for an unknown key or a bad value, nested `sap` included.
   */
  constructor(options: SieveBroadphaseOptions = {}) {
    super();
    checkSieveBroadphaseKeys(options, 'SieveBroadphase: options');
    const huge = options.hugeExtent ?? 1e12;
    if (typeof huge !== 'number' || !(huge > 0)) {
      throw new RangeError(`SieveBroadphase: hugeExtent must be a positive number, got ${String(huge)}`);
    }
    const naiveBelow = options.naiveBelow ?? 64;
    if (!Number.isInteger(naiveBelow) || naiveBelow < 0) {
      throw new RangeError(`SieveBroadphase: naiveBelow must be a non-negative integer, got ${naiveBelow}`);
    }
    const margin = options.margin ?? 0.25;
    if (typeof margin !== 'number' || !(margin >= 0) || margin === Number.POSITIVE_INFINITY) {
      throw new RangeError(`SieveBroadphase: margin must be a finite number >= 0, got ${String(margin)}`);
    }
    this.tree = options.sieve ?? null;
    this.kind = this.tree === null ? 'sweep' : 'instance';
    this.hugeExtent = huge;
    this.naiveBelow = naiveBelow;
    this.margin = margin;
    this.useBoundingBoxes = options.useBoundingBoxes ?? false;
    if (this.tree === null) {
      this.axisSweep = new AxisSweep();
      this.table = null;
      return;
    }
    this.axisSweep = null;
    const hooks: BodyTableHooks = {
      grow: (capacity) => this.reserveRecords(capacity),
      added: (r) => {
        this.recSpecial[r] = -1;
      },
      removed: (r) => this.removeSpecial(r),
    };
    this.table = new BodyTable<Body>(this.tree, hooks);
  }

  /**
   * Bodies the sweep or tree tracks (equals `world.bodies.length` after a step from `naiveBelow` up;
   * 0 while on Naive's loop).
   */
  get bodyCount(): number {
    return this.table === null ? this.swept : this.table.live;
  }

  /** Bodies kept out of the sweep or tree (planes, huge or invalid boxes). */
  get hugeBodyCount(): number {
    return this.table === null ? this.sweptSpecialCount : this.specials.length;
  }

  /** The Sieve broadphase passed as `sieve` (read-only use: statistics, debugging), or null. */
  get sieve(): CoreBroadphase | null {
    return this.tree;
  }

  /**
   * Each record's box as synced at the start of the step (6 numbers a record; a superset of the body's
   * AABB), or null when no tree holds boxes that contain current AABBs (the sweep, sphere mode, or a
   * small world on Naive's loop). For this package's bullets.
   */
  get recBounds(): Float64Array | null {
    return this.table !== null && this.beyondNaive && this.boxMode ? this.table.boxes : null;
  }

  /**
   * The body records behind the `sieve` tree (core's `BodyTable`: record → body, proxy and box; body →
   * record by `find(body, body.id)`; box queries answered as records by `queryRecords`), as of the last
   * sync; null on the sweep. For this package's bullets and for tools: read it, do not change it.
   */
  get records(): BodyTable<Body> | null {
    return this.table;
  }

  /** Records of the bodies kept out of the tree (planes, huge or invalid boxes): a query must test them. */
  get hugeRecords(): readonly number[] {
    return this.specials;
  }

  /** cannon's `Broadphase.setWorld`: binds this broadphase to `world` (forgetting any other world's proxies). */
  override setWorld(world: World): void {
    if (this.world === world) return;
    this.detach();
    this.world = world;
    this.dirty = true;
  }

  /** Forgets the world and every proxy. */
  detach(): void {
    this.world = null;
    this.clear();
  }

  /**
   * cannon's `Broadphase.collisionPairs`: pushes the pairs of bodies whose bounds overlap onto `p1` and
   * `p2` (entry for entry), the pairs and their order those of cannon's own broadphase.
   */
  override collisionPairs(world: World, p1: Body[], p2: Body[]): void {
    if (this.world !== world) this.setWorld(world);
    const bodies = world.bodies;
    const n = bodies.length;
    if (n < this.naiveBelow && (!this.beyondNaive || 4 * n < 3 * this.naiveBelow)) {
      if (this.beyondNaive) this.clear();
      this.naivePairs(bodies, p1, p2);
      return;
    }
    const custom = this.needBroadphaseCollision !== stockNeed;
    const order = this.order;
    order.clear();
    if (this.table === null) this.sweepPairs(bodies, custom);
    else this.treePairs(world, this.table, custom);
    // Naive's order: by the later body's index, then the earlier one's.
    const sorted = order.sort(n);
    const hi = order.first;
    const lo = order.second;
    for (let k = 0; k < order.count; k++) {
      const e = sorted[k];
      p1.push(bodies[hi[e]]);
      p2.push(bodies[lo[e]]);
    }
  }

  /** The sweep's pairs that pass cannon's filter and exact test, and the special bodies' (records: indices). */
  private sweepPairs(bodies: Body[], custom: boolean): void {
    const boxes = this.useBoundingBoxes;
    this.beyondNaive = true;
    this.boxMode = boxes;
    const n = bodies.length;
    const sweep = this.axisSweep as AxisSweep;
    sweep.reserve(n);
    if (this.recGroup.length < n || this.exact.length < 6 * n) this.reserveRecords(n);
    const specials = (this.sweptSpecials = growArray(this.sweptSpecials, n));
    const skip = sweep.skip;
    const rank = this.recSpecial;
    let ns = 0;
    for (let i = 0; i < n; i++) {
      const fits = this.readBody(bodies[i], i, boxes, sweep.boxes, 6 * i);
      skip[i] = fits ? 0 : 1;
      rank[i] = fits ? -1 : ns;
      if (!fits) specials[ns++] = i;
    }
    this.swept = n;
    this.sweptSpecialCount = ns;
    this.dirty = false;
    const np = sweep.run(bodies, n);
    this.keepPairs(sweep.pairs, np, null, bodies, custom);
    this.keepSpecials(specials, ns, n, null, null, bodies, custom);
  }

  /** The tree's pairs that pass cannon's filter and exact test, and the special bodies' (as records). */
  private treePairs(world: World, table: BodyTable<Body>, custom: boolean): void {
    this.sync(world);
    const specials = this.specials;
    this.keepPairs(table.pairRecords(), table.pairCount, table.index, table.bodies, custom);
    this.keepSpecials(
      specials,
      specials.length,
      world.bodies.length,
      table.index,
      table.at,
      table.bodies,
      custom,
    );
  }

  /**
   * Puts the candidate pairs of records that pass cannon's filter and exact test in the step's order
   * list, as (later body's index, earlier one's). `index`: record → body index (null: the same).
   */
  private keepPairs(
    pairs: Int32Array,
    np: number,
    index: Int32Array | null,
    recBody: readonly (Body | null)[],
    custom: boolean,
  ): void {
    const order = this.order;
    this.rawPairCount = np;
    order.reserve(np + 16);
    for (let k = 0; k < np; k++) {
      const a = pairs[2 * k];
      const b = pairs[2 * k + 1];
      const ia = index === null ? a : index[a];
      const ib = index === null ? b : index[b];
      if (ia > ib) {
        if (this.keep(a, b, custom, recBody)) order.push(ia, ib);
      } else if (this.keep(b, a, custom, recBody)) {
        order.push(ib, ia);
      }
    }
  }

  /**
   * The special bodies (records `specials[0 … ns)`) against every body, and each other once (from the
   * one earlier in the list: `recSpecial` is a record's place there, or -1), into the order list.
   * `index`: record → body index, `at`: body index → record (null: the same).
   */
  private keepSpecials(
    specials: ArrayLike<number>,
    ns: number,
    n: number,
    index: Int32Array | null,
    at: Int32Array | null,
    recBody: readonly (Body | null)[],
    custom: boolean,
  ): void {
    const order = this.order;
    const rank = this.recSpecial;
    for (let s = 0; s < ns; s++) {
      const rs = specials[s];
      const is = index === null ? rs : index[rs];
      for (let i = 0; i < n; i++) {
        const r = at === null ? i : at[i];
        if (i === is || (rank[r] >= 0 && rank[r] <= s)) continue;
        if (is > i) {
          if (this.keep(rs, r, custom, recBody)) order.push(is, i);
        } else if (this.keep(r, rs, custom, recBody)) {
          order.push(i, is);
        }
      }
    }
  }

  /**
   * Every body whose AABB overlaps `aabb` (inclusive), in `world.bodies` order: `NaiveBroadphase`'s own
   * scan, refreshing the AABBs flagged `aabbNeedsUpdate` as it does, so ray casts see what stock sees.
   */
  override aabbQuery(world: World, aabb: AABB, result: Body[] = []): Body[] {
    const bodies = world.bodies;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      if (b.aabbNeedsUpdate) b.updateAABB();
      if (b.aabb.overlaps(aabb)) result.push(b);
    }
    return result;
  }

  /**
   * Brings the `sieve` tree in line with `world.bodies` and the bodies' current numbers, and updates its
   * pairs. Called by `collisionPairs` from `naiveBelow` bodies up; public for tools that want the tree
   * current. Does nothing on the sweep (it keeps nothing a step must bring up to date).
   */
  sync(world: World): void {
    const table = this.table;
    if (table === null) return;
    const bodies = world.bodies;
    const boxes = this.useBoundingBoxes;
    if (this.beyondNaive && boxes !== this.boxMode) this.clear();
    this.beyondNaive = true;
    this.boxMode = boxes;
    const n = bodies.length;
    table.beginPass(n);
    const margin = this.margin;
    const own = this.own;
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      const r = table.visit(body, body.id, i);
      const o = 6 * r;
      // The body's own box (x0 … z1), and how far its fat box reaches past it.
      const fits = this.readBody(body, r, boxes, own, 0);
      const reach = this.reach[0];
      const x0 = own[0];
      const y0 = own[1];
      const z0 = own[2];
      const x1 = own[3];
      const y1 = own[4];
      const z1 = own[5];
      const inTree = table.handles[r] >= 0; // (handles are non-negative; no proxy is NO_PROXY, -1)
      const fat = table.boxes;
      if (
        inTree &&
        fits &&
        fat[o] <= x0 &&
        fat[o + 1] <= y0 &&
        fat[o + 2] <= z0 &&
        fat[o + 3] >= x1 &&
        fat[o + 4] >= y1 &&
        fat[o + 5] >= z1
      ) {
        continue; // still inside its fat box: nothing moves
      }
      const m = fits ? margin * reach : 0;
      fat[o] = x0 - m;
      fat[o + 1] = y0 - m;
      fat[o + 2] = z0 - m;
      fat[o + 3] = x1 + m;
      fat[o + 4] = y1 + m;
      fat[o + 5] = z1 + m;
      if (fits) {
        if (!inTree) this.removeSpecial(r);
        table.place(r); // a move into the batch, or a new proxy
      } else if (inTree) {
        table.unplace(r);
        this.addSpecial(r);
      } else if (this.recSpecial[r] < 0) {
        this.addSpecial(r);
      }
    }
    // Bodies gone from the world (records no pass visited) lose their records and proxies.
    table.endPass(n);
    table.commit();
    this.dirty = false;
  }

  /**
   * Reads what cannon's test reads of `body` into record `r` (its filter, whether it is still, and in
   * `exact` its position and radius, or its AABB, refreshed if flagged, in box mode), and the body's own
   * box into `out` at `o` (in sphere mode the sphere's box, rounded outwards), and into `reach[0]` how
   * far a fat box may reach past it (the radius, or half the widest side). Returns false when the box
   * cannot be swept or go in a tree: not finite, inverted, or wider than `hugeExtent`. (A boolean, not
   * the reach: a double returned from a call that is not inlined is boxed, an allocation a body.)
   */
  private readBody(body: Body, r: number, boxes: boolean, out: Float64Array, o: number): boolean {
    this.recGroup[r] = body.collisionFilterGroup | 0;
    this.recMask[r] = body.collisionFilterMask | 0;
    this.recStill[r] = (body.type & STATIC) !== 0 || body.sleepState === SLEEPING ? 1 : 0;
    const ex = this.exact;
    const e6 = 6 * r;
    let reach: number;
    if (boxes) {
      if (body.aabbNeedsUpdate) body.updateAABB();
      const l = body.aabb.lowerBound;
      const u = body.aabb.upperBound;
      out[o] = ex[e6] = l.x;
      out[o + 1] = ex[e6 + 1] = l.y;
      out[o + 2] = ex[e6 + 2] = l.z;
      out[o + 3] = ex[e6 + 3] = u.x;
      out[o + 4] = ex[e6 + 4] = u.y;
      out[o + 5] = ex[e6 + 5] = u.z;
      reach = 0.5 * Math.max(u.x - l.x, u.y - l.y, u.z - l.z);
    } else {
      const p = body.position;
      const rad = body.boundingRadius;
      const px = (ex[e6] = p.x);
      const py = (ex[e6 + 1] = p.y);
      const pz = (ex[e6 + 2] = p.z);
      ex[e6 + 3] = rad;
      // (x − r) − e is below x − r by far more than its two roundings: an outward-rounded box.
      const e = (Math.max(Math.abs(px), Math.abs(py), Math.abs(pz)) + rad) * PAD;
      out[o] = px - rad - e;
      out[o + 1] = py - rad - e;
      out[o + 2] = pz - rad - e;
      out[o + 3] = px + rad + e;
      out[o + 4] = py + rad + e;
      out[o + 5] = pz + rad + e;
      reach = rad >= 0 ? rad : Number.NaN;
    }
    const huge = this.hugeExtent;
    this.reach[0] = reach;
    return (
      reach >= 0 &&
      fitsTree(out[o], out[o + 3], huge) &&
      fitsTree(out[o + 1], out[o + 4], huge) &&
      fitsTree(out[o + 2], out[o + 5], huge)
    );
  }

  /** Grows the per-record arrays to `capacity` records. */
  private reserveRecords(capacity: number): void {
    this.exact = growArray(this.exact, 6 * capacity);
    this.recGroup = growArray(this.recGroup, capacity);
    this.recMask = growArray(this.recMask, capacity);
    this.recStill = growArray(this.recStill, capacity);
    this.recSpecial = growArray(this.recSpecial, capacity);
  }

  /**
   * Whether Naive emits the pair of records `hi` (the body of larger index) and `lo`: its filter
   * (`needBroadphaseCollision`, inlined on the synced numbers unless overridden), then its exact test.
   */
  private keep(hi: number, lo: number, custom: boolean, recBody: readonly (Body | null)[]): boolean {
    if (custom) {
      if (!this.needBroadphaseCollision(recBody[hi] as Body, recBody[lo] as Body)) return false;
    } else if (
      (this.recGroup[hi] & this.recMask[lo]) === 0 ||
      (this.recGroup[lo] & this.recMask[hi]) === 0 ||
      (this.recStill[hi] & this.recStill[lo]) !== 0
    ) {
      return false;
    }
    return this.boxMode
      ? boxesOverlap(this.exact, 6 * hi, 6 * lo)
      : spheresOverlap(this.exact, 6 * hi, 6 * lo);
  }

  /** Naive's double loop (in sphere mode with cannon's filter: inlined, body i's numbers read once). */
  private naivePairs(bodies: Body[], p1: Body[], p2: Body[]): void {
    const n = bodies.length;
    if (this.useBoundingBoxes || this.needBroadphaseCollision !== stockNeed) {
      // Literally Naive's loop (its lazy AABB refresh and any overridden filter included).
      for (let i = 0; i !== n; i++) {
        for (let j = 0; j !== i; j++) {
          const bi = bodies[i];
          const bj = bodies[j];
          if (!this.needBroadphaseCollision(bi, bj)) continue;
          this.intersectionTest(bi, bj, p1, p2);
        }
      }
      return;
    }
    // The loop itself, with body i's numbers read once.
    for (let i = 1; i < n; i++) {
      const bi = bodies[i];
      const gi = bi.collisionFilterGroup;
      const mi = bi.collisionFilterMask;
      const si = (bi.type & STATIC) !== 0 || bi.sleepState === SLEEPING;
      const pi = bi.position;
      const ri = bi.boundingRadius;
      for (let j = 0; j < i; j++) {
        const bj = bodies[j];
        if ((gi & bj.collisionFilterMask) === 0 || (bj.collisionFilterGroup & mi) === 0) continue;
        if (si && ((bj.type & STATIC) !== 0 || bj.sleepState === SLEEPING)) continue;
        // cannon: r = xj − xi, |r|² < (ri + rj)²
        const pj = bj.position;
        const dx = pj.x - pi.x;
        const dy = pj.y - pi.y;
        const dz = pj.z - pi.z;
        const sr = ri + bj.boundingRadius;
        if (dx * dx + dy * dy + dz * dz < sr * sr) {
          p1.push(bi);
          p2.push(bj);
        }
      }
    }
  }

  private clear(): void {
    this.specials.length = 0;
    this.beyondNaive = false;
    this.swept = 0;
    this.sweptSpecialCount = 0;
    if (this.table === null) {
      (this.axisSweep as AxisSweep).reset();
      return;
    }
    // The caller's instance is kept: its proxies go, and the update closes their pairs.
    this.table.reset();
    (this.tree as CoreBroadphase).update();
  }

  private addSpecial(r: number): void {
    this.recSpecial[r] = this.specials.length;
    this.specials.push(r);
  }

  private removeSpecial(r: number): void {
    const at = this.recSpecial[r];
    if (at < 0) return;
    const last = this.specials.pop() as number;
    if (last !== r) {
      this.specials[at] = last;
      this.recSpecial[last] = at;
    }
    this.recSpecial[r] = -1;
  }
}

/**
 * cannon's `doBoundingSphereBroadphase` on two records (x, y, z, r each), `hi` the body of larger index:
 * r = x_lo − x_hi, |r|² < (r_hi + r_lo)², term for term.
 */
function spheresOverlap(e: Float64Array, hi: number, lo: number): boolean {
  const dx = e[lo] - e[hi];
  const dy = e[lo + 1] - e[hi + 1];
  const dz = e[lo + 2] - e[hi + 2];
  const s = e[hi + 3] + e[lo + 3];
  return dx * dx + dy * dy + dz * dz < s * s;
}

/** cannon-es `AABB.overlaps` of box `a` (this) and box `b`, term for term (so NaN behaves as in cannon). */
function boxesOverlap(e: Float64Array, a: number, b: number): boolean {
  for (let k = 0; k < 3; k++) {
    const l1 = e[a + k];
    const u1 = e[a + 3 + k];
    const l2 = e[b + k];
    const u2 = e[b + 3 + k];
    if (!((l2 <= u1 && u1 <= u2) || (l1 <= u2 && u2 <= u1))) return false;
  }
  return true;
}

/** Whether an axis of a box can go in the tree: finite, not inverted, no wider than `huge`. */
function fitsTree(lo: number, hi: number, huge: number): boolean {
  return lo <= hi && hi - lo <= huge && lo - lo === 0 && hi - hi === 0;
}
