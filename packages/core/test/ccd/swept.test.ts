import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CcdShape,
  type CcdShape2D,
  containsBounds,
  createMotion,
  createMotion2D,
  maxDisplacement,
  motion2FromPoses,
  motionFromPoses,
  obbToAabb,
  poseAtTime,
  poseAtTime2D,
  randomRotationQuat,
  rotationBound,
  sweptBounds,
  sweptBounds2D,
} from '../../src/index.js';
import { bodyAt, boxCorners, placeAt, placeAt2, rng, slabMesh } from './reference.js';

const MESH = slabMesh([-0.1, -1, -0.5], [0.3, 1.5, 0.5]);

function aabbOf(shape: CcdShape, m: ReturnType<typeof createMotion>, dt: number, t: number): number[] {
  const p = placeAt(shape, m, dt, t);
  if (p.kind === 'sphere')
    return [p.c[0] - p.r, p.c[1] - p.r, p.c[2] - p.r, p.c[0] + p.r, p.c[1] + p.r, p.c[2] + p.r];
  if (p.kind === 'box') return [...obbToAabb(p.obb, 0, new Float64Array(6))];
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  const v = p.bvh.positions;
  const e = p.matrix;
  for (let i = 0; i < v.length; i += 3) {
    for (let j = 0; j < 3; j++) {
      const w = e[j] * v[i] + e[4 + j] * v[i + 1] + e[8 + j] * v[i + 2] + e[12 + j];
      box[j] = Math.min(box[j], w);
      box[3 + j] = Math.max(box[3 + j], w);
    }
  }
  return box;
}

function grown(b: ArrayLike<number>, d: number, eps: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < d; i++) out.push(b[i] - eps);
  for (let i = 0; i < d; i++) out.push(b[d + i] + eps);
  return out;
}

describe('sweptBounds', () => {
  it('contains the shape at every sampled time (3-D, rotation and offsets)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
        const r = rng(seed);
        const kind = ['sphere', 'box', 'mesh'][Math.floor(3 * r())];
        const offset = r() < 0.5 ? [r() - 0.5, r() - 0.5, r() - 0.5] : undefined;
        const shape: CcdShape =
          kind === 'sphere'
            ? { kind: 'sphere', radius: 0.1 + r(), offset }
            : kind === 'box'
              ? {
                  kind: 'box',
                  halfExtents: [r(), r(), r()],
                  offset,
                  orientation: randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]),
                }
              : { kind: 'mesh', bvh: MESH, offset };
        const m = createMotion();
        m.position.set([r() * 4 - 2, r() * 4 - 2, r() * 4 - 2]);
        randomRotationQuat(r(), r(), r(), m.quaternion);
        m.linearVelocity.set([r() * 10 - 5, r() * 10 - 5, r() * 10 - 5]);
        const spin = r() < 0.3 ? 0 : 8 * r();
        const axis = randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]);
        m.angularVelocity.set([axis[0] * spin, axis[1] * spin, axis[2] * spin]);
        const dt = 0.5;
        const box = sweptBounds(shape, m, dt, new Float64Array(6));
        const fat = grown(box, 3, 1e-9);
        for (let k = 0; k <= 200; k++)
          expect(containsBounds(fat, aabbOf(shape, m, dt, k / 200), 3)).toBe(true);
        // a margin grows every side
        const withMargin = sweptBounds(shape, m, dt, new Float64Array(8), 0.25, 2);
        for (let i = 0; i < 3; i++) {
          expect(withMargin[2 + i]).toBeCloseTo(box[i] - 0.25, 12);
          expect(withMargin[5 + i]).toBeCloseTo(box[3 + i] + 0.25, 12);
        }
      }),
      { seed: 42, numRuns: 80 },
    );
  });

  it('is exactly the hull of the start and end boxes for a pure translation', () => {
    const shape: CcdShape = {
      kind: 'box',
      halfExtents: [1, 0.5, 0.25],
      orientation: [0, 0, Math.sin(0.3), Math.cos(0.3)],
    };
    const m = createMotion();
    m.position.set([1, 2, 3]);
    m.linearVelocity.set([10, -4, 0]);
    const box = sweptBounds(shape, m, 0.1, new Float64Array(6));
    const a = aabbOf(shape, m, 0.1, 0);
    const b = aabbOf(shape, m, 0.1, 1);
    for (let i = 0; i < 3; i++) {
      expect(box[i]).toBeCloseTo(Math.min(a[i], b[i]), 12);
      expect(box[3 + i]).toBeCloseTo(Math.max(a[3 + i], b[3 + i]), 12);
    }
  });

  it('a fast spinner is bounded by its swept bounding sphere', () => {
    const shape: CcdShape = { kind: 'box', halfExtents: [2, 0.1, 0.1] };
    const m = createMotion();
    m.angularVelocity.set([0, 0, 100]);
    const box = sweptBounds(shape, m, 1, new Float64Array(6));
    const R = Math.hypot(2, 0.1, 0.1);
    expect(box[0]).toBeCloseTo(-R, 12);
    expect(box[5]).toBeCloseTo(R, 12);
  });

  it('contains the shape at every sampled time (2-D)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
        const r = rng(seed);
        const offset = r() < 0.5 ? [r() - 0.5, r() - 0.5] : undefined;
        const shape: CcdShape2D =
          r() < 0.5
            ? { kind: 'circle', radius: 0.1 + r(), offset }
            : { kind: 'box', halfExtents: [r(), r()], offset, angle: 6 * r() };
        const m = createMotion2D();
        m.position.set([r() * 4 - 2, r() * 4 - 2]);
        m.angle = 6 * r();
        m.linearVelocity.set([r() * 10 - 5, r() * 10 - 5]);
        m.angularVelocity = r() < 0.3 ? 0 : 8 * (r() - 0.5);
        const box = sweptBounds2D(shape, m, 0.5, new Float64Array(4));
        const fat = grown(box, 2, 1e-9);
        for (let k = 0; k <= 200; k++) {
          const p = placeAt2(shape, m, 0.5, k / 200);
          let b: number[];
          if (p.kind === 'circle') b = [p.c[0] - p.r, p.c[1] - p.r, p.c[0] + p.r, p.c[1] + p.r];
          else {
            const o = p.obb;
            const ex = Math.abs(o[2]) * o[6] + Math.abs(o[4]) * o[7];
            const ey = Math.abs(o[3]) * o[6] + Math.abs(o[5]) * o[7];
            b = [o[0] - ex, o[1] - ey, o[0] + ex, o[1] + ey];
          }
          expect(containsBounds(fat, b, 2)).toBe(true);
        }
      }),
      { seed: 42, numRuns: 80 },
    );
  });

  it('rejects bad input', () => {
    const m = createMotion();
    expect(() => sweptBounds({ kind: 'sphere', radius: 1 }, m, -1, new Float64Array(6))).toThrow(
      /sweptBounds: dt/,
    );
    expect(() => sweptBounds({ kind: 'sphere', radius: 1 }, m, 1, new Float64Array(6), Number.NaN)).toThrow(
      /margin/,
    );
    expect(() => sweptBounds({ kind: 'sphere', radius: 1 }, m, 1, new Float64Array(5))).toThrow(
      /out needs 6 numbers/,
    );
    expect(() => sweptBounds({ kind: 'sphere', radius: Number.NaN }, m, 1, new Float64Array(6))).toThrow(
      /shape\.radius/,
    );
    m.position[0] = Number.NaN;
    expect(() => sweptBounds({ kind: 'sphere', radius: 1 }, m, 1, new Float64Array(6))).toThrow(
      /motion\.position\[0\]/,
    );
  });
});

describe('motion helpers', () => {
  it('motionFromPoses then poseAtTime(1) returns the end pose; poseAtTime matches the reference path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
        const r = rng(seed);
        const p0 = [r(), r(), r()];
        const p1 = [r() * 5, r() * 5, r() * 5];
        const q0 = randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]);
        const q1 = randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]);
        const m = motionFromPoses(createMotion(), p0, q0, p1, q1, 0.02);
        const pos = new Float64Array(3);
        const q = new Float64Array(4);
        poseAtTime(m, 0.02, 1, pos, q);
        for (let i = 0; i < 3; i++) expect(pos[i]).toBeCloseTo(p1[i], 12);
        const s = Math.sign(q[0] * q1[0] + q[1] * q1[1] + q[2] * q1[2] + q[3] * q1[3]);
        for (let i = 0; i < 4; i++) expect(s * q[i]).toBeCloseTo(q1[i], 9);
        // the shortest rotation: at most π
        expect(
          Math.hypot(m.angularVelocity[0], m.angularVelocity[1], m.angularVelocity[2]) * 0.02,
        ).toBeLessThanOrEqual(Math.PI + 1e-12);
        // mid-frame pose = the reference model's (Rodrigues) pose
        poseAtTime(m, 0.02, 0.37, pos, q);
        const ref = bodyAt(m, 0.02, 0.37);
        const shape: CcdShape = { kind: 'box', halfExtents: [1, 2, 3] };
        const mq = createMotion();
        mq.position.set(pos);
        mq.quaternion.set(q);
        const a = placeAt(shape, mq, 0, 0);
        if (a.kind !== 'box') throw new Error('box');
        const want = [ref.R[0], ref.R[3], ref.R[6]];
        for (let i = 0; i < 3; i++) {
          expect(a.obb[i]).toBeCloseTo(ref.p[i], 12);
          expect(a.obb[3 + i]).toBeCloseTo(want[i], 9);
        }
      }),
      { seed: 42, numRuns: 100 },
    );
  });

  it('2-D: motion2FromPoses and poseAtTime2D', () => {
    const m = motion2FromPoses(createMotion2D(), [1, 2], 0.5, [4, -2], 2.5, 2);
    expect([...m.linearVelocity]).toEqual([1.5, -2]);
    expect(m.angularVelocity).toBe(1);
    const p = new Float64Array(2);
    expect(poseAtTime2D(m, 2, 0.5, p)).toBeCloseTo(1.5, 12);
    expect([...p]).toEqual([2.5, 0]);
    expect(() => motion2FromPoses(createMotion2D(), [0, 0], 0, [1, 1], 0, 0)).toThrow(
      /dt must be a finite number > 0/,
    );
    expect(() =>
      motionFromPoses(createMotion(), [0, 0, 0], [0, 0, 0, 0], [0, 0, 0], [0, 0, 0, 1], 1),
    ).toThrow(/q0 must not be a zero quaternion/);
  });

  it('maxDisplacement bounds how far any corner moves; rotationBound is Eq. 33’s L', () => {
    const shape: CcdShape = { kind: 'box', halfExtents: [1, 0.5, 0.2], offset: [0.5, 0, 0] };
    expect(rotationBound(shape)).toBeCloseTo(0.5 + Math.hypot(1, 0.5, 0.2), 12);
    expect(rotationBound({ kind: 'sphere', radius: 3 })).toBe(0);
    const m = createMotion();
    m.linearVelocity.set([3, 0, 0]);
    m.angularVelocity.set([0, 2, 1]);
    const dmax = maxDisplacement(shape, m, 0.5);
    const c0 = boxCorners((placeAt(shape, m, 0.5, 0) as { obb: Float64Array }).obb);
    for (let k = 1; k <= 50; k++) {
      const c = boxCorners((placeAt(shape, m, 0.5, k / 50) as { obb: Float64Array }).obb);
      for (let i = 0; i < 8; i++) {
        expect(Math.hypot(c[i][0] - c0[i][0], c[i][1] - c0[i][1], c[i][2] - c0[i][2])).toBeLessThanOrEqual(
          dmax + 1e-12,
        );
      }
    }
    expect(containsBounds([0, 0, 2, 2], [0, 0.5, 2, 1], 2)).toBe(true);
    expect(containsBounds([0, 0, 2, 2], [-0.1, 0.5, 2, 1], 2)).toBe(false);
  });
});
