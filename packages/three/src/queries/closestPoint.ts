/**
 * The point of a triangle mesh nearest to a point, in world space (three-mesh-bvh's
 * `closestPointToPoint`, `src/core/cast/closestPointToPoint.js`).
 *
 * A best-first walk (`@sieve/core`'s `shapecast`, ordered): each node's key is a lower bound of the world
 * distance² from the point to anything in its box — the local box distance² divided by `‖M⁻¹‖²`
 * (the spectral norm for a similarity transform, the Frobenius norm, an upper bound of it, otherwise) —
 * and nodes beyond the best distance² so far are skipped. Triangles are measured exactly in world space
 * (Ericson §5.1.5, `closestPointOnTriangle` of `@sieve/core`); degenerate triangles are ignored, as by
 * every BVH query. Ties go to the first triangle found (tree order).
 */
import {
  affineFromMatrix4,
  affineInvert,
  type BvhCast,
  CUTOFF,
  closestPointOnTriangle,
  KEY,
  type MeshBVH,
  shapecast,
} from '@sieve/core';
import { Vector3 } from 'three';
import type { PointLike } from './capsule.js';
import { worldTriangle } from './worldTriangle.js';

const M = new Float64Array(12);
const MI = new Float64Array(12);
/** World point (0–2), local point (3–5), `1/‖M⁻¹‖²` (6), stop-below distance² (7). */
const S = new Float64Array(8);
const TRI = new Float64Array(9);
const Q = new Float64Array(3);
/** Result: closest point (0–2), distance (3), original triangle index (4, −1 for none). */
export const NEAREST = new Float64Array(5);
let hasMatrix = false;
let tree: MeshBVH | null = null;

const cast: BvhCast = {
  keys: new Float64Array(2),
  intersectsBounds(f: Float32Array, w: number): boolean {
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const p = S[3 + k];
      const lo = f[w + k];
      const hi = f[w + 3 + k];
      const e = p < lo ? lo - p : p > hi ? p - hi : 0;
      d2 += e * e;
    }
    // A relative margin keeps the bound below the exact distance despite rounding.
    const key = d2 * S[6] * (1 - 1e-9);
    (cast.keys as Float64Array)[KEY] = key;
    return key <= (cast.keys as Float64Array)[CUTOFF];
  },
  intersectsRange(offset: number, count: number): boolean {
    const bvh = tree as MeshBVH;
    const keys = cast.keys as Float64Array;
    for (let s = offset, end = offset + count; s < end; s++) {
      if (!worldTriangle(bvh.triVerts, s, hasMatrix ? M : null, TRI)) continue;
      closestPointOnTriangle(TRI, 0, S, 0, Q);
      const x = Q[0] - S[0];
      const y = Q[1] - S[1];
      const z = Q[2] - S[2];
      const d2 = x * x + y * y + z * z;
      if (d2 < keys[CUTOFF] || (NEAREST[4] < 0 && d2 <= keys[CUTOFF])) {
        keys[CUTOFF] = d2;
        NEAREST[0] = Q[0];
        NEAREST[1] = Q[1];
        NEAREST[2] = Q[2];
        NEAREST[3] = Math.sqrt(d2);
        NEAREST[4] = bvh.triIds[s];
        if (d2 <= S[7]) return true;
      }
    }
    return false;
  },
};

/**
 * The point of the mesh of `bvh` placed by `matrix` (`null` for identity) nearest to the world point
 * `point`, no farther than `maxDistance`, into {@link NEAREST}; returns whether one was found. The walk
 * stops at the first point closer than `minDistance` (three-mesh-bvh's `minThreshold`). Throws a
 * `RangeError` for a non-finite point, bad thresholds or a bad matrix.
 */
export function closestPointBvh(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  point: PointLike,
  minDistance = 0,
  maxDistance = Infinity,
): boolean {
  const fn = 'closestPointToPoint';
  if (!point || !Number.isFinite(point.x) || !Number.isFinite(point.y) || !Number.isFinite(point.z)) {
    throw new RangeError(`${fn}: point must be a vector of finite numbers`);
  }
  if (typeof minDistance !== 'number' || !(minDistance >= 0)) {
    throw new RangeError(`${fn}: minThreshold must be a number >= 0 (got ${String(minDistance)})`);
  }
  if (typeof maxDistance !== 'number' || !(maxDistance >= minDistance)) {
    throw new RangeError(`${fn}: maxThreshold must be a number >= minThreshold (got ${String(maxDistance)})`);
  }
  hasMatrix = matrix !== null;
  affineFromMatrix4(M, matrix, 'matrix', fn);
  affineInvert(MI, M);
  S[0] = point.x;
  S[1] = point.y;
  S[2] = point.z;
  for (let k = 0; k < 3; k++) {
    S[3 + k] = MI[k] * S[0] + MI[k + 3] * S[1] + MI[k + 6] * S[2] + MI[k + 9];
  }
  inverseNormSquared();
  S[7] = minDistance * minDistance;
  const keys = cast.keys as Float64Array;
  keys[CUTOFF] = maxDistance * maxDistance;
  NEAREST[4] = -1;
  tree = bvh;
  shapecast(bvh, cast);
  tree = null;
  return NEAREST[4] >= 0;
}

/**
 * `1/‖M⁻¹‖²` into `S[6]`, with `‖M⁻¹‖²` exact (times 1 + 1e-9) for a similarity, else the Frobenius
 * norm², an upper bound (written, not returned: a returned double is boxed when V8 does not inline).
 */
function inverseNormSquared(): void {
  const n0 = MI[0] * MI[0] + MI[1] * MI[1] + MI[2] * MI[2];
  const n1 = MI[3] * MI[3] + MI[4] * MI[4] + MI[5] * MI[5];
  const n2 = MI[6] * MI[6] + MI[7] * MI[7] + MI[8] * MI[8];
  const d01 = MI[0] * MI[3] + MI[1] * MI[4] + MI[2] * MI[5];
  const d02 = MI[0] * MI[6] + MI[1] * MI[7] + MI[2] * MI[8];
  const d12 = MI[3] * MI[6] + MI[4] * MI[7] + MI[5] * MI[8];
  const tol = 1e-12 * (n0 + n1 + n2);
  const similar =
    Math.abs(n0 - n1) <= tol &&
    Math.abs(n0 - n2) <= tol &&
    Math.abs(d01) <= tol &&
    Math.abs(d02) <= tol &&
    Math.abs(d12) <= tol;
  S[6] = 1 / (similar ? Math.max(n0, n1, n2) * (1 + 1e-9) : n0 + n1 + n2);
}

/** The nearest point of a mesh (three-mesh-bvh's `HitPointInfo`). */
export interface HitPointInfo {
  /** The point on the mesh (world space for {@link closestPointToPoint}). */
  point: Vector3;
  /** Its distance to the query point. */
  distance: number;
  /** Index of its triangle (the geometry's triangle number). */
  faceIndex: number;
}

/**
 * Copies `NEAREST` into `target` (or a new object), its triangle numbered from `firstTriangle` (a bounds
 * tree's); `null` when nothing was found.
 */
export function nearestInto(
  found: boolean,
  firstTriangle: number,
  target?: HitPointInfo,
): HitPointInfo | null {
  if (!found) return null;
  const out = target ?? { point: new Vector3(), distance: 0, faceIndex: 0 };
  if (!out.point) out.point = new Vector3();
  const p = out.point;
  p.x = NEAREST[0];
  p.y = NEAREST[1];
  p.z = NEAREST[2];
  out.distance = NEAREST[3];
  out.faceIndex = firstTriangle + NEAREST[4];
  return out;
}
