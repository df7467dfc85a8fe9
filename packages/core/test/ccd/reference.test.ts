/**
 * Time of impact against a brute-force reference: fine time sampling with exact overlap tests (the
 * narrowphase and BVH queries) on random configurations — translation and fast rotation, thin boxes,
 * offsets, meshes — in 3-D and 2-D. For every configuration:
 * - no tunnelling: if any sample overlaps, the TOI stops the motion (hit, overlap or iteration cap) no
 *   later than the first overlapping sample;
 * - no late or fake hit: at the reported time the shapes do not overlap, and grown by the tolerance
 *   they do (the contact is real, within tolerance);
 * - no missed contact: the first point is strict — even a contact shallower than the tolerance that a
 *   sample catches must stop the motion (a grazing step that lands in an overlap reports the hit at
 *   the last contact-free sample);
 * - the iteration cap is rare.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CcdMotion,
  type CcdShape,
  type CcdShape2D,
  createMotion,
  createMotion2D,
  createTimeOfImpactResult,
  createTimeOfImpactResult2D,
  MeshBVH,
  randomRotationQuat,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  timeOfImpact,
  timeOfImpact2D,
} from '../../src/index.js';
import { grid, uvSphere } from '../bvh/helpers.js';
import {
  boundingRadius,
  farApart,
  overlaps,
  overlaps2,
  placeAt,
  placeAt2,
  rng,
  slabMesh,
} from './reference.js';

const out = createTimeOfImpactResult();
const out2 = createTimeOfImpactResult2D();
const ball = uvSphere(0.6, 12, 8);
const fine = uvSphere(0.8, 48, 32); // ~3 000 triangles: a deeper tree, so node pruning is exercised
const sheet = grid(24, 0.1); // open, one-sided
const MESHES = [
  slabMesh([-0.05, -1, -1], [0.05, 1, 1]),
  new MeshBVH(ball.positions, ball.index),
  new MeshBVH(fine.positions, fine.index),
  new MeshBVH(sheet.positions, sheet.index),
];

type Kind = 'sphere' | 'box' | 'mesh';

function randomShape(kind: Kind, r: () => number): CcdShape {
  const off = r() < 0.3 ? [r() - 0.5, r() - 0.5, r() - 0.5] : undefined;
  if (kind === 'sphere') return { kind, radius: 0.05 + 0.5 * r(), offset: off };
  if (kind === 'box') {
    const h = [0.02 + r(), 0.02 + r(), 0.02 + r()];
    if (r() < 0.4) h[Math.floor(3 * r())] = 0.02; // thin plates and planks
    const q = r() < 0.3 ? randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]) : undefined;
    return { kind, halfExtents: h, offset: off, orientation: q };
  }
  return { kind, bvh: MESHES[Math.floor(r() * MESHES.length)], offset: off };
}

function randomMotion(r: () => number, p: number[], v: number[], spin: number): CcdMotion {
  const m = createMotion();
  m.position.set(p);
  m.linearVelocity.set(v);
  randomRotationQuat(r(), r(), r(), m.quaternion);
  const q = randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]);
  const w = spin * r();
  m.angularVelocity.set([q[0] * w * 2, q[1] * w * 2, q[2] * w * 2]);
  return m;
}

function grow(s: CcdShape, by: number): CcdShape {
  if (s.kind === 'sphere') return { ...s, radius: s.radius + by };
  if (s.kind === 'box') return { ...s, halfExtents: [0, 1, 2].map((i) => s.halfExtents[i] + by) };
  return s;
}

const stats = { hits: 0, misses: 0, limits: 0, overlaps: 0 };

function check3(a: CcdShape, ma: CcdMotion, b: CcdShape, mb: CcdMotion, samples: number): void {
  const dt = 1;
  const stop = timeOfImpact(a, ma, b, mb, { dt }, out);
  const tol = 1e-3 * Math.min(size(a), size(b));
  let first = -1;
  const reach = boundingRadius(a) + boundingRadius(b);
  for (let k = 0; k <= samples; k++) {
    const t = k / samples;
    if (farApart(ma.position, ma.linearVelocity, mb.position, mb.linearVelocity, 3, t, reach)) continue;
    if (overlaps(placeAt(a, ma, dt, t), placeAt(b, mb, dt, t))) {
      first = t;
      break;
    }
  }
  if (out.status === TOI_ITERATION_LIMIT) stats.limits++;
  if (out.status === TOI_OVERLAP) stats.overlaps++;
  if (first >= 0) {
    expect(stop).toBe(true);
    expect(out.t).toBeLessThanOrEqual(first);
  }
  if (out.status === TOI_HIT) {
    stats.hits++;
    expect(overlaps(placeAt(a, ma, dt, out.t), placeAt(b, mb, dt, out.t))).toBe(false);
    expect(overlaps(placeAt(grow(a, tol), ma, dt, out.t), placeAt(grow(b, tol), mb, dt, out.t))).toBe(true);
    expect(out.distance).toBeLessThanOrEqual(tol * (1 + 1e-9));
  }
  if (!stop) stats.misses++;
}

function size(s: CcdShape): number {
  if (s.kind === 'sphere') return s.radius;
  if (s.kind === 'box') return Math.hypot(s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]);
  const f = s.bvh.nodeF32;
  return 0.5 * Math.hypot(f[3] - f[0], f[4] - f[1], f[5] - f[2]);
}

function config3(ka: Kind, kb: Kind, seed: number, samples: number): void {
  const r = rng(seed);
  const a = randomShape(ka, r);
  const b = randomShape(kb, r);
  const pa = [r() - 0.5, r() - 0.5, r() - 0.5];
  const dir = randomRotationQuat(r(), r(), r(), [0, 0, 0, 1]);
  const dist = 1.5 + 2.5 * r();
  const pb = [pa[0] + dist * 2 * dir[0], pa[1] + dist * 2 * dir[1], pa[2] + dist * 2 * dir[2]];
  // A heads roughly at B (0.3–1.8 × the distance, with a miss offset), B drifts; both may spin fast.
  const f = 0.3 + 1.5 * r();
  const v = [0, 1, 2].map((i) => f * (pb[i] - pa[i]) + (r() - 0.5) * 1.5);
  const ma = randomMotion(r, pa, v, r() < 0.5 ? 0 : 3);
  const mb = randomMotion(r, pb, [r() - 0.5, r() - 0.5, r() - 0.5], r() < 0.5 ? 0 : 2);
  check3(a, ma, b, mb, samples);
}

describe('timeOfImpact vs fine time sampling (3-D)', () => {
  const pairs: Array<[Kind, Kind, number, number]> = [
    ['sphere', 'sphere', 80, 10000],
    ['sphere', 'box', 40, 10000],
    ['box', 'sphere', 30, 10000],
    ['box', 'box', 50, 5000],
    ['sphere', 'mesh', 60, 2000],
    ['mesh', 'box', 60, 2000],
  ];
  for (const [ka, kb, runs, samples] of pairs) {
    it(`${ka}–${kb}`, () => {
      stats.hits = 0;
      stats.misses = 0;
      stats.limits = 0;
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => config3(ka, kb, seed, samples)),
        { seed: 42, numRuns: runs },
      );
      // both outcomes are exercised, and the cap is rare
      expect(stats.hits).toBeGreaterThan(runs / 8);
      expect(stats.misses).toBeGreaterThan(runs / 8);
      expect(stats.limits).toBeLessThanOrEqual(Math.ceil(runs / 20));
    });
  }
});

// --- 2-D ------------------------------------------------------------------------------------------------

function randomShape2(kind: 'circle' | 'box', r: () => number): CcdShape2D {
  const off = r() < 0.3 ? [r() - 0.5, r() - 0.5] : undefined;
  if (kind === 'circle') return { kind, radius: 0.05 + 0.5 * r(), offset: off };
  const h = [0.02 + r(), 0.02 + r()];
  if (r() < 0.4) h[Math.floor(2 * r())] = 0.02;
  return { kind, halfExtents: h, offset: off, angle: r() < 0.3 ? 6 * r() : undefined };
}

function size2(s: CcdShape2D): number {
  return s.kind === 'circle' ? s.radius : Math.hypot(s.halfExtents[0], s.halfExtents[1]);
}

function grow2(s: CcdShape2D, by: number): CcdShape2D {
  if (s.kind === 'circle') return { ...s, radius: s.radius + by };
  return { ...s, halfExtents: [s.halfExtents[0] + by, s.halfExtents[1] + by] };
}

function config2(ka: 'circle' | 'box', kb: 'circle' | 'box', seed: number, samples: number): void {
  const r = rng(seed);
  const a = randomShape2(ka, r);
  const b = randomShape2(kb, r);
  const ma = createMotion2D();
  const mb = createMotion2D();
  const ang = 2 * Math.PI * r();
  const dist = 1.5 + 2.5 * r();
  ma.position[0] = r() - 0.5;
  ma.position[1] = r() - 0.5;
  mb.position[0] = ma.position[0] + dist * Math.cos(ang);
  mb.position[1] = ma.position[1] + dist * Math.sin(ang);
  const f = 0.3 + 1.5 * r();
  ma.linearVelocity[0] = f * (mb.position[0] - ma.position[0]) + (r() - 0.5) * 1.5;
  ma.linearVelocity[1] = f * (mb.position[1] - ma.position[1]) + (r() - 0.5) * 1.5;
  mb.linearVelocity[0] = r() - 0.5;
  mb.linearVelocity[1] = r() - 0.5;
  ma.angle = 6 * r();
  mb.angle = 6 * r();
  ma.angularVelocity = r() < 0.5 ? 0 : 6 * (r() - 0.5);
  mb.angularVelocity = r() < 0.5 ? 0 : 4 * (r() - 0.5);
  const dt = 1;
  const stop = timeOfImpact2D(a, ma, b, mb, { dt }, out2);
  const tol = 1e-3 * Math.min(size2(a), size2(b));
  let first = -1;
  const reach = boundingRadius(a) + boundingRadius(b);
  for (let k = 0; k <= samples; k++) {
    const t = k / samples;
    if (farApart(ma.position, ma.linearVelocity, mb.position, mb.linearVelocity, 2, t, reach)) continue;
    if (overlaps2(placeAt2(a, ma, dt, t), placeAt2(b, mb, dt, t))) {
      first = t;
      break;
    }
  }
  if (out2.status === TOI_ITERATION_LIMIT) stats.limits++;
  if (first >= 0) {
    expect(stop).toBe(true);
    expect(out2.t).toBeLessThanOrEqual(first);
  }
  if (out2.status === TOI_HIT) {
    stats.hits++;
    expect(overlaps2(placeAt2(a, ma, dt, out2.t), placeAt2(b, mb, dt, out2.t))).toBe(false);
    expect(overlaps2(placeAt2(grow2(a, tol), ma, dt, out2.t), placeAt2(grow2(b, tol), mb, dt, out2.t))).toBe(
      true,
    );
  }
  if (!stop) stats.misses++;
}

describe('timeOfImpact2D vs fine time sampling', () => {
  const pairs: Array<['circle' | 'box', 'circle' | 'box']> = [
    ['circle', 'circle'],
    ['circle', 'box'],
    ['box', 'box'],
  ];
  for (const [ka, kb] of pairs) {
    it(`${ka}–${kb}`, () => {
      stats.hits = 0;
      stats.misses = 0;
      stats.limits = 0;
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => config2(ka, kb, seed, 10000)),
        { seed: 42, numRuns: 60 },
      );
      expect(stats.hits).toBeGreaterThan(6);
      expect(stats.misses).toBeGreaterThan(6);
      expect(stats.limits).toBeLessThanOrEqual(3);
    });
  }
});
