/**
 * `installSieve(engine, { broadphase: new ParallelSweepAndPrune({ dimensions: 2, ... }) })`: the
 * region-parallel sweep and prune on 2 Node worker threads, built and owned by the caller, answers
 * matter-js's detector, and the simulation stays bit for bit stock's — on a large mixed scene (piles,
 * compounds, filters, sensors, sleeping) and with bodies added and removed mid-run — while the regions
 * really split the world between the workers. Uninstalling leaves the instance to its owner (usable,
 * empty, threads running until its `dispose()`); every bad `options.broadphase`, the former
 * `'parallel'` name and `options.parallel` are refused before anything changes.
 */

import { SweepAndPrune } from '@sieve/core';
import { ParallelSweepAndPrune } from '@sieve/core/parallel';
import { getSieve, installSieve, type SieveDetector, type SieveOptions, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { sharedPool, workerUrl } from '../../core/test/broadphase/parallelWorker.js';
import { compareRuns } from './harness.js';
import { churn, largeMix } from './scenes.js';

const { Bodies, Composite, Detector, Engine } = Matter;

/** Updates of the large scene. */
const LARGE_STEPS = depth(60, 120);
/** Updates of the churning scene: past update 150, where gravity changes. */
const CHURN_STEPS = depth(160, 200);

/** A 2-D parallel broadphase on the test process's shared pool of 2 workers. */
function onSharedPool(minBoxesPerRegion: number): ParallelSweepAndPrune {
  return new ParallelSweepAndPrune({ dimensions: 2, pool: sharedPool(2), minBoxesPerRegion });
}

/** An engine with a few overlapping boxes, so a broadphase step inserts proxies. */
function boxes(): Matter.Engine {
  const engine = Engine.create();
  for (let i = 0; i < 6; i++) Composite.add(engine.world, Bodies.rectangle(30 * i, 0, 40, 40));
  return engine;
}

describe('the parallel broadphase under matter-js (a caller-owned instance)', () => {
  it(`2 workers, 800 bodies of every kind, ${LARGE_STEPS} updates: bit for bit, regions split between workers`, () => {
    // The broadphase on every step (the sweep path would leave it idle), regions from 32 bodies.
    const bp = onSharedPool(32);
    let sieve: SieveDetector | undefined;
    let broadphaseSteps = 0;
    let splitSteps = 0;
    try {
      const r = compareRuns(
        () => largeMix(41, 800),
        LARGE_STEPS,
        (engine) => {
          sieve = installSieve(engine, { broadphase: bp, sweepBelow: 0 });
        },
        () => {
          if (sieve?.stats.path === 'broadphase') broadphaseSteps++;
          const members = bp.regionMembers();
          if (members[0] > 0 && members[1] > 0) splitSteps++;
        },
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalCollisions).toBeGreaterThan(LARGE_STEPS * 500);
      expect(sieve?.broadphase).toBe(bp);
      expect(bp.mode).toBe('workers');
      expect(bp.fallbackReason).toBeNull();
      expect(bp.regionCount).toBe(2);
      // perStep runs before each update: the first sees no update yet.
      expect(broadphaseSteps).toBe(LARGE_STEPS - 1);
      expect(splitSteps).toBeGreaterThan(LARGE_STEPS - 20);
      const members = bp.regionMembers();
      expect(members[0] + members[1]).toBeGreaterThanOrEqual(800);
      expect(bp.regionTimes().length).toBe(2);
      expect(bp.regionTimes()[0]).toBeGreaterThan(0);
    } finally {
      bp.dispose();
    }
  });

  it('2 workers with bodies added and removed mid-run, a moving platform and gravity changing', () => {
    const bp = onSharedPool(16);
    try {
      const r = compareRuns(
        () => churn(43, 200),
        CHURN_STEPS,
        (engine) => {
          installSieve(engine, { broadphase: bp, sweepBelow: 0 });
        },
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalCollisions).toBeGreaterThan(CHURN_STEPS * 50);
      expect(bp.mode).toBe('workers');
    } finally {
      bp.dispose();
    }
  });

  it('uninstalling leaves a caller-owned instance usable and empty; its owner stops the workers', async () => {
    const bp = new ParallelSweepAndPrune({ dimensions: 2, workers: 2, workerUrl: workerUrl() });
    try {
      const engine = boxes();
      const sieve = installSieve(engine, { broadphase: bp, sweepBelow: 0 });
      expect(sieve.broadphase).toBe(bp);
      expect(bp.regionCount).toBe(2);
      expect(bp.mode).toBe('workers');
      await bp.ready();
      Engine.update(engine, 1000 / 60);
      expect(sieve.stats.path).toBe('broadphase');
      expect(bp.count).toBe(6);
      expect(bp.pairCount).toBeGreaterThan(0);
      expect(getSieve(engine)).toBe(sieve);
      expect(uninstallSieve(engine)).toBe(true);
      // Not disposed: the detector's proxies are gone (their pairs end at the next update)...
      expect(bp.count).toBe(0);
      bp.update();
      expect(bp.pairCount).toBe(0);
      expect(bp.endedCount).toBeGreaterThan(0);
      // ...and the instance still works, on its workers, for its owner or another engine.
      const a = bp.insert([0, 0, 2, 2]);
      const b = bp.insert([1, 1, 3, 3]);
      bp.update();
      expect(bp.pairCount).toBe(1);
      bp.remove(a);
      bp.remove(b);
      bp.update();
      expect(bp.count).toBe(0);
      const again = boxes();
      installSieve(again, { broadphase: bp, sweepBelow: 0 });
      Engine.update(again, 1000 / 60);
      expect(bp.count).toBe(6);
      uninstallSieve(again);
    } finally {
      bp.dispose();
    }
    expect(() => bp.insert([0, 0, 1, 1])).toThrow(/after dispose/);
  });

  it("rejects the former 'parallel' name and options.parallel with how to pass an instance", () => {
    const engine = Engine.create();
    const collisions = Detector.collisions;
    const bad = [
      { broadphase: 'parallel' },
      { broadphase: 'parallel', parallel: { workers: 2 } },
      { parallel: { workers: 2 } },
      { broadphase: 'sap', parallel: {} },
    ] as unknown as SieveOptions[];
    for (const options of bad) {
      // The removed option (a key) is a TypeError, as an unknown key; the removed name (a value) a RangeError.
      const kind = 'parallel' in options ? TypeError : RangeError;
      expect(() => installSieve(engine, options)).toThrow(kind);
      expect(() => installSieve(engine, options)).toThrow(
        /new ParallelSweepAndPrune\(\{ dimensions: 2.*'@sieve\/core\/parallel'/,
      );
    }
    expect(() => installSieve(engine, bad[0])).toThrow(/options\.broadphase: 'parallel'/);
    expect(() => installSieve(engine, bad[2])).toThrow(/options\.parallel/);
    expect(getSieve(engine)).toBeUndefined();
    expect(Detector.collisions).toBe(collisions);
  });

  it('rejects bad, non-empty, 3-D, shared or contradictory instances before installing anything', () => {
    const engine = boxes();
    const collisions = Detector.collisions;
    const install =
      (broadphase: unknown, more: SieveOptions = {}) =>
      () =>
        installSieve(engine, { ...more, broadphase: broadphase as SieveOptions['broadphase'] });
    // Not a broadphase.
    expect(install('grid')).toThrow(RangeError);
    expect(install('grid')).toThrow(/options\.broadphase must be a Broadphase instance, got 'grid'/);
    expect(install('sap')).toThrow(/'sap' is not built by name; pass broadphase: new SweepAndPrune/);
    // The octree is passed as an instance (not built by name, so bundles without it do not ship it).
    expect(install('octree')).toThrow(/'octree' is not built by name; pass broadphase: new Octree/);
    expect(install(5)).toThrow(TypeError);
    expect(install(() => 0)).toThrow(TypeError);
    expect(install({})).toThrow(TypeError);
    expect(install({})).toThrow(/options\.broadphase .*Broadphase contract.*missing insert\(\)/);
    const { update: _, ...noUpdate } = Object.fromEntries(
      ['insert', 'moveMany', 'remove', 'update', 'pairBuffers', 'pairTags', 'queryBounds', 'tagOf'].map(
        (m) => [m, () => 0],
      ),
    );
    expect(install({ ...noUpdate, dimensions: 2, count: 0 })).toThrow(/missing update\(\)/);
    // A 3-D one (sequential and parallel).
    const flat3 = new SweepAndPrune({ dimensions: 3 });
    expect(install(flat3)).toThrow(RangeError);
    expect(install(flat3)).toThrow(/options\.broadphase must be a 2-D broadphase.*dimensions 3/);
    const par3 = new ParallelSweepAndPrune({ dimensions: 3, pool: sharedPool(2) });
    const par2 = onSharedPool(32);
    try {
      expect(install(par3)).toThrow(/options\.broadphase must be a 2-D broadphase/);
      // A non-empty one (left as it was).
      par2.insert([0, 0, 1, 1]);
      expect(install(par2)).toThrow(RangeError);
      expect(install(par2)).toThrow(/options\.broadphase must be empty \(count 0\), got count 1/);
      expect(par2.count).toBe(1);
      // The removed sap/octree options (the instance takes its options in its constructor).
      const flat = new SweepAndPrune({ dimensions: 2 });
      expect(install(flat, { sap: {} as never })).toThrow(TypeError);
      expect(install(flat, { sap: {} as never })).toThrow(
        /options\.sap is not supported; pass broadphase: new SweepAndPrune/,
      );
      expect(install(flat, { octree: {} as never })).toThrow(/options\.octree is not supported/);
      // Checked after the other options, before anything is built.
      expect(install(flat, { mode: 'bogus' as never })).toThrow(/options\.mode/);
      expect(getSieve(engine)).toBeUndefined();
      expect(Detector.collisions).toBe(collisions);
      expect(flat.count).toBe(0);
      // One engine per instance, even before its first step filled it.
      const first = installSieve(Engine.create(), { broadphase: flat });
      expect(install(flat)).toThrow(/options\.broadphase already serves another engine/);
      first.uninstall();
      expect(installSieve(engine, { broadphase: flat })).toBe(getSieve(engine));
      uninstallSieve(engine);
    } finally {
      par3.dispose();
      par2.dispose();
    }
  });
});
