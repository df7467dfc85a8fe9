/**
 * Recomputes node bounds from the triangles, bottom up — used by the builder and by `refit()` after
 * vertices move (the topology is kept, so a refit tree stays correct but may get looser).
 *
 * Follows three-mesh-bvh's `refit` (`src/core/cast/refit.template.js`) in spirit, without recursion:
 * nodes are stored depth first, so every child has a larger index than its parent and one reverse sweep
 * over the node array visits children before parents. Bounds are min/max of float32 coordinates, so
 * storing them as float32 is exact.
 */

import type { TriangleIndex } from './checks.js';
import { NODE_WORDS } from './nodes.js';

/**
 * The offsets in `positions` of every slot's three vertices, in slot order (`3 × vertex index`, three
 * per slot): what {@link gatherAndRefit} reads instead of `triIds` and `index` when given, so a refit
 * reads them in order rather than jumping through the index buffer.
 */
export function cornerOffsets(index: TriangleIndex, triIds: Uint32Array): Int32Array {
  const n = triIds.length;
  const out = new Int32Array(3 * n);
  for (let s = 0; s < n; s++) {
    const t = triIds[s];
    for (let k = 0; k < 3; k++) out[3 * s + k] = index ? 3 * index[3 * t + k] : 9 * t + 3 * k;
  }
  return out;
}

/**
 * Copies each slot's triangle (three vertices, 9 floats, `triIds[slot]` being the original triangle)
 * from `positions`/`index` into `triVerts`, and fills the bounds of every node in the same pass: leaves
 * (which appear in slot order in the depth-first node array) while gathering, then inner nodes in one
 * reverse sweep. With `corners` ({@link cornerOffsets}), the vertices are found there instead.
 */
export function gatherAndRefit(
  positions: Float32Array,
  index: TriangleIndex,
  triIds: Uint32Array,
  triVerts: Float32Array,
  f32: Float32Array,
  i32: Int32Array,
  nodeCount: number,
  corners: Int32Array | null = null,
): void {
  for (let node = 0; node < nodeCount; node++) {
    const w = node * NODE_WORDS;
    const tag = i32[w + 7];
    if (tag >= 0) continue;
    let mx = Infinity;
    let my = Infinity;
    let mz = Infinity;
    let Mx = -Infinity;
    let My = -Infinity;
    let Mz = -Infinity;
    const s0 = i32[w + 6];
    for (let s = s0, end = s0 + ~tag, o = 9 * s0; s < end; s++, o += 9) {
      let i0: number;
      let i1: number;
      let i2: number;
      if (corners) {
        i0 = corners[3 * s];
        i1 = corners[3 * s + 1];
        i2 = corners[3 * s + 2];
      } else if (index) {
        const t = triIds[s];
        i0 = 3 * index[3 * t];
        i1 = 3 * index[3 * t + 1];
        i2 = 3 * index[3 * t + 2];
      } else {
        i0 = 9 * triIds[s];
        i1 = i0 + 3;
        i2 = i0 + 6;
      }
      const x0 = positions[i0];
      const y0 = positions[i0 + 1];
      const z0 = positions[i0 + 2];
      const x1 = positions[i1];
      const y1 = positions[i1 + 1];
      const z1 = positions[i1 + 2];
      const x2 = positions[i2];
      const y2 = positions[i2 + 1];
      const z2 = positions[i2 + 2];
      triVerts[o] = x0;
      triVerts[o + 1] = y0;
      triVerts[o + 2] = z0;
      triVerts[o + 3] = x1;
      triVerts[o + 4] = y1;
      triVerts[o + 5] = z1;
      triVerts[o + 6] = x2;
      triVerts[o + 7] = y2;
      triVerts[o + 8] = z2;
      // Plain comparisons, not Math.min/max: the coordinates are finite (checked by the callers), so
      // the NaN and signed-zero handling V8 compiles into Math.min/max is dead weight here.
      if (x0 < mx) mx = x0;
      if (x0 > Mx) Mx = x0;
      if (x1 < mx) mx = x1;
      if (x1 > Mx) Mx = x1;
      if (x2 < mx) mx = x2;
      if (x2 > Mx) Mx = x2;
      if (y0 < my) my = y0;
      if (y0 > My) My = y0;
      if (y1 < my) my = y1;
      if (y1 > My) My = y1;
      if (y2 < my) my = y2;
      if (y2 > My) My = y2;
      if (z0 < mz) mz = z0;
      if (z0 > Mz) Mz = z0;
      if (z1 < mz) mz = z1;
      if (z1 > Mz) Mz = z1;
      if (z2 < mz) mz = z2;
      if (z2 > Mz) Mz = z2;
    }
    f32[w] = mx;
    f32[w + 1] = my;
    f32[w + 2] = mz;
    f32[w + 3] = Mx;
    f32[w + 4] = My;
    f32[w + 5] = Mz;
  }
  refitInner(f32, i32, nodeCount);
}

/** Fills the bounds of every inner node from its children (leaf bounds must be up to date). */
export function refitInner(f32: Float32Array, i32: Int32Array, nodeCount: number): void {
  for (let node = nodeCount - 1; node >= 0; node--) {
    const w = node * NODE_WORDS;
    if (i32[w + 7] < 0) continue;
    const l = w + NODE_WORDS;
    const r = i32[w + 6] * NODE_WORDS;
    let a = f32[l];
    let b = f32[r];
    if (b < a) a = b;
    f32[w] = a;
    a = f32[l + 1];
    b = f32[r + 1];
    if (b < a) a = b;
    f32[w + 1] = a;
    a = f32[l + 2];
    b = f32[r + 2];
    if (b < a) a = b;
    f32[w + 2] = a;
    a = f32[l + 3];
    b = f32[r + 3];
    if (b > a) a = b;
    f32[w + 3] = a;
    a = f32[l + 4];
    b = f32[r + 4];
    if (b > a) a = b;
    f32[w + 4] = a;
    a = f32[l + 5];
    b = f32[r + 5];
    if (b > a) a = b;
    f32[w + 5] = a;
  }
}
