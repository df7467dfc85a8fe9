/**
 * The convex distance kernels of the time of impact and the step rule every piece goes through.
 *
 * Step rule (the hard-rigid-body event-driven MD paper, §2.4.2, Eqs. 32 and 39): the distance between two
 * rigid bodies cannot shrink faster than ‖vA − vB‖ + ‖ωA‖LA + ‖ωB‖LB, so from a distance d no contact can
 * happen within d / ḋmax. The linear part is projected on the closest-point normal n — the separation
 * along a fixed n shrinks at most at (vA − vB)·n + ‖ωA‖LA + ‖ωB‖LB and d is at least that separation, the
 * bound behind Mirtich's conservative advancement and Box2D's time of impact — so a body passing
 * alongside another is not slowed by its tangential speed. Within `tolerance`, a piece whose closest
 * points approach is a hit; otherwise the step is tolerance / ḋmax (Eq. 39's second branch: grazing).
 *
 * Distances: sphere–sphere exactly; sphere–box by the OCSI paper's closest point (Eq. 2, inlined without
 * checks as in the BVH queries); box–box by GJK (Gilbert, Johnson and Keerthi 1988; `gjk.ts`), whose
 * separation is a certified lower bound. Overlaps report the narrowphase contact (`narrowphase/ocsi.ts`,
 * `narrowphase/obbObb.ts`). Pairs are ordered by kind, so the sphere is always side 0 of a sphere pair
 * and the normal always points from side 0 to side 1.
 */
import { obbObbContact, obbObbContact2D } from '../narrowphase/obbObb.js';
import { circleObbContact2D, sphereObbContact } from '../narrowphase/ocsi.js';
import { GJK_BOX, GJK_SEPARATION, gjk, gjkDistance } from './gjk.js';
import { Side, sides } from './side.js';
import {
  Contact,
  GJK_HINT,
  keepPiece,
  Obb,
  OVERLAP,
  PARAMS,
  Param,
  PIECE,
  Piece,
  SAMPLE,
  sample,
} from './toiRecords.js';

/** Slots of a narrowphase contact (the layout of `narrowphase/ocsi.ts` and `obbObb.ts`). */
enum Narrow {
  /** Slots 0–2: unit normal. */
  Normal = 0,
  /** Penetration depth. */
  Depth = 3,
  /** Slots 4–6: contact point. */
  Point = 4,
  /** Numbers in a 3-D contact (2-D results are widened to it). */
  Words = 7,
}
const NARROW = new Float64Array(Narrow.Words);
const OBB2A = new Float64Array(8);
const OBB2B = new Float64Array(8);
const CENTER = new Float64Array(3);
// Views of each side's pose as a 15-number OBB, for the narrowphase contact calls (made once).
const OBB_VIEW = [sides[0].subarray(Side.OBB, Side.OBB + 15), sides[1].subarray(Side.OBB, Side.OBB + 15)];

/** PIECE's closing bound from its normal (A → B): (vA − vB)·n + |ωA|LA + |ωB|LB, per frame. */
export function closing(): void {
  const A = sides[0];
  const B = sides[1];
  PIECE[Piece.Closing] =
    (A[Side.VD] - B[Side.VD]) * PIECE[Piece.Normal] +
    (A[Side.VD + 1] - B[Side.VD + 1]) * PIECE[Piece.Normal + 1] +
    (A[Side.VD + 2] - B[Side.VD + 2]) * PIECE[Piece.Normal + 2] +
    A[Side.WL] +
    B[Side.WL];
}

/**
 * Folds the convex piece in PIECE (not overlapping: distance ≥ 0) into the sample: the step it allows
 * (into PARAMS[Param.Step]), and whether it is a hit (within tolerance and approaching at the closest
 * points).
 */
export function piece(): void {
  const tol = PARAMS[Param.Tolerance];
  const d = PIECE[Piece.Distance];
  const c = PIECE[Piece.Closing];
  let step: number;
  if (d > tol) {
    step = c > 0 ? (d - PARAMS[Param.Target]) / c : Number.POSITIVE_INFINITY;
  } else {
    // Within tolerance: a hit if the closest points approach, else a grazing step of tolerance / ḋmax.
    const A = sides[0];
    const B = sides[1];
    const rax = PIECE[Piece.PointA] - A[Side.BC];
    const ray = PIECE[Piece.PointA + 1] - A[Side.BC + 1];
    const raz = PIECE[Piece.PointA + 2] - A[Side.BC + 2];
    const rbx = PIECE[Piece.PointB] - B[Side.BC];
    const rby = PIECE[Piece.PointB + 1] - B[Side.BC + 1];
    const rbz = PIECE[Piece.PointB + 2] - B[Side.BC + 2];
    // velocity of a body point = v + ω × r (per frame)
    const vax = A[Side.VD] + A[Side.WD + 1] * raz - A[Side.WD + 2] * ray;
    const vay = A[Side.VD + 1] + A[Side.WD + 2] * rax - A[Side.WD] * raz;
    const vaz = A[Side.VD + 2] + A[Side.WD] * ray - A[Side.WD + 1] * rax;
    const vbx = B[Side.VD] + B[Side.WD + 1] * rbz - B[Side.WD + 2] * rby;
    const vby = B[Side.VD + 1] + B[Side.WD + 2] * rbx - B[Side.WD] * rbz;
    const vbz = B[Side.VD + 2] + B[Side.WD] * rby - B[Side.WD + 1] * rbx;
    const u =
      (vbx - vax) * PIECE[Piece.Normal] +
      (vby - vay) * PIECE[Piece.Normal + 1] +
      (vbz - vaz) * PIECE[Piece.Normal + 2];
    if (u < -PARAMS[Param.ApproachEps]) {
      if (!sample.hit || d < SAMPLE[Contact.Distance]) keepPiece(SAMPLE);
      sample.hit = true;
      sample.found = true;
      return;
    }
    step = c > 0 ? tol / c : Number.POSITIVE_INFINITY;
  }
  if (step < PARAMS[Param.Step]) PARAMS[Param.Step] = step;
  if (!sample.hit && (!sample.found || d < SAMPLE[Contact.Distance])) {
    keepPiece(SAMPLE);
    sample.found = true;
  }
}

/** Sphere (side 0) against sphere (side 1). */
export function sphereSphere(): void {
  const A = sides[0];
  const B = sides[1];
  const dx = B[Side.OBB] - A[Side.OBB];
  const dy = B[Side.OBB + 1] - A[Side.OBB + 1];
  const dz = B[Side.OBB + 2] - A[Side.OBB + 2];
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const ra = A[Side.RAD];
  const rb = B[Side.RAD];
  const d = dist - ra - rb;
  let nx = 1;
  let ny = 0;
  let nz = 0;
  if (dist > 0) {
    nx = dx / dist;
    ny = dy / dist;
    nz = dz / dist;
  }
  PIECE[Piece.Distance] = d;
  PIECE[Piece.Normal] = nx;
  PIECE[Piece.Normal + 1] = ny;
  PIECE[Piece.Normal + 2] = nz;
  PIECE[Piece.PointA] = A[Side.OBB] + nx * ra;
  PIECE[Piece.PointA + 1] = A[Side.OBB + 1] + ny * ra;
  PIECE[Piece.PointA + 2] = A[Side.OBB + 2] + nz * ra;
  PIECE[Piece.PointB] = B[Side.OBB] - nx * rb;
  PIECE[Piece.PointB + 1] = B[Side.OBB + 1] - ny * rb;
  PIECE[Piece.PointB + 2] = B[Side.OBB + 2] - nz * rb;
  if (d < 0 || dist === 0) {
    keepPiece(OVERLAP);
    sample.overlap = true;
    return;
  }
  closing();
  piece();
}

/** Sphere (side `s`) against box (side `b`); the normal always points from side 0 to side 1. */
export function sphereBox(s: number, b: number): void {
  const S = sides[s];
  const X = sides[b];
  const rx = S[Side.OBB] - X[Side.OBB];
  const ry = S[Side.OBB + 1] - X[Side.OBB + 1];
  const rz = S[Side.OBB + 2] - X[Side.OBB + 2];
  // OCSI in the box frame (the OCSI paper, Eq. 2): clamp the centre's coordinates into [−h, h].
  let qx = X[Side.OBB];
  let qy = X[Side.OBB + 1];
  let qz = X[Side.OBB + 2];
  let dx = 0;
  let dy = 0;
  let dz = 0;
  for (let k = 0; k < 3; k++) {
    const e = Side.OBB + Obb.Axes + 3 * k;
    const a = rx * X[e] + ry * X[e + 1] + rz * X[e + 2];
    const h = X[Side.OBB + Obb.Half + k];
    const q = a < -h ? -h : Math.min(a, h);
    const diff = a - q;
    qx += q * X[e];
    qy += q * X[e + 1];
    qz += q * X[e + 2];
    dx += diff * X[e];
    dy += diff * X[e + 1];
    dz += diff * X[e + 2];
  }
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const r = S[Side.RAD];
  const d = dist - r;
  if (dist === 0 || d < 0) {
    sample.overlap = true;
    overlapSphereBox(s, b);
    return;
  }
  // n from the box towards the sphere
  const nx = dx / dist;
  const ny = dy / dist;
  const nz = dz / dist;
  const so = s === 0 ? Piece.PointA : Piece.PointB;
  const bo = s === 0 ? Piece.PointB : Piece.PointA;
  const sg = s === 0 ? -1 : 1;
  PIECE[Piece.Distance] = d;
  PIECE[Piece.Normal] = sg * nx;
  PIECE[Piece.Normal + 1] = sg * ny;
  PIECE[Piece.Normal + 2] = sg * nz;
  PIECE[so] = S[Side.OBB] - nx * r;
  PIECE[so + 1] = S[Side.OBB + 1] - ny * r;
  PIECE[so + 2] = S[Side.OBB + 2] - nz * r;
  PIECE[bo] = qx;
  PIECE[bo + 1] = qy;
  PIECE[bo + 2] = qz;
  closing();
  piece();
}

// The side record's pose as a 2-D OBB (8-number layout).
function toObb2(src: Float64Array, dst: Float64Array): void {
  dst[0] = src[Side.OBB];
  dst[1] = src[Side.OBB + 1];
  dst[2] = src[Side.OBB + Obb.Axes];
  dst[3] = src[Side.OBB + Obb.Axes + 1];
  dst[4] = src[Side.OBB + Obb.Axes + 3];
  dst[5] = src[Side.OBB + Obb.Axes + 4];
  dst[6] = src[Side.OBB + Obb.Half];
  dst[7] = src[Side.OBB + Obb.Half + 1];
}

// A 2-D narrowphase contact [nx, ny, depth, px, py] widened in place to the 3-D layout.
function widenNarrow(): void {
  NARROW[6] = 0;
  NARROW[5] = NARROW[4];
  NARROW[4] = NARROW[3];
  NARROW[3] = NARROW[2];
  NARROW[2] = 0;
}

// OVERLAP = the narrowphase contact of the overlapping sphere (side s) and box (side b).
function overlapSphereBox(s: number, b: number): void {
  const S = sides[s];
  const X = sides[b];
  const r = S[Side.RAD];
  CENTER[0] = S[Side.OBB];
  CENTER[1] = S[Side.OBB + 1];
  CENTER[2] = S[Side.OBB + 2];
  // NARROW: normal from the box to the sphere, depth, point on the box
  if (sample.planar) {
    toObb2(X, OBB2B);
    circleObbContact2D(OBB2B, CENTER, r, NARROW);
    widenNarrow();
  } else {
    sphereObbContact(OBB_VIEW[b], CENTER, r, NARROW);
  }
  const so = s === 0 ? Piece.PointA : Piece.PointB;
  const bo = s === 0 ? Piece.PointB : Piece.PointA;
  const sg = s === 0 ? -1 : 1;
  PIECE[Piece.Distance] = -NARROW[Narrow.Depth];
  for (let i = 0; i < 3; i++) {
    PIECE[Piece.Normal + i] = sg * NARROW[Narrow.Normal + i] + 0;
    PIECE[so + i] = CENTER[i] - NARROW[Narrow.Normal + i] * r; // the sphere's deepest point
    PIECE[bo + i] = NARROW[Narrow.Point + i];
  }
  keepPiece(OVERLAP);
}

/** Box (side 0) against box (side 1), by GJK warm-started from the last separating direction. */
export function boxBox(): void {
  const A = sides[0];
  const B = sides[1];
  if (gjkDistance(GJK_BOX, A, Side.OBB, GJK_BOX, B, Side.OBB, GJK_HINT) < 0) {
    sample.overlap = true;
    overlapBoxBox();
    return;
  }
  const n = gjk.normal;
  const pa = gjk.pointA;
  const pb = gjk.pointB;
  PIECE[Piece.Distance] = Math.max(gjk.result[GJK_SEPARATION], 0);
  for (let i = 0; i < 3; i++) {
    GJK_HINT[i] = n[i];
    PIECE[Piece.Normal + i] = n[i];
    PIECE[Piece.PointA + i] = pa[i];
    PIECE[Piece.PointB + i] = pb[i];
  }
  closing();
  piece();
}

// OVERLAP = the narrowphase contact of the two overlapping boxes.
function overlapBoxBox(): void {
  if (sample.planar) {
    toObb2(sides[0], OBB2A);
    toObb2(sides[1], OBB2B);
    obbObbContact2D(OBB2A, OBB2B, NARROW);
    widenNarrow();
  } else {
    obbObbContact(OBB_VIEW[0], OBB_VIEW[1], NARROW);
  }
  PIECE[Piece.Distance] = -NARROW[Narrow.Depth];
  for (let i = 0; i < 3; i++) {
    PIECE[Piece.Normal + i] = NARROW[Narrow.Normal + i];
    PIECE[Piece.PointA + i] = NARROW[Narrow.Point + i];
    PIECE[Piece.PointB + i] = NARROW[Narrow.Point + i];
  }
  keepPiece(OVERLAP);
}
