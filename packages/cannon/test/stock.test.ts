/**
 * Differential tests against stock cannon-es: each scene is built twice (same ids), stepped once with
 * cannon's defaults and once with `installSieve(world)`, and every body's pose and velocities, every
 * contact, and every `collide` / `beginContact` / `endContact` / shape-contact event must be the same,
 * bit for bit and in the same order.
 */
import { Octree, SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { sphereBoxContact } from '../src/convex/index.js';
import {
  type InstallSieveOptions,
  installSieve,
  installSieveLite,
  PairCollisionMatrix,
  PairOverlapKeeper,
  SieveBroadphase,
  uninstallSieve,
} from '../src/index.js';
import { gettingStarted, type Scene, scenes } from './scenes.js';
import { flushStockEventArrays } from './support/stockEventArrays.js';
import { resetIds, rng } from './worlds.js';

interface Run {
  /** One entry per step: every body's numbers, then the contacts. */
  states: number[][];
  events: string[];
}

const name = (b: CANNON.Body | null | undefined) => (b ? `#${b.id}` : String(b));

/**
 * Steps a scene runs: `full` at both depths for a scene with late edits, fewer at the standard depth for
 * one without (every such scene has contacts by step 47).
 */
const sceneSteps = (build: () => Scene, full: number) => (build().late ? full : depth(60, full));

/**
 * Steps, install step and uninstall step of a mid-run install: 200, 60 and 150, halved at the standard
 * depth for a scene without late edits (pile: spheres land until step 114).
 */
function midRun(build: () => Scene): [number, number, number] {
  const steps = build().late ? 200 : depth(100, 200);
  return [steps, (steps * 60) / 200, (steps * 150) / 200];
}

/**
 * Steps a scene `steps` times, recording state and events; `install` puts Sieve on first (or not), at
 * step `installAt` (0: before the first), and takes it off again at `uninstallAt`.
 */
function run(
  build: () => Scene,
  steps: number,
  install: InstallSieveOptions | null,
  installAt = 0,
  uninstallAt = -1,
  installer: (world: CANNON.World, options: InstallSieveOptions) => unknown = installSieve,
): Run {
  flushStockEventArrays();
  const { world, late } = build();
  const events: string[] = [];
  const attach = (b: CANNON.Body) =>
    b.addEventListener('collide', (e: { body: CANNON.Body; contact: CANNON.ContactEquation }) =>
      events.push(`c${name(b)}${name(e.body)}:${e.contact.ni.x},${e.contact.ni.y},${e.contact.ni.z}`),
    );
  for (const b of world.bodies) attach(b);
  world.addEventListener('addBody', (e: { body: CANNON.Body }) => attach(e.body));
  for (const type of ['beginContact', 'endContact'] as const) {
    world.addEventListener(type, (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
      events.push(`${type}${name(e.bodyA)}${name(e.bodyB)}`),
    );
  }
  for (const type of ['beginShapeContact', 'endShapeContact'] as const) {
    world.addEventListener(type, (e: { shapeA?: CANNON.Shape; shapeB?: CANNON.Shape }) =>
      events.push(`${type}${e.shapeA?.id}/${e.shapeB?.id}`),
    );
  }
  const states: number[][] = [];
  for (let k = 0; k < steps; k++) {
    if (install && k === installAt) installer(world, install);
    if (install && k === uninstallAt) uninstallSieve(world);
    late?.(k);
    world.step(1 / 60);
    const s: number[] = [];
    for (const b of world.bodies) {
      const { position: p, quaternion: q, velocity: v, angularVelocity: w } = b;
      s.push(b.id, p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z, b.sleepState);
    }
    for (const c of world.contacts) s.push(c.bi.id, c.bj.id, c.ni.x, c.ni.y, c.ni.z, c.ri.x, c.ri.y, c.rj.z);
    states.push(s);
  }
  return { states, events };
}

/** Asserts two runs are identical, reporting the first step that differs. */
function expectSame(a: Run, b: Run): void {
  for (let k = 0; k < a.states.length; k++) {
    if (
      a.states[k].length !== b.states[k].length ||
      a.states[k].some((x, i) => !Object.is(x, b.states[k][i]))
    ) {
      expect({ step: k, state: b.states[k] }).toEqual({ step: k, state: a.states[k] });
    }
  }
  expect(b.events).toEqual(a.events);
}

const installs: [string, InstallSieveOptions][] = [
  ['default install', {}],
  ['sweep from 0 bodies', { broadphase: { naiveBelow: 0 } }],
  [
    'SweepAndPrune, tree path',
    {
      // An instance serves one world: a fresh one at every read. (The tree path is the same code for
      // every @sieve/core tree: broadphase.test.ts steps an Octree against Naive too.)
      get broadphase() {
        return { sieve: new SweepAndPrune({ dimensions: 3 }), naiveBelow: 0 };
      },
    },
  ],
];

describe('installSieve(world) steps as stock cannon-es does', () => {
  it('the harness can fail: a stock world with the OCSI sphere–box contact differs from stock', () => {
    const build = () => gettingStarted(40, false, 40);
    // The runs part at the first step: the standard depth's 60 steps are plenty.
    const steps = depth(60, 200);
    const a = run(build, steps, null);
    const b = run(build, steps, { narrowphase: { sphereBox: sphereBoxContact } });
    expect(b.states).not.toEqual(a.states);
  });

  for (const [sceneName, build] of Object.entries(scenes)) {
    it(`${sceneName}: bit-identical bodies, contacts and events`, () => {
      const steps = sceneSteps(build, 160);
      const a = run(build, steps, null);
      expect(a.events.length).toBeGreaterThan(0);
      for (const [, options] of installs) expectSame(a, run(build, steps, options));
    });
  }

  for (const n of [2, 50, 64, 65, 200, 400]) {
    for (const after of [false, true]) {
      it(`the README's turned ground plane (${after ? 'turned after adding' : 'turned, then added'}), ${n} bodies`, () => {
        const build = () => gettingStarted(n, after, n);
        // Bodies touch from the first step, and the lowest reach the floor by step 19 (a floor contact
        // missed parts the runs there); by step 60 one that went through the floor is below −1.
        const steps = n >= 200 ? depth(40, 100) : depth(60, 150);
        const a = run(build, steps, null);
        const b = run(build, steps, {});
        expectSame(a, b);
        // nothing fell through the floor
        const last = b.states[steps - 1];
        for (let k = 0; k < 15 * (n + 1); k += 15) expect(last[k + 2]).toBeGreaterThan(-1);
      });
    }
  }

  for (const sceneName of ['pile', 'sleep', 'lateEdits']) {
    it(`${sceneName}: installed and uninstalled mid-run, no event repeated or lost`, () => {
      const [steps, on, off] = midRun(scenes[sceneName]);
      const a = run(scenes[sceneName], steps, null);
      for (const [, options] of installs) expectSame(a, run(scenes[sceneName], steps, options, on, off));
    });
  }

  it('a world growing past naiveBelow and shrinking back keeps stock results', () => {
    const build = (): Scene => {
      const s = gettingStarted(10, true, 9);
      const w = s.world;
      const r = rng(4);
      const added: CANNON.Body[] = [];
      s.late = (k) => {
        if (k < 60) {
          const b = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.3 + 0.2 * r()) });
          b.position.set(r() * 8 - 4, 3 + r() * 4, r() * 8 - 4);
          w.addBody(b);
          added.push(b);
        } else if (k >= 100 && added.length > 0 && k % 2 === 0) {
          w.removeBody(added.splice(Math.floor(r() * added.length), 1)[0]);
        }
      };
      return s;
    };
    const a = run(build, 220, null);
    for (const [, options] of installs) expectSame(a, run(build, 220, options));
  });

  it('removals inside a step: stock-surviving ones happen at once (postStep, allowSleep off)', () => {
    const build = (): Scene => {
      const s = gettingStarted(30, false, 5);
      s.world.addEventListener('postStep', () => {
        const w = s.world;
        const low = w.bodies.find((b) => b.type === CANNON.Body.DYNAMIC && b.position.y < 0.6);
        if (low) w.removeBody(low);
        events.push(w.bodies.length);
      });
      return s;
    };
    let events: number[] = [];
    const a = run(build, 150, null);
    const lengthsA = events;
    events = [];
    const b = run(build, 150, {});
    expectSame(a, b);
    expect(events).toEqual(lengthsA);
    expect(Math.min(...lengthsA)).toBeLessThan(31);
  });

  it('aabbQuery and ray casts see what stock sees, stale AABBs included', () => {
    const build = () => gettingStarted(120, true, 2);
    const a = build().world;
    const b = build().world;
    installSieve(b);
    const r = rng(6);
    for (let k = 0, steps = depth(45, 80); k < steps; k++) {
      a.step(1 / 60);
      b.step(1 / 60);
      if (k === 30) {
        // moved by hand without flagging: both keep the stale box
        for (const w of [a, b]) {
          w.bodies[3].aabbNeedsUpdate = false;
          w.bodies[3].position.y += 5;
        }
      }
      const x = r() * 10 - 5;
      const z = r() * 10 - 5;
      const box = new CANNON.AABB({
        lowerBound: new CANNON.Vec3(x, -1, z),
        upperBound: new CANNON.Vec3(x + 3, 6, z + 3),
      });
      const ia = a.broadphase.aabbQuery(a, box, []).map((x) => x.id);
      const ib = b.broadphase.aabbQuery(b, box, []).map((x) => x.id);
      expect(ib).toEqual(ia);
      const from = new CANNON.Vec3(x, 8, z);
      const to = new CANNON.Vec3(x + 1, -2, z + 1);
      const ha = new CANNON.RaycastResult();
      const hb = new CANNON.RaycastResult();
      a.raycastClosest(from, to, {}, ha);
      b.raycastClosest(from, to, {}, hb);
      expect([hb.hasHit, hb.body?.id, hb.distance]).toEqual([ha.hasHit, ha.body?.id, ha.distance]);
    }
  });

  it('SieveBroadphase gives Naive’s pairs in Naive’s order on random worlds, whatever the path', () => {
    const r = rng(12);
    for (let trial = 0, trials = depth(10, 30); trial < trials; trial++) {
      resetIds();
      const w = new CANNON.World();
      const n = 1 + Math.floor(r() * 150);
      for (let i = 0; i < n; i++) {
        if (trial % 5 === 0 && i === n >> 1) CANNON.Body.idCounter = 0; // duplicate ids (a reset counter)
        const kind = r();
        const shape =
          kind < 0.05
            ? new CANNON.Plane()
            : kind < 0.5
              ? new CANNON.Sphere(r() * 2)
              : new CANNON.Box(new CANNON.Vec3(r(), r(), r()));
        const b = new CANNON.Body({ mass: r() < 0.2 ? 0 : 1, shape });
        b.position.set((r() - 0.5) * 20, (r() - 0.5) * 20, (r() - 0.5) * 20);
        if (r() < 0.05) b.position.set(1e9 * r(), Number.NaN, 0);
        if (r() < 0.1) b.sleepState = CANNON.Body.SLEEPING;
        b.collisionFilterGroup = 1 << Math.floor(r() * 3);
        b.collisionFilterMask = r() < 0.2 ? 5 : -1;
        w.addBody(b);
      }
      const expected: number[] = [];
      const p1: CANNON.Body[] = [];
      const p2: CANNON.Body[] = [];
      new CANNON.NaiveBroadphase().collisionPairs(w, p1, p2);
      for (let k = 0; k < p1.length; k++) expected.push(p1[k].index, p2[k].index);
      for (const options of [
        {},
        { naiveBelow: 0 },
        { naiveBelow: 0, sieve: new SweepAndPrune({ dimensions: 3 }) },
        { naiveBelow: 0, sieve: new Octree({ dimensions: 3 }) },
      ]) {
        const bp = new SieveBroadphase(options);
        for (let rep = 0; rep < 2; rep++) {
          const q1: CANNON.Body[] = [];
          const q2: CANNON.Body[] = [];
          bp.collisionPairs(w, q1, q2);
          const got: number[] = [];
          for (let k = 0; k < q1.length; k++) got.push(q1[k].index, q2[k].index);
          expect(got).toEqual(expected);
        }
      }
    }
  });

  it('overlap keepers with cannon’s keys give stock’s diffs for every id, 16-bit wrap included', () => {
    const w = new CANNON.World();
    const Stock = (w as unknown as { bodyOverlapKeeper: { constructor: new () => unknown } })
      .bodyOverlapKeeper.constructor as new () => {
      set(i: number, j: number): void;
      tick(): void;
      getDiff(a: number[], b: number[]): void;
    };
    const a = new Stock();
    const b = new PairOverlapKeeper({ stockKeys: true });
    const r = rng(13);
    let differs = 0;
    for (let step = 0; step < 300; step++) {
      a.tick();
      b.tick();
      for (let k = Math.floor(r() * 40); k > 0; k--) {
        const big = r() < 0.5 ? 30000 + Math.floor(r() * 50000) : Math.floor(r() * 50);
        const i = r() < 0.3 ? 32760 + Math.floor(r() * 20) : Math.floor(r() * 60);
        a.set(i, big);
        b.set(i, big);
      }
      const d = [[], [], [], []] as number[][];
      a.getDiff(d[0], d[1]);
      b.getDiff(d[2], d[3]);
      expect(d[2]).toEqual(d[0]);
      expect(d[3]).toEqual(d[1]);
      if (d[0].some((x) => x < 0)) differs++;
    }
    expect(differs).toBeGreaterThan(0); // ids past 32 767 were exercised (stock unpacks them negative)
  });

  it('the default install adds narrowphase handlers only where cannon has none', () => {
    const world = new CANNON.World();
    const stock = world.narrowphase as unknown as Record<number, unknown>;
    installSieve(world);
    const keys = Object.getOwnPropertyNames(world.narrowphase)
      .filter((k) => /^\d+$/.test(k))
      .map(Number);
    expect(keys.sort((a, b) => a - b)).toEqual([256, 260, 272, 384]); // trimesh with trimesh, box, convex, cylinder
    const proto = Object.getPrototypeOf(world.narrowphase) as Record<number, unknown>;
    for (const key of keys) expect(Reflect.get(proto, key, stock)).toBeUndefined();
    expect(Object.hasOwn(world.narrowphase, 5)).toBe(false); // sphere–box stays cannon's
    expect(Object.hasOwn(world.narrowphase, 4)).toBe(false); // box–box stays cannon's
  });

  it('bad install options throw before anything changes', () => {
    const world = new CANNON.World();
    const bp = world.broadphase;
    expect(() => installSieve(world, { narrowphase: { maxContacts: 0 } })).toThrow(/maxContacts/);
    expect(() => installSieve(world, { broadphase: { naiveBelow: -1 } })).toThrow(/naiveBelow/);
    expect(() => installSieve(world, { broadphase: { margin: Number.NaN } })).toThrow(/margin/);
    expect(world.broadphase).toBe(bp);
    expect(installSieve(world).broadphase).toBe(world.broadphase); // and it installs afterwards
  });

  it('PairCollisionMatrix lists exactly the pairs set, dense and hashed alike', () => {
    const r = rng(14);
    const m = new PairCollisionMatrix();
    const expected = new Set<string>();
    for (let k = 0; k < 3000; k++) {
      const i = r() < 0.9 ? Math.floor(r() * 300) : 2100 + Math.floor(r() * 3000);
      let j = Math.floor(r() * (i + 1));
      if (j === i) j = i > 0 ? i - 1 : 1;
      const v = r() < 0.8;
      m.set({ index: i }, { index: j }, v);
      const key = `${Math.max(i, j)},${Math.min(i, j)}`;
      if (v) expected.add(key);
      else expected.delete(key);
    }
    const got: string[] = [];
    m.forEachSet((i, j) => got.push(`${i},${j}`));
    expect(got.sort()).toEqual([...expected].sort());
    expect(expected.size).toBeGreaterThan(1000);
  });
});

describe('installSieveLite(world) steps as stock cannon-es does', () => {
  const lite = (world: CANNON.World, options: InstallSieveOptions) => installSieveLite(world, options);
  for (const [sceneName, build] of Object.entries(scenes)) {
    it(`${sceneName}: bit-identical bodies, contacts and events`, () => {
      const steps = sceneSteps(build, 120);
      const a = run(build, steps, null);
      expect(a.events.length).toBeGreaterThan(0);
      expectSame(a, run(build, steps, {}, 0, -1, lite));
      expectSame(a, run(build, steps, { broadphase: { naiveBelow: 0 } }, 0, -1, lite));
    });
  }

  it('installed and uninstalled mid-run (pile), no event repeated or lost', () => {
    const [steps, on, off] = midRun(scenes.pile);
    const a = run(scenes.pile, steps, null);
    expectSame(a, run(scenes.pile, steps, {}, on, off, lite));
  });
});
