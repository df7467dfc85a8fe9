import { describe, expect, it } from 'vitest';
import {
  type CcdMotion,
  type CcdShape,
  createMotion,
  createMotion2D,
  createTimeOfImpactResult,
  createTimeOfImpactResult2D,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  TOI_SEPARATED,
  timeOfImpact,
  timeOfImpact2D,
} from '../../src/index.js';
import { overlaps, placeAt, slabMesh } from './reference.js';

function motion(
  p: number[],
  v: number[] = [0, 0, 0],
  w: number[] = [0, 0, 0],
  q: number[] = [0, 0, 0, 1],
): ReturnType<typeof createMotion> {
  const m = createMotion();
  m.position.set(p);
  m.linearVelocity.set(v);
  m.angularVelocity.set(w);
  m.quaternion.set(q);
  return m;
}

/** The discrete check a physics step does: overlap at the start and at the end of the frame only. */
function discreteHit(a: CcdShape, ma: CcdMotion, b: CcdShape, mb: CcdMotion, dt: number): boolean {
  return (
    overlaps(placeAt(a, ma, dt, 0), placeAt(b, mb, dt, 0)) ||
    overlaps(placeAt(a, ma, dt, 1), placeAt(b, mb, dt, 1))
  );
}

const dt = 1 / 60;
const out = createTimeOfImpactResult();

describe('timeOfImpact: the discrete step misses, continuous collision catches', () => {
  it('a small fast sphere against a thin box', () => {
    const bullet: CcdShape = { kind: 'sphere', radius: 0.05 };
    const wall: CcdShape = { kind: 'box', halfExtents: [0.05, 2, 2] };
    const mb = motion([0, 0, 0], [500, 0, 0]); // 8.33 units a frame
    const mw = motion([5, 0.3, 0]);
    expect(discreteHit(bullet, mb, wall, mw, dt)).toBe(false);
    expect(timeOfImpact(bullet, mb, wall, mw, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    const tol = 1e-3 * 0.05;
    // contact when the sphere's front reaches x = 4.95: centre at 4.9
    const tExact = 4.9 / (500 * dt);
    expect(out.t).toBeLessThanOrEqual(tExact);
    expect(out.t).toBeGreaterThan(tExact - tol / (500 * dt));
    expect(out.distance).toBeGreaterThanOrEqual(0);
    expect(out.distance).toBeLessThanOrEqual(tol);
    expect(out.normal[0]).toBeCloseTo(1, 9);
    expect(out.point[0]).toBeCloseTo(4.95, 4);
    expect(out.iterations).toBeLessThanOrEqual(4);
    // the same with the bodies swapped: the normal flips, the points swap
    expect(timeOfImpact(wall, mw, bullet, mb, { dt }, out)).toBe(true);
    expect(out.t).toBeLessThanOrEqual(tExact);
    expect(out.normal[0]).toBeCloseTo(-1, 9);
    expect(out.pointA[0]).toBeCloseTo(4.95, 4);
    expect(out.pointB[0]).toBeLessThan(4.95);
  });

  it('a box bullet against a thin box (GJK), the wall moving too', () => {
    const bullet: CcdShape = { kind: 'box', halfExtents: [0.05, 0.02, 0.02] };
    const wall: CcdShape = { kind: 'box', halfExtents: [0.05, 1, 1] };
    const s = Math.SQRT1_2;
    const mb = motion([0, 0, 0], [400, 10, 0], [0, 0, 30], [0, 0, Math.sin(0.2), Math.cos(0.2)]);
    const mw = motion([4, 0, 0], [-100, 0, 0], [0, 0, 0], [0, s, 0, s]);
    expect(discreteHit(bullet, mb, wall, mw, dt)).toBe(false);
    expect(timeOfImpact(bullet, mb, wall, mw, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    const a = placeAt(bullet, mb, dt, out.t);
    const b = placeAt(wall, mw, dt, out.t);
    expect(overlaps(a, b)).toBe(false);
    // just after, they do overlap
    expect(overlaps(placeAt(bullet, mb, dt, out.t + 0.01), placeAt(wall, mw, dt, out.t + 0.01))).toBe(true);
  });

  it('a spinning thin plank sweeping past a ball (angular motion only)', () => {
    const plank: CcdShape = { kind: 'box', halfExtents: [2, 0.02, 0.2] };
    const ball: CcdShape = { kind: 'sphere', radius: 0.1 };
    // 170° about z in one frame; the ball sits at 18.4° from the plank's start direction
    const w = (170 * Math.PI) / 180 / dt;
    const mp = motion([0, 0, 0], [0, 0, 0], [0, 0, w]);
    const mball = motion([1.5, 0.5, 0]);
    expect(discreteHit(plank, mp, ball, mball, dt)).toBe(false);
    expect(timeOfImpact(plank, mp, ball, mball, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    // reference: first overlap by fine sampling
    let first = -1;
    for (let k = 0; k <= 20000; k++) {
      if (overlaps(placeAt(plank, mp, dt, k / 20000), placeAt(ball, mball, dt, k / 20000))) {
        first = k / 20000;
        break;
      }
    }
    expect(first).toBeGreaterThan(0);
    expect(out.t).toBeLessThanOrEqual(first);
    expect(out.t).toBeGreaterThan(first - 0.002);
    expect(overlaps(placeAt(plank, mp, dt, out.t), placeAt(ball, mball, dt, out.t))).toBe(false);
  });

  it('a bullet through a thin trimesh wall (sphere and box bullets)', () => {
    const wall: CcdShape = { kind: 'mesh', bvh: slabMesh([4.95, -2, -2], [5.05, 2, 2]) };
    const mw = motion([0, 0, 0]);
    for (const bullet of [
      { kind: 'sphere', radius: 0.05 } as CcdShape,
      { kind: 'box', halfExtents: [0.05, 0.05, 0.05] } as CcdShape,
    ]) {
      const mb = motion([0, 0.2, 0.1], [500, 3, -2], [5, 7, 1]);
      expect(discreteHit(bullet, mb, wall, mw, dt)).toBe(false);
      expect(timeOfImpact(bullet, mb, wall, mw, { dt }, out)).toBe(true);
      expect(out.status).toBe(TOI_HIT);
      expect(overlaps(placeAt(bullet, mb, dt, out.t), placeAt(wall, mw, dt, out.t))).toBe(false);
      expect(overlaps(placeAt(bullet, mb, dt, out.t + 1e-3), placeAt(wall, mw, dt, out.t + 1e-3))).toBe(true);
      expect(out.normal[0]).toBeGreaterThan(0.99);
      expect(out.pointB[0]).toBeCloseTo(4.95, 5);
      // mesh first: same time, flipped normal
      const t = out.t;
      expect(timeOfImpact(wall, mw, bullet, mb, { dt }, out)).toBe(true);
      expect(out.t).toBe(t);
      expect(out.normal[0]).toBeLessThan(-0.99);
    }
  });

  it('a moving, turning mesh wall (offset and orientation) hits a resting box', () => {
    const s = Math.sin(Math.PI / 4);
    const wall: CcdShape = {
      kind: 'mesh',
      bvh: slabMesh([-0.05, -1, -1], [0.05, 1, 1]),
      offset: [0, 0, 1],
      orientation: [0, 0, s, Math.cos(Math.PI / 4)],
    };
    const mw = motion([0, -3, -1], [0, 600, 0], [0, 0, 20]);
    const box: CcdShape = { kind: 'box', halfExtents: [0.1, 0.1, 0.1] };
    const mbox = motion([0.2, 3, 0]);
    expect(timeOfImpact(box, mbox, wall, mw, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    expect(overlaps(placeAt(box, mbox, dt, out.t), placeAt(wall, mw, dt, out.t))).toBe(false);
    expect(overlaps(placeAt(box, mbox, dt, out.t + 0.01), placeAt(wall, mw, dt, out.t + 0.01))).toBe(true);
  });
});

describe('timeOfImpact: grazing passes and contact at the start', () => {
  it('a sphere passing a box at twice the tolerance is not a hit', () => {
    const tol = 1e-4;
    const ball: CcdShape = { kind: 'sphere', radius: 0.1 };
    const box: CcdShape = { kind: 'box', halfExtents: [0.5, 0.5, 0.5] };
    const mball = motion([-3, 0.6 + 2 * tol, 0], [600, 0, 0]);
    const mbox = motion([0, 0, 0]);
    expect(timeOfImpact(ball, mball, box, mbox, { dt, tolerance: tol }, out)).toBe(false);
    expect(out.status).toBe(TOI_SEPARATED);
    expect(out.t).toBe(1);
    // coming within 0.5·tol of the box's edge while approaching it: a contact (within tolerance)
    mball.position[1] = 0.6 + 0.5 * tol;
    expect(timeOfImpact(ball, mball, box, mbox, { dt, tolerance: tol }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    expect(out.distance).toBeLessThanOrEqual(tol);
    // a hair lower: a real contact, at the edge
    mball.position[1] = 0.6 - tol;
    expect(timeOfImpact(ball, mball, box, mbox, { dt, tolerance: tol }, out)).toBe(true);
    expect(out.pointB[0]).toBeCloseTo(-0.5, 3);
    // skimming along the top face at 0.5·tol (the closest points do not approach): not a hit
    mball.position[0] = -0.3;
    mball.position[1] = 0.6 + 0.5 * tol;
    mball.linearVelocity[0] = 0.6 / dt;
    expect(timeOfImpact(ball, mball, box, mbox, { dt, tolerance: tol }, out)).toBe(false);
  });

  it('a spinning plank whose tip passes just beyond a ball is not a hit; a bit closer, it is', () => {
    const tol = 1e-4;
    const plank: CcdShape = { kind: 'box', halfExtents: [2, 0.02, 0.02] };
    const ball: CcdShape = { kind: 'sphere', radius: 0.1 };
    const w = Math.PI / 2 / dt;
    const mp = motion([0, 0, 0], [0, 0, 0], [0, 0, w]);
    // the tip's farthest point sweeps a circle of radius hypot(2, 0.02); put the ball just outside it
    const reach = Math.hypot(2, 0.02);
    const mball = motion([0, reach + 0.1 + 3 * tol, 0]);
    expect(timeOfImpact(plank, mp, ball, mball, { dt, tolerance: tol }, out)).toBe(false);
    expect(out.status).toBe(TOI_SEPARATED);
    // the worst case of the rotation bound: ~100 steps (see options.maxIterations)
    expect(out.iterations).toBeGreaterThan(20);
    mball.position[1] = reach + 0.1 - 0.01;
    expect(timeOfImpact(plank, mp, ball, mball, { dt, tolerance: tol }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
  });

  it('bodies touching and approaching at the start: hit at t = 0', () => {
    const tol = 1e-4;
    const a: CcdShape = { kind: 'box', halfExtents: [0.5, 0.5, 0.5] };
    const b: CcdShape = { kind: 'sphere', radius: 0.25 };
    const ma = motion([0, 0, 0]);
    const mb = motion([0.75 + 0.5 * tol, 0, 0], [-10, 0, 0]);
    expect(timeOfImpact(a, ma, b, mb, { dt, tolerance: tol }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    expect(out.t).toBe(0);
    expect(out.normal[0]).toBeCloseTo(1, 12);
    // moving apart: no hit
    mb.linearVelocity[0] = 10;
    expect(timeOfImpact(a, ma, b, mb, { dt, tolerance: tol }, out)).toBe(false);
    // sliding along the face: no hit
    mb.linearVelocity[0] = 0;
    mb.linearVelocity[1] = 10;
    expect(timeOfImpact(a, ma, b, mb, { dt, tolerance: tol }, out)).toBe(false);
  });

  it('bodies overlapping at the start: overlap at t = 0 with the narrowphase contact', () => {
    const a: CcdShape = { kind: 'box', halfExtents: [0.5, 0.5, 0.5] };
    const b: CcdShape = { kind: 'sphere', radius: 0.25 };
    const mb = motion([0.7, 0, 0], [-10, 0, 0]);
    expect(timeOfImpact(a, motion([0, 0, 0]), b, mb, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_OVERLAP);
    expect(out.t).toBe(0);
    expect(out.normal[0]).toBeCloseTo(1, 12);
    expect(out.distance).toBeCloseTo(-0.05, 12);
    // box–box and box–mesh, sphere–sphere
    expect(timeOfImpact(a, motion([0, 0, 0]), a, motion([0.9, 0, 0]), { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_OVERLAP);
    expect(out.normal[0]).toBeCloseTo(1, 9);
    expect(out.distance).toBeCloseTo(-0.1, 9);
    const wall: CcdShape = { kind: 'mesh', bvh: slabMesh([0, -1, -1], [0.1, 1, 1]) };
    expect(timeOfImpact(a, motion([-0.45, 0, 0]), wall, motion([0, 0, 0]), { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_OVERLAP);
    expect(timeOfImpact(b, motion([0, 0, 0]), b, motion([0.4, 0, 0]), { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_OVERLAP);
    expect(out.distance).toBeCloseTo(-0.1, 12);
  });

  it('the iteration cap reports the last safe time, never a later one', () => {
    const plank: CcdShape = { kind: 'box', halfExtents: [2, 0.02, 0.02] };
    const ball: CcdShape = { kind: 'sphere', radius: 0.1 };
    const mp = motion([0, 0, 0], [0, 0, 0], [0, 0, Math.PI / dt]);
    const mball = motion([0, 1, 0]);
    expect(timeOfImpact(plank, mp, ball, mball, { dt, maxIterations: 2 }, out)).toBe(true);
    expect(out.status).toBe(TOI_ITERATION_LIMIT);
    const tCap = out.t;
    expect(timeOfImpact(plank, mp, ball, mball, { dt }, out)).toBe(true);
    expect(out.status).toBe(TOI_HIT);
    expect(tCap).toBeLessThanOrEqual(out.t);
  });
});

describe('timeOfImpact2D', () => {
  const out2 = createTimeOfImpactResult2D();
  it('a fast circle against a thin rectangle, and a spinning rectangle sweeping a circle', () => {
    const bullet = { kind: 'circle', radius: 2 } as const;
    const wall = { kind: 'box', halfExtents: [2, 100] } as const;
    const mb = createMotion2D();
    mb.linearVelocity.set([60, 0]); // 60 px per update, dt = 1 (matter-js units)
    const mw = createMotion2D();
    mw.position.set([30, 0]);
    expect(timeOfImpact2D(bullet, mb, wall, mw, { dt: 1 }, out2)).toBe(true);
    expect(out2.status).toBe(TOI_HIT);
    expect(out2.t).toBeLessThanOrEqual(26 / 60);
    expect(out2.t).toBeGreaterThan(26 / 60 - 1e-4);
    expect(out2.normal[0]).toBeCloseTo(1, 12);
    expect(out2.normal[1]).toBeCloseTo(0, 12);

    const plank = { kind: 'box', halfExtents: [50, 1] } as const;
    const mp = createMotion2D();
    mp.angularVelocity = 3; // rad per update
    const ball = { kind: 'circle', radius: 3 } as const;
    const mball = createMotion2D();
    mball.position.set([0, 30]);
    expect(timeOfImpact2D(plank, mp, ball, mball, { dt: 1 }, out2)).toBe(true);
    expect(out2.status).toBe(TOI_HIT);
    // the plank's top edge reaches the circle when its angle is about asin(...) below 90°
    expect(out2.t).toBeLessThan(Math.PI / 2 / 3);
    expect(out2.t).toBeGreaterThan(1.2 / 3);
  });

  it('2-D overlap and touching at the start', () => {
    const a = { kind: 'box', halfExtents: [1, 1] } as const;
    const b = { kind: 'circle', radius: 0.5 } as const;
    const ma = createMotion2D();
    const mb = createMotion2D();
    mb.position.set([1.2, 0.1]);
    expect(timeOfImpact2D(a, ma, b, mb, { dt: 1 }, out2)).toBe(true);
    expect(out2.status).toBe(TOI_OVERLAP);
    expect(out2.normal[0]).toBeCloseTo(1, 12);
    expect(out2.distance).toBeCloseTo(-0.3, 12);
    const mc = createMotion2D();
    mc.position.set([1.9, 0]);
    expect(timeOfImpact2D(a, ma, a, mc, { dt: 1 }, out2)).toBe(true);
    expect(out2.status).toBe(TOI_OVERLAP);
    expect(out2.normal[0]).toBeCloseTo(1, 12);
  });
});

describe('timeOfImpact: bad input', () => {
  const s: CcdShape = { kind: 'sphere', radius: 1 };
  const m = () => motion([0, 0, 0]);
  it('names the argument', () => {
    const bad = m();
    bad.linearVelocity[1] = Number.NaN;
    expect(() => timeOfImpact(s, bad, s, m(), { dt }, out)).toThrow(
      /timeOfImpact: motionA\.linearVelocity\[1\]/,
    );
    expect(() => timeOfImpact(s, m(), s, bad, { dt }, out)).toThrow(/motionB\.linearVelocity\[1\]/);
    const inf = m();
    inf.angularVelocity[2] = Number.POSITIVE_INFINITY;
    expect(() => timeOfImpact(s, inf, s, m(), { dt }, out)).toThrow(/motionA\.angularVelocity\[2\]/);
    expect(() => timeOfImpact({ kind: 'sphere', radius: -1 }, m(), s, m(), { dt }, out)).toThrow(
      /shapeA\.radius must be a finite number >= 0, got -1/,
    );
    expect(() => timeOfImpact(s, m(), { kind: 'box', halfExtents: [1, -1, 1] }, m(), { dt }, out)).toThrow(
      /shapeB\.halfExtents\[1\]/,
    );
    expect(() => timeOfImpact(s, m(), { kind: 'box', halfExtents: [1, 1] }, m(), { dt }, out)).toThrow(
      /shapeB\.halfExtents needs 3 numbers/,
    );
    const zq = m();
    zq.quaternion.fill(0);
    expect(() => timeOfImpact(s, zq, s, m(), { dt }, out)).toThrow(/motionA\.quaternion must not be a zero/);
    expect(() => timeOfImpact({ kind: 'cone' } as unknown as CcdShape, m(), s, m(), { dt }, out)).toThrow(
      /shapeA\.kind must be 'sphere', 'box' or 'mesh'/,
    );
    expect(() =>
      timeOfImpact({ kind: 'mesh', bvh: {} } as unknown as CcdShape, m(), s, m(), { dt }, out),
    ).toThrow(/shapeA\.bvh must be a MeshBVH/);
    const mesh: CcdShape = { kind: 'mesh', bvh: slabMesh([0, 0, 0], [1, 1, 1]) };
    expect(() => timeOfImpact(mesh, m(), mesh, m(), { dt }, out)).toThrow(/mesh–mesh/);
    expect(() => timeOfImpact(s, m(), s, m(), { dt: Number.NaN }, out)).toThrow(/options\.dt/);
    expect(() => timeOfImpact(s, m(), s, m(), { dt: -1 }, out)).toThrow(/options\.dt/);
    expect(() => timeOfImpact(s, m(), s, m(), { dt, tolerance: 0 }, out)).toThrow(/options\.tolerance/);
    expect(() => timeOfImpact(s, m(), s, m(), { dt, maxIterations: 0.5 }, out)).toThrow(
      /options\.maxIterations/,
    );
    expect(() =>
      timeOfImpact(s, m(), s, m(), { dt }, {} as unknown as ReturnType<typeof createTimeOfImpactResult>),
    ).toThrow(/out must be a result record/);
    const out2 = createTimeOfImpactResult2D();
    const m2 = createMotion2D();
    m2.angle = Number.NaN;
    expect(() =>
      timeOfImpact2D(
        { kind: 'circle', radius: 1 },
        m2,
        { kind: 'circle', radius: 1 },
        createMotion2D(),
        { dt },
        out2,
      ),
    ).toThrow(/timeOfImpact2D: motionA\.angle must be a finite number/);
    expect(() =>
      timeOfImpact2D(
        { kind: 'circle', radius: 1 },
        createMotion2D(),
        { kind: 'box', halfExtents: [1, 1], angle: Number.NaN },
        createMotion2D(),
        { dt },
        out2,
      ),
    ).toThrow(/shapeB\.angle/);
  });
});
