/**
 * The output of the mesh–mesh queries (`meshMesh.ts`) and the reusable scratch they run in: the pairs,
 * the hit data per side, counters, and a per-mesh cache of triangle records (only the triangles a
 * query touched, found through a generation-stamped slot map).
 */

import { growArray } from '../growArray.js';
import type { MeshTree } from './tree.js';
import { REC_SLOT, TRI_RECORD } from './triTri.js';

/**
 * Per-mesh cache of triangle records: a pool holding only the triangles a query touched (so memory
 * stays at 8 bytes a triangle plus 128 bytes a touched one), found through `where`/`stamp` by slot.
 */
export class RecordCache {
  /** Records (`TRI_RECORD` doubles each; word `REC_SLOT` holds the slot), in the order they were made. */
  pool = new Float64Array(256 * TRI_RECORD);
  used = 0;
  /** Slot → record offset in `pool`, valid where `stamp[slot] === gen`. */
  where = new Int32Array(0);
  stamp = new Uint32Array(0);
  gen = 0;
  bvh: MeshTree | null = null;
  version = -1;

  /** Starts a query on `bvh`; `keep` reuses records from the previous query on the same tree. */
  begin(bvh: MeshTree, keep: boolean): void {
    const n = bvh.triangleCount;
    if (this.stamp.length < n) {
      this.where = new Int32Array(n);
      this.stamp = new Uint32Array(n);
      this.gen = 0;
    }
    if (keep && this.bvh === bvh && this.version === bvh.version && this.gen > 0) return;
    this.bvh = bvh;
    this.version = bvh.version;
    this.used = 0;
    if (++this.gen >= 0xffffffff) {
      this.stamp.fill(0);
      this.gen = 1;
    }
  }

  /** Reserves the record of slot `s` (the caller writes it) and returns its offset in `pool`. */
  alloc(s: number): number {
    this.pool = growArray(this.pool, (this.used + 1) * TRI_RECORD);
    const o = this.used++ * TRI_RECORD;
    this.pool[o + REC_SLOT] = s;
    this.where[s] = o;
    this.stamp[s] = this.gen;
    return o;
  }
}

/**
 * Output of the mesh–mesh queries, and the reusable scratch they run in (record caches: 8 bytes a
 * triangle of each mesh plus 128 bytes a triangle a query touched). Arrays grow (by doubling) when
 * needed and are reused across calls: read them before the next query. One result per thread of
 * queries; the any-hit form has a shared default.
 */
export class MeshMeshResult {
  /** Number of intersecting triangle pairs found (1 at most for the any-hit form). */
  count = 0;
  /** Original triangle index in mesh A of each pair, valid in `[0, count)`. */
  trianglesA = new Uint32Array(64);
  /** Original triangle index in mesh B of each pair, valid in `[0, count)`. */
  trianglesB = new Uint32Array(64);
  /** Number of distinct triangles of A among the pairs. */
  distinctA = 0;
  /** Number of distinct triangles of B among the pairs. */
  distinctB = 0;
  /**
   * Hit data (world space) as in Project Oort ("hit_from_colliders"): average centroid of A's intersecting triangles, and the
   * normalized average of their unit face normals (by winding, transformed with the inverse transpose;
   * zero if they cancel out). Likewise for B. Filled by {@link meshMeshPairs}, zero when `count` is 0.
   */
  pointA = new Float64Array(3);
  /** Normalized average unit face normal of A's intersecting triangles (see {@link pointA}). */
  normalA = new Float64Array(3);
  /** Average centroid of B's intersecting triangles (see {@link pointA}). */
  pointB = new Float64Array(3);
  /** Normalized average unit face normal of B's intersecting triangles (see {@link pointA}). */
  normalB = new Float64Array(3);
  /** Triangle-pair tests run by the last query (for benchmarks). */
  triangleTests = 0;
  /** Node-pair overlap tests run by the last query (for benchmarks). */
  nodeTests = 0;

  /** @internal Slot of each pair's triangles. */
  slotsA = new Int32Array(64);
  /** @internal */
  slotsB = new Int32Array(64);
  /** @internal */
  stack = new Int32Array(512);
  /** @internal */
  listA = new Int32Array(256);
  /** @internal */
  listB = new Int32Array(256);
  /** @internal */
  cacheA = new RecordCache();
  /** @internal */
  cacheB = new RecordCache();
  /** @internal */
  markA = new Uint32Array(0);
  /** @internal */
  markB = new Uint32Array(0);
  /** @internal */
  markGen = 0;

  /** Appends a pair (slots and original ids). */
  push(slotA: number, slotB: number, idA: number, idB: number): void {
    if (this.count === this.trianglesA.length) this.grow();
    const k = this.count++;
    this.slotsA[k] = slotA;
    this.slotsB[k] = slotB;
    this.trianglesA[k] = idA;
    this.trianglesB[k] = idB;
  }

  /** Doubles the pair arrays (all four the same length), keeping their contents. */
  private grow(): void {
    const n = this.trianglesA.length * 2;
    this.trianglesA = growArray(this.trianglesA, n);
    this.trianglesB = growArray(this.trianglesB, n);
    this.slotsA = growArray(this.slotsA, n);
    this.slotsB = growArray(this.slotsB, n);
  }
}
