/**
 * The ray walks' four-wide records cover a tree's triangles exactly once, each child's box is the box
 * of the binary node it stands for, and the WebAssembly kernel's copy holds the same records.
 */
import { MeshBVH } from '@sieve/core';
import { describe, expect, it } from 'vitest';
import { buildRayTree, RAY_NODE_WORDS, type RayTree, refreshRayTree } from '../src/raycast/rayTree.js';
import { configureRayKernel } from '../src/raycast/wasmTree.js';
import { knot, soup, terrain } from './scenes.js';

function arrays(g: ReturnType<typeof knot>): { positions: Float32Array; index: Uint32Array | null } {
  const index = g.index ? new Uint32Array(g.index.array) : null;
  return { positions: g.attributes.position.array as Float32Array, index };
}

/** Walks the records from the root: each triangle slot reached once, boxes as the binary nodes'. */
function checkRecords(bvh: MeshBVH, rt: RayTree = buildRayTree(bvh)): number {
  const seen = new Uint8Array(bvh.triangleCount);
  const errors: string[] = [];
  if (rt.recordCount === 0) {
    seen.fill(1);
  } else {
    const stack = [0];
    let visited = 0;
    while (stack.length > 0) {
      const rec = stack.pop() as number;
      visited++;
      const w = rec * RAY_NODE_WORDS;
      for (let c = 0; c < 4; c++) {
        const node = rt.source[4 * rec + c];
        const ref = rt.i32[w + 24 + c];
        const count = rt.i32[w + 28 + c];
        if (node < 0) {
          if (!(rt.f32[w + 6 * c] > rt.f32[w + 6 * c + 3]))
            errors.push(`record ${rec}: unused slot ${c} not empty`);
          continue;
        }
        for (let k = 0; k < 6; k++) {
          if (rt.f32[w + 6 * c + k] !== bvh.nodeF32[8 * node + k])
            errors.push(`record ${rec} child ${c} box`);
        }
        if (count > 0) {
          for (let s = ref; s < ref + count; s++) seen[s]++;
        } else stack.push(ref);
      }
    }
    if (visited !== rt.recordCount) errors.push(`visited ${visited} of ${rt.recordCount} records`);
  }
  for (let s = 0; s < bvh.triangleCount; s++)
    if (seen[s] !== 1) errors.push(`slot ${s} reached ${seen[s]} times`);
  // The kernel's copy: the same links, counts and boxes (structure of arrays).
  if (rt.wasm) {
    const m = rt.wasm;
    for (let r = 0; r < rt.recordCount; r++) {
      for (let c = 0; c < 4; c++) {
        if (m.i32[m.rec + 32 * r + 24 + c] !== rt.i32[32 * r + 24 + c]) errors.push(`kernel link ${r}/${c}`);
        if (m.i32[m.rec + 32 * r + 28 + c] !== rt.i32[32 * r + 28 + c]) errors.push(`kernel count ${r}/${c}`);
        for (let k = 0; k < 6; k++) {
          const a = m.f32[m.rec + 32 * r + 4 * k + c];
          const b = rt.f32[32 * r + 6 * c + k];
          if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) errors.push(`kernel box ${r}/${c}/${k}`);
        }
      }
    }
    // The tree's triangles now live in the kernel's memory.
    if (bvh.triVerts.buffer !== m.f32.buffer) errors.push('triangles not in the kernel memory');
  }
  expect(errors.slice(0, 5)).toEqual([]);
  return rt.recordCount;
}

describe('ray records', () => {
  it('cover every triangle once, with the binary nodes’ boxes, in TypeScript and in the kernel', () => {
    configureRayKernel({ minTriangles: 0 });
    try {
      for (const g of [knot(), knot(1, 200, 16), terrain(24, 3), soup(400, 7)]) {
        const { positions, index } = arrays(g);
        for (const options of [
          {},
          { maxLeafSize: 1 },
          { maxLeafSize: 4, strategy: 'sah' as const },
          { maxDepth: 3 },
        ]) {
          const bvh = new MeshBVH(positions, index, options);
          const records = checkRecords(bvh);
          expect(records).toBeLessThanOrEqual(Math.max(0, (bvh.nodeCount - 1) / 2));
        }
      }
    } finally {
      configureRayKernel({ minTriangles: 2048 });
    }
  });

  it('after a refit, the records and the kernel’s copy carry the new boxes', () => {
    configureRayKernel({ minTriangles: 0 });
    try {
      const g = knot(1, 200, 16);
      const { positions, index } = arrays(g);
      const bvh = new MeshBVH(positions, index);
      const rt = buildRayTree(bvh);
      const moved = positions.map((x, k) => x + 0.05 * Math.sin(k));
      bvh.refit(moved);
      refreshRayTree(rt);
      expect(rt.version).toBe(bvh.version);
      // The same records (the collapse chose them from the old boxes), the new boxes.
      checkRecords(bvh, rt);
    } finally {
      configureRayKernel({ minTriangles: 2048 });
    }
  });
});
