/**
 * Sieve-detected engines against stock matter-js, update by update: the same collisions (parts, in
 * order), the same collision events, and every body at exactly the same position, angle and velocity
 * (Object.is on every number) — piles, stacks with tied x-bounds, sleeping, bodies added and removed.
 */
import { installSieve, type SieveDetector } from '@sieve/matter';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './harness.js';
import { churn, sleepingPile, stacksAndPile } from './scenes.js';

/** Both of the Sieve detector's paths: the incremental broadphase, and the sweep of small worlds. */
describe.each([
  { path: 'broadphase', sweepBelow: 0 },
  { path: 'sweep', sweepBelow: Number.POSITIVE_INFINITY },
])('Sieve detector ($path path) vs stock, bit for bit', ({ path, sweepBelow }) => {
  let installed: SieveDetector | undefined;
  const sieve = (engine: Parameters<typeof installSieve>[0]) => {
    installed = installSieve(engine, { sweepBelow });
  };

  it('stacks of boxes (equal min.x) beside a falling pile of circles, boxes and polygons, 300 updates', () => {
    const r = compareRuns(() => stacksAndPile(1, 220), 300, sieve);
    expect(installed?.stats.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(10000); // the scene really collides
  });

  it('sleeping enabled: bodies settle, sleep, and are woken by late arrivals, 400 updates', () => {
    const r = compareRuns(() => sleepingPile(2), 400, sieve);
    expect(installed?.stats.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalStarts).toBeGreaterThan(50);
  });

  it('bodies added and removed mid-run, a static platform moved by hand, gravity changed, 300 updates', () => {
    const r = compareRuns(() => churn(3), 300, sieve);
    expect(installed?.stats.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
  });
});
