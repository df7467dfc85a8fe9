/**
 * The persistent pair set of a broadphase, with begin/end events — Bullet's hashed pair cache
 * (btHashedOverlappingPairCache: open addressing on integer pair keys, dense entries with swap-remove),
 * without string keys or an object per pair.
 *
 * Pairs are keyed by proxy slots `(lo, hi)` with `lo < hi`, and carry a reference count: the number of
 * reasons the broadphase has to report them (for the region-partitioned sweep and prune, the number of
 * regions in which the two boxes meet; for a broadphase that needs no counting, 0 or 1 through
 * {@link PairSet.ensurePresent} / {@link PairSet.ensureAbsent}). A pair is present while its count is
 * above zero. During an update nothing is deleted — a pair only changes state:
 *
 * - `STABLE`: present before this update and still present;
 * - `NEW`: absent before, present now;
 * - `DEAD`: present before, absent now;
 * - `NEW_DEAD`: absent before, absent again now (it came and went within the update).
 *
 * Each first change of a pair records it in a change list, and {@link PairSet.finalize} walks only that
 * list: `NEW` pairs are the began events, `DEAD` pairs the ended events (and are deleted). So a pair
 * that toggles several times within one update yields at most one event, and a frame costs
 * O(changes), not O(pairs) — except for the sorted output, which is merged in O(pairs) only when
 * something changed. The lists are published through {@link PairLists}.
 */
import { growArray } from '../growArray.js';
import { PairLists } from './pairLists.js';
import { sortPairs } from './sortPairs.js';

const STABLE = 0;
const NEW = 1;
const DEAD = 2;
const NEW_DEAD = 3;

function hash(lo: number, hi: number): number {
  let h = (Math.imul(lo, 0x9e3779b1) + Math.imul(hi, 0x85ebca77)) | 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/**
 * Pair set keyed by slot pairs; reports pairs as handle pairs through a slot → handle table.
 *
 * @internal
 */
export class PairSet extends PairLists {
  /** Dense entries: slot pair and state. */
  private lo = new Int32Array(64);
  private hi = new Int32Array(64);
  private state = new Uint8Array(64);
  private counts = new Int32Array(64);
  /** Entries in use. */
  size = 0;
  /** Open-addressing table of entry index + 1 (0 = empty), linear probing, load ≤ 1/2. */
  private table = new Int32Array(128);
  private mask = 127;
  /** Slot pairs whose state changed during the current update. */
  private changes = new Int32Array(64);
  private changeCount = 0;

  constructor() {
    super(new Int32Array(64));
  }

  /** Index of the entry for `(lo, hi)` (lo < hi), or -1. */
  private find(lo: number, hi: number): number {
    const table = this.table;
    const mask = this.mask;
    let i = hash(lo, hi) & mask;
    for (;;) {
      const v = table[i];
      if (v === 0) return -1;
      if (this.lo[v - 1] === lo && this.hi[v - 1] === hi) return v - 1;
      i = (i + 1) & mask;
    }
  }

  /** Whether `(a, b)` is present (its count is above zero). */
  has(a: number, b: number): boolean {
    const e = a < b ? this.find(a, b) : this.find(b, a);
    return e >= 0 && this.counts[e] > 0;
  }

  /** Records that slots a and b overlap now (count 0 → 1; a present pair is left as it is). */
  ensurePresent(a: number, b: number): void {
    const e = a < b ? this.find(a, b) : this.find(b, a);
    if (e < 0 || this.counts[e] === 0) this.increment(a, b);
  }

  /** Records that slots a and b do not overlap now (count → 0). */
  ensureAbsent(a: number, b: number): void {
    const e = a < b ? this.find(a, b) : this.find(b, a);
    if (e >= 0 && this.counts[e] > 0) {
      this.counts[e] = 1;
      this.release(e);
    }
  }

  /** One more reason to report `(a, b)`; the pair begins when its count leaves zero. */
  increment(a: number, b: number): void {
    let lo = a;
    let hi = b;
    if (a > b) {
      lo = b;
      hi = a;
    }
    const e = this.find(lo, hi);
    if (e < 0) {
      this.add(lo, hi);
      this.pushChange(lo, hi);
    } else if (++this.counts[e] === 1) {
      const s = this.state[e];
      if (s === DEAD) this.state[e] = STABLE;
      else if (s === NEW_DEAD) this.state[e] = NEW;
    }
  }

  /** One reason fewer to report `(a, b)`; the pair ends when its count reaches zero. */
  decrement(a: number, b: number): void {
    const e = a < b ? this.find(a, b) : this.find(b, a);
    if (e < 0 || this.counts[e] === 0) throw new Error(`PairSet: decrement of absent pair (${a}, ${b})`);
    this.release(e);
  }

  /** The count of `(a, b)` (0 when absent). */
  countOf(a: number, b: number): number {
    const e = a < b ? this.find(a, b) : this.find(b, a);
    return e < 0 ? 0 : this.counts[e];
  }

  private release(e: number): void {
    if (--this.counts[e] === 0) {
      const s = this.state[e];
      if (s === STABLE) {
        this.state[e] = DEAD;
        this.pushChange(this.lo[e], this.hi[e]);
      } else if (s === NEW) {
        this.state[e] = NEW_DEAD;
      }
    }
  }

  /** Ends every pair that has a slot flagged in `removed` (for proxies removed this update). */
  removeAllWith(removed: Uint8Array): void {
    for (let e = 0; e < this.size; e++) {
      if ((removed[this.lo[e]] === 1 || removed[this.hi[e]] === 1) && this.counts[e] > 0) {
        this.counts[e] = 0;
        const s = this.state[e];
        if (s === STABLE) {
          this.state[e] = DEAD;
          this.pushChange(this.lo[e], this.hi[e]);
        } else if (s === NEW) {
          this.state[e] = NEW_DEAD;
        }
      }
    }
  }

  /**
   * Marks every pair absent, before a broadphase recomputes all of its pairs with
   * {@link PairSet.ensurePresent}: pairs found again keep their state, the rest end.
   */
  markAllAbsent(): void {
    for (let e = 0; e < this.size; e++) {
      this.counts[e] = 0;
      const s = this.state[e];
      if (s === STABLE) {
        this.state[e] = DEAD;
        this.pushChange(this.lo[e], this.hi[e]);
      } else if (s === NEW) {
        this.state[e] = NEW_DEAD;
      }
    }
  }

  /**
   * Closes an update: turns the recorded changes into sorted began/ended lists (as handle pairs, via
   * `handles[slot]`), deletes ended pairs and merges the changes into the sorted pair list. With
   * `tags` (the proxy store's, per slot), the ended pairs' tags are kept for {@link PairSet.tags}: their
   * slots may be reused before they are read. Without, the ended pairs' tags read 0 (pass `tags` as
   * soon as any proxy has another tag).
   */
  finalize(handles: Int32Array, tags?: Int32Array): void {
    this.beganTotal = 0;
    this.endedTotal = 0;
    const changes = this.changes;
    // Each change begins or ends at most one pair: room for all of them, grown before the loop.
    const most = 2 * this.changeCount;
    if (this.beganPairs.length < most) this.beganPairs = growArray(this.beganPairs, most);
    if (this.endedPairs.length < most) this.endedPairs = growArray(this.endedPairs, most);
    for (let c = 0; c < this.changeCount; c++) {
      const lo = changes[2 * c];
      const hi = changes[2 * c + 1];
      const e = this.find(lo, hi);
      if (e < 0) continue;
      const s = this.state[e];
      if (s === NEW) {
        this.state[e] = STABLE;
        this.putHandles(this.beganPairs, this.beganTotal++, handles[lo], handles[hi]);
      } else if (s === DEAD) {
        this.putHandles(this.endedPairs, this.endedTotal++, handles[lo], handles[hi]);
        this.remove(e);
      } else if (s === NEW_DEAD) {
        this.remove(e);
      }
    }
    this.changeCount = 0;
    if (this.beganTotal > 1) sortPairs(this.beganPairs, this.beganTotal);
    if (this.endedTotal > 1) sortPairs(this.endedPairs, this.endedTotal);
    if (this.beganTotal > 0 || this.endedTotal > 0) this.mergeSorted();
    this.published(tags);
  }

  /** Throws if the hash table and the dense entries disagree (part of the invariant checks behind the `validate` option). */
  check(): void {
    let filled = 0;
    for (let i = 0; i <= this.mask; i++) if (this.table[i] !== 0) filled++;
    if (filled !== this.size) throw new Error(`PairSet: table holds ${filled} entries, size is ${this.size}`);
    for (let e = 0; e < this.size; e++) {
      if (this.lo[e] >= this.hi[e]) throw new Error(`PairSet: entry ${e} is not ordered`);
      if (this.find(this.lo[e], this.hi[e]) !== e) throw new Error(`PairSet: entry ${e} is not reachable`);
      if (this.state[e] !== STABLE) throw new Error(`PairSet: entry ${e} left in state ${this.state[e]}`);
      if (this.counts[e] <= 0) throw new Error(`PairSet: entry ${e} is present with count ${this.counts[e]}`);
    }
    if (this.size !== this.sortedCount) {
      throw new Error(`PairSet: ${this.size} entries but ${this.sortedCount} sorted pairs`);
    }
  }

  private putHandles(out: Int32Array, i: number, ha: number, hb: number): void {
    if (ha < hb) {
      out[2 * i] = ha;
      out[2 * i + 1] = hb;
    } else {
      out[2 * i] = hb;
      out[2 * i + 1] = ha;
    }
  }

  private pushChange(lo: number, hi: number): void {
    if (2 * this.changeCount + 2 > this.changes.length)
      this.changes = growArray(this.changes, 2 * this.changeCount + 2);
    this.changes[2 * this.changeCount] = lo;
    this.changes[2 * this.changeCount + 1] = hi;
    this.changeCount++;
  }

  private add(lo: number, hi: number): void {
    if (2 * (this.size + 1) > this.mask + 1) this.rehash(2 * (this.mask + 1));
    if (this.size === this.lo.length) {
      this.lo = growArray(this.lo, this.size + 1);
      this.hi = growArray(this.hi, this.size + 1);
      this.state = growArray(this.state, this.size + 1);
      this.counts = growArray(this.counts, this.size + 1);
    }
    const e = this.size++;
    this.lo[e] = lo;
    this.hi[e] = hi;
    this.state[e] = NEW;
    this.counts[e] = 1;
    const mask = this.mask;
    let i = hash(lo, hi) & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = e + 1;
  }

  /** Table index holding entry e. */
  private tableIndex(e: number): number {
    const mask = this.mask;
    let i = hash(this.lo[e], this.hi[e]) & mask;
    while (this.table[i] !== e + 1) i = (i + 1) & mask;
    return i;
  }

  /** Deletes entry e: backward-shift deletion in the table, swap-remove in the dense arrays. */
  private remove(e: number): void {
    const table = this.table;
    const mask = this.mask;
    let i = this.tableIndex(e);
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = table[j];
      if (v === 0) break;
      const home = hash(this.lo[v - 1], this.hi[v - 1]) & mask;
      // The entry at j may move back to i unless its home lies cyclically in (i, j].
      const stays = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!stays) {
        table[i] = v;
        i = j;
      }
    }
    table[i] = 0;
    const last = --this.size;
    if (e !== last) {
      table[this.tableIndex(last)] = e + 1;
      this.lo[e] = this.lo[last];
      this.hi[e] = this.hi[last];
      this.state[e] = this.state[last];
      this.counts[e] = this.counts[last];
    }
  }

  private rehash(tableSize: number): void {
    this.table = new Int32Array(tableSize);
    this.mask = tableSize - 1;
    for (let e = 0; e < this.size; e++) {
      let i = hash(this.lo[e], this.hi[e]) & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = e + 1;
    }
  }

  /**
   * sorted := (sorted − ended) ∪ began, in place (all three sorted; ended ⊆ sorted, began ∩ sorted = ∅):
   * drop the ended pairs going forward, then merge the began pairs in from the back.
   */
  private mergeSorted(): void {
    const s = this.sorted;
    const d = this.endedPairs;
    let kept = 0;
    let j = 0;
    for (let i = 0; i < this.sortedCount; i++) {
      const a = s[2 * i];
      const b = s[2 * i + 1];
      if (j < this.endedTotal && d[2 * j] === a && d[2 * j + 1] === b) {
        j++;
        continue;
      }
      s[2 * kept] = a;
      s[2 * kept + 1] = b;
      kept++;
    }
    const total = kept + this.beganTotal;
    this.sorted = growArray(this.sorted, 2 * total);
    const out = this.sorted;
    const g = this.beganPairs;
    let i = kept - 1;
    let k = this.beganTotal - 1;
    for (let w = total - 1; k >= 0; w--) {
      if (i >= 0 && (out[2 * i] > g[2 * k] || (out[2 * i] === g[2 * k] && out[2 * i + 1] > g[2 * k + 1]))) {
        out[2 * w] = out[2 * i];
        out[2 * w + 1] = out[2 * i + 1];
        i--;
      } else {
        out[2 * w] = g[2 * k];
        out[2 * w + 1] = g[2 * k + 1];
        k--;
      }
    }
    this.sortedCount = total;
  }
}
