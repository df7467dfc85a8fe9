/**
 * `PairOverlapKeeper`: a drop-in for cannon-es's internal `OverlapKeeper` (`World.bodyOverlapKeeper`,
 * `World.shapeOverlapKeeper`), which feeds the `beginContact`/`endContact` and
 * `beginShapeContact`/`endShapeContact` events.
 *
 * The stock keeper inserts every touching pair into a sorted array by a linear scan and a shift, O(C)
 * per contact and O(C²) per step for C contacts — the second O(N²)-like cost of a large cannon world once
 * the broadphase and the collision matrices are fixed. Here pairs are deduplicated in an open-addressing
 * hash table (O(1) per `set`, as Bullet's btHashedOverlappingPairCache) — by a linear scan while a step
 * has at most 16 pairs, where that is cheaper — and sorted only when `getDiff` is asked for, so a world
 * without contact-event listeners pays nothing more.
 *
 * Keys, two kinds:
 * - `stockKeys: true` (what `installSieve` uses): cannon's own 32-bit key `min << 16 | max` and its
 *   unpacking, so `getDiff` pushes exactly the numbers the stock keeper pushes, in the same order, for
 *   every id — including ids past 32 767, where the stock key turns negative, and past 65 535, where two
 *   pairs can share a key (cannon's ids count every body ever created in the process).
 * - `stockKeys: false` (the default of this class): exact keys for ids below 2²² (4 million), ascending
 *   by the smaller id, then the larger; the same numbers as stock for ids below 32 768.
 */

import { checkOptionKeys, growArray, optionKeys } from '@sieve/core';
import { pairHash } from './collisionMatrix.js';

const SHIFT = 2147483648; // 2^31: key = lo · 2^31 + hi, exact in a double for lo < 2^22.

/** Up to this many pairs a step, duplicates are found by a linear scan instead of the hash table. */
const LINEAR_MAX = 16;

/** Options of {@link PairOverlapKeeper}. */
export interface PairOverlapKeeperOptions {
  /** Use cannon's 16-bit packed keys (identical events to stock for every id). Default false. */
  stockKeys?: boolean;
}

/**
 * The keys of {@link PairOverlapKeeperOptions}: any other key throws a `TypeError` naming it. Kept
 * complete by the compiler (`optionKeys`): add a new option here too.
 */
const OVERLAP_KEEPER_OPTION_KEYS = optionKeys<PairOverlapKeeperOptions>({ stockKeys: true });

/** Per-step set of overlapping id pairs, and the difference with the previous step. */
export class PairOverlapKeeper {
  /** Whether keys are cannon's `min << 16 | max` (see the module comment). */
  readonly stockKeys: boolean;
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
  /** Whether this step's entries are in the hash table (past LINEAR_MAX of them). */
  private hashed = false;

  /** Throws a `TypeError` for an unknown option key or a `stockKeys` that is not a boolean. */
  constructor(options: PairOverlapKeeperOptions = {}) {
    checkOptionKeys('PairOverlapKeeper: options', options, OVERLAP_KEEPER_OPTION_KEYS);
    if (options.stockKeys !== undefined && typeof options.stockKeys !== 'boolean') {
      throw new TypeError(
        `PairOverlapKeeper: options.stockKeys must be true or false, got ${String(options.stockKeys)}`,
      );
    }
    this.stockKeys = options.stockKeys ?? false;
  }

  /** Number of pairs recorded this step. */
  get count(): number {
    return this.curCount;
  }

  /** This step's pairs as flat `[lo0, hi0, lo1, hi1, ...]` (a new array). */
  currentPairs(): number[] {
    const out: number[] = [];
    for (let e = 0; e < this.curCount; e++) this.pushKey(out, this.cur[e]);
    return out;
  }

  /** This step's keys (a new array, in insertion order). */
  currentKeys(): number[] {
    return Array.from(this.cur.subarray(0, this.curCount));
  }

  /**
   * Records that ids `i` and `j` (cannon's `body.id` or `shape.id`: non-negative integers) overlap this
   * step; order does not matter, repeats are ignored. O(1). Not validated, as in the stock keeper; wide
   * keys are exact for ids below 2²², stock keys behave as cannon's for every id.
   */
  set(i: number, j: number): void {
    let key: number;
    if (this.stockKeys) {
      // cannon's OverlapKeeper.getKey, operation for operation
      key = j < i ? (j << 16) | i : (i << 16) | j;
    } else {
      const lo = Math.min(i, j);
      key = lo * SHIFT + Math.max(i, j);
    }
    this.addKey(key);
  }

  /** Records a pair by its key (as {@link PairOverlapKeeper.currentKeys} lists them). */
  addKey(key: number): void {
    const n = this.curCount;
    // The contacts of one pair come one after another: a repeat of the last key is the common case.
    if (n > 0 && this.cur[n - 1] === key) return;
    if (!this.hashed) {
      // Few pairs so far: a linear scan beats hashing (and needs no table to clear).
      for (let e = 0; e < n; e++) if (this.cur[e] === key) return;
      this.append(key);
      if (this.curCount > LINEAR_MAX) {
        this.hashed = true;
        this.fillTable(this.table.length);
      }
      return;
    }
    const mask = this.mask;
    let s = hashKey(key) & mask;
    for (;;) {
      const t = this.table[s];
      if (t === 0) break;
      if (this.cur[t - 1] === key) return;
      s = (s + 1) & mask;
    }
    const e = this.append(key);
    this.table[s] = e + 1;
    this.slots[e] = s;
    if (2 * this.curCount > this.table.length) this.fillTable(this.table.length * 2);
  }

  /** Starts a new step: this step's pairs become the previous ones. */
  tick(): void {
    const n = this.curCount;
    if (this.hashed) {
      // Clear the hash table through the slots used (O(pairs)).
      if (n * 8 < this.table.length) {
        for (let e = 0; e < n; e++) this.table[this.slots[e]] = 0;
      } else {
        this.table.fill(0);
      }
      this.hashed = false;
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
        this.pushKey(additions, a[i++]);
      } else if (i >= na || b[j] < a[i]) {
        this.pushKey(removals, b[j++]);
      } else {
        i++;
        j++;
      }
    }
  }

  private sortCurrent(): void {
    if (this.curSorted) return;
    this.cur.subarray(0, this.curCount).sort();
    this.curSorted = true;
    // The table indexes entries by position: sorting invalidates it, so rebuild it after.
    if (this.hashed) this.fillTable(this.table.length);
  }

  /** Appends a key to this step's list; returns its entry. */
  private append(key: number): number {
    if (this.curCount === this.cur.length) this.growCurrent();
    const e = this.curCount++;
    if (e > 0 && this.cur[e - 1] > key) this.curSorted = false;
    this.cur[e] = key;
    return e;
  }

  /** Unpacks a key as the stock keeper does (stock keys) or exactly (wide keys). */
  private pushKey(out: number[], key: number): void {
    if (this.stockKeys) {
      out.push((key & 0xffff0000) >> 16, key & 0x0000ffff);
      return;
    }
    const lo = Math.floor(key / SHIFT);
    out.push(lo, key - lo * SHIFT);
  }

  private growCurrent(): void {
    const n = this.cur.length * 2;
    this.cur = growArray(this.cur, n);
    this.slots = growArray(this.slots, n);
  }

  /** (Re)builds the hash table over this step's entries, at `capacity` slots (reused when it fits). */
  private fillTable(capacity: number): void {
    while (2 * this.curCount > capacity) capacity *= 2;
    if (capacity === this.table.length) this.table.fill(0);
    else this.table = new Int32Array(capacity);
    this.mask = capacity - 1;
    const mask = this.mask;
    for (let e = 0; e < this.curCount; e++) {
      let s = hashKey(this.cur[e]) & mask;
      while (this.table[s] !== 0) s = (s + 1) & mask;
      this.table[s] = e + 1;
      this.slots[e] = s;
    }
  }
}

/** Hash of a key of either kind (its high and low 31-bit halves). */
function hashKey(key: number): number {
  const hi = Math.floor(key / SHIFT);
  return pairHash(hi | 0, (key - hi * SHIFT) | 0);
}
