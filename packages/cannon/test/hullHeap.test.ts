/**
 * The exact hull path allocates (almost) nothing: its contact generation for hull, box, cylinder and
 * sphere pairs, run 250 rounds a window in a child process (support/hullHeapProbe.ts), grows the heap
 * by a small fraction of what cannon's own `convexConvex` / `sphereConvex` allocate for the same pairs
 * (a `Vec3` per axis, per clipped vertex and per contact point, arrays per call). What remains (tens
 * of bytes a call) is V8's own boxing of numbers, not objects of ours.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const probe = fileURLToPath(new URL('./support/hullHeapProbe.ts', import.meta.url));
const run = (mode: string) =>
  JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, mode], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    }),
  ) as { growth: number[]; contacts: number };

describe('exact hull contacts: heap', () => {
  it('grow the heap by under a tenth of what cannon’s own code allocates for the same pairs', {
    timeout: 240_000,
  }, () => {
    const ours = run('quiet');
    const stock = run('stock');
    const control = run('allocate');
    expect(ours.contacts).toBe(stock.contacts); // the same work: the same contacts
    expect(ours.contacts).toBeGreaterThan(30_000);
    const quiet = Math.min(...ours.growth);
    // 500 rounds of 32 pair calls: cannon's own allocates megabytes a window.
    expect(Math.min(...stock.growth)).toBeGreaterThan(500_000);
    expect(quiet, `growth per window: ${ours.growth.join(', ')}`).toBeLessThan(
      Math.min(...stock.growth) / 10,
    );
    // The probe sees a 1-element array a round.
    expect(Math.min(...control.growth) - quiet).toBeGreaterThan(8_000);
  });
});
