/**
 * The packed triangle tree as plain data (`MeshTree`: what every query reads) and building one with the
 * default options, without the `MeshBVH` class: an adapter that only builds trees and queries them
 * (cannon's trimesh contacts) then bundles none of the class's refit, serialization, build options or
 * SAH split, since a bundler cannot drop the unused methods of a class it keeps.
 *
 * Follows three-mesh-bvh's separation of building (`src/core/build/`) and queries (`src/core/cast/`)
 * from its `MeshBVH` class, which only holds the packed buffer and delegates. `MeshBVH` is built here
 * too and adopts a plain tree without copying it (`meshBVHFromTree` in `MeshBVH.ts`).
 */

import { buildTopology, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LEAF_SIZE, type Topology } from './build.js';
import { checkMesh, type TriangleIndex } from './checks.js';
import { gatherAndRefit } from './refit.js';

/**
 * The data of a triangle BVH, as `MeshBVH` holds it (see its fields): what the queries read.
 *
 * @internal
 */
export interface MeshTree {
  /** Vertex positions (xyz triples) the tree was built from; referenced, not copied. */
  positions: Float32Array;
  /** Index buffer (three vertex indices a triangle) or `null` for a non-indexed mesh; referenced. */
  readonly index: TriangleIndex;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** Number of nodes. */
  readonly nodeCount: number;
  /** The packed nodes (32 bytes each; layout in `nodes.ts`). */
  readonly nodes: ArrayBuffer;
  /** Float32 view of `nodes` (bounds in words 0–5 of each node). */
  readonly nodeF32: Float32Array;
  /** Int32 view of `nodes` (links in words 6–7 of each node). */
  readonly nodeI32: Int32Array;
  /** Triangle slot → index of the triangle in the original mesh. Leaves cover contiguous slots. */
  readonly triIds: Uint32Array;
  /** The triangles in slot order, 9 floats each (x0 y0 z0 x1 y1 z1 x2 y2 z2). */
  readonly triVerts: Float32Array;
  /** Incremented by every refit; query caches use it to notice moved vertices. */
  readonly version: number;
}

/**
 * The tree of a checked mesh (`triCount` from `checkMesh`) over the topology `topo`: the node views,
 * and the triangles gathered in slot order with every node's bounds.
 */
export function treeOf(
  positions: Float32Array,
  index: TriangleIndex,
  triCount: number,
  topo: Topology,
): MeshTree {
  const nodeF32 = new Float32Array(topo.nodes);
  const nodeI32 = new Int32Array(topo.nodes);
  const triVerts = new Float32Array(9 * triCount);
  gatherAndRefit(positions, index, topo.triIds, triVerts, nodeF32, nodeI32, topo.nodeCount);
  return {
    positions,
    index,
    triangleCount: triCount,
    nodeCount: topo.nodeCount,
    nodes: topo.nodes,
    nodeF32,
    nodeI32,
    triIds: topo.triIds,
    triVerts,
    version: 0,
  };
}

/**
 * The tree `new MeshBVH(positions, index)` builds (default options: centre split, leaves of 8, depth
 * 40), as plain data. Throws the constructor's `TypeError`/`RangeError` naming the argument for a bad
 * mesh (see `checkMesh`).
 *
 * @internal
 */
export function buildMeshTree(positions: Float32Array, index: TriangleIndex): MeshTree {
  const triCount = checkMesh(positions, index);
  const topo = buildTopology(positions, index, triCount, DEFAULT_MAX_LEAF_SIZE, DEFAULT_MAX_DEPTH, null);
  return treeOf(positions, index, triCount, topo);
}
