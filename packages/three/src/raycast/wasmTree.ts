/**
 * A ray tree's copy in the memory of its WebAssembly kernel (`wasm/rayKernel.as`): the parameter block,
 * the stack, the candidate list, the records as structures of arrays (the four children's min x, then
 * their min y, …, so that two children's planes load into one float64x2 register) and the triangles.
 *
 * The triangles are not duplicated: the tree's `MeshBVH.triVerts` moves into the kernel's memory
 * (`MeshBVH.relocateTriangles`) when the first ray is cast, and a refit rewrites it there. Only trees
 * of at least 2048 triangles get a kernel (a memory is made of 64 KiB pages; small trees walk fast in
 * TypeScript).
 */
import type { MeshBVH } from '@sieve/core';
import { instantiateRayKernel, type RayKernel, setRayKernelEnabled } from './wasm/rayKernel.js';

/** Byte offsets of the kernel's memory (see rayKernel.as). */
const STACK = 256;
/** Stack entries (links, counts and keys each); a deeper walk falls back to TypeScript. */
const STACK_CAP = 256;
const OUT = STACK + STACK_CAP * 16;
/** Candidates one walk may return before the walk falls back to TypeScript. */
const OUT_CAP = 2048;
const REC = OUT + OUT_CAP * 4;
const RECORD_BYTES = 128;
/** Meshes with fewer triangles keep plain arrays (their walk is cheap; a memory is 64 KiB pages). */
let minTriangles = 2048;

/** Parameter slots (float64 index) and int32 slots, as rayKernel.as reads them. */
export const P_OXN = 0;
export const P_OXF = 3;
export const P_INV = 6;
export const P_LO = 9;
export const P_HI = 10;
export const P_ORIGIN = 11;
export const P_DIR = 14;
export const P_PAD = 17;
export const P_NEAR_CUT = 18;
export const I_NEAR_X = 48;
export const I_MODE = 51;

/**
 * Which trees the kernel walks from now on (those whose first ray comes later): none (`enabled:
 * false`), or those of at least `minTriangles` triangles (default 2048). For the tests, which run both
 * walks on small meshes.
 * @internal
 */
export function configureRayKernel(options: { enabled?: boolean; minTriangles?: number }): void {
  if (options.enabled !== undefined) setRayKernelEnabled(options.enabled);
  if (options.minTriangles !== undefined) minTriangles = options.minTriangles;
}

/** The kernel and its views. */
export interface WasmRayTree {
  kernel: RayKernel;
  /** Views of the whole memory. */
  f64: Float64Array;
  f32: Float32Array;
  i32: Int32Array;
  /** Int32 index of the candidate list. */
  out: number;
  /** Float32 index of the records. */
  rec: number;
}

/**
 * The kernel's copy of a tree of `recordCount` records in the layout of `rayTree.ts` (`f32`/`i32`
 * views), with `bvh`'s triangles moved into its memory; null (nothing moved) for a small tree, a tree
 * without records, or where WebAssembly SIMD is unavailable.
 */
export function buildWasmTree(
  bvh: MeshBVH,
  f32: Float32Array,
  i32: Int32Array,
  recordCount: number,
): WasmRayTree | null {
  if (recordCount === 0 || bvh.triangleCount < minTriangles) return null;
  const tri = REC + recordCount * RECORD_BYTES;
  const kernel = instantiateRayKernel(tri + 4 * bvh.triVerts.length);
  if (kernel === null) return null;
  const buffer = kernel.memory.buffer;
  bvh.relocateTriangles(new Float32Array(buffer, tri, bvh.triVerts.length));
  const w: WasmRayTree = {
    kernel,
    f64: new Float64Array(buffer),
    f32: new Float32Array(buffer),
    i32: new Int32Array(buffer),
    out: OUT >> 2,
    rec: REC >> 2,
  };
  const m = w.i32;
  m[52] = REC;
  m[53] = tri;
  m[54] = STACK;
  m[55] = STACK_CAP;
  m[56] = OUT;
  m[57] = OUT_CAP;
  // Links and counts: the same as the TypeScript records'.
  for (let r = 0; r < recordCount; r++) {
    const o = w.rec + 32 * r;
    for (let c = 0; c < 4; c++) {
      m[o + 24 + c] = i32[32 * r + 24 + c];
      m[o + 28 + c] = i32[32 * r + 28 + c];
    }
  }
  refreshWasmTree(w, f32, recordCount);
  return w;
}

/** Copies the boxes of the TypeScript records into the kernel's records again. */
export function refreshWasmTree(w: WasmRayTree, f32: Float32Array, recordCount: number): void {
  const out = w.f32;
  for (let r = 0; r < recordCount; r++) {
    const o = w.rec + 32 * r;
    const a = 32 * r;
    for (let c = 0; c < 4; c++) {
      for (let k = 0; k < 6; k++) out[o + 4 * k + c] = f32[a + 6 * c + k];
    }
  }
}
