/**
 * The plain data types of the timing overlay: recorder options, the per-mode segment summary and the
 * JSON export format (version 3: values a frame did not measure are `null`, never a misleading 0; the
 * segments kept are those of the current world only).
 */
import { optionKeys } from './options.js';
import type { SeriesStats } from './stats.js';

/** Options of a {@link FrameRecorder}. */
export interface RecorderOptions {
  /** Number of frames kept in the rolling window (ring-buffer length), an integer in [2, 2²⁰]. Default 300. */
  capacity?: number;
  /** The frame budget in milliseconds (finite, > 0), drawn as a line on the graphs. Default 16.7 (60 Hz). */
  budgetMs?: number;
  /** Clock in milliseconds. Default `performance.now`. Injected by tests. */
  now?: () => number;
  /** Phase names to register up front, in display order. */
  phases?: readonly string[];
  /** Counter names to register up front, in display order. */
  counters?: readonly string[];
  /**
   * Label of the first segment (for example the mode a game starts in); see
   * {@link FrameRecorder.beginSegment}. Default `''`.
   */
  segment?: string;
  /**
   * What the first segment measures (a scene, a world size: `'2500 bodies'`); segments are compared
   * only with segments of the same world, see {@link FrameRecorder.beginSegment}. Default `''`.
   */
  world?: string;
}

/**
 * The keys of {@link RecorderOptions}: any other key throws a `TypeError` naming it. Kept complete by
 * the compiler (`optionKeys`): add a new option here too.
 */
export const RECORDER_OPTION_KEYS = optionKeys<RecorderOptions>({
  capacity: true,
  budgetMs: true,
  now: true,
  phases: true,
  counters: true,
  segment: true,
  world: true,
});

/**
 * Medians of one finished segment (a stretch of frames recorded under one label, such as one collision
 * mode), kept after {@link FrameRecorder.beginSegment} cleared the window so that two modes can be
 * compared side by side. A value is NaN (`null` in JSON) when no frame of the segment measured it.
 */
export interface SegmentSummary {
  /** The segment's label. */
  label: string;
  /** The world the segment measured (see {@link FrameRecorder.world}). */
  world: string;
  /** Number of frames the medians cover (the window when the segment ended). */
  frames: number;
  /** Median frame interval in ms. */
  frameMedian: number;
  /** Median of the frame time no top-level phase accounts for, in ms (see {@link FrameRecorder.otherRing}). */
  otherMedian: number;
  /** Median of each phase, by name, over the frames that measured it. */
  phases: Record<string, number>;
  /** Median of each counter, by name, over the frames that set it. */
  counters: Record<string, number>;
}

/** One exported frame (see {@link FrameRecorder.toJSON}). */
export interface ExportedFrame {
  /** Sequence number of the frame since the recorder was created or last reset (0-based). */
  index: number;
  /** Clock time at which the frame was closed, in ms. */
  time: number;
  /** Time since the previous frame was closed, in ms (`null` for the first frame). */
  frameMs: number | null;
  /** Frame time no top-level phase accounts for (render outside phases, browser, idle), in ms. */
  otherMs: number | null;
  /** Time the overlay itself spent drawing after this frame, in ms. */
  overlayMs: number;
  /** Milliseconds spent in each phase during this frame; `null` when the phase was not measured. */
  phases: Record<string, number | null>;
  /** Counter values set during this frame; `null` when not set. */
  counters: Record<string, number | null>;
}

/**
 * What {@link FrameRecorder.toJSON} returns: the recorded window, oldest frame first, its statistics and
 * the summaries of earlier segments. Statistics of a series no frame measured are NaN (`null` in JSON).
 */
export interface OverlayExport {
  /** Format version of this object (3: `world` added; `segments` holds the current world's only). */
  version: 3;
  /** Ring-buffer length. */
  capacity: number;
  /** Number of frames closed since creation or the last reset / new segment (may exceed `capacity`). */
  frameCount: number;
  /** The frame budget in ms. */
  budgetMs: number;
  /** Label of the segment the window belongs to. */
  segment: string;
  /** The world the window measured (see {@link FrameRecorder.world}). */
  world: string;
  /** Registered phase names, in registration order. */
  phases: string[];
  /** Registered counter names, in registration order. */
  counters: string[];
  /**
   * Statistics over the window: each phase and counter by name, plus `frame` (interval), `other` (frame
   * time outside every top-level phase) and `overlay` (own cost).
   */
  stats: {
    /** Each phase, by name. */
    phases: Record<string, SeriesStats>;
    /** Each counter, by name. */
    counters: Record<string, SeriesStats>;
    /** The frame interval. */
    frame: SeriesStats;
    /** Frame time no top-level phase accounts for. */
    other: SeriesStats;
    /** The overlay's own cost per frame. */
    overlay: SeriesStats;
  };
  /**
   * The last summary of every earlier segment of the current world, by label (see
   * {@link FrameRecorder.beginSegment}); segments of other worlds are left out, so nothing in the
   * export compares two worlds.
   */
  segments: Record<string, SegmentSummary>;
  /** The frames in the window, oldest first. */
  frames: ExportedFrame[];
}
