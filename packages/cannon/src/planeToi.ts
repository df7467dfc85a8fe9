/**
 * Time of impact of a moving sphere or box against a cannon-es `Plane` (the half-space below the plane,
 * which `@sieve/core`'s `timeOfImpact` does not take), by the same conservative advancement
 * (seeds/003_242aab26ee069742.txt §2.4.2): the distance from the plane is exact here — the shape's
 * centre height minus its support along the normal, r + Σ hₖ|n·aₖ| — and it cannot shrink faster than
 * −n·(v − v_plane) + |ω|·L (Eq. 32 for one rotating body, L the distance from the body's centre to the
 * shape's farthest point), so stepping by (d − tolerance/2) over that rate never steps past a contact.
 * Grazing as in the core (§2.4.2 step 6): within tolerance but not approaching at the deepest point
 * (sliding along the plane), step by tolerance over the rate; a hit needs the deepest point to approach.
 *
 * Results use the core's record and statuses (`TOI_HIT`, `TOI_OVERLAP`, `TOI_ITERATION_LIMIT`,
 * `TOI_SEPARATED`); the normal points from the shape (A) into the plane (B), i.e. minus the plane's
 * normal. The plane moves with its linear velocity; a rotating plane's rotation is not followed (planes
 * in cannon are almost always static). No allocation.
 */
import {
  type CcdMotion,
  poseAtTime,
  type TimeOfImpactResult,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  TOI_RELATIVE_TOLERANCE,
  TOI_SEPARATED,
} from '@sieve/core';

/** The plane: point (0–2), unit outward normal (3–5), linear velocity (6–8), all world. */
export const PLANE_WORDS = 9;

const P = new Float64Array(3);
const Q = new Float64Array(4);
const X = new Float64Array(3);
const SAVED_X = new Float64Array(3);
const E = new Float64Array(2); // 0 distance, 1 normal speed of the deepest point (negative: approaching)

/**
 * Time of impact of a sphere (`halfExtents` null, `radius` r) or a box (`halfExtents`, `radius` 0)
 * centred at `offset` and turned by `orientation` in a body moving by `motion` over `dt`, against the
 * plane in `plane` (see {@link PLANE_WORDS}). `tolerance` undefined: 1e-3 × the shape's size. Writes
 * `out` like `timeOfImpact` and returns its status. Inputs are not validated (the caller's are).
 */
export function planeTimeOfImpact(
  offset: Float64Array,
  orientation: Float64Array,
  halfExtents: Float64Array | null,
  radius: number,
  motion: CcdMotion,
  plane: Float64Array,
  dt: number,
  tolerance: number | undefined,
  maxIterations: number,
  out: TimeOfImpactResult,
): number {
  const v = motion.linearVelocity;
  const w = motion.angularVelocity;
  const nx = plane[3];
  const ny = plane[4];
  const nz = plane[5];
  let hl = 0;
  if (halfExtents)
    hl = Math.sqrt(
      halfExtents[0] * halfExtents[0] + halfExtents[1] * halfExtents[1] + halfExtents[2] * halfExtents[2],
    );
  const reach =
    Math.sqrt(offset[0] * offset[0] + offset[1] * offset[1] + offset[2] * offset[2]) + radius + hl;
  const wl = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  // closing-rate bound per unit of frame time t
  const rate =
    dt * (-(nx * (v[0] - plane[6]) + ny * (v[1] - plane[7]) + nz * (v[2] - plane[8])) + wl * reach);
  let tol = tolerance;
  if (tol === undefined) {
    const p = motion.position;
    const scale = Math.max(1, Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]));
    tol = Math.max(TOI_RELATIVE_TOLERANCE * (radius + hl), 1e-9 * scale);
  }
  const eps =
    1e-9 *
    (Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
      Math.sqrt(plane[6] * plane[6] + plane[7] * plane[7] + plane[8] * plane[8]) +
      wl * reach);
  let t = 0;
  let safeT = -1;
  let savedD = 0;
  let iterations = 0;
  for (;;) {
    iterations++;
    evaluate(offset, orientation, halfExtents, radius, motion, plane, dt, t);
    const d = E[0];
    if (d < 0) {
      if (safeT < 0) return write(out, TOI_OVERLAP, 0, d, X, nx, ny, nz, iterations);
      return write(out, TOI_HIT, safeT, savedD, SAVED_X, nx, ny, nz, iterations);
    }
    let step: number;
    if (d <= tol) {
      if (E[1] < -eps) return write(out, TOI_HIT, t, d, X, nx, ny, nz, iterations);
      step = rate > 0 ? tol / rate : Number.POSITIVE_INFINITY;
    } else {
      step = rate > 0 ? (d - 0.5 * tol) / rate : Number.POSITIVE_INFINITY;
    }
    safeT = t;
    savedD = d;
    SAVED_X[0] = X[0];
    SAVED_X[1] = X[1];
    SAVED_X[2] = X[2];
    if (!(step < Number.POSITIVE_INFINITY) || t + step > 1) {
      return write(out, TOI_SEPARATED, 1, d, X, nx, ny, nz, iterations);
    }
    if (iterations >= maxIterations) {
      return write(out, TOI_ITERATION_LIMIT, safeT, savedD, SAVED_X, nx, ny, nz, iterations);
    }
    t += step;
  }
}

/** E = [distance to the plane, normal speed of the deepest point] and X = the deepest point, at t. */
function evaluate(
  offset: Float64Array,
  orientation: Float64Array,
  halfExtents: Float64Array | null,
  radius: number,
  motion: CcdMotion,
  plane: Float64Array,
  dt: number,
  t: number,
): void {
  poseAtTime(motion, dt, t, P, Q);
  const nx = plane[3];
  const ny = plane[4];
  const nz = plane[5];
  // body rotation, then the shape's: S = Q ⊗ orientation
  const ax = Q[0];
  const ay = Q[1];
  const az = Q[2];
  const aw = Q[3];
  // centre = P + R(Q)·offset
  const ox = offset[0];
  const oy = offset[1];
  const oz = offset[2];
  const tx = 2 * (ay * oz - az * oy);
  const ty = 2 * (az * ox - ax * oz);
  const tz = 2 * (ax * oy - ay * ox);
  let x = P[0] + ox + aw * tx + (ay * tz - az * ty);
  let y = P[1] + oy + aw * ty + (az * tx - ax * tz);
  let z = P[2] + oz + aw * tz + (ax * ty - ay * tx);
  // deepest point towards the plane: centre − r·n − Σ hₖ·sign(n·aₖ)·aₖ
  x -= radius * nx;
  y -= radius * ny;
  z -= radius * nz;
  if (halfExtents) {
    const bx = orientation[0];
    const by = orientation[1];
    const bz = orientation[2];
    const bw = orientation[3];
    let sx = aw * bx + ax * bw + ay * bz - az * by;
    let sy = aw * by - ax * bz + ay * bw + az * bx;
    let sz = aw * bz + ax * by - ay * bx + az * bw;
    let sw = aw * bw - ax * bx - ay * by - az * bz;
    const len = Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
    sx /= len;
    sy /= len;
    sz /= len;
    sw /= len;
    for (let k = 0; k < 3; k++) {
      // column k of R(S)
      let cx: number;
      let cy: number;
      let cz: number;
      if (k === 0) {
        cx = 1 - 2 * (sy * sy + sz * sz);
        cy = 2 * (sx * sy + sz * sw);
        cz = 2 * (sx * sz - sy * sw);
      } else if (k === 1) {
        cx = 2 * (sx * sy - sz * sw);
        cy = 1 - 2 * (sx * sx + sz * sz);
        cz = 2 * (sy * sz + sx * sw);
      } else {
        cx = 2 * (sx * sz + sy * sw);
        cy = 2 * (sy * sz - sx * sw);
        cz = 1 - 2 * (sx * sx + sy * sy);
      }
      const dn = cx * nx + cy * ny + cz * nz;
      const h = halfExtents[k];
      const s = dn > 0 ? -h : h;
      x += s * cx;
      y += s * cy;
      z += s * cz;
    }
  }
  X[0] = x;
  X[1] = y;
  X[2] = z;
  // distance = height of the deepest point above the plane at t
  const s = t * dt;
  E[0] =
    nx * (x - plane[0] - s * plane[6]) +
    ny * (y - plane[1] - s * plane[7]) +
    nz * (z - plane[2] - s * plane[8]);
  // velocity of the deepest point relative to the plane: v + ω × (x − P) − v_plane
  const v = motion.linearVelocity;
  const w = motion.angularVelocity;
  const rx = x - P[0];
  const ry = y - P[1];
  const rz = z - P[2];
  const ux = v[0] + w[1] * rz - w[2] * ry - plane[6];
  const uy = v[1] + w[2] * rx - w[0] * rz - plane[7];
  const uz = v[2] + w[0] * ry - w[1] * rx - plane[8];
  E[1] = ux * nx + uy * ny + uz * nz;
}

function write(
  out: TimeOfImpactResult,
  status: number,
  t: number,
  d: number,
  x: Float64Array,
  nx: number,
  ny: number,
  nz: number,
  iterations: number,
): number {
  out.status = status;
  out.t = t;
  out.distance = d;
  out.iterations = iterations;
  out.normal[0] = -nx + 0;
  out.normal[1] = -ny + 0;
  out.normal[2] = -nz + 0;
  out.pointA[0] = x[0];
  out.pointA[1] = x[1];
  out.pointA[2] = x[2];
  out.pointB[0] = x[0] - d * nx;
  out.pointB[1] = x[1] - d * ny;
  out.pointB[2] = x[2] - d * nz;
  for (let i = 0; i < 3; i++) out.point[i] = 0.5 * (out.pointA[i] + out.pointB[i]);
  return status;
}

/**
 * Writes to `out` (see {@link PLANE_WORDS}) the plane of a cannon `Plane` placed at `offset` and turned
 * by `orientation` in a body at the start pose of motion `m` (point, normal R(q)·R(orientation)·z,
 * the body's linear velocity).
 */
export function planeOfPart(
  offset: Float64Array,
  orientation: Float64Array,
  m: CcdMotion,
  out: Float64Array,
): void {
  const q = m.quaternion;
  const p = m.position;
  const o = offset;
  const qx = q[0];
  const qy = q[1];
  const qz = q[2];
  const qw = q[3];
  const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  const ax = qx / len;
  const ay = qy / len;
  const az = qz / len;
  const aw = qw / len;
  let tx = 2 * (ay * o[2] - az * o[1]);
  let ty = 2 * (az * o[0] - ax * o[2]);
  let tz = 2 * (ax * o[1] - ay * o[0]);
  out[0] = p[0] + o[0] + aw * tx + (ay * tz - az * ty);
  out[1] = p[1] + o[1] + aw * ty + (az * tx - ax * tz);
  out[2] = p[2] + o[2] + aw * tz + (ax * ty - ay * tx);
  // normal = R(q)·R(orientation)·(0, 0, 1)
  const s = orientation;
  const sx = s[0];
  const sy = s[1];
  const sz = s[2];
  const sw = s[3];
  const ls = Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
  const lx = (2 * (sx * sz + sy * sw)) / (ls * ls);
  const ly = (2 * (sy * sz - sx * sw)) / (ls * ls);
  const lz = 1 - (2 * (sx * sx + sy * sy)) / (ls * ls);
  tx = 2 * (ay * lz - az * ly);
  ty = 2 * (az * lx - ax * lz);
  tz = 2 * (ax * ly - ay * lx);
  let nx = lx + aw * tx + (ay * tz - az * ty);
  let ny = ly + aw * ty + (az * tx - ax * tz);
  let nz = lz + aw * tz + (ax * ty - ay * tx);
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  nx /= nl;
  ny /= nl;
  nz /= nl;
  out[3] = nx;
  out[4] = ny;
  out[5] = nz;
  out[6] = m.linearVelocity[0];
  out[7] = m.linearVelocity[1];
  out[8] = m.linearVelocity[2];
}
