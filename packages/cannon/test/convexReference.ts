/**
 * Brute-force references for the convex-narrowphase tests, straight from cannon's shape data in world
 * space and independent of the code under test: the separating-axis value of two polyhedra over every
 * candidate axis (every face normal of both, the cross product of every pair of face edges) with every
 * vertex projected; a point's signed distance to a hull; the nearest hull point to a point.
 */
import * as CANNON from 'cannon-es';

export type V3 = [number, number, number];

/** A polyhedron in world space: vertices and face loops (cannon's, unmerged). */
export interface WorldHull {
  verts: V3[];
  faces: number[][];
}

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: V3) => Math.hypot(a[0], a[1], a[2]);

export { cross, dot, norm, sub };

/** The world-space hull of a Box / ConvexPolyhedron / Cylinder shape at (x, q). */
export function worldHull(shape: CANNON.Shape, x: CANNON.Vec3, q: CANNON.Quaternion): WorldHull {
  const poly =
    shape instanceof CANNON.Box ? shape.convexPolyhedronRepresentation : (shape as CANNON.ConvexPolyhedron);
  const verts = poly.vertices.map((v) => {
    const w = q.vmult(v);
    return [w.x + x.x, w.y + x.y, w.z + x.z] as V3;
  });
  return { verts, faces: poly.faces.map((f) => [...f]) };
}

/** Outward unit normal of face f (Newell), oriented away from the vertex centroid. */
export function faceNormal(h: WorldHull, f: number): V3 {
  const loop = h.faces[f];
  let n: V3 = [0, 0, 0];
  for (let k = 0; k < loop.length; k++) {
    const a = h.verts[loop[k]];
    const b = h.verts[loop[(k + 1) % loop.length]];
    n = [
      n[0] + (a[1] - b[1]) * (a[2] + b[2]),
      n[1] + (a[2] - b[2]) * (a[0] + b[0]),
      n[2] + (a[0] - b[0]) * (a[1] + b[1]),
    ];
  }
  const len = norm(n);
  n = [n[0] / len, n[1] / len, n[2] / len];
  const c = centroid(h);
  let side = 0;
  for (const i of loop) side += dot(n, sub(h.verts[i], c));
  return side < 0 ? [-n[0], -n[1], -n[2]] : n;
}

export function centroid(h: WorldHull): V3 {
  const c: V3 = [0, 0, 0];
  for (const v of h.verts) for (let a = 0; a < 3; a++) c[a] += v[a] / h.verts.length;
  return c;
}

function project(h: WorldHull, l: V3): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of h.verts) {
    const s = dot(l, v);
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
  }
  return [lo, hi];
}

/** Separation of B beyond A along unit l (negative: overlap along l). */
export function directionalSep(a: WorldHull, b: WorldHull, l: V3): number {
  return project(b, l)[0] - project(a, l)[1];
}

/**
 * The separating-axis value over every candidate axis: the largest separation (either sign of each
 * axis); positive iff the hulls are apart, minus the penetration depth when they overlap.
 */
export function referenceSat(a: WorldHull, b: WorldHull): { sep: number; axis: V3 } {
  const axes: V3[] = [];
  for (let f = 0; f < a.faces.length; f++) axes.push(faceNormal(a, f));
  for (let f = 0; f < b.faces.length; f++) axes.push(faceNormal(b, f));
  const edges = (h: WorldHull) => {
    const out: V3[] = [];
    for (const loop of h.faces) {
      for (let k = 0; k < loop.length; k++) {
        // Each edge once (from its lower vertex), unless the input is open there.
        if (loop[k] > loop[(k + 1) % loop.length] && h.faces.length > 2) continue;
        const e = sub(h.verts[loop[(k + 1) % loop.length]], h.verts[loop[k]]);
        const len = norm(e);
        if (len > 0) out.push([e[0] / len, e[1] / len, e[2] / len]);
      }
    }
    return out;
  };
  const ea = edges(a);
  const eb = edges(b);
  for (const u of ea) {
    for (const v of eb) {
      const l = cross(u, v);
      const len = norm(l);
      if (len > 1e-9) axes.push([l[0] / len, l[1] / len, l[2] / len]);
    }
  }
  let best = Number.NEGATIVE_INFINITY;
  let axis: V3 = [0, 0, 1];
  for (const l of axes) {
    const s1 = directionalSep(a, b, l);
    const s2 = directionalSep(b, a, l);
    if (s1 > best) {
      best = s1;
      axis = l;
    }
    if (s2 > best) {
      best = s2;
      axis = [-l[0], -l[1], -l[2]];
    }
  }
  return { sep: best, axis };
}

/**
 * Candidate-axis lines of the separation as B moves by t·u: for each axis (both signs) the separation
 * at t = 0 and its slope. Their maximum is the reference separation at t.
 */
export function separationLines(a: WorldHull, b: WorldHull, u: V3): { at0: number[]; slope: number[] } {
  const at0: number[] = [];
  const slope: number[] = [];
  const faces = (h: WorldHull) => h.faces.map((_, f) => faceNormal(h, f));
  const axes: V3[] = [...faces(a), ...faces(b)];
  const edges = (h: WorldHull) => {
    const out: V3[] = [];
    for (const loop of h.faces) {
      for (let k = 0; k < loop.length; k++) {
        if (loop[k] > loop[(k + 1) % loop.length] && h.faces.length > 2) continue;
        out.push(sub(h.verts[loop[(k + 1) % loop.length]], h.verts[loop[k]]));
      }
    }
    return out;
  };
  for (const e of edges(a)) {
    for (const f of edges(b)) {
      const l = cross(e, f);
      const len = norm(l);
      if (len > 1e-9 * norm(e) * norm(f)) axes.push([l[0] / len, l[1] / len, l[2] / len]);
    }
  }
  for (const l of axes) {
    at0.push(directionalSep(a, b, l), directionalSep(b, a, l));
    slope.push(dot(l, u), -dot(l, u));
  }
  return { at0, slope };
}

/** The smallest t ≥ 0 where the hulls (B moved by t·u) stop overlapping (bisection on the lines). */
export function touchDistance(a: WorldHull, b: WorldHull, u: V3): number {
  const { at0, slope } = separationLines(a, b, u);
  const f = (t: number) => {
    let m = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < at0.length; k++) m = Math.max(m, at0[k] + slope[k] * t);
    return m;
  };
  let lo = 0;
  let hi = 1;
  while (f(hi) < 0) hi *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = 0.5 * (lo + hi);
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Signed distance of point p to the hull's boundary planes: max over faces (≤ 0 inside). */
export function planeDistance(h: WorldHull, p: V3): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let f = 0; f < h.faces.length; f++) {
    const n = faceNormal(h, f);
    const d = Math.max(...h.faces[f].map((i) => dot(n, h.verts[i])));
    best = Math.max(best, dot(n, p) - d);
  }
  return best;
}

/** Closest point on triangle abc to p (Ericson, Real-Time Collision Detection §5.1.5). */
export function closestOnTriangle(p: V3, a: V3, b: V3, c: V3): V3 {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = sub(p, a);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return [a[0] + v * ab[0], a[1] + v * ab[1], a[2] + v * ab[2]];
  }
  const cp = sub(p, c);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return [a[0] + w * ac[0], a[1] + w * ac[1], a[2] + w * ac[2]];
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return [b[0] + w * (c[0] - b[0]), b[1] + w * (c[1] - b[1]), b[2] + w * (c[2] - b[2])];
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return [a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w];
}

/** The hull boundary point nearest p (over every face, fan-triangulated) and its distance. */
export function nearestOnHull(h: WorldHull, p: V3): { point: V3; dist: number } {
  let best = Number.POSITIVE_INFINITY;
  let point: V3 = p;
  for (const loop of h.faces) {
    for (let k = 1; k + 1 < loop.length; k++) {
      const q = closestOnTriangle(p, h.verts[loop[0]], h.verts[loop[k]], h.verts[loop[k + 1]]);
      const d = norm(sub(q, p));
      if (d < best) {
        best = d;
        point = q;
      }
    }
  }
  return { point, dist: best };
}
