/**
 * One flat arena per axis for the endpoint lists of every sweep-and-prune region: a region owns a
 * block (the same start on every axis) of 8·2^c endpoints for some size class c, and moves to a block
 * twice as large when it fills. Freed blocks go to a free list per size class. Keeping every list in
 * the same two typed arrays per axis (values and tokens) means an endpoint is found with a single
 * index — no object per region to chase through cache misses.
 */
import { growArray } from './proxies.js';

const MIN_BLOCK = 8;

export class EndpointArena {
  /** Endpoint values per axis. */
  values: Float64Array[] = [];
  /** Endpoint tokens per axis (`entry << 1 | isMax`). */
  tokens: Int32Array[] = [];
  /** Slots handed out so far; every block lies below. */
  private top = 0;
  /** Free block starts, per size class. */
  private readonly free: number[][] = [];

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
    const list = this.free[c];
    if (list !== undefined && list.length > 0) return list.pop()!;
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
    while (this.free.length <= c) this.free.push([]);
    this.free[c].push(start);
  }

  /** Forgets every block. */
  clear(): void {
    this.top = 0;
    for (const list of this.free) list.length = 0;
  }
}
