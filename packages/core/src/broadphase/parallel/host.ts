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
 * many boxes). `update()` runs a frame's phases on the workers (shared.ts: check and classify,
 * regions, merge by key range) and concatenates the merged ranges (pairLists.ts). Where it can block,
 * the calling thread runs region 0 itself — the fork-join pattern in which the thread that forks
 * takes a share instead of idling (as in OpenMP's master thread) — so `workers: N` puts N threads to
 * work, never one more than the cores when N is the core count. Beyond its region, the host touches no
 * box and no pair per frame but to copy the final lists.
 *
 * Without shared memory (a page that is not cross-origin isolated) or worker threads, the regions run
 * one after the other on the calling thread — same results — and the broadphase says so once.
 */
import { PairedBroadphase } from '../pairedBroadphase.js';
import { checkBounds, checkStaticFlag, SLOT_MASK } from '../proxies.js';
import type { PairBuffers, QueryCallback } from '../types.js';
import { Frames } from './frames.js';
import { type ParallelSweepAndPruneOptions, readParallelOptions } from './options.js';
import { hardwareThreads, WorkerPool, workersUnavailable } from './pool.js';
import { RegionRunner } from './region.js';
import {
  CMD_CLASSIFY,
  CMD_FRAME,
  CMD_MERGE,
  CMD_RESEND,
  CMD_STEP,
  H_ABORT,
  makeBuffer,
  sharedMemoryAvailable,
  T_STRIDE,
} from './shared.js';

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
 * anything changes.
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
  /** `'workers'`, or `'in-thread'` where shared memory or threads are missing (or `inThread` was set). */
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
  private readonly shared: boolean;
  private readonly pool: WorkerPool | null;
  private readonly ownPool: boolean;
  private readonly id: number;
  /** The regions run on this thread: all of them in-thread, region 0 with `callerRegion`, else none. */
  private readonly runners: RegionRunner[] = [];
  /** Regions on this thread before the workers' (1 with `callerRegion`): region r runs on worker r − first. */
  private readonly firstOnWorkers: number;
  private readonly frames: Frames;
  private inFlight = false;
  private disposed = false;
  /** The phase the calling thread's region runs next to the workers' (see {@link ownShare}). */
  private phase = CMD_STEP;
  /** The worker that holds a command up: the one whose region got least far (see H_REGION_PROGRESS). */
  private readonly blame = (): number => Math.max(0, this.frames.laggard() - this.firstOnWorkers);
  /** The calling thread's share of a command run on the workers (bound once: nothing allocated per frame). */
  private readonly ownShare = (): void => runPhase(this.runners[0], this.phase);

  constructor(options: ParallelSweepAndPruneOptions) {
    const o = readParallelOptions(
      options,
      hardwareThreads,
      (p): p is WorkerPool => p instanceof WorkerPool,
      !isBrowserMainThread(),
    );
    super(o.dimensions, o.initialCapacity, 'ParallelSweepAndPrune');
    const regions = o.regions;
    this.regionCount = regions;

    let reason: string | null = null;
    if (!o.pool) {
      if (!sharedMemoryAvailable()) {
        reason =
          'SharedArrayBuffer is unavailable (serve the page with Cross-Origin-Opener-Policy: same-origin and ' +
          'Cross-Origin-Embedder-Policy: require-corp to enable it)';
      } else reason = workersUnavailable();
    }
    this.shared = o.pool !== undefined || (reason === null && !o.inThread);
    this.mode = this.shared ? 'workers' : 'in-thread';
    this.fallbackReason = o.inThread ? null : reason;
    if (this.fallbackReason && !warnedFallback) {
      warnedFallback = true;
      console.warn(`@sieve/core/parallel: ${this.fallbackReason}; regions run on the calling thread.`);
    }

    // Shared copies of the store's arrays: insert / move write straight where the regions read.
    this.shareStore();
    this.frames = new Frames(this.store, o, this.shared);

    this.callerRegion = this.shared && o.callerRegion;
    this.firstOnWorkers = this.callerRegion ? 1 : 0;
    if (this.shared) {
      this.ownPool = o.pool === undefined;
      this.pool =
        o.pool ??
        new WorkerPool({
          workers: regions - this.firstOnWorkers,
          workerUrl: o.workerUrl,
          timeoutMs: o.timeoutMs,
        });
      this.id = this.pool.newId();
      for (let r = 0; r < regions; r++) {
        if (r < this.firstOnWorkers) {
          const runner = new RegionRunner(this.dimensions, r, this.frames.buffersOf(r), o.validate);
          // At a barrier the calling thread checks on the workers: a dead one never keeps it waiting.
          runner.waitCheck = this.pool.poll;
          this.runners.push(runner);
          continue;
        }
        this.pool.post(r - this.firstOnWorkers, {
          type: 'attach',
          id: this.id,
          dimensions: this.dimensions,
          region: r,
          validate: o.validate,
          buffers: this.frames.buffersOf(r),
        });
      }
    } else {
      this.ownPool = false;
      this.pool = null;
      this.id = 0;
      this.firstOnWorkers = regions;
      for (let r = 0; r < regions; r++) {
        this.runners.push(new RegionRunner(this.dimensions, r, this.frames.buffersOf(r), o.validate));
      }
    }
  }

  /** Resolves once every worker has started (immediately in-thread); rejects with a worker's failure. */
  ready(): Promise<void> {
    this.usable('ready');
    return this.pool ? this.pool.ready() : Promise.resolve();
  }

  /**
   * The bounds of every proxy, in shared memory, for writing without a copy: proxy `handle`'s box is
   * `bounds[offsetOf(handle) ... + 2·dimensions)`, `[minX, minY, maxX, maxY]` (or with z: min x, y, z then
   * max x, y, z) — that is, at `(handle & 0xFFFFF) · 2·dimensions`. After writing, call
   * {@link markMoved} for each proxy written or {@link markAllMoved}; the next update checks the
   * written boxes on the workers. The array is replaced when the broadphase grows (an `insert` past
   * its capacity; see `initialCapacity`): read it again after inserting.
   */
  get bounds(): Float64Array {
    this.usable('bounds');
    return this.store.bounds;
  }

  /** Where proxy `handle`'s box starts in `bounds`. Throws for a stale or unknown handle. */
  offsetOf(handle: number): number {
    this.usable('offsetOf');
    return this.store.slotOf(handle, 'offsetOf') * this.store.stride;
  }

  /**
   * Tells the broadphase that `handle`'s box was written straight into `bounds`; the next update
   * reads and checks it (a bad box makes that update throw a `RangeError` naming the proxy, before
   * anything changes). Throws for a stale or unknown handle.
   */
  markMoved(handle: number): void {
    this.usable('markMoved');
    this.frames.markDirty(this.store.slotOf(handle, 'markMoved'));
    this.frames.unchecked = true;
    this.frames.everUnchecked = true;
  }

  /**
   * Tells the broadphase that every dynamic proxy's box may have been written straight into
   * `bounds`: the next update reads and checks all of them on the workers (the host does
   * nothing per proxy). Static proxies are read only when listed: move them with `move` or
   * {@link markMoved}.
   */
  markAllMoved(): void {
    this.usable('markAllMoved');
    this.frames.allMoved = true;
    this.frames.unchecked = true;
    this.frames.everUnchecked = true;
  }

  /**
   * Adds a box (`[minX, minY, maxX, maxY]`, or with z: 2·dimensions finite numbers, min ≤ max) and
   * returns its handle; its pairs appear at the next update. `tag` (an int32, default 0) is stored with
   * the proxy and read back with `tagOf` and `pairTags`; a static proxy (`isStatic`) never pairs with
   * another static one. Throws a `RangeError`/`TypeError` naming the argument, before anything changes.
   */
  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    this.usable('insert');
    const slot = this.store.allocate(bounds, tag, isStatic);
    this.frames.markDirty(slot);
    return this.store.handles[slot];
  }

  /**
   * Marks a proxy static or dynamic; at the next update its pairs with static proxies end (made
   * static) or begin (made dynamic). The same value again changes nothing. Throws for a stale or
   * unknown handle or a flag that is not a boolean.
   */
  setStatic(handle: number, isStatic: boolean): void {
    this.usable('setStatic');
    const slot = this.store.slotOf(handle, 'setStatic');
    checkStaticFlag(isStatic, 'ParallelSweepAndPrune.setStatic', false);
    const flag = isStatic ? 1 : 0;
    if (this.store.statics[slot] === flag) return;
    this.store.statics[slot] = flag;
    this.frames.markDirty(slot);
  }

  /** Whether a live proxy is static. Throws for a stale or unknown handle. */
  override isStatic(handle: number): boolean {
    this.usable('isStatic');
    return super.isStatic(handle);
  }

  /**
   * Gives a live proxy new bounds (written straight into the shared memory the workers read); its pairs
   * change at the next update. Throws for a stale or unknown handle or bad bounds, before anything changes.
   */
  move(handle: number, bounds: ArrayLike<number>): void {
    this.usable('move');
    const slot = this.store.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, 'ParallelSweepAndPrune.move');
    this.store.setBounds(slot, bounds);
    this.frames.markDirty(slot);
  }

  /**
   * Moves many proxies at once: `handles[i]` gets the bounds at `bounds[i · 2D ... i · 2D + 2D)`.
   * Validates everything before changing anything. (Writing into `bounds` saves this copy.)
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    this.usable('moveMany');
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    const box = this.store.bounds;
    const frames = this.frames;
    const flag = frames.listed;
    const dirty = frames.dirty;
    let dirtyCount = frames.dirtyCount;
    for (let i = 0; i < n; i++) {
      const slot = handles[i] & SLOT_MASK;
      const o = slot * s;
      const from = i * s;
      // Written out (4 or 6 numbers): twice as fast as a loop over the stride.
      box[o] = bounds[from];
      box[o + 1] = bounds[from + 1];
      box[o + 2] = bounds[from + 2];
      box[o + 3] = bounds[from + 3];
      if (s === 6) {
        box[o + 4] = bounds[from + 4];
        box[o + 5] = bounds[from + 5];
      }
      if (flag[slot] === 0) {
        flag[slot] = 1;
        dirty[dirtyCount++] = slot;
      }
    }
    frames.dirtyCount = dirtyCount;
  }

  /**
   * Removes a proxy; its handle becomes stale (using it throws, even after the slot is reused). Its
   * pairs end at the next update. Throws for a stale or unknown handle.
   */
  remove(handle: number): void {
    this.usable('remove');
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    this.frames.markDirty(slot);
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
    if (this.pool && isBrowserMainThread()) {
      throw new Error(
        "ParallelSweepAndPrune.update: a browser's main thread cannot block; use `await updateAsync()`",
      );
    }
    const frames = this.frames;
    const regions = this.regionCount;
    const classify = this.prepare();
    if (this.pool) {
      // All three phases in one hand-off; the threads meet at barriers of their own.
      this.runAll(CMD_STEP);
      frames.throwIfBad();
    } else {
      if (classify) {
        this.runAll(CMD_CLASSIFY);
        frames.throwIfBad();
      }
      this.runAll(CMD_FRAME);
    }
    if (frames.growOutputs() > 0) {
      this.sendBuffers();
      for (let r = 0; r < regions; r++) if (frames.resend[r] === 1) this.runOne(CMD_RESEND, r);
      this.runAll(CMD_MERGE);
    } else if (!this.pool) this.runAll(CMD_MERGE);
    while (frames.growMerged() > 0) {
      this.sendBuffers();
      for (let w = 0; w < regions; w++) if (frames.remerge[w] === 1) this.runOne(CMD_MERGE, w);
    }
    frames.finish();
  }

  /** {@link update} without blocking the calling thread; the broadphase must not be changed meanwhile. */
  async updateAsync(): Promise<void> {
    this.usable('updateAsync');
    const pool = this.pool;
    if (!pool) {
      this.update();
      return;
    }
    const frames = this.frames;
    const classify = this.prepare();
    this.inFlight = true;
    try {
      const regions = this.regionCount;
      if (this.callerRegion) {
        // This thread's region cannot wait at the workers' barriers here: one hand-off per phase, its
        // share run between them.
        if (classify) {
          await this.runAllAsync(CMD_CLASSIFY);
          frames.throwIfBad();
        }
        await this.runAllAsync(CMD_FRAME);
      } else {
        await this.runAllAsync(CMD_STEP);
        frames.throwIfBad();
      }
      const grown = frames.growOutputs() > 0;
      if (grown) {
        this.sendBuffers();
        for (let r = 0; r < regions; r++) if (frames.resend[r] === 1) await this.runOneAsync(CMD_RESEND, r);
      }
      if (grown || this.callerRegion) await this.runAllAsync(CMD_MERGE);
      while (frames.growMerged() > 0) {
        this.sendBuffers();
        for (let w = 0; w < regions; w++) if (frames.remerge[w] === 1) await this.runOneAsync(CMD_MERGE, w);
      }
    } finally {
      this.inFlight = false;
    }
    frames.finish();
  }

  /**
   * Every live handle whose box overlaps `bounds` (inclusive), as of the latest insert / move / remove (no
   * update needed; answered on the calling thread by a scan of the proxy store, not by the workers).
   * Handles go to the callback, or are pushed onto / written into `out` (a typed array receives at most
   * its length). Returns how many were found; the order is unspecified.
   */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    this.usable('queryBounds');
    return this.store.scanQuery(bounds, out);
  }

  /** How many proxies are live. */
  override get count(): number {
    this.usable('count', true);
    return this.store.count;
  }

  /** Pairs in `pairs()`. */
  override get pairCount(): number {
    this.usable('pairCount', true);
    return this.frames.lists.count;
  }

  /** Pairs in `began()`. */
  override get beganCount(): number {
    this.usable('beganCount', true);
    return this.frames.lists.beganCount;
  }

  /** Pairs in `ended()`. */
  override get endedCount(): number {
    this.usable('endedCount', true);
    return this.frames.lists.endedCount;
  }

  /** Every overlapping pair as of the last update (a view into a reused buffer). */
  override pairs(): Int32Array {
    this.usable('pairs');
    return this.frames.lists.pairs();
  }

  /** The pairs that started overlapping at the last update. */
  override began(): Int32Array {
    this.usable('began');
    return this.frames.lists.began();
  }

  /** The pairs that stopped overlapping at the last update (removed proxies' too). */
  override ended(): Int32Array {
    this.usable('ended');
    return this.frames.lists.ended();
  }

  /** The buffers behind `pairs()`, `began()` and `ended()` (see the `Broadphase` contract). */
  override pairBuffers(): PairBuffers {
    this.usable('pairBuffers');
    return this.frames.lists.buffers();
  }

  /** The tags of the handles in `pairBuffers()`, entry for entry (ended pairs of removed proxies too). */
  override pairTags(): PairBuffers {
    this.usable('pairTags');
    return this.frames.lists.tags(this.store.tags);
  }

  /** The tag a live proxy was inserted with (0 by default). */
  override tagOf(handle: number): number {
    this.usable('tagOf');
    return super.tagOf(handle);
  }

  /** Whether `handle` names a live proxy. */
  override has(handle: number): boolean {
    this.usable('has');
    return super.has(handle);
  }

  /** Copies a live proxy's current bounds into `out` and returns it. */
  override getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    this.usable('getBounds');
    return super.getBounds(handle, out);
  }

  /** Milliseconds each region (worker) spent on the last update, by region. */
  regionTimes(): Float64Array {
    this.usable('regionTimes');
    return this.frames.regionMs();
  }

  /** Boxes each region held after the last update (its own and the ghosts near its borders). */
  regionMembers(): Int32Array {
    this.usable('regionMembers');
    return this.frames.readMembers();
  }

  /**
   * The last update's trace, for benchmarks: the pool's `[started, issued, acknowledged]` times of the
   * hand-off, and each region's `T_STRIDE` timings (shared.ts: its milestones, absolute ms). Zeros
   * in-thread.
   * @internal
   */
  stepTrace(): { pool: Float64Array; regions: Float64Array; stride: number } {
    this.usable('stepTrace');
    return { pool: this.pool?.trace ?? new Float64Array(3), regions: this.frames.timings, stride: T_STRIDE };
  }

  /**
   * Microseconds a thread spins at a barrier of a frame before it sleeps (default: 1000 while the
   * regions' threads leave two cores free, else 20), for benchmarks and tuning; results do not depend on it.
   * @internal
   */
  get barrierSpinUs(): number {
    return this.frames.spinUs;
  }

  /**
   * Sets {@link barrierSpinUs} (whole microseconds, 0 or more).
   * @internal
   */
  set barrierSpinUs(us: number) {
    this.frames.spinUs = Math.max(0, Math.floor(us));
  }

  /**
   * The regions' responsibility bounds, `2 · dimensions` numbers each (min then max; ±Infinity at the
   * rim).
   */
  regionBounds(): Float64Array {
    this.usable('regionBounds');
    return this.frames.regions.slice();
  }

  /**
   * Stops this broadphase's workers (a shared pool passed as `pool` keeps running and forgets this
   * broadphase's regions). Afterwards every method throws; calling `dispose()` again does nothing.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.pool) return;
    if (this.ownPool) this.pool.dispose();
    else {
      for (let r = this.firstOnWorkers; r < this.regionCount; r++) {
        this.pool.post(r - this.firstOnWorkers, { type: 'detach', id: this.id });
      }
    }
  }

  // --- internals ----------------------------------------------------------------------------------

  /** Throws after dispose() (and, unless `anytime`, while an updateAsync is in flight). */
  private usable(where: string, anytime = false): void {
    if (this.disposed) throw new Error(`ParallelSweepAndPrune.${where}: used after dispose()`);
    if (this.inFlight && !anytime) {
      throw new Error(`ParallelSweepAndPrune.${where}: an updateAsync() is still running; await it first`);
    }
  }

  /** Runs a command for every region (on the workers, and this thread's regions alongside), blocking. */
  private runAll(cmd: number): void {
    const pool = this.pool;
    if (!pool) {
      for (const runner of this.runners) runPhase(runner, cmd);
      return;
    }
    const workers = this.regionCount - this.firstOnWorkers;
    if (!this.callerRegion) {
      pool.run(cmd, this.id, workers, 0, undefined, this.blame);
      return;
    }
    this.phase = cmd;
    pool.run(cmd, this.id, workers, 0, undefined, this.blame, this.ownShare);
  }

  /** Runs a command for region `r` alone (on this thread when it runs the region), blocking. */
  private runOne(cmd: number, r: number): void {
    if (!this.pool || r < this.firstOnWorkers) runPhase(this.runners[r], cmd);
    else this.pool.run(cmd, this.id, 1, r - this.firstOnWorkers);
  }

  /** {@link runAll} for `updateAsync` (never a `STEP` with a region on this thread). */
  private async runAllAsync(cmd: number): Promise<void> {
    const pool = this.pool!;
    const workers = this.regionCount - this.firstOnWorkers;
    this.phase = cmd;
    await pool.runAsync(cmd, this.id, workers, 0, this.blame, this.callerRegion ? this.ownShare : undefined);
  }

  /** {@link runOne} for `updateAsync`. */
  private async runOneAsync(cmd: number, r: number): Promise<void> {
    if (r < this.firstOnWorkers) runPhase(this.runners[r], cmd);
    else await this.pool!.runAsync(cmd, this.id, 1, r - this.firstOnWorkers);
  }

  /** Fills the frame header and hands replaced buffers to the regions; whether to classify first. */
  private prepare(): boolean {
    const classify = this.frames.prepare();
    this.frames.header[H_ABORT] = 0;
    if (this.frames.buffersChanged) this.sendBuffers();
    return classify;
  }

  /** Hands every region the current buffer set (after one of them was replaced). */
  private sendBuffers(): void {
    this.frames.buffersChanged = false;
    for (let r = 0; r < this.regionCount; r++) {
      const buffers = this.frames.buffersOf(r);
      if (!this.pool || r < this.firstOnWorkers) this.runners[r].setBuffers(buffers);
      else this.pool.post(r - this.firstOnWorkers, { type: 'buffers', id: this.id, buffers });
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
    const buffer = makeBuffer(array.byteLength, this.shared);
    const copy = new (array.constructor as new (b: ArrayBufferLike) => T)(buffer);
    copy.set(array);
    return copy;
  }

  protected grow(capacity: number): void {
    this.shareStore();
    this.frames.grow(capacity);
  }
}

/** Runs one phase of a frame (a pool command) for a region on this thread. */
function runPhase(runner: RegionRunner, cmd: number): void {
  if (cmd === CMD_STEP) runner.step();
  else if (cmd === CMD_CLASSIFY) runner.classify();
  else if (cmd === CMD_FRAME) runner.frame();
  else if (cmd === CMD_MERGE) runner.merge();
  else if (cmd === CMD_RESEND) runner.writeOutput();
}

/** Whether this code runs on a browser page's main thread (where `Atomics.wait` is not allowed). */
function isBrowserMainThread(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window === 'object' && typeof g.document === 'object';
}
