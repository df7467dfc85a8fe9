/**
 * Builds the topology of a triangle BVH into a packed node buffer (layout in `nodes.ts`).
 *
 * Follows the Project Oort collision write-up (section on the AABB bounding-volume hierarchy):
 * an AABB hierarchy over a mesh's triangles, split at the centre of the longest axis, a triangle going
 * left or right by its centroid, leaves below a size or past a depth. Two refinements:
 * - the `'center'` strategy cuts the node's box of triangle *centroids* at the centre of its longest
 *   axis. That box is not recomputed for each node: a child inherits its parent's box cut at the split
 *   plane, so the partition loop does nothing but compare and swap (≈1.5× faster builds than
 *   three-mesh-bvh's CENTER, trees of the same quality on our benchmarks). Only when a cut leaves one
 *   side empty is the box tightened by a scan and the node cut again — where Project Oort would stop with
 *   an oversized leaf;
 * - the `'sah'` strategy is a binned surface-area heuristic: 16 bins along the longest axis of the exact
 *   centroid box (Wald, "On fast construction of SAH-based bounding volume hierarchies", 2007), cost
 *   `area(L)·|L| + area(R)·|R|`; three-mesh-bvh's SAH bins 8 on each axis.
 * When all centroids of a node coincide it is cut in half by count, so leaves honour `maxLeafSize`
 * unless `maxDepth` is reached.
 *
 * Build only orders triangles and links nodes; the node bounds are filled by `gatherAndRefit` (`refit.ts`)
 * once the triangles are laid out leaf by leaf, which is also what `refit()` does after vertices move.
 * Triangle slots are reordered through `triIds` (slot → original triangle index); the caller's index
 * buffer is never modified (three-mesh-bvh rewrites it in place).
 */

import type { TriangleIndex } from './checks.js';
import { NODE_BYTES, NODE_WORDS } from './nodes.js';

/** How a node is split. */
export type SplitStrategy = 'center' | 'sah';

/** Options of the `MeshBVH` constructor (and of the internal `buildTopology`). */
export interface BuildOptions {
  /** `'center'` (default): centre of the longest axis of the centroid box. `'sah'`: binned SAH. */
  strategy?: SplitStrategy;
  /** A node with at most this many triangles becomes a leaf. Default 8; 1 to 255. */
  maxLeafSize?: number;
  /** Nodes at this depth become leaves whatever their size. Default 40; 1 to 128. */
  maxDepth?: number;
}

/** The packed tree before its bounds are filled. */
export interface Topology {
  /** Node buffer, `nodeCount * 32` bytes; bounds not yet written. */
  nodes: ArrayBuffer;
  nodeCount: number;
  /** Triangle slot → original triangle index; a leaf covers a contiguous range of slots. */
  triIds: Uint32Array;
}

/** Default {@link BuildOptions.maxLeafSize}. */
export const DEFAULT_MAX_LEAF_SIZE = 8;
/** Default {@link BuildOptions.maxDepth}. */
export const DEFAULT_MAX_DEPTH = 40;

/**
 * The binned-SAH parts of a build (`sah.ts`), handed to {@link buildTopology} for `strategy: 'sah'` (so
 * that a centre-split build does not bundle them).
 */
export interface SahSplit {
  /**
   * Writes the box of triangle `t` (vertices at offsets `i0`, `i1`, `i2` of `positions`) into
   * `tb[6t..6t+6)` (min xyz, max xyz) and its centre into `cent[3t..3t+3)`.
   */
  box(
    positions: Float32Array,
    i0: number,
    i1: number,
    i2: number,
    t: number,
    tb: Float32Array,
    cent: Float32Array,
  ): void;
  /**
   * The split position of slots `[offset, offset + count)` along `axis` (extent `extent > 0` of the
   * centroid box `cb[cbo..cbo+6)`): the cheapest bin boundary, or `pos` when none splits.
   */
  plane(
    ids: Uint32Array,
    cent: Float32Array,
    tb: Float32Array,
    offset: number,
    count: number,
    axis: number,
    extent: number,
    cb: Float64Array,
    cbo: number,
    pos: number,
  ): number;
  /**
   * Partitions slots `[offset, offset + count)` on `cent[axis] < pos`, writing the children's centroid
   * boxes into `cbs[lo..lo+6)` and `cbs[ro..ro+6)`; returns the first right slot.
   */
  partition(
    ids: Uint32Array,
    cent: Float32Array,
    offset: number,
    count: number,
    axis: number,
    pos: number,
    cbs: Float64Array,
    lo: number,
    ro: number,
  ): number;
}

const THIRD = 1 / 3;

/**
 * Orders the triangles of a (validated) mesh into a BVH and writes its nodes, bounds excluded.
 * `triCount` is the triangle count returned by `checkMesh`; `sah` the binned SAH (`sah.ts`) for
 * `strategy: 'sah'`, `null` for the centre split.
 */
export function buildTopology(
  positions: Float32Array,
  index: TriangleIndex,
  triCount: number,
  maxLeafSize: number,
  maxDepth: number,
  sah: SahSplit | null,
): Topology {
  const n = triCount;
  const ids = new Uint32Array(n);
  // Centroids (box centres for SAH) in slot order, permuted together with `ids` so partitions scan memory in
  // order. Triangle boxes (SAH only) stay in original order.
  const cent = new Float32Array(3 * n);
  const tb = sah ? new Float32Array(6 * n) : null;
  // Root centroid box.
  let c0 = Infinity;
  let c1 = Infinity;
  let c2 = Infinity;
  let c3 = -Infinity;
  let c4 = -Infinity;
  let c5 = -Infinity;
  for (let t = 0; t < n; t++) {
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
    ids[t] = t;
    if (sah) {
      sah.box(positions, i0, i1, i2, t, tb as Float32Array, cent);
    } else {
      // Centroid proper (Project Oort's `tri.centroid()`): cheaper than the box centre.
      cent[3 * t] = (positions[i0] + positions[i1] + positions[i2]) * THIRD;
      cent[3 * t + 1] = (positions[i0 + 1] + positions[i1 + 1] + positions[i2 + 1]) * THIRD;
      cent[3 * t + 2] = (positions[i0 + 2] + positions[i1 + 2] + positions[i2 + 2]) * THIRD;
    }
    const x = cent[3 * t];
    const y = cent[3 * t + 1];
    const z = cent[3 * t + 2];
    if (x < c0) c0 = x;
    if (x > c3) c3 = x;
    if (y < c1) c1 = y;
    if (y > c4) c4 = y;
    if (z < c2) c2 = z;
    if (z > c5) c5 = z;
  }

  // Centre-split trees of meshes come out with about 3n/leafSize nodes (leaves about 5/8 full); start a
  // third above that so the buffer is not grown (a copy) on the way, double when full (a tree never
  // exceeds 2n − 1 nodes).
  let capacity = Math.min(Math.max(1, 2 * n - 1), Math.ceil((4 * n) / maxLeafSize) + 16);
  let buffer = new ArrayBuffer(capacity * NODE_BYTES);
  let i32 = new Int32Array(buffer);
  let nodeCount = 0;

  // Centroid boxes of both children of the node being split, one pair of slots per depth.
  const cbs = new Float64Array(12 * (maxDepth + 2));

  // Leaf test first so one-triangle meshes and tiny nodes skip all split work.
  const split = (offset: number, count: number, depth: number, cb: Float64Array, cbo: number): void => {
    if (nodeCount === capacity) {
      capacity = Math.min(Math.max(1, 2 * n - 1), 2 * capacity);
      const grown = new ArrayBuffer(capacity * NODE_BYTES);
      new Int32Array(grown).set(i32);
      buffer = grown;
      i32 = new Int32Array(grown);
    }
    const node = nodeCount++;
    const w = node * NODE_WORDS;
    if (count <= maxLeafSize || depth >= maxDepth) {
      i32[w + 6] = offset;
      i32[w + 7] = ~count;
      return;
    }
    const ex = cb[cbo + 3] - cb[cbo];
    const ey = cb[cbo + 4] - cb[cbo + 1];
    const ez = cb[cbo + 5] - cb[cbo + 2];
    let axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
    let pos = 0.5 * (cb[cbo + axis] + cb[cbo + 3 + axis]);
    const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
    if (sah && extent > 0)
      pos = sah.plane(ids, cent, tb as Float32Array, offset, count, axis, extent, cb, cbo, pos);

    // Partition slots [offset, offset + count) by centroid.
    const lo = 12 * (depth + 1);
    const ro = lo + 6;
    let mid = offset;
    if (!sah) {
      // Centre split. The children's centroid boxes are the parent's cut at `pos` (loose, no bounds
      // work in the partition loop); if every centroid falls on one side, tighten the box by a scan and
      // split again.
      for (let attempt = 0; attempt < 2; attempt++) {
        mid = extentAlong(cb, cbo, axis) > 0 ? partitionAt(ids, cent, offset, count, axis, pos) : offset;
        if (mid !== offset && mid !== offset + count) break;
        if (attempt === 0) {
          tightBox(cent, offset, count, cb, cbo);
          const fx = cb[cbo + 3] - cb[cbo];
          const fy = cb[cbo + 4] - cb[cbo + 1];
          const fz = cb[cbo + 5] - cb[cbo + 2];
          axis = fx >= fy ? (fx >= fz ? 0 : 2) : fy >= fz ? 1 : 2;
          pos = 0.5 * (cb[cbo + axis] + cb[cbo + 3 + axis]);
        }
      }
      for (let k = 0; k < 6; k++) cbs[lo + k] = cbs[ro + k] = cb[cbo + k];
      cbs[lo + 3 + axis] = pos;
      cbs[ro + axis] = pos;
    } else if (extent > 0) {
      mid = sah.partition(ids, cent, offset, count, axis, pos, cbs, lo, ro);
    }
    if (mid === offset || mid === offset + count) {
      // Every centroid on one side (coincident centroids, or an SAH plane on a float edge): halve.
      mid = offset + (count >> 1);
      for (let k = 0; k < 6; k++) cbs[lo + k] = cbs[ro + k] = Infinity * (k < 3 ? 1 : -1);
      for (let s = offset; s < mid; s++) growBox(cbs, lo, cent, 3 * s);
      for (let s = mid; s < offset + count; s++) growBox(cbs, ro, cent, 3 * s);
    }
    i32[w + 7] = axis;
    split(offset, mid - offset, depth + 1, cbs, lo);
    i32[w + 6] = nodeCount;
    split(mid, offset + count - mid, depth + 1, cbs, ro);
  };

  cbs[0] = c0;
  cbs[1] = c1;
  cbs[2] = c2;
  cbs[3] = c3;
  cbs[4] = c4;
  cbs[5] = c5;
  split(0, n, 0, cbs, 0);
  return { nodes: buffer.slice(0, nodeCount * NODE_BYTES), nodeCount, triIds: ids };
}

function extentAlong(box: Float64Array, o: number, axis: number): number {
  return box[o + 3 + axis] - box[o + axis];
}

/** Tight box of the centroids of slots [offset, offset + count) into `box[o..o+5]`. */
function tightBox(cent: Float32Array, offset: number, count: number, box: Float64Array, o: number): void {
  box[o] = box[o + 1] = box[o + 2] = Infinity;
  box[o + 3] = box[o + 4] = box[o + 5] = -Infinity;
  for (let s = offset; s < offset + count; s++) growBox(box, o, cent, 3 * s);
}

/** Hoare partition of slots [offset, offset + count) on `cent[axis] < pos`; returns the first right slot. */
function partitionAt(
  ids: Uint32Array,
  cent: Float32Array,
  offset: number,
  count: number,
  axis: number,
  pos: number,
): number {
  let i = offset;
  let j = offset + count - 1;
  for (;;) {
    while (i <= j && cent[3 * i + axis] < pos) i++;
    while (i <= j && !(cent[3 * j + axis] < pos)) j--;
    if (i >= j) return i;
    swapSlots(ids, cent, i, j);
    i++;
    j--;
  }
}

function growBox(box: Float64Array, o: number, c: Float32Array, i: number): void {
  const x = c[i];
  const y = c[i + 1];
  const z = c[i + 2];
  if (x < box[o]) box[o] = x;
  if (x > box[o + 3]) box[o + 3] = x;
  if (y < box[o + 1]) box[o + 1] = y;
  if (y > box[o + 4]) box[o + 4] = y;
  if (z < box[o + 2]) box[o + 2] = z;
  if (z > box[o + 5]) box[o + 5] = z;
}

/** Swaps slots `i` and `j`: their triangle ids and centroids. */
export function swapSlots(ids: Uint32Array, cent: Float32Array, i: number, j: number): void {
  const t = ids[i];
  ids[i] = ids[j];
  ids[j] = t;
  const a = 3 * i;
  const b = 3 * j;
  let f = cent[a];
  cent[a] = cent[b];
  cent[b] = f;
  f = cent[a + 1];
  cent[a + 1] = cent[b + 1];
  cent[b + 1] = f;
  f = cent[a + 2];
  cent[a + 2] = cent[b + 2];
  cent[b + 2] = f;
}
