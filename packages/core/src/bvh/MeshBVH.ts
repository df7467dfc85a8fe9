/**
 * `MeshBVH`: a triangle bounding-volume hierarchy over an indexed (or non-indexed) mesh, packed in one
 * `ArrayBuffer`, with `refit()`, `serialize()` and `MeshBVH.deserialize()`.
 *
 * Follows the Project Oort collision write-up ("AABB bounding-volume hierarchy": AABBs over
 * triangles, split at the centre of the longest axis, leaves below a size or past a depth) and the
 * design of three-mesh-bvh's `MeshBVH` (`src/core/MeshBVH.js`: packed nodes, left child implicit,
 * serialize/deserialize so a tree can be built once, shipped, or built in a worker). Queries live in
 * their own files (`meshMesh.ts`, `meshSphere.ts`, `meshObb.ts`, `raycast.ts`), all but mesh–mesh
 * walking the tree through `shapecast.ts`. The tree's data and the default build are `tree.ts`'s
 * `MeshTree` (for adapters that build and query trees without the class); the SAH split is `sah.ts`;
 * the build options are checked here.
 *
 * Memory: the node buffer (32 bytes a node, about `2n / leafSize` nodes), `triIds` (4 bytes a
 * triangle) and `triVerts`, a float32 copy of each triangle's three vertices in leaf order (36 bytes a
 * triangle) so leaves read contiguous memory instead of chasing the index buffer; after the first
 * `refit()`, the vertex offsets of each triangle in leaf order (12 bytes a triangle), so later refits
 * read the positions in order too.
 */
import { checkOptionKeys, optionKeys } from '../options.js';
import { type BuildOptions, buildTopology, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LEAF_SIZE } from './build.js';
import { checkMesh, type TriangleIndex } from './checks.js';
import { NODE_BYTES, NODE_WORDS } from './nodes.js';
import { cornerOffsets, gatherAndRefit } from './refit.js';
import { SAH } from './sah.js';
import { type MeshTree, treeOf } from './tree.js';

const MAGIC = 0x48425653; // 'SVBH'
const FORMAT_VERSION = 1;
const HEADER_BYTES = 32;
/** Option key under which {@link meshBVHFromTree} hands the constructor a tree to adopt. */
const ADOPT = Symbol('adopt');

/**
 * The keys of {@link BuildOptions}: any other key given to `new MeshBVH` throws a `TypeError` naming it.
 * Kept complete by the compiler (`optionKeys`): add a new option here too.
 */
export const BUILD_OPTION_KEYS = optionKeys<BuildOptions>({
  strategy: true,
  maxLeafSize: true,
  maxDepth: true,
});

/** Resolved, checked build options. */
export function resolveBuildOptions(options: BuildOptions | undefined): Required<BuildOptions> {
  checkOptionKeys('MeshBVH: options', options, BUILD_OPTION_KEYS);
  const strategy = options?.strategy ?? 'center';
  const maxLeafSize = options?.maxLeafSize ?? DEFAULT_MAX_LEAF_SIZE;
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
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
 * A BVH over the triangles of a mesh.
 *
 * The BVH keeps references to `positions` and `index` (it never copies or modifies them) and a float32
 * copy of the triangles in leaf order. After moving vertices, call {@link MeshBVH.refit}.
 *
 * @example
 * ```ts
 * import { MeshBVH } from '@sieve/core';
 *
 * // A unit tetrahedron: xyz per vertex, three vertex indices per triangle (a three.js
 * // geometry's `attributes.position.array` and `index.array` work as they are).
 * const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
 * const index = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
 * const bvh = new MeshBVH(positions, index, { strategy: 'sah' });
 * positions[9 + 1] = 0.5; // move a vertex in place...
 * bvh.refit(); // ...and refit the boxes (the tree's shape stays)
 * const data = bvh.serialize(); // the tree, not the vertices: built in a worker, transferred
 * const restored = MeshBVH.deserialize(data, positions, index);
 * console.log(restored.triangleCount, restored.nodeCount); // 4, …
 * ```
 */
export class MeshBVH implements MeshTree {
  /** Vertex positions (xyz triples) the tree was built from; referenced, not copied. */
  positions: Float32Array;
  /** Index buffer (three vertex indices a triangle) or `null` for a non-indexed mesh; referenced. */
  readonly index: TriangleIndex;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** Number of nodes in {@link MeshBVH.nodes}. */
  readonly nodeCount: number;
  /** The packed nodes (32 bytes each; layout in `nodes.ts`). */
  readonly nodes: ArrayBuffer;
  /** Float32 view of {@link MeshBVH.nodes} (bounds in words 0–5 of each node). */
  readonly nodeF32: Float32Array;
  /** Int32 view of {@link MeshBVH.nodes} (links in words 6–7 of each node). */
  readonly nodeI32: Int32Array;
  /** Triangle slot → index of the triangle in the original mesh. Leaves cover contiguous slots. */
  readonly triIds: Uint32Array;
  /** The triangles in slot order, 9 floats each (x0 y0 z0 x1 y1 z1 x2 y2 z2). */
  readonly triVerts: Float32Array;
  /** Incremented by every {@link MeshBVH.refit}; query caches use it to notice moved vertices. */
  version = 0;
  /** Offsets of each slot's vertices in `positions`, made by the first {@link MeshBVH.refit}. */
  private corners: Int32Array | null = null;

  /**
   * Builds the tree. Throws a `TypeError`/`RangeError` naming the argument for a non-`Float32Array`
   * position buffer, a length that is not a multiple of 3 (or of 9 without index), a non-finite
   * coordinate, an index count that is not a multiple of 3, an out-of-range index, or bad options.
   */
  constructor(positions: Float32Array, index: TriangleIndex = null, options: BuildOptions = {}) {
    const tree = (options as { [ADOPT]?: MeshTree } | null)?.[ADOPT] ?? buildTree(positions, index, options);
    this.positions = tree.positions;
    this.index = tree.index;
    this.triangleCount = tree.triangleCount;
    this.nodeCount = tree.nodeCount;
    this.nodes = tree.nodes;
    this.nodeF32 = tree.nodeF32;
    this.nodeI32 = tree.nodeI32;
    this.triIds = tree.triIds;
    this.triVerts = tree.triVerts;
    this.version = tree.version;
  }

  /**
   * Recomputes every node's bounds after vertices moved (same index buffer, same vertex count). Pass
   * the new positions, or nothing if the original `positions` array was modified in place. The tree
   * topology is kept: queries stay exact, but a large deformation makes them slower (rebuild then).
   */
  refit(positions: Float32Array = this.positions): void {
    if (!(positions instanceof Float32Array) || positions.length !== this.positions.length) {
      throw new RangeError(
        `MeshBVH.refit: positions must be a Float32Array of the same length (${this.positions.length})`,
      );
    }
    // v − v is 0 for a finite v and NaN otherwise; a sum of four of them is 0 only if all four are.
    const n = positions.length;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const a = positions[i];
      const b = positions[i + 1];
      const c = positions[i + 2];
      const d = positions[i + 3];
      if (a - a + (b - b) + (c - c) + (d - d) !== 0) break;
    }
    for (; i < n; i++) {
      const v = positions[i];
      if (v - v !== 0) throw new RangeError(`MeshBVH.refit: positions[${i}] is not finite (${v})`);
    }
    this.positions = positions;
    // The vertex offsets in slot order, made at the first refit (trees never refit do without them).
    this.corners ??= cornerOffsets(this.index, this.triIds);
    gatherAndRefit(
      positions,
      this.index,
      this.triIds,
      this.triVerts,
      this.nodeF32,
      this.nodeI32,
      this.nodeCount,
      this.corners,
    );
    this.version++;
  }

  /**
   * Moves the triangle copy ({@link MeshBVH.triVerts}) into `target`, a `Float32Array` of the same
   * length — e.g. a view on a WebAssembly memory, so that a kernel reads the triangles where the tree
   * keeps them — and uses it from then on ({@link MeshBVH.refit} writes there). Throws a `TypeError`
   * for anything else, before anything changes.
   */
  relocateTriangles(target: Float32Array): void {
    if (!(target instanceof Float32Array) || target.length !== this.triVerts.length) {
      throw new TypeError(
        `MeshBVH.relocateTriangles: target must be a Float32Array of length ${this.triVerts.length}`,
      );
    }
    target.set(this.triVerts);
    (this as { triVerts: Float32Array }).triVerts = target;
  }

  /** Writes the root bounds `[minX, minY, minZ, maxX, maxY, maxZ]` into `out` and returns it. */
  getBounds<T extends number[] | Float32Array | Float64Array>(out: T): T {
    for (let k = 0; k < 6; k++) out[k] = this.nodeF32[k];
    return out;
  }

  /**
   * The tree as one `ArrayBuffer` (transferable to or from a worker): a 32-byte header, the nodes, and
   * the triangle order. Vertex data is not included; {@link MeshBVH.deserialize} takes the same
   * `positions` and `index` again.
   */
  serialize(): ArrayBuffer {
    const bytes = HEADER_BYTES + this.nodeCount * NODE_BYTES + 4 * this.triangleCount;
    const out = new ArrayBuffer(bytes);
    const head = new Uint32Array(out, 0, 8);
    head[0] = MAGIC;
    head[1] = FORMAT_VERSION;
    head[2] = this.triangleCount;
    head[3] = this.nodeCount;
    head[4] = this.positions.length / 3;
    head[5] = this.index ? 1 : 0;
    new Uint8Array(out, HEADER_BYTES, this.nodeCount * NODE_BYTES).set(new Uint8Array(this.nodes));
    new Uint32Array(out, HEADER_BYTES + this.nodeCount * NODE_BYTES, this.triangleCount).set(this.triIds);
    return out;
  }

  /**
   * Restores a tree written by {@link MeshBVH.serialize} for the same mesh (`positions` may have moved:
   * bounds are recomputed). Throws if the buffer is not a serialized BVH, if it was made for a mesh with
   * a different vertex or triangle count, or if its nodes are inconsistent.
   */
  static deserialize(data: ArrayBuffer, positions: Float32Array, index: TriangleIndex = null): MeshBVH {
    if (!(data instanceof ArrayBuffer) || data.byteLength < HEADER_BYTES) {
      throw new TypeError('MeshBVH.deserialize: data must be an ArrayBuffer written by MeshBVH.serialize()');
    }
    const head = new Uint32Array(data, 0, 8);
    if (head[0] !== MAGIC) throw new RangeError('MeshBVH.deserialize: data is not a serialized MeshBVH');
    if (head[1] !== FORMAT_VERSION) {
      throw new RangeError(`MeshBVH.deserialize: unsupported format version ${head[1]}`);
    }
    const triCount = checkMesh(positions, index);
    const [, , nTri, nNode, nVert, indexed] = head;
    if (nTri !== triCount || nVert !== positions.length / 3 || (indexed === 1) !== (index !== null)) {
      throw new RangeError(
        `MeshBVH.deserialize: data was built for ${nTri} triangles / ${nVert} vertices (${indexed ? 'indexed' : 'non-indexed'}), ` +
          `got ${triCount} / ${positions.length / 3} (${index ? 'indexed' : 'non-indexed'})`,
      );
    }
    if (data.byteLength !== HEADER_BYTES + nNode * NODE_BYTES + 4 * nTri || nNode < 1) {
      throw new RangeError('MeshBVH.deserialize: data has the wrong length');
    }
    const nodes = data.slice(HEADER_BYTES, HEADER_BYTES + nNode * NODE_BYTES);
    const triIds = new Uint32Array(data.slice(HEADER_BYTES + nNode * NODE_BYTES));
    checkStructure(new Int32Array(nodes), nNode, triIds, nTri);
    return meshBVHFromTree(treeOf(positions, index, triCount, { nodes, nodeCount: nNode, triIds }));
  }
}

/** The tree the constructor builds: the mesh and the options checked, the topology, the gathered tree. */
function buildTree(positions: Float32Array, index: TriangleIndex, options: BuildOptions): MeshTree {
  const triCount = checkMesh(positions, index);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`MeshBVH: options must be an object or undefined, got ${String(options)}`);
  }
  const { strategy, maxLeafSize, maxDepth } = resolveBuildOptions(options);
  const sah = strategy === 'sah' ? SAH : null;
  return treeOf(
    positions,
    index,
    triCount,
    buildTopology(positions, index, triCount, maxLeafSize, maxDepth, sah),
  );
}

/**
 * A `MeshBVH` holding `tree` itself (its buffers, not copies), e.g. one built by `buildMeshTree`: the
 * tree's owner then queries through the `MeshBVH` only, since a refit or a relocation of the
 * triangles changes the `MeshBVH`'s fields, not the plain tree's.
 *
 * @internal
 */
export function meshBVHFromTree(tree: MeshTree): MeshBVH {
  return new MeshBVH(tree.positions, tree.index, { [ADOPT]: tree } as BuildOptions);
}

/**
 * Checks that the node links and leaf ranges describe a tree whose leaves cover every triangle slot
 * exactly once, in order, and that `triIds` is a permutation. Throws a `RangeError` otherwise.
 */
export function checkStructure(
  i32: Int32Array,
  nodeCount: number,
  triIds: Uint32Array,
  triCount: number,
): void {
  const seen = new Uint8Array(triCount);
  for (let s = 0; s < triCount; s++) {
    const t = triIds[s];
    if (t >= triCount || seen[t])
      throw new RangeError(`MeshBVH: triangle order is not a permutation (slot ${s})`);
    seen[t] = 1;
  }
  // Depth-first walk: leaves must appear in slot order and end exactly at triCount.
  const stack = new Int32Array(2 * nodeCount + 2);
  let sp = 0;
  stack[sp++] = 0;
  let nextSlot = 0;
  let visited = 0;
  while (sp > 0) {
    const node = stack[--sp];
    visited++;
    if (visited > nodeCount) throw new RangeError('MeshBVH: node links form a cycle');
    const w = node * NODE_WORDS;
    const tag = i32[w + 7];
    if (tag < 0) {
      if (i32[w + 6] !== nextSlot)
        throw new RangeError(`MeshBVH: leaf ${node} does not start at slot ${nextSlot}`);
      nextSlot += ~tag;
    } else {
      const r = i32[w + 6];
      if (tag > 2 || r <= node + 1 || r >= nodeCount || node + 1 >= nodeCount) {
        throw new RangeError(`MeshBVH: inner node ${node} has invalid links`);
      }
      stack[sp++] = r;
      stack[sp++] = node + 1;
    }
  }
  if (nextSlot !== triCount || visited !== nodeCount) {
    throw new RangeError('MeshBVH: leaves do not cover every triangle exactly once');
  }
}
