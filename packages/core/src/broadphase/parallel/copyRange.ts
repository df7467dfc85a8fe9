/**
 * Copies a run of int32 entries between the region-parallel broadphase's lists, entry by entry: the
 * lists are copied every frame (a region's pair changes into its output buffer, a range's merged list
 * into the host's), and `to.set(from.subarray(at, at + n), toAt)` would allocate a view for each copy.
 */

/** Copies `n` entries of `from`, starting at `at`, into `to` from `toAt`. */
export function copyRange(to: Int32Array, toAt: number, from: Int32Array, at: number, n: number): void {
  for (let i = 0; i < n; i++) to[toAt + i] = from[at + i];
}
