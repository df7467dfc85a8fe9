/**
 * The two optional box handlers, both off by default since they change answers cannon-es does give:
 *
 * - Box–box: cannon's own box–box, behind an OBB–OBB separating-axis test over the same 15 axes
 *   (Gottschalk, Lin and Manocha's OBBTree; Ericson's Real-Time Collision Detection §4.4.1), through
 *   `obbObbOverlapUnchecked` of `@sieve/core`: separated boxes return at once.
 * - Sphere–box: the OCSI paper's sphere–box test (its Eq. 2 and Algorithm 5, through `sphereObbContact`
 *   of `@sieve/core`): one contact, the box point nearest the centre, also correct when the centre is
 *   inside the box (the face of least penetration), where cannon's own test misses.
 *
 * Both have cannon's handler signature and use module-level scratch, so a call allocates only the
 * contact equations cannon itself pools.
 */
import { obbObbOverlapUnchecked, sphereObbContact } from '@sieve/core';
import type { Box, Narrowphase, Quaternion, Sphere, Vec3 } from 'cannon-es';
import type { Handler } from './narrowphase.js';
import { rotationOf } from './trimeshCache.js';

const BB = new Float64Array(30);
const BOX_ROT = new Float64Array(9);

/**
 * Writes the OBB of a box shape at (x, q) into `out` at `o`; with `pad`, its extents padded by a hair
 * (which keeps the box–box filter conservative: only boxes clearly apart skip cannon's own test).
 */
function boxObb(box: Box, x: Vec3, q: Quaternion, pad: boolean, out: Float64Array, o: number): void {
  rotationOf(q, BOX_ROT);
  out[o] = x.x;
  out[o + 1] = x.y;
  out[o + 2] = x.z;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[o + 3 + 3 * r + c] = BOX_ROT[3 * c + r];
  const h = box.halfExtents;
  const scale = pad ? 1 + 1e-7 : 1;
  const add = pad ? 1e-9 : 0;
  out[o + 12] = h.x * scale + add;
  out[o + 13] = h.y * scale + add;
  out[o + 14] = h.z * scale + add;
}

/**
 * cannon's box–box (its convex–convex SAT and clipping) behind an OBB–OBB separating-axis test over the
 * same 15 axes (Gottschalk, Lin and Manocha's OBBTree; Ericson's Real-Time Collision Detection
 * §4.4.1): separated boxes return at once.
 */
export const boxBoxPrefiltered: Handler = function (
  this: Narrowphase,
  si,
  sj,
  xi,
  xj,
  qi,
  qj,
  bi,
  bj,
  rsi,
  rsj,
  justTest,
) {
  boxObb(si as Box, xi, qi, true, BB, 0);
  boxObb(sj as Box, xj, qj, true, BB, 15);
  if (!obbObbOverlapUnchecked(BB, 0, BB, 15)) return false;
  return (
    Object.getPrototypeOf(this) as {
      boxBox: (...args: unknown[]) => boolean | undefined;
    }
  ).boxBox.call(this, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest);
};

// --- sphere–box through OCSI --------------------------------------------------------------------------

const SB_OBB = new Float64Array(15);
const SB_CENTER = new Float64Array(3);
const SB_OUT = new Float64Array(7);

/** cannon handler for sphere (i) – box (j) contacts through OCSI. */
export const sphereBoxOcsi: Handler = function (
  this: Narrowphase,
  si,
  sj,
  xi,
  xj,
  _qi,
  qj,
  bi,
  bj,
  _rsi,
  _rsj,
  justTest,
) {
  const sphere = si as Sphere;
  boxObb(sj as Box, xj, qj, false, SB_OBB, 0);
  SB_CENTER[0] = xi.x;
  SB_CENTER[1] = xi.y;
  SB_CENTER[2] = xi.z;
  const R = sphere.radius;
  const overlap = sphereObbContact(SB_OBB, SB_CENTER, R, SB_OUT);
  // Touching at depth 0 is not a contact (as in cannon's own test).
  if (!overlap || !(SB_OUT[3] > 0)) return false;
  if (justTest) return true;
  // OCSI's normal points from the box to the sphere; cannon's goes from body i (sphere) to j (box).
  const nx = -SB_OUT[0];
  const ny = -SB_OUT[1];
  const nz = -SB_OUT[2];
  const c = this.createContactEquation(bi, bj, si, sj, si, sj);
  c.ni.set(nx, ny, nz);
  c.ri.set(xi.x + nx * R - bi.position.x, xi.y + ny * R - bi.position.y, xi.z + nz * R - bi.position.z);
  c.rj.set(SB_OUT[4] - bj.position.x, SB_OUT[5] - bj.position.y, SB_OUT[6] - bj.position.z);
  this.result.push(c);
  this.createFrictionEquationsFromContact(c, this.frictionResult);
  return true;
};
