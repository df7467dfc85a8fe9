/**
 * One flat arena per axis for the endpoint lists of every sweep-and-prune region: a region owns a
 * block (the same start on every axis) of 8·2^c endpoints for some size class c, and moves to a block
 * twice as large when it fills. Freed blocks go to a free list per size class. Keeping every list in
 * the same two typed arrays per axis (values and tokens) means an endpoint is found with a single
 * index — no object per region to chase through cache misses. Now and then the blocks are laid out
 * again, one after another in a given order, in spare copies of the arrays that are then swapped in
 * (a compacting copy: nothing is allocated once the spares have the arena's size).
 */
import { growArray } from '../../growArray.js';

const MIN_BLOCK = 8;

export class EndpointArena {
  /** Endpoint values per axis. */
  values: Float64Array[] = [];
  /** Endpoint tokens per axis (`entry << 1 | isMax`). */
  tokens: Int32Array[] = [];
  /** Slots handed out so far; every block lies below. */
  private top = 0;
  /**
   * Free block starts, per size class: a stack each, `freeCount[c]` deep. The stacks never shrink, so
   * clearing and refilling the arena (a bulk rebuild every frame) allocates nothing once warm.
   */
  private readonly free: Int32Array[] = [];
  private readonly freeCount: number[] = [];
  /** Second copies of `values` and `tokens`: a re-layout writes the blocks there, then swaps them in. */
  spareValues: Float64Array[] = [];
  /** See `spareValues`. */
  spareTokens: Int32Array[] = [];

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    for (let k = 0; k < dimensions; k++) {
      this.values.push(new Float64Array(capacity));
      this.tokens.push(new Int32Array(capacity));
    }
  }

  /** Endpoints a block of size class `c` holds. */
  static blockSize(c: number): number {
    return MIN_BLOCK << c;
  }

  /** The smallest size class holding `endpoints`. */
  static classFor(endpoints: number): number {
    let c = 0;
    while (MIN_BLOCK << c < endpoints) c++;
    return c;
  }

  /** A block of size class c; returns its start. */
  allocate(c: number): number {
    if (c < this.free.length && this.freeCount[c] > 0) return this.free[c][--this.freeCount[c]];
    const start = this.top;
    this.top += MIN_BLOCK << c;
    if (this.top > this.values[0].length) {
      for (let k = 0; k < this.dimensions; k++) {
        this.values[k] = growArray(this.values[k], this.top);
        this.tokens[k] = growArray(this.tokens[k], this.top);
      }
    }
    return start;
  }

  /** Returns a block to its size class's free list. */
  release(start: number, c: number): void {
    while (this.free.length <= c) {
      this.free.push(new Int32Array(8));
      this.freeCount.push(0);
    }
    const n = this.freeCount[c];
    if (n === this.free[c].length) this.free[c] = growArray(this.free[c], n + 1);
    this.free[c][n] = start;
    this.freeCount[c] = n + 1;
  }

  /** Sizes the spare arrays as the arena's (made once, then reused) for a re-layout to write into. */
  prepareSpare(): void {
    for (let k = 0; k < this.dimensions; k++) {
      const n = this.values[k].length;
      if (this.spareValues[k]?.length !== n) {
        this.spareValues[k] = new Float64Array(n);
        this.spareTokens[k] = new Int32Array(n);
      }
    }
  }

  /** Ends a re-layout: the spare arrays, holding every block one after another below `top`, swap in. */
  swapSpare(top: number): void {
    const v = this.values;
    const t = this.tokens;
    this.values = this.spareValues;
    this.tokens = this.spareTokens;
    this.spareValues = v;
    this.spareTokens = t;
    this.top = top;
    this.freeCount.fill(0);
  }

  /** Forgets every block. */
  clear(): void {
    this.top = 0;
    for (let c = 0; c < this.freeCount.length; c++) this.freeCount[c] = 0;
  }
}
