/**
 * FrameRecorder: the data half of the timing overlay. Named phases are timed each frame (`begin(name)` …
 * `end()`, or a measured value with `record`), counters are set with `count`, and `endFrame()` closes the
 * frame into fixed-size ring buffers (one Float32Array per phase, one Float64Array per counter, plus the
 * frame interval and the overlay's own cost), so the last `capacity` frames (300 by default) are kept.
 *
 * Source: no seed document covers profiling overlays; this follows the issue text (issue 7, "@sieve/overlay")
 * and the project's data-oriented rules (preamble: typed arrays, structure of arrays, no allocation per
 * frame once warm). Phases and counters are registered by name once; after that `begin`/`record`/`count`
 * accept the returned index (no string work at all) or the name (one Map lookup, with a one-entry cache
 * for the common "same literal string again" case). Statistics (min/median/max/mean) are computed only
 * when asked for — the renderer asks at its own throttled rate — with an O(n) selection, not a sort.
 */

/** Options of a {@link FrameRecorder}. */
export interface RecorderOptions {
  /** Number of frames kept in the rolling window (ring-buffer length). Default 300. */
  capacity?: number;
  /** The frame budget in milliseconds, drawn as a line on the graphs. Default 16.7 (60 Hz). */
  budgetMs?: number;
  /** Clock in milliseconds. Default `performance.now`. Injected by tests. */
  now?: () => number;
  /** Phase names to register up front, in display order. */
  phases?: readonly string[];
  /** Counter names to register up front, in display order. */
  counters?: readonly string[];
}

/** Summary statistics of one series over the frames in the window. */
export interface SeriesStats {
  /** Smallest value in the window (0 when the window is empty). */
  min: number;
  /** Median (mean of the two middle values for an even count). */
  median: number;
  /** Largest value in the window. */
  max: number;
  /** Arithmetic mean. */
  mean: number;
  /** Value of the most recently closed frame. */
  last: number;
  /** Number of frames the statistics cover. */
  count: number;
}

/** One exported frame (see {@link FrameRecorder.toJSON}). */
export interface ExportedFrame {
  /** Sequence number of the frame since the recorder was created (0-based). */
  index: number;
  /** Clock time at which the frame was closed, in ms. */
  time: number;
  /** Time since the previous frame was closed, in ms (0 for the very first frame). */
  frameMs: number;
  /** Time the overlay itself spent in this frame (drawing), in ms. */
  overlayMs: number;
  /** Milliseconds spent in each phase during this frame (0 when the phase did not run). */
  phases: Record<string, number>;
  /** Counter values set during this frame (0 when not set). */
  counters: Record<string, number>;
}

/** What {@link FrameRecorder.toJSON} returns: the recorded window, oldest frame first, and its statistics. */
export interface OverlayExport {
  /** Format version of this object. */
  version: 1;
  /** Ring-buffer length. */
  capacity: number;
  /** Total number of frames closed since creation (may exceed `capacity`). */
  frameCount: number;
  /** The frame budget in ms. */
  budgetMs: number;
  /** Registered phase names, in registration order. */
  phases: string[];
  /** Registered counter names, in registration order. */
  counters: string[];
  /** Statistics over the window: each phase by name, plus `frame` (interval) and `overlay` (own cost). */
  stats: {
    phases: Record<string, SeriesStats>;
    counters: Record<string, SeriesStats>;
    frame: SeriesStats;
    overlay: SeriesStats;
  };
  /** The frames in the window, oldest first. */
  frames: ExportedFrame[];
}

const MAX_DEPTH = 32;

const defaultNow: () => number =
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? () => performance.now()
    : () => Date.now();

function emptyStats(): SeriesStats {
  return { min: 0, median: 0, max: 0, mean: 0, last: 0, count: 0 };
}

/**
 * Partially sorts `a[0..n)` so that `a[k]` holds the k-th smallest value, everything before it is ≤ and
 * everything after it is ≥ (Hoare's selection, median-of-three pivot). O(n) on average, no allocation.
 */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot guards against sorted and reverse-sorted windows (common for ramps).
    let x = a[lo];
    let y = a[mid];
    const z = a[hi];
    if (x > y) {
      const t = x;
      x = y;
      y = t;
    }
    if (y > z) {
      y = z;
      if (x > y) y = x;
    }
    const pivot = y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * Records named phase timings and counters per frame into ring buffers. Engine-agnostic and DOM-free;
 * {@link Overlay} adds the canvas renderer on top of it.
 *
 * Hot-path methods (`begin`, `end`, `record`, `count`, `endFrame`) do not allocate once the phases and
 * counters are registered. They validate their arguments cheaply (index range, finite numbers) and throw
 * a `RangeError`/`Error` naming the argument.
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
  private phaseAcc = new Float64Array(8);

  private readonly counterNameList: string[] = [];
  private readonly counterMap = new Map<string, number>();
  private readonly counterRings: Float64Array[] = [];
  private counterAcc = new Float64Array(8);

  private readonly frameRing: Float32Array;
  private readonly overlayRing: Float32Array;
  private readonly timeRing: Float64Array;

  private readonly stackPhase = new Int32Array(MAX_DEPTH);
  private readonly stackStart = new Float64Array(MAX_DEPTH);
  private depth = 0;

  private writeSlot = 0;
  private closed = 0;
  private lastClose = Number.NaN;

  // One-entry caches: a literal string passed again is the same string, so `===` hits without hashing.
  private lastPhaseName: string | null = null;
  private lastPhaseIndex = -1;
  private lastCounterName: string | null = null;
  private lastCounterIndex = -1;

  /** Scratch for selection (statistics only; never touched per frame). */
  private readonly scratch: Float64Array;

  constructor(options: RecorderOptions = {}) {
    const capacity = options.capacity ?? 300;
    if (!Number.isInteger(capacity) || capacity < 2 || capacity > 1 << 20)
      throw new RangeError(`capacity must be an integer in [2, 1048576], got ${capacity}`);
    const budgetMs = options.budgetMs ?? 16.7;
    if (!Number.isFinite(budgetMs) || budgetMs <= 0)
      throw new RangeError(`budgetMs must be a finite positive number, got ${budgetMs}`);
    if (options.now !== undefined && typeof options.now !== 'function')
      throw new TypeError('now must be a function returning milliseconds');
    this.capacity = capacity;
    this.budgetMs = budgetMs;
    this.now = options.now ?? defaultNow;
    this.frameRing = new Float32Array(capacity);
    this.overlayRing = new Float32Array(capacity);
    this.timeRing = new Float64Array(capacity);
    this.scratch = new Float64Array(capacity);
    for (const name of options.phases ?? []) this.phase(name);
    for (const name of options.counters ?? []) this.counter(name);
  }

  // ---------------------------------------------------------------- registration

  /** Index of the phase `name`, registering it (at the end of the display order) on first use. */
  phase(name: string): number {
    if (name === this.lastPhaseName) return this.lastPhaseIndex;
    let i = this.phaseMap.get(name);
    if (i === undefined) {
      if (typeof name !== 'string' || name.length === 0)
        throw new TypeError(`phase name must be a non-empty string, got ${String(name)}`);
      i = this.phaseNameList.length;
      this.phaseNameList.push(name);
      this.phaseMap.set(name, i);
      this.phaseRings.push(new Float32Array(this.capacity));
      if (i >= this.phaseAcc.length) {
        const grown = new Float64Array(this.phaseAcc.length * 2);
        grown.set(this.phaseAcc);
        this.phaseAcc = grown;
      }
    }
    this.lastPhaseName = name;
    this.lastPhaseIndex = i;
    return i;
  }

  /** Index of the counter `name`, registering it on first use. */
  counter(name: string): number {
    if (name === this.lastCounterName) return this.lastCounterIndex;
    let i = this.counterMap.get(name);
    if (i === undefined) {
      if (typeof name !== 'string' || name.length === 0)
        throw new TypeError(`counter name must be a non-empty string, got ${String(name)}`);
      i = this.counterNameList.length;
      this.counterNameList.push(name);
      this.counterMap.set(name, i);
      this.counterRings.push(new Float64Array(this.capacity));
      if (i >= this.counterAcc.length) {
        const grown = new Float64Array(this.counterAcc.length * 2);
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

  /**
   * Starts timing `phase` (a name, or an index from {@link phase}). Phases nest up to 32 deep; each
   * `end()` closes the innermost open one. A phase begun several times in a frame accumulates.
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

  /** Ends the innermost phase opened by {@link begin}; returns its duration in ms. */
  end(): number {
    const t = this.now();
    const d = this.depth - 1;
    if (d < 0) throw new Error('end() called without a matching begin()');
    this.depth = d;
    const ms = t - this.stackStart[d];
    this.phaseAcc[this.stackPhase[d]] += ms;
    return ms;
  }

  /** Adds a measured duration `ms` (finite, ≥ 0) to `phase` for the current frame. */
  record(phase: string | number, ms: number): void {
    const i = this.phaseIndexOf(phase);
    if (!(ms >= 0) || ms === Number.POSITIVE_INFINITY)
      throw new RangeError(`record(${String(phase)}): ms must be finite and >= 0, got ${ms}`);
    this.phaseAcc[i] += ms;
  }

  /** Sets `counter` to `value` (finite) for the current frame; the last value set in a frame wins. */
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
   * Closes the current frame: stores every phase's accumulated time, every counter and the interval since
   * the previous `endFrame` into the rings, then clears the accumulators. Throws if a phase is still open.
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
      acc[i] = 0;
    }
    const nC = this.counterRings.length;
    const cAcc = this.counterAcc;
    for (let i = 0; i < nC; i++) {
      this.counterRings[i][s] = cAcc[i];
      cAcc[i] = 0;
    }
    const last = this.lastClose;
    this.frameRing[s] = Number.isNaN(last) ? 0 : t - last;
    this.overlayRing[s] = 0;
    this.timeRing[s] = t;
    this.lastClose = t;
    this.writeSlot = s + 1 === this.capacity ? 0 : s + 1;
    this.closed++;
  }

  /** Adds `ms` to the overlay's own cost of the most recently closed frame (used by the renderer). */
  protected addOverhead(ms: number): void {
    if (this.closed === 0) return;
    const s = this.writeSlot === 0 ? this.capacity - 1 : this.writeSlot - 1;
    this.overlayRing[s] += ms;
  }

  /** Forgets every recorded frame (registrations are kept). */
  reset(): void {
    if (this.depth !== 0) throw new Error('reset() while a phase is open');
    for (const r of this.phaseRings) r.fill(0);
    for (const r of this.counterRings) r.fill(0);
    this.phaseAcc.fill(0);
    this.counterAcc.fill(0);
    this.frameRing.fill(0);
    this.overlayRing.fill(0);
    this.timeRing.fill(0);
    this.writeSlot = 0;
    this.closed = 0;
    this.lastClose = Number.NaN;
  }

  // ---------------------------------------------------------------- reading

  /** Total number of frames closed since creation (or the last {@link reset}). */
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
   * The raw ring of a phase (length `capacity`, indexed by slot — see {@link oldestSlot}). Read-only view
   * for renderers; do not write to it.
   */
  phaseRing(phase: string | number): Float32Array {
    return this.phaseRings[this.knownIndex(phase, this.phaseMap, this.phaseNameList.length, 'phase')];
  }

  /** The raw ring of a counter (see {@link phaseRing}). */
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

  /** The raw ring of frame intervals in ms (see {@link phaseRing}). */
  get frameIntervalRing(): Float32Array {
    return this.frameRing;
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

  /** Statistics of a phase over the window. Allocation-free when `out` is given. */
  phaseStats(phase: string | number, out?: SeriesStats): SeriesStats {
    return this.ringStats(this.phaseRing(phase), out ?? emptyStats());
  }

  /** Statistics of a counter over the window. */
  counterStats(counter: string | number, out?: SeriesStats): SeriesStats {
    return this.ringStats(this.counterRing(counter), out ?? emptyStats());
  }

  /** Statistics of the frame interval (time between consecutive `endFrame` calls), ignoring the first frame. */
  frameStats(out?: SeriesStats): SeriesStats {
    return this.ringStats(this.frameRing, out ?? emptyStats(), this.closed <= this.capacity ? 1 : 0);
  }

  /** Statistics of the overlay's own cost per frame (drawing included, amortized over all frames). */
  overheadStats(out?: SeriesStats): SeriesStats {
    return this.ringStats(this.overlayRing, out ?? emptyStats());
  }

  /** Min/median/max/mean/last over the window; `skip` drops that many of the oldest frames. */
  private ringStats(ring: Float32Array | Float64Array, out: SeriesStats, skip = 0): SeriesStats {
    const size = this.size;
    const n = Math.max(size - skip, 0);
    out.count = n;
    if (n === 0) {
      out.min = out.median = out.max = out.mean = out.last = 0;
      return out;
    }
    const a = this.scratch;
    const cap = this.capacity;
    const start = this.oldestSlot + skip;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const s = start + k;
      const v = ring[s < cap ? s : s - cap];
      a[k] = v;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
    }
    const last = a[n - 1];
    const h = n >>> 1;
    let median = select(a, n, h);
    if ((n & 1) === 0) {
      // Lower middle = largest value left of the selected one (they are all ≤ it after selection).
      let lower = a[0];
      for (let k = 1; k < h; k++) if (a[k] > lower) lower = a[k];
      median = (median + lower) / 2;
    }
    out.min = min;
    out.max = max;
    out.median = median;
    out.mean = sum / n;
    out.last = last;
    return out;
  }

  // ---------------------------------------------------------------- export

  /** The recorded window as a plain object, oldest frame first (`JSON.stringify(recorder)` uses this). */
  toJSON(): OverlayExport {
    const n = this.size;
    const start = this.oldestSlot;
    const cap = this.capacity;
    const first = this.closed - n;
    const frames: ExportedFrame[] = [];
    for (let k = 0; k < n; k++) {
      const s = (start + k) % cap;
      const phases: Record<string, number> = {};
      for (let i = 0; i < this.phaseNameList.length; i++)
        phases[this.phaseNameList[i]] = this.phaseRings[i][s];
      const counters: Record<string, number> = {};
      for (let i = 0; i < this.counterNameList.length; i++)
        counters[this.counterNameList[i]] = this.counterRings[i][s];
      frames.push({
        index: first + k,
        time: this.timeRing[s],
        frameMs: this.frameRing[s],
        overlayMs: this.overlayRing[s],
        phases,
        counters,
      });
    }
    const phaseStats: Record<string, SeriesStats> = {};
    for (const name of this.phaseNameList) phaseStats[name] = this.phaseStats(name);
    const counterStats: Record<string, SeriesStats> = {};
    for (const name of this.counterNameList) counterStats[name] = this.counterStats(name);
    return {
      version: 1,
      capacity: cap,
      frameCount: this.closed,
      budgetMs: this.budgetMs,
      phases: this.phaseNameList.slice(),
      counters: this.counterNameList.slice(),
      stats: {
        phases: phaseStats,
        counters: counterStats,
        frame: this.frameStats(),
        overlay: this.overheadStats(),
      },
      frames,
    };
  }

  /** The recorded window as a JSON string (see {@link toJSON}); `space` is passed to `JSON.stringify`. */
  exportFrames(space?: number): string {
    return JSON.stringify(this.toJSON(), null, space);
  }
}
