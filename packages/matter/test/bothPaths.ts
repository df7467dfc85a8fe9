/**
 * The equivalence suites' two configurations: Sieve's detector forced onto each of its paths, compared
 * with one stock run of the same scene.
 */
import { SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveDetector } from '@sieve/matter';
import { compareRunsEach, sharedRuns } from './harness.js';
import type { Scene } from './scenes.js';

/**
 * Both of the Sieve detector's paths: the incremental broadphase (a `SweepAndPrune` passed as its
 * broadphase), and the sweep (the default, without one).
 */
export const PATHS = [
  { path: 'broadphase', sweepBelow: 0, index: 0 },
  { path: 'sweep', sweepBelow: undefined, index: 1 },
];

/**
 * A scene compared with stock on both paths, with one stock run: per path, the comparison and the
 * path its detector answered the last update on.
 */
export function onBothPaths(build: () => Scene, steps: number) {
  const installed: (SieveDetector | undefined)[] = [];
  const result = sharedRuns(() =>
    compareRunsEach(
      build,
      steps,
      PATHS.map(({ sweepBelow }, i) => (engine: Parameters<typeof installSieve>[0]) => {
        installed[i] = installSieve(
          engine,
          sweepBelow === 0 ? { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow } : {},
        );
      }),
    ),
  );
  return (i: number) => ({ ...result(i), path: installed[i]?.stats.path });
}
