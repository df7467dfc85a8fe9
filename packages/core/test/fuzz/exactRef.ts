/**
 * Exact references for the fuzz suites: sphere–box gaps and squared distances in rational arithmetic
 * (BigInt on the binary values of the doubles), so any finite magnitude — 1e-300 or 1.7e308 — is
 * judged without rounding, overflow or underflow.
 */
import { scaled } from '../narrowphase/exact.js';

/** Fixed-point exponent of {@link scaled}: a double v is `scaled(v) / 2^1074`. */
const S = 1074n;

const abs = (x: bigint) => (x < 0n ? -x : x);

/** x / 2^e as the nearest double (Infinity past the double range, 0 below it). */
export function bigToNumber(x: bigint, e: number): number {
  if (x === 0n) return 0;
  const neg = x < 0n;
  let m = neg ? -x : x;
  const bits = m.toString(2).length;
  let shift = 0;
  if (bits > 60) {
    shift = bits - 60;
    m >>= BigInt(shift);
  }
  let exp = shift - e;
  let v = Number(m);
  // Apply 2^exp in steps that stay inside the double range.
  while (exp > 1000) {
    v *= 2 ** 1000;
    exp -= 1000;
  }
  while (exp < -1000) {
    v *= 2 ** -1000;
    exp += 1000;
  }
  v *= 2 ** exp;
  return neg ? -v : v;
}

/**
 * Exact gaps of a point to a box: centre `c` (or the origin when null), unit axes `e` (dim² row by row),
 * half extents `h`. Returns Σ l_i² (as a BigInt at scale 2^(4·1074)) with l_i = max(|(p − c)·e_i| − h_i, 0).
 */
export function exactDistanceSq(
  p: ArrayLike<number>,
  c: ArrayLike<number> | null,
  e: ArrayLike<number>,
  h: ArrayLike<number>,
  dim: number,
): bigint {
  let d2 = 0n;
  for (let i = 0; i < dim; i++) {
    let a = 0n;
    for (let j = 0; j < dim; j++) a += (scaled(p[j]) - (c ? scaled(c[j]) : 0n)) * scaled(e[i * dim + j]);
    let l = abs(a) - (scaled(h[i]) << S);
    if (l < 0n) l = 0n;
    d2 += l * l;
  }
  return d2;
}

/** Exact squared distance from p to the axis-aligned box [min, max], at scale 2^(2·1074). */
export function exactAabbDistanceSq(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  p: ArrayLike<number>,
  dim: number,
): bigint {
  let d2 = 0n;
  for (let i = 0; i < dim; i++) {
    const x = scaled(p[i]);
    const lo = scaled(min[i]);
    const hi = scaled(max[i]);
    const g = x < lo ? lo - x : x > hi ? x - hi : 0n;
    d2 += g * g;
  }
  return d2;
}

/**
 * Compares an exact squared distance (at scale 2^(2·k·1074)) with radius²: the decision, and whether it
 * is clear — the two differ by more than `relative` × magnitude², `magnitude` the largest input
 * coordinate, size or radius (a double subtraction or projection is exact only to that, so only a
 * clear decision binds a double implementation).
 */
export function decide(
  d2: bigint,
  k: 1 | 2,
  radius: number,
  magnitude: number,
  relative = 1e-9,
): { overlap: boolean; clear: boolean } {
  const up = BigInt(k - 1) * S;
  const r = scaled(radius) << up;
  const r2 = r * r;
  const m = scaled(magnitude) << up;
  const diff = abs(d2 - r2);
  const tenths = BigInt(Math.round(1 / relative));
  return { overlap: d2 <= r2, clear: diff * tenths > m * m };
}

/** The largest magnitude among the numbers of the given arrays and values. */
export function magnitudeOf(...xs: (ArrayLike<number> | number)[]): number {
  let m = 0;
  for (const x of xs) {
    if (typeof x === 'number') m = Math.max(m, Math.abs(x));
    else for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  }
  return m;
}

/** The double nearest an exact squared distance at scale 2^(2·k·1074). */
export function distanceOf(d2: bigint, k: 1 | 2): number {
  return bigToNumber(d2, 2 * k * 1074);
}
