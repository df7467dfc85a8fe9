import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import {
  MeshMeshResult,
  meshMeshBruteForce,
  meshMeshIntersects,
  meshMeshPairs,
  relativeTransform,
} from '../../src/bvh/meshMesh.js';
import { compose, grid, mixedSoup, randomQuat, rng, type TestMesh, uvSphere } from './helpers.js';

function pairSet(r: MeshMeshResult): string[] {
  const out: string[] = [];
  for (let k = 0; k < r.count; k++) out.push(`${r.trianglesA[k]}:${r.trianglesB[k]}`);
  return out.sort();
}

const closed = uvSphere(0.8, 16, 10);
const open = grid(12, 0.15);
const soup = mixedSoup(7, 12, 250);
const meshes: Array<[string, TestMesh]> = [
  ['closed sphere', closed],
  ['open grid', open],
  ['big+small soup', soup],
];

/** BVH pairs and hit data equal the brute force, and the any-hit form agrees. */
function checkPose(
  a: MeshBVH,
  ma: Float64Array,
  b: MeshBVH,
  mb: Float64Array,
  r1: MeshMeshResult,
  r2: MeshMeshResult,
) {
  const n = meshMeshPairs(a, ma, b, mb, r1);
  const m = meshMeshBruteForce(a, ma, b, mb, r2);
  expect(n).toBe(m);
  expect(pairSet(r1)).toEqual(pairSet(r2));
  expect(meshMeshIntersects(a, ma, b, mb)).toBe(m > 0);
  expect(r1.distinctA).toBe(r2.distinctA);
  expect(r1.distinctB).toBe(r2.distinctB);
  for (let k = 0; k < 3; k++) {
    expect(r1.pointA[k]).toBeCloseTo(r2.pointA[k], 9);
    expect(r1.pointB[k]).toBeCloseTo(r2.pointB[k], 9);
    expect(r1.normalA[k]).toBeCloseTo(r2.normalA[k], 9);
    expect(r1.normalB[k]).toBeCloseTo(r2.normalB[k], 9);
  }
  return m;
}

describe('mesh–mesh equals brute force on random poses', () => {
  const r1 = new MeshMeshResult();
  const r2 = new MeshMeshResult();
  for (const [na, ma] of meshes) {
    for (const [nb, mb] of meshes) {
      it(`${na} vs ${nb}`, () => {
        const a = new MeshBVH(ma.positions, ma.index, { maxLeafSize: 4 });
        const b = new MeshBVH(mb.positions, mb.index, { maxLeafSize: 6, strategy: 'sah' });
        let total = 0;
        let hitPoses = 0;
        let missPoses = 0;
        const unit = fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((i) => i / 1_000_000);
        fc.assert(
          fc.property(fc.array(unit, { minLength: 12, maxLength: 12 }), fc.boolean(), (u, scaled) => {
            const r = rng(Math.floor(u[0] * 1e9));
            const poseA = compose([u[1] - 0.5, u[2] - 0.5, u[3] - 0.5], randomQuat(r));
            const s: [number, number, number] = scaled ? [0.6 + u[4], 0.6 + u[5], 0.6 + u[6]] : [1, 1, 1];
            const poseB = compose([1.6 * u[7] - 0.8, 1.6 * u[8] - 0.8, 1.6 * u[9] - 0.8], randomQuat(r), s);
            const m = checkPose(a, poseA, b, poseB, r1, r2);
            total += m;
            if (m > 0) hitPoses++;
            else missPoses++;
          }),
          { seed: 42, numRuns: 12 },
        );
        expect(hitPoses + missPoses).toBe(12);
        expect(total).toBeGreaterThan(0);
      });
    }
  }

  it('a larger pair (sphere 2.3k vs soup), several poses, hit data sane', () => {
    const big = uvSphere(1, 48, 26);
    const a = new MeshBVH(big.positions, big.index);
    const b = new MeshBVH(soup.positions, soup.index);
    const r = rng(9);
    let hits = 0;
    for (let i = 0; i < 4; i++) {
      const pa = compose([0, 0, 0], randomQuat(r));
      const pb = compose([0.9 * r(), 0.9 * r(), 0.9 * r()], randomQuat(r));
      if (checkPose(a, pa, b, pb, r1, r2) > 0) {
        hits++;
        // The sphere's hit normal is outward-ish at its contact point: n·p > 0, p near radius 1.
        const p = r1.pointA;
        const d = r1.normalA[0] * p[0] + r1.normalA[1] * p[1] + r1.normalA[2] * p[2];
        expect(d).toBeGreaterThan(0);
        expect(Math.hypot(r1.normalA[0], r1.normalA[1], r1.normalA[2])).toBeCloseTo(1, 12);
      }
    }
    expect(hits).toBeGreaterThan(0);
  });
});

describe('general affine transforms', () => {
  const r1 = new MeshMeshResult();
  const r2 = new MeshMeshResult();
  it('shear and mirror: equal to brute force; mirrored sphere normals still point outward', () => {
    const a = new MeshBVH(closed.positions, closed.index);
    const b = new MeshBVH(soup.positions, soup.index);
    const r = rng(31);
    let hits = 0;
    for (let i = 0; i < 6; i++) {
      // Mirror A (negative determinant), shear B.
      const ma = compose([0.1 * r(), 0.1 * r(), 0.1 * r()], randomQuat(r), [-1, 1, 1]);
      const mb = compose([0.6 * r() - 0.3, 0.6 * r() - 0.3, 0.6 * r() - 0.3], randomQuat(r));
      mb[4] += 0.4; // x picks up some of y: a shear
      mb[9] -= 0.3;
      if (checkPose(a, ma, b, mb, r1, r2) > 0) {
        hits++;
        // A is a sphere of radius 0.8 centred at ma's translation: its hit normal points away from it.
        const c = [ma[12], ma[13], ma[14]];
        const d = [0, 1, 2].reduce((acc, k) => acc + r1.normalA[k] * (r1.pointA[k] - c[k]), 0);
        expect(d).toBeGreaterThan(0);
      }
    }
    expect(hits).toBeGreaterThan(0);
  });
});

describe('touching and coplanar contacts', () => {
  const r1 = new MeshMeshResult();
  const r2 = new MeshMeshResult();

  it('two grids on one plane, shifted by half a cell and rotated about the normal', () => {
    const g = new MeshBVH(open.positions, open.index);
    for (const angle of [0, 0.3, Math.PI / 2, 2]) {
      const q: [number, number, number, number] = [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
      const pb = compose([0.075, 0.03, 0], q);
      const n = checkPose(g, compose([0, 0, 0], [0, 0, 0, 1]), g, pb, r1, r2);
      expect(n).toBeGreaterThan(100);
    }
  });

  it('coplanar grids under a common rotation (coplanar only up to rounding)', () => {
    const g = new MeshBVH(open.positions, open.index);
    const r = rng(4);
    for (let i = 0; i < 3; i++) {
      const q = randomQuat(r);
      const t: [number, number, number] = [r() * 10, r() * 10, r() * 10];
      const pa = compose(t, q);
      // B: same plane (grid z = 0), shifted in-plane by (0.05, 0.02, 0) in A's frame.
      const shifted = open.positions.map((x, k) => (k % 3 === 0 ? x + 0.05 : k % 3 === 1 ? x + 0.02 : x));
      const b = new MeshBVH(shifted, open.index);
      const n = checkPose(g, pa, b, pa, r1, r2);
      expect(n).toBeGreaterThan(100);
    }
  });

  it('identical meshes in the same pose: every triangle touches itself and its neighbours', () => {
    const s = new MeshBVH(closed.positions, closed.index);
    const pose = compose([0.3, -0.2, 0.1], randomQuat(rng(8)));
    const n = checkPose(s, pose, s, pose, r1, r2);
    // At least the 1-ring of each triangle: itself plus 3 edge neighbours.
    expect(n).toBeGreaterThanOrEqual(4 * s.triangleCount);
  });

  it('a grid lying on another (face contact) or standing on it (line contact) hits; lifted by 1e-3 misses', () => {
    const g = new MeshBVH(open.positions, open.index);
    const up = compose([0, 0, 1e-3], [0, 0, 0, 1]);
    const on = compose([0.01, 0.01, 0], [0, 0, 0, 1]);
    const ident = compose([0, 0, 0], [0, 0, 0, 1]);
    expect(checkPose(g, ident, g, on, r1, r2)).toBeGreaterThan(0);
    expect(checkPose(g, ident, g, up, r1, r2)).toBe(0);
    // Stood up by 90° about x, its lowest row of vertices exactly on the plane (a line contact).
    const s = Math.SQRT1_2;
    const stand = compose([0.02, 0.02, -open.positions[1]], [s, 0, 0, s]);
    const standOn = checkPose(g, ident, g, stand, r1, r2);
    expect(standOn).toBeGreaterThan(0);
  });
});

describe('results and scratch', () => {
  it('pair arrays grow and report original triangle indices', () => {
    const g = new MeshBVH(open.positions, open.index, { maxLeafSize: 2 });
    const r = new MeshMeshResult();
    const n = meshMeshPairs(g, null, g, null, r);
    expect(n).toBeGreaterThan(64);
    expect(r.trianglesA.length).toBeGreaterThanOrEqual(n);
    // Every triangle is paired with itself.
    const self = new Set<number>();
    for (let k = 0; k < n; k++) if (r.trianglesA[k] === r.trianglesB[k]) self.add(r.trianglesA[k]);
    expect(self.size).toBe(g.triangleCount);
  });

  it('A record cache survives across queries and is invalidated by refit', () => {
    const mesh = uvSphere(1, 12, 8);
    const positions = mesh.positions.slice();
    const a = new MeshBVH(positions, mesh.index);
    const b = new MeshBVH(open.positions, open.index);
    const r = new MeshMeshResult();
    const pb = compose([0, 0, 0.95], [0, 0, 0, 1]);
    const before = meshMeshPairs(a, null, b, pb, r);
    expect(before).toBeGreaterThan(0);
    // Shrink the sphere: it no longer reaches the grid at z = 0.95.
    for (let i = 0; i < positions.length; i++) positions[i] *= 0.5;
    a.refit();
    expect(meshMeshPairs(a, null, b, pb, r)).toBe(0);
    expect(meshMeshIntersects(a, null, b, pb, r)).toBe(false);
  });

  it('relativeTransform is M_A⁻¹·M_B', () => {
    const ma = compose([1, 2, 3], randomQuat(rng(1)), [2, 2, 2]);
    const t = relativeTransform(ma, ma);
    const id = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    for (let k = 0; k < 12; k++) expect(t[k]).toBeCloseTo(id[k], 12);
  });

  it('bad transforms get a clear error', () => {
    const a = new MeshBVH(closed.positions, closed.index);
    const proj = compose([0, 0, 0], [0, 0, 0, 1]);
    proj[3] = 0.1;
    expect(() => meshMeshIntersects(a, proj, a, null)).toThrow(/matrixA is not affine/);
    const sing = compose([0, 0, 0], [0, 0, 0, 1], [1, 0, 1]);
    expect(() => meshMeshIntersects(a, null, a, sing)).toThrow(/matrixB is singular/);
    const nan = compose([0, 0, 0], [0, 0, 0, 1]);
    nan[13] = Number.NaN;
    expect(() => meshMeshPairs(a, null, a, nan, new MeshMeshResult())).toThrow(/matrixB\[13\] is not finite/);
    expect(() => meshMeshIntersects(a, [1, 0, 0], a, null)).toThrow(/matrixA must be a 4x4 matrix/);
  });

  it('empty meshes never intersect', () => {
    const e = new MeshBVH(new Float32Array(0), null);
    const a = new MeshBVH(closed.positions, closed.index);
    expect(meshMeshIntersects(e, null, a, null)).toBe(false);
    expect(meshMeshPairs(a, null, e, null, new MeshMeshResult())).toBe(0);
  });
});
