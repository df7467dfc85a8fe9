/**
 * Mesh–OBB queries on a triangle BVH: contacts (point, normal, depth) for a physics engine, and an
 * early-out overlap test. The OBB uses Sieve's shared 15-number layout `[cx, cy, cz, e0x, e0y, e0z,
 * e1x, e1y, e1z, e2x, e2y, e2z, hx, hy, hz]` (centre, unit axes, half extents), checked by
 * `checkObb` of `math/obb.ts` (same rules, checked without allocating).
 *
 * Follows the Project Oort collision write-up (OBB section: separating axes over face normals and edge cross
 * products; multi-pass culling box → triangles). Node culling: each node box of the mesh's local frame
 * against the OBB mapped into that frame, by separating axes on both boxes' face normals (exact under
 * any invertible affine transform, like the mesh–mesh node test). Leaves: each triangle, mapped into
 * the OBB's frame (a rigid frame: distances are world distances), against the box `[-h, h]` by the
 * 13-axis triangle–box separating-axis test (Akenine-Möller, "Fast 3D Triangle-Box Overlap Testing",
 * 2001): the 3 box axes, the triangle normal, the 9 edge cross products. Touching counts.
 *
 * Contact per triangle: the axis of least penetration among the 13 gives the normal (oriented so
 * that moving the box by `depth` along it separates them) and the depth; the point on the mesh is the
 * deepest triangle vertex (box-face axis), the deepest box corner moved onto the triangle's plane
 * (triangle-normal axis; the triangle's point nearest to it when it falls outside the triangle), or the
 * closest point of the triangle edge to the box edge (edge–edge axis).
 * One contact per triangle, as in Bullet's per-triangle convex contacts; reduce them as your solver
 * needs. Degenerate (zero-area) triangles are ignored.
 */

import { ORTHONORMAL_TOLERANCE, orthonormalityError } from '../math/checks.js';
import { checkObb } from '../math/obb.js';
import { affineFromMatrix4, affineInvert } from './affine.js';
import type { MeshContacts } from './contacts.js';
import type { MeshBVH } from './MeshBVH.js';
import { type BvhCast, shapecast } from './shapecast.js';
import type { MeshTree } from './tree.js';
import { closestPointOnTriangle, isDegenerateTriangleAt } from './triangle.js';

const M = new Float64Array(12);
// W: mesh local → OBB frame; WI: OBB frame → mesh local.
const W = new Float64Array(12);
const WI = new Float64Array(12);
const Q = new Float64Array(9);
/** OBB axes (columns of R). */
const R = new Float64Array(9);
/**
 * Query state, in a typed array rather than module `let`s (V8 boxes doubles stored in those), laid
 * out by the offsets below.
 */
const S = new Float64Array(14);
/** `S` offset: OBB world centre (3). */
const CENTER = 0;
/** `S` offset: OBB half extents (3). */
const HALF = 3;
/** `S` offset: node box padding (1). */
const PAD = 6;
/** `S` offset: least penetration depth of the current triangle so far (1). */
const DEPTH = 7;
/** `S` offset: unit normal of that axis, OBB frame (3). */
const NORMAL = 8;
/** `S` offset: contact point, OBB frame (3). */
const POINT = 11;
/** Axis handed to `axis()`, and the contact `[point, normal, depth]` handed to `MeshContacts`. */
const AX = new Float64Array(3);
const CONTACT = new Float64Array(7);

/**
 * Allocation-free check of what `checkObb` checks (15 finite numbers, orthonormal axes within
 * `ORTHONORMAL_TOLERANCE`, half extents ≥ 0); `checkObb` runs only to word the error.
 */
function obbOk(obb: ArrayLike<number>): boolean {
  if (obb === null || typeof obb !== 'object' || !(obb.length >= 15)) return false;
  for (let i = 0; i < 15; i++) {
    const v = obb[i];
    if (typeof v !== 'number' || v - v !== 0) return false;
  }
  return (
    obb[12] >= 0 && obb[13] >= 0 && obb[14] >= 0 && orthonormalityError(obb, 3, 3) <= ORTHONORMAL_TOLERANCE
  );
}

function setup(fn: string, bvh: MeshTree, matrix: ArrayLike<number> | null, obb: ArrayLike<number>): void {
  if (!obbOk(obb)) checkObb(obb, 0, 'obb', undefined, fn);
  affineFromMatrix4(M, matrix, 'matrix', fn);
  S[CENTER] = obb[0];
  S[CENTER + 1] = obb[1];
  S[CENTER + 2] = obb[2];
  for (let k = 0; k < 9; k++) R[k] = obb[3 + k];
  S[HALF] = obb[12];
  S[HALF + 1] = obb[13];
  S[HALF + 2] = obb[14];
  // W = Rᵀ·(M − c): row k of Rᵀ is axis k.
  for (let col = 0; col < 4; col++) {
    const x = M[3 * col] - (col === 3 ? S[CENTER] : 0);
    const y = M[3 * col + 1] - (col === 3 ? S[CENTER + 1] : 0);
    const z = M[3 * col + 2] - (col === 3 ? S[CENTER + 2] : 0);
    for (let k = 0; k < 3; k++) W[3 * col + k] = R[3 * k] * x + R[3 * k + 1] * y + R[3 * k + 2] * z;
  }
  affineInvert(WI, W);
  // Padding: 1e-9 of the largest coordinate in the local frame (tree box, OBB centre).
  const f = bvh.nodeF32;
  let s = Math.max(Math.abs(WI[9]), Math.abs(WI[10]), Math.abs(WI[11]));
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > s && v < Infinity) s = v;
  }
  S[PAD] = 1e-9 * s;
}

/**
 * Separating-axis test of the node box at word `w` (padded) and the OBB (`[-h, h]` under WI). Written
 * out axis by axis: as a loop over k it measured 1.17× slower on mesh–OBB contacts.
 */
function nodeHit(f: Float32Array, w: number): boolean {
  const pad = S[PAD];
  const hx = S[HALF];
  const hy = S[HALF + 1];
  const hz = S[HALF + 2];
  const acx = 0.5 * (f[w] + f[w + 3]);
  const acy = 0.5 * (f[w + 1] + f[w + 4]);
  const acz = 0.5 * (f[w + 2] + f[w + 5]);
  const ahx = 0.5 * (f[w + 3] - f[w]) + pad;
  const ahy = 0.5 * (f[w + 4] - f[w + 1]) + pad;
  const ahz = 0.5 * (f[w + 5] - f[w + 2]) + pad;
  // OBB centre in local = WI translation; its extents along local axes via |WI|.
  let d = WI[9] - acx;
  if (Math.abs(d) > ahx + Math.abs(WI[0]) * hx + Math.abs(WI[3]) * hy + Math.abs(WI[6]) * hz) return false;
  d = WI[10] - acy;
  if (Math.abs(d) > ahy + Math.abs(WI[1]) * hx + Math.abs(WI[4]) * hy + Math.abs(WI[7]) * hz) return false;
  d = WI[11] - acz;
  if (Math.abs(d) > ahz + Math.abs(WI[2]) * hx + Math.abs(WI[5]) * hy + Math.abs(WI[8]) * hz) return false;
  // Node centre in the OBB frame, against the OBB's own axes.
  d = W[0] * acx + W[3] * acy + W[6] * acz + W[9];
  if (Math.abs(d) > hx + Math.abs(W[0]) * ahx + Math.abs(W[3]) * ahy + Math.abs(W[6]) * ahz) return false;
  d = W[1] * acx + W[4] * acy + W[7] * acz + W[10];
  if (Math.abs(d) > hy + Math.abs(W[1]) * ahx + Math.abs(W[4]) * ahy + Math.abs(W[7]) * ahz) return false;
  d = W[2] * acx + W[5] * acy + W[8] * acz + W[11];
  return Math.abs(d) <= hz + Math.abs(W[2]) * ahx + Math.abs(W[5]) * ahy + Math.abs(W[8]) * ahz;
}

// Best axis so far for the contact of the current triangle (kind and indices; depth and normal in S).
let bestKind = 0; // 0 box face, 1 triangle normal, 2 edge–edge
let bestA = 0; // box axis (kinds 0 and 2)
let bestE = 0; // triangle edge (kind 2)

/**
 * Tests the axis in `AX` (OBB frame, not normalized): returns false if it separates the triangle `Q`
 * from the box. With `depth`, updates the best (least) penetration. (The axis comes in a typed array:
 * doubles passed to a function V8 does not inline would be boxed.)
 */
function axis(depth: boolean, kind: number, a: number, e: number): boolean {
  const lx = AX[0];
  const ly = AX[1];
  const lz = AX[2];
  const p0 = lx * Q[0] + ly * Q[1] + lz * Q[2];
  const p1 = lx * Q[3] + ly * Q[4] + lz * Q[5];
  const p2 = lx * Q[6] + ly * Q[7] + lz * Q[8];
  const tmin = p0 < p1 ? Math.min(p0, p2) : Math.min(p1, p2);
  const tmax = p0 > p1 ? Math.max(p0, p2) : Math.max(p1, p2);
  const r = S[HALF] * Math.abs(lx) + S[HALF + 1] * Math.abs(ly) + S[HALF + 2] * Math.abs(lz);
  if (tmin > r || tmax < -r) return false;
  if (depth) {
    const len = Math.sqrt(lx * lx + ly * ly + lz * lz);
    // Move the box along +L by (tmax + r), or along −L by (r − tmin).
    const up = (tmax + r) / len;
    const down = (r - tmin) / len;
    const dd = Math.min(up, down);
    if (dd < S[DEPTH]) {
      S[DEPTH] = dd;
      const s = up < down ? 1 / len : -1 / len;
      S[NORMAL] = lx * s;
      S[NORMAL + 1] = ly * s;
      S[NORMAL + 2] = lz * s;
      bestKind = kind;
      bestA = a;
      bestE = e;
    }
  }
  return true;
}

/** Triangle `Q` (OBB frame) against the box by 13 axes; with `depth`, also the least penetration. */
function triBox(depth: boolean): boolean {
  S[DEPTH] = Infinity;
  AX[0] = 1;
  AX[1] = 0;
  AX[2] = 0;
  if (!axis(depth, 0, 0, 0)) return false;
  AX[0] = 0;
  AX[1] = 1;
  if (!axis(depth, 0, 1, 0)) return false;
  AX[1] = 0;
  AX[2] = 1;
  if (!axis(depth, 0, 2, 0)) return false;
  const f0x = Q[3] - Q[0];
  const f0y = Q[4] - Q[1];
  const f0z = Q[5] - Q[2];
  const f1x = Q[6] - Q[3];
  const f1y = Q[7] - Q[4];
  const f1z = Q[8] - Q[5];
  const f2x = Q[0] - Q[6];
  const f2y = Q[1] - Q[7];
  const f2z = Q[2] - Q[8];
  AX[0] = f0y * f1z - f0z * f1y;
  AX[1] = f0z * f1x - f0x * f1z;
  AX[2] = f0x * f1y - f0y * f1x;
  if (!axis(depth, 1, 0, 0)) return false;
  for (let e = 0; e < 3; e++) {
    const fx = e === 0 ? f0x : e === 1 ? f1x : f2x;
    const fy = e === 0 ? f0y : e === 1 ? f1y : f2y;
    const fz = e === 0 ? f0z : e === 1 ? f1z : f2z;
    // Box axis k × edge; an exactly zero axis (edge along a box axis) is covered by the face axes.
    if (fy !== 0 || fz !== 0) {
      AX[0] = 0;
      AX[1] = -fz;
      AX[2] = fy;
      if (!axis(depth, 2, 0, e)) return false;
    }
    if (fx !== 0 || fz !== 0) {
      AX[0] = fz;
      AX[1] = 0;
      AX[2] = -fx;
      if (!axis(depth, 2, 1, e)) return false;
    }
    if (fx !== 0 || fy !== 0) {
      AX[0] = -fy;
      AX[1] = fx;
      AX[2] = 0;
      if (!axis(depth, 2, 2, e)) return false;
    }
  }
  return true;
}

/** Loads slot `s` into `Q` (OBB frame); false if degenerate. */
function loadSlot(bvh: MeshTree, s: number): boolean {
  const v = bvh.triVerts;
  const i = 9 * s;
  for (let k = 0; k < 3; k++) {
    const x = v[i + 3 * k];
    const y = v[i + 3 * k + 1];
    const z = v[i + 3 * k + 2];
    Q[3 * k] = W[0] * x + W[3] * y + W[6] * z + W[9];
    Q[3 * k + 1] = W[1] * x + W[4] * y + W[7] * z + W[10];
    Q[3 * k + 2] = W[2] * x + W[5] * y + W[8] * z + W[11];
  }
  return !isDegenerateTriangleAt(Q, 0);
}

const NEAREST = new Float64Array(3);

/** Contact point (OBB frame) for the best axis of the current triangle, into `S[POINT..]`. */
function contactPoint(): void {
  const nx = S[NORMAL];
  const ny = S[NORMAL + 1];
  const nz = S[NORMAL + 2];
  if (bestKind === 0) {
    // Deepest triangle vertex: the box leaves along n, so the vertex farthest along n.
    let best = -Infinity;
    for (let k = 0; k < 3; k++) {
      const p = nx * Q[3 * k] + ny * Q[3 * k + 1] + nz * Q[3 * k + 2];
      if (p > best) {
        best = p;
        S[POINT] = Q[3 * k];
        S[POINT + 1] = Q[3 * k + 1];
        S[POINT + 2] = Q[3 * k + 2];
      }
    }
  } else if (bestKind === 1) {
    // Deepest box corner (support in −n), moved along n onto the triangle's plane.
    S[POINT] = (nx > 0 ? -S[HALF] : S[HALF]) + S[DEPTH] * nx;
    S[POINT + 1] = (ny > 0 ? -S[HALF + 1] : S[HALF + 1]) + S[DEPTH] * ny;
    S[POINT + 2] = (nz > 0 ? -S[HALF + 2] : S[HALF + 2]) + S[DEPTH] * nz;
    // The corner can lie beyond the triangle (a triangle smaller than the box's face): the triangle's
    // point nearest to it is on the triangle either way.
    closestPointOnTriangle(Q, 0, S, POINT, NEAREST);
    S[POINT] = NEAREST[0];
    S[POINT + 1] = NEAREST[1];
    S[POINT + 2] = NEAREST[2];
  } else {
    // Edge–edge: box edge along axis bestA through the support corner in −n; triangle edge bestE.
    const a = bestA;
    let sx = nx > 0 ? -S[HALF] : S[HALF];
    let sy = ny > 0 ? -S[HALF + 1] : S[HALF + 1];
    let sz = nz > 0 ? -S[HALF + 2] : S[HALF + 2];
    let ux = 0;
    let uy = 0;
    let uz = 0;
    if (a === 0) {
      sx = -S[HALF];
      ux = 2 * S[HALF];
    } else if (a === 1) {
      sy = -S[HALF + 1];
      uy = 2 * S[HALF + 1];
    } else {
      sz = -S[HALF + 2];
      uz = 2 * S[HALF + 2];
    }
    const e = bestE;
    const ax = Q[3 * e];
    const ay = Q[3 * e + 1];
    const az = Q[3 * e + 2];
    const j = e === 2 ? 0 : e + 1;
    const vx = Q[3 * j] - ax;
    const vy = Q[3 * j + 1] - ay;
    const vz = Q[3 * j + 2] - az;
    // Closest points of segments a + s·v (triangle edge) and S + t·u (box edge), Ericson §5.1.9.
    const rx = ax - sx;
    const ry = ay - sy;
    const rz = az - sz;
    const A = vx * vx + vy * vy + vz * vz;
    const E = ux * ux + uy * uy + uz * uz;
    const F = ux * rx + uy * ry + uz * rz;
    const C = vx * rx + vy * ry + vz * rz;
    const B = vx * ux + vy * uy + vz * uz;
    let s = 0;
    let t = 0;
    if (E <= 0) {
      s = A > 0 ? Math.min(Math.max(-C / A, 0), 1) : 0;
    } else {
      const den = A * E - B * B;
      s = den > 0 ? Math.min(Math.max((B * F - C * E) / den, 0), 1) : 0;
      t = (B * s + F) / E;
      if (t < 0) {
        t = 0;
        s = A > 0 ? Math.min(Math.max(-C / A, 0), 1) : 0;
      } else if (t > 1) {
        s = A > 0 ? Math.min(Math.max((B - C) / A, 0), 1) : 0;
      }
    }
    S[POINT] = ax + s * vx;
    S[POINT + 1] = ay + s * vy;
    S[POINT + 2] = az + s * vz;
  }
}

function testSlot(bvh: MeshTree, s: number, out: MeshContacts | null): boolean {
  if (!loadSlot(bvh, s)) return false;
  if (!triBox(out !== null)) return false;
  if (out) {
    contactPoint();
    // OBB frame → world: p = c + R·p, n = R·n (axes are the columns R[0..2], R[3..5], R[6..8]).
    const wx = S[CENTER] + R[0] * S[POINT] + R[3] * S[POINT + 1] + R[6] * S[POINT + 2];
    const wy = S[CENTER + 1] + R[1] * S[POINT] + R[4] * S[POINT + 1] + R[7] * S[POINT + 2];
    const wz = S[CENTER + 2] + R[2] * S[POINT] + R[5] * S[POINT + 1] + R[8] * S[POINT + 2];
    CONTACT[0] = wx;
    CONTACT[1] = wy;
    CONTACT[2] = wz;
    CONTACT[3] = R[0] * S[NORMAL] + R[3] * S[NORMAL + 1] + R[6] * S[NORMAL + 2];
    CONTACT[4] = R[1] * S[NORMAL] + R[4] * S[NORMAL + 1] + R[7] * S[NORMAL + 2];
    CONTACT[5] = R[2] * S[NORMAL] + R[5] * S[NORMAL + 1] + R[8] * S[NORMAL + 2];
    CONTACT[6] = S[DEPTH];
    out.pushFrom(bvh.triIds[s], CONTACT, 0);
  }
  return true;
}

/** Where the contacts go (`null`: stop at the first touching triangle), and the tree queried. */
let target: MeshContacts | null = null;
let tree: MeshTree | null = null;

/** The query as a {@link shapecast} cast: unordered, contacts in tree order. */
const cast: BvhCast = {
  keys: null,
  intersectsBounds: nodeHit,
  intersectsRange(offset: number, count: number): boolean {
    const bvh = tree as MeshTree;
    const out = target;
    for (let s = offset, end = offset + count; s < end; s++) {
      if (testSlot(bvh, s, out) && out === null) return true;
    }
    return false;
  },
};

function query(bvh: MeshTree, out: MeshContacts | null): boolean {
  tree = bvh;
  target = out;
  // `shapecast` reads only the tree's data (a `MeshBVH` is one more `MeshTree`).
  const stopped = shapecast(bvh as MeshBVH, cast);
  tree = null;
  target = null;
  return stopped;
}

/**
 * Contacts between the mesh of `bvh` placed by `matrix` (column-major 4×4, `null` for identity) and a
 * world-space OBB, one per touching triangle, into `out` (cleared first). Returns the contact count.
 * Throws for a malformed OBB (see `checkObb`) or a bad matrix. Does not allocate once `out` is
 * large enough.
 */
export function meshObbContacts(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  obb: ArrayLike<number>,
  out: MeshContacts,
): number {
  setup('meshObbContacts', bvh, matrix, obb);
  out.count = 0;
  query(bvh, out);
  return out.count;
}

/**
 * {@link meshObbContacts} into `out`, or {@link meshObbIntersects} (1 or 0) with `out` null, on the plain
 * tree of `buildMeshTree`; errors name the function of that form.
 *
 * @internal
 */
export function meshObbQuery(
  tree: MeshTree,
  matrix: ArrayLike<number> | null,
  obb: ArrayLike<number>,
  out: MeshContacts | null,
): number {
  setup(out ? 'meshObbContacts' : 'meshObbIntersects', tree, matrix, obb);
  if (out === null) return query(tree, null) ? 1 : 0;
  out.count = 0;
  query(tree, out);
  return out.count;
}

/** Whether the OBB touches the mesh (stops at the first triangle). Same arguments as {@link meshObbContacts}. */
export function meshObbIntersects(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  obb: ArrayLike<number>,
): boolean {
  setup('meshObbIntersects', bvh, matrix, obb);
  return query(bvh, null);
}

/** Reference for {@link meshObbContacts}: the same triangle test on every triangle, in slot order. */
export function meshObbBruteForce(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  obb: ArrayLike<number>,
  out: MeshContacts,
): number {
  setup('meshObbBruteForce', bvh, matrix, obb);
  out.count = 0;
  for (let s = 0; s < bvh.triangleCount; s++) testSlot(bvh, s, out);
  return out.count;
}
