/**
 * What a bounds tree reads from a `BufferGeometry`: its positions as a `Float32Array` of xyz triples
 * and its index as a `Uint16Array`/`Uint32Array`, restricted to a range of index (or vertex) entries,
 * plus a stamp of the attributes so a tree notices when the geometry changed under it.
 *
 * Positions are used in place when the attribute is a plain float32 `BufferAttribute` of item size 3
 * (the common case: the tree keeps a reference, as three-mesh-bvh does). Interleaved or wider float32
 * attributes are copied into a compact array, value for value. Other types (normalized integers,
 * half floats) are copied as `getX/getY/getZ` return them, rounded to float32: the source is then not
 * `exact`, and the ray casts fall back to three.js's own loop (their vertices are not float32 values).
 */
import type { BufferAttribute, BufferGeometry, InterleavedBufferAttribute } from 'three';

type PositionAttribute = BufferAttribute | InterleavedBufferAttribute;

/** A geometry's triangles as the BVH takes them. */
export interface GeometryArrays {
  /** xyz triples (the attribute's own array, or a compact copy). */
  positions: Float32Array;
  /** Whether `positions` is a copy (then refreshed on refit). */
  copied: boolean;
  /** Whether every position is exactly the double three.js reads (always, unless converted). */
  exact: boolean;
  /** Triangle index restricted to the range (a view or a converted copy), or `null` if non-indexed. */
  index: Uint16Array | Uint32Array | null;
}

/** Identity and versions of the attributes a tree was built from. */
export interface SourceStamp {
  position: PositionAttribute | undefined;
  positionArray: ArrayLike<number> | undefined;
  positionVersion: number;
  positionCount: number;
  indexAttr: BufferAttribute | null;
  indexArray: ArrayLike<number> | null;
  indexVersion: number;
}

/** Version counter of a buffer or interleaved attribute. */
function versionOf(attr: PositionAttribute | BufferAttribute | null | undefined): number {
  if (!attr) return -1;
  const interleaved = (attr as InterleavedBufferAttribute).isInterleavedBufferAttribute === true;
  return interleaved ? (attr as InterleavedBufferAttribute).data.version : (attr as BufferAttribute).version;
}

/** The current stamp of `geometry`. */
export function stampOf(geometry: BufferGeometry): SourceStamp {
  const position = geometry.attributes.position as PositionAttribute | undefined;
  const index = geometry.index;
  return {
    position,
    positionArray: position ? arrayOf(position) : undefined,
    positionVersion: versionOf(position),
    positionCount: position ? position.count : 0,
    indexAttr: index,
    indexArray: index ? index.array : null,
    indexVersion: versionOf(index),
  };
}

/**
 * How `geometry` differs from `stamp`: 0 unchanged, 1 positions changed in place (refit), 2 anything
 * else (attributes replaced, index edited, vertex count changed: rebuild).
 */
export function compareStamp(geometry: BufferGeometry, stamp: SourceStamp): number {
  const position = geometry.attributes.position as PositionAttribute | undefined;
  const index = geometry.index;
  if (position !== stamp.position || index !== stamp.indexAttr) return 2;
  if (position === undefined) return 0;
  if (arrayOf(position) !== stamp.positionArray || position.count !== stamp.positionCount) return 2;
  if (index !== null && (index.array !== stamp.indexArray || index.version !== stamp.indexVersion)) return 2;
  return versionOf(position) !== stamp.positionVersion ? 1 : 0;
}

function arrayOf(attr: PositionAttribute): ArrayLike<number> {
  return (attr as InterleavedBufferAttribute).isInterleavedBufferAttribute === true
    ? (attr as InterleavedBufferAttribute).data.array
    : (attr as BufferAttribute).array;
}

/**
 * The positions and index of `geometry` for the entries `[start, start + count)` of its index (or, when
 * non-indexed, of its vertices): whole triangles only, as three.js's raycast loop reads them.
 * `previous` (a copy made earlier) is refilled in place when its length still fits.
 */
export function readGeometry(
  geometry: BufferGeometry,
  start: number,
  count: number,
  fn: string,
  previous: Float32Array | null = null,
): GeometryArrays {
  const position = geometry.attributes.position as PositionAttribute | undefined;
  if (!position) throw new TypeError(`${fn}: the geometry has no position attribute`);
  if (position.itemSize < 3) {
    throw new RangeError(`${fn}: the position attribute has item size ${position.itemSize} (3 needed)`);
  }
  const index = geometry.index;
  const total = index ? index.count : position.count;
  const first = Math.min(start, total);
  const usable = Math.min(count, total - first);
  const tris = Math.floor(usable / 3);
  const { positions, copied, exact } = readPositions(
    position,
    index ? 0 : first,
    index ? position.count : 3 * tris,
    previous,
  );
  let idx: Uint16Array | Uint32Array | null = null;
  if (index) {
    const a = index.array;
    if (a instanceof Uint32Array || a instanceof Uint16Array) {
      idx = a.subarray(first, first + 3 * tris);
    } else {
      idx = new Uint32Array(3 * tris);
      for (let i = 0; i < idx.length; i++) {
        const v = a[first + i];
        if (!Number.isInteger(v) || v < 0) {
          throw new RangeError(`${fn}: index[${first + i}] = ${v} is not a vertex index`);
        }
        idx[i] = v;
      }
    }
  }
  return { positions, copied, exact, index: idx };
}

/** `count` vertices of `attr` from vertex `first`, as float32 xyz triples. */
function readPositions(
  attr: PositionAttribute,
  first: number,
  count: number,
  previous: Float32Array | null,
): { positions: Float32Array; copied: boolean; exact: boolean } {
  const interleaved = (attr as InterleavedBufferAttribute).isInterleavedBufferAttribute === true;
  const array = arrayOf(attr);
  if (!interleaved && array instanceof Float32Array && attr.itemSize === 3) {
    return { positions: array.subarray(3 * first, 3 * (first + count)), copied: false, exact: true };
  }
  const out = previous && previous.length === 3 * count ? previous : new Float32Array(3 * count);
  if (array instanceof Float32Array) {
    // Strided float32: copy the values as they are (exact).
    const stride = interleaved ? (attr as InterleavedBufferAttribute).data.stride : attr.itemSize;
    const offset = interleaved ? (attr as InterleavedBufferAttribute).offset : 0;
    for (let v = 0; v < count; v++) {
      const i = (first + v) * stride + offset;
      out[3 * v] = array[i];
      out[3 * v + 1] = array[i + 1];
      out[3 * v + 2] = array[i + 2];
    }
    return { positions: out, copied: true, exact: true };
  }
  let exact = true;
  for (let v = 0; v < count; v++) {
    const x = attr.getX(first + v);
    const y = attr.getY(first + v);
    const z = attr.getZ(first + v);
    out[3 * v] = x;
    out[3 * v + 1] = y;
    out[3 * v + 2] = z;
    if (out[3 * v] !== x || out[3 * v + 1] !== y || out[3 * v + 2] !== z) exact = false;
  }
  return { positions: out, copied: true, exact };
}
