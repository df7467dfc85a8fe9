/**
 * Input checks for the triangle BVH: meshes, transforms, query shapes.
 *
 * Builders and queries call these so bad input fails with an error that names the argument, instead
 * of a silently wrong tree (Sieve convention; three-mesh-bvh does not check its input).
 */

/** An index buffer accepted by the BVH: `Uint32Array`, `Uint16Array`, or `null` for non-indexed. */
export type TriangleIndex = Uint32Array | Uint16Array | null;

/**
 * Checks a triangle mesh and returns its triangle count.
 *
 * - `positions` must be a `Float32Array` of xyz triples, every value finite;
 * - `index`, when given, must be a `Uint32Array` or `Uint16Array` whose length is a multiple of 3 and
 *   whose entries are all `< positions.length / 3`;
 * - without an index, `positions.length` must be a multiple of 9 (three vertices a triangle).
 */
export function checkMesh(positions: unknown, index: unknown): number {
  if (!(positions instanceof Float32Array)) {
    throw new TypeError('MeshBVH: positions must be a Float32Array of xyz triples');
  }
  if (positions.length % 3 !== 0) {
    throw new RangeError(`MeshBVH: positions.length (${positions.length}) is not a multiple of 3`);
  }
  for (let i = 0; i < positions.length; i++) {
    const v = positions[i];
    if (v - v !== 0) {
      throw new RangeError(`MeshBVH: positions[${i}] is not finite (${String(v)})`);
    }
  }
  const vertexCount = positions.length / 3;
  if (index === null || index === undefined) {
    if (positions.length % 9 !== 0) {
      throw new RangeError(
        `MeshBVH: non-indexed positions.length (${positions.length}) is not a multiple of 9 (3 vertices a triangle)`,
      );
    }
    return positions.length / 9;
  }
  if (!(index instanceof Uint32Array) && !(index instanceof Uint16Array)) {
    throw new TypeError('MeshBVH: index must be a Uint32Array, a Uint16Array or null');
  }
  if (index.length % 3 !== 0) {
    throw new RangeError(`MeshBVH: index.length (${index.length}) is not a multiple of 3`);
  }
  for (let i = 0; i < index.length; i++) {
    if (index[i] >= vertexCount) {
      throw new RangeError(
        `MeshBVH: index[${i}] = ${index[i]} is out of range (vertex count ${vertexCount})`,
      );
    }
  }
  return index.length / 3;
}

/** Throws a `RangeError` (`fn: name must be a finite number`) unless `v` is a finite number. */
export function checkFinite(v: number, fn: string, name: string): void {
  if (typeof v !== 'number' || v - v !== 0)
    throw new RangeError(`${fn}: ${name} must be a finite number (got ${String(v)})`);
}

/** Throws a `RangeError` naming `fn` and `name` unless `a` has at least `n` entries, all finite. */
export function checkVector(a: ArrayLike<number>, n: number, fn: string, name: string): void {
  if (a === null || a === undefined || typeof a.length !== 'number' || a.length < n) {
    throw new RangeError(`${fn}: ${name} must have at least ${n} numbers`);
  }
  for (let i = 0; i < n; i++) {
    const v = a[i];
    if (typeof v !== 'number' || v - v !== 0)
      throw new RangeError(`${fn}: ${name}[${i}] is not finite (${String(v)})`);
  }
}
