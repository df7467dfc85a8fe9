/**
 * One Sieve `MeshBVH` per cannon-es `Trimesh` shape, built on first use and cached (a `WeakMap` keyed by
 * the shape, so it goes when the shape goes), plus the shape's world-space vertices and transform.
 *
 * The BVH is built over the shape's own unscaled `vertices` (referenced, not copied) and its `indices`
 * (cannon stores them as an `Int16Array`; they are read as unsigned 16-bit here, which undoes cannon's
 * wrap-around for meshes of 32 768 to 65 535 vertices). The shape's `scale` goes into the transform, so
 * `setScale()` needs no rebuild. A shape whose `vertices` or `indices` array is replaced is rebuilt on its
 * next use; after editing the vertices of a shape in place, call {@link refreshTrimesh}.
 * (The tree itself: `@sieve/core`'s `MeshBVH`, an AABB bounding-volume hierarchy as in
 * Ericson's Real-Time Collision Detection, chapter 6.)
 */
import { buildMeshTree, MeshBVH, type MeshTree, meshBVHFromTree } from '@sieve/core';
import type { Quaternion, Trimesh, Vec3 } from 'cannon-es';

interface Entry {
  /**
   * The tree: plain data as built (the contact handlers need no more), the `MeshBVH` holding the same
   * buffers once {@link trimeshBVH} has handed it out (then the handlers query it, refits included).
   */
  bvh: MeshTree;
  vertices: Float32Array;
  indices: ArrayLike<number>;
  /** Unsigned triangle indices (3 per triangle). */
  index: Uint32Array;
}

const cache = new WeakMap<Trimesh, Entry>();

function entryOf(shape: Trimesh): Entry {
  let e = cache.get(shape);
  if (e === undefined || e.vertices !== shape.vertices || e.indices !== shape.indices) {
    const raw = shape.indices;
    const index = new Uint32Array(raw.length);
    for (let k = 0; k < raw.length; k++) index[k] = raw[k] & 0xffff;
    const vertices =
      shape.vertices instanceof Float32Array
        ? shape.vertices
        : new Float32Array(shape.vertices as ArrayLike<number>);
    e = { bvh: buildMeshTree(vertices, index), vertices: shape.vertices, indices: raw, index };
    cache.set(shape, e);
  }
  return e;
}

/**
 * The BVH of a Trimesh shape over its unscaled local-space `vertices` (built on first use, cached until
 * the shape is collected, its `vertices` or `indices` array is replaced, or {@link refreshTrimesh}).
 * Building is O(T log T) for T triangles; later calls are a `WeakMap` lookup. Throws the `MeshBVH`
 * constructor's `RangeError` for a non-finite vertex coordinate, an index count that is not a multiple
 * of 3 or an index past the vertices.
 */
export function trimeshBVH(shape: Trimesh): MeshBVH {
  const e = entryOf(shape);
  const bvh = e.bvh instanceof MeshBVH ? e.bvh : meshBVHFromTree(e.bvh);
  e.bvh = bvh;
  return bvh;
}

/**
 * The tree {@link trimeshBVH} answers for, as the contact handlers read it: the same buffers, without
 * making the `MeshBVH` (so that a page which never asks for one does not bundle its class).
 */
export function trimeshTree(shape: Trimesh): MeshTree {
  return entryOf(shape).bvh;
}

/**
 * The shape's triangle indices as unsigned 32-bit integers (3 per triangle; cannon's `Int16Array` read
 * as unsigned 16-bit), cached with the BVH.
 */
export function trimeshIndex(shape: Trimesh): Uint32Array {
  return entryOf(shape).index;
}

/**
 * Drops the cached BVH of a shape, so the next contact query rebuilds it. Call it after changing the
 * shape's vertices in place (replacing the arrays is noticed without it).
 */
export function refreshTrimesh(shape: Trimesh): void {
  cache.delete(shape);
}

/** Whether a BVH is cached for the shape (built and not dropped by {@link refreshTrimesh}); for tests. */
export function hasTrimeshBVH(shape: Trimesh): boolean {
  return cache.has(shape);
}

/**
 * Writes the rotation of a (possibly not quite unit) quaternion as a row-major 3×3 matrix into
 * `out[o..o+9)`; the quaternion is normalized first.
 */
export function rotationOf(q: Quaternion, out: Float64Array, o = 0): Float64Array {
  let { x, y, z, w } = q;
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  if (len > 0) {
    x /= len;
    y /= len;
    z /= len;
    w /= len;
  } else {
    w = 1;
  }
  out[o] = 1 - 2 * (y * y + z * z);
  out[o + 1] = 2 * (x * y - z * w);
  out[o + 2] = 2 * (x * z + y * w);
  out[o + 3] = 2 * (x * y + z * w);
  out[o + 4] = 1 - 2 * (x * x + z * z);
  out[o + 5] = 2 * (y * z - x * w);
  out[o + 6] = 2 * (x * z - y * w);
  out[o + 7] = 2 * (y * z + x * w);
  out[o + 8] = 1 - 2 * (x * x + y * y);
  return out;
}

/**
 * The column-major 4×4 matrix (three.js `Matrix4.elements` layout) placing a shape with `scale` at
 * position `x` and orientation `q`: `M = T(x)·R(q)·S(scale)`.
 */
export function shapeMatrix(x: Vec3, q: Quaternion, scale: Vec3 | null, out: Float64Array): Float64Array {
  const r = rotationOf(q, ROT);
  const sx = scale ? scale.x : 1;
  const sy = scale ? scale.y : 1;
  const sz = scale ? scale.z : 1;
  out[0] = r[0] * sx;
  out[1] = r[3] * sx;
  out[2] = r[6] * sx;
  out[3] = 0;
  out[4] = r[1] * sy;
  out[5] = r[4] * sy;
  out[6] = r[7] * sy;
  out[7] = 0;
  out[8] = r[2] * sz;
  out[9] = r[5] * sz;
  out[10] = r[8] * sz;
  out[11] = 0;
  out[12] = x.x;
  out[13] = x.y;
  out[14] = x.z;
  out[15] = 1;
  return out;
}

const ROT = new Float64Array(9);

/** World position of vertex `v` of `vertices` under the column-major matrix `m`, into `out[o..o+3)`. */
export function transformVertex(
  vertices: Float32Array,
  v: number,
  m: Float64Array,
  out: Float64Array,
  o: number,
): void {
  const x = vertices[3 * v];
  const y = vertices[3 * v + 1];
  const z = vertices[3 * v + 2];
  out[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}
