/**
 * @sieve/overlay — a per-frame timing overlay any engine can feed: named phases, counters, rolling graphs
 * with min/median/max and a frame-budget line, JSON export, and a pixi.js binding.
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
  type SeriesStats,
} from './recorder.js';
