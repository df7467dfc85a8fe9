/**
 * Tiny offset-based vector helpers over plain or typed arrays (no objects, no allocation).
 *
 * Every vector is three consecutive numbers of an array at an offset, so the same functions read a
 * `Float64Array` of many vectors (structure-of-arrays friendly) or a plain `[x, y, z]`.
 */

/** Any writable array of numbers: a plain array or a typed array. */
export interface WritableArrayLike {
  [index: number]: number;
  /** Number of elements. */
  readonly length: number;
}

/** Dot product of the 3-vectors at `a[ao..ao+2]` and `b[bo..bo+2]`. */
export function dot3(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2];
}

/** Euclidean length of the 3-vector at `a[ao..ao+2]`. */
export function length3(a: ArrayLike<number>, ao = 0): number {
  return Math.hypot(a[ao], a[ao + 1], a[ao + 2]);
}

/** Writes `a × b` to `out[oo..oo+2]` (safe when `out` aliases an input); returns `out`. */
export function cross3<T extends WritableArrayLike>(
  out: T,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): T {
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  out[oo] = ay * bz - az * by;
  out[oo + 1] = az * bx - ax * bz;
  out[oo + 2] = ax * by - ay * bx;
  return out;
}

/** `x` clamped to [lo, hi] (lo ≤ hi). */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}
