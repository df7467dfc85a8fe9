/**
 * ParallelSweepAndPrune: the region-parallel sweep and prune of the sweep-and-prune notes, §2, under
 * Sieve's broadphase contract — space split into regions, each region's sequential sweep and prune
 * run on its own worker thread, its pairs merged into one pair list identical (same pairs, began and
 * ended, same order, same tags) to the sequential SweepAndPrune's for any number of workers.
 *
 * The host thread keeps what the contract promises: generational handles and validation (the same
 * proxy store as every Sieve broadphase, so the same operations give the same handles as
 * SweepAndPrune), the latest bounds, live and static flags (in shared memory: the store's arrays are
 * `SharedArrayBuffer` views, so `insert` / `move` write straight where the workers read — and so can
 * the caller, through `bounds`), the list of slots changed since the last
 * update, and the region layout (layout.ts: load balanced by counts, re-cut when one region holds too
 * many boxes). `update()` hands a frame's phases to the regions' threads (shared.ts: check and
 * classify, regions, merge by key range) and concatenates the merged ranges (pairLists.ts). Where it
 * can block, the calling thread runs region 0 itself — the fork-join pattern in which the thread that
 * forks takes a share instead of idling (as in OpenMP's master thread) — so `workers: N` puts N
 * threads to work, never one more than the cores when N is the core count. Beyond its region, the host
 * touches no box and no pair per frame but to copy the final lists. One region on the calling thread
 * (`workers: 1` where `update()` can block) is the sequential SweepAndPrune itself, with no frames and
 * no worker, to which every method hands on.
 *
 * Without shared memory (a page that is not cross-origin isolated) or worker threads, the regions run
 * one after the other on the calling thread — same results — and the broadphase says so once.
 */
import { PairedBroadphase } from '../pairedBroadphase.js';
import { checkStaticFlag, copyBox, copyBoxesInSlotOrder, SLOT_MASK } from '../proxies.js';
import type { PairBuffers, QueryCallback } from '../types.js';
import { RegionDispatch } from './dispatch.js';
import { Frames } from './frames.js';
import { type ParallelSweepAndPruneOptions, readParallelOptions } from './options.js';
import { hardwareThreads, WorkerPool, workersUnavailable } from './pool.js';
import { makeBuffer, sharedMemoryAvailable, T_STRIDE } from './shared.js';
import { SoloSweepAndPrune } from './solo.js';

export type { ParallelSweepAndPruneOptions } from './options.js';

/** How the regions run: on worker threads, or one after the other on the calling thread. */
export type ParallelMode = 'workers' | 'in-thread';

let warnedFallback = false;

/**
 * Region-parallel sweep and prune on worker threads. Implements the `Broadphase` contract of
 * {@link @sieve/core!Broadphase | @sieve/core}: the same handles, pairs, began/ended lists, tags and
 * order as the sequential `SweepAndPrune` for the same operations, whatever the number of workers.
 *
 * Bounds go in through `insert` / `move` / `moveMany` (checked and copied on the calling thread), or
 * without a copy: write them straight into `bounds` and call
 * {@link ParallelSweepAndPrune.markMoved} or {@link ParallelSweepAndPrune.markAllMoved}; the workers
 * then check them at the next update, which throws a `RangeError` naming the first bad proxy before
 * anything changes. Moves of most boxes (from 4 096) through `moveMany` or `move` make the update take
 * every box, as `markAllMoved` does: only the check and the copy remain on the calling thread.
 *
 * With one region on the calling thread (`workers: 1` where `update()` can block, or `inThread` with
 * one worker) it is the sequential `SweepAndPrune` itself — no worker, no shared memory, its speed —
 * with this class's methods: `mode` is `'in-thread'`, and the written boxes are checked on the calling
 * thread.
 *
 * After {@link ParallelSweepAndPrune.dispose}, every method and the `count`, `pairCount`, `beganCount`
 * and `endedCount` getters throw an `Error` naming themselves; so does everything but those getters
 * while an {@link ParallelSweepAndPrune.updateAsync} is in flight.
 *
 * @example
 * ```ts
 * import { ParallelSweepAndPrune } from '@sieve/core/parallel';
 *
 * const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2 }); // pays from ~20 000 moving boxes
 * for (let i = 0; i < 1000; i++) bp.insert([i * 0.9, 0, 0, i * 0.9 + 1, 1, 1]); // a row of boxes
 * bp.update(); // blocks until the regions are done: Node, or inside a Web Worker
 * console.log(bp.pairCount, bp.mode, bp.fallbackReason); // 999, 'workers' (or 'in-thread' and why)
 * bp.moveMany([0], [500, 0, 0, 501, 1, 1]); // handles, and their bounds in one flat array
 * await bp.updateAsync(); // a browser page's main thread: never blocks
 * console.log(bp.began(), bp.ended()); // the same lists, in the same order, as SweepAndPrune's
 * bp.dispose(); // stops the worker threads
 * ```
 */
export class ParallelSweepAndPrune extends PairedBroadphase {
  /**
   * `'workers'`, or `'in-thread'` where shared memory or threads are missing, `inThread` was set, or
   * the one region runs on the calling thread (`workers: 1` where `update()` can block).
   */
  readonly mode: ParallelMode;
  /** Why the regions run on the calling thread (null when they run on workers or `inThread` was asked). */
  readonly fallbackReason: string | null;
  /** Number of regions (one per thread that runs one: the workers, and the calling thread in `update()`). */
  readonly regionCount: number;
  /**
   * Whether the calling thread runs region 0 itself beside the workers (see the `callerRegion` option;
   * false in-thread, where it runs them all); the workers then run regions 1 and up.
   */
  readonly callerRegion: boolean;
  /**
   * Whether {@link update} works on this thread: false on a browser page's main thread while worker
   * threads run the regions (`Atomics.wait` is not allowed there: use {@link updateAsync}), true in
   * Node, in a Web Worker and in-thread. An engine adapter, whose step is synchronous, refuses an
   * instance with false when it is installed rather than throw inside the engine's step.
   */
  readonly syncUpdate: boolean;
  /** The one region on the calling thread, a plain SweepAndPrune (null otherwise: then the next two). */
  private readonly solo: SoloSweepAndPrune | null;
  /** The frames of the regions (not made for the one region on the calling thread). */
  private readonly frames!: Frames;
  /** The regions' threads, which run the frames (not made for the one region on the calling thread). */
  private readonly dispatch!: RegionDispatch;
  private inFlight = false;
  private disposed = false;

  constructor(options: ParallelSweepAndPruneOptions) {
    const o = readParallelOptions(
      options,
      hardwareThreads,
      (p): p is WorkerPool => p instanceof WorkerPool,
      !isBrowserMainThread(),
    );
    // One region on the calling thread needs no worker: no reason to fall back either.
    const alone = o.pool === undefined && o.regions === 1 && (o.callerRegion || o.inThread);
    let reason: string | null = null;
    if (!o.pool && !alone) {
      if (!sharedMemoryAvailable()) {
        reason =
          'SharedArrayBuffer is unavailable (serve the page with Cross-Origin-Opener-Policy: same-origin and ' +
          'Cross-Origin-Embedder-Policy: require-corp to enable it)';
      } else reason = workersUnavailable();
    }
    const solo = alone || (o.pool === undefined && o.regions === 1 && reason !== null);
    // The solo broadphase keeps its own proxy store: this one is never used then.
    super(o.dimensions, solo ? 1 : o.initialCapacity, 'ParallelSweepAndPrune');
    const regions = o.regions;
    this.regionCount = regions;
    const shared = o.pool !== undefined || (reason === null && !o.inThread && !solo);
    this.mode = shared ? 'workers' : 'in-thread';
    this.fallbackReason = o.inThread ? null : reason;
    if (this.fallbackReason && !warnedFallback) {
      warnedFallback = true;
      console.warn(`@sieve/core/parallel: ${this.fallbackReason}; regions run on the calling thread.`);
    }
    this.solo = solo ? new SoloSweepAndPrune(o.dimensions, o.initialCapacity, o.validate) : null;
    if (solo) {
      this.callerRegion = false;
      this.syncUpdate = true;
      return;
    }
    // Shared copies of the store's arrays: insert / move write straight where the regions read.
    this.shareStore();
    this.frames = new Frames(this.store, o, shared);
    this.dispatch = new RegionDispatch(this.frames, o, this.dimensions, shared);
    this.callerRegion = this.dispatch.callerRegion;
    this.syncUpdate = !this.dispatch.pool || !isBrowserMainThread();
  }

  /** Resolves once every worker has started (immediately in-thread); rejects with a worker's failure. */
  ready(): Promise<void> {
    this.usable('ready');
    return this.solo || !this.dispatch.pool ? Promise.resolve() : this.dispatch.pool.ready();
  }

  /**
   * The bounds of every proxy (in shared memory when the regions run on workers), for writing without
   * a copy: proxy `handle`'s box is `bounds[offsetOf(handle) ... + 2·dimensions)`, `[minX, minY, maxX,
   * maxY]` (or with z: min x, y, z then max x, y, z) — that is, at `(handle & 0xFFFFF) · 2·dimensions`.
   * After writing, call {@link markMoved} for each proxy written or {@link markAllMoved}; the next
   * update checks the written boxes (on the workers, or on the calling thread with one region there).
   * The array is replaced when the broadphase grows (an `insert` past its capacity; see
   * `initialCapacity`): read it again after inserting.
   */
  get bounds(): Float64Array {
    this.usable('bounds');
    return this.solo ? this.solo.written : this.store.bounds;
  }

  /** Where proxy `handle`'s box starts in `bounds`. Throws for a stale or unknown handle. */
  offsetOf(handle: number): number {
    this.usable('offsetOf');
    if (this.solo) return this.solo.offsetOf(handle);
    return this.store.slotOf(handle, 'offsetOf') * this.store.stride;
  }

  /**
   * Tells the broadphase that `handle`'s box was written straight into `bounds`; the next update
   * reads and checks it (a bad box makes that update throw a `RangeError` naming the proxy, before
   * anything changes). Throws for a stale or unknown handle.
   */
  markMoved(handle: number): void {
    this.usable('markMoved');
    if (this.solo) {
      this.solo.markWritten(handle);
      return;
    }
    this.frames.changed.markWritten(this.store.slotOf(handle, 'markMoved'));
  }

  /**
   * Tells the broadphase that every dynamic proxy's box may have been written straight into
   * `bounds`: the next update reads and checks all of them on the workers (the host does nothing per
   * proxy), or on the calling thread with one region there. Static proxies are read only when listed:
   * move them with `move` or {@link markMoved}.
   */
  markAllMoved(): void {
    this.usable('markAllMoved');
    if (this.solo) {
      this.solo.markAllWritten();
      return;
    }
    this.frames.changed.markAllWritten();
  }

  /**
   * Adds a box (`[minX, minY, maxX, maxY]`, or with z: 2·dimensions finite numbers, min ≤ max) and
   * returns its handle; its pairs appear at the next update. `tag` (an int32, default 0) is stored with
   * the proxy and read back with `tagOf` and `pairTags`; a static proxy (`isStatic`) never pairs with
   * another static one. Throws a `RangeError`/`TypeError` naming the argument, before anything changes.
   */
  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    this.usable('insert');
    if (this.solo) return this.solo.insert(bounds, tag, isStatic);
    const slot = this.store.allocate(bounds, tag, isStatic);
    this.frames.changed.mark(slot);
    return this.store.handles[slot];
  }

  /**
   * Marks a proxy static or dynamic; at the next update its pairs with static proxies end (made
   * static) or begin (made dynamic). The same value again changes nothing. Throws for a stale or
   * unknown handle or a flag that is not a boolean.
   */
  setStatic(handle: number, isStatic: boolean): void {
    this.usable('setStatic');
    if (this.solo) {
      this.solo.setStatic(handle, isStatic);
      return;
    }
    const slot = this.store.slotOf(handle, 'setStatic');
    checkStaticFlag(isStatic, this.store.names.setStatic, false);
    const flag = isStatic ? 1 : 0;
    if (this.store.statics[slot] === flag) return;
    this.store.statics[slot] = flag;
    this.frames.changed.mark(slot);
  }

  /** Whether a live proxy is static. Throws for a stale or unknown handle. */
  override isStatic(handle: number): boolean {
    this.usable('isStatic');
    return this.solo ? this.solo.isStatic(handle) : super.isStatic(handle);
  }

  /**
   * Gives a live proxy new bounds (written straight into the shared memory the workers read); its pairs
   * change at the next update. Throws for a stale or unknown handle or bad bounds, before anything changes.
   */
  move(handle: number, bounds: ArrayLike<number>): void {
    this.usable('move');
    if (this.solo) {
      this.solo.move(handle, bounds);
      return;
    }
    const slot = this.store.moveSlot(handle, bounds);
    this.store.setBounds(slot, bounds);
    this.frames.changed.markMoved(slot);
  }

  /**
   * Moves many proxies at once: `handles[i]` gets the bounds at `bounds[i · 2D ... i · 2D + 2D)`.
   * Validates everything before changing anything. A batch of most boxes makes the next update take
   * every box (as {@link markAllMoved}), and one in slot order (the handles of boxes inserted in order)
   * is copied in one block. (Writing into `bounds` saves this copy.)
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    this.usable('moveMany');
    if (this.solo) {
      this.solo.moveMany(handles, bounds, count);
      return;
    }
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    const box = this.store.bounds;
    if (!copyBoxesInSlotOrder(box, handles, bounds, n, s)) {
      for (let i = 0; i < n; i++) copyBox(box, (handles[i] & SLOT_MASK) * s, bounds, i * s, s);
    }
    this.frames.changed.listMoved(handles, n);
  }

  /**
   * Removes a proxy; its handle becomes stale (using it throws, even after the slot is reused). Its
   * pairs end at the next update. Throws for a stale or unknown handle.
   */
  remove(handle: number): void {
    this.usable('remove');
    if (this.solo) {
      this.solo.remove(handle);
      return;
    }
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    this.frames.changed.mark(slot);
  }

  /**
   * Brings the pair lists up to date, blocking until every worker is done (Node, or inside a worker).
   * On a browser's main thread, where blocking is not allowed, use {@link updateAsync}. Throws a
   * `RangeError` naming the first proxy whose box, written into `bounds`, is not finite with
   * min ≤ max (nothing changed then: fix it and update again), or the error of a worker that failed
   * or exited (its real cause, within about a millisecond of it).
   */
  update(): void {
    this.usable('update');
    if (this.solo) this.solo.update();
    else if (!this.syncUpdate) {
      throw new Error(
        "ParallelSweepAndPrune.update: a browser's main thread cannot block; use `await updateAsync()`",
      );
    } else this.dispatch.update();
  }

  /** {@link update} without blocking the calling thread; the broadphase must not be changed meanwhile. */
  async updateAsync(): Promise<void> {
    this.usable('updateAsync');
    if (this.solo || !this.dispatch.pool) {
      this.update();
      return;
    }
    this.inFlight = true;
    try {
      await this.dispatch.updateAsync();
    } finally {
      this.inFlight = false;
    }
  }

  /**
   * Every live handle whose box overlaps `bounds` (inclusive), as of the latest insert / move / remove (no
   * update needed; answered on the calling thread by a scan of the proxy store, not by the workers).
   * Handles go to the callback, or are pushed onto / written into `out` (a typed array receives at most
   * its length). Returns how many were found; the order is unspecified.
   */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    this.usable('queryBounds');
    return this.solo ? this.solo.queryBounds(bounds, out) : this.store.scanQuery(bounds, out);
  }

  /** How many proxies are live. */
  override get count(): number {
    this.usable('count', true);
    return this.solo ? this.solo.count : this.store.count;
  }

  /** Pairs in `pairs()`. */
  override get pairCount(): number {
    this.usable('pairCount', true);
    return this.solo ? this.solo.pairCount : this.frames.lists.count;
  }

  /** Pairs in `began()`. */
  override get beganCount(): number {
    this.usable('beganCount', true);
    return this.solo ? this.solo.beganCount : this.frames.lists.beganCount;
  }

  /** Pairs in `ended()`. */
  override get endedCount(): number {
    this.usable('endedCount', true);
    return this.solo ? this.solo.endedCount : this.frames.lists.endedCount;
  }

  /** Every overlapping pair as of the last update (a view into a reused buffer). */
  override pairs(): Int32Array {
    this.usable('pairs');
    return this.solo ? this.solo.pairs() : this.frames.lists.pairs();
  }

  /** The pairs that started overlapping at the last update. */
  override began(): Int32Array {
    this.usable('began');
    return this.solo ? this.solo.began() : this.frames.lists.began();
  }

  /** The pairs that stopped overlapping at the last update (removed proxies' too). */
  override ended(): Int32Array {
    this.usable('ended');
    return this.solo ? this.solo.ended() : this.frames.lists.ended();
  }

  /** The buffers behind `pairs()`, `began()` and `ended()` (see the `Broadphase` contract). */
  override pairBuffers(): PairBuffers {
    this.usable('pairBuffers');
    return this.solo ? this.solo.pairBuffers() : this.frames.lists.buffers();
  }

  /** The tags of the handles in `pairBuffers()`, entry for entry (ended pairs of removed proxies too). */
  override pairTags(): PairBuffers {
    this.usable('pairTags');
    return this.solo ? this.solo.pairTags() : this.frames.lists.tags(this.store.tags);
  }

  /** The tag a live proxy was inserted with (0 by default). */
  override tagOf(handle: number): number {
    this.usable('tagOf');
    return this.solo ? this.solo.tagOf(handle) : super.tagOf(handle);
  }

  /** Whether `handle` names a live proxy. */
  override has(handle: number): boolean {
    this.usable('has');
    return this.solo ? this.solo.has(handle) : super.has(handle);
  }

  /** Copies a live proxy's current bounds into `out` and returns it. */
  override getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    this.usable('getBounds');
    return this.solo ? this.solo.getBounds(handle, out) : super.getBounds(handle, out);
  }

  /**
   * Milliseconds each region (worker) spent on the last update, by region. (With one region on the
   * calling thread, updates are timed from the first call on: reading the clock allocates.)
   */
  regionTimes(): Float64Array {
    this.usable('regionTimes');
    return this.solo ? this.solo.regionTimes() : this.frames.regionMs();
  }

  /** Boxes each region held after the last update (its own and the ghosts near its borders). */
  regionMembers(): Int32Array {
    this.usable('regionMembers');
    return this.solo ? this.solo.members : this.frames.readMembers();
  }

  /**
   * The last update's trace, for benchmarks: the pool's `[started, issued, acknowledged]` times of the
   * hand-off, and each region's `T_STRIDE` timings (shared.ts: its milestones, absolute ms). The
   * updates after the first call are traced (reading the clock allocates, so untraced ones do not);
   * zeros in-thread.
   * @internal
   */
  stepTrace(): { pool: Float64Array; regions: Float64Array; stride: number } {
    this.usable('stepTrace');
    if (!this.solo) {
      this.frames.tracing = true;
      if (this.dispatch.pool) this.dispatch.pool.tracing = true;
    }
    const regions = this.solo ? new Float64Array(T_STRIDE) : this.frames.timings;
    const pool = this.solo ? null : this.dispatch.pool;
    return { pool: pool?.trace ?? new Float64Array(3), regions, stride: T_STRIDE };
  }

  /**
   * Microseconds a thread spins at a barrier of a frame before it sleeps (default: 1000 while the
   * regions' threads leave two cores free, else 20), for benchmarks and tuning; results do not depend on it.
   * @internal
   */
  get barrierSpinUs(): number {
    return this.solo ? 0 : this.frames.spinUs;
  }

  /**
   * Sets {@link barrierSpinUs} (whole microseconds, 0 or more).
   * @internal
   */
  set barrierSpinUs(us: number) {
    if (!this.solo) this.frames.spinUs = Math.max(0, Math.floor(us));
  }

  /**
   * The regions' responsibility bounds, `2 · dimensions` numbers each (min then max; ±Infinity at the
   * rim).
   */
  regionBounds(): Float64Array {
    this.usable('regionBounds');
    return this.solo ? this.solo.regionBounds() : this.frames.regions.slice();
  }

  /**
   * Stops this broadphase's workers (a shared pool passed as `pool` keeps running and forgets this
   * broadphase's regions). Afterwards every method throws; calling `dispose()` again does nothing.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.solo) this.dispatch.dispose();
  }

  // --- internals ----------------------------------------------------------------------------------

  /** Throws after dispose() (and, unless `anytime`, while an updateAsync is in flight). */
  private usable(where: string, anytime = false): void {
    if (this.disposed) throw new Error(`ParallelSweepAndPrune.${where}: used after dispose()`);
    if (this.inFlight && !anytime) {
      throw new Error(`ParallelSweepAndPrune.${where}: an updateAsync() is still running; await it first`);
    }
  }

  /** Replaces the store's per-slot arrays the workers read by shared copies. */
  private shareStore(): void {
    const store = this.store;
    store.bounds = this.sharedCopy(store.bounds);
    store.alive = this.sharedCopy(store.alive);
    store.statics = this.sharedCopy(store.statics);
    store.handles = this.sharedCopy(store.handles);
  }

  private sharedCopy<T extends Float64Array | Uint8Array | Int32Array>(array: T): T {
    const buffer = makeBuffer(array.byteLength, this.mode === 'workers');
    const copy = new (array.constructor as new (b: ArrayBufferLike) => T)(buffer);
    copy.set(array);
    return copy;
  }

  protected grow(capacity: number): void {
    this.shareStore();
    this.frames.grow(capacity);
  }
}

/** Whether this code runs on a browser page's main thread (where `Atomics.wait` is not allowed). */
function isBrowserMainThread(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window === 'object' && typeof g.document === 'object';
}
