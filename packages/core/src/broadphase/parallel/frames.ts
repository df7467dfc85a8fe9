/**
 * The frame bookkeeping of one region-parallel broadphase on the host: its shared buffers (shared.ts),
 * the list of slots changed since the last update (changedSlots.ts), the region layout decisions
 * (layout.ts: cut when there are enough boxes, re-cut when the balance drifts), the frame header and the
 * merge's key splits, the growth of the regions' and merge ranges' output buffers, and the close of an
 * update (the merged ranges concatenated into the pair lists, pairLists.ts). Everything here is
 * O(regions) per update, or O(changed slots) for the slots listed through `insert` / `move`; nothing is
 * per box or per pair but the final copies.
 *
 * Where the regions run on threads at once, equal counts need not finish at once: one thread may get
 * less of its core than another (the calling thread, or a core shared with the rest of the system, for
 * stretches of many frames), and the frame waits for the slowest region. So each region's time per box
 * is followed (a moving average), and when the layout's predicted finish times stay far apart (see
 * ADAPT_AT) the cuts move — across the same axes, so only the boxes near a cut change region — to give
 * each region boxes in proportion to its speed. This moves work only: which region reports a pair
 * never changes what is reported.
 */
import { type ProxyStore, throwBadWrittenBox } from '../proxies.js';
import { ChangedSlots } from './changedSlots.js';
import { imbalance, RegionLayout } from './layout.js';
import { MAX_MASKED_REGIONS, type ResolvedParallelOptions } from './options.js';
import { MergedPairs } from './pairLists.js';
import { hardwareThreads } from './pool.js';
import {
  H_ALL_MOVED,
  H_CHANGES,
  H_CHECK,
  H_CHUNK_NEXT,
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_PAIRS,
  H_REGION_BAD,
  H_REGION_MEMBERS,
  H_REGION_PROGRESS,
  H_SPIN_US,
  H_TAKE_ALL,
  H_TRACE,
  H_USED,
  H_WALK,
  HEADER_WORDS,
  headerWords,
  type InstanceBuffers,
  M_BEGAN,
  M_DATA,
  M_ENDED,
  M_PAIRS,
  MERGE_INITIAL_WORDS,
  makeBuffer,
  OUT_BEGAN,
  OUT_ENDED,
  OUT_INITIAL_WORDS,
  OUT_PAIRS,
  REGION_STAT_WORDS,
  splitsAt,
  T_REGION_MS,
  T_STRIDE,
} from './shared.js';

/** Regions from which a frame classifies the changed boxes once, in parallel, before the regions run. */
const MASKED_MIN_REGIONS = 4;
/** Changed slots below which one phase is cheaper than the extra hand-off of a second. */
const MASKED_MIN_SLOTS = 4096;

/**
 * Microseconds a thread spins at a barrier while two cores are left over: longer than a late worker's
 * start (0.2 ms measured with 14 threads on 16 cores), so that no waiting core goes idle — a virtual
 * machine's idle core is halted, and waking one again cost ~3 ms a frame there (14 threads, 20 µs of
 * spinning: 6.8 ms a frame at 100 000 boxes; 300 µs: 4.9 ms).
 */
const SPIN_US = 1000;

/*
 * The speeds of two threads on a shared machine drift apart by ±10–17 % for stretches of tens to hundreds
 * of frames (traced on 2 cores), then back. Cuts that chased every such stretch (8 % apart, every 24
 * updates) lagged behind it and lost ~3 % a frame on a quiet machine; these settings move them only for
 * a large, lasting difference (neutral when quiet: 0.985–1.024 against no moves, 4 runs).
 */
/** Weight of the last frame in a region's moving average of its time per box. */
const RATE_SMOOTHING = 0.05;
/** Predicted slowest-region time over the mean from which the cuts move to the regions' speeds. */
const ADAPT_AT = 1.15;
/** Updates at least between two moves of the cuts for speed (a move costs about one layout). */
const ADAPT_INTERVAL = 48;
/** Milliseconds the slowest region must take for its time to say more than the clock's noise. */
const ADAPT_MIN_MS = 1;
/** How far a region's weight may go from the mean: a speed measured wrong cannot starve a region. */
const WEIGHT_RANGE = 1.25;

/** The host's side of a region-parallel broadphase's frames. */
export class Frames {
  /** The pair lists of the last update. */
  readonly lists: MergedPairs;
  /** Frame header, per-region statistics and merge splits (shared). */
  readonly header: Int32Array;
  /** Each region's timings and trace of its last frame, `T_STRIDE` numbers a region (shared). */
  readonly timings: Float64Array;
  /** Milliseconds of each region's last frame (read out of `timings` by {@link regionMs}). */
  private readonly ms: Float64Array;
  /** Microseconds a thread spins at a barrier before it sleeps (see H_SPIN_US). */
  spinUs: number;
  /** Whether the regions write their milestones (see H_TRACE; for benchmarks). */
  tracing = false;
  /** Responsibility bounds of every region (shared). */
  readonly regions: Float64Array;
  /** The slots changed since the last update, and what the next update must take besides. */
  readonly changed: ChangedSlots;
  /** Whether a buffer was replaced since the workers last got the set. */
  buffersChanged = false;
  /** 1 for a region whose output buffer grew and must be written again. */
  readonly resend: Uint8Array;
  /** 1 for a merge range whose output buffer grew and must be merged again. */
  readonly remerge: Uint8Array;
  private masks: Uint32Array;
  private changes: Int32Array;
  /**
   * Whether every live box's mask bits are the regions it is a member of (see H_WALK): true after a
   * completed two-phase frame that classified every live box, or every box that changed since such a
   * frame; false after a one-phase frame (which writes no masks), a failed check, or a new mask array.
   */
  private masksExact = false;
  /** This frame's classify phase looks at every live box (H_TAKE_ALL). */
  private takeAll = false;
  private readonly outs: Int32Array[] = [];
  private readonly merged: Int32Array[] = [];
  private readonly layout: RegionLayout;
  private readonly members: Int32Array;
  private layoutSplit = false;
  private updatesSinceLayout = 0;
  private layoutPending = false;
  /** Imbalance measured right after the last layout (what the layout could do). */
  private baseline = 1;
  /** Each region's moving average of milliseconds per member (0: none yet). */
  private readonly rates: Float64Array;
  /** Whether the cuts move to the regions' speeds (the regions run on threads at once). */
  private readonly adaptive: boolean;
  /** The next layout keeps the cut axes and takes the weights from the regions' speeds. */
  private adaptPending = false;

  constructor(
    private readonly store: ProxyStore,
    private readonly options: ResolvedParallelOptions,
    private readonly shared: boolean,
  ) {
    const regions = options.regions;
    const capacity = store.capacity;
    this.changed = new ChangedSlots(store, shared);
    this.masks = new Uint32Array(makeBuffer(4 * capacity, shared));
    this.changes = new Int32Array(makeBuffer(8 * capacity, shared));
    this.header = new Int32Array(makeBuffer(4 * headerWords(regions), shared));
    this.timings = new Float64Array(makeBuffer(8 * T_STRIDE * regions, shared));
    this.ms = new Float64Array(regions);
    // Spinning pays while the threads that run regions (the host's included) leave two cores to the
    // rest of the system. With (nearly) every core taken, something else still needs one now and then
    // and takes it from a region's thread: then spinners only hold the cores that thread waits for (on
    // 16 cores, 16 threads spinning 2 ms: 9.6 ms a frame, 20 µs: 7.4 ms; 15 threads spinning 1 ms:
    // 8.9 ms; 14 threads spinning: 4.9–6.1 ms).
    this.spinUs = hardwareThreads() > regions + 1 ? SPIN_US : 20;
    this.regions = new Float64Array(makeBuffer(8 * 2 * store.dimensions * regions, shared));
    this.members = new Int32Array(regions);
    this.rates = new Float64Array(regions);
    this.adaptive = shared && regions > 1;
    this.resend = new Uint8Array(regions);
    this.remerge = new Uint8Array(regions);
    this.lists = new MergedPairs(shared);
    this.layout = new RegionLayout(store.dimensions, regions);
    this.layout.single(this.regions);
    for (let r = 0; r < regions; r++) {
      this.outs.push(new Int32Array(makeBuffer(4 * OUT_INITIAL_WORDS, shared)));
      this.merged.push(new Int32Array(makeBuffer(4 * MERGE_INITIAL_WORDS, shared)));
    }
  }

  /** The buffer set region (and merge range) `r` works on. */
  buffersOf(r: number): InstanceBuffers {
    const store = this.store;
    return {
      bounds: store.bounds.buffer,
      alive: store.alive.buffer,
      statics: store.statics.buffer,
      listed: this.changed.listed.buffer,
      handles: store.handles.buffer,
      dirty: this.changed.dirty.buffer,
      header: this.header.buffer,
      timings: this.timings.buffer,
      regions: this.regions.buffer,
      outs: this.outs.map((o) => o.buffer),
      merged: this.merged[r].buffer,
      pairs: this.lists.sortedBuffer.buffer,
      masks: this.masks.buffer,
      changes: this.changes.buffer,
    };
  }

  /**
   * Decides the layout and fills the frame header (and the merge's key splits); returns whether the
   * frame starts with the classify phase. The caller hands the buffers out when `buffersChanged`.
   */
  prepare(): boolean {
    const changed = this.changed;
    changed.beforeFrame();
    const h = this.header;
    const o = this.options;
    const regions = o.regions;
    const store = this.store;
    const enough = store.count >= o.minBoxesPerRegion * regions && regions > 1;
    let relayout = false;
    if (enough && !this.layoutSplit) relayout = true;
    else if (enough && this.layoutPending && this.updatesSinceLayout >= o.layoutInterval) relayout = true;
    else if (enough && this.adaptPending) relayout = true;
    else if (!enough && this.layoutSplit) {
      this.layout.single(this.regions);
      this.layoutSplit = false;
      h[H_FULL] = 1;
    }
    if (relayout) {
      // A move for speed keeps the axes (a new axis would move half the boxes); a re-cut for balance
      // chooses them again.
      const keepAxes = this.layoutSplit && this.adaptPending && !this.layoutPending;
      this.layout.compute(store.bounds, store.alive, store.used, this.regions, keepAxes);
      this.layoutSplit = true;
      this.layoutPending = false;
      this.adaptPending = false;
      this.updatesSinceLayout = 0;
      h[H_FULL] = 1;
    }
    this.updatesSinceLayout++;
    const full = h[H_FULL] === 1;
    h[H_DIRTY] = changed.count;
    h[H_USED] = store.used;
    h[H_ALL_MOVED] = changed.allMoved ? 1 : 0;
    h[H_CHECK] = changed.unchecked || (full && changed.everUnchecked) ? 1 : 0;
    h[H_PAIRS] = this.lists.count;
    h[H_SPIN_US] = this.spinUs;
    h[H_TRACE] = this.tracing ? 1 : 0;
    for (let r = 0; r < regions; r++) {
      h[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_BAD] = -1;
      h[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_PROGRESS] = 0;
    }
    // Two phases pay when many regions would each read every changed box (see H_MASKED), and whenever
    // the boxes are read in a first phase anyway, to check them: the bits then cost a test or two.
    const every = full || changed.allMoved;
    const listedSlots = every ? store.used : changed.count;
    const masked =
      this.layoutSplit &&
      regions <= MAX_MASKED_REGIONS &&
      o.twoPhase !== 'never' &&
      (o.twoPhase === 'always' ||
        h[H_CHECK] === 1 ||
        (regions >= MASKED_MIN_REGIONS && listedSlots >= MASKED_MIN_SLOTS));
    h[H_MASKED] = masked ? 1 : 0;
    // A whole-list frame walks the regions' members when the masks are exact, and else brings them back
    // in step by classifying every live box.
    h[H_WALK] = masked && every && this.masksExact ? 1 : 0;
    this.takeAll = masked && (full || (every && !this.masksExact));
    h[H_TAKE_ALL] = this.takeAll ? 1 : 0;
    h[H_CHUNK_NEXT] = 0;
    h[H_CHANGES] = 0;
    this.chooseSplits();
    return masked || h[H_CHECK] === 1;
  }

  /**
   * After a classify phase: throws a RangeError naming the first proxy whose box, written straight
   * into shared memory, is not finite with min ≤ max (nothing has changed yet).
   */
  throwIfBad(): void {
    const h = this.header;
    let first = -1;
    for (let r = 0; r < this.options.regions; r++) {
      const bad = h[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_BAD];
      if (bad >= 0 && (first < 0 || bad < first)) first = bad;
    }
    if (first < 0) return;
    // The masks were written (those of a bad box's chunk too), but no region acted on them.
    this.masksExact = false;
    const store = this.store;
    const slot = h[H_FULL] === 1 || h[H_ALL_MOVED] === 1 ? first : this.changed.dirty[first];
    throwBadWrittenBox(store, slot, 'ParallelSweepAndPrune.update');
  }

  /**
   * Grows every region output too small for its region's last frame (marked in `resend`) and returns
   * how many grew (`buffersChanged` then says the workers need the new set).
   */
  growOutputs(): number {
    let grown = 0;
    for (let r = 0; r < this.options.regions; r++) {
      const out = this.outs[r];
      const need = OUT_PAIRS + 2 * (out[OUT_BEGAN] + out[OUT_ENDED]);
      this.resend[r] = need > out.length ? 1 : 0;
      if (need <= out.length) continue;
      this.outs[r] = new Int32Array(makeBuffer(4 * Math.max(need, 2 * out.length), this.shared));
      grown++;
    }
    if (grown > 0) this.buffersChanged = true;
    return grown;
  }

  /** As {@link growOutputs}, for the merge outputs (marked in `remerge`). */
  growMerged(): number {
    let grown = 0;
    for (let w = 0; w < this.options.regions; w++) {
      const m = this.merged[w];
      const need = M_DATA + 2 * (m[M_PAIRS] + m[M_BEGAN] + m[M_ENDED]);
      this.remerge[w] = need > m.length ? 1 : 0;
      if (need <= m.length) continue;
      this.merged[w] = new Int32Array(makeBuffer(4 * Math.max(need, 2 * m.length), this.shared));
      grown++;
    }
    if (grown > 0) this.buffersChanged = true;
    return grown;
  }

  /** The region whose worker got least far in the current `STEP` (the first of them). */
  laggard(): number {
    let worst = 0;
    let least = Number.POSITIVE_INFINITY;
    for (let r = 0; r < this.options.regions; r++) {
      const progress = Atomics.load(this.header, HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_PROGRESS);
      if (progress < least) {
        least = progress;
        worst = r;
      }
    }
    return worst;
  }

  /** Milliseconds each region spent on its last frame. */
  regionMs(): Float64Array {
    for (let r = 0; r < this.options.regions; r++) this.ms[r] = this.timings[r * T_STRIDE + T_REGION_MS];
    return this.ms;
  }

  /** Boxes each region held after the last update. */
  readMembers(): Int32Array {
    for (let r = 0; r < this.options.regions; r++) {
      this.members[r] = this.header[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_MEMBERS];
    }
    return this.members;
  }

  /** Concatenates the merged ranges, recycles the removed slots, clears the lists and checks the balance. */
  finish(): void {
    const store = this.store;
    if (this.lists.assemble(this.merged, store.tagged ? store.tags : undefined)) this.buffersChanged = true;
    store.recycle();
    this.changed.clear();
    const h = this.header;
    this.masksExact = h[H_MASKED] === 1 && (this.masksExact || this.takeAll);
    const full = h[H_FULL] === 1;
    h[H_FULL] = 0;
    if (this.layoutSplit) {
      // Re-cut only when the balance got worse than the last layout made it (no thrashing on scenes
      // a cut cannot balance, such as many boxes at one point).
      const members = this.readMembers();
      const now = imbalance(members, this.layout.weights);
      if (this.updatesSinceLayout === 1) this.baseline = now;
      else if (now > this.options.rebalanceAt && now > 1.1 * this.baseline) this.layoutPending = true;
      // A re-cut frame, and the one after it (which gathers the new members), are slow for their own
      // reasons: they say nothing of the threads' speeds.
      if (this.adaptive && !full && this.updatesSinceLayout > 2) this.followSpeeds(members);
    }
    if (this.options.validate) this.lists.check();
  }

  /**
   * Folds the last frame's time per member of each region into its moving average, and asks for the
   * cuts to move (see the header) when the current members at those speeds would finish far apart.
   */
  private followSpeeds(members: Int32Array): void {
    const regions = this.options.regions;
    const rates = this.rates;
    const ms = this.regionMs();
    let slowest = 0;
    for (let r = 0; r < regions; r++) {
      if (members[r] === 0 || !(ms[r] > 0)) return;
      if (ms[r] > slowest) slowest = ms[r];
    }
    for (let r = 0; r < regions; r++) {
      const rate = ms[r] / members[r];
      rates[r] = rates[r] === 0 ? rate : rates[r] + RATE_SMOOTHING * (rate - rates[r]);
    }
    if (slowest < ADAPT_MIN_MS || this.updatesSinceLayout < ADAPT_INTERVAL || this.layoutPending) return;
    // Predicted finish times of the current members.
    let sum = 0;
    let max = 0;
    for (let r = 0; r < regions; r++) {
      const t = members[r] * rates[r];
      sum += t;
      if (t > max) max = t;
    }
    if (max * regions <= ADAPT_AT * sum) return;
    // Boxes in proportion to speed, within WEIGHT_RANGE of the mean.
    const weights = this.layout.weights;
    let speeds = 0;
    for (let r = 0; r < regions; r++) speeds += 1 / rates[r];
    for (let r = 0; r < regions; r++) {
      const w = regions / rates[r] / speeds;
      weights[r] = Math.min(WEIGHT_RANGE, Math.max(1 / WEIGHT_RANGE, w));
    }
    this.adaptPending = true;
  }

  /** Grows the per-slot arrays to `capacity` slots (after the proxy store grew). */
  grow(capacity: number): void {
    this.changed.grow(capacity);
    this.masks = new Uint32Array(makeBuffer(4 * capacity, this.shared));
    this.changes = new Int32Array(makeBuffer(8 * capacity, this.shared));
    this.masksExact = false;
    this.buffersChanged = true;
  }

  /**
   * Cuts the pair keys (lower handles) into one range per worker for the merge phase: at quantiles of
   * the last frame's pair list, or — before there are enough pairs — evenly over the handles in use.
   */
  private chooseSplits(): void {
    const h = this.header;
    const regions = this.options.regions;
    const at = splitsAt(regions);
    const n = this.lists.count;
    const sorted = this.lists.sortedBuffer;
    h[at] = 0;
    h[at + regions] = 0x7fffffff;
    for (let w = 1; w < regions; w++) {
      h[at + w] =
        n >= 4 * regions
          ? sorted[2 * Math.floor((w * n) / regions)]
          : Math.floor((w * this.store.used) / regions);
    }
  }
}
