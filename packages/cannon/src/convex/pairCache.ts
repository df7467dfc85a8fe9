/**
 * The per-pair cache of the convex narrowphase: for each shape pair (two integer shape ids) a fixed
 * record of integers and floats (the axis feature of its last step: the warm start). An open-addressing hash table with linear probing over typed arrays (Bullet's
 * `btHashedOverlappingPairCache` keeps its pairs the same way), no string keys. Entries not used for a
 * few steps are dropped when the table fills; it grows only while the live pairs outgrow it, so a
 * steady scene allocates nothing.
 */

const EMPTY = -1;
/** Entries unused for more steps than this are dropped at the next rebuild. */
const MAX_AGE = 2;

/** Shape pair (two non-negative integer ids) → a record of `ni` integers and `nf` floats. */
export class PairCache {
  private cap = 256;
  private used = 0;
  /** Per slot: id a, id b. */
  private keys = new Int32Array(2 * 256).fill(EMPTY);
  /** Per slot: the step it was last used. */
  private stamps = new Float64Array(256);
  /** The records: slot s's integers start at `ni·s`, its floats at `nf·s` (zero when created). */
  ints: Int32Array;
  floats: Float64Array;
  private spareKeys = new Int32Array(2 * 256);
  private spareInts: Int32Array;
  private spareFloats: Float64Array;
  private spareStamps = new Float64Array(256);

  constructor(
    readonly ni: number,
    readonly nf: number,
  ) {
    this.ints = new Int32Array(ni * 256);
    this.floats = new Float64Array(nf * 256);
    this.spareInts = new Int32Array(ni * 256);
    this.spareFloats = new Float64Array(nf * 256);
  }

  /** Number of pairs held. */
  get size(): number {
    return this.used;
  }

  /**
   * The slot of pair (a, b), created with a zeroed record if absent; marks it used at `stamp`. The slot
   * (and the `ints` / `floats` arrays) are valid until the next call.
   */
  slot(a: number, b: number, stamp: number): number {
    let s = this.find(a, b);
    if (s < 0) {
      if (2 * (this.used + 1) > this.cap) {
        this.rebuild(stamp);
      }
      s = this.insertAt(a, b);
    }
    this.stamps[s] = stamp;
    return s;
  }

  private hash(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> 0;
  }

  private find(a: number, b: number): number {
    const mask = this.cap - 1;
    const keys = this.keys;
    for (let s = this.hash(a, b) & mask; ; s = (s + 1) & mask) {
      const ka = keys[2 * s];
      if (ka === EMPTY) return -1;
      if (ka === a && keys[2 * s + 1] === b) return s;
    }
  }

  private insertAt(a: number, b: number): number {
    const mask = this.cap - 1;
    let s = this.hash(a, b) & mask;
    while (this.keys[2 * s] !== EMPTY) s = (s + 1) & mask;
    this.keys[2 * s] = a;
    this.keys[2 * s + 1] = b;
    this.ints.fill(0, this.ni * s, this.ni * (s + 1));
    this.floats.fill(0, this.nf * s, this.nf * (s + 1));
    this.used++;
    return s;
  }

  /** Rehashes the recently used entries, into a table twice as large if they fill a quarter. */
  private rebuild(stamp: number): void {
    let live = 0;
    for (let s = 0; s < this.cap; s++) {
      if (this.keys[2 * s] !== EMPTY && stamp - this.stamps[s] <= MAX_AGE) live++;
    }
    const cap = 4 * (live + 1) > this.cap ? 2 * this.cap : this.cap;
    const { ni, nf } = this;
    if (this.spareStamps.length !== cap) {
      this.spareKeys = new Int32Array(2 * cap);
      this.spareInts = new Int32Array(ni * cap);
      this.spareFloats = new Float64Array(nf * cap);
      this.spareStamps = new Float64Array(cap);
    }
    const oldKeys = this.keys;
    const oldInts = this.ints;
    const oldFloats = this.floats;
    const oldStamps = this.stamps;
    const oldCap = this.cap;
    this.keys = this.spareKeys.fill(EMPTY);
    this.ints = this.spareInts;
    this.floats = this.spareFloats;
    this.stamps = this.spareStamps;
    this.cap = cap;
    this.used = 0;
    for (let s = 0; s < oldCap; s++) {
      if (oldKeys[2 * s] === EMPTY || stamp - oldStamps[s] > MAX_AGE) continue;
      const t = this.insertAt(oldKeys[2 * s], oldKeys[2 * s + 1]);
      for (let k = 0; k < ni; k++) this.ints[ni * t + k] = oldInts[ni * s + k];
      for (let k = 0; k < nf; k++) this.floats[nf * t + k] = oldFloats[nf * s + k];
      this.stamps[t] = oldStamps[s];
    }
    // Keep the old arrays as the next rebuild's target when they have the right size.
    this.spareKeys = oldKeys;
    this.spareInts = oldInts;
    this.spareFloats = oldFloats;
    this.spareStamps = oldStamps;
  }
}
