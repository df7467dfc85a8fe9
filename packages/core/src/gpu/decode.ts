/**
 * Read-back decoding of the GPU triangle pass: the written pairs of a batch grouped by query (counting
 * sort), flagged pairs re-tested with the CPU's float64 Möller test (T. Möller, JGT 1997, as in
 * `bvh/triTri.ts`), kept pairs sorted by (slot of A, slot of B) into each query's result.
 */
import type { MeshBVH } from '../bvh/index.js';
import { growArray } from '../growArray.js';
import { exactPair } from './exact.js';
import { CODE_HIT, CODE_UNCERTAIN, ENTRY_WORDS } from './shader.js';
import type { GpuPairQuery, GpuPassStats } from './types.js';

/** Largest triangle slot + 1 (slots share a word with the 2-bit code). */
export const SLOT_LIMIT = 2 ** 30;

/** What decoding needs of a registered mesh. */
export interface DecodeMesh {
  bvh: MeshBVH;
  pos: Float32Array;
  vi: Uint32Array;
}

/** Reusable buffers of {@link decodeBatch}. */
export class DecodeScratch {
  counts = new Int32Array(2);
  keys = new Float64Array(256);
  order = new Int32Array(256);
}

/**
 * Turns `count` written pairs (`words` from the output buffer, header of 4 words) into each query's
 * result: hits kept, flagged pairs re-tested (`ctx.exact`) or taken as guessed, sorted by slot.
 * `ctx.T` holds each query's B → A transform (12 numbers a query).
 */
export function decodeBatch(
  words: Uint32Array,
  count: number,
  queries: readonly GpuPairQuery[],
  meshes: readonly (DecodeMesh | null)[],
  ctx: { T: Float64Array; exact: boolean; stats: GpuPassStats },
  scratch: DecodeScratch,
): void {
  const st = ctx.stats;
  const n = queries.length;
  scratch.counts = growArray(scratch.counts, n + 1);
  const counts = scratch.counts;
  counts.fill(0, 0, n + 1);
  for (let e = 0; e < count; e++) counts[words[4 + ENTRY_WORDS * e + 2] + 1]++;
  for (let k = 0; k < n; k++) counts[k + 1] += counts[k];
  scratch.keys = growArray(scratch.keys, count);
  scratch.order = growArray(scratch.order, count);
  const keys = scratch.keys;
  const order = scratch.order;
  for (let e = 0; e < count; e++) order[counts[words[4 + ENTRY_WORDS * e + 2]]++] = e;
  // counts[k] is now the end of query k's entries; shift back to starts.
  for (let k = n; k > 0; k--) counts[k] = counts[k - 1];
  counts[0] = 0;
  // Each query's kept pairs as keys `slotA·nB + slotB`, in place of its entries, then sorted.
  for (let k = 0; k < n; k++) {
    const q = queries[k];
    const ma = meshes[q.a]!;
    const mb = meshes[q.b]!;
    const nB = mb.bvh.triangleCount;
    const T = ctx.T.subarray(12 * k, 12 * k + 12);
    let w = counts[k];
    for (let i = counts[k], end = counts[k + 1]; i < end; i++) {
      const o = 4 + ENTRY_WORDS * order[i];
      const w0 = words[o];
      const sb = words[o + 1];
      const code = w0 >>> 30;
      const sa = w0 & (SLOT_LIMIT - 1);
      let hit: boolean;
      if (code & CODE_UNCERTAIN) {
        st.uncertain++;
        hit = ctx.exact ? exactPair(ma.pos, ma.vi, sa, mb.pos, mb.vi, sb, T) : (code & CODE_HIT) !== 0;
        if (hit) st.uncertainHits++;
      } else {
        hit = (code & CODE_HIT) !== 0;
      }
      if (hit) keys[w++] = sa * nB + sb;
    }
    const sorted = keys.subarray(counts[k], w).sort();
    const idsA = ma.bvh.triIds;
    const idsB = mb.bvh.triIds;
    for (let i = 0; i < sorted.length; i++) {
      const key = sorted[i];
      const sa = Math.floor(key / nB);
      const sb = key - sa * nB;
      q.result.push(sa, sb, idsA[sa], idsB[sb]);
    }
  }
}
