/**
 * The octree's storage: every per-node array (structure of arrays; the root is node 0, the others come
 * in blocks of 2^D) and every per-proxy array, sized and grown here, with the node initialisers. The
 * tree's configuration is declared here and set by `Octree`'s constructor.
 */

import { growArray } from '../../growArray.js';
import { PairedBroadphase } from '../pairedBroadphase.js';
import { CandidatePairs } from './candidatePairs.js';
import type { SegmentPool } from './segments.js';
import { NONE } from './shared.js';

/** Storage layer of `Octree` (see the module comment). */
export abstract class OctreeStore extends PairedBroadphase {
  /** A leaf splits past this many proxies. */
  protected abstract readonly leafCapacity: number;
  /** Loose factor of the cells. */
  protected abstract readonly looseness: number;
  /** Deepest level a leaf may split to. */
  protected abstract readonly maxDepth: number;
  /** Fat-box margin (share of a box's largest extent). */
  protected abstract readonly margin: number;
  /** Share of refreshed proxies above which an update rebuilds every candidate. */
  protected abstract readonly rebuildShare: number;
  protected abstract readonly validateEachUpdate: boolean;
  /** Children per inner node: 2^D. */
  protected abstract readonly fanout: number;
  /** A subtree holding this few proxies or fewer collapses into one leaf. */
  protected abstract readonly mergeAt: number;
  /** Items: each node's proxies with a copy of their boxes. */
  protected abstract readonly items: SegmentPool;
  /** Scratch centre for root growth. */
  protected abstract readonly scratch: Float64Array;

  // Every per-node array is sized in growNodes, from empty.
  /** Nodes the per-node arrays have room for. */
  protected nodeCapacity = 0;

  /** Nodes ever handed out (every node index is below it). */
  protected nodesUsed = 1;

  /** Nodes in the tree now (the root included; freed blocks excluded). */
  protected liveNodes = 1;

  /** Cell centre, D per node. */
  protected center = new Float64Array(0);

  /** Cell half width. */
  protected half = new Float64Array(0);

  /** Loose cell `[min…, max…]`, 2D per node: every proxy of the node lies inside it. */
  protected loose = new Float64Array(0);

  /** Fitted box, 2D per node: contains every proxy of the subtree (empty: +∞…−∞). */
  protected box = new Float64Array(0);

  /** First child (the block of 2^D), or NONE for a leaf. */
  protected child = new Int32Array(0);

  /** Parent node, or NONE for the root. */
  protected parent = new Int32Array(0);

  /** First item of the node's segment in the pool, and the segment's size (0: none). */
  protected start = new Int32Array(0);

  /** Items the node's segment has room for (its capacity in the pool). */
  protected segment = new Int32Array(0);

  /** Proxies in the node itself (the first `own` items of its segment). */
  protected own = new Int32Array(0);

  /** Proxies in the subtree. */
  protected total = new Int32Array(0);

  /** 1 when the node's box must be refitted at the next update (then all its ancestors are marked too). */
  protected refit = new Uint8Array(0);

  /** 1 for a node on the free list. */
  protected freed = new Uint8Array(0);

  /** First nodes of freed blocks of 2^D children, reused before new nodes are handed out. */
  protected freeBlocks = new Int32Array(16);

  /** Blocks in `freeBlocks`. */
  protected freeBlockCount = 0;

  /** Node holding the slot, or NONE, and the slot's item in the pool. */
  protected slotNode = new Int32Array(0);

  /** The slot's item index in the pool (valid while `slotNode` is not NONE). */
  protected slotItem = new Int32Array(0);

  /** Fat box of each slot, 2D numbers (what the tree holds). */
  protected fat = new Float64Array(0);

  /** DIRTY | REFAT bits of each slot since the last update (REFAT only with DIRTY: cleared through `dirty`). */
  protected flag = new Uint8Array(0);

  /** Slots moved or inserted since the last update (each once). */
  protected dirty = new Int32Array(0);

  /** Slots in `dirty`. */
  protected dirtyCount = 0;

  /** Slots whose fat box changed (moved out of it, or inserted): they query the tree. */
  protected refat = new Int32Array(0);

  /** Slots in `refat`. */
  protected refatCount = 0;

  /** Slots removed since the last update (their pairs end at it). */
  protected removed = new Int32Array(0);

  /** Slots in `removed`. */
  protected removedCount = 0;

  /** Candidate pairs: slot pairs whose fat boxes overlap, kept between updates. */
  protected readonly candidates = new CandidatePairs(0);

  /** Query stamps: `stamp[slot] === epoch` while slot is a known candidate of the querying slot. */
  protected stamp = new Int32Array(0);

  /** The current query's stamp value (see `stamp`). */
  protected epoch = 0;

  /** Updates so far. */
  protected frame = 0;

  /** The update at which each slot last got a fat box. */
  protected fatFrame = new Int32Array(0);

  /** Traversal stack. */
  protected stack = new Int32Array(256);

  /** Empty leaf with the given parent. */
  protected initNode(n: number, parent: number): void {
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
  protected setLoose(n: number, centers: Float64Array, at: number, reach: number, within: number): void {
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

  /** Makes room for `size` nodes: the first call exactly (from empty arrays), later ones by doubling. */
  protected growNodes(size: number): void {
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
}
