/**
 * Canvas 2-D renderer of a {@link FrameRecorder}: a header (segment, fps, frame interval, the overlay's
 * own cost), a frame-interval graph with the frame-budget line, then per phase a text row (last, median,
 * max, and the previous segment's median for a side-by-side comparison of two modes) and a rolling graph
 * over the window, an "other" row for the frame time no top-level phase accounts for, then the counters.
 * Values that were not measured show as "—", never as 0. Works on any object with the few 2-D context
 * members it uses ({@link Canvas2DLike}), so it is testable in Node with a fake context.
 *
 * Follows the frame-time graphs of game-engine profilers (stats.js, the rolling graph with a 16.7 ms
 * budget line): one path and one stroke per graph, statistics computed here (only when drawing), no
 * per-point work beyond a `lineTo`.
 */
import type { FrameRecorder, SeriesStats } from './recorder.js';

/** The subset of `CanvasRenderingContext2D` the renderer uses. */
export interface Canvas2DLike {
  /** Fill colour (a CSS colour string). */
  fillStyle: unknown;
  /** Stroke colour (a CSS colour string). */
  strokeStyle: unknown;
  /** Line width in CSS pixels. */
  lineWidth: number;
  /** CSS font shorthand. */
  font: string;
  /** Text baseline (the renderer uses `'top'`). */
  textBaseline: string;
  /** Clears a rectangle to transparent. */
  clearRect(x: number, y: number, w: number, h: number): void;
  /** Fills a rectangle with `fillStyle`. */
  fillRect(x: number, y: number, w: number, h: number): void;
  /** Draws `text` with its top-left corner at (x, y) in `fillStyle`. */
  fillText(text: string, x: number, y: number): void;
  /** Starts a new path. */
  beginPath(): void;
  /** Starts a sub-path at (x, y). */
  moveTo(x: number, y: number): void;
  /** Adds a straight line to (x, y). */
  lineTo(x: number, y: number): void;
  /** Strokes the current path with `strokeStyle`. */
  stroke(): void;
  /** Sets the dash pattern (an empty array: solid lines). */
  setLineDash(segments: number[]): void;
}

/** How much the overlay shows: graphs and text, text only, or nothing. */
export type OverlayMode = 'full' | 'compact' | 'hidden';

/** Options of {@link drawOverlay} / {@link overlayHeight}. */
export interface DrawOptions {
  /** Width in CSS pixels. Default 300. */
  width?: number;
  /** What to draw. Default `'full'`. */
  mode?: OverlayMode;
  /** Title in the header. Default `'Sieve'`. */
  title?: string;
  /** Phases (by index) whose graphs are hidden; their text row is still drawn. */
  hiddenPhases?: ReadonlySet<number>;
  /** Height of each phase graph in CSS pixels (≥ 12). Default 36. */
  graphHeight?: number;
  /** Draw the "other" row (frame time outside every top-level phase) and its graph. Default true. */
  showOther?: boolean;
}

/** Phase colours, cycled in registration order. */
export const PHASE_COLORS: readonly string[] = [
  '#4fc3f7',
  '#ffb74d',
  '#81c784',
  '#e57373',
  '#ba68c8',
  '#fff176',
  '#4db6ac',
  '#f06292',
];

const PAD = 6;
const LINE = 13;
const FRAME_GRAPH = 56;
const GAP = 4;
/** Approximate advance of one character of the 11 px monospace font, in CSS pixels. */
const CHAR = 6.6;
/** Characters per counter ("candidates 12.3k" and a gap). */
const COUNTER_CHARS = 17;
const NAME_COLUMN = 11;
const BUDGET_COLOR = '#ff5252';
const OTHER_COLOR = '#b0bec5';
const BG = 'rgba(10, 12, 20, 0.82)';
const GRAPH_BG = 'rgba(255, 255, 255, 0.06)';
const TEXT = '#e8eaf6';
const DIM = '#9fa8da';
/** Shown for a value that was not measured. */
const NOT_MEASURED = '—';

/**
 * Smallest value of the 1–2–5 series (…, 0.5, 1, 2, 5, 10, 20, …) that is ≥ `v`: the graphs' scale.
 * 1 for `v` ≤ 0 or NaN.
 */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const m = v / p;
  // Small tolerance so that exact 1/2/5 multiples are not bumped up by rounding.
  const step = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
  return step * p;
}

/** Formats milliseconds with 2, 1 or 0 decimals depending on magnitude; NaN (not measured) as "—". */
export function formatMs(ms: number): string {
  if (Number.isNaN(ms)) return NOT_MEASURED;
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

function formatCount(v: number): string {
  if (Number.isNaN(v)) return NOT_MEASURED;
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : `${Math.round(v)}`;
}

function countersPerLine(width: number): number {
  return Math.max(1, Math.floor((width - 2 * PAD) / (COUNTER_CHARS * CHAR)));
}

function graphHeightOf(options: DrawOptions): number {
  const h = options.graphHeight ?? 36;
  if (!(h >= 12) || !Number.isFinite(h)) throw new RangeError(`graphHeight must be a number >= 12, got ${h}`);
  return h;
}

/**
 * Height in CSS pixels that {@link drawOverlay} needs for `rec` with these options (0 when hidden).
 * Throws a `RangeError` for a `graphHeight` under 12 or not finite.
 */
export function overlayHeight(rec: FrameRecorder, options: DrawOptions = {}): number {
  const mode = options.mode ?? 'full';
  if (mode === 'hidden') return 0;
  const graph = graphHeightOf(options);
  const hidden = options.hiddenPhases;
  let h = PAD + 2 * LINE; // header and legend
  if (mode === 'full') h += FRAME_GRAPH + GAP;
  const nP = rec.phaseNames.length;
  for (let i = 0; i < nP; i++) {
    h += LINE;
    if (mode === 'full' && !hidden?.has(i)) h += graph + GAP;
  }
  if (options.showOther ?? true) h += LINE + (mode === 'full' ? graph + GAP : 0);
  const nC = rec.counterNames.length;
  if (nC > 0) h += Math.ceil(nC / countersPerLine(options.width ?? 300)) * LINE;
  return h + PAD;
}

const stats: SeriesStats = { min: 0, median: 0, max: 0, mean: 0, last: 0, count: 0 };

/**
 * Draws one rolling series into the box (x, y, w, h) with vertical scale `scale` ms (top of the box);
 * the newest frame is at the right edge. Values above the scale are clamped to the top; frames that did
 * not measure the series (NaN) leave a gap.
 */
function drawSeries(
  ctx: Canvas2DLike,
  rec: FrameRecorder,
  ring: Float32Array | Float64Array,
  x: number,
  y: number,
  w: number,
  h: number,
  scale: number,
  color: string,
): void {
  const n = rec.size;
  if (n === 0) return;
  const cap = rec.capacity;
  const start = rec.oldestSlot;
  const step = w / (cap - 1);
  const x0 = x + w - (n - 1) * step;
  const k = h / scale;
  const bottom = y + h;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  let pen = false;
  for (let j = 0; j < n; j++) {
    const s = start + j;
    const v = ring[s < cap ? s : s - cap];
    if (Number.isNaN(v)) {
      pen = false;
      continue;
    }
    const py = v >= scale ? y : bottom - v * k;
    if (pen) ctx.lineTo(x0 + j * step, py);
    else ctx.moveTo(x0 + j * step, py);
    pen = true;
  }
  ctx.stroke();
}

function drawBudget(
  ctx: Canvas2DLike,
  budget: number,
  x: number,
  y: number,
  w: number,
  h: number,
  scale: number,
) {
  if (budget > scale) return;
  const py = y + h - (budget / scale) * h;
  ctx.strokeStyle = BUDGET_COLOR;
  ctx.lineWidth = 1;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.moveTo(x, py);
  ctx.lineTo(x + w, py);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** Nesting depth of phase `i` (0 = top level), following the parents the recorder observed. */
function depthOf(rec: FrameRecorder, i: number): number {
  let d = 0;
  for (let p = rec.phaseParent(i); p >= 0 && d < 4; p = rec.phaseParent(p)) d++;
  return d;
}

/** One text row: name (indented by depth), last, median, max, and the comparison segment's median. */
function row(name: string, depth: number, s: SeriesStats, compare: number | undefined): string {
  const label = `${' '.repeat(depth)}${name}`.slice(0, NAME_COLUMN).padEnd(NAME_COLUMN);
  const cmp = compare === undefined ? '' : formatMs(compare).padStart(7);
  return `${label}${formatMs(s.last).padStart(6)}${formatMs(s.median).padStart(6)}${formatMs(s.max).padStart(6)}${cmp}`;
}

/**
 * Draws the overlay for `rec` at the context's origin (CSS pixels; apply any device-pixel-ratio transform
 * before calling). Returns the height used. Each phase row shows the last frame, the median and the
 * maximum over the window and — after {@link FrameRecorder.beginSegment} — the median of the previous
 * segment (another mode) beside them; a value that was not measured shows as "—". Computes the
 * statistics of every phase (O(window) each). Throws a `RangeError` for a `graphHeight` under 12.
 */
export function drawOverlay(ctx: Canvas2DLike, rec: FrameRecorder, options: DrawOptions = {}): number {
  const mode = options.mode ?? 'full';
  const width = options.width ?? 300;
  const height = overlayHeight(rec, options);
  ctx.clearRect(0, 0, width, height + 1);
  if (mode === 'hidden') return 0;
  const graphH = graphHeightOf(options);
  const hidden = options.hiddenPhases;
  const gx = PAD;
  const gw = width - 2 * PAD;
  const budget = rec.budgetMs;
  const cmp = rec.comparison;

  ctx.fillStyle = BG;
  ctx.fillRect(0, 0, width, height);
  ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
  ctx.textBaseline = 'top';

  // Header: title and segment, fps and frame interval (median), the overlay's own amortized cost.
  const frame = rec.frameStats(stats);
  const fps = frame.median > 0 ? (1000 / frame.median).toFixed(0) : NOT_MEASURED;
  const frameMedian = frame.median;
  const frameMax = frame.max;
  const own = rec.overheadStats(stats).mean;
  const segment = rec.segment ? ` [${rec.segment}]` : '';
  let y = PAD;
  ctx.fillStyle = TEXT;
  ctx.fillText(
    `${options.title ?? 'Sieve'}${segment}  ${fps} fps  self ${!Number.isNaN(own) ? own.toFixed(2) : NOT_MEASURED} ms`,
    gx,
    y,
  );
  y += LINE;
  ctx.fillStyle = DIM;
  const cmpLabel = cmp ? (cmp.label || 'before').slice(0, 6).padStart(7) : '';
  ctx.fillText(
    `${'ms'.padEnd(NAME_COLUMN + 2)}${'last'.padStart(6)}${'med'.padStart(6)}${'max'.padStart(6)}${cmpLabel}`,
    gx,
    y,
  );
  y += LINE;

  if (mode === 'full') {
    const scale = niceCeil(Math.max(!Number.isNaN(frameMax) ? frameMax : 0, budget));
    ctx.fillStyle = GRAPH_BG;
    ctx.fillRect(gx, y, gw, FRAME_GRAPH);
    drawBudget(ctx, budget, gx, y, gw, FRAME_GRAPH, scale);
    drawSeries(ctx, rec, rec.frameIntervalRing, gx, y, gw, FRAME_GRAPH, scale, TEXT);
    ctx.fillStyle = DIM;
    const vs = cmp ? ` · ${cmp.label || 'before'} ${formatMs(cmp.frameMedian)}` : '';
    ctx.fillText(`frame ${formatMs(frameMedian)}${vs}`, gx + 2, y + 1);
    ctx.fillText(`budget ${budget} (red)`, gx + 2, y + 1 + LINE);
    const top = `${scale}`;
    ctx.fillText(top, gx + gw - 2 - top.length * CHAR, y + 1);
    y += FRAME_GRAPH + GAP;
  }

  const drawRow = (
    name: string,
    depth: number,
    ring: Float32Array,
    color: string,
    graph: boolean,
    compare: number | undefined,
  ) => {
    const s = name === '' ? rec.otherStats(stats) : rec.phaseStats(name, stats);
    ctx.fillStyle = color;
    ctx.fillRect(gx + depth * 4, y + 2, 7, 7);
    ctx.fillStyle = TEXT;
    ctx.fillText(row(name || 'other', depth, s, compare), gx + 11, y);
    y += LINE;
    if (!graph) return;
    const max = !Number.isNaN(s.max) ? s.max : 0;
    const scale = niceCeil(Math.max(max, 0.05));
    ctx.fillStyle = GRAPH_BG;
    ctx.fillRect(gx, y, gw, graphH);
    drawBudget(ctx, budget, gx, y, gw, graphH, scale);
    drawSeries(ctx, rec, ring, gx, y, gw, graphH, scale, color);
    ctx.fillStyle = DIM;
    ctx.fillText(s.count > 0 ? `min ${formatMs(s.min)}` : 'not measured', gx + 2, y + 1);
    const top = `${scale}`;
    ctx.fillText(top, gx + gw - 2 - top.length * CHAR, y + 1);
    y += graphH + GAP;
  };

  const names = rec.phaseNames;
  for (let i = 0; i < names.length; i++) {
    const compare = cmp ? (cmp.phases[names[i]] ?? Number.NaN) : undefined;
    const graph = mode === 'full' && !hidden?.has(i);
    drawRow(
      names[i],
      depthOf(rec, i),
      rec.phaseRing(i),
      PHASE_COLORS[i % PHASE_COLORS.length],
      graph,
      compare,
    );
  }
  if (options.showOther ?? true)
    drawRow('', 0, rec.otherRing, OTHER_COLOR, mode === 'full', cmp ? cmp.otherMedian : undefined);

  const counters = rec.counterNames;
  const perLine = countersPerLine(width);
  for (let i = 0; i < counters.length; i += perLine) {
    let line = '';
    for (let j = i; j < i + perLine && j < counters.length; j++)
      line += `${counters[j]} ${formatCount(rec.counterStats(j, stats).last)}`.padEnd(COUNTER_CHARS);
    ctx.fillStyle = DIM;
    ctx.fillText(line, gx, y);
    y += LINE;
  }
  return height;
}
