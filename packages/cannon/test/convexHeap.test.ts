/**
 * The convex option allocates nothing per step: its handlers, run over a settled scene's pairs (hull,
 * box, cylinder, sphere and heightfield; touching and apart) 200 rounds a window in a child process
 * (convexHeapProbe.ts), grow the heap by no more than handlers that do nothing — what is left is
 * cannon's own `getContacts` — while one small array a call shows up in every window.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../../test/support/runProbe.js';

const probe = fileURLToPath(new URL('./convexHeapProbe.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./convexHeapProbe.tsconfig.json', import.meta.url));
const run = (mode: string) =>
  runProbe<{ growth: number[]; contacts: number; pairs: number }>(probe, [mode], { tsconfig });

describe('convex option: heap', () => {
  it('grows the heap no more than handlers that do nothing', { timeout: 240_000 }, () => {
    const ours = run('quiet');
    const baseline = run('baseline');
    const control = run('allocate');
    expect(ours.pairs).toBeGreaterThan(200);
    expect(ours.contacts).toBeGreaterThan(100_000); // the handlers really work every round
    expect(baseline.contacts).toBe(0);
    const quiet = Math.min(...ours.growth);
    const floor = Math.min(...baseline.growth);
    // 200 rounds of 200+ handler calls: under 8 KB is under 0.2 bytes a call.
    expect(
      quiet - floor,
      `ours ${ours.growth.join(', ')}; baseline ${baseline.growth.join(', ')}`,
    ).toBeLessThan(8 * 1024);
    // The probe sees one small array a call.
    expect(Math.min(...control.growth) - quiet).toBeGreaterThan(1_000_000);
  });
});
