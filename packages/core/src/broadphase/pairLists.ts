/**
 * The read side of the broadphase contract: the sorted pair list and the began and ended lists of the
 * last update, as handle pairs, with views, the raw buffers and the tags of their handles. Whoever
 * fills them — the pair set of a single broadphase (Bullet's hashed pair cache), or the host of the
 * region-parallel sweep and prune concatenating its workers' merged ranges — publishes them through
 * this one class, so `pairs()`, `pairBuffers()` and `pairTags()` behave the same everywhere.
 */
import { growArray } from '../growArray.js';
import { SLOT_MASK } from './proxies.js';
import type { PairBuffers } from './types.js';

/**
 * Sorted pairs, began and ended (handle pairs, `a < b`, ascending), and their tags.
 *
 * @internal
 */
export abstract class PairLists {
  /** Sorted handle pairs after the last update (the first `2 · sortedCount` entries). */
  protected sorted: Int32Array;
  /** Pairs in {@link PairLists.sorted}. */
  protected sortedCount = 0;
  /** Handle pairs that began at the last update, sorted (the first `2 · beganTotal` entries). */
  protected beganPairs: Int32Array = new Int32Array(64);
  /** Pairs in {@link PairLists.beganPairs}. */
  protected beganTotal = 0;
  /** Handle pairs that ended at the last update, sorted (the first `2 · endedTotal` entries). */
  protected endedPairs: Int32Array = new Int32Array(64);
  /** Pairs in {@link PairLists.endedPairs}. */
  protected endedTotal = 0;
  /** Tags of the pairs' handles, entry for entry (filled on demand; the ended ones at the update). */
  private pairTagBuffer: Int32Array = new Int32Array(64);
  private beganTagBuffer: Int32Array = new Int32Array(64);
  private endedTagBuffer: Int32Array = new Int32Array(64);
  private tagsFilled = false;
  /** Whether the last update kept the ended pairs' tags (else they read 0). */
  private endedTagsKept = false;
  private readonly buffersOut: PairBuffers;
  private readonly tagsOut: PairBuffers;
  private sortedView: Int32Array;
  private beganView: Int32Array;
  private endedView: Int32Array;

  /** Starts with empty lists; `sorted` is the sorted list's first buffer (shared memory, or not). */
  protected constructor(sorted: Int32Array) {
    this.sorted = sorted;
    this.buffersOut = { pairs: sorted, began: this.beganPairs, ended: this.endedPairs };
    this.tagsOut = { pairs: this.pairTagBuffer, began: this.beganTagBuffer, ended: this.endedTagBuffer };
    this.sortedView = sorted.subarray(0, 0);
    this.beganView = this.beganPairs.subarray(0, 0);
    this.endedView = this.endedPairs.subarray(0, 0);
  }

  /**
   * Closes an update's lists: tags are read afresh at the next {@link PairLists.tags}; with `tags` (per slot),
   * the ended pairs' tags are kept now — their slots may be reused before they are read. Without, the
   * ended pairs' tags read 0.
   */
  protected published(tags: Int32Array | undefined): void {
    this.tagsFilled = false;
    this.endedTagsKept = tags !== undefined;
    if (tags !== undefined && this.endedTotal > 0) {
      this.endedTagBuffer = fillTags(this.endedTagBuffer, this.endedPairs, 2 * this.endedTotal, tags);
    }
  }

  /** Pairs in the sorted list. */
  get count(): number {
    return this.sortedCount;
  }

  /** Pairs that began at the last update. */
  get beganCount(): number {
    return this.beganTotal;
  }

  /** Pairs that ended at the last update. */
  get endedCount(): number {
    return this.endedTotal;
  }

  /** Every pair, sorted, as of the last update (a view into a reused buffer). */
  pairs(): Int32Array {
    this.sortedView = view(this.sortedView, this.sorted, this.sortedCount);
    return this.sortedView;
  }

  /** The pairs that began at the last update, sorted. */
  began(): Int32Array {
    this.beganView = view(this.beganView, this.beganPairs, this.beganTotal);
    return this.beganView;
  }

  /** The pairs that ended at the last update, sorted. */
  ended(): Int32Array {
    this.endedView = view(this.endedView, this.endedPairs, this.endedTotal);
    return this.endedView;
  }

  /**
   * The buffers behind {@link pairs}, {@link began} and {@link ended}, for loops that must not create
   * a view: the first `2 · count` entries are valid. A buffer is replaced only when it grows.
   */
  buffers(): PairBuffers {
    this.buffersOut.pairs = this.sorted;
    this.buffersOut.began = this.beganPairs;
    this.buffersOut.ended = this.endedPairs;
    return this.buffersOut;
  }

  /**
   * The tags of the handles in {@link buffers}, entry for entry (`tags` per slot): the pairs' and
   * began pairs' filled at the first call after an update, the ended pairs' at the update itself
   * (0 when they were not kept).
   */
  tags(tags: Int32Array): PairBuffers {
    if (!this.tagsFilled) {
      this.pairTagBuffer = fillTags(this.pairTagBuffer, this.sorted, 2 * this.sortedCount, tags);
      this.beganTagBuffer = fillTags(this.beganTagBuffer, this.beganPairs, 2 * this.beganTotal, tags);
      if (!this.endedTagsKept) {
        this.endedTagBuffer = growArray(this.endedTagBuffer, 2 * this.endedTotal);
        this.endedTagBuffer.fill(0, 0, 2 * this.endedTotal);
      }
      this.tagsFilled = true;
    }
    this.tagsOut.pairs = this.pairTagBuffer;
    this.tagsOut.began = this.beganTagBuffer;
    this.tagsOut.ended = this.endedTagBuffer;
    return this.tagsOut;
  }
}

/** Writes the tag of each of the first `n` handles of `handles` into `out` (grown if needed). */
export function fillTags(out: Int32Array, handles: Int32Array, n: number, tags: Int32Array): Int32Array {
  const buffer = growArray(out, n);
  for (let i = 0; i < n; i++) buffer[i] = tags[handles[i] & SLOT_MASK];
  return buffer;
}

/** A view of the first `count` pairs of `buffer`, reusing `previous` when it already is that view. */
export function view(previous: Int32Array, buffer: Int32Array, count: number): Int32Array {
  if (previous.buffer === buffer.buffer && previous.length === 2 * count) return previous;
  return buffer.subarray(0, 2 * count);
}
