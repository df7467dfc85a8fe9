/**
 * `PairCollisionMatrix`: a drop-in for cannon-es's `ArrayCollisionMatrix` (what `World.collisionMatrix`
 * and `World.collisionMatrixPrevious` hold) whose memory and `reset()` cost grow with the number of
 * pairs set, not with N².
 *
 * cannon-es 0.20.0's `ArrayCollisionMatrix` keeps one array slot per body pair, `N(N−1)/2` of them, and
 * `World.collisionMatrixTick()` zeroes every slot each step: O(N²) whatever the broadphase — at N = 5 000
 * it stalls the first steps for seconds while the array grows, at N = 20 000 `setNumObjects` throws
 * `RangeError: Invalid array length`. Here the set pairs live in an open-addressing hash table on integer
 * keys (linear probing, load ≤ 1/2, as Bullet's btHashedOverlappingPairCache and `@sieve/core`'s
 * `PairSet`) with a dense list of the entries in use, so `reset()` clears only those.
 *
 * Pairs whose flat index (below) is under 2²¹ — every pair of a world of up to 2 048 bodies — live in a
 * dense byte array indexed exactly as cannon's, with a list of the indices set so `reset()` clears only
 * those: a small world pays an index computation and a byte per `get`/`set`, as with the stock array,
 * and never hashes. Only pairs past that index go to the hash table.
 *
 * Semantics are the array's, exactly: entries are keyed by `body.index` (the body's position in
 * `world.bodies`, which cannon renumbers when a body is removed), `get` returns 1 for a pair set to true
 * and 0 otherwise, and `setNumObjects(n)` forgets the entries that the array would lose when its length
 * is cut to `n(n−1)/2` (its flat index `i(i+1)/2 + j − 1`, `i > j`, at or past that length). A world
 * using this matrix dispatches the same `collide` events as with the stock one.
 */
import { growArray } from '@sieve/core';

/** A body as the matrix sees it: cannon's `Body` has an integer `index`. */
export interface IndexedBody {
  /** The body's position in `world.bodies` (a non-negative integer; cannon renumbers on removal). */
  index: number;
}

/** Flat indices below this are kept in the dense byte array (2 MiB at most). */
const DENSE_MAX = 1 << 21;

/** Hash of an integer pair (the mix of `@sieve/core`'s `PairSet`); shared with `PairOverlapKeeper`. */
export function pairHash(i: number, j: number): number {
  let h = (Math.imul(i, 0x9e3779b1) + Math.imul(j, 0x85ebca77)) | 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/**
 * Collision matrix sized by the pairs set since the last `reset()`. Same interface as cannon-es's
 * `ArrayCollisionMatrix` (`get`, `set`, `reset`, `setNumObjects`).
 */
export class PairCollisionMatrix {
  /** Dense part: one byte per flat index below `dense.length` (grown up to DENSE_MAX). */
  private dense = new Uint8Array(64);
  /** Flat indices set in `dense` since the last reset (each once). */
  private denseList = new Int32Array(64);
  private denseCount = 0;
  /** Dense entries: larger index `i`, smaller index `j`, value (0 or 1). */
  private hi = new Int32Array(64);
  private lo = new Int32Array(64);
  private value = new Uint8Array(64);
  /** Table slot of each entry (kept up to date by deletes), so reset() can clear slots directly. */
  private slotOf = new Int32Array(64);
  /** Entries in use. */
  private size = 0;
  /** Open-addressing table of entry index + 1 (0 = empty). */
  private table = new Int32Array(128);
  private mask = 127;

  /** Number of entries stored (pairs set since the last reset, whether to true or false). */
  get entryCount(): number {
    return this.size + this.denseCount;
  }

  /**
   * 1 if the pair (in either order) was set to true since the last reset, else 0 (the array form gives
   * 0, 1 or undefined). O(1). Like the stock array, it does not validate: both indices must be
   * non-negative integers.
   */
  get(bi: IndexedBody, bj: IndexedBody): number {
    let i = bi.index;
    let j = bj.index;
    if (j > i) {
      const t = i;
      i = j;
      j = t;
    }
    const flat = (i * (i + 1)) / 2 + j - 1;
    if (flat >= 0 && flat < DENSE_MAX) return flat < this.dense.length ? this.dense[flat] & 1 : 0;
    const e = this.find(i, j);
    return e < 0 ? 0 : this.value[e];
  }

  /**
   * Records whether the pair (in either order) collides: a truthy `value` reads back as 1, a falsy one
   * as 0. O(1) amortised; a pair set to false that was not set before stores nothing.
   */
  set(bi: IndexedBody, bj: IndexedBody, value: boolean | number): void {
    let i = bi.index;
    let j = bj.index;
    if (j > i) {
      const t = i;
      i = j;
      j = t;
    }
    const flat = (i * (i + 1)) / 2 + j - 1;
    if (flat >= 0 && flat < DENSE_MAX) {
      if (flat >= this.dense.length) {
        if (!value) return;
        this.growDense(flat + 1);
      }
      const d = this.dense[flat];
      // bit 1: listed since the last reset; bit 0: the value
      if (d === 0) {
        if (!value) return; // an absent entry already reads 0
        if (this.denseCount === this.denseList.length)
          this.denseList = growArray(this.denseList, this.denseCount + 1);
        this.denseList[this.denseCount++] = flat;
        this.dense[flat] = 3;
      } else this.dense[flat] = value ? 3 : 2;
      return;
    }
    let e = this.find(i, j);
    if (e < 0) {
      if (!value) return; // an absent entry already reads 0
      e = this.add(i, j);
    }
    this.value[e] = value ? 1 : 0;
  }

  /** Forgets every pair: O(pairs set), not O(N²). */
  reset(): void {
    const dense = this.dense;
    const list = this.denseList;
    for (let k = 0; k < this.denseCount; k++) dense[list[k]] = 0;
    this.denseCount = 0;
    const n = this.size;
    if (n === 0) return;
    if (n * 8 < this.table.length) {
      for (let e = 0; e < n; e++) this.table[this.slotOf[e]] = 0;
    } else {
      this.table.fill(0);
    }
    this.size = 0;
    // Shrink a table that a burst of pairs blew up, so a later reset stays cheap.
    if (this.table.length > 1024 && n * 16 < this.table.length) {
      const cap = Math.max(128, 1 << Math.ceil(Math.log2(4 * n + 1)));
      this.table = new Int32Array(cap);
      this.mask = cap - 1;
    }
  }

  /**
   * Mirrors `ArrayCollisionMatrix.setNumObjects(n)`: when the matrix shrinks, pairs whose flat index
   * falls past `n(n−1)/2` are forgotten. Growing is free.
   */
  setNumObjects(n: number): void {
    const length = (n * (n - 1)) / 2;
    let k = 0;
    while (k < this.denseCount) {
      const flat = this.denseList[k];
      if (flat >= length) {
        this.dense[flat] = 0;
        this.denseList[k] = this.denseList[--this.denseCount];
      } else k++;
    }
    let e = 0;
    while (e < this.size) {
      const i = this.hi[e];
      const j = this.lo[e];
      if ((i * (i + 1)) / 2 + j - 1 >= length) this.removeEntry(e);
      else e++;
    }
  }

  /** Calls `fn(i, j)` (body indices, `i > j`) for every pair currently set to true. */
  forEachSet(fn: (i: number, j: number) => void): void {
    for (let k = 0; k < this.denseCount; k++) {
      const flat = this.denseList[k];
      if ((this.dense[flat] & 1) === 0) continue;
      // invert flat = i(i+1)/2 + j − 1 with 0 ≤ j < i
      let i = Math.floor((Math.sqrt(8 * (flat + 1) + 1) - 1) / 2);
      while ((i * (i + 1)) / 2 > flat + 1) i--;
      while (((i + 1) * (i + 2)) / 2 <= flat + 1) i++;
      fn(i, flat + 1 - (i * (i + 1)) / 2);
    }
    for (let e = 0; e < this.size; e++) if (this.value[e] === 1) fn(this.hi[e], this.lo[e]);
  }

  /** Entry index of the pair, or -1. */
  private find(i: number, j: number): number {
    const mask = this.mask;
    let s = pairHash(i, j) & mask;
    for (;;) {
      const t = this.table[s];
      if (t === 0) return -1;
      const e = t - 1;
      if (this.hi[e] === i && this.lo[e] === j) return e;
      s = (s + 1) & mask;
    }
  }

  private add(i: number, j: number): number {
    if (this.size === this.hi.length) this.growEntries();
    if (2 * (this.size + 1) > this.table.length) this.rehash(this.table.length * 2);
    const e = this.size++;
    this.hi[e] = i;
    this.lo[e] = j;
    this.value[e] = 0;
    this.insertSlot(i, j, e);
    return e;
  }

  private insertSlot(i: number, j: number, e: number): void {
    const mask = this.mask;
    let s = pairHash(i, j) & mask;
    while (this.table[s] !== 0) s = (s + 1) & mask;
    this.table[s] = e + 1;
    this.slotOf[e] = s;
  }

  /**
   * Empties the table slot of entry `entry` (its `slotOf`), shifting later probes back (linear-probing
   * delete).
   */
  private clearSlot(entry: number): void {
    const mask = this.mask;
    const table = this.table;
    const s = this.slotOf[entry];
    // Backward-shift deletion keeps every remaining key reachable without tombstones.
    let hole = s;
    let k = (s + 1) & mask;
    for (;;) {
      const t = table[k];
      if (t === 0) break;
      const e = t - 1;
      const home = pairHash(this.hi[e], this.lo[e]) & mask;
      // Move the entry at k into the hole if its home is not cyclically within (hole, k].
      if (hole <= k ? home <= hole || home > k : home <= hole && home > k) {
        table[hole] = t;
        this.slotOf[e] = hole;
        hole = k;
      }
      k = (k + 1) & mask;
    }
    table[hole] = 0;
  }

  /** Removes dense entry e (swap with the last one). */
  private removeEntry(e: number): void {
    this.clearSlot(e);
    const last = --this.size;
    if (e !== last) {
      const i = this.hi[last];
      const j = this.lo[last];
      // Re-point the last entry's table slot at e.
      const s = this.slotOf[last];
      this.table[s] = e + 1;
      this.slotOf[e] = s;
      this.hi[e] = i;
      this.lo[e] = j;
      this.value[e] = this.value[last];
    }
  }

  private growDense(size: number): void {
    let cap = this.dense.length;
    while (cap < size) cap *= 2;
    const next = new Uint8Array(Math.min(cap, DENSE_MAX));
    next.set(this.dense);
    this.dense = next;
  }

  private growEntries(): void {
    const n = this.hi.length * 2;
    this.hi = growArray(this.hi, n);
    this.lo = growArray(this.lo, n);
    this.value = growArray(this.value, n);
    this.slotOf = growArray(this.slotOf, n);
  }

  private rehash(capacity: number): void {
    this.table = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let e = 0; e < this.size; e++) this.insertSlot(this.hi[e], this.lo[e], e);
  }
}
