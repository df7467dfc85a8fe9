/**
 * OBB–OBB (and OBB–AABB) overlap by the separating-axis theorem, and the contact of least penetration.
 *
 * Follows the Project Oort collision write-up (the 15 axes: the three face normals of each box and the
 * nine cross products of an edge of one with an edge of the other) and the hard-rigid-body event-driven
 * MD paper §3.3.3 (the same 15 directions for two parallelepipeds; note that the boxes overlap iff their
 * projections overlap on *every* direction — one separated pair of intervals is enough to separate the
 * boxes). The projections use the rotation R_ij = a_i·b_j between the boxes as in Gottschalk's RAPID and
 * Ericson's *Real-Time Collision Detection* §4.4.1, instead of projecting 8 corners per axis as the
 * write-up does. (Sources: `docs/references.md`.)
 *
 * Parallel edges: when a_i ∥ b_j the cross product vanishes and rounding noise would decide; adding
 * `epsilon` (default 1e-6) to every |R_ij| makes those axes harmless (they can no longer report a false
 * separation) at the cost of a conservative band: boxes separated by less than about epsilon × (sum of
 * the half extents) may be reported as overlapping. It also absorbs axes that are orthonormal only to
 * ~epsilon (float32 storage). Never the other way: overlapping boxes are never reported as separated.
 *
 * Contact: normal (unit, from A towards B) and depth of the axis of least penetration, face axes preferred
 * unless an edge–edge axis is clearly (5 %) shallower, and a representative point: midway between the
 * deepest feature of the other box (clamped to the reference face) and the reference face; for edge–edge,
 * midway between the closest points of the two supporting edges. It is one point, not a full manifold.
 * Layout `[nx, ny, nz, depth, px, py, pz]` (2-D: `[nx, ny, depth, px, py]`), as the sphere contacts.
 *
 * Any finite magnitude: the checked functions first scale boxes whose centres or extents pass 2^1000
 * by 2^-8 (exact: a power of two), so no centre difference or sum of extents overflows to Infinity or
 * NaN (which would make no axis separate), and scale depths and points back.
 */

import { checkLength, checkMinMax } from '../math/checks.js';
import { checkObb, checkObb2, OBB_SIZE } from '../math/obb.js';
import { clamp, type WritableArrayLike } from '../math/vec3.js';

/** Default slack added to |R_ij| in the separating-axis tests (see the module comment). */
export const SAT_EPSILON = 1e-6;

/** Centres or extents past this are scaled by {@link DOWN} before the tests. */
const HUGE = 2 ** 1000;
const DOWN = 2 ** -8;
const SA = new Float64Array(OBB_SIZE);
const SB = new Float64Array(OBB_SIZE);

// Whether the OBB at x[xo..] (`dim`-D layout) has a centre coordinate or extent past HUGE.
function huge(x: ArrayLike<number>, xo: number, dim: number): boolean {
  let big = false;
  for (let i = 0; i < dim; i++) {
    if (Math.abs(x[xo + i]) > HUGE || x[xo + dim + dim * dim + i] > HUGE) big = true;
  }
  return big;
}

// Copies the OBB at x[xo..] to `to` with centre and extents times DOWN (axes as they are).
function scaledCopy(x: ArrayLike<number>, xo: number, dim: number, to: Float64Array): Float64Array {
  const n = dim + dim * dim + dim;
  for (let i = 0; i < n; i++) {
    const axis = i >= dim && i < dim + dim * dim;
    to[i] = axis ? x[xo + i] : x[xo + i] * DOWN;
  }
  return to;
}

// Scales a contact's depth and point back up after a test on scaled boxes.
function scaleContactBack(out: WritableArrayLike, oo: number, dim: number): void {
  for (let i = dim; i <= 2 * dim; i++) out[oo + i] /= DOWN;
}

const Rm = new Float64Array(9);
const AbsR = new Float64Array(9);
const T = new Float64Array(3);

// Fills Rm (a_i·b_j), AbsR (+eps) and T (centre difference in A's frame).
function setup(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, eps: number): void {
  for (let i = 0; i < 3; i++) {
    const ai = ao + 3 + 3 * i;
    for (let j = 0; j < 3; j++) {
      const bj = bo + 3 + 3 * j;
      const r = a[ai] * b[bj] + a[ai + 1] * b[bj + 1] + a[ai + 2] * b[bj + 2];
      Rm[3 * i + j] = r;
      AbsR[3 * i + j] = Math.abs(r) + eps;
    }
  }
  const dx = b[bo] - a[ao];
  const dy = b[bo + 1] - a[ao + 1];
  const dz = b[bo + 2] - a[ao + 2];
  for (let i = 0; i < 3; i++) {
    const ai = ao + 3 + 3 * i;
    T[i] = dx * a[ai] + dy * a[ai + 1] + dz * a[ai + 2];
  }
}

/**
 * Separation test over the 15 axes on the prepared Rm/AbsR/T. Returns -1 when the boxes overlap, else the
 * index (0–14) of the first separating axis.
 */
function separatingAxis(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const a0 = a[ao + 12];
  const a1 = a[ao + 13];
  const a2 = a[ao + 14];
  const b0 = b[bo + 12];
  const b1 = b[bo + 13];
  const b2 = b[bo + 14];
  const t0 = T[0];
  const t1 = T[1];
  const t2 = T[2];
  // A's face axes
  if (Math.abs(t0) > a0 + b0 * AbsR[0] + b1 * AbsR[1] + b2 * AbsR[2]) return 0;
  if (Math.abs(t1) > a1 + b0 * AbsR[3] + b1 * AbsR[4] + b2 * AbsR[5]) return 1;
  if (Math.abs(t2) > a2 + b0 * AbsR[6] + b1 * AbsR[7] + b2 * AbsR[8]) return 2;
  // B's face axes
  if (Math.abs(t0 * Rm[0] + t1 * Rm[3] + t2 * Rm[6]) > a0 * AbsR[0] + a1 * AbsR[3] + a2 * AbsR[6] + b0)
    return 3;
  if (Math.abs(t0 * Rm[1] + t1 * Rm[4] + t2 * Rm[7]) > a0 * AbsR[1] + a1 * AbsR[4] + a2 * AbsR[7] + b1)
    return 4;
  if (Math.abs(t0 * Rm[2] + t1 * Rm[5] + t2 * Rm[8]) > a0 * AbsR[2] + a1 * AbsR[5] + a2 * AbsR[8] + b2)
    return 5;
  // A0 × B0, B1, B2
  if (Math.abs(t2 * Rm[3] - t1 * Rm[6]) > a1 * AbsR[6] + a2 * AbsR[3] + b1 * AbsR[2] + b2 * AbsR[1]) return 6;
  if (Math.abs(t2 * Rm[4] - t1 * Rm[7]) > a1 * AbsR[7] + a2 * AbsR[4] + b0 * AbsR[2] + b2 * AbsR[0]) return 7;
  if (Math.abs(t2 * Rm[5] - t1 * Rm[8]) > a1 * AbsR[8] + a2 * AbsR[5] + b0 * AbsR[1] + b1 * AbsR[0]) return 8;
  // A1 × B0, B1, B2
  if (Math.abs(t0 * Rm[6] - t2 * Rm[0]) > a0 * AbsR[6] + a2 * AbsR[0] + b1 * AbsR[5] + b2 * AbsR[4]) return 9;
  if (Math.abs(t0 * Rm[7] - t2 * Rm[1]) > a0 * AbsR[7] + a2 * AbsR[1] + b0 * AbsR[5] + b2 * AbsR[3])
    return 10;
  if (Math.abs(t0 * Rm[8] - t2 * Rm[2]) > a0 * AbsR[8] + a2 * AbsR[2] + b0 * AbsR[4] + b1 * AbsR[3])
    return 11;
  // A2 × B0, B1, B2
  if (Math.abs(t1 * Rm[0] - t0 * Rm[3]) > a0 * AbsR[3] + a1 * AbsR[0] + b1 * AbsR[8] + b2 * AbsR[7])
    return 12;
  if (Math.abs(t1 * Rm[1] - t0 * Rm[4]) > a0 * AbsR[4] + a1 * AbsR[1] + b0 * AbsR[8] + b2 * AbsR[6])
    return 13;
  if (Math.abs(t1 * Rm[2] - t0 * Rm[5]) > a0 * AbsR[5] + a1 * AbsR[2] + b0 * AbsR[7] + b1 * AbsR[6])
    return 14;
  return -1;
}

/**
 * OBB–OBB overlap without argument checks, for hot loops (BVH traversal): OBBs in the shared 15-number
 * layout at `a[ao..]` and `b[bo..]`, assumed finite with unit orthonormal axes and extents ≥ 0.
 */
export function obbObbOverlapUnchecked(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  epsilon = SAT_EPSILON,
): boolean {
  setup(a, ao, b, bo, epsilon);
  return separatingAxis(a, ao, b, bo) < 0;
}

function checkEpsilon(fn: string, epsilon: number): void {
  if (!(epsilon >= 0 && epsilon < 1))
    throw new RangeError(`${fn}: epsilon must be in [0, 1), got ${String(epsilon)}`);
}

/**
 * Do the OBBs at `a[ao..]` and `b[bo..]` (15-number layout) overlap? Touching counts as overlap. Throws on
 * an invalid OBB (non-finite, negative extent, axes not orthonormal within 1e-5).
 */
export function obbObbOverlap(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  ao = 0,
  bo = 0,
  epsilon = SAT_EPSILON,
): boolean {
  const fn = 'obbObbOverlap';
  checkObb(a, ao, 'a', undefined, fn);
  checkObb(b, bo, 'b', undefined, fn);
  checkEpsilon(fn, epsilon);
  if (huge(a, ao, 3) || huge(b, bo, 3))
    return obbObbOverlapUnchecked(scaledCopy(a, ao, 3, SA), 0, scaledCopy(b, bo, 3, SB), 0, epsilon);
  return obbObbOverlapUnchecked(a, ao, b, bo, epsilon);
}

const AB = new Float64Array(OBB_SIZE);

function aabbAsObb(fn: string, min: ArrayLike<number>, max: ArrayLike<number>): Float64Array {
  checkMinMax(fn, min, max, 3);
  for (let i = 0; i < 3; i++) {
    // Halves first: min + max and max − min may overflow.
    AB[i] = 0.5 * min[i] + 0.5 * max[i];
    AB[12 + i] = 0.5 * max[i] - 0.5 * min[i];
  }
  for (let i = 0; i < 9; i++) AB[3 + i] = i % 4 === 0 ? 1 : 0;
  return AB;
}

/** Does the OBB at `obb[oo..]` overlap the axis-aligned box [`min`, `max`]? */
export function obbAabbOverlap(
  obb: ArrayLike<number>,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  oo = 0,
  epsilon = SAT_EPSILON,
): boolean {
  const fn = 'obbAabbOverlap';
  checkObb(obb, oo, 'obb', undefined, fn);
  checkEpsilon(fn, epsilon);
  const box = aabbAsObb(fn, min, max);
  if (huge(obb, oo, 3) || huge(box, 0, 3))
    return obbObbOverlapUnchecked(scaledCopy(box, 0, 3, SA), 0, scaledCopy(obb, oo, 3, SB), 0, epsilon);
  return obbObbOverlapUnchecked(box, 0, obb, oo, epsilon);
}

// --- contact --------------------------------------------------------------------------------------------

const L = new Float64Array(3);
const Pt = new Float64Array(3);
const Q = new Float64Array(3);

// Writes candidate axis k (0–2: A's faces, 3–5: B's, 6–14: A_i × B_j normalized) to L; false when the
// cross product is degenerate (parallel edges).
function candidateAxis(
  k: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): boolean {
  if (k < 6) {
    const e = k < 3 ? ao + 3 + 3 * k : bo + 3 + 3 * (k - 3);
    const src = k < 3 ? a : b;
    L[0] = src[e];
    L[1] = src[e + 1];
    L[2] = src[e + 2];
    return true;
  }
  const ea = ao + 3 + 3 * (((k - 6) / 3) | 0);
  const eb = bo + 3 + 3 * ((k - 6) % 3);
  const cx = a[ea + 1] * b[eb + 2] - a[ea + 2] * b[eb + 1];
  const cy = a[ea + 2] * b[eb] - a[ea] * b[eb + 2];
  const cz = a[ea] * b[eb + 1] - a[ea + 1] * b[eb];
  const len = Math.hypot(cx, cy, cz);
  if (len < 1e-6) return false;
  L[0] = cx / len;
  L[1] = cy / len;
  L[2] = cz / len;
  return true;
}

// Support-feature centroid of box `b` in direction sign·n (σ_j = sign(n·b_j), 0 when nearly perpendicular).
function featureCentroid(
  b: ArrayLike<number>,
  bo: number,
  nx: number,
  ny: number,
  nz: number,
  sign: number,
  out: Float64Array,
): void {
  out[0] = b[bo];
  out[1] = b[bo + 1];
  out[2] = b[bo + 2];
  for (let j = 0; j < 3; j++) {
    const k = bo + 3 + 3 * j;
    const d = sign * (nx * b[k] + ny * b[k + 1] + nz * b[k + 2]);
    const s = d > 1e-6 ? 1 : d < -1e-6 ? -1 : 0;
    const h = s * b[bo + 12 + j];
    out[0] += h * b[k];
    out[1] += h * b[k + 1];
    out[2] += h * b[k + 2];
  }
}

// Clamps point p into the face of box `f` whose axis is `k` (tangent coordinates clamped to the extents).
function clampToFace(f: ArrayLike<number>, fo: number, k: number, p: Float64Array): void {
  const dx = p[0] - f[fo];
  const dy = p[1] - f[fo + 1];
  const dz = p[2] - f[fo + 2];
  for (let j = 0; j < 3; j++) {
    if (j === k) continue;
    const e = fo + 3 + 3 * j;
    const c = dx * f[e] + dy * f[e + 1] + dz * f[e + 2];
    const h = f[fo + 12 + j];
    const cl = clamp(c, -h, h);
    if (cl !== c) {
      const m = cl - c;
      p[0] += m * f[e];
      p[1] += m * f[e + 1];
      p[2] += m * f[e + 2];
    }
  }
}

// Centre of box `x`'s edge parallel to axis `i` that supports direction sign·n.
function edgeCenter(
  x: ArrayLike<number>,
  xo: number,
  i: number,
  nx: number,
  ny: number,
  nz: number,
  sign: number,
  out: Float64Array,
): void {
  out[0] = x[xo];
  out[1] = x[xo + 1];
  out[2] = x[xo + 2];
  for (let j = 0; j < 3; j++) {
    if (j === i) continue;
    const k = xo + 3 + 3 * j;
    const d = sign * (nx * x[k] + ny * x[k + 1] + nz * x[k + 2]);
    const h = (d >= 0 ? 1 : -1) * x[xo + 12 + j];
    out[0] += h * x[k];
    out[1] += h * x[k + 1];
    out[2] += h * x[k + 2];
  }
}

/**
 * OBB–OBB contact: writes `[nx, ny, nz, depth, px, py, pz]` to `out[oo..]` (normal from A towards B) and
 * returns whether the boxes overlap. When they do not, the record holds the axis of largest separation
 * with a negative depth (minus the gap along that axis) and the point is left at B's centre.
 */
export function obbObbContact(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  out: WritableArrayLike,
  ao = 0,
  bo = 0,
  oo = 0,
  epsilon = SAT_EPSILON,
): boolean {
  const fn = 'obbObbContact';
  checkObb(a, ao, 'a', undefined, fn);
  checkObb(b, bo, 'b', undefined, fn);
  checkEpsilon(fn, epsilon);
  checkLength(fn, 'out', out, 7, oo);
  if (huge(a, ao, 3) || huge(b, bo, 3)) {
    const hit = contactUnchecked(scaledCopy(a, ao, 3, SA), 0, scaledCopy(b, bo, 3, SB), 0, out, oo, epsilon);
    scaleContactBack(out, oo, 3);
    return hit;
  }
  return contactUnchecked(a, ao, b, bo, out, oo, epsilon);
}

/** OBB–AABB contact (normal from the OBB towards the box [`min`, `max`]); see {@link obbObbContact}. */
export function obbAabbContact(
  obb: ArrayLike<number>,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  out: WritableArrayLike,
  oo = 0,
  outOffset = 0,
  epsilon = SAT_EPSILON,
): boolean {
  const fn = 'obbAabbContact';
  checkObb(obb, oo, 'obb', undefined, fn);
  checkEpsilon(fn, epsilon);
  checkLength(fn, 'out', out, 7, outOffset);
  const box = aabbAsObb(fn, min, max);
  if (huge(obb, oo, 3) || huge(box, 0, 3)) {
    const hit = contactUnchecked(
      scaledCopy(obb, oo, 3, SA),
      0,
      scaledCopy(box, 0, 3, SB),
      0,
      out,
      outOffset,
      epsilon,
    );
    scaleContactBack(out, outOffset, 3);
    return hit;
  }
  return contactUnchecked(obb, oo, box, 0, out, outOffset, epsilon);
}

function contactUnchecked(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  out: WritableArrayLike,
  oo: number,
  eps: number,
): boolean {
  setup(a, ao, b, bo, eps);
  const overlap = separatingAxis(a, ao, b, bo) < 0;
  const dx = b[bo] - a[ao];
  const dy = b[bo + 1] - a[ao + 1];
  const dz = b[bo + 2] - a[ao + 2];
  let bestFace = Number.POSITIVE_INFINITY;
  let faceAxis = -1;
  let bestEdge = Number.POSITIVE_INFINITY;
  let edgeAxis = -1;
  // Depth along each candidate unit axis L: (ra + rb) − |d·L|; computed from world vectors for clarity.
  for (let k = 0; k < 15; k++) {
    if (!candidateAxis(k, a, ao, b, bo)) continue; // parallel edges: this axis repeats a face axis
    let ra = 0;
    let rb = 0;
    for (let j = 0; j < 3; j++) {
      const ea = ao + 3 + 3 * j;
      const eb = bo + 3 + 3 * j;
      ra += a[ao + 12 + j] * Math.abs(L[0] * a[ea] + L[1] * a[ea + 1] + L[2] * a[ea + 2]);
      rb += b[bo + 12 + j] * Math.abs(L[0] * b[eb] + L[1] * b[eb + 1] + L[2] * b[eb + 2]);
    }
    const depth = ra + rb - Math.abs(dx * L[0] + dy * L[1] + dz * L[2]);
    if (k < 6) {
      if (depth < bestFace) {
        bestFace = depth;
        faceAxis = k;
      }
    } else if (depth < bestEdge) {
      bestEdge = depth;
      edgeAxis = k;
    }
  }
  // Prefer a face axis unless an edge axis is clearly shallower (stable normals for resting boxes).
  const useEdge = edgeAxis >= 0 && (overlap ? bestEdge < 0.95 * bestFace - 1e-12 : bestEdge < bestFace);
  const axis = useEdge ? edgeAxis : faceAxis;
  let depth = useEdge ? bestEdge : bestFace;
  if (overlap && depth < 0) depth = 0; // inside the epsilon band: touching
  // The chosen unit axis again, oriented from A to B.
  candidateAxis(axis, a, ao, b, bo);
  if (dx * L[0] + dy * L[1] + dz * L[2] < 0) {
    L[0] = 0 - L[0]; // 0 − x rather than −x: no −0 components
    L[1] = 0 - L[1];
    L[2] = 0 - L[2];
  }
  const nx = L[0];
  const ny = L[1];
  const nz = L[2];
  out[oo] = nx;
  out[oo + 1] = ny;
  out[oo + 2] = nz;
  out[oo + 3] = depth;
  if (!overlap) {
    out[oo + 4] = b[bo];
    out[oo + 5] = b[bo + 1];
    out[oo + 6] = b[bo + 2];
    return false;
  }
  const half = 0.5 * depth;
  if (axis < 3) {
    featureCentroid(b, bo, nx, ny, nz, -1, Pt); // B's deepest feature
    clampToFace(a, ao, axis, Pt);
    Pt[0] += half * nx;
    Pt[1] += half * ny;
    Pt[2] += half * nz;
  } else if (axis < 6) {
    featureCentroid(a, ao, nx, ny, nz, 1, Pt); // A's deepest feature
    clampToFace(b, bo, axis - 3, Pt);
    Pt[0] -= half * nx;
    Pt[1] -= half * ny;
    Pt[2] -= half * nz;
  } else {
    const i = ((axis - 6) / 3) | 0;
    const j = (axis - 6) % 3;
    edgeCenter(a, ao, i, nx, ny, nz, 1, Pt);
    edgeCenter(b, bo, j, nx, ny, nz, -1, Q);
    // closest points of the lines Pt + s·u and Q + t·v (u, v unit, not parallel here)
    const ea = ao + 3 + 3 * i;
    const eb = bo + 3 + 3 * j;
    const ux = a[ea];
    const uy = a[ea + 1];
    const uz = a[ea + 2];
    const vx = b[eb];
    const vy = b[eb + 1];
    const vz = b[eb + 2];
    const wx = Pt[0] - Q[0];
    const wy = Pt[1] - Q[1];
    const wz = Pt[2] - Q[2];
    const uv = ux * vx + uy * vy + uz * vz;
    const uw = ux * wx + uy * wy + uz * wz;
    const vw = vx * wx + vy * wy + vz * wz;
    const den = 1 - uv * uv;
    const ha = a[ao + 12 + i];
    const hb = b[bo + 12 + j];
    let s = den > 1e-12 ? (uv * vw - uw) / den : 0;
    s = clamp(s, -ha, ha);
    let t = vw + uv * s;
    t = clamp(t, -hb, hb);
    Pt[0] = 0.5 * (Pt[0] + s * ux + Q[0] + t * vx);
    Pt[1] = 0.5 * (Pt[1] + s * uy + Q[1] + t * vy);
    Pt[2] = 0.5 * (Pt[2] + s * uz + Q[2] + t * vz);
  }
  out[oo + 4] = Pt[0];
  out[oo + 5] = Pt[1];
  out[oo + 6] = Pt[2];
  return true;
}

// --- 2-D ---------------------------------------------------------------------------------------------------

/**
 * 2-D OBB–OBB overlap (8-number layout, 4 axes: the two face normals of each box). Touching counts.
 * Unchecked: inputs assumed valid.
 */
export function obbObbOverlap2DUnchecked(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): boolean {
  return sat2(a, ao, b, bo, null, 0);
}

/** 2-D OBB–OBB overlap with argument checks (see {@link obbObbOverlap}). */
export function obbObbOverlap2D(a: ArrayLike<number>, b: ArrayLike<number>, ao = 0, bo = 0): boolean {
  const fn = 'obbObbOverlap2D';
  checkObb2(a, ao, 'a', undefined, fn);
  checkObb2(b, bo, 'b', undefined, fn);
  if (huge(a, ao, 2) || huge(b, bo, 2))
    return sat2(scaledCopy(a, ao, 2, SA), 0, scaledCopy(b, bo, 2, SB), 0, null, 0);
  return sat2(a, ao, b, bo, null, 0);
}

/**
 * 2-D OBB–OBB contact: writes `[nx, ny, depth, px, py]` (normal from A towards B, axis of least
 * penetration) and returns whether they overlap; when they do not, the depth is minus the largest gap.
 */
export function obbObbContact2D(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  out: WritableArrayLike,
  ao = 0,
  bo = 0,
  oo = 0,
): boolean {
  const fn = 'obbObbContact2D';
  checkObb2(a, ao, 'a', undefined, fn);
  checkObb2(b, bo, 'b', undefined, fn);
  checkLength(fn, 'out', out, 5, oo);
  if (huge(a, ao, 2) || huge(b, bo, 2)) {
    const hit = sat2(scaledCopy(a, ao, 2, SA), 0, scaledCopy(b, bo, 2, SB), 0, out, oo);
    scaleContactBack(out, oo, 2);
    return hit;
  }
  return sat2(a, ao, b, bo, out, oo);
}

function sat2(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  out: WritableArrayLike | null,
  oo: number,
): boolean {
  const dx = b[bo] - a[ao];
  const dy = b[bo + 1] - a[ao + 1];
  let best = Number.POSITIVE_INFINITY;
  let axis = 0;
  for (let k = 0; k < 4; k++) {
    const src = k < 2 ? a : b;
    const e = (k < 2 ? ao : bo) + 2 + 2 * (k & 1);
    const lx = src[e];
    const ly = src[e + 1];
    const ra =
      a[ao + 6] * Math.abs(lx * a[ao + 2] + ly * a[ao + 3]) +
      a[ao + 7] * Math.abs(lx * a[ao + 4] + ly * a[ao + 5]);
    const rb =
      b[bo + 6] * Math.abs(lx * b[bo + 2] + ly * b[bo + 3]) +
      b[bo + 7] * Math.abs(lx * b[bo + 4] + ly * b[bo + 5]);
    const depth = ra + rb - Math.abs(dx * lx + dy * ly);
    if (depth < 0 && !out) return false;
    if (depth < best) {
      best = depth;
      axis = k;
    }
  }
  if (!out) return true;
  const src = axis < 2 ? a : b;
  const e = (axis < 2 ? ao : bo) + 2 + 2 * (axis & 1);
  let nx = src[e];
  let ny = src[e + 1];
  if (dx * nx + dy * ny < 0) {
    nx = 0 - nx;
    ny = 0 - ny;
  }
  out[oo] = nx;
  out[oo + 1] = ny;
  out[oo + 2] = best;
  if (best < 0) {
    out[oo + 3] = b[bo];
    out[oo + 4] = b[bo + 1];
    return false;
  }
  // Deepest feature of the incident box, clamped to the reference face, moved half the depth back.
  const ref = axis < 2 ? a : b;
  const ro = axis < 2 ? ao : bo;
  const inc = axis < 2 ? b : a;
  const io = axis < 2 ? bo : ao;
  const sgn = axis < 2 ? -1 : 1;
  let px = inc[io];
  let py = inc[io + 1];
  for (let j = 0; j < 2; j++) {
    const ex = inc[io + 2 + 2 * j];
    const ey = inc[io + 3 + 2 * j];
    const d = sgn * (nx * ex + ny * ey);
    const s = d > 1e-6 ? 1 : d < -1e-6 ? -1 : 0;
    px += s * inc[io + 6 + j] * ex;
    py += s * inc[io + 6 + j] * ey;
  }
  const t = (axis & 1) ^ 1; // the reference face's tangent axis
  const tx = ref[ro + 2 + 2 * t];
  const ty = ref[ro + 3 + 2 * t];
  const c = (px - ref[ro]) * tx + (py - ref[ro + 1]) * ty;
  const h = ref[ro + 6 + t];
  const m = clamp(c, -h, h) - c;
  px += m * tx - sgn * 0.5 * best * nx;
  py += m * ty - sgn * 0.5 * best * ny;
  out[oo + 3] = px;
  out[oo + 4] = py;
  return true;
}
