/**
 * Packed node layout of the triangle BVH, and the small accessors every query uses.
 *
 * Follows three-mesh-bvh's packed layout (`src/core/utils/nodeBufferUtils.js`): one `ArrayBuffer`,
 * 32 bytes a node, nodes written depth first so a left child is the node right after its parent.
 * Read through two views of the same buffer, `Float32Array` for bounds and `Int32Array` for links:
 *
 * | slot | inner node                   | leaf                                  |
 * | ---- | ---------------------------- | ------------------------------------- |
 * | 0–5  | minX minY minZ maxX maxY maxZ (float32) | same                       |
 * | 6    | index of the right child     | first triangle slot of the leaf       |
 * | 7    | split axis (0, 1, 2)         | `~count` (always negative)            |
 *
 * Slot 7 is an `Int32` so the leaf test is a sign test and every value stays a small integer in V8
 * (three-mesh-bvh packs a 16-bit count and a `0xFFFF` flag instead). Bounds are float32: they are the
 * min/max of float32 vertex coordinates, so they are exact (conservative without any rounding).
 */

/** 32-bit words per node. */
export const NODE_WORDS = 8;
/** Bytes per node. */
export const NODE_BYTES = 32;

/** Word index of node `n` in the node views. */
export function nodeBase(n: number): number {
  return n * NODE_WORDS;
}

/** Whether node `n` is a leaf. */
export function isLeaf(i32: Int32Array, n: number): boolean {
  return i32[n * NODE_WORDS + 7] < 0;
}

/** Index of the right child of inner node `n` (the left child is `n + 1`). */
export function rightChild(i32: Int32Array, n: number): number {
  return i32[n * NODE_WORDS + 6];
}

/** Split axis (0 = x, 1 = y, 2 = z) of inner node `n`. */
export function splitAxis(i32: Int32Array, n: number): number {
  return i32[n * NODE_WORDS + 7];
}

/** First triangle slot of leaf `n`. */
export function leafOffset(i32: Int32Array, n: number): number {
  return i32[n * NODE_WORDS + 6];
}

/** Number of triangles in leaf `n`. */
export function leafCount(i32: Int32Array, n: number): number {
  return ~i32[n * NODE_WORDS + 7];
}
