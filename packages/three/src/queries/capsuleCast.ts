/**
 * Swept capsule against a triangle mesh: the first fraction `t ∈ [0, 1]` of a straight displacement at
 * which the capsule touches the mesh, with the contact normal and point — the building block of a
 * collide-and-slide character controller (a capsule swept this way cannot pass through a wall, whatever
 * the frame rate).
 *
 * Per triangle, conservative advancement (Mirtich's time of impact for convex objects, as
 * `@sieve/core`'s `timeOfImpact`) made exact by convexity: under a translation, the distance `d(t)`
 * between the capsule's segment and a triangle is a convex function of `t` (the distance of the point
 * `t·D` to the convex set `triangle ⊖ segment`), so a Newton step `t += (d − r) / (−d'(t))`, with
 * `d'(t) = n·D` (`n` the unit vector from the triangle to the segment's closest point), never steps past
 * the first contact, and `d'(t) ≥ 0` means the capsule never gets closer. Iterations stop within
 * `tolerance` of the radius. A contact blocks the motion only if the capsule would go deeper than the
 * tolerance into that triangle before the end of the motion (checked on the same convex function):
 * grazing contacts — sliding along a floor the capsule rests on, passing over the edge of the floor's
 * next triangle — do not stop it. Candidate triangles come from `@sieve/core`'s `shapecast` with the
 * capsule's swept box.
 */
import { type BvhCast, type MeshBVH, shapecast } from '@sieve/core';
import {
  type CapsuleLike,
  FACE_NORMAL,
  faceNormal,
  loadTriangle,
  nodeOverlaps,
  type PointLike,
  SEGMENT,
  setCullingBox,
  setupCapsule,
  TRIANGLE,
} from './capsule.js';
import { CLOSEST, segmentTriangle } from './segmentTriangle.js';

/** Iterations per triangle before giving up on it (a grazing approach converges slowly). */
const MAX_ITERATIONS = 64;

/**
 * Sweep state: displacement (0–2), radius (3), tolerance (4), best fraction (5), least closing rate (6),
 * then the argument and results of {@link gapAt}: fraction (8), gap (9), closing rate (7), and the
 * distance found by {@link direction} (10). Doubles travel here, not as arguments or return values (a
 * double crossing a call V8 does not inline is boxed: an allocation).
 */
const W = new Float64Array(11);
/** The capsule's segment moved to the fraction being tried. */
const MOVED = new Float64Array(6);
/**
 * Result of the sweep: fraction (0), normal (1–3), point on the mesh (4–6), original triangle index (7,
 * −1 for none), whether the capsule touched it already at the start (8: 1 or 0).
 */
export const SWEEP = new Float64Array(9);
const N = new Float64Array(3);

/**
 * Writes the unit direction from the triangle to the segment (`CLOSEST`) to `N`, or, when they meet,
 * the face normal of `TRIANGLE` turned against the displacement; the distance to `W[10]`.
 */
function direction(): void {
  const d = Math.sqrt(CLOSEST[6]);
  W[10] = d;
  const sx = CLOSEST[0] - CLOSEST[3];
  const sy = CLOSEST[1] - CLOSEST[4];
  const sz = CLOSEST[2] - CLOSEST[5];
  const size = Math.abs(CLOSEST[3]) + Math.abs(CLOSEST[4]) + Math.abs(CLOSEST[5]) + W[3];
  if (d > 1e-12 * size) {
    N[0] = sx / d;
    N[1] = sy / d;
    N[2] = sz / d;
    return;
  }
  faceNormal();
  const nx = FACE_NORMAL[0];
  const ny = FACE_NORMAL[1];
  const nz = FACE_NORMAL[2];
  const s = nx * W[0] + ny * W[1] + nz * W[2] > 0 ? -1 : 1;
  N[0] = s * nx;
  N[1] = s * ny;
  N[2] = s * nz;
}

/**
 * Distance minus radius (to `W[9]`) of the capsule moved to fraction `W[8]` and the triangle in
 * `TRIANGLE`; leaves the closest points in `CLOSEST`, the unit direction in `N`, and the closing rate
 * `−N·D` in `W[7]`.
 */
function gapAt(): void {
  const t = W[8];
  const dx = W[0];
  const dy = W[1];
  const dz = W[2];
  for (let k = 0; k < 6; k += 3) {
    MOVED[k] = SEGMENT[k] + t * dx;
    MOVED[k + 1] = SEGMENT[k + 1] + t * dy;
    MOVED[k + 2] = SEGMENT[k + 2] + t * dz;
  }
  segmentTriangle(MOVED, 0, TRIANGLE, 0);
  direction();
  W[9] = W[10] - W[3];
  W[7] = -(N[0] * dx + N[1] * dy + N[2] * dz);
}

/**
 * Whether the capsule, touching the triangle at the fraction of the last {@link gapAt} (its gap within
 * the tolerance, closing in), goes deeper than the tolerance into it before the best fraction so far. The gap is
 * convex in the fraction: bisect on the sign of its slope, bounding its minimum from below by the
 * tangents at the bracket's ends, until the bound clears `−tolerance` (a graze: the capsule slides over
 * a neighbouring triangle's edge, or along a surface) or a sample goes below it (a true contact).
 */
function penetrates(): boolean {
  const tol = W[4];
  let a = W[8];
  let fa = W[9];
  let da = -W[7];
  let b = Math.min(W[5], 1);
  if (!(b > a)) return fa < -tol;
  W[8] = b;
  gapAt();
  let fb = W[9];
  if (fb < -tol) return true;
  let db = -W[7];
  if (db <= 0) return false; // still closing at the end, and not past the tolerance there
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    // The tangents at a and b meet below the gap's minimum on [a, b].
    const tx = (fb - fa + da * a - db * b) / (da - db);
    if (fa + da * (tx - a) >= -tol) return false;
    const m = tx > a && tx < b ? tx : 0.5 * (a + b);
    W[8] = m;
    gapAt();
    const fm = W[9];
    if (fm < -tol) return true;
    const dm = -W[7];
    if (dm < 0) {
      a = m;
      fa = fm;
      da = dm;
    } else {
      b = m;
      fb = fm;
      db = dm;
    }
  }
  return false;
}

/**
 * Time of impact of the capsule with the triangle in `TRIANGLE`, below the best so far (`W[5]`): on a
 * new best, writes `SWEEP` (but the triangle index) and returns true.
 */
function sweepTriangle(): boolean {
  const tol = W[4];
  let t = 0;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    W[8] = t;
    gapAt();
    const gap = W[9];
    const rate = W[7];
    // Not closing in: by convexity the distance never decreases from here (by more than
    // 1e-9·|D| in all, when the rate is below that).
    if (!(rate > W[6])) return false;
    if (gap <= tol) {
      SWEEP[0] = t;
      SWEEP[1] = N[0];
      SWEEP[2] = N[1];
      SWEEP[3] = N[2];
      SWEEP[4] = CLOSEST[3];
      SWEEP[5] = CLOSEST[4];
      SWEEP[6] = CLOSEST[5];
      SWEEP[8] = t === 0 ? 1 : 0;
      return penetrates();
    }
    t += gap / rate;
    if (!(t < W[5])) return false;
  }
  return false;
}

let tree: MeshBVH | null = null;

const sweepCast: BvhCast = {
  keys: null,
  intersectsBounds: nodeOverlaps,
  intersectsRange(offset: number, count: number): boolean {
    const bvh = tree as MeshBVH;
    for (let s = offset, end = offset + count; s < end; s++) {
      // A triangle only answers when it is hit strictly before the best so far (ties: tree order).
      if (!loadTriangle(bvh, s) || !sweepTriangle()) continue;
      W[5] = SWEEP[0];
      SWEEP[7] = bvh.triIds[s];
      keep();
    }
    return false;
  },
};

const BEST = new Float64Array(9);
function keep(): void {
  for (let k = 0; k < 9; k++) BEST[k] = SWEEP[k];
}

/**
 * Sweeps the capsule (world space) by `displacement` against the mesh of `bvh` placed by `matrix`
 * (`null` for identity). Returns whether it touches the mesh within the displacement; the result
 * (fraction, normal, point, triangle, started-touching flag) is left in {@link SWEEP}. `tolerance`:
 * the distance beyond the radius at which a contact counts (default `1e-7·(radius + |displacement|)`;
 * at least `1e-12·(radius + |displacement|)` plus the coordinates' rounding, whatever is passed).
 * Throws a `RangeError` for a bad capsule, displacement, tolerance or matrix.
 */
export function capsuleCastBvh(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  capsule: CapsuleLike,
  displacement: PointLike,
  tolerance?: number,
): boolean {
  const fn = 'capsuleCast';
  setupCapsule(fn, bvh, matrix, capsule);
  if (
    !displacement ||
    !Number.isFinite(displacement.x) ||
    !Number.isFinite(displacement.y) ||
    !Number.isFinite(displacement.z)
  ) {
    throw new RangeError(`${fn}: displacement must be a vector of finite numbers`);
  }
  W[0] = displacement.x;
  W[1] = displacement.y;
  W[2] = displacement.z;
  W[3] = capsule.radius;
  const len = Math.sqrt(W[0] * W[0] + W[1] * W[1] + W[2] * W[2]);
  // Two branches, not `tolerance ?? default`: a merge of the argument with a computed double would box it.
  if (tolerance === undefined) {
    W[4] = 1e-7 * (capsule.radius + len);
  } else {
    if (typeof tolerance !== 'number' || !(tolerance >= 0) || tolerance === Infinity) {
      throw new RangeError(`${fn}: tolerance must be a finite number >= 0 (got ${String(tolerance)})`);
    }
    W[4] = tolerance;
  }
  // A contact at exactly the radius cannot be found in floating point (near an edge the gap only tends
  // to it): the tolerance is at least 1e-12·(radius + |displacement|) plus the coordinates' rounding.
  let scale = 0;
  for (let k = 0; k < 6; k++) scale = Math.max(scale, Math.abs(SEGMENT[k]));
  const floor = 1e-12 * (capsule.radius + len) + 4 * Number.EPSILON * scale;
  if (W[4] < floor) W[4] = floor;
  W[5] = 1;
  W[6] = 1e-9 * len;
  SWEEP[7] = -1;
  BEST[7] = -1;
  if (len === 0) return false;
  setCullingBox(bvh, W);
  tree = bvh;
  // The fraction limit is inclusive: a contact exactly at the end of the motion counts.
  W[5] = 1 + Number.EPSILON;
  shapecast(bvh, sweepCast);
  tree = null;
  if (BEST[7] < 0) return false;
  for (let k = 0; k < 9; k++) SWEEP[k] = BEST[k];
  if (SWEEP[0] > 1) SWEEP[0] = 1;
  return true;
}
