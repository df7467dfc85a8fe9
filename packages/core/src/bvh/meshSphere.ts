/**
 * Mesh–sphere queries on a triangle BVH: contacts (point, normal, depth) for a physics engine, and an
 * early-out overlap test.
 *
 * Node culling is the sphere–box test of `000_e0da60409bb15c04.txt` (OCSI, Eq. 2 /
 * Algorithm 5: `l_i = max(|c − centre|_i − half_i, 0)`, overlap iff `Σ l_i² ≤ R²`) in the axis-aligned
 * "first quadrant" form of `001_0f0f9f9e6a9ce17d.txt`, applied in the mesh's local frame, where node
 * boxes are axis-aligned. It is inlined rather than calling `narrowphase/ocsi.ts` because the public
 * OCSI functions validate every argument and this runs once per visited node. Multi-pass culling as in
 * `002_843453ac9dcf85c9.txt` (sphere → box → triangles).
 *
 * Transforms: under a similarity (rotation, translation, uniform scale, mirror) the sphere stays a
 * sphere in the local frame and the exact test is used; under non-uniform scale or shear it becomes an
 * ellipsoid, and nodes are culled with the ellipsoid's axis-aligned box (conservative). Triangles are
 * always tested exactly, in world space: closest point on the triangle (Ericson §5.1.5) within the
 * radius. Degenerate (zero-area) triangles are ignored, as everywhere in the BVH.
 */

import { growArray } from '../growArray.js';
import { affineFromMatrix4, affineInvert } from './affine.js';
import type { MeshContacts } from './contacts.js';
import type { MeshBVH } from './MeshBVH.js';
import { NODE_WORDS } from './nodes.js';
import { closestPointOnTriangle, isDegenerateTriangleAt } from './triangle.js';
import { checkFinite, checkVector } from './validate.js';

const M = new Float64Array(12);
const MI = new Float64Array(12);
let stack = new Int32Array(128);

// Sphere state, in a typed array rather than module `let`s (V8 boxes doubles stored in those): world
// centre 0–2, radius 3, local centre 4–6, local radius² 7, ellipsoid half extents 8–10, box padding 11.
const S = new Float64Array(12);
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
  S[0] = center[0];
  S[1] = center[1];
  S[2] = center[2];
  S[3] = r;
  hasMatrix = matrix !== null && matrix !== undefined;
  affineFromMatrix4(M, matrix, 'matrix', fn);
  affineInvert(MI, M);
  S[4] = MI[0] * S[0] + MI[3] * S[1] + MI[6] * S[2] + MI[9];
  S[5] = MI[1] * S[0] + MI[4] * S[1] + MI[7] * S[2] + MI[10];
  S[6] = MI[2] * S[0] + MI[5] * S[1] + MI[8] * S[2] + MI[11];
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
  S[7] = (r / s) ** 2;
  // Ellipsoid half extents in the local frame: r · |row_i(MI)|.
  S[8] = r * Math.sqrt(MI[0] * MI[0] + MI[3] * MI[3] + MI[6] * MI[6]);
  S[9] = r * Math.sqrt(MI[1] * MI[1] + MI[4] * MI[4] + MI[7] * MI[7]);
  S[10] = r * Math.sqrt(MI[2] * MI[2] + MI[5] * MI[5] + MI[8] * MI[8]);
  const f = bvh.nodeF32;
  let scale = Math.max(Math.abs(S[4]), Math.abs(S[5]), Math.abs(S[6]));
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > scale && v < Infinity) scale = v;
  }
  S[11] = 1e-9 * scale;
}

/** Whether node `node` (local box, padded) may touch the sphere. */
function nodeHit(f: Float32Array, node: number): boolean {
  const w = node * NODE_WORDS;
  if (similar) {
    // OCSI / Arvo in the first-quadrant form: l_i = max(|c − centre| − half, 0).
    let d = Math.abs(S[4] - 0.5 * (f[w] + f[w + 3])) - (0.5 * (f[w + 3] - f[w]) + S[11]);
    let s = d > 0 ? d * d : 0;
    d = Math.abs(S[5] - 0.5 * (f[w + 1] + f[w + 4])) - (0.5 * (f[w + 4] - f[w + 1]) + S[11]);
    if (d > 0) s += d * d;
    d = Math.abs(S[6] - 0.5 * (f[w + 2] + f[w + 5])) - (0.5 * (f[w + 5] - f[w + 2]) + S[11]);
    if (d > 0) s += d * d;
    return s <= S[7];
  }
  return (
    S[4] >= f[w] - S[11] - S[8] &&
    S[4] <= f[w + 3] + S[11] + S[8] &&
    S[5] >= f[w + 1] - S[11] - S[9] &&
    S[5] <= f[w + 4] + S[11] + S[9] &&
    S[6] >= f[w + 2] - S[11] - S[10] &&
    S[6] <= f[w + 5] + S[11] + S[10]
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
  closestPointOnTriangle(TRI, 0, S, 0, CONTACT);
  const qx = CONTACT[0];
  const qy = CONTACT[1];
  const qz = CONTACT[2];
  const dx = S[0] - qx;
  const dy = S[1] - qy;
  const dz = S[2] - qz;
  const d2 = dx * dx + dy * dy + dz * dz;
  const radius = S[3];
  if (d2 > radius * radius) return false;
  if (out) {
    const d = Math.sqrt(d2);
    let nx: number;
    let ny: number;
    let nz: number;
    if (d > 1e-12 * radius) {
      nx = dx / d;
      ny = dy / d;
      nz = dz / d;
    } else {
      // Centre on the triangle: use its face normal (by winding).
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

function query(bvh: MeshBVH, out: MeshContacts | null): boolean {
  if (bvh.triangleCount === 0) return false;
  const f = bvh.nodeF32;
  const n = bvh.nodeI32;
  let found = false;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const node = stack[--sp];
    if (!nodeHit(f, node)) continue;
    const w = node * NODE_WORDS;
    const tag = n[w + 7];
    if (tag < 0) {
      for (let s = n[w + 6], end = s + ~tag; s < end; s++) {
        if (testSlot(bvh, s, out)) {
          if (!out) return true;
          found = true;
        }
      }
    } else {
      if (sp + 2 > stack.length) stack = growArray(stack, sp + 2);
      stack[sp++] = n[w + 6];
      stack[sp++] = node + 1;
    }
  }
  return found;
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
