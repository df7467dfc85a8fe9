/**
 * The shared-memory layout of the region-parallel sweep and prune: which words of which buffer mean
 * what, as named offsets, and how the buffers are made.
 *
 * Following the sweep-and-prune notes, §2.3, every region runs in its own thread; the threads share
 * the boxes instead of sending them. Per-frame data never goes through a message (no structured
 * clone): the boxes' bounds, live and static flags and handles live in `SharedArrayBuffer`s that the
 * host (or the caller, through `bounds`) writes and the workers read; the host wakes each worker
 * through a command word (`Atomics.store` + `Atomics.notify`), and each worker writes its results
 * into its own output buffer before it acknowledges (`Atomics.notify` on its acknowledgement word).
 * Messages carry only the buffers themselves, once, and again when one grows.
 *
 * A frame runs in up to three phases, each a barrier (the host waits for every worker):
 * 1. classify — the workers claim chunks of the frame's boxes from a shared counter (so a worker woken
 *    late finds its share done by the others), check their bounds (when they were written straight
 *    into shared memory) and sort them into regions (one bit per region); in a walking frame (see
 *    {@link H_WALK}) each region checks and sorts its own members instead, the chunks cover only the
 *    listed boxes, and the boxes whose regions changed go into a shared list;
 * 2. frame — each region brings its own sweep and prune up to date and lists the pair changes it owns
 *    (a pair belongs to the one region holding the lowest corner of the two boxes' intersection);
 * 3. merge — each worker merges every region's changes for one range of pair keys (the lower handle)
 *    into that range of the sorted pair list, so the host only concatenates the ranges.
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
/** Worker (or its supervisor) → host: {@link STATUS_RUNNING}, {@link STATUS_FAILED} or {@link STATUS_EXITED}. */
export const C_STATUS = 4;
/** Worker → host: 1 once the worker has started and entered its command loop. */
export const C_READY = 5;
/** Host → worker: 1 when the host also wants a message per acknowledgement (no `Atomics.waitAsync`). */
export const C_POST_ACK = 6;
/** Worker → host: bytes of UTF-8 error text in the worker's stripe of the error block. */
export const C_ERROR_LENGTH = 7;

/** Bytes of error text per worker in the error block. */
export const ERROR_BYTES = 1024;

/** Command: run one frame of the region of instance `C_ARG` (phase 2). */
export const CMD_FRAME = 1;
/** Command: leave the command loop, read `C_ARG` messages (buffers, attach, detach), come back. */
export const CMD_DRAIN = 2;
/** Command: write the last frame's output of instance `C_ARG` again (its buffer was too small). */
export const CMD_RESEND = 3;
/** Command: stop. */
export const CMD_EXIT = 4;
/** Command: check and classify this worker's share of the frame's boxes (phase 1, see {@link H_MASKED}). */
export const CMD_CLASSIFY = 5;
/** Command: merge every region's pair changes for this worker's range of pair keys (phase 3). */
export const CMD_MERGE = 6;
/**
 * Command: the three phases in one, every worker of the broadphase at once: classify (when the header
 * asks), a barrier among the workers, then — unless a box failed its check or a worker failed — the
 * frame, another barrier, and — when every region's output fit — the merge. One hand-off from the host
 * per frame instead of three.
 */
export const CMD_STEP = 7;

export const STATUS_RUNNING = 0;
export const STATUS_FAILED = 1;
export const STATUS_EXITED = 2;

// --- Frame header of one broadphase instance: int32 words -----------------------------------------

/** Slots in the changed-slot list this frame. */
export const H_DIRTY = 0;
/** Slots ever handed out (every used slot is below it). */
export const H_USED = 1;
/**
 * 1 when the region layout changed: the frame looks at every used slot (live ones, and the listed
 * removed ones), static ones included.
 */
export const H_FULL = 2;
/**
 * 1 when the regions read the classify phase's bits (one per region in `masks`, by slot) instead of
 * testing every listed box against their own bounds — so each box's bounds are read by one worker, not
 * by every region (up to 31 regions).
 */
export const H_MASKED = 3;
/**
 * 1 when every live dynamic proxy's bounds may have changed (written straight into shared memory):
 * the frame looks at every used slot but the static ones not listed.
 */
export const H_ALL_MOVED = 4;
/** 1 when some listed bounds were written straight into shared memory: the classify phase checks them. */
export const H_CHECK = 5;
/** Pairs in the sorted pair list before this frame (the merge phase reads them). */
export const H_PAIRS = 6;
/** 1 once a worker failed in this `STEP`: the others skip the phases after the next barrier. */
export const H_ABORT = 9;
/**
 * Microseconds a worker spins at a barrier before it sleeps: long where every thread that runs a region
 * has a core of its own (a sleeping thread's wake-up costs more than the wait), short where they share
 * cores.
 */
export const H_SPIN_US = 10;
/**
 * 1 when the classify phase looks at every live box, static ones included (a new layout, or masks to
 * bring back in step with the regions' members after frames that did not write them; see
 * {@link H_WALK}).
 */
export const H_TAKE_ALL = 11;
/**
 * 1 when each region walks its own members and the boxes whose regions changed (`changes`), in slot
 * order, instead of the whole list: a whole-list frame (markAllMoved, a new layout) whose masks are
 * exact — every box's bits, before this frame, were the regions it is a member of — so a box that is
 * not listed, and whose bits did not change, is a member exactly where it was. Its classify phase reads
 * each region's members (checked, and their bounds kept for the walk) and the listed boxes, not the
 * whole list: a member still strictly inside its one region stays; any other member is sorted again by
 * the lowest region it was a member of (the one thread that writes its mask, after the barrier).
 */
export const H_WALK = 12;
/** 1 when the regions write their milestones into the timing block (see {@link T_STARTED}). */
export const H_TRACE = 13;
/** Next chunk of the frame's list that the classify phase hands out (its own cache line). */
export const H_CHUNK_NEXT = 16;
/** Entries in the shared change list of a walking frame so far (see {@link H_WALK}). */
export const H_CHANGES = 17;
/** Workers arrived at the current barrier of a `STEP` (see {@link CMD_STEP}; its own cache line). */
export const H_BARRIER_COUNT = 32;
/** Barriers passed so far (the waiting workers watch it change). */
export const H_BARRIER_PASSED = 33;
/** Int32 words of the header before the per-region statistics. */
export const HEADER_WORDS = 48;
/** Entries of the frame's list per classify chunk (the unit the workers claim, see {@link H_CHUNK_NEXT}). */
export const CLASSIFY_CHUNK = 1024;
/** The bit of a mask (`masks`) that says this frame looks at the box; regions use bits 0 … 30. */
export const TAKEN = 1 << 31;
/** Per region, after {@link HEADER_WORDS}: boxes held (its own and its ghosts) after the last frame. */
export const H_REGION_MEMBERS = 0;
/**
 * Per region: the first entry of the frame's list, in the chunks this worker classified, whose bounds
 * failed the check (−1: none).
 */
export const H_REGION_BAD = 1;
/**
 * Per region: how far its worker got in the current `STEP` (0 not started, 1 classified, 2 framed,
 * 3 done), so that a timeout names the worker the others wait for.
 */
export const H_REGION_PROGRESS = 2;
/** Int32 words of per-region statistics. */
export const REGION_STAT_WORDS = 3;
/** Float64 words per region in the timing block. */
export const T_STRIDE = 8;
/** Per region in the timing block: milliseconds of the region's last frame (classify and frame). */
export const T_REGION_MS = 0;
/**
 * Per region: when the worker started its last `STEP`, finished classifying, passed the first
 * barrier, finished its frame, passed the second barrier, and finished merging — absolute times in ms
 * (`performance.timeOrigin + performance.now()`, comparable across threads), for tracing: written only
 * while the header's {@link H_TRACE} asks.
 */
export const T_STARTED = 1;
export const T_CLASSIFIED = 2;
export const T_FIRST_BARRIER = 3;
export const T_FRAMED = 4;
export const T_SECOND_BARRIER = 5;
export const T_MERGED = 6;

/**
 * Where the merge phase's key splits start in the header: `regions + 1` words after the statistics;
 * worker w merges the pairs whose lower handle `a` has `split[w] <= a < split[w + 1]` (the last range
 * is closed above).
 */
export function splitsAt(regions: number): number {
  return HEADER_WORDS + REGION_STAT_WORDS * regions;
}

/** Int32 words of one instance's header for `regions` regions. */
export function headerWords(regions: number): number {
  return splitsAt(regions) + regions + 1;
}

// --- Output buffer of one region: int32 words -----------------------------------------------------

/** Pairs that began in the region at the last frame (global handles, sorted). */
export const OUT_BEGAN = 0;
/** Pairs that ended in the region at the last frame (global handles, sorted). */
export const OUT_ENDED = 1;
/** First word of the pair data: began pairs `(a, b)`, then ended pairs. */
export const OUT_PAIRS = 2;
/** Int32 words of a region's output buffer at first. */
export const OUT_INITIAL_WORDS = 4096;

// --- Output buffer of one merge range: int32 words ------------------------------------------------

/** Pairs of the range after the frame. */
export const M_PAIRS = 0;
/** Pairs of the range that began at the frame. */
export const M_BEGAN = 1;
/** Pairs of the range that ended at the frame. */
export const M_ENDED = 2;
/** First word of the data: the range's pairs, then began, then ended, `(a, b)` each. */
export const M_DATA = 3;
/** Int32 words of a merge output buffer at first. */
export const MERGE_INITIAL_WORDS = 8192;

/** The buffers of one broadphase instance, as handed to each worker (region and merge range). */
export interface InstanceBuffers {
  /** Bounds of every slot, 2·dimensions float64 each (the host's proxy store and the caller write them). */
  bounds: ArrayBufferLike;
  /** 1 per live slot (uint8). */
  alive: ArrayBufferLike;
  /** 1 per static slot (uint8). */
  statics: ArrayBufferLike;
  /** 1 per slot listed in `dirty` (uint8). */
  listed: ArrayBufferLike;
  /** The handle of every slot (int32; a removed slot keeps its old handle until the update ends). */
  handles: ArrayBufferLike;
  /** Slots changed since the last frame (int32). */
  dirty: ArrayBufferLike;
  /** Frame header, per-region statistics and the merge splits (int32). */
  header: ArrayBufferLike;
  /** Per-region timings (float64). */
  timings: ArrayBufferLike;
  /** Responsibility bounds of every region, 2·dimensions float64 each. */
  regions: ArrayBufferLike;
  /** Every region's output (int32 each); the worker's own region writes `outs[region]`. */
  outs: ArrayBufferLike[];
  /** This worker's merge output (int32). */
  merged: ArrayBufferLike;
  /** The sorted pair list of the last frame (int32 pairs; the merge phase reads it). */
  pairs: ArrayBufferLike;
  /**
   * Per slot, the regions the box belongs to, one bit each, and `TAKEN` (bit 31) when this frame looks
   * at it (uint32); the bits stay from frame to frame.
   */
  masks: ArrayBufferLike;
  /**
   * The boxes of a walking frame (see H_WALK) whose regions changed, and the listed ones, as (slot,
   * bits) pairs in no order (int32, two words a slot; H_CHANGES of them).
   */
  changes: ArrayBufferLike;
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
