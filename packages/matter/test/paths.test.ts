/**
 * The two paths of the Sieve detector — the sweep for small or mostly moving worlds, the incremental
 * broadphase for large or mostly resting ones — and the switches between them as a world grows,
 * shrinks and falls asleep: every switch must leave the simulation exactly as stock's.
 */
import { installSieve, type SieveDetector } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './harness.js';
import { rng, type Scene, walls } from './scenes.js';

const { Bodies, Composite, Detector, Engine } = Matter;

/**
 * A world that grows from 20 to about 180 bodies (a body dropped every step), then loses them again
 * (one removed every step), with a static platform that sometimes teleports; sleeping enabled, so a
 * settled pile rests.
 */
function growAndShrink(seed: number): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const platform = Bodies.rectangle(300, 300, 160, 12, { isStatic: true });
  Composite.add(engine.world, [...walls(600, 500), platform]);
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
 * few balls settle and sleep (the broadphase takes over), then every 150 steps all are woken and
 * scattered (the sweep takes back the same `detector.bodies`, so the tie order it starts from matters).
 */
function wakeAndSleep(seed: number): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const bodies: Matter.Body[] = [...walls(600, 500)];
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

describe('sweep ↔ broadphase switching', () => {
  it('the same bodies falling asleep and woken again switch paths both ways on one detector.bodies: same as stock', () => {
    const paths: string[] = [];
    let sieve: SieveDetector | undefined;
    const r = compareRuns(
      () => wakeAndSleep(43),
      620,
      (engine) => {
        sieve = installSieve(engine, { sweepBelow: 32 });
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
      520,
      (engine) => {
        sieve = installSieve(engine, { sweepBelow: 64 });
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
    // the world starts moving and the sweep takes over the same array.
    const build = () => {
      const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      const a = Bodies.rectangle(0, 0, 10, 10, { label: 'a' });
      const b = Bodies.rectangle(0, 8, 10, 10, { label: 'b' });
      const c = Bodies.rectangle(0, 16, 10, 10, { label: 'c' });
      const rest: Matter.Body[] = [];
      for (let i = 0; i < 30; i++)
        rest.push(Bodies.rectangle(100 + 20 * i, 0, 10, 10, { label: `s${i}`, isStatic: true }));
      Composite.add(e.world, [a, b, c, ...rest]);
      Engine.update(e, 16); // detector.bodies filled and sorted by stock
      return { e, a, rest };
    };
    const stock = build();
    const mine = build();
    const sieve = installSieve(mine.e, { sweepBelow: 16 });
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
    for (let i = 0; i < 10; i++) {
      both((w) => {
        for (const s of w.rest) Matter.Body.translate(s, { x: i % 2 === 0 ? 1 : -1, y: 0 });
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

  it('switches at the documented counts: up at sweepBelow with most bodies resting, down below 7/8 of it', () => {
    const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
    const sieve = installSieve(e, { sweepBelow: 40 });
    const add = (k: number) => {
      const bodies: Matter.Body[] = [];
      for (let i = 0; i < k; i++) {
        const n = Composite.allBodies(e.world).length + i;
        bodies.push(Bodies.rectangle((n % 10) * 12, Math.floor(n / 10) * 12, 10, 10, { isStatic: true }));
      }
      Composite.add(e.world, bodies);
    };
    const steps = (k: number) => {
      for (let i = 0; i < k; i++) Engine.update(e, 16);
    };
    add(39);
    steps(20);
    expect(sieve.stats.path).toBe('sweep'); // 39 < 40
    add(1);
    steps(7);
    expect(sieve.stats.path).toBe('sweep'); // 7 steps preferring it: not yet
    steps(1);
    expect(sieve.stats.path).toBe('broadphase');
    Composite.remove(e.world, Composite.allBodies(e.world).slice(0, 5)); // 35 = 7/8 of 40: stays
    steps(20);
    expect(sieve.stats.path).toBe('broadphase');
    Composite.remove(e.world, Composite.allBodies(e.world)[0]); // 34 < 35
    steps(8);
    expect(sieve.stats.path).toBe('sweep');
    // All moving: the sweep stays up to 32 × sweepBelow bodies.
    const f = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
    const moving = installSieve(f, { sweepBelow: 4 });
    const r = rng(3);
    for (let i = 0; i < 127; i++) {
      const b = Bodies.circle(r() * 1000, r() * 1000, 3);
      Matter.Body.setVelocity(b, { x: r() - 0.5, y: r() - 0.5 });
      Composite.add(f.world, b);
    }
    for (let i = 0; i < 20; i++) Engine.update(f, 16);
    expect(moving.stats.path).toBe('sweep');
    Composite.add(f.world, Bodies.circle(-50, -50, 3)); // 128 = 32 × 4: at once
    Engine.update(f, 16);
    expect(moving.stats.path).toBe('broadphase');
  });

  it('the sweep reports counts, and a non-finite min.x gives stock answer itself', () => {
    const build = () => {
      const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      const box = (label: string, x: number, isStatic = false) =>
        Bodies.rectangle(x, 0, 10, 10, { label, isStatic });
      // a–b and b–c overlap; c–d overlap but both are static; e is alone.
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
    expect([s.stats.candidatePairs, s.stats.testedPairs, s.stats.collisions]).toEqual([3, 2, 2]);
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
