/**
 * Dynamic loose octree (a quadtree in 2-D) broadphase.
 *
 * Follows the dynamic octree of `shared/seeds/002_843453ac9dcf85c9.txt` (the Project Oort collision
 * pipeline, "Octree" section): a node is a cube given by its centre and half width; children are
 * indexed so that bit k of the index is set when the child lies on the upper side of axis k; an object
 * that straddles a split stays at the inner node; a leaf splits when it holds more than a capacity of
 * objects (32 there, the default here too); an update walks up from the object's node until the object
 * fits, then down. Linking objects into and out of cells as they cross cell borders is the cell-list
 * method of `shared/seeds/003_242aab26ee069742.txt` §2.6, made hierarchical.
 *
 * Past the seed:
 * - Nodes live in flat typed arrays (structure of arrays), children allocated together in blocks of
 *   2^D with a free list of blocks. A node's proxies (slot and a copy of the box) sit side by side in
 *   a segment of one shared pool (`octreeSegments.ts`), so a node is scanned in consecutive memory.
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
 * overlapping, `octreeCandidates.ts`) are kept in per-proxy lists. `update()` queries the tree only
 * for proxies with a new fat box, dropping their stale candidates and adding the new ones, and
 * re-tests the exact boxes of the other moved proxies' candidates; when most proxies got a new fat box
 * it rebuilds every candidate instead. The pair set (PairSet) only hears of pairs that start or stop
 * overlapping; pairs of two boxes that did not move cost nothing. PairSet sorts the output, so pairs,
 * began and ended are the same as any other correct broadphase's.
 *
 * Queries (`queryBounds`) and the tree see every insert, move and remove at once; pairs change at
 * `update()`. A query callback must not insert, move or remove proxies.
 */

import { growArray } from '../growArray.js';
import { CandidatePairs } from './octreeCandidates.js';
import { MIN_SEGMENT, SegmentPool, segmentSize } from './octreeSegments.js';
import { PairedBroadphase } from './pairedBroadphase.js';
import { checkBounds, checkOptions, checkQueryOut, emitQueryResult, SLOT_MASK } from './proxies.js';
import type { Broadphase, BroadphaseOptions, QueryCallback } from './types.js';

/** Options of {@link Octree}. */
export interface OctreeOptions extends BroadphaseOptions {
  /**
   * A leaf splits when it holds more than this many proxies (and a subtree holding half as many or
   * fewer merges back into one leaf). Default 32, as the seed; 16 to 32 measured best.
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
  /** Centre and half width of the root cell. */
  rootCenter: number[];
  rootHalfSize: number;
}

const NONE = -1;
/** Slot flags: moved or inserted, fat box changed — since the last update. */
const DIRTY = 1;
const REFAT = 2;
/** Nodes finer than this share of their centre's magnitude are not split (float resolution). */
const RELATIVE_RESOLUTION = 2 ** -40;
/** A root this large stops growing and accepts everything (coordinates near the double range). */
const HUGE = 1e300;

/**
 * Loose octree (quadtree in 2-D) broadphase with fat boxes and persistent candidate pairs. Implements
 * the {@link Broadphase} contract. Strong where sweep and prune is weak: boxes that jump (teleports,
 * fast motion, spawning), and scenes where few boxes move; see the README's "which broadphase".
 *
 * ```ts
 * const tree = new Octree({ dimensions: 3 });
 * const h = tree.insert([0, 0, 0, 1, 1, 1]);
 * tree.move(h, [0.5, 0, 0, 1.5, 1, 1]);
 * tree.update();
 * const began = tree.began(); // [a0, b0, a1, b1, ...], sorted
 * for (let i = 0; i < began.length; i += 2) startContact(began[i], began[i + 1]);
 * ```
 */
export class Octree extends PairedBroadphase {
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
  private readonly validateEachUpdate: boolean;
  /** Children per inner node: 2^D. */
  private readonly fanout: number;
  /** A subtree holding this few proxies or fewer collapses into one leaf. */
  private readonly mergeAt: number;

  // --- nodes (structure of arrays; the root is node 0, the others come in blocks of 2^D) ---------
  // Every per-node array is sized in growNodes, from empty.
  private nodeCapacity = 0;
  /** Nodes ever handed out (every node index is below it). */
  private nodesUsed = 1;
  private liveNodes = 1;
  /** Cell centre, D per node. */
  private center = new Float64Array(0);
  /** Cell half width. */
  private half = new Float64Array(0);
  /** Loose cell `[min…, max…]`, 2D per node: every proxy of the node lies inside it. */
  private loose = new Float64Array(0);
  /** Fitted box, 2D per node: contains every proxy of the subtree (empty: +∞…−∞). */
  private box = new Float64Array(0);
  /** First child (the block of 2^D), or NONE for a leaf. */
  private child = new Int32Array(0);
  private parent = new Int32Array(0);
  /** First item of the node's segment in the pool, and the segment's size (0: none). */
  private start = new Int32Array(0);
  private segment = new Int32Array(0);
  /** Proxies in the node itself (the first `own` items of its segment). */
  private own = new Int32Array(0);
  /** Proxies in the subtree. */
  private total = new Int32Array(0);
  /** 1 when the node's box must be refitted at the next update (then all its ancestors are marked too). */
  private refit = new Uint8Array(0);
  /** 1 for a node on the free list. */
  private freed = new Uint8Array(0);
  private freeBlocks = new Int32Array(16);
  private freeBlockCount = 0;

  // --- proxies (per slot; every per-slot array is sized in grow, from empty) ----------------------
  /** Node holding the slot, or NONE, and the slot's item in the pool. */
  private slotNode = new Int32Array(0);
  private slotItem = new Int32Array(0);
  /** Items: each node's proxies with a copy of their boxes. */
  private readonly items: SegmentPool;
  /** Fat box of each slot, 2D numbers (what the tree holds). */
  private fat = new Float64Array(0);
  /** DIRTY | REFAT bits of each slot since the last update (REFAT only with DIRTY: cleared through `dirty`). */
  private flag = new Uint8Array(0);
  /** Slots moved or inserted since the last update (each once). */
  private dirty = new Int32Array(0);
  private dirtyCount = 0;
  /** Slots whose fat box changed (moved out of it, or inserted): they query the tree. */
  private refat = new Int32Array(0);
  private refatCount = 0;
  private removed = new Int32Array(0);
  private removedCount = 0;
  private readonly candidates = new CandidatePairs(0);
  /** Query stamps: `stamp[slot] === epoch` while slot is a known candidate of the querying slot. */
  private stamp = new Int32Array(0);
  private epoch = 0;
  /** Updates so far, and the update at which each slot last got a fat box. */
  private frame = 0;
  private fatFrame = new Int32Array(0);

  /** Traversal stack. */
  private stack = new Int32Array(256);
  /** Scratch centre for root growth. */
  private readonly scratch: Float64Array;

  constructor(options: OctreeOptions) {
    const capacity = checkOptions(options, 'Octree').initialCapacity ?? 64;
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

  insert(bounds: ArrayLike<number>): number {
    const slot = this.store.allocate(bounds);
    this.markDirty(slot);
    this.markRefat(slot);
    this.setFat(slot, false);
    while (!this.holds(slot, 0)) this.growRoot(slot);
    this.link(slot, this.descend(slot, 0));
    return this.store.handles[slot];
  }

  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, 'Octree.move');
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
    this.pairSet.finalize(this.store.handles);
    this.store.recycle();
    this.frame = (this.frame + 1) | 0;
    if (this.validateEachUpdate) this.validate();
  }

  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    checkBounds(bounds, this.dimensions, 'Octree.queryBounds');
    checkQueryOut(out, 'Octree.queryBounds');
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
    const d = this.dimensions;
    const s = 2 * d;
    const F = this.fanout;
    const b = this.store.bounds;
    if (this.parent[0] !== NONE) throw new Error('Octree: root has a parent');
    const seen = new Uint8Array(this.nodesUsed);
    const itemUse = new Uint8Array(this.items.used);
    const markItems = (start: number, size: number) => {
      if (start + size > this.items.used) throw new Error(`Octree: segment ${start} beyond the pool`);
      for (let i = start; i < start + size; i++) {
        if (itemUse[i] !== 0) throw new Error(`Octree: item ${i} in two segments`);
        itemUse[i] = 1;
      }
    };
    let reached = 0;
    let objects = 0;
    const visit = (n: number): number => {
      if (this.freed[n] === 1) throw new Error(`Octree: node ${n} is in the tree and on the free list`);
      if (seen[n] === 1) throw new Error(`Octree: node ${n} reached twice`);
      seen[n] = 1;
      reached++;
      const count = this.own[n];
      if (count > this.segment[n])
        throw new Error(`Octree: node ${n} holds ${count} in a segment of ${this.segment[n]}`);
      if (this.segment[n] > 0) {
        if (this.segment[n] < MIN_SEGMENT || (this.segment[n] & (this.segment[n] - 1)) !== 0) {
          throw new Error(`Octree: node ${n}'s segment size ${this.segment[n]} is not a power of two`);
        }
        markItems(this.start[n], this.segment[n]);
      }
      for (let i = this.start[n]; i < this.start[n] + count; i++) {
        const o = this.items.slot[i];
        if (this.slotNode[o] !== n || this.slotItem[o] !== i) {
          throw new Error(
            `Octree: slot ${o} in node ${n} item ${i} thinks it is in ${this.slotNode[o]} item ${this.slotItem[o]}`,
          );
        }
        for (let j = 0; j < s; j++) {
          if (this.items.box[i * s + j] !== this.fat[o * s + j])
            throw new Error(`Octree: stale box copy of slot ${o}`);
        }
        if (!containsAt(this.fat, o * s, b, o * s, d))
          throw new Error(`Octree: slot ${o} outside its fat box`);
        if (this.store.alive[o] !== 1) throw new Error(`Octree: dead slot ${o} in node ${n}`);
        if (!this.fits(o, n)) throw new Error(`Octree: slot ${o} outside the loose cell of node ${n}`);
        // A leaf root only needs its boxes to fit: when it grows past 2^53 times the first cell, its
        // centre is rounded and a box's centre may end an ulp outside its cell (harmless until it splits).
        if (n === 0 && this.child[0] !== NONE && !this.centreIn(o, 0))
          throw new Error(`Octree: slot ${o} at the root, centre outside its cell`);
        if (this.child[n] !== NONE && this.fits(o, this.childFor(o, n))) {
          throw new Error(`Octree: slot ${o} stays in node ${n} but fits the child its centre picks`);
        }
        if (!containsAt(this.box, n * s, this.fat, o * s, d)) {
          throw new Error(`Octree: slot ${o} outside node ${n}'s box`);
        }
      }
      let total = count;
      const first = this.child[n];
      if (first !== NONE) {
        if ((first - 1) % F !== 0) throw new Error(`Octree: node ${n}'s children are not a block`);
        for (let c = first; c < first + F; c++) {
          if (this.parent[c] !== n) throw new Error(`Octree: node ${c}'s parent is not ${n}`);
          for (let k = 0; k < d; k++) {
            if (
              this.loose[c * s + k] < this.loose[n * s + k] ||
              this.loose[c * s + d + k] > this.loose[n * s + d + k]
            ) {
              throw new Error(`Octree: loose cell of node ${c} sticks out of its parent's`);
            }
          }
          if (this.total[c] > 0 && !containsAt(this.box, n * s, this.box, c * s, d)) {
            throw new Error(`Octree: node ${c}'s box sticks out of its parent's`);
          }
          total += visit(c);
        }
        if (total <= this.mergeAt)
          throw new Error(`Octree: node ${n} holds ${total} proxies and should have merged`);
      }
      if (total !== this.total[n])
        throw new Error(`Octree: node ${n}'s subtree holds ${total}, counts ${this.total[n]}`);
      if (this.refit[n] !== 0) throw new Error(`Octree: node ${n} still marked for refit after an update`);
      objects += count;
      return total;
    };
    visit(0);
    if (objects !== this.store.count)
      throw new Error(`Octree: tree holds ${objects} proxies, ${this.store.count} live`);
    for (let slot = 0; slot < this.store.used; slot++) {
      if ((this.slotNode[slot] === NONE) !== (this.store.alive[slot] === 0)) {
        throw new Error(
          `Octree: slot ${slot} is ${this.store.alive[slot] ? 'live but not' : 'dead but'} in the tree`,
        );
      }
    }
    if (this.child[0] !== NONE && this.own[0] === 0) {
      let nonEmpty = 0;
      let only = NONE;
      for (let c = this.child[0]; c < this.child[0] + F; c++) {
        if (this.total[c] > 0) {
          nonEmpty++;
          only = c;
        }
      }
      if (nonEmpty === 1 && this.boxInCell(only)) {
        throw new Error('Octree: root should have shrunk to its only non-empty child');
      }
    }
    if (reached !== this.liveNodes)
      throw new Error(`Octree: ${reached} nodes reached, ${this.liveNodes} counted`);
    let freeNodes = 0;
    for (let i = 0; i < this.freeBlockCount; i++) {
      const first = this.freeBlocks[i];
      for (let c = first; c < first + F; c++) {
        if (this.freed[c] !== 1 || seen[c] === 1) throw new Error(`Octree: free block ${first} is in use`);
        freeNodes++;
      }
    }
    if (reached + freeNodes !== this.nodesUsed) {
      throw new Error(`Octree: ${reached} live + ${freeNodes} free nodes, ${this.nodesUsed} allocated`);
    }
    this.items.forEachFree(markItems);
    for (let i = 0; i < this.items.used; i++) if (itemUse[i] === 0) throw new Error(`Octree: item ${i} lost`);
    // Candidates: exactly the pairs of overlapping fat boxes, each in both lists, with its exact state.
    const cands = this.candidates;
    let links = 0;
    for (let slot = 0; slot < this.store.used; slot++) {
      if (this.flag[slot] !== 0) throw new Error(`Octree: slot ${slot} still flagged after an update`);
      let last = NONE;
      for (let l = cands.head[slot]; l !== NONE; l = cands.next[l]) {
        if (cands.ends[l] !== slot || cands.prev[l] !== last) {
          throw new Error(`Octree: broken candidate list of slot ${slot}`);
        }
        if (this.store.alive[slot] !== 1) throw new Error(`Octree: dead slot ${slot} has candidates`);
        last = l;
        if (++links > 2 * cands.used) throw new Error(`Octree: cycle in candidate list of slot ${slot}`);
      }
    }
    if (links !== 2 * cands.count)
      throw new Error(`Octree: ${links} candidate links for ${cands.count} candidates`);
    if (cands.count + cands.freeEntries !== cands.used) throw new Error('Octree: candidate entries lost');
    this.pairSet.check();
    let expected = 0;
    // entryOf[c] is the entry of the candidate (a, c) while markedBy[c] === a + 1.
    const markedBy = new Int32Array(this.store.used);
    const entryOf = new Int32Array(this.store.used);
    for (let a = 0; a < this.store.used; a++) {
      if (this.store.alive[a] !== 1) continue;
      for (let l = cands.head[a]; l !== NONE; l = cands.next[l]) {
        const other = cands.ends[l ^ 1];
        if (markedBy[other] === a + 1) throw new Error(`Octree: candidate (${a}, ${other}) listed twice`);
        markedBy[other] = a + 1;
        entryOf[other] = l >> 1;
      }
      for (let c = a + 1; c < this.store.used; c++) {
        if (this.store.alive[c] !== 1) continue;
        const e = markedBy[c] === a + 1 ? entryOf[c] : undefined;
        const fat = overlapsBoxes(this.fat, a * s, this.fat, c * s, d);
        if (fat !== (e !== undefined)) throw new Error(`Octree: candidate (${a}, ${c}) should be ${fat}`);
        const overlap = overlapsBoxes(b, a * s, b, c * s, d);
        if (overlap && !fat) throw new Error(`Octree: boxes ${a}, ${c} overlap but their fat boxes do not`);
        if (e !== undefined && (cands.over[e] === 1) !== overlap) {
          throw new Error(
            `Octree: candidate (${a}, ${c}) marked ${cands.over[e] === 1}, overlap is ${overlap}`,
          );
        }
        if (overlap !== this.pairSet.has(a, c))
          throw new Error(`Octree: pair (${a}, ${c}) should be ${overlap}`);
        if (overlap) expected++;
      }
    }
    if (expected !== this.pairSet.count)
      throw new Error(`Octree: ${this.pairSet.count} pairs, expected ${expected}`);
  }

  // --- placement -----------------------------------------------------------------------------------

  private markDirty(slot: number): void {
    if ((this.flag[slot] & DIRTY) === 0) {
      this.flag[slot] |= DIRTY;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  private markRefat(slot: number): void {
    if ((this.flag[slot] & REFAT) === 0) {
      this.flag[slot] |= REFAT;
      this.refat[this.refatCount++] = slot;
    }
  }

  /** A live slot got new bounds: if they left its fat box, a new fat box and a new place in the tree. */
  private moved(slot: number): void {
    this.markDirty(slot);
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.store.bounds;
    const f = this.fat;
    const o = slot * s;
    for (let k = 0; k < d; k++) {
      if (b[o + k] < f[o + k] || b[o + d + k] > f[o + d + k]) {
        this.setFat(slot, true);
        this.relocate(slot);
        this.markRefat(slot);
        return;
      }
    }
  }

  /**
   * The slot's fat box: its box enlarged by margin × its largest extent (never to an infinity). A box
   * that left its fat box (`moving`) and travelled at least that far per update since it got it would
   * leave any fat box within an update: it gets none (until it slows down), as a larger box would only
   * bring more candidates.
   */
  private setFat(slot: number, moving: boolean): void {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.store.bounds;
    const f = this.fat;
    const o = slot * s;
    let extent = 0;
    for (let k = 0; k < d; k++) extent = Math.max(extent, b[o + d + k] - b[o + k]);
    let pad = this.margin * extent;
    if (!(pad < Number.POSITIVE_INFINITY)) pad = 0;
    if (moving && pad > 0) {
      // The fat box is centred on where the box was when it got it.
      let travel = 0;
      for (let k = 0; k < d; k++) {
        const now = 0.5 * b[o + k] + 0.5 * b[o + d + k];
        const then = 0.5 * f[o + k] + 0.5 * f[o + d + k];
        travel = Math.max(travel, Math.abs(now - then));
      }
      if (travel >= pad * Math.max(1, this.frame - this.fatFrame[slot])) pad = 0;
    }
    this.fatFrame[slot] = this.frame;
    for (let k = 0; k < d; k++) {
      const lo = b[o + k] - pad;
      const hi = b[o + d + k] + pad;
      f[o + k] = lo > Number.NEGATIVE_INFINITY ? lo : b[o + k];
      f[o + d + k] = hi < Number.POSITIVE_INFINITY ? hi : b[o + d + k];
    }
  }

  /** Whether the slot's box lies inside node n's loose cell. */
  private fits(slot: number, n: number): boolean {
    const d = this.dimensions;
    const b = this.fat;
    const l = this.loose;
    const o = slot * 2 * d;
    const p = n * 2 * d;
    for (let k = 0; k < d; k++) {
      if (b[o + k] < l[p + k] || b[o + d + k] > l[p + d + k]) return false;
    }
    return true;
  }

  /** Whether the slot's box centre lies in node n's cell (not the loose one). */
  private centreIn(slot: number, n: number): boolean {
    const d = this.dimensions;
    const b = this.fat;
    const o = slot * 2 * d;
    const h = this.half[n];
    for (let k = 0; k < d; k++) {
      const p = 0.5 * b[o + k] + 0.5 * b[o + d + k];
      const c = this.center[n * d + k];
      if (p < c - h || p > c + h) return false;
    }
    return true;
  }

  /**
   * Whether node n may hold the slot when it is placed from above: its box inside n's loose cell and
   * its centre inside n's cell (else it could fit no child and would stay at n for good).
   */
  private holds(slot: number, n: number): boolean {
    return this.fits(slot, n) && this.centreIn(slot, n);
  }

  /** The child of inner node n that the slot's box centre lies in (upper side on ties). */
  private childFor(slot: number, n: number): number {
    const d = this.dimensions;
    const b = this.fat;
    const o = slot * 2 * d;
    let index = 0;
    for (let k = 0; k < d; k++) {
      if (0.5 * b[o + k] + 0.5 * b[o + d + k] >= this.center[n * d + k]) index |= 1 << k;
    }
    return this.child[n] + index;
  }

  /** The deepest node below n (inclusive) that the slot fits, following its centre. */
  private descend(slot: number, n: number): number {
    while (this.child[n] !== NONE) {
      const c = this.childFor(slot, n);
      if (!this.fits(slot, c)) break;
      n = c;
    }
    return n;
  }

  /**
   * After a move: stay while the box still fits its node (a leaf keeps it as long as it fits its
   * loose cell; an inner node or the root only while the centre stays in its cell) and fits no child;
   * else walk up to the first node that holds it, then down.
   */
  private relocate(slot: number): void {
    const n = this.slotNode[slot];
    if (this.fits(slot, n) && ((this.child[n] === NONE && n !== 0) || this.centreIn(slot, n))) {
      if (this.child[n] !== NONE) {
        const c = this.childFor(slot, n);
        if (this.fits(slot, c)) {
          this.unlink(slot);
          this.link(slot, this.descend(slot, c));
          return;
        }
      }
      // Stays: refresh the box copy.
      const s = 2 * this.dimensions;
      const b = this.fat;
      const itemBox = this.items.box;
      const i = this.slotItem[slot];
      for (let j = 0; j < s; j++) itemBox[i * s + j] = b[slot * s + j];
      this.touch(n);
      this.widen(n, slot);
      return;
    }
    let a = this.parent[n];
    while (a !== NONE && !this.holds(slot, a)) a = this.parent[a];
    this.unlink(slot);
    if (a === NONE) {
      while (!this.holds(slot, 0)) this.growRoot(slot);
      a = 0;
    }
    this.link(slot, this.descend(slot, a));
  }

  /** Adds a slot to node n's list, widens the boxes above it, and splits n if it is a full leaf. */
  private link(slot: number, n: number): void {
    this.addItem(n, slot);
    for (let m = n; m !== NONE; m = this.parent[m]) this.total[m]++;
    this.widen(n, slot);
    if (this.child[n] === NONE && this.own[n] > this.leafCapacity && this.canSplit(n)) this.split(n);
  }

  /** Takes a slot out of its node's list; the node is refitted (and maybe merged) at the next update. */
  private unlink(slot: number): void {
    const n = this.slotNode[slot];
    this.removeItem(slot);
    for (let m = n; m !== NONE; m = this.parent[m]) this.total[m]--;
    this.touch(n);
  }

  /** Appends a slot (and a copy of its box) to node n's segment, growing the segment when full. */
  private addItem(n: number, slot: number): void {
    if (this.own[n] === this.segment[n]) this.resizeSegment(n, Math.max(MIN_SEGMENT, 2 * this.segment[n]));
    const s = 2 * this.dimensions;
    const i = this.start[n] + this.own[n]++;
    const b = this.fat;
    const itemBox = this.items.box;
    this.items.slot[i] = slot;
    for (let j = 0; j < s; j++) itemBox[i * s + j] = b[slot * s + j];
    this.slotItem[slot] = i;
    this.slotNode[slot] = n;
  }

  /** Takes a slot out of its node's segment (the last item fills the hole); shrinks sparse segments. */
  private removeItem(slot: number): void {
    const n = this.slotNode[slot];
    const i = this.slotItem[slot];
    const last = this.start[n] + this.own[n] - 1;
    if (i !== last) {
      this.items.copy(last, i);
      this.slotItem[this.items.slot[i]] = i;
    }
    this.own[n]--;
    this.slotNode[slot] = NONE;
    const size = this.segment[n];
    if (this.own[n] === 0) this.resizeSegment(n, 0);
    else if (size > MIN_SEGMENT && 4 * this.own[n] <= size) this.resizeSegment(n, size >> 1);
  }

  /** Moves node n's items into a new segment of `size` items (0: none). */
  private resizeSegment(n: number, size: number): void {
    const items = this.items;
    const from = this.start[n];
    const to = size > 0 ? items.alloc(size) : 0;
    for (let k = 0; k < this.own[n]; k++) {
      items.copy(from + k, to + k);
      this.slotItem[items.slot[to + k]] = to + k;
    }
    if (this.segment[n] > 0) items.release(from, this.segment[n]);
    this.start[n] = to;
    this.segment[n] = size;
  }

  /** Marks n and its ancestors for a refit at the next update. */
  private touch(n: number): void {
    while (n !== NONE && this.refit[n] === 0) {
      this.refit[n] = 1;
      n = this.parent[n];
    }
  }

  /** Grows the fitted boxes of n and its ancestors to contain the slot's box. */
  private widen(n: number, slot: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.fat;
    const box = this.box;
    const o = slot * s;
    while (n !== NONE) {
      const p = n * s;
      let grown = false;
      for (let k = 0; k < d; k++) {
        if (b[o + k] < box[p + k]) {
          box[p + k] = b[o + k];
          grown = true;
        }
        if (b[o + d + k] > box[p + d + k]) {
          box[p + d + k] = b[o + d + k];
          grown = true;
        }
      }
      // Every box contains its children's: once one already held the slot, the ones above do too.
      if (!grown) return;
      n = this.parent[n];
    }
  }

  // --- structure -----------------------------------------------------------------------------------

  private canSplit(n: number): boolean {
    let depth = 0;
    for (let m = this.parent[n]; m !== NONE; m = this.parent[m]) depth++;
    if (depth >= this.maxDepth) return false;
    const h = 0.5 * this.half[n];
    if (!(h >= 1e-300 && h <= HUGE)) return false;
    const d = this.dimensions;
    for (let k = 0; k < d; k++) {
      if (h < Math.abs(this.center[n * d + k]) * RELATIVE_RESOLUTION) return false;
    }
    return true;
  }

  /** Gives leaf n its 2^D children and moves down every proxy that fits the child its centre picks. */
  private split(n: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const first = this.allocBlock();
    this.child[n] = first;
    for (let i = 0; i < this.fanout; i++) this.makeChild(n, first + i, i);
    // Backwards, so that the item moved into a hole has been looked at already.
    for (let i = this.start[n] + this.own[n] - 1; i >= this.start[n]; i--) {
      const o = this.items.slot[i];
      const c = this.childFor(o, n);
      if (!this.fits(o, c)) continue;
      // Into c's segment, out of n's; n's subtree count and box do not change.
      this.addItem(c, o);
      this.total[c]++;
      unionAt(this.box, c * s, this.fat, o * s, d);
      const last = this.start[n] + this.own[n] - 1;
      if (i !== last) {
        this.items.copy(last, i);
        this.slotItem[this.items.slot[i]] = i;
      }
      this.own[n]--;
    }
    if (this.own[n] === 0) this.resizeSegment(n, 0);
    else if (segmentSize(this.own[n]) < this.segment[n]) this.resizeSegment(n, segmentSize(this.own[n]));
    for (let c = first; c < first + this.fanout; c++) {
      if (this.own[c] > this.leafCapacity && this.canSplit(c)) this.split(c);
    }
  }

  /** Sets up node c as child `index` of n: its cell, its loose cell (inside n's), empty. */
  private makeChild(n: number, c: number, index: number): void {
    const d = this.dimensions;
    const h = 0.5 * this.half[n];
    for (let k = 0; k < d; k++) {
      this.center[c * d + k] = this.center[n * d + k] + ((index >> k) & 1 ? h : -h);
    }
    this.half[c] = h;
    this.initNode(c, n);
    this.setLoose(c, this.center, c * d, h * this.looseness, n);
  }

  /** Empty leaf with the given parent. */
  private initNode(n: number, parent: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    this.parent[n] = parent;
    this.child[n] = NONE;
    this.start[n] = 0;
    this.segment[n] = 0;
    this.own[n] = 0;
    this.total[n] = 0;
    this.refit[n] = 0;
    this.freed[n] = 0;
    for (let k = 0; k < d; k++) {
      this.box[n * s + k] = Number.POSITIVE_INFINITY;
      this.box[n * s + d + k] = Number.NEGATIVE_INFINITY;
    }
  }

  /**
   * Node n's loose cell: `centre ± reach`, clipped to the loose cell of `within` (if any) so that
   * nesting holds exactly, whatever the rounding.
   */
  private setLoose(n: number, centers: Float64Array, at: number, reach: number, within: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const l = this.loose;
    for (let k = 0; k < d; k++) {
      let lo = centers[at + k] - reach;
      let hi = centers[at + k] + reach;
      if (within !== NONE) {
        lo = Math.max(lo, l[within * s + k]);
        hi = Math.min(hi, l[within * s + d + k]);
      }
      l[n * s + k] = lo;
      l[n * s + d + k] = hi;
    }
  }

  /**
   * Doubles the root cell towards the slot's box. A leaf root just grows in place; an inner root
   * becomes a child of a new root.
   */
  private growRoot(slot: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.fat;
    const h = this.half[0];
    let l = this.loose;
    if (2 * h > HUGE) {
      // Coordinates near the end of the double range: the root takes everything (and never splits).
      this.half[0] = Number.POSITIVE_INFINITY;
      for (let k = 0; k < d; k++) {
        l[k] = Number.NEGATIVE_INFINITY;
        l[d + k] = Number.POSITIVE_INFINITY;
      }
      return;
    }
    // Towards the slot's centre on each axis; the old root sits on the other side.
    const c = this.scratch;
    let oldIndex = 0;
    for (let k = 0; k < d; k++) {
      const up = 0.5 * b[slot * s + k] + 0.5 * b[slot * s + d + k] >= this.center[k];
      c[k] = this.center[k] + (up ? h : -h);
      if (!up) oldIndex |= 1 << k;
    }
    const reach = 2 * h * this.looseness;
    if (this.child[0] === NONE) {
      for (let k = 0; k < d; k++) {
        this.center[k] = c[k];
        l[k] = Math.min(l[k], c[k] - reach);
        l[d + k] = Math.max(l[d + k], c[k] + reach);
      }
      this.half[0] = 2 * h;
      return;
    }
    const first = this.allocBlock();
    l = this.loose; // (the node arrays may have grown)
    const old = first + oldIndex;
    // Move the old root into its place among the new children.
    this.moveNode(0, old);
    this.parent[old] = 0;
    // The new root: twice as large, its loose cell still containing the old one.
    for (let k = 0; k < d; k++) {
      this.center[k] = c[k];
      l[k] = Math.min(l[k], c[k] - reach);
      l[d + k] = Math.max(l[d + k], c[k] + reach);
    }
    this.half[0] = 2 * h;
    this.child[0] = first;
    this.start[0] = 0;
    this.segment[0] = 0;
    this.own[0] = 0;
    for (let i = 0; i < this.fanout; i++) if (i !== oldIndex) this.makeChild(0, first + i, i);
  }

  /**
   * While the root holds nothing itself and has one non-empty child whose fitted box lies inside its
   * own cell (see boxInCell), that child becomes the root.
   */
  private shrinkRoot(): void {
    const F = this.fanout;
    for (;;) {
      const first = this.child[0];
      if (first === NONE || this.own[0] !== 0) return;
      let only = NONE;
      for (let c = first; c < first + F; c++) {
        if (this.total[c] > 0) {
          if (only !== NONE) return;
          only = c;
        }
      }
      if (only === NONE || !this.boxInCell(only)) return;
      for (let c = first; c < first + F; c++) if (c !== only && this.child[c] !== NONE) this.collapse(c);
      if (this.segment[0] > 0) this.resizeSegment(0, 0);
      this.moveNode(only, 0);
      // The segment now belongs to the root.
      this.segment[only] = 0;
      this.own[only] = 0;
      this.freeBlock(first);
    }
  }

  /**
   * Node `to` takes over node `from`: cell, loose cell, fitted box, children, segment and counts; the
   * children and proxies point to `to`. `to`'s parent is left as it was (the root's growth and
   * shrinking, which set it themselves).
   */
  private moveNode(from: number, to: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    for (let k = 0; k < d; k++) this.center[to * d + k] = this.center[from * d + k];
    for (let k = 0; k < s; k++) {
      this.loose[to * s + k] = this.loose[from * s + k];
      this.box[to * s + k] = this.box[from * s + k];
    }
    this.half[to] = this.half[from];
    this.child[to] = this.child[from];
    this.start[to] = this.start[from];
    this.segment[to] = this.segment[from];
    this.own[to] = this.own[from];
    this.total[to] = this.total[from];
    this.refit[to] = this.refit[from];
    this.freed[to] = 0;
    const first = this.child[to];
    if (first !== NONE) for (let g = first; g < first + this.fanout; g++) this.parent[g] = to;
    for (let i = this.start[to]; i < this.start[to] + this.own[to]; i++)
      this.slotNode[this.items.slot[i]] = to;
  }

  /**
   * Whether node n's fitted box lies inside its cell: then n can be the root (every centre below it is
   * inside), and a box must move its centre out before the root grows again — a box bouncing at the
   * edge of the world does not make the root grow and shrink every frame.
   */
  private boxInCell(n: number): boolean {
    const d = this.dimensions;
    const h = this.half[n];
    for (let k = 0; k < d; k++) {
      const c = this.center[n * d + k];
      if (this.box[n * 2 * d + k] < c - h || this.box[n * 2 * d + d + k] > c + h) return false;
    }
    return true;
  }

  /** Refits the boxes of the marked nodes below n (inclusive), bottom-up, merging small subtrees. */
  private refitNode(n: number): void {
    this.refit[n] = 0;
    if (this.child[n] !== NONE && this.total[n] <= this.mergeAt) this.collapse(n);
    const d = this.dimensions;
    const s = 2 * d;
    const box = this.box;
    const itemBox = this.items.box;
    const p = n * s;
    for (let k = 0; k < d; k++) {
      box[p + k] = Number.POSITIVE_INFINITY;
      box[p + d + k] = Number.NEGATIVE_INFINITY;
    }
    const end = this.start[n] + this.own[n];
    for (let i = this.start[n]; i < end; i++) unionAt(box, p, itemBox, i * s, d);
    const first = this.child[n];
    if (first !== NONE) {
      for (let c = first; c < first + this.fanout; c++) {
        if (this.refit[c] === 1) this.refitNode(c);
        unionAt(box, p, box, c * s, d);
      }
    }
  }

  /** Moves every proxy of n's subtree into n and frees the subtree's nodes. */
  private collapse(n: number): void {
    if (this.segment[n] < this.total[n]) this.resizeSegment(n, segmentSize(this.total[n]));
    const items = this.items;
    // The stack holds child blocks still to empty.
    let stack = this.stack;
    let top = 0;
    stack[top++] = this.child[n];
    this.child[n] = NONE;
    while (top > 0) {
      const block = stack[--top];
      for (let m = block; m < block + this.fanout; m++) {
        for (let i = this.start[m]; i < this.start[m] + this.own[m]; i++) {
          const to = this.start[n] + this.own[n]++;
          items.copy(i, to);
          this.slotItem[items.slot[to]] = to;
          this.slotNode[items.slot[to]] = n;
        }
        this.own[m] = 0;
        if (this.child[m] !== NONE) {
          if (top === stack.length) stack = this.stack = growArray(stack, top + 1);
          stack[top++] = this.child[m];
        }
      }
      this.freeBlock(block);
    }
  }

  private allocBlock(): number {
    const F = this.fanout;
    this.liveNodes += F;
    if (this.freeBlockCount > 0) {
      const first = this.freeBlocks[--this.freeBlockCount];
      for (let c = first; c < first + F; c++) this.freed[c] = 0;
      return first;
    }
    const first = this.nodesUsed;
    this.nodesUsed += F;
    if (this.nodesUsed > this.nodeCapacity) this.growNodes(this.nodesUsed);
    return first;
  }

  private freeBlock(first: number): void {
    const F = this.fanout;
    for (let c = first; c < first + F; c++) {
      if (this.segment[c] > 0) this.resizeSegment(c, 0);
      this.freed[c] = 1;
      this.refit[c] = 0;
      this.child[c] = NONE;
      this.own[c] = 0;
    }
    this.liveNodes -= F;
    this.freeBlocks = growArray(this.freeBlocks, this.freeBlockCount + 1);
    this.freeBlocks[this.freeBlockCount++] = first;
  }

  /** Makes room for `size` nodes: the first call exactly (from empty arrays), later ones by doubling. */
  private growNodes(size: number): void {
    const d = this.dimensions;
    let n = this.nodeCapacity === 0 ? size : this.nodeCapacity;
    while (n < size) n *= 2;
    this.nodeCapacity = n;
    this.center = growArray(this.center, d * n);
    this.half = growArray(this.half, n);
    this.loose = growArray(this.loose, 2 * d * n);
    this.box = growArray(this.box, 2 * d * n);
    this.child = growArray(this.child, n);
    this.parent = growArray(this.parent, n);
    this.start = growArray(this.start, n);
    this.segment = growArray(this.segment, n);
    this.own = growArray(this.own, n);
    this.total = growArray(this.total, n);
    this.refit = growArray(this.refit, n);
    this.freed = growArray(this.freed, n);
  }

  protected grow(capacity: number): void {
    const before = this.slotNode.length;
    this.slotNode = growArray(this.slotNode, capacity);
    this.slotNode.fill(NONE, before);
    this.slotItem = growArray(this.slotItem, capacity);
    this.fat = growArray(this.fat, 2 * this.dimensions * capacity);
    this.refat = growArray(this.refat, capacity);
    this.stamp = growArray(this.stamp, capacity);
    this.fatFrame = growArray(this.fatFrame, capacity);
    this.candidates.growSlots(capacity);
    this.flag = growArray(this.flag, capacity);
    this.dirty = growArray(this.dirty, capacity);
    this.removed = growArray(this.removed, capacity);
  }

  // --- pairs ---------------------------------------------------------------------------------------

  /** Ends the reported pairs of a removed slot and drops its candidates. */
  private dropCandidates(slot: number): void {
    const cands = this.candidates;
    let l = cands.head[slot];
    while (l !== NONE) {
      const after = cands.next[l];
      const e = l >> 1;
      if (cands.over[e] === 1) this.pairSet.ensureAbsent(slot, cands.ends[l ^ 1]);
      cands.remove(e);
      l = after;
    }
  }

  /**
   * Slot a's fat box changed: drops the candidates it no longer overlaps (ending their pairs), then
   * queries the tree for the fat boxes it overlaps now and adds the new ones.
   */
  private refreshCandidates(a: number, rebuild = false): void {
    const epoch = rebuild ? this.nextEpoch() : this.pruneCandidates(a);
    const d = this.dimensions;
    const s = 2 * d;
    const f = this.fat;
    const box = this.box;
    const stamp = this.stamp;
    const itemBox = this.items.box;
    const itemSlot = this.items.slot;
    const q = a * s;
    let stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const end = this.start[n] + this.own[n];
      for (let i = this.start[n]; i < end; i++) {
        const o = itemSlot[i];
        if (rebuild ? o <= a : stamp[o] === epoch) continue;
        if (!overlapsBoxes(itemBox, i * s, f, q, d)) continue;
        stamp[o] = epoch;
        this.addCandidate(a, o);
      }
      const first = this.child[n];
      if (first !== NONE) {
        if (top + this.fanout > stack.length) stack = this.stack = growArray(stack, top + this.fanout);
        for (let c = first; c < first + this.fanout; c++)
          if (overlapsBoxes(box, c * s, f, q, d)) stack[top++] = c;
      }
    }
  }

  /** {@link refreshCandidates} for 3-D, unrolled (the tree query is the hot loop of busy frames). */
  private refreshCandidates3(a: number, rebuild = false): void {
    const epoch = rebuild ? this.nextEpoch() : this.pruneCandidates(a);
    const f = this.fat;
    const box = this.box;
    const stamp = this.stamp;
    const itemBox = this.items.box;
    const itemSlot = this.items.slot;
    const start = this.start;
    const own = this.own;
    const child = this.child;
    const q = a * 6;
    const x0 = f[q];
    const y0 = f[q + 1];
    const z0 = f[q + 2];
    const x1 = f[q + 3];
    const y1 = f[q + 4];
    const z1 = f[q + 5];
    let stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const end = start[n] + own[n];
      for (let i = start[n]; i < end; i++) {
        const p = i * 6;
        // One branch per box instead of six: the outcome is hard to predict either way.
        const hit =
          +(itemBox[p] <= x1) &
          +(x0 <= itemBox[p + 3]) &
          +(itemBox[p + 1] <= y1) &
          +(y0 <= itemBox[p + 4]) &
          +(itemBox[p + 2] <= z1) &
          +(z0 <= itemBox[p + 5]);
        if (hit === 0) continue;
        const o = itemSlot[i];
        // In a rebuild the smaller slot of each pair adds it; else only pairs not yet known.
        if (rebuild ? o <= a : stamp[o] === epoch) continue;
        stamp[o] = epoch;
        this.addCandidate(a, o);
      }
      const first = child[n];
      if (first !== NONE) {
        if (top + 8 > stack.length) stack = this.stack = growArray(stack, top + 8);
        for (let c = first; c < first + 8; c++) {
          const p = c * 6;
          const hit =
            +(box[p] <= x1) &
            +(x0 <= box[p + 3]) &
            +(box[p + 1] <= y1) &
            +(y0 <= box[p + 4]) &
            +(box[p + 2] <= z1) &
            +(z0 <= box[p + 5]);
          if (hit !== 0) stack[top++] = c;
        }
      }
    }
  }

  /**
   * Most proxies got a new fat box: drops every candidate, marks every pair absent, and lets each
   * proxy query the tree once, the smaller slot of each pair adding it. Leaves nothing for the
   * incremental steps of the update to do.
   */
  private rebuildCandidates(): void {
    this.candidates.clear(this.store.used);
    this.pairSet.markAllAbsent();
    const alive = this.store.alive;
    for (let slot = 0; slot < this.store.used; slot++) {
      if (alive[slot] === 1) {
        if (this.dimensions === 3) this.refreshCandidates3(slot, true);
        else this.refreshCandidates(slot, true);
      }
    }
    this.refatCount = 0;
    // Nothing left to refresh (removed slots have no candidates left to drop) or to re-test.
    for (let i = 0; i < this.dirtyCount; i++) this.flag[this.dirty[i]] |= REFAT;
  }

  /** A new candidate (a, o), reported at once if the exact boxes overlap. */
  private addCandidate(a: number, o: number): void {
    const e = this.candidates.add(a, o);
    const s = 2 * this.dimensions;
    if (overlapsBoxes(this.store.bounds, a * s, this.store.bounds, o * s, this.dimensions)) {
      this.candidates.over[e] = 1;
      this.pairSet.ensurePresent(a, o);
    }
  }

  /**
   * Drops slot a's candidates whose fat boxes no longer overlap a's (ending their reported pairs),
   * re-tests the others' exact boxes and stamps them, and a itself, with a new epoch; returns it.
   */
  private pruneCandidates(a: number): number {
    const epoch = this.nextEpoch();
    const d = this.dimensions;
    const s = 2 * d;
    const f = this.fat;
    const exact = this.store.bounds;
    const cands = this.candidates;
    let l = cands.head[a];
    while (l !== NONE) {
      const after = cands.next[l];
      const b = cands.ends[l ^ 1];
      const e = l >> 1;
      if (overlapsBoxes(f, a * s, f, b * s, d)) {
        this.stamp[b] = epoch;
        const now = overlapsBoxes(exact, a * s, exact, b * s, d) ? 1 : 0;
        if (now !== cands.over[e]) {
          cands.over[e] = now;
          if (now === 1) this.pairSet.ensurePresent(a, b);
          else this.pairSet.ensureAbsent(a, b);
        }
      } else {
        if (cands.over[e] === 1) this.pairSet.ensureAbsent(a, b);
        cands.remove(e);
      }
      l = after;
    }
    this.stamp[a] = epoch;
    return epoch;
  }

  /** A fresh query stamp. */
  private nextEpoch(): number {
    if (this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  /**
   * Exact test of each candidate of slot a (moved inside its fat box); reports pairs that start or
   * stop overlapping. Candidates whose fat box changed were tested by their own refresh; a pair of two
   * other moved slots is tested by the smaller one.
   */
  private retest(a: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.store.bounds;
    const flag = this.flag;
    const cands = this.candidates;
    const ends = cands.ends;
    const next = cands.next;
    const over = cands.over;
    for (let l = cands.head[a]; l !== NONE; l = next[l]) {
      const o = ends[l ^ 1];
      const f = flag[o];
      if ((f & REFAT) !== 0 || ((f & DIRTY) !== 0 && o < a)) continue;
      const e = l >> 1;
      const now = overlapsBoxes(b, a * s, b, o * s, d) ? 1 : 0;
      if (now !== over[e]) {
        over[e] = now;
        if (now === 1) this.pairSet.ensurePresent(a, o);
        else this.pairSet.ensureAbsent(a, o);
      }
    }
  }
}

/** Whether the box at `a[p…]` overlaps `q` (inclusive). An empty box (+∞…−∞) overlaps nothing. */
function overlapsAt(a: Float64Array, p: number, q: ArrayLike<number>, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (a[p + k] > q[d + k] || q[k] > a[p + d + k]) return false;
  }
  return true;
}

/** Whether the boxes at `a[p…]` and `c[q…]` overlap (inclusive). */
function overlapsBoxes(a: Float64Array, p: number, c: Float64Array, q: number, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (a[p + k] > c[q + d + k] || c[q + k] > a[p + d + k]) return false;
  }
  return true;
}

/** Whether the box at `a[p…]` contains the box at `c[q…]`. */
function containsAt(a: Float64Array, p: number, c: Float64Array, q: number, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (c[q + k] < a[p + k] || c[q + d + k] > a[p + d + k]) return false;
  }
  return true;
}

/** `a[p…] := a[p…] ∪ c[q…]`. */
function unionAt(a: Float64Array, p: number, c: Float64Array, q: number, d: number): void {
  for (let k = 0; k < d; k++) {
    if (c[q + k] < a[p + k]) a[p + k] = c[q + k];
    if (c[q + d + k] > a[p + d + k]) a[p + d + k] = c[q + d + k];
  }
}
