/**
 * Sieve-detected engines against stock matter-js, update by update (see harness.ts): fast bodies,
 * compound bodies (collisions between parts), collision filters (groups, categories, masks) and
 * sensors. Also shows the comparison can fail: a perturbed engine is caught.
 */

import { installSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { onBothPaths, PATHS } from './bothPaths.js';
import { compareRuns } from './harness.js';
import { compoundBodies, fastBodies, filtersAndSensors } from './scenes.js';

/** Updates of each scene: from update 60 on, collisions start on nearly every update of each. */
const FAST_STEPS = depth(150, 300);
const COMPOUND_STEPS = depth(120, 300);
const FILTERS_STEPS = depth(120, 300);

const fast = onBothPaths(() => fastBodies(4), FAST_STEPS);
const compound = onBothPaths(() => compoundBodies(5), COMPOUND_STEPS);
const filters = onBothPaths(() => filtersAndSensors(6), FILTERS_STEPS);

describe.each(PATHS)('Sieve detector ($path path) vs stock, bit for bit', ({ path, index }) => {
  it(`fast bodies (tens of px per step) among slow ones, ${FAST_STEPS} updates`, () => {
    const r = fast(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalStarts).toBeGreaterThan(100);
  });

  it(`compound bodies (parts[1..] collide, parent bounds gate), ${COMPOUND_STEPS} updates`, () => {
    const r = compound(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(1000);
  });

  it(`collision filters (groups ±, categories, masks) and sensors, ${FILTERS_STEPS} updates`, () => {
    const r = filters(index);
    expect(r.path).toBe(path);
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(1000);
  });
});

// Independent of the path (the default options): once, not once per path.
describe('the stock comparison', () => {
  it('the comparison catches a reordered collisions array and a 1e-12 px nudge', () => {
    // Same pairs, other order: reverse the second engine's collisions (a wrapper over the Sieve one).
    let wrapped: typeof Matter.Detector.collisions | undefined;
    try {
      const reversed = compareRuns(
        () => filtersAndSensors(6),
        60,
        (engine) => {
          installSieve(engine);
          const inner = Matter.Detector.collisions;
          wrapped = inner;
          Matter.Detector.collisions = (d) => {
            const out = inner(d);
            return d === engine.detector ? out.reverse() : out;
          };
        },
      );
      expect(reversed.firstDifference).toBeGreaterThanOrEqual(0);
      expect(reversed.what).toMatch(/collisions differ/);
    } finally {
      if (wrapped) Matter.Detector.collisions = wrapped;
    }
    const nudged = compareRuns(
      () => fastBodies(4),
      200,
      (engine) => {
        installSieve(engine);
        const body = Matter.Composite.allBodies(engine.world).find((b) => !b.isStatic) as Matter.Body;
        Matter.Body.setPosition(body, { x: body.position.x + 1e-12, y: body.position.y });
      },
    );
    expect(nudged.firstDifference).toBeGreaterThanOrEqual(0);
  });
});
