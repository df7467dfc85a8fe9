import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GJK_BOX,
  GJK_DISTANCE,
  GJK_POINT,
  GJK_SEPARATION,
  GJK_TRIANGLE,
  gjk,
  gjkDistance,
} from '../../src/ccd/gjk.js';
import {
  isDegenerateTriangle,
  MeshBVH,
  meshObbIntersects,
  obbObbOverlap,
  quatToAxes,
  randomRotationQuat,
} from '../../src/index.js';
import { boxBoxDistance, pointBoxDistance, triangleBoxDistance } from './reference.js';

const unit = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

function makeBox(c: number[], h: number[], u: number[]): Float64Array {
  const o = new Float64Array(15);
  o.set(c, 0);
  quatToAxes(randomRotationQuat(u[0], u[1], u[2], new Float64Array(4)), 0, o, 3);
  o.set(h, 12);
  return o;
}

const boxArb = fc
  .record({
    c: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 3, maxLength: 3 }),
    h: fc.array(fc.double({ min: 0.01, max: 1.5, noNaN: true }), { minLength: 3, maxLength: 3 }),
    u: fc.array(unit, { minLength: 3, maxLength: 3 }),
  })
  .map(({ c, h, u }) => makeBox(c, h, u));

describe('GJK distance', () => {
  it('box–box: matches the brute-force feature distance, and the separation is a lower bound', () => {
    let separated = 0;
    fc.assert(
      fc.property(boxArb, boxArb, (a, b) => {
        const r = gjkDistance(GJK_BOX, a, 0, GJK_BOX, b, 0);
        const overlap = obbObbOverlap(a, b, 0, 0, 0);
        if (r < 0) {
          // intersecting: the SAT test (with slack) must agree
          expect(obbObbOverlap(a, b)).toBe(true);
          return;
        }
        const ref = boxBoxDistance(a, b);
        if (ref > 1e-6) {
          separated++;
          expect(overlap).toBe(false);
          expect(Math.abs(gjk.result[GJK_DISTANCE] - ref)).toBeLessThan(1e-7 * (1 + ref));
          expect(gjk.result[GJK_SEPARATION]).toBeLessThanOrEqual(ref + 1e-9 * (1 + ref));
          expect(gjk.result[GJK_SEPARATION]).toBeGreaterThan(ref - 1e-6 * (1 + ref));
          // closest points lie on their boxes, n is unit and points from A to B
          expect(pointBoxDistance([...gjk.pointA], a)).toBeLessThan(1e-7);
          expect(pointBoxDistance([...gjk.pointB], b)).toBeLessThan(1e-7);
          const n = gjk.normal;
          expect(Math.hypot(n[0], n[1], n[2])).toBeCloseTo(1, 12);
          const dx = gjk.pointB[0] - gjk.pointA[0];
          const dy = gjk.pointB[1] - gjk.pointA[1];
          const dz = gjk.pointB[2] - gjk.pointA[2];
          expect(dx * n[0] + dy * n[1] + dz * n[2]).toBeCloseTo(ref, 6);
        }
      }),
      { seed: 42, numRuns: 600 },
    );
    expect(separated).toBeGreaterThan(200);
  });

  it('box–box: intersecting boxes are reported as such', () => {
    fc.assert(
      fc.property(boxArb, boxArb, (a, b) => {
        // move b's centre inside a: always intersecting
        b[0] = a[0] + 0.5 * a[12] * a[3];
        b[1] = a[1] + 0.5 * a[12] * a[4];
        b[2] = a[2] + 0.5 * a[12] * a[5];
        expect(gjkDistance(GJK_BOX, a, 0, GJK_BOX, b, 0)).toBe(-1);
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('triangle–box and point–box match brute force', () => {
    // millesimal coordinates: no denormal-sized triangles (not a case for a game mesh)
    const triArb = fc.array(
      fc.integer({ min: -3000, max: 3000 }).map((x) => x / 1000),
      { minLength: 9, maxLength: 9 },
    );
    let n = 0;
    fc.assert(
      fc.property(triArb, boxArb, (tri0, b) => {
        const f32 = new Float32Array(tri0);
        const tri = [...f32];
        const t = new Float64Array(f32);
        const r = gjkDistance(GJK_TRIANGLE, t, 0, GJK_BOX, b, 0);
        if (r < 0) {
          // intersecting: the BVH's triangle–box separating-axis test must agree (unless degenerate)
          if (!isDegenerateTriangle(tri[0], tri[1], tri[2], tri[3], tri[4], tri[5], tri[6], tri[7], tri[8])) {
            expect(meshObbIntersects(new MeshBVH(f32), null, b)).toBe(true);
          }
          return;
        }
        const ref = triangleBoxDistance(t, b);
        if (ref < 1e-6) return;
        n++;
        expect(Math.abs(gjk.result[GJK_DISTANCE] - ref)).toBeLessThan(1e-7 * (1 + ref));
        expect(gjk.result[GJK_SEPARATION]).toBeLessThanOrEqual(ref + 1e-9 * (1 + ref));
        const p = new Float64Array(tri.slice(0, 3));
        const rp = gjkDistance(GJK_POINT, p, 0, GJK_BOX, b, 0);
        const refp = pointBoxDistance(tri.slice(0, 3), b);
        if (refp > 1e-9) {
          expect(rp).toBe(1);
          expect(Math.abs(gjk.result[GJK_DISTANCE] - refp)).toBeLessThan(1e-9 * (1 + refp));
        }
      }),
      { seed: 42, numRuns: 800 },
    );
    expect(n).toBeGreaterThan(150);
  });

  it('2-D boxes (zero z extent) match brute force', () => {
    const arb2 = fc.record({
      c: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 2, maxLength: 2 }),
      h: fc.array(fc.double({ min: 0.01, max: 1.5, noNaN: true }), { minLength: 2, maxLength: 2 }),
      a: fc.double({ min: -4, max: 4, noNaN: true }),
    });
    const box2 = (x: { c: number[]; h: number[]; a: number }) => {
      const q = [0, 0, Math.sin(x.a / 2), Math.cos(x.a / 2)];
      const o = new Float64Array(15);
      o.set([x.c[0], x.c[1], 0], 0);
      quatToAxes(q, 0, o, 3);
      o.set([x.h[0], x.h[1], 0], 12);
      return o;
    };
    fc.assert(
      fc.property(arb2, arb2, (x, y) => {
        const a = box2(x);
        const b = box2(y);
        const r = gjkDistance(GJK_BOX, a, 0, GJK_BOX, b, 0);
        const ref = boxBoxDistance(a, b);
        if (r < 0) {
          expect(ref).toBeLessThan(1e-6);
          return;
        }
        if (ref > 1e-6) {
          expect(Math.abs(gjk.result[GJK_DISTANCE] - ref)).toBeLessThan(1e-7 * (1 + ref));
          expect(Math.abs(gjk.normal[2])).toBeLessThan(1e-12);
        }
      }),
      { seed: 42, numRuns: 400 },
    );
  });
});
