/**
 * Fuzzing the BVH and continuous-collision entry points — MeshBVH construction, ray casts (first and
 * all, against the brute-force reference), mesh–sphere and mesh–OBB queries (against theirs),
 * timeOfImpact and sweptBounds — with hostile input: NaN, ±Infinity, −0, huge and tiny finite numbers,
 * wrong lengths and types, zero quaternions and directions. Each call throws a TypeError/RangeError
 * naming the argument, or answers as its reference does (for time of impact: the same answer for the
 * same scene scaled by any power of two up to the supported range). Fixed seeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createTimeOfImpactResult,
  MeshBVH,
  MeshContacts,
  meshObbBruteForce,
  meshObbIntersects,
  meshSphereBruteForce,
  meshSphereIntersects,
  RayHit,
  RayHits,
  raycastAll,
  raycastBruteForce,
  raycastFirst,
  sweptBounds,
  timeOfImpact,
} from '../../src/index.js';
import { anyNumber, expectClearError, hostileFinite, isFiniteNumber, show } from './hostile.js';

/** Any value where a number is expected, BigInt and Symbol included. */
const anyNum = (ordinary?: number) => anyNumber(ordinary);

const SEED = Number(process.env.SIEVE_FUZZ_SEED ?? 0);
const RUNS = Number(process.env.SIEVE_FUZZ_RUNS ?? 1);
const opts = (seed: number, numRuns: number) => ({ seed: SEED + seed, numRuns: numRuns * RUNS });

/** float32 coordinates: ordinary, hostile finite (rounded to float32), or non-finite. */
const coord32 = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: -10, max: 10 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 1e-30, 1e-42, 1e20, -1e20, 3e38, -3e38) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY) },
);

const meshArb = fc.tuple(
  fc.array(coord32, { minLength: 9, maxLength: 60 }).map((a) => a.slice(0, a.length - (a.length % 3))),
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.array(fc.nat({ max: 25 }), { minLength: 3, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([0, 1], [-1, 0, 1], [0.5, 1, 2], 'idx', { length: 3 }) },
  ),
  fc.constantFrom<unknown>(
    undefined,
    null,
    Symbol('options'),
    { strategy: 'center' },
    { strategy: 'sah' },
    { strategy: 'bogus' },
    { maxLeafSize: Symbol('n') },
    { maxDepth: 3n },
  ),
);

/** Builds a MeshBVH from fuzzed parts, or checks the clear error; returns null when it threw. */
function build(positions: number[], index: unknown, options: unknown): MeshBVH | null {
  const p = Float32Array.from(positions);
  const finite = p.every(Number.isFinite) && p.length % 3 === 0 && p.length > 0;
  const vertices = p.length / 3;
  let goodIndex = index === null;
  let idx: Uint32Array | null = null;
  if (Array.isArray(index)) {
    goodIndex = index.length % 3 === 0 && index.every((i) => Number.isInteger(i) && i >= 0 && i < vertices);
    if (index.every((i) => Number.isInteger(i) && i >= 0)) idx = Uint32Array.from(index);
  }
  const triangles = index === null ? p.length % 9 === 0 : goodIndex;
  const goodOptions =
    options === undefined ||
    (typeof options === 'object' &&
      options !== null &&
      (options as { strategy: string }).strategy !== 'bogus' &&
      !('maxLeafSize' in options) &&
      !('maxDepth' in options));
  const arg = Array.isArray(index) ? (idx ?? index) : index;
  if (finite && triangles && goodIndex && goodOptions)
    return new MeshBVH(p, arg as Uint32Array | null, options as never);
  expectClearError(
    () => new MeshBVH(p, arg as Uint32Array | null, options as never),
    /positions|index|strategy|options|triangle|vert/,
    `mesh ${show(p)} ${show(index)} ${show(options)}`,
  );
  return null;
}

const vec3 = (ordinary = 20) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.array(hostileFinite(ordinary), { minLength: 3, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(anyNum(), { minLength: 3, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [1, 2], 'xyz') },
  );

function finite3(v: unknown): v is number[] {
  return Array.isArray(v) && v.length >= 3 && v.slice(0, 3).every(isFiniteNumber);
}

const matrixArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc
      .array(hostileFinite(20), { minLength: 3, maxLength: 3 })
      .map(([x, y, z]) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>([1, 0, 0], 'm', [
      Number.NaN,
      0,
      0,
      0,
      0,
      1,
      0,
      0,
      0,
      0,
      1,
      0,
      0,
      0,
      0,
      1,
    ]),
  },
);

describe('fuzz: MeshBVH and its queries', () => {
  it('builds or throws clearly; ray casts and mesh–shape queries equal their brute-force references', () => {
    fc.assert(
      fc.property(
        meshArb,
        matrixArb,
        vec3(),
        vec3(2),
        vec3(),
        fc.oneof(hostileFinite(5).map(Math.abs), anyNum()),
        ([positions, index, options], matrix, origin, direction, center, radius) => {
          const bvh = build(positions, index, options);
          if (!bvh) return;
          const what = `m=${show(matrix)} o=${show(origin)} d=${show(direction)}`;
          const goodMatrix =
            matrix === null ||
            (Array.isArray(matrix) && matrix.length === 16 && matrix.every(isFiniteNumber));
          const goodRay =
            goodMatrix && finite3(origin) && finite3(direction) && direction.some((v) => v !== 0);
          const hit = new RayHit();
          const hits = new RayHits();
          if (!goodRay) {
            expectClearError(
              () => raycastFirst(bvh, matrix as null, origin as number[], direction as number[], hit),
              /matrix|origin|direction/,
              what,
            );
          } else {
            let first: boolean;
            try {
              first = raycastFirst(bvh, matrix as null, origin, direction, hit);
            } catch (e) {
              // A ray whose length overflows in the mesh frame may be refused, clearly.
              expect(e instanceof RangeError, String(e)).toBe(true);
              return;
            }
            const n = raycastAll(bvh, matrix as null, origin, direction, hits);
            const ref = new RayHits();
            const refFirst = new RayHit();
            const m = raycastBruteForce(bvh, matrix as null, origin, direction, ref, refFirst);
            expect(n, what).toBe(m);
            expect(first, what).toBe(refFirst.hit);
            if (first) expect(hit.distance, what).toBe(refFirst.distance);
          }
          const goodSphere = goodMatrix && finite3(center) && isFiniteNumber(radius) && radius >= 0;
          if (!goodSphere) {
            expectClearError(
              () => meshSphereIntersects(bvh, matrix as null, center as number[], radius as number),
              /matrix|center|radius/,
              `${what} c=${show(center)} r=${show(radius)}`,
            );
          } else {
            const ref = new MeshContacts();
            expect(meshSphereIntersects(bvh, matrix as null, center, radius)).toBe(
              meshSphereBruteForce(bvh, matrix as null, center, radius, ref) > 0,
            );
            const r = Math.min(radius, 1e150);
            const obb = [...center, 1, 0, 0, 0, 1, 0, 0, 0, 1, r, r, r];
            expect(meshObbIntersects(bvh, matrix as null, obb)).toBe(
              meshObbBruteForce(bvh, matrix as null, obb, ref) > 0,
            );
          }
        },
      ),
      opts(16_600, 400),
    );
  });
});

describe('fuzz: timeOfImpact and sweptBounds', () => {
  const small = fc.integer({ min: -6, max: 6 });
  const scene = fc.record({
    kindA: fc.constantFrom('sphere', 'box'),
    kindB: fc.constantFrom('sphere', 'box'),
    sizeA: fc.integer({ min: 1, max: 3 }),
    sizeB: fc.integer({ min: 1, max: 3 }),
    pA: fc.tuple(fc.integer({ min: 1, max: 8 }), small, small),
    pB: fc.tuple(small, small, small),
    vA: fc.tuple(small, small, small),
    vB: fc.tuple(small, small, small),
    spin: fc.boolean(),
  });
  type Scene = typeof scene extends fc.Arbitrary<infer T> ? T : never;

  function bodies(s: Scene, k: number) {
    const shape = (kind: string, size: number) =>
      kind === 'sphere'
        ? { kind: 'sphere' as const, radius: size * k }
        : { kind: 'box' as const, halfExtents: [size * k, size * k, size * k] };
    const motion = (p: number[], v: number[]) => ({
      position: p.map((x) => x * k),
      quaternion: [0, 0, 0, 1],
      linearVelocity: v.map((x) => x * k),
      angularVelocity: s.spin ? [0, 0.5, 0] : [0, 0, 0],
    });
    return [
      shape(s.kindA, s.sizeA),
      motion(s.pA, s.vA),
      shape(s.kindB, s.sizeB),
      motion(s.pB, s.vB),
    ] as const;
  }

  it('gives the same status and time for a scene scaled by 2^k up to the supported range, and refuses beyond', () => {
    fc.assert(
      fc.property(scene, fc.integer({ min: 0, max: 196 }), (s, e) => {
        const out = createTimeOfImpactResult();
        const [sa, ma, sb, mb] = bodies(s, 1);
        const hit = timeOfImpact(sa, ma, sb, mb, { dt: 1 }, out);
        const { status, t } = out;
        const k = 2 ** e;
        const big = bodies(s, k);
        expect(timeOfImpact(big[0], big[1], big[2], big[3], { dt: 1 }, out), `2^${e}`).toBe(hit);
        expect(out.status, `2^${e}`).toBe(status);
        expect(Math.abs(out.t - t), `2^${e}`).toBeLessThan(1e-9);
        for (const v of out.normal) expect(Number.isNaN(v)).toBe(false);
        const huge = bodies(s, 2 ** 203);
        expectClearError(
          () => timeOfImpact(huge[0], huge[1], huge[2], huge[3], { dt: 1 }, out),
          /motion|shape/,
          'beyond range',
        );
      }),
      opts(16_700, 300),
    );
  });

  it('a head-on hit at 1e300 is refused clearly, never reported as separated', () => {
    const out = createTimeOfImpactResult();
    const sphere = { kind: 'sphere' as const, radius: 1e299 };
    const a = {
      position: [-1e300, 0, 0],
      quaternion: [0, 0, 0, 1],
      linearVelocity: [1e300, 0, 0],
      angularVelocity: [0, 0, 0],
    };
    const b = {
      position: [1e300, 0, 0],
      quaternion: [0, 0, 0, 1],
      linearVelocity: [-1e300, 0, 0],
      angularVelocity: [0, 0, 0],
    };
    expectClearError(() => timeOfImpact(sphere, a, sphere, b, { dt: 1 }, out), /motionA/, 'head-on 1e300');
    const k = 2 ** -800;
    const sa = { kind: 'sphere' as const, radius: 1e299 * k };
    const scaled = (m: typeof a) => ({
      ...m,
      position: m.position.map((v) => v * k),
      linearVelocity: m.linearVelocity.map((v) => v * k),
    });
    expect(timeOfImpact(sa, scaled(a), sa, scaled(b), { dt: 1 }, out)).toBe(true);
    expect(out.t).toBeGreaterThan(0.8);
    expect(out.t).toBeLessThan(0.95);
  });

  it('hostile motions and shapes throw clear errors; sweptBounds never returns NaN', () => {
    const shapeArb = fc.oneof(
      fc.record({ kind: fc.constant('sphere'), radius: anyNum(5) }),
      fc.record({ kind: fc.constant('box'), halfExtents: fc.oneof(vec3(5), fc.constant(null)) }),
      fc.constantFrom<unknown>(null, { kind: 'cone', radius: 1 }, 5),
    );
    const motionArb = fc.record({
      position: vec3(),
      quaternion: fc.oneof(
        fc.constant([0, 0, 0, 1]),
        fc.array(anyNum(2), { minLength: 4, maxLength: 4 }),
        fc.constant([0, 0, 0, 0]),
      ),
      linearVelocity: vec3(),
      angularVelocity: vec3(3),
    });
    fc.assert(
      fc.property(
        shapeArb,
        motionArb,
        shapeArb,
        motionArb,
        fc.oneof(fc.constant(1), anyNum(2)),
        (sa, ma, sb, mb, dt) => {
          const out = createTimeOfImpactResult();
          try {
            timeOfImpact(sa as never, ma as never, sb as never, mb as never, { dt: dt as number }, out);
            expect(Number.isNaN(out.t)).toBe(false);
            expect(out.t >= 0 && out.t <= 1).toBe(true);
          } catch (e) {
            expect(e instanceof TypeError || e instanceof RangeError, String(e)).toBe(true);
            expect((e as Error).message).toMatch(/shape|motion|dt|options/);
          }
          // Every input, including a velocity × dt past the double range, an angular velocity × dt or a
          // half extent past ~1e154 (their squares overflow): a box without NaN, or a clear error.
          try {
            const box = sweptBounds(sa as never, ma as never, dt as number, new Float64Array(6));
            for (const v of box) expect(Number.isNaN(v), `sweptBounds ${show(Array.from(box))}`).toBe(false);
            for (let k = 0; k < 3; k++) expect(box[k] <= box[k + 3]).toBe(true);
          } catch (e) {
            expect(e instanceof TypeError || e instanceof RangeError, String(e)).toBe(true);
            expect((e as Error).message).toMatch(/shape|motion|dt/);
          }
        },
      ),
      opts(16_800, 600),
    );
  });
});
