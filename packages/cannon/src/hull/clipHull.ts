/**
 * cannon-es 0.20.0's `ConvexPolyhedron.clipAgainstHull` (with `clipFaceAgainstHull` and
 * `clipFaceAgainstPlane`, the Sutherland–Hodgman clipping of Dirk Gregorius's "contact generation
 * between 3-D convex meshes" that cannon follows), with the same points, depths and order bit for bit,
 * into flat arrays instead of a `Vec3` per vertex: B's face most along the separating axis, in world
 * space, clipped by the planes of A's faces that share a vertex with A's face most against the axis
 * (cannon pairs the i-th polygon vertex with the i-th such face, in face order), then kept where it is
 * at most 1e-6 in front of that face. The world face normals come from the pair-frame module (cannon's own
 * `vmult` arithmetic, once per pair). cannon's unused intermediate vectors are not computed.
 */
import type { HullData } from './hullData.js';
import { AS_IS, pair, rotate } from './pairFrame.js';
import { separatingAxisOut } from './separatingAxis.js';

/** The clipped contact points (3 per point) and depths of {@link clipHull}, and their common normal. */
export const clipOut = {
  points: new Float64Array(48),
  depths: new Float64Array(16),
  normal: new Float64Array(3),
};

let bufIn = new Float64Array(48);
let bufOut = new Float64Array(48);
let nIn = 0;
let nOut = 0;
let connected = new Int32Array(16);

function ensure(n: number): void {
  if (bufIn.length < 3 * n) {
    const a = new Float64Array(6 * n);
    a.set(bufIn);
    bufIn = a;
  }
  if (bufOut.length < 3 * n) {
    const a = new Float64Array(6 * n);
    a.set(bufOut);
    bufOut = a;
  }
}

function isIndex(i: unknown, n: number): boolean {
  return typeof i === 'number' && i >= 0 && i < n && Math.floor(i) === i;
}

/** The clipping plane at hand: normal (0–2) and constant (3). */
const PLANE = new Float64Array(4);

/** cannon's clipFaceAgainstPlane of `bufIn` into `bufOut` (the plane in PLANE, keeping the back). */
function clipPlane(): void {
  const nx = PLANE[0];
  const ny = PLANE[1];
  const nz = PLANE[2];
  const c = PLANE[3];
  nOut = 0;
  const numVerts = nIn;
  if (numVerts < 2) return;
  ensure(numVerts + 2);
  const I = bufIn;
  const O = bufOut;
  let f = 3 * (numVerts - 1);
  let nDotFirst = nx * I[f] + ny * I[f + 1] + nz * I[f + 2] + c;
  for (let vi = 0; vi < numVerts; vi++) {
    const l = 3 * vi;
    const nDotLast = nx * I[l] + ny * I[l + 1] + nz * I[l + 2] + c;
    const lastIn = nDotLast < 0;
    // Edge first → last: its crossing point where it crosses the plane, then `last` if it is behind.
    if (nDotFirst < 0 !== lastIn) {
      const t = nDotFirst / (nDotFirst - nDotLast);
      const x = I[f];
      const y = I[f + 1];
      const z = I[f + 2];
      const o = 3 * nOut++;
      O[o] = x + (I[l] - x) * t;
      O[o + 1] = y + (I[l + 1] - y) * t;
      O[o + 2] = z + (I[l + 2] - z) * t;
    }
    if (lastIn) {
      const o = 3 * nOut++;
      O[o] = I[l];
      O[o + 1] = I[l + 1];
      O[o + 2] = I[l + 2];
    }
    f = l;
    nDotFirst = nDotLast;
  }
}

/**
 * The world plane of A's face f into PLANE: its world normal, and cannon's `getPlaneConstantOfFace`
 * (−(normal · first vertex), local) minus the world normal · posA.
 */
function facePlane(H: HullData, faces: number[][], f: number): void {
  const v = 3 * faces[f][0];
  const k = 3 * f;
  const N = H.normals;
  const V = H.verts;
  const W = pair.normalsA;
  const p = pair.p;
  const local = -(N[k] * V[v] + N[k + 1] * V[v + 1] + N[k + 2] * V[v + 2]);
  const nx = W[k];
  const ny = W[k + 1];
  const nz = W[k + 2];
  PLANE[0] = nx;
  PLANE[1] = ny;
  PLANE[2] = nz;
  PLANE[3] = local - (nx * p[0] + ny * p[1] + nz * p[2]);
}

/**
 * Clips as cannon's `clipAgainstHull(posA, quatA, hullB, posB, quatB, axis, -100, 100, result)` does,
 * for the pair loaded in the pair-frame module and the axis in `separatingAxisOut`; returns the number of contacts in {@link clipOut}, or -1 where
 * cannon's own code would throw (a face index out of range, fewer faces around A's face than it has
 * vertices) or could not pick a face: left to cannon.
 */
export function clipHull(A: HullData, B: HullData, facesA: number[][], facesB: number[][]): number {
  const sx = separatingAxisOut[0];
  const sy = separatingAxisOut[1];
  const sz = separatingAxisOut[2];
  const P = pair;
  const q = P.q;
  const p = P.p;
  // B's face most along the axis (the first of the largest dot product).
  const NB = P.normalsB;
  let closestB = -1;
  let dmax = -Number.MAX_VALUE;
  for (let face = 0; face < B.nf; face++) {
    const d = NB[3 * face] * sx + NB[3 * face + 1] * sy + NB[3 * face + 2] * sz;
    if (d > dmax) {
      dmax = d;
      closestB = face;
    }
  }
  if (closestB < 0) return -1;
  const polyB = facesB[closestB];
  if (polyB == null) return -1;
  const nB = polyB.length;
  ensure(nB + 2);
  for (let i = 0; i < nB; i++) {
    const idx = polyB[i];
    if (!isIndex(idx, B.nv)) return -1;
    rotate(q, 4, AS_IS, B.verts, 3 * idx, bufIn, 3 * i);
    bufIn[3 * i] = bufIn[3 * i] + p[3];
    bufIn[3 * i + 1] = bufIn[3 * i + 1] + p[4];
    bufIn[3 * i + 2] = bufIn[3 * i + 2] + p[5];
  }
  nIn = nB;
  // A's face most against the axis (the first of the smallest dot product).
  const NA = P.normalsA;
  let closestA = -1;
  let dmin = Number.MAX_VALUE;
  for (let face = 0; face < A.nf; face++) {
    const d = NA[3 * face] * sx + NA[3 * face + 1] * sy + NA[3 * face + 2] * sz;
    if (d < dmin) {
      dmin = d;
      closestA = face;
    }
  }
  if (closestA < 0) return 0;
  const polyA = facesA[closestA];
  if (polyA == null) return -1;
  const numA = polyA.length;
  for (let j = 0; j < numA; j++) if (!isIndex(polyA[j], A.nv)) return -1;
  // The faces sharing a vertex with polyA, in face order.
  let nConnected = 0;
  for (let i = 0; i < A.nf; i++) {
    if (i === closestA) continue;
    const face = facesA[i];
    if (face == null) return -1;
    for (let j = 0; j < face.length; j++) {
      if (polyA.indexOf(face[j]) !== -1) {
        if (nConnected === connected.length) {
          const c = new Int32Array(2 * connected.length);
          c.set(connected);
          connected = c;
        }
        connected[nConnected++] = i;
        break;
      }
    }
  }
  if (nConnected < numA) return -1;
  for (let i = 0; i < numA; i++) {
    const other = connected[i];
    const face = facesA[other];
    if (face.length === 0 || !isIndex(face[0], A.nv)) return -1;
    facePlane(A, facesA, other);
    clipPlane();
    const t = bufIn;
    bufIn = bufOut;
    bufOut = t;
    nIn = nOut;
  }
  const face = facesA[closestA];
  if (face.length === 0 || !isIndex(face[0], A.nv)) return -1;
  facePlane(A, facesA, closestA);
  const nx = PLANE[0];
  const ny = PLANE[1];
  const nz = PLANE[2];
  const planeEq = PLANE[3];
  const out = clipOut;
  if (out.depths.length < nIn) {
    out.depths = new Float64Array(2 * nIn);
    out.points = new Float64Array(6 * nIn);
  }
  out.normal[0] = nx;
  out.normal[1] = ny;
  out.normal[2] = nz;
  let n = 0;
  const I = bufIn;
  for (let i = 0; i < nIn; i++) {
    const x = I[3 * i];
    const y = I[3 * i + 1];
    const z = I[3 * i + 2];
    let depth = nx * x + ny * y + nz * z + planeEq;
    if (depth <= -100) {
      console.log(`clamped: depth=${depth} to minDist=${-100}`);
      depth = -100;
    }
    if (depth <= 100 && depth <= 1e-6) {
      out.points[3 * n] = x;
      out.points[3 * n + 1] = y;
      out.points[3 * n + 2] = z;
      out.depths[n] = depth;
      n++;
    }
  }
  return n;
}
