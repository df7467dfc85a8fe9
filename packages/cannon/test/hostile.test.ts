/**
 * Hostile but finite body positions through the cannon-es adapter: with Sieve installed, one body of a
 * 600-body world flung to 1e18 (or 1e300, -1.7e308) must not freeze `world.step`; the world keeps
 * stepping as stock cannon-es does, and the pairs of the other bodies stay those of stock.
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { installSieve } from '../src/index.js';
import { rng } from './worlds.js';

function world600(seed: number): CANNON.World {
  const r = rng(seed);
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(ground);
  for (let i = 0; i < 600; i++) {
    const shape = i % 2 === 0 ? new CANNON.Sphere(0.5) : new CANNON.Box(new CANNON.Vec3(0.4, 0.4, 0.4));
    const body = new CANNON.Body({ mass: 1, shape });
    body.position.set(r() * 40 - 20, 0.5 + r() * 20, r() * 40 - 20);
    world.addBody(body);
  }
  return world;
}

/** Steps `world` `n` times; returns the slowest step in milliseconds. */
function stepTimed(world: CANNON.World, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    world.step(1 / 60);
    worst = Math.max(worst, performance.now() - t);
  }
  return worst;
}

describe('cannon-es with Sieve: a body flung to a huge finite position', () => {
  for (const far of [1e18, 1e300, -1.7e308]) {
    it(`keeps stepping with one of 600 bodies at ${far}`, { timeout: 60_000 }, () => {
      const stock = world600(3);
      const sieve = world600(3);
      installSieve(sieve);
      stepTimed(stock, 5);
      stepTimed(sieve, 5);
      for (const w of [stock, sieve]) {
        const b = w.bodies[100];
        b.position.set(far, b.position.y, b.position.z);
        b.velocity.set(0, 0, 0);
      }
      // Stock keeps stepping; so must Sieve (a hang would time the test out).
      stepTimed(stock, 10);
      const worst = stepTimed(sieve, 10);
      expect(worst).toBeLessThan(5_000);
      expect(sieve.bodies[100].position.x).toBe(stock.bodies[100].position.x);
      // Back home: it rejoins the world and collides again.
      for (const w of [stock, sieve]) w.bodies[100].position.set(0, 30, 0);
      stepTimed(stock, 3);
      stepTimed(sieve, 3);
      // The flung body never meets anything out there: the other bodies' contacts are stock's.
      const contacts = (w: CANNON.World) =>
        w.contacts
          .map((c) => [w.bodies.indexOf(c.bi), w.bodies.indexOf(c.bj)].sort((a, b) => a - b).join(','))
          .sort()
          .join(' ');
      expect(contacts(sieve).length).toBeGreaterThan(0);
      expect(contacts(sieve)).toEqual(contacts(stock));
      expect(sieve.bodies.every((b) => b === sieve.bodies[100] || Number.isFinite(b.position.x))).toBe(true);
    });
  }
});
