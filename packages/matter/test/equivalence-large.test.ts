/**
 * Many bodies (1 200 — 600 at the standard depth —: mixed shapes, compound bodies, filters, sensors,
 * fast bodies, sleeping, a deep pile) for 200 updates (160 at the standard depth: the pile has settled
 * and most bodies sleep by then): collisions, events and every body's state equal stock's exactly.
 */
import { installSieve } from '@sieve/matter';
import { expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { compareRuns } from './harness.js';
import { largeMix } from './scenes.js';

const BODIES = depth(600, 1200);
const STEPS = depth(160, 200);
/** A count as the tests' names write it: `1 200`. */
const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

it(`${count(BODIES)} bodies of every kind, ${STEPS} updates, bit for bit`, () => {
  const r = compareRuns(
    () => largeMix(31, BODIES),
    STEPS,
    (engine) => {
      installSieve(engine);
    },
  );
  expect(r.what).toBe('');
  expect(r.firstDifference).toBe(-1);
  expect(r.totalCollisions).toBeGreaterThan(STEPS * 1000);
});
