/**
 * Sieve-detected engines against stock matter-js, update by update: the same collisions (parts, in
 * order), the same collision events, and every body at exactly the same position, angle and velocity
 * (Object.is on every number) — piles, stacks with tied x-bounds, sleeping, bodies added and removed.
 */
import { describe, expect, it } from 'vitest';
import { onBothPaths, PATHS } from './bothPaths.js';
import { churn, sleepingPile, stacksAndPile } from './scenes.js';

const stacks = onBothPaths(() => stacksAndPile(1, 220), 300);
const sleeping = onBothPaths(() => sleepingPile(2), 400);
const churning = onBothPaths(() => churn(3), 300);

describe.each(PATHS)('Sieve detector ($path path) vs stock, bit for bit', ({ path, index }) => {
  it('stacks of boxes (equal min.x) beside a falling pile of circles, boxes and polygons, 300 updates', () => {
    const r = stacks(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(10000); // the scene really collides
  });

  it('sleeping enabled: bodies settle, sleep, and are woken by late arrivals, 400 updates', () => {
    const r = sleeping(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalStarts).toBeGreaterThan(50);
  });

  it('bodies added and removed mid-run, a static platform moved by hand, gravity changed, 300 updates', () => {
    const r = churning(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
  });
});
