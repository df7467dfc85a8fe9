/**
 * The quaternion module of Sieve and its adapters (`[x, y, z, w]`, three.js and cannon-es order):
 * rotation axes of a quaternion, the Hamilton product, rotating a vector, and uniform random rotations
 * (Shoemake's method, used to rotate configurations in the OCSI paper's benchmark, §3).
 */
import type { WritableArrayLike } from './vec3.js';

/**
 * Writes the three unit axes of the rotation `q` (the columns of its rotation matrix, i.e. where the
 * local x, y and z axes point) row by row to `out[oo..oo+8]`: e0x, e0y, e0z, e1x, …, e2z.
 *
 * `q = [x, y, z, w]` at `q[qo..qo+3]` need not be normalized (it is scaled by 1/|q|² here); a zero
 * quaternion gives the identity. Returns `out`.
 */
export function quatToAxes<T extends WritableArrayLike>(q: ArrayLike<number>, qo: number, out: T, oo = 0): T {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const n = x * x + y * y + z * z + w * w;
  const s = n > 0 ? 2 / n : 0;
  const xs = x * s;
  const ys = y * s;
  const zs = z * s;
  const xx = x * xs;
  const yy = y * ys;
  const zz = z * zs;
  const xy = x * ys;
  const xz = x * zs;
  const yz = y * zs;
  const wx = w * xs;
  const wy = w * ys;
  const wz = w * zs;
  // e0 = R·(1,0,0), e1 = R·(0,1,0), e2 = R·(0,0,1)
  out[oo] = 1 - (yy + zz);
  out[oo + 1] = xy + wz;
  out[oo + 2] = xz - wy;
  out[oo + 3] = xy - wz;
  out[oo + 4] = 1 - (xx + zz);
  out[oo + 5] = yz + wx;
  out[oo + 6] = xz + wy;
  out[oo + 7] = yz - wx;
  out[oo + 8] = 1 - (xx + yy);
  return out;
}

/**
 * A rotation uniformly distributed over SO(3) from three independent uniform numbers in [0, 1)
 * (K. Shoemake, "Uniform random rotations", Graphics Gems III). Writes `[x, y, z, w]` to `out[oo..]`.
 */
export function randomRotationQuat<T extends WritableArrayLike>(
  u1: number,
  u2: number,
  u3: number,
  out: T,
  oo = 0,
): T {
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  const t2 = 2 * Math.PI * u2;
  const t3 = 2 * Math.PI * u3;
  out[oo] = a * Math.sin(t2);
  out[oo + 1] = a * Math.cos(t2);
  out[oo + 2] = b * Math.sin(t3);
  out[oo + 3] = b * Math.cos(t3);
  return out;
}

/**
 * `out[oo..oo+3] = a[ao..] ⊗ b[bo..]`, the Hamilton product of two `[x, y, z, w]` quaternions (the
 * rotation b, then a). `out` may be `a` or `b` (every input is read before anything is written).
 * Typed arrays and offsets, not numbers, so that a call V8 does not inline boxes no doubles.
 */
export function quatMultiply(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  out: Float64Array,
  oo: number,
): void {
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const aw = a[ao + 3];
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  const bw = b[bo + 3];
  out[oo] = aw * bx + bw * ax + ay * bz - az * by;
  out[oo + 1] = aw * by + bw * ay + az * bx - ax * bz;
  out[oo + 2] = aw * bz + bw * az + ax * by - ay * bx;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * `out[oo..oo+2] = R(q)·v` for the unit quaternion `q[qo..qo+3]` and the vector `v[vo..vo+2]`
 * (`v' = v + 2w(q×v) + 2q×(q×v)`). `out` may be `v`.
 */
export function quatRotate(
  q: ArrayLike<number>,
  qo: number,
  v: ArrayLike<number>,
  vo: number,
  out: Float64Array,
  oo: number,
): void {
  const x = v[vo];
  const y = v[vo + 1];
  const z = v[vo + 2];
  const qx = q[qo];
  const qy = q[qo + 1];
  const qz = q[qo + 2];
  const qw = q[qo + 3];
  const cx = qy * z - qz * y;
  const cy = qz * x - qx * z;
  const cz = qx * y - qy * x;
  out[oo] = x + 2 * (qw * cx + qy * cz - qz * cy);
  out[oo + 1] = y + 2 * (qw * cy + qz * cx - qx * cz);
  out[oo + 2] = z + 2 * (qw * cz + qx * cy - qy * cx);
}

/**
 * {@link quatToAxes} for a quaternion known to be of unit length (not rescaled, so a few operations
 * fewer), into a `Float64Array` (monomorphic stores: the continuous-collision poses call it per step).
 */
export function unitQuatToAxes(q: ArrayLike<number>, qo: number, out: Float64Array, oo: number): void {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const yy = y * y2;
  const zz = z * z2;
  const xy = x * y2;
  const xz = x * z2;
  const yz = y * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[oo] = 1 - (yy + zz);
  out[oo + 1] = xy + wz;
  out[oo + 2] = xz - wy;
  out[oo + 3] = xy - wz;
  out[oo + 4] = 1 - (xx + zz);
  out[oo + 5] = yz + wx;
  out[oo + 6] = xz + wy;
  out[oo + 7] = yz - wx;
  out[oo + 8] = 1 - (xx + yy);
}
