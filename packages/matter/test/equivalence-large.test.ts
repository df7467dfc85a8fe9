/**
 * Many bodies (1 200: mixed shapes, compound bodies, filters, sensors, fast bodies, sleeping, a deep
 * pile) for 200 updates: collisions, events and every body's state equal stock's exactly.
 */
import { installSieve } from '@sieve/matter';
import { expect, it } from 'vitest';
import { compareRuns } from './harness.js';
import { largeMix } from './scenes.js';

it('1 200 bodies of every kind, 200 updates, bit for bit', () => {
  const r = compareRuns(
    () => largeMix(31, 1200),
    200,
    (engine) => {
      installSieve(engine);
    },
  );
  expect(r.what).toBe('');
  expect(r.firstDifference).toBe(-1);
  expect(r.totalCollisions).toBeGreaterThan(200 * 1000);
});
