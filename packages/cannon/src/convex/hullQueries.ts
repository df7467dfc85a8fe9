/**
 * The separating-axis queries between two convex hulls, after Dirk Gregorius, "The Separating Axis Test
 * between Convex Polyhedra" (GDC 2013), as Box2D v3's manifold code and Bullet's
 * `btPolyhedralContactClipping` run them:
 *
 * - face queries: each face plane of one hull against the other hull's deepest vertex;
 * - edge queries: only the edge pairs whose Gauss-map arcs cross (they build a face of the Minkowski
 *   difference), found by three sign tests on the arcs' plane normals — of A's |E|·|E'| pairs usually a
 *   few dozen survive — each measured by Gregorius's edge-distance formula (axis oriented away from
 *   A's centroid), parallel edges left to the face queries.
 *
 * Everything is in hull A's local frame: {@link HullPair.load} transforms hull B's vertices and face
 * planes there once per pair (and `loadEdges` the directions and arcs of the edges the query visits),
 * so each query is plain dot products over flat arrays. {@link pruneEdges} drops, before the edge
 * query, the edges a witness point proves cannot matter. An edge between opposite faces (a flat hull)
 * has no usable arc; such pairs are measured exactly, by the two hulls' supports along the axis.
 * {@link axisSeparates} tests any feature's axis the same exact way: the check of last step's
 * separating axis (the warm start). Numbers pass between these functions in small typed arrays, not
 * as arguments or return values, which V8 would box on the heap.
 */
import { growArray } from '@sieve/core';
import type { Hull } from './hull.js';

/** Feature kinds of an axis: none, a face of A, a face of B, an edge of A with an edge of B. */
export const NONE = 0;
/** The axis is face `i0` of hull A. */
export const FACE_A = 1;
/** The axis is face `i0` of hull B. */
export const FACE_B = 2;
/** The axis is the cross product of edge `i0` of A and edge `i1` of B. */
export const EDGE = 3;

/** Edge pairs closer to parallel than this sine are left to the face queries (Gregorius's tolerance). */
const PARALLEL_SIN = 0.005;

/** The best axis a query found: its kind, feature indices and separation (negative: penetration). */
export class AxisQuery {
  kind = NONE;
  i0 = -1;
  i1 = -1;
  sep = Number.NEGATIVE_INFINITY;

  /** Empties the query. */
  reset(): void {
    this.kind = NONE;
    this.i0 = -1;
    this.i1 = -1;
    this.sep = Number.NEGATIVE_INFINITY;
  }
}

/** Hull B placed in hull A's local frame: the arrays every query of the pair reads. */
export class HullPair {
  /** B's vertices in A's frame. */
  verts = new Float64Array(96);
  /** B's face planes in A's frame (normal, offset). */
  planes = new Float64Array(128);
  /** B's unit edge directions in A's frame. */
  dirs = new Float64Array(96);
  /** B's Gauss-map arcs in A's frame. */
  arcs = new Float64Array(96);
  /** Scratch: B's face normals dotted with one arc of A. */
  row = new Float64Array(32);
  /** B → A rotation (row-major) and B's origin in A's frame. */
  readonly rot = new Float64Array(9);
  readonly t = new Float64Array(3);

  /**
   * Transforms hull B's vertices and face planes into A's frame, with the rotation `rot` and
   * translation `t` set beforehand.
   */
  load(B: Hull): void {
    const r = this.rot;
    const t = this.t;
    this.verts = growArray(this.verts, 3 * B.nv);
    this.planes = growArray(this.planes, 4 * B.nf);
    this.row = growArray(this.row, B.nf);
    const v = this.verts;
    const src = B.verts;
    for (let k = 0; k < 3 * B.nv; k += 3) {
      const x = src[k];
      const y = src[k + 1];
      const z = src[k + 2];
      v[k] = r[0] * x + r[1] * y + r[2] * z + t[0];
      v[k + 1] = r[3] * x + r[4] * y + r[5] * z + t[1];
      v[k + 2] = r[6] * x + r[7] * y + r[8] * z + t[2];
    }
    const p = this.planes;
    const sp = B.planes;
    for (let k = 0; k < 4 * B.nf; k += 4) {
      const x = sp[k];
      const y = sp[k + 1];
      const z = sp[k + 2];
      const nx = r[0] * x + r[1] * y + r[2] * z;
      const ny = r[3] * x + r[4] * y + r[5] * z;
      const nz = r[6] * x + r[7] * y + r[8] * z;
      p[k] = nx;
      p[k + 1] = ny;
      p[k + 2] = nz;
      p[k + 3] = sp[k + 3] + nx * t[0] + ny * t[1] + nz * t[2];
    }
  }

  /**
   * Transforms hull B's edge directions and Gauss-map arcs into A's frame for the edge query: those of
   * the edges marked in `keep` (one byte per edge), the only ones it reads.
   */
  loadEdges(B: Hull, keep: Uint8Array): void {
    this.dirs = growArray(this.dirs, 3 * B.ne);
    this.arcs = growArray(this.arcs, 3 * B.ne);
    const r = this.rot;
    for (let e = 0; e < B.ne; e++) {
      if (keep[e] === 0) continue;
      rotate(r, B.edgeDirs, this.dirs, 3 * e);
      rotate(r, B.arcs, this.arcs, 3 * e);
    }
  }
}

function rotate(r: Float64Array, src: Float64Array, out: Float64Array, k: number): void {
  const x = src[k];
  const y = src[k + 1];
  const z = src[k + 2];
  out[k] = r[0] * x + r[1] * y + r[2] * z;
  out[k + 1] = r[3] * x + r[4] * y + r[5] * z;
  out[k + 2] = r[6] * x + r[7] * y + r[8] * z;
}

/** Whether every one of `count` vertices lies beyond the plane `p[o…o+3]` (n·v > d): it separates. */
function allBeyond(v: Float64Array, count: number, p: Float64Array, o: number): boolean {
  const nx = p[o];
  const ny = p[o + 1];
  const nz = p[o + 2];
  const d = p[o + 3];
  for (let k = 0; k < 3 * count; k += 3) if (nx * v[k] + ny * v[k + 1] + nz * v[k + 2] <= d) return false;
  return count > 0;
}

/**
 * Scratch for numbers passed between functions: an axis computed on the fly, a direction, extents of
 * both hulls along the axis, a result (in arrays rather than arguments and return values, which V8
 * would box).
 */
const AXIS = new Float64Array(3);
const DIR = new Float64Array(3);
const EXT = new Float64Array(4);
const RES = new Float64Array(1);

/**
 * Face query: the face of the hull with `planes` (nf of them) whose plane the other hull's vertices
 * (`verts`, nv) lie farthest outside of. Writes the best into `q` as `kind`; stops at the first
 * positive separation (the hulls are apart).
 */
export function faceQuery(
  planes: Float64Array,
  nf: number,
  verts: Float64Array,
  nv: number,
  kind: number,
  q: AxisQuery,
): void {
  for (let f = 0; f < nf; f++) {
    const o = 4 * f;
    const nx = planes[o];
    const ny = planes[o + 1];
    const nz = planes[o + 2];
    let m = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 3 * nv; k += 3) {
      const d = nx * verts[k] + ny * verts[k + 1] + nz * verts[k + 2];
      if (d < m) m = d;
    }
    const s = m - planes[o + 3];
    if (s > q.sep) {
      q.sep = s;
      q.kind = kind;
      q.i0 = f;
      q.i1 = -1;
      if (s > 0) return;
    }
  }
}

/**
 * Edge query over the edge pairs of A and B (in `pair`) that build a face of the Minkowski difference;
 * the best goes into `q` (kind {@link EDGE}). Stops at the first positive separation.
 */
export function edgeQuery(
  A: Hull,
  pair: HullPair,
  B: Hull,
  q: AxisQuery,
  keepA: Uint8Array,
  keepB: Uint8Array,
): void {
  const ap = A.planes;
  const av = A.verts;
  const ae = A.edges;
  const ad = A.edgeDirs;
  const aa = A.arcs;
  const bp = pair.planes;
  const bv = pair.verts;
  const be = B.edges;
  const bd = pair.dirs;
  const ba = pair.arcs;
  const row = pair.row;
  const cx = A.center[0];
  const cy = A.center[1];
  const cz = A.center[2];
  const nfB = B.nf;
  const neB = B.ne;
  for (let ea = 0; ea < A.ne; ea++) {
    if (keepA[ea] === 0) continue;
    const ox = aa[3 * ea];
    const oy = aa[3 * ea + 1];
    const oz = aa[3 * ea + 2];
    const flatA = ox === 0 && oy === 0 && oz === 0;
    if (!flatA)
      for (let f = 0; f < nfB; f++) row[f] = bp[4 * f] * ox + bp[4 * f + 1] * oy + bp[4 * f + 2] * oz;
    const fa = 4 * ae[4 * ea + 2];
    const fb = 4 * ae[4 * ea + 3];
    const ex = ad[3 * ea];
    const ey = ad[3 * ea + 1];
    const ez = ad[3 * ea + 2];
    const pa = 3 * ae[4 * ea];
    for (let eb = 0; eb < neB; eb++) {
      if (keepB[eb] === 0) continue;
      const dx = ba[3 * eb];
      const dy = ba[3 * eb + 1];
      const dz = ba[3 * eb + 2];
      if (flatA || (dx === 0 && dy === 0 && dz === 0)) {
        // An arc of a flat hull: measure the axis exactly.
        if (!exactEdgeAxis(A, pair, B, ea, eb)) continue;
        const s = RES[0];
        if (s > q.sep) {
          q.sep = s;
          q.kind = EDGE;
          q.i0 = ea;
          q.i1 = eb;
          if (s > 0) return;
        }
        continue;
      }
      // Gregorius's IsMinkowskiFace with c, d the negated normals of B's faces.
      const r0 = row[be[4 * eb + 2]];
      const r1 = row[be[4 * eb + 3]];
      if (r0 * r1 >= 0) continue;
      const adc = ap[fa] * dx + ap[fa + 1] * dy + ap[fa + 2] * dz;
      const bdc = ap[fb] * dx + ap[fb + 1] * dy + ap[fb + 2] * dz;
      if (adc * bdc >= 0 || r0 * bdc >= 0) continue;
      // Edge distance: axis e_A × e_B away from A's centroid.
      const fx = bd[3 * eb];
      const fy = bd[3 * eb + 1];
      const fz = bd[3 * eb + 2];
      let lx = ey * fz - ez * fy;
      let ly = ez * fx - ex * fz;
      let lz = ex * fy - ey * fx;
      const len = Math.sqrt(lx * lx + ly * ly + lz * lz);
      if (len < PARALLEL_SIN) continue;
      lx /= len;
      ly /= len;
      lz /= len;
      if (lx * (av[pa] - cx) + ly * (av[pa + 1] - cy) + lz * (av[pa + 2] - cz) < 0) {
        lx = -lx;
        ly = -ly;
        lz = -lz;
      }
      const pb = 3 * be[4 * eb];
      const s = lx * (bv[pb] - av[pa]) + ly * (bv[pb + 1] - av[pa + 1]) + lz * (bv[pb + 2] - av[pa + 2]);
      if (s > q.sep) {
        q.sep = s;
        q.kind = EDGE;
        q.i0 = ea;
        q.i1 = eb;
        if (s > 0) return;
      }
    }
  }
}

/**
 * Marks (in `keep`, one byte per edge of hull H) the edges that can still take part in an edge axis
 * separating the hulls by more than `floor` (a negative separation), and returns how many. The bound:
 * for a point w of the other hull lying below both faces of an edge, every axis in the edge's normal
 * cone (the Gauss-map arc between the two face normals, shorter than a half circle) separates the
 * hulls by at most minus the smaller of w's depths below those faces (the separation along an axis is
 * at most w's distance behind H's support plane, which is smallest at an end of the arc). A witness
 * deep inside H — a resting contact — leaves only the edges around the contact. Edges of a flat hull
 * (arcs of half a circle) are always kept. `planes` are H's face planes in the frame of the witness
 * `w[wo…wo+2]`; `floor[0]` is the separation.
 */
export function pruneEdges(
  H: Hull,
  planes: Float64Array,
  w: Float64Array,
  wo: number,
  floor: Float64Array,
  keep: Uint8Array,
  depth: Float64Array,
): number {
  const wx = w[wo];
  const wy = w[wo + 1];
  const wz = w[wo + 2];
  for (let f = 0; f < H.nf; f++) {
    depth[f] = planes[4 * f + 3] - (planes[4 * f] * wx + planes[4 * f + 1] * wy + planes[4 * f + 2] * wz);
  }
  // Deeper than −floor by a rounding margin.
  const need = -floor[0] + 1e-9 * H.reach;
  const e = H.edges;
  const arcs = H.arcs;
  let kept = 0;
  for (let k = 0; k < H.ne; k++) {
    const d1 = depth[e[4 * k + 2]];
    const d2 = depth[e[4 * k + 3]];
    const flat = arcs[3 * k] === 0 && arcs[3 * k + 1] === 0 && arcs[3 * k + 2] === 0;
    const prune = !flat && d1 >= need && d2 >= need;
    keep[k] = prune ? 0 : 1;
    if (!prune) kept++;
  }
  return kept;
}

/** Index of the vertex with the smallest n·v among `count` vertices, n at `n[o…o+2]`. */
export function argMinDot(v: Float64Array, count: number, n: Float64Array, o: number): number {
  const nx = n[o];
  const ny = n[o + 1];
  const nz = n[o + 2];
  let m = Number.POSITIVE_INFINITY;
  let at = 0;
  for (let k = 0; k < count; k++) {
    const s = nx * v[3 * k] + ny * v[3 * k + 1] + nz * v[3 * k + 2];
    if (s < m) {
      m = s;
      at = k;
    }
  }
  return at;
}

/**
 * Exact separation along e_A × e_B (the larger of either sign) into `RES[0]`; false for parallel
 * edges, or when the two edges are not the hulls' extreme features along it (a parallel edge pair
 * is, and gives the contact its closest points).
 */
function exactEdgeAxis(A: Hull, pair: HullPair, B: Hull, ea: number, eb: number): boolean {
  if (!edgeAxis(A.edgeDirs, ea, pair.dirs, eb)) return false;
  const sign = separationSign(A, pair, B);
  const s = RES[0];
  if (sign < 0) {
    AXIS[0] = -AXIS[0];
    AXIS[1] = -AXIS[1];
    AXIS[2] = -AXIS[2];
  }
  // Edge A must reach A's maximum along the axis, edge B B's minimum.
  const pa = 3 * A.edges[4 * ea];
  const pb = 3 * B.edges[4 * eb];
  const tol = 1e-9 * (A.radius + B.radius);
  const av = A.verts;
  const bv = pair.verts;
  const lx = AXIS[0];
  const ly = AXIS[1];
  const lz = AXIS[2];
  extents(av, A.nv, 0);
  if (lx * av[pa] + ly * av[pa + 1] + lz * av[pa + 2] < EXT[1] - tol) return false;
  extents(bv, B.nv, 2);
  if (lx * bv[pb] + ly * bv[pb + 1] + lz * bv[pb + 2] > EXT[2] + tol) return false;
  RES[0] = s;
  return true;
}

/**
 * Sets `AXIS` to the unit e_A × e_B of A's edge `ea` (directions `a`) and B's edge `eb` (directions
 * `b`, in A's frame); false for edges closer to parallel than the edge query's tolerance.
 */
function edgeAxis(a: Float64Array, ea: number, b: Float64Array, eb: number): boolean {
  const lx = a[3 * ea + 1] * b[3 * eb + 2] - a[3 * ea + 2] * b[3 * eb + 1];
  const ly = a[3 * ea + 2] * b[3 * eb] - a[3 * ea] * b[3 * eb + 2];
  const lz = a[3 * ea] * b[3 * eb + 1] - a[3 * ea + 1] * b[3 * eb];
  const len = Math.sqrt(lx * lx + ly * ly + lz * lz);
  if (len < PARALLEL_SIN) return false;
  AXIS[0] = lx / len;
  AXIS[1] = ly / len;
  AXIS[2] = lz / len;
  return true;
}

/** Whether the axis of A's edge `ea` and B's edge `eb` separates the hulls (a cached edge axis). */
function edgeAxisSeparates(A: Hull, pair: HullPair, B: Hull, ea: number, eb: number): boolean {
  const r = pair.rot;
  const d = B.edgeDirs;
  const x = d[3 * eb];
  const y = d[3 * eb + 1];
  const z = d[3 * eb + 2];
  DIR[0] = r[0] * x + r[1] * y + r[2] * z;
  DIR[1] = r[3] * x + r[4] * y + r[5] * z;
  DIR[2] = r[6] * x + r[7] * y + r[8] * z;
  if (!edgeAxis(A.edgeDirs, ea, DIR, 0)) return false;
  separationSign(A, pair, B);
  return RES[0] > 0;
}

/** Writes the least and most of `AXIS·x` over `count` vertices into `EXT[o]`, `EXT[o + 1]`. */
function extents(v: Float64Array, count: number, o: number): void {
  const nx = AXIS[0];
  const ny = AXIS[1];
  const nz = AXIS[2];
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < 3 * count; k += 3) {
    const s = nx * v[k] + ny * v[k + 1] + nz * v[k + 2];
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  EXT[o] = lo;
  EXT[o + 1] = hi;
}

/**
 * The exact separation of the hulls along the unit axis in `AXIS` or its opposite, whichever is
 * larger, into `RES[0]`; returns 1 if it is along the axis (B beyond A), −1 if along the opposite.
 */
export function separationSign(A: Hull, pair: HullPair, B: Hull): number {
  extents(A.verts, A.nv, 0);
  extents(pair.verts, B.nv, 2);
  const up = EXT[2] - EXT[1];
  const down = EXT[0] - EXT[3];
  RES[0] = Math.max(up, down);
  return up >= down ? 1 : -1;
}

/** Sets the axis the separation functions read. */
export function setAxis(x: Float64Array, o: number): void {
  AXIS[0] = x[o];
  AXIS[1] = x[o + 1];
  AXIS[2] = x[o + 2];
}

/**
 * Whether the axis of a feature (kind, i0, i1) separates the hulls, measured exactly — the warm start:
 * last step's separating axis often still does. False for a feature that no longer exists.
 */
export function axisSeparates(
  A: Hull,
  pair: HullPair,
  B: Hull,
  kind: number,
  i0: number,
  i1: number,
): boolean {
  if (kind === FACE_A && i0 < A.nf) return allBeyond(pair.verts, B.nv, A.planes, 4 * i0);
  if (kind === FACE_B && i0 < B.nf) return allBeyond(A.verts, A.nv, pair.planes, 4 * i0);
  if (kind === EDGE && i0 < A.ne && i1 < B.ne) return edgeAxisSeparates(A, pair, B, i0, i1);
  return false;
}
