/** Test meshes, transforms and an independent triangle–triangle reference for the BVH tests. */

import { rng } from '../support/rng.js';

export { rng };

export interface TestMesh {
  positions: Float32Array;
  index: Uint32Array | Uint16Array | null;
}

/** Closed UV sphere, indexed (Uint16), outward winding. */
export function uvSphere(radius: number, segments: number, rings: number): TestMesh {
  const pos: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const th = (2 * Math.PI * s) / segments;
      pos.push(
        radius * Math.sin(phi) * Math.cos(th),
        radius * Math.cos(phi),
        radius * Math.sin(phi) * Math.sin(th),
      );
    }
  }
  const idx: number[] = [];
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * segments + s;
      const b = r * segments + ((s + 1) % segments);
      const c = a + segments;
      const d = b + segments;
      if (r !== 0) idx.push(a, b, c);
      if (r !== rings - 1) idx.push(b, d, c);
    }
  }
  return { positions: new Float32Array(pos), index: new Uint16Array(idx) };
}

/** Open grid in the z = 0 plane, `n × n` cells of size `cell`, centred on the origin; Uint32 index. */
export function grid(n: number, cell: number): TestMesh {
  const pos: number[] = [];
  const h = (n * cell) / 2;
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) pos.push(i * cell - h, j * cell - h, 0);
  const idx: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  }
  return { positions: new Float32Array(pos), index: new Uint32Array(idx) };
}

/**
 * Non-indexed soup of large and small triangles: a few big ones spanning the unit box, many small
 * ones scattered, and some needles.
 */
export function mixedSoup(seed: number, big: number, small: number): TestMesh {
  const r = rng(seed);
  const pos: number[] = [];
  const tri = (cx: number, cy: number, cz: number, s: number, needle = false) => {
    for (let k = 0; k < 3; k++) {
      const t = needle && k === 2 ? 0.02 : 1;
      pos.push(cx + s * t * (r() - 0.5), cy + s * t * (r() - 0.5), cz + s * (r() - 0.5));
    }
  };
  for (let i = 0; i < big; i++) tri(r() - 0.5, r() - 0.5, r() - 0.5, 2);
  for (let i = 0; i < small; i++) tri(2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 0.08, i % 7 === 0);
  return { positions: new Float32Array(pos), index: null };
}

/** Column-major 4×4 (three.js layout) from translation, unit quaternion (x, y, z, w) and scale. */
export function compose(
  t: [number, number, number],
  q: [number, number, number, number],
  s: [number, number, number] = [1, 1, 1],
): Float64Array {
  const [x, y, z, w] = q;
  const e = new Float64Array(16);
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  e[0] = (1 - (yy + zz)) * s[0];
  e[1] = (xy + wz) * s[0];
  e[2] = (xz - wy) * s[0];
  e[4] = (xy - wz) * s[1];
  e[5] = (1 - (xx + zz)) * s[1];
  e[6] = (yz + wx) * s[1];
  e[8] = (xz + wy) * s[2];
  e[9] = (yz - wx) * s[2];
  e[10] = (1 - (xx + yy)) * s[2];
  e[12] = t[0];
  e[13] = t[1];
  e[14] = t[2];
  e[15] = 1;
  return e;
}

/** A random unit quaternion from a PRNG. */
export function randomQuat(r: () => number): [number, number, number, number] {
  const u1 = r();
  const u2 = r() * 2 * Math.PI;
  const u3 = r() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

/** Applies a column-major 4×4 to a point. */
export function applyPoint(e: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [
    e[0] * x + e[4] * y + e[8] * z + e[12],
    e[1] * x + e[5] * y + e[9] * z + e[13],
    e[2] * x + e[6] * y + e[10] * z + e[14],
  ];
}

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Independent triangle–triangle reference by separating axes (2 normals, 9 edge crosses, 6 in-plane
 * edge normals — the last cover coplanar pairs). Returns the largest gap over all axes, in distance
 * units: > 0 means separated by at least that much along some axis, ≤ 0 means no axis separates them
 * (they intersect; more negative = deeper).
 */
export function satGap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const A: V[] = [
    [a[0], a[1], a[2]],
    [a[3], a[4], a[5]],
    [a[6], a[7], a[8]],
  ];
  const B: V[] = [
    [b[0], b[1], b[2]],
    [b[3], b[4], b[5]],
    [b[6], b[7], b[8]],
  ];
  const ea = [sub(A[1], A[0]), sub(A[2], A[1]), sub(A[0], A[2])];
  const eb = [sub(B[1], B[0]), sub(B[2], B[1]), sub(B[0], B[2])];
  const na = cross(ea[0], ea[1]);
  const nb = cross(eb[0], eb[1]);
  const axes: V[] = [na, nb];
  for (const u of ea) for (const v of eb) axes.push(cross(u, v));
  for (const u of ea) axes.push(cross(na, u));
  for (const v of eb) axes.push(cross(nb, v));
  let gap = -Infinity;
  for (const L of axes) {
    const len = Math.sqrt(dot(L, L));
    if (!(len > 1e-14 * (1 + Math.sqrt(dot(na, na)) + Math.sqrt(dot(nb, nb))))) continue;
    const pa = A.map((p) => dot(p, L) / len);
    const pb = B.map((p) => dot(p, L) / len);
    const g = Math.max(Math.min(...pb) - Math.max(...pa), Math.min(...pa) - Math.max(...pb));
    if (g > gap) gap = g;
  }
  return gap;
}
