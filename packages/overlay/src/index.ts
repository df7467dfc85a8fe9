/**
 * @sieve/overlay — a per-frame timing overlay any engine can feed: named phases, counters, rolling graphs
 * with last/median/max and a frame-budget line, an "other" row for unaccounted frame time, per-mode
 * segments compared side by side, JSON export, and a pixi.js binding (the package README is its page in
 * the API reference).
 */
export {
  type Canvas2DLike,
  type DrawOptions,
  drawOverlay,
  formatMs,
  niceCeil,
  type OverlayMode,
  overlayHeight,
  PHASE_COLORS,
} from './draw.js';
export { Overlay, type OverlayOptions } from './overlay.js';
export {
  attachToPixiTicker,
  type PixiBindingOptions,
  type TickerLike,
  type TickerOwner,
} from './pixi.js';
export {
  type ExportedFrame,
  FrameRecorder,
  type OverlayExport,
  type RecorderOptions,
  type SegmentSummary,
  type SeriesStats,
} from './recorder.js';
