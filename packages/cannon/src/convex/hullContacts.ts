/**
 * Contacts between two convex hulls: the separating-axis test of the hull-queries module, then one
 * manifold of at most four points, the way Box2D v3, Bullet (`btPolyhedralContactClipping`) and
 * Rapier/parry build it and Dirk Gregorius describes it ("Robust Contact Creation for Physics
 * Simulations", GDC 2015):
 *
 * - The axis: the least-penetrating face of A, face of B or edge pair, with Gregorius's hysteresis (a
 *   face of B only if clearly better than A's, an edge pair only if clearly better than both faces), so
 *   resting contacts do not flip between features from one step to the next.
 * - Face contact: the incident face (of the other hull's faces around its deepest vertex, the most
 *   anti-parallel to the reference normal) is clipped by the reference face's side planes
 *   (Sutherland–Hodgman); the points below the reference plane are the contacts, each paired with its
 *   projection on the plane, then reduced to four (the manifold-reduction module: area-spanning, and
 *   steady from step to step by a per-pair memory).
 * - Edge contact: the closest points of the two edges.
 *
 * Why separating axes and not GJK + EPA: cannon's convex shapes are polyhedra with face lists, so the
 * face and Gauss-map edge queries are exact and cost only dot products over flat arrays; they give
 * the reference face that clipping needs directly, where EPA's penetration vector needs a feature
 * search afterwards and its polytope expansion is slower and less robust for resting (deep, flat)
 * contacts. Two things keep it cheap: a warm start — the axis that separated the pair last step (a
 * small per-pair cache) is checked first, exactly, so pairs whose bounding spheres meet but whose hulls
 * do not usually cost one support query; and, in touching pairs, edge pruning — a vertex of one hull
 * lying deep inside the other bounds every edge axis near it, so only the edges around the contact
 * region enter the Gauss-map edge query (`pruneEdges` in the hull-queries module states the bound).
 *
 * All work is in hull A's local frame, in scratch that grows to the largest face and is then reused.
 */
import { growArray } from '@sieve/core';
import type { Hull } from './hull.js';
import {
  AxisQuery,
  argMinDot,
  axisSeparates,
  EDGE,
  edgeQuery,
  FACE_A,
  FACE_B,
  faceQuery,
  type HullPair,
  NONE,
  pruneEdges,
  separationSign,
  setAxis,
} from './hullQueries.js';
import { reduceManifold } from './manifoldReduction.js';
import { clipPolygon } from './polygonClip.js';

/** Gregorius's hysteresis: relative tolerances for preferring face A over B and faces over edges. */
const REL_FACE = 0.98;
const REL_EDGE = 0.9;
/** Absolute hysteresis tolerance, as a fraction of the smaller hull's radius. */
const ABS_TOL = 0.001;
/**
 * Clipped points up to this far above the reference plane (a fraction of the smaller hull's radius)
 * are kept, as speculative contacts of an overlapping pair: a resting face keeps its four corners when
 * the solver lifts one by a hair, instead of flickering between one and four contacts.
 */
const MARGIN = 0.01;

/** The contacts of one hull pair in hull A's frame: one normal (A → B), points on A and on B. */
export class HullManifold {
  /** Contacts held, at most 4. */
  count = 0;
  /** The unit normal from A to B. */
  readonly n = new Float64Array(3);
  /** Points on A, xyz each. */
  readonly pa = new Float64Array(12);
  /** Points on B, xyz each. */
  readonly pb = new Float64Array(12);
  /** Separations (negative: penetration depth). */
  readonly sep = new Float64Array(4);
  /**
   * Whether the points are a face clip (a patch: reference face against incident face), not an edge
   * pair's closest points or a single support point.
   */
  face = false;
}

/**
 * A pair's memory for the face reduction: `buf` from `at` (`REDUCTION_FLOATS` of the
 * manifold-reduction module), or none (`buf` null).
 */
export class ReductionMemory {
  /** The records (a pair cache's floats), or null for none. */
  buf: Float64Array | null = null;
  /** Where the pair's record starts in `buf`. */
  at = 0;
}

const qa = new AxisQuery();
const qb = new AxisQuery();
const qe = new AxisQuery();
/** Clip buffers (xyz) and the clipped points' separations. */
let clipIn = new Float64Array(96);
let clipOut = new Float64Array(96);
let clipSep = new Float64Array(32);
/** Edge-pruning scratch: which edges of A and B the edge query visits, face depths of a witness. */
let keepA: Uint8Array = new Uint8Array(64);
let keepB: Uint8Array = new Uint8Array(64);
let depths = new Float64Array(64);
/** Numbers handed to helpers in arrays, not arguments (no boxing): edge floor, normal, side plane. */
const FLOOR = new Float64Array(1);
const NORMAL = new Float64Array(3);
const SIDE = new Float64Array(4);

function growBytes(a: Uint8Array, n: number): Uint8Array {
  return a.length >= n ? a : new Uint8Array(2 * n);
}
const keep = new Int32Array(4);
/** The reduction memory of the pair being collided (set by `collideHulls`). */
let memory: ReductionMemory | null = null;
/** Kept points within this distance (a fraction of the smaller hull's radius) count as the same point. */
const KEEP_TOL = 0.02;
/** The reduction's tolerance, handed over in an array (an argument would be boxed). */
const TOLERANCE = new Float64Array(1);

/**
 * Collides hulls A and B (`pair`: B's vertices and planes already in A's frame). `feature` holds the
 * pair's axis of last step on entry (kind NONE if none) and this step's on return: the separating
 * axis, or the one the contacts came from. Returns whether the hulls overlap; the contacts go into
 * `out` unless `justTest`. `reduction`, the pair's memory, keeps a face contact's four points steady
 * from step to step.
 */
export function collideHulls(
  A: Hull,
  B: Hull,
  pair: HullPair,
  feature: AxisQuery,
  out: HullManifold,
  justTest: boolean,
  reduction: ReductionMemory | null = null,
): boolean {
  out.count = 0;
  out.face = false;
  memory = reduction;
  if (A.nv === 0 || B.nv === 0 || A.nf === 0 || B.nf === 0) return false;
  // Warm start: last step's axis, measured exactly; if it still separates, the pair is apart.
  if (feature.kind !== NONE && axisSeparates(A, pair, B, feature.kind, feature.i0, feature.i1)) return false;
  qa.reset();
  qb.reset();
  qe.reset();
  keepA = growBytes(keepA, A.ne);
  keepB = growBytes(keepB, B.ne);
  faceQuery(A.planes, A.nf, pair.verts, B.nv, FACE_A, qa);
  if (qa.sep > 0) return separated(feature, qa);
  faceQuery(pair.planes, B.nf, A.verts, A.nv, FACE_B, qb);
  if (qb.sep > 0) return separated(feature, qb);
  // Edge pairs at or below this cannot change the answer (hysteresis keeps the face, and they do not
  // separate): skip the edges that provably only build such pairs, with a witness point of the other
  // hull — B's vertex deepest under A's best face for A's edges, A's under B's for B's.
  FLOOR[0] = Math.min(0, REL_EDGE * Math.max(qa.sep, qb.sep) + ABS_TOL * Math.min(A.radius, B.radius));
  depths = growArray(depths, Math.max(A.nf, B.nf));
  const wb = 3 * argMinDot(pair.verts, B.nv, A.planes, 4 * qa.i0);
  pruneEdges(A, A.planes, pair.verts, wb, FLOOR, keepA, depths);
  const wa = 3 * argMinDot(A.verts, A.nv, pair.planes, 4 * qb.i0);
  pruneEdges(B, pair.planes, A.verts, wa, FLOOR, keepB, depths);
  pair.loadEdges(B, keepB);
  edgeQuery(A, pair, B, qe, keepA, keepB);
  if (qe.sep > 0) return separated(feature, qe);
  if (justTest) {
    feature.kind = NONE;
    return true;
  }
  const tol = ABS_TOL * Math.min(A.radius, B.radius);
  let best = qb.sep > REL_FACE * qa.sep + tol ? qb : qa;
  if (qe.kind === EDGE && qe.sep > REL_EDGE * Math.max(qa.sep, qb.sep) + tol) best = qe;
  let exact = qb.sep > qa.sep ? qb : qa;
  if (qe.kind === EDGE && qe.sep > exact.sep) exact = qe;
  // A face kept by hysteresis, or any face when an edge pair is the true best, can miss the overlap
  // (its clip is empty): then the exact best, then the best edge pair of a full edge query.
  if (!contactFor(A, B, pair, best, out) && best !== exact) {
    best = exact;
    contactFor(A, B, pair, best, out);
  }
  if (out.count === 0 && best.kind !== EDGE) {
    const face = best.sep;
    keepA.fill(1, 0, A.ne);
    keepB.fill(1, 0, B.ne);
    qe.reset();
    pair.loadEdges(B, keepB);
    edgeQuery(A, pair, B, qe, keepA, keepB);
    if (qe.kind === EDGE && qe.sep >= face) {
      best = qe;
      contactFor(A, B, pair, best, out);
    }
  }
  if (out.count === 0) supportContact(A, B, pair, best.kind === FACE_A, best.i0, out);
  feature.kind = best.kind;
  feature.i0 = best.i0;
  feature.i1 = best.i1;
  return true;
}

/** The contacts of axis `q` into `out`; false if a face contact's clip kept no point. */
function contactFor(A: Hull, B: Hull, pair: HullPair, q: AxisQuery, out: HullManifold): boolean {
  if (q.kind === EDGE) edgeContact(A, B, pair, q.i0, q.i1, out);
  else faceContact(A, B, pair, q.kind === FACE_A, q.i0, out);
  return out.count > 0;
}

function separated(feature: AxisQuery, q: AxisQuery): boolean {
  feature.kind = q.kind;
  feature.i0 = q.i0;
  feature.i1 = q.i1;
  return false;
}

/**
 * Face contact with reference face `ref` of A (`onA`) or of B: clip the other hull's incident face to
 * it, keep the points below its plane, reduce to four.
 */
function faceContact(A: Hull, B: Hull, pair: HullPair, onA: boolean, ref: number, out: HullManifold): void {
  const margin = MARGIN * Math.min(A.radius, B.radius);
  const refHull = onA ? A : B;
  const refVerts = onA ? A.verts : pair.verts;
  const refPlanes = onA ? A.planes : pair.planes;
  const incHull = onA ? B : A;
  const incVerts = onA ? pair.verts : A.verts;
  const incPlanes = onA ? pair.planes : A.planes;
  const nx = refPlanes[4 * ref];
  const ny = refPlanes[4 * ref + 1];
  const nz = refPlanes[4 * ref + 2];
  const d = refPlanes[4 * ref + 3];
  // The incident face: the most anti-parallel of the faces around the incident hull's deepest vertex
  // (not of all its faces: on an irregular hull that one may miss the deepest vertex, which then
  // sinks unseen while the hull rocks on a shallower corner).
  let deepest = 0;
  let low = Number.POSITIVE_INFINITY;
  for (let v = 0; v < incHull.nv; v++) {
    const s = nx * incVerts[3 * v] + ny * incVerts[3 * v + 1] + nz * incVerts[3 * v + 2];
    if (s < low) {
      low = s;
      deepest = v;
    }
  }
  let inc = 0;
  let minDot = Number.POSITIVE_INFINITY;
  for (let k = incHull.vertStart[deepest]; k < incHull.vertStart[deepest + 1]; k++) {
    const f = incHull.vertFaces[k];
    const s = nx * incPlanes[4 * f] + ny * incPlanes[4 * f + 1] + nz * incPlanes[4 * f + 2];
    if (s < minDot) {
      minDot = s;
      inc = f;
    }
  }
  const cap = 3 * (incHull.maxFaceVerts + refHull.maxFaceVerts + 2);
  if (clipIn.length < cap) {
    clipIn = growArray(clipIn, cap);
    clipOut = growArray(clipOut, cap);
    clipSep = growArray(clipSep, cap / 3);
  }
  let n = 0;
  for (let k = incHull.faceStart[inc]; k < incHull.faceStart[inc + 1]; k++) {
    const v = 3 * incHull.faceVerts[k];
    clipIn[3 * n] = incVerts[v];
    clipIn[3 * n + 1] = incVerts[v + 1];
    clipIn[3 * n + 2] = incVerts[v + 2];
    n++;
  }
  // Sutherland–Hodgman against each side plane of the reference face: cross(edge, n) points out.
  const s0 = refHull.faceStart[ref];
  const s1 = refHull.faceStart[ref + 1];
  for (let k = s0; k < s1 && n > 0; k++) {
    const p = 3 * refHull.faceVerts[k];
    const q = 3 * refHull.faceVerts[k + 1 < s1 ? k + 1 : s0];
    const ex = refVerts[q] - refVerts[p];
    const ey = refVerts[q + 1] - refVerts[p + 1];
    const ez = refVerts[q + 2] - refVerts[p + 2];
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    SIDE[0] = sx;
    SIDE[1] = sy;
    SIDE[2] = sz;
    SIDE[3] = sx * refVerts[p] + sy * refVerts[p + 1] + sz * refVerts[p + 2];
    n = clipPolygon(clipIn, n, SIDE, clipOut);
    const t = clipIn;
    clipIn = clipOut;
    clipOut = t;
  }
  // Points below the reference plane.
  let m = 0;
  for (let k = 0; k < n; k++) {
    const s = nx * clipIn[3 * k] + ny * clipIn[3 * k + 1] + nz * clipIn[3 * k + 2] - d;
    if (s <= margin) {
      clipIn[3 * m] = clipIn[3 * k];
      clipIn[3 * m + 1] = clipIn[3 * k + 1];
      clipIn[3 * m + 2] = clipIn[3 * k + 2];
      clipSep[m++] = s;
    }
  }
  NORMAL[0] = nx;
  NORMAL[1] = ny;
  NORMAL[2] = nz;
  const buf = memory === null ? null : memory.buf;
  TOLERANCE[0] = KEEP_TOL * Math.min(A.radius, B.radius);
  const count = reduceManifold(
    clipIn,
    clipSep,
    m,
    NORMAL,
    keep,
    buf,
    buf === null ? 0 : (memory as ReductionMemory).at,
    onA ? ref + 1 : -(ref + 1),
    TOLERANCE,
  );
  // Normal from A to B: the reference normal if the face is A's, its opposite if B's.
  const sign = onA ? 1 : -1;
  out.n[0] = sign * nx;
  out.n[1] = sign * ny;
  out.n[2] = sign * nz;
  for (let c = 0; c < count; c++) {
    const k = keep[c];
    const s = clipSep[k];
    const x = clipIn[3 * k];
    const y = clipIn[3 * k + 1];
    const z = clipIn[3 * k + 2];
    // The clipped point is on the incident hull; its projection on the reference plane on the other.
    const inc3 = onA ? out.pb : out.pa;
    const ref3 = onA ? out.pa : out.pb;
    inc3[3 * c] = x;
    inc3[3 * c + 1] = y;
    inc3[3 * c + 2] = z;
    ref3[3 * c] = x - s * nx;
    ref3[3 * c + 1] = y - s * ny;
    ref3[3 * c + 2] = z - s * nz;
    out.sep[c] = s;
  }
  out.count = count;
  out.face = count > 0;
}

/**
 * Last resort when even the best face's clip is empty (rounding at a face's rim): one contact at the
 * incident hull's deepest vertex along the reference normal, the separating-axis test having placed it
 * on or below the reference plane.
 */
function supportContact(
  A: Hull,
  B: Hull,
  pair: HullPair,
  onA: boolean,
  ref: number,
  out: HullManifold,
): void {
  const refPlanes = onA ? A.planes : pair.planes;
  const incVerts = onA ? pair.verts : A.verts;
  const nv = onA ? B.nv : A.nv;
  const nx = refPlanes[4 * ref];
  const ny = refPlanes[4 * ref + 1];
  const nz = refPlanes[4 * ref + 2];
  let lo = 0;
  let loS = Number.POSITIVE_INFINITY;
  for (let k = 0; k < nv; k++) {
    const s = nx * incVerts[3 * k] + ny * incVerts[3 * k + 1] + nz * incVerts[3 * k + 2];
    if (s < loS) {
      loS = s;
      lo = k;
    }
  }
  const s = Math.min(loS - refPlanes[4 * ref + 3], 0);
  const sign = onA ? 1 : -1;
  const inc3 = onA ? out.pb : out.pa;
  const ref3 = onA ? out.pa : out.pb;
  for (let c = 0; c < 3; c++) {
    const n = refPlanes[4 * ref + c];
    out.n[c] = sign * n;
    inc3[c] = incVerts[3 * lo + c];
    ref3[c] = incVerts[3 * lo + c] - s * n;
  }
  out.sep[0] = s;
  out.count = 1;
  out.face = false;
}

/** Edge contact: the closest points of edge `ea` of A and edge `eb` of B (Ericson §5.1.9). */
function edgeContact(A: Hull, B: Hull, pair: HullPair, ea: number, eb: number, out: HullManifold): void {
  const av = A.verts;
  const bv = pair.verts;
  const p1 = 3 * A.edges[4 * ea];
  const q1 = 3 * A.edges[4 * ea + 1];
  const p2 = 3 * B.edges[4 * eb];
  const q2 = 3 * B.edges[4 * eb + 1];
  const d1x = av[q1] - av[p1];
  const d1y = av[q1 + 1] - av[p1 + 1];
  const d1z = av[q1 + 2] - av[p1 + 2];
  const d2x = bv[q2] - bv[p2];
  const d2y = bv[q2 + 1] - bv[p2 + 1];
  const d2z = bv[q2 + 2] - bv[p2 + 2];
  const rx = av[p1] - bv[p2];
  const ry = av[p1 + 1] - bv[p2 + 1];
  const rz = av[p1 + 2] - bv[p2 + 2];
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  const c = d1x * rx + d1y * ry + d1z * rz;
  const b = d1x * d2x + d1y * d2y + d1z * d2z;
  const den = a * e - b * b;
  let s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
  let t = e > 0 ? (b * s + f) / e : 0;
  if (t < 0) {
    t = 0;
    s = a > 0 ? clamp01(-c / a) : 0;
  } else if (t > 1) {
    t = 1;
    s = a > 0 ? clamp01((b - c) / a) : 0;
  }
  const ax = av[p1] + s * d1x;
  const ay = av[p1 + 1] + s * d1y;
  const az = av[p1 + 2] + s * d1z;
  const bx = bv[p2] + t * d2x;
  const by = bv[p2 + 1] + t * d2y;
  const bz = bv[p2 + 2] + t * d2z;
  // The axis e_A × e_B, pointing from A to B: the sign along which B lies farther beyond A.
  let lx = d1y * d2z - d1z * d2y;
  let ly = d1z * d2x - d1x * d2z;
  let lz = d1x * d2y - d1y * d2x;
  const len = Math.sqrt(lx * lx + ly * ly + lz * lz) || 1;
  NORMAL[0] = lx / len;
  NORMAL[1] = ly / len;
  NORMAL[2] = lz / len;
  setAxis(NORMAL, 0);
  const sign = separationSign(A, pair, B);
  lx = sign * NORMAL[0];
  ly = sign * NORMAL[1];
  lz = sign * NORMAL[2];
  out.n[0] = lx;
  out.n[1] = ly;
  out.n[2] = lz;
  out.pa[0] = ax;
  out.pa[1] = ay;
  out.pa[2] = az;
  out.pb[0] = bx;
  out.pb[1] = by;
  out.pb[2] = bz;
  out.sep[0] = lx * (bx - ax) + ly * (by - ay) + lz * (bz - az);
  out.count = 1;
  out.face = false;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
