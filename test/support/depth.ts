/**
 * How deep the long and randomized tests go. `pnpm test` runs the standard depth: every scene class,
 * configuration, boundary case and assertion, with fewer random cases, frames and steps per test (about
 * half the tests' own time of the full depth). `pnpm test:deep` (`SIEVE_TEST_DEPTH=deep`)
 * runs the full depth, several times the random cases and simulated time: run it before a release and
 * after changing a broadphase, a narrowphase or an engine adapter. Property tests keep their fixed seeds
 * at both depths, so a failure found at either depth reproduces at that depth.
 */

/** Whether this run is the full-depth one (`SIEVE_TEST_DEPTH=deep`, which `pnpm test:deep` sets). */
export const deep = process.env.SIEVE_TEST_DEPTH === 'deep';

/** `full` in a full-depth run (`pnpm test:deep`), `standard` otherwise (`pnpm test`). */
export function depth<T>(standard: T, full: T): T {
  return deep ? full : standard;
}
