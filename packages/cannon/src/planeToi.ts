/**
 * Time of impact of a moving sphere or box against a cannon-es `Plane` (the half-space below the plane,
 * which `@sieve/core`'s `timeOfImpact` does not take), by the same conservative advancement
 * (the hard-rigid-body event-driven MD paper §2.4.2): the distance from the plane is exact here — the shape's
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
  quatMultiply,
  quatRotate,
  quatToAxes,
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
const S = new Float64Array(4);
const AXES = new Float64Array(9);
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
  // centre = P + R(Q)·offset
  quatRotate(Q, 0, offset, 0, X, 0);
  // deepest point towards the plane: centre − r·n − Σ hₖ·sign(n·aₖ)·aₖ
  let x = P[0] + X[0] - radius * nx;
  let y = P[1] + X[1] - radius * ny;
  let z = P[2] + X[2] - radius * nz;
  if (halfExtents) {
    // axes aₖ of the shape's rotation S = Q ⊗ orientation
    const b = orientation;
    quatMultiply(Q, 0, b, 0, S, 0);
    quatToAxes(S, 0, AXES);
    for (let k = 0; k < 3; k++) {
      const cx = AXES[3 * k];
      const cy = AXES[3 * k + 1];
      const cz = AXES[3 * k + 2];
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
  // point = p + R(q)·offset (quatToAxes normalizes q)
  quatToAxes(q, 0, AXES);
  for (let i = 0; i < 3; i++) {
    out[i] = p[i] + offset[0] * AXES[i] + offset[1] * AXES[3 + i] + offset[2] * AXES[6 + i];
  }
  // normal = R(q ⊗ orientation)·(0, 0, 1), the third axis
  const s = orientation;
  quatMultiply(q, 0, s, 0, S, 0);
  quatToAxes(S, 0, AXES);
  const nl = Math.sqrt(AXES[6] * AXES[6] + AXES[7] * AXES[7] + AXES[8] * AXES[8]);
  out[3] = AXES[6] / nl;
  out[4] = AXES[7] / nl;
  out[5] = AXES[8] / nl;
  out[6] = m.linearVelocity[0];
  out[7] = m.linearVelocity[1];
  out[8] = m.linearVelocity[2];
}
