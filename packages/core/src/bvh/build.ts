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

import { checkOptionKeys, optionKeys } from '../options.js';
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

/**
 * The keys of {@link BuildOptions}: any other key given to `new MeshBVH` throws a `TypeError` naming it.
 * Kept complete by the compiler (`optionKeys`): add a new option here too.
 */
export const BUILD_OPTION_KEYS = optionKeys<BuildOptions>({
  strategy: true,
  maxLeafSize: true,
  maxDepth: true,
});

/** The packed tree before its bounds are filled. */
export interface Topology {
  /** Node buffer, `nodeCount * 32` bytes; bounds not yet written. */
  nodes: ArrayBuffer;
  nodeCount: number;
  /** Triangle slot → original triangle index; a leaf covers a contiguous range of slots. */
  triIds: Uint32Array;
}

const BINS = 16;
const THIRD = 1 / 3;

/** Resolved, checked build options. */
export function resolveBuildOptions(options: BuildOptions | undefined): Required<BuildOptions> {
  checkOptionKeys('MeshBVH: options', options, BUILD_OPTION_KEYS);
  const strategy = options?.strategy ?? 'center';
  const maxLeafSize = options?.maxLeafSize ?? 8;
  const maxDepth = options?.maxDepth ?? 40;
  if (strategy !== 'center' && strategy !== 'sah') {
    throw new RangeError(`MeshBVH: options.strategy must be 'center' or 'sah' (got ${String(strategy)})`);
  }
  if (!Number.isInteger(maxLeafSize) || maxLeafSize < 1 || maxLeafSize > 255) {
    throw new RangeError(
      `MeshBVH: options.maxLeafSize must be an integer in [1, 255] (got ${String(maxLeafSize)})`,
    );
  }
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 128) {
    throw new RangeError(
      `MeshBVH: options.maxDepth must be an integer in [1, 128] (got ${String(maxDepth)})`,
    );
  }
  return { strategy, maxLeafSize, maxDepth };
}

/**
 * Orders the triangles of a (validated) mesh into a BVH and writes its nodes, bounds excluded.
 * `triCount` is the triangle count returned by `checkMesh`.
 */
export function buildTopology(
  positions: Float32Array,
  index: TriangleIndex,
  triCount: number,
  options: Required<BuildOptions>,
): Topology {
  const { strategy, maxLeafSize, maxDepth } = options;
  const n = triCount;
  const ids = new Uint32Array(n);
  // Centroids (box centres for SAH) in slot order, permuted together with `ids` so partitions scan memory in
  // order. Triangle boxes (SAH only) stay in original order.
  const cent = new Float32Array(3 * n);
  const sah = strategy === 'sah';
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
    if (tb) {
      for (let k = 0; k < 3; k++) {
        const a = positions[i0 + k];
        const b = positions[i1 + k];
        const c = positions[i2 + k];
        const lo = a < b ? Math.min(a, c) : Math.min(b, c);
        const hi = a > b ? Math.max(a, c) : Math.max(b, c);
        tb[6 * t + k] = lo;
        tb[6 * t + 3 + k] = hi;
        cent[3 * t + k] = 0.5 * (lo + hi);
      }
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
  // SAH scratch: per axis and bin, a count and a box; suffix areas.
  const binCount = new Int32Array(BINS);
  const binBox = new Float64Array(BINS * 6);
  const rightArea = new Float64Array(BINS);

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
    if (sah && extent > 0 && tb) {
      // Binned SAH along the longest centroid axis (Wald 2007): bin the triangle boxes by centroid,
      // sweep the bin boundaries, keep the cheapest.
      binCount.fill(0);
      for (let b = 0; b < BINS; b++) {
        const o = 6 * b;
        binBox[o] = binBox[o + 1] = binBox[o + 2] = Infinity;
        binBox[o + 3] = binBox[o + 4] = binBox[o + 5] = -Infinity;
      }
      const scale = BINS / extent;
      const origin = cb[cbo + axis];
      for (let s = offset, end = offset + count; s < end; s++) {
        let b = ((cent[3 * s + axis] - origin) * scale) | 0;
        if (b >= BINS) b = BINS - 1;
        binCount[b]++;
        const o = 6 * b;
        const t6 = 6 * ids[s];
        const lx = tb[t6];
        const ly = tb[t6 + 1];
        const lz = tb[t6 + 2];
        const hx = tb[t6 + 3];
        const hy = tb[t6 + 4];
        const hz = tb[t6 + 5];
        if (lx < binBox[o]) binBox[o] = lx;
        if (ly < binBox[o + 1]) binBox[o + 1] = ly;
        if (lz < binBox[o + 2]) binBox[o + 2] = lz;
        if (hx > binBox[o + 3]) binBox[o + 3] = hx;
        if (hy > binBox[o + 4]) binBox[o + 4] = hy;
        if (hz > binBox[o + 5]) binBox[o + 5] = hz;
      }
      // Suffix areas: rightArea[b] = area of bins b..BINS-1.
      let mx = Infinity;
      let my = Infinity;
      let mz = Infinity;
      let Mx = -Infinity;
      let My = -Infinity;
      let Mz = -Infinity;
      for (let b = BINS - 1; b > 0; b--) {
        const o = 6 * b;
        if (binBox[o] < mx) mx = binBox[o];
        if (binBox[o + 1] < my) my = binBox[o + 1];
        if (binBox[o + 2] < mz) mz = binBox[o + 2];
        if (binBox[o + 3] > Mx) Mx = binBox[o + 3];
        if (binBox[o + 4] > My) My = binBox[o + 4];
        if (binBox[o + 5] > Mz) Mz = binBox[o + 5];
        const dx = Mx - mx;
        const dy = My - my;
        const dz = Mz - mz;
        rightArea[b] = dx > -Infinity ? dx * dy + dy * dz + dz * dx : 0;
      }
      mx = my = mz = Infinity;
      Mx = My = Mz = -Infinity;
      let left = 0;
      let best = Infinity;
      let bestBin = -1;
      for (let b = 0; b < BINS - 1; b++) {
        const o = 6 * b;
        left += binCount[b];
        if (binBox[o] < mx) mx = binBox[o];
        if (binBox[o + 1] < my) my = binBox[o + 1];
        if (binBox[o + 2] < mz) mz = binBox[o + 2];
        if (binBox[o + 3] > Mx) Mx = binBox[o + 3];
        if (binBox[o + 4] > My) My = binBox[o + 4];
        if (binBox[o + 5] > Mz) Mz = binBox[o + 5];
        if (left === 0 || left === count) continue;
        const dx = Mx - mx;
        const dy = My - my;
        const dz = Mz - mz;
        const cost = (dx * dy + dy * dz + dz * dx) * left + rightArea[b + 1] * (count - left);
        if (cost < best) {
          best = cost;
          bestBin = b;
        }
      }
      if (bestBin >= 0) pos = origin + ((bestBin + 1) * extent) / BINS;
    }

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
      // Children's centroid boxes grow in locals (typed-array stores in this loop cost ~2x).
      let lx0 = Infinity;
      let ly0 = Infinity;
      let lz0 = Infinity;
      let lx1 = -Infinity;
      let ly1 = -Infinity;
      let lz1 = -Infinity;
      let rx0 = Infinity;
      let ry0 = Infinity;
      let rz0 = Infinity;
      let rx1 = -Infinity;
      let ry1 = -Infinity;
      let rz1 = -Infinity;
      let i = offset;
      let j = offset + count - 1;
      for (;;) {
        while (i <= j) {
          const c = 3 * i;
          if (!(cent[c + axis] < pos)) break;
          const x = cent[c];
          const y = cent[c + 1];
          const z = cent[c + 2];
          if (x < lx0) lx0 = x;
          if (x > lx1) lx1 = x;
          if (y < ly0) ly0 = y;
          if (y > ly1) ly1 = y;
          if (z < lz0) lz0 = z;
          if (z > lz1) lz1 = z;
          i++;
        }
        while (i <= j) {
          const c = 3 * j;
          if (cent[c + axis] < pos) break;
          const x = cent[c];
          const y = cent[c + 1];
          const z = cent[c + 2];
          if (x < rx0) rx0 = x;
          if (x > rx1) rx1 = x;
          if (y < ry0) ry0 = y;
          if (y > ry1) ry1 = y;
          if (z < rz0) rz0 = z;
          if (z > rz1) rz1 = z;
          j--;
        }
        if (i >= j) break;
        swapSlots(ids, cent, i, j);
      }
      mid = i;
      cbs[lo] = lx0;
      cbs[lo + 1] = ly0;
      cbs[lo + 2] = lz0;
      cbs[lo + 3] = lx1;
      cbs[lo + 4] = ly1;
      cbs[lo + 5] = lz1;
      cbs[ro] = rx0;
      cbs[ro + 1] = ry0;
      cbs[ro + 2] = rz0;
      cbs[ro + 3] = rx1;
      cbs[ro + 4] = ry1;
      cbs[ro + 5] = rz1;
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

function swapSlots(ids: Uint32Array, cent: Float32Array, i: number, j: number): void {
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
