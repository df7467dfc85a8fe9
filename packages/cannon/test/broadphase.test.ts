import { Octree, SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { SieveBroadphase } from '../src/index.js';
import { mixedWorld, naiveBoxes, recordPairs, rng, stateOf } from './worlds.js';

describe('SieveBroadphase vs NaiveBroadphase (useBoundingBoxes = true)', () => {
  const trees = {
    sweep: () => undefined,
    sap: () => new SweepAndPrune({ dimensions: 3, autoGridThreshold: 16 }),
    octree: () => new Octree({ dimensions: 3 }),
  };
  // Bodies start sleeping at step 60.
  const steps = depth(150, 300);
  for (const [kind, tree] of Object.entries(trees)) {
    it(`${kind}: same pairs in the same order every step, same bodies after ${steps} steps`, () => {
      const naive = naiveBoxes();
      // A tree is passed built, as `sieve` (only pages that import it ship it); the sweep is the default.
      const sieve = new SieveBroadphase({ sieve: tree(), useBoundingBoxes: true, naiveBelow: 0 });
      expect(sieve.kind).toBe(kind === 'sweep' ? 'sweep' : 'instance');
      const a = mixedWorld({ seed: 7, count: 30, broadphase: naive });
      const b = mixedWorld({ seed: 7, count: 30, broadphase: sieve });
      const ra = recordPairs(naive);
      const rb = recordPairs(sieve);
      let nonEmpty = 0;
      let maxPairs = 0;
      for (let step = 0; step < steps; step++) {
        a.step(1 / 60);
        b.step(1 / 60);
        expect(rb.last).toEqual(ra.last);
        if (ra.last.length > 0) nonEmpty++;
        maxPairs = Math.max(maxPairs, ra.last.length / 2);
      }
      expect(nonEmpty).toBeGreaterThan(steps - 50); // 250 at the full depth
      expect(maxPairs).toBeGreaterThan(12);
      expect(stateOf(b)).toEqual(stateOf(a));
      // Sleeping happened, so the sleeping rule was exercised.
      expect(a.bodies.some((x) => x.sleepState === CANNON.Body.SLEEPING)).toBe(true);
      expect(sieve.bodyCount).toBe(b.bodies.length);
      expect(sieve.hugeBodyCount).toBe(2); // the plane and the heightfield (cannon gives both infinite boxes)
    });
  }

  it('bodies added and removed between steps (and in postStep) stay in step with Naive', () => {
    const naive = naiveBoxes();
    const sieve = new SieveBroadphase({ useBoundingBoxes: true, naiveBelow: 0 });
    const a = mixedWorld({ seed: 3, count: 40, broadphase: naive, allowSleep: false });
    const b = mixedWorld({ seed: 3, count: 40, broadphase: sieve, allowSleep: false });
    const ra = recordPairs(naive);
    const rb = recordPairs(sieve);
    const r = rng(99);
    const edit = (w: CANNON.World, pick: number, add: boolean, x: number, z: number) => {
      if (add) {
        const body = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.4) });
        body.position.set(x, 3, z);
        w.addBody(body);
      } else if (w.bodies.length > 5) {
        w.removeBody(w.bodies[3 + (pick % (w.bodies.length - 3))]);
      }
    };
    // In postStep (allowSleep off, so stock cannon survives a removal there).
    let stepIndex = 0;
    const plan: [number, boolean, number, number][] = [];
    for (let i = 0; i < 200; i++) plan.push([Math.floor(r() * 1000), r() < 0.5, r() * 8 - 4, r() * 8 - 4]);
    a.addEventListener('postStep', () => {
      const p = plan[stepIndex];
      if (stepIndex % 3 === 0) edit(a, p[0], p[1], p[2], p[3]);
    });
    b.addEventListener('postStep', () => {
      const p = plan[stepIndex];
      if (stepIndex % 3 === 0) edit(b, p[0], p[1], p[2], p[3]);
    });
    // Ending, as 200 does, on a step whose postStep edits nothing (a body added there joins the
    // broadphase at the next step, after the count below).
    const steps = depth(101, 200);
    for (stepIndex = 0; stepIndex < steps; stepIndex++) {
      const p = plan[stepIndex];
      if (stepIndex % 5 === 1) {
        edit(a, p[0] + 1, !p[1], p[3], p[2]);
        edit(b, p[0] + 1, !p[1], p[3], p[2]);
      }
      a.step(1 / 60);
      b.step(1 / 60);
      expect(rb.last).toEqual(ra.last);
    }
    expect(stateOf(b)).toEqual(stateOf(a));
    expect(sieve.bodyCount).toBe(b.bodies.length);
  });

  it('aabbQuery returns what Naive returns, in world order, and raycasts agree', () => {
    const naive = naiveBoxes();
    const sieve = new SieveBroadphase({
      sieve: new SweepAndPrune({ dimensions: 3, autoGridThreshold: 8 }),
      useBoundingBoxes: true,
      naiveBelow: 0,
    });
    const a = mixedWorld({ seed: 11, count: 60, broadphase: naive });
    const b = mixedWorld({ seed: 11, count: 60, broadphase: sieve });
    const r = rng(5);
    for (let step = 0, steps = depth(30, 60); step < steps; step++) {
      a.step(1 / 60);
      b.step(1 / 60);
      for (let q = 0; q < 5; q++) {
        const x = r() * 12 - 6;
        const y = r() * 4;
        const z = r() * 12 - 6;
        const box = new CANNON.AABB({
          lowerBound: new CANNON.Vec3(x, y, z),
          upperBound: new CANNON.Vec3(x + r() * 3, y + r() * 3, z + r() * 3),
        });
        const ia = naive.aabbQuery(a, box, []).map((x) => x.index);
        const ib = sieve.aabbQuery(b, box, []).map((x) => x.index);
        expect(ib).toEqual(ia);
      }
      const from = new CANNON.Vec3(r() * 10 - 5, 8, r() * 10 - 5);
      const to = new CANNON.Vec3(r() * 10 - 5, -1, r() * 10 - 5);
      const ha = new CANNON.RaycastResult();
      const hb = new CANNON.RaycastResult();
      a.raycastClosest(from, to, {}, ha);
      b.raycastClosest(from, to, {}, hb);
      expect(hb.hasHit).toBe(ha.hasHit);
      expect(hb.body?.index).toBe(ha.body?.index);
      expect(hb.distance).toBe(ha.distance);
    }
  });

  it('honours filter masks and the static/sleeping rule (no pair of two static bodies)', () => {
    const sieve = new SieveBroadphase();
    const world = new CANNON.World({ broadphase: sieve });
    const s1 = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(1, 1, 1)) });
    const s2 = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(1, 1, 1)) });
    const d1 = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5) });
    const d2 = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5) });
    d2.collisionFilterGroup = 2;
    d2.collisionFilterMask = ~1; // ignores group 1 (everything else)
    for (const body of [s1, s2, d1, d2]) world.addBody(body);
    const p1: CANNON.Body[] = [];
    const p2: CANNON.Body[] = [];
    sieve.collisionPairs(world, p1, p2);
    const pairs = p1.map((x, k) => [x.index, p2[k].index]);
    expect(pairs).toEqual([
      [2, 0],
      [2, 1],
    ]);
    d1.sleepState = CANNON.Body.SLEEPING;
    p1.length = p2.length = 0;
    sieve.collisionPairs(world, p1, p2);
    expect(p1.length).toBe(0);
  });

  it('rejects bad options, and the removed tree options with what to pass instead', () => {
    const removed = (o: object) => new SieveBroadphase(o as never);
    expect(() => removed({ kind: 'grid' })).toThrow(RangeError);
    expect(() => removed({ kind: 'sap' })).toThrow(
      /options\.kind 'sap' is not supported: the adapter builds no tree .*pass sieve: new SweepAndPrune\(/,
    );
    expect(() => removed({ kind: 'octree' })).toThrow(/pass sieve: new Octree\(/);
    expect(() => removed({ sap: { cellSize: 2 } })).toThrow(TypeError);
    expect(() => removed({ sap: {} })).toThrow(
      /options\.sap is not supported; pass sieve: new SweepAndPrune\(/,
    );
    expect(() => new SieveBroadphase({ hugeExtent: -1 })).toThrow(/hugeExtent/);
    // null means left out, as for every option.
    const bp = removed({ kind: null, sap: null, octree: null, sieve: null });
    expect(bp.kind).toBe('sweep');
    expect(bp.sieve).toBeNull();
    expect(bp.records).toBeNull();
  });
});
