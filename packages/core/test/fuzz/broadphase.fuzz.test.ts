/**
 * Fuzzing every broadphase entry point (insert, move, moveMany, remove, queryBounds, getBounds, has,
 * update, the constructors) with hostile input: NaN, ±Infinity, −0, finite coordinates up to
 * ±Number.MAX_VALUE, tiny and zero-size boxes, wrong lengths and types, stale and made-up handles, bad
 * counts. Each call either succeeds — and after every update the structure equals the BruteForce
 * reference — or throws a TypeError/RangeError naming the argument and changes nothing (the next
 * update still equals the reference, which never saw the call). Fixed seeds. A second pass per
 * broadphase adds static proxies: inserts with hostile `isStatic` values, and `setStatic` / `isStatic`
 * on live, stale and made-up handles with hostile values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import { type Broadphase, type Dimensions, Octree, SweepAndPrune } from '../../src/index.js';
import { Lockstep } from '../broadphase/harness.js';
import { BROADPHASES } from '../broadphase/registry.js';
import { anyNumber, expectClearError, hostileFinite, isFiniteNumber, NOT_NUMBERS, show } from './hostile.js';

/** Seeds are fixed; SIEVE_FUZZ_SEED shifts them all for a longer local hunt (RUNS scales the runs; a standard-depth run, see depth.ts, runs 0.35 of them). */
const SEED = Number(process.env.SIEVE_FUZZ_SEED ?? 0);
const RUNS = Number(process.env.SIEVE_FUZZ_RUNS ?? depth(0.35, 1));

type FuzzOp =
  | { kind: 'insert'; bounds: unknown; typed: boolean; isStatic?: unknown }
  | { kind: 'setStatic'; pick: number; handle: unknown; isStatic: unknown }
  | { kind: 'move'; pick: number; handle: unknown; bounds: unknown; typed: boolean }
  | { kind: 'moveMany'; picks: number[]; bad: unknown; bounds: unknown[]; count: unknown; typed: boolean }
  | { kind: 'remove'; pick: number; handle: unknown }
  | { kind: 'query'; bounds: unknown; out: 'array' | 'int32' | 'callback' | 'bad' }
  | { kind: 'getBounds'; pick: number; handle: unknown; out: 'array' | 'f64' | 'short' | 'bad' }
  | { kind: 'update' };

/** A box: ordinary near the origin mostly, with hostile finite coordinates often (min ≤ max). */
function validBox(d: Dimensions): fc.Arbitrary<number[]> {
  const axis = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 4 }))
        .map(([lo, s]) => [lo, lo + s]),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(hostileFinite(30), hostileFinite(30)).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
    },
    { weight: 1, arbitrary: hostileFinite(30).map((v) => [v, v]) },
  );
  return fc
    .array(axis, { minLength: d, maxLength: d })
    .map((axes) => [...axes.map((a) => a[0]), ...axes.map((a) => a[1])]);
}

/** Bounds: valid most of the time; else a wrong length, a bad entry, min > max, or not an array at all. */
function anyBounds(d: Dimensions): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: validBox(d) },
    {
      weight: 1,
      arbitrary: fc.array(hostileFinite(), { minLength: 0, maxLength: 8 }).filter((a) => a.length !== 2 * d),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(validBox(d), fc.nat({ max: 2 * d - 1 }), anyNumber())
        .map(([b, i, v]) => b.map((x, j) => (j === i ? v : x))),
    },
    {
      weight: 1,
      arbitrary: validBox(d)
        .filter((b) => b.some((v, k) => k < d && v !== b[k + d]))
        .map((b) => [...b.slice(d), ...b.slice(0, d)]),
    },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_NUMBERS, 'abcdef', 5, { length: 2 * d }) },
  );
}

/** Whether bounds are a valid box for `d` (the oracle, written apart from the library's checks). */
function validBounds(b: unknown, d: Dimensions): b is number[] {
  if (!Array.isArray(b) && !(b instanceof Float64Array)) return false;
  if (b.length !== 2 * d) return false;
  for (let i = 0; i < 2 * d; i++) if (!isFiniteNumber(b[i])) return false;
  for (let k = 0; k < d; k++) if (b[k] > b[k + d]) return false;
  return true;
}

/** A made-up handle: negative, fractional, huge, NaN, or not a number. */
const badHandle = fc.constantFrom<unknown>(
  -1,
  1.5,
  Number.NaN,
  2 ** 31,
  1e300,
  123456,
  '0',
  null,
  undefined,
  {},
);

/** An `isStatic` argument: true or false mostly, sometimes something else. */
const anyStaticFlag = fc.oneof(
  { weight: 8, arbitrary: fc.boolean() as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(1, 0, 'true', null, Number.NaN, {}) },
);

/** Fuzzed operations; with `statics`, inserts name a static flag and `setStatic` calls come too. */
function opArb(d: Dimensions, statics = false): fc.Arbitrary<FuzzOp> {
  const bounds = anyBounds(d);
  const handle = fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: badHandle },
  );
  const insert: fc.Arbitrary<FuzzOp> = statics
    ? fc
        .tuple(bounds, fc.boolean(), fc.oneof(anyStaticFlag, fc.constant(undefined)))
        .map(([b, typed, isStatic]) => ({ kind: 'insert' as const, bounds: b, typed, isStatic }))
    : fc.tuple(bounds, fc.boolean()).map(([b, typed]) => ({ kind: 'insert' as const, bounds: b, typed }));
  const flips: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzOp> }> = statics
    ? [
        {
          weight: 4,
          arbitrary: fc
            .tuple(fc.integer({ min: -3, max: 1000 }), handle, anyStaticFlag)
            .map(([pick, h, isStatic]) => ({ kind: 'setStatic' as const, pick, handle: h, isStatic })),
        },
      ]
    : [];
  return fc.oneof(
    { weight: 5, arbitrary: insert },
    ...flips,
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.integer({ min: -3, max: 1000 }), handle, bounds, fc.boolean())
        .map(([pick, h, b, typed]) => ({ kind: 'move' as const, pick, handle: h, bounds: b, typed })),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.array(fc.integer({ min: -1, max: 1000 }), { minLength: 0, maxLength: 6 }),
          fc.oneof(
            { weight: 8, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, 'ab', { 0: 1 }) },
          ),
          fc.array(bounds, { minLength: 0, maxLength: 6 }),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant(undefined) },
            { weight: 2, arbitrary: fc.nat({ max: 6 }) },
            {
              weight: 2,
              arbitrary: fc.constantFrom<unknown>(
                Number.NaN,
                -1,
                1.5,
                7,
                1e9,
                Number.POSITIVE_INFINITY,
                '1',
                null,
              ),
            },
          ),
          fc.boolean(),
        )
        .map(([picks, bad, bs, count, typed]) => ({
          kind: 'moveMany' as const,
          picks,
          bad,
          bounds: bs,
          count,
          typed,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: -3, max: 1000 }), handle)
        .map(([pick, h]) => ({ kind: 'remove' as const, pick, handle: h })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(bounds, fc.constantFrom('array', 'int32', 'callback', 'bad') as fc.Arbitrary<'array'>)
        .map(([b, out]) => ({ kind: 'query' as const, bounds: b, out })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: -3, max: 1000 }),
          handle,
          fc.constantFrom('array', 'f64', 'short', 'bad') as fc.Arbitrary<'array'>,
        )
        .map(([pick, h, out]) => ({ kind: 'getBounds' as const, pick, handle: h, out })),
    },
    { weight: 3, arbitrary: fc.constant({ kind: 'update' as const }) },
  );
}

/** Runs fuzzed operations against one broadphase in lockstep with BruteForce. */
class Fuzzer {
  readonly step: Lockstep;
  readonly stale: number[] = [];

  constructor(
    readonly bp: Broadphase,
    readonly d: Dimensions,
  ) {
    this.step = new Lockstep(bp, d);
  }

  /** The tested handle an op means: a live one (pick ≥ 0), a stale one (pick −1..−3), or made up. */
  private handleOf(pick: number, made: unknown): { handle: unknown; live: number } {
    if (made !== undefined) return { handle: made, live: -1 };
    const live = this.step.live;
    if (pick >= 0 && live.length > 0) {
      const i = pick % live.length;
      return { handle: live[i][0], live: i };
    }
    if (this.stale.length > 0) return { handle: this.stale[-pick % this.stale.length], live: -1 };
    return { handle: 987654, live: -1 };
  }

  private boundsArg(b: unknown, typed: boolean): unknown {
    return typed && Array.isArray(b) && b.every((v) => typeof v === 'number') ? Float64Array.from(b) : b;
  }

  apply(op: FuzzOp): void {
    const { bp, d, step } = this;
    const what = `${op.kind} ${'bounds' in op ? show(op.bounds) : ''}`;
    switch (op.kind) {
      case 'insert': {
        const b = this.boundsArg(op.bounds, op.typed);
        const flag = op.isStatic;
        if (validBounds(op.bounds, d) && (flag === undefined || typeof flag === 'boolean')) {
          step.apply({ kind: 'insert', box: Array.from(b as ArrayLike<number>), isStatic: flag });
        } else if (!('isStatic' in op)) {
          expectClearError(() => bp.insert(b as number[]), /bounds|min|max/, what);
        } else {
          const count = bp.count;
          expectClearError(
            () => bp.insert(b as number[], 0, flag as boolean),
            /bounds|min|max|isStatic/,
            `${what} isStatic=${show(flag)}`,
          );
          expect(bp.count).toBe(count);
        }
        break;
      }
      case 'setStatic': {
        const { handle, live } = this.handleOf(op.pick, op.handle);
        if (live >= 0 && typeof op.isStatic === 'boolean') {
          step.apply({ kind: 'setStatic', pick: live, isStatic: op.isStatic });
        } else {
          expectClearError(
            () => bp.setStatic(handle as number, op.isStatic as boolean),
            /handle|isStatic/,
            `setStatic ${show(handle)} ${show(op.isStatic)}`,
          );
          if (live < 0) {
            expectClearError(() => bp.isStatic(handle as number), /handle/, `isStatic ${show(handle)}`);
          }
        }
        break;
      }
      case 'move': {
        const { handle, live } = this.handleOf(op.pick, op.handle);
        const b = this.boundsArg(op.bounds, op.typed);
        if (live >= 0 && validBounds(op.bounds, d)) {
          step.apply({ kind: 'move', pick: live, box: Array.from(b as ArrayLike<number>) });
        } else {
          expectClearError(
            () => bp.move(handle as number, b as number[]),
            /handle|bounds|min|max/,
            `${what} h=${show(handle)}`,
          );
        }
        break;
      }
      case 'moveMany': {
        const s = 2 * d;
        const picked = op.picks.map((p) => this.handleOf(p, undefined));
        const handles =
          op.bad !== undefined
            ? op.bad
            : op.typed
              ? Int32Array.from(picked.map((p) => p.handle as number))
              : picked.map((p) => p.handle);
        const flat: unknown[] = [];
        for (const b of op.bounds) {
          if (Array.isArray(b)) flat.push(...b);
          else flat.push(b);
        }
        const bounds =
          op.typed && flat.every((v) => typeof v === 'number') ? Float64Array.from(flat as number[]) : flat;
        const n = op.count === undefined ? picked.length : op.count;
        let valid =
          op.bad === undefined && Number.isInteger(n) && (n as number) >= 0 && (n as number) <= picked.length;
        if (valid) {
          const count = n as number;
          if (flat.length < count * s) valid = false;
          for (let i = 0; valid && i < count; i++) {
            if (picked[i].live < 0) valid = false;
            else if (!validBounds(flat.slice(i * s, i * s + s), d)) valid = false;
          }
        }
        const call = () =>
          (bp as SweepAndPrune).moveMany(
            handles as number[],
            bounds as number[],
            op.count as number | undefined,
          );
        if (valid) {
          call();
          for (let i = 0; i < (n as number); i++) {
            step.ref.move(step.live[picked[i].live][1], (flat as number[]).slice(i * s, i * s + s));
          }
        } else {
          expectClearError(
            call,
            /handle|bounds|count|min|max/,
            `moveMany ${show(handles)} ${show(flat)} count=${show(op.count)}`,
          );
        }
        break;
      }
      case 'remove': {
        const { handle, live } = this.handleOf(op.pick, op.handle);
        if (live >= 0) {
          step.apply({ kind: 'remove', pick: live });
          this.stale.push(handle as number);
        } else {
          expectClearError(() => bp.remove(handle as number), /handle/, `remove ${show(handle)}`);
        }
        break;
      }
      case 'query': {
        const valid = validBounds(op.bounds, d);
        if (op.out === 'bad') {
          expectClearError(
            () => bp.queryBounds(op.bounds as number[], 7 as never),
            /bounds|min|max|out/,
            what,
          );
        } else if (!valid) {
          expectClearError(() => bp.queryBounds(op.bounds as number[], []), /bounds|min|max/, what);
        } else if (op.out === 'array') {
          step.apply({ kind: 'query', box: op.bounds as number[] });
        } else {
          const got: number[] = [];
          const buffer = new Int32Array(1000);
          const n =
            op.out === 'int32'
              ? bp.queryBounds(op.bounds as number[], buffer)
              : bp.queryBounds(op.bounds as number[], (h) => got.push(h));
          if (op.out === 'int32') got.push(...buffer.subarray(0, n));
          const want: number[] = [];
          step.ref.queryBounds(op.bounds as number[], want);
          expect(n).toBe(want.length);
          const map = new Map(step.live.map(([h, r]) => [h, r]));
          expect(got.map((h) => map.get(h)).sort((a, b) => a! - b!)).toEqual(want.sort((a, b) => a - b));
        }
        break;
      }
      case 'getBounds': {
        const { handle, live } = this.handleOf(op.pick, op.handle);
        const out =
          op.out === 'array'
            ? []
            : op.out === 'f64'
              ? new Float64Array(2 * d)
              : op.out === 'short'
                ? new Float64Array(1)
                : null;
        if (live >= 0 && (op.out === 'array' || op.out === 'f64')) {
          const got = Array.from(bp.getBounds(handle as number, out as number[]));
          expect(got).toEqual(Array.from(step.ref.getBounds(step.live[live][1], [])));
          expect(bp.has(handle as number)).toBe(true);
        } else {
          expectClearError(
            () => bp.getBounds(handle as number, out as number[]),
            /handle|out/,
            `getBounds ${show(handle)} ${op.out}`,
          );
          if (live < 0) expect(bp.has(handle as number)).toBe(false);
        }
        break;
      }
      case 'update':
        step.update();
        break;
    }
  }
}

for (const entry of BROADPHASES) {
  describe(`fuzz: ${entry.name}`, () => {
    for (const d of [2, 3] as const) {
      it(`${d}-D: hostile calls throw clear errors, change nothing, and pairs equal BruteForce`, {
        timeout: 120_000,
      }, () => {
        fc.assert(
          fc.property(fc.array(opArb(d), { minLength: 1, maxLength: 60 }), (ops) => {
            const f = new Fuzzer(entry.create({ dimensions: d }), d);
            for (const op of ops) f.apply(op);
            f.step.update();
          }),
          { seed: SEED + 16_000 + d + 10 * BROADPHASES.indexOf(entry), numRuns: Math.ceil(40 * RUNS) },
        );
      });

      it(`${d}-D with static proxies: hostile flags and handles throw clear errors, pairs equal BruteForce`, {
        timeout: 120_000,
      }, (ctx) => {
        if (typeof entry.create({ dimensions: d }).setStatic !== 'function') ctx.skip();
        fc.assert(
          fc.property(fc.array(opArb(d, true), { minLength: 1, maxLength: 60 }), (ops) => {
            const f = new Fuzzer(entry.create({ dimensions: d }), d);
            for (const op of ops) f.apply(op);
            f.step.update();
          }),
          { seed: SEED + 17_000 + d + 10 * BROADPHASES.indexOf(entry), numRuns: Math.ceil(40 * RUNS) },
        );
      });
    }
  });
}

describe('fuzz: broadphase constructors', () => {
  const optionValue = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: anyNumber(10) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('auto', 0.3, 1, 1e-6, 1e6, 2 ** -1070) },
  );
  const keys = [
    'initialCapacity',
    'cellSize',
    'autoGridThreshold',
    'objectsPerCell',
    'maxCellsPerObject',
    'passShare',
    'rebuildShare',
    'leafCapacity',
    'looseness',
    'margin',
    'maxDepth',
    'worldHalfSize',
  ];
  it('accept valid options or throw a clear error; a constructed broadphase works with far boxes', {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom<unknown>(2, 3, 2, 3, 4, 0, Number.NaN, '3', undefined),
        fc.array(optionValue, { minLength: keys.length, maxLength: keys.length }),
        fc.boolean(),
        fc.array(validBox(3), { minLength: 0, maxLength: 40 }),
        (dimensions, values, octree, boxes) => {
          const options: Record<string, unknown> = { dimensions, validate: true };
          keys.forEach((k, i) => {
            if (values[i] !== undefined) options[k] = values[i];
          });
          let bp: Broadphase;
          try {
            bp = octree ? new Octree(options as never) : new SweepAndPrune(options as never);
          } catch (e) {
            expect(e instanceof TypeError || e instanceof RangeError, String(e)).toBe(true);
            const named = Object.keys(options).some((k) => (e as Error).message.includes(k));
            expect(named, String(e)).toBe(true);
            return;
          }
          const d = bp.dimensions;
          const step = new Lockstep(bp, d);
          for (const b of boxes) step.apply({ kind: 'insert', box: d === 3 ? b : [b[0], b[1], b[3], b[4]] });
          step.update();
          for (let i = 0; i < boxes.length; i += 3) {
            const b = boxes[(i * 7) % boxes.length];
            step.apply({ kind: 'move', pick: i, box: d === 3 ? b : [b[0], b[1], b[3], b[4]] });
          }
          step.update();
        },
      ),
      { seed: SEED + 16_500, numRuns: Math.ceil(150 * RUNS) },
    );
  });
});
