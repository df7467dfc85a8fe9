/**
 * A BVH slot's triangle in world space: its three float32 vertices (`MeshBVH.triVerts`) mapped by an
 * affine transform into a float64 scratch, with `@sieve/core`'s degeneracy rule (zero-area triangles
 * are ignored by every BVH query).
 */
import { isDegenerateTriangleAt } from '@sieve/core';

/**
 * Writes slot `s` of `v` mapped by the affine `m` (12 numbers, column-major 3×4; `null` for identity)
 * to `out[0..8]`. Returns false if the world triangle is degenerate.
 */
export function worldTriangle(
  v: Float32Array,
  s: number,
  m: Float64Array | null,
  out: Float64Array,
): boolean {
  const i = 9 * s;
  if (m) {
    for (let k = 0; k < 9; k += 3) {
      const x = v[i + k];
      const y = v[i + k + 1];
      const z = v[i + k + 2];
      out[k] = m[0] * x + m[3] * y + m[6] * z + m[9];
      out[k + 1] = m[1] * x + m[4] * y + m[7] * z + m[10];
      out[k + 2] = m[2] * x + m[5] * y + m[8] * z + m[11];
    }
  } else {
    for (let k = 0; k < 9; k++) out[k] = v[i + k];
  }
  return !isDegenerateTriangleAt(out, 0);
}
