/**
 * Capsule against a triangle mesh: contacts (point, normal, depth) per touching triangle, an early-out
 * overlap test, and the push-out of three.js's `Octree.capsuleIntersect`.
 *
 * A capsule is a segment (`start`, `end`) and a radius, as three.js's `Capsule`
 * (`examples/jsm/math/Capsule.js`). The walk is `@sieve/core`'s `shapecast`; nodes are culled in the
 * mesh's local frame by the capsule's local box (its end points mapped by the inverse world matrix,
 * grown by the radius along each local axis: `r·|row_i(M⁻¹)|`, exact for any affine map, the image of
 * a ball being an ellipsoid). Triangles are tested exactly in world space, by the closest points of
 * the segment and the triangle (`segmentTriangle.ts`, after Ericson §5.1.9–5.1.10). Degenerate
 * (zero-area) triangles are ignored, as by every `@sieve/core` BVH query.
 *
 * Contact per triangle: the normal points from the triangle to the capsule's segment; the depth is
 * `radius − distance`, so moving the capsule by `depth·normal` separates it from that triangle. When
 * the segment meets the triangle (distance 0) the normal is the face normal by winding (as three.js's
 * `Octree` and `@sieve/core`'s mesh–sphere contacts) and the depth `radius` plus how far the deeper end
 * point lies behind the plane. Each contact is that triangle's own: a capsule pressed into a flat floor
 * also gets sideways contacts from the edges of the floor's neighbouring triangles.
 */
import {
  affineFromMatrix4,
  affineInvert,
  type BvhCast,
  growArray,
  type MeshBVH,
  type MeshContacts,
  shapecast,
} from '@sieve/core';
import { CLOSEST, segmentTriangle } from './segmentTriangle.js';
import { worldTriangle } from './worldTriangle.js';

/** A point: a three.js `Vector3` or anything with the same fields. */
export interface PointLike {
  /** x coordinate. */
  x: number;
  /** y coordinate. */
  y: number;
  /** z coordinate. */
  z: number;
}

/** A capsule: three.js's `Capsule` or anything with the same fields. */
export interface CapsuleLike {
  /** One end of the core segment. */
  start: PointLike;
  /** The other end. */
  end: PointLike;
  /** Radius (≥ 0). */
  radius: number;
}

const M = new Float64Array(12);
const MI = new Float64Array(12);
/** World segment (0–5) of the capsule being tested; moved by the push-out. */
export const SEGMENT = new Float64Array(6);
/** Radius (0), node padding (1), then the local culling box (2–7). */
const S = new Float64Array(8);
const TRI = new Float64Array(9);
/** Contact `[point, normal, depth]` handed to `MeshContacts`. */
export const CONTACT = new Float64Array(7);
let hasMatrix = false;

function checkPoint(p: PointLike | undefined, fn: string, name: string): void {
  if (!p || !Number.isFinite(p.x) || !Number.isFinite(p.y) || !Number.isFinite(p.z)) {
    throw new RangeError(`${fn}: ${name} must be a vector of finite numbers`);
  }
}

/** Checks the capsule and reads it, and the transform (`null`: identity). */
export function setupCapsule(
  fn: string,
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
): void {
  if (!capsule || typeof capsule !== 'object') throw new TypeError(`${fn}: capsule must be a Capsule`);
  checkPoint(capsule.start, fn, 'capsule.start');
  checkPoint(capsule.end, fn, 'capsule.end');
  const r = capsule.radius;
  if (typeof r !== 'number' || !(r >= 0) || r === Infinity) {
    throw new RangeError(`${fn}: capsule.radius must be a finite number >= 0 (got ${String(r)})`);
  }
  hasMatrix = matrix !== null;
  affineFromMatrix4(M, matrix, 'matrix', fn);
  affineInvert(MI, M);
  SEGMENT[0] = capsule.start.x;
  SEGMENT[1] = capsule.start.y;
  SEGMENT[2] = capsule.start.z;
  SEGMENT[3] = capsule.end.x;
  SEGMENT[4] = capsule.end.y;
  SEGMENT[5] = capsule.end.z;
  S[0] = r;
  setCullingBox(bvh, null);
}

/**
 * The local box culling nodes: the capsule's local box, grown to contain it moved by the world
 * vector `sweep[0..2]` as well (a swept capsule; `null`: not swept), padded by `1e-9·S`.
 */
export function setCullingBox(bvh: MeshBVH, sweep: Float64Array | null): void {
  const r = S[0];
  const mx = sweep ? sweep[0] : 0;
  const my = sweep ? sweep[1] : 0;
  const mz = sweep ? sweep[2] : 0;
  let scale = 0;
  for (let k = 0; k < 3; k++) {
    const ext = r * Math.sqrt(MI[k] * MI[k] + MI[k + 3] * MI[k + 3] + MI[k + 6] * MI[k + 6]);
    const a = MI[k] * SEGMENT[0] + MI[k + 3] * SEGMENT[1] + MI[k + 6] * SEGMENT[2] + MI[k + 9];
    const b = MI[k] * SEGMENT[3] + MI[k + 3] * SEGMENT[4] + MI[k + 6] * SEGMENT[5] + MI[k + 9];
    const m = MI[k] * mx + MI[k + 3] * my + MI[k + 6] * mz;
    const lo = Math.min(a, b) + Math.min(m, 0) - ext;
    const hi = Math.max(a, b) + Math.max(m, 0) + ext;
    S[2 + k] = lo;
    S[5 + k] = hi;
    scale = Math.max(scale, Math.abs(lo), Math.abs(hi));
  }
  const f = bvh.nodeF32;
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > scale && v < Infinity) scale = v;
  }
  S[1] = 1e-9 * scale;
}

/** Whether the node box at word `w` overlaps the (padded) culling box. */
export function nodeOverlaps(f: Float32Array, w: number): boolean {
  const p = S[1];
  return (
    f[w] - p <= S[5] &&
    f[w + 3] + p >= S[2] &&
    f[w + 1] - p <= S[6] &&
    f[w + 4] + p >= S[3] &&
    f[w + 2] - p <= S[7] &&
    f[w + 5] + p >= S[4]
  );
}

/** Loads slot `s` into `TRI` in world space; false if degenerate. */
export function loadTriangle(bvh: MeshBVH, s: number): boolean {
  return worldTriangle(bvh.triVerts, s, hasMatrix ? M : null, TRI);
}

/** The world triangle loaded by {@link loadTriangle}. */
export const TRIANGLE = TRI;

/** Unit face normal written by {@link faceNormal}. */
export const FACE_NORMAL = new Float64Array(3);

/** The unit normal of the triangle in `TRI` by winding, `(b − a) × (c − a)` normalised, into `FACE_NORMAL`. */
export function faceNormal(): void {
  const ex = TRI[3] - TRI[0];
  const ey = TRI[4] - TRI[1];
  const ez = TRI[5] - TRI[2];
  const fx = TRI[6] - TRI[0];
  const fy = TRI[7] - TRI[1];
  const fz = TRI[8] - TRI[2];
  const nx = ey * fz - ez * fy;
  const ny = ez * fx - ex * fz;
  const nz = ex * fy - ey * fx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  FACE_NORMAL[0] = nx / l;
  FACE_NORMAL[1] = ny / l;
  FACE_NORMAL[2] = nz / l;
}

/**
 * Tests the triangle in `TRI` against the capsule (`SEGMENT`, radius); on contact fills `CONTACT`
 * and returns true. Touching (distance = radius) counts, with depth 0.
 */
export function capsuleTriangle(): boolean {
  const r = S[0];
  segmentTriangle(SEGMENT, 0, TRI, 0);
  const d2 = CLOSEST[6];
  if (d2 > r * r) return false;
  const d = Math.sqrt(d2);
  let nx: number;
  let ny: number;
  let nz: number;
  let depth: number;
  const px = CLOSEST[3];
  const py = CLOSEST[4];
  const pz = CLOSEST[5];
  const sx = CLOSEST[0] - px;
  const sy = CLOSEST[1] - py;
  const sz = CLOSEST[2] - pz;
  // Below ~1e-12 of the segment's own size the direction is rounding noise: use the face normal.
  const size = Math.abs(px) + Math.abs(py) + Math.abs(pz) + r;
  if (d > 1e-12 * size) {
    nx = sx / d;
    ny = sy / d;
    nz = sz / d;
    depth = r - d;
  } else {
    faceNormal();
    nx = FACE_NORMAL[0];
    ny = FACE_NORMAL[1];
    nz = FACE_NORMAL[2];
    // The face normal by winding (as the Octree and the mesh–sphere contacts); the depth clears the
    // plane: the radius plus how far the deeper end point lies behind it.
    const s0 = nx * (SEGMENT[0] - TRI[0]) + ny * (SEGMENT[1] - TRI[1]) + nz * (SEGMENT[2] - TRI[2]);
    const s1 = nx * (SEGMENT[3] - TRI[0]) + ny * (SEGMENT[4] - TRI[1]) + nz * (SEGMENT[5] - TRI[2]);
    depth = r + Math.max(0, -Math.min(s0, s1));
  }
  CONTACT[0] = px;
  CONTACT[1] = py;
  CONTACT[2] = pz;
  CONTACT[3] = nx;
  CONTACT[4] = ny;
  CONTACT[5] = nz;
  CONTACT[6] = depth;
  return true;
}

let target: MeshContacts | null = null;
let tree: MeshBVH | null = null;

const contactCast: BvhCast = {
  keys: null,
  intersectsBounds: nodeOverlaps,
  intersectsRange(offset: number, count: number): boolean {
    const bvh = tree as MeshBVH;
    const out = target;
    for (let s = offset, end = offset + count; s < end; s++) {
      if (!loadTriangle(bvh, s) || !capsuleTriangle()) continue;
      if (out === null) return true;
      out.pushFrom(bvh.triIds[s], CONTACT, 0);
    }
    return false;
  },
};

function query(bvh: MeshBVH, out: MeshContacts | null): boolean {
  tree = bvh;
  target = out;
  const stopped = shapecast(bvh, contactCast);
  tree = null;
  target = null;
  return stopped;
}

/**
 * Contacts of the capsule (world space) with the mesh of `bvh` placed by `matrix` (column-major 4×4,
 * `null` for identity), one per touching triangle, into `out` (cleared first), in tree order. Returns
 * the count. Throws a `RangeError` for a non-finite end point, a negative or non-finite radius or a
 * bad matrix. Does not allocate once `out` is large enough.
 */
export function capsuleContactsBvh(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
  out: MeshContacts,
): number {
  setupCapsule('capsuleContacts', bvh, matrix, capsule);
  out.count = 0;
  query(bvh, out);
  return out.count;
}

/** Whether the capsule touches the mesh (stops at the first triangle). Same arguments as {@link capsuleContactsBvh}. */
export function intersectsCapsuleBvh(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
): boolean {
  setupCapsule('intersectsCapsule', bvh, matrix, capsule);
  return query(bvh, null);
}

/** Reference for {@link capsuleContactsBvh}: the same triangle test on every triangle, in slot order. */
export function capsuleContactsBruteForce(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
  out: MeshContacts,
): number {
  setupCapsule('capsuleContactsBruteForce', bvh, matrix, capsule);
  out.count = 0;
  for (let s = 0; s < bvh.triangleCount; s++) {
    if (loadTriangle(bvh, s) && capsuleTriangle()) out.pushFrom(bvh.triIds[s], CONTACT, 0);
  }
  return out.count;
}

let candidates = new Int32Array(64);
let candidateCount = 0;

const gatherCast: BvhCast = {
  keys: null,
  intersectsBounds: nodeOverlaps,
  intersectsRange(offset: number, count: number): boolean {
    if (candidateCount + count > candidates.length)
      candidates = growArray(candidates, candidateCount + count);
    for (let s = offset, end = offset + count; s < end; s++) candidates[candidateCount++] = s;
    return false;
  },
};

/** `PUSH[0..2]`: the total push-out of {@link capsulePushOutBvh}. */
export const PUSH = new Float64Array(3);

/**
 * Turns the contact in `CONTACT` into the Octree's one-sided push for the triangle in `TRI`: the
 * triangle's front (by winding) is outside. A capsule with both end points behind the plane is
 * ignored (returns false); a face contact (the segment crosses the triangle, its nearest point is
 * inside the face, or its lower end point is over the face, as the Octree's point-in-triangle test)
 * pushes along the face normal until the lower end point is a radius in front. Edge and vertex
 * contacts keep their direction.
 */
function oneSided(): boolean {
  faceNormal();
  const nx = FACE_NORMAL[0];
  const ny = FACE_NORMAL[1];
  const nz = FACE_NORMAL[2];
  const h0 = nx * (SEGMENT[0] - TRI[0]) + ny * (SEGMENT[1] - TRI[1]) + nz * (SEGMENT[2] - TRI[2]);
  const h1 = nx * (SEGMENT[3] - TRI[0]) + ny * (SEGMENT[4] - TRI[1]) + nz * (SEGMENT[5] - TRI[2]);
  if (h0 < 0 && h1 < 0) return false;
  const along = CONTACT[3] * nx + CONTACT[4] * ny + CONTACT[5] * nz;
  // The lower end point, projected onto the plane.
  const o = h0 <= h1 ? 0 : 3;
  const h = Math.min(h0, h1);
  FOOT[0] = SEGMENT[o] - h * nx;
  FOOT[1] = SEGMENT[o + 1] - h * ny;
  FOOT[2] = SEGMENT[o + 2] - h * nz;
  FOOT[3] = nx;
  FOOT[4] = ny;
  FOOT[5] = nz;
  if (CLOSEST[6] === 0 || Math.abs(along) > 1 - 1e-9 || inFace()) {
    CONTACT[3] = nx;
    CONTACT[4] = ny;
    CONTACT[5] = nz;
    CONTACT[6] = S[0] - Math.min(h0, h1);
  }
  return true;
}

/** A point on the plane of `TRI` (0–2) and the plane's unit normal (3–5), for {@link inFace}. */
const FOOT = new Float64Array(6);

/** Whether the point `FOOT[0..2]` (on the plane of `TRI`) lies inside `TRI`. */
function inFace(): boolean {
  const px = FOOT[0];
  const py = FOOT[1];
  const pz = FOOT[2];
  const nx = FOOT[3];
  const ny = FOOT[4];
  const nz = FOOT[5];
  for (let k = 0; k < 9; k += 3) {
    const b = k === 6 ? 0 : k + 3;
    const ex = TRI[b] - TRI[k];
    const ey = TRI[b + 1] - TRI[k + 1];
    const ez = TRI[b + 2] - TRI[k + 2];
    const qx = px - TRI[k];
    const qy = py - TRI[k + 1];
    const qz = pz - TRI[k + 2];
    if ((ey * qz - ez * qy) * nx + (ez * qx - ex * qz) * ny + (ex * qy - ey * qx) * nz < 0) return false;
  }
  return true;
}

/**
 * three.js's `Octree.capsuleIntersect` on a BVH: the triangles near the capsule are visited in tree
 * order, and each one the capsule (moved by the pushes so far) penetrates pushes it out by
 * `depth·normal`, one-sided as the Octree (the front of a triangle, by winding, is outside; see
 * `oneSided`). Returns whether any triangle was penetrated; the total push is left in {@link PUSH} (the
 * Octree returns it as `{ normal, depth }`). Same arguments and errors as {@link capsuleContactsBvh}.
 */
export function capsulePushOutBvh(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
): boolean {
  setupCapsule('capsuleIntersect', bvh, matrix, capsule);
  candidateCount = 0;
  shapecast(bvh, gatherCast);
  const x0 = SEGMENT[0];
  const y0 = SEGMENT[1];
  const z0 = SEGMENT[2];
  let hit = false;
  for (let i = 0; i < candidateCount; i++) {
    if (!loadTriangle(bvh, candidates[i]) || !capsuleTriangle() || !oneSided()) continue;
    const depth = CONTACT[6];
    if (!(depth > 0)) continue;
    hit = true;
    for (let k = 0; k < 6; k += 3) {
      SEGMENT[k] += CONTACT[3] * depth;
      SEGMENT[k + 1] += CONTACT[4] * depth;
      SEGMENT[k + 2] += CONTACT[5] * depth;
    }
  }
  PUSH[0] = SEGMENT[0] - x0;
  PUSH[1] = SEGMENT[1] - y0;
  PUSH[2] = SEGMENT[2] - z0;
  return hit;
}
