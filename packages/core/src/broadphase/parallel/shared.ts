/**
 * The shared-memory layout of the region-parallel sweep and prune: which words of which buffer mean
 * what, as named offsets, and how the buffers are made.
 *
 * Following the sweep-and-prune notes, §2.3, every region runs in its own thread; the threads share
 * the boxes instead of sending them. Per-frame data never goes through a message (no structured
 * clone): the host writes the boxes' bounds, live flags and the list of changed slots into
 * `SharedArrayBuffer`s, wakes each worker through a command word (`Atomics.store` + `Atomics.notify`),
 * and each worker writes its region's pair changes into its own output buffer before it acknowledges
 * (`Atomics.notify` on its acknowledgement word). Messages carry only the buffers themselves, once,
 * and again when one grows.
 *
 * Where `SharedArrayBuffer` is unavailable (a page without cross-origin isolation) the same layout
 * lives in ordinary `ArrayBuffer`s and the regions run on the calling thread.
 */

// --- Control block: one stripe of CONTROL_STRIDE int32 words per worker -----------------------------

/** Int32 words per worker in the control block (64 bytes: one cache line each). */
export const CONTROL_STRIDE = 16;
/** Host → worker: sequence number of the latest command (the worker waits on this word). */
export const C_SEQ = 0;
/** Host → worker: the command code ({@link CMD_FRAME} ...). */
export const C_CMD = 1;
/** Host → worker: the command's argument (the broadphase instance id, or a message count). */
export const C_ARG = 2;
/** Worker → host: sequence number of the last command carried out (the host waits on this word). */
export const C_ACK = 3;
/** Worker → host: {@link STATUS_RUNNING}, {@link STATUS_FAILED} or {@link STATUS_EXITED}. */
export const C_STATUS = 4;
/** Worker → host: 1 once the worker has started and entered its command loop. */
export const C_READY = 5;
/** Host → worker: 1 when the host also wants a message per acknowledgement (no `Atomics.waitAsync`). */
export const C_POST_ACK = 6;
/** Worker → host: bytes of UTF-8 error text in the worker's stripe of the error block. */
export const C_ERROR_LENGTH = 7;

/** Bytes of error text per worker in the error block. */
export const ERROR_BYTES = 1024;

/** Command: run one frame of the region of instance `C_ARG`. */
export const CMD_FRAME = 1;
/** Command: leave the command loop, read `C_ARG` messages (buffers, attach, detach), come back. */
export const CMD_DRAIN = 2;
/** Command: write the last frame's output of instance `C_ARG` again (its buffer was too small). */
export const CMD_RESEND = 3;
/** Command: stop. */
export const CMD_EXIT = 4;
/**
 * Command: find which regions each changed slot of this worker's share of the frame's list belongs to
 * (the first phase of a two-phase frame, see {@link H_MASKED}).
 */
export const CMD_CLASSIFY = 5;

export const STATUS_RUNNING = 0;
export const STATUS_FAILED = 1;
export const STATUS_EXITED = 2;

// --- Frame header of one broadphase instance: int32 words -----------------------------------------

/** Slots in the changed-slot list this frame. */
export const H_DIRTY = 0;
/** Slots ever handed out (every used slot is below it). */
export const H_USED = 1;
/** 1 when the region layout changed: every used slot is looked at, not only the changed ones. */
export const H_FULL = 2;
/**
 * 1 when the frame runs in two phases: first every worker classifies its share of the listed slots
 * against all regions (one bit per region in `masks`), then each region reads only the bits — so each
 * box's bounds are read by one worker, not by every region (up to 32 regions).
 */
export const H_MASKED = 3;
/** Int32 words of the header before the per-region statistics. */
export const HEADER_WORDS = 4;
/** Per region, after {@link HEADER_WORDS}: boxes held (its own and its ghosts) after the last frame. */
export const H_REGION_MEMBERS = 0;
/** Int32 words of per-region statistics. */
export const REGION_STAT_WORDS = 2;
/** Float64 words per region in the timing block: milliseconds of the region's last frame. */
export const T_REGION_MS = 0;

// --- Output buffer of one region: int32 words -----------------------------------------------------

/** Pairs that began in the region at the last frame (global slots). */
export const OUT_BEGAN = 0;
/** Pairs that ended in the region at the last frame (global slots). */
export const OUT_ENDED = 1;
/** First word of the pair data: began pairs `(a, b)`, then ended pairs. */
export const OUT_PAIRS = 2;
/** Int32 words of a region's output buffer at first. */
export const OUT_INITIAL_WORDS = 4096;

/** The buffers of one broadphase instance, as handed to each region's runner. */
export interface InstanceBuffers {
  /** Bounds of every slot, 2·dimensions float64 each (the host's proxy store writes them). */
  bounds: ArrayBufferLike;
  /** 1 per live slot (uint8). */
  alive: ArrayBufferLike;
  /** Slots changed since the last frame (int32). */
  dirty: ArrayBufferLike;
  /** Frame header and per-region statistics (int32). */
  header: ArrayBufferLike;
  /** Per-region timings (float64). */
  timings: ArrayBufferLike;
  /** Responsibility bounds of every region, 2·dimensions float64 each. */
  regions: ArrayBufferLike;
  /** This region's output (int32). */
  out: ArrayBufferLike;
  /** Per entry of the frame's slot list, the regions the box belongs to, one bit each (uint32). */
  masks: ArrayBufferLike;
}

/**
 * Whether threads can share memory here: `SharedArrayBuffer` exists and, in a browser, the page is
 * cross-origin isolated (without it the constructor may exist but cannot be posted to a worker).
 */
export function sharedMemoryAvailable(): boolean {
  if (typeof SharedArrayBuffer !== 'function') return false;
  const g = globalThis as { crossOriginIsolated?: boolean };
  return g.crossOriginIsolated !== false;
}

/** A zeroed buffer of `bytes` bytes: shared when `shared`, an ordinary ArrayBuffer otherwise. */
export function makeBuffer(bytes: number, shared: boolean): ArrayBufferLike {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/** Int32 words of one instance's header for `regions` regions. */
export function headerWords(regions: number): number {
  return HEADER_WORDS + REGION_STAT_WORDS * regions;
}
