/**
 * Mesh–sphere queries on a triangle BVH: contacts (point, normal, depth) for a physics engine, and an
 * early-out overlap test.
 *
 * Node culling is the sphere–box test of the OCSI paper (Eq. 2 /
 * Algorithm 5: `l_i = max(|c − centre|_i − half_i, 0)`, overlap iff `Σ l_i² ≤ R²`) in the axis-aligned
 * "first quadrant" form of the AABB–sphere write-up (Arvo, QRI/QRF, first quadrant), applied in the mesh's local frame, where node
 * boxes are axis-aligned. It is inlined rather than calling `narrowphase/ocsi.ts` because the public
 * OCSI functions check every argument and this runs once per visited node. Multi-pass culling as in
 * the Project Oort collision write-up (sphere → box → triangles).
 *
 * Transforms: under a similarity (rotation, translation, uniform scale, mirror) the sphere stays a
 * sphere in the local frame and the exact test is used; under non-uniform scale or shear it becomes an
 * ellipsoid, and nodes are culled with the ellipsoid's axis-aligned box (conservative). Triangles are
 * always tested exactly, in world space: closest point on the triangle (Ericson §5.1.5) within the
 * radius. Degenerate (zero-area) triangles are ignored, as everywhere in the BVH.
 */

import { affineFromMatrix4, affineInvert } from './affine.js';
import { checkFinite, checkVector } from './checks.js';
import type { MeshContacts } from './contacts.js';
import type { MeshBVH } from './MeshBVH.js';
import { type BvhCast, shapecast } from './shapecast.js';
import { closestPointOnTriangle, isDegenerateTriangleAt } from './triangle.js';

const M = new Float64Array(12);
const MI = new Float64Array(12);

/**
 * Sphere state, in a typed array rather than module `let`s (V8 boxes doubles stored in those), laid
 * out by the offsets below.
 */
const S = new Float64Array(13);
/** `S` offset: world centre (3). */
const CENTER = 0;
/** `S` offset: radius (1). */
const RADIUS = 3;
/** `S` offset: centre in the mesh's local frame (3). */
const LOCAL_CENTER = 4;
/** `S` offset: squared radius in the local frame (similar transforms) (1). */
const LOCAL_R2 = 7;
/** `S` offset: half extents of the local ellipsoid's box (other transforms) (3). */
const ELLIPSOID = 8;
/** `S` offset: node box padding (1). */
const PAD = 11;
/** `S` offset: the distance below which the direction to the centre is rounding noise (1). */
const NOISE = 12;
let similar = true;
/** World triangle being tested, and the contact `[point, normal, depth]` (closest point in 0–2). */
const TRI = new Float64Array(9);
const CONTACT = new Float64Array(7);
let hasMatrix = false;

function setup(
  fn: string,
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  center: ArrayLike<number>,
  r: number,
): void {
  checkVector(center, 3, fn, 'center');
  checkFinite(r, fn, 'radius');
  if (r < 0) throw new RangeError(`${fn}: radius must be >= 0 (got ${r})`);
  S[CENTER] = center[0];
  S[CENTER + 1] = center[1];
  S[CENTER + 2] = center[2];
  S[RADIUS] = r;
  // ~1e-12 of the coordinates' size (or of the radius): below it, the centre is on the triangle.
  S[NOISE] = 1e-12 * (Math.abs(S[CENTER]) + Math.abs(S[CENTER + 1]) + Math.abs(S[CENTER + 2]) + r);
  hasMatrix = matrix !== null && matrix !== undefined;
  affineFromMatrix4(M, matrix, 'matrix', fn);
  affineInvert(MI, M);
  S[LOCAL_CENTER] = MI[0] * S[CENTER] + MI[3] * S[CENTER + 1] + MI[6] * S[CENTER + 2] + MI[9];
  S[LOCAL_CENTER + 1] = MI[1] * S[CENTER] + MI[4] * S[CENTER + 1] + MI[7] * S[CENTER + 2] + MI[10];
  S[LOCAL_CENTER + 2] = MI[2] * S[CENTER] + MI[5] * S[CENTER + 1] + MI[8] * S[CENTER + 2] + MI[11];
  // Similarity iff the columns of the linear part are orthogonal and of equal length.
  const n0 = M[0] * M[0] + M[1] * M[1] + M[2] * M[2];
  const n1 = M[3] * M[3] + M[4] * M[4] + M[5] * M[5];
  const n2 = M[6] * M[6] + M[7] * M[7] + M[8] * M[8];
  const d01 = M[0] * M[3] + M[1] * M[4] + M[2] * M[5];
  const d02 = M[0] * M[6] + M[1] * M[7] + M[2] * M[8];
  const d12 = M[3] * M[6] + M[4] * M[7] + M[5] * M[8];
  const tol = 1e-9 * (n0 + n1 + n2);
  similar =
    Math.abs(n0 - n1) <= tol &&
    Math.abs(n0 - n2) <= tol &&
    Math.abs(d01) <= tol &&
    Math.abs(d02) <= tol &&
    Math.abs(d12) <= tol;
  // Local radius: the largest stretch of MI (conservative when "similar" is only approximate).
  const s = Math.sqrt(Math.min(n0, n1, n2)) * (1 - 1e-9);
  S[LOCAL_R2] = (r / s) ** 2;
  // Ellipsoid half extents in the local frame: r · |row_i(MI)|.
  S[ELLIPSOID] = r * Math.sqrt(MI[0] * MI[0] + MI[3] * MI[3] + MI[6] * MI[6]);
  S[ELLIPSOID + 1] = r * Math.sqrt(MI[1] * MI[1] + MI[4] * MI[4] + MI[7] * MI[7]);
  S[ELLIPSOID + 2] = r * Math.sqrt(MI[2] * MI[2] + MI[5] * MI[5] + MI[8] * MI[8]);
  const f = bvh.nodeF32;
  let scale = Math.max(
    Math.abs(S[LOCAL_CENTER]),
    Math.abs(S[LOCAL_CENTER + 1]),
    Math.abs(S[LOCAL_CENTER + 2]),
  );
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > scale && v < Infinity) scale = v;
  }
  S[PAD] = 1e-9 * scale;
}

/** Whether node `node` (local box, padded) may touch the sphere. */
function nodeHit(f: Float32Array, w: number): boolean {
  if (similar) {
    // OCSI / Arvo in the first-quadrant form: l_i = max(|c − centre| − half, 0).
    let d = Math.abs(S[LOCAL_CENTER] - 0.5 * (f[w] + f[w + 3])) - (0.5 * (f[w + 3] - f[w]) + S[PAD]);
    let s = d > 0 ? d * d : 0;
    d = Math.abs(S[LOCAL_CENTER + 1] - 0.5 * (f[w + 1] + f[w + 4])) - (0.5 * (f[w + 4] - f[w + 1]) + S[PAD]);
    if (d > 0) s += d * d;
    d = Math.abs(S[LOCAL_CENTER + 2] - 0.5 * (f[w + 2] + f[w + 5])) - (0.5 * (f[w + 5] - f[w + 2]) + S[PAD]);
    if (d > 0) s += d * d;
    return s <= S[LOCAL_R2];
  }
  return (
    S[LOCAL_CENTER] >= f[w] - S[PAD] - S[ELLIPSOID] &&
    S[LOCAL_CENTER] <= f[w + 3] + S[PAD] + S[ELLIPSOID] &&
    S[LOCAL_CENTER + 1] >= f[w + 1] - S[PAD] - S[ELLIPSOID + 1] &&
    S[LOCAL_CENTER + 1] <= f[w + 4] + S[PAD] + S[ELLIPSOID + 1] &&
    S[LOCAL_CENTER + 2] >= f[w + 2] - S[PAD] - S[ELLIPSOID + 2] &&
    S[LOCAL_CENTER + 2] <= f[w + 5] + S[PAD] + S[ELLIPSOID + 2]
  );
}

/**
 * Tests slot `s` against the sphere in world space; on contact, pushes it to `out` (if given) and
 * returns true.
 */
function testSlot(bvh: MeshBVH, s: number, out: MeshContacts | null): boolean {
  const v = bvh.triVerts;
  const i = 9 * s;
  // World triangle into TRI.
  if (hasMatrix) {
    for (let k = 0; k < 9; k += 3) {
      const x = v[i + k];
      const y = v[i + k + 1];
      const z = v[i + k + 2];
      TRI[k] = M[0] * x + M[3] * y + M[6] * z + M[9];
      TRI[k + 1] = M[1] * x + M[4] * y + M[7] * z + M[10];
      TRI[k + 2] = M[2] * x + M[5] * y + M[8] * z + M[11];
    }
  } else {
    for (let k = 0; k < 9; k++) TRI[k] = v[i + k];
  }
  if (isDegenerateTriangleAt(TRI, 0)) return false;
  closestPointOnTriangle(TRI, 0, S, CENTER, CONTACT);
  const qx = CONTACT[0];
  const qy = CONTACT[1];
  const qz = CONTACT[2];
  const dx = S[CENTER] - qx;
  const dy = S[CENTER + 1] - qy;
  const dz = S[CENTER + 2] - qz;
  const d2 = dx * dx + dy * dy + dz * dz;
  const radius = S[RADIUS];
  if (d2 > radius * radius) return false;
  if (out) {
    const d = Math.sqrt(d2);
    let nx: number;
    let ny: number;
    let nz: number;
    if (d > S[NOISE]) {
      nx = dx / d;
      ny = dy / d;
      nz = dz / d;
    } else {
      // Centre on the triangle (up to rounding): its face normal (by winding).
      const ax = TRI[3] - TRI[0];
      const ay = TRI[4] - TRI[1];
      const az = TRI[5] - TRI[2];
      const bx = TRI[6] - TRI[0];
      const by = TRI[7] - TRI[1];
      const bz = TRI[8] - TRI[2];
      nx = ay * bz - az * by;
      ny = az * bx - ax * bz;
      nz = ax * by - ay * bx;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      nx /= l;
      ny /= l;
      nz /= l;
    }
    CONTACT[3] = nx;
    CONTACT[4] = ny;
    CONTACT[5] = nz;
    CONTACT[6] = radius - d;
    out.pushFrom(bvh.triIds[s], CONTACT, 0);
  }
  return true;
}

/** Where the contacts go (`null`: stop at the first touching triangle), and the tree queried. */
let target: MeshContacts | null = null;
let tree: MeshBVH | null = null;

/** The query as a {@link shapecast} cast: unordered, contacts in tree order. */
const cast: BvhCast = {
  keys: null,
  intersectsBounds: nodeHit,
  intersectsRange(offset: number, count: number): boolean {
    const bvh = tree as MeshBVH;
    const out = target;
    for (let s = offset, end = offset + count; s < end; s++) {
      if (testSlot(bvh, s, out) && out === null) return true;
    }
    return false;
  },
};

function query(bvh: MeshBVH, out: MeshContacts | null): boolean {
  tree = bvh;
  target = out;
  const stopped = shapecast(bvh, cast);
  tree = null;
  target = null;
  return stopped;
}

/**
 * Contacts between the mesh of `bvh` placed by `matrix` (column-major 4×4, `null` for identity) and the
 * sphere (`center`, `radius`, world space), one per touching triangle, into `out` (cleared first).
 * Normal: from the closest point of the triangle towards the centre (the face normal if the centre lies
 * on the triangle); depth `radius − distance`. Returns the contact count. Throws a `RangeError` for a
 * non-finite centre, a negative or non-finite radius, or a bad matrix. Does not allocate once `out` is
 * large enough.
 */
export function meshSphereContacts(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  center: ArrayLike<number>,
  radius: number,
  out: MeshContacts,
): number {
  setup('meshSphereContacts', bvh, matrix, center, radius);
  out.count = 0;
  query(bvh, out);
  return out.count;
}

/** Whether the sphere touches the mesh (stops at the first triangle). Same arguments as {@link meshSphereContacts}. */
export function meshSphereIntersects(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  center: ArrayLike<number>,
  radius: number,
): boolean {
  setup('meshSphereIntersects', bvh, matrix, center, radius);
  return query(bvh, null);
}

/** Reference for {@link meshSphereContacts}: the same triangle test on every triangle, in slot order. */
export function meshSphereBruteForce(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  center: ArrayLike<number>,
  radius: number,
  out: MeshContacts,
): number {
  setup('meshSphereBruteForce', bvh, matrix, center, radius);
  out.count = 0;
  for (let s = 0; s < bvh.triangleCount; s++) testSlot(bvh, s, out);
  return out.count;
}
