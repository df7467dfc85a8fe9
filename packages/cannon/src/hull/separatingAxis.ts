/**
 * cannon-es 0.20.0's `ConvexPolyhedron.findSeparatingAxis` (with its `testSepAxis` and `project`),
 * giving the same answer bit for bit — the same separating verdict, the same axis — with less work.
 *
 * cannon tests, in order, the world face normals of A (or A's unique axes), those of B, and the
 * normalised cross product of every pair of unique edges (skipping near-zero ones); each test projects
 * both hulls' local vertices on the axis turned into each hull's frame (`min`/`max` of the dot products,
 * minus the frame origin's), returns "separated" at once if the intervals miss each other, and keeps
 * the axis of least overlap `min(maxA − minB, maxB − minA)` with a strict `<` (the first minimum wins).
 * The axis finally points from B to A (`(posB − posA)·axis > 0` flips it).
 *
 * Every projection this module computes runs cannon's operations in cannon's order, so its numbers
 * are cannon's. What it does not compute, and why that cannot change the answer:
 *
 * 1. Twin edge axes. cannon keeps both directions of each edge (`twin` in the hull data). The axis of
 *    (−a, b) is the exact negation of that of (a, b), component for component (negation commutes with
 *    every rounded product and sum in the cross product, the normalisation and `vmult`), so its
 *    projections are the negated intervals: `maxA(−n) = −minA(n)`, and its overlap `min(d0, d1)` is the
 *    same number with d0 and d1 swapped. It comes later in cannon's order than its twin (the loops meet
 *    the lowest index of each pair first), so it can only tie the running minimum (strict `<`: no win)
 *    and it separates only if the twin did (and cannon had returned there).
 * 2. Axes with a certified overlap that cannot win. For an axis n, any vertex a of A and b of B give
 *    maxA ≥ n·a and minB ≤ n·b, so `maxA − minB ≥ n·(a − b)`, and likewise for `maxB − minA`: a lower
 *    bound L of the overlap from two support-vertex guesses per hull (a cube map of support vertices,
 *    the hull-data module), minus a margin covering rounding and a quaternion's distance from unit length. If
 *    L > 0 the axis does not separate. If moreover L ≥ the running minimum, its overlap cannot be
 *    strictly less (ties included). If L > d*, the overlap of a probe axis that is also one of cannon's
 *    axes (tested first, exactly), the axis cannot be the first minimum m ≤ d* either. A skipped axis
 *    never changed cannon's running minimum or verdict, and the first axis reaching the minimum m is
 *    never skipped (its L ≤ m ≤ d*, and m is below the running minimum before it), so it is found, and
 *    every axis before it keeps a larger running minimum: the same axis wins.
 * 3. Anything after a separating axis: "separated" does not depend on which axis separates, so a probe
 *    that separates answers at once.
 *
 * Computed once per pair instead of per axis (the pair-frame module): world normals and edges, frame origins.
 */
import { type HullData, oppositeCell, supportCell } from './hullData.js';
import { CONJUGATE, loadEdges, pair, rotate, W_NEGATED } from './pairFrame.js';

/** The axis found by {@link separatingAxis} (x, y, z). */
export const separatingAxisOut = new Float64Array(3);

const L = new Float64Array(3);

let hullA: HullData;
let hullB: HullData;

/**
 * Numbers shared by the helpers below (typed-array slots: module-level `let` doubles would box):
 * raw max and min of a hull's vertex projections (0, 1), guessed extents of A and B (2–5), the running
 * minimum overlap (6), the probes' overlap d* (7) and the last overlap computed (8).
 */
const S = new Float64Array(9);

/** Projects the n vertices V on the local axis in L (raw max and min into S[0], S[1]). */
function projectHull(V: Float64Array, n: number): void {
  const lx = L[0];
  const ly = L[1];
  const lz = L[2];
  // cannon's `project`: min = max = vs[0]·axis, then each further vertex.
  let max = V[0] * lx + V[1] * ly + V[2] * lz;
  let min = max;
  const end = 3 * n;
  for (let k = 3; k < end; k += 3) {
    const val = V[k] * lx + V[k + 1] * ly + V[k + 2] * lz;
    if (val > max) max = val;
    if (val < min) min = val;
  }
  S[0] = max;
  S[1] = min;
}

/**
 * cannon's `testSepAxis` of the pair loaded in `pair` on the world axis AX[0..2]: false when the
 * projections are apart, else true with the overlap in S[8].
 */
function overlapOn(): boolean {
  const q = pair.q;
  const o = pair.origin;
  // Transform.vectorToLocalFrame: vmult by the quaternion with w negated (`w *= -1`).
  rotate(q, 0, W_NEGATED, AX, 0, L, 0);
  let add = o[0] * L[0] + o[1] * L[1] + o[2] * L[2];
  projectHull(hullA.verts, hullA.nv);
  let minA = S[1] - add;
  let maxA = S[0] - add;
  if (minA > maxA) {
    const t = minA;
    minA = maxA;
    maxA = t;
  }
  rotate(q, 4, W_NEGATED, AX, 0, L, 0);
  add = o[3] * L[0] + o[4] * L[1] + o[5] * L[2];
  projectHull(hullB.verts, hullB.nv);
  let minB = S[1] - add;
  let maxB = S[0] - add;
  if (minB > maxB) {
    const t = minB;
    minB = maxB;
    maxB = t;
  }
  if (maxA < minB || maxB < minA) return false;
  const d0 = maxA - minB;
  const d1 = maxB - minA;
  // biome-ignore lint/complexity/useMathMinMax: cannon's own expression (Math.min treats -0 differently).
  S[8] = d0 < d1 ? d0 : d1;
  return true;
}

/**
 * The axis at hand: world n (0–2), its direction in A's frame (3–5) and in B's (6–8), any length. The
 * helpers read it from here rather than from arguments, which would box the numbers in calls V8 does
 * not inline.
 */
const AX = new Float64Array(9);

/** Extent of hull H's world vertices W along the axis, guessed at its direction in H's frame (AX[l]). */
function guess(H: HullData, W: Float64Array, l: number, o: number): void {
  const nx = AX[0];
  const ny = AX[1];
  const nz = AX[2];
  const map = H.support;
  if (map !== null) {
    const cell = supportCell(AX, l);
    let k = 3 * map[cell];
    S[o] = W[k] * nx + W[k + 1] * ny + W[k + 2] * nz;
    k = 3 * map[oppositeCell(cell)];
    S[o + 1] = W[k] * nx + W[k + 1] * ny + W[k + 2] * nz;
    return;
  }
  // Small hulls: every vertex (the exact extent, up to rounding).
  let max = W[0] * nx + W[1] * ny + W[2] * nz;
  let min = max;
  const end = 3 * H.nv;
  for (let k = 3; k < end; k += 3) {
    const v = W[k] * nx + W[k + 1] * ny + W[k + 2] * nz;
    if (v > max) max = v;
    else if (v < min) min = v;
  }
  S[o] = max;
  S[o + 1] = min;
}

/**
 * Whether the axis in AX provably cannot change cannon's answer: a lower bound of the overlap cannon
 * would compute on it (support guesses, minus the margin) that is positive and at least the running
 * minimum, or above the probes' d* (see the module comment, 2).
 */
function skippable(): boolean {
  guess(hullA, pair.vertsA, 3, 2);
  guess(hullB, pair.vertsB, 6, 4);
  const d0 = S[2] - S[5];
  const d1 = S[4] - S[3];
  const bound = Math.min(d0, d1) - pair.margin[0];
  return bound > 0 && (bound > S[7] || bound >= S[6]);
}

/** Tests the axis in AX[0..2] as cannon does: false when it separates; keeps it if its overlap is least. */
function test(): boolean {
  if (!overlapOn()) return false;
  const d = S[8];
  if (d < S[6]) {
    S[6] = d;
    separatingAxisOut[0] = AX[0];
    separatingAxisOut[1] = AX[1];
    separatingAxisOut[2] = AX[2];
  }
  return true;
}

/**
 * A probe of {@link separatingAxis}: of the `n` axes of `N` (world; those of `list`, or all), the one
 * whose projection on `sign·(posB − posA)` is largest (its absolute value for unique `axes`) goes into
 * AX and is tested: -1 when there is none, 0 when it separates, 1 with its overlap in S[8].
 */
function probe(
  N: Float64Array,
  n: number,
  list: ArrayLike<number> | null | undefined,
  axes: boolean,
  sign: number,
): number {
  const p = pair.p;
  const dx = p[3] - p[0];
  const dy = p[4] - p[1];
  const dz = p[5] - p[2];
  let best = -1;
  let bestDot = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const k = 3 * (list ? list[i] : i);
    let d = sign * (N[k] * dx + N[k + 1] * dy + N[k + 2] * dz);
    if (axes) d = Math.abs(d);
    if (d > bestDot) {
      bestDot = d;
      best = k;
    }
  }
  if (best < 0) return -1;
  AX[0] = N[best];
  AX[1] = N[best + 1];
  AX[2] = N[best + 2];
  return overlapOn() ? 1 : 0;
}

/**
 * The face normals (or unique axes) of hull `H` as cannon tests them: the world axes `N` (those of
 * `list`, or all `n`), with, for the bounds, the local axis in AX at `lo` (3 for A, 6 for B) and the
 * world axis turned by the conjugate of the other hull's quaternion (at `qo` of the pair's) in the
 * other slot. False as soon as one separates.
 */
function faceAxes(
  H: HullData,
  N: Float64Array,
  n: number,
  list: ArrayLike<number> | null | undefined,
  lo: number,
  qo: number,
): boolean {
  const local = H.na >= 0 ? H.axes : H.normals;
  for (let i = 0; i < n; i++) {
    const k = 3 * (list ? list[i] : i);
    AX[0] = N[k];
    AX[1] = N[k + 1];
    AX[2] = N[k + 2];
    if (pair.bounds) {
      AX[lo] = local[k];
      AX[lo + 1] = local[k + 1];
      AX[lo + 2] = local[k + 2];
      rotate(pair.q, qo, CONJUGATE, AX, 0, AX, 9 - lo);
      if (skippable()) continue;
    }
    if (!test()) return false;
  }
  return true;
}

/**
 * cannon's `findSeparatingAxis` of A and B as loaded by `loadPair` (with cannon's optional face lists):
 * 1 with the axis in {@link separatingAxisOut}, 0 when an axis separates them, or -1 when no axis was
 * tested (cannon would go on with a stale axis: left to cannon's own code).
 */
export function separatingAxis(
  A: HullData,
  B: HullData,
  faceListA: ArrayLike<number> | null | undefined,
  faceListB: ArrayLike<number> | null | undefined,
): number {
  hullA = A;
  hullB = B;
  const P = pair;
  const bounds = P.bounds;
  const dx = P.p[3] - P.p[0];
  const dy = P.p[4] - P.p[1];
  const dz = P.p[5] - P.p[2];
  S[6] = Number.MAX_VALUE;
  S[7] = Number.POSITIVE_INFINITY;
  const nA = A.na >= 0 ? A.na : faceListA ? faceListA.length : A.nf;
  const nB = B.na >= 0 ? B.na : faceListB ? faceListB.length : B.nf;
  const NA = A.na >= 0 ? P.axesA : P.normalsA;
  const NB = B.na >= 0 ? P.axesB : P.normalsB;
  const listA = A.na >= 0 ? null : faceListA;
  const listB = B.na >= 0 ? null : faceListB;
  if (bounds) {
    // Probes: A's axis most along B − A, B's most against it (faces) or most along it (axes, either sign).
    const r = probe(NA, nA, listA, A.na >= 0, 1);
    if (r === 0) return 0;
    if (r > 0) S[7] = S[8];
    const t = probe(NB, nB, listB, B.na >= 0, -1);
    if (t === 0) return 0;
    if (t > 0 && S[8] < S[7]) S[7] = S[8];
  }
  // A's face normals (or unique axes), then B's.
  if (!faceAxes(A, NA, nA, listA, 3, 4) || !faceAxes(B, NB, nB, listB, 6, 0)) return 0;
  // Edge pairs.
  if (A.ne > 0 && B.ne > 0) {
    loadEdges(A, B);
    const EA = P.edgesA;
    const EB = P.edgesB;
    const LA = A.edges;
    const LB = B.edges;
    const BinA = P.edgesBinA;
    const AinB = P.edgesAinB;
    for (let e0 = 0; e0 < A.ne; e0++) {
      if (A.twin[e0] !== e0) continue;
      const k0 = 3 * e0;
      const x = EA[k0];
      const y = EA[k0 + 1];
      const z = EA[k0 + 2];
      for (let e1 = 0; e1 < B.ne; e1++) {
        if (B.twin[e1] !== e1) continue;
        const k1 = 3 * e1;
        const vx = EB[k1];
        const vy = EB[k1 + 1];
        const vz = EB[k1 + 2];
        // Vec3.cross, almostZero (1e-6) and normalize, as cannon does them.
        let cx = y * vz - z * vy;
        let cy = z * vx - x * vz;
        let cz = x * vy - y * vx;
        if (Math.abs(cx) <= 1e-6 && Math.abs(cy) <= 1e-6 && Math.abs(cz) <= 1e-6) continue;
        const len = Math.sqrt(cx * cx + cy * cy + cz * cz);
        if (len > 0) {
          const inv = 1 / len;
          cx *= inv;
          cy *= inv;
          cz *= inv;
        } else {
          cx = 0;
          cy = 0;
          cz = 0;
        }
        AX[0] = cx;
        AX[1] = cy;
        AX[2] = cz;
        if (bounds) {
          // The axis direction in each frame: (A's local edge × B's edge in A's frame), and back.
          const ax = LA[k0];
          const ay = LA[k0 + 1];
          const az = LA[k0 + 2];
          const bx = BinA[k1];
          const by = BinA[k1 + 1];
          const bz = BinA[k1 + 2];
          const px = AinB[k0];
          const py = AinB[k0 + 1];
          const pz = AinB[k0 + 2];
          const ux = LB[k1];
          const uy = LB[k1 + 1];
          const uz = LB[k1 + 2];
          AX[3] = ay * bz - az * by;
          AX[4] = az * bx - ax * bz;
          AX[5] = ax * by - ay * bx;
          AX[6] = py * uz - pz * uy;
          AX[7] = pz * ux - px * uz;
          AX[8] = px * uy - py * ux;
          if (skippable()) continue;
        }
        if (!test()) return 0;
      }
    }
  }
  if (S[6] === Number.MAX_VALUE) return -1;
  const t = separatingAxisOut;
  if (dx * t[0] + dy * t[1] + dz * t[2] > 0.0) {
    t[0] = -t[0];
    t[1] = -t[1];
    t[2] = -t[2];
  }
  return 1;
}
