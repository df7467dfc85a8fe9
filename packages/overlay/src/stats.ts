/**
 * Window statistics of one ring buffer for the timing overlay: min, median, max, mean and last over the
 * frames in the window, skipping frames in which the series was not measured (stored as NaN). The median
 * comes from Hoare's selection algorithm (C. A. R. Hoare, "Algorithm 65: Find", CACM 1961) with a
 * median-of-three pivot: O(n) on average, into a caller-owned scratch array, no allocation.
 */

/** Summary statistics of one series over the frames in the window. */
export interface SeriesStats {
  /** Smallest measured value in the window (NaN when no frame in the window measured it). */
  min: number;
  /** Median of the measured values (mean of the two middle values for an even count; NaN if none). */
  median: number;
  /** Largest measured value in the window (NaN if none). */
  max: number;
  /** Arithmetic mean of the measured values (NaN if none). */
  mean: number;
  /** Value of the most recently closed frame (NaN when that frame did not measure it). */
  last: number;
  /** Number of frames in the window that measured the series. */
  count: number;
}

/** A fresh {@link SeriesStats} with no frames. */
export function emptyStats(): SeriesStats {
  return {
    min: Number.NaN,
    median: Number.NaN,
    max: Number.NaN,
    mean: Number.NaN,
    last: Number.NaN,
    count: 0,
  };
}

/**
 * Partially sorts `a[0..n)` so that `a[k]` holds the k-th smallest value, everything before it is ≤ and
 * everything after it is ≥. Returns `a[k]`.
 */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot guards against sorted and reverse-sorted windows (common for ramps).
    let x = a[lo];
    let y = a[mid];
    const z = a[hi];
    if (x > y) {
      const t = x;
      x = y;
      y = t;
    }
    if (y > z) {
      y = z;
      if (x > y) y = x;
    }
    const pivot = y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * Statistics of `size` frames of `ring` (length `capacity`) starting at slot `start`, into `out`.
 * NaN entries (not measured) are left out of min/median/max/mean and `count`; `last` is the newest entry
 * as stored. `scratch` must hold `size` numbers.
 */
export function ringStats(
  ring: Float32Array | Float64Array,
  start: number,
  size: number,
  scratch: Float64Array,
  out: SeriesStats,
): SeriesStats {
  const cap = ring.length;
  let n = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let last = Number.NaN;
  for (let k = 0; k < size; k++) {
    const s = start + k;
    const v = ring[s < cap ? s : s - cap];
    last = v;
    if (Number.isNaN(v)) continue; // not measured in this frame
    scratch[n++] = v;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  out.count = n;
  out.last = last;
  if (n === 0) {
    out.min = out.median = out.max = out.mean = Number.NaN;
    return out;
  }
  const h = n >>> 1;
  let median = select(scratch, n, h);
  if ((n & 1) === 0) {
    // Lower middle = largest value left of the selected one (they are all ≤ it after selection).
    let lower = scratch[0];
    for (let k = 1; k < h; k++) if (scratch[k] > lower) lower = scratch[k];
    median = (median + lower) / 2;
  }
  out.min = min;
  out.max = max;
  out.median = median;
  out.mean = sum / n;
  return out;
}
