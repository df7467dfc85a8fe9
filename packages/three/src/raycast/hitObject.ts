/**
 * The intersection object of one hit, exactly as three.js's `checkGeometryIntersection`
 * (`src/objects/Mesh.js`) builds it: `{ distance, point, object, uv?, uv1?, normal?, face, barycoord,
 * faceIndex }`, the same keys in the same order, every number the same double.
 *
 * For plain float32 attributes (the common case) the per-hit math of `Triangle.getBarycoord`,
 * `Triangle.getInterpolatedAttribute` and `Triangle.getNormal` is written out operation for operation
 * and the object built in one literal (three.js adds its properties one by one: a hidden-class change
 * each). Any other attribute (interleaved, normalized, half float) goes through three.js's own
 * `Triangle` functions.
 */
import {
  BufferAttribute,
  type BufferGeometry,
  type InterleavedBufferAttribute,
  type Intersection,
  type Object3D,
  Triangle,
  Vector2,
  Vector3,
} from 'three';
import { RAY } from './rayTriangle.js';

type Attribute = BufferAttribute | InterleavedBufferAttribute;

const stockGetX = BufferAttribute.prototype.getX;

/** Whether `attr` reads as `array[i * itemSize + k]` (what the written-out path assumes). */
function plain(attr: Attribute | undefined): boolean {
  if (attr === undefined) return true;
  const a = attr as BufferAttribute;
  return (
    (attr as InterleavedBufferAttribute).isInterleavedBufferAttribute !== true &&
    a.array instanceof Float32Array &&
    a.normalized === false &&
    a.getX === stockGetX
  );
}

const _vA = new Vector3();
const _vB = new Vector3();
const _vC = new Vector3();
const _p = new Vector3();
/** Scratch: barycoord (0–2). */
const BC = new Float64Array(3);
/** Scratch: interpolated attribute (0–2). */
const IA = new Float64Array(3);

/** `Triangle.getBarycoord(p, a, b, c)` of `v[i..i+8]` and `P[0..2]` into `BC` (three.js's operations). */
function barycoord(v: Float32Array, i: number, P: Float64Array, o: number): void {
  const ax = v[i];
  const ay = v[i + 1];
  const az = v[i + 2];
  // _v0 = c − a, _v1 = b − a, _v2 = point − a
  const v0x = v[i + 6] - ax;
  const v0y = v[i + 7] - ay;
  const v0z = v[i + 8] - az;
  const v1x = v[i + 3] - ax;
  const v1y = v[i + 4] - ay;
  const v1z = v[i + 5] - az;
  const v2x = P[o] - ax;
  const v2y = P[o + 1] - ay;
  const v2z = P[o + 2] - az;
  const dot00 = v0x * v0x + v0y * v0y + v0z * v0z;
  const dot01 = v0x * v1x + v0y * v1y + v0z * v1z;
  const dot02 = v0x * v2x + v0y * v2y + v0z * v2z;
  const dot11 = v1x * v1x + v1y * v1y + v1z * v1z;
  const dot12 = v1x * v2x + v1y * v2y + v1z * v2z;
  const denom = dot00 * dot11 - dot01 * dot01;
  if (denom === 0) {
    BC[0] = 0;
    BC[1] = 0;
    BC[2] = 0;
    return;
  }
  const invDenom = 1 / denom;
  const u = (dot11 * dot02 - dot01 * dot12) * invDenom;
  const w = (dot00 * dot12 - dot01 * dot02) * invDenom;
  BC[0] = 1 - u - w;
  BC[1] = w;
  BC[2] = u;
}

/**
 * `Triangle.getInterpolatedAttribute(attr, a, b, c, BC)` of a plain float32 attribute, `n` components,
 * into `IA` (three.js: `setScalar(0)` then `addScaledVector` of each vertex's value).
 */
function interpolate(attr: BufferAttribute, a: number, b: number, c: number, n: number): void {
  const arr = attr.array as Float32Array;
  const s = attr.itemSize;
  for (let k = 0; k < n; k++) {
    let x = 0;
    x += arr[a * s + k] * BC[0];
    x += arr[b * s + k] * BC[1];
    x += arr[c * s + k] * BC[2];
    IA[k] = x;
  }
}

/**
 * The intersection three.js builds for a hit on the triangle of slot `i / 9` of `v` (vertices a, b, c
 * with indices `ia`, `ib`, `ic`), world `distance` and point `data[o+1..o+3]`, local point
 * `data[o+4..o+6]`, triangle number `faceIndex`, material index `materialIndex` (0 with one
 * material). The local ray direction is read from `RAY`.
 */
export function hitObject(
  geometry: BufferGeometry,
  object: Object3D,
  v: Float32Array,
  i: number,
  ia: number,
  ib: number,
  ic: number,
  data: Float64Array,
  o: number,
  faceIndex: number,
  materialIndex: number,
): Intersection {
  const attributes = geometry.attributes;
  const uv = attributes.uv as Attribute | undefined;
  const uv1 = attributes.uv1 as Attribute | undefined;
  const normal = attributes.normal as Attribute | undefined;
  if (!(plain(uv) && plain(uv1) && plain(normal))) {
    return stockHitObject(geometry, object, v, i, ia, ib, ic, data, o, faceIndex, materialIndex);
  }
  barycoord(v, i, data, o + 4);
  const barycoordVector = new Vector3(BC[0], BC[1], BC[2]);
  let uvVector: Vector2 | undefined;
  let uv1Vector: Vector2 | undefined;
  let normalVector: Vector3 | undefined;
  if (uv) {
    interpolate(uv as BufferAttribute, ia, ib, ic, 2);
    uvVector = new Vector2(IA[0], IA[1]);
  }
  if (uv1) {
    interpolate(uv1 as BufferAttribute, ia, ib, ic, 2);
    uv1Vector = new Vector2(IA[0], IA[1]);
  }
  if (normal) {
    interpolate(normal as BufferAttribute, ia, ib, ic, 3);
    // Vector3.dot with the local ray direction, then multiplyScalar(−1).
    if (IA[0] * RAY[3] + IA[1] * RAY[4] + IA[2] * RAY[5] > 0) {
      IA[0] *= -1;
      IA[1] *= -1;
      IA[2] *= -1;
    }
    normalVector = new Vector3(IA[0], IA[1], IA[2]);
  }
  // Triangle.getNormal(a, b, c): (c − b) × (a − b), normalized (zero for a degenerate triangle).
  const bx = v[i + 3];
  const by = v[i + 4];
  const bz = v[i + 5];
  const tx = v[i + 6] - bx;
  const ty = v[i + 7] - by;
  const tz = v[i + 8] - bz;
  const ux = v[i] - bx;
  const uy = v[i + 1] - by;
  const uz = v[i + 2] - bz;
  let nx = ty * uz - tz * uy;
  let ny = tz * ux - tx * uz;
  let nz = tx * uy - ty * ux;
  const lengthSq = nx * nx + ny * ny + nz * nz;
  if (lengthSq > 0) {
    const s = 1 / Math.sqrt(lengthSq);
    nx *= s;
    ny *= s;
    nz *= s;
  } else {
    nx = 0;
    ny = 0;
    nz = 0;
  }
  const face = { a: ia, b: ib, c: ic, normal: new Vector3(nx, ny, nz), materialIndex };
  const point = new Vector3(data[o + 1], data[o + 2], data[o + 3]);
  const distance = data[o];
  // One literal per set of attributes, keys in three.js's order.
  if (uvVector) {
    if (uv1Vector) {
      return normalVector
        ? {
            distance,
            point,
            object,
            uv: uvVector,
            uv1: uv1Vector,
            normal: normalVector,
            face,
            barycoord: barycoordVector,
            faceIndex,
          }
        : {
            distance,
            point,
            object,
            uv: uvVector,
            uv1: uv1Vector,
            face,
            barycoord: barycoordVector,
            faceIndex,
          };
    }
    return normalVector
      ? {
          distance,
          point,
          object,
          uv: uvVector,
          normal: normalVector,
          face,
          barycoord: barycoordVector,
          faceIndex,
        }
      : { distance, point, object, uv: uvVector, face, barycoord: barycoordVector, faceIndex };
  }
  if (uv1Vector) {
    return normalVector
      ? {
          distance,
          point,
          object,
          uv1: uv1Vector,
          normal: normalVector,
          face,
          barycoord: barycoordVector,
          faceIndex,
        }
      : { distance, point, object, uv1: uv1Vector, face, barycoord: barycoordVector, faceIndex };
  }
  return normalVector
    ? { distance, point, object, normal: normalVector, face, barycoord: barycoordVector, faceIndex }
    : { distance, point, object, face, barycoord: barycoordVector, faceIndex };
}

/** The same through three.js's own `Triangle` functions (any attribute type). */
function stockHitObject(
  geometry: BufferGeometry,
  object: Object3D,
  v: Float32Array,
  i: number,
  ia: number,
  ib: number,
  ic: number,
  data: Float64Array,
  o: number,
  faceIndex: number,
  materialIndex: number,
): Intersection {
  _vA.set(v[i], v[i + 1], v[i + 2]);
  _vB.set(v[i + 3], v[i + 4], v[i + 5]);
  _vC.set(v[i + 6], v[i + 7], v[i + 8]);
  _p.set(data[o + 4], data[o + 5], data[o + 6]);
  const intersection: Intersection = {
    distance: data[o],
    point: new Vector3(data[o + 1], data[o + 2], data[o + 3]),
    object,
  };
  const barycoord = new Vector3();
  Triangle.getBarycoord(_p, _vA, _vB, _vC, barycoord);
  const { uv, uv1, normal } = geometry.attributes;
  if (uv)
    intersection.uv = Triangle.getInterpolatedAttribute(
      uv as BufferAttribute,
      ia,
      ib,
      ic,
      barycoord,
      new Vector2(),
    );
  if (uv1)
    intersection.uv1 = Triangle.getInterpolatedAttribute(
      uv1 as BufferAttribute,
      ia,
      ib,
      ic,
      barycoord,
      new Vector2(),
    );
  if (normal) {
    const n = Triangle.getInterpolatedAttribute(
      normal as BufferAttribute,
      ia,
      ib,
      ic,
      barycoord,
      new Vector3(),
    );
    if (n.x * RAY[3] + n.y * RAY[4] + n.z * RAY[5] > 0) n.multiplyScalar(-1);
    intersection.normal = n;
  }
  const face = { a: ia, b: ib, c: ic, normal: new Vector3(), materialIndex: 0 };
  Triangle.getNormal(_vA, _vB, _vC, face.normal);
  intersection.face = face;
  intersection.barycoord = barycoord;
  intersection.faceIndex = faceIndex;
  face.materialIndex = materialIndex;
  return intersection;
}
