/**
 * `installSieve(engine, { broadphase: 'parallel' })`: the region-parallel sweep and prune on 2 Node
 * worker threads answers matter-js's detector, and the simulation stays bit for bit stock's — on a large
 * mixed scene (piles, compounds, filters, sensors, sleeping) and with bodies added and removed mid-run —
 * while the regions really split the world between the workers. Uninstalling stops its workers.
 */

import { ParallelSweepAndPrune } from '@sieve/core/parallel';
import { getSieve, installSieve, type SieveDetector, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { sharedPool, workerUrl } from '../../core/test/broadphase/parallelWorker.js';
import { compareRuns } from './harness.js';
import { churn, largeMix } from './scenes.js';

const { Engine } = Matter;

/** The parallel broadphase behind a detector (fails the test when it is another kind). */
function parallelOf(sieve: SieveDetector | undefined): ParallelSweepAndPrune {
  const bp = sieve?.broadphase;
  if (!(bp instanceof ParallelSweepAndPrune)) throw new Error('not a ParallelSweepAndPrune');
  return bp;
}

describe('the parallel broadphase under matter-js', () => {
  it('2 workers, 800 bodies of every kind, 120 updates: bit for bit, regions split between workers', () => {
    let sieve: SieveDetector | undefined;
    let broadphaseSteps = 0;
    let splitSteps = 0;
    const r = compareRuns(
      () => largeMix(41, 800),
      120,
      (engine) => {
        sieve = installSieve(engine, {
          broadphase: 'parallel',
          // The broadphase on every step (the sweep path would leave it idle), regions from 32 bodies.
          sweepBelow: 0,
          parallel: { pool: sharedPool(2), minBoxesPerRegion: 32 },
        });
      },
      () => {
        if (sieve?.stats.path === 'broadphase') broadphaseSteps++;
        const members = parallelOf(sieve).regionMembers();
        if (members[0] > 0 && members[1] > 0) splitSteps++;
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(120 * 500);
    const bp = parallelOf(sieve);
    expect(bp.mode).toBe('workers');
    expect(bp.fallbackReason).toBeNull();
    expect(bp.regionCount).toBe(2);
    // perStep runs before each update: the first sees no update yet.
    expect(broadphaseSteps).toBe(119);
    expect(splitSteps).toBeGreaterThan(100);
    const members = bp.regionMembers();
    expect(members[0] + members[1]).toBeGreaterThanOrEqual(800);
    expect(bp.regionTimes().length).toBe(2);
    expect(bp.regionTimes()[0]).toBeGreaterThan(0);
  });

  it('2 workers with bodies added and removed mid-run, a moving platform and gravity changing', () => {
    let sieve: SieveDetector | undefined;
    const r = compareRuns(
      () => churn(43, 200),
      200,
      (engine) => {
        sieve = installSieve(engine, {
          broadphase: 'parallel',
          sweepBelow: 0,
          parallel: { pool: sharedPool(2), minBoxesPerRegion: 16 },
        });
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(200 * 50);
    expect(parallelOf(sieve).mode).toBe('workers');
  });

  it('starts its own workers from options.parallel.workers and stops them on uninstall', async () => {
    const engine = Engine.create();
    const sieve = installSieve(engine, {
      broadphase: 'parallel',
      parallel: { workers: 2, workerUrl: workerUrl() },
    });
    const bp = parallelOf(sieve);
    expect(bp.regionCount).toBe(2);
    expect(bp.mode).toBe('workers');
    await bp.ready();
    Engine.update(engine, 1000 / 60);
    expect(getSieve(engine)).toBe(sieve);
    expect(uninstallSieve(engine)).toBe(true);
    expect(() => bp.insert([0, 0, 1, 1])).toThrow(/after dispose/);
  });

  it('rejects a bad options.parallel before installing anything', () => {
    const engine = Engine.create();
    expect(() =>
      installSieve(engine, { broadphase: 'parallel', parallel: 5 as unknown as { workers: number } }),
    ).toThrow(/options\.parallel must be an object/);
    expect(() => installSieve(engine, { broadphase: 'parallel', parallel: { workers: 0 } })).toThrow(
      /workers must be an integer/,
    );
    expect(getSieve(engine)).toBeUndefined();
  });
});
