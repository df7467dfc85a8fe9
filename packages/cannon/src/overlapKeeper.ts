/**
 * `PairOverlapKeeper`: a drop-in for cannon-es's internal `OverlapKeeper` (`World.bodyOverlapKeeper`,
 * `World.shapeOverlapKeeper`), which feeds the `beginContact`/`endContact` and
 * `beginShapeContact`/`endShapeContact` events.
 *
 * The stock keeper inserts every touching pair into a sorted array by a linear scan and a shift, O(C)
 * per contact and O(C²) per step for C contacts — the second O(N²)-like cost of a large cannon world once
 * the broadphase and the collision matrices are fixed. Its key `i << 16 | j` also wraps for ids past
 * 65 535 (cannon's ids count every body ever created in the process). Here pairs are deduplicated in an
 * open-addressing hash table (O(1) per `set`) and sorted only when `getDiff` is asked for, so a world
 * without contact-event listeners pays nothing more. Keys are exact for ids below 2²² (4 million).
 *
 * `getDiff(additions, removals)` pushes the same flat id pairs as the stock one (ascending by the
 * smaller id, then the larger), for every id below 32 768 where the stock key still sorts that way.
 */

import { growArray } from '@sieve/core';
import { pairHash } from './collisionMatrix.js';

const SHIFT = 2147483648; // 2^31: key = lo · 2^31 + hi, exact in a double for lo < 2^22.

/** Per-step set of overlapping id pairs, and the difference with the previous step. */
export class PairOverlapKeeper {
  /** Pair keys of this step, in insertion order (sorted by `getDiff`). */
  private cur = new Float64Array(64);
  private curCount = 0;
  private prev = new Float64Array(64);
  private prevCount = 0;
  /** Open-addressing set of this step's keys (entry index + 1, 0 = empty). */
  private table = new Int32Array(128);
  private mask = 127;
  /** Table slot of each entry of `cur`, so tick() clears only what was used. */
  private slots = new Int32Array(64);
  private curSorted = true;
  private prevSorted = true;

  /** Number of pairs recorded this step. */
  get count(): number {
    return this.curCount;
  }

  /** This step's pairs as flat `[lo0, hi0, lo1, hi1, ...]` (a new array). */
  currentPairs(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.curCount; e++) pushKey(out, this.cur[e]);
    return out;
  }

  /** Records that ids `i` and `j` overlap this step (order does not matter; repeats are ignored). */
  set(i: number, j: number): void {
    const lo = Math.min(i, j);
    const hi = Math.max(i, j);
    const key = lo * SHIFT + hi;
    const mask = this.mask;
    let s = pairHash(lo, hi) & mask;
    for (;;) {
      const t = this.table[s];
      if (t === 0) break;
      if (this.cur[t - 1] === key) return;
      s = (s + 1) & mask;
    }
    if (this.curCount === this.cur.length) this.growCurrent();
    const e = this.curCount++;
    if (e > 0 && this.cur[e - 1] > key) this.curSorted = false;
    this.cur[e] = key;
    this.table[s] = e + 1;
    this.slots[e] = s;
    if (2 * this.curCount > this.table.length) this.rehash(this.table.length * 2);
  }

  /** Starts a new step: this step's pairs become the previous ones. */
  tick(): void {
    // Clear the hash table through the slots used (O(pairs)), then swap the key arrays.
    const n = this.curCount;
    if (n * 8 < this.table.length) {
      for (let e = 0; e < n; e++) this.table[this.slots[e]] = 0;
    } else {
      this.table.fill(0);
    }
    const tmp = this.prev;
    this.prev = this.cur;
    this.prevCount = n;
    this.prevSorted = this.curSorted;
    this.cur = tmp.length >= this.prev.length ? tmp : new Float64Array(this.prev.length);
    this.curCount = 0;
    this.curSorted = true;
    if (this.slots.length < this.cur.length) this.slots = new Int32Array(this.cur.length);
  }

  /**
   * Pushes the id pairs present now but not at the previous step onto `additions`, and those present
   * then but not now onto `removals`, two numbers per pair, ascending.
   */
  getDiff(additions: number[], removals: number[]): void {
    this.sortCurrent();
    if (!this.prevSorted) {
      this.prev.subarray(0, this.prevCount).sort();
      this.prevSorted = true;
    }
    const a = this.cur;
    const b = this.prev;
    const na = this.curCount;
    const nb = this.prevCount;
    let i = 0;
    let j = 0;
    while (i < na || j < nb) {
      if (j >= nb || (i < na && a[i] < b[j])) {
        pushKey(additions, a[i++]);
      } else if (i >= na || b[j] < a[i]) {
        pushKey(removals, b[j++]);
      } else {
        i++;
        j++;
      }
    }
  }

  private sortCurrent(): void {
    if (this.curSorted) return;
    // The table indexes entries by position: sorting invalidates it, so rebuild it after.
    this.cur.subarray(0, this.curCount).sort();
    this.curSorted = true;
    this.rehash(this.table.length);
  }

  private growCurrent(): void {
    const n = this.cur.length * 2;
    this.cur = growArray(this.cur, n);
    this.slots = growArray(this.slots, n);
  }

  private rehash(capacity: number): void {
    this.table = new Int32Array(capacity);
    this.mask = capacity - 1;
    const mask = this.mask;
    for (let e = 0; e < this.curCount; e++) {
      const key = this.cur[e];
      const lo = Math.floor(key / SHIFT);
      let s = pairHash(lo, key - lo * SHIFT) & mask;
      while (this.table[s] !== 0) s = (s + 1) & mask;
      this.table[s] = e + 1;
      this.slots[e] = s;
    }
  }
}

function pushKey(out: number[], key: number): void {
  const lo = Math.floor(key / SHIFT);
  out.push(lo, key - lo * SHIFT);
}
