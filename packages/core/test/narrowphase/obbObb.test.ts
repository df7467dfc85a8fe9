import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createContact,
  createContact2,
  createObb,
  obbAabbContact,
  obbAabbOverlap,
  obbFromAabb,
  obbObbContact,
  obbObbContact2D,
  obbObbOverlap,
  obbObbOverlap2D,
  obbObbOverlapUnchecked,
  quatToAxes,
  randomRotationQuat,
} from '../../src/index.js';
import { rng } from './exact.js';

/** The 8 corners of an OBB (15-number layout). */
function corners(o: ArrayLike<number>): number[][] {
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

/**
 * Reference (seeds/002's method): project the 8 corners of each box on each of the 15 axes (cross products
 * normalized, degenerate ones skipped) and return the largest gap between the intervals (> 0: separated).
 */
function referenceGap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const axes: number[][] = [];
  for (let i = 0; i < 3; i++) axes.push([a[3 + 3 * i], a[4 + 3 * i], a[5 + 3 * i]]);
  for (let j = 0; j < 3; j++) axes.push([b[3 + 3 * j], b[4 + 3 * j], b[5 + 3 * j]]);
  for (let i = 0; i < 3; i++)
    for (let j = 3; j < 6; j++) {
      const u = axes[i];
      const v = axes[j];
      const c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const len = Math.hypot(c[0], c[1], c[2]);
      if (len > 1e-9) axes.push(c.map((x) => x / len));
    }
  const ca = corners(a);
  const cb = corners(b);
  let gap = Number.NEGATIVE_INFINITY;
  for (const L of axes) {
    const pa = ca.map((p) => p[0] * L[0] + p[1] * L[1] + p[2] * L[2]);
    const pb = cb.map((p) => p[0] * L[0] + p[1] * L[1] + p[2] * L[2]);
    gap = Math.max(gap, Math.min(...pa) - Math.max(...pb), Math.min(...pb) - Math.max(...pa));
  }
  return gap;
}

function randomObb(random: () => number, spread: number, size: number): Float64Array {
  const o = createObb();
  quatToAxes(randomRotationQuat(random(), random(), random(), [0, 0, 0, 0]), 0, o, 3);
  for (let i = 0; i < 3; i++) {
    o[i] = (2 * random() - 1) * spread;
    o[12 + i] = size * random();
  }
  return o;
}

/** An OBB rotated by angle θ about z (so its z edges are parallel to the world z axis). */
function zRotated(cx: number, cy: number, cz: number, th: number, h: number[]): Float64Array {
  const c = Math.cos(th);
  const s = Math.sin(th);
  return new Float64Array([cx, cy, cz, c, s, 0, -s, c, 0, 0, 0, 1, h[0], h[1], h[2]]);
}

describe('OBB–OBB overlap (15 axes)', () => {
  it('agrees with the corner-projection reference on random boxes, outside a 1e-6 band', () => {
    const random = rng(1);
    let overlaps = 0;
    let n = 0;
    for (let k = 0; k < 4000; k++) {
      const a = randomObb(random, 4, 3);
      const b = randomObb(random, 4, 3);
      const gap = referenceGap(a, b);
      const got = obbObbOverlap(a, b);
      expect(obbObbOverlapUnchecked(a, 0, b, 0)).toBe(got);
      expect(obbObbOverlap(b, a)).toBe(got);
      if (Math.abs(gap) < 1e-6 * 20) continue;
      expect(got).toBe(gap <= 0);
      overlaps += +got;
      n++;
    }
    expect(n).toBeGreaterThan(3900);
    expect(overlaps).toBeGreaterThan(500);
    expect(n - overlaps).toBeGreaterThan(500);
  });

  it('parallel edges: boxes sharing an edge direction, separated or not by an edge–edge axis', () => {
    // Two boxes rotated about z: their z edges are parallel, so the A_z × B_z axis is degenerate.
    const random = rng(2);
    for (let k = 0; k < 2000; k++) {
      const a = zRotated(0, 0, 0, 2 * Math.PI * random(), [1 + random(), 1 + random(), 1]);
      const b = zRotated(6 * random() - 3, 6 * random() - 3, 4 * random() - 2, 2 * Math.PI * random(), [
        random() + 0.2,
        random() + 0.2,
        0.5,
      ]);
      const gap = referenceGap(a, b);
      if (Math.abs(gap) < 1e-5) continue;
      expect(obbObbOverlap(a, b)).toBe(gap <= 0);
    }
    // identical orientation (all edge pairs parallel): an AABB test in the common frame, exact
    const a = zRotated(0, 0, 0, 0.3, [1, 2, 3]);
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    const at = (x: number, y: number, z: number) =>
      zRotated(x * c - y * s, x * s + y * c, z, 0.3, [0.5, 0.5, 0.5]);
    expect(obbObbOverlap(a, at(1.4, 0, 0))).toBe(true);
    expect(obbObbOverlap(a, at(1.6, 0, 0))).toBe(false);
    expect(obbObbOverlap(a, at(0, 2.6, 3.6))).toBe(false);
    expect(obbObbOverlap(a, at(0, 2.4, 3.4))).toBe(true);
  });

  it('parallel edges with float32-stored axes (orthonormal to ~1e-7): no false separation', () => {
    const random = rng(22);
    let overlapping = 0;
    for (let k = 0; k < 2000; k++) {
      const th = 2 * Math.PI * random();
      const a = Float64Array.from(new Float32Array(zRotated(0, 0, 0, th, [1, 1 + random(), 1])));
      // B shares the z edge direction and, half of the time, A's orientation exactly (all edges parallel)
      const b = Float64Array.from(
        new Float32Array(
          zRotated(
            3 * random() - 1.5,
            3 * random() - 1.5,
            2 * random() - 1,
            random() < 0.5 ? th : 6 * random(),
            [0.5, 0.5, 0.5],
          ),
        ),
      );
      const gap = referenceGap(a, b);
      if (gap < -1e-4) {
        overlapping++;
        expect(obbObbOverlap(a, b)).toBe(true);
      } else if (gap > 1e-4) {
        expect(obbObbOverlap(a, b)).toBe(false);
      }
    }
    expect(overlapping).toBeGreaterThan(500);
  });

  it('touching faces count as overlap; a small gap separates (axis-aligned, exact)', () => {
    const a = obbFromAabb(createObb(), [0, 0, 0], [1, 1, 1]);
    const b = obbFromAabb(createObb(), [1, 0.25, 0.25], [2, 0.75, 0.75]);
    expect(obbObbOverlap(a, b)).toBe(true);
    const c = obbFromAabb(createObb(), [1.001, 0, 0], [2, 1, 1]);
    expect(obbObbOverlap(a, c)).toBe(false);
    // a box with zero extents (a point) inside and outside
    expect(obbObbOverlap(a, obbFromAabb(createObb(), [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]))).toBe(true);
    expect(obbObbOverlap(a, obbFromAabb(createObb(), [1.5, 0.5, 0.5], [1.5, 0.5, 0.5]))).toBe(false);
  });

  it('an edge–edge separating axis is found (crossed bars)', () => {
    // Two long thin bars crossing at right angles, rotated 45° about their own axes, one above the other:
    // only an edge–edge axis separates them when the gap is small.
    const q1 = [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)]; // 45° about x
    const q2 = [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)]; // 45° about y
    const a = createObb();
    const b = createObb();
    quatToAxes(q1, 0, a, 3);
    quatToAxes(q2, 0, b, 3);
    a.set([10, 1, 1], 12);
    b.set([1, 10, 1], 12);
    // each bar's diamond cross-section reaches √2 from its axis; bars touch when centres are 2√2 apart in z
    b[2] = 2 * Math.SQRT2 + 1e-3;
    expect(obbObbOverlap(a, b)).toBe(false);
    expect(referenceGap(a, b)).toBeGreaterThan(0);
    b[2] = 2 * Math.SQRT2 - 1e-3;
    expect(obbObbOverlap(a, b)).toBe(true);
  });

  it('OBB–AABB equals OBB–OBB with the AABB as an OBB', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (seed) => {
        const random = rng(seed);
        const o = randomObb(random, 3, 2);
        const min = [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2];
        const max = min.map((x) => x + 2 * random());
        const box = obbFromAabb(createObb(), min, max);
        expect(obbAabbOverlap(o, min, max)).toBe(obbObbOverlap(box, o));
        const c1 = createContact();
        const c2 = createContact();
        expect(obbAabbContact(o, min, max, c1)).toBe(obbObbContact(o, box, c2));
        expect([...c1]).toEqual([...c2]);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe('OBB–OBB contact', () => {
  it('face contact: normal of the reference face, exact depth, point between the surfaces', () => {
    const a = obbFromAabb(createObb(), [-1, -1, -1], [1, 1, 1]);
    const b = obbFromAabb(createObb(), [0.5, -0.5, -0.5], [2.5, 0.5, 0.5]);
    const out = createContact();
    expect(obbObbContact(a, b, out)).toBe(true);
    expect([...out.subarray(0, 4)]).toEqual([1, 0, 0, 0.5]);
    expect(out[4]).toBeCloseTo(0.75, 12);
    expect(Math.abs(out[5])).toBeLessThanOrEqual(0.5);
    // swapped: normal flips
    expect(obbObbContact(b, a, out)).toBe(true);
    expect([...out.subarray(0, 4)]).toEqual([-1, 0, 0, 0.5]);
  });

  it('moving B by the depth along the normal separates it (just), by less does not', () => {
    const random = rng(12);
    const out = createContact();
    let tested = 0;
    for (let k = 0; k < 1500; k++) {
      const a = randomObb(random, 2, 2);
      const b = randomObb(random, 2, 2);
      if (!obbObbContact(a, b, out)) {
        expect(out[3]).toBeLessThan(0);
        continue;
      }
      const [nx, ny, nz, depth] = out;
      expect(Math.hypot(nx, ny, nz)).toBeCloseTo(1, 12);
      expect(nx * (b[0] - a[0]) + ny * (b[1] - a[1]) + nz * (b[2] - a[2])).toBeGreaterThanOrEqual(0);
      expect(depth).toBeGreaterThanOrEqual(0);
      const moved = b.slice();
      const push = (d: number) => {
        moved[0] = b[0] + nx * d;
        moved[1] = b[1] + ny * d;
        moved[2] = b[2] + nz * d;
        return referenceGap(a, moved);
      };
      expect(push(depth + 1e-6)).toBeGreaterThan(0);
      // the least-penetration axis (or a face axis within 5 % of it) is used: a shorter push never separates
      expect(push(0.9 * depth - 1e-9)).toBeLessThanOrEqual(1e-9);
      tested++;
    }
    expect(tested).toBeGreaterThan(300);
  });

  it('edge–edge contact: crossed bars report the edge axis and a point between the edges', () => {
    const a = createObb();
    const b = createObb();
    quatToAxes([Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)], 0, a, 3);
    quatToAxes([0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)], 0, b, 3);
    a.set([10, 1, 1], 12);
    b.set([1, 10, 1], 12);
    b[2] = 2 * Math.SQRT2 - 0.01;
    const out = createContact();
    expect(obbObbContact(a, b, out)).toBe(true);
    expect(out[0]).toBeCloseTo(0, 9);
    expect(out[1]).toBeCloseTo(0, 9);
    expect(out[2]).toBeCloseTo(1, 9);
    expect(out[3]).toBeCloseTo(0.01, 9);
    expect(out[4]).toBeCloseTo(0, 9);
    expect(out[5]).toBeCloseTo(0, 9);
    expect(out[6]).toBeCloseTo(Math.SQRT2 - 0.005, 9);
  });

  it('bad input gets a clear error', () => {
    const good = createObb();
    const bad = createObb();
    bad[13] = -1;
    expect(() => obbObbOverlap(good, bad)).toThrow(/b half extents\[1\]/);
    bad[13] = 1;
    bad[4] = 0.5;
    expect(() => obbObbOverlap(bad, good)).toThrow(/a axes.*orthonormal/);
    expect(() => obbObbOverlap(good, good, 0, 0, -1)).toThrow(/epsilon/);
    expect(() => obbObbContact(good, good, new Float64Array(5))).toThrow(/out needs 7/);
    expect(() => obbAabbOverlap(good, [0, 0, 0], [1, Number.NaN, 1])).toThrow(/max\[1\]/);
  });
});

describe('2-D OBB–OBB', () => {
  function rect(cx: number, cy: number, th: number, hx: number, hy: number): number[] {
    return [cx, cy, Math.cos(th), Math.sin(th), -Math.sin(th), Math.cos(th), hx, hy];
  }
  function gap2(a: number[], b: number[]): number {
    const cs = (o: number[]) =>
      [-1, 1].flatMap((sx) =>
        [-1, 1].map((sy) => [
          o[0] + sx * o[6] * o[2] + sy * o[7] * o[4],
          o[1] + sx * o[6] * o[3] + sy * o[7] * o[5],
        ]),
      );
    const axes = [
      [a[2], a[3]],
      [a[4], a[5]],
      [b[2], b[3]],
      [b[4], b[5]],
    ];
    let g = Number.NEGATIVE_INFINITY;
    for (const L of axes) {
      const pa = cs(a).map((p) => p[0] * L[0] + p[1] * L[1]);
      const pb = cs(b).map((p) => p[0] * L[0] + p[1] * L[1]);
      g = Math.max(g, Math.min(...pa) - Math.max(...pb), Math.min(...pb) - Math.max(...pa));
    }
    return g;
  }
  it('agrees with corner projection; contact normal and depth', () => {
    const random = rng(9);
    const out = createContact2();
    for (let k = 0; k < 3000; k++) {
      const a = rect(0, 0, 6 * random(), 0.2 + random(), 0.2 + random());
      const b = rect(4 * random() - 2, 4 * random() - 2, 6 * random(), 0.2 + random(), 0.2 + random());
      const g = gap2(a, b);
      const hit = obbObbContact2D(a, b, out);
      expect(obbObbOverlap2D(a, b)).toBe(hit);
      if (Math.abs(g) > 1e-9) expect(hit).toBe(g <= 0);
      if (hit) {
        expect(out[2]).toBeCloseTo(-g, 9);
        expect(out[0] * b[0] + out[1] * b[1]).toBeGreaterThanOrEqual(0);
      } else {
        expect(out[2]).toBeCloseTo(-g, 9);
      }
    }
    expect(obbObbContact2D(rect(0, 0, 0, 1, 1), rect(1.5, 0.25, 0, 1, 0.5), out)).toBe(true);
    expect([...out]).toEqual([1, 0, 0.5, 0.75, expect.any(Number)]);
    expect(() => obbObbOverlap2D([0, 0, 1, 0, 0, 1, 1], rect(0, 0, 0, 1, 1))).toThrow(/a needs 8/);
  });
});
