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
 * it there). From `naiveBelow` bodies up, one proxy per body lives in Sieve's incremental sweep and prune (`SweepAndPrune` of `@sieve/core`: per-axis
 * endpoint lists kept sorted by insertion sort, pairs changed on swaps, as Bullet's btAxisSweep3, over the
 * regions of a sparse grid), or its octree. Each step one O(N) pass over `world.bodies` reads every body's
 * numbers (and notices bodies added or removed by a stamp per record); a proxy's box is a "fat" box, as
 * in Box2D's dynamic tree: the body's bounding-sphere box (or AABB) widened by a margin, moved only when
 * the body's box leaves it, so resting and slow bodies cost one comparison. The sphere box is padded by a
 * relative 2⁻⁴⁴ of its coordinates, far above float rounding, so no pair cannon's formula accepts can be
 * missed; every candidate the tree reports is then put through cannon's exact test and
 * `needBroadphaseCollision`, and the survivors are ordered as Naive's loop orders them (two counting-sort
 * passes, O(pairs + N)). The switch between the two paths keeps the same pairs, so a world may grow and
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
  growArray,
  Octree,
  type OctreeOptions,
  SLOT_MASK,
  SweepAndPrune,
  type SweepAndPruneOptions,
} from '@sieve/core';
import { type AABB, Body, Broadphase, type World } from 'cannon-es';

/** Options of {@link SieveBroadphase}. */
export interface SieveBroadphaseOptions {
  /** Which Sieve broadphase keeps the proxies: `'sap'` (default, SweepAndPrune) or `'octree'`. */
  kind?: 'sap' | 'octree';
  /** Options passed to `SweepAndPrune` (dimensions is always 3). */
  sap?: Omit<SweepAndPruneOptions, 'dimensions'>;
  /** Options passed to `Octree` (dimensions is always 3). */
  octree?: Omit<OctreeOptions, 'dimensions'>;
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
}

const NO_HANDLE = -1;
/** Relative padding of a sphere box: far above the few ulps cannon's formula can round by. */
const PAD = 2 ** -44;
const STATIC = Body.STATIC;
const SLEEPING = Body.SLEEPING;
const stockNeed = Broadphase.prototype.needBroadphaseCollision;

/** The Sieve broadphase interface plus the batched calls both SweepAndPrune and Octree have. */
type Tree = SweepAndPrune | Octree;

/** cannon-es `Broadphase` with `NaiveBroadphase`'s pairs, on Sieve's incremental sweep and prune. */
export class SieveBroadphase extends Broadphase {
  /** Which Sieve broadphase is in use. */
  readonly kind: 'sap' | 'octree';
  /** Bodies below which Naive's loop runs instead of the tree. */
  readonly naiveBelow: number;
  private readonly hugeExtent: number;
  private readonly margin: number;
  private readonly options: SieveBroadphaseOptions;
  private tree: Tree;
  /** Whether the tree holds the bodies (false while the world is small), and in which mode. */
  private treeOn = false;
  private treeBoxes = false;

  // Records: one per tracked body.
  private recBody: (Body | null)[] = [];
  private recHandle = new Int32Array(64);
  /** The proxy's (fat) box in the tree, min x, y, z, max x, y, z; for untreed bodies their own box. */
  private fat = new Float64Array(6 * 64);
  /** What cannon's test reads: x, y, z, boundingRadius (spheres) or the AABB (boxes). */
  private exact = new Float64Array(6 * 64);
  private recGroup = new Int32Array(64);
  private recMask = new Int32Array(64);
  /** Static or sleeping (`needBroadphaseCollision` skips a pair of two such bodies). */
  private recStill = new Uint8Array(64);
  private recStamp = new Int32Array(64);
  /** Position in `world.bodies` at the last sync. */
  private recIndex = new Int32Array(64);
  /** Record of each position in `world.bodies` at the last sync. */
  private recAt = new Int32Array(64);
  /** Position in the list of special (untreed) bodies, or -1. */
  private recSpecial = new Int32Array(64);
  private recFree: number[] = [];
  private recUsed = 0;
  private live = 0;
  /** body.id → record (or -1). */
  private recOfId = new Int32Array(64).fill(-1);
  /** Tree slot → record. */
  private recOfSlot = new Int32Array(64);
  private specials: number[] = [];
  private stamp = 0;

  // Per-step scratch.
  private moveHandles = new Int32Array(64);
  private moveBounds = new Float64Array(6 * 64);
  private pairHi = new Int32Array(64);
  private pairLo = new Int32Array(64);
  private tmpHi = new Int32Array(64);
  private tmpLo = new Int32Array(64);
  private counts = new Int32Array(64);
  /** Candidate pairs the tree reported at the last `collisionPairs` (before the exact test). */
  rawPairCount = 0;

  constructor(options: SieveBroadphaseOptions = {}) {
    super();
    const kind = options.kind ?? 'sap';
    if (kind !== 'sap' && kind !== 'octree') {
      throw new RangeError(`SieveBroadphase: kind must be 'sap' or 'octree', got ${String(kind)}`);
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
  }

  /** Bodies tracked by the tree (equals `world.bodies.length` after a sync; 0 while on Naive's loop). */
  get bodyCount(): number {
    return this.live;
  }

  /** Bodies kept out of the tree (planes, huge or invalid boxes). */
  get hugeBodyCount(): number {
    return this.specials.length;
  }

  /** The Sieve broadphase behind this one (read-only use: statistics, debugging). */
  get sieve(): Tree {
    return this.tree;
  }

  /**
   * Each record's box as synced at the start of the step (6 numbers a record; a superset of the body's
   * AABB), or null when the tree does not hold boxes that contain current AABBs (sphere mode, or a small
   * world on Naive's loop). For this package's bullets.
   */
  get recBounds(): Float64Array | null {
    return this.treeOn && this.treeBoxes ? this.fat : null;
  }

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
    const recIndex = this.recIndex;
    const recOfSlot = this.recOfSlot;
    let count = 0;
    // Candidates from the tree, through cannon's filter and exact test.
    const pairs = this.tree.pairBuffers().pairs;
    const np = this.tree.pairCount;
    this.rawPairCount = np;
    if (this.pairHi.length < np + 16) this.growPairs(np + 16);
    for (let k = 0; k < np; k++) {
      const a = recOfSlot[pairs[2 * k] & SLOT_MASK];
      const b = recOfSlot[pairs[2 * k + 1] & SLOT_MASK];
      if (recIndex[a] > recIndex[b] ? this.keep(a, b, custom) : this.keep(b, a, custom)) {
        this.pairHi[count] = Math.max(recIndex[a], recIndex[b]);
        this.pairLo[count] = Math.min(recIndex[a], recIndex[b]);
        count++;
      }
    }
    // Special bodies against every body (and each other once).
    const specials = this.specials;
    for (let s = 0; s < specials.length; s++) {
      const rs = specials[s];
      const is = recIndex[rs];
      for (let i = 0; i < n; i++) {
        if (i === is) continue;
        const r = this.recAt[i];
        // Another special body: pair it once, from the one earlier in the list.
        if (this.recSpecial[r] >= 0 && this.recSpecial[r] <= s) continue;
        if (!(is > i ? this.keep(rs, r, custom) : this.keep(r, rs, custom))) continue;
        if (count === this.pairHi.length) this.growPairs(count + 1);
        this.pairHi[count] = Math.max(is, i);
        this.pairLo[count] = Math.min(is, i);
        count++;
      }
    }
    this.sortPairs(count, n);
    const sh = this.pairHi;
    const sl = this.pairLo;
    for (let k = 0; k < count; k++) {
      p1.push(bodies[sh[k]]);
      p2.push(bodies[sl[k]]);
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
    const stamp = ++this.stamp;
    if (this.recAt.length < bodies.length) this.recAt = new Int32Array(2 * bodies.length);
    const huge = this.hugeExtent;
    const margin = this.margin;
    let moves = 0;
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      const id = body.id;
      if (id >= this.recOfId.length) {
        const old = this.recOfId.length;
        this.recOfId = growArray(this.recOfId, id + 1);
        this.recOfId.fill(-1, old);
      }
      let r = this.recOfId[id];
      if (r >= 0 && this.recBody[r] !== body) r = -1; // a foreign body with a reused id
      const added = r < 0;
      if (added) r = this.addRecord(body);
      this.recIndex[r] = i;
      this.recAt[i] = r;
      this.recStamp[r] = stamp;
      this.recGroup[r] = body.collisionFilterGroup | 0;
      this.recMask[r] = body.collisionFilterMask | 0;
      this.recStill[r] = (body.type & STATIC) !== 0 || body.sleepState === SLEEPING ? 1 : 0;
      const o = 6 * r;
      const ex = this.exact;
      const fat = this.fat;
      // The body's own box into BOX, and how far its fat box reaches past it.
      let reach: number;
      if (boxes) {
        if (body.aabbNeedsUpdate) body.updateAABB();
        const l = body.aabb.lowerBound;
        const u = body.aabb.upperBound;
        BOX[0] = ex[o] = l.x;
        BOX[1] = ex[o + 1] = l.y;
        BOX[2] = ex[o + 2] = l.z;
        BOX[3] = ex[o + 3] = u.x;
        BOX[4] = ex[o + 4] = u.y;
        BOX[5] = ex[o + 5] = u.z;
        reach = 0.5 * Math.max(BOX[3] - BOX[0], BOX[4] - BOX[1], BOX[5] - BOX[2]);
      } else {
        const p = body.position;
        const rad = body.boundingRadius;
        ex[o] = p.x;
        ex[o + 1] = p.y;
        ex[o + 2] = p.z;
        ex[o + 3] = rad;
        // (x − r) − e is below x − r by far more than its two roundings: an outward-rounded box.
        const e = (Math.max(Math.abs(p.x), Math.abs(p.y), Math.abs(p.z)) + rad) * PAD;
        for (let k = 0; k < 3; k++) {
          BOX[k] = ex[o + k] - rad - e;
          BOX[k + 3] = ex[o + k] + rad + e;
        }
        reach = rad >= 0 ? rad : Number.NaN;
      }
      const fits = reach >= 0 && isTreeBox(BOX, huge);
      const inTree = !added && this.recHandle[r] !== NO_HANDLE;
      if (inTree && fits && contains(fat, o, BOX)) continue; // still inside its fat box: nothing moves
      const m = fits ? margin * reach : 0;
      for (let k = 0; k < 3; k++) {
        fat[o + k] = BOX[k] - m;
        fat[o + 3 + k] = BOX[k + 3] + m;
      }
      if (inTree && fits) {
        if (moves === this.moveHandles.length) {
          this.moveHandles = growArray(this.moveHandles, moves + 1);
          this.moveBounds = growArray(this.moveBounds, 6 * (moves + 1));
        }
        this.moveHandles[moves] = this.recHandle[r];
        const mo = 6 * moves;
        for (let k = 0; k < 6; k++) this.moveBounds[mo + k] = fat[o + k];
        moves++;
      } else if (inTree) {
        this.tree.remove(this.recHandle[r]);
        this.recHandle[r] = NO_HANDLE;
        this.addSpecial(r);
      } else if (fits) {
        this.removeSpecial(r);
        this.insertProxy(r);
      } else if (this.recSpecial[r] < 0) {
        this.addSpecial(r);
      }
    }
    // Bodies gone from the world: every live record not stamped by this pass.
    if (this.live !== bodies.length) {
      for (let r = 0; r < this.recUsed; r++) {
        if (this.recBody[r] !== null && this.recStamp[r] !== stamp) this.removeRecord(r);
      }
    }
    if (moves > 0) this.tree.moveMany(this.moveHandles, this.moveBounds, moves);
    this.tree.update();
    this.dirty = false;
  }

  /**
   * Whether Naive emits the pair of records `hi` (the body of larger index) and `lo`: its filter
   * (`needBroadphaseCollision`, inlined on the synced numbers unless overridden), then its exact test.
   */
  private keep(hi: number, lo: number, custom: boolean): boolean {
    if (custom) {
      if (!this.needBroadphaseCollision(this.recBody[hi] as Body, this.recBody[lo] as Body)) return false;
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

  private makeTree(): Tree {
    if (this.kind === 'octree') return new Octree({ ...this.options.octree, dimensions: 3 });
    return new SweepAndPrune({ ...this.options.sap, dimensions: 3 });
  }

  private clear(): void {
    for (let r = 0; r < this.recUsed; r++) {
      const body = this.recBody[r];
      if (body !== null && this.recOfId[body.id] === r) this.recOfId[body.id] = -1;
    }
    this.recBody.length = 0;
    this.recFree.length = 0;
    this.recUsed = 0;
    this.live = 0;
    this.specials.length = 0;
    this.treeOn = false;
    this.tree = this.makeTree();
  }

  private addRecord(body: Body): number {
    let r: number;
    if (this.recFree.length > 0) r = this.recFree.pop() as number;
    else {
      r = this.recUsed++;
      if (r === this.recHandle.length) {
        const n = r + 1;
        this.recHandle = growArray(this.recHandle, n);
        this.fat = growArray(this.fat, 6 * n);
        this.exact = growArray(this.exact, 6 * n);
        this.recGroup = growArray(this.recGroup, n);
        this.recMask = growArray(this.recMask, n);
        this.recStill = growArray(this.recStill, n);
        this.recStamp = growArray(this.recStamp, n);
        this.recIndex = growArray(this.recIndex, n);
        this.recSpecial = growArray(this.recSpecial, n);
      }
    }
    this.recBody[r] = body;
    this.recHandle[r] = NO_HANDLE;
    this.recSpecial[r] = -1;
    this.recOfId[body.id] = r;
    this.live++;
    return r;
  }

  private removeRecord(r: number): void {
    const body = this.recBody[r] as Body;
    if (this.recHandle[r] !== NO_HANDLE) this.tree.remove(this.recHandle[r]);
    else this.removeSpecial(r);
    if (this.recOfId[body.id] === r) this.recOfId[body.id] = -1;
    this.recBody[r] = null;
    this.recHandle[r] = NO_HANDLE;
    this.recFree.push(r);
    this.live--;
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

  /** Puts record `r`'s fat box in the tree. */
  private insertProxy(r: number): void {
    const o = 6 * r;
    const h = this.tree.insert(this.fat.subarray(o, o + 6));
    this.recHandle[r] = h;
    const slot = h & SLOT_MASK;
    this.recOfSlot = growArray(this.recOfSlot, slot + 1);
    this.recOfSlot[slot] = r;
  }

  /**
   * Sorts the pairs in `pairHi/pairLo[0, count)` by (hi, lo) ascending: counting sort by `lo`, then a
   * stable counting sort by `hi` — the order of NaiveBroadphase's double loop.
   */
  private sortPairs(count: number, n: number): void {
    if (count < 2) return;
    if (this.counts.length < n + 1) this.counts = new Int32Array(2 * n + 2);
    if (this.tmpHi.length < count) {
      this.tmpHi = new Int32Array(this.pairHi.length);
      this.tmpLo = new Int32Array(this.pairHi.length);
    }
    countingPass(this.pairLo, this.pairHi, this.tmpLo, this.tmpHi, count, n, this.counts);
    countingPass(this.tmpHi, this.tmpLo, this.pairHi, this.pairLo, count, n, this.counts);
  }

  private growPairs(size: number): void {
    this.pairHi = growArray(this.pairHi, size);
    this.pairLo = growArray(this.pairLo, size);
  }
}

/**
 * One stable counting-sort pass: reorders the pairs `(key[k], other[k])` by `key` into
 * `outKey/outOther`, so the second pass reads the first one's output.
 */
function countingPass(
  key: Int32Array,
  other: Int32Array,
  outKey: Int32Array,
  outOther: Int32Array,
  count: number,
  n: number,
  counts: Int32Array,
): void {
  counts.fill(0, 0, n + 1);
  for (let k = 0; k < count; k++) counts[key[k] + 1]++;
  for (let v = 0; v < n; v++) counts[v + 1] += counts[v];
  for (let k = 0; k < count; k++) {
    const at = counts[key[k]]++;
    outKey[at] = key[k];
    outOther[at] = other[k];
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

/** Scratch box of the body being synced: min x, y, z, max x, y, z. */
const BOX = new Float64Array(6);

/** Whether a box can go in the tree: finite, not inverted, no wider than `huge` on any axis. */
function isTreeBox(b: Float64Array, huge: number): boolean {
  for (let k = 0; k < 3; k++) {
    const lo = b[k];
    const hi = b[k + 3];
    if (!(lo <= hi) || !(hi - lo <= huge) || lo - lo !== 0 || hi - hi !== 0) return false;
  }
  return true;
}

/** Whether the fat box at `fat[o..o+6)` contains box `b`. */
function contains(fat: Float64Array, o: number, b: Float64Array): boolean {
  return (
    fat[o] <= b[0] &&
    fat[o + 1] <= b[1] &&
    fat[o + 2] <= b[2] &&
    fat[o + 3] >= b[3] &&
    fat[o + 4] >= b[4] &&
    fat[o + 5] >= b[5]
  );
}
