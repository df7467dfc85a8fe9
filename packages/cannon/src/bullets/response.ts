/**
 * The response of a bullet at its earliest hit: moved to its pose at the time of impact (carried on
 * with the other body's motion when that one moves), pushed into the other body by the remaining gap
 * plus the slop so cannon's narrowphase sees the contact at the next step, the gravity of the lost
 * part of the step taken back (as Box2D v3 does), and an impulse along the contact normal at the
 * contact point (a box's contact-patch middle) —
 * j = (1 + e)·u / (m_A⁻¹ + m_B⁻¹ + (r_A×n)·I_A⁻¹(r_A×n) + (r_B×n)·I_B⁻¹(r_B×n)), the impulse of the
 * hard-rigid-body event-driven MD paper's §2.5 (Eqs. 40–41, there with e = 1), e = 0 for "stop".
 */
import { poseAtTime, quatMultiply, quatRotate, quatToAxes } from '@sieve/core';
import { Body, type Material, type World } from 'cannon-es';
import { type CcdPart, PART_BOX } from '../ccdShapes.js';
import type { BulletList } from './list.js';
import {
  HIT,
  HIT_CORE,
  HIT_DISTANCE,
  HIT_MOTION,
  HIT_NORMAL,
  HIT_POINT,
  HIT_PUSH,
  HIT_T,
  MA,
} from './scratch.js';
import type { Sweep } from './sweep.js';

/** The bullet's pose at the hit (then carried and pushed). */
const POS = new Float64Array(3);
const QUAT = new Float64Array(4);
/** The other body's pose at the hit, its end quaternion, and the rotation ΔQ between them. */
const OPOS = new Float64Array(3);
const OQUAT = new Float64Array(4);
const QEND = new Float64Array(4);
const DQ = new Float64Array(4);
/** A box part: its centre offset rotated, its world rotation and axes, its contact-patch middle. */
const VEC = new Float64Array(3);
const SQ = new Float64Array(4);
const AX = new Float64Array(9);
const PATCH = new Float64Array(3);

/** Moves the bullet to its first contact and applies the response (see the module comment). */
export function respond(
  world: World,
  sweep: Sweep,
  bullets: BulletList,
  slop: number | undefined,
  body: Body,
  slot: number,
  dt: number,
): void {
  const other = sweep.bestOther as Body;
  const pa = sweep.bestPart as CcdPart;
  const pb = sweep.bestOtherPart as CcdPart;
  sweep.bestOther = null;
  const t = HIT[HIT_T];
  poseAtTime(MA, dt, t, POS, QUAT);
  // A moving other body ends the step at its own end pose: carry the bullet (and the contact) along
  // with it from t to the end, so the two end the step touching as they were at t.
  const w = HIT_MOTION.angularVelocity;
  const v = HIT_MOTION.linearVelocity;
  if (v[0] !== 0 || v[1] !== 0 || v[2] !== 0 || w[0] !== 0 || w[1] !== 0 || w[2] !== 0) {
    poseAtTime(HIT_MOTION, dt, t, OPOS, OQUAT);
    const oq = other.quaternion;
    // ΔQ = q_end ⊗ conj(q_t)
    QEND[0] = oq.x;
    QEND[1] = oq.y;
    QEND[2] = oq.z;
    QEND[3] = oq.w;
    OQUAT[0] = -OQUAT[0];
    OQUAT[1] = -OQUAT[1];
    OQUAT[2] = -OQUAT[2];
    quatMultiply(QEND, 0, OQUAT, 0, DQ, 0);
    OQUAT[0] = -OQUAT[0];
    OQUAT[1] = -OQUAT[1];
    OQUAT[2] = -OQUAT[2];
    const op = other.position;
    carry(POS, 0, op.x, op.y, op.z);
    carry(HIT, HIT_POINT, op.x, op.y, op.z);
    quatRotate(DQ, 0, HIT, HIT_NORMAL, HIT, HIT_NORMAL);
    quatMultiply(DQ, 0, QUAT, 0, QUAT, 0);
  }
  const nx = HIT[HIT_NORMAL];
  const ny = HIT[HIT_NORMAL + 1];
  const nz = HIT[HIT_NORMAL + 2];
  let push = 0;
  if (HIT[HIT_PUSH] === 1) {
    // into the other body by the remaining gap plus the slop, so cannon's narrowphase sees the contact
    push = Math.max(HIT[HIT_DISTANCE], 0) + (slop ?? 0.01 * (pa.minExtent > 0 ? pa.minExtent : pa.size));
    POS[0] += push * nx;
    POS[1] += push * ny;
    POS[2] += push * nz;
  }
  body.position.set(POS[0], POS[1], POS[2]);
  body.quaternion.set(QUAT[0], QUAT[1], QUAT[2], QUAT[3]);
  body.aabbNeedsUpdate = true;
  body.updateInertiaWorld();
  // the gravity of the part of the step not travelled (cannon added all of it to the velocity)
  const lost = (1 - t) * dt;
  const g = world.gravity;
  const lf = body.linearFactor;
  const vel = body.velocity;
  vel.x -= lost * g.x * lf.x;
  vel.y -= lost * g.y * lf.y;
  vel.z -= lost * g.z * lf.z;
  // impulse along n (from the bullet A to the other body B) at the contact point: the witness point,
  // or for a box the middle of its contact patch (see patchPoint)
  let px = HIT[HIT_POINT] + push * nx;
  let py = HIT[HIT_POINT + 1] + push * ny;
  let pz = HIT[HIT_POINT + 2] + push * nz;
  if (HIT[HIT_CORE] === 0 && pa.kind === PART_BOX && patchPoint(body, pa, other, nx, ny, nz)) {
    // (unless the patch middle does not approach: then the witness point, where the sweep found it)
    if (approach(body, other, PATCH[0], PATCH[1], PATCH[2], nx, ny, nz) > 0) {
      px = PATCH[0];
      py = PATCH[1];
      pz = PATCH[2];
    }
  }
  const rax = px - POS[0];
  const ray = py - POS[1];
  const raz = pz - POS[2];
  const rbx = px - other.position.x;
  const rby = py - other.position.y;
  const rbz = pz - other.position.z;
  const wa = body.angularVelocity;
  const u = approach(body, other, px, py, pz, nx, ny, nz);
  if (!(u > 0)) return;
  const e = bullets.stopOf[slot] === 1 ? 0 : restitution(world, bullets, slot, body, other, pa, pb);
  // angular terms: (r × n) and I⁻¹(r × n)
  const cax = ray * nz - raz * ny;
  const cay = raz * nx - rax * nz;
  const caz = rax * ny - ray * nx;
  const ia = body.invInertiaWorld.elements;
  const iax = ia[0] * cax + ia[1] * cay + ia[2] * caz;
  const iay = ia[3] * cax + ia[4] * cay + ia[5] * caz;
  const iaz = ia[6] * cax + ia[7] * cay + ia[8] * caz;
  let k = body.invMass + cax * iax + cay * iay + caz * iaz;
  const dynamicOther = other.type === Body.DYNAMIC;
  let ibx = 0;
  let iby = 0;
  let ibz = 0;
  if (dynamicOther) {
    const cbx = rby * nz - rbz * ny;
    const cby = rbz * nx - rbx * nz;
    const cbz = rbx * ny - rby * nx;
    const ib = other.invInertiaWorld.elements;
    ibx = ib[0] * cbx + ib[1] * cby + ib[2] * cbz;
    iby = ib[3] * cbx + ib[4] * cby + ib[5] * cbz;
    ibz = ib[6] * cbx + ib[7] * cby + ib[8] * cbz;
    k += other.invMass + cbx * ibx + cby * iby + cbz * ibz;
  }
  if (!(k > 0)) return;
  const j = ((1 + e) * u) / k;
  const ma = j * body.invMass;
  vel.x -= ma * nx * lf.x;
  vel.y -= ma * ny * lf.y;
  vel.z -= ma * nz * lf.z;
  const af = body.angularFactor;
  wa.x -= j * iax * af.x;
  wa.y -= j * iay * af.y;
  wa.z -= j * iaz * af.z;
  if (dynamicOther) {
    const mb = j * other.invMass;
    const lfb = other.linearFactor;
    const afb = other.angularFactor;
    other.velocity.x += mb * nx * lfb.x;
    other.velocity.y += mb * ny * lfb.y;
    other.velocity.z += mb * nz * lfb.z;
    other.angularVelocity.x += j * ibx * afb.x;
    other.angularVelocity.y += j * iby * afb.y;
    other.angularVelocity.z += j * ibz * afb.z;
    if (other.sleepState !== Body.AWAKE) other.wakeUp();
  }
}

/**
 * PATCH = the middle of the box part's contact patch at its new pose: the box's vertices nearest the
 * other body along n (within 2 % of its smallest half extent: a face, an edge or a corner), keeping
 * those that approach the other body if any do. The time of impact reports one witness point, and
 * for a face hitting a wall that is an arbitrary corner of the face: an impulse there would set the
 * box spinning. (For a face hitting something smaller than the face, e.g. a thin pole, the true
 * contact is inside the face: the patch middle misses that torque.) Returns false if no vertex is
 * found (NaN pose).
 */
function patchPoint(body: Body, pa: CcdPart, other: Body, nx: number, ny: number, nz: number): boolean {
  const o = pa.offset;
  const h = pa.halfExtents;
  // centre = POS + R(QUAT)·offset
  quatRotate(QUAT, 0, o, 0, VEC, 0);
  const cx = POS[0] + VEC[0];
  const cy = POS[1] + VEC[1];
  const cz = POS[2] + VEC[2];
  // axes of S = QUAT ⊗ orientation
  const b = pa.orientation;
  quatMultiply(QUAT, 0, b, 0, SQ, 0);
  quatToAxes(SQ, 0, AX);
  let deepest = 0;
  for (let k = 0; k < 3; k++) {
    const dn = AX[3 * k] * nx + AX[3 * k + 1] * ny + AX[3 * k + 2] * nz;
    deepest += h[k] * Math.abs(dn);
  }
  const eps = 0.02 * pa.minExtent;
  let nearCount = 0;
  let fastCount = 0;
  let nX = 0;
  let nY = 0;
  let nZ = 0;
  let fX = 0;
  let fY = 0;
  let fZ = 0;
  for (let i = 0; i < 8; i++) {
    const s0 = i & 1 ? h[0] : -h[0];
    const s1 = i & 2 ? h[1] : -h[1];
    const s2 = i & 4 ? h[2] : -h[2];
    const ex = s0 * AX[0] + s1 * AX[3] + s2 * AX[6];
    const ey = s0 * AX[1] + s1 * AX[4] + s2 * AX[7];
    const ez = s0 * AX[2] + s1 * AX[5] + s2 * AX[8];
    if (ex * nx + ey * ny + ez * nz < deepest - eps) continue;
    const px = cx + ex;
    const py = cy + ey;
    const pz = cz + ez;
    nearCount++;
    nX += px;
    nY += py;
    nZ += pz;
    // approach speed of this vertex along n, relative to the other body's point there (the body is
    // at POS now)
    const u = approach(body, other, px, py, pz, nx, ny, nz);
    if (u > 0) {
      fastCount++;
      fX += px;
      fY += py;
      fZ += pz;
    }
  }
  if (fastCount > 0) {
    PATCH[0] = fX / fastCount;
    PATCH[1] = fY / fastCount;
    PATCH[2] = fZ / fastCount;
    return true;
  }
  if (nearCount > 0) {
    PATCH[0] = nX / nearCount;
    PATCH[1] = nY / nearCount;
    PATCH[2] = nZ / nearCount;
    return true;
  }
  return false;
}

/** Approach speed along n of the bullet's point (px, py, pz) relative to the other body's point there. */
function approach(
  body: Body,
  other: Body,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
): number {
  const u = pointSpeed(body, px, py, pz, nx, ny, nz);
  return other.type === Body.STATIC ? u : u - pointSpeed(other, px, py, pz, nx, ny, nz);
}

/** Restitution of a bounce: the bullet's own, or cannon's material rule for the pair. */
function restitution(
  world: World,
  bullets: BulletList,
  slot: number,
  body: Body,
  other: Body,
  pa: CcdPart,
  pb: CcdPart,
): number {
  const own = bullets.restitutionOf[slot];
  if (!Number.isNaN(own)) return own;
  let cm = null;
  const sa = pa.shape.material;
  const sb = pb.shape.material;
  if (sa && sb) cm = world.getContactMaterial(sa, sb) ?? null;
  const ma: Material | null = body.material;
  const mb: Material | null = other.material;
  if (!cm && ma && mb) cm = world.getContactMaterial(ma, mb) ?? null;
  let e = (cm ?? world.defaultContactMaterial).restitution;
  if (ma && mb && ma.restitution >= 0 && mb.restitution >= 0) e = ma.restitution * mb.restitution;
  return Number.isNaN(e) || e < 0 ? 0 : e;
}

/** Speed along n of the point (px, py, pz) moving with body b: (v + ω × (p − x))·n. */
function pointSpeed(b: Body, px: number, py: number, pz: number, nx: number, ny: number, nz: number): number {
  const v = b.velocity;
  const w = b.angularVelocity;
  const x = b.position;
  const rx = px - x.x;
  const ry = py - x.y;
  const rz = pz - x.z;
  return (
    (v.x + w.y * rz - w.z * ry) * nx + (v.y + w.z * rx - w.x * rz) * ny + (v.z + w.x * ry - w.y * rx) * nz
  );
}

/**
 * p[o..o+2] = (ex, ey, ez) + R(DQ)·(p − OPOS): a point carried by the other body's motion from its
 * pose at t (OPOS) to its end pose.
 */
function carry(p: Float64Array, o: number, ex: number, ey: number, ez: number): void {
  p[o] -= OPOS[0];
  p[o + 1] -= OPOS[1];
  p[o + 2] -= OPOS[2];
  quatRotate(DQ, 0, p, o, p, o);
  p[o] += ex;
  p[o + 1] += ey;
  p[o + 2] += ez;
}
