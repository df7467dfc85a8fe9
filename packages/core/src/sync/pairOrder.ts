/**
 * Puts an engine's pairs in the order the engine's own broadphase would emit them, in O(pairs + N).
 *
 * A broadphase reports pairs in its own order (Sieve's: by handle); an engine that must stay bit-identical
 * to its stock loop needs them in that loop's order, which is an order by two small integer keys — the
 * positions of the two bodies in the engine's list (cannon-es's `NaiveBroadphase`: by the later body,
 * then the earlier), or their ranks in a sort (matter-js's sort by `bounds.min.x`). Two stable counting
 * sorts, least significant key first, give that order without comparisons (the LSD radix sort of Cormen
 * et al., Introduction to Algorithms, §8.3, with counting sort as the stable pass); short lists use an
 * insertion sort instead. Both are stable: pairs with equal keys keep their push order.
 */
import { growArray } from '../growArray.js';

/** Lists at most this long are insertion-sorted (cheaper than two passes over N counters). */
const SHORT = 24;

/**
 * A list of pairs keyed `(first, second)`, each key an integer in `[0, keys)`, sortable into ascending
 * order by first key, then second. Reused across steps: nothing is allocated once warm.
 */
export class PairOrder {
  /** The first key of each pair, in push order. */
  first = new Int32Array(64);
  /** The second key of each pair, in push order. */
  second = new Int32Array(64);
  /** Pairs pushed since the last {@link PairOrder.clear}. */
  count = 0;
  /** After {@link PairOrder.sort}: `order[k]` is the push index of the k-th pair in sorted order. */
  order = new Int32Array(64);
  private scratch = new Int32Array(64);
  private counts = new Int32Array(64);

  /** Empties the list (keeps its buffers). */
  clear(): void {
    this.count = 0;
  }

  /** Makes room for `count` pairs without growing again. */
  reserve(count: number): void {
    if (this.first.length >= count) return;
    this.first = growArray(this.first, count);
    this.second = growArray(this.second, count);
  }

  /** Appends the pair `(first, second)`; returns its push index. */
  push(first: number, second: number): number {
    const i = this.count;
    if (i === this.first.length) this.reserve(i + 1);
    this.first[i] = first;
    this.second[i] = second;
    this.count = i + 1;
    return i;
  }

  /**
   * Sorts the pairs by `(first, second)` ascending into {@link PairOrder.order} (the pairs themselves
   * stay in push order) and returns it. Every key must be an integer in `[0, keys)`.
   */
  sort(keys: number): Int32Array {
    const n = this.count;
    if (this.order.length < n) {
      this.order = growArray(this.order, n);
      this.scratch = growArray(this.scratch, n);
    }
    const order = this.order;
    const first = this.first;
    const second = this.second;
    if (n <= SHORT) {
      for (let i = 0; i < n; i++) {
        const f = first[i];
        const s = second[i];
        let j = i - 1;
        while (j >= 0) {
          const o = order[j];
          if (first[o] < f || (first[o] === f && second[o] <= s)) break;
          order[j + 1] = o;
          j--;
        }
        order[j + 1] = i;
      }
      return order;
    }
    if (this.counts.length < keys + 1) this.counts = growArray(this.counts, keys + 1);
    const counts = this.counts;
    const scratch = this.scratch;
    // By the second key into scratch, then stably by the first key into order.
    counts.fill(0, 0, keys + 1);
    for (let i = 0; i < n; i++) counts[second[i] + 1]++;
    for (let v = 0; v < keys; v++) counts[v + 1] += counts[v];
    for (let i = 0; i < n; i++) scratch[counts[second[i]]++] = i;
    counts.fill(0, 0, keys + 1);
    for (let i = 0; i < n; i++) counts[first[i] + 1]++;
    for (let v = 0; v < keys; v++) counts[v + 1] += counts[v];
    for (let k = 0; k < n; k++) {
      const i = scratch[k];
      order[counts[first[i]]++] = i;
    }
    return order;
  }
}
