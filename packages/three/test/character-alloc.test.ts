/**
 * `CharacterController.move` allocates nothing once warm: a player walks, climbs stairs and ramps, runs
 * into a 60° slope and through a narrow corridor, rides a rising, turning platform and is thrown at the
 * walls at 5 fps, one move a frame at 5 to 144 fps, in a child process (so the test runner's own traffic
 * does not share the heap). The quietest window of 500 frames is the measure; a control that allocates a
 * Float64Array(64) a frame must be seen in every window.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../../test/support/runProbe.js';

// @sieve/core from its sources, as in the test runner (a fresh clone has no dist/).
const tsconfig = fileURLToPath(new URL('./support/tsconfig.json', import.meta.url));

describe('CharacterController.move: no allocation once warm', () => {
  it('heap stays flat over 6000 frames of moves', () => {
    const probe = fileURLToPath(new URL('./support/characterHeapProbe.ts', import.meta.url));
    const run = (...extra: string[]) => runProbe(probe, extra, { tsconfig });
    // Runtime noise (JIT tiering, the loader) lands in some windows, never in all. Measured quietest
    // windows: 0.3–4 KB per 500 frames (under 8 bytes a move; a boxed double is 12–16 bytes).
    const quiet = run();
    expect(quiet.checksum).not.toBe(0);
    expect(Math.min(...quiet.growth), `growth per window: ${quiet.growth.join(', ')}`).toBeLessThan(16 * 500);
    const control = run('allocate');
    expect(control.checksum).toBe(quiet.checksum);
    expect(Math.min(...control.growth), `control: ${control.growth.join(', ')}`).toBeGreaterThan(
      2 * 64 * 500,
    );
  }, 120_000);
});
