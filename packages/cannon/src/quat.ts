/**
 * Quaternion helpers on `[x, y, z, w]` arrays shared by the bullet sweep (`bullets.ts`), its shape
 * parts (`ccdShapes.ts`) and the plane time of impact (`planeToi.ts`). (The rotation axes of a
 * quaternion are `@sieve/core`'s `quatToAxes`.)
 */

/** out[o..o+2] = R(q)·(x, y, z) for a unit quaternion q = [x, y, z, w]. */
export function rotateVec(
  q: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  o = 0,
): void {
  const qx = q[0];
  const qy = q[1];
  const qz = q[2];
  const qw = q[3];
  // t = 2 q×v; v' = v + w t + q×t
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[o] = x + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = z + qw * tz + (qx * ty - qy * tx);
}

/** out = a ⊗ b (quaternions [x, y, z, w]); `out` may be an input's array. */
export function quatMul(
  ax: number,
  ay: number,
  az: number,
  aw: number,
  bx: number,
  by: number,
  bz: number,
  bw: number,
  out: Float64Array,
): void {
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}
