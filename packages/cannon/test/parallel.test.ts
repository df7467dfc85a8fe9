/**
 * `@sieve/cannon` on the region-parallel sweep and prune: `installSieve(world, { broadphase: bp })` with
 * a `ParallelSweepAndPrune` of `@sieve/core/parallel` (1, 2 and 4 workers, the caller's instance) steps
 * bit-identically to stock cannon-es — every body's pose and velocities, every contact, every
 * `collide` / `beginContact` / `endContact` event, in order — on the scenes of the stock suite and on
 * worlds of hundreds of bodies; the instance is emptied, not disposed, when Sieve is uninstalled.
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { ParallelSweepAndPrune } from '../../core/src/broadphase/parallel/index.js';
import { sharedPool } from '../../core/test/broadphase/parallelWorker.js';
import { type InstallSieveOptions, installSieve, SieveBroadphase, uninstallSieve } from '../src/index.js';
import { gettingStarted, type Scene, scenes } from './scenes.js';
import { flushStockEventArrays } from './support/stockEventArrays.js';

const name = (b: CANNON.Body | null | undefined) => (b ? `#${b.id}` : String(b));

/**
 * Steps a stock scene runs: 120 at both depths for a scene with late edits, fewer at the standard depth
 * for one without (every such scene has contacts by step 47).
 */
const sceneSteps = (build: () => Scene) => (build().late ? 120 : depth(60, 120));

/** Steps a scene, recording every body's numbers and the contacts per step, and the events. */
function run(build: () => Scene, steps: number, install: () => InstallSieveOptions | null): string[] {
  flushStockEventArrays();
  const { world, late } = build();
  const out: string[] = [];
  const attach = (b: CANNON.Body) =>
    b.addEventListener('collide', (e: { body: CANNON.Body; contact: CANNON.ContactEquation }) =>
      out.push(`c${name(b)}${name(e.body)}:${e.contact.ni.x},${e.contact.ni.y},${e.contact.ni.z}`),
    );
  for (const b of world.bodies) attach(b);
  world.addEventListener('addBody', (e: { body: CANNON.Body }) => attach(e.body));
  for (const type of ['beginContact', 'endContact'] as const) {
    world.addEventListener(type, (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
      out.push(`${type}${name(e.bodyA)}${name(e.bodyB)}`),
    );
  }
  const options = install();
  if (options) installSieve(world, options);
  for (let k = 0; k < steps; k++) {
    late?.(k);
    world.step(1 / 60);
    const s: number[] = [k];
    for (const b of world.bodies) {
      const { position: p, quaternion: q, velocity: v, angularVelocity: w } = b;
      s.push(b.id, p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z, b.sleepState);
    }
    for (const c of world.contacts) s.push(c.bi.id, c.bj.id, c.ni.x, c.ni.y, c.ni.z, c.ri.x, c.ri.y, c.rj.z);
    // String() of a double round-trips: equal strings are equal bits (NaN included).
    out.push(s.map(String).join(','));
  }
  if (options) uninstallSieve(world);
  return out;
}

function expectSame(stock: string[], sieve: string[]): void {
  const at = stock.findIndex((line, i) => line !== sieve[i]);
  expect(at === -1 ? null : { at, sieve: sieve[at] }).toEqual(at === -1 ? null : { at, stock: stock[at] });
  expect(sieve.length).toBe(stock.length);
}

/**
 * Stock's record of each scene, run once for the three worker counts: a scene's build resets cannon's
 * id counters, so stock steps it to the same numbers every time.
 */
const stockRuns = new Map<string, string[]>();
function stockRun(sceneName: string, build: () => Scene, steps: number): string[] {
  let stock = stockRuns.get(sceneName);
  if (!stock) {
    stock = run(build, steps, () => null);
    stockRuns.set(sceneName, stock);
  }
  return stock;
}

describe('installSieve(world, { broadphase: ParallelSweepAndPrune }) steps as stock cannon-es does', () => {
  for (const workers of [1, 2, 4]) {
    it(`every stock scene on the tree path, ${workers} worker(s): bit-identical`, () => {
      for (const [sceneName, build] of Object.entries(scenes)) {
        const steps = sceneSteps(build);
        const stock = stockRun(sceneName, build, steps);
        let bp: ParallelSweepAndPrune | undefined;
        const sieve = run(build, steps, () => {
          bp = new ParallelSweepAndPrune({ dimensions: 3, pool: sharedPool(workers), minBoxesPerRegion: 4 });
          return { broadphase: new SieveBroadphase({ sieve: bp, naiveBelow: 0 }) };
        });
        expect(stock.length, sceneName).toBeGreaterThanOrEqual(steps);
        expectSame(stock, sieve);
        // Uninstalled: the instance is empty again, and still the caller's to use or dispose.
        expect(bp?.count, sceneName).toBe(0);
        bp?.dispose();
      }
    });
  }

  for (const n of [65, 400, 1500]) {
    it(`the README's ground plane with ${n} bodies, the instance as options.broadphase: bit-identical`, () => {
      const build = () => gettingStarted(n, true, n);
      // Bodies touch from the first step (the ground and each other).
      const steps = n > 1000 ? depth(10, 40) : depth(40, 100);
      const stock = run(build, steps, () => null);
      const bp = new ParallelSweepAndPrune({ dimensions: 3, pool: sharedPool(2), minBoxesPerRegion: 64 });
      const sieve = run(build, steps, () => ({ broadphase: bp }));
      expectSame(stock, sieve);
      expect(bp.count).toBe(0);
      bp.dispose();
    });
  }

  it('box mode (useBoundingBoxes) and a world shrinking to Naive’s loop and growing back', () => {
    const build = () => {
      const scene = gettingStarted(120, false, 9);
      scene.world.broadphase.useBoundingBoxes = true;
      const removed: CANNON.Body[] = [];
      scene.late = (k) => {
        if (k === 30) for (const b of scene.world.bodies.slice(20)) removed.push(b);
        if (k === 30) for (const b of removed) scene.world.removeBody(b);
        if (k === 60) for (const b of removed) scene.world.addBody(b);
      };
      return scene;
    };
    const stock = run(build, 90, () => null);
    const bp = new ParallelSweepAndPrune({ dimensions: 3, pool: sharedPool(2), minBoxesPerRegion: 8 });
    expectSame(
      stock,
      run(build, 90, () => ({ broadphase: bp })),
    );
    bp.dispose();
  });

  it('refuses an instance that is not 3-D, not empty, or given with kind', () => {
    const world = new CANNON.World();
    const flat = new ParallelSweepAndPrune({ dimensions: 2, workers: 1, inThread: true });
    expect(() => installSieve(world, { broadphase: flat })).toThrow(
      /must be a 3-D broadphase \(dimensions 3\), got dimensions 2/,
    );
    const full = new ParallelSweepAndPrune({ dimensions: 3, workers: 1, inThread: true });
    full.insert([0, 0, 0, 1, 1, 1]);
    expect(() => installSieve(world, { broadphase: full })).toThrow(/must be empty \(count 0\), got count 1/);
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 1, inThread: true });
    expect(() => new SieveBroadphase({ sieve: bp, kind: 'sap' as never })).toThrow(
      /kind 'sap' is not supported: the adapter builds no tree/,
    );
    expect(world.broadphase).toBeInstanceOf(CANNON.NaiveBroadphase);
  });
});
