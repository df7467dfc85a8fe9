/**
 * Moving platforms: how far a kinematic mesh's motion since the last move carries a point standing on
 * it. The mesh's world matrix then (`B`) and now (`A`) give the motion `A·B⁻¹`; the point goes where
 * that motion takes it, and the platform's turn about the up vector is read from where it takes a level
 * direction. Any affine world matrix works; a singular one (a mesh scaled to nothing) carries nothing.
 */
import { affineFromMatrix4, affineInvert } from '@sieve/core';
import { CFG, UP } from './world.js';

/** The world matrix then, its inverse, and now, as column-major 3×4 affines. */
const THEN = new Float64Array(12);
const THEN_INVERSE = new Float64Array(12);
const NOW = new Float64Array(12);
/** Result of {@link platformMotion}: the carry (0–2) and the turn about the up vector in radians (3). */
export const CARRY = new Float64Array(4);

/** Reads both matrices and inverts the old one; false if either is not an invertible affine map. */
function readMatrices(then: Float64Array, now: ArrayLike<number>): boolean {
  try {
    affineFromMatrix4(THEN, then, 'matrix');
    affineFromMatrix4(NOW, now, 'matrix');
    affineInvert(THEN_INVERSE, THEN);
  } catch {
    return false; // non-finite, projective or singular: nothing to carry
  }
  return true;
}

/** `out[0..2]` = the platform's motion applied to the point `p[o..o+2]` (`w` = 1) or direction (`w` = 0). */
function apply(p: Float64Array, o: number, w: number, out: Float64Array): void {
  const x = p[o];
  const y = p[o + 1];
  const z = p[o + 2];
  // Back into the platform's frame then (B⁻¹), out with now (A).
  const I = THEN_INVERSE;
  const lx = I[0] * x + I[3] * y + I[6] * z + w * I[9];
  const ly = I[1] * x + I[4] * y + I[7] * z + w * I[10];
  const lz = I[2] * x + I[5] * y + I[8] * z + w * I[11];
  const A = NOW;
  out[0] = A[0] * lx + A[3] * ly + A[6] * lz + w * A[9];
  out[1] = A[1] * lx + A[4] * ly + A[7] * lz + w * A[10];
  out[2] = A[2] * lx + A[5] * ly + A[8] * lz + w * A[11];
}

const P = new Float64Array(6);
const Q = new Float64Array(3);

/**
 * How far the platform whose world matrix was `then` (16 numbers) and is `now` carries the point
 * `point[0..2]`, into {@link CARRY} (its turn about the up vector too). Returns false when the matrix did
 * not change or cannot be inverted (nothing to carry).
 */
export function platformMotion(then: Float64Array, now: ArrayLike<number>, point: Float64Array): boolean {
  let same = true;
  for (let k = 0; k < 16; k++) {
    if (then[k] !== now[k]) {
      same = false;
      break;
    }
  }
  if (same || !readMatrices(then, now)) return false;
  apply(point, 0, 1, Q);
  CARRY[0] = Q[0] - point[0];
  CARRY[1] = Q[1] - point[1];
  CARRY[2] = Q[2] - point[2];
  // The turn: a level direction (perpendicular to up), moved, made level again.
  const ux = CFG[UP];
  const uy = CFG[UP + 1];
  const uz = CFG[UP + 2];
  // Any vector not parallel to up, crossed with it.
  const ax = Math.abs(ux) < 0.9 ? 1 : 0;
  const ay = ax === 1 ? 0 : 1;
  let hx = ay * uz;
  let hy = -ax * uz;
  let hz = ax * uy - ay * ux;
  const hl = Math.sqrt(hx * hx + hy * hy + hz * hz);
  hx /= hl;
  hy /= hl;
  hz /= hl;
  P[0] = hx;
  P[1] = hy;
  P[2] = hz;
  apply(P, 0, 0, Q);
  const q = Q[0] * ux + Q[1] * uy + Q[2] * uz;
  const mx = Q[0] - q * ux;
  const my = Q[1] - q * uy;
  const mz = Q[2] - q * uz;
  // sin: (h × m)·up; cos: h·m.
  const sin = (hy * mz - hz * my) * ux + (hz * mx - hx * mz) * uy + (hx * my - hy * mx) * uz;
  const cos = hx * mx + hy * my + hz * mz;
  CARRY[3] = sin === 0 && cos === 0 ? 0 : Math.atan2(sin, cos);
  return true;
}
