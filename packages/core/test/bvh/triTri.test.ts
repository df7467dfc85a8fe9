import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  setTriangleRecord,
  TRI_RECORD,
  triangleTriangleIntersect,
  triTriRecords,
} from '../../src/bvh/triTri.js';
import { satGap } from './helpers.js';

type Tri = number[];

/** All 6 vertex orders of a triangle (3 rotations × 2 windings). */
function orders(t: Tri): Tri[] {
  const v = [t.slice(0, 3), t.slice(3, 6), t.slice(6, 9)];
  const out: Tri[] = [];
  for (let r = 0; r < 3; r++) {
    out.push([...v[r], ...v[(r + 1) % 3], ...v[(r + 2) % 3]]);
    out.push([...v[r], ...v[(r + 2) % 3], ...v[(r + 1) % 3]]);
  }
  return out;
}

/** The verdict must not depend on vertex order or on which triangle comes first. */
function verdict(a: Tri, b: Tri): boolean {
  const first = triangleTriangleIntersect(a, b);
  for (const oa of orders(a)) {
    for (const ob of orders(b)) {
      expect(triangleTriangleIntersect(oa, ob)).toBe(first);
      expect(triangleTriangleIntersect(ob, oa)).toBe(first);
    }
  }
  return first;
}

/** Sine of the angle at vertex 0 is above 1e-3 (clearly not degenerate). */
function proper(t: Tri): boolean {
  const ax = t[3] - t[0];
  const ay = t[4] - t[1];
  const az = t[5] - t[2];
  const bx = t[6] - t[0];
  const by = t[7] - t[1];
  const bz = t[8] - t[2];
  const n2 = (ay * bz - az * by) ** 2 + (az * bx - ax * bz) ** 2 + (ax * by - ay * bx) ** 2;
  const l2 = (ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz);
  return l2 > 1e-12 && n2 > 1e-6 * l2;
}

function mapTri(t: Tri, f: (x: number, y: number, z: number) => [number, number, number]): Tri {
  return [...f(t[0], t[1], t[2]), ...f(t[3], t[4], t[5]), ...f(t[6], t[7], t[8])];
}

/** A rigid-ish map that keeps float values exact enough: scale by a power of two and shift. */
const scaled = (t: Tri, s: number, d: number) =>
  mapTri(t, (x, y, z) => [x * s + d, y * s - d, z * s + 0.5 * d]);

const T0: Tri = [0, 0, 0, 1, 0, 0, 0, 1, 0];

describe('Möller triangle–triangle: adversarial cases', () => {
  const cases: Array<[string, Tri, Tri, boolean]> = [
    ['piercing', T0, [0.2, 0.2, -1, 0.3, 0.2, 1, 0.2, 0.3, 1], true],
    ['parallel planes apart', T0, [0, 0, 0.1, 1, 0, 0.1, 0, 1, 0.1], false],
    ['coplanar overlapping', T0, [0.2, 0.2, 0, 1.2, 0.2, 0, 0.2, 1.2, 0], true],
    ['coplanar one inside the other', T0, [0.1, 0.1, 0, 0.3, 0.1, 0, 0.1, 0.3, 0], true],
    ['coplanar disjoint', T0, [0.6, 0.6, 0, 1.6, 0.6, 0, 0.6, 1.6, 0], false],
    ['coplanar disjoint by a hair', T0, [0.5001, 0.5001, 0, 1, 1, 0, 0.6, 1, 0], false],
    ['coplanar sharing an edge', T0, [1, 0, 0, 0, 1, 0, 1, 1, 0], true],
    ['coplanar sharing a vertex', T0, [1, 0, 0, 2, 0, 0, 2, 1, 0], true],
    ['coplanar touching edge-to-edge (collinear edges)', T0, [0.5, 0, 0, 1.5, 0, 0, 1, -1, 0], true],
    ['hinge: sharing an edge, different planes', T0, [0, 0, 0, 1, 0, 0, 0.3, 0, 1], true],
    ['sharing a vertex only, apart otherwise', T0, [0, 0, 0, -1, 0, 0.5, 0, -1, 0.7], true],
    ['sharing a vertex, B above A', T0, [0, 0, 0, 1, 1, 1, -1, 1, 1], true],
    ['one vertex on the plane, inside', T0, [0.2, 0.2, 0, 0.5, 0.5, 1, 0.1, 0.6, 1], true],
    ['one vertex on the plane, outside', T0, [1, 1, 0, 1.5, 1.5, 1, 1.1, 1.6, 1], false],
    ['edge lying on the plane, crossing A', T0, [0.2, -0.5, 0, 0.2, 1.5, 0, 0.2, 0.5, 1], true],
    ['edge lying on the plane, outside A', T0, [0.8, 0.8, 0, 1.5, 0.2, 0, 1, 1, 1], false],
    ['T-junction: B vertex on A edge', T0, [0.5, 0, 0, 0.5, -1, 1, 0.5, -1, -1], true],
    ['crossing near miss', T0, [0.6, 0.6, -1, 0.7, 0.6, 1, 0.6, 0.7, 1], false],
    ['needle piercing', T0, [0.3, 0.3, -5, 0.3, 0.3001, 5, 0.30001, 0.3, 5], true],
    ['needle passing beside', T0, [0.6, 0.6, -5, 0.6, 0.6001, 5, 0.60001, 0.6, 5], false],
    ['needle A, big B crossing it', [0, 0, 0, 10, 0, 0, 10, 1e-4, 0], [5, -1, -1, 5, 1, -1, 5, 0, 1], true],
  ];
  for (const [name, a, b, expected] of cases) {
    it(name, () => {
      expect(verdict(a, b)).toBe(expected);
      // Same answer after scaling by powers of two and a large shift (the tolerance is relative).
      for (const [s, d] of [
        [1024, 0],
        [1 / 1024, 0],
        [1, 4096],
        [64, -2048],
      ]) {
        expect(triangleTriangleIntersect(scaled(a, s, d), scaled(b, s, d))).toBe(expected);
      }
      // The reference agrees, where it is not on the fence.
      const g = satGap(a, b);
      if (Math.abs(g) > 1e-9) expect(g <= 0).toBe(expected);
    });
  }
});

describe('degenerate triangles never hit', () => {
  const point: Tri = [0.2, 0.2, 0, 0.2, 0.2, 0, 0.2, 0.2, 0];
  const segmentPiercing: Tri = [0.2, 0.2, -1, 0.2, 0.2, 1, 0.2, 0.2, 0.5];
  const segmentInPlane: Tri = [0.1, 0.1, 0, 0.5, 0.1, 0, 0.3, 0.1, 0];
  const segmentOnEdge: Tri = [0, 0, 0, 1, 0, 0, 0.5, 0, 0];
  const nearlyCollinear: Tri = [0, 0, 0, 1, 0, 0, 2, 1e-14, 0];
  for (const [name, d] of Object.entries({
    point,
    segmentPiercing,
    segmentInPlane,
    segmentOnEdge,
    nearlyCollinear,
  })) {
    it(name, () => {
      expect(verdict(T0, d)).toBe(false);
      expect(verdict(d, d)).toBe(false);
      const rec = new Float64Array(TRI_RECORD);
      setTriangleRecord(rec, 0, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]);
      expect([rec[9], rec[10], rec[11]]).toEqual([0, 0, 0]);
    });
  }
  it('a thin but proper needle is not degenerate', () => {
    const rec = new Float64Array(TRI_RECORD);
    setTriangleRecord(rec, 0, 0, 0, 0, 1, 0, 0, 0, 1e-9, 0);
    expect(Math.hypot(rec[9], rec[10], rec[11])).toBeCloseTo(1, 12);
  });
});

describe('random triangles against an independent separating-axis reference', () => {
  // Unbiased coordinates (fast-check's doubles favour 0 and ±1, i.e. degenerate triangles).
  const coord = fc.noBias(fc.integer({ min: -1_000_000, max: 1_000_000 })).map((i) => i / 1_000_000);
  const tri = fc.array(coord, { minLength: 9, maxLength: 9 });
  it('general position', () => {
    let decided = 0;
    fc.assert(
      fc.property(tri, tri, (a, b) => {
        fc.pre(proper(a) && proper(b));
        const g = satGap(a, b);
        if (Math.abs(g) < 1e-9) return;
        decided++;
        expect(triangleTriangleIntersect(a, b)).toBe(g <= 0);
      }),
      { seed: 42, numRuns: 4000 },
    );
    expect(decided).toBeGreaterThan(3500);
  });

  // B built from A: sharing vertices, coplanar, or a vertex of B on A's plane; then both moved by the
  // same random rotation and translation (float64 rounding: shared vertices stay shared, coplanar
  // triangles become coplanar only up to rounding, which the tolerance must absorb).
  const related = fc.tuple(
    tri,
    fc.integer({ min: 0, max: 4 }),
    tri,
    fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((i) => i / 1_000_000),
    fc.integer({ min: 0, max: 2 }),
    fc.integer({ min: 0, max: 2 }),
  );
  it('related pairs (shared vertices, coplanar, vertex on plane), moved rigidly', () => {
    let hits = 0;
    let misses = 0;
    fc.assert(
      fc.property(related, ([a, mode, r, w, va, vb]) => {
        fc.pre(proper(a));
        const b = r.slice();
        const A = (i: number) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
        // Plane of A: a0 + s·(a1 − a0) + t·(a2 − a0).
        const onPlane = (s: number, t: number) =>
          [0, 1, 2].map((k) => a[k] + s * (a[3 + k] - a[k]) + t * (a[6 + k] - a[k]));
        if (mode === 0) b.splice(3 * vb, 3, ...A(va));
        else if (mode === 1) {
          b.splice(3 * vb, 3, ...A(va));
          b.splice(3 * ((vb + 1) % 3), 3, ...A((va + 1) % 3));
        } else if (mode === 2)
          b.splice(
            0,
            9,
            ...onPlane(r[0] * 2, r[1] * 2),
            ...onPlane(r[2] * 2, r[3]),
            ...onPlane(r[4], r[5] * 2),
          );
        else if (mode === 3) b.splice(3 * vb, 3, ...onPlane(w, (1 - w) * r[8] * 1.5));
        else b.splice(0, 6, ...A(2), ...onPlane(w * 0.9, 0.05));
        fc.pre(proper(b));
        const got = triangleTriangleIntersect(a, b);
        const g = satGap(a, b);
        if (mode <= 1) expect(got).toBe(true);
        else if (Math.abs(g) > 1e-7) expect(got).toBe(g <= 0);
        // Rigid motion (rotation about a random axis by angle 1 + w, shift by r[6..8] · 100).
        const ax = [r[0], r[1], r[2] + 1.5];
        const l = Math.hypot(ax[0], ax[1], ax[2]);
        const [ux, uy, uz] = [ax[0] / l, ax[1] / l, ax[2] / l];
        const c = Math.cos(1 + w);
        const s = Math.sin(1 + w);
        const move = (x: number, y: number, z: number): [number, number, number] => {
          const d = ux * x + uy * y + uz * z;
          return [
            x * c + (uy * z - uz * y) * s + ux * d * (1 - c) + 100 * r[6],
            y * c + (uz * x - ux * z) * s + uy * d * (1 - c) + 100 * r[7],
            z * c + (ux * y - uy * x) * s + uz * d * (1 - c) + 100 * r[8],
          ];
        };
        const moved = triangleTriangleIntersect(mapTri(a, move), mapTri(b, move));
        if (mode <= 1) expect(moved).toBe(true);
        else if (Math.abs(g) > 1e-6) expect(moved).toBe(g <= 0);
        if (got) hits++;
        else misses++;
      }),
      { seed: 42, numRuns: 3000 },
    );
    expect(hits).toBeGreaterThan(300);
    expect(misses).toBeGreaterThan(300);
  });
});

describe('records', () => {
  it('triTriRecords reads records at offsets', () => {
    const rec = new Float64Array(3 * TRI_RECORD);
    setTriangleRecord(rec, TRI_RECORD, 0, 0, 0, 1, 0, 0, 0, 1, 0);
    setTriangleRecord(rec, 2 * TRI_RECORD, 0.2, 0.2, -1, 0.3, 0.2, 1, 0.2, 0.3, 1);
    expect(triTriRecords(rec, TRI_RECORD, rec, 2 * TRI_RECORD)).toBe(true);
    expect(rec[TRI_RECORD + 13]).toBe(1);
    expect(rec[TRI_RECORD + 11]).toBe(1);
  });
  it('offsets in the array form', () => {
    const a = [9, 9, 9, ...T0];
    const b = [7, 0.2, 0.2, -1, 0.3, 0.2, 1, 0.2, 0.3, 1];
    expect(triangleTriangleIntersect(a, b, 3, 1)).toBe(true);
  });
});
