/**
 * Quaternion helpers: rotation axes from a quaternion (three.js order x, y, z, w) and uniform random
 * rotations (Shoemake's method, used to rotate configurations in the OCSI benchmark, seeds/000 §3).
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
