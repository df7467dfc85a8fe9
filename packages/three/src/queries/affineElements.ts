/**
 * A `Matrix4` handed to `@sieve/core`'s queries, which take affine matrices only (last row exactly
 * `0 0 0 1`). A matrix computed with `Matrix4.invert()` can miss that row by a rounding error, which grows
 * with the inverted matrix's condition number: such a row is snapped back (within `1e-9`); a truly
 * projective one is passed on and rejected there with a clear error.
 */
import type { Matrix4 } from 'three';

const SCRATCH = new Float64Array(16);

/** The elements of `m`, with a last row within `1e-9` of `0 0 0 1` snapped to it (a copy then). */
export function affineElements(m: Matrix4, fn: string, name: string): ArrayLike<number> {
  const e = m?.elements;
  if (e?.length !== 16) throw new TypeError(`${fn}: ${name} must be a Matrix4`);
  if (e[3] === 0 && e[7] === 0 && e[11] === 0 && e[15] === 1) return e;
  if (Math.abs(e[3]) + Math.abs(e[7]) + Math.abs(e[11]) + Math.abs(e[15] - 1) > 1e-9) return e;
  for (let i = 0; i < 16; i++) SCRATCH[i] = e[i];
  SCRATCH[3] = SCRATCH[7] = SCRATCH[11] = 0;
  SCRATCH[15] = 1;
  return SCRATCH;
}
