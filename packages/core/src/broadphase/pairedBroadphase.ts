/**
 * What SweepAndPrune and Octree share of the broadphase contract: the proxy store (handles, latest
 * bounds, validation) and the counted pair set (sorted pairs, began/ended), with the accessors that
 * only read them. Each subclass supplies the structure that finds the pairs.
 */
import { PairSet } from './pairSet.js';
import { ProxyStore } from './proxies.js';
import type { Broadphase, Dimensions, QueryCallback } from './types.js';

export abstract class PairedBroadphase implements Broadphase {
  readonly dimensions: Dimensions;
  protected readonly store: ProxyStore;
  protected readonly pairSet = new PairSet();

  /** `name` prefixes error messages; `grow` is called when the slot arrays double. */
  protected constructor(dimensions: Dimensions, initialCapacity: number, name: string) {
    this.store = new ProxyStore(dimensions, initialCapacity, name, (c) => this.grow(c));
    this.dimensions = dimensions;
  }

  /** Grows the subclass's per-slot arrays to `capacity` slots. */
  protected abstract grow(capacity: number): void;

  abstract insert(bounds: ArrayLike<number>): number;
  abstract move(handle: number, bounds: ArrayLike<number>): void;
  abstract remove(handle: number): void;
  abstract update(): void;
  abstract queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number;

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

  has(handle: number): boolean {
    return this.store.has(handle);
  }

  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
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
}
