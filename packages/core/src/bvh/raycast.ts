/**
 * Ray casts against a triangle BVH: the closest hit (triangle, distance, point, normal, barycentrics)
 * and all hits, under an affine transform.
 *
 * Traversal follows three-mesh-bvh's `raycastFirst` (`src/core/cast/raycastFirst.template.js`): nearer
 * child first, skip a subtree whose box starts beyond the best hit. The walks are the BVH's one walk,
 * `shapecast` (`shapecast.ts`), specialised for rays by `scripts/generate-casts.mjs` into
 * `raycastFirstWalk.generated.ts` and `raycastAllWalk.generated.ts` (through the generic callbacks a
 * closest-hit cast measured ~25 % slower). The order comes from each child's slab entry distance (a
 * branch-free slab test with precomputed entry/exit faces), and the boxes are padded by `1e-9·S` (`S`
 * the largest absolute coordinate of the tree and ray origin) so rounding in the slab test never
 * loses a hit on a box face.
 *
 * The ray, its slab test and the watertight ray–triangle test (Woop, Benthin and Wald 2013) are in
 * `ray.ts`. Ties in distance go to the lower triangle index, so the result equals
 * {@link raycastBruteForce} exactly.
 *
 * The ray is given in world space with any non-zero `direction` (normalized internally); distances are
 * world distances from `origin`, `0 ≤ near` ≤ distance ≤ `far`. With a transform, the ray is mapped into
 * the mesh's local frame once (affine maps keep the ray parameter), so scale and shear are supported.
 */

import type { MeshBVH } from './MeshBVH.js';
import {
  BEST_BARY,
  BEST_I,
  BEST_ID,
  BEST_SLOT,
  faceNormal,
  HIT,
  NEAR_T,
  RANGE,
  RAY,
  RAY_WORLD_DIR,
  RAY_WORLD_ORIGIN,
  rayTriangle,
  setupRay,
  setupSlabFor,
} from './ray.js';
import { raycastAllWalk } from './raycastAllWalk.generated.js';
import { raycastFirstWalk } from './raycastFirstWalk.generated.js';
import { CUTOFF } from './shapecast.js';

/** The closest hit of {@link raycastFirst}. Reused across calls. */
export class RayHit {
  /** Whether the last cast hit anything (the other fields are valid only then). */
  hit = false;
  /** Index of the triangle hit, in the original mesh. */
  triangle = -1;
  /** World distance from the ray origin. */
  distance = Infinity;
  /** World hit point. */
  point = new Float64Array(3);
  /** Unit face normal in world space (by winding: `(v1 − v0) × (v2 − v0)`, inverse-transpose transformed). */
  normal = new Float64Array(3);
  /** Barycentric weights of the triangle's vertices 0, 1, 2 at the hit point. */
  barycentric = new Float64Array(3);
  /** Whether the ray hit the side the normal points to. */
  frontFace = false;
}

/** All hits of {@link raycastAll}, sorted by distance (then triangle index). Arrays grow as needed. */
export class RayHits {
  /** Number of hits. */
  count = 0;
  /** Original triangle index of each hit. */
  triangles = new Uint32Array(16);
  /** World distance of each hit. */
  distances = new Float64Array(16);
  /** World hit points, 3 numbers each. */
  points = new Float64Array(48);
  /** Unit world face normals, 3 numbers each. */
  normals = new Float64Array(48);
  /** Barycentric weights, 3 numbers each. */
  barycentrics = new Float64Array(48);
  /** @internal slot of each hit */
  slots = new Int32Array(16);

  /** @internal */
  pushHit(slot: number, triangle: number, hit: Float64Array): void {
    if (this.count === this.triangles.length) this.grow();
    const k = this.count++;
    this.slots[k] = slot;
    this.triangles[k] = triangle;
    this.distances[k] = hit[0];
    this.barycentrics[3 * k] = hit[1];
    this.barycentrics[3 * k + 1] = hit[2];
    this.barycentrics[3 * k + 2] = hit[3];
  }

  private grow(): void {
    const n = 2 * this.triangles.length;
    const t = new Uint32Array(n);
    t.set(this.triangles);
    this.triangles = t;
    const s = new Int32Array(n);
    s.set(this.slots);
    this.slots = s;
    const d = new Float64Array(n);
    d.set(this.distances);
    this.distances = d;
    for (const key of ['points', 'normals', 'barycentrics'] as const) {
      const a = new Float64Array(3 * n);
      a.set(this[key]);
      this[key] = a;
    }
  }
}

/**
 * The closest hit of a ray on the mesh of `bvh` placed by `matrix` (column-major 4×4, `null` for
 * identity), into `hit`. Returns whether something was hit. Throws a `RangeError` for a non-finite
 * origin or direction, a zero direction, a negative or non-finite `near`, a NaN `far`, or a bad
 * matrix. Does not allocate.
 *
 * @example
 * ```ts
 * import { MeshBVH, RayHit, raycastFirst } from '@sieve/core';
 *
 * // Two triangles forming the unit square in the z = 0 plane.
 * const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
 * const bvh = new MeshBVH(positions, new Uint32Array([0, 1, 2, 0, 2, 3]));
 * const hit = new RayHit(); // reused from ray to ray
 * if (raycastFirst(bvh, null, [0.25, 0.5, 1], [0, 0, -1], hit)) {
 *   console.log(hit.triangle, hit.distance, hit.point); // 1, 1, [0.25, 0.5, 0]
 * }
 * ```
 */
export function raycastFirst(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hit: RayHit,
  near = 0,
  far = Infinity,
): boolean {
  setupRay('raycastFirst', matrix, origin, direction, near, far);
  hit.hit = false;
  hit.triangle = -1;
  hit.distance = Infinity;
  if (bvh.triangleCount === 0) return false;
  setupSlabFor(bvh);
  RANGE[NEAR_T] = near;
  RANGE[CUTOFF] = far;
  BEST_I[BEST_SLOT] = -1;
  raycastFirstWalk(bvh);
  const bestSlot = BEST_I[BEST_SLOT];
  if (bestSlot < 0) return false;
  const best = RANGE[CUTOFF];
  hit.hit = true;
  hit.triangle = BEST_I[BEST_ID];
  hit.distance = best;
  hit.barycentric[0] = BEST_BARY[0];
  hit.barycentric[1] = BEST_BARY[1];
  hit.barycentric[2] = BEST_BARY[2];
  hit.point[0] = RAY[RAY_WORLD_ORIGIN] + best * RAY[RAY_WORLD_DIR];
  hit.point[1] = RAY[RAY_WORLD_ORIGIN + 1] + best * RAY[RAY_WORLD_DIR + 1];
  hit.point[2] = RAY[RAY_WORLD_ORIGIN + 2] + best * RAY[RAY_WORLD_DIR + 2];
  hit.frontFace = faceNormal(bvh.triVerts, bestSlot, hit.normal, 0);
  return true;
}

/**
 * Every hit of a ray on the mesh of `bvh` placed by `matrix`, into `hits`, sorted by distance (ties:
 * triangle index). Returns the number of hits. Same arguments and errors as {@link raycastFirst}.
 */
export function raycastAll(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hits: RayHits,
  near = 0,
  far = Infinity,
): number {
  setupRay('raycastAll', matrix, origin, direction, near, far);
  hits.count = 0;
  if (bvh.triangleCount === 0) return 0;
  setupSlabFor(bvh);
  RANGE[NEAR_T] = near;
  RANGE[CUTOFF] = far;
  raycastAllWalk(bvh, hits);
  const v = bvh.triVerts;
  finishHits(v, hits);
  return hits.count;
}

/**
 * Reference for {@link raycastFirst}/{@link raycastAll}: the same ray–triangle test on every
 * triangle, no tree. Fills `hits` (sorted) and, if given, `first`. For tests and validation.
 */
export function raycastBruteForce(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hits: RayHits,
  first: RayHit | null = null,
  near = 0,
  far = Infinity,
): number {
  setupRay('raycastBruteForce', matrix, origin, direction, near, far);
  hits.count = 0;
  const v = bvh.triVerts;
  RANGE[NEAR_T] = near;
  RANGE[CUTOFF] = far;
  for (let s = 0; s < bvh.triangleCount; s++) {
    if (rayTriangle(v, 9 * s)) hits.pushHit(s, bvh.triIds[s], HIT);
  }
  finishHits(v, hits);
  if (first) {
    first.hit = hits.count > 0;
    first.triangle = first.hit ? hits.triangles[0] : -1;
    first.distance = first.hit ? hits.distances[0] : Infinity;
    if (first.hit) {
      for (let k = 0; k < 3; k++) {
        first.point[k] = hits.points[k];
        first.normal[k] = hits.normals[k];
        first.barycentric[k] = hits.barycentrics[k];
      }
      first.frontFace = faceNormal(v, hits.slots[0], first.normal, 0);
    }
  }
  return hits.count;
}

/** Sorts hits by (distance, triangle) with an insertion sort (few hits), then fills points/normals. */
function finishHits(v: Float32Array, hits: RayHits): void {
  const d = hits.distances;
  const t = hits.triangles;
  const sl = hits.slots;
  const bc = hits.barycentrics;
  for (let i = 1; i < hits.count; i++) {
    const di = d[i];
    const ti = t[i];
    const si = sl[i];
    const b0 = bc[3 * i];
    const b1 = bc[3 * i + 1];
    const b2 = bc[3 * i + 2];
    let j = i - 1;
    while (j >= 0 && (d[j] > di || (d[j] === di && t[j] > ti))) {
      d[j + 1] = d[j];
      t[j + 1] = t[j];
      sl[j + 1] = sl[j];
      bc[3 * j + 3] = bc[3 * j];
      bc[3 * j + 4] = bc[3 * j + 1];
      bc[3 * j + 5] = bc[3 * j + 2];
      j--;
    }
    d[j + 1] = di;
    t[j + 1] = ti;
    sl[j + 1] = si;
    bc[3 * j + 3] = b0;
    bc[3 * j + 4] = b1;
    bc[3 * j + 5] = b2;
  }
  for (let k = 0; k < hits.count; k++) {
    hits.points[3 * k] = RAY[RAY_WORLD_ORIGIN] + d[k] * RAY[RAY_WORLD_DIR];
    hits.points[3 * k + 1] = RAY[RAY_WORLD_ORIGIN + 1] + d[k] * RAY[RAY_WORLD_DIR + 1];
    hits.points[3 * k + 2] = RAY[RAY_WORLD_ORIGIN + 2] + d[k] * RAY[RAY_WORLD_DIR + 2];
    faceNormal(v, sl[k], hits.normals, 3 * k);
  }
}
