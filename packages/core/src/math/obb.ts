/**
 * Oriented bounding boxes in the shared 15-number layout, and their builders.
 *
 * An OBB is `[cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, hx, hy, hz]`: centre, three unit axes
 * row by row, half extents (the Project Oort collision write-up, "axes-extents representation"; the OCSI paper, Eq. 1:
 * C = r_C + Σ α_i c_i e_i with α_i ∈ [−1, 1]). Many OBBs pack into one `Float64Array` at offsets
 * `k * OBB_SIZE`, so every function takes an offset. The 2-D form is 8 numbers:
 * `[cx, cy, e0x, e0y, e1x, e1y, hx, hy]`.
 *
 * Builders follow Project Oort's `from_local_aligned`: a local (model-space) AABB and a transform; the length of
 * each transformed axis is the scale, folded into the half extents, and the axis is normalized. A zero
 * scale gives a zero extent and the axis is completed from the others; a sheared matrix (axes not
 * orthogonal) is rejected, since its image of a box is not a box.
 */

import {
  checkAxes,
  checkFinite,
  checkFiniteArray,
  checkLength,
  checkMinMax,
  checkNonNegativeArray,
  ORTHONORMAL_TOLERANCE,
} from './checks.js';
import { quatToAxes } from './quat.js';
import type { WritableArrayLike } from './vec3.js';

/** Numbers per 3-D OBB. */
export const OBB_SIZE = 15;
/** Offset of the centre (3 numbers) within a 3-D OBB. */
export const OBB_CENTER = 0;
/** Offset of the three unit axes (9 numbers, row by row) within a 3-D OBB. */
export const OBB_AXES = 3;
/** Offset of the half extents (3 numbers) within a 3-D OBB. */
export const OBB_HALF = 12;

/** Numbers per 2-D OBB. */
export const OBB2_SIZE = 8;
/** Offset of the centre (2 numbers) within a 2-D OBB. */
export const OBB2_CENTER = 0;
/** Offset of the two unit axes (4 numbers, row by row) within a 2-D OBB. */
export const OBB2_AXES = 2;
/** Offset of the half extents (2 numbers) within a 2-D OBB. */
export const OBB2_HALF = 6;

/** A new 3-D OBB (`Float64Array(15)`): centre 0, identity axes, zero extents. */
export function createObb(): Float64Array {
  const o = new Float64Array(OBB_SIZE);
  o[3] = 1;
  o[7] = 1;
  o[11] = 1;
  return o;
}

/** A new 2-D OBB (`Float64Array(8)`): centre 0, identity axes, zero extents. */
export function createObb2(): Float64Array {
  const o = new Float64Array(OBB2_SIZE);
  o[2] = 1;
  o[5] = 1;
  return o;
}

/**
 * Throws a clear error unless `obb[offset..offset+14]` is a valid 3-D OBB: finite, half extents ≥ 0,
 * axes orthonormal within `tolerance` (default {@link ORTHONORMAL_TOLERANCE}).
 */
export function checkObb(
  obb: ArrayLike<number>,
  offset = 0,
  name = 'obb',
  tolerance = ORTHONORMAL_TOLERANCE,
  fn = 'checkObb',
): void {
  checkLength(fn, name, obb, OBB_SIZE, offset);
  checkFiniteArray(fn, `${name} centre`, obb, 3, offset);
  checkAxes(fn, `${name} axes`, obb, 3, offset + OBB_AXES, tolerance);
  checkNonNegativeArray(fn, `${name} half extents`, obb, 3, offset + OBB_HALF);
}

/** As {@link checkObb}, for the 8-number 2-D layout. */
export function checkObb2(
  obb: ArrayLike<number>,
  offset = 0,
  name = 'obb',
  tolerance = ORTHONORMAL_TOLERANCE,
  fn = 'checkObb2',
): void {
  checkLength(fn, name, obb, OBB2_SIZE, offset);
  checkFiniteArray(fn, `${name} centre`, obb, 2, offset);
  checkAxes(fn, `${name} axes`, obb, 2, offset + OBB2_AXES, tolerance);
  checkNonNegativeArray(fn, `${name} half extents`, obb, 2, offset + OBB2_HALF);
}

/** @deprecated Renamed {@link checkObb} ("validate" is kept for the broadphases' invariant walks). */
export const validateObb = checkObb;
/** @deprecated Renamed {@link checkObb2}. */
export const validateObb2 = checkObb2;

/**
 * Writes a 3-D OBB from its parts (validated: finite, orthonormal axes, half extents ≥ 0) to
 * `out[oo..oo+14]`; returns `out`.
 */
export function setObb<T extends WritableArrayLike>(
  out: T,
  center: ArrayLike<number>,
  axes: ArrayLike<number>,
  halfExtents: ArrayLike<number>,
  oo = 0,
): T {
  const fn = 'setObb';
  checkFiniteArray(fn, 'center', center, 3);
  checkAxes(fn, 'axes', axes, 3);
  checkNonNegativeArray(fn, 'halfExtents', halfExtents, 3);
  checkLength(fn, 'out', out, OBB_SIZE, oo);
  for (let i = 0; i < 3; i++) out[oo + i] = center[i];
  for (let i = 0; i < 9; i++) out[oo + OBB_AXES + i] = axes[i];
  for (let i = 0; i < 3; i++) out[oo + OBB_HALF + i] = halfExtents[i];
  return out;
}

/** A world-axis-aligned OBB from an AABB given as `min`, `max` (3 numbers each); returns `out`. */
export function obbFromAabb<T extends WritableArrayLike>(
  out: T,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  oo = 0,
): T {
  const fn = 'obbFromAabb';
  checkMinMax(fn, min, max, 3);
  checkLength(fn, 'out', out, OBB_SIZE, oo);
  for (let i = 0; i < 3; i++) {
    // Halved first where the sum or the difference overflows (near ±Number.MAX_VALUE); exact otherwise.
    const c = 0.5 * (min[i] + max[i]);
    const h = 0.5 * (max[i] - min[i]);
    out[oo + i] = c - c === 0 ? c : 0.5 * min[i] + 0.5 * max[i];
    out[oo + OBB_HALF + i] = h - h === 0 ? h : 0.5 * max[i] - 0.5 * min[i];
  }
  for (let i = 0; i < 9; i++) out[oo + OBB_AXES + i] = i % 4 === 0 ? 1 : 0;
  return out;
}

// Fills in the axes whose bit is set in `zero` (their scale was 0) so the three form an orthonormal basis.
function completeAxes(out: WritableArrayLike, a: number, zero: number): void {
  if (zero === 0) return;
  if (zero === 7) {
    for (let i = 0; i < 9; i++) out[a + i] = i % 4 === 0 ? 1 : 0;
    return;
  }
  for (let k = 0; k < 3; k++) {
    if ((zero & (1 << k)) === 0) continue;
    const i = (k + 1) % 3;
    const j = (k + 2) % 3;
    if ((zero & (1 << i)) === 0 && (zero & (1 << j)) === 0) {
      // one missing axis: e_k = e_i × e_j (right-handed completion)
      const ai = a + 3 * i;
      const aj = a + 3 * j;
      out[a + 3 * k] = out[ai + 1] * out[aj + 2] - out[ai + 2] * out[aj + 1];
      out[a + 3 * k + 1] = out[ai + 2] * out[aj] - out[ai] * out[aj + 2];
      out[a + 3 * k + 2] = out[ai] * out[aj + 1] - out[ai + 1] * out[aj];
      return;
    }
  }
  // two missing axes: the known one is `g`; take the world axis least aligned with it, orthogonalize.
  let g = 0;
  while (zero & (1 << g)) g++;
  const gx = out[a + 3 * g];
  const gy = out[a + 3 * g + 1];
  const gz = out[a + 3 * g + 2];
  const ax = Math.abs(gx);
  const ay = Math.abs(gy);
  const az = Math.abs(gz);
  let ux = 0;
  let uy = 0;
  let uz = 0;
  if (ax <= ay && ax <= az) ux = 1;
  else if (ay <= az) uy = 1;
  else uz = 1;
  const d = ux * gx + uy * gy + uz * gz;
  ux -= d * gx;
  uy -= d * gy;
  uz -= d * gz;
  const len = Math.hypot(ux, uy, uz);
  ux /= len;
  uy /= len;
  uz /= len;
  const i = (g + 1) % 3;
  const j = (g + 2) % 3;
  out[a + 3 * i] = ux;
  out[a + 3 * i + 1] = uy;
  out[a + 3 * i + 2] = uz;
  out[a + 3 * j] = gy * uz - gz * uy;
  out[a + 3 * j + 1] = gz * ux - gx * uz;
  out[a + 3 * j + 2] = gx * uy - gy * ux;
}

const tmpAxes = new Float64Array(9);

/**
 * An OBB from a local AABB (`min`, `max`) placed by a position, a rotation quaternion `[x, y, z, w]`
 * (normalized here) and a per-axis scale (default 1; negative scale mirrors, which a box does not see;
 * zero scale gives a zero extent). Writes to `out[oo..oo+14]` and returns `out`.
 */
export function obbFromLocalAabb<T extends WritableArrayLike>(
  out: T,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  position: ArrayLike<number>,
  quaternion: ArrayLike<number>,
  scale: ArrayLike<number> = [1, 1, 1],
  oo = 0,
): T {
  const fn = 'obbFromLocalAabb';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'position', position, 3);
  checkFiniteArray(fn, 'quaternion', quaternion, 4);
  checkFiniteArray(fn, 'scale', scale, 3);
  checkLength(fn, 'out', out, OBB_SIZE, oo);
  const qn = Math.hypot(quaternion[0], quaternion[1], quaternion[2], quaternion[3]);
  if (!(qn > 0)) throw new RangeError(`${fn}: quaternion must not be zero`);
  const e = quatToAxes(quaternion, 0, tmpAxes, 0);
  for (let i = 0; i < 3; i++) {
    let cx = position[i];
    for (let k = 0; k < 3; k++) cx += e[3 * k + i] * scale[k] * 0.5 * (min[k] + max[k]);
    out[oo + i] = cx;
  }
  for (let i = 0; i < 9; i++) out[oo + OBB_AXES + i] = e[i];
  for (let k = 0; k < 3; k++) out[oo + OBB_HALF + k] = Math.abs(scale[k]) * 0.5 * (max[k] - min[k]);
  return out;
}

/**
 * An OBB from a local AABB (`min`, `max`) and an affine 4×4 matrix laid out column-major as three.js
 * `Matrix4.elements` (columns 0–2 are the transformed local axes, elements 12–14 the translation). Each
 * column's length is that axis's scale, folded into the half extents. Throws if the matrix is not affine
 * (last row ≠ 0, 0, 0, 1) or its non-zero columns are not orthogonal within `tolerance` (a sheared box).
 */
export function obbFromLocalAabbMatrix<T extends WritableArrayLike>(
  out: T,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  matrix: ArrayLike<number>,
  oo = 0,
  tolerance = ORTHONORMAL_TOLERANCE,
): T {
  const fn = 'obbFromLocalAabbMatrix';
  checkMinMax(fn, min, max, 3);
  checkFiniteArray(fn, 'matrix', matrix, 16);
  checkLength(fn, 'out', out, OBB_SIZE, oo);
  if (matrix[3] !== 0 || matrix[7] !== 0 || matrix[11] !== 0 || matrix[15] !== 1) {
    throw new RangeError(`${fn}: matrix must be affine (elements 3, 7, 11 = 0 and 15 = 1)`);
  }
  let zero = 0;
  const a = oo + OBB_AXES;
  for (let k = 0; k < 3; k++) {
    const len = Math.hypot(matrix[4 * k], matrix[4 * k + 1], matrix[4 * k + 2]);
    out[oo + OBB_HALF + k] = len * 0.5 * (max[k] - min[k]);
    if (len > 0) {
      for (let i = 0; i < 3; i++) out[a + 3 * k + i] = matrix[4 * k + i] / len;
    } else {
      zero |= 1 << k;
    }
  }
  for (let k = 0; k < 3; k++) {
    for (let l = k + 1; l < 3; l++) {
      if (zero & ((1 << k) | (1 << l))) continue;
      const d =
        out[a + 3 * k] * out[a + 3 * l] +
        out[a + 3 * k + 1] * out[a + 3 * l + 1] +
        out[a + 3 * k + 2] * out[a + 3 * l + 2];
      if (!(Math.abs(d) <= tolerance)) {
        throw new RangeError(
          `${fn}: matrix columns ${k} and ${l} are not orthogonal (cos = ${d.toExponential(3)}); ` +
            'a sheared transform does not map a box to a box',
        );
      }
    }
  }
  completeAxes(out, a, zero);
  for (let i = 0; i < 3; i++) {
    let c = matrix[12 + i];
    for (let k = 0; k < 3; k++) c += matrix[4 * k + i] * 0.5 * (min[k] + max[k]);
    out[oo + i] = c;
  }
  return out;
}

/**
 * A 2-D OBB from a local AABB (`min`, `max`: 2 numbers each), a position, a rotation angle (radians,
 * counter-clockwise) and a per-axis scale (default 1). Writes `out[oo..oo+7]`; returns `out`.
 */
export function obb2FromLocalAabb<T extends WritableArrayLike>(
  out: T,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  position: ArrayLike<number>,
  angle: number,
  scale: ArrayLike<number> = [1, 1],
  oo = 0,
): T {
  const fn = 'obb2FromLocalAabb';
  checkMinMax(fn, min, max, 2);
  checkFiniteArray(fn, 'position', position, 2);
  checkFinite(fn, 'angle', angle);
  checkFiniteArray(fn, 'scale', scale, 2);
  checkLength(fn, 'out', out, OBB2_SIZE, oo);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const lx = scale[0] * 0.5 * (min[0] + max[0]);
  const ly = scale[1] * 0.5 * (min[1] + max[1]);
  out[oo] = position[0] + c * lx - s * ly;
  out[oo + 1] = position[1] + s * lx + c * ly;
  out[oo + 2] = c;
  out[oo + 3] = s;
  out[oo + 4] = -s;
  out[oo + 5] = c;
  out[oo + 6] = Math.abs(scale[0]) * 0.5 * (max[0] - min[0]);
  out[oo + 7] = Math.abs(scale[1]) * 0.5 * (max[1] - min[1]);
  return out;
}

/**
 * A 2-D OBB from a local AABB and an affine 3×3 matrix laid out column-major as three.js
 * `Matrix3.elements` (columns 0–1 the transformed axes, elements 6–7 the translation, last row 0, 0, 1).
 * Same scale and shear rules as {@link obbFromLocalAabbMatrix}.
 */
export function obb2FromLocalAabbMatrix<T extends WritableArrayLike>(
  out: T,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  matrix: ArrayLike<number>,
  oo = 0,
  tolerance = ORTHONORMAL_TOLERANCE,
): T {
  const fn = 'obb2FromLocalAabbMatrix';
  checkMinMax(fn, min, max, 2);
  checkFiniteArray(fn, 'matrix', matrix, 9);
  checkLength(fn, 'out', out, OBB2_SIZE, oo);
  if (matrix[2] !== 0 || matrix[5] !== 0 || matrix[8] !== 1) {
    throw new RangeError(`${fn}: matrix must be affine (elements 2, 5 = 0 and 8 = 1)`);
  }
  const l0 = Math.hypot(matrix[0], matrix[1]);
  const l1 = Math.hypot(matrix[3], matrix[4]);
  let e0x = 1;
  let e0y = 0;
  if (l0 > 0) {
    e0x = matrix[0] / l0;
    e0y = matrix[1] / l0;
  } else if (l1 > 0) {
    e0x = matrix[4] / l1;
    e0y = 0 - matrix[3] / l1;
  }
  let e1x = -e0y;
  let e1y = e0x;
  if (l1 > 0) {
    e1x = matrix[3] / l1;
    e1y = matrix[4] / l1;
    if (l0 > 0 && !(Math.abs(e0x * e1x + e0y * e1y) <= tolerance)) {
      throw new RangeError(
        `${fn}: matrix columns 0 and 1 are not orthogonal; a sheared transform does not map a box to a box`,
      );
    }
  }
  out[oo] = matrix[6] + matrix[0] * 0.5 * (min[0] + max[0]) + matrix[3] * 0.5 * (min[1] + max[1]);
  out[oo + 1] = matrix[7] + matrix[1] * 0.5 * (min[0] + max[0]) + matrix[4] * 0.5 * (min[1] + max[1]);
  out[oo + 2] = e0x;
  out[oo + 3] = e0y;
  out[oo + 4] = e1x;
  out[oo + 5] = e1y;
  out[oo + 6] = l0 * 0.5 * (max[0] - min[0]);
  out[oo + 7] = l1 * 0.5 * (max[1] - min[1]);
  return out;
}

/**
 * The world AABB enclosing the 3-D OBB at `obb[oo..]`: writes `[minX, minY, minZ, maxX, maxY, maxZ]` to
 * `out[outOffset..]` and returns `out` (no validation; half extent along world axis j is Σ_i |e_ij| h_i).
 */
export function obbToAabb<T extends WritableArrayLike>(
  obb: ArrayLike<number>,
  oo: number,
  out: T,
  outOffset = 0,
): T {
  for (let j = 0; j < 3; j++) {
    const r =
      Math.abs(obb[oo + 3 + j]) * obb[oo + 12] +
      Math.abs(obb[oo + 6 + j]) * obb[oo + 13] +
      Math.abs(obb[oo + 9 + j]) * obb[oo + 14];
    out[outOffset + j] = obb[oo + j] - r;
    out[outOffset + 3 + j] = obb[oo + j] + r;
  }
  return out;
}
