/**
 * The slots changed since the last update, on the host of a region-parallel broadphase: the list the
 * workers read (`dirty`, with a shared flag per slot, `listed`), and what the next update must take
 * besides — every dynamic box (`allMoved`), bounds written straight into shared memory to check
 * (`unchecked`).
 *
 * Moves of most boxes, by one batch or one by one, make the update take every box, as `markAllMoved`
 * does: each region then reads its own members (a walking frame) instead of the whole list of moved
 * boxes. The slots that only a move listed are unlisted then; the others — inserted, removed, their
 * static flag set, or static — stay listed, since a whole-list frame reads unlisted static boxes not at
 * all and finds new or removed ones only in the list. Everything here is O(changed slots).
 */
import { growArray } from '../../growArray.js';
import { type ProxyStore, SLOT_MASK } from '../proxies.js';
import { makeBuffer } from './shared.js';

/** Moved boxes from which, when they are most of the boxes, an update takes every box. */
const WHOLE_MIN_SLOTS = 4096;

/** The changed-slot list of one region-parallel broadphase, and its frame-wide flags. */
export class ChangedSlots {
  /** Slots changed since the last update, `count` of them (shared). */
  dirty: Int32Array;
  /** 1 per slot in `dirty` (shared: the workers skip unlisted static boxes in whole-list frames). */
  listed: Uint8Array;
  count = 0;
  /** Every dynamic box is read at the next update (markAllMoved, or moves of most boxes). */
  allMoved = false;
  /** Bounds read at the next update wait for their check (written straight into shared memory). */
  unchecked = false;
  /** Whether bounds were ever written straight into shared memory (a re-cut frame checks every box then). */
  everUnchecked = false;
  /** 1 per slot listed by a move only (on this thread alone). */
  private movedOnly: Uint8Array;
  /** Slots listed by a move only. */
  private movedOnlyCount = 0;

  constructor(
    private readonly store: ProxyStore,
    private readonly shared: boolean,
  ) {
    const capacity = store.capacity;
    this.dirty = new Int32Array(makeBuffer(4 * capacity, shared));
    this.listed = new Uint8Array(makeBuffer(capacity, shared));
    this.movedOnly = new Uint8Array(capacity);
  }

  /** Lists a slot (once): inserted, removed, its static flag set. */
  mark(slot: number): void {
    if (this.listed[slot] === 0) {
      this.listed[slot] = 1;
      this.dirty[this.count++] = slot;
    } else if (this.movedOnly[slot] === 1) {
      this.movedOnly[slot] = 0;
      this.movedOnlyCount--;
    }
  }

  /** Lists a slot whose box `move` gave new bounds (checked on this thread). */
  markMoved(slot: number): void {
    if (this.listed[slot] === 0) {
      this.listed[slot] = 1;
      this.dirty[this.count++] = slot;
      this.movedOnly[slot] = 1;
      this.movedOnlyCount++;
    }
  }

  /** Lists a slot whose box was written straight into shared memory: checked at the next update. */
  markWritten(slot: number): void {
    this.mark(slot);
    this.unchecked = true;
    this.everUnchecked = true;
  }

  /** Every dynamic box may have been written straight into shared memory: all are read and checked. */
  markAllWritten(): void {
    this.allMoved = true;
    this.unchecked = true;
    this.everUnchecked = true;
  }

  /**
   * Lists the slots of a batch move's `n` handles (checked on this thread) as {@link markMoved} does —
   * only the static ones when the next update takes every dynamic box anyway, or will now that they are
   * many and most of the boxes ({@link takeWhole}).
   */
  listMoved(handles: ArrayLike<number>, n: number): void {
    const whole = this.allMoved || this.takeWhole(n);
    const listed = this.listed;
    const dirty = this.dirty;
    const movedOnly = this.movedOnly;
    const statics = this.store.statics;
    let count = this.count;
    let moved = this.movedOnlyCount;
    for (let i = 0; i < n; i++) {
      const slot = handles[i] & SLOT_MASK;
      if (listed[slot] === 0 && (!whole || statics[slot] === 1)) {
        listed[slot] = 1;
        dirty[count++] = slot;
        movedOnly[slot] = 1;
        moved++;
      }
    }
    this.count = count;
    this.movedOnlyCount = moved;
  }

  /**
   * Before a frame that takes every dynamic box — or will, now that the slots listed by a move only are
   * many and most of the boxes — unlists those of dynamic boxes: their boxes are read as members.
   */
  beforeFrame(): void {
    if (this.movedOnlyCount === 0 || (!this.allMoved && !this.takeWhole(this.movedOnlyCount))) return;
    const movedOnly = this.movedOnly;
    const listed = this.listed;
    const dirty = this.dirty;
    const statics = this.store.statics;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = dirty[i];
      if (movedOnly[slot] === 1 && statics[slot] === 0) {
        listed[slot] = 0;
        movedOnly[slot] = 0;
      } else dirty[kept++] = slot;
    }
    this.count = kept;
  }

  /** After a completed update: nothing listed, nothing to take or check. */
  clear(): void {
    const listed = this.listed;
    const movedOnly = this.movedOnly;
    for (let i = 0; i < this.count; i++) {
      listed[this.dirty[i]] = 0;
      movedOnly[this.dirty[i]] = 0;
    }
    this.count = 0;
    this.movedOnlyCount = 0;
    this.allMoved = false;
    this.unchecked = false;
  }

  /**
   * Whether `n` moved boxes, checked on this thread, make the next update take every dynamic box:
   * when they are many and most of the boxes — not once bounds were written straight into shared
   * memory, where a box written there and not yet marked is still left unread. Sets it so when they do.
   */
  private takeWhole(n: number): boolean {
    if (n < WHOLE_MIN_SLOTS || 2 * n < this.store.count || this.everUnchecked) return false;
    this.allMoved = true;
    // Every dynamic box is read, so each is checked, as after markAllMoved (which costs nothing
    // measurable): a box written into shared memory against the documentation cannot slip in unchecked.
    this.unchecked = true;
    return true;
  }

  /** Grows the per-slot arrays to `capacity` slots (after the proxy store grew): new shared buffers. */
  grow(capacity: number): void {
    const dirty = new Int32Array(makeBuffer(4 * capacity, this.shared));
    dirty.set(this.dirty.subarray(0, this.count));
    this.dirty = dirty;
    const listed = new Uint8Array(makeBuffer(capacity, this.shared));
    listed.set(this.listed);
    this.listed = listed;
    this.movedOnly = growArray(this.movedOnly, capacity);
  }
}
