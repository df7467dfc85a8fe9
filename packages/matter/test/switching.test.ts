/**
 * Installing, switching and uninstalling on live engines: every combination must leave the
 * simulation exactly as stock's (the stock engine beside it never sees Sieve).
 */
import { SweepAndPrune } from '@sieve/core';
import { getSieve, installSieve, type SieveOptions, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './harness.js';
import { churn, filtersAndSensors, stacksAndPile } from './scenes.js';

/**
 * The configurations every switching test runs: the default (the sweep), and a `SweepAndPrune` with
 * its path forced — where switching to stock and uninstalling must hand `detector.bodies` back in
 * stock's order, and switching back must resync. A factory: an instance serves one engine.
 */
const CONFIGS: [string, () => SieveOptions][] = [
  ['the sweep (default)', () => ({})],
  [
    'a SweepAndPrune, its path forced',
    () => ({ broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }),
  ],
];

for (const [config, options] of CONFIGS)
  describe(`install / switch / uninstall on a live engine: ${config}`, () => {
    it('install mid-run, toggle stock ↔ Sieve every 37 updates, uninstall, reinstall: same as stock throughout', () => {
      const r = compareRuns(
        () => churn(11),
        360,
        () => {},
        (engine, step) => {
          if (step === 50) installSieve(engine, options());
          if (step > 50 && step < 250 && step % 37 === 0) {
            const sieve = getSieve(engine);
            if (sieve) sieve.mode = sieve.mode === 'sieve' ? 'stock' : 'sieve';
          }
          if (step === 250) expect(uninstallSieve(engine)).toBe(true);
          if (step === 300) installSieve(engine, { ...options(), mode: 'sieve' });
        },
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
    });

    it('starting in stock mode and switching on later is exact too (x-order ties carried over)', () => {
      const r = compareRuns(
        () => stacksAndPile(12, 120),
        200,
        (engine) => {
          installSieve(engine, { ...options(), mode: 'stock' });
        },
        (engine, step) => {
          const sieve = getSieve(engine);
          if (sieve && step === 40) sieve.mode = 'sieve';
          if (sieve && step === 120) sieve.mode = 'stock';
          if (sieve && step === 121) sieve.mode = 'sieve';
        },
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
    });

    it('Composite.clear, re-adding bodies and Engine.clear mid-run are followed', () => {
      const scene = () => {
        const sc = filtersAndSensors(13, 120);
        sc.beforeStep = (step) => {
          if (step === 60) {
            const keep = Matter.Composite.allBodies(sc.engine.world).slice(0, 40);
            Matter.Composite.clear(sc.engine.world, false);
            Matter.Composite.add(sc.engine.world, keep);
          }
          if (step === 100) Matter.Engine.clear(sc.engine);
        };
        return sc;
      };
      const r = compareRuns(scene, 160, (engine) => {
        installSieve(engine, options());
      });
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
    });
  });
