/**
 * Reduction of a clipped face contact to at most four points, steady from one step to the next.
 *
 * The choice of four is the one Bullet's `btPersistentManifold::sortCachedPoints` and Dirk Gregorius
 * ("Robust Contact Creation for Physics Simulations", GDC 2015) describe: the deepest point; the one
 * farthest from it; the one spanning the largest triangle with those two; the one adding the most area
 * beyond that triangle's edges. On a many-sided patch (a cylinder cap, a rotated box, a hull's merged
 * face) many quadruples span nearly the same area, and which one wins flips with the last bits of the
 * depths as the bodies rock — four contacts that jump between corners every step, which a Gauss–Seidel
 * solver turns into jitter and creep. So the reduction keeps memory, as Bullet's persistent manifold
 * keeps its cached points: last step's four points (per pair, in hull A's frame) are looked up among
 * the new clipped points, and kept — in their old order — while each is still found within a small
 * distance, the new choice does not span clearly more area, and no new point is clearly deeper.
 */

/** Floats of a pair's reduction record: count, reference tag, then up to four points (xyz). */
export const REDUCTION_FLOATS = 14;

/** The kept set is replaced when the fresh choice spans this much more area. */
const AREA_GAIN = 1.1;

const AREA = new Float64Array(3);
const MATCH = new Int32Array(4);
/** The fresh and the kept choice's areas (returned numbers would be boxed). */
const HULL_AREA = new Float64Array(2);

/**
 * Picks at most four of the `m` points `p` (xyz; separations `sep`; patch normal `n`) into `keep`
 * (indices) and returns how many. With a record (`memory` at `at`, for the same reference face:
 * integer `tag`), last step's points are kept while each lies within `tolerance[0]` of a new point
 * (a number passed in an array: an argument would be boxed); the record is then updated.
 */
export function reduceManifold(
  p: Float64Array,
  sep: Float64Array,
  m: number,
  n: Float64Array,
  keep: Int32Array,
  memory: Float64Array | null,
  at: number,
  tag: number,
  tolerance: Float64Array,
): number {
  const tol = tolerance[0];
  let count: number;
  if (m <= 4) {
    for (let k = 0; k < m; k++) keep[k] = k;
    count = m;
  } else {
    count = reduceToFour(p, sep, m, n, keep);
    if (
      memory !== null &&
      memory[at] === count &&
      memory[at + 1] === tag &&
      matchPrevious(p, m, memory, at, tolerance)
    ) {
      let deepest = Number.POSITIVE_INFINITY;
      for (let k = 0; k < m; k++) deepest = Math.min(deepest, sep[k]);
      let keptDeepest = Number.POSITIVE_INFINITY;
      for (let k = 0; k < count; k++) keptDeepest = Math.min(keptDeepest, sep[MATCH[k]]);
      area4(p, keep, count, n, 0);
      area4(p, MATCH, count, n, 1);
      if (keptDeepest <= deepest + tol && HULL_AREA[0] <= AREA_GAIN * HULL_AREA[1]) {
        for (let k = 0; k < count; k++) keep[k] = MATCH[k];
      }
    }
  }
  if (memory !== null) {
    memory[at] = count;
    memory[at + 1] = tag;
    for (let k = 0; k < count; k++) {
      const j = 3 * keep[k];
      memory[at + 2 + 3 * k] = p[j];
      memory[at + 3 + 3 * k] = p[j + 1];
      memory[at + 4 + 3 * k] = p[j + 2];
    }
  }
  return count;
}

/**
 * Finds, for each recorded point, the nearest of the `m` new points within `tolerance[0]` (into
 * `MATCH`, all distinct); false if one has none.
 */
function matchPrevious(
  p: Float64Array,
  m: number,
  memory: Float64Array,
  at: number,
  tolerance: Float64Array,
): boolean {
  const tol = tolerance[0];
  const count = memory[at];
  for (let k = 0; k < count; k++) {
    const x = memory[at + 2 + 3 * k];
    const y = memory[at + 3 + 3 * k];
    const z = memory[at + 4 + 3 * k];
    let best = -1;
    let bestD = tol * tol;
    for (let j = 0; j < m; j++) {
      const dx = p[3 * j] - x;
      const dy = p[3 * j + 1] - y;
      const dz = p[3 * j + 2] - z;
      const d = dx * dx + dy * dy + dz * dz;
      if (d <= bestD) {
        bestD = d;
        best = j;
      }
    }
    if (best < 0) return false;
    for (let q = 0; q < k; q++) if (MATCH[q] === best) return false;
    MATCH[k] = best;
  }
  return true;
}

/**
 * Twice the area of the convex hull of the `count` (3 or 4) points `idx` of `p`, whatever their order,
 * into `HULL_AREA[slot]`: half the sum of the four triangles' areas about `n` (for a convex
 * quadrilateral each half is counted twice; with one point inside the triangle of the others, the
 * same).
 */
function area4(p: Float64Array, idx: Int32Array, count: number, n: Float64Array, slot: number): void {
  if (count < 3) {
    HULL_AREA[slot] = 0;
    return;
  }
  if (count === 3) {
    areas(p, idx[0], idx[1], idx[2], idx[2], n);
    HULL_AREA[slot] = Math.abs(AREA[0]);
    return;
  }
  let sum = 0;
  for (let skip = 0; skip < 4; skip++) {
    const a = idx[skip === 0 ? 1 : 0];
    const b = idx[skip <= 1 ? 2 : 1];
    const c = idx[skip <= 2 ? 3 : 2];
    areas(p, a, b, c, c, n);
    sum += Math.abs(AREA[0]);
  }
  HULL_AREA[slot] = 0.5 * sum;
}

/**
 * The four-point choice (into `keep`) of `m` > 4 points: the deepest; the farthest from it; the one
 * spanning the largest triangle with those (signed area about n); the one adding the most area beyond
 * that triangle's edges. Returns how many were kept (3 when all lie in one triangle).
 */
function reduceToFour(
  p: Float64Array,
  sep: Float64Array,
  m: number,
  n: Float64Array,
  keep: Int32Array,
): number {
  let a = 0;
  for (let k = 1; k < m; k++) if (sep[k] < sep[a]) a = k;
  let b = -1;
  let best = -1;
  for (let k = 0; k < m; k++) {
    const x = p[3 * k] - p[3 * a];
    const y = p[3 * k + 1] - p[3 * a + 1];
    const z = p[3 * k + 2] - p[3 * a + 2];
    const d = x * x + y * y + z * z;
    if (d > best) {
      best = d;
      b = k;
    }
  }
  let c = -1;
  best = -1;
  let flip = false;
  for (let k = 0; k < m; k++) {
    areas(p, a, b, a, k, n);
    const s = AREA[0];
    if (Math.abs(s) > best) {
      best = Math.abs(s);
      c = k;
      flip = s < 0;
    }
  }
  if (flip) {
    const t = a;
    a = b;
    b = t;
  }
  // a, b, c counter-clockwise about n; the fourth point lies most outside one of its edges.
  let d = -1;
  best = 0;
  for (let k = 0; k < m; k++) {
    areas(p, a, b, c, k, n);
    const s = Math.min(AREA[0], AREA[1], AREA[2]);
    if (-s > best) {
      best = -s;
      d = k;
    }
  }
  keep[0] = a;
  keep[1] = b;
  keep[2] = c;
  if (d < 0) return 3;
  keep[3] = d;
  return 4;
}

/**
 * Twice the signed areas about n of triangles (a, b, k), (b, c, k) and (c, a, k) into `AREA` (in an
 * array: returned numbers would be boxed).
 */
function areas(p: Float64Array, a: number, b: number, c: number, k: number, n: Float64Array): void {
  const kx = p[3 * k];
  const ky = p[3 * k + 1];
  const kz = p[3 * k + 2];
  for (let e = 0; e < 3; e++) {
    const i = e === 0 ? a : e === 1 ? b : c;
    const j = e === 0 ? b : e === 1 ? c : a;
    const ux = p[3 * j] - p[3 * i];
    const uy = p[3 * j + 1] - p[3 * i + 1];
    const uz = p[3 * j + 2] - p[3 * i + 2];
    const vx = kx - p[3 * i];
    const vy = ky - p[3 * i + 1];
    const vz = kz - p[3 * i + 2];
    AREA[e] = n[0] * (uy * vz - uz * vy) + n[1] * (uz * vx - ux * vz) + n[2] * (ux * vy - uy * vx);
  }
}
