/**
 * The two paths of the Sieve detector — the sweep for small or mostly moving worlds, the incremental
 * broadphase for large or mostly resting ones — and the switches between them as a world grows,
 * shrinks and falls asleep: every switch must leave the simulation exactly as stock's.
 */
import { SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveDetector, type SieveOptions } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { compareRuns } from './harness.js';
import { rng, type Scene, walls } from './scenes.js';

const { Bodies, Composite, Detector, Engine } = Matter;

/**
 * `n` static bars as wide as the 600-px box, stacked above its ceiling, away from everything else.
 * They come first in the x-order and the sweep compares each with every awake body (stock's sweep
 * does too): a world whose sweep costs a lot while bodies are awake — where the broadphase pays.
 */
function ceilingBars(n: number): Matter.Body[] {
  const bars: Matter.Body[] = [];
  for (let i = 0; i < n; i++) bars.push(Bodies.rectangle(300, -60 - 4 * i, 620, 4, { isStatic: true }));
  return bars;
}

/**
 * A world that grows from 420 to about 580 bodies (a body dropped every step), then loses them again
 * (one removed every step), with a static platform that sometimes teleports and 400 static bars;
 * sleeping enabled, so a settled pile rests.
 */
function growAndShrink(seed: number): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const platform = Bodies.rectangle(300, 300, 160, 12, { isStatic: true });
  Composite.add(engine.world, [...walls(600, 500), platform, ...ceilingBars(400)]);
  const shape = () => {
    const x = 40 + r() * 520;
    const s = 10 + r() * 18;
    return r() < 0.5 ? Bodies.circle(x, 20, s / 2) : Bodies.rectangle(x, 20, s, s * (0.6 + r()));
  };
  for (let i = 0; i < 15; i++) Composite.add(engine.world, shape());
  return {
    engine,
    beforeStep(step) {
      if (step < 160) Composite.add(engine.world, shape());
      else if (step >= 300 && step < 460) {
        const dynamic = Composite.allBodies(engine.world).filter((b) => !b.isStatic);
        const victim = dynamic[Math.floor(r() * dynamic.length)];
        if (victim) Composite.remove(engine.world, victim);
      }
      if (step % 90 === 45) Matter.Body.setPosition(platform, { x: 150 + r() * 300, y: 250 + r() * 100 });
    },
  };
}

/**
 * Constant bodies, sleeping enabled: columns of equal boxes (equal min.x: ties in the x-order) and a
 * few balls under 200 static bars: while they move the broadphase answers, once they sleep the sweep
 * takes over the same `detector.bodies` (so the tie order it starts from matters); every 150 steps
 * all are woken and scattered.
 */
function wakeAndSleep(seed: number): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const bodies: Matter.Body[] = [...walls(600, 500), ...ceilingBars(200)];
  for (let c = 0; c < 5; c++) {
    for (let k = 0; k < 8; k++) bodies.push(Bodies.rectangle(80 + c * 100, 485 - k * 30, 30, 30));
  }
  for (let i = 0; i < 12; i++) bodies.push(Bodies.circle(40 + r() * 520, 60 + r() * 100, 6 + r() * 6));
  Composite.add(engine.world, bodies);
  return {
    engine,
    beforeStep(step) {
      if (step % 150 !== 149) return;
      for (const b of bodies) {
        if (b.isStatic) continue;
        Matter.Sleeping.set(b, false);
        Matter.Body.setVelocity(b, { x: (r() - 0.5) * 12, y: -r() * 8 });
      }
    },
  };
}

/**
 * `k` static bars of width `width` spanning x first in the x-order, `a` awake circles spread under them
 * (40 px apart, never overlapping in x): the sweep visits exactly k × a pairs. Sieve installed with
 * `sweepBelow: 100` and `options`; `bar(i)` makes one more bar, `steps(n)` runs n updates.
 */
function barsOverCircles(k: number, a: number, width: number, options: SieveOptions) {
  const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
  const sieve = installSieve(e, {
    broadphase: new SweepAndPrune({ dimensions: 2 }),
    sweepBelow: 100,
    ...options,
  });
  const bar = (i: number) => Bodies.rectangle(width / 2, -10 - 4 * i, width, 4, { isStatic: true });
  const bars: Matter.Body[] = [];
  for (let i = 0; i < k; i++) bars.push(bar(i));
  const circles: Matter.Body[] = [];
  for (let i = 0; i < a; i++) {
    const c = Bodies.circle(100 + 40 * i, 300, 5);
    Matter.Body.setVelocity(c, { x: 0, y: 0.05 });
    circles.push(c);
  }
  Composite.add(e.world, [...bars, ...circles]);
  const steps = (n: number) => {
    for (let i = 0; i < n; i++) Engine.update(e, 16);
  };
  return { e, sieve, bar, bars, steps };
}

describe('sweep ↔ broadphase switching', () => {
  it('the same bodies falling asleep and woken again switch paths both ways on one detector.bodies: same as stock', () => {
    const paths: string[] = [];
    let sieve: SieveDetector | undefined;
    const r = compareRuns(
      () => wakeAndSleep(43),
      // The fifth path (the sweep again, once the woken bodies sleep) answers from update 439 on.
      depth(460, 620),
      (engine) => {
        // The cost model of untracked static bodies (the sweep reading every body).
        sieve = installSieve(engine, {
          broadphase: new SweepAndPrune({ dimensions: 2 }),
          sweepBelow: 32,
          trackStatic: false,
        });
      },
      () => {
        const p = sieve?.stats.path ?? '';
        if (sieve && sieve.stats.steps > 0 && paths[paths.length - 1] !== p) paths.push(p);
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(paths.join(' ')).toMatch(/^sweep broadphase sweep broadphase sweep/);
  });

  it('a world growing past the threshold and shrinking below it, asleep and awake: same as stock at every step', () => {
    const paths: string[] = [];
    let sieve: SieveDetector | undefined;
    const r = compareRuns(
      () => growAndShrink(41),
      // The broadphase answers from update 87 on (past 500 bodies), the sweep again from update 343.
      depth(360, 520),
      (engine) => {
        sieve = installSieve(engine, { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 500 });
      },
      () => {
        const p = sieve?.stats.path ?? '';
        if (sieve && sieve.stats.steps > 0 && paths[paths.length - 1] !== p) paths.push(p);
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(5000);
    // It really switched, both ways, more than once.
    expect(paths[0]).toBe('sweep');
    expect(paths.filter((p) => p === 'broadphase').length).toBeGreaterThanOrEqual(1);
    expect(paths.length).toBeGreaterThanOrEqual(3);
  });

  it("handing back to the sweep on the same detector.bodies keeps stock's order of tied bodies", () => {
    // Detector.collisions called directly, bounds moved by hand: a and b share min.x; while the
    // broadphase answers, a leaves to the right and comes back (stock now orders b before a); then
    // the world wakes up and moves, and the sweep takes over the same array.
    const build = () => {
      const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      const a = Bodies.rectangle(0, 0, 10, 10, { label: 'a' });
      const b = Bodies.rectangle(0, 8, 10, 10, { label: 'b' });
      const c = Bodies.rectangle(0, 16, 10, 10, { label: 'c' });
      const rest: Matter.Body[] = [];
      for (let i = 0; i < 120; i++)
        rest.push(Bodies.rectangle(100 + 20 * i, 0, 10, 10, { label: `s${i}`, isSleeping: true }));
      Composite.add(e.world, [a, b, c, ...rest]);
      Engine.update(e, 16); // detector.bodies filled and sorted by stock
      return { e, a, rest };
    };
    const stock = build();
    const mine = build();
    const sieve = installSieve(mine.e, { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }); // the broadphase, until handed back below
    const both = (f: (w: ReturnType<typeof build>) => void) => {
      f(stock);
      f(mine);
    };
    const paths: string[] = [];
    const step = () => {
      const names = (w: ReturnType<typeof build>) =>
        Detector.collisions(w.e.detector)
          .map((x) => `${x.bodyA.label}-${x.bodyB.label}`)
          .join(',');
      expect(names(mine)).toBe(names(stock));
      paths.push(sieve.stats.path);
      if (sieve.stats.path === 'sweep') {
        expect(mine.e.detector.bodies.map((x) => x.label)).toEqual(
          stock.e.detector.bodies.map((x) => x.label),
        );
      }
    };
    for (let i = 0; i < 10; i++) step();
    expect(sieve.stats.path).toBe('broadphase'); // nothing moves
    both((w) => Matter.Body.translate(w.a, { x: 20, y: 0 }));
    step();
    both((w) => Matter.Body.translate(w.a, { x: -20, y: 0 }));
    step();
    sieve.sweepBelow = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 10; i++) {
      both((w) => {
        for (const s of w.rest) {
          s.isSleeping = false;
          Matter.Body.translate(s, { x: i % 2 === 0 ? 1 : -1, y: 0 });
        }
      });
      step();
    }
    expect(sieve.stats.path).toBe('sweep');
    expect(paths.lastIndexOf('broadphase')).toBeGreaterThan(8);
    // The case really arose: b now comes before a, as stock has it.
    const order = mine.e.detector.bodies.map((x) => x.label);
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('a'));
    sieve.uninstall();
  });

  it('switches at the documented counts: visits ≥ 11 per body + 100 per awake body, kept down to 3/4 of it', () => {
    // K static bars spanning x first in the x-order, A awake circles spread under them: the sweep
    // visits exactly K × A pairs (each bar with each awake body; the circles never overlap in x).
    const { e, sieve, bar, bars, steps } = barsOverCircles(246, 20, 1000, { trackStatic: false });
    steps(30);
    // 246 × 20 = 4920 visits < 11 × 266 + 100 × 20 = 4926.
    expect((sieve as unknown as { visits: number }).visits).toBe(4920);
    expect(sieve.stats.path).toBe('sweep');
    Composite.add(e.world, bar(246)); // 4940 ≥ 11 × 267 + 2000 = 4937
    steps(8); // the first step still sees the last step's visits
    expect(sieve.stats.path).toBe('sweep');
    steps(1);
    expect(sieve.stats.path).toBe('broadphase');
    // Kept while 4 × visits ≥ 3 × (11 × bodies + 100 × awake): 151 bars, 3020 × 4 ≥ 3881 × 3.
    Composite.remove(e.world, bars.slice(150));
    steps(40);
    expect(sieve.stats.path).toBe('broadphase');
    // 141 bars: 2820 × 4 < 3771 × 3. The broadphase counts visits every 16 steps, then 8 to switch.
    Composite.remove(e.world, bars.slice(140, 150));
    steps(16 + 8);
    expect(sieve.stats.path).toBe('sweep');
    expect((sieve as unknown as { visits: number }).visits).toBe(2820);
    sieve.uninstall();
  });

  it('with static bodies tracked (the default), switches at 40 visits per body + 100 per awake body', () => {
    // The same layout: K bars over A awake circles, the sweep visiting K × A pairs.
    const { e, sieve, bar, steps } = barsOverCircles(419, 60, 4000, {});
    steps(30);
    // 419 × 60 = 25 140 visits < 40 × 479 + 100 × 60 = 25 160.
    expect((sieve as unknown as { visits: number }).visits).toBe(25140);
    expect(sieve.stats.path).toBe('sweep');
    Composite.add(e.world, bar(419)); // 25 200 ≥ 40 × 480 + 6000 = 25 200
    steps(8);
    expect(sieve.stats.path).toBe('sweep');
    steps(1);
    expect(sieve.stats.path).toBe('broadphase');
    sieve.uninstall();
  });

  it('the sweep reports counts, and a non-finite min.x gives stock answer itself', () => {
    const build = () => {
      const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      const box = (label: string, x: number, isStatic = false) =>
        Bodies.rectangle(x, 0, 10, 10, { label, isStatic });
      // a–b and b–c overlap; c–d overlap but both are static (not a candidate); e is alone.
      const bodies = [box('a', 0), box('b', 6), box('c', 12, true), box('d', 20, true), box('e', 300)];
      Composite.add(e.world, bodies);
      Engine.update(e, 16);
      return { e, bodies };
    };
    const stock = build();
    const mine = build();
    const s = installSieve(mine.e);
    Engine.update(stock.e, 16);
    Engine.update(mine.e, 16);
    expect(s.stats.path).toBe('sweep');
    expect([s.stats.candidatePairs, s.stats.testedPairs, s.stats.collisions]).toEqual([2, 2, 2]);
    expect(s.stats.bodies).toBe(5);
    const names = (e: Matter.Engine) => {
      const out = Detector.collisions(e.detector).map((x) => `${x.bodyA.label}-${x.bodyB.label}`);
      return { out, order: e.detector.bodies.map((x) => x.label) };
    };
    for (const w of [stock, mine]) w.bodies[1].bounds.min.x = Number.NaN;
    expect(names(mine.e)).toEqual(names(stock.e));
    expect(s.stats.candidatePairs).toBeNaN();
    for (const w of [stock, mine]) w.bodies[3].bounds.min.x = Number.NEGATIVE_INFINITY;
    expect(names(mine.e)).toEqual(names(stock.e));
    s.uninstall();
  });
});
