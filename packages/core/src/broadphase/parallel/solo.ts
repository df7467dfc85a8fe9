/**
 * The region-parallel sweep and prune with one region on the calling thread: the sequential sweep and
 * prune itself (Bullet's btAxisSweep3 lineage, as `SweepAndPrune`), with no frames, no shared memory
 * and no worker — so its pairs, their order, began/ended and tags are SweepAndPrune's by construction,
 * and so is its speed. It adds what the parallel broadphase's contract has beyond SweepAndPrune's,
 * and errors that name `ParallelSweepAndPrune`.
 *
 * Boxes written without a copy go into an array of their own, `written`, which mirrors every box the
 * methods store: the sweep and prune re-reads its proxy store's bounds wholesale (insertion-sort passes
 * over every entry of a region), so a box must reach the store only once it is checked and queued.
 * The marked boxes are checked at the next update, before anything changes, then copied into the
 * store and queued — the one copy `moveMany` makes too.
 */
import { growArray } from '../../growArray.js';
import { copyBox, SLOT_MASK, throwBadWrittenBox, wrongBox } from '../proxies.js';
import { SweepAndPrune } from '../sap/index.js';
import type { Dimensions } from '../types.js';

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * A SweepAndPrune also fed through an array of boxes written in place: a one-region
 * ParallelSweepAndPrune on the calling thread.
 */
export class SoloSweepAndPrune extends SweepAndPrune {
  protected static override readonly errorName = 'ParallelSweepAndPrune';
  /** Milliseconds of the last update (the one region's time), once {@link regionTimes} was asked for. */
  private readonly times = new Float64Array(1);
  /** Whether updates are timed: reading the clock allocates (a boxed double), so only once asked. */
  private timed = false;
  /** Boxes after the last update (the one region's members). */
  readonly members = new Int32Array(1);
  /** Every proxy's latest box as the caller sees it (the store's layout): where it writes in place. */
  written: Float64Array;
  /** Slots marked written since the last update (`markedFlag` marks them). */
  private marked: Int32Array;
  /** 1 while the slot is in `marked`. */
  private markedFlag: Uint8Array;
  private markedCount = 0;
  /** `markAllWritten()` since the last update: every live dynamic box is read too. */
  private allWritten = false;

  constructor(dimensions: Dimensions, initialCapacity: number, validate: boolean) {
    super({ dimensions, initialCapacity, validate });
    this.written = new Float64Array(this.store.bounds.length);
    this.marked = new Int32Array(this.store.capacity);
    this.markedFlag = new Uint8Array(this.store.capacity);
  }

  /** Where `handle`'s box starts in `written`. */
  offsetOf(handle: number): number {
    return this.store.slotOf(handle, 'offsetOf') * this.store.stride;
  }

  /** Queues `handle`'s box in `written` to be checked and read at the next update. */
  markWritten(handle: number): void {
    this.mark(this.store.slotOf(handle, 'markMoved'));
  }

  /** Queues every live dynamic box in `written` to be checked and read at the next update. */
  markAllWritten(): void {
    this.allWritten = true;
  }

  override insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    const handle = super.insert(bounds, tag, isStatic);
    this.mirror(handle & SLOT_MASK);
    return handle;
  }

  override move(handle: number, bounds: ArrayLike<number>): void {
    super.move(handle, bounds);
    this.mirror(handle & SLOT_MASK);
  }

  /** SweepAndPrune's (everything checked before anything changes), then each box mirrored into `written`. */
  override moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    super.moveMany(handles, bounds, count);
    const n = count ?? handles.length;
    for (let i = 0; i < n; i++) this.mirror(handles[i] & SLOT_MASK);
  }

  /** As SweepAndPrune's; a proxy whose flag changes is read again, from `written` (as the regions do). */
  override setStatic(handle: number, isStatic: boolean): void {
    // Read before the checks (super's): a bad handle throws there, before this slot's flag is used.
    const slot = handle & SLOT_MASK;
    const was = this.store.statics[slot];
    super.setStatic(handle, isStatic);
    if (this.store.statics[slot] !== was) this.mark(slot);
  }

  /** The box in `written` (what the caller last stored or wrote there). */
  override getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out, this.written);
  }

  /**
   * Checks the boxes written into `written` and marked (a bad one throws a RangeError naming its
   * proxy, before anything changes), copies them into the store and queues them, then updates as
   * SweepAndPrune does.
   */
  override update(): void {
    if (!this.timed) {
      this.step();
      return;
    }
    const t0 = now();
    this.step();
    this.times[0] = now() - t0;
  }

  /** Milliseconds of the last update, timed from the first call on (0 until an update is timed). */
  regionTimes(): Float64Array {
    this.timed = true;
    return this.times;
  }

  /** {@link update}, untimed. */
  private step(): void {
    if (this.allWritten) {
      const bad = this.firstBadInAll();
      if (bad >= 0) throwBadWrittenBox(this.store, bad, 'ParallelSweepAndPrune.update', this.written);
      this.takeAll();
    } else if (this.markedCount > 0) {
      const bad = this.firstBadMarked();
      if (bad >= 0) throwBadWrittenBox(this.store, bad, 'ParallelSweepAndPrune.update', this.written);
      this.takeMarked();
    }
    super.update();
    this.members[0] = this.store.count;
  }

  /** The one region's bounds: all of space (a new array). */
  regionBounds(): Float64Array {
    const d = this.dimensions;
    return new Float64Array(2 * d).fill(Number.NEGATIVE_INFINITY, 0, d).fill(Number.POSITIVE_INFINITY, d);
  }

  protected override grow(capacity: number): void {
    super.grow(capacity);
    const written = new Float64Array(capacity * this.store.stride);
    written.set(this.written);
    this.written = written;
    this.marked = growArray(this.marked, capacity);
    this.markedFlag = growArray(this.markedFlag, capacity);
  }

  /** Lists a slot as written (once). */
  private mark(slot: number): void {
    if (this.markedFlag[slot] === 0) {
      this.markedFlag[slot] = 1;
      this.marked[this.markedCount++] = slot;
    }
  }

  /** Copies a slot's stored box into `written`. */
  private mirror(slot: number): void {
    const s = this.store.stride;
    copyBox(this.written, slot * s, this.store.bounds, slot * s, s);
  }

  /**
   * The first slot, in slot order, that a markAllWritten update reads (live, and dynamic or marked)
   * whose box in `written` is not finite with min ≤ max, or −1: one branch-free pass over every box
   * (nothing but `written` read), and the loop that finds the slot only when something is wrong.
   */
  private firstBadInAll(): number {
    const used = this.store.used;
    const b = this.written;
    const d = this.dimensions;
    const s = 2 * d;
    let bad = 0;
    for (let o = 0, end = s * used; o < end; o += s) bad |= wrongBox(b, o, d);
    if (bad === 0) return -1;
    // Some box is wrong: the first one the update reads (a static box nobody marked, or a removed
    // one, is not read: no error).
    for (let slot = 0; slot < used; slot++) {
      if ((this.takenInAll(slot) & this.wrongAt(slot)) === 1) return slot;
    }
    return -1;
  }

  /** The first marked live slot whose box in `written` is not finite with min ≤ max, or −1. */
  private firstBadMarked(): number {
    const alive = this.store.alive;
    for (let i = 0; i < this.markedCount; i++) {
      const slot = this.marked[i];
      if ((alive[slot] & this.wrongAt(slot)) === 1) return slot;
    }
    return -1;
  }

  /** 1 when a markAllWritten update reads the slot's box: live, and dynamic or marked. */
  private takenInAll(slot: number): number {
    const store = this.store;
    return store.alive[slot] & ((store.statics[slot] ^ 1) | this.markedFlag[slot]);
  }

  /** 1 when the slot's box in `written` is not finite with min ≤ max. */
  private wrongAt(slot: number): number {
    return wrongBox(this.written, slot * 2 * this.dimensions, this.dimensions);
  }

  /**
   * Copies every live dynamic or marked box from `written` into the store and queues its move: one
   * loop with everything in locals (it runs over every box each frame an engine writes them all).
   */
  private takeAll(): void {
    const store = this.store;
    const s = store.stride;
    const box = store.bounds;
    const from = this.written;
    const alive = store.alive;
    const statics = store.statics;
    const marked = this.markedFlag;
    const inLists = this.inLists;
    const flag = this.dirtyFlag;
    const dirty = this.dirty;
    let dirtyCount = this.dirtyCount;
    for (let slot = 0, used = store.used; slot < used; slot++) {
      if ((alive[slot] & ((statics[slot] ^ 1) | marked[slot])) === 0) continue;
      copyBox(box, slot * s, from, slot * s, s);
      // markMoved (a box not listed yet is listed from the store at this update).
      if ((inLists[slot] & (flag[slot] ^ 1)) === 1) {
        flag[slot] = 1;
        dirty[dirtyCount++] = slot;
      }
    }
    this.dirtyCount = dirtyCount;
    this.clearMarks();
    this.allWritten = false;
  }

  /** Copies every marked live box from `written` into the store and queues its move. */
  private takeMarked(): void {
    const alive = this.store.alive;
    for (let i = 0; i < this.markedCount; i++) {
      const slot = this.marked[i];
      if (alive[slot] === 1) this.take(slot);
    }
    this.clearMarks();
  }

  /** Copies one box from `written` into the store and queues its move (a new box is listed from there). */
  private take(slot: number): void {
    const s = this.store.stride;
    copyBox(this.store.bounds, slot * s, this.written, slot * s, s);
    this.markMoved(slot);
  }

  private clearMarks(): void {
    for (let i = 0; i < this.markedCount; i++) this.markedFlag[this.marked[i]] = 0;
    this.markedCount = 0;
  }
}
