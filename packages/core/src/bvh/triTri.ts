/**
 * Möller's triangle–triangle interval-overlap test with its coplanar case, in float64, on precomputed
 * triangle records.
 *
 * Follows Möller 1997 ("A Fast Triangle-Triangle Intersection Test") as the Project Oort collision
 * write-up presents it ("Möller's triangle–triangle test": plane test of
 * each triangle against the other's plane, intervals on the line `N_A × N_B` projected on its dominant
 * axis, the `t = q1 + d1/(d1 − d0)·(q0 − q1)` edge/plane crossings, a 2-D test for coplanar triangles),
 * itself after T. Möller, "A Fast Triangle-Triangle Intersection Test" (JGT 1997).
 *
 * Epsilon policy (all in float64; inputs are float32 meshes or float64 transforms of them):
 * - The scale `S` of a pair is the largest absolute coordinate of its six vertices, and
 *   `tol = TRI_EPS · S` with `TRI_EPS = 2⁻⁴⁰ ≈ 9.1e-13`, far below float32 resolution (6e-8·S) but far
 *   above float64 rounding of the transforms (≈1e-16·S).
 * - A vertex closer than `tol` to the other triangle's plane counts as *on* the plane.
 * - **Touching is a hit**: triangles sharing a vertex or an edge, or touching at a point, intersect.
 * - Where a triangle only touches the other's plane (a vertex or an edge on the plane, the rest on
 *   one side) Möller's interval test is replaced by the exact reduction "that vertex/edge against the
 *   other triangle, in its plane" (2-D separating axes with tolerance `tol`): the intersection can
 *   only lie there, and the interval test would be ill-conditioned when the planes are nearly parallel.
 * - Coplanar triangles (all three vertices of one on the other's plane): 2-D separating-axis test on
 *   the 6 edge normals in the plane, dropping the normal's dominant axis (Project Oort tests the 9 edge
 *   pairs; SAT also covers one triangle inside the other, which edge tests alone miss).
 * - **Degenerate triangles never hit anything.** A triangle is degenerate when
 *   `|e1 × e2|² ≤ 1e-24·|e1|²·|e2|²` (`e1`, `e2` its edges from vertex 0), i.e. its three vertices are
 *   collinear or coincident up to a relative 1e-12; its record has a zero normal, and any pair with
 *   one reaches the coplanar branch and returns `false`. Needle triangles that are thin but not
 *   degenerate by that measure are tested normally.
 * - Residual: for two triangles crossing at a tiny angle θ the result is exact only up to about
 *   `1e-16·S / sin θ` (the intersection line itself is ill-conditioned); BVH queries pad their culling
 *   by `1e-9·S` so they agree exactly with a brute-force loop over this same predicate.
 */

/** Float64s a triangle record takes (see {@link setTriangleRecord}). */
export const TRI_RECORD = 16;
/** Triangle record offset: unit normal (3; zero for a degenerate triangle). Vertices are words 0–8. */
export const REC_NORMAL = 9;
/** Triangle record offset: plane offset `n·v0` (1). */
export const REC_PLANE = 12;
/** Triangle record offset: largest absolute coordinate (1). */
export const REC_SCALE = 13;
/** Triangle record offset: left to the caller; the mesh–mesh caches keep the triangle's slot there (1). */
export const REC_SLOT = 14;
/**
 * Relative tolerance of the triangle tests (times the largest absolute coordinate).
 *
 * @internal
 */
export const TRI_EPS = 2 ** -40;
const DEGENERATE_SIN2 = 1e-24;

/**
 * Writes the record of triangle `(x0..z2)` at `rec[o .. o+15]`: the vertices (0–8), the unit normal
 * `n = normalize((v1 − v0) × (v2 − v0))` (`REC_NORMAL`, zero for a degenerate triangle), `n·v0`
 * (`REC_PLANE`), the largest absolute coordinate (`REC_SCALE`). Words 14–15 are left to the caller.
 */
export function setTriangleRecord(
  rec: Float64Array,
  o: number,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  x2: number,
  y2: number,
  z2: number,
): void {
  rec[o] = x0;
  rec[o + 1] = y0;
  rec[o + 2] = z0;
  rec[o + 3] = x1;
  rec[o + 4] = y1;
  rec[o + 5] = z1;
  rec[o + 6] = x2;
  rec[o + 7] = y2;
  rec[o + 8] = z2;
  finishTriangleRecord(rec, o);
}

/**
 * Completes the record at `rec[o]` whose vertices (words 0–8) are already written: unit normal, plane
 * offset, scale (see {@link setTriangleRecord}). Hot paths use this form: passing computed doubles to a
 * function that V8 does not inline boxes each of them (an allocation).
 */
export function finishTriangleRecord(rec: Float64Array, o: number): void {
  const x0 = rec[o];
  const y0 = rec[o + 1];
  const z0 = rec[o + 2];
  const x1 = rec[o + 3];
  const y1 = rec[o + 4];
  const z1 = rec[o + 5];
  const x2 = rec[o + 6];
  const y2 = rec[o + 7];
  const z2 = rec[o + 8];
  const ax = x1 - x0;
  const ay = y1 - y0;
  const az = z1 - z0;
  const bx = x2 - x0;
  const by = y2 - y0;
  const bz = z2 - z0;
  const nx = ay * bz - az * by;
  const ny = az * bx - ax * bz;
  const nz = ax * by - ay * bx;
  const n2 = nx * nx + ny * ny + nz * nz;
  if (n2 > DEGENERATE_SIN2 * (ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz)) {
    const inv = 1 / Math.sqrt(n2);
    const ux = nx * inv;
    const uy = ny * inv;
    const uz = nz * inv;
    rec[o + REC_NORMAL] = ux;
    rec[o + REC_NORMAL + 1] = uy;
    rec[o + REC_NORMAL + 2] = uz;
    rec[o + REC_PLANE] = ux * x0 + uy * y0 + uz * z0;
  } else {
    rec[o + REC_NORMAL] = 0;
    rec[o + REC_NORMAL + 1] = 0;
    rec[o + REC_NORMAL + 2] = 0;
    rec[o + REC_PLANE] = 0;
  }
  let s = x0 < 0 ? -x0 : x0;
  let t = y0 < 0 ? -y0 : y0;
  if (t > s) s = t;
  t = z0 < 0 ? -z0 : z0;
  if (t > s) s = t;
  t = x1 < 0 ? -x1 : x1;
  if (t > s) s = t;
  t = y1 < 0 ? -y1 : y1;
  if (t > s) s = t;
  t = z1 < 0 ? -z1 : z1;
  if (t > s) s = t;
  t = x2 < 0 ? -x2 : x2;
  if (t > s) s = t;
  t = y2 < 0 ? -y2 : y2;
  if (t > s) s = t;
  t = z2 < 0 ? -z2 : z2;
  if (t > s) s = t;
  rec[o + REC_SCALE] = s;
}

/** Whether the record at `rec[o]` is a degenerate (zero-area) triangle. */
export function isDegenerateRecord(rec: Float64Array, o: number): boolean {
  return rec[o + REC_NORMAL] === 0 && rec[o + REC_NORMAL + 1] === 0 && rec[o + REC_NORMAL + 2] === 0;
}

/**
 * Whether the triangles of records `A[a..]` and `B[b..]` intersect (touching counts; degenerate
 * triangles never intersect). See the module comment for the exact epsilon policy.
 */
export function triTriRecords(A: Float64Array, a: number, B: Float64Array, b: number): boolean {
  const sa = A[a + REC_SCALE];
  const sb = B[b + REC_SCALE];
  const tol = TRI_EPS * Math.max(sa, sb);
  const ntol = -tol;

  // B's vertices against A's plane.
  const nax = A[a + REC_NORMAL];
  const nay = A[a + REC_NORMAL + 1];
  const naz = A[a + REC_NORMAL + 2];
  const pa = A[a + REC_PLANE];
  const b0x = B[b];
  const b0y = B[b + 1];
  const b0z = B[b + 2];
  const b1x = B[b + 3];
  const b1y = B[b + 4];
  const b1z = B[b + 5];
  const b2x = B[b + 6];
  const b2y = B[b + 7];
  const b2z = B[b + 8];
  let db0 = nax * b0x + nay * b0y + naz * b0z - pa;
  let db1 = nax * b1x + nay * b1y + naz * b1z - pa;
  let db2 = nax * b2x + nay * b2y + naz * b2z - pa;
  if (db0 <= tol && db0 >= ntol) db0 = 0;
  if (db1 <= tol && db1 >= ntol) db1 = 0;
  if (db2 <= tol && db2 >= ntol) db2 = 0;
  if ((db0 > 0 && db1 > 0 && db2 > 0) || (db0 < 0 && db1 < 0 && db2 < 0)) return false;

  // A's vertices against B's plane.
  const nbx = B[b + REC_NORMAL];
  const nby = B[b + REC_NORMAL + 1];
  const nbz = B[b + REC_NORMAL + 2];
  const pb = B[b + REC_PLANE];
  const a0x = A[a];
  const a0y = A[a + 1];
  const a0z = A[a + 2];
  const a1x = A[a + 3];
  const a1y = A[a + 4];
  const a1z = A[a + 5];
  const a2x = A[a + 6];
  const a2y = A[a + 7];
  const a2z = A[a + 8];
  let da0 = nbx * a0x + nby * a0y + nbz * a0z - pb;
  let da1 = nbx * a1x + nby * a1y + nbz * a1z - pb;
  let da2 = nbx * a2x + nby * a2y + nbz * a2z - pb;
  if (da0 <= tol && da0 >= ntol) da0 = 0;
  if (da1 <= tol && da1 >= ntol) da1 = 0;
  if (da2 <= tol && da2 >= ntol) da2 = 0;
  if ((da0 > 0 && da1 > 0 && da2 > 0) || (da0 < 0 && da1 < 0 && da2 < 0)) return false;

  const bFlat = db0 === 0 && db1 === 0 && db2 === 0;
  const aFlat = da0 === 0 && da1 === 0 && da2 === 0;
  if (bFlat || aFlat) {
    // Coplanar — or a degenerate triangle, whose zero normal puts every distance at 0.
    if ((nax === 0 && nay === 0 && naz === 0) || (nbx === 0 && nby === 0 && nbz === 0)) return false;
    // Both triangles into the 2-D scratch, projected on the plane of the one the other lies in.
    for (let k = 0; k < 9; k++) {
      P3[k] = A[a + k];
      Q3[k] = B[b + k];
    }
    TOL[0] = tol;
    return bFlat ? overlap2d(A, a + 9) : overlap2d(B, b + 9);
  }

  // B only touches A's plane (no vertex strictly on one of the sides): A ∩ B is A ∩ (B's vertex or
  // edge lying on the plane); test that feature against A in A's plane. Likewise A on B's plane.
  TOL[0] = tol;
  if (!(db0 < 0 || db1 < 0 || db2 < 0) || !(db0 > 0 || db1 > 0 || db2 > 0)) {
    return touching(A, a, B, b, db0 === 0, db1 === 0, db2 === 0);
  }
  if (!(da0 < 0 || da1 < 0 || da2 < 0) || !(da0 > 0 || da1 > 0 || da2 > 0)) {
    return touching(B, b, A, a, da0 === 0, da1 === 0, da2 === 0);
  }

  // Both triangles cross the other's plane: Möller's intervals on L = N_A × N_B, projected on the
  // dominant axis of L.
  const lx = nay * nbz - naz * nby;
  const ly = naz * nbx - nax * nbz;
  const lz = nax * nby - nay * nbx;
  const ax = lx < 0 ? -lx : lx;
  const ay = ly < 0 ? -ly : ly;
  const az = lz < 0 ? -lz : lz;
  let pa0: number;
  let pa1: number;
  let pa2: number;
  let pb0: number;
  let pb1: number;
  let pb2: number;
  if (ax >= ay && ax >= az) {
    pa0 = a0x;
    pa1 = a1x;
    pa2 = a2x;
    pb0 = b0x;
    pb1 = b1x;
    pb2 = b2x;
  } else if (ay >= az) {
    pa0 = a0y;
    pa1 = a1y;
    pa2 = a2y;
    pb0 = b0y;
    pb1 = b1y;
    pb2 = b2y;
  } else {
    pa0 = a0z;
    pa1 = a1z;
    pa2 = a2z;
    pb0 = b0z;
    pb1 = b1z;
    pb2 = b2z;
  }
  IV[2] = pa0;
  IV[3] = pa1;
  IV[4] = pa2;
  IV[5] = da0;
  IV[6] = da1;
  IV[7] = da2;
  interval();
  const aLo = IV[0];
  const aHi = IV[1];
  IV[2] = pb0;
  IV[3] = pb1;
  IV[4] = pb2;
  IV[5] = db0;
  IV[6] = db1;
  IV[7] = db2;
  interval();
  return aLo <= IV[1] + tol && IV[0] <= aHi + tol;
}

// Scratch in typed arrays: module `let` doubles, and doubles passed to or returned from functions V8
// does not inline, are boxed (an allocation each). `interval` reads IV[2..7] (projections, distances)
// and writes IV[0..1]; `overlap2d` reads P3, Q3 (three 3-D points each) and TOL[0].
const IV = new Float64Array(8);
const P3 = new Float64Array(9);
const Q3 = new Float64Array(9);
const TOL = new Float64Array(1);

/**
 * Interval on the intersection line of a triangle that crosses the other's plane: its two crossing
 * points, from the edges at the vertex alone on its side (seed formula `t = q1 + d1/(d1 − d0)·(q0 − q1)`).
 * Requires distances of both strict signs, or one zero between two of opposite signs.
 */
function interval(): void {
  const p0 = IV[2];
  const p1 = IV[3];
  const p2 = IV[4];
  const d0 = IV[5];
  const d1 = IV[6];
  const d2 = IV[7];
  let t0: number;
  let t1: number;
  const s0 = d0 > 0 ? 1 : d0 < 0 ? -1 : 0;
  const s1 = d1 > 0 ? 1 : d1 < 0 ? -1 : 0;
  const s2 = d2 > 0 ? 1 : d2 < 0 ? -1 : 0;
  if (s0 === s1 && s0 !== 0) {
    // v2 alone.
    t0 = p2 + ((p0 - p2) * d2) / (d2 - d0);
    t1 = p2 + ((p1 - p2) * d2) / (d2 - d1);
  } else if (s0 === s2 && s0 !== 0) {
    // v1 alone.
    t0 = p1 + ((p0 - p1) * d1) / (d1 - d0);
    t1 = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else if ((s1 === s2 && s1 !== 0) || s0 !== 0) {
    // v0 alone.
    t0 = p0 + ((p1 - p0) * d0) / (d0 - d1);
    t1 = p0 + ((p2 - p0) * d0) / (d0 - d2);
  } else if (s1 !== 0) {
    t0 = p1 + ((p0 - p1) * d1) / (d1 - d0);
    t1 = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else {
    t0 = p2 + ((p0 - p2) * d2) / (d2 - d0);
    t1 = p2 + ((p1 - p2) * d2) / (d2 - d1);
  }
  if (t0 <= t1) {
    IV[0] = t0;
    IV[1] = t1;
  } else {
    IV[0] = t1;
    IV[1] = t0;
  }
}

/**
 * Whether triangle `T[t..]`, which only touches the plane of triangle `R[r..]` (its vertices with `on0`,
 * `on1`, `on2` lie on it, the others on one side), meets `R`: its on-plane vertices (one or two,
 * repeated to fill three) against `R` in `R`'s plane, tolerance `TOL[0]`.
 */
function touching(
  R: Float64Array,
  r: number,
  T: Float64Array,
  t: number,
  on0: boolean,
  on1: boolean,
  on2: boolean,
): boolean {
  // Offsets of the first on-plane vertex and of the second (the first again if alone).
  const f0 = on0 ? 0 : on1 ? 3 : 6;
  const f1 = f0 === 0 ? (on1 ? 3 : on2 ? 6 : 0) : f0 === 3 && on2 ? 6 : f0;
  for (let k = 0; k < 9; k++) P3[k] = R[r + k];
  for (let k = 0; k < 3; k++) {
    Q3[k] = T[t + f0 + k];
    Q3[3 + k] = Q3[6 + k] = T[t + f1 + k];
  }
  return overlap2d(R, r + 9);
}

/**
 * 2-D overlap of triangle P3 and triangle (or segment, or point — repeated vertices) Q3, both lying in
 * the plane of normal `N[n..n+2]`: projected by dropping the normal's dominant axis, then separating
 * axes on the edge normals of both. Separation must exceed `TOL[0]` (on an L1-normalized axis) to
 * count: touching overlaps.
 */
function overlap2d(N: Float64Array, n: number): boolean {
  const ax = N[n] < 0 ? -N[n] : N[n];
  const ay = N[n + 1] < 0 ? -N[n + 1] : N[n + 1];
  const az = N[n + 2] < 0 ? -N[n + 2] : N[n + 2];
  // (u, v) = the two coordinates kept.
  const u = ax >= ay && ax >= az ? 1 : ay >= az ? 2 : 0;
  const v = u === 2 ? 0 : u + 1;
  for (let k = 0; k < 3; k++) {
    P[2 * k] = P3[3 * k + u];
    P[2 * k + 1] = P3[3 * k + v];
    Q[2 * k] = Q3[3 * k + u];
    Q[2 * k + 1] = Q3[3 * k + v];
  }
  return !separated2d(P, Q) && !separated2d(Q, P);
}

const P = new Float64Array(6);
const Q = new Float64Array(6);

/** Whether one of the edge normals of `E` separates the point sets `E` and `F` by more than `tol`. */
function separated2d(E: Float64Array, F: Float64Array): boolean {
  const tol = TOL[0];
  for (let i = 0; i < 3; i++) {
    const j = i === 2 ? 0 : i + 1;
    // Axis perpendicular to edge i→j.
    const ux = E[2 * j + 1] - E[2 * i + 1];
    const uy = E[2 * i] - E[2 * j];
    if (ux === 0 && uy === 0) continue;
    let eMin = Infinity;
    let eMax = -Infinity;
    let fMin = Infinity;
    let fMax = -Infinity;
    for (let k = 0; k < 6; k += 2) {
      const e = ux * E[k] + uy * E[k + 1];
      const f = ux * F[k] + uy * F[k + 1];
      if (e < eMin) eMin = e;
      if (e > eMax) eMax = e;
      if (f < fMin) fMin = f;
      if (f > fMax) fMax = f;
    }
    const t = tol * ((ux < 0 ? -ux : ux) + (uy < 0 ? -uy : uy));
    if (fMin > eMax + t || eMin > fMax + t) return true;
  }
  return false;
}

// Scratch records for the array-based convenience test.
const RA = new Float64Array(TRI_RECORD);
const RB = new Float64Array(TRI_RECORD);

/**
 * Whether two triangles intersect, each given as 9 numbers `[x0, y0, z0, x1, y1, z1, x2, y2, z2]`
 * (optionally at an offset). Touching counts as intersecting; a degenerate (zero-area) triangle never
 * intersects anything. Convenience form of `triTriRecords` (the record-based test the queries use);
 * does not allocate.
 */
export function triangleTriangleIntersect(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  aOffset = 0,
  bOffset = 0,
): boolean {
  const i = aOffset;
  const j = bOffset;
  setTriangleRecord(
    RA,
    0,
    a[i],
    a[i + 1],
    a[i + 2],
    a[i + 3],
    a[i + 4],
    a[i + 5],
    a[i + 6],
    a[i + 7],
    a[i + 8],
  );
  setTriangleRecord(
    RB,
    0,
    b[j],
    b[j + 1],
    b[j + 2],
    b[j + 3],
    b[j + 4],
    b[j + 5],
    b[j + 6],
    b[j + 7],
    b[j + 8],
  );
  return triTriRecords(RA, 0, RB, 0);
}
