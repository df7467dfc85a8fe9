/**
 * FrameRecorder: the data half of the timing overlay. Named phases are timed each frame (`begin(name)` …
 * `end()`, or a measured value with `record`), counters are set with `count`, and `endFrame()` closes the
 * frame into fixed-size ring buffers (one Float32Array per phase, one Float64Array per counter, plus the
 * frame interval, the time outside every top-level phase ("other") and the overlay's own cost), so the
 * last `capacity` frames (300 by default) are kept. A phase or counter that a frame did not touch is
 * stored as NaN — "not measured" — and left out of the statistics, so an engine that does not report a
 * phase shows "—" rather than a misleading 0. Segments (`beginSegment(label, world)`) clear the window
 * when the thing being measured changes (a collision mode, a world's size) and keep the finished
 * segment's medians for a side-by-side comparison — only ever with a segment of the same world.
 *
 * Follows the ring-buffer frame profilers of game engines (the rolling graphs of stats.js and of
 * Unity's and Unreal's frame-time overlays) and data-oriented practice: typed arrays, structure of
 * arrays, no allocation per frame once warm. Phases and counters are registered by name once; after that
 * `begin`/`record`/`count` accept the returned index (no string work at all) or the name (one Map lookup,
 * with a one-entry cache for the common "same literal string again" case). Statistics
 * (min/median/max/mean) are computed only when asked for — the renderer asks at its own throttled rate —
 * with an O(n) selection, not a sort.
 */
import { checkOptionKeys } from './options.js';
import { SegmentBook } from './segments.js';
import { emptyStats, ringStats, type SeriesStats } from './stats.js';
import {
  type ExportedFrame,
  type OverlayExport,
  RECORDER_OPTION_KEYS,
  type RecorderOptions,
  type SegmentSummary,
} from './types.js';

export type { SeriesStats } from './stats.js';
export type { ExportedFrame, OverlayExport, RecorderOptions, SegmentSummary } from './types.js';

const MAX_DEPTH = 32;
/** Parent marker: phase not seen yet / seen at top level. */
const UNSEEN = -2;
const TOP = -1;

const defaultNow: () => number =
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? () => performance.now()
    : () => Date.now();

const nullIfNaN = (v: number): number | null => (!Number.isNaN(v) ? v : null);

/**
 * Records named phase timings and counters per frame into ring buffers. Engine-agnostic and DOM-free;
 * {@link Overlay} adds the canvas renderer on top of it.
 *
 * Hot-path methods (`begin`, `end`, `record`, `count`, `endFrame`) do not allocate once the phases and
 * counters are registered. They validate their arguments cheaply (index range, finite numbers) and throw
 * a `RangeError`/`Error` naming the argument.
 *
 * Phases nest: a phase begun (or recorded) while another is open counts as part of it. The "other" time
 * of a frame is its interval minus the top-level phases (and the overlay's own drawing) — the render
 * outside any phase, the browser, idle time waiting for the next frame.
 *
 * @example
 * ```ts
 * import { FrameRecorder } from '@sieve/overlay';
 *
 * const rec = new FrameRecorder({ phases: ['physics', 'render'], counters: ['bodies'], segment: 'stock' });
 * for (let frame = 0; frame < 120; frame++) {
 *   if (frame === 60) rec.beginSegment('sieve'); // the other mode: its statistics start over
 *   rec.begin('physics');
 *   // ... step the world ...
 *   rec.end();
 *   rec.record('render', 0.4); // a duration measured elsewhere, in ms
 *   rec.count('bodies', 500);
 *   rec.endFrame();
 * }
 * console.log(rec.phaseStats('physics').median, rec.comparison); // this segment's median; stock beside it
 * ```
 */
export class FrameRecorder {
  /** Number of frames kept (ring-buffer length). */
  readonly capacity: number;
  /** Frame budget in ms. */
  readonly budgetMs: number;
  /** The clock, in ms. */
  readonly now: () => number;

  private readonly phaseNameList: string[] = [];
  private readonly phaseMap = new Map<string, number>();
  private readonly phaseRings: Float32Array[] = [];
  private readonly phaseParents: number[] = [];
  private phaseAcc = new Float64Array(8).fill(Number.NaN);

  private readonly counterNameList: string[] = [];
  private readonly counterMap = new Map<string, number>();
  private readonly counterRings: Float64Array[] = [];
  private counterAcc = new Float64Array(8).fill(Number.NaN);

  private readonly frameRing: Float32Array;
  private readonly otherRingData: Float32Array;
  private readonly overlayRing: Float32Array;
  private readonly timeRing: Float64Array;

  private readonly stackPhase = new Int32Array(MAX_DEPTH);
  private readonly stackStart = new Float64Array(MAX_DEPTH);
  private depth = 0;
  /** Time of the current frame's top-level phases, in ms. */
  private topAcc = 0;
  /** The overlay's own cost since the last `endFrame` (it draws after closing a frame), in ms. */
  private pendingOverhead = 0;

  private writeSlot = 0;
  private closed = 0;
  private lastClose = Number.NaN;

  private segmentLabel: string;
  private worldLabel: string;
  private readonly summaries = new SegmentBook();

  // One-entry caches: a literal string passed again is the same string, so `===` hits without hashing.
  private lastPhaseName: string | null = null;
  private lastPhaseIndex = -1;
  private lastCounterName: string | null = null;
  private lastCounterIndex = -1;

  /** Scratch for selection (statistics only; never touched per frame). */
  private readonly scratch: Float64Array;
  private readonly scratchStats: SeriesStats = emptyStats();

  /**
   * Allocates the rings (`capacity` frames) and registers `options.phases` and `options.counters`.
   * Throws a `RangeError` for a `capacity` that is not an integer in [2, 2²⁰] or a `budgetMs` that is
   * not a finite positive number, and a `TypeError` for an unknown option key, a `now` that is not a
   * function, a `segment` or `world` that is not a string, `phases` or `counters` that are not arrays,
   * or an empty phase or counter name.
   */
  constructor(options: RecorderOptions = {}) {
    // A subclass (the Overlay) checks its own, larger set of keys.
    if (new.target === FrameRecorder)
      checkOptionKeys('FrameRecorder: options', options, RECORDER_OPTION_KEYS);
    for (const list of ['phases', 'counters'] as const) {
      const names = options[list];
      if (names !== undefined && !Array.isArray(names)) {
        throw new TypeError(`${list} must be an array of names, got ${String(names)}`);
      }
    }
    const capacity = options.capacity ?? 300;
    if (!Number.isInteger(capacity) || capacity < 2 || capacity > 1 << 20)
      throw new RangeError(`capacity must be an integer in [2, 1048576], got ${capacity}`);
    const budgetMs = options.budgetMs ?? 16.7;
    if (!Number.isFinite(budgetMs) || budgetMs <= 0)
      throw new RangeError(`budgetMs must be a finite positive number, got ${budgetMs}`);
    if (options.now !== undefined && typeof options.now !== 'function')
      throw new TypeError('now must be a function returning milliseconds');
    const segment = options.segment ?? '';
    if (typeof segment !== 'string') throw new TypeError(`segment must be a string, got ${String(segment)}`);
    const world = options.world ?? '';
    if (typeof world !== 'string') throw new TypeError(`world must be a string, got ${String(world)}`);
    this.capacity = capacity;
    this.budgetMs = budgetMs;
    this.now = options.now ?? defaultNow;
    this.segmentLabel = segment;
    this.worldLabel = world;
    this.frameRing = new Float32Array(capacity);
    this.otherRingData = new Float32Array(capacity);
    this.overlayRing = new Float32Array(capacity);
    this.timeRing = new Float64Array(capacity);
    this.scratch = new Float64Array(capacity);
    for (const name of options.phases ?? []) this.phase(name);
    for (const name of options.counters ?? []) this.counter(name);
  }

  // ---------------------------------------------------------------- registration

  /**
   * Index of the phase `name`, registering it (at the end of the display order) on first use; pass the
   * index to `begin`/`record` to skip the name lookup. Throws a `TypeError` for an empty or non-string
   * name.
   */
  phase(name: string): number {
    if (name === this.lastPhaseName) return this.lastPhaseIndex;
    let i = this.phaseMap.get(name);
    if (i === undefined) {
      if (typeof name !== 'string' || name.length === 0)
        throw new TypeError(`phase name must be a non-empty string, got ${String(name)}`);
      i = this.phaseNameList.length;
      this.phaseNameList.push(name);
      this.phaseMap.set(name, i);
      this.phaseRings.push(new Float32Array(this.capacity).fill(Number.NaN));
      this.phaseParents.push(UNSEEN);
      if (i >= this.phaseAcc.length) {
        const grown = new Float64Array(this.phaseAcc.length * 2).fill(Number.NaN);
        grown.set(this.phaseAcc);
        this.phaseAcc = grown;
      }
    }
    this.lastPhaseName = name;
    this.lastPhaseIndex = i;
    return i;
  }

  /**
   * Index of the counter `name`, registering it on first use. Throws a `TypeError` for an empty or
   * non-string name.
   */
  counter(name: string): number {
    if (name === this.lastCounterName) return this.lastCounterIndex;
    let i = this.counterMap.get(name);
    if (i === undefined) {
      if (typeof name !== 'string' || name.length === 0)
        throw new TypeError(`counter name must be a non-empty string, got ${String(name)}`);
      i = this.counterNameList.length;
      this.counterNameList.push(name);
      this.counterMap.set(name, i);
      this.counterRings.push(new Float64Array(this.capacity).fill(Number.NaN));
      if (i >= this.counterAcc.length) {
        const grown = new Float64Array(this.counterAcc.length * 2).fill(Number.NaN);
        grown.set(this.counterAcc);
        this.counterAcc = grown;
      }
    }
    this.lastCounterName = name;
    this.lastCounterIndex = i;
    return i;
  }

  /** Registered phase names, in registration (display) order. */
  get phaseNames(): readonly string[] {
    return this.phaseNameList;
  }

  /** Registered counter names, in registration (display) order. */
  get counterNames(): readonly string[] {
    return this.counterNameList;
  }

  /**
   * Index of the phase `phase` was first measured inside (begun or recorded while that one was open), or
   * −1 for a top-level phase and for one not measured yet.
   */
  phaseParent(phase: string | number): number {
    const p = this.phaseParents[this.knownIndex(phase, this.phaseMap, this.phaseNameList.length, 'phase')];
    return p === UNSEEN ? TOP : p;
  }

  // ---------------------------------------------------------------- per-frame recording (hot path)

  private phaseIndexOf(phase: string | number): number {
    if (typeof phase === 'string') return this.phase(phase);
    if (phase >>> 0 !== phase || phase >= this.phaseNameList.length)
      throw new RangeError(`phase index ${phase} out of range [0, ${this.phaseNameList.length})`);
    return phase;
  }

  private counterIndexOf(counter: string | number): number {
    if (typeof counter === 'string') return this.counter(counter);
    if (counter >>> 0 !== counter || counter >= this.counterNameList.length)
      throw new RangeError(`counter index ${counter} out of range [0, ${this.counterNameList.length})`);
    return counter;
  }

  /** Adds `ms` to phase `i` of the current frame (a phase not yet measured this frame holds NaN). */
  private addTo(i: number, ms: number, depth: number): void {
    const a = this.phaseAcc[i];
    this.phaseAcc[i] = !Number.isNaN(a) ? a + ms : ms;
    if (depth === 0) this.topAcc += ms;
    if (this.phaseParents[i] === UNSEEN)
      this.phaseParents[i] = depth === 0 ? TOP : this.stackPhase[depth - 1];
  }

  /**
   * Starts timing `phase` (a name, registered on first use, or an index from
   * {@link FrameRecorder.phase}).
   * Phases nest up to 32 deep; each `end()` closes the innermost open one. A phase begun several times
   * in a frame accumulates. Throws a `RangeError` for an index that is not registered and an `Error`
   * past 32 open phases.
   */
  begin(phase: string | number): void {
    const i = this.phaseIndexOf(phase);
    const d = this.depth;
    if (d >= MAX_DEPTH) throw new Error(`begin(${String(phase)}): phases nested deeper than ${MAX_DEPTH}`);
    this.stackPhase[d] = i;
    this.depth = d + 1;
    // Read the clock last so the bookkeeping above is not charged to the phase.
    this.stackStart[d] = this.now();
  }

  /**
   * Ends the innermost phase opened by {@link begin}; returns its duration in ms. Throws an `Error` when
   * no phase is open.
   */
  end(): number {
    const t = this.now();
    const d = this.depth - 1;
    if (d < 0) throw new Error('end() called without a matching begin()');
    this.depth = d;
    const ms = t - this.stackStart[d];
    this.addTo(this.stackPhase[d], ms, d);
    return ms;
  }

  /**
   * Adds a measured duration `ms` (finite, ≥ 0) to `phase` for the current frame. Recorded while another
   * phase is open, it counts as part of that phase. Throws a `RangeError` for a bad `ms` or an
   * unregistered index.
   */
  record(phase: string | number, ms: number): void {
    const i = this.phaseIndexOf(phase);
    if (!(ms >= 0) || ms === Number.POSITIVE_INFINITY)
      throw new RangeError(`record(${String(phase)}): ms must be finite and >= 0, got ${ms}`);
    this.addTo(i, ms, this.depth);
  }

  /**
   * Sets `counter` to `value` (finite) for the current frame; the last value set in a frame wins. Throws
   * a `RangeError` for a non-finite value or an unregistered index.
   */
  count(counter: string | number, value: number): void {
    const i = this.counterIndexOf(counter);
    if (!Number.isFinite(value))
      throw new RangeError(`count(${String(counter)}): value must be finite, got ${value}`);
    this.counterAcc[i] = value;
  }

  /** Whether a phase is currently open (between `begin` and `end`). */
  get open(): boolean {
    return this.depth > 0;
  }

  /**
   * Closes the current frame: stores every phase's accumulated time (NaN for a phase not measured in this
   * frame), every counter (NaN when not set), the interval since the previous `endFrame` and the time no
   * top-level phase accounts for into the rings, then clears the accumulators. Throws if a phase is open.
   */
  endFrame(): void {
    if (this.depth !== 0)
      throw new Error(
        `endFrame() with ${this.depth} phase(s) still open (innermost: ${this.phaseNameList[this.stackPhase[this.depth - 1]]})`,
      );
    const t = this.now();
    const s = this.writeSlot;
    const nP = this.phaseRings.length;
    const acc = this.phaseAcc;
    for (let i = 0; i < nP; i++) {
      this.phaseRings[i][s] = acc[i];
      acc[i] = Number.NaN;
    }
    const nC = this.counterRings.length;
    const cAcc = this.counterAcc;
    for (let i = 0; i < nC; i++) {
      this.counterRings[i][s] = cAcc[i];
      cAcc[i] = Number.NaN;
    }
    const interval = t - this.lastClose; // NaN for the first frame
    this.frameRing[s] = interval;
    const other = interval - this.topAcc - this.pendingOverhead;
    this.otherRingData[s] = other > 0 ? other : !Number.isNaN(other) ? 0 : Number.NaN;
    this.overlayRing[s] = 0;
    this.timeRing[s] = t;
    this.topAcc = 0;
    this.pendingOverhead = 0;
    this.lastClose = t;
    this.writeSlot = s + 1 === this.capacity ? 0 : s + 1;
    this.closed++;
  }

  /**
   * Adds `ms` to the overlay's own cost of the most recently closed frame (used by the renderer, which
   * draws after closing a frame; the time is left out of the next frame's "other").
   */
  protected addOverhead(ms: number): void {
    if (this.closed === 0) return;
    const s = this.writeSlot === 0 ? this.capacity - 1 : this.writeSlot - 1;
    this.overlayRing[s] += ms;
    this.pendingOverhead += ms;
  }

  /**
   * Forgets every recorded frame (registrations, the segment label and world, and segment summaries are
   * kept).
   * Throws an `Error` while a phase is open.
   */
  reset(): void {
    if (this.depth !== 0) throw new Error('reset() while a phase is open');
    for (const r of this.phaseRings) r.fill(Number.NaN);
    for (const r of this.counterRings) r.fill(Number.NaN);
    this.phaseAcc.fill(Number.NaN);
    this.counterAcc.fill(Number.NaN);
    this.frameRing.fill(0);
    this.otherRingData.fill(0);
    this.overlayRing.fill(0);
    this.timeRing.fill(0);
    this.topAcc = 0;
    this.pendingOverhead = 0;
    this.writeSlot = 0;
    this.closed = 0;
    this.lastClose = Number.NaN;
  }

  // ---------------------------------------------------------------- segments

  /** Label of the current segment (see {@link beginSegment}). */
  get segment(): string {
    return this.segmentLabel;
  }

  /**
   * What the current segment measures: a scene, a world's size (`'2500 bodies'`), set with
   * {@link beginSegment} or the `world` option. Segments are compared only within one world.
   */
  get world(): string {
    return this.worldLabel;
  }

  /**
   * Starts a new segment named `label` — call it when what is measured changes (a collision mode, a
   * world's size) so that statistics never mix the two. Keeps the medians of the window under the
   * current label and world (see {@link segmentSummary}), then clears the window ({@link reset}).
   * `world` says what the new segment measures (default: the same world as the current one); a
   * segment is compared ({@link comparison}) only with an earlier one of the same world, so a new world
   * starts with no comparison until its own segments end — two modes are never compared over different
   * worlds. Allocates; not for every frame. Throws a `TypeError` for a non-string label or world and an
   * `Error` while a phase is open.
   */
  beginSegment(label: string, world: string = this.worldLabel): void {
    if (typeof label !== 'string') throw new TypeError(`label must be a string, got ${String(label)}`);
    if (typeof world !== 'string') throw new TypeError(`world must be a string, got ${String(world)}`);
    if (this.depth !== 0) throw new Error('beginSegment() while a phase is open');
    if (this.size > 0) this.summaries.keep(this.summarize());
    this.reset();
    this.segmentLabel = label;
    this.worldLabel = world;
  }

  /**
   * The medians of the last finished segment labelled `label` in `world` (default: the current world),
   * or `undefined` if none ended yet.
   */
  segmentSummary(label: string, world: string = this.worldLabel): SegmentSummary | undefined {
    return this.summaries.find(label, world);
  }

  /**
   * The summary to compare the current window with: the most recently finished segment of the same
   * world with another label than the current one, or `undefined`.
   */
  get comparison(): SegmentSummary | undefined {
    return this.summaries.comparison(this.segmentLabel, this.worldLabel);
  }

  /** The medians of the current window under the current label (what {@link beginSegment} keeps). */
  summarize(): SegmentSummary {
    const st = this.scratchStats;
    const phases: Record<string, number> = {};
    for (let i = 0; i < this.phaseNameList.length; i++)
      phases[this.phaseNameList[i]] = this.phaseStats(i, st).median;
    const counters: Record<string, number> = {};
    for (let i = 0; i < this.counterNameList.length; i++)
      counters[this.counterNameList[i]] = this.counterStats(i, st).median;
    return {
      label: this.segmentLabel,
      world: this.worldLabel,
      frames: this.size,
      frameMedian: this.frameStats(st).median,
      otherMedian: this.otherStats(st).median,
      phases,
      counters,
    };
  }

  // ---------------------------------------------------------------- reading

  /** Total number of frames closed since creation (or the last {@link reset} / {@link beginSegment}). */
  get frameCount(): number {
    return this.closed;
  }

  /** Clock time at which the last frame was closed (NaN before the first `endFrame`). */
  get lastFrameTime(): number {
    return this.lastClose;
  }

  /** Number of frames currently in the window: `min(frameCount, capacity)`. */
  get size(): number {
    return Math.min(this.closed, this.capacity);
  }

  /** Ring slot of the oldest frame in the window. Frame `k` (0 = oldest) is at `(oldestSlot + k) % capacity`. */
  get oldestSlot(): number {
    return this.closed < this.capacity ? 0 : this.writeSlot;
  }

  /**
   * The raw ring of a phase (length `capacity`, indexed by slot — see {@link oldestSlot}; NaN where a
   * frame did not measure the phase). Read-only view for renderers; do not write to it.
   */
  phaseRing(phase: string | number): Float32Array {
    return this.phaseRings[this.knownIndex(phase, this.phaseMap, this.phaseNameList.length, 'phase')];
  }

  /** The raw ring of a counter (see {@link phaseRing}; NaN where a frame did not set it). */
  counterRing(counter: string | number): Float64Array {
    return this.counterRings[
      this.knownIndex(counter, this.counterMap, this.counterNameList.length, 'counter')
    ];
  }

  /** Index of an already registered phase or counter (reading never registers); throws when unknown. */
  private knownIndex(key: string | number, map: Map<string, number>, n: number, what: string): number {
    if (typeof key === 'string') {
      const i = map.get(key);
      if (i === undefined) throw new RangeError(`unknown ${what} "${key}"`);
      return i;
    }
    if (key >>> 0 !== key || key >= n) throw new RangeError(`${what} index ${key} out of range [0, ${n})`);
    return key;
  }

  /** The raw ring of frame intervals in ms (see {@link phaseRing}; NaN for the very first frame). */
  get frameIntervalRing(): Float32Array {
    return this.frameRing;
  }

  /**
   * The raw ring of "other" time in ms: each frame's interval minus its top-level phases and the overlay's
   * own drawing — render outside any phase, the browser, idle time (see {@link phaseRing}).
   */
  get otherRing(): Float32Array {
    return this.otherRingData;
  }

  /** The raw ring of the overlay's own cost per frame in ms (see {@link phaseRing}). */
  get overheadRing(): Float32Array {
    return this.overlayRing;
  }

  /** Oldest-first copy of a phase's values over the window (into `out` when given, of length ≥ size). */
  phaseHistory(phase: string | number, out?: Float32Array): Float32Array {
    return this.history(this.phaseRing(phase), out ?? new Float32Array(this.size)) as Float32Array;
  }

  /** Oldest-first copy of a counter's values over the window. */
  counterHistory(counter: string | number, out?: Float64Array): Float64Array {
    return this.history(this.counterRing(counter), out ?? new Float64Array(this.size)) as Float64Array;
  }

  private history(ring: Float32Array | Float64Array, out: Float32Array | Float64Array) {
    const n = this.size;
    if (out.length < n) throw new RangeError(`out has length ${out.length}, needs at least ${n}`);
    const start = this.oldestSlot;
    const cap = this.capacity;
    for (let k = 0; k < n; k++) {
      const s = start + k;
      out[k] = ring[s < cap ? s : s - cap];
    }
    return out;
  }

  private stats(ring: Float32Array | Float64Array, out: SeriesStats): SeriesStats {
    return ringStats(ring, this.oldestSlot, this.size, this.scratch, out);
  }

  /** Statistics of a phase over the frames in the window that measured it. Allocation-free with `out`. */
  phaseStats(phase: string | number, out?: SeriesStats): SeriesStats {
    return this.stats(this.phaseRing(phase), out ?? emptyStats());
  }

  /** Statistics of a counter over the frames in the window that set it. */
  counterStats(counter: string | number, out?: SeriesStats): SeriesStats {
    return this.stats(this.counterRing(counter), out ?? emptyStats());
  }

  /** Statistics of the frame interval (time between consecutive `endFrame` calls). */
  frameStats(out?: SeriesStats): SeriesStats {
    return this.stats(this.frameRing, out ?? emptyStats());
  }

  /** Statistics of the frame time no top-level phase accounts for (see {@link otherRing}). */
  otherStats(out?: SeriesStats): SeriesStats {
    return this.stats(this.otherRingData, out ?? emptyStats());
  }

  /** Statistics of the overlay's own cost per frame (drawing included, amortized over all frames). */
  overheadStats(out?: SeriesStats): SeriesStats {
    return this.stats(this.overlayRing, out ?? emptyStats());
  }

  // ---------------------------------------------------------------- export

  /**
   * The recorded window as a plain object, oldest frame first, with the summaries of earlier segments
   * (`JSON.stringify(recorder)` uses this). Values a frame did not measure are `null`.
   */
  toJSON(): OverlayExport {
    const n = this.size;
    const start = this.oldestSlot;
    const cap = this.capacity;
    const first = this.closed - n;
    const frames: ExportedFrame[] = [];
    for (let k = 0; k < n; k++) {
      const s = (start + k) % cap;
      const phases: Record<string, number | null> = {};
      for (let i = 0; i < this.phaseNameList.length; i++)
        phases[this.phaseNameList[i]] = nullIfNaN(this.phaseRings[i][s]);
      const counters: Record<string, number | null> = {};
      for (let i = 0; i < this.counterNameList.length; i++)
        counters[this.counterNameList[i]] = nullIfNaN(this.counterRings[i][s]);
      frames.push({
        index: first + k,
        time: this.timeRing[s],
        frameMs: nullIfNaN(this.frameRing[s]),
        otherMs: nullIfNaN(this.otherRingData[s]),
        overlayMs: this.overlayRing[s],
        phases,
        counters,
      });
    }
    const phaseStats: Record<string, SeriesStats> = {};
    for (const name of this.phaseNameList) phaseStats[name] = this.phaseStats(name);
    const counterStats: Record<string, SeriesStats> = {};
    for (const name of this.counterNameList) counterStats[name] = this.counterStats(name);
    const segments = this.summaries.of(this.worldLabel);
    return {
      version: 3,
      capacity: cap,
      frameCount: this.closed,
      budgetMs: this.budgetMs,
      segment: this.segmentLabel,
      world: this.worldLabel,
      phases: this.phaseNameList.slice(),
      counters: this.counterNameList.slice(),
      stats: {
        phases: phaseStats,
        counters: counterStats,
        frame: this.frameStats(),
        other: this.otherStats(),
        overlay: this.overheadStats(),
      },
      segments,
      frames,
    };
  }

  /** The recorded window as a JSON string (see {@link toJSON}); `space` is passed to `JSON.stringify`. */
  exportFrames(space?: number): string {
    return JSON.stringify(this.toJSON(), null, space);
  }
}
