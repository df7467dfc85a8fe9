/**
 * Binary search over the sorted int32 lists of the region-parallel broadphase: a region's member slots
 * (one number an entry) and the merge phase's pair lists (two, searched by the first).
 */

/**
 * First index i in [from, to) whose key `list[offset + stride · i]` is ≥ `key` (`to` if none), the keys
 * being sorted.
 */
export function lowerBound(
  list: Int32Array,
  offset: number,
  stride: number,
  from: number,
  to: number,
  key: number,
): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[offset + stride * mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
