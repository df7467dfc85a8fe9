/**
 * Issue 2's benchmark: coherent 3-D motion (boxes of varied size bouncing in a cube, 5 % volume
 * fraction) at N = 1 000 … 100 000. Times move + update + pairs per frame for Sieve's SweepAndPrune
 * and its peers on the same motion, checks that everybody finds the same pairs, and reports medians.
 */
import { performance } from 'node:perf_hooks';
import { median } from '../lib/stats.js';
import { type Contestant, cannon, rapier, sieveBrute, sieveSap, sortAndSweep } from './contestants.js';
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
    let reference: Set<number> | undefined;
    for (const c of contestants()) {
      if (n > c.maxN) continue;
      const scene = makeScene({ n, seed: 42 });
      await c.setup(scene);
      // Pair check on the same frame for everybody: the first frame after setup.
      scene.step();
      const pairs = c.frame();
      const keys = c.pairKeys();
      let missed = 0;
      let extra = 0;
      if (!reference) reference = keys;
      else {
        for (const k of reference) if (!keys.has(k)) missed++;
        for (const k of keys) if (!reference.has(k)) extra++;
      }
      for (let f = 0; f < o.warmup; f++) {
        scene.step();
        c.frame();
      }
      const times: number[] = [];
      const start = performance.now();
      while (times.length < o.frames) {
        scene.step();
        const t0 = performance.now();
        c.frame();
        const t1 = performance.now();
        times.push(c.selfTimed ? c.selfTimed() : t1 - t0);
        if (times.length >= o.minFrames && (t1 - start) / 1000 > o.budgetSeconds) break;
      }
      c.dispose?.();
      const r: CoherentResult = {
        n,
        contestant: c.name,
        msPerFrame: median(times),
        frames: times.length,
        pairs: pairs >= 0 ? pairs : keys.size,
        missed,
        extra,
      };
      results.push(r);
      log(
        `N=${String(n).padStart(6)}  ${c.name.padEnd(34)} ${r.msPerFrame.toFixed(3).padStart(9)} ms/frame` +
          `  (${r.frames} frames)  pairs ${r.pairs}  missed ${missed}  extra ${extra}`,
      );
    }
  }
  return results;
}
