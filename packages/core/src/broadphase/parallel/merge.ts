/**
 * The merge phase of the region-parallel sweep and prune: one worker's range of pair keys.
 *
 * Each region lists the pairs it began and stopped owning this frame, sorted by `(a, b)` (global
 * handles, a < b). The pair list is cut into as many ranges of the lower handle `a` as there are
 * workers (the host picks the cuts at quantiles of the last frame's list), and worker w builds range
 * w on its own: a k-way merge of every region's began (and ended) pairs in the range — a pair whose
 * owning region changed is in one region's ended list and another's began list, and cancels out —
 * then the last frame's pairs in the range minus the ended ones, merged with the began ones. Ranges
 * are disjoint and ordered, so the host's pair list is their concatenation: the parallel merge of
 * sorted runs by splitting the key space (as in Akl and Santoro's and Varman et al.'s parallel
 * multiway merges), with no shared pair table and no lock.
 */
import { growArray } from '../../growArray.js';
import { copyRange } from './copyRange.js';
import { lowerBound } from './lowerBound.js';
import {
  H_PAIRS,
  M_BEGAN,
  M_DATA,
  M_ENDED,
  M_PAIRS,
  OUT_BEGAN,
  OUT_ENDED,
  OUT_PAIRS,
  splitsAt,
} from './shared.js';

/** Merges one range of pair keys; keeps its scratch arrays between frames (no allocation once grown). */
export class RangeMerger {
  /** Check that every ended pair was in the last frame's list (for tests: the `validate` option). */
  validate = false;
  private position = new Int32Array(8);
  private end = new Int32Array(8);
  private began = new Int32Array(64);
  private ended = new Int32Array(64);
  private pairs = new Int32Array(64);

  /**
   * Builds range `w` of the pair list from every region's output (`outs`) and the last frame's list
   * (`previous`, `header[H_PAIRS]` pairs), into `out`: pair, began and ended counts, then the pairs
   * (see shared.ts). When `out` is too small, writes only the counts and returns false (the host grows
   * it and asks again: the inputs are unchanged until the next frame).
   */
  merge(w: number, header: Int32Array, outs: Int32Array[], previous: Int32Array, out: Int32Array): boolean {
    const regions = outs.length;
    const splits = splitsAt(regions);
    const last = w === regions - 1;
    const lowKey = header[splits + w];
    const highKey = header[splits + w + 1];
    const nPrevious = header[H_PAIRS];
    const p0 = w === 0 ? 0 : lowerBound(previous, 0, 2, 0, nPrevious, lowKey);
    const p1 = last ? nPrevious : lowerBound(previous, 0, 2, p0, nPrevious, highKey);
    const nb = this.gather(outs, w, lowKey, highKey, true);
    this.began = growArray(this.began, 2 * nb);
    this.kWay(outs, this.began);
    const ne = this.gather(outs, w, lowKey, highKey, false);
    this.ended = growArray(this.ended, 2 * ne);
    this.kWay(outs, this.ended);
    // A pair that changed owner ended in one region and began in another: it did neither.
    const B = this.began;
    const E = this.ended;
    let i = 0;
    let j = 0;
    let keptB = 0;
    let keptE = 0;
    while (i < nb || j < ne) {
      const order =
        i >= nb
          ? 1
          : j >= ne
            ? -1
            : B[2 * i] !== E[2 * j]
              ? B[2 * i] - E[2 * j]
              : B[2 * i + 1] - E[2 * j + 1];
      if (order < 0) {
        B[2 * keptB] = B[2 * i];
        B[2 * keptB + 1] = B[2 * i + 1];
        keptB++;
        i++;
      } else if (order > 0) {
        E[2 * keptE] = E[2 * j];
        E[2 * keptE + 1] = E[2 * j + 1];
        keptE++;
        j++;
      } else {
        i++;
        j++;
      }
    }
    // (previous − ended) ∪ began, in order.
    this.pairs = growArray(this.pairs, 2 * (p1 - p0 + keptB));
    const P = this.pairs;
    let np = 0;
    let e = 0;
    let g = 0;
    for (let p = p0; p < p1; p++) {
      const a = previous[2 * p];
      const b = previous[2 * p + 1];
      if (e < keptE && E[2 * e] === a && E[2 * e + 1] === b) {
        e++;
        continue;
      }
      while (g < keptB && (B[2 * g] < a || (B[2 * g] === a && B[2 * g + 1] < b))) {
        P[2 * np] = B[2 * g];
        P[2 * np + 1] = B[2 * g + 1];
        np++;
        g++;
      }
      P[2 * np] = a;
      P[2 * np + 1] = b;
      np++;
    }
    for (; g < keptB; g++, np++) {
      P[2 * np] = B[2 * g];
      P[2 * np + 1] = B[2 * g + 1];
    }
    if (this.validate && e !== keptE) {
      throw new Error(
        `ParallelSweepAndPrune: range ${w} ended pair (${E[2 * e]}, ${E[2 * e + 1]}), which was not in the pair list`,
      );
    }
    out[M_PAIRS] = np;
    out[M_BEGAN] = keptB;
    out[M_ENDED] = keptE;
    if (M_DATA + 2 * (np + keptB + keptE) > out.length) return false;
    copyRange(out, M_DATA, P, 0, 2 * np);
    copyRange(out, M_DATA + 2 * np, B, 0, 2 * keptB);
    copyRange(out, M_DATA + 2 * (np + keptB), E, 0, 2 * keptE);
    return true;
  }

  /**
   * Finds, in every region's began (or ended) list, the stretch whose `a` lies in this range (into
   * `position` / `end`, as indices into `outs[r]`); returns the total number of pairs.
   */
  private gather(outs: Int32Array[], w: number, lowKey: number, highKey: number, began: boolean): number {
    const regions = outs.length;
    this.position = growArray(this.position, regions);
    this.end = growArray(this.end, regions);
    let total = 0;
    for (let r = 0; r < regions; r++) {
      const out = outs[r];
      const n = began ? out[OUT_BEGAN] : out[OUT_ENDED];
      const offset = began ? OUT_PAIRS : OUT_PAIRS + 2 * out[OUT_BEGAN];
      const from = w === 0 ? 0 : lowerBound(out, offset, 2, 0, n, lowKey);
      const to = w === regions - 1 ? n : lowerBound(out, offset, 2, from, n, highKey);
      this.position[r] = offset + 2 * from;
      this.end[r] = offset + 2 * to;
      total += to - from;
    }
    return total;
  }

  /** Merges the stretches found by {@link gather} into `into`, in order (each region's is sorted). */
  private kWay(outs: Int32Array[], into: Int32Array): void {
    const regions = outs.length;
    const position = this.position;
    const end = this.end;
    let n = 0;
    for (;;) {
      let best = -1;
      let ba = 0;
      let bb = 0;
      for (let r = 0; r < regions; r++) {
        const at = position[r];
        if (at === end[r]) continue;
        const out = outs[r];
        const a = out[at];
        const b = out[at + 1];
        if (best < 0 || a < ba || (a === ba && b < bb)) {
          best = r;
          ba = a;
          bb = b;
        }
      }
      if (best < 0) return;
      into[2 * n] = ba;
      into[2 * n + 1] = bb;
      n++;
      position[best] += 2;
    }
  }
}
