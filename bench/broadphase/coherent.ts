/**
 * Issue 2's benchmark: coherent 3-D motion (boxes of varied size bouncing in a cube, 5 % volume
 * fraction) at N = 1 000 … 100 000. Times move + update + pairs per frame for Sieve's SweepAndPrune
 * and its peers on the same motion (SweepAndPrune and Rapier alternating frame by frame), checks that
 * everybody finds the same pairs, and reports medians.
 */
import { performance } from 'node:perf_hooks';
import { median } from '../lib/stats.js';
import { type Contestant, cannon, rapier, sieveBrute, sieveSap, sortAndSweep } from './contestants.js';
import { makeScene, type Scene } from './scene.js';

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
  /** Stop timing a contestant after this many seconds at one N (at least `minFrames` frames). */
  budgetSeconds: number;
  minFrames: number;
}

export function contestants(): Contestant[] {
  return [
    sieveSap(),
    rapier(100_000),
    sortAndSweep(100_000),
    cannon('SAP', 20_000),
    sieveBrute(20_000),
    cannon('Naive', 5_000),
  ];
}

export async function runCoherent(
  o: CoherentOptions,
  log: (line: string) => void,
): Promise<CoherentResult[]> {
  const results: CoherentResult[] = [];
  for (const n of o.sizes) {
    const all = contestants().filter((c) => n <= c.maxN);
    // Sieve's SweepAndPrune and Rapier, the two fastest (whose ratio is a target), alternate frame by
    // frame; the slower references run one after another: between two frames of a fast contestant,
    // one of theirs would leave it a cold cache that neither fast one meets in the other's company.
    const groups = [all.slice(0, 2), ...all.slice(2).map((c) => [c])];
    let reference: Set<number> | undefined;
    for (const group of groups) {
      const scene = makeScene({ n, seed: 42 });
      for (const c of group) await c.setup(scene);
      // Pair check on the same frame for everybody: the first frame after setup.
      scene.step();
      const checked = group.map((c) => {
        const pairs = c.frame();
        const keys = c.pairKeys();
        reference ??= keys;
        let missed = 0;
        let extra = 0;
        for (const k of reference) if (!keys.has(k)) missed++;
        for (const k of keys) if (!reference.has(k)) extra++;
        return { pairs: pairs >= 0 ? pairs : keys.size, missed, extra };
      });
      const times = timeAlternating(scene, group, o);
      group.forEach((c, k) => {
        c.dispose?.();
        const r: CoherentResult = {
          n,
          contestant: c.name,
          msPerFrame: median(times[k]),
          frames: times[k].length,
          ...checked[k],
        };
        results.push(r);
        log(
          `N=${String(n).padStart(6)}  ${r.contestant.padEnd(34)} ${r.msPerFrame.toFixed(3).padStart(9)} ms/frame` +
            `  (${r.frames} frames)  pairs ${r.pairs}  missed ${r.missed}  extra ${r.extra}`,
        );
      });
    }
  }
  return results;
}

/**
 * Times frames of the contestants on one scene, alternating between them (who goes first rotates);
 * each stops at `frames` timed frames or, past `minFrames`, when its own frames have taken
 * `budgetSeconds`. Returns each one's frame times in ms.
 */
function timeAlternating(scene: Scene, cs: Contestant[], o: CoherentOptions): number[][] {
  const times: number[][] = cs.map(() => []);
  const spent = cs.map(() => 0);
  const done = cs.map(() => false);
  for (let f = 0, running = cs.length; running > 0; f++) {
    scene.step();
    for (let j = 0; j < cs.length; j++) {
      const k = (j + f) % cs.length;
      if (done[k]) continue;
      const c = cs[k];
      const t0 = performance.now();
      c.frame();
      const t1 = performance.now();
      if (f < o.warmup) continue;
      times[k].push(c.selfTimed ? c.selfTimed() : t1 - t0);
      spent[k] += t1 - t0;
      const count = times[k].length;
      if (count >= o.frames || (count >= o.minFrames && spent[k] / 1000 > o.budgetSeconds)) {
        done[k] = true;
        running--;
      }
    }
  }
  return times;
}
