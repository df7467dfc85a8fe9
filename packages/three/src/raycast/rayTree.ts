/**
 * The ray walks' copy of a `MeshBVH`'s nodes: a four-wide tree whose records hold the boxes of their
 * (up to four) children, so that one visit reads one 128-byte record, tests four boxes, and a ray goes
 * down half as many levels as in the binary tree — the walk is a chain of dependent memory reads, and
 * its length is what a ray pays for. Leaves are never visited as nodes: a leaf child is tested from
 * its parent's record.
 *
 * The layout of wide BVHs for CPU ray tracing (Wald, Benthin and Boulos, "Getting rid of packets",
 * 2008; Dammertz et al., "Shallow bounding volume hierarchies for fast SIMD ray tracing of incoherent
 * rays", 2008; Embree's `BVH4`), made by collapsing `@sieve/core`'s binary tree: a record starts from
 * a binary node's two children and opens the inner child of largest surface area until it has four
 * (the greedy collapse of Wald et al.). The triangles, their slots in `MeshBVH.triVerts` and the boxes
 * are core's, unchanged; refit copies the boxes again (`refreshRayTree`). Byte-quantized child boxes
 * (64-byte records) were measured slower here: the decoding costs more than the halved reads save.
 *
 * | word  | content                                                                      |
 * | ----- | ---------------------------------------------------------------------------- |
 * | 0–23  | child c's box at 6c: minX minY minZ maxX maxY maxZ (float32, as core's)        |
 * | 24–27 | child c: record index of an inner child, or the first triangle slot of a leaf  |
 * | 28–31 | child c: 0 for an inner child, the triangle count of a leaf                    |
 *
 * An unused child slot has the empty box (+∞ … −∞), which no ray's slab test accepts.
 */
import type { MeshBVH } from '@sieve/core';
import { buildWasmTree, refreshWasmTree, type WasmRayTree } from './wasmTree.js';

/** 32-bit words per record. */
export const RAY_NODE_WORDS = 32;

/** A `MeshBVH`'s nodes in the ray walks' layout. */
export interface RayTree {
  /** The tree copied, and its `version` when the boxes were copied. */
  bvh: MeshBVH;
  version: number;
  /** Float32 and Int32 views of the records. */
  f32: Float32Array;
  i32: Int32Array;
  /** Number of records (0 when the root of the binary tree is a leaf). */
  recordCount: number;
  /** The binary node whose box fills each child slot (4 per record), −1 for an unused slot. */
  source: Int32Array;
  /** The copy the WebAssembly kernel walks, or null where it cannot run (the walks run in TypeScript). */
  wasm: WasmRayTree | null;
}

/** The ray layout of `bvh` (records filled, boxes copied). */
export function buildRayTree(bvh: MeshBVH): RayTree {
  const src = bvh.nodeI32;
  const nodeCount = bvh.nodeCount;
  // At most one record per inner binary node; a record opens up to two more, so about half of them
  // (0.47 measured on knots and terrains): start at 0.6 and grow if a tree needs more.
  const inner = Math.max(1, (nodeCount - 1) >> 1);
  let capacity = Math.min(inner, Math.ceil(0.6 * inner) + 64);
  let i32: Int32Array = new Int32Array(capacity * RAY_NODE_WORDS);
  let source: Int32Array = new Int32Array(capacity * 4);
  let records = 0;
  // Explicit stack of (binary inner node, record index) pairs still to fill.
  let stack: Int32Array = new Int32Array(256);
  let sp = 0;
  if (src[7] >= 0) {
    records = 1;
    stack[sp++] = 0;
    stack[sp++] = 0;
  }
  const kids = new Int32Array(4);
  while (sp > 0) {
    const rec = stack[--sp];
    const node = stack[--sp];
    // The children of the record: start from `node`'s two children and open the inner child with the
    // largest surface area until there are four (Wald et al.'s collapse of a binary tree).
    const f = bvh.nodeF32;
    let k = 2;
    kids[0] = node + 1;
    kids[1] = src[node * 8 + 6];
    while (k < 4) {
      let best = -1;
      let bestArea = -1;
      for (let c = 0; c < k; c++) {
        const w = kids[c] * 8;
        if (src[w + 7] < 0) continue;
        const dx = f[w + 3] - f[w];
        const dy = f[w + 4] - f[w + 1];
        const dz = f[w + 5] - f[w + 2];
        const area = dx * dy + dy * dz + dz * dx;
        if (area > bestArea) {
          bestArea = area;
          best = c;
        }
      }
      if (best < 0) break;
      const opened = kids[best];
      kids[best] = opened + 1;
      kids[k++] = src[opened * 8 + 6];
    }
    const o = rec * RAY_NODE_WORDS;
    // Inner children get records in reverse so the stack hands them out in order (depth first).
    const firstRecord = records;
    for (let c = 0; c < k; c++) if (src[kids[c] * 8 + 7] >= 0) records++;
    if (records > capacity) {
      capacity = Math.min(inner, 2 * capacity);
      i32 = grown(i32, capacity * RAY_NODE_WORDS);
      source = grown(source, capacity * 4);
    }
    let next = firstRecord;
    for (let c = 0; c < 4; c++) {
      source[rec * 4 + c] = c < k ? kids[c] : -1;
      if (c >= k) {
        i32[o + 24 + c] = 0;
        i32[o + 28 + c] = 0;
        continue;
      }
      const child = kids[c];
      const tag = src[child * 8 + 7];
      if (tag < 0) {
        i32[o + 24 + c] = src[child * 8 + 6];
        i32[o + 28 + c] = ~tag;
      } else {
        i32[o + 24 + c] = next;
        i32[o + 28 + c] = 0;
        next++;
      }
    }
    if (sp + 8 > stack.length) stack = grown(stack, 2 * stack.length);
    for (let c = k - 1; c >= 0; c--) {
      const child = kids[c];
      if (src[child * 8 + 7] < 0) continue;
      stack[sp++] = child;
      stack[sp++] = i32[o + 24 + c];
    }
  }
  // Views of the records written (a copy only when much of the buffer went unused).
  const used = Math.max(1, records);
  if (used < 0.75 * capacity) {
    i32 = i32.slice(0, used * RAY_NODE_WORDS);
    source = source.slice(0, used * 4);
  } else {
    i32 = i32.subarray(0, used * RAY_NODE_WORDS);
    source = source.subarray(0, used * 4);
  }
  const tree: RayTree = {
    bvh,
    version: -1,
    f32: new Float32Array(i32.buffer, 0, used * RAY_NODE_WORDS),
    i32,
    recordCount: records,
    source,
    wasm: null,
  };
  refreshRayTree(tree);
  tree.wasm = buildWasmTree(bvh, tree.f32, tree.i32, records);
  return tree;
}

/** `a` copied into a new array of `length` (≥ its own). */
function grown(a: Int32Array, length: number): Int32Array {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

/** Copies the children's boxes from the `MeshBVH` again (after a refit). */
export function refreshRayTree(tree: RayTree): void {
  const f = tree.bvh.nodeF32;
  const out = tree.f32;
  const source = tree.source;
  for (let rec = 0; rec < tree.recordCount; rec++) {
    for (let c = 0; c < 4; c++) {
      const o = rec * RAY_NODE_WORDS + 6 * c;
      const node = source[rec * 4 + c];
      if (node < 0) {
        out[o] = out[o + 1] = out[o + 2] = Infinity;
        out[o + 3] = out[o + 4] = out[o + 5] = -Infinity;
        continue;
      }
      const w = node * 8;
      out[o] = f[w];
      out[o + 1] = f[w + 1];
      out[o + 2] = f[w + 2];
      out[o + 3] = f[w + 3];
      out[o + 4] = f[w + 4];
      out[o + 5] = f[w + 5];
    }
  }
  if (tree.wasm !== null) refreshWasmTree(tree.wasm, out, tree.recordCount);
  tree.version = tree.bvh.version;
}
