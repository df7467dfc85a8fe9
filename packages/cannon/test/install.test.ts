import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { sphereBoxContact } from '../src/convex/index.js';
import {
  installBullets,
  installSieve,
  installSieveLite,
  isSieveInstalled,
  PairCollisionMatrix,
  PairOverlapKeeper,
  SieveBroadphase,
  uninstallSieve,
} from '../src/index.js';
import { flushStockEventArrays } from './support/stockEventArrays.js';
import { floorTrimesh, mixedWorld, naiveBoxes, rng, stateOf } from './worlds.js';

describe('PairCollisionMatrix', () => {
  it('behaves as ArrayCollisionMatrix under random set/get/reset/setNumObjects', () => {
    const r = rng(1);
    const a = new CANNON.ArrayCollisionMatrix();
    const b = new PairCollisionMatrix();
    let n = 40;
    a.setNumObjects(n);
    b.setNumObjects(n);
    const body = (i: number) => ({ index: i }) as CANNON.Body;
    for (let op = 0, ops = depth(8000, 20000); op < ops; op++) {
      const x = r();
      if (x < 0.6) {
        const i = Math.floor(r() * n);
        let j = Math.floor(r() * n);
        if (j === i) j = (i + 1) % n;
        const v = r() < 0.8;
        a.set(body(i), body(j), v);
        b.set(body(i), body(j), v);
      } else if (x < 0.98) {
        const i = Math.floor(r() * n);
        let j = Math.floor(r() * n);
        if (j === i) j = (i + 1) % n;
        expect(b.get(body(i), body(j))).toBe(a.get(body(i), body(j)) ? 1 : 0);
      } else if (x < 0.99) {
        a.reset();
        b.reset();
      } else {
        n = 10 + Math.floor(r() * 40);
        a.setNumObjects(n);
        b.setNumObjects(n);
      }
    }
  });

  it('reset costs O(pairs): a matrix for 50 000 bodies holds only what was set', () => {
    const m = new PairCollisionMatrix();
    m.setNumObjects(50000);
    m.set({ index: 49999 } as CANNON.Body, { index: 0 } as CANNON.Body, true);
    expect(m.entryCount).toBe(1);
    m.reset();
    expect(m.entryCount).toBe(0);
    expect(m.get({ index: 49999 } as CANNON.Body, { index: 0 } as CANNON.Body)).toBe(0);
  });
});

describe('PairOverlapKeeper', () => {
  it('gives the diffs of the stock keeper (ids < 32 768), and stays right for larger ids', () => {
    const r = rng(2);
    const world = new CANNON.World();
    const Stock = (world as unknown as { bodyOverlapKeeper: { constructor: new () => unknown } })
      .bodyOverlapKeeper.constructor as new () => {
      set(i: number, j: number): void;
      tick(): void;
      getDiff(a: number[], b: number[]): void;
    };
    const a = new Stock();
    const b = new PairOverlapKeeper();
    for (let step = 0; step < 200; step++) {
      a.tick();
      b.tick();
      const n = Math.floor(r() * 30);
      for (let k = 0; k < n; k++) {
        const i = Math.floor(r() * 40);
        const j = Math.floor(r() * 40);
        if (i === j) continue;
        a.set(i, j);
        b.set(i, j);
      }
      const add1: number[] = [];
      const rem1: number[] = [];
      const add2: number[] = [];
      const rem2: number[] = [];
      a.getDiff(add1, rem1);
      b.getDiff(add2, rem2);
      expect(add2).toEqual(add1);
      expect(rem2).toEqual(rem1);
    }
    const big = new PairOverlapKeeper();
    big.set(70000, 123456);
    big.tick();
    const add: number[] = [];
    const rem: number[] = [];
    big.getDiff(add, rem);
    expect(rem).toEqual([70000, 123456]);
  });
});

describe('installSieve / uninstallSieve', () => {
  it('installs every part, restores every original, and is idempotent-safe', () => {
    const world = mixedWorld({ seed: 4, count: 20, broadphase: new CANNON.NaiveBroadphase() });
    const w = world as unknown as Record<string, unknown>;
    const originals = [
      'broadphase',
      'collisionMatrix',
      'collisionMatrixPrevious',
      'bodyOverlapKeeper',
      'shapeOverlapKeeper',
    ].map((k) => w[k]);
    const sphereBox = (world.narrowphase as unknown as Record<number, unknown>)[5];
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    const inst = installSieve(world, { narrowphase: { sphereBox: sphereBoxContact } });
    expect(isSieveInstalled(world)).toBe(true);
    expect(world.broadphase).toBeInstanceOf(SieveBroadphase);
    expect(inst.broadphase).toBe(world.broadphase);
    expect(w.collisionMatrix).toBeInstanceOf(PairCollisionMatrix);
    expect(w.bodyOverlapKeeper).toBeInstanceOf(PairOverlapKeeper);
    expect(Object.hasOwn(world.narrowphase, 256)).toBe(true);
    expect((world.narrowphase as unknown as Record<number, unknown>)[5]).not.toBe(sphereBox);
    expect(() => installSieve(world)).toThrow(/already installed/);
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    expect(uninstallSieve(world)).toBe(true);
    expect(uninstallSieve(world)).toBe(false);
    expect(isSieveInstalled(world)).toBe(false);
    [
      'broadphase',
      'collisionMatrix',
      'collisionMatrixPrevious',
      'bodyOverlapKeeper',
      'shapeOverlapKeeper',
    ].forEach((k, i) => {
      expect(w[k]).toBe(originals[i]);
    });
    expect(Object.hasOwn(world.narrowphase, 256)).toBe(false);
    expect((world.narrowphase as unknown as Record<number, unknown>)[5]).toBe(sphereBox);
    expect(Object.hasOwn(world, 'removeBody')).toBe(false);
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    expect(() => installSieve({} as CANNON.World)).toThrow(/World/);
  });

  it('refuses to install over bullets installed on their own, before changing anything', () => {
    const world = mixedWorld({ seed: 5, count: 10, broadphase: new CANNON.NaiveBroadphase() });
    const before = world.broadphase;
    installBullets(world);
    expect(() => installSieve(world)).toThrow(/bullets are already installed/);
    expect(world.broadphase).toBe(before);
    expect(isSieveInstalled(world)).toBe(false);
    expect(isSieveInstalled(world) || installSieve(world, { bullets: false }).bullets).toBe(null);
  });

  it('with broadphase + matrices only, a world matches a Naive world body for body, with the same events', () => {
    const a = mixedWorld({ seed: 21, count: 25, broadphase: naiveBoxes() });
    const b = mixedWorld({ seed: 21, count: 25, broadphase: naiveBoxes() });
    installSieve(b, { narrowphase: false });
    const log = (world: CANNON.World) => {
      const events: string[] = [];
      world.addEventListener('beginContact', (e: { bodyA: CANNON.Body; bodyB: CANNON.Body }) =>
        events.push(`b${e.bodyA.index}-${e.bodyB.index}`),
      );
      world.addEventListener('endContact', (e: { bodyA: CANNON.Body; bodyB: CANNON.Body }) =>
        events.push(`e${e.bodyA?.index}-${e.bodyB?.index}`),
      );
      for (const body of world.bodies) {
        body.addEventListener('collide', (e: { body: CANNON.Body }) =>
          events.push(`c${body.index}-${e.body.index}`),
        );
      }
      return events;
    };
    const ea = log(a);
    const eb = log(b);
    flushStockEventArrays();
    for (let s = 0, steps = depth(100, 200); s < steps; s++) {
      a.step(1 / 60);
      b.step(1 / 60);
    }
    expect(eb.length).toBeGreaterThan(20);
    expect(eb).toEqual(ea);
    expect(stateOf(b)).toEqual(stateOf(a));
  });

  it('with everything installed, it matches a Naive world that has only the Sieve narrowphase', () => {
    const a = mixedWorld({ seed: 22, count: 25, broadphase: naiveBoxes() });
    const b = mixedWorld({ seed: 22, count: 25, broadphase: naiveBoxes() });
    installSieve(a, { broadphase: false, collisionMatrix: false, deferRemovals: false });
    installSieve(b);
    for (let s = 0, steps = depth(100, 200); s < steps; s++) {
      a.step(1 / 60);
      b.step(1 / 60);
    }
    expect(stateOf(b)).toEqual(stateOf(a));
  });

  it('adding and removing bodies from collide, preStep and postStep listeners is safe', () => {
    const world = mixedWorld({ seed: 5, count: 60, broadphase: new CANNON.NaiveBroadphase() });
    installSieve(world);
    const r = rng(8);
    let removedInCollide = 0;
    let added = 0;
    const onCollide = (e: { target?: CANNON.Body; body: CANNON.Body }) => {
      if (r() < 0.3 && e.body.mass > 0) {
        world.removeBody(e.body);
        removedInCollide++;
      }
      if (r() < 0.2) {
        const body = new CANNON.Body({
          mass: 1,
          shape: new CANNON.Sphere(0.3),
          position: new CANNON.Vec3(r() * 8 - 4, 4, r() * 8 - 4),
        });
        body.addEventListener('collide', onCollide);
        world.addBody(body);
        added++;
      }
    };
    for (const body of world.bodies) body.addEventListener('collide', onCollide);
    world.addEventListener('preStep', () => {
      if (r() < 0.3 && world.bodies.length > 10) world.removeBody(world.bodies[5 + Math.floor(r() * 5)]);
    });
    world.addEventListener('postStep', () => {
      if (r() < 0.3) world.removeBody(world.bodies[world.bodies.length - 1]);
      if (r() < 0.5)
        world.addBody(
          new CANNON.Body({
            mass: 1,
            shape: new CANNON.Box(new CANNON.Vec3(0.3, 0.3, 0.3)),
            position: new CANNON.Vec3(0, 5, 0),
          }),
        );
    });
    for (let s = 0, steps = depth(100, 200); s < steps; s++) world.step(1 / 60);
    expect(removedInCollide).toBeGreaterThan(0);
    expect(added).toBeGreaterThan(0);
    const bp = world.broadphase as SieveBroadphase;
    bp.collisionPairs(world, [], []); // bodies added in the last postStep join at the next step
    expect(bp.bodyCount).toBe(world.bodies.length);
    world.bodies.forEach((b, i) => {
      expect(b.index).toBe(i);
      expect(b.world).toBe(world);
    });
  });

  it('stock cannon throws when a body is removed from a collide listener (what deferRemovals fixes)', () => {
    const world = mixedWorld({ seed: 5, count: 40, broadphase: new CANNON.NaiveBroadphase() });
    let removed = 0;
    for (const body of world.bodies) {
      body.addEventListener('collide', (e: { body: CANNON.Body }) => {
        if (e.body.mass > 0 && e.body.world) {
          world.removeBody(e.body);
          removed++;
        }
      });
    }
    expect(() => {
      for (let s = 0; s < 200; s++) world.step(1 / 60);
    }).toThrow();
    expect(removed).toBeGreaterThan(0);
  });

  // The second world is smaller at the standard depth (both are far past the dense matrix's 2 048).
  const big = depth(25000, 50000);
  it(`20 000 and ${depth('25 000', '50 000')} bodies step (stock cannon throws RangeError at 20 000)`, () => {
    for (const n of [20000, big]) {
      const world = new CANNON.World();
      installSieve(world); // before adding: cannon's own matrix would already throw while they are added
      const r = rng(n);
      const side = Math.cbrt(n) * 6; // sparse: this checks that it steps, not how fast
      for (let i = 0; i < n; i++) {
        const shape = i % 2 ? new CANNON.Sphere(0.5) : new CANNON.Box(new CANNON.Vec3(0.4, 0.4, 0.4));
        world.addBody(
          new CANNON.Body({ mass: 1, shape, position: new CANNON.Vec3(r() * side, r() * side, r() * side) }),
        );
      }
      world.step(1 / 60);
      world.step(1 / 60);
      expect(world.contacts.length).toBeGreaterThan(0);
      expect((world.broadphase as SieveBroadphase).bodyCount).toBe(n);
    }
  });
});

describe('installSieveLite', () => {
  it('installs every part but the narrowphase, refuses the narrowphase option before changing anything, and uninstalls', () => {
    const world = mixedWorld({ seed: 6, count: 20, broadphase: new CANNON.NaiveBroadphase() });
    const before = world.broadphase;
    // Sieve's handlers are own properties of world.narrowphase under cannon's collision type numbers.
    const ownHandlers = () => Object.keys(world.narrowphase).filter((k) => /^\d+$/.test(k));
    expect(ownHandlers()).toEqual([]);
    expect(() => installSieveLite(world, { narrowphase: true } as never)).toThrow(
      /installSieveLite: options.*narrowphase/,
    );
    expect(() => installSieveLite(world, { broadphase: 3 } as never)).toThrow(
      /installSieveLite: options.broadphase/,
    );
    expect(world.broadphase).toBe(before);
    expect(isSieveInstalled(world)).toBe(false);
    const inst = installSieveLite(world);
    expect(isSieveInstalled(world)).toBe(true);
    expect(inst.broadphase).toBe(world.broadphase);
    expect(world.broadphase).toBeInstanceOf(SieveBroadphase);
    expect((world as unknown as Record<string, unknown>).collisionMatrix).toBeInstanceOf(PairCollisionMatrix);
    expect(ownHandlers()).toEqual([]); // cannon's narrowphase as it was: no handler added or replaced
    expect(() => installSieve(world)).toThrow(/already installed/);
    expect(() => installSieveLite(world)).toThrow(/installSieveLite: Sieve is already installed/);
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    expect(uninstallSieve(world)).toBe(true);
    expect(world.broadphase).toBe(before);
    expect(ownHandlers()).toEqual([]);
    expect(() => installSieveLite({} as CANNON.World)).toThrow(/installSieveLite: world/);
  });

  it('adds no contacts where cannon has none: a box falls through a trimesh floor as in stock', () => {
    const fall = (install: (w: CANNON.World) => unknown) => {
      const w = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
      w.addBody(new CANNON.Body({ mass: 0, shape: floorTrimesh(10, 4) }));
      const box = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)) });
      box.position.set(0.3, 2, -0.2);
      w.addBody(box);
      install(w);
      for (let s = 0; s < 120; s++) w.step(1 / 60);
      return box.position.y;
    };
    expect(fall(() => {})).toBeLessThan(-1); // stock
    expect(fall((w) => installSieveLite(w))).toBeLessThan(-1);
    expect(fall((w) => installSieve(w))).toBeGreaterThan(0.45); // the full install's trimesh contacts
  });
});
