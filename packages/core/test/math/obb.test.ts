import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createObb,
  createObb2,
  cross3,
  dot3,
  length3,
  OBB_SIZE,
  obb2FromLocalAabb,
  obb2FromLocalAabbMatrix,
  obbFromAabb,
  obbFromLocalAabb,
  obbFromLocalAabbMatrix,
  obbToAabb,
  orthonormalityError,
  quatToAxes,
  randomRotationQuat,
  setObb,
  validateObb,
  validateObb2,
} from '../../src/index.js';
import { rng } from '../narrowphase/exact.js';

/** three.js Matrix4.compose(position, quaternion, scale), column-major elements. */
function compose(p: number[], q: number[], s: number[]): number[] {
  const e = quatToAxes(q, 0, new Array(9).fill(0), 0);
  // biome-ignore format: matrix layout
  return [
    e[0] * s[0], e[1] * s[0], e[2] * s[0], 0,
    e[3] * s[1], e[4] * s[1], e[5] * s[1], 0,
    e[6] * s[2], e[7] * s[2], e[8] * s[2], 0,
    p[0], p[1], p[2], 1,
  ];
}

function transform(m: number[], v: number[]): number[] {
  return [0, 1, 2].map((i) => m[i] * v[0] + m[4 + i] * v[1] + m[8 + i] * v[2] + m[12 + i]);
}

/** The 8 corners of an OBB as a sorted list of rounded strings (for set comparison). */
function cornerSet(o: ArrayLike<number>, oo = 0): string[] {
  const out: string[] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const s = [sx, sy, sz];
        const p = [o[oo], o[oo + 1], o[oo + 2]];
        for (let k = 0; k < 3; k++)
          for (let j = 0; j < 3; j++) p[j] += s[k] * o[oo + 12 + k] * o[oo + 3 + 3 * k + j];
        out.push(p.map((x) => (Math.abs(x) < 1e-9 ? 0 : x).toFixed(6)).join(','));
      }
  return out.sort();
}

function transformedCorners(m: number[], min: number[], max: number[]): string[] {
  const out: string[] = [];
  for (const x of [min[0], max[0]])
    for (const y of [min[1], max[1]])
      for (const z of [min[2], max[2]])
        out.push(
          transform(m, [x, y, z])
            .map((v) => (Math.abs(v) < 1e-9 ? 0 : v).toFixed(6))
            .join(','),
        );
  return out.sort();
}

const vec = (lo: number, hi: number) =>
  fc.array(fc.double({ min: lo, max: hi, noNaN: true }), { minLength: 3, maxLength: 3 });

describe('OBB builders', () => {
  it('from position/quaternion/scale and from the composed matrix: same box, corners = transformed AABB', () => {
    fc.assert(
      fc.property(
        vec(-5, 5),
        vec(0, 3),
        vec(-10, 10),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (lo, size, p, q0, s0, neg) => {
          fc.pre(Math.hypot(...q0) > 0.1);
          const min = lo;
          const max = lo.map((x, i) => x + size[i]);
          const s = s0.map((x, i) => (neg[i] ? -x : x));
          const a = obbFromLocalAabb(createObb(), min, max, p, q0, s);
          const m = compose(p, q0, s);
          const b = obbFromLocalAabbMatrix(createObb(), min, max, m);
          expect(orthonormalityError(a, 3, 3)).toBeLessThan(1e-12);
          expect(orthonormalityError(b, 3, 3)).toBeLessThan(1e-12);
          expect(cornerSet(a)).toEqual(transformedCorners(m, min, max));
          expect(cornerSet(b)).toEqual(cornerSet(a));
          for (let k = 0; k < 3; k++) expect(a[12 + k]).toBeCloseTo(Math.abs(s[k]) * 0.5 * size[k], 12);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('zero scale gives a zero extent and a completed orthonormal basis', () => {
    const q = [0.1, 0.7, -0.3, 0.6];
    for (const s of [
      [0, 1, 2],
      [1, 0, 2],
      [1, 2, 0],
      [0, 0, 3],
      [0, 2, 0],
      [0, 0, 0],
    ]) {
      const m = compose([1, 2, 3], q, s);
      const o = obbFromLocalAabbMatrix(createObb(), [-1, -1, -1], [1, 1, 1], m);
      expect(orthonormalityError(o, 3, 3)).toBeLessThan(1e-12);
      for (let k = 0; k < 3; k++) expect(o[12 + k]).toBeCloseTo(s[k], 12);
      expect([o[0], o[1], o[2]]).toEqual([1, 2, 3]);
      expect(cornerSet(o)).toEqual(transformedCorners(m, [-1, -1, -1], [1, 1, 1]));
    }
  });

  it('rejects shear, non-affine matrices and bad boxes with clear errors', () => {
    const sheared = [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(() => obbFromLocalAabbMatrix(createObb(), [0, 0, 0], [1, 1, 1], sheared)).toThrow(
      /not orthogonal/,
    );
    const projective = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0];
    expect(() => obbFromLocalAabbMatrix(createObb(), [0, 0, 0], [1, 1, 1], projective)).toThrow(/affine/);
    expect(() => obbFromLocalAabb(createObb(), [0, 0, 0], [1, -1, 1], [0, 0, 0], [0, 0, 0, 1])).toThrow(
      /max\[1\].*min\[1\]/,
    );
    expect(() => obbFromLocalAabb(createObb(), [0, 0, 0], [1, 1, 1], [0, 0, 0], [0, 0, 0, 0])).toThrow(
      /quaternion/,
    );
    expect(() =>
      obbFromLocalAabb(createObb(), [0, 0, 0], [1, 1, 1], [0, Number.NaN, 0], [0, 0, 0, 1]),
    ).toThrow(/position\[1\]/);
    expect(() => obbFromAabb(new Float64Array(14), [0, 0, 0], [1, 1, 1])).toThrow(/out needs 15/);
    expect(() => setObb(createObb(), [0, 0, 0], [1, 0, 0, 1, 0, 0, 0, 0, 1], [1, 1, 1])).toThrow(
      /orthonormal/,
    );
  });

  it('writes at offsets in a packed array (the BVH layout)', () => {
    const packed = new Float64Array(3 * OBB_SIZE);
    obbFromAabb(packed, [0, 0, 0], [2, 4, 6], OBB_SIZE);
    obbFromLocalAabb(packed, [0, 0, 0], [1, 1, 1], [5, 0, 0], [0, 0, 0, 1], [1, 1, 1], 2 * OBB_SIZE);
    expect([...packed.subarray(0, OBB_SIZE)].every((x) => x === 0)).toBe(true);
    expect([...packed.subarray(OBB_SIZE, OBB_SIZE + 3)]).toEqual([1, 2, 3]);
    expect([...packed.subarray(OBB_SIZE + 12, 2 * OBB_SIZE)]).toEqual([1, 2, 3]);
    expect([...packed.subarray(2 * OBB_SIZE, 2 * OBB_SIZE + 3)]).toEqual([5.5, 0.5, 0.5]);
    expect(() => validateObb(packed, OBB_SIZE)).not.toThrow();
    expect(() => validateObb(packed, 0)).toThrow(/axes.*orthonormal/);
  });

  it('obbToAabb is the tight world box of the corners', () => {
    const random = rng(4);
    for (let k = 0; k < 200; k++) {
      const o = createObb();
      quatToAxes(randomRotationQuat(random(), random(), random(), [0, 0, 0, 0]), 0, o, 3);
      o.set([random() * 10, random() * 10, random() * 10], 0);
      o.set([random(), random() * 2, random() * 3], 12);
      const box = obbToAabb(o, 0, new Float64Array(6));
      const cs = cornerSet(o).map((c) => c.split(',').map(Number));
      for (let j = 0; j < 3; j++) {
        expect(box[j]).toBeCloseTo(Math.min(...cs.map((c) => c[j])), 5);
        expect(box[3 + j]).toBeCloseTo(Math.max(...cs.map((c) => c[j])), 5);
      }
    }
  });
});

describe('2-D OBB builders', () => {
  it('angle form and matrix form agree; scale folds into extents', () => {
    const random = rng(5);
    for (let k = 0; k < 200; k++) {
      const th = 6 * random();
      const s = [0.2 + random(), -(0.2 + random())];
      const p = [random() * 4, random() * 4];
      const min = [random() - 1, random() - 1];
      const max = [min[0] + random(), min[1] + random()];
      const a = obb2FromLocalAabb(createObb2(), min, max, p, th, s);
      const c = Math.cos(th);
      const sn = Math.sin(th);
      const m = [c * s[0], sn * s[0], 0, -sn * s[1], c * s[1], 0, p[0], p[1], 1];
      const b = obb2FromLocalAabbMatrix(createObb2(), min, max, m);
      expect(a[0]).toBeCloseTo(b[0], 12);
      expect(a[1]).toBeCloseTo(b[1], 12);
      expect(a[6]).toBeCloseTo(b[6], 12);
      expect(a[7]).toBeCloseTo(b[7], 12);
      expect(Math.abs(a[2] * b[2] + a[3] * b[3])).toBeCloseTo(1, 12);
      expect(() => validateObb2(a)).not.toThrow();
      expect(() => validateObb2(b)).not.toThrow();
    }
    expect(() =>
      obb2FromLocalAabbMatrix(createObb2(), [0, 0], [1, 1], [1, 0, 0, 0.5, 1, 0, 0, 0, 1]),
    ).toThrow(/not orthogonal/);
    const z = obb2FromLocalAabbMatrix(createObb2(), [0, 0], [1, 1], [0, 0, 0, 0, 2, 0, 0, 0, 1]);
    expect([...z]).toEqual([0, 1, 1, 0, 0, 1, 0, 1]);
  });
});

describe('vector and quaternion helpers', () => {
  it('quatToAxes gives a right-handed orthonormal basis for any non-zero quaternion', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 4, maxLength: 4 }),
        (q) => {
          fc.pre(Math.hypot(...q) > 1e-3);
          const e = quatToAxes(q, 0, new Float64Array(9), 0);
          expect(orthonormalityError(e, 0, 3)).toBeLessThan(1e-12);
          const c = cross3(new Float64Array(3), 0, e, 0, e, 3);
          expect(dot3(c, 0, e, 6)).toBeCloseTo(1, 12);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
    expect(
      [...quatToAxes([0, 0, Math.SQRT1_2, Math.SQRT1_2], 0, new Float64Array(9), 0)].map((x) =>
        Math.round(x),
      ),
    ).toEqual([0, 1, 0, -1, 0, 0, 0, 0, 1]);
  });

  it('randomRotationQuat is unit and uniform (the rotated x axis averages to 0, |mean| ≈ 1/√N)', () => {
    const random = rng(6);
    const q = new Float64Array(4);
    const e = new Float64Array(9);
    const mean = [0, 0, 0];
    const N = 20000;
    for (let k = 0; k < N; k++) {
      randomRotationQuat(random(), random(), random(), q);
      expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 12);
      quatToAxes(q, 0, e, 0);
      for (let j = 0; j < 3; j++) mean[j] += e[j] / N;
    }
    expect(length3(mean)).toBeLessThan(5 / Math.sqrt(N));
  });
});
