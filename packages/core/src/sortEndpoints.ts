/**
 * The one bulk sort of the sweeps: values with a token each, by (value, token bit 0) — quicksort with a
 * median-of-three pivot and an explicit stack (Sedgewick's formulation), insertion sort for short runs.
 * The sweep and prune sorts a region's endpoints with it when the region fills from empty; the cannon
 * adapter's sort and sweep its bodies' lower bounds when its order is too far from sorted to repair.
 */

const sortStack = new Int32Array(128);

/**
 * Sorts endpoints `[first, last]` by (value, isMax) in place: quicksort, insertion sort for short runs.
 * `v` holds the values, `t` a token each, moved with its value; bit 0 of a token breaks ties (a min
 * before a max), so tokens with bit 0 clear are ordered by value alone.
 *
 * @internal
 */
export function sortEndpoints(v: Float64Array, t: Int32Array, first: number, last: number): void {
  let top = 0;
  sortStack[top++] = first;
  sortStack[top++] = last;
  while (top > 0) {
    let hi = sortStack[--top];
    let lo = sortStack[--top];
    while (hi - lo > 24) {
      const mid = (lo + hi) >>> 1;
      // Median of three as pivot.
      const a = v[lo];
      const b = v[mid];
      const c = v[hi];
      const m = a < b ? (b < c ? mid : a < c ? hi : lo) : a < c ? lo : b < c ? hi : mid;
      const pv = v[m];
      const pf = t[m] & 1;
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (v[i] < pv || (v[i] === pv && (t[i] & 1) < pf)) i++;
        while (v[j] > pv || (v[j] === pv && (t[j] & 1) > pf)) j--;
        if (i <= j) {
          const tv = v[i];
          v[i] = v[j];
          v[j] = tv;
          const tt = t[i];
          t[i] = t[j];
          t[j] = tt;
          i++;
          j--;
        }
      }
      // Loop on the smaller side, push the larger: the stack stays under 2·log2(n) entries.
      if (j - lo < hi - i) {
        sortStack[top++] = i;
        sortStack[top++] = hi;
        hi = j;
      } else {
        sortStack[top++] = lo;
        sortStack[top++] = j;
        lo = i;
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const value = v[i];
      const token = t[i];
      const f = token & 1;
      let j = i - 1;
      while (j >= lo && (v[j] > value || (v[j] === value && (t[j] & 1) > f))) {
        v[j + 1] = v[j];
        t[j + 1] = t[j];
        j--;
      }
      v[j + 1] = value;
      t[j + 1] = token;
    }
  }
}
