/**
 * The broadphase contract. Every broadphase in Sieve (SweepAndPrune, Octree, BruteForce,
 * ParallelSweepAndPrune) implements
 * {@link Broadphase}, so engines, adapters and benchmarks can swap one for another.
 *
 * Bounds are axis-aligned boxes given as `[minX, minY, maxX, maxY]` in 2-D or
 * `[minX, minY, minZ, maxX, maxY, maxZ]` in 3-D. Overlap is inclusive: boxes that touch on a face,
 * edge or corner overlap, and so does a zero-size box lying on another box's boundary.
 */

import { optionKeys } from '../options.js';

/** 2-D or 3-D. */
export type Dimensions = 2 | 3;

/** Options shared by every broadphase constructor. */
export interface BroadphaseOptions {
  /** 2 for boxes `[minX, minY, maxX, maxY]`, 3 for `[minX, minY, minZ, maxX, maxY, maxZ]`. */
  dimensions: Dimensions;
  /** How many proxies to make room for up front (arrays grow by doubling past it). Default 64. */
  initialCapacity?: number;
  /**
   * Check internal invariants after every `update()` (slow; for tests and debugging). Default false.
   */
  validate?: boolean;
}

/**
 * The keys of {@link BroadphaseOptions}, which every broadphase constructor accepts (each adds its
 * own); any other key throws a `TypeError` naming it. Kept complete by the compiler (`optionKeys`).
 */
export const BROADPHASE_OPTION_KEYS = optionKeys<BroadphaseOptions>({
  dimensions: true,
  initialCapacity: true,
  validate: true,
});

/** Receives each handle found by {@link Broadphase.queryBounds}. */
export type QueryCallback = (handle: number) => void;

/**
 * The buffers behind a broadphase's pair lists (or their tags): the first `2 · pairCount`,
 * `2 · beganCount` and `2 · endedCount` entries are valid; a buffer is replaced only when it grows.
 */
export interface PairBuffers {
  /** Every overlapping pair (as `pairs()`). */
  pairs: Int32Array;
  /** The pairs that began at the last `update()` (as `began()`). */
  began: Int32Array;
  /** The pairs that ended at the last `update()` (as `ended()`). */
  ended: Int32Array;
}

/**
 * The interface every broadphase implements.
 *
 * Handles are non-negative 31-bit integers. A removed handle is stale: using it throws, even after its
 * slot is reused (a generation counter is part of the handle).
 *
 * Pair lists are flat `[a0, b0, a1, b1, ...]` with `a < b` in each pair, sorted ascending by `(a, b)`.
 * They are views into buffers the broadphase owns and reuses: read them before the next `update()`,
 * copy them if they must live longer.
 */
export interface Broadphase {
  /** 2 or 3. */
  readonly dimensions: Dimensions;
  /** How many proxies are live (inserted and not removed). */
  readonly count: number;

  /**
   * Adds a box and returns its handle. Its pairs appear at the next `update()`. `tag` (an int32, default
   * 0) is stored with the proxy for the caller — typically the index of its own record for the body —
   * and read back with {@link Broadphase.tagOf} and {@link Broadphase.pairTags}, so no caller has to
   * decode handles. `isStatic` (default false) marks the proxy static (see {@link Broadphase.setStatic}).
   */
  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number;
  /**
   * Marks a proxy static (`true`) or dynamic (`false`); takes effect at the next `update()`. A pair of
   * two static proxies is never reported (not in `pairs()`, `began()`, `ended()` or `pairCount`), so a
   * level of touching static tiles costs nothing per update: turning a proxy static ends its pairs
   * with other static proxies, turning it dynamic begins them. A static proxy may still move. Setting
   * the current value does nothing. Engines mark their static (and, where the engine skips such
   * pairs, sleeping) bodies static — as Box2D keeps static proxies in a tree of their own and Bullet
   * filters pairs per proxy.
   */
  setStatic(handle: number, isStatic: boolean): void;
  /** Whether a live proxy is static (the value last given to `insert` or `setStatic`). */
  isStatic(handle: number): boolean;
  /** Gives a proxy new bounds. Its pairs change at the next `update()`. */
  move(handle: number, bounds: ArrayLike<number>): void;
  /**
   * Moves many proxies at once: `handles[i]` gets the bounds at `bounds[i · 2D ... i · 2D + 2D)` for i
   * below `count` (an integer from 0 to `handles.length`; default `handles.length`). Checks
   * everything before changing anything. The per-frame entry point for engines.
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void;
  /** Removes a proxy; its handle becomes stale. Its pairs end at the next `update()`. */
  remove(handle: number): void;
  /** Whether `handle` names a live proxy. */
  has(handle: number): boolean;
  /** Copies a live proxy's current bounds into `out` (length 2·dimensions) and returns it. */
  getBounds(handle: number, out: number[] | Float64Array | Float32Array): typeof out;
  /** The tag a live proxy was inserted with (see {@link Broadphase.insert}). */
  tagOf(handle: number): number;

  /** Brings the pair set up to date with every insert, move and remove since the last call. */
  update(): void;

  /** Every overlapping pair as of the last `update()`. */
  pairs(): Int32Array;
  /** The pairs that started overlapping at the last `update()`. */
  began(): Int32Array;
  /** The pairs that stopped overlapping at the last `update()` (including pairs of removed proxies). */
  ended(): Int32Array;
  /** Number of pairs in `pairs()`. */
  readonly pairCount: number;
  /** Number of pairs in `began()`. */
  readonly beganCount: number;
  /** Number of pairs in `ended()`. */
  readonly endedCount: number;
  /**
   * The buffers behind `pairs()`, `began()` and `ended()` (see {@link PairBuffers}), for per-frame
   * loops that must not create a typed-array view.
   */
  pairBuffers(): PairBuffers;
  /**
   * The tags of the handles in {@link Broadphase.pairBuffers}, entry for entry: `pairTags().pairs[i]`
   * is the tag of `pairBuffers().pairs[i]`. The ended pairs keep the tags of removed proxies. Valid
   * until the next `update()`.
   */
  pairTags(): PairBuffers;

  /**
   * Every live handle whose box overlaps `bounds` (inclusive), as of the latest insert/move/remove
   * (no `update()` needed; static proxies included). Handles go to the callback, or are pushed onto / written into `out`
   * (a typed array receives at most its length). Returns how many were found. The order is unspecified.
   */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number;
}
