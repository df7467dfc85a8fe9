/**
 * The early outs and frame change of three.js's `Mesh.raycast` (`src/objects/Mesh.js`), in scalar code
 * with three.js's own arithmetic, operation for operation: the bounding sphere in world space
 * (`Sphere.applyMatrix4`, `Ray.recast`, `Sphere.containsPoint`, `Ray.intersectSphere`, the `far − near`
 * test), the inverse world matrix (`Matrix4.invert`), the ray in the mesh's frame (`Ray.applyMatrix4`:
 * `Vector3.applyMatrix4` with its projective divide, `Vector3.transformDirection` with its
 * normalization) and the local bounding box (`Ray.intersectBox`). Every decision and every double equals
 * three.js's; written out so that no double crosses a call (three.js's methods, when V8 does not inline
 * them into a caller this large, box their double results: an allocation per raycast) and so that the
 * inverse of an unchanged world matrix is reused.
 */
import type { Box3, Matrix4, Ray, Sphere } from 'three';
import { RAY } from './rayTriangle.js';

/**
 * The world matrix of the last cast that got past the bounding sphere (16 elements): what the walks
 * apply to hit points. Kept to reuse its inverse while it is unchanged.
 */
export const WORLD_MATRIX = new Float64Array(16);
const LAST = WORLD_MATRIX;
/** Its inverse (16). */
const INV = new Float64Array(16);
let lastValid = false;

/** `Matrix4.invert` of `te` into `INV` (three.js's formulas; a singular matrix gives zeros). */
function invert(te: ArrayLike<number>): void {
  const n11 = te[0];
  const n21 = te[1];
  const n31 = te[2];
  const n41 = te[3];
  const n12 = te[4];
  const n22 = te[5];
  const n32 = te[6];
  const n42 = te[7];
  const n13 = te[8];
  const n23 = te[9];
  const n33 = te[10];
  const n43 = te[11];
  const n14 = te[12];
  const n24 = te[13];
  const n34 = te[14];
  const n44 = te[15];
  const t11 =
    n23 * n34 * n42 - n24 * n33 * n42 + n24 * n32 * n43 - n22 * n34 * n43 - n23 * n32 * n44 + n22 * n33 * n44;
  const t12 =
    n14 * n33 * n42 - n13 * n34 * n42 - n14 * n32 * n43 + n12 * n34 * n43 + n13 * n32 * n44 - n12 * n33 * n44;
  const t13 =
    n13 * n24 * n42 - n14 * n23 * n42 + n14 * n22 * n43 - n12 * n24 * n43 - n13 * n22 * n44 + n12 * n23 * n44;
  const t14 =
    n14 * n23 * n32 - n13 * n24 * n32 - n14 * n22 * n33 + n12 * n24 * n33 + n13 * n22 * n34 - n12 * n23 * n34;
  const det = n11 * t11 + n21 * t12 + n31 * t13 + n41 * t14;
  const o = INV;
  if (det === 0) {
    o.fill(0);
    return;
  }
  const detInv = 1 / det;
  o[0] = t11 * detInv;
  o[1] =
    (n24 * n33 * n41 -
      n23 * n34 * n41 -
      n24 * n31 * n43 +
      n21 * n34 * n43 +
      n23 * n31 * n44 -
      n21 * n33 * n44) *
    detInv;
  o[2] =
    (n22 * n34 * n41 -
      n24 * n32 * n41 +
      n24 * n31 * n42 -
      n21 * n34 * n42 -
      n22 * n31 * n44 +
      n21 * n32 * n44) *
    detInv;
  o[3] =
    (n23 * n32 * n41 -
      n22 * n33 * n41 -
      n23 * n31 * n42 +
      n21 * n33 * n42 +
      n22 * n31 * n43 -
      n21 * n32 * n43) *
    detInv;
  o[4] = t12 * detInv;
  o[5] =
    (n13 * n34 * n41 -
      n14 * n33 * n41 +
      n14 * n31 * n43 -
      n11 * n34 * n43 -
      n13 * n31 * n44 +
      n11 * n33 * n44) *
    detInv;
  o[6] =
    (n14 * n32 * n41 -
      n12 * n34 * n41 -
      n14 * n31 * n42 +
      n11 * n34 * n42 +
      n12 * n31 * n44 -
      n11 * n32 * n44) *
    detInv;
  o[7] =
    (n12 * n33 * n41 -
      n13 * n32 * n41 +
      n13 * n31 * n42 -
      n11 * n33 * n42 -
      n12 * n31 * n43 +
      n11 * n32 * n43) *
    detInv;
  o[8] = t13 * detInv;
  o[9] =
    (n14 * n23 * n41 -
      n13 * n24 * n41 -
      n14 * n21 * n43 +
      n11 * n24 * n43 +
      n13 * n21 * n44 -
      n11 * n23 * n44) *
    detInv;
  o[10] =
    (n12 * n24 * n41 -
      n14 * n22 * n41 +
      n14 * n21 * n42 -
      n11 * n24 * n42 -
      n12 * n21 * n44 +
      n11 * n22 * n44) *
    detInv;
  o[11] =
    (n13 * n22 * n41 -
      n12 * n23 * n41 -
      n13 * n21 * n42 +
      n11 * n23 * n42 +
      n12 * n21 * n43 -
      n11 * n22 * n43) *
    detInv;
  o[12] = t14 * detInv;
  o[13] =
    (n13 * n24 * n31 -
      n14 * n23 * n31 +
      n14 * n21 * n33 -
      n11 * n24 * n33 -
      n13 * n21 * n34 +
      n11 * n23 * n34) *
    detInv;
  o[14] =
    (n14 * n22 * n31 -
      n12 * n24 * n31 -
      n14 * n21 * n32 +
      n11 * n24 * n32 +
      n12 * n21 * n34 -
      n11 * n22 * n34) *
    detInv;
  o[15] =
    (n12 * n23 * n31 -
      n13 * n22 * n31 +
      n13 * n21 * n32 -
      n11 * n23 * n32 -
      n12 * n21 * n33 +
      n11 * n22 * n33) *
    detInv;
}

/** `te` copied to `WORLD_MATRIX`, its inverse in `INV` (reused while the matrix is unchanged). */
function inverseOf(te: ArrayLike<number>): void {
  let same = lastValid;
  for (let i = 0; i < 16; i++) {
    const v = te[i];
    if (v !== LAST[i]) same = false;
    LAST[i] = v;
  }
  if (same) return;
  invert(te);
  lastValid = true;
}

/** What the prelude found. */
export const PRELUDE_MISS = 0;
/** The ray passed the early outs; the local ray is in `RAY`. */
export const PRELUDE_CAST = 1;

/**
 * three.js's bounding-sphere early out for `ray` (world) against `sphere` (local) placed by `matrix`,
 * with `near`/`far` from the raycaster: `PRELUDE_MISS` when three.js returns there. Otherwise the ray
 * in the mesh's frame (`_ray.copy(raycaster.ray).applyMatrix4(inverse)`) is written to `RAY`, and the
 * local bounding box early out is applied when `box` is not null.
 */
export function prelude(
  matrix: Matrix4,
  sphere: Sphere,
  box: Box3 | null,
  ray: Ray,
  raycaster: { near: number; far: number },
): number {
  const e = matrix.elements;
  // _sphere.copy(geometry.boundingSphere).applyMatrix4(matrixWorld)
  const cx = sphere.center.x;
  const cy = sphere.center.y;
  const cz = sphere.center.z;
  const w = 1 / (e[3] * cx + e[7] * cy + e[11] * cz + e[15]);
  const scx = (e[0] * cx + e[4] * cy + e[8] * cz + e[12]) * w;
  const scy = (e[1] * cx + e[5] * cy + e[9] * cz + e[13]) * w;
  const scz = (e[2] * cx + e[6] * cy + e[10] * cz + e[14]) * w;
  const sx = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  const sy = e[4] * e[4] + e[5] * e[5] + e[6] * e[6];
  const sz = e[8] * e[8] + e[9] * e[9] + e[10] * e[10];
  const r = sphere.radius * Math.sqrt(Math.max(sx, sy, sz));
  // _ray.copy(raycaster.ray).recast(raycaster.near)
  const near = raycaster.near;
  const far = raycaster.far;
  const ox = ray.origin.x;
  const oy = ray.origin.y;
  const oz = ray.origin.z;
  const dx = ray.direction.x;
  const dy = ray.direction.y;
  const dz = ray.direction.z;
  const rx = ox + dx * near;
  const ry = oy + dy * near;
  const rz = oz + dz * near;
  // _sphere.containsPoint(_ray.origin)
  let qx = rx - scx;
  let qy = ry - scy;
  let qz = rz - scz;
  if (!(qx * qx + qy * qy + qz * qz <= r * r)) {
    // _ray.intersectSphere(_sphere, _sphereHitAt) === null
    const vx = scx - rx;
    const vy = scy - ry;
    const vz = scz - rz;
    const tca = vx * dx + vy * dy + vz * dz;
    const d2 = vx * vx + vy * vy + vz * vz - tca * tca;
    const radius2 = r * r;
    if (d2 > radius2) return PRELUDE_MISS;
    const thc = Math.sqrt(radius2 - d2);
    const t0 = tca - thc;
    const t1 = tca + thc;
    if (t1 < 0) return PRELUDE_MISS;
    const t = t0 < 0 ? t1 : t0;
    // _ray.origin.distanceToSquared(_sphereHitAt) > (far − near)²
    qx = rx - (rx + dx * t);
    qy = ry - (ry + dy * t);
    qz = rz - (rz + dz * t);
    if (qx * qx + qy * qy + qz * qz > (far - near) ** 2) return PRELUDE_MISS;
  }
  // _inverseMatrix.copy(matrixWorld).invert(); _ray.copy(raycaster.ray).applyMatrix4(_inverseMatrix)
  inverseOf(e);
  const m = INV;
  const wo = 1 / (m[3] * ox + m[7] * oy + m[11] * oz + m[15]);
  RAY[0] = (m[0] * ox + m[4] * oy + m[8] * oz + m[12]) * wo;
  RAY[1] = (m[1] * ox + m[5] * oy + m[9] * oz + m[13]) * wo;
  RAY[2] = (m[2] * ox + m[6] * oy + m[10] * oz + m[14]) * wo;
  let lx = m[0] * dx + m[4] * dy + m[8] * dz;
  let ly = m[1] * dx + m[5] * dy + m[9] * dz;
  let lz = m[2] * dx + m[6] * dy + m[10] * dz;
  const s = 1 / (Math.sqrt(lx * lx + ly * ly + lz * lz) || 1);
  lx *= s;
  ly *= s;
  lz *= s;
  RAY[3] = lx;
  RAY[4] = ly;
  RAY[5] = lz;
  if (box !== null && !rayHitsBox(box)) return PRELUDE_MISS;
  return PRELUDE_CAST;
}

/** `Ray.intersectBox(box) !== null` for the local ray in `RAY` (three.js's comparisons, NaN cases too). */
function rayHitsBox(box: Box3): boolean {
  const invdirx = 1 / RAY[3];
  const invdiry = 1 / RAY[4];
  const invdirz = 1 / RAY[5];
  const ox = RAY[0];
  const oy = RAY[1];
  const oz = RAY[2];
  let tmin: number;
  let tmax: number;
  let tymin: number;
  let tymax: number;
  let tzmin: number;
  let tzmax: number;
  if (invdirx >= 0) {
    tmin = (box.min.x - ox) * invdirx;
    tmax = (box.max.x - ox) * invdirx;
  } else {
    tmin = (box.max.x - ox) * invdirx;
    tmax = (box.min.x - ox) * invdirx;
  }
  if (invdiry >= 0) {
    tymin = (box.min.y - oy) * invdiry;
    tymax = (box.max.y - oy) * invdiry;
  } else {
    tymin = (box.max.y - oy) * invdiry;
    tymax = (box.min.y - oy) * invdiry;
  }
  if (tmin > tymax || tymin > tmax) return false;
  if (tymin > tmin || Number.isNaN(tmin)) tmin = tymin;
  if (tymax < tmax || Number.isNaN(tmax)) tmax = tymax;
  if (invdirz >= 0) {
    tzmin = (box.min.z - oz) * invdirz;
    tzmax = (box.max.z - oz) * invdirz;
  } else {
    tzmin = (box.max.z - oz) * invdirz;
    tzmax = (box.min.z - oz) * invdirz;
  }
  if (tmin > tzmax || tzmin > tmax) return false;
  // (three.js then updates tmin; only tmax decides whether a point is returned)
  if (tzmax < tmax || Number.isNaN(tmax)) tmax = tzmax;
  return !(tmax < 0);
}
