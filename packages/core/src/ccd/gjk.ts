/**
 * GJK distance between two convex "core" shapes — a point, a box (the shared 15-number OBB layout of
 * `math/obb.ts`) or a triangle — with their closest points and a certified lower bound on the distance.
 *
 * The narrowphase has exact sphere–box distances (the OCSI paper, Eq. 2) but only
 * overlap tests for box–box (separating axes: not a distance), and conservative advancement
 * (the hard-rigid-body event-driven MD paper, §2.4.2; docs/references.md) needs the distance d(t) between the bodies at each step. GJK
 * (Gilbert, Johnson, Keerthi 1988) walks a simplex of the Minkowski difference A − B towards the origin
 * using only each shape's support mapping; the closest point of a simplex to the origin is found by the
 * Voronoi-region tests of Ericson, *Real-Time Collision Detection* §5.1.5 and §9.5 (segment, triangle,
 * tetrahedron). 2-D callers use the same code with z = 0 (a 2-D box is a box with a zero z extent).
 *
 * What the caller gets (module scratch {@link gjk}, read right after the call):
 * - `result[GJK_SEPARATION]`: min over A − B of x·n̂ for the final search direction n̂ — the gap between the two
 *   support planes normal to n̂. It never exceeds the true distance (any direction gives a lower bound),
 *   so conservative advancement stepped with it cannot overshoot, however far GJK got before stopping;
 * - `normal` n̂ (unit, from A towards B), `pointA`, `pointB` (closest points, within GJK's tolerance);
 * - `result[GJK_DISTANCE]`: the distance upper bound |v| ≥ separation;
 * - the return value: 1, or −1 when the shapes intersect (touching within ~1e-12 of their size counts:
 *   there is no separating direction to report then).
 *
 * Allocation-free: the simplex lives in module typed arrays.
 */

/** Core shape kinds understood by {@link gjkDistance}. */
export const GJK_POINT = 0;
/** A box in the 15-number OBB layout `[c(3), e0(3), e1(3), e2(3), h(3)]`. */
export const GJK_BOX = 1;
/** A triangle: 9 numbers, three vertices. */
export const GJK_TRIANGLE = 2;

/** Slots of `gjk.result`: the certified separation, the distance |v|, the iterations taken. */
export const GJK_SEPARATION = 0;
export const GJK_DISTANCE = 1;
export const GJK_ITERATIONS = 2;

/** Results of the last {@link gjkDistance} call (typed arrays only: nothing is boxed). */
export const gjk = {
  result: new Float64Array(3),
  normal: new Float64Array(3),
  pointA: new Float64Array(3),
  pointB: new Float64Array(3),
};

const MAX_ITERATIONS = 64;

// Simplex: up to 4 vertices of A − B (W) and the supports they came from (SA, SB), barycentric weights.
const W = new Float64Array(12);
const SA = new Float64Array(12);
const SB = new Float64Array(12);
const LAM = new Float64Array(4);
let count = 0;
// v: the current closest point of the simplex to the origin; support outputs.
const V = new Float64Array(3);
const PA = new Float64Array(3);
const PB = new Float64Array(3);
// Scratch for the sub-simplex search.
const KEEP = new Int32Array(4);
const BEST_KEEP = new Int32Array(4);
const BEST_LAM = new Float64Array(4);
const TL = new Float64Array(4);
const DEG_KEEP = new Int32Array(4);
const DEG_LAM = new Float64Array(4);
// Squared distance from the sub-simplex searches; signed volumes.
const D2 = new Float64Array(1);
const OR = new Float64Array(2);
const TK = new Int32Array(4);
let keepCount = 0;

// Direction of the support query (a typed array, not arguments: a double passed to a call that is not
// inlined is boxed on the heap in V8, and this module must not allocate).
const DIR = new Float64Array(3);

// The point of shape `kind` (data at s[o..]) farthest along DIR, into out.
function support(kind: number, s: ArrayLike<number>, o: number, out: Float64Array): void {
  const dx = DIR[0];
  const dy = DIR[1];
  const dz = DIR[2];
  if (kind === GJK_POINT) {
    out[0] = s[o];
    out[1] = s[o + 1];
    out[2] = s[o + 2];
  } else if (kind === GJK_BOX) {
    let x = s[o];
    let y = s[o + 1];
    let z = s[o + 2];
    for (let k = 0; k < 3; k++) {
      const e = o + 3 + 3 * k;
      const h = s[o + 12 + k];
      const d = dx * s[e] + dy * s[e + 1] + dz * s[e + 2];
      const sh = d >= 0 ? h : -h;
      x += sh * s[e];
      y += sh * s[e + 1];
      z += sh * s[e + 2];
    }
    out[0] = x;
    out[1] = y;
    out[2] = z;
  } else {
    let best = o;
    let bd = dx * s[o] + dy * s[o + 1] + dz * s[o + 2];
    const d1 = dx * s[o + 3] + dy * s[o + 4] + dz * s[o + 5];
    if (d1 > bd) {
      bd = d1;
      best = o + 3;
    }
    const d2 = dx * s[o + 6] + dy * s[o + 7] + dz * s[o + 8];
    if (d2 > bd) best = o + 6;
    out[0] = s[best];
    out[1] = s[best + 1];
    out[2] = s[best + 2];
  }
}

/** A point of the shape (its centre or centroid) into out[0..2], to seed the search direction. */
function centreInto(kind: number, s: ArrayLike<number>, o: number, out: Float64Array): void {
  for (let k = 0; k < 3; k++)
    out[k] = kind === GJK_TRIANGLE ? (s[o + k] + s[o + 3 + k] + s[o + 6 + k]) / 3 : s[o + k];
}

// --- closest point of a sub-simplex to the origin (indices into W), result in KEEP/LAM via TK/TL ------

// Segment i–j. Writes the kept vertices (1 or 2) into TK/TL and returns |closest|².
function segment(i: number, j: number): void {
  const ax = W[3 * i];
  const ay = W[3 * i + 1];
  const az = W[3 * i + 2];
  const abx = W[3 * j] - ax;
  const aby = W[3 * j + 1] - ay;
  const abz = W[3 * j + 2] - az;
  const den = abx * abx + aby * aby + abz * abz;
  const num = -(ax * abx + ay * aby + az * abz);
  if (num <= 0 || !(den > 0)) {
    TK[0] = i;
    TL[0] = 1;
    keepCount = 1;
    D2[0] = ax * ax + ay * ay + az * az;
    return;
  }
  if (num >= den) {
    TK[0] = j;
    TL[0] = 1;
    keepCount = 1;
    const bx = W[3 * j];
    const by = W[3 * j + 1];
    const bz = W[3 * j + 2];
    D2[0] = bx * bx + by * by + bz * bz;
    return;
  }
  const t = num / den;
  TK[0] = i;
  TK[1] = j;
  TL[0] = 1 - t;
  TL[1] = t;
  keepCount = 2;
  const x = ax + t * abx;
  const y = ay + t * aby;
  const z = az + t * abz;
  D2[0] = x * x + y * y + z * z;
}

// Triangle i–j–k (Ericson §5.1.5 with p = origin). Writes TK/TL and |closest|² into D2[0].
function triangle(i: number, j: number, k: number): void {
  const ax = W[3 * i];
  const ay = W[3 * i + 1];
  const az = W[3 * i + 2];
  const bx = W[3 * j];
  const by = W[3 * j + 1];
  const bz = W[3 * j + 2];
  const cx = W[3 * k];
  const cy = W[3 * k + 1];
  const cz = W[3 * k + 2];
  const abx = bx - ax;
  const aby = by - ay;
  const abz = bz - az;
  const acx = cx - ax;
  const acy = cy - ay;
  const acz = cz - az;
  const d1 = -(abx * ax + aby * ay + abz * az);
  const d2 = -(acx * ax + acy * ay + acz * az);
  if (d1 <= 0 && d2 <= 0) {
    one(i);
    return;
  }
  const d3 = -(abx * bx + aby * by + abz * bz);
  const d4 = -(acx * bx + acy * by + acz * bz);
  if (d3 >= 0 && d4 <= d3) {
    one(j);
    return;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    segment(i, j);
    return;
  }
  const d5 = -(abx * cx + aby * cy + abz * cz);
  const d6 = -(acx * cx + acy * cy + acz * cz);
  if (d6 >= 0 && d5 <= d6) {
    one(k);
    return;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    segment(i, k);
    return;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    segment(j, k);
    return;
  }
  const sum = va + vb + vc;
  if (!(sum > 1e-300)) {
    // Degenerate (collinear) triangle: the best of its edges.
    segment(i, j);
    let best = D2[0];
    copyT(DEG_KEEP, DEG_LAM);
    let bk = keepCount;
    segment(i, k);
    const d = D2[0];
    if (d < best) {
      best = d;
      copyT(DEG_KEEP, DEG_LAM);
      bk = keepCount;
    }
    segment(j, k);
    if (D2[0] < best) return;
    keepCount = bk;
    for (let m = 0; m < bk; m++) {
      TK[m] = DEG_KEEP[m];
      TL[m] = DEG_LAM[m];
    }
    D2[0] = best;
    return;
  }
  const v = vb / sum;
  const w = vc / sum;
  TK[0] = i;
  TK[1] = j;
  TK[2] = k;
  TL[0] = 1 - v - w;
  TL[1] = v;
  TL[2] = w;
  keepCount = 3;
  const x = ax + v * abx + w * acx;
  const y = ay + v * aby + w * acy;
  const z = az + v * abz + w * acz;
  D2[0] = x * x + y * y + z * z;
}

function one(i: number): void {
  TK[0] = i;
  TL[0] = 1;
  keepCount = 1;
  const x = W[3 * i];
  const y = W[3 * i + 1];
  const z = W[3 * i + 2];
  D2[0] = x * x + y * y + z * z;
}

function copyT(k: Int32Array, l: Float64Array): void {
  for (let m = 0; m < keepCount; m++) {
    k[m] = TK[m];
    l[m] = TL[m];
  }
}

// Signed volume ·6 of (a, b, c, p), p the origin when `p < 0`, else vertex p; written to OR[slot].
function orient(a: number, b: number, c: number, p: number, slot: number): void {
  const ax = W[3 * a];
  const ay = W[3 * a + 1];
  const az = W[3 * a + 2];
  const ux = W[3 * b] - ax;
  const uy = W[3 * b + 1] - ay;
  const uz = W[3 * b + 2] - az;
  const vx = W[3 * c] - ax;
  const vy = W[3 * c + 1] - ay;
  const vz = W[3 * c + 2] - az;
  const px = (p < 0 ? 0 : W[3 * p]) - ax;
  const py = (p < 0 ? 0 : W[3 * p + 1]) - ay;
  const pz = (p < 0 ? 0 : W[3 * p + 2]) - az;
  OR[slot] = px * (uy * vz - uz * vy) + py * (uz * vx - ux * vz) + pz * (ux * vy - uy * vx);
}

// Tetrahedron 0–3: the closest point over the faces the origin lies outside of (|closest|² in D2[0]);
// returns −1 if the origin is inside (the shapes intersect), else 0.
const FACES = [0, 1, 2, 3, 0, 2, 3, 1, 0, 3, 1, 2, 1, 3, 2, 0];

function tetrahedron(): number {
  orient(0, 1, 2, 3, 0);
  const vol = OR[0];
  let scale = 0;
  for (let m = 0; m < 12; m++) scale = Math.max(scale, Math.abs(W[m]));
  const flat = !(Math.abs(vol) > 1e-12 * scale * scale * scale);
  let best = Number.POSITIVE_INFINITY;
  let bk = 0;
  for (let f = 0; f < 4; f++) {
    const a = FACES[4 * f];
    const b = FACES[4 * f + 1];
    const c = FACES[4 * f + 2];
    const d = FACES[4 * f + 3];
    // Origin outside this face: on the other side from the fourth vertex (flat: test every face).
    if (!flat) {
      orient(a, b, c, -1, 0);
      orient(a, b, c, d, 1);
      if (OR[0] * OR[1] >= 0) continue;
    }
    triangle(a, b, c);
    const dist = D2[0];
    if (dist < best) {
      best = dist;
      bk = keepCount;
      copyT(BEST_KEEP, BEST_LAM);
    }
  }
  if (best === Number.POSITIVE_INFINITY) return -1;
  keepCount = bk;
  for (let m = 0; m < bk; m++) {
    TK[m] = BEST_KEEP[m];
    TL[m] = BEST_LAM[m];
  }
  D2[0] = best;
  return 0;
}

// Keeps the TK vertices (weights TL) as the new simplex, sets V.
function reduce(): void {
  for (let m = 0; m < keepCount; m++) KEEP[m] = TK[m];
  // Compact in place; kept indices are increasing except after tetrahedron faces, so copy via scratch.
  for (let m = 0; m < keepCount; m++) {
    const src = KEEP[m];
    for (let q = 0; q < 3; q++) {
      BUF_W[3 * m + q] = W[3 * src + q];
      BUF_A[3 * m + q] = SA[3 * src + q];
      BUF_B[3 * m + q] = SB[3 * src + q];
    }
    LAM[m] = TL[m];
  }
  count = keepCount;
  V[0] = 0;
  V[1] = 0;
  V[2] = 0;
  for (let m = 0; m < count; m++) {
    for (let q = 0; q < 3; q++) {
      W[3 * m + q] = BUF_W[3 * m + q];
      SA[3 * m + q] = BUF_A[3 * m + q];
      SB[3 * m + q] = BUF_B[3 * m + q];
      V[q] += LAM[m] * W[3 * m + q];
    }
  }
}
const BUF_W = new Float64Array(12);
const BUF_A = new Float64Array(12);
const BUF_B = new Float64Array(12);

/**
 * GJK distance between core shape A (`kindA`, data at `a[ao..]`) and B. Returns 1 when they are apart
 * (distance, certified separation, normal and closest points in {@link gjk}) or −1 when they intersect. `hint` (3 numbers, or
 * null) seeds the search direction, e.g. the normal of the previous call on the same pair (frame-to-frame
 * coherence). Inputs are not validated (finite, unit orthonormal box axes assumed).
 */
export function gjkDistance(
  kindA: number,
  a: ArrayLike<number>,
  ao: number,
  kindB: number,
  b: ArrayLike<number>,
  bo: number,
  hint: ArrayLike<number> | null = null,
): number {
  // v starts as a point of A − B: the difference of the centres, or minus the hint (pointing B → A).
  if (hint && hint[0] * hint[0] + hint[1] * hint[1] + hint[2] * hint[2] > 0) {
    V[0] = -hint[0];
    V[1] = -hint[1];
    V[2] = -hint[2];
  } else {
    centreInto(kindA, a, ao, PA);
    centreInto(kindB, b, bo, PB);
    V[0] = PA[0] - PB[0];
    V[1] = PA[1] - PB[1];
    V[2] = PA[2] - PB[2];
    if (!(V[0] * V[0] + V[1] * V[1] + V[2] * V[2] > 0)) {
      V[0] = 1;
      V[1] = 0;
      V[2] = 0;
    }
  }
  count = 0;
  let scale = 0;
  let iter = 0;
  let vv = V[0] * V[0] + V[1] * V[1] + V[2] * V[2];
  for (; iter < MAX_ITERATIONS; iter++) {
    DIR[0] = -V[0];
    DIR[1] = -V[1];
    DIR[2] = -V[2];
    support(kindA, a, ao, PA);
    DIR[0] = V[0];
    DIR[1] = V[1];
    DIR[2] = V[2];
    support(kindB, b, bo, PB);
    const wx = PA[0] - PB[0];
    const wy = PA[1] - PB[1];
    const wz = PA[2] - PB[2];
    scale = Math.max(scale, Math.abs(wx), Math.abs(wy), Math.abs(wz));
    const vw = V[0] * wx + V[1] * wy + V[2] * wz;
    // No further progress possible along v: v is (within tolerance) the closest point.
    if (count > 0 && vv - vw <= 1e-12 * vv) break;
    // A repeated vertex means the simplex cannot improve either.
    let dup = false;
    for (let m = 0; m < count; m++) {
      if (W[3 * m] === wx && W[3 * m + 1] === wy && W[3 * m + 2] === wz) dup = true;
    }
    if (dup) break;
    W[3 * count] = wx;
    W[3 * count + 1] = wy;
    W[3 * count + 2] = wz;
    for (let q = 0; q < 3; q++) {
      SA[3 * count + q] = PA[q];
      SB[3 * count + q] = PB[q];
    }
    count++;
    if (count === 1) one(0);
    else if (count === 2) segment(0, 1);
    else if (count === 3) triangle(0, 1, 2);
    else if (tetrahedron() < 0) return overlap(iter + 1);
    reduce();
    const nv = V[0] * V[0] + V[1] * V[1] + V[2] * V[2];
    if (nv <= 1e-24 * scale * scale) return overlap(iter + 1);
    if (nv >= vv && count > 1) {
      // Rounding stalled the descent: stop here (v is still a point of A − B, the weights match it).
      vv = nv;
      break;
    }
    vv = nv;
  }
  gjk.result[GJK_ITERATIONS] = iter;
  // Closest points from the barycentric weights; the certified separation along n̂ = −v/|v|.
  const len = Math.sqrt(vv);
  const nx = -V[0] / len;
  const ny = -V[1] / len;
  const nz = -V[2] / len;
  gjk.normal[0] = nx;
  gjk.normal[1] = ny;
  gjk.normal[2] = nz;
  for (let q = 0; q < 3; q++) {
    let pa = 0;
    let pb = 0;
    for (let m = 0; m < count; m++) {
      pa += LAM[m] * SA[3 * m + q];
      pb += LAM[m] * SB[3 * m + q];
    }
    gjk.pointA[q] = pa;
    gjk.pointB[q] = pb;
  }
  // The gap between A's support plane along n̂ and B's along −n̂: a lower bound of the distance.
  DIR[0] = nx;
  DIR[1] = ny;
  DIR[2] = nz;
  support(kindA, a, ao, PA);
  DIR[0] = -nx;
  DIR[1] = -ny;
  DIR[2] = -nz;
  support(kindB, b, bo, PB);
  gjk.result[GJK_SEPARATION] = (PB[0] - PA[0]) * nx + (PB[1] - PA[1]) * ny + (PB[2] - PA[2]) * nz;
  gjk.result[GJK_DISTANCE] = len;
  return 1;
}

function overlap(iterations: number): number {
  gjk.result[GJK_ITERATIONS] = iterations;
  gjk.result[GJK_SEPARATION] = 0;
  gjk.result[GJK_DISTANCE] = 0;
  return -1;
}
