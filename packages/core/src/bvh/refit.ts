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
 * Copies each slot's triangle (three vertices, 9 floats, `triIds[slot]` being the original triangle)
 * from `positions`/`index` into `triVerts`, and fills the bounds of every node in the same pass: leaves
 * (which appear in slot order in the depth-first node array) while gathering, then inner nodes in one
 * reverse sweep.
 */
export function gatherAndRefit(
  positions: Float32Array,
  index: TriangleIndex,
  triIds: Uint32Array,
  triVerts: Float32Array,
  f32: Float32Array,
  i32: Int32Array,
  nodeCount: number,
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
    for (let s = i32[w + 6], end = s + ~tag; s < end; s++) {
      const t = triIds[s];
      let i0: number;
      let i1: number;
      let i2: number;
      if (index) {
        i0 = 3 * index[3 * t];
        i1 = 3 * index[3 * t + 1];
        i2 = 3 * index[3 * t + 2];
      } else {
        i0 = 9 * t;
        i1 = i0 + 3;
        i2 = i0 + 6;
      }
      const o = 9 * s;
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
      mx = Math.min(mx, x0, x1, x2);
      my = Math.min(my, y0, y1, y2);
      mz = Math.min(mz, z0, z1, z2);
      Mx = Math.max(Mx, x0, x1, x2);
      My = Math.max(My, y0, y1, y2);
      Mz = Math.max(Mz, z0, z1, z2);
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
    f32[w] = Math.min(f32[l], f32[r]);
    f32[w + 1] = Math.min(f32[l + 1], f32[r + 1]);
    f32[w + 2] = Math.min(f32[l + 2], f32[r + 2]);
    f32[w + 3] = Math.max(f32[l + 3], f32[r + 3]);
    f32[w + 4] = Math.max(f32[l + 4], f32[r + 4]);
    f32[w + 5] = Math.max(f32[l + 5], f32[r + 5]);
  }
}
