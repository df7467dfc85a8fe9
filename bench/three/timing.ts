/**
 * CPU-time sampling shared by `bench:three` (`run.ts`) and its ray-only companion (`rays.ts`):
 * contenders timed in turn (ours, the peer, ours, …) so that the shared machine's noise hits all of
 * them alike, fast calls batched into samples of at least 3 ms, medians of the samples.
 */
import { median } from '../lib/stats.js';

/**
 * The process's CPU time in ms (user + system, all threads). Samples are timed in CPU time rather
 * than wall time: on a shared, oversubscribed machine a wall-clock sample also counts the time the
 * process waited for a core, which hits one contestant's sample and not the other's.
 */
export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** How many calls of `fn` make a sample of ≥ 3 ms, after a ≥ 30 ms warm-up. */
export function calibrate(fn: () => void): number {
  const w0 = cpuNow();
  for (let i = 0; i < 3 || cpuNow() - w0 < 30; i++) fn();
  let batch = 1;
  for (;;) {
    const t0 = cpuNow();
    for (let i = 0; i < batch; i++) fn();
    if (cpuNow() - t0 >= 3 || batch >= 1 << 20) return batch;
    batch *= 2;
  }
}

/** Median CPU ms per call of each contender over `reps` rounds, sampled in turn. */
export function compareCpu(fns: Array<() => void>, reps: number): number[] {
  const batches = fns.map(calibrate);
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r < reps; r++) {
    fns.forEach((fn, k) => {
      const t0 = cpuNow();
      for (let i = 0; i < batches[k]; i++) fn();
      samples[k].push((cpuNow() - t0) / batches[k]);
    });
  }
  return samples.map(median);
}
