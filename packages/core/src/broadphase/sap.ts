/**
 * Incremental sweep and prune (SAP) in 2-D and 3-D.
 *
 * Follows `shared/seeds/004_7b04ec2be2c8edf3.txt` §1 (per-axis MIN/MAX token lists kept sorted by
 * insertion sort to exploit temporal coherence; the pair map changes only on swaps; §1.3: a pair
 * overlaps iff it overlaps on every axis) and Bullet's btAxisSweep3 (endpoints with the min/max flag
 * in the value, each proxy knows where its endpoints are, a swap adds a pair only if the boxes also
 * overlap on the other axes, a hashed pair cache).
 *
 * Layout (structure of arrays, per axis k):
 * - `values[k]` (Float64Array) and `tokens[k]` (Int32Array, `slot << 1 | isMax`) — the endpoint list,
 *   sorted by (value, isMax): at equal values a min sorts before a max, so touching boxes overlap.
 * - `where` (Int32Array) — position of every endpoint, `where[(slot·D + k)·2 + isMax]`.
 * - `listed` (Float64Array) — each proxy's bounds as the lists hold them now. During an update, axes
 *   are brought up to date one after the other, so the overlap tests on a swap read this, never the
 *   latest bounds: the pair set then always equals "overlaps on every axis, as the lists stand".
 *
 * The swap rule (for the endpoint X that ends up left of Y after a swap, X and Y of different boxes):
 * - X a min, Y a max: the boxes may have started to overlap on this axis — add the pair if they
 *   overlap on every axis;
 * - X a max, Y a min: they stopped overlapping on this axis — remove the pair if they overlapped on
 *   the other axes (otherwise it was not there).
 * This holds both when one endpoint at a time moves through a sorted list (Bullet's local sort) and in
 * a full insertion-sort pass after many values changed at once: each pair of endpoints swaps at most
 * once, and the overlap test uses this axis's new values, so the last swap of a pair decides it.
 *
 * An update costs O(moved + swaps) when few proxies moved (local sorts), O(n + swaps) per axis when
 * many did (one insertion-sort pass), and O(n log n) for a first fill or a large batch of inserts
 * (one sort, then one sweep for the pairs along the axis with the largest spread).
 */
import { PairSet } from './pairSet.js';
import { checkBounds, growArray, ProxyStore } from './proxies.js';
import type { Broadphase, BroadphaseOptions, Dimensions, QueryCallback } from './types.js';

/** Options of {@link SweepAndPrune}. */
export interface SweepAndPruneOptions extends BroadphaseOptions {
  /**
   * When more than this share of the listed proxies moved since the last update, sort each axis with
   * one insertion-sort pass instead of moving each endpoint on its own. Default 1/16.
   */
  fullPassShare?: number;
  /**
   * When a batch of inserts is larger than this share of the listed proxies (or the lists are empty),
   * rebuild the lists with one O(n log n) sort instead of inserting one box at a time. Default 1/8.
   */
  rebuildShare?: number;
}

/** Incremental sweep and prune. Implements the {@link Broadphase} contract. */
export class SweepAndPrune implements Broadphase {
  readonly dimensions: Dimensions;
  private readonly store: ProxyStore;
  private readonly pairSet = new PairSet();
  private readonly validateEachUpdate: boolean;
  private readonly fullPassShare: number;
  private readonly rebuildShare: number;

  /** Endpoint lists, one per axis. */
  private values: Float64Array[] = [];
  private tokens: Int32Array[] = [];
  /** Endpoints per list (2 × listed proxies). */
  private length = 0;
  private where: Int32Array;
  private listed: Float64Array;
  /** 1 when a slot's endpoints are in the lists. */
  private inLists: Uint8Array;
  /** Slots moved since the last update (each once, flagged in `dirtyFlag`). */
  private dirty: Int32Array;
  private dirtyFlag: Uint8Array;
  private dirtyCount = 0;
  private inserted: Int32Array;
  private insertedCount = 0;
  private removed: Int32Array;
  private removedCount = 0;
  private removedFlag: Uint8Array;
  /** Scratch for the rebuild sweep: the open boxes and each slot's index among them. */
  private active = new Int32Array(16);
  private activeIndex: Int32Array;

  constructor(options: SweepAndPruneOptions) {
    const capacity = options.initialCapacity ?? 64;
    this.store = new ProxyStore(options?.dimensions, capacity, 'SweepAndPrune', (c) => this.grow(c));
    this.dimensions = options.dimensions;
    this.validateEachUpdate = options.validate ?? false;
    this.fullPassShare = options.fullPassShare ?? 1 / 16;
    this.rebuildShare = options.rebuildShare ?? 1 / 8;
    const c = this.store.capacity;
    const d = this.dimensions;
    for (let k = 0; k < d; k++) {
      this.values.push(new Float64Array(2 * c));
      this.tokens.push(new Int32Array(2 * c));
    }
    this.where = new Int32Array(2 * d * c);
    this.listed = new Float64Array(2 * d * c);
    this.inLists = new Uint8Array(c);
    this.dirty = new Int32Array(c);
    this.dirtyFlag = new Uint8Array(c);
    this.inserted = new Int32Array(c);
    this.removed = new Int32Array(c);
    this.removedFlag = new Uint8Array(c);
    this.activeIndex = new Int32Array(c);
  }

  get count(): number {
    return this.store.count;
  }

  get pairCount(): number {
    return this.pairSet.count;
  }

  /** Pairs in `began()` (read without creating a view). */
  get beganCount(): number {
    return this.pairSet.beganCount;
  }

  /** Pairs in `ended()` (read without creating a view). */
  get endedCount(): number {
    return this.pairSet.endedCount;
  }

  /**
   * The buffers behind `pairs()`, `began()` and `ended()`: the first `2 · pairCount` (`beganCount`,
   * `endedCount`) entries are valid. For per-frame loops that must not create a typed-array view.
   */
  pairBuffers(): { pairs: Int32Array; began: Int32Array; ended: Int32Array } {
    return this.pairSet.buffers();
  }

  insert(bounds: ArrayLike<number>): number {
    const slot = this.store.allocate(bounds);
    this.inserted[this.insertedCount++] = slot;
    return this.store.handles[slot];
  }

  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, 'SweepAndPrune.move');
    this.store.setBounds(slot, bounds);
    this.markMoved(slot);
  }

  /**
   * Moves many proxies at once from a flat array: `handles[i]` gets the bounds at
   * `bounds[(offset + i) · 2D ...]`. Validates everything before changing anything.
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count = handles.length): void {
    const s = this.store.stride;
    if (bounds.length < count * s) {
      throw new RangeError(`SweepAndPrune.moveMany: bounds has ${bounds.length} numbers, need ${count * s}`);
    }
    for (let i = 0; i < count; i++) {
      this.store.slotOf(handles[i], 'moveMany');
      checkBoundsAt(bounds, i * s, this.dimensions);
    }
    const box = this.store.bounds;
    for (let i = 0; i < count; i++) {
      const slot = handles[i] & 0xfffff;
      for (let j = 0; j < s; j++) box[slot * s + j] = bounds[i * s + j];
      this.markMoved(slot);
    }
  }

  remove(handle: number): void {
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    if (this.inLists[slot] === 1) {
      this.removed[this.removedCount++] = slot;
      this.removedFlag[slot] = 1;
    }
  }

  has(handle: number): boolean {
    return this.store.has(handle);
  }

  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
  }

  update(): void {
    if (this.removedCount > 0) this.applyRemovals();
    if (this.dirtyCount > 0) this.applyMoves();
    if (this.insertedCount > 0) this.applyInserts();
    this.pairSet.finalize(this.store.handles);
    this.store.recycle();
    if (this.validateEachUpdate) this.validate();
  }

  pairs(): Int32Array {
    return this.pairSet.pairs();
  }

  began(): Int32Array {
    return this.pairSet.began();
  }

  ended(): Int32Array {
    return this.pairSet.ended();
  }

  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    return this.store.scanQuery(bounds, out);
  }

  /**
   * Checks every invariant and throws on the first broken one: lists sorted by (value, isMax),
   * endpoint positions, listed bounds, and the pair set equal to an all-pairs test of the listed
   * bounds. O(n²); for tests and debugging (or pass `validate: true` to the constructor).
   */
  validate(): void {
    const d = this.dimensions;
    const s = 2 * d;
    let listedCount = 0;
    for (let slot = 0; slot < this.store.used; slot++) listedCount += this.inLists[slot];
    if (2 * listedCount !== this.length)
      throw new Error(`SAP: ${this.length} endpoints for ${listedCount} proxies`);
    for (let k = 0; k < d; k++) {
      const v = this.values[k];
      const t = this.tokens[k];
      for (let i = 0; i < this.length; i++) {
        const slot = t[i] >> 1;
        const isMax = t[i] & 1;
        if (this.inLists[slot] !== 1)
          throw new Error(`SAP: axis ${k} holds slot ${slot}, which is not listed`);
        if (this.where[(slot * d + k) * 2 + isMax] !== i)
          throw new Error(`SAP: axis ${k} position ${i} is stale`);
        if (v[i] !== this.listed[slot * s + isMax * d + k])
          throw new Error(`SAP: axis ${k} value ${i} is stale`);
        if (i > 0 && (v[i - 1] > v[i] || (v[i - 1] === v[i] && (t[i - 1] & 1) > isMax))) {
          throw new Error(`SAP: axis ${k} is not sorted at ${i}`);
        }
      }
    }
    this.pairSet.check();
    let expected = 0;
    for (let a = 0; a < this.store.used; a++) {
      if (this.inLists[a] !== 1) continue;
      for (let b = a + 1; b < this.store.used; b++) {
        if (this.inLists[b] !== 1) continue;
        const overlap = this.overlaps(a, b);
        if (overlap !== this.pairSet.has(a, b))
          throw new Error(`SAP: pair (${a}, ${b}) should be ${overlap}`);
        if (overlap) expected++;
      }
    }
    if (expected !== this.pairSet.count)
      throw new Error(`SAP: ${this.pairSet.count} pairs, expected ${expected}`);
  }

  // --- update steps -------------------------------------------------------------------------------

  private markMoved(slot: number): void {
    if (this.inLists[slot] === 1 && this.dirtyFlag[slot] === 0) {
      this.dirtyFlag[slot] = 1;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  /** Ends the pairs of removed proxies and drops their endpoints (one compaction pass per axis). */
  private applyRemovals(): void {
    const d = this.dimensions;
    this.pairSet.removeAllWith(this.removedFlag);
    for (let k = 0; k < d; k++) {
      const v = this.values[k];
      const t = this.tokens[k];
      let n = 0;
      for (let i = 0; i < this.length; i++) {
        const token = t[i];
        if (this.removedFlag[token >> 1] === 1) continue;
        if (n !== i) {
          v[n] = v[i];
          t[n] = token;
          this.where[((token >> 1) * d + k) * 2 + (token & 1)] = n;
        }
        n++;
      }
    }
    for (let i = 0; i < this.removedCount; i++) {
      const slot = this.removed[i];
      this.removedFlag[slot] = 0;
      this.inLists[slot] = 0;
      this.dirtyFlag[slot] = 0;
    }
    this.length -= 2 * this.removedCount;
    this.removedCount = 0;
  }

  private applyMoves(): void {
    // Dirty slots removed since (they are no longer listed) were cleared in applyRemovals.
    let n = 0;
    for (let i = 0; i < this.dirtyCount; i++) {
      const slot = this.dirty[i];
      if (this.dirtyFlag[slot] === 1) this.dirty[n++] = slot;
    }
    this.dirtyCount = n;
    if (n > (this.length >> 1) * this.fullPassShare) this.moveByFullPass();
    else this.moveOneByOne();
    for (let i = 0; i < this.dirtyCount; i++) this.dirtyFlag[this.dirty[i]] = 0;
    this.dirtyCount = 0;
  }

  /** Bullet's updateHandle: each moved endpoint slides through the sorted list on its own. */
  private moveOneByOne(): void {
    const d = this.dimensions;
    const s = 2 * d;
    const box = this.store.bounds;
    const listed = this.listed;
    for (let i = 0; i < this.dirtyCount; i++) {
      const slot = this.dirty[i];
      const o = slot * s;
      for (let k = 0; k < d; k++) {
        const newMin = box[o + k];
        const newMax = box[o + d + k];
        const oldMin = listed[o + k];
        const oldMax = listed[o + d + k];
        const minAt = (slot * d + k) * 2;
        // Grow before shrinking, so a box's min never passes its own max.
        if (newMin < oldMin) {
          listed[o + k] = newMin;
          this.values[k][this.where[minAt]] = newMin;
          this.siftDown(k, this.where[minAt], true);
        }
        if (newMax > oldMax) {
          listed[o + d + k] = newMax;
          this.values[k][this.where[minAt + 1]] = newMax;
          this.siftUp(k, this.where[minAt + 1]);
        }
        if (newMin > oldMin) {
          listed[o + k] = newMin;
          this.values[k][this.where[minAt]] = newMin;
          this.siftUp(k, this.where[minAt]);
        }
        if (newMax < oldMax) {
          listed[o + d + k] = newMax;
          this.values[k][this.where[minAt + 1]] = newMax;
          this.siftDown(k, this.where[minAt + 1], true);
        }
      }
    }
  }

  /** Many moved: per axis, write all new values, then one insertion-sort pass over the list. */
  private moveByFullPass(): void {
    const d = this.dimensions;
    const s = 2 * d;
    const box = this.store.bounds;
    const listed = this.listed;
    const where = this.where;
    for (let k = 0; k < d; k++) {
      const v = this.values[k];
      for (let i = 0; i < this.dirtyCount; i++) {
        const slot = this.dirty[i];
        const o = slot * s;
        const lo = box[o + k];
        const hi = box[o + d + k];
        listed[o + k] = lo;
        listed[o + d + k] = hi;
        const at = (slot * d + k) * 2;
        v[where[at]] = lo;
        v[where[at + 1]] = hi;
      }
      for (let i = 1; i < this.length; i++) {
        const value = v[i];
        const prev = v[i - 1];
        // Most endpoints are already in order; only the others pay for a sift.
        if (prev > value || (prev === value && (this.tokens[k][i - 1] & 1) > (this.tokens[k][i] & 1))) {
          this.siftDown(k, i, true);
        }
      }
    }
  }

  /**
   * Moves the endpoint at `i` on axis k down (left) to its place. With `pairs`, applies the swap rule
   * to each endpoint it passes.
   */
  private siftDown(k: number, i: number, pairs: boolean): void {
    const v = this.values[k];
    const t = this.tokens[k];
    const where = this.where;
    const d = this.dimensions;
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    let j = i;
    while (j > 0) {
      const pv = v[j - 1];
      const pt = t[j - 1];
      const pMax = pt & 1;
      if (pv < value || (pv === value && pMax <= isMax)) break;
      // `token` ends up left of `pt`.
      if (pairs && pMax !== isMax) this.onSwap(token, pt, k);
      v[j] = pv;
      t[j] = pt;
      where[((pt >> 1) * d + k) * 2 + pMax] = j;
      j--;
    }
    v[j] = value;
    t[j] = token;
    where[((token >> 1) * d + k) * 2 + isMax] = j;
  }

  /** Moves the endpoint at `i` on axis k up (right) to its place, applying the swap rule. */
  private siftUp(k: number, i: number): void {
    const v = this.values[k];
    const t = this.tokens[k];
    const where = this.where;
    const d = this.dimensions;
    const n = this.length;
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    let j = i;
    while (j < n - 1) {
      const nv = v[j + 1];
      const nt = t[j + 1];
      const nMax = nt & 1;
      if (value < nv || (value === nv && isMax <= nMax)) break;
      // `nt` ends up left of `token`.
      if (nMax !== isMax) this.onSwap(nt, token, k);
      v[j] = nv;
      t[j] = nt;
      where[((nt >> 1) * d + k) * 2 + nMax] = j;
      j++;
    }
    v[j] = value;
    t[j] = token;
    where[((token >> 1) * d + k) * 2 + isMax] = j;
  }

  /** The swap rule: `left` now lies left of `right` on axis k; they are a min and a max. */
  private onSwap(left: number, right: number, k: number): void {
    const a = left >> 1;
    const b = right >> 1;
    if ((left & 1) === 0) {
      if (this.overlaps(a, b)) this.pairSet.ensurePresent(a, b);
    } else if (this.overlapsExcept(a, b, k)) {
      this.pairSet.ensureAbsent(a, b);
    }
  }

  /** Whether the listed boxes of slots a and b overlap on every axis (inclusive). */
  private overlaps(a: number, b: number): boolean {
    const l = this.listed;
    const d = this.dimensions;
    const oa = a * 2 * d;
    const ob = b * 2 * d;
    for (let k = 0; k < d; k++) {
      if (l[oa + k] > l[ob + d + k] || l[ob + k] > l[oa + d + k]) return false;
    }
    return true;
  }

  /** Whether the listed boxes of slots a and b overlap on every axis but `skip`. */
  private overlapsExcept(a: number, b: number, skip: number): boolean {
    const l = this.listed;
    const d = this.dimensions;
    const oa = a * 2 * d;
    const ob = b * 2 * d;
    for (let k = 0; k < d; k++) {
      if (k !== skip && (l[oa + k] > l[ob + d + k] || l[ob + k] > l[oa + d + k])) return false;
    }
    return true;
  }

  private applyInserts(): void {
    // Drop slots inserted and removed again before this update.
    let n = 0;
    for (let i = 0; i < this.insertedCount; i++) {
      const slot = this.inserted[i];
      if (this.store.alive[slot] === 1) this.inserted[n++] = slot;
    }
    this.insertedCount = n;
    if (n === 0) return;
    const listedBefore = this.length >> 1;
    if (listedBefore === 0 || n > listedBefore * this.rebuildShare) this.insertByRebuild();
    else this.insertOneByOne();
    this.insertedCount = 0;
  }

  /** Appends a slot's endpoints on axis k at the end of the list (unsorted). */
  private append(slot: number, k: number): void {
    const d = this.dimensions;
    const o = slot * 2 * d;
    const at = (slot * d + k) * 2;
    const n = this.length;
    this.values[k][n] = this.listed[o + k];
    this.tokens[k][n] = slot << 1;
    this.where[at] = n;
    this.values[k][n + 1] = this.listed[o + d + k];
    this.tokens[k][n + 1] = (slot << 1) | 1;
    this.where[at + 1] = n + 1;
  }

  private copyListed(slot: number): void {
    const s = 2 * this.dimensions;
    const box = this.store.bounds;
    for (let j = 0; j < s; j++) this.listed[slot * s + j] = box[slot * s + j];
    this.inLists[slot] = 1;
  }

  /**
   * Bullet's addHandle: append the endpoints at the end of each list and sift them down; pairs are
   * only touched on the last axis, when the box is in place on all the others.
   */
  private insertOneByOne(): void {
    const d = this.dimensions;
    for (let i = 0; i < this.insertedCount; i++) {
      const slot = this.inserted[i];
      this.copyListed(slot);
      for (let k = 0; k < d; k++) {
        this.append(slot, k);
        const pairs = k === d - 1;
        // The min slides down first (the max, still last, is not compared), then the max.
        this.siftDown(k, this.length, pairs);
        this.siftDown(k, this.length + 1, pairs);
      }
      this.length += 2;
    }
  }

  /** A large batch: append everything, sort each axis once, then find all pairs with one sweep. */
  private insertByRebuild(): void {
    const d = this.dimensions;
    for (let i = 0; i < this.insertedCount; i++) {
      const slot = this.inserted[i];
      this.copyListed(slot);
      for (let k = 0; k < d; k++) this.append(slot, k);
      this.length += 2;
    }
    for (let k = 0; k < d; k++) {
      sortEndpoints(this.values[k], this.tokens[k], this.length);
      const t = this.tokens[k];
      for (let i = 0; i < this.length; i++) this.where[((t[i] >> 1) * d + k) * 2 + (t[i] & 1)] = i;
    }
    this.pairSet.markAllAbsent();
    this.sweep(this.widestAxis());
  }

  /** The axis along which box centres spread the most relative to box sizes (fewest false overlaps). */
  private widestAxis(): number {
    const d = this.dimensions;
    let best = 0;
    let bestScore = -1;
    for (let k = 0; k < d; k++) {
      const v = this.values[k];
      const t = this.tokens[k];
      // Sum of extents over the list's span: the mean number of boxes a point on this axis lies in.
      let extents = 0;
      for (let i = 0; i < this.length; i++) extents += (t[i] & 1) === 1 ? v[i] : -v[i];
      const span = v[this.length - 1] - v[0];
      const score = span > 0 ? span / (extents + span * 1e-12) : 0;
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best;
  }

  /** Sweeps axis k's sorted list and records every overlapping pair (classic one-axis SAP). */
  private sweep(k: number): void {
    const t = this.tokens[k];
    this.active = growArray(this.active, this.length >> 1);
    const active = this.active;
    const index = this.activeIndex;
    let open = 0;
    for (let i = 0; i < this.length; i++) {
      const token = t[i];
      const slot = token >> 1;
      if ((token & 1) === 0) {
        for (let j = 0; j < open; j++) {
          const other = active[j];
          if (this.overlapsExcept(slot, other, k)) this.pairSet.ensurePresent(slot, other);
        }
        index[slot] = open;
        active[open++] = slot;
      } else {
        const at = index[slot];
        const last = active[--open];
        active[at] = last;
        index[last] = at;
      }
    }
  }

  private grow(capacity: number): void {
    const d = this.dimensions;
    for (let k = 0; k < d; k++) {
      this.values[k] = growArray(this.values[k], 2 * capacity);
      this.tokens[k] = growArray(this.tokens[k], 2 * capacity);
    }
    this.where = growArray(this.where, 2 * d * capacity);
    this.listed = growArray(this.listed, 2 * d * capacity);
    this.inLists = growArray(this.inLists, capacity);
    this.dirty = growArray(this.dirty, capacity);
    this.dirtyFlag = growArray(this.dirtyFlag, capacity);
    this.inserted = growArray(this.inserted, capacity);
    this.removed = growArray(this.removed, capacity);
    this.removedFlag = growArray(this.removedFlag, capacity);
    this.activeIndex = growArray(this.activeIndex, capacity);
  }
}

/** Validates bounds stored at `offset` in a flat array (for the bulk entry points). */
function checkBoundsAt(bounds: ArrayLike<number>, offset: number, dimensions: Dimensions): void {
  const s = 2 * dimensions;
  for (let j = 0; j < s; j++) {
    const v = bounds[offset + j];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(
        `SweepAndPrune.moveMany: bounds[${offset + j}] is ${String(v)}, not a finite number`,
      );
    }
  }
  for (let k = 0; k < dimensions; k++) {
    if (bounds[offset + k] > bounds[offset + dimensions + k]) {
      throw new RangeError(`SweepAndPrune.moveMany: box ${offset / s} has min > max on axis ${k}`);
    }
  }
}

/** Sorts endpoints by (value, isMax) with an in-place quicksort; insertion sort for short runs. */
function sortEndpoints(v: Float64Array, t: Int32Array, n: number): void {
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    let hi = stack.pop()!;
    let lo = stack.pop()!;
    while (hi - lo > 24) {
      const mid = (lo + hi) >>> 1;
      // Median of three as pivot.
      const a = v[lo];
      const b = v[mid];
      const c = v[hi];
      const m = a < b ? (b < c ? mid : a < c ? hi : lo) : a < c ? lo : b < c ? hi : mid;
      const pv = v[m];
      const pf = t[m] & 1;
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (v[i] < pv || (v[i] === pv && (t[i] & 1) < pf)) i++;
        while (v[j] > pv || (v[j] === pv && (t[j] & 1) > pf)) j--;
        if (i <= j) {
          const tv = v[i];
          v[i] = v[j];
          v[j] = tv;
          const tt = t[i];
          t[i] = t[j];
          t[j] = tt;
          i++;
          j--;
        }
      }
      if (j - lo < hi - i) {
        stack.push(i, hi);
        hi = j;
      } else {
        stack.push(lo, j);
        lo = i;
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const value = v[i];
      const token = t[i];
      const f = token & 1;
      let j = i - 1;
      while (j >= lo && (v[j] > value || (v[j] === value && (t[j] & 1) > f))) {
        v[j + 1] = v[j];
        t[j + 1] = t[j];
        j--;
      }
      v[j + 1] = value;
      t[j + 1] = token;
    }
  }
}
