/**
 * The octree's candidate pairs: pairs of proxies whose fat boxes overlap, each with whether their
 * exact boxes overlap now (Box2D's contact list over its fat-AABB tree, `b2UpdateBroadPhasePairs` /
 * `b2Collide`, minus the narrowphase). Entries live in flat arrays with a free list; each entry sits in
 * the adjacency lists of both its proxies, so a proxy's candidates are walked without hashing.
 *
 * An entry e has two links, `2e` (in the list of `ends[2e]`) and `2e + 1` (in the list of
 * `ends[2e + 1]`): walking the list of slot s, link l names the entry `l >> 1` and the partner
 * `ends[l ^ 1]`.
 */
import { growArray } from '../../growArray.js';

const NONE = -1;

/** Candidate pairs with per-slot doubly linked adjacency lists. */
export class CandidatePairs {
  /** Slot at each link. */
  ends = new Int32Array(64);
  /** Next and previous link in the same slot's list. */
  next = new Int32Array(64);
  prev = new Int32Array(64);
  /** 1 while the entry's exact boxes overlap (the pair is reported). */
  over = new Uint8Array(32);
  /** First link of each slot's list. */
  head: Int32Array;
  /** Entries in use. */
  count = 0;
  /** Entries ever handed out. */
  used = 0;
  private free = new Int32Array(32);
  private freeCount = 0;

  constructor(slots: number) {
    this.head = new Int32Array(slots).fill(NONE);
  }

  /** Makes room for `slots` slots. */
  growSlots(slots: number): void {
    const before = this.head.length;
    this.head = growArray(this.head, slots);
    this.head.fill(NONE, before);
  }

  /** Adds the candidate pair (a, b) (not yet overlapping exactly) and returns its entry. */
  add(a: number, b: number): number {
    let e: number;
    if (this.freeCount > 0) e = this.free[--this.freeCount];
    else {
      e = this.used++;
      if (2 * this.used > this.ends.length) {
        this.ends = growArray(this.ends, 2 * this.used);
        this.next = growArray(this.next, 2 * this.used);
        this.prev = growArray(this.prev, 2 * this.used);
        this.over = growArray(this.over, this.used);
        this.free = growArray(this.free, this.used);
      }
    }
    this.count++;
    this.over[e] = 0;
    this.ends[2 * e] = a;
    this.ends[2 * e + 1] = b;
    this.link(2 * e, a);
    this.link(2 * e + 1, b);
    return e;
  }

  /** Removes entry e from both lists. */
  remove(e: number): void {
    this.unlink(2 * e);
    this.unlink(2 * e + 1);
    this.ends[2 * e] = NONE;
    this.ends[2 * e + 1] = NONE;
    this.free[this.freeCount++] = e;
    this.count--;
  }

  /** Removes every candidate (for a rebuild); `slots` bounds the slots that may have any. */
  clear(slots: number): void {
    this.head.fill(NONE, 0, slots);
    this.count = 0;
    this.used = 0;
    this.freeCount = 0;
  }

  /** Entries on the free list (for validation). */
  get freeEntries(): number {
    return this.freeCount;
  }

  private link(l: number, slot: number): void {
    const h = this.head[slot];
    this.next[l] = h;
    this.prev[l] = NONE;
    if (h !== NONE) this.prev[h] = l;
    this.head[slot] = l;
  }

  private unlink(l: number): void {
    const p = this.prev[l];
    const q = this.next[l];
    if (p === NONE) this.head[this.ends[l]] = q;
    else this.next[p] = q;
    if (q !== NONE) this.prev[q] = p;
  }
}
