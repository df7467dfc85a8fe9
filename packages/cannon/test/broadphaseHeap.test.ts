/**
 * `SieveBroadphase` allocates nothing per step once warm on its sort and sweep (in strips): 1 500
 * drifting bodies, sleep toggles and a hand-edited body list, 200 steps a window in a child process
 * (support/broadphaseHeapProbe.ts), leave the heap flat, where a probe that keeps one 1-element array a
 * step shows it in every window. (A passed tree's own steps are `@sieve/core`'s heap tests.)
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../../test/support/runProbe.js';

const probe = fileURLToPath(new URL('./support/broadphaseHeapProbe.ts', import.meta.url));
const run = (...args: string[]) =>
  runProbe<{ growth: number[]; pairs: number; bodies: number; strips: number }>(probe, args, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });

describe('SieveBroadphase: heap', () => {
  it('stays flat over 200-step windows on the sweep', { timeout: 120_000 }, () => {
    const report = run('sweep');
    expect(report.pairs).toBeGreaterThan(300); // pairs really found and churning
    expect(report.bodies).toBe(1500);
    expect(report.strips).toBeGreaterThan(1);
    // A steady 8 bytes a step would grow every window by 1.6 kB; the runtime adds garbage to some
    // windows, never to all: the quietest one is the measure.
    expect(Math.min(...report.growth), report.growth.join(', ')).toBeLessThan(1024);
    const control = run('sweep', 'allocate');
    expect(Math.min(...control.growth), `control: ${control.growth.join(', ')}`).toBeGreaterThan(4096);
  });
});
