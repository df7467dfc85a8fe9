/**
 * Storage for the proxies of the octree's nodes: one flat pool of items (a proxy slot and a copy of
 * its box), handed out as segments of power-of-two sizes with a free list per size. Each node owns one
 * segment, so scanning a node's proxies reads consecutive memory instead of chasing a linked list
 * through slot-indexed arrays (the octree's queries are bound by those cache misses otherwise).
 */
import { growArray } from '../../growArray.js';

/** Smallest segment: 4 items. */
export const MIN_SEGMENT = 4;

/** The smallest segment size (a power of two, at least {@link MIN_SEGMENT}) holding `count` items. */
export function segmentSize(count: number): number {
  let size = MIN_SEGMENT;
  while (size < count) size *= 2;
  return size;
}

/** A pool of items in segments. `slot` and `box` may be replaced when the pool grows: re-read them. */
export class SegmentPool {
  /** Proxy slot of each item. */
  slot = new Int32Array(256);
  /** Box of each item, `stride` numbers (min then max). */
  box: Float64Array;
  /** Items ever handed out (every segment lies below it). */
  used = 0;
  /** Free segment starts, one stack per size class (size 2^k). */
  private readonly free: Int32Array[] = [];
  private readonly freeCount = new Int32Array(32);

  constructor(readonly stride: number) {
    this.box = new Float64Array(256 * stride);
    for (let k = 0; k < 32; k++) this.free.push(new Int32Array(0));
  }

  /** Start of a new segment of `size` items (a power of two ≥ MIN_SEGMENT). */
  alloc(size: number): number {
    const k = 31 - Math.clz32(size);
    if (this.freeCount[k] > 0) return this.free[k][--this.freeCount[k]];
    const start = this.used;
    this.used += size;
    if (this.used > this.slot.length) {
      this.slot = growArray(this.slot, this.used);
      this.box = growArray(this.box, this.used * this.stride);
    }
    return start;
  }

  /** Gives a segment back. */
  release(start: number, size: number): void {
    const k = 31 - Math.clz32(size);
    if (this.freeCount[k] === this.free[k].length)
      this.free[k] = growArray(this.free[k], this.freeCount[k] + 1);
    this.free[k][this.freeCount[k]++] = start;
  }

  /** Copies item `from` to item `to`. */
  copy(from: number, to: number): void {
    const s = this.stride;
    this.slot[to] = this.slot[from];
    const box = this.box;
    for (let j = 0; j < s; j++) box[to * s + j] = box[from * s + j];
  }

  /** Calls `fn(start, size)` for every free segment (for validation). */
  forEachFree(fn: (start: number, size: number) => void): void {
    for (let k = 0; k < 32; k++) for (let i = 0; i < this.freeCount[k]; i++) fn(this.free[k][i], 1 << k);
  }
}
