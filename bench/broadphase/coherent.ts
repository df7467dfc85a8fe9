/**
 * Issue 2's benchmark: coherent 3-D motion (boxes of varied size bouncing in a cube, 5 % volume
 * fraction) at N = 1 000 … 100 000. Times move + update + pairs per frame for Sieve's SweepAndPrune
 * and its peers on the same motion (SweepAndPrune and Rapier alternating frame by frame), checks that
 * everybody finds the same pairs, and reports medians.
 */
import { type Contestant, cannon, rapier, sieveBrute, sieveSap, sortAndSweep } from './contestants.js';
import { alternate } from './dense.js';
import { makeScene } from './scene.js';

export interface CoherentResult {
  n: number;
  contestant: string;
  /** Median ms per frame over the timed frames. */
  msPerFrame: number;
  frames: number;
  /** Pairs at the checked frame. */
  pairs: number;
  /** Pairs Sieve's SweepAndPrune found that this contestant did not (and the reverse). */
  missed: number;
  extra: number;
}

export interface CoherentOptions {
  sizes: number[];
  frames: number;
  warmup: number;
  /** Stop timing after this many seconds at one N (at least 5 frames; see alternate). */
  budgetSeconds: number;
}

/**
 * The contestants, in the groups that alternate frame by frame: Sieve's SweepAndPrune and Rapier, the two
 * fastest (whose ratio is a target), together; each slower reference alone (between two frames of a fast
 * contestant, one of theirs would leave it a cold cache that neither fast one meets in the other's
 * company).
 */
export function contestantGroups(): Contestant[][] {
  return [
    [sieveSap(), rapier(100_000)],
    [sortAndSweep(100_000)],
    [cannon('SAP', 20_000)],
    [sieveBrute(20_000)],
    [cannon('Naive', 5_000)],
  ];
}

export async function runCoherent(
  o: CoherentOptions,
  log: (line: string) => void,
): Promise<CoherentResult[]> {
  const results: CoherentResult[] = [];
  for (const n of o.sizes) {
    const groups = contestantGroups()
      .map((group) => group.filter((c) => n <= c.maxN))
      .filter((group) => group.length > 0);
    // Every group starts from the same scene, so all are checked on the same frame.
    let reference: Set<number> | undefined;
    for (const group of groups) {
      const r = await alternate(makeScene({ n, seed: 42 }), group, o, [], reference);
      reference = r.reference;
      group.forEach((c, k) => {
        const row: CoherentResult = {
          n,
          contestant: c.name,
          msPerFrame: r.ms[k],
          frames: r.frames[k],
          pairs: r.pairs[k],
          missed: r.missed[k],
          extra: r.extra[k],
        };
        results.push(row);
        log(
          `N=${String(n).padStart(6)}  ${row.contestant.padEnd(34)} ${row.msPerFrame.toFixed(3).padStart(9)} ms/frame` +
            `  (${row.frames} frames)  pairs ${row.pairs}  missed ${row.missed}  extra ${row.extra}`,
        );
      });
    }
  }
  return results;
}
