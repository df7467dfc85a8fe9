/**
 * Fuzzing the narrowphase entry points — OCSI in the paper's form and the OBB/AABB world forms (overlap,
 * squared distance, closest point, contact; 2-D and 3-D), OBB–OBB and OBB–AABB, and OcsiBatch — with
 * hostile input: NaN, ±Infinity, −0, finite numbers up to ±Number.MAX_VALUE and down to subnormals,
 * bad axes, negative sizes, wrong lengths and types. Each call throws a TypeError/RangeError naming the
 * argument, or answers as an exact rational reference does (BigInt on the doubles' binary values), so
 * no square that overflows or underflows can hide. Fixed seeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import {
  circleAabbContact2D,
  circleAabbDistanceSq2D,
  circleAabbOverlap2D,
  circleObbContact2D,
  circleObbDistanceSq2D,
  circleObbOverlap2D,
  OcsiBatch,
  obbAabbOverlap,
  obbObbContact,
  obbObbOverlap,
  obbObbOverlap2D,
  ocsiClosestPoint,
  ocsiContact,
  ocsiContact2D,
  ocsiDistanceSq,
  ocsiDistanceSq2D,
  ocsiOverlap,
  ocsiOverlap2D,
  ocsiWasmAvailable,
  orthonormalityError,
  sphereAabbClosestPoint,
  sphereAabbContact,
  sphereAabbDistanceSq,
  sphereAabbOverlap,
  sphereObbClosestPoint,
  sphereObbContact,
  sphereObbDistanceSq,
  sphereObbOverlap,
} from '../../src/index.js';
import { decide, distanceOf, exactAabbDistanceSq, exactDistanceSq, magnitudeOf } from './exactRef.js';
import { anyNumber, expectClearError, hostileFinite, isFiniteNumber, show } from './hostile.js';

const SEED = Number(process.env.SIEVE_FUZZ_SEED ?? 0);
const RUNS = Number(process.env.SIEVE_FUZZ_RUNS ?? depth(0.35, 1));
const opts = (seed: number, numRuns: number) => ({ seed: SEED + seed, numRuns: Math.ceil(numRuns * RUNS) });

/** Axes (dim² numbers, rows): exact ones (signed permutations), rotations, and invalid ones. */
function axesArb(dim: 2 | 3): fc.Arbitrary<unknown> {
  const identity = dim === 3 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : [1, 0, 0, 1];
  const permuted = fc
    .tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean())
    .map(([swap, s0, s1, s2]) => {
      const rows =
        dim === 3
          ? [
              [1, 0, 0],
              [0, 1, 0],
              [0, 0, 1],
            ]
          : [
              [1, 0],
              [0, 1],
            ];
      if (swap) rows.reverse();
      const signs = [s0, s1, s2];
      return rows.flatMap((r, i) => r.map((v) => (signs[i] ? -v : v) + 0));
    });
  const rotation = fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }).chain((a) =>
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }).map((b) => {
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      if (dim === 2) return [ca, sa, -sa, ca];
      const cb = Math.cos(b);
      const sb = Math.sin(b);
      // Rz(a) · Rx(b), rows.
      return [ca, -sa * cb, sa * sb, sa, ca * cb, -ca * sb, 0, sb, cb];
    }),
  );
  const invalid = fc.constantFrom<unknown>(
    identity.map(() => 0),
    identity.map((v) => 2 * v),
    identity.map((v, i) => (i === 0 ? Number.NaN : v)),
    identity.slice(1),
    null,
    'axes',
  );
  return fc.oneof(
    { weight: 4, arbitrary: permuted },
    { weight: 3, arbitrary: rotation },
    { weight: 1, arbitrary: invalid },
  );
}

/** A vector of `n` numbers, sometimes hostile (one bad entry, wrong length, not an array). */
function vecArb(n: number, ordinary = 50, nonNegative = false): fc.Arbitrary<unknown> {
  const num = nonNegative ? hostileFinite(ordinary).map(Math.abs) : hostileFinite(ordinary);
  return fc.oneof(
    { weight: 12, arbitrary: fc.array(num, { minLength: n, maxLength: n }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(num, { minLength: n, maxLength: n }), fc.nat({ max: n - 1 }), anyNumber())
        .map(([v, i, x]) => v.map((y, j) => (j === i ? x : y))),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, 3, 'abc', new Array(n - 1).fill(0)) },
  );
}

function finiteVec(v: unknown, n: number, nonNegative = false): v is number[] {
  if (!Array.isArray(v) || v.length < n) return false;
  for (let i = 0; i < n; i++) if (!isFiniteNumber(v[i]) || (nonNegative && v[i] < 0)) return false;
  return true;
}

function validAxes(e: unknown, dim: number): e is number[] {
  return finiteVec(e, dim * dim) && orthonormalityError(e, 0, dim) <= 1e-5;
}

function validRadius(r: unknown): r is number {
  return isFiniteNumber(r) && r >= 0;
}

const radiusArb = fc.oneof(
  { weight: 10, arbitrary: hostileFinite(20).map(Math.abs) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, Number.NaN, Number.POSITIVE_INFINITY, '1', null) },
);

/** Checks a contact record: no NaN, unit normal, depth ≥ 0 exactly when `hit`. */
function expectContact(out: Float64Array, dim: number, hit: boolean, what: string): void {
  for (let i = 0; i < 2 * dim + 1; i++) expect(Number.isNaN(out[i]), `${what}: NaN at ${i}`).toBe(false);
  let n2 = 0;
  for (let i = 0; i < dim; i++) n2 += out[i] * out[i];
  expect(Math.abs(n2 - 1), `${what}: normal ${show(Array.from(out))}`).toBeLessThan(1e-6);
  expect(out[dim] >= 0, `${what}: depth ${out[dim]} vs hit ${hit}`).toBe(hit);
}

/**
 * Checks a squared distance against the exact one: the distances agree to 1e-12 of the inputs'
 * magnitude (what rounding a coordinate difference or projection allows) plus 1e-9 of their own size;
 * past the double range the answer is Infinity (or the largest doubles).
 */
function expectDistance(got: number, want: number, magnitude: number, what: string): void {
  expect(Number.isNaN(got), `${what}: NaN`).toBe(false);
  if (want > 1e300) {
    expect(got > 1e290, `${what}: ${got} vs ${want}`).toBe(true);
    return;
  }
  const diff = Math.abs(Math.sqrt(got) - Math.sqrt(want));
  expect(diff <= 1e-12 * magnitude + 1e-9 * Math.sqrt(want), `${what}: ${got} vs ${want}`).toBe(true);
}

for (const dim of [3, 2] as const) {
  describe(`fuzz: OCSI ${dim}-D paper form`, () => {
    const overlap = dim === 3 ? ocsiOverlap : ocsiOverlap2D;
    const distanceSq = dim === 3 ? ocsiDistanceSq : ocsiDistanceSq2D;
    const contact = dim === 3 ? ocsiContact : ocsiContact2D;
    it('overlap, squared distance and contact equal the exact reference or throw a clear error', () => {
      fc.assert(
        fc.property(vecArb(dim), axesArb(dim), vecArb(dim, 20, true), radiusArb, (r, e, h, radius) => {
          const valid =
            finiteVec(r, dim) && validAxes(e, dim) && finiteVec(h, dim, true) && validRadius(radius);
          const what = `r=${show(r)} e=${show(e)} h=${show(h)} R=${show(radius)}`;
          const args = [r, e, h, radius] as [number[], number[], number[], number];
          if (!valid) {
            expectClearError(() => overlap(...args), /rSC|axes|halfExtents|radius/, what);
            expectClearError(
              () => contact(...args, new Float64Array(7)),
              /rSC|axes|halfExtents|radius/,
              what,
            );
            return;
          }
          const d2 = exactDistanceSq(r, null, e, h, dim);
          const ref = decide(d2, 2, radius, magnitudeOf(r, h, radius), 1e-12);
          const got = overlap(...args);
          if (ref.clear) expect(got, what).toBe(ref.overlap);
          expectDistance(distanceSq(r, e, h), distanceOf(d2, 2), magnitudeOf(r, h), what);
          const out = new Float64Array(7);
          expect(contact(...args, out), what).toBe(got);
          expectContact(out, dim, got, what);
          if (dim === 3) {
            const p = ocsiClosestPoint(r, e, h, new Float64Array(3));
            for (const v of p) expect(Number.isNaN(v), what).toBe(false);
          }
        }),
        opts(16_100 + dim, 1500),
      );
    });
  });

  describe(`fuzz: sphere–OBB ${dim}-D world form`, () => {
    const overlap = dim === 3 ? sphereObbOverlap : circleObbOverlap2D;
    const distanceSq = dim === 3 ? sphereObbDistanceSq : circleObbDistanceSq2D;
    const contact = dim === 3 ? sphereObbContact : circleObbContact2D;
    it('equals the exact reference at any finite magnitude, or throws a clear error', () => {
      fc.assert(
        fc.property(
          vecArb(dim),
          axesArb(dim),
          vecArb(dim, 20, true),
          vecArb(dim),
          radiusArb,
          (c, e, h, p, radius) => {
            const valid =
              finiteVec(c, dim) &&
              validAxes(e, dim) &&
              finiteVec(h, dim, true) &&
              finiteVec(p, dim) &&
              validRadius(radius);
            const what = `c=${show(c)} e=${show(e)} h=${show(h)} p=${show(p)} R=${show(radius)}`;
            if (!valid) {
              const obb = [
                ...(Array.isArray(c) ? c : [c]),
                ...(Array.isArray(e) ? e : [e]),
                ...(Array.isArray(h) ? h : [h]),
              ];
              expectClearError(
                () => overlap(obb as number[], p as number[], radius as number),
                /obb|center|radius/,
                what,
              );
              return;
            }
            const obb = [...c, ...e, ...h];
            const d2 = exactDistanceSq(p, c, e, h, dim);
            const ref = decide(d2, 2, radius, magnitudeOf(c, h, p, radius), 1e-12);
            const got = overlap(obb, p, radius);
            if (ref.clear) expect(got, what).toBe(ref.overlap);
            expectDistance(distanceSq(obb, p), distanceOf(d2, 2), magnitudeOf(c, h, p), what);
            const out = new Float64Array(7);
            expect(contact(obb, p, radius, out), what).toBe(got);
            expectContact(out, dim, got, what);
            if (dim === 3) {
              const q = sphereObbClosestPoint(obb, p, new Float64Array(3));
              for (const v of q) expect(Number.isNaN(v), what).toBe(false);
            }
          },
        ),
        opts(16_200 + dim, 1500),
      );
    });
  });

  describe(`fuzz: sphere–AABB ${dim}-D`, () => {
    const overlap = dim === 3 ? sphereAabbOverlap : circleAabbOverlap2D;
    const distanceSq = dim === 3 ? sphereAabbDistanceSq : circleAabbDistanceSq2D;
    const contact = dim === 3 ? sphereAabbContact : circleAabbContact2D;
    it('equals the exact reference at any finite magnitude, or throws a clear error', () => {
      fc.assert(
        fc.property(vecArb(dim), vecArb(dim), vecArb(dim), radiusArb, (a, b, p, radius) => {
          let min = a;
          let max = b;
          if (finiteVec(a, dim) && finiteVec(b, dim) && a.length === b.length) {
            min = a.map((v, i) => Math.min(v, b[i]));
            max = a.map((v, i) => Math.max(v, b[i]));
          }
          const valid =
            finiteVec(min, dim) && finiteVec(max, dim) && finiteVec(p, dim) && validRadius(radius);
          const what = `min=${show(min)} max=${show(max)} p=${show(p)} R=${show(radius)}`;
          const args = [min, max, p, radius] as [number[], number[], number[], number];
          if (!valid) {
            expectClearError(() => overlap(...args), /min|max|center|radius/, what);
            return;
          }
          const d2 = exactAabbDistanceSq(min as number[], max as number[], p, dim);
          const ref = decide(d2, 1, radius, magnitudeOf(min as number[], max as number[], p, radius), 1e-12);
          const got = overlap(...args);
          if (ref.clear) expect(got, what).toBe(ref.overlap);
          expectDistance(
            distanceSq(min as number[], max as number[], p),
            distanceOf(d2, 1),
            magnitudeOf(min as number[], max as number[], p),
            what,
          );
          const out = new Float64Array(7);
          expect(contact(...args, out), what).toBe(got);
          expectContact(out, dim, got, what);
          if (dim === 3) {
            const lo = min as number[];
            const hi = max as number[];
            const q = sphereAabbClosestPoint(lo, hi, p, new Float64Array(3));
            for (let i = 0; i < 3; i++) expect(q[i], what).toBe(Math.min(Math.max(p[i], lo[i]), hi[i]));
          }
        }),
        opts(16_300 + dim, 1500),
      );
    });
  });
}

describe('fuzz: OBB–OBB and OBB–AABB', () => {
  const box = (dim: 2 | 3) =>
    fc.tuple(
      fc.array(fc.integer({ min: -40, max: 40 }), { minLength: dim, maxLength: dim }),
      axesArb(dim).filter((e) => validAxes(e, dim)) as fc.Arbitrary<number[]>,
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: dim, maxLength: dim }),
    );
  const scale = fc.oneof(
    fc.constant(1),
    fc.integer({ min: -1000, max: 1015 }).map((k) => 2 ** k),
    fc.constantFrom(2 ** 1015, 2 ** 1017),
  );
  it('answers the same at every power-of-two scale up to the double range (no Infinity − Infinity)', () => {
    fc.assert(
      fc.property(box(3), box(3), scale, ([ca, ea, ha], [cb, eb, hb], s) => {
        const a = [...ca, ...ea, ...ha];
        const b = [...cb, ...eb, ...hb];
        const up = (x: number[]) => x.map((v, i) => (i < 3 || i >= 12 ? v * s : v));
        const want = obbObbOverlap(a, b);
        expect(obbObbOverlap(up(a), up(b)), `scale ${s}`).toBe(want);
        const out = new Float64Array(7);
        expect(obbObbContact(up(a), up(b), out)).toBe(want);
        for (const v of out) expect(Number.isNaN(v)).toBe(false);
        const min = cb.map((v, i) => v - hb[i]);
        const max = cb.map((v, i) => v + hb[i]);
        expect(
          obbAabbOverlap(
            up(a),
            min.map((v) => v * s),
            max.map((v) => v * s),
          ),
        ).toBe(obbAabbOverlap(a, min, max));
      }),
      opts(16_400, 600),
    );
    fc.assert(
      fc.property(box(2), box(2), scale, ([ca, ea, ha], [cb, eb, hb], s) => {
        const a = [...ca, ...ea, ...ha];
        const b = [...cb, ...eb, ...hb];
        const up = (x: number[]) => x.map((v, i) => (i < 2 || i >= 6 ? v * s : v));
        expect(obbObbOverlap2D(up(a), up(b)), `scale ${s}`).toBe(obbObbOverlap2D(a, b));
      }),
      opts(16_401, 600),
    );
  });

  it('boxes at opposite ends of the double range are apart; a box meets itself', () => {
    const r = Math.SQRT1_2;
    const rot = [r, r, 0, -r, r, 0, 0, 0, 1];
    for (const far of [1e300, 1.7e308, Number.MAX_VALUE]) {
      const a = [-far, far, 0, ...rot, 1, 1, 1];
      const b = [far, -far, 0, ...rot, 1, 1, 1];
      expect(obbObbOverlap(a, b)).toBe(false);
      expect(obbObbOverlap(a, a)).toBe(true);
      expect(obbAabbOverlap(a, [far, -far, 0], [far, -far, 0])).toBe(false);
      expect(obbObbOverlap2D([-far, 0, r, r, -r, r, 1, 1], [far, 0, r, r, -r, r, 1, 1])).toBe(false);
    }
  });

  it('rejects invalid boxes with a clear error', () => {
    const good = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];
    for (const bad of [
      null,
      [1, 2],
      good.map((v, i) => (i === 0 ? Number.NaN : v)),
      good.map((v, i) => (i === 12 ? -1 : v)),
      good.map((v, i) => (i === 3 ? 2 : v)),
    ]) {
      expectClearError(() => obbObbOverlap(bad as number[], good), /a|obb/, show(bad));
      expectClearError(() => obbObbOverlap(good, bad as number[]), /b|obb/, show(bad));
    }
  });
});

describe('fuzz: OcsiBatch lanes', () => {
  const f32 = fc.oneof(
    { weight: 6, arbitrary: fc.double({ min: -40, max: 40, noNaN: true }) },
    { weight: 2, arbitrary: fc.constantFrom(0, -0, 1e-30, 1e-40, 1e20, -1e20, 3e38, -3e38) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) },
  );
  const laneArb = fc.tuple(
    fc.array(f32, { minLength: 3, maxLength: 3 }),
    fc.oneof(
      {
        weight: 5,
        arbitrary: axesArb(3).filter((e) => Array.isArray(e) && e.length === 9) as fc.Arbitrary<number[]>,
      },
      { weight: 1, arbitrary: fc.array(f32, { minLength: 9, maxLength: 9 }) },
    ),
    fc.array(f32, { minLength: 4, maxLength: 4 }),
  );

  /** What the module documents for an unchecked lane: the formula, in double, from the float32 values. */
  function documented(r: number[], e: number[], hr: number[]): { flag: number; d2: number } {
    const F = (v: number) => Math.fround(v);
    let s = 0;
    for (let i = 0; i < 3; i++) {
      const a = F(r[0]) * F(e[3 * i]) + F(r[1]) * F(e[3 * i + 1]) + F(r[2]) * F(e[3 * i + 2]);
      const t = Math.abs(a) - F(hr[i]);
      const l2 = t + Math.abs(t);
      s += l2 * l2;
    }
    const R = F(hr[3]);
    return { flag: +(s <= 4 * R * R), d2: Math.fround(0.25 * s) };
  }

  const backends: Array<'js' | 'wasm'> = ocsiWasmAvailable() ? ['js', 'wasm'] : ['js'];
  for (const backend of backends) {
    it(`${backend}: unchecked lanes answer as documented; the validating mode throws naming the lane`, () => {
      fc.assert(
        fc.property(fc.array(laneArb, { minLength: 1, maxLength: 12 }), (lanes) => {
          const batch = new OcsiBatch(lanes.length, { backend });
          const checked = new OcsiBatch(lanes.length, { backend, validate: true });
          lanes.forEach(([r, e, hr], i) => {
            batch.setLane(i, r, 0, e, 0, hr, 0, hr[3]);
            checked.setLane(i, r, 0, e, 0, hr, 0, hr[3]);
          });
          batch.overlap(lanes.length);
          const d2 = batch.distanceSq(lanes.length);
          let firstBad = -1;
          lanes.forEach(([r, e, hr], i) => {
            const want = documented(r, e, hr);
            expect(batch.flags[i], `lane ${i} ${show(r)} ${show(e)} ${show(hr)}`).toBe(want.flag);
            if (Number.isNaN(want.d2)) expect(Number.isNaN(d2[i])).toBe(true);
            else if (Number.isFinite(want.d2) && want.d2 > 1e-30)
              expect(Math.abs(d2[i] - want.d2) / want.d2).toBeLessThan(1e-6);
            else if (!Number.isFinite(want.d2)) expect(d2[i]).toBe(want.d2);
            const f = [...r, ...e, ...hr].map(Math.fround);
            const lane =
              f.every(Number.isFinite) &&
              f.slice(12).every((v) => v >= 0) &&
              orthonormalityError(f, 3, 3) <= 1e-3;
            if (!lane && firstBad < 0) firstBad = i;
          });
          if (firstBad >= 0)
            expectClearError(() => checked.overlap(lanes.length), new RegExp(`lane ${firstBad}`), 'checked');
          else expect(checked.overlap(lanes.length)).toBe(batch.flags.reduce((a, v) => a + v, 0));
        }),
        opts(16_500 + backends.indexOf(backend), 300),
      );
    });
  }

  it('counts and lane indices are checked', () => {
    const b = new OcsiBatch(4);
    for (const count of [Number.NaN, -1, 1.5, 5, '1'])
      expectClearError(() => b.overlap(count as number), /count/, show(count));
    for (const i of [Number.NaN, -1, 1.5, 4])
      expectClearError(
        () => b.setLane(i, [0, 0, 0], 0, [1, 0, 0, 0, 1, 0, 0, 0, 1], 0, [1, 1, 1], 0, 1),
        /lane/,
        show(i),
      );
    for (const c of [0, -1, 1.5, 2 ** 27, Number.NaN])
      expectClearError(() => new OcsiBatch(c), /capacity/, show(c));
  });
});
