/**
 * Sieve-detected engines against stock matter-js, update by update: the same collisions (parts, in
 * order), the same collision events, and every body at exactly the same position, angle and velocity
 * (Object.is on every number) — piles, stacks with tied x-bounds, sleeping, bodies added and removed.
 */
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { onBothPaths, PATHS } from './bothPaths.js';
import { churn, sleepingPile, stacksAndPile } from './scenes.js';

/** Updates of each scene: the pile has landed on the stacks by update 90. */
const STACKS_STEPS = depth(120, 300);
/**
 * The pile is mostly asleep by update 120; the late arrivals of updates 119 and 179 land on it and wake
 * bodies.
 */
const SLEEPING_STEPS = depth(200, 400);
/** Past update 150, where gravity changes. */
const CHURN_STEPS = depth(180, 300);

const stacks = onBothPaths(() => stacksAndPile(1, 220), STACKS_STEPS);
const sleeping = onBothPaths(() => sleepingPile(2), SLEEPING_STEPS);
const churning = onBothPaths(() => churn(3), CHURN_STEPS);

describe.each(PATHS)('Sieve detector ($path path) vs stock, bit for bit', ({ path, index }) => {
  it(`stacks of boxes (equal min.x) beside a falling pile of circles, boxes and polygons, ${STACKS_STEPS} updates`, () => {
    const r = stacks(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(10000); // the scene really collides
  });

  it(`sleeping enabled: bodies settle, sleep, and are woken by late arrivals, ${SLEEPING_STEPS} updates`, () => {
    const r = sleeping(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalStarts).toBeGreaterThan(50);
  });

  it(`bodies added and removed mid-run, a static platform moved by hand, gravity changed, ${CHURN_STEPS} updates`, () => {
    const r = churning(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
  });
});
