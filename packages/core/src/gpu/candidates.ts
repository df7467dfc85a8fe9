/**
 * CPU culling for the GPU triangle pass: a dual descent of two BVHs (under `T`, B's frame → A's)
 * that stops at node pairs whose triangle counts are both at most a block size, and lists them as
 * blocks — a range of A's triangle slots × a range of B's. Every triangle pair the CPU query could
 * report lies in exactly one listed block.
 *
 * Follows the Project Oort collision write-up (BVH and GPU sections: a coarse BVH for the parallel
 * pass, about 1 024 triangles a leaf, "so that data movement costs don't dominate") and the node test
 * of `bvh/meshMesh.ts` (separating axes on A's three axes and on B's three box axes, exact for boxes
 * under any invertible affine map), with a wider pad (1e-7 of the coordinate scale, against the CPU
 * query's 1e-9) so the blocks always cover the CPU query's pairs.
 */

import type { MeshBVH } from '../bvh/MeshBVH.js';
import { NODE_WORDS } from '../bvh/nodes.js';
import { growArray } from '../growArray.js';

/** Relative pad of the node tests (times the largest coordinate in A's frame). */
export const BLOCK_PAD = 1e-7;
/** Most pairs in one block: larger ones are cut (so a block's work index fits in 32 bits). */
export const MAX_BLOCK_PAIRS = 1 << 24;
/** Most pairs in one dispatch (work indices stay below 2³¹). */
export const MAX_DISPATCH_PAIRS = 2 ** 30;

/** First triangle slot and triangle count of every node of a BVH (its topology never changes). */
export interface NodeRanges {
  first: Int32Array;
  count: Int32Array;
}

/** Computes {@link NodeRanges} of `bvh` (children have larger indices than their parent). */
export function nodeRanges(bvh: MeshBVH): NodeRanges {
  const n = bvh.nodeCount;
  const i32 = bvh.nodeI32;
  const first = new Int32Array(n);
  const count = new Int32Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const w = k * NODE_WORDS;
    const tag = i32[w + 7];
    if (tag < 0) {
      first[k] = i32[w + 6];
      count[k] = ~tag;
    } else {
      const r = i32[w + 6];
      first[k] = first[k + 1];
      count[k] = count[k + 1] + count[r];
    }
  }
  return { first, count };
}

/** Blocks of candidate pairs, grouped in dispatches of at most {@link MAX_DISPATCH_PAIRS} pairs. */
export class BlockList {
  /** 4 words a block: first slot of A, count of A, first slot of B, count of B. */
  blocks = new Uint32Array(256);
  /** Work index of each block's first pair, counted from the start of its dispatch. */
  starts = new Uint32Array(64);
  /** Number of blocks. */
  count = 0;
  /** First block of each dispatch, and its pair count. */
  dispatchFirst = new Int32Array(8);
  dispatchPairs = new Float64Array(8);
  dispatchCount = 0;
  /** All candidate pairs (sum over blocks). */
  pairs = 0;
  /** Node-pair tests of the last descent. */
  nodeTests = 0;

  reset(): void {
    this.count = 0;
    this.dispatchCount = 0;
    this.pairs = 0;
    this.nodeTests = 0;
    this.fresh = true;
  }

  /** Makes the next block open a new dispatch (each query of a batch has its own dispatches). */
  newGroup(): void {
    this.fresh = true;
  }

  private fresh = true;

  /** Adds the block `[offA, offA+cntA) × [offB, offB+cntB)`, cut into pieces of ≤ MAX_BLOCK_PAIRS. */
  add(offA: number, cntA: number, offB: number, cntB: number): void {
    const stepB = Math.min(cntB, MAX_BLOCK_PAIRS);
    for (let b0 = 0; b0 < cntB; b0 += stepB) {
      const nb = Math.min(stepB, cntB - b0);
      const stepA = Math.max(1, Math.floor(MAX_BLOCK_PAIRS / nb));
      for (let a0 = 0; a0 < cntA; a0 += stepA) {
        const na = Math.min(stepA, cntA - a0);
        this.push(offA + a0, na, offB + b0, nb);
      }
    }
  }

  private push(offA: number, cntA: number, offB: number, cntB: number): void {
    const k = this.count++;
    this.blocks = growArray(this.blocks, 4 * k + 4);
    this.starts = growArray(this.starts, k + 1);
    const w = cntA * cntB;
    let d = this.dispatchCount - 1;
    if (this.fresh || d < 0 || this.dispatchPairs[d] + w > MAX_DISPATCH_PAIRS) {
      this.fresh = false;
      d = this.dispatchCount++;
      this.dispatchFirst = growArray(this.dispatchFirst, d + 1);
      this.dispatchPairs = growArray(this.dispatchPairs, d + 1);
      this.dispatchFirst[d] = k;
      this.dispatchPairs[d] = 0;
    }
    this.starts[k] = this.dispatchPairs[d];
    this.dispatchPairs[d] += w;
    this.blocks[4 * k] = offA;
    this.blocks[4 * k + 1] = cntA;
    this.blocks[4 * k + 2] = offB;
    this.blocks[4 * k + 3] = cntB;
    this.pairs += w;
  }
}

let stack = new Int32Array(256);

/**
 * Appends to `out` the node pairs of `a` and `b` (B mapped by `T`, `TI` its inverse, both 12-number
 * affine transforms) whose boxes overlap, descending until both nodes hold at most `blockSize`
 * triangles (or are leaves); adds its node tests to `out.nodeTests`.
 */
export function collectBlocks(
  a: MeshBVH,
  ra: NodeRanges,
  b: MeshBVH,
  rb: NodeRanges,
  T: Float64Array,
  TI: Float64Array,
  blockSize: number,
  out: BlockList,
): void {
  if (a.triangleCount === 0 || b.triangleCount === 0) return;
  const fa = a.nodeF32;
  const ia = a.nodeI32;
  const fb = b.nodeF32;
  const ib = b.nodeI32;
  // Pad: BLOCK_PAD times the largest coordinate of A's root box and of B's root box in A's frame.
  let s = 0;
  for (let k = 0; k < 6; k++) s = Math.max(s, Math.abs(fa[k]));
  for (let r = 0; r < 3; r++) {
    const c =
      T[r] * 0.5 * (fb[0] + fb[3]) + T[r + 3] * 0.5 * (fb[1] + fb[4]) + T[r + 6] * 0.5 * (fb[2] + fb[5]);
    const h =
      Math.abs(T[r]) * 0.5 * (fb[3] - fb[0]) +
      Math.abs(T[r + 3]) * 0.5 * (fb[4] - fb[1]) +
      Math.abs(T[r + 6]) * 0.5 * (fb[5] - fb[2]);
    s = Math.max(s, Math.abs(c + T[r + 9]) + h);
  }
  const pad = BLOCK_PAD * (Number.isFinite(s) ? s : 0);
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  let tests = 0;
  while (sp > 0) {
    const nb = stack[--sp];
    const na = stack[--sp];
    tests++;
    const wa = na * NODE_WORDS;
    const wb = nb * NODE_WORDS;
    if (apart(fa, wa, fb, wb, T, TI, pad)) continue;
    const cA = ra.count[na];
    const cB = rb.count[nb];
    const doneA = ia[wa + 7] < 0 || cA <= blockSize;
    const doneB = ib[wb + 7] < 0 || cB <= blockSize;
    if (doneA && doneB) {
      out.add(ra.first[na], cA, rb.first[nb], cB);
      continue;
    }
    if (sp + 4 > stack.length) stack = growArray(stack, sp + 4);
    if (!doneA && (doneB || cA >= cB)) {
      stack[sp++] = ia[wa + 6];
      stack[sp++] = nb;
      stack[sp++] = na + 1;
      stack[sp++] = nb;
    } else {
      stack[sp++] = na;
      stack[sp++] = ib[wb + 6];
      stack[sp++] = na;
      stack[sp++] = nb + 1;
    }
  }
  out.nodeTests += tests;
}

/** Whether node boxes `fa[wa]` (A's frame, padded) and `fb[wb]` (B's frame, mapped by T) are apart. */
function apart(
  fa: Float32Array,
  wa: number,
  fb: Float32Array,
  wb: number,
  T: Float64Array,
  U: Float64Array,
  pad: number,
): boolean {
  const bcx = 0.5 * (fb[wb] + fb[wb + 3]);
  const bcy = 0.5 * (fb[wb + 1] + fb[wb + 4]);
  const bcz = 0.5 * (fb[wb + 2] + fb[wb + 5]);
  const bhx = 0.5 * (fb[wb + 3] - fb[wb]);
  const bhy = 0.5 * (fb[wb + 4] - fb[wb + 1]);
  const bhz = 0.5 * (fb[wb + 5] - fb[wb + 2]);
  const acx = 0.5 * (fa[wa] + fa[wa + 3]);
  const acy = 0.5 * (fa[wa + 1] + fa[wa + 4]);
  const acz = 0.5 * (fa[wa + 2] + fa[wa + 5]);
  const ahx = 0.5 * (fa[wa + 3] - fa[wa]) + pad;
  const ahy = 0.5 * (fa[wa + 4] - fa[wa + 1]) + pad;
  const ahz = 0.5 * (fa[wa + 5] - fa[wa + 2]) + pad;
  for (let r = 0; r < 3; r++) {
    const d = T[r] * bcx + T[r + 3] * bcy + T[r + 6] * bcz + T[r + 9] - (r === 0 ? acx : r === 1 ? acy : acz);
    const reach =
      (r === 0 ? ahx : r === 1 ? ahy : ahz) +
      Math.abs(T[r]) * bhx +
      Math.abs(T[r + 3]) * bhy +
      Math.abs(T[r + 6]) * bhz;
    if (Math.abs(d) > reach) return true;
  }
  for (let r = 0; r < 3; r++) {
    const d = U[r] * acx + U[r + 3] * acy + U[r + 6] * acz + U[r + 9] - (r === 0 ? bcx : r === 1 ? bcy : bcz);
    const reach =
      (r === 0 ? bhx : r === 1 ? bhy : bhz) +
      Math.abs(U[r]) * ahx +
      Math.abs(U[r + 3]) * ahy +
      Math.abs(U[r + 6]) * ahz;
    if (Math.abs(d) > reach) return true;
  }
  return false;
}
