/**
 * Hostile but finite body positions through the matter-js adapter: with Sieve installed, one body of a
 * 600-body world set to 1e300 (or 1e18, -1.7e308) must not freeze `Engine.update`; the engine keeps
 * stepping as stock matter-js does, with the same collision pairs.
 */
import { Octree, SweepAndPrune } from '@sieve/core';
import { installSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { rng } from '../../core/test/support/rng.js';

const { Bodies, Body, Composite, Engine } = Matter;

function engine600(seed: number): Matter.Engine {
  const r = rng(seed);
  const engine = Engine.create();
  const bodies: Matter.Body[] = [Bodies.rectangle(400, 610, 1200, 60, { isStatic: true })];
  for (let i = 0; i < 600; i++) {
    const x = r() * 800;
    const y = r() * 560;
    bodies.push(
      i % 2 === 0 ? Bodies.circle(x, y, 6 + r() * 6) : Bodies.rectangle(x, y, 8 + r() * 10, 8 + r() * 10),
    );
  }
  Composite.add(engine.world, bodies);
  return engine;
}

function pairsOf(engine: Matter.Engine): string {
  const bodies = Composite.allBodies(engine.world);
  return (engine.pairs.list as Matter.Pair[])
    .filter((p) => p.isActive)
    .map((p) => [bodies.indexOf(p.bodyA), bodies.indexOf(p.bodyB)].sort((a, b) => a - b).join(','))
    .sort()
    .join(' ');
}

describe('matter-js with Sieve: a body set to a huge finite position', () => {
  for (const [far, broadphase] of [
    [1e300, 'sap'],
    [1e18, 'sweep'],
    [-1.7e308, 'sap'],
    [1e300, 'octree'],
    [-1.7e308, 'octree'],
  ] as const) {
    it(`keeps stepping with one of 600 bodies at ${far} (${broadphase})`, { timeout: 60_000 }, () => {
      const stock = engine600(9);
      const sieve = engine600(9);
      // 'sweep': the default; 'sap' and 'octree': that broadphase, forced.
      const dims = { dimensions: 2 } as const;
      const bp =
        broadphase === 'octree' ? new Octree(dims) : broadphase === 'sap' ? new SweepAndPrune(dims) : null;
      installSieve(sieve, bp === null ? {} : { broadphase: bp, sweepBelow: 0 });
      for (let i = 0; i < 5; i++) {
        Engine.update(stock, 1000 / 60);
        Engine.update(sieve, 1000 / 60);
      }
      for (const e of [stock, sieve]) {
        const b = Composite.allBodies(e.world)[101];
        Body.setPosition(b, { x: far, y: b.position.y });
        Body.setVelocity(b, { x: 0, y: 0 });
      }
      let worst = 0;
      // Updates with the body far away, each timed and compared with stock.
      for (let i = 0; i < depth(4, 10); i++) {
        Engine.update(stock, 1000 / 60);
        const t = performance.now();
        Engine.update(sieve, 1000 / 60);
        worst = Math.max(worst, performance.now() - t);
        expect(pairsOf(sieve)).toEqual(pairsOf(stock));
      }
      expect(worst).toBeLessThan(5_000);
      const stockFar = Composite.allBodies(stock.world)[101].position.x;
      expect(Composite.allBodies(sieve.world)[101].position.x).toBe(stockFar);
      // Back home: it rejoins the scene and collides again, as in stock.
      for (const e of [stock, sieve]) Body.setPosition(Composite.allBodies(e.world)[101], { x: 400, y: 300 });
      for (let i = 0; i < 3; i++) {
        Engine.update(stock, 1000 / 60);
        Engine.update(sieve, 1000 / 60);
        expect(pairsOf(sieve)).toEqual(pairsOf(stock));
      }
      expect(pairsOf(sieve).length).toBeGreaterThan(0);
    });
  }
});
