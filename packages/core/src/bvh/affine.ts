/**
 * Affine transforms for the BVH queries, read from three.js-style column-major 4×4 matrices
 * (`Matrix4.elements`).
 *
 * A transform is kept as 12 float64s, column-major without the constant last row:
 * `[m00, m10, m20, m01, m11, m21, m02, m12, m22, tx, ty, tz]` (= `elements[0..2, 4..6, 8..10, 12..14]`).
 * Any invertible affine matrix is accepted — rotation, translation, uniform or non-uniform scale, even
 * shear: triangle intersection is invariant under affine maps, so every query runs exactly in one
 * mesh's local frame. Projective matrices (last row not `0 0 0 1`) and singular ones are rejected.
 * (The OBB "from a local AABB and a model matrix" idea is the Project Oort collision write-up's, OBB section.)
 */

/** Affine transform: 12 float64s, column-major 3×4. */
export type Affine = Float64Array;

/** A new identity transform. */
export function affineIdentity(): Affine {
  const m = new Float64Array(12);
  m[0] = m[4] = m[8] = 1;
  return m;
}

/**
 * Reads a column-major 4×4 matrix (16 numbers, three.js `Matrix4.elements`) into `out`; `null` or
 * `undefined` is the identity. Throws a `RangeError` naming `argName` (after `fn: ` if given) if it does
 * not hold exactly 16 numbers, an entry is not finite, the matrix is projective, or it cannot be
 * inverted — saying whether it is singular or its scale overflows or underflows float64.
 */
export function affineFromMatrix4(
  out: Affine,
  e: ArrayLike<number> | null | undefined,
  argName: string,
  fn = '',
): Affine {
  if (e === null || e === undefined) {
    out.fill(0);
    out[0] = out[4] = out[8] = 1;
    return out;
  }
  if (typeof e.length !== 'number' || e.length !== 16) {
    throw new RangeError(
      `${label(fn, argName)} must be a 4x4 matrix (16 numbers, column-major), got ${typeof e.length === 'number' ? `${e.length} numbers` : String(e)}`,
    );
  }
  for (let i = 0; i < 16; i++) {
    const v = e[i];
    if (typeof v !== 'number' || v - v !== 0)
      throw new RangeError(`${label(fn, argName)}[${i}] is not finite (${String(v)})`);
  }
  if (e[3] !== 0 || e[7] !== 0 || e[11] !== 0 || e[15] !== 1) {
    throw new RangeError(`${label(fn, argName)} is not affine (its last row must be 0 0 0 1)`);
  }
  out[0] = e[0];
  out[1] = e[1];
  out[2] = e[2];
  out[3] = e[4];
  out[4] = e[5];
  out[5] = e[6];
  out[6] = e[8];
  out[7] = e[9];
  out[8] = e[10];
  out[9] = e[12];
  out[10] = e[13];
  out[11] = e[14];
  if (!isInvertible(out)) throw new RangeError(`${label(fn, argName)} ${whyNotInvertible(out)}`);
  return out;
}

/** Scratch of {@link whyNotInvertible}. */
const SCALED = new Float64Array(9);

/**
 * Why a linear part whose determinant is zero or not finite cannot be inverted: singular (the
 * determinant of the matrix scaled to entries ≤ 1 is 0 too), or finite entries whose determinant
 * overflows or underflows the double range (invertible, but beyond what the queries can compute with).
 */
function whyNotInvertible(m: Affine): string {
  let s = 0;
  for (let i = 0; i < 9; i++) s = Math.max(s, Math.abs(m[i]));
  if (s === 0) return 'is singular (its 3x3 part is zero)';
  const u = 1 / s;
  // The determinant of the linear part scaled to a largest entry of 1.
  for (let i = 0; i < 9; i++) SCALED[i] = m[i] * u;
  const scaled = affineDeterminant(SCALED);
  if (scaled === 0 || !Number.isFinite(u)) {
    return Number.isFinite(u)
      ? 'is singular (its determinant is 0)'
      : `is too small to invert in float64 (its largest 3x3 entry is ${s})`;
  }
  return !(Math.abs(affineDeterminant(m)) < Number.POSITIVE_INFINITY)
    ? `is too large to invert in float64: its determinant overflows (largest 3x3 entry ${s}; scale it down)`
    : `is too small to invert in float64: its determinant underflows to 0 (largest 3x3 entry ${s}; scale it up)`;
}

/** Argument label for error messages (built only when throwing). */
function label(fn: string, argName: string): string {
  return fn ? `${fn}: ${argName}` : argName;
}

/** Whether the linear part has a non-zero, finite determinant (no double crosses a call boundary). */
function isInvertible(m: Affine): boolean {
  const det =
    m[0] * (m[4] * m[8] - m[5] * m[7]) -
    m[3] * (m[1] * m[8] - m[2] * m[7]) +
    m[6] * (m[1] * m[5] - m[2] * m[4]);
  return Math.abs(det) > 0 && det - det === 0;
}

/** Determinant of the linear part. */
export function affineDeterminant(m: Affine): number {
  return (
    m[0] * (m[4] * m[8] - m[5] * m[7]) -
    m[3] * (m[1] * m[8] - m[2] * m[7]) +
    m[6] * (m[1] * m[5] - m[2] * m[4])
  );
}

/** `out = m⁻¹`. Throws a `RangeError` if `m` is singular. `out` may be `m`. */
export function affineInvert(out: Affine, m: Affine): Affine {
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const e = m[4];
  const f = m[5];
  const g = m[6];
  const h = m[7];
  const k = m[8];
  const tx = m[9];
  const ty = m[10];
  const tz = m[11];
  // Columns (a b c), (d e f), (g h k): cofactors.
  const A = e * k - f * h;
  const B = f * g - d * k;
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) throw new RangeError('transform is singular');
  const id = 1 / det;
  const r00 = A * id;
  const r01 = B * id;
  const r02 = C * id;
  const r10 = (c * h - b * k) * id;
  const r11 = (a * k - c * g) * id;
  const r12 = (b * g - a * h) * id;
  const r20 = (b * f - c * e) * id;
  const r21 = (c * d - a * f) * id;
  const r22 = (a * e - b * d) * id;
  out[0] = r00;
  out[1] = r10;
  out[2] = r20;
  out[3] = r01;
  out[4] = r11;
  out[5] = r21;
  out[6] = r02;
  out[7] = r12;
  out[8] = r22;
  out[9] = -(r00 * tx + r01 * ty + r02 * tz);
  out[10] = -(r10 * tx + r11 * ty + r12 * tz);
  out[11] = -(r20 * tx + r21 * ty + r22 * tz);
  return out;
}

/** `out = a · b` (apply `b` first, then `a`). `out` may alias neither input. */
export function affineMultiply(out: Affine, a: Affine, b: Affine): Affine {
  for (let col = 0; col < 4; col++) {
    const x = b[3 * col];
    const y = b[3 * col + 1];
    const z = b[3 * col + 2];
    out[3 * col] = a[0] * x + a[3] * y + a[6] * z + (col === 3 ? a[9] : 0);
    out[3 * col + 1] = a[1] * x + a[4] * y + a[7] * z + (col === 3 ? a[10] : 0);
    out[3 * col + 2] = a[2] * x + a[5] * y + a[8] * z + (col === 3 ? a[11] : 0);
  }
  return out;
}

/**
 * The normal matrix of `m` (inverse transpose of its linear part), as 9 numbers row-major into `out`:
 * a local normal `n` maps to `(out[0]n.x + out[1]n.y + out[2]n.z, ...)`, to be normalized.
 */
export function normalMatrix(out: Float64Array, m: Affine): Float64Array {
  // Inverse transpose = cofactor matrix / det; the 1/det factor is dropped (normals are renormalized)
  // but its sign is kept so mirrored transforms still flip normals consistently.
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const e = m[4];
  const f = m[5];
  const g = m[6];
  const h = m[7];
  const k = m[8];
  const s = a * (e * k - f * h) - d * (b * k - c * h) + g * (b * f - c * e) < 0 ? -1 : 1;
  // Row-major cofactor matrix of the linear part (= det · inverse transpose).
  out[0] = s * (e * k - f * h);
  out[1] = s * (c * h - b * k);
  out[2] = s * (b * f - c * e);
  out[3] = s * (f * g - d * k);
  out[4] = s * (a * k - c * g);
  out[5] = s * (c * d - a * f);
  out[6] = s * (d * h - e * g);
  out[7] = s * (b * g - a * h);
  out[8] = s * (a * e - b * d);
  return out;
}
