/**
 * Swept bounds for the broadphase, and the small motion helpers an engine adapter needs around
 * {@link timeOfImpact}: motions from the poses before and after a physics step, the pose at a time of
 * impact, and a containment test for "fat" (skinned) bounds.
 *
 * Swept bounds: the axis-aligned box of everything the shape covers during the frame, so a fast body
 * finds its broadphase candidates along the whole motion, not only at the end. Two boxes both contain
 * that set, and their intersection is returned:
 * - the hull of the shape's box at the start orientation placed at the start and at the end of the
 *   translation (exact for a pure translation), grown by the largest distance a core point can drift
 *   from its start orientation, the chord 2·L·sin(min(θ, π)/2) (θ = |ω|·dt, L = Eq. 33's bound);
 * - the hull of the bounding sphere (radius L + core radius about the body centre) at the start and
 *   the end (tight when the body spins a lot).
 *
 * Skin (the hard-rigid-body event-driven MD paper §3.3, the skin ∆NNL of the neighbour lists' bounding boxes):
 * insert a body with bounds enlarged by a margin; while its later swept bounds stay inside the stored
 * ones ({@link containsBounds}), its broadphase entry and pairs stay valid and it need not be moved. A
 * body whose distance can change at most at ḋmax (Eq. 32 for one body: ‖v‖ + ‖ω‖L) keeps a skin of
 * margin m for at least m / ḋmax time units; §4.5 of the paper tunes ∆NNL against the rebuild rate: a
 * larger skin means fewer re-insertions but more candidate pairs.
 */
import { checkFiniteArray, checkLength, checkNonNegative } from '../math/checks.js';
import type { WritableArrayLike } from '../math/vec3.js';
import { DT, KIND_MESH, kinds, meshes, prepareSide, prepareSide2D, Side, sides } from './side.js';
import type { CcdMotion, CcdMotion2D, CcdShape, CcdShape2D } from './types.js';

const BOX = new Float64Array(6);

// Throws a RangeError when the prepared side 0's displacement v·dt overflowed the double range.
function checkDisplacement(fn: string): void {
  const S = sides[0];
  for (let k = 0; k < 3; k++) {
    if (!(Math.abs(S[Side.VD + k]) <= Number.MAX_VALUE)) {
      throw new RangeError(
        `${fn}: motion.linearVelocity × dt overflows the double range on axis ${k} (got ${S[Side.VD + k]})`,
      );
    }
  }
}
const MARGIN = new Float64Array(1);

// Writes the world AABB of side 0's shape at its current pose (prepared at t = 0) into BOX.
function startBox(): void {
  const S = sides[0];
  const r = S[Side.RAD];
  let cx = S[Side.OBB];
  let cy = S[Side.OBB + 1];
  let cz = S[Side.OBB + 2];
  let h0 = S[Side.OBB + 12];
  let h1 = S[Side.OBB + 13];
  let h2 = S[Side.OBB + 14];
  if (kinds[0] === KIND_MESH) {
    const bvh = meshes[0];
    h0 = 0;
    h1 = 0;
    h2 = 0;
    if (bvh && bvh.triangleCount > 0) {
      const f = bvh.nodeF32;
      const lx = 0.5 * (f[0] + f[3]);
      const ly = 0.5 * (f[1] + f[4]);
      const lz = 0.5 * (f[2] + f[5]);
      h0 = 0.5 * (f[3] - f[0]);
      h1 = 0.5 * (f[4] - f[1]);
      h2 = 0.5 * (f[5] - f[2]);
      cx += lx * S[Side.OBB + 3] + ly * S[Side.OBB + 6] + lz * S[Side.OBB + 9];
      cy += lx * S[Side.OBB + 4] + ly * S[Side.OBB + 7] + lz * S[Side.OBB + 10];
      cz += lx * S[Side.OBB + 5] + ly * S[Side.OBB + 8] + lz * S[Side.OBB + 11];
    }
  }
  for (let j = 0; j < 3; j++) {
    const e =
      Math.abs(S[Side.OBB + 3 + j]) * h0 +
      Math.abs(S[Side.OBB + 6 + j]) * h1 +
      Math.abs(S[Side.OBB + 9 + j]) * h2 +
      r;
    const c = j === 0 ? cx : j === 1 ? cy : cz;
    BOX[j] = c - e;
    BOX[3 + j] = c + e;
  }
}

// Swept box of side 0 over the frame, in BOX (3-D layout), grown by MARGIN[0].
function sweep(): void {
  const margin = MARGIN[0];
  startBox();
  const S = sides[0];
  const th = S[Side.TH];
  // (0 when the body does not turn, also for an infinite L: no 0 · ∞)
  const drift = th > 0 ? 2 * S[Side.LB] * Math.sin(0.5 * Math.min(th, Math.PI)) : 0;
  const R = S[Side.LB] + S[Side.RAD];
  for (let j = 0; j < 3; j++) {
    const d = S[Side.VD + j];
    let lo = BOX[j] + Math.min(d, 0) - drift;
    let hi = BOX[3 + j] + Math.max(d, 0) + drift;
    // the bounding sphere about the body centre, start and end
    const b0 = S[Side.BC + j];
    const sLo = Math.min(b0, b0 + d) - R;
    const sHi = Math.max(b0, b0 + d) + R;
    if (sLo > lo) lo = sLo;
    if (sHi < hi) hi = sHi;
    BOX[j] = lo - margin;
    BOX[3 + j] = hi + margin;
  }
}

/**
 * The axis-aligned box `[minX, minY, minZ, maxX, maxY, maxZ]` containing the shape over the whole frame
 * of length `dt` (see the module comment), grown by `margin` (≥ 0, e.g. a skin), written to
 * `out[oo..oo+5]` — the broadphase's bounds layout. Returns `out`. Throws on bad input, as
 * {@link timeOfImpact}. No allocation.
 */
export function sweptBounds<T extends WritableArrayLike>(
  shape: CcdShape,
  motion: CcdMotion,
  dt: number,
  out: T,
  margin = 0,
  oo = 0,
): T {
  const fn = 'sweptBounds';
  checkNonNegative(fn, 'dt', dt);
  checkNonNegative(fn, 'margin', margin);
  checkLength(fn, 'out', out, 6, oo);
  DT[0] = dt;
  prepareSide(0, shape, motion, fn, 'shape', 'motion');
  checkDisplacement(fn);
  MARGIN[0] = margin;
  sweep();
  for (let i = 0; i < 6; i++) out[oo + i] = BOX[i];
  return out;
}

/** As {@link sweptBounds} in 2-D: writes `[minX, minY, maxX, maxY]` to `out[oo..oo+3]`. */
export function sweptBounds2D<T extends WritableArrayLike>(
  shape: CcdShape2D,
  motion: CcdMotion2D,
  dt: number,
  out: T,
  margin = 0,
  oo = 0,
): T {
  const fn = 'sweptBounds2D';
  checkNonNegative(fn, 'dt', dt);
  checkNonNegative(fn, 'margin', margin);
  checkLength(fn, 'out', out, 4, oo);
  DT[0] = dt;
  prepareSide2D(0, shape, motion, fn, 'shape', 'motion');
  checkDisplacement(fn);
  MARGIN[0] = margin;
  sweep();
  out[oo] = BOX[0];
  out[oo + 1] = BOX[1];
  out[oo + 2] = BOX[3];
  out[oo + 3] = BOX[4];
  return out;
}

/**
 * Whether the box `inner` lies inside `outer` (both `[min..., max...]` with `dimensions` = 2 or 3
 * numbers per corner; touching faces count as inside). With skinned bounds: while a body's swept
 * bounds stay inside the fat bounds it was inserted with, skip its broadphase move.
 */
export function containsBounds(
  outer: ArrayLike<number>,
  inner: ArrayLike<number>,
  dimensions: 2 | 3,
): boolean {
  for (let i = 0; i < dimensions; i++) {
    if (inner[i] < outer[i] || inner[dimensions + i] > outer[dimensions + i]) return false;
  }
  return true;
}

/**
 * The largest distance any point of the shape can move during the frame under the motion:
 * ‖v‖·dt + 2·L·sin(min(|ω|·dt, π)/2) (a chord of the rotation, L the Eq. 33 bound). A skin margin m
 * stays valid for as long as this stays ≤ m (summed over frames). Throws on bad input.
 */
export function maxDisplacement(shape: CcdShape, motion: CcdMotion, dt: number): number {
  const fn = 'maxDisplacement';
  checkNonNegative(fn, 'dt', dt);
  DT[0] = dt;
  prepareSide(0, shape, motion, fn, 'shape', 'motion');
  const S = sides[0];
  return (
    Math.sqrt(S[Side.VD] * S[Side.VD] + S[Side.VD + 1] * S[Side.VD + 1] + S[Side.VD + 2] * S[Side.VD + 2]) +
    2 * S[Side.LB] * Math.sin(0.5 * Math.min(S[Side.TH], Math.PI))
  );
}

/** A shape's core bound about its body centre (Eq. 33's L), e.g. for a skin lifetime margin / (‖v‖ + ‖ω‖L). */
export function rotationBound(shape: CcdShape): number {
  DT[0] = 0;
  prepareSide(0, shape, IDLE, 'rotationBound', 'shape', 'motion');
  return sides[0][Side.LB];
}

const IDLE: CcdMotion = {
  position: [0, 0, 0],
  quaternion: [0, 0, 0, 1],
  linearVelocity: [0, 0, 0],
  angularVelocity: [0, 0, 0],
};

/**
 * Fills `out` with the motion that takes a body from pose (`p0`, `q0`) to pose (`p1`, `q1`) in `dt`
 * (> 0): start pose, v = (p1 − p0)/dt, and the constant world angular velocity of the shortest rotation
 * from q0 to q1. With the poses before and after a physics step this is exactly the step's motion under
 * the model of {@link timeOfImpact} (its end pose is (p1, q1)). Returns `out`.
 */
export function motionFromPoses<
  T extends CcdMotion & {
    /** Written: the start position `p0`. */
    position: WritableArrayLike;
    /** Written: the start orientation `q0`, normalized. */
    quaternion: WritableArrayLike;
    /** Written: `(p1 − p0) / dt`. */
    linearVelocity: WritableArrayLike;
    /** Written: the constant angular velocity that turns `q0` into `q1` in `dt`. */
    angularVelocity: WritableArrayLike;
  },
>(
  out: T,
  p0: ArrayLike<number>,
  q0: ArrayLike<number>,
  p1: ArrayLike<number>,
  q1: ArrayLike<number>,
  dt: number,
): T {
  const fn = 'motionFromPoses';
  checkFiniteArray(fn, 'p0', p0, 3);
  checkFiniteArray(fn, 'q0', q0, 4);
  checkFiniteArray(fn, 'p1', p1, 3);
  checkFiniteArray(fn, 'q1', q1, 4);
  if (!(dt > 0) || !Number.isFinite(dt))
    throw new RangeError(`${fn}: dt must be a finite number > 0, got ${String(dt)}`);
  const n0 = Math.sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
  const n1 = Math.sqrt(q1[0] * q1[0] + q1[1] * q1[1] + q1[2] * q1[2] + q1[3] * q1[3]);
  if (!(n0 > 0)) throw new RangeError(`${fn}: q0 must not be a zero quaternion`);
  if (!(n1 > 0)) throw new RangeError(`${fn}: q1 must not be a zero quaternion`);
  const ax = q0[0] / n0;
  const ay = q0[1] / n0;
  const az = q0[2] / n0;
  const aw = q0[3] / n0;
  const bx = q1[0] / n1;
  const by = q1[1] / n1;
  const bz = q1[2] / n1;
  const bw = q1[3] / n1;
  // dq = q1 ⊗ conj(q0): the world-frame rotation from q0 to q1
  let x = -bw * ax + aw * bx - by * az + bz * ay;
  let y = -bw * ay + aw * by - bz * ax + bx * az;
  let z = -bw * az + aw * bz - bx * ay + by * ax;
  let w = bw * aw + bx * ax + by * ay + bz * az;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  const angle = 2 * Math.atan2(s, w);
  const k = s > 0 ? angle / (s * dt) : 0;
  for (let i = 0; i < 3; i++) {
    out.position[i] = p0[i];
    out.linearVelocity[i] = (p1[i] - p0[i]) / dt;
  }
  out.quaternion[0] = ax;
  out.quaternion[1] = ay;
  out.quaternion[2] = az;
  out.quaternion[3] = aw;
  out.angularVelocity[0] = x * k;
  out.angularVelocity[1] = y * k;
  out.angularVelocity[2] = z * k;
  return out;
}

/**
 * 2-D form of {@link motionFromPoses}: v = (p1 − p0)/dt, ω = (angle1 − angle0)/dt (angles are not
 * wrapped: matter-js keeps them continuous). Writes `out.position`, `out.linearVelocity` and the
 * `angle`/`angularVelocity` fields; returns `out`.
 */
export function motion2FromPoses<
  T extends CcdMotion2D & {
    /** Written: the start position `p0`. */
    position: WritableArrayLike;
    /** Written: `(p1 − p0) / dt`. */
    linearVelocity: WritableArrayLike;
  },
>(out: T, p0: ArrayLike<number>, angle0: number, p1: ArrayLike<number>, angle1: number, dt: number): T {
  const fn = 'motion2FromPoses';
  checkFiniteArray(fn, 'p0', p0, 2);
  checkFiniteArray(fn, 'p1', p1, 2);
  if (!Number.isFinite(angle0))
    throw new RangeError(`${fn}: angle0 must be a finite number, got ${String(angle0)}`);
  if (!Number.isFinite(angle1))
    throw new RangeError(`${fn}: angle1 must be a finite number, got ${String(angle1)}`);
  if (!(dt > 0) || !Number.isFinite(dt))
    throw new RangeError(`${fn}: dt must be a finite number > 0, got ${String(dt)}`);
  out.position[0] = p0[0];
  out.position[1] = p0[1];
  out.linearVelocity[0] = (p1[0] - p0[0]) / dt;
  out.linearVelocity[1] = (p1[1] - p0[1]) / dt;
  out.angle = angle0;
  out.angularVelocity = (angle1 - angle0) / dt;
  return out;
}

/**
 * The body's pose at frame time `t` ∈ [0, 1] under `motion` over `dt`: position (3 numbers) and
 * quaternion `[x, y, z, w]` (normalized) written to `outPosition` and `outQuaternion`. Use it to put a
 * bullet where {@link timeOfImpact} stopped it. Inputs are not validated (they were, by the TOI call).
 */
export function poseAtTime(
  motion: CcdMotion,
  dt: number,
  t: number,
  outPosition: WritableArrayLike,
  outQuaternion: WritableArrayLike,
): void {
  const s = t * dt;
  const p = motion.position;
  const v = motion.linearVelocity;
  const w = motion.angularVelocity;
  for (let i = 0; i < 3; i++) outPosition[i] = p[i] + s * v[i];
  const q = motion.quaternion;
  const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const ax = q[0] / n;
  const ay = q[1] / n;
  const az = q[2] / n;
  const aw = q[3] / n;
  const wl = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (!(wl > 0)) {
    outQuaternion[0] = ax;
    outQuaternion[1] = ay;
    outQuaternion[2] = az;
    outQuaternion[3] = aw;
    return;
  }
  const half = 0.5 * wl * s;
  const k = Math.sin(half) / wl;
  const dx = w[0] * k;
  const dy = w[1] * k;
  const dz = w[2] * k;
  const dw = Math.cos(half);
  outQuaternion[0] = dw * ax + aw * dx + dy * az - dz * ay;
  outQuaternion[1] = dw * ay + aw * dy + dz * ax - dx * az;
  outQuaternion[2] = dw * az + aw * dz + dx * ay - dy * ax;
  outQuaternion[3] = dw * aw - dx * ax - dy * ay - dz * az;
}

/**
 * 2-D pose at frame time `t`: writes the position (2 numbers) to `outPosition` and returns the angle.
 */
export function poseAtTime2D(
  motion: CcdMotion2D,
  dt: number,
  t: number,
  outPosition: WritableArrayLike,
): number {
  const s = t * dt;
  outPosition[0] = motion.position[0] + s * motion.linearVelocity[0];
  outPosition[1] = motion.position[1] + s * motion.linearVelocity[1];
  return motion.angle + s * motion.angularVelocity;
}
