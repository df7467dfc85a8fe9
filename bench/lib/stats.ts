/**
 * Timing helpers shared by every benchmark: medians over repetitions, never absolute pass/fail.
 */
import { performance } from 'node:perf_hooks';

/** The median of a list of numbers (the list is sorted in place). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

/** Milliseconds elapsed while running `fn` once. */
export function timeOnce(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * Runs `fn` `warmup` times untimed, then `reps` times timed, and returns the median in milliseconds.
 */
export function medianTime(fn: () => void, reps: number, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(timeOnce(fn));
  return median(times);
}

/** The test suites' seeded PRNG (mulberry32), so every benchmark scene is reproducible. */
export { rng } from '../../packages/core/test/support/rng.js';

/** Formats a ratio like `12.3×`. */
export function ratio(slow: number, fast: number): string {
  if (!(fast > 0) || !Number.isFinite(slow)) return 'n/a';
  return `${(slow / fast).toFixed(slow / fast >= 10 ? 0 : 1)}×`;
}
