/**
 * The host's pair lists of the region-parallel sweep and prune: the sorted pair list and the began and
 * ended lists of the last update, assembled by concatenating the merge phase's key ranges (merge.ts),
 * with the tags of their handles — the read side of the broadphase contract, O(pairs) in copies and
 * nothing else per update. The lists are published through {@link PairLists}, as a single broadphase's
 * pair set publishes its own.
 *
 * The sorted pair list lives in shared memory: the next frame's merge phase reads it there.
 */
import { growArray } from '../../growArray.js';
import { PairLists } from '../pairLists.js';
import { copyRange } from './copyRange.js';
import { M_BEGAN, M_DATA, M_ENDED, M_PAIRS, makeBuffer } from './shared.js';

/** Sorted pairs, began and ended, as the contract reports them; filled from the merge outputs. */
export class MergedPairs extends PairLists {
  constructor(private readonly shared: boolean) {
    super(new Int32Array(makeBuffer(4 * 128, shared)));
  }

  /** The sorted pair list's buffer (shared with the workers: the next frame's merge reads it). */
  get sortedBuffer(): Int32Array {
    return this.sorted;
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
    for (let r = 0; r < merged.length; r++) {
      const m = merged[r];
      const mp = 2 * m[M_PAIRS];
      const mb = 2 * m[M_BEGAN];
      const me = 2 * m[M_ENDED];
      copyRange(this.sorted, p, m, M_DATA, mp);
      copyRange(this.beganPairs, b, m, M_DATA + mp, mb);
      copyRange(this.endedPairs, e, m, M_DATA + mp + mb, me);
      p += mp;
      b += mb;
      e += me;
    }
    this.sortedCount = np;
    this.beganTotal = nb;
    this.endedTotal = ne;
    this.published(tags);
    return grew;
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
