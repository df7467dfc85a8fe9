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
  /** Handles, latest bounds and tags of the proxies. */
  protected readonly store: ProxyStore;
  /** The counted pairs, with began/ended. */
  protected readonly pairSet = new PairSet();

  /** `name` prefixes error messages; `grow` is called when the slot arrays double. */
  protected constructor(dimensions: Dimensions, initialCapacity: number, name: string) {
    this.store = new ProxyStore(dimensions, initialCapacity, name, (c) => this.grow(c));
    this.dimensions = dimensions;
  }

  /** Grows the subclass's per-slot arrays to `capacity` slots. */
  protected abstract grow(capacity: number): void;

  /**
   * Adds a box (with an optional int32 `tag`, static if `isStatic`) and returns its handle; its pairs
   * appear at the next `update()`.
   */
  abstract insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number;
  /** Marks a proxy static or dynamic; its pairs with static proxies change at the next `update()`. */
  abstract setStatic(handle: number, isStatic: boolean): void;
  /** Gives a proxy new bounds; its pairs change at the next `update()`. */
  abstract move(handle: number, bounds: ArrayLike<number>): void;
  /** Moves `count` proxies (default all of `handles`) to the boxes packed in `bounds`, 2·D numbers each; checks everything first. */
  abstract moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void;
  /** Removes a proxy; its handle becomes stale and its pairs end at the next `update()`. */
  abstract remove(handle: number): void;
  /** Brings the pair set up to date with every insert, move and remove since the last call. */
  abstract update(): void;
  /** Every live handle whose box overlaps `bounds` (latest state, no `update()` needed); returns how many. */
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

  /** The tags of the handles in `pairBuffers()`, entry for entry (ended pairs of removed proxies too). */
  pairTags(): PairBuffers {
    return this.pairSet.tags(this.store.tags);
  }

  /** The tag a live proxy was inserted with (0 by default). */
  tagOf(handle: number): number {
    return this.store.tags[this.store.slotOf(handle, 'tagOf')];
  }

  /** Whether a live proxy is static (as last given to `insert` or `setStatic`). */
  isStatic(handle: number): boolean {
    return this.store.statics[this.store.slotOf(handle, 'isStatic')] === 1;
  }

  /** Whether `handle` names a live proxy. */
  has(handle: number): boolean {
    return this.store.has(handle);
  }

  /** Copies a live proxy's current bounds into `out` and returns it. */
  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
  }

  /** Every overlapping pair as of the last `update()` (a view into a reused buffer). */
  pairs(): Int32Array {
    return this.pairSet.pairs();
  }

  /** The pairs that started overlapping at the last `update()`. */
  began(): Int32Array {
    return this.pairSet.began();
  }

  /** The pairs that stopped overlapping at the last `update()` (removed proxies' too). */
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
