/**
 * `SieveBroadphase`: a cannon-es `Broadphase` backed by Sieve's incremental sweep and prune (or octree),
 * usable as `world.broadphase = new SieveBroadphase()`.
 *
 * Each `collisionPairs` call brings one proxy per body in step with `world.bodies` — bodies added or
 * removed (found by a stamp pass over `world.bodies`, O(N) and allocation-free, so bodies added or
 * removed at any moment, even with `world.bodies` edited by hand, are seen), bodies moved (the proxy gets
 * `body.aabb` after `body.updateAABB()` when `aabbNeedsUpdate`; bodies whose box did not change — static,
 * sleeping, resting — cost one comparison and no move), then lets the Sieve broadphase update its pair
 * set incrementally (`SweepAndPrune` of `@sieve/core`, following `shared/seeds/004_7b04ec2be2c8edf3.txt`
 * §1–2: per-axis endpoint lists kept sorted by insertion sort, pairs changed on swaps, regions of a
 * sparse grid). The overlapping pairs are filtered by cannon's own `needBroadphaseCollision` (collision
 * filter groups and masks; two bodies that are each static or sleeping are skipped) and emitted in the
 * order `NaiveBroadphase` emits them: by the larger index in `world.bodies`, then the smaller, with
 * `p1` the body of larger index. (Two counting-sort passes, O(pairs + N).)
 *
 * What it equals: `NaiveBroadphase` with `useBoundingBoxes = true` — the same pairs, in the same order, so
 * a world stepped with either gives bit-identical bodies. Stock cannon broadphases default to bounding
 * spheres (`useBoundingBoxes = false`): their pair set is a different superset/subset of touching
 * shapes (a sphere test misses nothing for a body with one centred shape, but a long box's bounding
 * sphere overlaps far more, and off-centre compound shapes can be missed). Boxes are tighter and are
 * what Sieve's broadphases prune; the narrowphase decides contacts either way. `collisionResponse` is not
 * a broadphase filter in cannon (pairs without response still produce disabled contacts and `collide`
 * events), so it is not one here either.
 *
 * Bodies whose box is not a finite, non-inverted box of extent at most `hugeExtent` (planes: cannon gives
 * them ±`Number.MAX_VALUE` bounds; bodies with NaN poses) are kept out of the tree and tested against every
 * body with cannon's own `AABB.overlaps` formula, O(N) each per step — exactly what Naive would do for them.
 */
import {
  growArray,
  Octree,
  type OctreeOptions,
  SLOT_MASK,
  SweepAndPrune,
  type SweepAndPruneOptions,
} from '@sieve/core';
import { type AABB, type Body, Broadphase, type World } from 'cannon-es';

/** Options of {@link SieveBroadphase}. */
export interface SieveBroadphaseOptions {
  /** Which Sieve broadphase keeps the proxies: `'sap'` (default, SweepAndPrune) or `'octree'`. */
  kind?: 'sap' | 'octree';
  /** Options passed to `SweepAndPrune` (dimensions is always 3). */
  sap?: Omit<SweepAndPruneOptions, 'dimensions'>;
  /** Options passed to `Octree` (dimensions is always 3). */
  octree?: Omit<OctreeOptions, 'dimensions'>;
  /**
   * A body whose AABB is wider than this on some axis (or not finite) is tested against every body
   * instead of living in the tree. Default 1e12 (catches planes, whose boxes are ±`Number.MAX_VALUE`).
   */
  hugeExtent?: number;
}

const NO_HANDLE = -1;

/** The Sieve broadphase interface plus the batched calls both SweepAndPrune and Octree have. */
type Tree = SweepAndPrune | Octree;

/** cannon-es `Broadphase` on Sieve's incremental sweep and prune (or octree). */
export class SieveBroadphase extends Broadphase {
  /** Which Sieve broadphase is in use. */
  readonly kind: 'sap' | 'octree';
  private readonly hugeExtent: number;
  private readonly options: SieveBroadphaseOptions;
  private tree: Tree;

  // Records: one per tracked body.
  private recBody: (Body | null)[] = [];
  private recHandle = new Int32Array(64);
  private recBounds = new Float64Array(6 * 64);
  private recStamp = new Int32Array(64);
  /** Position in `world.bodies` at the last sync. */
  private recIndex = new Int32Array(64);
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

  // Per-sync scratch.
  private moveHandles = new Int32Array(64);
  private moveBounds = new Float64Array(6 * 64);
  private pairHi = new Int32Array(64);
  private pairLo = new Int32Array(64);
  private tmpHi = new Int32Array(64);
  private tmpLo = new Int32Array(64);
  private counts = new Int32Array(64);
  private queryOut: number[] = [];
  private readonly queryBox = new Float64Array(6);
  /** Set by world 'addBody'/'removeBody' events: aabbQuery must sync first. */
  private membershipChanged = true;
  private readonly onMembership = (): void => {
    this.membershipChanged = true;
  };

  /** Pairs the tree reported at the last `collisionPairs` (before filtering), for statistics. */
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
    this.kind = kind;
    this.hugeExtent = huge;
    this.options = options;
    this.useBoundingBoxes = true;
    this.tree = this.makeTree();
  }

  /** Bodies tracked (should equal `world.bodies.length` after a sync). */
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

  override setWorld(world: World): void {
    if (this.world === world) return;
    this.detach();
    this.world = world;
    world.addEventListener('addBody', this.onMembership);
    world.addEventListener('removeBody', this.onMembership);
    this.membershipChanged = true;
    this.dirty = true;
  }

  /** Forgets the world (removes its listeners and every proxy). */
  detach(): void {
    if (this.world) {
      this.world.removeEventListener('addBody', this.onMembership);
      this.world.removeEventListener('removeBody', this.onMembership);
    }
    this.world = null;
    this.clear();
  }

  override collisionPairs(world: World, p1: Body[], p2: Body[]): void {
    if (this.world !== world) this.setWorld(world);
    this.sync(world);
    const bodies = world.bodies;
    let count = 0;
    // Pairs from the tree.
    const tree = this.tree;
    const pairs = tree.pairBuffers().pairs;
    const n = tree.pairCount;
    this.rawPairCount = n;
    if (this.pairHi.length < n + 16) this.growPairs(n + 16);
    const recOfSlot = this.recOfSlot;
    const recBody = this.recBody;
    const recIndex = this.recIndex;
    for (let k = 0; k < n; k++) {
      let rHi = recOfSlot[pairs[2 * k] & SLOT_MASK];
      let rLo = recOfSlot[pairs[2 * k + 1] & SLOT_MASK];
      if (recIndex[rHi] < recIndex[rLo]) {
        const t = rHi;
        rHi = rLo;
        rLo = t;
      }
      if (!this.needBroadphaseCollision(recBody[rHi] as Body, recBody[rLo] as Body)) continue;
      this.pairHi[count] = recIndex[rHi];
      this.pairLo[count] = recIndex[rLo];
      count++;
    }
    // Special bodies against every body (and each other once).
    const specials = this.specials;
    for (let s = 0; s < specials.length; s++) {
      const rs = specials[s];
      const is = recIndex[rs];
      const bs = recBody[rs] as Body;
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i];
        if (b === bs) continue;
        const r = this.recOfId[b.id];
        // Another special body: pair it once, from the one earlier in the list.
        if (this.recSpecial[r] >= 0 && this.recSpecial[r] <= s) continue;
        // Naive tests bodies[hi].aabb.overlaps(bodies[lo].aabb): keep the operand order (NaN cases).
        const ra = is > i ? rs : r;
        const rb = is > i ? r : rs;
        if (!boxesOverlap(this.recBounds, 6 * ra, this.recBounds, 6 * rb)) continue;
        const hi = Math.max(is, i);
        const lo = Math.min(is, i);
        if (!this.needBroadphaseCollision(bodies[hi], bodies[lo])) continue;
        if (count === this.pairHi.length) this.growPairs(count + 1);
        this.pairHi[count] = hi;
        this.pairLo[count] = lo;
        count++;
      }
    }
    this.sortPairs(count, bodies.length);
    const ph = this.pairHi;
    const pl = this.pairLo;
    for (let k = 0; k < count; k++) {
      p1.push(bodies[ph[k]]);
      p2.push(bodies[pl[k]]);
    }
  }

  /**
   * Every body whose AABB overlaps `aabb` (inclusive), in `world.bodies` order — the same bodies and
   * order as `NaiveBroadphase.aabbQuery`. Uses the tree; re-syncs first if the world stepped, or bodies
   * were added or removed, since the last sync (set `dirty = true` after moving bodies by hand between
   * steps, as cannon's SAPBroadphase also requires).
   */
  override aabbQuery(world: World, aabb: AABB, result: Body[] = []): Body[] {
    if (this.world !== world) this.setWorld(world);
    if (this.dirty || this.membershipChanged) this.sync(world);
    const q = this.queryBox;
    writeBox(q, 0, aabb);
    const bodies = world.bodies;
    if (!isTreeBox(q, 0, Number.POSITIVE_INFINITY)) {
      // A query the tree cannot take (infinite or inverted): Naive's scan.
      for (let i = 0; i < bodies.length; i++) if (bodies[i].aabb.overlaps(aabb)) result.push(bodies[i]);
      return result;
    }
    const found = this.queryOut;
    found.length = 0;
    this.tree.queryBounds(q, found);
    for (let k = 0; k < found.length; k++) found[k] = this.recIndex[this.recOfSlot[found[k] & SLOT_MASK]];
    for (let s = 0; s < this.specials.length; s++) {
      const r = this.specials[s];
      if ((this.recBody[r] as Body).aabb.overlaps(aabb)) found.push(this.recIndex[r]);
    }
    found.sort(ascending);
    for (let k = 0; k < found.length; k++) result.push(bodies[found[k]]);
    found.length = 0;
    return result;
  }

  /**
   * Brings the proxies in line with `world.bodies` and their AABBs, and updates the tree's pairs. Called
   * by `collisionPairs`; public for tools that want the tree current between steps.
   */
  sync(world: World): void {
    const bodies = world.bodies;
    const stamp = ++this.stamp;
    let moves = 0;
    const huge = this.hugeExtent;
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      if (body.aabbNeedsUpdate) body.updateAABB();
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
      this.recStamp[r] = stamp;
      const o = 6 * r;
      const b = this.recBounds;
      if (added) {
        writeBox(b, o, body.aabb);
        if (isTreeBox(b, o, huge)) this.insertProxy(r);
        else this.addSpecial(r);
        continue;
      }
      if (sameBox(b, o, body.aabb)) continue;
      writeBox(b, o, body.aabb);
      const inTree = this.recHandle[r] !== NO_HANDLE;
      const fits = isTreeBox(b, o, huge);
      if (inTree && fits) {
        if (moves === this.moveHandles.length) {
          this.moveHandles = growArray(this.moveHandles, moves + 1);
          this.moveBounds = growArray(this.moveBounds, 6 * (moves + 1));
        }
        this.moveHandles[moves] = this.recHandle[r];
        const mo = 6 * moves;
        for (let k = 0; k < 6; k++) this.moveBounds[mo + k] = b[o + k];
        moves++;
      } else if (inTree) {
        this.tree.remove(this.recHandle[r]);
        this.recHandle[r] = NO_HANDLE;
        this.addSpecial(r);
      } else if (fits) {
        this.removeSpecial(r);
        this.insertProxy(r);
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
    this.membershipChanged = false;
    this.dirty = false;
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
    this.tree = this.makeTree();
  }

  private addRecord(body: Body): number {
    let r: number;
    if (this.recFree.length > 0) r = this.recFree.pop() as number;
    else {
      r = this.recUsed++;
      if (r === this.recHandle.length) {
        this.recHandle = growArray(this.recHandle, r + 1);
        this.recBounds = growArray(this.recBounds, 6 * (r + 1));
        this.recStamp = growArray(this.recStamp, r + 1);
        this.recIndex = growArray(this.recIndex, r + 1);
        this.recSpecial = growArray(this.recSpecial, r + 1);
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

  /** Puts record `r`'s stored box in the tree. */
  private insertProxy(r: number): void {
    const o = 6 * r;
    const h = this.tree.insert(this.recBounds.subarray(o, o + 6));
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
 * `outOther/outKey`... written so the second pass reads the first one's output.
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

function ascending(a: number, b: number): number {
  return a - b;
}

/** Equal, with NaN equal to NaN. */
function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * Whether the box at `b[o..o+6)` equals `aabb`. Not `!==`: NaN must compare equal to NaN here or a NaN
 * body would move every step.
 */
function sameBox(b: Float64Array, o: number, aabb: AABB): boolean {
  const l = aabb.lowerBound;
  const u = aabb.upperBound;
  return (
    same(b[o], l.x) &&
    same(b[o + 1], l.y) &&
    same(b[o + 2], l.z) &&
    same(b[o + 3], u.x) &&
    same(b[o + 4], u.y) &&
    same(b[o + 5], u.z)
  );
}

/** Copies `aabb` into `b[o..o+6)` as min x, y, z, max x, y, z. */
function writeBox(b: Float64Array, o: number, aabb: AABB): void {
  const l = aabb.lowerBound;
  const u = aabb.upperBound;
  b[o] = l.x;
  b[o + 1] = l.y;
  b[o + 2] = l.z;
  b[o + 3] = u.x;
  b[o + 4] = u.y;
  b[o + 5] = u.z;
}

/** Whether the box at `b[o..o+6)` can go in the tree: finite, not inverted, no wider than `huge`. */
function isTreeBox(b: ArrayLike<number>, o: number, huge: number): boolean {
  for (let k = 0; k < 3; k++) {
    const lo = b[o + k];
    const hi = b[o + 3 + k];
    if (!(lo <= hi) || !(hi - lo <= huge) || lo - lo !== 0 || hi - hi !== 0) return false;
  }
  return true;
}

/** cannon-es `AABB.overlaps` on two stored boxes, term for term (so NaN behaves as in cannon). */
function boxesOverlap(a: Float64Array, ao: number, b: Float64Array, bo: number): boolean {
  for (let k = 0; k < 3; k++) {
    const l1 = a[ao + k];
    const u1 = a[ao + 3 + k];
    const l2 = b[bo + k];
    const u2 = b[bo + 3 + k];
    if (!((l2 <= u1 && u1 <= u2) || (l1 <= u2 && u2 <= u1))) return false;
  }
  return true;
}
