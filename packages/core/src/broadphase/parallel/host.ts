/**
 * ParallelSweepAndPrune: the region-parallel sweep and prune of the sweep-and-prune notes, §2, under
 * Sieve's broadphase contract — space split into regions, each region's sequential sweep and prune
 * run on its own worker thread, its pairs merged into one pair list identical (same pairs, began and
 * ended, same order) to the sequential SweepAndPrune's for any number of workers.
 *
 * The host thread keeps what the contract promises: generational handles and validation (the same
 * proxy store as every Sieve broadphase, so the same operations give the same handles as
 * SweepAndPrune), the latest bounds and live flags (in shared memory: the store's arrays are
 * `SharedArrayBuffer` views, so `insert` / `move` write straight where the workers read), the list of
 * slots changed since the last update, and the region layout (layout.ts: load balanced by counts,
 * re-cut when one region holds too many boxes). `update()` hands the frame to every region
 * (region.ts) and merges their began/ended pairs into a reference-counted pair set (Bullet's hashed
 * pair cache, as SweepAndPrune's own regions do), which sorts them by handle.
 *
 * Without shared memory (a page that is not cross-origin isolated) or worker threads, the regions run
 * one after the other on the calling thread — same results — and the broadphase says so once.
 */
import { growArray } from '../../growArray.js';
import { PairedBroadphase } from '../pairedBroadphase.js';
import { checkBounds, checkOptions, SLOT_MASK } from '../proxies.js';
import type { BroadphaseOptions, QueryCallback } from '../types.js';
import { imbalance, RegionLayout } from './layout.js';
import { hardwareThreads, WorkerPool, workersUnavailable } from './pool.js';
import { RegionRunner } from './region.js';
import {
  CMD_CLASSIFY,
  CMD_FRAME,
  CMD_RESEND,
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_REGION_MEMBERS,
  H_USED,
  HEADER_WORDS,
  headerWords,
  type InstanceBuffers,
  makeBuffer,
  OUT_BEGAN,
  OUT_ENDED,
  OUT_INITIAL_WORDS,
  OUT_PAIRS,
  REGION_STAT_WORDS,
  sharedMemoryAvailable,
} from './shared.js';

/** Options of {@link ParallelSweepAndPrune}. */
export interface ParallelSweepAndPruneOptions extends BroadphaseOptions {
  /**
   * Regions, one per worker thread. Default: the pool's size, or the hardware's threads (at most 8).
   */
  workers?: number;
  /** Workers to run on (shared with other broadphases; `dispose()` leaves it running). */
  pool?: WorkerPool;
  /** Where the worker script is, when this broadphase starts its own pool (see {@link WorkerPoolOptions}). */
  workerUrl?: string | URL;
  /** Longest wait for a worker (ms) before `update()` throws. Default 20 000. */
  timeoutMs?: number;
  /** Run the regions on the calling thread even where workers are possible. Default false. */
  inThread?: boolean;
  /** Re-cut the regions when the fullest holds this many times the mean. Default 1.25. */
  rebalanceAt?: number;
  /** At least this many updates between two layouts. Default 8. */
  layoutInterval?: number;
  /** Below this many boxes per region, region 0 holds everything. Default 1 024. */
  minBoxesPerRegion?: number;
  /**
   * How a frame finds each region's boxes. `'auto'` (default): from 4 regions and 4 096 changed boxes,
   * in two phases — every worker first sorts its share of the changed boxes into regions, then each
   * region reads only its own (each box's bounds read once, not once per region) — else in one, each
   * region testing every changed box. `'always'` / `'never'` force it (two phases need 2 to 32
   * regions). The results are the same either way.
   */
  twoPhase?: 'auto' | 'always' | 'never';
}

/** How the regions run: on worker threads, or one after the other on the calling thread. */
export type ParallelMode = 'workers' | 'in-thread';

let warnedFallback = false;

/** Regions from which a frame classifies the changed boxes once, in parallel, before the regions run. */
const MASKED_MIN_REGIONS = 4;
/** Changed slots below which one phase is cheaper than the extra hand-off of a second. */
const MASKED_MIN_SLOTS = 4096;

/**
 * Region-parallel sweep and prune on worker threads. Implements the `Broadphase` contract of
 * {@link @sieve/core!Broadphase | @sieve/core}: the same handles, pairs, began/ended lists and order as
 * the sequential `SweepAndPrune` for the same operations, whatever the number of workers.
 *
 * Every method throws an `Error` naming itself when called after {@link ParallelSweepAndPrune.dispose}
 * or while an {@link ParallelSweepAndPrune.updateAsync} is in flight.
 */
export class ParallelSweepAndPrune extends PairedBroadphase {
  /** `'workers'`, or `'in-thread'` where shared memory or threads are missing (or `inThread` was set). */
  readonly mode: ParallelMode;
  /** Why the regions run on the calling thread (null when they run on workers or `inThread` was asked). */
  readonly fallbackReason: string | null;
  /** Number of regions (one per worker). */
  readonly regionCount: number;
  private readonly shared: boolean;
  private readonly pool: WorkerPool | null;
  private readonly ownPool: boolean;
  private readonly id: number;
  private readonly runners: RegionRunner[] = [];
  private readonly layout: RegionLayout;
  private readonly rebalanceAt: number;
  private readonly layoutInterval: number;
  private readonly minBoxesPerRegion: number;
  private readonly twoPhase: 'auto' | 'always' | 'never';
  private readonly validateEachUpdate: boolean;
  private dirty: Int32Array;
  /** Per entry of the frame's slot list, its regions as bits (the two-phase frame, see H_MASKED). */
  private masks: Uint32Array;
  private dirtyFlag: Uint8Array;
  private dirtyCount = 0;
  private readonly header: Int32Array;
  private readonly timings: Float64Array;
  private readonly regions: Float64Array;
  private readonly outs: Int32Array[] = [];
  private buffersChanged = false;
  private layoutSplit = false;
  private updatesSinceLayout = 0;
  private layoutPending = false;
  private inFlight = false;
  private disposed = false;
  private readonly members: Int32Array;
  /** 1 for a region whose output buffer grew and must be written again. */
  private readonly resend = new Uint8Array(256);
  /** 1 for a region whose pair changes of this frame are already in the pair set (cleared by prepare). */
  private readonly merged = new Uint8Array(256);
  /** Merges one region's output as its worker finishes (made once: no closure per frame). */
  private readonly mergeEach = (r: number): void => this.mergeRegion(r);
  /** Imbalance measured right after the last layout (what the layout could do). */
  private baseline = 1;

  constructor(options: ParallelSweepAndPruneOptions) {
    const o = checkOptions(options, 'ParallelSweepAndPrune');
    super(o.dimensions, o.initialCapacity ?? 64, 'ParallelSweepAndPrune');
    const name = 'ParallelSweepAndPrune';
    if (o.workers !== undefined && !(Number.isInteger(o.workers) && o.workers >= 1 && o.workers <= 256)) {
      throw new RangeError(`${name}: workers must be an integer from 1 to 256, got ${String(o.workers)}`);
    }
    if (o.pool && o.workers !== undefined && o.workers !== o.pool.size) {
      throw new RangeError(`${name}: workers is ${o.workers} but the pool has ${o.pool.size}`);
    }
    this.rebalanceAt = o.rebalanceAt ?? 1.25;
    this.layoutInterval = o.layoutInterval ?? 8;
    this.minBoxesPerRegion = o.minBoxesPerRegion ?? 1024;
    if (!(this.rebalanceAt >= 1)) throw new RangeError(`${name}: rebalanceAt must be >= 1`);
    if (!(this.layoutInterval >= 1)) throw new RangeError(`${name}: layoutInterval must be >= 1`);
    if (!(this.minBoxesPerRegion >= 1)) throw new RangeError(`${name}: minBoxesPerRegion must be >= 1`);
    this.twoPhase = o.twoPhase ?? 'auto';
    if (this.twoPhase !== 'auto' && this.twoPhase !== 'always' && this.twoPhase !== 'never') {
      throw new RangeError(
        `${name}: twoPhase must be 'auto', 'always' or 'never', got ${String(o.twoPhase)}`,
      );
    }
    this.validateEachUpdate = o.validate ?? false;
    const regions = o.pool?.size ?? o.workers ?? Math.min(hardwareThreads(), 8);
    this.regionCount = regions;

    let reason: string | null = null;
    if (o.pool) {
      if (o.pool.isDisposed) throw new Error(`${name}: the pool was disposed`);
    } else if (!sharedMemoryAvailable()) {
      reason =
        'SharedArrayBuffer is unavailable (serve the page with Cross-Origin-Opener-Policy: same-origin and ' +
        'Cross-Origin-Embedder-Policy: require-corp to enable it)';
    } else {
      reason = workersUnavailable();
    }
    this.shared = o.pool !== undefined || (reason === null && !o.inThread);
    this.mode = this.shared ? 'workers' : 'in-thread';
    this.fallbackReason = o.inThread && !o.pool ? null : reason;
    if (this.fallbackReason && !warnedFallback) {
      warnedFallback = true;
      console.warn(`@sieve/core/parallel: ${this.fallbackReason}; regions run on the calling thread.`);
    }

    // Shared copies of the store's arrays: insert / move write straight where the regions read.
    this.store.bounds = this.sharedCopy(this.store.bounds) as Float64Array;
    this.store.alive = this.sharedCopy(this.store.alive) as Uint8Array;
    const capacity = this.store.capacity;
    this.dirty = new Int32Array(makeBuffer(4 * capacity, this.shared));
    this.masks = new Uint32Array(makeBuffer(4 * capacity, this.shared));
    this.dirtyFlag = new Uint8Array(capacity);
    this.header = new Int32Array(makeBuffer(4 * headerWords(regions), this.shared));
    this.timings = new Float64Array(makeBuffer(8 * regions, this.shared));
    this.regions = new Float64Array(makeBuffer(8 * 2 * this.dimensions * regions, this.shared));
    this.members = new Int32Array(regions);
    this.layout = new RegionLayout(this.dimensions, regions);
    this.layout.single(this.regions);
    for (let r = 0; r < regions; r++) {
      this.outs.push(new Int32Array(makeBuffer(4 * OUT_INITIAL_WORDS, this.shared)));
    }

    if (this.shared) {
      this.ownPool = o.pool === undefined;
      this.pool =
        o.pool ?? new WorkerPool({ workers: regions, workerUrl: o.workerUrl, timeoutMs: o.timeoutMs });
      this.id = this.pool.newId();
      for (let r = 0; r < regions; r++) {
        this.pool.post(r, {
          type: 'attach',
          id: this.id,
          dimensions: this.dimensions,
          region: r,
          validate: this.validateEachUpdate,
          buffers: this.buffersOf(r),
        });
      }
    } else {
      this.ownPool = false;
      this.pool = null;
      this.id = 0;
      for (let r = 0; r < regions; r++) {
        this.runners.push(new RegionRunner(this.dimensions, r, this.buffersOf(r), this.validateEachUpdate));
      }
    }
  }

  /** Resolves once every worker has started (immediately in-thread). */
  ready(): Promise<void> {
    return this.pool ? this.pool.ready() : Promise.resolve();
  }

  /**
   * Adds a box (`[minX, minY, maxX, maxY]`, or with z: 2·dimensions finite numbers, min ≤ max) and
   * returns its handle; its pairs appear at the next update. `tag` (an int32, default 0) is stored with
   * the proxy and read back with `tagOf` and `pairTags`. Throws a `RangeError`/`TypeError` naming the
   * argument for bad bounds or tag, before anything changes.
   */
  insert(bounds: ArrayLike<number>, tag?: number): number {
    this.usable('insert');
    const slot = this.store.allocate(bounds, tag);
    this.markDirty(slot);
    return this.store.handles[slot];
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
    this.markDirty(slot);
  }

  /**
   * Moves many proxies at once: `handles[i]` gets the bounds at `bounds[i · 2D ... i · 2D + 2D)`.
   * Validates everything before changing anything.
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    this.usable('moveMany');
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    const box = this.store.bounds;
    const flag = this.dirtyFlag;
    const dirty = this.dirty;
    let dirtyCount = this.dirtyCount;
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
    this.dirtyCount = dirtyCount;
  }

  /**
   * Removes a proxy; its handle becomes stale (using it throws, even after the slot is reused). Its
   * pairs end at the next update. Throws for a stale or unknown handle.
   */
  remove(handle: number): void {
    this.usable('remove');
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    this.markDirty(slot);
  }

  /**
   * Brings the pair set up to date, blocking until every region is done (Node, or inside a worker).
   * On a browser's main thread, where blocking is not allowed, use {@link updateAsync}.
   */
  update(): void {
    this.usable('update');
    if (this.pool && isBrowserMainThread()) {
      throw new Error(
        "ParallelSweepAndPrune.update: a browser's main thread cannot block; use `await updateAsync()`",
      );
    }
    const masked = this.prepare();
    if (this.pool) {
      if (masked) this.pool.run(CMD_CLASSIFY, this.id, this.regionCount);
      // Each region's pair changes are merged as soon as it is done, while slower ones still run.
      this.pool.run(CMD_FRAME, this.id, this.regionCount, 0, this.mergeEach);
      const overflow = this.growOutputs();
      if (overflow > 0) this.resendSync();
    } else {
      if (masked) for (const runner of this.runners) runner.classify();
      for (const runner of this.runners) runner.frame();
      this.growOutputs();
    }
    this.finish();
  }

  /** {@link update} without blocking the calling thread; the broadphase must not be changed meanwhile. */
  async updateAsync(): Promise<void> {
    this.usable('updateAsync');
    if (!this.pool) {
      this.update();
      return;
    }
    const masked = this.prepare();
    this.inFlight = true;
    try {
      if (masked) await this.pool.runAsync(CMD_CLASSIFY, this.id, this.regionCount);
      await this.pool.runAsync(CMD_FRAME, this.id, this.regionCount);
      if (this.growOutputs() > 0) {
        for (let r = 0; r < this.regionCount; r++) {
          if (this.resend[r] === 1) await this.pool.runAsync(CMD_RESEND, this.id, 1, r);
        }
      }
    } finally {
      this.inFlight = false;
    }
    this.finish();
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

  /** Milliseconds each region (worker) spent on the last update, by region. */
  regionTimes(): Float64Array {
    return this.timings;
  }

  /** Boxes each region held after the last update (its own and the ghosts near its borders). */
  regionMembers(): Int32Array {
    for (let r = 0; r < this.regionCount; r++) {
      this.members[r] = this.header[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_MEMBERS];
    }
    return this.members;
  }

  /**
   * The regions' responsibility bounds, `2 · dimensions` numbers each (min then max; ±Infinity at the
   * rim).
   */
  regionBounds(): Float64Array {
    return this.regions.slice();
  }

  /**
   * Stops this broadphase's workers (a shared pool passed as `pool` keeps running and forgets this
   * broadphase's regions). The broadphase cannot be used afterwards.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.pool) return;
    if (this.ownPool) this.pool.dispose();
    else for (let r = 0; r < this.regionCount; r++) this.pool.post(r, { type: 'detach', id: this.id });
  }

  // --- internals ----------------------------------------------------------------------------------

  private usable(where: string): void {
    if (this.disposed) throw new Error(`ParallelSweepAndPrune.${where}: used after dispose()`);
    if (this.inFlight) {
      throw new Error(`ParallelSweepAndPrune.${where}: an updateAsync() is still running; await it first`);
    }
  }

  private markDirty(slot: number): void {
    if (this.dirtyFlag[slot] === 0) {
      this.dirtyFlag[slot] = 1;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  private sharedCopy(array: Float64Array | Uint8Array): Float64Array | Uint8Array {
    const buffer = makeBuffer(array.byteLength, this.shared);
    const copy = array instanceof Float64Array ? new Float64Array(buffer) : new Uint8Array(buffer);
    copy.set(array);
    return copy;
  }

  private buffersOf(r: number): InstanceBuffers {
    return {
      bounds: this.store.bounds.buffer,
      alive: this.store.alive.buffer,
      dirty: this.dirty.buffer,
      header: this.header.buffer,
      timings: this.timings.buffer,
      regions: this.regions.buffer,
      out: this.outs[r].buffer,
      masks: this.masks.buffer,
    };
  }

  /**
   * Hands changed buffers to the regions, decides the layout and fills the frame header; returns
   * whether the frame runs in two phases (classify, then the regions).
   */
  private prepare(): boolean {
    this.merged.fill(0, 0, this.regionCount);
    const count = this.store.count;
    const enough = count >= this.minBoxesPerRegion * this.regionCount && this.regionCount > 1;
    let relayout = false;
    if (enough && !this.layoutSplit) relayout = true;
    else if (enough && this.layoutPending && this.updatesSinceLayout >= this.layoutInterval) relayout = true;
    else if (!enough && this.layoutSplit) {
      this.layout.single(this.regions);
      this.layoutSplit = false;
      this.header[H_FULL] = 1;
    }
    if (relayout) {
      this.layout.compute(this.store.bounds, this.store.alive, this.store.used, this.regions);
      this.layoutSplit = true;
      this.layoutPending = false;
      this.updatesSinceLayout = 0;
      this.header[H_FULL] = 1;
    }
    this.updatesSinceLayout++;
    this.header[H_DIRTY] = this.dirtyCount;
    this.header[H_USED] = this.store.used;
    // Two phases pay when many regions would each read every changed box (see H_MASKED).
    const listed = this.header[H_FULL] === 1 ? this.store.used : this.dirtyCount;
    const masked =
      this.layoutSplit &&
      this.regionCount <= 32 &&
      this.twoPhase !== 'never' &&
      (this.twoPhase === 'always' || (this.regionCount >= MASKED_MIN_REGIONS && listed >= MASKED_MIN_SLOTS));
    this.header[H_MASKED] = masked ? 1 : 0;
    if (this.buffersChanged) {
      this.buffersChanged = false;
      for (let r = 0; r < this.regionCount; r++) this.sendBuffers(r);
    }
    return masked;
  }

  private sendBuffers(r: number): void {
    if (this.pool) this.pool.post(r, { type: 'buffers', id: this.id, buffers: this.buffersOf(r) });
    else this.runners[r].setBuffers(this.buffersOf(r));
  }

  /**
   * Grows every output buffer too small for its region's last frame (marked in `resend`) and
   * returns how many grew; in-thread runners rewrite their output at once.
   */
  private growOutputs(): number {
    let grown = 0;
    for (let r = 0; r < this.regionCount; r++) {
      const out = this.outs[r];
      const need = OUT_PAIRS + 2 * (out[OUT_BEGAN] + out[OUT_ENDED]);
      if (need <= out.length) {
        this.resend[r] = 0;
        continue;
      }
      const bigger = new Int32Array(makeBuffer(4 * Math.max(need, 2 * out.length), this.shared));
      this.outs[r] = bigger;
      this.resend[r] = 1;
      this.sendBuffers(r);
      if (!this.pool) this.runners[r].writeOutput();
      grown++;
    }
    return grown;
  }

  private resendSync(): void {
    for (let r = 0; r < this.regionCount; r++) {
      if (this.resend[r] === 1) this.pool!.run(CMD_RESEND, this.id, 1, r);
    }
  }

  /**
   * Adds region r's pair changes of this frame to the pair set, once, if its output buffer held them
   * (else after the buffer grew and the region wrote them again). The pair set's lists do not depend
   * on the order of the regions' changes: each pair's count is a sum, and finalize sorts.
   */
  private mergeRegion(r: number): void {
    if (this.merged[r] === 1) return;
    const out = this.outs[r];
    const nb = out[OUT_BEGAN];
    const ne = out[OUT_ENDED];
    if (OUT_PAIRS + 2 * (nb + ne) > out.length) return;
    const pairs = this.pairSet;
    let i = OUT_PAIRS;
    for (let p = 0; p < nb; p++, i += 2) pairs.increment(out[i], out[i + 1]);
    for (let p = 0; p < ne; p++, i += 2) pairs.decrement(out[i], out[i + 1]);
    this.merged[r] = 1;
  }

  /** Merges the regions' pair changes, closes the update and checks the balance. */
  private finish(): void {
    const pairs = this.pairSet;
    for (let r = 0; r < this.regionCount; r++) {
      this.mergeRegion(r);
      if (this.merged[r] !== 1) throw new Error(`ParallelSweepAndPrune: region ${r}'s output was lost`);
    }
    pairs.finalize(this.store.handles, this.store.tags);
    this.store.recycle();
    const flag = this.dirtyFlag;
    for (let i = 0; i < this.dirtyCount; i++) flag[this.dirty[i]] = 0;
    this.dirtyCount = 0;
    this.header[H_FULL] = 0;
    if (this.layoutSplit) {
      // Re-cut only when the balance got worse than the last layout made it (no thrashing on scenes
      // a cut cannot balance, such as many boxes at one point).
      const now = imbalance(this.regionMembers());
      if (this.updatesSinceLayout === 1) this.baseline = now;
      else if (now > this.rebalanceAt && now > 1.1 * this.baseline) this.layoutPending = true;
    }
    if (this.validateEachUpdate) pairs.check();
  }

  protected grow(capacity: number): void {
    this.store.bounds = this.sharedCopy(this.store.bounds) as Float64Array;
    this.store.alive = this.sharedCopy(this.store.alive) as Uint8Array;
    const dirty = new Int32Array(makeBuffer(4 * capacity, this.shared));
    dirty.set(this.dirty.subarray(0, this.dirtyCount));
    this.dirty = dirty;
    this.masks = new Uint32Array(makeBuffer(4 * capacity, this.shared));
    this.dirtyFlag = growArray(this.dirtyFlag, capacity);
    this.buffersChanged = true;
  }
}

/** Whether this code runs on a browser page's main thread (where `Atomics.wait` is not allowed). */
function isBrowserMainThread(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window === 'object' && typeof g.document === 'object';
}
