/**
 * Installing, switching and uninstalling on live engines: every combination must leave the
 * simulation exactly as stock's (the stock engine beside it never sees Sieve).
 */
import { SweepAndPrune } from '@sieve/core';
import { getSieve, installSieve, type SieveOptions, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { compareRuns } from './harness.js';
import { churn, filtersAndSensors, type Scene, stacksAndPile, walls } from './scenes.js';

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

/**
 * The first test's timeline: Sieve installed at `install`, toggled every 37 updates until `uninstall`
 * (an odd number of toggles: it leaves from stock mode), reinstalled at `reinstall`, run to `steps` (past
 * update 150, where the scene's gravity changes).
 */
const LIVE = depth(
  { install: 20, uninstall: 140, reinstall: 160, steps: 200 },
  { install: 50, uninstall: 250, reinstall: 300, steps: 360 },
);
/** The second test's: Sieve on at 40, off at `off`, on again at `off + 1`, run to `steps`. */
const LATER = depth({ off: 80, steps: 120 }, { off: 120, steps: 200 });

for (const [config, options] of CONFIGS)
  describe(`install / switch / uninstall on a live engine: ${config}`, () => {
    it('install mid-run, toggle stock ↔ Sieve every 37 updates, uninstall, reinstall: same as stock throughout', () => {
      const r = compareRuns(
        () => churn(11),
        LIVE.steps,
        () => {},
        (engine, step) => {
          if (step === LIVE.install) installSieve(engine, options());
          if (step > LIVE.install && step < LIVE.uninstall && step % 37 === 0) {
            const sieve = getSieve(engine);
            if (sieve) sieve.mode = sieve.mode === 'sieve' ? 'stock' : 'sieve';
          }
          if (step === LIVE.uninstall) expect(uninstallSieve(engine)).toBe(true);
          if (step === LIVE.reinstall) installSieve(engine, { ...options(), mode: 'sieve' });
        },
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
    });

    it('starting in stock mode and switching on later is exact too (x-order ties carried over)', () => {
      const r = compareRuns(
        () => stacksAndPile(12, 120),
        LATER.steps,
        (engine) => {
          installSieve(engine, { ...options(), mode: 'stock' });
        },
        (engine, step) => {
          const sieve = getSieve(engine);
          if (sieve && step === 40) sieve.mode = 'sieve';
          if (sieve && step === LATER.off) sieve.mode = 'stock';
          if (sieve && step === LATER.off + 1) sieve.mode = 'sieve';
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

/**
 * Boxes of one width, added right to left (stock's x-sort reverses them), then lined up in one column
 * (equal `min.x`: stock's stable sort keeps the order it had, not the order they were added), spread
 * out in the other order and lined up again, on the steps of `at`. While the broadphase path answers,
 * `detector.bodies` stays as matter-js or stock last left it: a switch to stock or an uninstall must
 * hand it back in stock's order, and a switch back to Sieve must read stock's order again, or the
 * column's pairs are listed in another order and the solver visits them in another order. So must a
 * step the sweep answers because a body's bounds are not finite (a probe sent to x = ∞ at `away`,
 * removed the step after).
 */
function reorderedColumn(at: {
  column: number[];
  leftToRight: number[];
  rightToLeft: number[];
  away?: number;
}): Scene {
  const engine = Matter.Engine.create();
  const boxes: Matter.Body[] = [];
  for (let k = 0; k < 8; k++) boxes.push(Matter.Bodies.rectangle(700 - 80 * k, 585, 40, 30));
  const probe = Matter.Bodies.rectangle(60, 500, 20, 20);
  Matter.Composite.add(engine.world, [...walls(800, 600), ...boxes, probe]);
  const place = (x: (k: number) => number, y: (k: number) => number) => {
    for (let k = 0; k < boxes.length; k++) Matter.Body.setPosition(boxes[k], { x: x(k), y: y(k) });
  };
  return {
    engine,
    beforeStep(step) {
      if (at.column.includes(step))
        place(
          () => 300,
          (k) => 585 - 31 * k,
        );
      if (at.leftToRight.includes(step))
        place(
          (k) => 200 + 45 * k,
          () => 585,
        );
      if (at.rightToLeft.includes(step))
        place(
          (k) => 500 - 45 * k,
          () => 585,
        );
      if (step === at.away) Matter.Body.setPosition(probe, { x: Number.POSITIVE_INFINITY, y: 500 });
      if (at.away !== undefined && step === at.away + 1) Matter.Composite.remove(engine.world, probe);
    },
  };
}

describe("detector.bodies handed back in stock's order (a SweepAndPrune, its path forced)", () => {
  const forced = (): SieveOptions => ({ broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 });

  it('in the order stock left it, at a switch to stock and at an uninstall', () => {
    for (const leave of ['switch', 'uninstall'] as const) {
      const stock = reorderedColumn({ column: [10], leftToRight: [], rightToLeft: [] });
      const sieve = reorderedColumn({ column: [10], leftToRight: [], rightToLeft: [] });
      installSieve(sieve.engine, forced());
      for (let step = 0; step < 30; step++) {
        for (const sc of [stock, sieve]) {
          sc.beforeStep?.(step);
          Matter.Engine.update(sc.engine, 1000 / 60);
        }
      }
      if (leave === 'switch') getSieve(sieve.engine)!.mode = 'stock';
      else uninstallSieve(sieve.engine);
      // Body ids differ by a constant between the two engines (built one after the other).
      const ids = (sc: Scene) => sc.engine.detector.bodies.map((b) => b.id - sc.engine.detector.bodies[0].id);
      const labels = (sc: Scene) => sc.engine.detector.bodies.map((b) => b.label);
      expect(labels(sieve), leave).toEqual(labels(stock));
      expect(ids(sieve), leave).toEqual(ids(stock));
    }
  });

  it('keeps the simulation exact across switches, an uninstall and a reinstall, with ties in x', () => {
    // Each change of hands meets a column whose order the other side changed since it last answered.
    const at = { column: [10, 45, 70, 95], leftToRight: [40, 92], rightToLeft: [60], away: 100 };
    const r = compareRuns(
      () => reorderedColumn(at),
      120,
      (engine) => {
        installSieve(engine, forced());
      },
      (engine, step) => {
        const sieve = getSieve(engine);
        if (step === 30) sieve!.mode = 'stock';
        if (step === 50) sieve!.mode = 'sieve';
        if (step === 80) expect(uninstallSieve(engine)).toBe(true);
        if (step === 90) installSieve(engine, forced());
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(0);
  });
});
