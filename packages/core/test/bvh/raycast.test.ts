import { describe, expect, it } from 'vitest';
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import { RayHit, RayHits, raycastAll, raycastBruteForce, raycastFirst } from '../../src/bvh/raycast.js';
import { applyPoint, compose, grid, mixedSoup, randomQuat, rng, type TestMesh, uvSphere } from './helpers.js';

const meshes: Array<[string, TestMesh]> = [
  ['closed sphere', uvSphere(1, 32, 20)],
  ['open grid', grid(16, 0.1)],
  ['big+small soup', mixedSoup(5, 20, 600)],
];

describe('ray casts equal brute force', () => {
  for (const [name, mesh] of meshes) {
    for (const strategy of ['center', 'sah'] as const) {
      it(`${name} (${strategy}), with and without a transform`, () => {
        const bvh = new MeshBVH(mesh.positions, mesh.index, { strategy, maxLeafSize: 5 });
        const r = rng(21);
        const hit = new RayHit();
        const ref = new RayHit();
        const all = new RayHits();
        const refAll = new RayHits();
        let hits = 0;
        for (let i = 0; i < 300; i++) {
          const matrix =
            i % 3 === 0
              ? null
              : compose(
                  [r() - 0.5, r() - 0.5, r() - 0.5],
                  randomQuat(r),
                  i % 3 === 2 ? [1.5, 0.7, 1.1] : [1, 1, 1],
                );
          // From a point on a sphere of radius 3 towards a random point near the mesh.
          const o = [3 * (r() - 0.5), 3 * (r() - 0.5), 3 * (r() - 0.5)];
          const target = [r() - 0.5, r() - 0.5, r() - 0.5];
          const d = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
          const near = i % 5 === 0 ? 0.5 : 0;
          const far = i % 7 === 0 ? 2 : Infinity;
          const got = raycastFirst(bvh, matrix, o, d, hit, near, far);
          const n = raycastBruteForce(bvh, matrix, o, d, refAll, ref, near, far);
          expect(got).toBe(n > 0);
          expect(raycastAll(bvh, matrix, o, d, all, near, far)).toBe(n);
          for (let k = 0; k < n; k++) {
            expect(all.triangles[k]).toBe(refAll.triangles[k]);
            expect(all.distances[k]).toBe(refAll.distances[k]);
          }
          if (!got) continue;
          hits++;
          expect(hit.triangle).toBe(ref.triangle);
          expect(hit.distance).toBe(ref.distance);
          expect(hit.distance).toBeGreaterThanOrEqual(near);
          expect(hit.distance).toBeLessThanOrEqual(far);
          expect(Array.from(hit.barycentric)).toEqual(Array.from(ref.barycentric));
          // The point is on the triangle: barycentric combination of its world vertices.
          const t = hit.triangle;
          const vi = (k: number) => (mesh.index ? mesh.index[3 * t + k] : 3 * t + k);
          const w = [0, 1, 2].map((k) => {
            const p = mesh.positions;
            const v = vi(k);
            return matrix
              ? applyPoint(matrix, p[3 * v], p[3 * v + 1], p[3 * v + 2])
              : [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
          });
          for (let c = 0; c < 3; c++) {
            const fromBary =
              hit.barycentric[0] * w[0][c] + hit.barycentric[1] * w[1][c] + hit.barycentric[2] * w[2][c];
            expect(hit.point[c]).toBeCloseTo(fromBary, 9);
          }
          expect(hit.barycentric[0] + hit.barycentric[1] + hit.barycentric[2]).toBeCloseTo(1, 12);
          expect(Math.min(...hit.barycentric)).toBeGreaterThanOrEqual(0);
          expect(Math.hypot(hit.normal[0], hit.normal[1], hit.normal[2])).toBeCloseTo(1, 12);
          const dn = hit.normal[0] * d[0] + hit.normal[1] * d[1] + hit.normal[2] * d[2];
          expect(hit.frontFace).toBe(dn < 0);
        }
        expect(hits).toBeGreaterThan(30);
      });
    }
  }
});

describe('watertightness', () => {
  it('rays through the vertices and edges of a grid never slip through', () => {
    const mesh = grid(8, 0.25);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const hit = new RayHit();
    let n = 0;
    for (let j = -4; j <= 4; j++) {
      for (let i = -4; i <= 4; i++) {
        for (const [fx, fy] of [
          [0, 0],
          [0.5, 0],
          [0, 0.5],
          [0.5, 0.5],
        ]) {
          const x = (i + fx) * 0.25;
          const y = (j + fy) * 0.25;
          // Inside the grid (its outer boundary is an open edge: grazing it may miss).
          if (Math.abs(x) >= 1 || Math.abs(y) >= 1) continue;
          // Oblique rays through (x, y, 0) (vertices, edge midpoints, the diagonal).
          for (const [dx, dy] of [
            [0.3, 0.1],
            [-0.2, 0.45],
            [0, 0],
          ]) {
            expect(raycastFirst(bvh, null, [x - dx, y - dy, 1], [dx, dy, -1], hit)).toBe(true);
            expect(hit.distance).toBeCloseTo(Math.hypot(dx, dy, 1), 12);
            n++;
          }
        }
      }
    }
    expect(n).toBeGreaterThan(300);
  });

  it('a closed mesh: every ray from inside hits', () => {
    const mesh = uvSphere(1, 24, 12);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const hit = new RayHit();
    const r = rng(3);
    for (let i = 0; i < 500; i++) {
      // Aim exactly at vertices (the hardest case) half of the time.
      const v = Math.floor(r() * (mesh.positions.length / 3));
      const d =
        i % 2 === 0
          ? [mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]]
          : [r() - 0.5, r() - 0.5, r() - 0.5];
      expect(raycastFirst(bvh, null, [0, 0, 0], d, hit)).toBe(true);
    }
  });
});

describe('ray edge cases', () => {
  const mesh = grid(4, 0.5);
  const bvh = new MeshBVH(mesh.positions, mesh.index);
  const hit = new RayHit();
  it('axis-parallel rays (zero direction components), inside and on slab faces', () => {
    expect(raycastFirst(bvh, null, [0.1, 0.2, 5], [0, 0, -1], hit)).toBe(true);
    expect(hit.distance).toBe(5);
    expect(Array.from(hit.point)).toEqual([0.1, 0.2, 0]);
    // Origin on the box's x face, parallel to it.
    expect(raycastFirst(bvh, null, [1, 0.2, 5], [0, 0, -1], hit)).toBe(true);
    // Parallel to the plane: never hits.
    expect(raycastFirst(bvh, null, [0, 0, 0.5], [1, 0, 0], hit)).toBe(false);
    expect(raycastFirst(bvh, null, [-5, 0, 0], [1, 0, 0], hit)).toBe(false);
  });
  it('non-unit directions: distances are world distances', () => {
    expect(raycastFirst(bvh, null, [0, 0, 2], [0, 0, -10], hit)).toBe(true);
    expect(hit.distance).toBe(2);
    const m = compose([0, 0, 0], [0, 0, 0, 1], [3, 3, 3]);
    expect(raycastFirst(bvh, m, [0, 0, 2], [0, 0, -0.1], hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(2, 12);
  });
  it('near/far bound the hits', () => {
    expect(raycastFirst(bvh, null, [0, 0, 2], [0, 0, -1], hit, 0, 1.5)).toBe(false);
    expect(raycastFirst(bvh, null, [0, 0, 2], [0, 0, -1], hit, 2.5)).toBe(false);
    expect(raycastFirst(bvh, null, [0, 0, 2], [0, 0, -1], hit, 2, 2)).toBe(true);
  });
  it('bad input', () => {
    expect(() => raycastFirst(bvh, null, [0, 0, Number.NaN], [0, 0, 1], hit)).toThrow(
      /origin\[2\] is not finite/,
    );
    expect(() => raycastFirst(bvh, null, [0, 0, 0], [0, 0, 0], hit)).toThrow(/direction must be a non-zero/);
    expect(() => raycastAll(bvh, null, [0, 0, 0], [0, 1], new RayHits())).toThrow(
      /direction must have at least 3/,
    );
    expect(() => raycastFirst(bvh, [1, 2], [0, 0, 0], [0, 0, 1], hit)).toThrow(/matrix must be a 4x4/);
    expect(() => raycastFirst(bvh, null, [0, 0, 0], [0, 0, 1], hit, -1)).toThrow(/near must be >= 0/);
    expect(() => raycastFirst(bvh, null, [0, 0, 0], [0, 0, 1], hit, 0, Number.NaN)).toThrow(
      /far must be a number/,
    );
  });
  it('many hits: sorted, arrays grow', () => {
    // 40 stacked grids (non-indexed soup of parallel planes).
    const layers: number[] = [];
    for (let z = 0; z < 40; z++) layers.push(-1, -1, z, 1, -1, z, 0, 1, z);
    const stackBvh = new MeshBVH(new Float32Array(layers), null, { maxLeafSize: 3 });
    const hits = new RayHits();
    expect(raycastAll(stackBvh, null, [0, 0, 100], [0, 0, -1], hits)).toBe(40);
    for (let k = 0; k < 40; k++) expect(hits.triangles[k]).toBe(39 - k);
    expect(hits.points[3 * 39 + 2]).toBe(0);
  });
});
