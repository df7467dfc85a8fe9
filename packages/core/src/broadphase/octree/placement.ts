/**
 * Placing proxies in the octree: fat boxes, fitting a box to a node's loose cell, descending and
 * relocating, linking into node segments, splitting full leaves, growing and shrinking the root, and
 * the bottom-up refit that merges small subtrees back into one leaf (the loose octree of the module
 * comment of `Octree.ts`).
 */

import { growArray } from '../../growArray.js';
import { MIN_SEGMENT, segmentSize } from './segments.js';
import { DIRTY, HUGE, NONE, REFAT, RELATIVE_RESOLUTION, unionAt } from './shared.js';
import { OctreeStore } from './store.js';

/** Placement layer of `Octree`. */
export abstract class OctreePlacement extends OctreeStore {
  /** Queues a slot for the next update (once). */
  protected markDirty(slot: number): void {
    if ((this.flag[slot] & DIRTY) === 0) {
      this.flag[slot] |= DIRTY;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  /** Queues a slot whose fat box changed: it queries the tree for candidates at the next update. */
  protected markRefat(slot: number): void {
    if ((this.flag[slot] & REFAT) === 0) {
      this.flag[slot] |= REFAT;
      this.refat[this.refatCount++] = slot;
    }
  }

  /** A live slot got new bounds: if they left its fat box, a new fat box and a new place in the tree. */
  protected moved(slot: number): void {
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
  protected setFat(slot: number, moving: boolean): void {
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
  protected fits(slot: number, n: number): boolean {
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
  protected centreIn(slot: number, n: number): boolean {
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
  protected holds(slot: number, n: number): boolean {
    return this.fits(slot, n) && this.centreIn(slot, n);
  }

  /** The child of inner node n that the slot's box centre lies in (upper side on ties). */
  protected childFor(slot: number, n: number): number {
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
  protected descend(slot: number, n: number): number {
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
  protected relocate(slot: number): void {
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
  protected link(slot: number, n: number): void {
    this.addItem(n, slot);
    for (let m = n; m !== NONE; m = this.parent[m]) this.total[m]++;
    this.widen(n, slot);
    if (this.child[n] === NONE && this.own[n] > this.leafCapacity && this.canSplit(n)) this.split(n);
  }

  /** Takes a slot out of its node's list; the node is refitted (and maybe merged) at the next update. */
  protected unlink(slot: number): void {
    const n = this.slotNode[slot];
    this.removeItem(slot);
    for (let m = n; m !== NONE; m = this.parent[m]) this.total[m]--;
    this.touch(n);
  }

  /** Appends a slot (and a copy of its box) to node n's segment, growing the segment when full. */
  protected addItem(n: number, slot: number): void {
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
  protected removeItem(slot: number): void {
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
  protected resizeSegment(n: number, size: number): void {
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
  protected touch(n: number): void {
    while (n !== NONE && this.refit[n] === 0) {
      this.refit[n] = 1;
      n = this.parent[n];
    }
  }

  /** Grows the fitted boxes of n and its ancestors to contain the slot's box. */
  protected widen(n: number, slot: number): void {
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

  /** Whether leaf n may split into 2^D children: under `maxDepth`, and its children's cells still resolvable at their coordinates. */
  protected canSplit(n: number): boolean {
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
  protected split(n: number): void {
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
  protected makeChild(n: number, c: number, index: number): void {
    const d = this.dimensions;
    const h = 0.5 * this.half[n];
    for (let k = 0; k < d; k++) {
      this.center[c * d + k] = this.center[n * d + k] + ((index >> k) & 1 ? h : -h);
    }
    this.half[c] = h;
    this.initNode(c, n);
    this.setLoose(c, this.center, c * d, h * this.looseness, n);
  }

  /**
   * Doubles the root cell towards the slot's box. A leaf root just grows in place; an inner root
   * becomes a child of a new root.
   */
  protected growRoot(slot: number): void {
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
  protected shrinkRoot(): void {
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
  protected moveNode(from: number, to: number): void {
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
  protected boxInCell(n: number): boolean {
    const d = this.dimensions;
    const h = this.half[n];
    for (let k = 0; k < d; k++) {
      const c = this.center[n * d + k];
      if (this.box[n * 2 * d + k] < c - h || this.box[n * 2 * d + d + k] > c + h) return false;
    }
    return true;
  }

  /** Refits the boxes of the marked nodes below n (inclusive), bottom-up, merging small subtrees. */
  protected refitNode(n: number): void {
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
  protected collapse(n: number): void {
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

  /** A block of 2^D fresh child nodes (a freed one if any); returns its first node. */
  protected allocBlock(): number {
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

  /** Returns the block of 2^D children starting at `first` to the free list, emptying their segments. */
  protected freeBlock(first: number): void {
    const F = this.fanout;
    for (let c = first; c < first + F; c++) {
      if (this.segment[c] > 0) this.resizeSegment(c, 0);
      this.freed[c] = 1;
      this.refit[c] = 0;
      this.child[c] = NONE;
      this.own[c] = 0;
    }
    this.liveNodes -= F;
    if (this.freeBlockCount === this.freeBlocks.length)
      this.freeBlocks = growArray(this.freeBlocks, this.freeBlockCount + 1);
    this.freeBlocks[this.freeBlockCount++] = first;
  }
}
