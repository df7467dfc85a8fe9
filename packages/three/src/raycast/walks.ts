/**
 * The BVH walks of `acceleratedRaycast`: every hit, or the first one, of three.js's ray–triangle test
 * on the triangles whose (padded) boxes the local ray crosses.
 *
 * The walk is `@sieve/core`'s single-tree traversal (three-mesh-bvh's `shapecast`: one stack over the
 * packed nodes) specialised for rays by hand, as core specialises its own ray casts: a branch-free slab
 * test with the entry and exit planes chosen once per ray (Williams et al., "An efficient and robust
 * ray–box intersection algorithm", 2005), computed as bits rather than jumps (the outcome of a box test
 * is a coin flip for the branch predictor); the first-hit walk takes the child with the nearer entry
 * first and skips subtrees that start beyond the best hit (three-mesh-bvh's `raycastFirst`). The nodes
 * are read in the four-wide layout of `rayTree.ts` (the children's boxes in their parent's record); the
 * candidates of a leaf are found by `nextCandidate` with the ray in registers. Where WebAssembly SIMD
 * runs, trees of 2048 triangles or more are walked by the kernel of `wasm/rayKernel.as` instead (the
 * four boxes of a record in float32 lanes, two triangles to a float64x2 register), which returns the
 * candidates; groups (arrays of materials) and first hits under a draw range stay in TypeScript.
 *
 * The tree only chooses candidates; each candidate is tested by three.js's own arithmetic
 * (`rayTriangle.ts`), its world point and distance computed as `Mesh.raycast` computes them
 * (`Vector3.applyMatrix4`, `distanceTo`), and the near/far test is three.js's, on that distance. Boxes
 * are padded by `4e-6·S` (`S` the largest coordinate of the tree's box and the local origin) and the
 * local ray range by a relative `1e-6` and `4e-6·S` beyond `near/s` and `far/s` (`s` the world length
 * of a local unit step along the ray), so rounding can never cull a triangle three.js would report:
 * its hit point lies on the triangle up to rounding, far inside that padding — and so does the
 * kernel's float32 box test, whose rounding stays under `7·2⁻²⁴·S` for `S` in `[2⁻¹⁰⁰, 2¹⁰⁰]` (other
 * trees and rays walk in TypeScript).
 */
import { growArray, type MeshBVH } from '@sieve/core';
import { WORLD_MATRIX } from './prelude.js';
import { RAY_NODE_WORDS, type RayTree } from './rayTree.js';
import { nextCandidate, RAY, rayTriangle, SIDE_DOUBLE, T_LIMIT, TRI_HIT } from './rayTriangle.js';
import { FILTER, FILTER_GROUPS, FILTER_NONE, FILTER_RANGE } from './triangleFilter.js';
import {
  I_MODE,
  I_NEAR_X,
  P_DIR,
  P_HI,
  P_INV,
  P_LO,
  P_NEAR_CUT,
  P_ORIGIN,
  P_OXF,
  P_OXN,
  P_PAD,
  type WasmRayTree,
} from './wasmTree.js';

/** Per-cast scalars, laid out by the offsets below. */
export const CAST = new Float64Array(16);
/** `CAST` offset: world ray origin (3). */
export const C_WORLD_ORIGIN = 0;
/** `CAST` offset: `raycaster.near` (1). */
export const C_NEAR = 3;
/** `CAST` offset: `raycaster.far` (1). */
export const C_FAR = 4;
/** `CAST` offset: world length of a unit local step along the ray (1). */
export const C_SCALE = 5;
/** `CAST` offset: local parameter range `[lo, hi]` worth visiting (2). */
export const C_T_LO = 6;
/** `CAST` offset: upper end of the local range (1). */
export const C_T_HI = 7;
/** `CAST` offset: box padding (1). */
const C_PAD = 8;
/** `CAST` offset: slab origins shifted for the entry planes (3). */
const C_ENTRY = 9;
/** Slab origins shifted for the exit planes (3) start at 12; inverse direction would not fit: own array. */
const C_EXIT = 12;
/** `CAST` offset: `S`, the largest coordinate of the tree's box and the local origin (1). */
const C_SIZE = 15;
/** The kernel's float32 box test is conservative for `S` in this range (see {@link kernelCandidates}). */
const KERNEL_MIN_SIZE = 2 ** -100;
const KERNEL_MAX_SIZE = 2 ** 100;
const INV = new Float64Array(3);
/** Entry-plane word offsets within a node: k (min) or k + 3 (max) for each axis k. */
const NEAR_PLANE = new Int32Array(3);

/** World hit of {@link hitTriangle}: distance (0), world point (1–3), local point (4–6). */
export const WORLD_HIT = new Float64Array(7);

/** Hits of {@link walkAll} (module scratch, grown on demand), in walk order. */
export const HITS = {
  count: 0,
  /** BVH slot of each hit. */
  slot: new Int32Array(64),
  /** Group position (`FILTER_GROUPS`) or −1. */
  group: new Int32Array(64),
  /** Loop-order key (see `triangleFilter.ts`). */
  key: new Float64Array(64),
  /** `[distance, world xyz, local xyz]` per hit. */
  data: new Float64Array(7 * 64),
};

/** The best hit of {@link walkFirst}: slot (−1 for none), group, key, and its `WORLD_HIT` copy. */
export const BEST = { slot: -1, group: -1, key: 0, data: new Float64Array(7) };

let nodeStack = new Int32Array(128);
let countStack = new Int32Array(128);
let keyStack = new Float64Array(128);

/**
 * Sets up the slab test for the local ray in `RAY` and the tree `bvh` (padding from its root box),
 * and the local range `[C_T_LO, C_T_HI]` from near/far and `C_SCALE`.
 */
export function setupWalk(bvh: MeshBVH): void {
  const f = bvh.nodeF32;
  let s = Math.max(Math.abs(RAY[0]), Math.abs(RAY[1]), Math.abs(RAY[2]));
  for (let k = 0; k < 6; k++) {
    const v = Math.abs(f[k]);
    if (v > s && v < Infinity) s = v;
  }
  const pad = 4e-6 * s;
  CAST[C_PAD] = pad;
  CAST[C_SIZE] = s;
  for (let k = 0; k < 3; k++) {
    const d = RAY[3 + k];
    // A component under 1e-20 (≪ pad / 2S) counts as 1e-20: the slab of a box the ray crosses still
    // spans every t a hit can have, and the inverse stays finite in float32 (the kernel's box test).
    const inv = 1 / (d >= 1e-20 || d <= -1e-20 ? d : 1e-20);
    const pos = inv > 0;
    NEAR_PLANE[k] = pos ? k : k + 3;
    CAST[C_ENTRY + k] = pos ? RAY[k] + pad : RAY[k] - pad;
    CAST[C_EXIT + k] = pos ? RAY[k] - pad : RAY[k] + pad;
    INV[k] = inv;
  }
  const scale = CAST[C_SCALE];
  CAST[C_T_LO] = (CAST[C_NEAR] / scale) * (1 - 1e-6) - pad;
  CAST[C_T_HI] = (CAST[C_FAR] / scale) * (1 + 1e-6) + pad;
}

/**
 * three.js's test of the triangle in slot `s` under side mode `side`, then its world point and
 * distance as `checkIntersection` computes them and its near/far test; on a hit fills `WORLD_HIT`.
 */
function hitTriangle(v: Float32Array, s: number, side: number): boolean {
  if (!rayTriangle(v, 9 * s, side)) return false;
  const x = TRI_HIT[1];
  const y = TRI_HIT[2];
  const z = TRI_HIT[3];
  // Vector3.applyMatrix4 (with its projective divide), then Vector3.distanceTo from the world origin.
  const e = WORLD_MATRIX;
  const w = 1 / (e[3] * x + e[7] * y + e[11] * z + e[15]);
  const px = (e[0] * x + e[4] * y + e[8] * z + e[12]) * w;
  const py = (e[1] * x + e[5] * y + e[9] * z + e[13]) * w;
  const pz = (e[2] * x + e[6] * y + e[10] * z + e[14]) * w;
  const dx = CAST[C_WORLD_ORIGIN] - px;
  const dy = CAST[C_WORLD_ORIGIN + 1] - py;
  const dz = CAST[C_WORLD_ORIGIN + 2] - pz;
  const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (distance < CAST[C_NEAR] || distance > CAST[C_FAR]) return false;
  WORLD_HIT[0] = distance;
  WORLD_HIT[1] = px;
  WORLD_HIT[2] = py;
  WORLD_HIT[3] = pz;
  WORLD_HIT[4] = x;
  WORLD_HIT[5] = y;
  WORLD_HIT[6] = z;
  return true;
}

function pushHit(s: number, group: number, key: number): void {
  const k = HITS.count;
  if (k === HITS.slot.length) {
    HITS.slot = growArray(HITS.slot, k + 1);
    HITS.group = growArray(HITS.group, k + 1);
    HITS.key = growArray(HITS.key, k + 1);
    HITS.data = growArray(HITS.data, 7 * (k + 1));
  }
  HITS.slot[k] = s;
  HITS.group[k] = group;
  HITS.key[k] = key;
  const d = HITS.data;
  for (let i = 0; i < 7; i++) d[7 * k + i] = WORLD_HIT[i];
  HITS.count = k + 1;
}

/** Tests the triangles of slots `[s0, s1)` under `FILTER`, pushing every hit. */
function leafAll(bvh: MeshBVH, s0: number, s1: number): void {
  const v = bvh.triVerts;
  const ids = bvh.triIds;
  const mode = FILTER.mode;
  if (mode === FILTER_NONE) {
    const side = FILTER.side;
    for (let s = nextCandidate(v, s0, s1, side); s >= 0; s = nextCandidate(v, s + 1, s1, side)) {
      if (hitTriangle(v, s, side)) pushHit(s, -1, ids[s]);
    }
  } else if (mode === FILTER_RANGE) {
    const side = FILTER.side;
    const lo = FILTER.lo;
    const hi = FILTER.hi;
    for (let s = s0; s < s1; s++) {
      const k = ids[s];
      if (k >= lo && k < hi && hitTriangle(v, s, side)) pushHit(s, -1, k);
    }
  } else if (mode === FILTER_GROUPS) {
    const start = FILTER.start;
    const list = FILTER.list;
    const n = bvh.triangleCount;
    for (let s = s0; s < s1; s++) {
      const k = ids[s];
      for (let m = start[k], end = start[k + 1]; m < end; m++) {
        const g = list[m];
        if (hitTriangle(v, s, FILTER.sides[g])) pushHit(s, g, g * n + k);
      }
    }
  }
}

/** Whether the hit in `WORLD_HIT` with loop key `key` comes before the best so far. */
function better(key: number): boolean {
  if (BEST.slot < 0) return true;
  const d = WORLD_HIT[0];
  const b = BEST.data[0];
  return d < b || (d === b && key < BEST.key);
}

function keepBest(s: number, group: number, key: number): void {
  BEST.slot = s;
  BEST.group = group;
  BEST.key = key;
  for (let i = 0; i < 7; i++) BEST.data[i] = WORLD_HIT[i];
}

/** Tests the triangles of slots `[s0, s1)` under `FILTER`, keeping the first hit in three.js's order. */
function leafFirst(bvh: MeshBVH, s0: number, s1: number): void {
  const v = bvh.triVerts;
  const ids = bvh.triIds;
  const mode = FILTER.mode;
  if (mode === FILTER_NONE) {
    const side = FILTER.side;
    for (let s = nextCandidate(v, s0, s1, side); s >= 0; s = nextCandidate(v, s + 1, s1, side)) {
      if (hitTriangle(v, s, side) && better(ids[s])) keepBest(s, -1, ids[s]);
    }
  } else if (mode === FILTER_RANGE) {
    const side = FILTER.side;
    const lo = FILTER.lo;
    const hi = FILTER.hi;
    for (let s = s0; s < s1; s++) {
      const k = ids[s];
      if (k >= lo && k < hi && hitTriangle(v, s, side) && better(k)) keepBest(s, -1, k);
    }
  } else if (mode === FILTER_GROUPS) {
    const start = FILTER.start;
    const list = FILTER.list;
    const n = bvh.triangleCount;
    for (let s = s0; s < s1; s++) {
      const k = ids[s];
      for (let m = start[k], end = start[k + 1]; m < end; m++) {
        const g = list[m];
        if (hitTriangle(v, s, FILTER.sides[g]) && better(g * n + k)) keepBest(s, g, g * n + k);
      }
    }
  }
}

/** A comparison's outcome as 0 or 1 (inlined: a flag, no jump). */
function bit(b: boolean): number {
  return b as unknown as number;
}

/**
 * Runs the WebAssembly walk (`wasm/rayKernel.as`) for the ray set up by {@link setupWalk}: the
 * candidates of every hit, or of the first (`first`), in `w`'s candidate list. Returns their number, or
 * −1 when the list or the stack overflowed (the caller then walks in TypeScript).
 */
function kernelCandidates(w: WasmRayTree, first: boolean): number {
  const size = CAST[C_SIZE];
  if (!(size >= KERNEL_MIN_SIZE && size <= KERNEL_MAX_SIZE)) return -1;
  const p = w.f64;
  for (let k = 0; k < 3; k++) {
    p[P_OXN + k] = CAST[C_ENTRY + k];
    p[P_OXF + k] = CAST[C_EXIT + k];
    p[P_INV + k] = INV[k];
    p[P_ORIGIN + k] = RAY[k];
    p[P_DIR + k] = RAY[3 + k];
  }
  p[P_LO] = CAST[C_T_LO];
  p[P_HI] = CAST[C_T_HI];
  p[P_PAD] = CAST[C_PAD];
  // A candidate at or past this local parameter is certainly not before `near` (see setupWalk).
  p[P_NEAR_CUT] = (CAST[C_NEAR] / CAST[C_SCALE]) * (1 + 1e-6) + CAST[C_PAD];
  const m = w.i32;
  // Byte offset of each axis's entry plane in a record: its min plane, or its max plane 48 bytes on.
  m[I_NEAR_X] = NEAR_PLANE[0] === 0 ? 0 : 48;
  m[I_NEAR_X + 1] = NEAR_PLANE[1] === 1 ? 16 : 64;
  m[I_NEAR_X + 2] = NEAR_PLANE[2] === 2 ? 32 : 80;
  m[I_MODE] = FILTER.mode === FILTER_GROUPS ? SIDE_DOUBLE : FILTER.side;
  return first ? w.kernel.exports.walkFirst() : w.kernel.exports.walkAll();
}

/** Every hit into `HITS` (walk order). The ray and range must be set up ({@link setupWalk}). */
export function walkAll(bvh: MeshBVH, rt: RayTree): void {
  HITS.count = 0;
  if (bvh.triangleCount === 0) return;
  const nx = NEAR_PLANE[0];
  const ny = NEAR_PLANE[1];
  const nz = NEAR_PLANE[2];
  const fx = 3 - nx;
  const fy = 5 - ny;
  const fz = 7 - nz;
  const oxn = CAST[C_ENTRY];
  const oyn = CAST[C_ENTRY + 1];
  const ozn = CAST[C_ENTRY + 2];
  const oxf = CAST[C_EXIT];
  const oyf = CAST[C_EXIT + 1];
  const ozf = CAST[C_EXIT + 2];
  const ix = INV[0];
  const iy = INV[1];
  const iz = INV[2];
  const lo = CAST[C_T_LO];
  const hi = CAST[C_T_HI];
  T_LIMIT[0] = hi;
  const root = bvh.nodeF32;
  const t0 = Math.max(lo, (root[nx] - oxn) * ix, (root[ny] - oyn) * iy, (root[nz] - ozn) * iz);
  if (!(t0 <= Math.min(hi, (root[fx] - oxf) * ix, (root[fy] - oyf) * iy, (root[fz] - ozf) * iz))) return;
  if (rt.recordCount === 0) {
    leafAll(bvh, 0, bvh.triangleCount);
    return;
  }
  if (rt.wasm !== null && FILTER.mode !== FILTER_GROUPS) {
    const n = kernelCandidates(rt.wasm, false);
    if (n >= 0) {
      const v = bvh.triVerts;
      const ids = bvh.triIds;
      const out = rt.wasm.i32;
      const side = FILTER.side;
      const range = FILTER.mode === FILTER_RANGE;
      for (let i = 0, o = rt.wasm.out; i < n; i++) {
        const s = out[o + i];
        const k = ids[s];
        if (range && !(k >= FILTER.lo && k < FILTER.hi)) continue;
        if (hitTriangle(v, s, side)) pushHit(s, -1, k);
      }
      return;
    }
  }
  const f = rt.f32;
  const n = rt.i32;
  let ns = nodeStack;
  let cs = countStack;
  let sp = 0;
  let node = 0;
  for (;;) {
    const w = node * RAY_NODE_WORDS;
    if (sp + 4 > ns.length) {
      ns = nodeStack = growArray(ns, sp + 4);
      cs = countStack = growArray(cs, sp + 4);
    }
    // Every child onto the stack, kept only if its box is hit (no jump on the outcome); then pop.
    for (let c = 0; c < 4; c++) {
      const b = w + 6 * c;
      const x0 = (f[b + nx] - oxn) * ix;
      const x1 = (f[b + fx] - oxf) * ix;
      const y0 = (f[b + ny] - oyn) * iy;
      const y1 = (f[b + fy] - oyf) * iy;
      const z0 = (f[b + nz] - ozn) * iz;
      const z1 = (f[b + fz] - ozf) * iz;
      const slabs =
        bit(x0 <= y1) & bit(y0 <= x1) & bit(x0 <= z1) & bit(z0 <= x1) & bit(y0 <= z1) & bit(z0 <= y1);
      const range =
        bit(x0 <= hi) & bit(y0 <= hi) & bit(z0 <= hi) & bit(x1 >= lo) & bit(y1 >= lo) & bit(z1 >= lo);
      ns[sp] = n[w + 24 + c];
      cs[sp] = n[w + 28 + c];
      sp += slabs & range;
    }
    for (;;) {
      if (sp === 0) return;
      const ref = ns[--sp];
      const c = cs[sp];
      if (c === 0) {
        node = ref;
        break;
      }
      leafAll(bvh, ref, ref + c);
    }
  }
}

/**
 * The first hit in three.js's order (smallest distance, then loop order) into `BEST`. The child with
 * the nearest entry is taken first; the others wait on the stack with their entry distances and are
 * skipped when popped if that lies beyond the best hit so far (plus the rounding margin).
 */
export function walkFirst(bvh: MeshBVH, rt: RayTree): void {
  BEST.slot = -1;
  if (bvh.triangleCount === 0) return;
  const nx = NEAR_PLANE[0];
  const ny = NEAR_PLANE[1];
  const nz = NEAR_PLANE[2];
  const fx = 3 - nx;
  const fy = 5 - ny;
  const fz = 7 - nz;
  const oxn = CAST[C_ENTRY];
  const oyn = CAST[C_ENTRY + 1];
  const ozn = CAST[C_ENTRY + 2];
  const oxf = CAST[C_EXIT];
  const oyf = CAST[C_EXIT + 1];
  const ozf = CAST[C_EXIT + 2];
  const ix = INV[0];
  const iy = INV[1];
  const iz = INV[2];
  const lo = CAST[C_T_LO];
  const scale = CAST[C_SCALE];
  const pad = CAST[C_PAD];
  let hi = CAST[C_T_HI];
  T_LIMIT[0] = hi;
  const root = bvh.nodeF32;
  const t0 = Math.max(lo, (root[nx] - oxn) * ix, (root[ny] - oyn) * iy, (root[nz] - ozn) * iz);
  if (!(t0 <= Math.min(hi, (root[fx] - oxf) * ix, (root[fy] - oyf) * iy, (root[fz] - ozf) * iz))) return;
  if (rt.recordCount === 0) {
    leafFirst(bvh, 0, bvh.triangleCount);
    return;
  }
  // The kernel cuts the range at its candidates: only when every triangle counts (no draw range).
  if (rt.wasm !== null && FILTER.mode === FILTER_NONE) {
    const n = kernelCandidates(rt.wasm, true);
    if (n >= 0) {
      const v = bvh.triVerts;
      const ids = bvh.triIds;
      const out = rt.wasm.i32;
      const side = FILTER.side;
      for (let i = 0, o = rt.wasm.out; i < n; i++) {
        const s = out[o + i];
        const k = ids[s];
        if (hitTriangle(v, s, side) && better(k)) keepBest(s, -1, k);
      }
      return;
    }
  }
  const f = rt.f32;
  const n = rt.i32;
  let ns = nodeStack;
  let cs = countStack;
  let ks = keyStack;
  let sp = 0;
  let node = 0;
  for (;;) {
    const w = node * RAY_NODE_WORDS;
    if (sp + 4 > ns.length) {
      ns = nodeStack = growArray(ns, sp + 4);
      cs = countStack = growArray(cs, sp + 4);
      ks = keyStack = growArray(ks, sp + 4);
    }
    // The children hit go onto the stack with their entry distances (no jump on the outcome)...
    const sp0 = sp;
    for (let c = 0; c < 4; c++) {
      const b = w + 6 * c;
      const x0 = (f[b + nx] - oxn) * ix;
      const x1 = (f[b + fx] - oxf) * ix;
      const y0 = (f[b + ny] - oyn) * iy;
      const y1 = (f[b + fy] - oyf) * iy;
      const z0 = (f[b + nz] - ozn) * iz;
      const z1 = (f[b + fz] - ozf) * iz;
      const slabs =
        bit(x0 <= y1) & bit(y0 <= x1) & bit(x0 <= z1) & bit(z0 <= x1) & bit(y0 <= z1) & bit(z0 <= y1);
      const range =
        bit(x0 <= hi) & bit(y0 <= hi) & bit(z0 <= hi) & bit(x1 >= lo) & bit(y1 >= lo) & bit(z1 >= lo);
      ns[sp] = n[w + 24 + c];
      cs[sp] = n[w + 28 + c];
      ks[sp] = Math.max(lo, x0, y0, z0);
      sp += slabs & range;
    }
    // ...and the nearest of them goes on top.
    const top = sp - 1;
    for (let i = sp0; i < top; i++) {
      if (ks[i] < ks[top]) {
        const r = ns[i];
        const c = cs[i];
        const k = ks[i];
        ns[i] = ns[top];
        cs[i] = cs[top];
        ks[i] = ks[top];
        ns[top] = r;
        cs[top] = c;
        ks[top] = k;
      }
    }
    // Pop until an inner node still worth visiting, testing leaves on the way.
    for (;;) {
      if (sp === 0) return;
      sp--;
      if (ks[sp] > hi) continue;
      const ref = ns[sp];
      const c = cs[sp];
      if (c === 0) {
        node = ref;
        break;
      }
      leafFirst(bvh, ref, ref + c);
      if (BEST.slot >= 0) {
        const cut = (BEST.data[0] / scale) * (1 + 1e-6) + pad;
        if (cut < hi) {
          hi = cut;
          T_LIMIT[0] = cut;
        }
      }
    }
  }
}
