/**
 * Sphere–OBB and sphere–AABB (circle–rectangle in 2-D) by OCSI: overlap, squared distance, closest point
 * and contact, one pair per call, with every argument checked.
 *
 * Follows the OCSI paper ("Oriented Cuboid Sphere Intersection"): with r_SC = sphere centre − box centre
 * and l_i = max(|r_SC·e_i| − c_i, 0), the squared minimum distance from the centre to the box is Σ l_i²
 * (Eq. 2, derived in Appendix A for n dimensions, so the same code serves 2-D and 3-D) and the sphere
 * overlaps the box iff Σ l_i² ≤ R² (Algorithm 5; touching counts as overlap). The axis-aligned forms are
 * Arvo's test (Arvo 1990, "A simple method for box-sphere intersection testing"; the paper's Algorithm 1)
 * on min/max directly, which is exact. The decisions and squared distances, with their overflow-safe
 * scaled paths (any finite magnitude), live in `ocsiScaled.ts`; this module adds the argument checks,
 * closest points and contacts.
 *
 * Contact layout (3-D, 7 numbers): `[nx, ny, nz, depth, px, py, pz]` — unit normal from the box towards the
 * sphere centre, penetration depth (R − distance; negative = separation), and the point of the box
 * surface nearest the sphere centre. When the centre is inside the box, the normal is the face of least
 * penetration (ties: the lower axis index, then the + face), depth = R + distance to that face, and the point
 * is the centre pushed onto that face. 2-D: `[nx, ny, depth, px, py]`. The "paper form" functions
 * (`ocsi*`) work in coordinates relative to the box centre, and so do their closest and contact points;
 * the OBB/AABB forms work in world coordinates. Overlap answers, normals and depths stay right at every
 * finite input; squared distances beyond the double range are `Infinity`.
 */

import {
  checkAxes,
  checkFiniteArray,
  checkLength,
  checkMinMax,
  checkNonNegative,
  checkNonNegativeArray,
} from '../math/checks.js';
import { checkObb, checkObb2 } from '../math/obb.js';
import { clamp, type WritableArrayLike } from '../math/vec3.js';
import {
  aabbDistanceSq,
  aabbWithin,
  LOCAL_CENTER,
  obbDistanceSq,
  obbWithin,
  projectionScale,
  projectPaper,
  projectWorld,
  SAFE_MAX,
  SAFE_MIN,
} from './ocsiScaled.js';

/** Numbers in a 3-D contact: `[nx, ny, nz, depth, px, py, pz]`. */
export const CONTACT_SIZE = 7;
/** Numbers in a 2-D contact: `[nx, ny, depth, px, py]`. */
export const CONTACT2_SIZE = 5;

/** A new zeroed 3-D contact record (`Float64Array(7)`), to reuse across calls. */
export function createContact(): Float64Array {
  return new Float64Array(CONTACT_SIZE);
}

/** A new zeroed 2-D contact record (`Float64Array(5)`), to reuse across calls. */
export function createContact2(): Float64Array {
  return new Float64Array(CONTACT2_SIZE);
}

// Scratch (module-level so no call allocates): the box interval on each axis and the local results; the
// centre's local coordinates A are the projection of ocsiScaled.ts.
const A = LOCAL_CENTER;
const LO = new Float64Array(3);
const HI = new Float64Array(3);
const N = new Float64Array(3);
const P = new Float64Array(3);
const NW = new Float64Array(3);

// In the box frame (A, LO, HI set for `dim` axes, differences A − LO and HI − A finite): local normal N
// and point P; returns the distance from A to the box, or minus the distance to the nearest face when A
// lies inside (or on) the box.
function localContact(dim: number): number {
  let d2 = 0;
  let m = 0;
  for (let i = 0; i < dim; i++) {
    const a = A[i];
    const q = clamp(a, LO[i], HI[i]);
    const d = a - q;
    N[i] = d;
    P[i] = q;
    d2 += d * d;
    m = Math.max(m, Math.abs(d));
  }
  if (d2 > SAFE_MIN && d2 < SAFE_MAX) {
    const len = Math.sqrt(d2);
    const inv = 1 / len;
    for (let i = 0; i < dim; i++) N[i] *= inv;
    return len;
  }
  if (m > 0) {
    // Outside by less than ~1e-144 or more than ~1e144: scaled before squaring.
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      N[i] /= m;
      sum += N[i] * N[i];
    }
    const len = Math.sqrt(sum);
    for (let i = 0; i < dim; i++) N[i] /= len;
    return m * len;
  }
  // Centre inside (or on) the box: the face of least penetration.
  let k = 0;
  let best = Number.POSITIVE_INFINITY;
  let side = 1;
  for (let i = 0; i < dim; i++) {
    const below = A[i] - LO[i];
    const above = HI[i] - A[i];
    const pen = Math.min(above, below);
    if (pen < best) {
      best = pen;
      k = i;
      side = above <= below ? 1 : -1;
    }
  }
  for (let i = 0; i < dim; i++) {
    N[i] = 0;
    P[i] = A[i];
  }
  N[k] = side;
  P[k] = side > 0 ? HI[k] : LO[k];
  return -best; // ≤ 0 marks "inside": minus the distance to the face
}

// depth ≥ 0 exactly when the (squared-distance) overlap test says so: at the boundary the square root can
// disagree with the squared comparison by an ulp, and the contact must not contradict its own return value.
function consistentDepth(depth: number, hit: boolean): number {
  if (hit) return Math.max(depth, 0);
  return Math.min(depth, -Number.MIN_VALUE);
}

// OBB in local form: contact written to out (normal and point mapped back by the axes, point offset by
// `cx..`), returns the overlap decision (the same as ocsiOverlap's).
function obbContact(
  dim: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
  center: ArrayLike<number> | null,
  co: number,
  out: WritableArrayLike,
  oo: number,
): boolean {
  const scale = projectionScale();
  for (let i = 0; i < dim; i++) {
    LO[i] = -h[ho + i] * scale;
    HI[i] = h[ho + i] * scale;
  }
  const hit = obbWithin(dim, h, ho, radius);
  const depth = radius - localContact(dim) / scale;
  const unscale = 1 / scale;
  let len2 = 0;
  for (let j = 0; j < dim; j++) {
    let n = 0;
    let p = center ? center[co + j] : 0;
    for (let i = 0; i < dim; i++) {
      n += N[i] * e[eo + i * dim + j];
      p += P[i] * unscale * e[eo + i * dim + j];
    }
    NW[j] = n;
    len2 += n * n;
    out[oo + dim + 1 + j] = p;
  }
  // axes orthonormal only to the tolerance (float32 storage): renormalize so the normal is unit
  const inv = 1 / Math.sqrt(len2);
  for (let j = 0; j < dim; j++) out[oo + j] = NW[j] * inv;
  out[oo + dim] = consistentDepth(depth, hit);
  return hit;
}

function closestOnObb(
  dim: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  center: ArrayLike<number> | null,
  co: number,
  out: WritableArrayLike,
  oo: number,
): void {
  const scale = projectionScale();
  for (let i = 0; i < dim; i++) {
    const c = h[ho + i];
    // A was scaled by `scale`: the clamp is scale-free.
    const a = A[i] / scale;
    P[i] = clamp(a, -c, c);
  }
  for (let j = 0; j < dim; j++) {
    let p = center ? center[co + j] : 0;
    for (let i = 0; i < dim; i++) p += P[i] * e[eo + i * dim + j];
    out[oo + j] = p;
  }
}

function checkPaperArgs(
  fn: string,
  dim: number,
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
): void {
  checkFiniteArray(fn, 'rSC', rSC, dim);
  checkAxes(fn, 'axes', axes, dim);
  checkNonNegativeArray(fn, 'halfExtents', halfExtents, dim);
}

// ---------------------------------------------------------------------------------------------------------
// 3-D, paper form (relative to the box centre)

/**
 * OCSI (the OCSI paper, Algorithm 5): does the sphere of `radius` centred at `rSC` (sphere centre − box
 * centre) overlap the box with unit `axes` (e_T, e_L, e_W row by row: 9 numbers) and `halfExtents` (c_T,
 * c_L, c_W)?
 * True when Σ max(|rSC·e_i| − c_i, 0)² ≤ radius² (touching counts). Throws on NaN/infinite input, negative
 * radius or extents, axes not orthonormal within {@link ORTHONORMAL_TOLERANCE}.
 */
export function ocsiOverlap(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  radius: number,
): boolean {
  checkPaperArgs('ocsiOverlap', 3, rSC, axes, halfExtents);
  checkNonNegative('ocsiOverlap', 'radius', radius);
  projectPaper(3, rSC, axes);
  return obbWithin(3, halfExtents, 0, radius);
}

/** Squared minimum distance from the point `rSC` (relative to the box centre) to the box (Eq. 2 squared). */
export function ocsiDistanceSq(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
): number {
  checkPaperArgs('ocsiDistanceSq', 3, rSC, axes, halfExtents);
  projectPaper(3, rSC, axes);
  return obbDistanceSq(3, halfExtents, 0);
}

/**
 * The point of the box nearest `rSC` (both relative to the box centre), written to `out[oo..oo+2]`; a
 * point inside the box is its own nearest point. Returns `out`.
 */
export function ocsiClosestPoint<T extends WritableArrayLike>(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  out: T,
  oo = 0,
): T {
  checkPaperArgs('ocsiClosestPoint', 3, rSC, axes, halfExtents);
  checkLength('ocsiClosestPoint', 'out', out, 3, oo);
  projectPaper(3, rSC, axes);
  closestOnObb(3, axes, 0, halfExtents, 0, null, 0, out, oo);
  return out;
}

/**
 * Sphere–box contact in the paper's relative form: writes `[nx, ny, nz, depth, px, py, pz]` (point relative
 * to the box centre) to `out[oo..]` whether or not they overlap, and returns whether they overlap (the
 * same answer as {@link ocsiOverlap}).
 */
export function ocsiContact(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  oo = 0,
): boolean {
  checkPaperArgs('ocsiContact', 3, rSC, axes, halfExtents);
  checkNonNegative('ocsiContact', 'radius', radius);
  checkLength('ocsiContact', 'out', out, CONTACT_SIZE, oo);
  projectPaper(3, rSC, axes);
  return obbContact(3, axes, 0, halfExtents, 0, radius, null, 0, out, oo);
}

// ---------------------------------------------------------------------------------------------------------
// 2-D, paper form

/** As {@link ocsiOverlap} for a circle and a rectangle: `rSC` 2 numbers, `axes` 4, `halfExtents` 2. */
export function ocsiOverlap2D(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  radius: number,
): boolean {
  checkPaperArgs('ocsiOverlap2D', 2, rSC, axes, halfExtents);
  checkNonNegative('ocsiOverlap2D', 'radius', radius);
  projectPaper(2, rSC, axes);
  return obbWithin(2, halfExtents, 0, radius);
}

/** As {@link ocsiDistanceSq} in 2-D. */
export function ocsiDistanceSq2D(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
): number {
  checkPaperArgs('ocsiDistanceSq2D', 2, rSC, axes, halfExtents);
  projectPaper(2, rSC, axes);
  return obbDistanceSq(2, halfExtents, 0);
}

/** As {@link ocsiClosestPoint} in 2-D (writes 2 numbers). */
export function ocsiClosestPoint2D<T extends WritableArrayLike>(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  out: T,
  oo = 0,
): T {
  checkPaperArgs('ocsiClosestPoint2D', 2, rSC, axes, halfExtents);
  checkLength('ocsiClosestPoint2D', 'out', out, 2, oo);
  projectPaper(2, rSC, axes);
  closestOnObb(2, axes, 0, halfExtents, 0, null, 0, out, oo);
  return out;
}

/** As {@link ocsiContact} in 2-D: writes `[nx, ny, depth, px, py]`. */
export function ocsiContact2D(
  rSC: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  oo = 0,
): boolean {
  checkPaperArgs('ocsiContact2D', 2, rSC, axes, halfExtents);
  checkNonNegative('ocsiContact2D', 'radius', radius);
  checkLength('ocsiContact2D', 'out', out, CONTACT2_SIZE, oo);
  projectPaper(2, rSC, axes);
  return obbContact(2, axes, 0, halfExtents, 0, radius, null, 0, out, oo);
}

// ---------------------------------------------------------------------------------------------------------
// World forms: OBB in the shared layout (math/obb.ts)

// Validates a `dim`-D OBB (15 or 8 numbers: centre, axes at +dim, half extents at +dim+dim²) and the
// point, and sets A = (point − centre)·e_i.
function prepareObb(
  dim: number,
  fn: string,
  obb: ArrayLike<number>,
  oo: number,
  point: ArrayLike<number>,
): void {
  if (dim === 3) checkObb(obb, oo, 'obb', undefined, fn);
  else checkObb2(obb, oo, 'obb', undefined, fn);
  checkFiniteArray(fn, 'center', point, dim);
  projectWorld(dim, obb, oo, point);
}

function worldOverlap(
  dim: number,
  fn: string,
  obb: ArrayLike<number>,
  c: ArrayLike<number>,
  r: number,
  oo: number,
) {
  prepareObb(dim, fn, obb, oo, c);
  checkNonNegative(fn, 'radius', r);
  return obbWithin(dim, obb, oo + dim + dim * dim, r);
}

function worldDistanceSq(
  dim: number,
  fn: string,
  obb: ArrayLike<number>,
  c: ArrayLike<number>,
  oo: number,
): number {
  prepareObb(dim, fn, obb, oo, c);
  return obbDistanceSq(dim, obb, oo + dim + dim * dim);
}

function worldClosest<T extends WritableArrayLike>(
  dim: number,
  fn: string,
  obb: ArrayLike<number>,
  p: ArrayLike<number>,
  out: T,
  obbOffset: number,
  oo: number,
): T {
  prepareObb(dim, fn, obb, obbOffset, p);
  checkLength(fn, 'out', out, dim, oo);
  closestOnObb(dim, obb, obbOffset + dim, obb, obbOffset + dim + dim * dim, obb, obbOffset, out, oo);
  return out;
}

function worldContact(
  dim: number,
  fn: string,
  obb: ArrayLike<number>,
  c: ArrayLike<number>,
  r: number,
  out: WritableArrayLike,
  obbOffset: number,
  oo: number,
): boolean {
  prepareObb(dim, fn, obb, obbOffset, c);
  checkNonNegative(fn, 'radius', r);
  checkLength(fn, 'out', out, 2 * dim + 1, oo);
  return obbContact(dim, obb, obbOffset + dim, obb, obbOffset + dim + dim * dim, r, obb, obbOffset, out, oo);
}

/** Does the sphere (`center`, `radius`) overlap the 3-D OBB at `obb[obbOffset..]` (15-number layout)? */
export function sphereObbOverlap(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  obbOffset = 0,
): boolean {
  return worldOverlap(3, 'sphereObbOverlap', obb, center, radius, obbOffset);
}

/** Squared distance from the point `center` to the 3-D OBB (0 inside). */
export function sphereObbDistanceSq(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  obbOffset = 0,
): number {
  return worldDistanceSq(3, 'sphereObbDistanceSq', obb, center, obbOffset);
}

/** The point of the 3-D OBB nearest `point` (world), written to `out[oo..oo+2]`; returns `out`. */
export function sphereObbClosestPoint<T extends WritableArrayLike>(
  obb: ArrayLike<number>,
  point: ArrayLike<number>,
  out: T,
  obbOffset = 0,
  oo = 0,
): T {
  return worldClosest(3, 'sphereObbClosestPoint', obb, point, out, obbOffset, oo);
}

/**
 * Sphere–OBB contact in world coordinates: writes `[nx, ny, nz, depth, px, py, pz]` to `out[oo..]` and
 * returns whether they overlap (same answer as {@link sphereObbOverlap}).
 */
export function sphereObbContact(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  obbOffset = 0,
  oo = 0,
): boolean {
  return worldContact(3, 'sphereObbContact', obb, center, radius, out, obbOffset, oo);
}

/** Does the circle (`center`, `radius`) overlap the 2-D OBB at `obb[obbOffset..]` (8-number layout)? */
export function circleObbOverlap2D(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  obbOffset = 0,
): boolean {
  return worldOverlap(2, 'circleObbOverlap2D', obb, center, radius, obbOffset);
}

/** Squared distance from the point `center` to the 2-D OBB (0 inside). */
export function circleObbDistanceSq2D(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  obbOffset = 0,
): number {
  return worldDistanceSq(2, 'circleObbDistanceSq2D', obb, center, obbOffset);
}

/** The point of the 2-D OBB nearest `point`, written to `out[oo..oo+1]`; returns `out`. */
export function circleObbClosestPoint2D<T extends WritableArrayLike>(
  obb: ArrayLike<number>,
  point: ArrayLike<number>,
  out: T,
  obbOffset = 0,
  oo = 0,
): T {
  return worldClosest(2, 'circleObbClosestPoint2D', obb, point, out, obbOffset, oo);
}

/** Circle–OBB contact (2-D): writes `[nx, ny, depth, px, py]`; returns whether they overlap. */
export function circleObbContact2D(
  obb: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  obbOffset = 0,
  oo = 0,
): boolean {
  return worldContact(2, 'circleObbContact2D', obb, center, radius, out, obbOffset, oo);
}

// ---------------------------------------------------------------------------------------------------------
// World forms: axis-aligned boxes given by min and max (Arvo 1990; the OCSI paper's Algorithm 1; exact)

function aabbContact(
  dim: number,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  oo: number,
): boolean {
  // Halves where a difference of coordinates could overflow (centre and box at opposite ends).
  let sc = 1;
  for (let i = 0; i < dim; i++) {
    if (Math.abs(center[i]) > 2 ** 1020 || Math.abs(min[i]) > 2 ** 1020 || Math.abs(max[i]) > 2 ** 1020)
      sc = 0.5;
  }
  for (let i = 0; i < dim; i++) {
    A[i] = center[i] * sc;
    LO[i] = min[i] * sc;
    HI[i] = max[i] * sc;
  }
  const distance = localContact(dim) / sc;
  for (let j = 0; j < dim; j++) {
    out[oo + j] = N[j];
    out[oo + dim + 1 + j] = P[j] / sc;
  }
  const hit = aabbWithin(dim, min, max, center, radius);
  out[oo + dim] = consistentDepth(radius - distance, hit);
  return hit;
}

/** Does the sphere (`center`, `radius`) overlap the axis-aligned box [`min`, `max`] (3 numbers each)? */
export function sphereAabbOverlap(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
): boolean {
  const fn = 'sphereAabbOverlap';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'center', center, 3);
  checkNonNegative(fn, 'radius', radius);
  return aabbWithin(3, min, max, center, radius);
}

/** Squared distance from `point` to the axis-aligned box [`min`, `max`] (0 inside). */
export function sphereAabbDistanceSq(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  point: ArrayLike<number>,
): number {
  const fn = 'sphereAabbDistanceSq';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'point', point, 3);
  return aabbDistanceSq(3, min, max, point);
}

/** The point of the box [`min`, `max`] nearest `point` (clamped), written to `out[oo..oo+2]`; returns `out`. */
export function sphereAabbClosestPoint<T extends WritableArrayLike>(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  point: ArrayLike<number>,
  out: T,
  oo = 0,
): T {
  const fn = 'sphereAabbClosestPoint';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'point', point, 3);
  checkLength(fn, 'out', out, 3, oo);
  for (let i = 0; i < 3; i++) out[oo + i] = clamp(point[i], min[i], max[i]);
  return out;
}

/** Sphere–AABB contact: writes `[nx, ny, nz, depth, px, py, pz]` to `out[oo..]`; returns the overlap. */
export function sphereAabbContact(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  oo = 0,
): boolean {
  const fn = 'sphereAabbContact';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'center', center, 3);
  checkNonNegative(fn, 'radius', radius);
  checkLength(fn, 'out', out, CONTACT_SIZE, oo);
  return aabbContact(3, min, max, center, radius, out, oo);
}

/** Does the circle overlap the axis-aligned rectangle [`min`, `max`] (2 numbers each)? */
export function circleAabbOverlap2D(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
): boolean {
  const fn = 'circleAabbOverlap2D';
  checkMinMax(fn, min, max, 2);
  checkFiniteArray(fn, 'center', center, 2);
  checkNonNegative(fn, 'radius', radius);
  return aabbWithin(2, min, max, center, radius);
}

/** Squared distance from `point` to the axis-aligned rectangle (0 inside). */
export function circleAabbDistanceSq2D(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  point: ArrayLike<number>,
): number {
  const fn = 'circleAabbDistanceSq2D';
  checkMinMax(fn, min, max, 2);
  checkFiniteArray(fn, 'point', point, 2);
  return aabbDistanceSq(2, min, max, point);
}

/** Circle–rectangle contact (axis-aligned): writes `[nx, ny, depth, px, py]`; returns the overlap. */
export function circleAabbContact2D(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  center: ArrayLike<number>,
  radius: number,
  out: WritableArrayLike,
  oo = 0,
): boolean {
  const fn = 'circleAabbContact2D';
  checkMinMax(fn, min, max, 2);
  checkFiniteArray(fn, 'center', center, 2);
  checkNonNegative(fn, 'radius', radius);
  checkLength(fn, 'out', out, CONTACT2_SIZE, oo);
  return aabbContact(2, min, max, center, radius, out, oo);
}
