/**
 * Ray casts against a triangle BVH: the closest hit (triangle, distance, point, normal, barycentrics)
 * and all hits, under an affine transform.
 *
 * Traversal follows three-mesh-bvh's `raycastFirst` (`src/core/cast/raycastFirst.template.js`): nearer
 * child first, skip a subtree whose box starts beyond the best hit. Here the order comes from each
 * child's slab entry distance (a branch-free slab test with precomputed entry/exit faces), the
 * traversal uses an explicit stack of `(node, entry distance)` (node indices in an `Int32Array`), and
 * the boxes are padded by `1e-9·S` (`S` the largest absolute coordinate of the tree and ray origin) so
 * rounding in the slab test never loses a hit on a box face.
 *
 * The ray–triangle test is the watertight one of Woop, Benthin and Wald ("Watertight Ray/Triangle
 * Intersection", JCGT 2013) in float64, not Möller–Trumbore: edge functions of a shared edge are
 * computed from the same two sheared vertices, so they are exact negatives of each other and a ray
 * through an edge or vertex of a closed mesh never slips between its triangles. Two-sided; a
 * degenerate triangle (zero determinant) is never hit. Ties in distance go to the lower triangle index,
 * so the result equals {@link raycastBruteForce} exactly.
 *
 * The ray is given in world space with any non-zero `direction` (normalized internally); distances are
 * world distances from `origin`, `0 ≤ near` ≤ distance ≤ `far`. With a transform, the ray is mapped into
 * the mesh's local frame once (affine maps keep the ray parameter), so scale and shear are supported.
 */

import { growArray } from '../growArray.js';
import { affineFromMatrix4, affineInvert, normalMatrix } from './affine.js';
import type { MeshBVH } from './MeshBVH.js';
import { NODE_WORDS } from './nodes.js';
import { checkFinite, checkVector } from './validate.js';

/** The closest hit of {@link raycastFirst}. Reused across calls. */
export class RayHit {
  /** Whether the last cast hit anything (the other fields are valid only then). */
  hit = false;
  /** Index of the triangle hit, in the original mesh. */
  triangle = -1;
  /** World distance from the ray origin. */
  distance = Infinity;
  /** World hit point. */
  point = new Float64Array(3);
  /** Unit face normal in world space (by winding: `(v1 − v0) × (v2 − v0)`, inverse-transpose transformed). */
  normal = new Float64Array(3);
  /** Barycentric weights of the triangle's vertices 0, 1, 2 at the hit point. */
  barycentric = new Float64Array(3);
  /** Whether the ray hit the side the normal points to. */
  frontFace = false;
}

/** All hits of {@link raycastAll}, sorted by distance (then triangle index). Arrays grow as needed. */
export class RayHits {
  /** Number of hits. */
  count = 0;
  /** Original triangle index of each hit. */
  triangles = new Uint32Array(16);
  /** World distance of each hit. */
  distances = new Float64Array(16);
  /** World hit points, 3 numbers each. */
  points = new Float64Array(48);
  /** Unit world face normals, 3 numbers each. */
  normals = new Float64Array(48);
  /** Barycentric weights, 3 numbers each. */
  barycentrics = new Float64Array(48);
  /** @internal slot of each hit */
  slots = new Int32Array(16);

  /** @internal */
  pushHit(slot: number, triangle: number, hit: Float64Array): void {
    if (this.count === this.triangles.length) this.grow();
    const k = this.count++;
    this.slots[k] = slot;
    this.triangles[k] = triangle;
    this.distances[k] = hit[0];
    this.barycentrics[3 * k] = hit[1];
    this.barycentrics[3 * k + 1] = hit[2];
    this.barycentrics[3 * k + 2] = hit[3];
  }

  private grow(): void {
    const n = 2 * this.triangles.length;
    const t = new Uint32Array(n);
    t.set(this.triangles);
    this.triangles = t;
    const s = new Int32Array(n);
    s.set(this.slots);
    this.slots = s;
    const d = new Float64Array(n);
    d.set(this.distances);
    this.distances = d;
    for (const key of ['points', 'normals', 'barycentrics'] as const) {
      const a = new Float64Array(3 * n);
      a.set(this[key]);
      this[key] = a;
    }
  }
}

// Per-cast state (module scratch). Kept in typed arrays and read into locals by the queries: module-level
// `let` doubles would be boxed by V8 (an allocation per write, an indirection per read).
const M = new Float64Array(12);
const MI = new Float64Array(12);
const NM = new Float64Array(9);
// Traversal stacks: node indices (Int32: doubles used as indices cost ~20%) and entry distances.
let nodeStack = new Int32Array(128);
let stack = new Float64Array(128);
/**
 * Ray state: 0–2 local origin, 3–5 local direction, 6–8 Woop shear (sx, sy, sz), 9–11 local origin in
 * (kx, ky, kz) order, 12–14 world origin, 15–17 world unit direction, 18 has-matrix flag.
 */
const RAY = new Float64Array(19);
/** Woop axis order kx, ky, kz. */
const K = new Int32Array(3);
/** Output of {@link rayTriangle}: t, then the barycentrics of vertices 0, 1, 2. */
const HIT = new Float64Array(4);
/** Accepted distance range `[near, far]` of {@link rayTriangle} (far shrinks to the best hit). */
const RANGE = new Float64Array(2);

function setupRay(
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
  RAY[0] = ox;
  RAY[1] = oy;
  RAY[2] = oz;
  RAY[3] = dx;
  RAY[4] = dy;
  RAY[5] = dz;
  RAY[6] = (kx === 0 ? dx : kx === 1 ? dy : dz) / dkz;
  RAY[7] = (ky === 0 ? dx : ky === 1 ? dy : dz) / dkz;
  RAY[8] = 1 / dkz;
  RAY[9] = kx === 0 ? ox : kx === 1 ? oy : oz;
  RAY[10] = ky === 0 ? ox : ky === 1 ? oy : oz;
  RAY[11] = kz === 0 ? ox : kz === 1 ? oy : oz;
  RAY[12] = wox;
  RAY[13] = woy;
  RAY[14] = woz;
  RAY[15] = wdx;
  RAY[16] = wdy;
  RAY[17] = wdz;
  RAY[18] = hasMatrix ? 1 : 0;
}

/**
 * Watertight ray–triangle test (Woop et al.) of the triangle at `v[i..i+8]` against the current
 * sheared ray (`K`, `RAY`), on the range `[RANGE[0], RANGE[1]]`; on a hit writes `t` and the
 * barycentrics to {@link HIT} and returns true. Takes no doubles as arguments: a double crossing a call
 * boundary that V8 does not inline is boxed (an allocation).
 */
function rayTriangle(v: Float32Array, i: number): boolean {
  const kx = K[0];
  const ky = K[1];
  const kz = K[2];
  const okx = RAY[9];
  const oky = RAY[10];
  const okz = RAY[11];
  const sx = RAY[6];
  const sy = RAY[7];
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
  const t = (RAY[8] * (U * az + V * bz + W * cz)) / det;
  if (!(t >= RANGE[0] && t <= RANGE[1])) return false;
  HIT[0] = t;
  HIT[1] = U / det;
  HIT[2] = V / det;
  HIT[3] = W / det;
  return true;
}

/** Box padding: 1e-9 × the largest absolute coordinate of the tree's root box and the local origin. */
function setupSlabFor(bvh: MeshBVH): void {
  const f = bvh.nodeF32;
  let s = Math.max(Math.abs(RAY[0]), Math.abs(RAY[1]), Math.abs(RAY[2]));
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > s && v < Infinity) s = v;
  }
  SLAB[0] = 1e-9 * s;
  setupSlab();
}

/** Per-cast slab constants: box padding (0), origins for entry (3–5) and exit (6–8) planes, inverse direction (9–11). */
const SLAB = new Float64Array(12);
/** Entry-plane word offsets within a node: k (min) or k + 3 (max) for each axis k. */
const NEAR = new Int32Array(3);

/** Slab constants for the current ray, with boxes padded by `SLAB[0]`. */
function setupSlab(): void {
  const pad = SLAB[0];
  for (let k = 0; k < 3; k++) {
    const d = RAY[3 + k];
    const inv = 1 / (d > 1e-200 || d < -1e-200 ? d : 1e-200);
    const pos = inv > 0;
    NEAR[k] = pos ? k : k + 3;
    SLAB[3 + k] = pos ? RAY[k] + pad : RAY[k] - pad;
    SLAB[6 + k] = pos ? RAY[k] - pad : RAY[k] + pad;
    SLAB[9 + k] = inv;
  }
}

/**
 * The closest hit of a ray on the mesh of `bvh` placed by `matrix` (column-major 4×4, `null` for
 * identity), into `hit`. Returns whether something was hit. Throws a `RangeError` for a non-finite
 * origin or direction, a zero direction, a negative or non-finite `near`, a NaN `far`, or a bad
 * matrix. Does not allocate.
 */
export function raycastFirst(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hit: RayHit,
  near = 0,
  far = Infinity,
): boolean {
  setupRay('raycastFirst', matrix, origin, direction, near, far);
  hit.hit = false;
  hit.triangle = -1;
  hit.distance = Infinity;
  if (bvh.triangleCount === 0) return false;
  const f = bvh.nodeF32;
  const n = bvh.nodeI32;
  const v = bvh.triVerts;
  const ids = bvh.triIds;
  setupSlabFor(bvh);
  // Slab constants in locals; the slab test is written out where it is used (as a function it would
  // return a boxed double when not inlined). Entry-plane word offsets: 0–2 for min, 3–5 for max.
  const nx = NEAR[0];
  const ny = NEAR[1];
  const nz = NEAR[2];
  const fx = 3 - nx;
  const fy = 5 - ny;
  const fz = 7 - nz;
  const oxn = SLAB[3];
  const oyn = SLAB[4];
  const ozn = SLAB[5];
  const oxf = SLAB[6];
  const oyf = SLAB[7];
  const ozf = SLAB[8];
  const ix = SLAB[9];
  const iy = SLAB[10];
  const iz = SLAB[11];
  RANGE[0] = near;
  RANGE[1] = far;
  // Read back as float64 so the loop-carried `best` stays an unboxed double.
  let best = RANGE[1];
  let bestSlot = -1;
  let bestId = 0;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let st = stack;
  let ns = nodeStack;
  let sp = 0;
  let node = 0;
  let tEnter = Math.max(near, (f[nx] - oxn) * ix, (f[ny] - oyn) * iy, (f[nz] - ozn) * iz);
  if (!(tEnter <= Math.min(best, (f[fx] - oxf) * ix, (f[fy] - oyf) * iy, (f[fz] - ozf) * iz))) return false;
  for (;;) {
    if (tEnter <= best) {
      const w = node * NODE_WORDS;
      const tag = n[w + 7];
      if (tag < 0) {
        for (let s = n[w + 6], end = s + ~tag; s < end; s++) {
          if (rayTriangle(v, 9 * s)) {
            const id = ids[s];
            const t = HIT[0];
            if (t < best || bestSlot < 0 || id < bestId) {
              best = t;
              RANGE[1] = t;
              bestSlot = s;
              bestId = id;
              b0 = HIT[1];
              b1 = HIT[2];
              b2 = HIT[3];
            }
          }
        }
      } else {
        const l = node + 1;
        const r = n[w + 6];
        const wl = l * NODE_WORDS;
        const wr = r * NODE_WORDS;
        // Slab entry distances of both children (Infinity: missed, or entered after the best hit).
        let tl = Math.max(near, (f[wl + nx] - oxn) * ix, (f[wl + ny] - oyn) * iy, (f[wl + nz] - ozn) * iz);
        if (
          !(tl <= Math.min(best, (f[wl + fx] - oxf) * ix, (f[wl + fy] - oyf) * iy, (f[wl + fz] - ozf) * iz))
        ) {
          tl = Infinity;
        }
        let tr = Math.max(near, (f[wr + nx] - oxn) * ix, (f[wr + ny] - oyn) * iy, (f[wr + nz] - ozn) * iz);
        if (
          !(tr <= Math.min(best, (f[wr + fx] - oxf) * ix, (f[wr + fy] - oyf) * iy, (f[wr + fz] - ozf) * iz))
        ) {
          tr = Infinity;
        }
        if (tl !== Infinity || tr !== Infinity) {
          if (sp === ns.length) {
            ns = nodeStack = growArray(ns, sp + 1);
            st = stack = growArray(st, sp + 1);
          }
          // Visit the nearer child now, the farther later.
          if (tl <= tr) {
            if (tr !== Infinity) {
              ns[sp] = r;
              st[sp++] = tr;
            }
            node = l;
            tEnter = tl;
          } else {
            if (tl !== Infinity) {
              ns[sp] = l;
              st[sp++] = tl;
            }
            node = r;
            tEnter = tr;
          }
          continue;
        }
      }
    }
    if (sp === 0) break;
    tEnter = st[--sp];
    node = ns[sp];
  }
  if (bestSlot < 0) return false;
  hit.hit = true;
  hit.triangle = bestId;
  hit.distance = best;
  hit.barycentric[0] = b0;
  hit.barycentric[1] = b1;
  hit.barycentric[2] = b2;
  hit.point[0] = RAY[12] + best * RAY[15];
  hit.point[1] = RAY[13] + best * RAY[16];
  hit.point[2] = RAY[14] + best * RAY[17];
  hit.frontFace = faceNormal(v, bestSlot, hit.normal, 0);
  return true;
}

/**
 * Writes the unit world face normal of slot `s` to `out[o..o+2]`; returns whether the (world) ray hits
 * its front side.
 */
function faceNormal(v: Float32Array, s: number, out: Float64Array, o: number): boolean {
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
  if (RAY[18] === 1) {
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
  return nx * RAY[15] + ny * RAY[16] + nz * RAY[17] < 0;
}

/**
 * Every hit of a ray on the mesh of `bvh` placed by `matrix`, into `hits`, sorted by distance (ties:
 * triangle index). Returns the number of hits. Same arguments and errors as {@link raycastFirst}.
 */
export function raycastAll(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hits: RayHits,
  near = 0,
  far = Infinity,
): number {
  setupRay('raycastAll', matrix, origin, direction, near, far);
  hits.count = 0;
  if (bvh.triangleCount === 0) return 0;
  const f = bvh.nodeF32;
  const n = bvh.nodeI32;
  const v = bvh.triVerts;
  const ids = bvh.triIds;
  setupSlabFor(bvh);
  const nx = NEAR[0];
  const ny = NEAR[1];
  const nz = NEAR[2];
  const fx = 3 - nx;
  const fy = 5 - ny;
  const fz = 7 - nz;
  const oxn = SLAB[3];
  const oyn = SLAB[4];
  const ozn = SLAB[5];
  const oxf = SLAB[6];
  const oyf = SLAB[7];
  const ozf = SLAB[8];
  const ix = SLAB[9];
  const iy = SLAB[10];
  const iz = SLAB[11];
  RANGE[0] = near;
  RANGE[1] = far;
  let sp = 0;
  let ns = nodeStack;
  ns[sp++] = 0;
  while (sp > 0) {
    const node = ns[--sp];
    const w = node * NODE_WORDS;
    const t0 = Math.max(near, (f[w + nx] - oxn) * ix, (f[w + ny] - oyn) * iy, (f[w + nz] - ozn) * iz);
    if (!(t0 <= Math.min(far, (f[w + fx] - oxf) * ix, (f[w + fy] - oyf) * iy, (f[w + fz] - ozf) * iz)))
      continue;
    const tag = n[w + 7];
    if (tag < 0) {
      for (let s = n[w + 6], end = s + ~tag; s < end; s++) {
        if (rayTriangle(v, 9 * s)) hits.pushHit(s, ids[s], HIT);
      }
    } else {
      if (sp + 2 > ns.length) ns = nodeStack = growArray(ns, sp + 2);
      ns[sp++] = n[w + 6];
      ns[sp++] = node + 1;
    }
  }
  finishHits(v, hits);
  return hits.count;
}

/**
 * Reference for {@link raycastFirst}/{@link raycastAll}: the same ray–triangle test on every
 * triangle, no tree. Fills `hits` (sorted) and, if given, `first`. For tests and validation.
 */
export function raycastBruteForce(
  bvh: MeshBVH,
  matrix: ArrayLike<number> | null,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  hits: RayHits,
  first: RayHit | null = null,
  near = 0,
  far = Infinity,
): number {
  setupRay('raycastBruteForce', matrix, origin, direction, near, far);
  hits.count = 0;
  const v = bvh.triVerts;
  RANGE[0] = near;
  RANGE[1] = far;
  for (let s = 0; s < bvh.triangleCount; s++) {
    if (rayTriangle(v, 9 * s)) hits.pushHit(s, bvh.triIds[s], HIT);
  }
  finishHits(v, hits);
  if (first) {
    first.hit = hits.count > 0;
    first.triangle = first.hit ? hits.triangles[0] : -1;
    first.distance = first.hit ? hits.distances[0] : Infinity;
    if (first.hit) {
      for (let k = 0; k < 3; k++) {
        first.point[k] = hits.points[k];
        first.normal[k] = hits.normals[k];
        first.barycentric[k] = hits.barycentrics[k];
      }
      first.frontFace = faceNormal(v, hits.slots[0], first.normal, 0);
    }
  }
  return hits.count;
}

/** Sorts hits by (distance, triangle) with an insertion sort (few hits), then fills points/normals. */
function finishHits(v: Float32Array, hits: RayHits): void {
  const d = hits.distances;
  const t = hits.triangles;
  const sl = hits.slots;
  const bc = hits.barycentrics;
  for (let i = 1; i < hits.count; i++) {
    const di = d[i];
    const ti = t[i];
    const si = sl[i];
    const b0 = bc[3 * i];
    const b1 = bc[3 * i + 1];
    const b2 = bc[3 * i + 2];
    let j = i - 1;
    while (j >= 0 && (d[j] > di || (d[j] === di && t[j] > ti))) {
      d[j + 1] = d[j];
      t[j + 1] = t[j];
      sl[j + 1] = sl[j];
      bc[3 * j + 3] = bc[3 * j];
      bc[3 * j + 4] = bc[3 * j + 1];
      bc[3 * j + 5] = bc[3 * j + 2];
      j--;
    }
    d[j + 1] = di;
    t[j + 1] = ti;
    sl[j + 1] = si;
    bc[3 * j + 3] = b0;
    bc[3 * j + 4] = b1;
    bc[3 * j + 5] = b2;
  }
  for (let k = 0; k < hits.count; k++) {
    hits.points[3 * k] = RAY[12] + d[k] * RAY[15];
    hits.points[3 * k + 1] = RAY[13] + d[k] * RAY[16];
    hits.points[3 * k + 2] = RAY[14] + d[k] * RAY[17];
    faceNormal(v, sl[k], hits.normals, 3 * k);
  }
}
