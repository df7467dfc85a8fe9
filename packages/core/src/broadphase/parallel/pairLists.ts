/**
 * The host's pair lists of the region-parallel sweep and prune: the sorted pair list and the began and
 * ended lists of the last update, assembled by concatenating the merge phase's key ranges (merge.ts),
 * with the tags of their handles — the read side of the broadphase contract, O(pairs) in copies and
 * nothing else per update.
 *
 * The sorted pair list lives in shared memory: the next frame's merge phase reads it there.
 */
import { growArray } from '../../growArray.js';
import { fillTags, view } from '../pairSet.js';
import type { PairBuffers } from '../types.js';
import { M_BEGAN, M_DATA, M_ENDED, M_PAIRS, makeBuffer } from './shared.js';

/** Sorted pairs, began and ended, as the contract reports them; filled from the merge outputs. */
export class MergedPairs {
  /** Every pair after the last update, sorted (shared with the workers). */
  sorted: Int32Array;
  private sortedCount = 0;
  private beganPairs: Int32Array = new Int32Array(64);
  private beganTotal = 0;
  private endedPairs: Int32Array = new Int32Array(64);
  private endedTotal = 0;
  private readonly buffersOut: PairBuffers;
  private pairTagBuffer: Int32Array = new Int32Array(64);
  private beganTagBuffer: Int32Array = new Int32Array(64);
  private endedTagBuffer: Int32Array = new Int32Array(64);
  private tagsFilled = false;
  private endedTagsKept = false;
  private readonly tagsOut: PairBuffers;
  private sortedView: Int32Array;
  private beganView: Int32Array;
  private endedView: Int32Array;

  constructor(private readonly shared: boolean) {
    this.sorted = new Int32Array(makeBuffer(4 * 128, shared));
    this.buffersOut = { pairs: this.sorted, began: this.beganPairs, ended: this.endedPairs };
    this.tagsOut = { pairs: this.pairTagBuffer, began: this.beganTagBuffer, ended: this.endedTagBuffer };
    this.sortedView = this.sorted.subarray(0, 0);
    this.beganView = this.beganPairs.subarray(0, 0);
    this.endedView = this.endedPairs.subarray(0, 0);
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

  /**
   * Concatenates the merge outputs, range by range, into the three lists. With `tags` (per slot),
   * keeps the ended pairs' tags (their slots may be reused before they are read). Returns whether the
   * sorted list's buffer was replaced (it grew; the workers need the new one).
   */
  assemble(merged: Int32Array[], tags: Int32Array | undefined): boolean {
    let np = 0;
    let nb = 0;
    let ne = 0;
    for (const m of merged) {
      np += m[M_PAIRS];
      nb += m[M_BEGAN];
      ne += m[M_ENDED];
    }
    let grew = false;
    if (2 * np > this.sorted.length) {
      let size = this.sorted.length;
      while (size < 2 * np) size *= 2;
      this.sorted = new Int32Array(makeBuffer(4 * size, this.shared));
      grew = true;
    }
    this.beganPairs = growArray(this.beganPairs, 2 * nb);
    this.endedPairs = growArray(this.endedPairs, 2 * ne);
    let p = 0;
    let b = 0;
    let e = 0;
    for (const m of merged) {
      const mp = 2 * m[M_PAIRS];
      const mb = 2 * m[M_BEGAN];
      const me = 2 * m[M_ENDED];
      this.sorted.set(m.subarray(M_DATA, M_DATA + mp), p);
      this.beganPairs.set(m.subarray(M_DATA + mp, M_DATA + mp + mb), b);
      this.endedPairs.set(m.subarray(M_DATA + mp + mb, M_DATA + mp + mb + me), e);
      p += mp;
      b += mb;
      e += me;
    }
    this.sortedCount = np;
    this.beganTotal = nb;
    this.endedTotal = ne;
    this.tagsFilled = false;
    this.endedTagsKept = tags !== undefined;
    if (tags !== undefined && ne > 0) {
      this.endedTagBuffer = fillTags(this.endedTagBuffer, this.endedPairs, 2 * ne, tags);
    }
    return grew;
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

  /** The buffers behind {@link pairs}, {@link began} and {@link ended}. */
  buffers(): PairBuffers {
    this.buffersOut.pairs = this.sorted;
    this.buffersOut.began = this.beganPairs;
    this.buffersOut.ended = this.endedPairs;
    return this.buffersOut;
  }

  /**
   * The tags of the handles in {@link buffers}, entry for entry (`tags` per slot): the pairs' and
   * began pairs' filled at the first call after an update, the ended pairs' at the update itself
   * (0 when no proxy had a tag then).
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

  /** Throws unless every list is strictly sorted with a < b in each pair (the `validate` option). */
  check(): void {
    const lists: Array<[string, Int32Array, number]> = [
      ['pairs', this.sorted, this.sortedCount],
      ['began', this.beganPairs, this.beganTotal],
      ['ended', this.endedPairs, this.endedTotal],
    ];
    for (const [name, list, n] of lists) {
      for (let i = 0; i < n; i++) {
        const a = list[2 * i];
        const b = list[2 * i + 1];
        if (!(a < b)) throw new Error(`ParallelSweepAndPrune: ${name} pair ${i} is (${a}, ${b})`);
        if (i > 0) {
          const pa = list[2 * i - 2];
          const pb = list[2 * i - 1];
          if (!(pa < a || (pa === a && pb < b))) {
            throw new Error(`ParallelSweepAndPrune: ${name} pair ${i} (${a}, ${b}) is out of order`);
          }
        }
      }
    }
  }
}
