/**
 * No allocation per step once warm: the Sieve detector's own work (syncing proxies, the sweep and
 * prune, the x-order, candidate ordering, the narrowphase loop) must leave the heap flat. Timing is off
 * in the probe because Node's `performance.now()` allocates on every call; collisions are absent
 * because matter-js's `Collision.collides` allocates a pair-id string for every colliding pair (stock
 * does the same, not ours to fix).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ProbeReport, runProbe } from '../../../test/support/runProbe.js';

describe('SieveDetector heap', () => {
  it('stays flat over a 500-step window after the warm-up, with moving proxies and churning pairs', () => {
    // In a child process, so the test runner's own traffic does not share the heap; @sieve/core is
    // mapped to its sources (support/tsconfig.json) so no build is needed.
    const probe = fileURLToPath(new URL('./support/heapProbe.ts', import.meta.url));
    const tsconfig = fileURLToPath(new URL('./support/tsconfig.json', import.meta.url));
    const run = (...extra: string[]) =>
      runProbe<ProbeReport & { candidates: number; path: string }>(probe, ['400', '3000', ...extra], {
        tsconfig,
      });
    // A steady allocation of even 2 bytes a step grows every 500-step window by ≥ 1 KB. The runtime
    // (JIT tiers, the module loader) adds garbage to some windows, never to all: the quietest window
    // is the measure.
    for (const path of ['broadphase', 'sweep']) {
      const quiet = run('quiet', path);
      expect(quiet.path).toBe(path);
      expect(quiet.candidates).toBeGreaterThan(500); // the detector really finds pairs (the most in a step)
      expect(
        Math.min(...quiet.growth),
        `${path}: growth per window: ${quiet.growth.join(', ')}`,
      ).toBeLessThan(1024);
    }
    // The same probe allocating one 1-element array a step must see it in every window.
    const control = run('allocate');
    expect(Math.min(...control.growth), `control growth: ${control.growth.join(', ')}`).toBeGreaterThan(4096);
  });
});
