/**
 * The contact patch: how the convex narrowphase hands a face contact (three or four clipped points,
 * a body resting on a face) to cannon-es's solver so that stacks stand in its default settings.
 *
 * cannon's `GSSolver` starts every step from zero impulses and stops after ten sweeps — without the
 * warm starting that Erin Catto ("Iterative Dynamics with Temporal Coherence", GDC 2005) shows stacks
 * need. Two things then go wrong on a resting face with one contact equation and one friction pair per
 * corner, as cannon's own handlers make them:
 *
 * - The first sweep meets gravity's share of the load at the corners one after another: the first
 *   corner takes the most, the body gets a tipping kick, and the corners spend the remaining sweeps
 *   taking it back. The friction pairs, solved before the contacts in each sweep, chase that rocking
 *   (their arms lie below the centre of mass) instead of the small slip they are there to stop; what
 *   is left of the slip when the sweeps run out stays in the velocity, step after step: boxes creep
 *   sideways at a steady speed and a ten-box tower falls within seconds.
 * - Nothing remembers where a resting body was: any slip that escapes one step is never undone.
 *
 * The patch answers both with what the contact generator owns — which equations it emits, where, and
 * with which right-hand side — leaving the solver, materials and events as they are:
 *
 * - A load contact first: one more `ContactEquation`, at the point of the patch under the pair's
 *   centre of mass (the two bodies' centres weighted by inverse mass, projected along the normal onto
 *   the patch, kept inside it), with the patch's own depth there. Solved before the corners, it meets
 *   the vertical load without a tipping kick (its arm is parallel to the normal); the corners are left
 *   with what only they can do, resisting the tipping moment. It is a point of the contact region like
 *   the corners, and separates with them when the body tips.
 * - Patch friction with anchors, as PhysX's patch friction model and Bullet's friction anchors do: two
 *   friction pairs per patch (cannon's own `FrictionEquation`s, tangents from the normal as cannon
 *   picks them) at two anchor points fixed in both bodies — taken at the patch's two farthest points
 *   when it forms — whose right-hand side also closes the tangential gap that has opened between the
 *   anchor's two copies, with the material's friction SPOOK parameters (cannon computes them but its
 *   friction equation, with no position error, does not use them). The slip that escapes a step is
 *   pulled back the next; anchors that drift apart by more than a correlation distance (a body that
 *   really slides) are taken again where the patch is. The two pairs share the friction bound that
 *   cannon gives one pair per contact: each gets half the patch's total, so a patch still holds and
 *   slides at cannon's force.
 *
 * Both were measured against the alternatives on cannon's default world (10 sweeps, friction 0.3, no
 * sleeping): a load contact at the patch's centroid instead of under the centre of mass, or after the
 * corners, lets hull stacks fall; without it the anchors alone leave towers rocking; one friction pair
 * at the patch centre cannot hold the twist. cannon's own averaged friction (`enableFrictionReduction`)
 * is still honoured — the load contact, then one averaged pair, no anchors: a tower then stands, a hull
 * stack falls after some 900 steps.
 *
 * Friction equations live in cannon's shared pool between steps and are handed to any handler, so the
 * anchored right-hand side is an own `computeB` on the equation that applies only in the step that
 * set it (it checks the world's step number) and is cannon's own otherwise.
 */
import type { Body, ContactEquation, FrictionEquation, Narrowphase, World } from 'cannon-es';
import { FrictionEquation as CannonFrictionEquation } from 'cannon-es';
import type { HullManifold } from './hullContacts.js';

/** Floats of a pair's anchor record: two anchors (on A, on B: xyz each), the patch size, a stamp. */
export const PATCH_FLOATS = 14;

/** Anchors drifting apart by more than this (a fraction of the smaller hull's radius) are retaken. */
export const ANCHOR_SLIP = 0.02;

/** A friction equation with an anchored right-hand side for one step. */
interface AnchoredFriction extends FrictionEquation {
  /** The world and step the anchor gap holds for. */
  sieveWorld: World;
  sieveStep: number;
  /** Tangential gap between the anchor's copies on body j and body i, along the tangent. */
  sieveGap: number;
}

const frictionB = CannonFrictionEquation.prototype.computeB;

/** cannon's friction right-hand side, minus the SPOOK position term of the anchor gap in its step. */
function anchoredComputeB(this: AnchoredFriction, h: number): number {
  const b = frictionB.call(this, h);
  return this.sieveStep === this.sieveWorld.stepnumber ? b - this.a * this.sieveGap : b;
}

/** Scratch of the patch computations (numbers travel in arrays: returned numbers would be boxed). */
const P2 = new Float64Array(8);
const ORDER = new Int32Array(4);
const ANGLE = new Float64Array(4);
const WEIGHT = new Float64Array(4);
const BASIS = new Float64Array(6);
/** The point whose weights are sought, in the plane. */
const Q = new Float64Array(2);

/**
 * The load point of patch `hm` (A's frame) under point `p` (A's frame, the weighted centre of mass):
 * into `out`, the point on A (0–2) and on B (3–5) with the same affine weights of the patch's points,
 * so each lies on its own face. False for a patch without area.
 */
export function loadPoint(hm: HullManifold, p: Float64Array, out: Float64Array): boolean {
  const count = hm.count;
  const pa = hm.pa;
  const n = hm.n;
  tangentBasis(n);
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let k = 0; k < count; k++) {
    cx += pa[3 * k];
    cy += pa[3 * k + 1];
    cz += pa[3 * k + 2];
  }
  cx /= count;
  cy /= count;
  cz /= count;
  // The points in the plane (u, v), in counter-clockwise order about n.
  for (let k = 0; k < count; k++) {
    const x = pa[3 * k] - cx;
    const y = pa[3 * k + 1] - cy;
    const z = pa[3 * k + 2] - cz;
    P2[2 * k] = x * BASIS[0] + y * BASIS[1] + z * BASIS[2];
    P2[2 * k + 1] = x * BASIS[3] + y * BASIS[4] + z * BASIS[5];
    ANGLE[k] = Math.atan2(P2[2 * k + 1], P2[2 * k]);
    let j = k;
    while (j > 0 && ANGLE[ORDER[j - 1]] > ANGLE[k]) {
      ORDER[j] = ORDER[j - 1];
      j--;
    }
    ORDER[j] = k;
  }
  Q[0] = (p[0] - cx) * BASIS[0] + (p[1] - cy) * BASIS[1] + (p[2] - cz) * BASIS[2];
  Q[1] = (p[0] - cx) * BASIS[3] + (p[1] - cy) * BASIS[4] + (p[2] - cz) * BASIS[5];
  WEIGHT.fill(0);
  if (!insideWeights(count) && !boundaryWeights(count)) return false;
  for (let c = 0; c < 3; c++) {
    let a = 0;
    let b = 0;
    for (let k = 0; k < count; k++) {
      a += WEIGHT[k] * pa[3 * k + c];
      b += WEIGHT[k] * hm.pb[3 * k + c];
    }
    out[c] = a;
    out[3 + c] = b;
  }
  return true;
}

/** A unit basis (u into 0–2, v into 3–5) of the plane normal to unit `n`. */
function tangentBasis(n: Float64Array): void {
  const ax = Math.abs(n[0]) < 0.9 ? 1 : 0;
  const ay = 1 - ax;
  // u = n × a, normalised; v = n × u.
  let ux = n[1] * 0 - n[2] * ay;
  let uy = n[2] * ax - n[0] * 0;
  let uz = n[0] * ay - n[1] * ax;
  const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= len;
  uy /= len;
  uz /= len;
  BASIS[0] = ux;
  BASIS[1] = uy;
  BASIS[2] = uz;
  BASIS[3] = n[1] * uz - n[2] * uy;
  BASIS[4] = n[2] * ux - n[0] * uz;
  BASIS[5] = n[0] * uy - n[1] * ux;
}

/**
 * Barycentric weights (into `WEIGHT`) of `Q` in the fan triangle of the ordered polygon that holds
 * it; false if none does (outside, or no area).
 */
function insideWeights(count: number): boolean {
  const qx = Q[0];
  const qy = Q[1];
  const o = ORDER[0];
  const ox = P2[2 * o];
  const oy = P2[2 * o + 1];
  for (let k = 1; k + 1 < count; k++) {
    const b = ORDER[k];
    const c = ORDER[k + 1];
    const bx = P2[2 * b] - ox;
    const by = P2[2 * b + 1] - oy;
    const cxx = P2[2 * c] - ox;
    const cyy = P2[2 * c + 1] - oy;
    const den = bx * cyy - by * cxx;
    if (!(den > 1e-12 * (bx * bx + by * by + cxx * cxx + cyy * cyy))) continue;
    const px = qx - ox;
    const py = qy - oy;
    const wb = (px * cyy - py * cxx) / den;
    const wc = (bx * py - by * px) / den;
    if (wb >= 0 && wc >= 0 && wb + wc <= 1) {
      WEIGHT[o] = 1 - wb - wc;
      WEIGHT[b] = wb;
      WEIGHT[c] = wc;
      return true;
    }
  }
  return false;
}

/**
 * Weights (into `WEIGHT`) of the polygon boundary's point nearest `Q`; false if the polygon has no
 * extent.
 */
function boundaryWeights(count: number): boolean {
  const qx = Q[0];
  const qy = Q[1];
  let best = Number.POSITIVE_INFINITY;
  let ia = -1;
  let ib = -1;
  let bt = 0;
  for (let k = 0; k < count; k++) {
    const a = ORDER[k];
    const b = ORDER[(k + 1) % count];
    const ex = P2[2 * b] - P2[2 * a];
    const ey = P2[2 * b + 1] - P2[2 * a + 1];
    const ee = ex * ex + ey * ey;
    if (!(ee > 0)) continue;
    const t = Math.min(1, Math.max(0, ((qx - P2[2 * a]) * ex + (qy - P2[2 * a + 1]) * ey) / ee));
    const dx = P2[2 * a] + t * ex - qx;
    const dy = P2[2 * a + 1] + t * ey - qy;
    const d = dx * dx + dy * dy;
    if (d < best) {
      best = d;
      ia = a;
      ib = b;
      bt = t;
    }
  }
  if (ia < 0) return false;
  WEIGHT[ia] = 1 - bt;
  WEIGHT[ib] += bt;
  return true;
}

/**
 * The patch's two anchors in A's frame into `out` (anchor k: its copy on A at 6k, on B at 6k + 3),
 * from the pair's record (`rec` from `at`, `PATCH_FLOATS`), taken anew at the patch's two farthest
 * points when the record is not of step `stamp` − 1, the patch changed size, or an anchor's copies
 * drifted apart along the patch by more than `ANCHOR_SLIP` times `radius[0]` (in an array: an
 * argument would be boxed). `rot`, `t`: B's frame in A's (v_A = rot·v_B + t).
 */
export function patchAnchors(
  hm: HullManifold,
  rot: Float64Array,
  t: Float64Array,
  rec: Float64Array,
  at: number,
  stamp: number,
  radius: Float64Array,
  out: Float64Array,
): void {
  const n = hm.n;
  const slip = ANCHOR_SLIP * radius[0];
  // The stamp is stored as step + 2, so a zeroed record is never current.
  let fresh = !(rec[at + 13] === stamp + 1 || rec[at + 13] === stamp + 2) || rec[at + 12] !== hm.count;
  if (!fresh) {
    for (let k = 0; k < 2 && !fresh; k++) {
      const a = at + 6 * k;
      const bx = rec[a + 3];
      const by = rec[a + 4];
      const bz = rec[a + 5];
      out[6 * k] = rec[a];
      out[6 * k + 1] = rec[a + 1];
      out[6 * k + 2] = rec[a + 2];
      out[6 * k + 3] = rot[0] * bx + rot[1] * by + rot[2] * bz + t[0];
      out[6 * k + 4] = rot[3] * bx + rot[4] * by + rot[5] * bz + t[1];
      out[6 * k + 5] = rot[6] * bx + rot[7] * by + rot[8] * bz + t[2];
      let dx = out[6 * k + 3] - out[6 * k];
      let dy = out[6 * k + 4] - out[6 * k + 1];
      let dz = out[6 * k + 5] - out[6 * k + 2];
      const dn = dx * n[0] + dy * n[1] + dz * n[2];
      dx -= dn * n[0];
      dy -= dn * n[1];
      dz -= dn * n[2];
      if (dx * dx + dy * dy + dz * dz > slip * slip) fresh = true;
    }
  }
  if (fresh) {
    const pa = hm.pa;
    const pb = hm.pb;
    let i0 = 0;
    let i1 = 1;
    let best = -1;
    for (let p = 0; p < hm.count; p++) {
      for (let q = p + 1; q < hm.count; q++) {
        const dx = pa[3 * p] - pa[3 * q];
        const dy = pa[3 * p + 1] - pa[3 * q + 1];
        const dz = pa[3 * p + 2] - pa[3 * q + 2];
        const d = dx * dx + dy * dy + dz * dz;
        if (d > best) {
          best = d;
          i0 = p;
          i1 = q;
        }
      }
    }
    for (let k = 0; k < 2; k++) {
      const i = 3 * (k === 0 ? i0 : i1);
      const a = at + 6 * k;
      // Both copies at the midpoint of the contact's two points: no gap yet.
      const mx = 0.5 * (pa[i] + pb[i]);
      const my = 0.5 * (pa[i + 1] + pb[i + 1]);
      const mz = 0.5 * (pa[i + 2] + pb[i + 2]);
      rec[a] = mx;
      rec[a + 1] = my;
      rec[a + 2] = mz;
      // On B: rotᵀ·(m − t).
      const x = mx - t[0];
      const y = my - t[1];
      const z = mz - t[2];
      rec[a + 3] = rot[0] * x + rot[3] * y + rot[6] * z;
      rec[a + 4] = rot[1] * x + rot[4] * y + rot[7] * z;
      rec[a + 5] = rot[2] * x + rot[5] * y + rot[8] * z;
      out[6 * k] = mx;
      out[6 * k + 1] = my;
      out[6 * k + 2] = mz;
      out[6 * k + 3] = mx;
      out[6 * k + 4] = my;
      out[6 * k + 5] = mz;
    }
    rec[at + 12] = hm.count;
  }
  rec[at + 13] = stamp + 2;
}

/**
 * Emits the anchored friction of a patch of `corners` contacts: two pairs from the load contact `c`
 * (cannon's factory: its material, bound and tangents), at the anchors `w` (world: anchor k on body i
 * at 6k, on body j at 6k + 3), each bound times `corners` / 2 (the two pairs share what cannon gives a
 * pair per contact). Nothing when the pair has no friction.
 */
export function emitAnchoredFriction(
  np: Narrowphase,
  c: ContactEquation,
  bi: Body,
  bj: Body,
  w: Float64Array,
  corners: number,
): void {
  const share = corners / 2;
  const list = np.frictionResult;
  for (let k = 0; k < 2; k++) {
    const first = list.length;
    if (!np.createFrictionEquationsFromContact(c, list)) return;
    const o = 6 * k;
    for (let e = first; e < list.length; e++) {
      const f = list[e] as AnchoredFriction;
      const ri = f.ri;
      ri.x = w[o] - bi.position.x;
      ri.y = w[o + 1] - bi.position.y;
      ri.z = w[o + 2] - bi.position.z;
      const rj = f.rj;
      rj.x = w[o + 3] - bj.position.x;
      rj.y = w[o + 4] - bj.position.y;
      rj.z = w[o + 5] - bj.position.z;
      const tt = f.t;
      f.sieveGap = tt.x * (w[o + 3] - w[o]) + tt.y * (w[o + 4] - w[o + 1]) + tt.z * (w[o + 5] - w[o + 2]);
      f.sieveWorld = np.world;
      f.sieveStep = np.world.stepnumber;
      f.maxForce *= share;
      f.minForce *= share;
      f.computeB = anchoredComputeB;
    }
  }
}
