/**
 * Dynamic loose octree (a quadtree in 2-D) broadphase.
 *
 * Follows the dynamic octree of the Project Oort collision write-up ("Octree" section): a node is a cube given by its centre and half width; children are
 * indexed so that bit k of the index is set when the child lies on the upper side of axis k; an object
 * that straddles a split stays at the inner node; a leaf splits when it holds more than a capacity of
 * objects (32 there, the default here too); an update walks up from the object's node until the object
 * fits, then down. Linking objects into and out of cells as they cross cell borders is the cell-list
 * method of the hard-rigid-body event-driven MD paper (§2.6), made hierarchical (docs/references.md).
 *
 * Past Project Oort's octree:
 * - Nodes live in flat typed arrays (structure of arrays), children allocated together in blocks of
 *   2^D with a free list of blocks. A node's proxies (slot and a copy of the box) sit side by side in
 *   a segment of one shared pool (`segments.ts`), so a node is scanned in consecutive memory.
 *   No object or JS array per node, no allocation per frame once capacities are reached.
 * - Loose cells (Ulrich's loose octree): an object fits a node when its box lies inside the node's
 *   cell scaled `looseness` times about its centre; the child is picked by the box centre. With the
 *   default looseness 2 every box no wider than a child cell fits that child, so small boxes on a
 *   split plane do not pile up at inner nodes. A leaf keeps an object while it fits its loose cell; an
 *   inner node only while the object's centre also stays in its cell (else it could fit no child).
 * - The world grows: when a box leaves the root's loose cell, or its centre the root's cell, a new root
 *   twice as large is made with the old root as one of its children, as often as needed — no fixed
 *   world, no clamping. The root shrinks back to its only non-empty child when that child's contents
 *   lie inside the child's cell (hysteresis: a box bouncing at the edge of the world does not make it
 *   grow and shrink every frame).
 * - Each node keeps a fitted box (the union of what its subtree holds) that queries prune with — much
 *   tighter than its loose cell. Tree changes widen it at once (queries stay exact between updates);
 *   `update()` refits the nodes touched since the last update, bottom-up, and merges subtrees holding
 *   half a leaf or less back into one leaf.
 *
 * Pairs, with temporal coherence as Box2D's broadphase (fat AABBs in its dynamic tree, a persistent
 * list of fat-box overlaps updated for moved proxies only): the tree holds each proxy's fat box — its
 * box enlarged by `margin` times its largest extent — and a move that stays inside the fat box changes
 * nothing in the tree. A box that outran its margin since it got it gets a fat box of its own size (a
 * margin would not hold it for one frame) until it slows down. Candidate pairs (fat boxes
 * overlapping, `candidatePairs.ts`) are kept in per-proxy lists. `update()` queries the tree only
 * for proxies with a new fat box, dropping their stale candidates and adding the new ones, and
 * re-tests the exact boxes of the other moved proxies' candidates; when most proxies got a new fat box
 * it rebuilds every candidate instead. The pair set (PairSet) only hears of pairs that start or stop
 * overlapping; pairs of two boxes that did not move cost nothing. PairSet sorts the output, so pairs,
 * began and ended are the same as any other correct broadphase's. Two static proxies are never
 * candidates (Bullet's per-proxy filter, applied where a candidate would be made): a static proxy's
 * tree query skips the static ones, and one whose flag changes refreshes its candidates at the next
 * update, as if it had a new fat box.
 *
 * Queries (`queryBounds`) and the tree see every insert, move and remove at once; pairs change at
 * `update()`. A query callback must not insert, move or remove proxies.
 */

import { growArray } from '../../growArray.js';
import { optionKeys } from '../../options.js';
import {
  checkBounds,
  checkOptions,
  checkQueryOut,
  checkStaticFlag,
  emitQueryResult,
  SLOT_MASK,
} from '../proxies.js';
import type { Broadphase, BroadphaseOptions, QueryCallback } from '../types.js';
import { OctreeInvariants } from './invariants.js';
import { SegmentPool } from './segments.js';
import { HUGE, NONE, overlapsAt, REFAT } from './shared.js';

/** Options of {@link Octree}. */
export interface OctreeOptions extends BroadphaseOptions {
  /**
   * A leaf splits when it holds more than this many proxies (and a subtree holding half as many or
   * fewer merges back into one leaf). Default 32, as Project Oort's; 16 to 32 measured best.
   */
  leafCapacity?: number;
  /**
   * Loose factor (≥ 1): a node accepts boxes lying inside its cell scaled by this about the cell
   * centre. 1 is a classic octree (boxes on a split plane stay at the inner node). Default 2.
   */
  looseness?: number;
  /** Leaves this deep below the root do not split (identical boxes cannot be separated). Default 32. */
  maxDepth?: number;
  /**
   * Fat-box margin, as a share of each box's largest extent (0 to 16): the tree holds boxes enlarged
   * by it, so a box moving less than that costs no tree update and no query, only an exact test of
   * its candidate pairs. Boxes of zero size, and boxes moving more than their margin per update, get
   * none. Default 0.25 (0.1 to 0.5 measured alike on coherent motion).
   */
  margin?: number;
  /**
   * When more than this share of the proxies got a new fat box since the last update (teleports,
   * fast motion, a first fill), every candidate and pair is rebuilt with one tree query per proxy
   * instead of being patched. Default 0.5.
   */
  rebuildShare?: number;
  /** Centre of the first root cell. Default the origin. The world grows from there as needed. */
  worldCenter?: ArrayLike<number>;
  /** Half width of the first root cell. Default 256. */
  worldHalfSize?: number;
}

/**
 * The keys of {@link OctreeOptions}: any other key given to the constructor throws a `TypeError`
 * naming it. Kept complete by the compiler (`optionKeys`): add a new option here too.
 */
export const OCTREE_OPTION_KEYS = optionKeys<OctreeOptions>({
  dimensions: true,
  initialCapacity: true,
  validate: true,
  leafCapacity: true,
  looseness: true,
  maxDepth: true,
  margin: true,
  rebuildShare: true,
  worldCenter: true,
  worldHalfSize: true,
});

/** A snapshot of the tree's shape, for tests and tuning. */
export interface OctreeStats {
  /** Nodes in the tree (the root included). */
  nodes: number;
  /** Nodes allocated and waiting on the free list. */
  freeNodes: number;
  /** Leaves. */
  leaves: number;
  /** Depth of the deepest node (the root is 0). */
  depth: number;
  /** Proxies held by the root itself. */
  atRoot: number;
  /** Candidate pairs (fat boxes overlapping). */
  candidates: number;
  /** Centre of the root cell. */
  rootCenter: number[];
  /** Half width of the root cell. */
  rootHalfSize: number;
}

/**
 * Loose octree (quadtree in 2-D) broadphase with fat boxes and persistent candidate pairs. Implements
 * the {@link Broadphase} contract.
 * Strong where few boxes move (a box that stays inside its fat box costs only exact tests of its
 * candidate pairs) and on wide spreads of sizes; `SweepAndPrune` wins when boxes jump or move fast
 * (teleports, respawns, fast motion). Measured figures: the README's "Which broadphase".
 *
 * @example
 * ```ts
 * import { Octree } from '@sieve/core';
 *
 * const tree = new Octree({ dimensions: 3 });
 * const ground = tree.insert([-100, -1, -100, 100, 0, 100]);
 * const crate = tree.insert([0, 0, 0, 1, 1, 1]);
 * tree.update();
 * console.log(tree.pairCount); // 1: the crate touches the ground
 * tree.move(crate, [0, 3, 0, 1, 4, 1]);
 * tree.update();
 * const ended = tree.ended(); // [a0, b0, a1, b1, ...], sorted: here [ground, crate]
 * const found: number[] = [];
 * tree.queryBounds([0.5, 3.5, 0.5, 2, 5, 2], found); // handles whose boxes overlap this box
 * console.log(ended, found); // Int32Array [ground, crate], [crate]
 * ```
 */
export class Octree extends OctreeInvariants {
  /** A leaf splits past this many proxies. */
  readonly leafCapacity: number;
  /** Loose factor of the cells. */
  readonly looseness: number;
  /** Deepest level a leaf may split to. */
  readonly maxDepth: number;
  /** Fat-box margin (share of a box's largest extent). */
  readonly margin: number;
  /** Share of refreshed proxies above which an update rebuilds every candidate. */
  readonly rebuildShare: number;
  /** The `validate` option: check every invariant after each update. */
  protected readonly validateEachUpdate: boolean;
  /** Children per inner node: 2^D. */
  protected readonly fanout: number;
  /** A subtree holding this few proxies or fewer collapses into one leaf. */
  protected readonly mergeAt: number;
  /** Items: each node's proxies with a copy of their boxes. */
  protected readonly items: SegmentPool;
  /** Scratch centre for root growth. */
  protected readonly scratch: Float64Array;

  constructor(options: OctreeOptions) {
    const capacity = checkOptions(options, 'Octree', OCTREE_OPTION_KEYS).initialCapacity ?? 64;
    super(options.dimensions, capacity, 'Octree');
    const d = options.dimensions;
    this.validateEachUpdate = options.validate ?? false;
    this.leafCapacity = options.leafCapacity ?? 32;
    if (!Number.isInteger(this.leafCapacity) || this.leafCapacity < 1) {
      throw new RangeError(
        `Octree: leafCapacity must be a positive integer, got ${String(options.leafCapacity)}`,
      );
    }
    this.looseness = options.looseness ?? 2;
    if (typeof this.looseness !== 'number' || !(this.looseness >= 1 && this.looseness <= 16)) {
      throw new RangeError(
        `Octree: looseness must be a number from 1 to 16, got ${String(options.looseness)}`,
      );
    }
    this.margin = options.margin ?? 0.25;
    if (typeof this.margin !== 'number' || !(this.margin >= 0 && this.margin <= 16)) {
      throw new RangeError(`Octree: margin must be a number from 0 to 16, got ${String(options.margin)}`);
    }
    this.rebuildShare = options.rebuildShare ?? 0.5;
    if (typeof this.rebuildShare !== 'number' || !(this.rebuildShare >= 0)) {
      throw new RangeError(
        `Octree: rebuildShare must be a number, 0 or more, got ${String(options.rebuildShare)}`,
      );
    }
    this.maxDepth = options.maxDepth ?? 32;
    if (!Number.isInteger(this.maxDepth) || this.maxDepth < 0 || this.maxDepth > 200) {
      throw new RangeError(
        `Octree: maxDepth must be an integer from 0 to 200, got ${String(options.maxDepth)}`,
      );
    }
    const worldHalf = options.worldHalfSize ?? 256;
    if (typeof worldHalf !== 'number' || !(worldHalf > 0 && worldHalf < HUGE)) {
      throw new RangeError(
        `Octree: worldHalfSize must be a positive finite number, got ${String(worldHalf)}`,
      );
    }
    const worldCenter = options.worldCenter ?? new Float64Array(d);
    if (worldCenter === null || typeof worldCenter !== 'object') {
      throw new TypeError(`Octree: worldCenter must be ${d} numbers, got ${String(worldCenter)}`);
    }
    if (worldCenter.length !== d) {
      throw new RangeError(`Octree: worldCenter has length ${worldCenter.length}, expected ${d}`);
    }
    for (let k = 0; k < d; k++) {
      if (typeof worldCenter[k] !== 'number' || !Number.isFinite(worldCenter[k])) {
        throw new RangeError(`Octree: worldCenter[${k}] is ${String(worldCenter[k])}, not a finite number`);
      }
    }
    this.fanout = 1 << d;
    this.mergeAt = this.leafCapacity >> 1;
    this.scratch = new Float64Array(2 * d);

    this.items = new SegmentPool(2 * d);
    this.grow(this.store.capacity);

    this.growNodes(1 + 16 * this.fanout);
    for (let k = 0; k < d; k++) this.center[k] = worldCenter[k];
    this.half[0] = worldHalf;
    this.initNode(0, NONE);
    this.setLoose(0, this.center, 0, worldHalf * this.looseness, NONE);
  }

  /** Nodes in the tree, the root included (allocated in blocks of 2^D, so a multiple of it plus 1). */
  get nodeCount(): number {
    return this.liveNodes;
  }

  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    const slot = this.store.allocate(bounds, tag, isStatic);
    this.markDirty(slot);
    this.markRefat(slot);
    this.setFat(slot, false);
    while (!this.holds(slot, 0)) this.growRoot(slot);
    this.link(slot, this.descend(slot, 0));
    return this.store.handles[slot];
  }

  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.moveSlot(handle, bounds);
    this.store.setBounds(slot, bounds);
    this.moved(slot);
  }

  /**
   * Moves many proxies at once from a flat array: `handles[i]` gets the bounds at
   * `bounds[i · 2D …]` for i below `count` (an integer from 0 to `handles.length`; default
   * `handles.length`). Validates everything before changing anything.
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    const box = this.store.bounds;
    for (let i = 0; i < n; i++) {
      const slot = handles[i] & SLOT_MASK;
      for (let j = 0; j < s; j++) box[slot * s + j] = bounds[i * s + j];
      this.moved(slot);
    }
  }

  /** {@inheritDoc Broadphase.setStatic} */
  setStatic(handle: number, isStatic: boolean): void {
    const slot = this.store.slotOf(handle, 'setStatic');
    checkStaticFlag(isStatic, this.store.names.setStatic, false);
    const flag = isStatic ? 1 : 0;
    if (this.store.statics[slot] === flag) return;
    this.store.statics[slot] = flag;
    // Its candidates are refreshed at the update: the ones with static proxies go or come.
    this.markDirty(slot);
    this.markRefat(slot);
  }

  remove(handle: number): void {
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    this.unlink(slot);
    this.removed[this.removedCount++] = slot;
  }

  update(): void {
    if (this.refit[0] === 1) this.refitNode(0);
    this.shrinkRoot();
    const alive = this.store.alive;
    if (this.refatCount > 0 && this.refatCount > this.store.count * this.rebuildShare)
      this.rebuildCandidates();
    // Removed proxies: their reported pairs end, their candidates go.
    for (let i = 0; i < this.removedCount; i++) this.dropCandidates(this.removed[i]);
    // Proxies with a new fat box: stale candidates go (their pairs end), the others get an exact
    // test, the tree gives the new ones (tested too).
    for (let i = 0; i < this.refatCount; i++) {
      const slot = this.refat[i];
      if (alive[slot] === 1) {
        if (this.dimensions === 3) this.refreshCandidates3(slot);
        else this.refreshCandidates(slot);
      }
    }
    // Proxies that moved inside their fat box: exact test of each candidate. The pair set only
    // hears of pairs that start or stop overlapping.
    for (let i = 0; i < this.dirtyCount; i++) {
      const slot = this.dirty[i];
      if (alive[slot] === 1 && (this.flag[slot] & REFAT) === 0) this.retest(slot);
    }
    for (let i = 0; i < this.dirtyCount; i++) this.flag[this.dirty[i]] = 0;
    this.dirtyCount = 0;
    this.refatCount = 0;
    this.removedCount = 0;
    this.finishUpdate();
    this.frame = (this.frame + 1) | 0;
    if (this.validateEachUpdate) this.validate();
  }

  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    checkBounds(bounds, this.dimensions, this.store.names.queryBounds);
    checkQueryOut(out, this.store.names.queryBounds);
    const d = this.dimensions;
    const s = 2 * d;
    const handles = this.store.handles;
    const exact = this.store.bounds;
    const box = this.box;
    const itemBox = this.items.box;
    const itemSlot = this.items.slot;
    let found = 0;
    if (!overlapsAt(box, 0, bounds, d)) return 0;
    let stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const end = this.start[n] + this.own[n];
      for (let i = this.start[n]; i < end; i++) {
        if (overlapsAt(itemBox, i * s, bounds, d)) {
          const o = itemSlot[i];
          if (overlapsAt(exact, o * s, bounds, d)) emitQueryResult(out, handles[o], found++);
        }
      }
      const first = this.child[n];
      if (first !== NONE) {
        if (top + this.fanout > stack.length) stack = this.stack = growArray(stack, top + this.fanout);
        for (let c = first; c < first + this.fanout; c++) {
          if (overlapsAt(box, c * s, bounds, d)) stack[top++] = c;
        }
      }
    }
    return found;
  }

  /** Depth of the node holding a live proxy (the root is 0): how far down the tree it sits. */
  depthOf(handle: number): number {
    let n = this.slotNode[this.store.slotOf(handle, 'depthOf')];
    let depth = 0;
    while (this.parent[n] !== NONE) {
      n = this.parent[n];
      depth++;
    }
    return depth;
  }

  /** The tree's shape now (walks the whole tree; for tests and tuning). */
  stats(): OctreeStats {
    let leaves = 0;
    let depth = 0;
    const walk = (n: number, level: number) => {
      depth = Math.max(depth, level);
      const first = this.child[n];
      if (first === NONE) leaves++;
      else for (let c = first; c < first + this.fanout; c++) walk(c, level + 1);
    };
    walk(0, 0);
    return {
      nodes: this.liveNodes,
      freeNodes: this.freeBlockCount * this.fanout,
      leaves,
      depth,
      atRoot: this.own[0],
      candidates: this.candidates.count,
      rootCenter: Array.from(this.center.subarray(0, this.dimensions)),
      rootHalfSize: this.half[0],
    };
  }

  /**
   * Checks every invariant and throws on the first broken one: the tree's links and counts, every
   * proxy's fat box containing its box, inside its node's loose cell and not fitting the child its
   * centre picks, fitted boxes containing their subtrees, loose cells nested, subtrees merged when
   * they should be, the node and item free lists, the candidate lists equal to an all-pairs test of
   * the fat boxes with the right exact state, and the pair set equal to an all-pairs test. O(n²); for
   * tests and debugging (or pass `validate: true` to the constructor).
   */
  validate(): void {
    this.checkInvariants();
  }
}
