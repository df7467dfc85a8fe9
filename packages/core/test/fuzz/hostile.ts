/**
 * Hostile input classes for the fuzz suites (fast-check): NaN, ±Infinity, −0, huge finite numbers up to
 * ±Number.MAX_VALUE, tiny and subnormal numbers, zero sizes, wrong lengths and wrong types — and the
 * helper that checks an error is a clear one (a TypeError or RangeError whose message names the
 * argument).
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** Finite numbers that break naive arithmetic: huge (squares overflow), tiny (squares underflow), −0. */
export const HOSTILE_FINITE = [
  0,
  -0,
  1,
  -1,
  0.3,
  5e-324,
  -5e-324,
  2.2250738585072014e-308,
  1e-300,
  1e-160,
  1e9,
  1e15,
  2 ** 53 + 2,
  1e18,
  1e20,
  1e100,
  1e154,
  1e200,
  1e300,
  -1e300,
  1.7e308,
  -1.7e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
];

/** Numbers no entry point may accept as coordinates. */
export const NON_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

/** Values of the wrong type where a number is expected. */
export const NOT_NUMBERS: unknown[] = ['1', null, undefined, {}, [], true, 1n, Symbol('x')];

/** A finite number: ordinary most of the time, from {@link HOSTILE_FINITE} often. */
export function hostileFinite(ordinary = 50): fc.Arbitrary<number> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.double({ min: -ordinary, max: ordinary, noNaN: true, noDefaultInfinity: true }),
    },
    { weight: 2, arbitrary: fc.integer({ min: -8, max: 8 }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_FINITE) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  );
}

/** Any value where a number is expected: finite (mostly), non-finite, or not a number at all. */
export function anyNumber(ordinary = 50): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: hostileFinite(ordinary) },
    { weight: 1, arbitrary: fc.constantFrom(...NON_FINITE) },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_NUMBERS) },
  );
}

/** Whether `v` is a finite number (what every coordinate must be). */
export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Runs `f`, which must throw a TypeError or RangeError whose message matches `names` (the argument
 * it names); fails the test with what happened otherwise.
 */
export function expectClearError(f: () => unknown, names: RegExp, what: string): void {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `${what}: no error`).toBeDefined();
  const ok = thrown instanceof TypeError || thrown instanceof RangeError;
  expect(ok, `${what}: threw ${String(thrown)}, not a TypeError or RangeError`).toBe(true);
  expect((thrown as Error).message, what).toMatch(names);
}

/** A readable label for a value in failure messages. */
export function show(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (Array.isArray(v) || ArrayBuffer.isView(v))
    return `[${Array.from(v as ArrayLike<unknown>, show).join(', ')}]`;
  return String(v);
}
