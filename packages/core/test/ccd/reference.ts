/**
 * Independent references for the continuous-collision tests: poses along a motion by Rodrigues'
 * rotation matrices (not the module's quaternion code), exact overlap through the narrowphase and BVH
 * queries, and brute-force feature distances between boxes and triangles.
 */
import {
  type CcdMotion,
  type CcdMotion2D,
  type CcdShape,
  type CcdShape2D,
  circleObbOverlap2D,
  MeshBVH,
  meshObbIntersects,
  meshSphereIntersects,
  obbObbOverlap,
  obbObbOverlap2D,
  quatToAxes,
  sphereObbOverlap,
} from '../../src/index.js';

export { rng } from '../support/rng.js';

type M3 = number[]; // row-major 3×3

function rodrigues(ax: number, ay: number, az: number, angle: number): M3 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const k = 1 - c;
  return [
    c + ax * ax * k,
    ax * ay * k - az * s,
    ax * az * k + ay * s,
    ay * ax * k + az * s,
    c + ay * ay * k,
    ay * az * k - ax * s,
    az * ax * k - ay * s,
    az * ay * k + ax * s,
    c + az * az * k,
  ];
}

function mul(a: M3, b: M3): M3 {
  const o = new Array(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return o;
}

function apply(m: M3, v: number[]): number[] {
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

// Rotation matrix (columns = rotated local axes) of a quaternion, from quatToAxes (rows = axes).
function quatMatrix(q: ArrayLike<number>): M3 {
  const e = quatToAxes(q, 0, new Float64Array(9));
  return [e[0], e[3], e[6], e[1], e[4], e[7], e[2], e[5], e[8]];
}

/** A shape placed in the world at one instant. */
export type Placed =
  | { kind: 'sphere'; c: number[]; r: number }
  | { kind: 'box'; obb: Float64Array }
  | { kind: 'mesh'; bvh: MeshBVH; matrix: number[] };

/** The body rotation matrix and position at frame time t. */
export function bodyAt(m: CcdMotion, dt: number, t: number): { R: M3; p: number[] } {
  const w = m.angularVelocity;
  const wl = Math.hypot(w[0], w[1], w[2]);
  const R0 = quatMatrix(m.quaternion);
  const R = wl > 0 ? mul(rodrigues(w[0] / wl, w[1] / wl, w[2] / wl, wl * dt * t), R0) : R0;
  const p = [0, 1, 2].map((i) => m.position[i] + t * dt * m.linearVelocity[i]);
  return { R, p };
}

/** The shape of a body at frame time t, in world coordinates. */
export function placeAt(shape: CcdShape, m: CcdMotion, dt: number, t: number, shrink = 0): Placed {
  const { R, p } = bodyAt(m, dt, t);
  const off = shape.offset ? [shape.offset[0], shape.offset[1], shape.offset[2]] : [0, 0, 0];
  const o = apply(R, off);
  const c = [p[0] + o[0], p[1] + o[1], p[2] + o[2]];
  if (shape.kind === 'sphere') return { kind: 'sphere', c, r: Math.max(shape.radius - shrink, 0) };
  const Rs = shape.orientation ? mul(R, quatMatrix(shape.orientation)) : R;
  if (shape.kind === 'box') {
    const obb = new Float64Array(15);
    for (let i = 0; i < 3; i++) obb[i] = c[i];
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) obb[3 + 3 * k + j] = Rs[3 * j + k];
    for (let k = 0; k < 3; k++) obb[12 + k] = Math.max(shape.halfExtents[k] - shrink, 0);
    return { kind: 'box', obb };
  }
  const matrix = [
    Rs[0],
    Rs[3],
    Rs[6],
    0,
    Rs[1],
    Rs[4],
    Rs[7],
    0,
    Rs[2],
    Rs[5],
    Rs[8],
    0,
    c[0],
    c[1],
    c[2],
    1,
  ];
  return { kind: 'mesh', bvh: shape.bvh, matrix };
}

/** Exact overlap of two placed shapes (touching counts), through the narrowphase and BVH queries. */
export function overlaps(a: Placed, b: Placed): boolean {
  if (a.kind === 'mesh' && b.kind === 'mesh') throw new Error('mesh–mesh');
  if (b.kind === 'mesh') return overlaps(b, a);
  if (a.kind === 'mesh') {
    if (b.kind === 'sphere') return meshSphereIntersects(a.bvh, a.matrix, b.c, b.r);
    return meshObbIntersects(a.bvh, a.matrix, b.obb);
  }
  if (a.kind === 'sphere' && b.kind === 'sphere') {
    return Math.hypot(a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]) <= a.r + b.r;
  }
  if (a.kind === 'sphere' && b.kind === 'box') return sphereObbOverlap(b.obb, a.c, a.r);
  if (a.kind === 'box' && b.kind === 'sphere') return sphereObbOverlap(a.obb, b.c, b.r);
  if (a.kind === 'box' && b.kind === 'box') return obbObbOverlap(a.obb, b.obb);
  throw new Error('unreachable');
}

// --- 2-D -------------------------------------------------------------------------------------------------

/** A 2-D shape placed at one instant. */
export type Placed2 = { kind: 'circle'; c: number[]; r: number } | { kind: 'box'; obb: Float64Array };

export function placeAt2(shape: CcdShape2D, m: CcdMotion2D, dt: number, t: number, shrink = 0): Placed2 {
  const a = m.angle + t * dt * m.angularVelocity;
  const ca = Math.cos(a);
  const sa = Math.sin(a);
  const ox = shape.offset ? shape.offset[0] : 0;
  const oy = shape.offset ? shape.offset[1] : 0;
  const c = [
    m.position[0] + t * dt * m.linearVelocity[0] + ca * ox - sa * oy,
    m.position[1] + t * dt * m.linearVelocity[1] + sa * ox + ca * oy,
  ];
  if (shape.kind === 'circle') return { kind: 'circle', c, r: Math.max(shape.radius - shrink, 0) };
  const b = a + (shape.angle ?? 0);
  const obb = new Float64Array([
    c[0],
    c[1],
    Math.cos(b),
    Math.sin(b),
    -Math.sin(b),
    Math.cos(b),
    Math.max(shape.halfExtents[0] - shrink, 0),
    Math.max(shape.halfExtents[1] - shrink, 0),
  ]);
  return { kind: 'box', obb };
}

export function overlaps2(a: Placed2, b: Placed2): boolean {
  if (a.kind === 'circle' && b.kind === 'circle')
    return Math.hypot(a.c[0] - b.c[0], a.c[1] - b.c[1]) <= a.r + b.r;
  if (a.kind === 'circle' && b.kind === 'box') return circleObbOverlap2D(b.obb, a.c, a.r);
  if (a.kind === 'box' && b.kind === 'circle') return circleObbOverlap2D(a.obb, b.c, b.r);
  if (a.kind === 'box' && b.kind === 'box') return obbObbOverlap2D(a.obb, b.obb);
  throw new Error('unreachable');
}

// --- brute-force distances ----------------------------------------------------------------------------------

/** Corners of an OBB (15-number layout). */
export function boxCorners(o: ArrayLike<number>): number[][] {
  const out: number[][] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const p = [o[0], o[1], o[2]];
        const s = [sx, sy, sz];
        for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) p[j] += s[k] * o[12 + k] * o[3 + 3 * k + j];
        out.push(p);
      }
  return out;
}

/** The 12 edges of an OBB as corner-index pairs of {@link boxCorners}. */
const EDGES = [
  [0, 1],
  [2, 3],
  [4, 5],
  [6, 7],
  [0, 2],
  [1, 3],
  [4, 6],
  [5, 7],
  [0, 4],
  [1, 5],
  [2, 6],
  [3, 7],
];

export function pointBoxDistance(p: number[], o: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < 3; k++) {
    const a = (p[0] - o[0]) * o[3 + 3 * k] + (p[1] - o[1]) * o[4 + 3 * k] + (p[2] - o[2]) * o[5 + 3 * k];
    const e = Math.abs(a) - o[12 + k];
    if (e > 0) s += e * e;
  }
  return Math.sqrt(s);
}

function sub(a: number[], b: number[]): number[] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
const clamp01 = (x: number) => Math.min(Math.max(x, 0), 1);

/** Distance between segments p1–q1 and p2–q2 (Ericson §5.1.9). */
export function segmentDistance(p1: number[], q1: number[], p2: number[], q2: number[]): number {
  const d1 = sub(q1, p1);
  const d2 = sub(q2, p2);
  const r = sub(p1, p2);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  let s: number;
  let t: number;
  if (a <= 1e-300 && e <= 1e-300) return Math.sqrt(dot(r, r));
  if (a <= 1e-300) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = dot(d1, r);
    if (e <= 1e-300) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = dot(d1, d2);
      const den = a * e - b * b;
      s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  const x = [
    p1[0] + d1[0] * s - p2[0] - d2[0] * t,
    p1[1] + d1[1] * s - p2[1] - d2[1] * t,
    p1[2] + d1[2] * s - p2[2] - d2[2] * t,
  ];
  return Math.sqrt(dot(x, x));
}

/** Distance from a point to a triangle by projecting and falling back to the edges. */
export function pointTriangleDistance(p: number[], a: number[], b: number[], c: number[]): number {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const n = [ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]];
  const nn = dot(n, n);
  const edges = () =>
    Math.min(segmentDistance(p, p, a, b), segmentDistance(p, p, b, c), segmentDistance(p, p, a, c));
  if (!(nn > 1e-20 * dot(ab, ab) * dot(ac, ac))) return edges(); // degenerate: a segment or a point
  const ap = sub(p, a);
  const h = dot(ap, n) / nn;
  const q = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
  // barycentric inside test of q
  const v0 = ab;
  const v1 = ac;
  const v2 = sub(q, a);
  const d00 = dot(v0, v0);
  const d01 = dot(v0, v1);
  const d11 = dot(v1, v1);
  const d20 = dot(v2, v0);
  const d21 = dot(v2, v1);
  const den = d00 * d11 - d01 * d01;
  const v = (d11 * d20 - d01 * d21) / den;
  const w = (d00 * d21 - d01 * d20) / den;
  if (v >= 0 && w >= 0 && v + w <= 1) return Math.abs(h) * Math.sqrt(nn);
  return edges();
}

/** Distance between two disjoint OBBs: vertex–box both ways and all edge–edge pairs. */
export function boxBoxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ca = boxCorners(a);
  const cb = boxCorners(b);
  let best = Number.POSITIVE_INFINITY;
  for (const p of ca) best = Math.min(best, pointBoxDistance(p, b));
  for (const p of cb) best = Math.min(best, pointBoxDistance(p, a));
  for (const [i, j] of EDGES)
    for (const [k, l] of EDGES) best = Math.min(best, segmentDistance(ca[i], ca[j], cb[k], cb[l]));
  return best;
}

/** Distance between a disjoint triangle (9 numbers) and an OBB. */
export function triangleBoxDistance(tri: ArrayLike<number>, o: ArrayLike<number>): number {
  const t = [
    [tri[0], tri[1], tri[2]],
    [tri[3], tri[4], tri[5]],
    [tri[6], tri[7], tri[8]],
  ];
  const cb = boxCorners(o);
  let best = Number.POSITIVE_INFINITY;
  for (const p of t) best = Math.min(best, pointBoxDistance(p, o));
  for (const p of cb) best = Math.min(best, pointTriangleDistance(p, t[0], t[1], t[2]));
  for (const [i, j] of [
    [0, 1],
    [1, 2],
    [0, 2],
  ])
    for (const [k, l] of EDGES) best = Math.min(best, segmentDistance(t[i], t[j], cb[k], cb[l]));
  return best;
}

/** A thin axis-aligned slab as a closed triangle mesh (12 triangles), for "thin trimesh wall" tests. */
export function slabMesh(min: number[], max: number[]): MeshBVH {
  const v: number[][] = [];
  for (const z of [min[2], max[2]])
    for (const y of [min[1], max[1]]) for (const x of [min[0], max[0]]) v.push([x, y, z]);
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const pos: number[] = [];
  for (const [a, b, c, d] of quads) for (const k of [a, b, c, a, c, d]) pos.push(...v[k]);
  return new MeshBVH(new Float32Array(pos));
}

/** Radius of a sphere about the body centre that holds the shape (for pruning samples cheaply). */
export function boundingRadius(shape: CcdShape | CcdShape2D): number {
  const o = shape.offset
    ? Math.hypot(shape.offset[0], shape.offset[1], shape.offset.length > 2 ? shape.offset[2] : 0)
    : 0;
  if (shape.kind === 'sphere' || shape.kind === 'circle') return o + shape.radius;
  if (shape.kind === 'box') {
    const h = shape.halfExtents;
    return o + Math.hypot(h[0], h[1], h.length > 2 ? h[2] : 0);
  }
  const p = shape.bvh.positions;
  let m = 0;
  for (let i = 0; i < p.length; i += 3) m = Math.max(m, Math.hypot(p[i], p[i + 1], p[i + 2]));
  return o + m;
}

/** Whether the bodies' bounding spheres are apart at frame time t (then the shapes cannot touch). */
export function farApart(
  pa: ArrayLike<number>,
  va: ArrayLike<number>,
  pb: ArrayLike<number>,
  vb: ArrayLike<number>,
  dim: number,
  t: number,
  reach: number,
): boolean {
  let s = 0;
  for (let i = 0; i < dim; i++) {
    const d = pb[i] + t * vb[i] - pa[i] - t * va[i];
    s += d * d;
  }
  return s > reach * reach * (1 + 1e-9) + 1e-12;
}
