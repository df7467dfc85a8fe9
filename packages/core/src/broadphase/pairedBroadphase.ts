/**
 * What SweepAndPrune and Octree share of the broadphase contract: the proxy store (handles, latest
 * bounds, tags, input checks) and the counted pair set (sorted pairs, began/ended — Bullet's hashed
 * pair cache), with the accessors that only read them. Each subclass supplies the structure that finds
 * the pairs.
 */
import { PairSet } from './pairSet.js';
import { ProxyStore } from './proxies.js';
import type { Broadphase, Dimensions, PairBuffers, QueryCallback } from './types.js';

/**
 * Base class of the broadphases that keep a counted pair set: implements every read-only part of the
 * {@link Broadphase} contract; subclasses add insert, move, remove, update and queries.
 */
export abstract class PairedBroadphase implements Broadphase {
  /** 2 or 3. */
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

  /** {@inheritDoc Broadphase.insert} */
  abstract insert(bounds: ArrayLike<number>, tag?: number): number;
  /** {@inheritDoc Broadphase.move} */
  abstract move(handle: number, bounds: ArrayLike<number>): void;
  /** {@inheritDoc Broadphase.moveMany} */
  abstract moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void;
  /** {@inheritDoc Broadphase.remove} */
  abstract remove(handle: number): void;
  /** {@inheritDoc Broadphase.update} */
  abstract update(): void;
  /** {@inheritDoc Broadphase.queryBounds} */
  abstract queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number;

  /** How many proxies are live. */
  get count(): number {
    return this.store.count;
  }

  /** Pairs in `pairs()`. */
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
  pairBuffers(): PairBuffers {
    return this.pairSet.buffers();
  }

  /** {@inheritDoc Broadphase.pairTags} */
  pairTags(): PairBuffers {
    return this.pairSet.tags(this.store.tags);
  }

  /** {@inheritDoc Broadphase.tagOf} */
  tagOf(handle: number): number {
    return this.store.tags[this.store.slotOf(handle, 'tagOf')];
  }

  /** Whether `handle` names a live proxy. */
  has(handle: number): boolean {
    return this.store.has(handle);
  }

  /** Copies a live proxy's current bounds into `out` and returns it. */
  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
  }

  /** {@inheritDoc Broadphase.pairs} */
  pairs(): Int32Array {
    return this.pairSet.pairs();
  }

  /** {@inheritDoc Broadphase.began} */
  began(): Int32Array {
    return this.pairSet.began();
  }

  /** {@inheritDoc Broadphase.ended} */
  ended(): Int32Array {
    return this.pairSet.ended();
  }

  /** Closes an update: the pair set's began/ended lists (with the ended pairs' tags), then slot reuse. */
  protected finishUpdate(): void {
    // The ended pairs' tags are copied only once some proxy has a tag (untagged, they all read 0).
    this.pairSet.finalize(this.store.handles, this.store.tagged ? this.store.tags : undefined);
    this.store.recycle();
  }
}
