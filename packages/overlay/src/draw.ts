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
import { checkOptionKeys, optionKeys } from './options.js';
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
  /**
   * Advance of one character of the 11 px monospace font, in CSS pixels (the `Overlay` measures it on its
   * canvas). Lines are laid out with it so that no text runs past the panel's width. Default 6.6.
   */
  charWidth?: number;
}

/**
 * The keys of {@link DrawOptions}: any other key throws a `TypeError` naming it. Kept complete by the
 * compiler (`optionKeys`): add a new option here too.
 */
const DRAW_OPTION_KEYS = optionKeys<DrawOptions>({
  width: true,
  mode: true,
  title: true,
  hiddenPhases: true,
  graphHeight: true,
  showOther: true,
  charWidth: true,
});

/**
 * Checks `options` as `where` (a constant string: this runs on every redraw and allocates nothing when
 * the options are good): known keys, and the type and range of each value but `graphHeight` (checked
 * where it is read). Throws a `TypeError` or `RangeError` naming the option.
 */
function checkDrawOptions(options: DrawOptions, where: string): void {
  checkOptionKeys(where, options, DRAW_OPTION_KEYS);
  const { width, mode, title, hiddenPhases, showOther, charWidth } = options;
  if (width !== undefined && !(typeof width === 'number' && width > 0 && width < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`${where}.width must be a positive finite number, got ${String(width)}`);
  }
  if (mode !== undefined && mode !== 'full' && mode !== 'compact' && mode !== 'hidden') {
    throw new RangeError(`${where}.mode must be 'full', 'compact' or 'hidden', got ${String(mode)}`);
  }
  if (title !== undefined && typeof title !== 'string') {
    throw new TypeError(`${where}.title must be a string, got ${String(title)}`);
  }
  if (hiddenPhases !== undefined && (hiddenPhases === null || typeof hiddenPhases.has !== 'function')) {
    throw new TypeError(`${where}.hiddenPhases must be a Set of phase indices, got ${String(hiddenPhases)}`);
  }
  if (showOther !== undefined && typeof showOther !== 'boolean') {
    throw new TypeError(`${where}.showOther must be true or false, got ${String(showOther)}`);
  }
  if (
    charWidth !== undefined &&
    !(typeof charWidth === 'number' && charWidth > 0 && charWidth < Number.POSITIVE_INFINITY)
  ) {
    throw new RangeError(`${where}.charWidth must be a positive finite number, got ${String(charWidth)}`);
  }
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
/** Approximate advance of one character of the 11 px monospace font, in CSS pixels (default). */
const CHAR = 6.6;
/** Characters per counter ("candidates 12.3k" and a gap). */
const COUNTER_CHARS = 17;
/** Narrowest name column of the phase rows, in characters (a panel of 220 px or more fits 7). */
const MIN_NAME = 3;
/** Characters of each value column of a phase row (last, med, max): `formatMs` gives at most 4. */
const VALUE = 5;
const VALUE_CHARS = 3 * VALUE;
/** Characters of the comparison column (the other segment's median). */
const COMPARE_CHARS = 7;
/** A phase row's text starts this far right of the panel's padding (after its colour square). */
const ROW_INDENT = 11;
/** The widest text of the header's statistics ("999 fps  self 99.99 ms"). */
const STATS_CHARS = 22;
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
 *
 * @internal
 */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const m = v / p;
  // Small tolerance so that exact 1/2/5 multiples are not bumped up by rounding.
  const step = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
  return step * p;
}

/**
 * Formats milliseconds with 2, 1 or 0 decimals depending on magnitude; NaN (not measured) as "—".
 *
 * @internal
 */
export function formatMs(ms: number): string {
  if (Number.isNaN(ms)) return NOT_MEASURED;
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

function formatCount(v: number): string {
  if (Number.isNaN(v)) return NOT_MEASURED;
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : `${Math.round(v)}`;
}

function countersPerLine(width: number, char: number): number {
  return Math.max(1, Math.floor((width - 2 * PAD) / (COUNTER_CHARS * char)));
}

/** `text` cut to `n` characters, its last one an ellipsis when it was longer. */
function fit(text: string, n: number): string {
  return text.length <= n ? text : n <= 0 ? '' : `${text.slice(0, n - 1)}…`;
}

/** How the text of the panel is laid out at a width: every line within it. */
interface Layout {
  /** Advance of one character, in CSS pixels. */
  char: number;
  /** Characters that fit on a line from the panel's padding. */
  cols: number;
  /** The header's lines: the title and segment, the statistics (a line of its own when narrow), the world. */
  titleLine: string;
  statsOwnLine: boolean;
  worldLine: string | null;
  /** Characters of the name column of the phase rows. */
  nameChars: number;
}

function layoutOf(rec: FrameRecorder, options: DrawOptions): Layout {
  const width = options.width ?? 300;
  const char = options.charWidth !== undefined && options.charWidth > 0 ? options.charWidth : CHAR;
  const cols = Math.max(1, Math.floor((width - 2 * PAD) / char));
  const title = `${options.title ?? 'Sieve'}${rec.segment ? ` [${rec.segment}]` : ''}`;
  const statsOwnLine = title.length + 2 + STATS_CHARS > cols;
  const worldLine = rec.world ? fit(`world ${rec.world}`, cols) : null;
  // The name column fits the longest (indented) name, and the row fits the panel.
  let longest = 'other'.length;
  const names = rec.phaseNames;
  for (let i = 0; i < names.length; i++) longest = Math.max(longest, depthOf(rec, i) + names[i].length);
  const rowChars = Math.floor((width - 2 * PAD - ROW_INDENT) / char);
  const room = rowChars - VALUE_CHARS - (rec.comparison ? COMPARE_CHARS : 0);
  return {
    char,
    cols,
    titleLine: fit(title, cols),
    statsOwnLine,
    worldLine,
    nameChars: Math.max(MIN_NAME, Math.min(longest, room)),
  };
}

/** Lines of the header above the legend. */
function headerLines(layout: Layout): number {
  return 1 + (layout.statsOwnLine ? 1 : 0) + (layout.worldLine !== null ? 1 : 0);
}

function graphHeightOf(options: DrawOptions): number {
  const h = options.graphHeight ?? 36;
  if (!(h >= 12) || !Number.isFinite(h)) throw new RangeError(`graphHeight must be a number >= 12, got ${h}`);
  return h;
}

/**
 * Height in CSS pixels that {@link drawOverlay} needs for `rec` with these options (0 when hidden).
 * Throws a `RangeError` for a `graphHeight` under 12 or not finite, and a `TypeError` or `RangeError`
 * naming the option for an unknown key or another bad value.
 */
export function overlayHeight(rec: FrameRecorder, options: DrawOptions = {}): number {
  checkDrawOptions(options, 'overlayHeight: options');
  const mode = options.mode ?? 'full';
  if (mode === 'hidden') return 0;
  const graph = graphHeightOf(options);
  const hidden = options.hiddenPhases;
  const layout = layoutOf(rec, options);
  let h = PAD + (headerLines(layout) + 1) * LINE; // header and legend
  if (mode === 'full') h += FRAME_GRAPH + GAP;
  const nP = rec.phaseNames.length;
  for (let i = 0; i < nP; i++) {
    h += LINE;
    if (mode === 'full' && !hidden?.has(i)) h += graph + GAP;
  }
  if (options.showOther ?? true) h += LINE + (mode === 'full' ? graph + GAP : 0);
  const nC = rec.counterNames.length;
  if (nC > 0) h += Math.ceil(nC / countersPerLine(options.width ?? 300, layout.char)) * LINE;
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

/**
 * A graph's label at (x, y) on a patch of the panel's background, so that neither the series nor the
 * budget line runs through its text.
 */
function graphLabel(ctx: Canvas2DLike, text: string, x: number, y: number, char: number): void {
  ctx.fillStyle = BG;
  ctx.fillRect(x - 1, y, text.length * char + 2, LINE - 2);
  ctx.fillStyle = DIM;
  ctx.fillText(text, x, y);
}

/** Nesting depth of phase `i` (0 = top level), following the parents the recorder observed. */
function depthOf(rec: FrameRecorder, i: number): number {
  let d = 0;
  for (let p = rec.phaseParent(i); p >= 0 && d < 4; p = rec.phaseParent(p)) d++;
  return d;
}

/** One text row: name (indented by depth), last, median, max, and the comparison segment's median. */
function row(
  name: string,
  depth: number,
  s: SeriesStats,
  compare: number | undefined,
  nameChars: number,
): string {
  const label = fit(`${' '.repeat(depth)}${name}`, nameChars).padEnd(nameChars);
  const cmp = compare === undefined ? '' : formatMs(compare).padStart(7);
  return `${label}${formatMs(s.last).padStart(VALUE)}${formatMs(s.median).padStart(VALUE)}${formatMs(s.max).padStart(VALUE)}${cmp}`;
}

/**
 * Draws the overlay for `rec` at the context's origin (CSS pixels; apply any device-pixel-ratio transform
 * before calling). Returns the height used. Each phase row shows the last frame, the median and the
 * maximum over the window and — after {@link FrameRecorder.beginSegment} — the median of the previous
 * segment (another mode) beside them; a value that was not measured shows as "—". Computes the
 * statistics of every phase (O(window) each). Throws a `RangeError` for a `graphHeight` under 12, and
 * a `TypeError` or `RangeError` naming the option for an unknown key or another bad value.
 */
export function drawOverlay(ctx: Canvas2DLike, rec: FrameRecorder, options: DrawOptions = {}): number {
  checkDrawOptions(options, 'drawOverlay: options');
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
  const layout = layoutOf(rec, options);
  const char = layout.char;

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
  const statsText = fit(
    `${fps} fps  self ${!Number.isNaN(own) ? own.toFixed(2) : NOT_MEASURED} ms`,
    layout.cols,
  );
  let y = PAD;
  ctx.fillStyle = TEXT;
  if (layout.statsOwnLine) {
    ctx.fillText(layout.titleLine, gx, y);
    y += LINE;
    ctx.fillText(statsText, gx, y);
  } else ctx.fillText(`${layout.titleLine}  ${statsText}`, gx, y);
  y += LINE;
  ctx.fillStyle = DIM;
  if (layout.worldLine !== null) {
    ctx.fillText(layout.worldLine, gx, y);
    y += LINE;
  }
  const cmpLabel = cmp ? (cmp.label || 'before').slice(0, 6).padStart(COMPARE_CHARS) : '';
  ctx.fillText(
    `${'ms'.padEnd(layout.nameChars)}${'last'.padStart(VALUE)}${'med'.padStart(VALUE)}${'max'.padStart(VALUE)}${cmpLabel}`,
    gx + ROW_INDENT,
    y,
  );
  y += LINE;

  if (mode === 'full') {
    const scale = niceCeil(Math.max(!Number.isNaN(frameMax) ? frameMax : 0, budget));
    ctx.fillStyle = GRAPH_BG;
    ctx.fillRect(gx, y, gw, FRAME_GRAPH);
    drawBudget(ctx, budget, gx, y, gw, FRAME_GRAPH, scale);
    drawSeries(ctx, rec, rec.frameIntervalRing, gx, y, gw, FRAME_GRAPH, scale, TEXT);
    const vs = cmp ? ` · ${cmp.label || 'before'} ${formatMs(cmp.frameMedian)}` : '';
    const top = `${scale}`;
    // The graph's labels leave room for its scale at the right.
    const room = Math.floor((gw - 4) / char) - top.length - 1;
    graphLabel(ctx, fit(`frame ${formatMs(frameMedian)}${vs}`, room), gx + 2, y + 1, char);
    graphLabel(ctx, fit(`budget ${budget} (red)`, room), gx + 2, y + 1 + LINE, char);
    graphLabel(ctx, top, gx + gw - 2 - top.length * char, y + 1, char);
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
    ctx.fillText(row(name || 'other', depth, s, compare, layout.nameChars), gx + ROW_INDENT, y);
    y += LINE;
    if (!graph) return;
    const max = !Number.isNaN(s.max) ? s.max : 0;
    const scale = niceCeil(Math.max(max, 0.05));
    ctx.fillStyle = GRAPH_BG;
    ctx.fillRect(gx, y, gw, graphH);
    drawBudget(ctx, budget, gx, y, gw, graphH, scale);
    drawSeries(ctx, rec, ring, gx, y, gw, graphH, scale, color);
    graphLabel(ctx, s.count > 0 ? `min ${formatMs(s.min)}` : 'not measured', gx + 2, y + 1, char);
    const top = `${scale}`;
    graphLabel(ctx, top, gx + gw - 2 - top.length * char, y + 1, char);
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
  const perLine = countersPerLine(width, char);
  for (let i = 0; i < counters.length; i += perLine) {
    let line = '';
    for (let j = i; j < i + perLine && j < counters.length; j++)
      line += fit(`${counters[j]} ${formatCount(rec.counterStats(j, stats).last)}`, COUNTER_CHARS - 1).padEnd(
        COUNTER_CHARS,
      );
    ctx.fillStyle = DIM;
    ctx.fillText(line, gx, y);
    y += LINE;
  }
  return height;
}
