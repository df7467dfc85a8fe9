import { describe, expect, it } from 'vitest';
import { MeshContacts } from '../../src/bvh/contacts.js';
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import { meshObbBruteForce, meshObbContacts, meshObbIntersects } from '../../src/bvh/meshObb.js';
import { meshSphereBruteForce, meshSphereContacts, meshSphereIntersects } from '../../src/bvh/meshSphere.js';
import { triangleTriangleIntersect } from '../../src/bvh/triTri.js';
import { applyPoint, compose, grid, mixedSoup, randomQuat, rng, type TestMesh, uvSphere } from './helpers.js';

const meshes: Array<[string, TestMesh]> = [
  ['closed sphere', uvSphere(1, 24, 14)],
  ['open grid', grid(16, 0.12)],
  ['big+small soup', mixedSoup(5, 15, 500)],
];

function sameContacts(a: MeshContacts, b: MeshContacts): void {
  expect(a.count).toBe(b.count);
  const key = (c: MeshContacts, k: number) => c.triangles[k];
  const order = (c: MeshContacts) => [...Array(c.count).keys()].sort((i, j) => key(c, i) - key(c, j));
  const oa = order(a);
  const ob = order(b);
  for (let k = 0; k < a.count; k++) {
    const i = oa[k];
    const j = ob[k];
    expect(a.triangles[i]).toBe(b.triangles[j]);
    expect(a.depths[i]).toBe(b.depths[j]);
    for (let c = 0; c < 3; c++) {
      expect(a.points[3 * i + c]).toBe(b.points[3 * j + c]);
      expect(a.normals[3 * i + c]).toBe(b.normals[3 * j + c]);
    }
  }
}

/** A world-space OBB from a pose: centre, rotation, half extents. */
function obbFrom(c: number[], q: [number, number, number, number], h: number[]): number[] {
  const m = compose([0, 0, 0], q);
  return [...c, m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10], ...h];
}

function worldTriangle(mesh: TestMesh, t: number, matrix: ArrayLike<number> | null): number[] {
  const out: number[] = [];
  for (let k = 0; k < 3; k++) {
    const v = mesh.index ? mesh.index[3 * t + k] : 3 * t + k;
    const p = mesh.positions;
    const w = matrix
      ? applyPoint(matrix, p[3 * v], p[3 * v + 1], p[3 * v + 2])
      : [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
    out.push(...w);
  }
  return out;
}

describe('mesh–sphere', () => {
  for (const [name, mesh] of meshes) {
    it(`${name}: contacts equal brute force (rigid, uniform and non-uniform scale)`, () => {
      const bvh = new MeshBVH(mesh.positions, mesh.index, { maxLeafSize: 4 });
      const r = rng(17);
      const got = new MeshContacts();
      const ref = new MeshContacts();
      let touching = 0;
      for (let i = 0; i < 150; i++) {
        const scale: [number, number, number] =
          i % 3 === 0 ? [1, 1, 1] : i % 3 === 1 ? [1.7, 1.7, 1.7] : [1.8, 0.6, 1.2];
        const m = i % 4 === 0 ? null : compose([r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r), scale);
        const c = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
        const radius = 0.02 + 0.4 * r();
        const n = meshSphereContacts(bvh, m, c, radius, got);
        meshSphereBruteForce(bvh, m, c, radius, ref);
        sameContacts(got, ref);
        expect(meshSphereIntersects(bvh, m, c, radius)).toBe(n > 0);
        if (n > 0) touching++;
        for (let k = 0; k < n; k++) {
          const d = got.depths[k];
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(radius);
          // Point on the triangle, normal unit, centre = point + (radius − depth)·normal.
          const nrm = [got.normals[3 * k], got.normals[3 * k + 1], got.normals[3 * k + 2]];
          expect(Math.hypot(nrm[0], nrm[1], nrm[2])).toBeCloseTo(1, 12);
          for (let a = 0; a < 3; a++) {
            expect(got.points[3 * k + a] + (radius - d) * nrm[a]).toBeCloseTo(c[a], 9);
          }
          const tri = worldTriangle(mesh, got.triangles[k], m);
          const p = [got.points[3 * k], got.points[3 * k + 1], got.points[3 * k + 2]];
          expect(onTriangle(p, tri)).toBe(true);
        }
      }
      expect(touching).toBeGreaterThan(20);
      expect(touching).toBeLessThan(150);
    });
  }

  it('a sphere sunk in a grid: the triangle below gives normal up, depth = r − height', () => {
    const mesh = grid(10, 0.2);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const out = new MeshContacts();
    const n = meshSphereContacts(bvh, null, [0.05, 0.07, 0.1], 0.15, out);
    // The triangle under the centre, and neighbours whose closest point is on their edges.
    expect(n).toBeGreaterThan(1);
    let below = 0;
    for (let k = 0; k < n; k++) {
      expect(out.depths[k]).toBeLessThanOrEqual(0.05 + 1e-7);
      if (out.normals[3 * k + 2] > 1 - 1e-12) {
        below++;
        expect(out.depths[k]).toBeCloseTo(0.05, 6);
      }
    }
    expect(below).toBe(1);
    expect(meshSphereContacts(bvh, null, [0.05, 0.07, 0.15], 0.15, out)).toBeGreaterThan(0); // touching
    expect(out.depths[0]).toBeCloseTo(0, 6);
    expect(meshSphereContacts(bvh, null, [0.05, 0.07, 0.1501], 0.15, out)).toBe(0);
  });

  it('centre on a triangle: the face normal', () => {
    const bvh = new MeshBVH(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const out = new MeshContacts();
    expect(meshSphereContacts(bvh, null, [0.2, 0.2, 0], 0.1, out)).toBe(1);
    expect(Array.from(out.normals.subarray(0, 3))).toEqual([0, 0, 1]);
    expect(out.depths[0]).toBeCloseTo(0.1, 15);
  });

  it('bad input', () => {
    const bvh = new MeshBVH(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const out = new MeshContacts();
    expect(() => meshSphereContacts(bvh, null, [0, 0, 0], -1, out)).toThrow(/radius must be >= 0/);
    expect(() => meshSphereContacts(bvh, null, [0, 0, Number.NaN], 1, out)).toThrow(
      /center\[2\] is not finite/,
    );
    expect(() => meshSphereIntersects(bvh, null, [0, 0, 0], Number.POSITIVE_INFINITY)).toThrow(/radius/);
  });
});

describe('mesh–OBB', () => {
  for (const [name, mesh] of meshes) {
    it(`${name}: contacts equal brute force; overlap agrees with a triangle-pair test of the box faces`, () => {
      const bvh = new MeshBVH(mesh.positions, mesh.index, { maxLeafSize: 4, strategy: 'sah' });
      const r = rng(23);
      const got = new MeshContacts();
      const ref = new MeshContacts();
      let touching = 0;
      for (let i = 0; i < 150; i++) {
        const scale: [number, number, number] = i % 3 === 2 ? [1.8, 0.6, 1.2] : [1, 1, 1];
        const m = i % 4 === 0 ? null : compose([r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r), scale);
        const box = obbFrom([2 * r() - 1, 2 * r() - 1, 2 * r() - 1], randomQuat(r), [
          0.05 + 0.3 * r(),
          0.05 + 0.3 * r(),
          0.02 + 0.3 * r(),
        ]);
        const n = meshObbContacts(bvh, m, box, got);
        meshObbBruteForce(bvh, m, box, ref);
        sameContacts(got, ref);
        expect(meshObbIntersects(bvh, m, box)).toBe(n > 0);
        if (n > 0) touching++;
        for (let k = 0; k < n; k++) {
          expect(got.depths[k]).toBeGreaterThanOrEqual(0);
          const nrm = [got.normals[3 * k], got.normals[3 * k + 1], got.normals[3 * k + 2]];
          expect(Math.hypot(nrm[0], nrm[1], nrm[2])).toBeCloseTo(1, 12);
          // Moving the box by (depth + ε) along the normal separates it from that triangle.
          const tri = worldTriangle(mesh, got.triangles[k], m);
          const shift = got.depths[k] + 1e-6;
          const moved = box.slice();
          for (let a = 0; a < 3; a++) moved[a] += shift * nrm[a];
          expect(boxTriangle(moved, tri)).toBe(false);
          // …and by a bit less than depth does not (depth is the least penetration).
          if (got.depths[k] > 1e-4) {
            const back = box.slice();
            for (let a = 0; a < 3; a++) back[a] += (got.depths[k] - 1e-5) * nrm[a];
            expect(boxTriangle(back, tri)).toBe(true);
          }
        }
      }
      expect(touching).toBeGreaterThan(20);
      expect(touching).toBeLessThan(150);
    });
  }

  it('a box resting on a grid: normal up, depth = penetration', () => {
    const mesh = grid(10, 0.2);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const out = new MeshContacts();
    const box = obbFrom([0.05, 0.05, 0.09], [0, 0, 0, 1], [0.15, 0.15, 0.1]);
    const n = meshObbContacts(bvh, null, box, out);
    expect(n).toBeGreaterThan(0);
    for (let k = 0; k < n; k++) {
      expect(out.normals[3 * k + 2]).toBeCloseTo(1, 12);
      expect(out.depths[k]).toBeCloseTo(0.01, 6);
      expect(out.points[3 * k + 2]).toBeCloseTo(0, 6);
    }
  });

  it('bad OBBs are rejected', () => {
    const bvh = new MeshBVH(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const out = new MeshContacts();
    expect(() => meshObbContacts(bvh, null, [0, 0, 0], out)).toThrow(/obb/);
    expect(() => meshObbContacts(bvh, null, obbFrom([0, 0, 0], [0, 0, 0, 1], [1, -1, 1]), out)).toThrow(
      /half extents/,
    );
    const skew = obbFrom([0, 0, 0], [0, 0, 0, 1], [1, 1, 1]);
    skew[3] = 2;
    expect(() => meshObbIntersects(bvh, null, skew)).toThrow(/axes/);
  });
});

/** Whether `p` lies on triangle `t` (plane distance and barycentrics within 1e-9). */
function onTriangle(p: number[], t: number[]): boolean {
  const v = (i: number) => [t[3 * i], t[3 * i + 1], t[3 * i + 2]];
  const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: number[], b: number[]) => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const n = cross(sub(v(1), v(0)), sub(v(2), v(0)));
  const nn = dot(n, n);
  if (Math.abs(dot(n, sub(p, v(0)))) / Math.sqrt(nn) > 1e-9) return false;
  for (let i = 0; i < 3; i++) {
    const w = dot(cross(sub(v((i + 2) % 3), v((i + 1) % 3)), sub(p, v((i + 1) % 3))), n) / nn;
    if (w < -1e-9) return false;
  }
  return true;
}

/** Independent box–triangle overlap: the triangle against the 12 triangles of the box surface, or inside. */
function boxTriangle(box: number[], tri: number[]): boolean {
  const c = box.slice(0, 3);
  const ax = [box.slice(3, 6), box.slice(6, 9), box.slice(9, 12)];
  const h = box.slice(12, 15);
  const corner = (sx: number, sy: number, sz: number) =>
    [0, 1, 2].map((k) => c[k] + sx * h[0] * ax[0][k] + sy * h[1] * ax[1][k] + sz * h[2] * ax[2][k]);
  const faces: number[][] = [];
  for (let a = 0; a < 3; a++) {
    for (const s of [-1, 1]) {
      const p = (u: number, v: number) => {
        const sg = [0, 0, 0];
        sg[a] = s;
        sg[(a + 1) % 3] = u;
        sg[(a + 2) % 3] = v;
        return corner(sg[0], sg[1], sg[2]);
      };
      faces.push([...p(-1, -1), ...p(1, -1), ...p(1, 1)], [...p(-1, -1), ...p(1, 1), ...p(-1, 1)]);
    }
  }
  if (faces.some((f) => triangleTriangleIntersect(f, tri))) return true;
  // Triangle entirely inside: its first vertex inside the box.
  return [0, 1, 2].every((a) => {
    const d = (tri[0] - c[0]) * ax[a][0] + (tri[1] - c[1]) * ax[a][1] + (tri[2] - c[2]) * ax[a][2];
    return Math.abs(d) <= h[a];
  });
}
