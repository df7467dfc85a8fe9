import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_SIZE,
  circleAabbContact2D,
  circleAabbDistanceSq2D,
  circleAabbOverlap2D,
  circleObbClosestPoint2D,
  circleObbContact2D,
  circleObbDistanceSq2D,
  circleObbOverlap2D,
  createContact,
  createContact2,
  createObb,
  ocsiClosestPoint,
  ocsiClosestPoint2D,
  ocsiContact,
  ocsiContact2D,
  ocsiDistanceSq,
  ocsiDistanceSq2D,
  ocsiOverlap,
  ocsiOverlap2D,
  quatToAxes,
  randomRotationQuat,
  sphereAabbClosestPoint,
  sphereAabbContact,
  sphereAabbDistanceSq,
  sphereAabbOverlap,
  sphereObbClosestPoint,
  sphereObbContact,
  sphereObbDistanceSq,
  sphereObbOverlap,
} from '../../src/index.js';
import { exactOcsi, lane, paperSet, rng } from './exact.js';

const I3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const I2 = [1, 0, 0, 1];

// Permutation rotations are exact in floating point: (x, y, z) → (y, z, x) etc.
const PERMS: number[][] = [
  I3,
  [0, 1, 0, 0, 0, 1, 1, 0, 0],
  [0, 0, -1, 1, 0, 0, 0, -1, 0],
  [-1, 0, 0, 0, 0, 1, 0, 1, 0],
];

/** rSC for a point given in the box frame (coords p) under the (exact) axes e: rSC = Σ p_i e_i. */
function toWorld(p: number[], e: number[]): number[] {
  return [0, 1, 2].map((j) => p[0] * e[j] + p[1] * e[3 + j] + p[2] * e[6 + j]);
}

describe('ocsiOverlap agrees with the exact reference on the paper configurations', () => {
  // Three radii and a few shapes, 600 configurations each: every decision equals the exact one except within
  // a relative band of 1e-14 of the boundary (measured: no configuration falls in it).
  const shapes: [number, number][] = [
    [1, 1],
    [20, 1],
    [7, 8],
    [20, 20],
  ];
  for (const R of [0.05, 0.5, 5]) {
    it(`R* = ${R}`, () => {
      let disagreements = 0;
      let minMargin = Number.POSITIVE_INFINITY;
      let overlaps = 0;
      let total = 0;
      for (const [L, W] of shapes) {
        const s = paperSet(L, W, R, 600, 1000 * L + W + R);
        for (let i = 0; i < s.count; i++) {
          const [r, e] = lane(s.lanes, i);
          const ex = exactOcsi(r, e, s.half, s.radius);
          const got = ocsiOverlap(r, e, s.half, s.radius);
          minMargin = Math.min(minMargin, Math.abs(ex.margin));
          if (got !== ex.overlap) {
            disagreements++;
            expect(Math.abs(ex.margin)).toBeLessThan(1e-14);
          }
          overlaps += +got;
          total++;
        }
      }
      // the protocol tunes 60 % overlaps; 2400 samples keep it within a few percent
      expect(overlaps / total).toBeGreaterThan(0.56);
      expect(overlaps / total).toBeLessThan(0.64);
      expect(disagreements).toBe(0);
      expect(minMargin).toBeGreaterThan(0);
    });
  }
});

describe('exact boundary cases (touching counts as overlap)', () => {
  const h = [1, 2, 3];
  // face: 0.5 beyond the x face; edge: (3,4,5)/8 beyond the x and y faces; corner: (2,3,6,7)/8.
  const cases: { name: string; p: number[]; R: number }[] = [
    { name: 'face', p: [1.5, 0.3, -1], R: 0.5 },
    { name: 'edge', p: [1.375, -2.5, 1], R: 0.625 },
    { name: 'corner', p: [-1.25, 2.375, 3.75], R: 0.875 },
  ];
  for (const c of cases) {
    it(`touching a ${c.name}, in every exact rotation`, () => {
      for (const e of PERMS) {
        const r = toWorld(c.p, e);
        expect(ocsiOverlap(r, e, h, c.R)).toBe(true);
        expect(ocsiOverlap(r, e, h, c.R * (1 - 2 ** -52))).toBe(false);
        expect(ocsiDistanceSq(r, e, h)).toBe(c.R * c.R);
        const out = createContact();
        expect(ocsiContact(r, e, h, c.R, out)).toBe(true);
        expect(out[3]).toBe(0);
        // the contact point is the closest point, and centre = point + normal·R
        for (let j = 0; j < 3; j++) expect(out[4 + j] + out[j] * c.R).toBeCloseTo(r[j], 12);
      }
    });
  }

  it('radius 0: a point inside, on the surface and just outside', () => {
    expect(ocsiOverlap([0.5, -1, 2], I3, h, 0)).toBe(true);
    expect(ocsiOverlap([1, -2, 3], I3, h, 0)).toBe(true);
    expect(ocsiOverlap([1 + 2 ** -52, 0, 0], I3, h, 0)).toBe(false);
  });

  it('boxes with zero extents (rectangle, segment, point)', () => {
    expect(ocsiOverlap([0, 0, 0.5], I3, [1, 1, 0], 0.5)).toBe(true);
    expect(ocsiOverlap([0, 0, 0.5], I3, [1, 1, 0], 0.4999)).toBe(false);
    expect(ocsiOverlap([0.375, 0.5, 7], I3, [0, 0, 7], 0.625)).toBe(true);
    expect(ocsiOverlap([0.375, 0.5, 7], I3, [0, 0, 7], 0.62)).toBe(false);
    expect(ocsiDistanceSq([3, 4, 0], I3, [0, 0, 0])).toBe(25);
    expect(ocsiOverlap([0, 0, 0], I3, [0, 0, 0], 0)).toBe(true);
  });

  it('scaling everything by a power of two changes nothing (huge and tiny scales)', () => {
    const s = paperSet(7, 3, 0.5, 200, 9);
    for (const k of [2 ** -120, 2 ** -60, 2 ** 60, 2 ** 120]) {
      for (let i = 0; i < s.count; i++) {
        const [r, e] = lane(s.lanes, i);
        const base = ocsiOverlap(r, e, s.half, s.radius);
        const scaled = ocsiOverlap(
          r.map((x) => x * k),
          e,
          s.half.map((x) => x * k),
          s.radius * k,
        );
        expect(scaled).toBe(base);
      }
    }
  });
});

describe('distance, closest point and contact', () => {
  it('closest point is on the box, at the returned distance, and no sampled box point is closer', () => {
    const random = rng(5);
    const q = [0, 0, 0, 0];
    const e = new Array(9).fill(0);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.double({ min: 0, max: 4, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (r, h) => {
          quatToAxes(randomRotationQuat(random(), random(), random(), q), 0, e, 0);
          const cp = ocsiClosestPoint(r, e, h, [0, 0, 0]);
          const d2 = ocsiDistanceSq(r, e, h);
          const got = (cp[0] - r[0]) ** 2 + (cp[1] - r[1]) ** 2 + (cp[2] - r[2]) ** 2;
          expect(Math.abs(got - d2)).toBeLessThanOrEqual(1e-9 * (1 + d2));
          for (let i = 0; i < 3; i++) {
            const a = cp[0] * e[3 * i] + cp[1] * e[3 * i + 1] + cp[2] * e[3 * i + 2];
            expect(Math.abs(a)).toBeLessThanOrEqual(h[i] + 1e-9);
          }
          for (let k = 0; k < 20; k++) {
            const p = toWorld(
              [0, 1, 2].map((i) => (2 * random() - 1) * h[i]),
              e,
            );
            const dd = (p[0] - r[0]) ** 2 + (p[1] - r[1]) ** 2 + (p[2] - r[2]) ** 2;
            expect(dd).toBeGreaterThanOrEqual(d2 - 1e-9 * (1 + d2));
          }
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('contact outside: normal from box to centre, depth R − d, point = closest point', () => {
    const out = createContact();
    const r = [4, 0.5, -1];
    const hit = ocsiContact(r, I3, [1, 2, 3], 3.5, out);
    expect(hit).toBe(true);
    expect([...out]).toEqual([1, 0, 0, 0.5, 1, 0.5, -1]);
    expect(ocsiContact(r, I3, [1, 2, 3], 2.5, out)).toBe(false);
    expect(out[3]).toBe(-0.5);
  });

  it('contact inside: face of least penetration, depth R + distance to that face', () => {
    const out = createContact();
    // centre inside, nearest face is −y (distance 0.25)
    expect(ocsiContact([0.2, -1.75, 0.5], I3, [1, 2, 3], 0.5, out)).toBe(true);
    expect([...out]).toEqual([0, -1, 0, 0.75, 0.2, -2, 0.5]);
    // exactly at the centre of a cube: ties go to the lowest axis, + face
    expect(ocsiContact([0, 0, 0], I3, [1, 1, 1], 0, out)).toBe(true);
    expect([...out]).toEqual([1, 0, 0, 1, 1, 0, 0]);
    // rotated box: normal is a world face axis
    for (const e of PERMS) {
      const r = toWorld([0.2, -1.75, 0.5], e);
      ocsiContact(r, e, [1, 2, 3], 0.5, out);
      expect(out[3]).toBeCloseTo(0.75, 14);
      for (let j = 0; j < 3; j++) expect(out[j]).toBe(-e[3 + j] || 0);
    }
  });

  it('contact overlap flag always equals ocsiOverlap, and depth ≥ 0 exactly when they overlap', () => {
    const s = paperSet(5, 12, 0.5, 400, 77);
    const out = createContact();
    for (let i = 0; i < s.count; i++) {
      const [r, e] = lane(s.lanes, i);
      const hit = ocsiContact(r, e, s.half, s.radius, out);
      expect(hit).toBe(ocsiOverlap(r, e, s.half, s.radius));
      expect(out[3] >= 0).toBe(hit);
      expect(Math.hypot(out[0], out[1], out[2])).toBeCloseTo(1, 12);
    }
  });

  it('world forms equal the paper form on r = centre − box centre', () => {
    const obb = createObb();
    const random = rng(11);
    const out1 = createContact();
    const out2 = createContact();
    for (let k = 0; k < 200; k++) {
      quatToAxes(randomRotationQuat(random(), random(), random(), [0, 0, 0, 0]), 0, obb, 3);
      for (let i = 0; i < 3; i++) {
        obb[i] = 10 * random() - 5;
        obb[12 + i] = 3 * random();
      }
      const c = [10 * random() - 5, 10 * random() - 5, 10 * random() - 5];
      const R = 2 * random();
      const r = [c[0] - obb[0], c[1] - obb[1], c[2] - obb[2]];
      const e = [...obb.subarray(3, 12)];
      const h = [...obb.subarray(12, 15)];
      expect(sphereObbOverlap(obb, c, R)).toBe(ocsiOverlap(r, e, h, R));
      expect(sphereObbDistanceSq(obb, c)).toBe(ocsiDistanceSq(r, e, h));
      const cp = sphereObbClosestPoint(obb, c, [0, 0, 0]);
      const cp2 = ocsiClosestPoint(r, e, h, [0, 0, 0]);
      for (let j = 0; j < 3; j++) expect(cp[j]).toBeCloseTo(cp2[j] + obb[j], 12);
      expect(sphereObbContact(obb, c, R, out1)).toBe(ocsiContact(r, e, h, R, out2));
      for (let j = 0; j < 4; j++) expect(out1[j]).toBe(out2[j]);
      for (let j = 0; j < 3; j++) expect(out1[4 + j]).toBeCloseTo(out2[4 + j] + obb[j], 12);
    }
  });

  it('writes at an offset and allocates no result', () => {
    const out = new Float64Array(3 + CONTACT_SIZE).fill(9);
    ocsiContact([4, 0, 0], I3, [1, 1, 1], 1, out, 3);
    expect([...out.subarray(0, 3)]).toEqual([9, 9, 9]);
    expect(out[3]).toBe(1);
    const obbs = new Float64Array(30);
    obbs.set(createObb(), 15);
    obbs[27] = 1;
    obbs[28] = 1;
    obbs[29] = 1;
    expect(sphereObbOverlap(obbs, [2, 0, 0], 1, 15)).toBe(true);
    expect(sphereObbOverlap(obbs, [2.5, 0, 0], 1, 15)).toBe(false);
  });
});

describe('sphere–AABB (min/max, exact)', () => {
  it('agrees with the OBB form on identity axes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -64, max: 64 }), { minLength: 9, maxLength: 9 }),
        fc.integer({ min: 0, max: 64 }),
        (v, rq) => {
          const min = [v[0], v[1], v[2]].map((x) => x / 8);
          const max = min.map((x, i) => x + Math.abs(v[3 + i]) / 8);
          const c = [v[6], v[7], v[8]].map((x) => x / 4);
          const R = rq / 8;
          const centre = min.map((x, i) => (x + max[i]) / 2);
          const half = min.map((x, i) => (max[i] - x) / 2);
          const r = c.map((x, i) => x - centre[i]);
          expect(sphereAabbOverlap(min, max, c, R)).toBe(ocsiOverlap(r, I3, half, R));
          expect(sphereAabbDistanceSq(min, max, c)).toBe(ocsiDistanceSq(r, I3, half));
          const a = createContact();
          const b = createContact();
          expect(sphereAabbContact(min, max, c, R, a)).toBe(ocsiContact(r, I3, half, R, b));
          for (let j = 0; j < 3; j++) expect(a[j]).toBeCloseTo(b[j], 14);
          expect(a[3]).toBe(b[3]);
          for (let j = 0; j < 3; j++) expect(a[4 + j]).toBe(b[4 + j] + centre[j]);
          const cp = sphereAabbClosestPoint(min, max, c, [0, 0, 0]);
          for (let j = 0; j < 3; j++) expect(cp[j]).toBe(Math.min(Math.max(c[j], min[j]), max[j]));
        },
      ),
      { seed: 42, numRuns: 400 },
    );
  });
});

describe('2-D: circle–rectangle', () => {
  it('agrees with the exact reference on random rotated rectangles', () => {
    const random = rng(3);
    let n = 0;
    for (let k = 0; k < 3000; k++) {
      const th = 2 * Math.PI * random();
      const e = [Math.cos(th), Math.sin(th), -Math.sin(th), Math.cos(th)];
      const h = [4 * random(), 4 * random()];
      const r = [12 * random() - 6, 12 * random() - 6];
      const R = 2 * random();
      const ex = exactOcsi(r, e, h, R, 2);
      const got = ocsiOverlap2D(r, e, h, R);
      if (got !== ex.overlap) expect(Math.abs(ex.margin)).toBeLessThan(1e-14);
      n += +(got === ex.overlap);
      const d2 = ocsiDistanceSq2D(r, e, h);
      const cp = ocsiClosestPoint2D(r, e, h, [0, 0]);
      expect((cp[0] - r[0]) ** 2 + (cp[1] - r[1]) ** 2).toBeCloseTo(d2, 9);
    }
    expect(n).toBe(3000);
  });

  it('touching an edge and a corner exactly; contact inside and outside', () => {
    const h = [1, 2];
    expect(ocsiOverlap2D([1.5, 0], I2, h, 0.5)).toBe(true);
    expect(ocsiOverlap2D([1.5, 0], I2, h, 0.49999999)).toBe(false);
    expect(ocsiOverlap2D([1.375, 2.5], I2, h, 0.625)).toBe(true);
    expect(ocsiOverlap2D([1.375, 2.5], I2, h, 0.6249)).toBe(false);
    const out = createContact2();
    expect(ocsiContact2D([1.375, 2.5], I2, h, 1, out)).toBe(true);
    for (const [i, v] of [0.6, 0.8, 0.375, 1, 2].entries()) expect(out[i]).toBeCloseTo(v, 15);
    expect(ocsiContact2D([0.5, 0.25], I2, h, 0.5, out)).toBe(true);
    expect([...out]).toEqual([1, 0, 1, 1, 0.25]);
  });

  it('zero extents, radius 0, huge and tiny scales', () => {
    expect(ocsiOverlap2D([0, 0.5], I2, [1, 0], 0.5)).toBe(true); // a segment
    expect(ocsiOverlap2D([0, 0.5], I2, [1, 0], 0.4999)).toBe(false);
    expect(ocsiDistanceSq2D([3, 4], I2, [0, 0])).toBe(25); // a point
    expect(ocsiOverlap2D([1, -2], I2, [1, 2], 0)).toBe(true); // a corner, radius 0
    const random = rng(12);
    for (let k = 0; k < 500; k++) {
      const th = 2 * Math.PI * random();
      const e = [Math.cos(th), Math.sin(th), -Math.sin(th), Math.cos(th)];
      const h = [3 * random(), 3 * random()];
      const r = [8 * random() - 4, 8 * random() - 4];
      const R = random();
      const base = ocsiOverlap2D(r, e, h, R);
      for (const s of [2 ** -200, 2 ** 200]) {
        expect(ocsiOverlap2D([r[0] * s, r[1] * s], e, [h[0] * s, h[1] * s], R * s)).toBe(base);
      }
    }
  });

  it('world forms: OBB (8 numbers) and AABB', () => {
    const obb = [10, 20, 0, 1, -1, 0, 1, 2]; // rotated 90°: local x is world y
    expect(circleObbOverlap2D(obb, [10, 21.5], 0.5)).toBe(true);
    expect(circleObbOverlap2D(obb, [10, 21.5], 0.49)).toBe(false);
    expect(circleObbDistanceSq2D(obb, [13, 20])).toBe(1);
    expect(circleObbClosestPoint2D(obb, [13, 25], [0, 0])).toEqual([12, 21]);
    const out = createContact2();
    expect(circleObbContact2D(obb, [13, 20], 1.5, out)).toBe(true);
    expect([...out]).toEqual([1, 0, 0.5, 12, 20]);
    expect(circleAabbOverlap2D([0, 0], [2, 1], [3, 1], 1)).toBe(true);
    expect(circleAabbOverlap2D([0, 0], [2, 1], [3, 1], 0.99)).toBe(false);
    expect(circleAabbDistanceSq2D([0, 0], [2, 1], [5, 5])).toBe(25);
    expect(circleAabbContact2D([0, 0], [2, 1], [1, 0.75], 0.5, out)).toBe(true);
    expect([...out]).toEqual([0, 1, 0.75, 1, 1]);
  });
});

describe('bad input gets a clear error', () => {
  const e = I3;
  const h = [1, 1, 1];
  it.each([
    ['NaN in rSC', () => ocsiOverlap([Number.NaN, 0, 0], e, h, 1), /rSC\[0\].*finite/],
    ['infinite rSC', () => ocsiDistanceSq([0, Number.POSITIVE_INFINITY, 0], e, h), /rSC\[1\]/],
    ['negative radius', () => ocsiOverlap([0, 0, 0], e, h, -1), /radius.*>= 0.*-1/],
    ['NaN radius', () => ocsiOverlap([0, 0, 0], e, h, Number.NaN), /radius/],
    ['negative extent', () => ocsiOverlap([0, 0, 0], e, [1, -1, 1], 1), /halfExtents\[1\].*>= 0/],
    [
      'infinite extent',
      () => ocsiOverlap([0, 0, 0], e, [1, 1, Number.POSITIVE_INFINITY], 1),
      /halfExtents\[2\]/,
    ],
    ['NaN axis', () => ocsiOverlap([0, 0, 0], [1, 0, 0, 0, Number.NaN, 0, 0, 0, 1], h, 1), /axes\[4\]/],
    ['non-unit axes', () => ocsiOverlap([0, 0, 0], [1.001, 0, 0, 0, 1, 0, 0, 0, 1], h, 1), /orthonormal/],
    ['skewed axes', () => ocsiOverlap([0, 0, 0], [1, 0, 0, 0.01, 1, 0, 0, 0, 1], h, 1), /orthonormal/],
    ['short rSC', () => ocsiOverlap([0, 0], e, h, 1), /rSC needs 3/],
    ['short out', () => ocsiContact([0, 0, 0], e, h, 1, new Float64Array(6)), /out needs 7/],
    ['2-D bad axes', () => ocsiOverlap2D([0, 0], [1, 0, 1, 0], [1, 1], 1), /orthonormal/],
    [
      'OBB bad extent',
      () => sphereObbOverlap([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, -2, 1], [0, 0, 0], 1),
      /half extents\[1\]/,
    ],
    ['OBB too short', () => sphereObbOverlap([0, 0, 0], [0, 0, 0], 1), /obb needs 15/],
    ['AABB inverted', () => sphereAabbOverlap([0, 0, 0], [1, -1, 1], [0, 0, 0], 1), /max\[1\].*min\[1\]/],
    ['NaN centre', () => circleObbOverlap2D([0, 0, 1, 0, 0, 1, 1, 1], [0, Number.NaN], 1), /center\[1\]/],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(message);
  });

  it('accepts axes stored in float32 (orthonormal to ~1e-7)', () => {
    const random = rng(8);
    const e32 = new Float32Array(9);
    for (let k = 0; k < 100; k++) {
      quatToAxes(randomRotationQuat(random(), random(), random(), [0, 0, 0, 0]), 0, e32, 0);
      expect(() => ocsiOverlap([1, 2, 3], e32, h, 1)).not.toThrow();
    }
  });
});
