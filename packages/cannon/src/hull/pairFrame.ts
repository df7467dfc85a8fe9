/**
 * What the exact hull contacts compute once per shape pair where cannon-es 0.20.0 recomputes it per
 * axis: each hull's face normals and unique edges turned into world space and each hull's origin in
 * its own frame (cannon's `Transform.pointToLocalFrame` of the world origin), with cannon's own
 * `Quaternion.vmult` arithmetic, operation for operation, so every number equals the one cannon gets;
 * and, for the lower bounds only (where any rounding is covered by a margin), the world-space vertices
 * and each hull's edges seen from the other's frame.
 *
 * One pair at a time (module-level scratch, grown as needed, never shrunk): the pair's hulls are set by
 * {@link loadPair}, the edge arrays by {@link loadEdges} when the edge axes are reached. Last, the
 * contacts' vectors go from the shapes' frames to the bodies' ({@link toBodies}), as cannon does.
 */
import type { Body, ContactEquation, Quaternion, Vec3 } from 'cannon-es';
import { grow, type HullData } from './hullData.js';

/** {@link rotate} modes: the quaternion itself, with `w` negated, or conjugated. */
export const AS_IS = 0;
/** cannon's `Transform.vectorToLocalFrame` (`quaternion.w *= -1`, vmult, restore). */
export const W_NEGATED = 1;
/** cannon's `Transform.pointToLocalFrame` (`quaternion.conjugate()`, vmult). */
export const CONJUGATE = 2;

/**
 * cannon's `Quaternion.vmult` of `v[vo..vo+2]` by the quaternion `q[qo..qo+3]` (x, y, z, w; taken as
 * is, with w negated or conjugated, see `mode`), term for term (the order of every product and sum
 * matters for the last bit), written to `out[o..o+2]`. Numbers go through arrays, not arguments:
 * doubles passed to a call V8 does not inline are boxed (allocated).
 */
export function rotate(
  q: Float64Array,
  qo: number,
  mode: number,
  v: Float64Array,
  vo: number,
  out: Float64Array,
  o: number,
): void {
  let qx = q[qo];
  let qy = q[qo + 1];
  let qz = q[qo + 2];
  let qw = q[qo + 3];
  if (mode === W_NEGATED) qw = qw * -1;
  else if (mode === CONJUGATE) {
    qx = -qx;
    qy = -qy;
    qz = -qz;
  }
  const x = v[vo];
  const y = v[vo + 1];
  const z = v[vo + 2];
  const ix = qw * x + qy * z - qz * y;
  const iy = qw * y + qz * x - qx * z;
  const iz = qw * z + qx * y - qy * x;
  const iw = -qx * x - qy * y - qz * z;
  out[o] = ix * qw + iw * -qx + iy * -qz - iz * -qy;
  out[o + 1] = iy * qw + iw * -qy + iz * -qx - ix * -qz;
  out[o + 2] = iz * qw + iw * -qz + ix * -qy - iy * -qx;
}

/** The pair being worked on (see the module comment); the type of {@link pair}. */
export interface PairFrame {
  q: Float64Array;
  p: Float64Array;
  origin: Float64Array;
  normalsA: Float64Array;
  normalsB: Float64Array;
  axesA: Float64Array;
  axesB: Float64Array;
  vertsA: Float64Array;
  vertsB: Float64Array;
  edgesA: Float64Array;
  edgesB: Float64Array;
  edgesBinA: Float64Array;
  edgesAinB: Float64Array;
  bounds: boolean;
  margin: Float64Array;
}

/** The pair being worked on (see the module comment). */
export const pair: PairFrame = {
  /** Quaternions of A and B: x, y, z, w, x, y, z, w. */
  q: new Float64Array(8),
  /** Positions of A and B. */
  p: new Float64Array(6),
  /** Each hull's origin in its own frame, as cannon's `project` computes it (A then B). */
  origin: new Float64Array(6),
  /** World face normals of all faces (cannon's `quat.vmult(faceNormals[f])`). */
  normalsA: new Float64Array(96),
  normalsB: new Float64Array(96),
  /** World unique axes (boxes), when the hull has them. */
  axesA: new Float64Array(9),
  axesB: new Float64Array(9),
  /** World vertices (bounds only). */
  vertsA: new Float64Array(96),
  vertsB: new Float64Array(96),
  /** World unique edges (cannon's `quat.vmult(uniqueEdges[e])`), filled by {@link loadEdges}. */
  edgesA: new Float64Array(96),
  edgesB: new Float64Array(96),
  /** B's world edges in A's frame and A's in B's (bounds only), filled by {@link loadEdges}. */
  edgesBinA: new Float64Array(96),
  edgesAinB: new Float64Array(96),
  /**
   * Whether the lower bounds may be used (both quaternions within 1e-6 of unit length), and the margin
   * (in `margin[0]`) that covers every rounding difference between a bound and cannon's computed
   * projections.
   */
  bounds: false,
  margin: new Float64Array(1),
};

const TMP = new Float64Array(6);

/** Loads hull A at (pA, qA) and hull B at (pB, qB): quaternions, origins, normals, axes, vertices. */
export function loadPair(A: HullData, B: HullData, pA: Vec3, qA: Quaternion, pB: Vec3, qB: Quaternion): void {
  const P = pair;
  const q = P.q;
  q[0] = qA.x;
  q[1] = qA.y;
  q[2] = qA.z;
  q[3] = qA.w;
  q[4] = qB.x;
  q[5] = qB.y;
  q[6] = qB.z;
  q[7] = qB.w;
  const p = P.p;
  p[0] = pA.x;
  p[1] = pA.y;
  p[2] = pA.z;
  p[3] = pB.x;
  p[4] = pB.y;
  p[5] = pB.z;
  // cannon's pointToLocalFrame(pos, quat, (0, 0, 0)): (0 - pos) turned by the conjugate.
  const t = TMP;
  for (let k = 0; k < 6; k++) t[k] = 0 - p[k];
  rotate(q, 0, CONJUGATE, t, 0, P.origin, 0);
  rotate(q, 4, CONJUGATE, t, 3, P.origin, 3);
  P.normalsA = worldOf(A.normals, A.nf, 0, P.normalsA);
  P.normalsB = worldOf(B.normals, B.nf, 4, P.normalsB);
  if (A.na > 0) P.axesA = worldOf(A.axes, A.na, 0, P.axesA);
  if (B.na > 0) P.axesB = worldOf(B.axes, B.na, 4, P.axesB);
  const sA = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  const sB = q[4] * q[4] + q[5] * q[5] + q[6] * q[6] + q[7] * q[7];
  let delta = Math.abs(sA - 1);
  const dB = Math.abs(sB - 1);
  if (dB > delta) delta = dB;
  P.bounds = delta < 1e-6 && (A.support !== null || B.support !== null);
  if (!P.bounds) return;
  let pMax = 0;
  for (let k = 0; k < 6; k++) {
    const a = Math.abs(p[k]);
    if (a > pMax) pMax = a;
  }
  // A bound differs from cannon's projection by |q|²-scaling ((|q|⁴ - 1)·(n·p), under 4·delta·|p|) and
  // by rounding (tens of ulps of the magnitudes): the margin covers both many times over.
  P.margin[0] = (16 * delta + 1e-12) * (1 + 2 * (A.extent + B.extent) + 4 * pMax);
  P.vertsA = worldOf(A.verts, A.nv, 0, P.vertsA);
  P.vertsB = worldOf(B.verts, B.nv, 4, P.vertsB);
  addTo(P.vertsA, A.nv, p, 0);
  addTo(P.vertsB, B.nv, p, 3);
}

/** World unique edges of both hulls (twins skipped: never read), and, with bounds, each in the other's frame. */
export function loadEdges(A: HullData, B: HullData): void {
  const P = pair;
  P.edgesA = turnEdges(A, A.edges, 0, AS_IS, P.edgesA);
  P.edgesB = turnEdges(B, B.edges, 4, AS_IS, P.edgesB);
  if (!P.bounds) return;
  P.edgesAinB = turnEdges(A, P.edgesA, 4, CONJUGATE, P.edgesAinB);
  P.edgesBinA = turnEdges(B, P.edgesB, 0, CONJUGATE, P.edgesBinA);
}

/**
 * The unique edges of `H` in `edges` (twins skipped) turned by the pair's quaternion at `qo` (0: A,
 * 4: B) as `mode` says, into `out` (grown as needed).
 */
function turnEdges(
  H: HullData,
  edges: Float64Array,
  qo: number,
  mode: number,
  out: Float64Array,
): Float64Array {
  out = grow(out, 3 * H.ne);
  for (let e = 0; e < H.ne; e++) {
    if (H.twin[e] === e) rotate(pair.q, qo, mode, edges, 3 * e, out, 3 * e);
  }
  return out;
}

/** `local` turned by the pair's quaternion at `qo` (0: A, 4: B), into `out` (grown as needed). */
function worldOf(local: Float64Array, n: number, qo: number, out: Float64Array): Float64Array {
  out = grow(out, 3 * n);
  for (let i = 0; i < n; i++) rotate(pair.q, qo, AS_IS, local, 3 * i, out, 3 * i);
  return out;
}

function addTo(a: Float64Array, n: number, p: Float64Array, po: number): void {
  // cannon's `pos.vadd(v, v)`: v.x + pos.x.
  const x = p[po];
  const y = p[po + 1];
  const z = p[po + 2];
  for (let i = 0; i < n; i++) {
    a[3 * i] = a[3 * i] + x;
    a[3 * i + 1] = a[3 * i + 1] + y;
    a[3 * i + 2] = a[3 * i + 2] + z;
  }
}

/**
 * cannon's last steps of every hull contact, in its order: rj += xj − bj.position, ri += xi −
 * bi.position (`xi + ri`, then minus the body's position, as cannon's `vadd` and `vsub` round).
 */
export function toBodies(r: ContactEquation, xi: Vec3, xj: Vec3, bi: Body, bj: Body): void {
  const rj = r.rj;
  const ri = r.ri;
  rj.x = xj.x + rj.x;
  rj.y = xj.y + rj.y;
  rj.z = xj.z + rj.z;
  rj.x = rj.x - bj.position.x;
  rj.y = rj.y - bj.position.y;
  rj.z = rj.z - bj.position.z;
  ri.x = xi.x + ri.x;
  ri.y = xi.y + ri.y;
  ri.z = xi.z + ri.z;
  ri.x = ri.x - bi.position.x;
  ri.y = ri.y - bi.position.y;
  ri.z = ri.z - bi.position.z;
}
