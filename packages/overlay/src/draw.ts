/**
 * Canvas 2-D renderer of a {@link FrameRecorder}: a header (frame time, fps, the overlay's own cost), a
 * frame-interval graph with the frame-budget line, then per phase a text row (last, min/median/max) and a
 * rolling graph over the window, then the counters. Works on any object with the few 2-D context members
 * it uses ({@link Canvas2DLike}), so it is testable in Node with a fake context.
 *
 * Source: no seed document covers overlays; follows the issue text (issue 7, "@sieve/overlay": rolling
 * graph per phase over the last few hundred frames with min/median/max and a frame-budget line at 16.7 ms).
 * One path and one stroke per graph, statistics computed here (only when drawing), no per-point work
 * beyond a `lineTo`.
 */
import type { FrameRecorder, SeriesStats } from './recorder.js';

/** The subset of `CanvasRenderingContext2D` the renderer uses. */
export interface Canvas2DLike {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textBaseline: string;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
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
const FRAME_GRAPH = 40;
const PHASE_GRAPH = 22;
const GAP = 4;
const COUNTERS_PER_LINE = 3;
const BUDGET_COLOR = '#ff5252';
const BG = 'rgba(10, 12, 20, 0.82)';
const GRAPH_BG = 'rgba(255, 255, 255, 0.06)';
const TEXT = '#e8eaf6';
const DIM = '#9fa8da';

/** Smallest value of the 1–2–5 series that is ≥ `v`. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  const m = v / p;
  // Small tolerance so that exact 1/2/5 multiples are not bumped up by rounding.
  const step = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
  return step * p;
}

/** Formats milliseconds with 2, 1 or 0 decimals depending on magnitude. */
export function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

function formatCount(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : `${Math.round(v)}`;
}

/** Height in CSS pixels that {@link drawOverlay} needs for `rec` with these options. */
export function overlayHeight(rec: FrameRecorder, options: DrawOptions = {}): number {
  const mode = options.mode ?? 'full';
  if (mode === 'hidden') return 0;
  const hidden = options.hiddenPhases;
  let h = PAD + 2 * LINE; // header and legend
  if (mode === 'full') h += FRAME_GRAPH + GAP;
  const nP = rec.phaseNames.length;
  for (let i = 0; i < nP; i++) {
    h += LINE;
    if (mode === 'full' && !hidden?.has(i)) h += PHASE_GRAPH + GAP;
  }
  const nC = rec.counterNames.length;
  if (nC > 0) h += Math.ceil(nC / COUNTERS_PER_LINE) * LINE;
  return h + PAD;
}

const stats: SeriesStats = { min: 0, median: 0, max: 0, mean: 0, last: 0, count: 0 };

/**
 * Draws one rolling series into the box (x, y, w, h) with vertical scale `scale` ms (top of the box);
 * the newest frame is at the right edge. Values above the scale are clamped to the top.
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
  for (let j = 0; j < n; j++) {
    const s = start + j;
    const v = ring[s < cap ? s : s - cap];
    const py = v >= scale ? y : bottom - v * k;
    if (j === 0) ctx.moveTo(x0, py);
    else ctx.lineTo(x0 + j * step, py);
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
 * Draws the overlay for `rec` at the context's origin (CSS pixels; apply any device-pixel-ratio transform
 * before calling). Returns the height used. Computes min/median/max for every phase (O(window) each).
 */
export function drawOverlay(ctx: Canvas2DLike, rec: FrameRecorder, options: DrawOptions = {}): number {
  const mode = options.mode ?? 'full';
  const width = options.width ?? 300;
  const height = overlayHeight(rec, options);
  ctx.clearRect(0, 0, width, height + 1);
  if (mode === 'hidden') return 0;
  const hidden = options.hiddenPhases;
  const gx = PAD;
  const gw = width - 2 * PAD;
  const budget = rec.budgetMs;

  ctx.fillStyle = BG;
  ctx.fillRect(0, 0, width, height);
  ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
  ctx.textBaseline = 'top';

  // Header: title, fps and frame interval (median), the overlay's own amortized cost; then a legend.
  const frame = rec.frameStats(stats);
  const fps = frame.median > 0 ? 1000 / frame.median : 0;
  const frameMedian = frame.median;
  const frameMax = frame.max;
  const own = rec.overheadStats(stats).mean;
  let y = PAD;
  ctx.fillStyle = TEXT;
  ctx.fillText(
    `${options.title ?? 'Sieve'}  ${fps.toFixed(0)} fps  ${formatMs(frameMedian)} ms  self ${own.toFixed(3)} ms`,
    gx,
    y,
  );
  y += LINE;
  ctx.fillStyle = DIM;
  ctx.fillText(`${'ms'.padEnd(14)}${'last'.padStart(6)}  min/median/max  scale`, gx, y);
  y += LINE;

  if (mode === 'full') {
    const scale = niceCeil(Math.max(frameMax, budget));
    ctx.fillStyle = GRAPH_BG;
    ctx.fillRect(gx, y, gw, FRAME_GRAPH);
    drawBudget(ctx, budget, gx, y, gw, FRAME_GRAPH, scale);
    drawSeries(ctx, rec, rec.frameIntervalRing, gx, y, gw, FRAME_GRAPH, scale, TEXT);
    ctx.fillStyle = DIM;
    ctx.fillText(`frame interval, budget ${budget} ms (red)   ${scale}`, gx + 2, y + 1);
    y += FRAME_GRAPH + GAP;
  }

  const names = rec.phaseNames;
  for (let i = 0; i < names.length; i++) {
    const s = rec.phaseStats(i, stats);
    const color = PHASE_COLORS[i % PHASE_COLORS.length];
    const graph = mode === 'full' && !hidden?.has(i);
    const scale = niceCeil(Math.max(s.max, 0.05));
    ctx.fillStyle = color;
    ctx.fillRect(gx, y + 2, 7, 7);
    ctx.fillStyle = TEXT;
    const range = `${formatMs(s.min)}/${formatMs(s.median)}/${formatMs(s.max)}`;
    ctx.fillText(
      `${names[i].padEnd(12)}${formatMs(s.last).padStart(6)}  ${range.padEnd(16)}${graph ? scale : ''}`,
      gx + 11,
      y,
    );
    y += LINE;
    if (graph) {
      ctx.fillStyle = GRAPH_BG;
      ctx.fillRect(gx, y, gw, PHASE_GRAPH);
      drawBudget(ctx, budget, gx, y, gw, PHASE_GRAPH, scale);
      drawSeries(ctx, rec, rec.phaseRing(i), gx, y, gw, PHASE_GRAPH, scale, color);
      y += PHASE_GRAPH + GAP;
    }
  }

  const counters = rec.counterNames;
  for (let i = 0; i < counters.length; i += COUNTERS_PER_LINE) {
    let line = '';
    for (let j = i; j < i + COUNTERS_PER_LINE && j < counters.length; j++)
      line += `${counters[j]} ${formatCount(rec.counterStats(j, stats).last)}   `;
    ctx.fillStyle = DIM;
    ctx.fillText(line, gx, y);
    y += LINE;
  }
  return height;
}
