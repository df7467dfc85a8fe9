/**
 * Input checks shared by the non-batched APIs (named `check*`; "validate" in Sieve means the
 * broadphases' invariant walks): each throws an error that names the function and the
 * argument (`ocsiOverlap: radius must be a finite number >= 0, got -1`).
 *
 * Hot batched paths never call these per element; they offer a validating function instead.
 */

/**
 * Default tolerance for "orthonormal" axes: |e_i · e_j − δ_ij| ≤ 1e-5. Loose enough for unit vectors
 * stored in float32 (whose dot products are off by ~2e-7), tight enough that the box is a box: a distance
 * computed with such axes is off by at most ~1e-5 of the distance between the centres.
 */
export const ORTHONORMAL_TOLERANCE = 1e-5;

/** Throws a RangeError unless `value` is a finite number. */
export function checkFinite(fn: string, name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${fn}: ${name} must be a finite number, got ${String(value)}`);
  }
}

/** Throws a RangeError unless `value` is a finite number ≥ 0. */
export function checkNonNegative(fn: string, name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${fn}: ${name} must be a finite number >= 0, got ${String(value)}`);
  }
}

/** Throws a TypeError unless `arr` is an array-like with at least `offset + length` elements. */
export function checkLength(
  fn: string,
  name: string,
  arr: ArrayLike<number>,
  length: number,
  offset = 0,
): void {
  if (arr === null || typeof arr !== 'object' || typeof arr.length !== 'number') {
    throw new TypeError(`${fn}: ${name} must be an array of numbers`);
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`${fn}: offset of ${name} must be an integer >= 0, got ${String(offset)}`);
  }
  if (arr.length < offset + length) {
    throw new TypeError(
      `${fn}: ${name} needs ${length} numbers from offset ${offset}, but has length ${arr.length}`,
    );
  }
}

function checkValues(
  fn: string,
  name: string,
  arr: ArrayLike<number>,
  length: number,
  offset: number,
  nonNegative: boolean,
): void {
  checkLength(fn, name, arr, length, offset);
  for (let i = 0; i < length; i++) {
    const v = arr[offset + i];
    if (typeof v !== 'number' || !Number.isFinite(v) || (nonNegative && v < 0)) {
      throw new RangeError(
        `${fn}: ${name}[${i}] must be a finite number${nonNegative ? ' >= 0' : ''}, got ${String(v)}`,
      );
    }
  }
}

/** Checks length and that `length` numbers from `offset` are finite. */
export function checkFiniteArray(
  fn: string,
  name: string,
  arr: ArrayLike<number>,
  length: number,
  offset = 0,
): void {
  checkValues(fn, name, arr, length, offset, false);
}

/** Checks length and that `length` numbers from `offset` are finite and ≥ 0. */
export function checkNonNegativeArray(
  fn: string,
  name: string,
  arr: ArrayLike<number>,
  length: number,
  offset = 0,
): void {
  checkValues(fn, name, arr, length, offset, true);
}

/** Checks an axis-aligned box given as `min`, `max` (`dim` finite numbers each, max ≥ min). */
export function checkMinMax(fn: string, min: ArrayLike<number>, max: ArrayLike<number>, dim: number): void {
  checkFiniteArray(fn, 'min', min, dim);
  checkFiniteArray(fn, 'max', max, dim);
  for (let i = 0; i < dim; i++) {
    if (!(max[i] >= min[i]))
      throw new RangeError(`${fn}: max[${i}] (${max[i]}) must be >= min[${i}] (${min[i]})`);
  }
}

/**
 * The largest |e_i · e_j − δ_ij| over the `dim` axes stored row by row at `axes[offset..]` (dim = 2 or 3).
 */
export function orthonormalityError(axes: ArrayLike<number>, offset: number, dim: number): number {
  let worst = 0;
  for (let i = 0; i < dim; i++) {
    for (let j = i; j < dim; j++) {
      let d = 0;
      for (let k = 0; k < dim; k++) d += axes[offset + i * dim + k] * axes[offset + j * dim + k];
      const err = Math.abs(d - (i === j ? 1 : 0));
      if (!(err <= worst)) worst = err; // NaN propagates as "worst"
    }
  }
  return worst;
}

/** Checks `dim`×`dim` finite axes, row by row, orthonormal within `tolerance`. */
export function checkAxes(
  fn: string,
  name: string,
  axes: ArrayLike<number>,
  dim: number,
  offset = 0,
  tolerance = ORTHONORMAL_TOLERANCE,
): void {
  checkFiniteArray(fn, name, axes, dim * dim, offset);
  const err = orthonormalityError(axes, offset, dim);
  if (!(err <= tolerance)) {
    throw new RangeError(
      `${fn}: ${name} must be ${dim} orthonormal unit vectors (row by row) within ${tolerance}, ` +
        `but |e_i·e_j − δ_ij| reaches ${err.toExponential(3)}`,
    );
  }
}
