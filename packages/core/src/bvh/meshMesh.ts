/**
 * Mesh–mesh intersection of two BVHs under two affine transforms: the intersecting triangle pairs, hit
 * data per side, and an early-out "any hit" form.
 *
 * Follows the Project Oort collision write-up: node boxes are turned into oriented boxes under
 * the bodies' transforms and tested with separating axes (OBB section), the dual-tree descent splits
 * the larger volume first ("descend_heirarchy", "should_descend"), leaf pairs run Möller's
 * triangle–triangle test (`triTri.ts`), and hit data is the average contact point and normal of the
 * intersecting triangles on each side ("hit_from_colliders"). Peer: three-mesh-bvh's `bvhcast` and
 * `intersectsGeometry` (`src/core/cast/`), which test axis-aligned boxes of transformed boxes.
 *
 * How it is fast, and stays exact:
 * - Everything runs in A's local frame: `T = M_A⁻¹·M_B` maps B into it once per query. A node of B
 *   becomes the parallelepiped `T(box)`; a node pair is rejected by separating axes on the 3 axes of
 *   A and the 3 face normals of B's box (tested in B's frame with `T⁻¹`) — exact for boxes under any
 *   invertible affine map, including non-uniform scale.
 * - The descent picks the node with the larger half-extent sum (B's scaled by `|det T|^⅓`); Project
 *   Oort compares volumes, which are zero for the flat nodes of planar meshes.
 * - Triangles are turned into float64 records (vertices, unit normal, plane offset, scale) lazily,
 *   at most once per query per triangle, into a pool found through a generation-stamped slot map
 *   (memory: 8 bytes a triangle of each mesh, plus 128 bytes a triangle touched); A's records survive
 *   across queries while A and its `version` do not change. In a leaf pair each triangle is first checked against the
 *   other node's box, then the survivors are tested pairwise.
 * - No recursion (explicit `Int32Array` stack) and no allocation once the result's buffers are warm.
 * - Culling is padded by `1e-9·S` (`S` the largest absolute coordinate in A's frame) so it never
 *   rejects a pair the triangle test would accept (its tolerance is `≈ 9e-13·S`): the pair set equals
 *   {@link meshMeshBruteForce} exactly.
 */

import { growArray } from '../growArray.js';
import { type Affine, affineFromMatrix4, affineInvert, affineMultiply, normalMatrix } from './affine.js';
import type { MeshBVH } from './MeshBVH.js';
import { MeshMeshResult } from './meshMeshResult.js';
import { NODE_WORDS } from './nodes.js';
import type { MeshTree } from './tree.js';
import { finishTriangleRecord, REC_NORMAL, REC_SLOT, TRI_RECORD, triTriRecords } from './triTri.js';

export { MeshMeshResult };

/** Relative padding of node and triangle culling (times the query's coordinate scale). */
export const CULL_EPS = 1e-9;

const defaultResult = new MeshMeshResult();

// Query transforms (module scratch).
const MA = new Float64Array(12);
const MB = new Float64Array(12);
const IA = new Float64Array(12);
const T = new Float64Array(12);
const TI = new Float64Array(12);
const NM = new Float64Array(9);
/** Culling pad of the current query (see `rootsApart`). */
const PAD = new Float64Array(1);
/** Box of `triOutside`: min xyz, max xyz. */
const BOX = new Float64Array(6);

/**
 * Reads both transforms and computes `T = M_A⁻¹·M_B` (B's local frame → A's local frame) into the
 * module scratch. Throws a `RangeError` naming the matrix for bad transforms.
 */
function setupTransforms(matrixA: ArrayLike<number> | null, matrixB: ArrayLike<number> | null): void {
  affineFromMatrix4(MA, matrixA, 'matrixA');
  affineFromMatrix4(MB, matrixB, 'matrixB');
  affineInvert(IA, MA);
  affineMultiply(T, IA, MB);
  // TI (= T⁻¹) is computed by `traverse` once the root boxes are found to overlap on A's axes.
}

/**
 * The transform `M_A⁻¹·M_B` the queries use to bring B into A's frame (exposed so tests and
 * reference code can reproduce them bit for bit). Returns 12 numbers (see `affine.ts`).
 */
export function relativeTransform(
  matrixA: ArrayLike<number> | null,
  matrixB: ArrayLike<number> | null,
  out: Affine = new Float64Array(12),
): Affine {
  setupTransforms(matrixA, matrixB);
  out.set(T);
  return out;
}

/** Writes the record of slot `s` of `bvh`, transformed by `m`, into `rec` at `o`. */
export function writeTransformedRecord(
  bvh: MeshTree,
  s: number,
  m: Affine,
  rec: Float64Array,
  o: number,
): void {
  const v = bvh.triVerts;
  const i = 9 * s;
  const m0 = m[0];
  const m1 = m[1];
  const m2 = m[2];
  const m3 = m[3];
  const m4 = m[4];
  const m5 = m[5];
  const m6 = m[6];
  const m7 = m[7];
  const m8 = m[8];
  const m9 = m[9];
  const m10 = m[10];
  const m11 = m[11];
  let x = v[i];
  let y = v[i + 1];
  let z = v[i + 2];
  const x0 = m0 * x + m3 * y + m6 * z + m9;
  const y0 = m1 * x + m4 * y + m7 * z + m10;
  const z0 = m2 * x + m5 * y + m8 * z + m11;
  x = v[i + 3];
  y = v[i + 4];
  z = v[i + 5];
  const x1 = m0 * x + m3 * y + m6 * z + m9;
  const y1 = m1 * x + m4 * y + m7 * z + m10;
  const z1 = m2 * x + m5 * y + m8 * z + m11;
  x = v[i + 6];
  y = v[i + 7];
  z = v[i + 8];
  rec[o] = x0;
  rec[o + 1] = y0;
  rec[o + 2] = z0;
  rec[o + 3] = x1;
  rec[o + 4] = y1;
  rec[o + 5] = z1;
  rec[o + 6] = m0 * x + m3 * y + m6 * z + m9;
  rec[o + 7] = m1 * x + m4 * y + m7 * z + m10;
  rec[o + 8] = m2 * x + m5 * y + m8 * z + m11;
  finishTriangleRecord(rec, o);
}

/** Writes the record of slot `s` of `bvh` in its own frame (no transform). */
export function writeLocalRecord(bvh: MeshTree, s: number, rec: Float64Array, o: number): void {
  const v = bvh.triVerts;
  const i = 9 * s;
  for (let k = 0; k < 9; k++) rec[o + k] = v[i + k];
  finishTriangleRecord(rec, o);
}

/**
 * Whether mesh A (BVH `a` under `matrixA`) and mesh B (`b` under `matrixB`) intersect: stops at the
 * first intersecting triangle pair, which is left in `result` (`count` 1) — hit data is not computed.
 * Matrices are column-major 4×4 (three.js `Matrix4.elements`), `null` for identity; any invertible
 * affine matrix works. Does not allocate once `result` is warm (the default result is shared).
 */
export function meshMeshIntersects(
  a: MeshBVH,
  matrixA: ArrayLike<number> | null,
  b: MeshBVH,
  matrixB: ArrayLike<number> | null,
  result: MeshMeshResult = defaultResult,
): boolean {
  return meshMeshTriangles(a, matrixA, b, matrixB, result, true) > 0;
}

/**
 * Every intersecting triangle pair of mesh A (BVH `a` under `matrixA`) and mesh B (`b` under
 * `matrixB`), into `result` (`trianglesA`/`trianglesB`, `count`), with the hit data of each side.
 * Returns the pair count. Touching triangles count (see `triTri.ts`). Does not allocate once
 * `result`'s buffers are large enough.
 *
 * @example
 * ```ts
 * import { MeshBVH, MeshMeshResult, meshMeshPairs } from '@sieve/core';
 *
 * // A unit tetrahedron, and the same mesh moved by (0.25, 0.25, 0.25): they intersect.
 * const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
 * const bvh = new MeshBVH(positions, new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]));
 * const moved = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.25, 0.25, 0.25, 1]; // column-major 4×4
 * const result = new MeshMeshResult(); // reuse it: its arrays grow once, then nothing is allocated
 * const n = meshMeshPairs(bvh, null, bvh, moved, result);
 * console.log(n, result.trianglesA.subarray(0, n), result.trianglesB.subarray(0, n)); // 3 pairs
 * console.log(result.pointA, result.normalA); // where A is hit, and its average face normal there
 * ```
 */
export function meshMeshPairs(
  a: MeshBVH,
  matrixA: ArrayLike<number> | null,
  b: MeshBVH,
  matrixB: ArrayLike<number> | null,
  result: MeshMeshResult,
): number {
  meshMeshTriangles(a, matrixA, b, matrixB, result, false);
  computeHitData(a, b, result);
  return result.count;
}

/**
 * The intersecting triangle pairs of {@link meshMeshPairs} (`anyHit` false) or the first one of
 * {@link meshMeshIntersects} (`anyHit` true), into `result`, on plain trees (`buildMeshTree`) or
 * `MeshBVH`es, without the hit data (`pointA`, `normalA`, … are left as they were). Returns the count.
 *
 * @internal
 */
export function meshMeshTriangles(
  a: MeshTree,
  matrixA: ArrayLike<number> | null,
  b: MeshTree,
  matrixB: ArrayLike<number> | null,
  result: MeshMeshResult,
  anyHit: boolean,
): number {
  setupTransforms(matrixA, matrixB);
  traverse(a, b, result, anyHit);
  return result.count;
}

/** Sort scratch of {@link meshMeshPairsSlotOrder}. */
let sortKeys = new Float64Array(64);

/**
 * {@link meshMeshPairs} with the pairs in slot order — sorted by (slot of A, slot of B), the order of
 * {@link meshMeshBruteForce} — and the hit data summed in that order, so the result equals the brute
 * force's bit for bit (what `GpuMeshMesh` returns on every backend). Allocates only while its sort
 * scratch grows.
 */
export function meshMeshPairsSlotOrder(
  a: MeshBVH,
  matrixA: ArrayLike<number> | null,
  b: MeshBVH,
  matrixB: ArrayLike<number> | null,
  result: MeshMeshResult,
): number {
  setupTransforms(matrixA, matrixB);
  traverse(a, b, result, false);
  const n = result.count;
  const nB = b.triangleCount;
  sortKeys = growArray(sortKeys, n);
  const keys = sortKeys;
  for (let k = 0; k < n; k++) keys[k] = result.slotsA[k] * nB + result.slotsB[k];
  // Keys are exact integers below 2^53 (slots below 2^30) and distinct (each pair once).
  keys.subarray(0, n).sort();
  const idsA = a.triIds;
  const idsB = b.triIds;
  for (let k = 0; k < n; k++) {
    const key = keys[k];
    const sa = Math.floor(key / nB);
    const sb = key - sa * nB;
    result.slotsA[k] = sa;
    result.slotsB[k] = sb;
    result.trianglesA[k] = idsA[sa];
    result.trianglesB[k] = idsB[sb];
  }
  computeHitData(a, b, result);
  return n;
}

/**
 * Reference for {@link meshMeshPairs}: the same triangle test and transforms over all `n·m` pairs, no
 * tree. Slow (for tests and validation); fills `result` the same way, pairs in slot order.
 */
export function meshMeshBruteForce(
  a: MeshBVH,
  matrixA: ArrayLike<number> | null,
  b: MeshBVH,
  matrixB: ArrayLike<number> | null,
  result: MeshMeshResult,
): number {
  setupTransforms(matrixA, matrixB);
  const ca = result.cacheA;
  const cb = result.cacheB;
  ca.begin(a, false);
  cb.begin(b, false);
  // Fresh caches allocate in slot order: slot s has its record at s·TRI_RECORD.
  for (let s = 0; s < a.triangleCount; s++) {
    const o = ca.alloc(s); // may grow the pool: read `pool` after
    writeLocalRecord(a, s, ca.pool, o);
  }
  for (let s = 0; s < b.triangleCount; s++) {
    const o = cb.alloc(s);
    writeTransformedRecord(b, s, T, cb.pool, o);
  }
  const ra = ca.pool;
  const rb = cb.pool;
  result.count = 0;
  result.triangleTests = 0;
  result.nodeTests = 0;
  for (let i = 0; i < a.triangleCount; i++) {
    for (let j = 0; j < b.triangleCount; j++) {
      result.triangleTests++;
      if (triTriRecords(ra, i * TRI_RECORD, rb, j * TRI_RECORD)) result.push(i, j, a.triIds[i], b.triIds[j]);
    }
  }
  computeHitData(a, b, result);
  return result.count;
}

function traverse(a: MeshTree, b: MeshTree, result: MeshMeshResult, anyHit: boolean): void {
  result.count = 0;
  result.triangleTests = 0;
  result.nodeTests = 0;
  if (a.triangleCount === 0 || b.triangleCount === 0) return;
  const ca = result.cacheA;
  const cb = result.cacheB;
  // Quick reject of far poses before any other set-up: B's root box mapped into A's frame against
  // A's root box, on A's axes (padded like every other test).
  if (rootsApart(a.nodeF32, b.nodeF32)) return;
  const pad = PAD[0];
  affineInvert(TI, T);
  ca.begin(a, true);
  cb.begin(b, false);
  const stampA = ca.stamp;
  const stampB = cb.stamp;
  const whereA = ca.where;
  const whereB = cb.where;
  const genA = ca.gen;
  const genB = cb.gen;

  const fa = a.nodeF32;
  const ia = a.nodeI32;
  const fb = b.nodeF32;
  const ib = b.nodeI32;
  const idsA = a.triIds;
  const idsB = b.triIds;

  // T and |T| (B → A), TI and |TI| (A → B), in locals.
  const t0 = T[0];
  const t1 = T[1];
  const t2 = T[2];
  const t3 = T[3];
  const t4 = T[4];
  const t5 = T[5];
  const t6 = T[6];
  const t7 = T[7];
  const t8 = T[8];
  const t9 = T[9];
  const t10 = T[10];
  const t11 = T[11];
  const u0 = TI[0];
  const u1 = TI[1];
  const u2 = TI[2];
  const u3 = TI[3];
  const u4 = TI[4];
  const u5 = TI[5];
  const u6 = TI[6];
  const u7 = TI[7];
  const u8 = TI[8];
  const u9 = TI[9];
  const u10 = TI[10];
  const u11 = TI[11];
  const at0 = Math.abs(t0);
  const at1 = Math.abs(t1);
  const at2 = Math.abs(t2);
  const at3 = Math.abs(t3);
  const at4 = Math.abs(t4);
  const at5 = Math.abs(t5);
  const at6 = Math.abs(t6);
  const at7 = Math.abs(t7);
  const at8 = Math.abs(t8);
  const au0 = Math.abs(u0);
  const au1 = Math.abs(u1);
  const au2 = Math.abs(u2);
  const au3 = Math.abs(u3);
  const au4 = Math.abs(u4);
  const au5 = Math.abs(u5);
  const au6 = Math.abs(u6);
  const au7 = Math.abs(u7);
  const au8 = Math.abs(u8);
  const det =
    T[0] * (T[4] * T[8] - T[5] * T[7]) -
    T[3] * (T[1] * T[8] - T[2] * T[7]) +
    T[6] * (T[1] * T[5] - T[2] * T[4]);
  const scaleB = Math.cbrt(Math.abs(det));
  let triangleTests = 0;

  // Explicit stack of node pairs; each pair on it has passed the overlap test. The root pair is
  // tested by running the loop body's test on the candidate (0, 0).
  let stack = result.stack;
  let sp = 0;
  let nodeTests = 0;
  // Candidates (two at most) produced by the current step.
  let ca0 = 0;
  let cb0 = 0;
  let ca1 = -1;
  let cb1 = -1;
  for (;;) {
    // Overlap test of the candidates: separating axes of A's box (padded by `pad`) and B's box
    // under T — A's three axes, then B's three axes (A's box mapped into B's frame by TI).
    for (let k = 0; k < 2; k++) {
      const na = k === 0 ? ca0 : ca1;
      if (na < 0) continue;
      const nb = k === 0 ? cb0 : cb1;
      nodeTests++;
      const wa = na * NODE_WORDS;
      const wb = nb * NODE_WORDS;
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
      let d = t0 * bcx + t3 * bcy + t6 * bcz + t9 - acx;
      if ((d < 0 ? -d : d) > ahx + at0 * bhx + at3 * bhy + at6 * bhz) continue;
      d = t1 * bcx + t4 * bcy + t7 * bcz + t10 - acy;
      if ((d < 0 ? -d : d) > ahy + at1 * bhx + at4 * bhy + at7 * bhz) continue;
      d = t2 * bcx + t5 * bcy + t8 * bcz + t11 - acz;
      if ((d < 0 ? -d : d) > ahz + at2 * bhx + at5 * bhy + at8 * bhz) continue;
      d = u0 * acx + u3 * acy + u6 * acz + u9 - bcx;
      if ((d < 0 ? -d : d) > bhx + au0 * ahx + au3 * ahy + au6 * ahz) continue;
      d = u1 * acx + u4 * acy + u7 * acz + u10 - bcy;
      if ((d < 0 ? -d : d) > bhy + au1 * ahx + au4 * ahy + au7 * ahz) continue;
      d = u2 * acx + u5 * acy + u8 * acz + u11 - bcz;
      if ((d < 0 ? -d : d) > bhz + au2 * ahx + au5 * ahy + au8 * ahz) continue;
      if (sp + 2 > stack.length) stack = result.stack = growArray(stack, sp + 2);
      stack[sp++] = na;
      stack[sp++] = nb;
    }
    if (sp === 0) break;
    const nb = stack[--sp];
    const na = stack[--sp];
    const wa = na * NODE_WORDS;
    const wb = nb * NODE_WORDS;
    const tagA = ia[wa + 7];
    const tagB = ib[wb + 7];
    if (tagA >= 0 || tagB >= 0) {
      // Split the larger node (half-extent sums, B's scaled into A's frame); a leaf never splits.
      let descendA = tagA >= 0;
      if (descendA && tagB >= 0) {
        const sizeA = fa[wa + 3] - fa[wa] + (fa[wa + 4] - fa[wa + 1]) + (fa[wa + 5] - fa[wa + 2]);
        const sizeB = (fb[wb + 3] - fb[wb] + (fb[wb + 4] - fb[wb + 1]) + (fb[wb + 5] - fb[wb + 2])) * scaleB;
        descendA = sizeA >= sizeB;
      }
      // Right child first on the stack so the left one is popped first.
      if (descendA) {
        ca0 = ia[wa + 6];
        ca1 = na + 1;
        cb0 = cb1 = nb;
      } else {
        ca0 = ca1 = na;
        cb0 = ib[wb + 6];
        cb1 = nb + 1;
      }
      continue;
    }
    ca0 = ca1 = -1;

    // Leaf pair: make records, cull each side's triangles against the other node's box (axis-aligned
    // in A's frame), test the survivors pairwise.
    const offA = ia[wa + 6];
    const cntA = ~tagA;
    const offB = ib[wb + 6];
    const cntB = ~tagB;
    // Box of B's node in A's frame (AABB of the parallelepiped), padded.
    const bcx = 0.5 * (fb[wb] + fb[wb + 3]);
    const bcy = 0.5 * (fb[wb + 1] + fb[wb + 4]);
    const bcz = 0.5 * (fb[wb + 2] + fb[wb + 5]);
    const bhx = 0.5 * (fb[wb + 3] - fb[wb]);
    const bhy = 0.5 * (fb[wb + 4] - fb[wb + 1]);
    const bhz = 0.5 * (fb[wb + 5] - fb[wb + 2]);
    const cx = t0 * bcx + t3 * bcy + t6 * bcz + t9;
    const cy = t1 * bcx + t4 * bcy + t7 * bcz + t10;
    const cz = t2 * bcx + t5 * bcy + t8 * bcz + t11;
    const rx = at0 * bhx + at3 * bhy + at6 * bhz + pad;
    const ry = at1 * bhx + at4 * bhy + at7 * bhz + pad;
    const rz = at2 * bhx + at5 * bhy + at8 * bhz + pad;
    BOX[0] = cx - rx;
    BOX[1] = cy - ry;
    BOX[2] = cz - rz;
    BOX[3] = cx + rx;
    BOX[4] = cy + ry;
    BOX[5] = cz + rz;
    let listA = result.listA;
    if (listA.length < cntA) listA = result.listA = new Int32Array(2 * cntA);
    let listB = result.listB;
    if (listB.length < cntB) listB = result.listB = new Int32Array(2 * cntB);
    // Lists hold record offsets (the slot is in word `REC_SLOT` of the record).
    let nA = 0;
    for (let s = offA, end = offA + cntA; s < end; s++) {
      let o: number;
      if (stampA[s] !== genA) {
        o = ca.alloc(s);
        writeLocalRecord(a, s, ca.pool, o);
      } else {
        o = whereA[s];
      }
      if (triOutside(ca.pool, o)) continue;
      listA[nA++] = o;
    }
    if (nA === 0) continue;
    BOX[0] = fa[wa] - pad;
    BOX[1] = fa[wa + 1] - pad;
    BOX[2] = fa[wa + 2] - pad;
    BOX[3] = fa[wa + 3] + pad;
    BOX[4] = fa[wa + 4] + pad;
    BOX[5] = fa[wa + 5] + pad;
    let nB = 0;
    for (let s = offB, end = offB + cntB; s < end; s++) {
      let o: number;
      if (stampB[s] !== genB) {
        o = cb.alloc(s);
        writeTransformedRecord(b, s, T, cb.pool, o);
      } else {
        o = whereB[s];
      }
      if (triOutside(cb.pool, o)) continue;
      listB[nB++] = o;
    }
    if (nB === 0) continue;
    triangleTests += nA * nB;
    // The pools may have grown above: read them now.
    const recA = ca.pool;
    const recB = cb.pool;
    let stop = false;
    for (let i = 0; i < nA && !stop; i++) {
      const oa = listA[i];
      for (let j = 0; j < nB; j++) {
        const ob = listB[j];
        if (triTriRecords(recA, oa, recB, ob)) {
          const sa = recA[oa + REC_SLOT] | 0;
          const sb = recB[ob + REC_SLOT] | 0;
          result.push(sa, sb, idsA[sa], idsB[sb]);
          if (anyHit) {
            stop = true;
            break;
          }
        }
      }
    }
    if (stop) break;
  }
  result.nodeTests = nodeTests;
  result.triangleTests = triangleTests;
}

/**
 * Sets the culling pad — the largest absolute coordinate of A's root box and of B's root box mapped
 * into A's frame, times `CULL_EPS` — into `PAD[0]` (not returned: a returned double may be boxed), then
 * answers whether the root boxes are separated along one of A's axes (B's box mapped by T, A's padded).
 */
function rootsApart(fa: Float32Array, fb: Float32Array): boolean {
  let s = 0;
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(fa[k]);
    if (v > s) s = v;
  }
  const bcx = 0.5 * (fb[0] + fb[3]);
  const bcy = 0.5 * (fb[1] + fb[4]);
  const bcz = 0.5 * (fb[2] + fb[5]);
  const bhx = 0.5 * (fb[3] - fb[0]);
  const bhy = 0.5 * (fb[4] - fb[1]);
  const bhz = 0.5 * (fb[5] - fb[2]);
  for (let r = 0; r < 3; r++) {
    const c = T[r] * bcx + T[r + 3] * bcy + T[r + 6] * bcz + T[r + 9];
    const h = Math.abs(T[r]) * bhx + Math.abs(T[r + 3]) * bhy + Math.abs(T[r + 6]) * bhz;
    const v = Math.abs(c) + h;
    if (v > s) s = v;
  }
  const pad = (PAD[0] = CULL_EPS * (Number.isFinite(s) ? s : 0));
  for (let r = 0; r < 3; r++) {
    const d = T[r] * bcx + T[r + 3] * bcy + T[r + 6] * bcz + T[r + 9] - 0.5 * (fa[r] + fa[r + 3]);
    const reach =
      0.5 * (fa[r + 3] - fa[r]) +
      pad +
      Math.abs(T[r]) * bhx +
      Math.abs(T[r + 3]) * bhy +
      Math.abs(T[r + 6]) * bhz;
    if (Math.abs(d) > reach) return true;
  }
  return false;
}

/** Whether the triangle of record `rec[o]` lies entirely outside `BOX` (strictly, on one axis). */
function triOutside(rec: Float64Array, o: number): boolean {
  const minx = BOX[0];
  const miny = BOX[1];
  const minz = BOX[2];
  const maxx = BOX[3];
  const maxy = BOX[4];
  const maxz = BOX[5];
  const x0 = rec[o];
  const x1 = rec[o + 3];
  const x2 = rec[o + 6];
  if ((x0 < minx && x1 < minx && x2 < minx) || (x0 > maxx && x1 > maxx && x2 > maxx)) return true;
  const y0 = rec[o + 1];
  const y1 = rec[o + 4];
  const y2 = rec[o + 7];
  if ((y0 < miny && y1 < miny && y2 < miny) || (y0 > maxy && y1 > maxy && y2 > maxy)) return true;
  const z0 = rec[o + 2];
  const z1 = rec[o + 5];
  const z2 = rec[o + 8];
  return (z0 < minz && z1 < minz && z2 < minz) || (z0 > maxz && z1 > maxz && z2 > maxz);
}

/** Hit data from the pairs in `result`, whose records (A's frame) are in the caches. */
function computeHitData(a: MeshBVH, b: MeshBVH, result: MeshMeshResult): void {
  result.pointA.fill(0);
  result.normalA.fill(0);
  result.pointB.fill(0);
  result.normalB.fill(0);
  result.distinctA = 0;
  result.distinctB = 0;
  if (result.count === 0) return;
  if (result.markA.length < a.triangleCount) result.markA = new Uint32Array(a.triangleCount);
  if (result.markB.length < b.triangleCount) result.markB = new Uint32Array(b.triangleCount);
  if (++result.markGen >= 0xffffffff) {
    result.markA.fill(0);
    result.markB.fill(0);
    result.markGen = 1;
  }
  normalMatrix(NM, MA);
  const det =
    T[0] * (T[4] * T[8] - T[5] * T[7]) -
    T[3] * (T[1] * T[8] - T[2] * T[7]) +
    T[6] * (T[1] * T[5] - T[2] * T[4]);
  const flipB = det < 0 ? -1 : 1;
  const ca = result.cacheA;
  const cb = result.cacheB;
  accumulateSide(result, result.slotsA, result.markA, ca.pool, ca.where, result.pointA, result.normalA, 1);
  result.distinctA = ACC_COUNT;
  accumulateSide(
    result,
    result.slotsB,
    result.markB,
    cb.pool,
    cb.where,
    result.pointB,
    result.normalB,
    flipB,
  );
  result.distinctB = ACC_COUNT;
}

let ACC_COUNT = 0;

function accumulateSide(
  result: MeshMeshResult,
  slots: Int32Array,
  mark: Uint32Array,
  rec: Float64Array,
  where: Int32Array,
  point: Float64Array,
  normal: Float64Array,
  sign: number,
): void {
  const gen = result.markGen;
  let n = 0;
  let px = 0;
  let py = 0;
  let pz = 0;
  let nx = 0;
  let ny = 0;
  let nz = 0;
  for (let k = 0; k < result.count; k++) {
    const s = slots[k];
    if (mark[s] === gen) continue;
    mark[s] = gen;
    n++;
    const o = where[s];
    px += (rec[o] + rec[o + 3] + rec[o + 6]) / 3;
    py += (rec[o + 1] + rec[o + 4] + rec[o + 7]) / 3;
    pz += (rec[o + 2] + rec[o + 5] + rec[o + 8]) / 3;
    // Local (A frame) normal → world with the normal matrix of M_A, then unit length.
    const lx = rec[o + REC_NORMAL];
    const ly = rec[o + REC_NORMAL + 1];
    const lz = rec[o + REC_NORMAL + 2];
    const wx = NM[0] * lx + NM[1] * ly + NM[2] * lz;
    const wy = NM[3] * lx + NM[4] * ly + NM[5] * lz;
    const wz = NM[6] * lx + NM[7] * ly + NM[8] * lz;
    const len = Math.sqrt(wx * wx + wy * wy + wz * wz);
    if (len > 0) {
      nx += (sign * wx) / len;
      ny += (sign * wy) / len;
      nz += (sign * wz) / len;
    }
  }
  ACC_COUNT = n;
  px /= n;
  py /= n;
  pz /= n;
  point[0] = MA[0] * px + MA[3] * py + MA[6] * pz + MA[9];
  point[1] = MA[1] * px + MA[4] * py + MA[7] * pz + MA[10];
  point[2] = MA[2] * px + MA[5] * py + MA[8] * pz + MA[11];
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 1e-12 * n) {
    normal[0] = nx / len;
    normal[1] = ny / len;
    normal[2] = nz / len;
  }
}
