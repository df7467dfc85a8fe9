/**
 * The ray of the BVH ray casts: per-cast scratch (with named layouts), set-up from world space into the
 * mesh's local frame, the padded slab test of a node box, and the watertight ray–triangle test.
 *
 * The ray–triangle test is the watertight one of Woop, Benthin and Wald ("Watertight Ray/Triangle
 * Intersection", JCGT 2013) in float64, not Möller–Trumbore: edge functions of a shared edge are
 * computed from the same two sheared vertices, so they are exact negatives of each other and a ray
 * through an edge or vertex of a closed mesh never slips between its triangles. Two-sided; a
 * degenerate triangle (zero determinant) is never hit. Boxes are padded by `1e-9·S` (`S` the largest
 * absolute coordinate of the tree and ray origin) so rounding in the slab test never loses a hit on a
 * box face. Affine maps keep the ray parameter, so distances found in the local frame are world
 * distances.
 */

import { affineFromMatrix4, affineInvert, normalMatrix } from './affine.js';
import { checkFinite, checkVector } from './checks.js';
import type { MeshBVH } from './MeshBVH.js';
import { CUTOFF } from './shapecast.js';

// Per-cast state (module scratch). Kept in typed arrays and read into locals by the queries: module-level
// `let` doubles would be boxed by V8 (an allocation per write, an indirection per read).
export const M = new Float64Array(12);
const MI = new Float64Array(12);
const NM = new Float64Array(9);
/** Ray state, laid out by the `RAY_*` offsets below. */
export const RAY = new Float64Array(19);
/** `RAY` offset: local origin (3). */
export const RAY_ORIGIN = 0;
/** `RAY` offset: local direction (3). */
export const RAY_DIR = 3;
/** `RAY` offset: Woop shear `sx, sy, sz` (3). */
export const RAY_SHEAR = 6;
/** `RAY` offset: local origin in `kx, ky, kz` order (3). */
export const RAY_ORIGIN_K = 9;
/** `RAY` offset: world origin (3). */
export const RAY_WORLD_ORIGIN = 12;
/** `RAY` offset: world unit direction (3). */
export const RAY_WORLD_DIR = 15;
/** `RAY` offset: 1 when a transform was given, else 0. */
export const RAY_HAS_MATRIX = 18;
/** Woop axis order kx, ky, kz. */
export const K = new Int32Array(3);
/** Output of {@link rayTriangle}: t, then the barycentrics of vertices 0, 1, 2. */
export const HIT = new Float64Array(4);
/**
 * Accepted distance range of {@link rayTriangle}: `RANGE[CUTOFF]` the far end (`CUTOFF` as in
 * `shapecast.ts`: it shrinks to the best hit of `raycastFirst`), `RANGE[NEAR_T]` the near end.
 */
export const RANGE = new Float64Array(3);
/** `RANGE` slot of the near end. */
export const NEAR_T = 2;
/** Best hit of `raycastFirst` so far: `BEST_I[BEST_SLOT]` (slot, −1 for none), `BEST_I[BEST_ID]`. */
export const BEST_I = new Int32Array(2);
/** `BEST_I` slot of the triangle slot. */
export const BEST_SLOT = 0;
/** `BEST_I` slot of the original triangle index. */
export const BEST_ID = 1;
/** Barycentric weights of the best hit of `raycastFirst`. */
export const BEST_BARY = new Float64Array(3);

/**
 * Checks and sets up the ray (world `origin`, any non-zero `direction`, `0 ≤ near`, `far` not NaN)
 * in the local frame of `matrix`; throws a `RangeError` naming `fn` and the argument.
 */
export function setupRay(
  fn: string,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  near: number,
  far: number,
): void {
  checkVector(origin, 3, fn, 'origin');
  checkVector(direction, 3, fn, 'direction');
  checkFinite(near, fn, 'near');
  if (near < 0) throw new RangeError(`${fn}: near must be >= 0 (got ${near})`);
  if (typeof far !== 'number' || Number.isNaN(far)) throw new RangeError(`${fn}: far must be a number`);
  const len = Math.sqrt(direction[0] ** 2 + direction[1] ** 2 + direction[2] ** 2);
  if (!(len > 0) || !Number.isFinite(len)) throw new RangeError(`${fn}: direction must be a non-zero vector`);
  const wox = origin[0];
  const woy = origin[1];
  const woz = origin[2];
  const wdx = direction[0] / len;
  const wdy = direction[1] / len;
  const wdz = direction[2] / len;
  let ox = wox;
  let oy = woy;
  let oz = woz;
  let dx = wdx;
  let dy = wdy;
  let dz = wdz;
  const hasMatrix = matrix !== null && matrix !== undefined;
  if (hasMatrix) {
    affineFromMatrix4(M, matrix, 'matrix', fn);
    affineInvert(MI, M);
    ox = MI[0] * wox + MI[3] * woy + MI[6] * woz + MI[9];
    oy = MI[1] * wox + MI[4] * woy + MI[7] * woz + MI[10];
    oz = MI[2] * wox + MI[5] * woy + MI[8] * woz + MI[11];
    dx = MI[0] * wdx + MI[3] * wdy + MI[6] * wdz;
    dy = MI[1] * wdx + MI[4] * wdy + MI[7] * wdz;
    dz = MI[2] * wdx + MI[5] * wdy + MI[8] * wdz;
  }
  // Woop's shear: kz = dominant axis of the direction; swap kx, ky when it is negative (keeps winding).
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const az = Math.abs(dz);
  const kz = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  let kx = kz === 2 ? 0 : kz + 1;
  let ky = kx === 2 ? 0 : kx + 1;
  const dkz = kz === 0 ? dx : kz === 1 ? dy : dz;
  if (dkz < 0) {
    const t = kx;
    kx = ky;
    ky = t;
  }
  K[0] = kx;
  K[1] = ky;
  K[2] = kz;
  RAY[RAY_ORIGIN] = ox;
  RAY[RAY_ORIGIN + 1] = oy;
  RAY[RAY_ORIGIN + 2] = oz;
  RAY[RAY_DIR] = dx;
  RAY[RAY_DIR + 1] = dy;
  RAY[RAY_DIR + 2] = dz;
  RAY[RAY_SHEAR] = (kx === 0 ? dx : kx === 1 ? dy : dz) / dkz;
  RAY[RAY_SHEAR + 1] = (ky === 0 ? dx : ky === 1 ? dy : dz) / dkz;
  RAY[RAY_SHEAR + 2] = 1 / dkz;
  RAY[RAY_ORIGIN_K] = kx === 0 ? ox : kx === 1 ? oy : oz;
  RAY[RAY_ORIGIN_K + 1] = ky === 0 ? ox : ky === 1 ? oy : oz;
  RAY[RAY_ORIGIN_K + 2] = kz === 0 ? ox : kz === 1 ? oy : oz;
  RAY[RAY_WORLD_ORIGIN] = wox;
  RAY[RAY_WORLD_ORIGIN + 1] = woy;
  RAY[RAY_WORLD_ORIGIN + 2] = woz;
  RAY[RAY_WORLD_DIR] = wdx;
  RAY[RAY_WORLD_DIR + 1] = wdy;
  RAY[RAY_WORLD_DIR + 2] = wdz;
  RAY[RAY_HAS_MATRIX] = hasMatrix ? 1 : 0;
}

/**
 * Watertight ray–triangle test (Woop et al.) of the triangle at `v[i..i+8]` against the current
 * sheared ray (`K`, `RAY`), on the range `[RANGE[NEAR_T], RANGE[CUTOFF]]`; on a hit writes `t` and the
 * barycentrics to {@link HIT} and returns true. Takes no doubles as arguments: a double crossing a call
 * boundary that V8 does not inline is boxed (an allocation).
 */
export function rayTriangle(v: Float32Array, i: number): boolean {
  const kx = K[0];
  const ky = K[1];
  const kz = K[2];
  const okx = RAY[RAY_ORIGIN_K];
  const oky = RAY[RAY_ORIGIN_K + 1];
  const okz = RAY[RAY_ORIGIN_K + 2];
  const sx = RAY[RAY_SHEAR];
  const sy = RAY[RAY_SHEAR + 1];
  // Vertices relative to the origin, sheared so the ray runs along +kz (Woop et al., section 3).
  const az = v[i + kz] - okz;
  const bz = v[i + 3 + kz] - okz;
  const cz = v[i + 6 + kz] - okz;
  const Ax = v[i + kx] - okx - sx * az;
  const Ay = v[i + ky] - oky - sy * az;
  const Bx = v[i + 3 + kx] - okx - sx * bz;
  const By = v[i + 3 + ky] - oky - sy * bz;
  const Cx = v[i + 6 + kx] - okx - sx * cz;
  const Cy = v[i + 6 + ky] - oky - sy * cz;
  const U = Cx * By - Cy * Bx;
  const V = Ax * Cy - Ay * Cx;
  const W = Bx * Ay - By * Ax;
  // Mixed signs = outside. Pairwise products (cheaper than six sign tests) can only miss a mixed pair
  // if they underflow, i.e. for edge functions below ~1e-162: a ray within ~1e-81 of an edge.
  if (U * V < 0 || U * W < 0 || V * W < 0) return false;
  const det = U + V + W;
  if (det === 0) return false;
  const t = (RAY[RAY_SHEAR + 2] * (U * az + V * bz + W * cz)) / det;
  if (!(t >= RANGE[NEAR_T] && t <= RANGE[CUTOFF])) return false;
  HIT[0] = t;
  HIT[1] = U / det;
  HIT[2] = V / det;
  HIT[3] = W / det;
  return true;
}

/** Box padding: 1e-9 × the largest absolute coordinate of the tree's root box and the local origin. */
export function setupSlabFor(bvh: MeshBVH): void {
  const f = bvh.nodeF32;
  let s = Math.max(Math.abs(RAY[RAY_ORIGIN]), Math.abs(RAY[RAY_ORIGIN + 1]), Math.abs(RAY[RAY_ORIGIN + 2]));
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > s && v < Infinity) s = v;
  }
  SLAB[SLAB_PAD] = 1e-9 * s;
  setupSlab();
}

/** Per-cast slab constants, laid out by the `SLAB_*` offsets below. */
export const SLAB = new Float64Array(12);
/** `SLAB` offset: box padding (1). */
export const SLAB_PAD = 0;
/** `SLAB` offset: ray origin shifted for the entry planes, per axis (3). */
export const SLAB_ENTRY = 3;
/** `SLAB` offset: ray origin shifted for the exit planes, per axis (3). */
export const SLAB_EXIT = 6;
/** `SLAB` offset: inverse local direction, per axis (3). */
export const SLAB_INV = 9;
/** Entry-plane word offsets within a node: k (min) or k + 3 (max) for each axis k. */
export const NEAR = new Int32Array(3);

/** Slab constants for the current ray, with boxes padded by `SLAB[SLAB_PAD]`. */
function setupSlab(): void {
  const pad = SLAB[SLAB_PAD];
  for (let k = 0; k < 3; k++) {
    const d = RAY[RAY_DIR + k];
    const inv = 1 / (d > 1e-200 || d < -1e-200 ? d : 1e-200);
    const pos = inv > 0;
    NEAR[k] = pos ? k : k + 3;
    SLAB[SLAB_ENTRY + k] = pos ? RAY[RAY_ORIGIN + k] + pad : RAY[RAY_ORIGIN + k] - pad;
    SLAB[SLAB_EXIT + k] = pos ? RAY[RAY_ORIGIN + k] - pad : RAY[RAY_ORIGIN + k] + pad;
    SLAB[SLAB_INV + k] = inv;
  }
}

/**
 * Writes the unit world face normal of slot `s` to `out[o..o+2]`; returns whether the (world) ray hits
 * its front side.
 */
export function faceNormal(v: Float32Array, s: number, out: Float64Array, o: number): boolean {
  const i = 9 * s;
  const ex = v[i + 3] - v[i];
  const ey = v[i + 4] - v[i + 1];
  const ez = v[i + 5] - v[i + 2];
  const fx = v[i + 6] - v[i];
  const fy = v[i + 7] - v[i + 1];
  const fz = v[i + 8] - v[i + 2];
  let nx = ey * fz - ez * fy;
  let ny = ez * fx - ex * fz;
  let nz = ex * fy - ey * fx;
  if (RAY[RAY_HAS_MATRIX] === 1) {
    normalMatrix(NM, M);
    const x = NM[0] * nx + NM[1] * ny + NM[2] * nz;
    const y = NM[3] * nx + NM[4] * ny + NM[5] * nz;
    const z = NM[6] * nx + NM[7] * ny + NM[8] * nz;
    nx = x;
    ny = y;
    nz = z;
  }
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  out[o] = nx / len;
  out[o + 1] = ny / len;
  out[o + 2] = nz / len;
  return nx * RAY[RAY_WORLD_DIR] + ny * RAY[RAY_WORLD_DIR + 1] + nz * RAY[RAY_WORLD_DIR + 2] < 0;
}
