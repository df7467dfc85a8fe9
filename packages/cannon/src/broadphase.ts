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
 * `AABB.overlaps` on `body.aabb`, as Naive's box mode; the tree path refreshes every flagged AABB at the
 * start of the step, where Naive refreshes only those of bodies in a pair its filter lets through (the
 * pairs are the same; only `body.aabb` of a body no pair could include is fresher).
 *
 * How: below `naiveBelow` bodies, Naive's double loop itself runs (the fixed cost of a tree is not worth
 * it there). From `naiveBelow` bodies up, one proxy per body lives in Sieve's incremental sweep and
 * prune (`SweepAndPrune` of `@sieve/core`: per-axis endpoint lists kept sorted by insertion sort, pairs
 * changed on swaps, as Bullet's btAxisSweep3, over the
 * regions of a sparse grid), or a Sieve broadphase you pass (its octree, the parallel one). The bodies' records live in core's `BodyTable` (the engine
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
  growArray,
  optionKeys,
  PairOrder,
  SWEEP_AND_PRUNE_OPTION_KEYS,
  SweepAndPrune,
  type SweepAndPruneOptions,
} from '@sieve/core';
import { type AABB, Body, Broadphase, type World } from 'cannon-es';

/** Options of {@link SieveBroadphase}. */
export interface SieveBroadphaseOptions {
  /**
   * The Sieve broadphase the adapter builds: `'sap'` (default, SweepAndPrune). Any other — the
   * `Octree` of `@sieve/core`, the parallel one — is passed built, as `sieve`, so that a bundle holds
   * only the broadphases its page imports: the former `'octree'` throws a `RangeError` saying so.
   */
  kind?: 'sap';
  /** Options passed to `SweepAndPrune` (dimensions is always 3). */
  sap?: Omit<SweepAndPruneOptions, 'dimensions'>;
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
   * Worlds with fewer bodies than this run Naive's double loop instead of the tree; the
   * tree is dropped below three quarters of it. Same pairs either way. Default 64; 0 always uses the tree.
   */
  naiveBelow?: number;
  /** How far a proxy's fat box reaches past the body's box, as a fraction of its radius. Default 0.25. */
  margin?: number;
  /**
   * The Sieve broadphase to keep the proxies in, instead of one built from `kind`: an empty 3-D
   * instance of any `@sieve/core` broadphase that you built and own — such as
   * `new ParallelSweepAndPrune({ dimensions: 3, workers })` of `@sieve/core/parallel` for large worlds
   * (the README says from what size it pays). Same pairs and order as with the default tree. The
   * adapter empties it when it lets go (uninstalling, or a world shrinking to Naive's loop) but never
   * disposes it. Not with `kind`, `sap` or `octree`.
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
/** The keys of `sap`: the sweep and prune's, but `dimensions` (always 3). */
const SAP_OPTION_KEYS = SWEEP_AND_PRUNE_OPTION_KEYS.filter((k) => k !== 'dimensions');

/** How to use the octree, for the errors that meet the removed `'octree'`. */
const OCTREE_HINT =
  "pass sieve: new Octree({ dimensions: 3, ... }) from '@sieve/core' (its options there), so that only " +
  'pages that import the octree ship it';

/**
 * Checks the keys of {@link SieveBroadphaseOptions} (and of its `sap`; `octree` is refused), and
 * `useBoundingBoxes`, as `where` (`'new SieveBroadphase: options'`). Throws a `TypeError` naming the
 * option; the constructor checks the other values.
 */
export function checkSieveBroadphaseKeys(options: SieveBroadphaseOptions, where: string): void {
  checkOptionKeys(where, options, SIEVE_BROADPHASE_OPTION_KEYS);
  if (options.sieve !== undefined) {
    checkSieveInstance(options.sieve, `${where}.sieve`);
    for (const key of ['kind', 'sap', 'octree'] as const) {
      if (options[key] !== undefined) {
        throw new TypeError(
          `${where}.${key} configures a tree the adapter builds; with ${where}.sieve, configure that instance when you construct it`,
        );
      }
    }
  }
  if (options.octree !== undefined) throw new TypeError(`${where}.octree is not supported; ${OCTREE_HINT}`);
  checkOptionKeys(`${where}.sap`, options.sap, SAP_OPTION_KEYS);
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
}

/** Relative padding of a sphere box: far above the few ulps cannon's formula can round by. */
const PAD = 2 ** -44;
const STATIC = Body.STATIC;
const SLEEPING = Body.SLEEPING;
const stockNeed = Broadphase.prototype.needBroadphaseCollision;

/** cannon-es `Broadphase` with `NaiveBroadphase`'s pairs, on Sieve's incremental sweep and prune. */
export class SieveBroadphase extends Broadphase {
  /** Which Sieve broadphase is in use (`'instance'`: the one given as `sieve`). */
  readonly kind: 'sap' | 'instance';
  /** Bodies below which Naive's loop runs instead of the tree. */
  readonly naiveBelow: number;
  private readonly hugeExtent: number;
  private readonly margin: number;
  private readonly options: SieveBroadphaseOptions;
  private tree: SweepAndPrune | CoreBroadphase;
  /** Whether the tree holds the bodies (false while the world is small), and in which mode. */
  private treeOn = false;
  private treeBoxes = false;

  /**
   * One record per tracked body (core's engine seam): the body, its proxy, and in `boxes` the proxy's
   * (fat) box — for untreed bodies their own box.
   */
  private readonly table: BodyTable<Body>;
  /** What cannon's test reads: x, y, z, boundingRadius (spheres) or the AABB (boxes). */
  private exact = new Float64Array(0);
  private recGroup = new Int32Array(0);
  private recMask = new Int32Array(0);
  /** Static or sleeping (`needBroadphaseCollision` skips a pair of two such bodies). */
  private recStill = new Uint8Array(0);
  /** Position in the list of special (untreed) bodies, or -1. */
  private recSpecial = new Int32Array(0);
  private specials: number[] = [];
  /** The pairs kept this step, keyed (later body's index, earlier body's index): Naive's order. */
  private readonly order = new PairOrder();
  /** Candidate pairs the tree reported at the last `collisionPairs` (before the exact test). */
  rawPairCount = 0;

  /**
   * A broadphase with Naive's pairs (see {@link SieveBroadphaseOptions}). Throws a `TypeError` or
   * `RangeError` naming the option for an unknown key or a bad value, nested `sap` included.
   */
  constructor(options: SieveBroadphaseOptions = {}) {
    super();
    checkSieveBroadphaseKeys(options, 'SieveBroadphase: options');
    const kind = options.sieve !== undefined ? 'instance' : (options.kind ?? 'sap');
    if ((kind as string) === 'octree') {
      throw new RangeError(`SieveBroadphase: kind 'octree' is not built by name; ${OCTREE_HINT}`);
    }
    if (kind !== 'sap' && kind !== 'instance') {
      throw new RangeError(`SieveBroadphase: kind must be 'sap', got ${String(kind)}`);
    }
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
    this.kind = kind;
    this.hugeExtent = huge;
    this.naiveBelow = naiveBelow;
    this.margin = margin;
    this.options = options;
    this.useBoundingBoxes = options.useBoundingBoxes ?? false;
    this.tree = this.makeTree();
    const hooks: BodyTableHooks = {
      grow: (capacity) => {
        this.exact = growArray(this.exact, 6 * capacity);
        this.recGroup = growArray(this.recGroup, capacity);
        this.recMask = growArray(this.recMask, capacity);
        this.recStill = growArray(this.recStill, capacity);
        this.recSpecial = growArray(this.recSpecial, capacity);
      },
      added: (r) => {
        this.recSpecial[r] = -1;
      },
      removed: (r) => this.removeSpecial(r),
    };
    this.table = new BodyTable<Body>(this.tree, hooks);
  }

  /** Bodies tracked by the tree (equals `world.bodies.length` after a sync; 0 while on Naive's loop). */
  get bodyCount(): number {
    return this.table.live;
  }

  /** Bodies kept out of the tree (planes, huge or invalid boxes). */
  get hugeBodyCount(): number {
    return this.specials.length;
  }

  /** The Sieve broadphase behind this one (read-only use: statistics, debugging). */
  get sieve(): SweepAndPrune | CoreBroadphase {
    return this.tree;
  }

  /**
   * Each record's box as synced at the start of the step (6 numbers a record; a superset of the body's
   * AABB), or null when the tree does not hold boxes that contain current AABBs (sphere mode, or a small
   * world on Naive's loop). For this package's bullets.
   */
  get recBounds(): Float64Array | null {
    return this.treeOn && this.treeBoxes ? this.table.boxes : null;
  }

  /**
   * The body records behind the tree (core's `BodyTable`: record → body, proxy and box; body → record
   * by `find(body, body.id)`; box queries answered as records by `queryRecords`), as of the last sync.
   * For this package's bullets and for tools: read it, do not change it.
   */
  get records(): BodyTable<Body> {
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
    if (n < this.naiveBelow && (!this.treeOn || 4 * n < 3 * this.naiveBelow)) {
      if (this.treeOn) this.clear();
      this.naivePairs(bodies, p1, p2);
      return;
    }
    this.sync(world);
    const custom = this.needBroadphaseCollision !== stockNeed;
    const table = this.table;
    const index = table.index;
    const order = this.order;
    order.clear();
    // Candidates from the tree (as records), through cannon's filter and exact test.
    const pairs = table.pairRecords();
    const np = table.pairCount;
    this.rawPairCount = np;
    order.reserve(np + 16);
    for (let k = 0; k < np; k++) {
      const a = pairs[2 * k];
      const b = pairs[2 * k + 1];
      const ia = index[a];
      const ib = index[b];
      if (ia > ib) {
        if (this.keep(a, b, custom)) order.push(ia, ib);
      } else if (this.keep(b, a, custom)) {
        order.push(ib, ia);
      }
    }
    // Special bodies against every body (and each other once).
    const specials = this.specials;
    const at = table.at;
    for (let s = 0; s < specials.length; s++) {
      const rs = specials[s];
      const is = index[rs];
      for (let i = 0; i < n; i++) {
        if (i === is) continue;
        const r = at[i];
        // Another special body: pair it once, from the one earlier in the list.
        if (this.recSpecial[r] >= 0 && this.recSpecial[r] <= s) continue;
        if (is > i) {
          if (this.keep(rs, r, custom)) order.push(is, i);
        } else if (this.keep(r, rs, custom)) {
          order.push(i, is);
        }
      }
    }
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
   * Brings the tree in line with `world.bodies` and the bodies' current numbers, and updates its pairs.
   * Called by `collisionPairs` from `naiveBelow` bodies up; public for tools that want the tree current.
   */
  sync(world: World): void {
    const bodies = world.bodies;
    const boxes = this.useBoundingBoxes;
    if (this.treeOn && boxes !== this.treeBoxes) this.clear();
    this.treeOn = true;
    this.treeBoxes = boxes;
    const table = this.table;
    const n = bodies.length;
    table.beginPass(n);
    const huge = this.hugeExtent;
    const margin = this.margin;
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      const r = table.visit(body, body.id, i);
      this.recGroup[r] = body.collisionFilterGroup | 0;
      this.recMask[r] = body.collisionFilterMask | 0;
      this.recStill[r] = (body.type & STATIC) !== 0 || body.sleepState === SLEEPING ? 1 : 0;
      const o = 6 * r;
      const ex = this.exact;
      // The body's own box (x0 … z1), and how far its fat box reaches past it.
      let x0: number;
      let y0: number;
      let z0: number;
      let x1: number;
      let y1: number;
      let z1: number;
      let reach: number;
      if (boxes) {
        if (body.aabbNeedsUpdate) body.updateAABB();
        const l = body.aabb.lowerBound;
        const u = body.aabb.upperBound;
        x0 = ex[o] = l.x;
        y0 = ex[o + 1] = l.y;
        z0 = ex[o + 2] = l.z;
        x1 = ex[o + 3] = u.x;
        y1 = ex[o + 4] = u.y;
        z1 = ex[o + 5] = u.z;
        reach = 0.5 * Math.max(x1 - x0, y1 - y0, z1 - z0);
      } else {
        const p = body.position;
        const rad = body.boundingRadius;
        const px = (ex[o] = p.x);
        const py = (ex[o + 1] = p.y);
        const pz = (ex[o + 2] = p.z);
        ex[o + 3] = rad;
        // (x − r) − e is below x − r by far more than its two roundings: an outward-rounded box.
        const e = (Math.max(Math.abs(px), Math.abs(py), Math.abs(pz)) + rad) * PAD;
        x0 = px - rad - e;
        y0 = py - rad - e;
        z0 = pz - rad - e;
        x1 = px + rad + e;
        y1 = py + rad + e;
        z1 = pz + rad + e;
        reach = rad >= 0 ? rad : Number.NaN;
      }
      const fits = reach >= 0 && fitsTree(x0, x1, huge) && fitsTree(y0, y1, huge) && fitsTree(z0, z1, huge);
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
   * Whether Naive emits the pair of records `hi` (the body of larger index) and `lo`: its filter
   * (`needBroadphaseCollision`, inlined on the synced numbers unless overridden), then its exact test.
   */
  private keep(hi: number, lo: number, custom: boolean): boolean {
    if (custom) {
      const recBody = this.table.bodies;
      if (!this.needBroadphaseCollision(recBody[hi] as Body, recBody[lo] as Body)) return false;
    } else if (
      (this.recGroup[hi] & this.recMask[lo]) === 0 ||
      (this.recGroup[lo] & this.recMask[hi]) === 0 ||
      (this.recStill[hi] & this.recStill[lo]) !== 0
    ) {
      return false;
    }
    return this.treeBoxes
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

  private makeTree(): SweepAndPrune | CoreBroadphase {
    if (this.options.sieve !== undefined) return this.options.sieve;
    return new SweepAndPrune({ ...this.options.sap, dimensions: 3 });
  }

  private clear(): void {
    this.specials.length = 0;
    this.treeOn = false;
    if (this.options.sieve !== undefined) {
      // The caller's instance is kept: its proxies go, and the update closes their pairs.
      this.table.reset();
      this.tree.update();
      return;
    }
    this.tree = this.makeTree();
    this.table.reset(this.tree);
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
