/**
 * Constants and box helpers shared by the octree's layers (boxes are `[min…, max…]`, 2D numbers at an
 * offset of a flat `Float64Array`).
 */

export const NONE = -1;
/** Slot flags: moved or inserted, fat box changed — since the last update. */
export const DIRTY = 1;
export const REFAT = 2;
/** Nodes finer than this share of their centre's magnitude are not split (float resolution). */
export const RELATIVE_RESOLUTION = 2 ** -40;
/** A root this large stops growing and accepts everything (coordinates near the double range). */
export const HUGE = 1e300;

/** Whether the box at `a[p…]` overlaps `q` (inclusive). An empty box (+∞…−∞) overlaps nothing. */
export function overlapsAt(a: Float64Array, p: number, q: ArrayLike<number>, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (a[p + k] > q[d + k] || q[k] > a[p + d + k]) return false;
  }
  return true;
}

/** Whether the boxes at `a[p…]` and `c[q…]` overlap (inclusive). */
export function overlapsBoxes(a: Float64Array, p: number, c: Float64Array, q: number, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (a[p + k] > c[q + d + k] || c[q + k] > a[p + d + k]) return false;
  }
  return true;
}

/** Whether the box at `a[p…]` contains the box at `c[q…]`. */
export function containsAt(a: Float64Array, p: number, c: Float64Array, q: number, d: number): boolean {
  for (let k = 0; k < d; k++) {
    if (c[q + k] < a[p + k] || c[q + d + k] > a[p + d + k]) return false;
  }
  return true;
}

/** `a[p…] := a[p…] ∪ c[q…]`. */
export function unionAt(a: Float64Array, p: number, c: Float64Array, q: number, d: number): void {
  for (let k = 0; k < d; k++) {
    if (c[q + k] < a[p + k]) a[p + k] = c[q + k];
    if (c[q + d + k] > a[p + d + k]) a[p + d + k] = c[q + d + k];
  }
}
