/**
 * The public API: install/uninstall bookkeeping and the patch of `Detector.collisions`, argument
 * checks, the stats an overlay reads, the octree option, and bodies with broken (non-finite) bounds.
 */
import { Octree, SweepAndPrune } from '@sieve/core';
import { getSieve, installSieve, type SieveDetector, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './harness.js';
import { compoundBodies, fastBodies } from './scenes.js';

const { Bodies, Body, Composite, Detector, Engine } = Matter;

describe('installSieve / uninstallSieve', () => {
  // First in this file (each file runs in its own process): nothing is installed yet.
  it('patches Detector.collisions while installed, leaves other engines alone, restores it after the last uninstall', () => {
    const original = Detector.collisions;
    const a = Engine.create();
    const b = Engine.create();
    const sa = installSieve(a);
    expect(Detector.collisions).not.toBe(original);
    const sb = installSieve(b, { broadphase: new Octree({ dimensions: 2 }) });
    expect(getSieve(a)).toBe(sa);
    expect(getSieve(b)).toBe(sb);
    expect(sb.broadphase?.constructor.name).toBe('Octree');
    expect(sa.broadphase).toBeNull();
    expect(uninstallSieve(a)).toBe(true);
    expect(uninstallSieve(a)).toBe(false);
    expect(sa.isInstalled).toBe(false);
    expect(getSieve(a)).toBeUndefined();
    expect(Detector.collisions).not.toBe(original); // b still has one
    sb.uninstall();
    expect(Detector.collisions).toBe(original);
    // A stock engine works as before, and a reinstall works.
    const c = Engine.create();
    Composite.add(c.world, [Bodies.rectangle(0, 0, 10, 10), Bodies.rectangle(5, 0, 10, 10)]);
    Engine.update(c, 16);
    expect(c.pairs.list.length).toBe(1);
    const sc = installSieve(c);
    Engine.update(c, 16);
    expect(sc.stats.collisions).toBe(1);
    expect(c.pairs.list.length).toBe(1);
    uninstallSieve(c);
    expect(Detector.collisions).toBe(original);
  });

  it("trackStatic: wraps the module's body-changing functions and step loops while installed, puts each back after", () => {
    const M = Matter as unknown as Record<string, Record<string, unknown>>;
    const names: [string, string][] = [
      ['Body', 'setPosition'],
      ['Body', 'setStatic'],
      ['Body', 'translate'],
      ['Sleeping', 'set'],
      ['Engine', '_bodiesApplyGravity'],
      ['Engine', '_bodiesUpdateVelocities'],
      ['Engine', '_bodiesClearForces'],
      ['Constraint', 'preSolveAll'],
      ['Resolver', 'postSolvePosition'],
    ];
    const before = names.map(([ns, fn]) => M[ns][fn]);
    const a = Engine.create();
    const b = Engine.create();
    installSieve(a);
    installSieve(b);
    names.forEach(([ns, fn], i) => {
      expect(M[ns][fn], `${ns}.${fn}`).not.toBe(before[i]);
    });
    uninstallSieve(a);
    expect(M.Body.setPosition).not.toBe(before[0]); // b still tracks
    uninstallSieve(b);
    names.forEach(([ns, fn], i) => {
      expect(M[ns][fn], `${ns}.${fn}`).toBe(before[i]);
    });
    // Off: nothing but Detector.collisions is wrapped.
    installSieve(a, { trackStatic: false });
    names.forEach(([ns, fn], i) => {
      expect(M[ns][fn], `${ns}.${fn}`).toBe(before[i]);
    });
    uninstallSieve(a);
  });

  it('does not restore over a wrapper added after it (the wrapper keeps working)', () => {
    const original = Detector.collisions;
    const e = Engine.create();
    installSieve(e);
    const patched = Detector.collisions;
    let calls = 0;
    Detector.collisions = (d) => {
      calls++;
      return patched(d);
    };
    const wrapper = Detector.collisions;
    uninstallSieve(e);
    expect(Detector.collisions).toBe(wrapper);
    Engine.update(e, 16);
    expect(calls).toBe(1);
    Detector.collisions = original;
  });

  it('rejects bad arguments with errors that name them', () => {
    expect(() => installSieve(null as never)).toThrow(/engine must be a Matter.Engine/);
    expect(() => installSieve({} as never)).toThrow(/engine must be a Matter.Engine/);
    expect(() => installSieve({ detector: { bodies: 3 } } as never)).toThrow(/detector.bodies/);
    const e = Engine.create();
    expect(() => installSieve(e, { broadphase: 'grid' as never })).toThrow(/options.broadphase/);
    expect(() => installSieve(e, { mode: 'fast' as never })).toThrow(/options.mode/);
    expect(() => installSieve(e, { matter: {} as never })).toThrow(/options.matter/);
    expect(() => installSieve(e, { sweepBelow: -1 })).toThrow(/options.sweepBelow/);
    expect(() => installSieve(e, { sweepBelow: Number.NaN })).toThrow(/options.sweepBelow/);
    expect(() => installSieve(e, { sweepBelow: '9' as never })).toThrow(/options.sweepBelow/);
    expect(() => installSieve(e, { trackStatic: 1 as never })).toThrow(/options.trackStatic/);
    expect(getSieve(e)).toBeUndefined(); // failed installs leave nothing behind
    const s = installSieve(e);
    expect(() => installSieve(e)).toThrow(/already has a Sieve detector/);
    expect(() => {
      s.mode = 'turbo' as never;
    }).toThrow(/SieveDetector.mode/);
    expect(uninstallSieve(null as never)).toBe(false);
    s.uninstall();
  });

  it('without a broadphase (the default) runs the sweep alone: a path choice without one throws, naming the option', () => {
    const e = Engine.create();
    const original = Detector.collisions;
    const noBroadphase =
      /options\.sweepBelow: without options\.broadphase the sweep answers every step.*new SweepAndPrune\(\{ dimensions: 2 \}\)/;
    expect(() => installSieve(e, { sweepBelow: 0 })).toThrow(RangeError);
    expect(() => installSieve(e, { sweepBelow: 0 })).toThrow(noBroadphase);
    expect(() => installSieve(e, { sweepBelow: 4096 })).toThrow(noBroadphase);
    expect(() => installSieve(e, { broadphase: 'sap' as never })).toThrow(
      /options\.broadphase: 'sap' is not built by name; pass broadphase: new SweepAndPrune/,
    );
    expect(() => installSieve(e, { sap: { cellSize: 4 } as never })).toThrow(
      /options\.sap is not supported; pass broadphase: new SweepAndPrune/,
    );
    expect(getSieve(e)).toBeUndefined();
    expect(Detector.collisions).toBe(original); // nothing changed
    // null is the same as leaving an option out (as for every option of installSieve).
    installSieve(e, { broadphase: null as never, sweepBelow: null as never }).uninstall();
    const s = installSieve(e, { sweepBelow: Number.POSITIVE_INFINITY });
    expect(s.broadphase).toBeNull();
    expect(s.sweepBelow).toBe(Number.POSITIVE_INFINITY);
    expect(() => {
      s.sweepBelow = 0;
    }).toThrow(/SieveDetector\.sweepBelow: without options\.broadphase/);
    expect(s.sweepBelow).toBe(Number.POSITIVE_INFINITY);
    s.sweepBelow = Number.POSITIVE_INFINITY;
    s.uninstall();
    // Ten tall columns of 500 bodies: a world the cost model gives a broadphase (the sweep would
    // visit about 250 pairs per body). Without one: still the sweep, and queries fall back to a scan.
    const crowd = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
    for (let i = 0; i < 5000; i++) {
      Composite.add(crowd.world, Bodies.circle((i % 10) * 3, Math.floor(i / 10) * 3, 1.2));
    }
    const u = installSieve(crowd);
    for (let i = 0; i < 12; i++) Engine.update(crowd, 1000 / 60);
    expect(u.stats.path).toBe('sweep');
    expect(u.queryBodies([0, 0, 10, 10], [])).toBe(-1);
    u.uninstall();
    const bp = new SweepAndPrune({ dimensions: 2 });
    const t = installSieve(crowd, { broadphase: bp });
    expect(t.broadphase).toBe(bp);
    expect(t.sweepBelow).toBe(4096);
    for (let i = 0; i < 12; i++) Engine.update(crowd, 1000 / 60);
    expect(t.stats.path).toBe('broadphase');
    expect(bp.count).toBe(5000);
    t.uninstall();
    expect(bp.count).toBe(0); // the caller's instance, handed back empty
  });
});

describe('SieveDetector.stats', () => {
  it('reports timings and counts in Sieve mode, and the detector time only in stock mode', () => {
    const { engine } = fastBodies(21, 150);
    const s: SieveDetector = installSieve(engine, {
      broadphase: new SweepAndPrune({ dimensions: 2 }),
      sweepBelow: 0,
    });
    for (let i = 0; i < 30; i++) Engine.update(engine, 1000 / 60);
    const st = s.stats;
    const collisions = (engine.detector as unknown as { collisions: unknown[] }).collisions;
    expect(st.mode).toBe('sieve');
    expect(st.path).toBe('broadphase');
    expect(st.steps).toBe(30);
    expect(st.bodies).toBe(Composite.allBodies(engine.world).length);
    expect(st.collisions).toBe(collisions.length);
    expect(st.collisions).toBeGreaterThan(0);
    expect(st.candidatePairs).toBeGreaterThanOrEqual(st.testedPairs);
    expect(st.testedPairs).toBeGreaterThanOrEqual(st.collisions);
    expect(st.moved).toBeGreaterThan(0);
    for (const v of [st.detectorMs, st.broadphaseMs, st.narrowphaseMs]) expect(v).toBeGreaterThanOrEqual(0);
    expect(st.detectorMs).toBeGreaterThanOrEqual(st.narrowphaseMs);
    s.mode = 'stock';
    Engine.update(engine, 1000 / 60);
    expect(st.mode).toBe('stock');
    expect(st.detectorMs).toBeGreaterThanOrEqual(0);
    expect(st.broadphaseMs).toBeNaN();
    expect(st.candidatePairs).toBeNaN();
    expect(st.collisions).toBe((engine.detector as unknown as { collisions: unknown[] }).collisions.length);
    s.uninstall();
  });
});

describe('options and edge cases', () => {
  it('takes a custom clock, or none (timings NaN)', () => {
    const { engine } = fastBodies(24, 60);
    let t = 0;
    const s = installSieve(engine, {
      broadphase: new SweepAndPrune({ dimensions: 2 }),
      sweepBelow: 0,
      clock: () => {
        t += 1;
        return t;
      },
    });
    Engine.update(engine, 1000 / 60);
    // Three readings a step: start, end of the broadphase part, end of the narrowphase part.
    expect([s.stats.broadphaseMs, s.stats.narrowphaseMs, s.stats.detectorMs]).toEqual([1, 1, 2]);
    s.uninstall();
    // The sweep path reads it twice: the detector time only.
    const swept = installSieve(engine, { clock: () => (t += 3) });
    Engine.update(engine, 1000 / 60);
    expect(swept.stats.path).toBe('sweep');
    expect([swept.stats.broadphaseMs, swept.stats.detectorMs]).toEqual([Number.NaN, 3]);
    swept.uninstall();
    const quiet = installSieve(engine, { clock: false, matter: Matter });
    Engine.update(engine, 1000 / 60);
    expect(quiet.stats.detectorMs).toBeNaN();
    expect(quiet.stats.broadphaseMs).toBeNaN();
    expect(quiet.stats.collisions).toBeGreaterThanOrEqual(0);
    quiet.uninstall();
    expect(() => installSieve(engine, { clock: 5 as never })).toThrow(/options.clock/);
  });

  it('broadphase: an Octree gives the same simulation as stock', () => {
    const r = compareRuns(
      () => compoundBodies(22),
      150,
      (engine) => {
        installSieve(engine, { broadphase: new Octree({ dimensions: 2 }), sweepBelow: 0 });
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
  });

  it('a SweepAndPrune with its own options (a fixed cell size) keeps the results', () => {
    const r = compareRuns(
      () => fastBodies(23, 150),
      150,
      (engine) => {
        installSieve(engine, {
          broadphase: new SweepAndPrune({ dimensions: 2, cellSize: 40 }),
          sweepBelow: 0,
        });
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
  });

  it("broadphase path: a body whose bounds become NaN or infinite gets stock's collisions (from the sweep) until they are finite again", () => {
    const world = (sieve: boolean) => {
      const e = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      const a = Bodies.rectangle(0, 0, 10, 10, { label: 'a' });
      const b = Bodies.rectangle(6, 0, 10, 10, { label: 'b' });
      const c = Bodies.rectangle(12, 0, 10, 10, { label: 'c' });
      Composite.add(e.world, [a, b, c]);
      const s = sieve
        ? installSieve(e, { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 })
        : null;
      const collisions = () =>
        (e.detector as unknown as { collisions: Matter.Collision[] }).collisions
          .map((k) => `${k.bodyA.label}-${k.bodyB.label}`)
          .join(',');
      return { e, b, s, collisions };
    };
    const paths: string[] = [];
    const run = (w: ReturnType<typeof world>) => {
      const out: string[] = [];
      const step = (f: () => void) => {
        f();
        out.push(w.collisions());
        if (w.s) paths.push(w.s.stats.path);
      };
      step(() => Engine.update(w.e, 16));
      const saved = { ...w.b.bounds.min };
      // Straight through the (patched) detector: no Body.update to fix the bounds.
      step(() => {
        w.b.bounds.min.x = Number.NaN; // as a NaN position would leave it
        Detector.collisions(w.e.detector);
      });
      step(() => {
        w.b.bounds.min.x = saved.x;
        Detector.collisions(w.e.detector);
      });
      step(() => {
        w.b.bounds.max.y = Number.POSITIVE_INFINITY;
        Detector.collisions(w.e.detector);
      });
      step(() => {
        Body.setPosition(w.b, { x: 6, y: 0 });
        Engine.update(w.e, 16);
      });
      step(() => Engine.update(w.e, 16));
      return out;
    };
    const stock = run(world(false));
    expect(stock[0].split(',').length).toBe(2);
    expect(run(world(true))).toEqual(stock);
    expect(paths).toEqual(['broadphase', 'sweep', 'broadphase', 'sweep', 'broadphase', 'broadphase']);
  });

  it("broadphase path: a body listed twice in detector.bodies gets stock's answer, from the sweep", () => {
    const e = Engine.create();
    const a = Bodies.rectangle(0, 0, 10, 10);
    Composite.add(e.world, a);
    const s = installSieve(e, { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 });
    e.detector.bodies = [a, a];
    const found = Detector.collisions(e.detector).length;
    expect(s.stats.path).toBe('sweep');
    uninstallSieve(e);
    e.detector.bodies = [a, a];
    expect(Detector.collisions(e.detector).length).toBe(found);
  });
});
