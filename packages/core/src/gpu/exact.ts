/**
 * The float64 side of the GPU triangle pass: per-slot vertex indices (what the shader gathers), the
 * re-test of the pairs the shader flagged as within its error bound, and the hit data — each computed
 * with the same arithmetic as the CPU query (`bvh/meshMesh.ts`), so the pass returns the CPU's answer
 * bit for bit.
 *
 * Follows Möller's triangle–triangle test as implemented in `bvh/triTri.ts` (records and
 * `triTriRecords`, reused as is) and the Project Oort collision write-up's hit data ("hit_from_colliders":
 * the average centroid and the normalized average face normal of each side's colliding triangles).
 */
import type { Affine } from '../bvh/affine.js';
import type { MeshMeshResult } from '../bvh/index.js';
import type { MeshBVH } from '../bvh/MeshBVH.js';
import { finishTriangleRecord, TRI_RECORD, triTriRecords } from '../bvh/triTri.js';

/** The three vertex indices of every triangle slot of `bvh` (slot order), for the GPU gather. */
export function slotVertexIndices(bvh: MeshBVH): Uint32Array {
  const n = bvh.triangleCount;
  const out = new Uint32Array(3 * n);
  const ids = bvh.triIds;
  const index = bvh.index;
  for (let s = 0; s < n; s++) {
    const t = ids[s];
    for (let k = 0; k < 3; k++) out[3 * s + k] = index ? index[3 * t + k] : 3 * t + k;
  }
  return out;
}

/** Writes the record of slot `s` (vertex indices `vi`, positions `pos`) untransformed at `rec[o]`. */
export function localRecord(
  pos: Float32Array,
  vi: Uint32Array,
  s: number,
  rec: Float64Array,
  o: number,
): void {
  for (let k = 0; k < 3; k++) {
    const p = 3 * vi[3 * s + k];
    rec[o + 3 * k] = pos[p];
    rec[o + 3 * k + 1] = pos[p + 1];
    rec[o + 3 * k + 2] = pos[p + 2];
  }
  finishTriangleRecord(rec, o);
}

/**
 * Writes the record of slot `s` transformed by `m` at `rec[o]`, with exactly the arithmetic of the
 * CPU query's transformed records (same operations in the same order, so the same doubles).
 */
export function transformedRecord(
  pos: Float32Array,
  vi: Uint32Array,
  s: number,
  m: Affine,
  rec: Float64Array,
  o: number,
): void {
  for (let k = 0; k < 3; k++) {
    const p = 3 * vi[3 * s + k];
    const x = pos[p];
    const y = pos[p + 1];
    const z = pos[p + 2];
    rec[o + 3 * k] = m[0] * x + m[3] * y + m[6] * z + m[9];
    rec[o + 3 * k + 1] = m[1] * x + m[4] * y + m[7] * z + m[10];
    rec[o + 3 * k + 2] = m[2] * x + m[5] * y + m[8] * z + m[11];
  }
  finishTriangleRecord(rec, o);
}

const RA = new Float64Array(TRI_RECORD);
const RB = new Float64Array(TRI_RECORD);

/** The CPU's float64 Möller test on slot `sa` of A (local) and slot `sb` of B (mapped by `T`). */
export function exactPair(
  posA: Float32Array,
  viA: Uint32Array,
  sa: number,
  posB: Float32Array,
  viB: Uint32Array,
  sb: number,
  T: Affine,
): boolean {
  localRecord(posA, viA, sa, RA, 0);
  transformedRecord(posB, viB, sb, T, RB, 0);
  return triTriRecords(RA, 0, RB, 0);
}

/** Marks of distinct triangles (generation-stamped), reused across queries. */
export class Marks {
  a = new Uint32Array(0);
  b = new Uint32Array(0);
  gen = 0;
  begin(na: number, nb: number): void {
    if (this.a.length < na) this.a = new Uint32Array(na);
    if (this.b.length < nb) this.b = new Uint32Array(nb);
    if (++this.gen >= 0xffffffff) {
      this.a.fill(0);
      this.b.fill(0);
      this.gen = 1;
    }
  }
}

const ACC = new Float64Array(7);

/**
 * Hit data of the pairs in `result` (slot order as pushed), as the CPU query computes it: per side,
 * the average centroid (A's frame, then mapped by `MA`) and the normalized sum of unit world normals
 * (`NM` the normal matrix of `MA`; B's flipped when `T` mirrors) of its distinct triangles.
 */
export function hitData(
  result: MeshMeshResult,
  a: { pos: Float32Array; vi: Uint32Array; bvh: MeshBVH },
  b: { pos: Float32Array; vi: Uint32Array; bvh: MeshBVH },
  MA: Affine,
  NM: Float64Array,
  T: Affine,
  marks: Marks,
): void {
  result.pointA.fill(0);
  result.normalA.fill(0);
  result.pointB.fill(0);
  result.normalB.fill(0);
  result.distinctA = 0;
  result.distinctB = 0;
  if (result.count === 0) return;
  marks.begin(a.bvh.triangleCount, b.bvh.triangleCount);
  const det =
    T[0] * (T[4] * T[8] - T[5] * T[7]) -
    T[3] * (T[1] * T[8] - T[2] * T[7]) +
    T[6] * (T[1] * T[5] - T[2] * T[4]);
  result.distinctA = side(
    result,
    result.slotsA,
    marks.a,
    marks.gen,
    a,
    null,
    MA,
    NM,
    1,
    result.pointA,
    result.normalA,
  );
  result.distinctB = side(
    result,
    result.slotsB,
    marks.b,
    marks.gen,
    b,
    T,
    MA,
    NM,
    det < 0 ? -1 : 1,
    result.pointB,
    result.normalB,
  );
}

function side(
  result: MeshMeshResult,
  slots: Int32Array,
  mark: Uint32Array,
  gen: number,
  mesh: { pos: Float32Array; vi: Uint32Array },
  T: Affine | null,
  MA: Affine,
  NM: Float64Array,
  sign: number,
  point: Float64Array,
  normal: Float64Array,
): number {
  ACC.fill(0);
  let n = 0;
  for (let k = 0; k < result.count; k++) {
    const s = slots[k];
    if (mark[s] === gen) continue;
    mark[s] = gen;
    n++;
    if (T) transformedRecord(mesh.pos, mesh.vi, s, T, RA, 0);
    else localRecord(mesh.pos, mesh.vi, s, RA, 0);
    ACC[0] += (RA[0] + RA[3] + RA[6]) / 3;
    ACC[1] += (RA[1] + RA[4] + RA[7]) / 3;
    ACC[2] += (RA[2] + RA[5] + RA[8]) / 3;
    const lx = RA[9];
    const ly = RA[10];
    const lz = RA[11];
    const wx = NM[0] * lx + NM[1] * ly + NM[2] * lz;
    const wy = NM[3] * lx + NM[4] * ly + NM[5] * lz;
    const wz = NM[6] * lx + NM[7] * ly + NM[8] * lz;
    const len = Math.sqrt(wx * wx + wy * wy + wz * wz);
    if (len > 0) {
      ACC[3] += (sign * wx) / len;
      ACC[4] += (sign * wy) / len;
      ACC[5] += (sign * wz) / len;
    }
  }
  const px = ACC[0] / n;
  const py = ACC[1] / n;
  const pz = ACC[2] / n;
  point[0] = MA[0] * px + MA[3] * py + MA[6] * pz + MA[9];
  point[1] = MA[1] * px + MA[4] * py + MA[7] * pz + MA[10];
  point[2] = MA[2] * px + MA[5] * py + MA[8] * pz + MA[11];
  const nx = ACC[3];
  const ny = ACC[4];
  const nz = ACC[5];
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 1e-12 * n) {
    normal[0] = nx / len;
    normal[1] = ny / len;
    normal[2] = nz / len;
  }
  return n;
}
