import { SweepAndPrune } from '@sieve/core';
import { installSieve, isBullet } from '@sieve/matter';
import { FrameRecorder } from '@sieve/overlay';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { CollisionSwitch } from '../src/collision.js';
import { Game, type Input, MAX_DEBRIS, rubbleLayout } from '../src/game.js';

const idle: Input = { left: false, right: false, thrust: false, fire: false };
const fire: Input = { ...idle, fire: true };

describe('arcade game rules (Node, no rendering)', () => {
  it('test layout: firing straight ahead hits the medium asteroid, scores 50 and splits it in two', () => {
    const game = new Game({ seed: 1, test: true });
    expect(game.asteroids.size).toBe(5);
    const sizes = () => [...game.asteroids.values()].map((a) => a.size).sort();
    expect(sizes()).toEqual([2, 3, 3, 3, 3]);
    let steps = 0;
    while (game.score === 0 && steps < 120) {
      game.step(fire);
      steps++;
    }
    expect(game.score).toBe(50);
    expect(sizes()).toEqual([1, 1, 3, 3, 3, 3]);
    expect(game.asteroidsDestroyed).toBe(1);
    expect(game.shotsFired).toBeGreaterThan(0);
    // The bullet that hit is gone; shots live a bounded time.
    for (let i = 0; i < 80; i++) game.step(idle);
    expect(game.bullets.size).toBe(0);
  });

  it('shots are @sieve/matter bullets while they live', () => {
    const game = new Game({ seed: 2, test: true });
    game.step(fire);
    const [shot] = [...game.bullets.values()];
    expect(isBullet(game.engine, shot.body)).toBe(true);
    for (let i = 0; i < 80; i++) game.step(idle);
    expect(game.bullets.size).toBe(0);
    expect(isBullet(game.engine, shot.body)).toBe(false);
  });

  it('thrust and rotation move the ship; the field wraps around', () => {
    const game = new Game({ seed: 3, test: true });
    const y0 = game.ship.position.y;
    for (let i = 0; i < 20; i++) game.step({ ...idle, thrust: true });
    expect(game.ship.velocity.y).toBeLessThan(-2);
    expect(game.ship.position.y).toBeLessThan(y0 - 20);
    for (let i = 0; i < 10; i++) game.step({ ...idle, right: true });
    expect(game.ship.angle).toBeGreaterThan(0.5);
    // Keep flying: the ship leaves the top and comes back from the bottom, inside the field.
    for (let i = 0; i < 400; i++) game.step(idle);
    const { x, y } = game.ship.position;
    expect(x).toBeGreaterThan(-40);
    expect(x).toBeLessThan(1280 + 40);
    expect(y).toBeGreaterThan(-40);
    expect(y).toBeLessThan(720 + 40);
  });

  it('the first wave starts at least 380 px from the ship (a newcomer keeps the first life past the spawn shield)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const game = new Game({ seed });
      expect(game.asteroids.size).toBeGreaterThan(0);
      for (const { body } of game.asteroids.values()) {
        const d = Math.hypot(body.position.x - game.ship.position.x, body.position.y - game.ship.position.y);
        expect(d).toBeGreaterThanOrEqual(380);
      }
    }
  });

  it('an asteroid hitting the unshielded ship costs a life; three lives then game over; R restarts', () => {
    const game = new Game({ seed: 5 });
    for (let life = 3; life > 0; life--) {
      // Wait for the respawn, drop the shield, throw an asteroid at the ship.
      let guard = 0;
      while (!game.shipAlive && guard++ < 600) game.step(idle);
      expect(game.shipAlive).toBe(true);
      game.invulnerable = 0;
      game.addAsteroid(3, game.ship.position.x + 70, game.ship.position.y, -4, 0);
      guard = 0;
      while (game.lives === life && guard++ < 100) game.step(idle);
      expect(game.lives).toBe(life - 1);
    }
    expect(game.state).toBe('gameover');
    for (let i = 0; i < 200; i++) game.step(fire);
    expect(game.shipAlive).toBe(false); // no respawn after game over
    game.restart();
    expect(game.state).toBe('playing');
    expect(game.lives).toBe(3);
    expect(game.score).toBe(0);
    expect(game.shipAlive).toBe(true);
  });

  it('clearing the field starts the next wave', () => {
    const game = new Game({ seed: 9 });
    const wave = game.wave;
    const count = game.asteroids.size;
    // Clear the field by hand, then step.
    for (const [id, a] of [...game.asteroids]) {
      game.asteroids.delete(id);
      Matter.Composite.remove(game.engine.world, a.body);
    }
    game.step(idle);
    expect(game.wave).toBe(wave + 1);
    expect(game.asteroids.size).toBe(count + 1);
  });

  it('flood adds debris up to the cap and clear removes it', () => {
    const game = new Game({ seed: 2 });
    const base = game.bodyCount;
    expect(game.flood(2500)).toBe(2500);
    expect(game.bodyCount).toBe(base + 2500);
    for (const d of game.debris)
      expect(
        Math.hypot(d.position.x - game.ship.position.x, d.position.y - game.ship.position.y),
      ).toBeGreaterThan(89);
    expect(game.flood(MAX_DEBRIS)).toBe(MAX_DEBRIS - 2500);
    expect(game.debris.length).toBe(MAX_DEBRIS);
    expect(game.flood(10)).toBe(0);
    game.clearDebris();
    expect(game.bodyCount).toBe(base);
  });

  it('the static level: L lays 10 000 static rubble pieces clear of the spawn point, meeting only debris', () => {
    const game = new Game({ seed: 4 });
    const base = game.bodyCount;
    game.setRubble(true);
    const at = rubbleLayout();
    expect(game.rubbleCount).toBe(at.length / 2);
    expect(game.rubbleCount).toBeGreaterThan(10_000);
    expect(game.bodyCount).toBe(base + game.rubbleCount);
    for (const r of game.rubble) {
      expect(r.isStatic).toBe(true);
      expect(Math.hypot(r.position.x - 640, r.position.y - 360)).toBeGreaterThan(149);
      expect(r.collisionFilter.mask).toBe(0x8); // debris only: the ship and asteroids fly over it
    }
    game.setRubble(true); // already laid: nothing added
    expect(game.bodyCount).toBe(base + game.rubbleCount);
    game.setRubble(false);
    expect(game.rubbleCount).toBe(0);
    expect(game.bodyCount).toBe(base);
  });

  it('R restarts from a clean field: no debris, no rubble, a fresh first wave', () => {
    const game = new Game({ seed: 6 });
    game.flood(500);
    game.setRubble(true);
    for (let i = 0; i < depth(5, 20); i++) game.step(fire);
    game.restart();
    expect(game.debris.length).toBe(0);
    expect(game.rubbleCount).toBe(0);
    expect(game.wave).toBe(1);
    expect(game.score).toBe(0);
    expect(game.bullets.size).toBe(0);
    expect(game.bodyCount).toBe(1 + game.asteroids.size); // the ship and the wave
  });

  it('each world the demo offers is answered by the path the HUD names (sweep when many move, broadphase on the static level)', () => {
    const rec = new FrameRecorder({ now: () => 0 });
    const game = new Game({ seed: 7, onAfterUpdate: () => sw.recordStep() });
    const sw = new CollisionSwitch(game.engine, rec, 'sieve');
    game.flood(2500);
    for (let i = 0; i < 10; i++) game.step(idle);
    expect(sw.path).toBe('sweep'); // 2 505 moving bodies: matter's sort and sweep, with less overhead
    game.setRubble(true);
    for (let i = 0; i < 10; i++) game.step(idle);
    expect(sw.path).toBe('sweep'); // 12 500 bodies, a fifth of them moving: still the sweep
    // 10 000 static bodies and a few moving: a path chosen by @sieve/matter, named as it is.
    game.clearDebris();
    for (let i = 0; i < 10; i++) game.step(idle);
    expect(['sweep', 'broadphase']).toContain(sw.path);
    const forced = new Game({ seed: 7 });
    const sieve = installSieve(forced.engine, {
      matter: Matter,
      broadphase: new SweepAndPrune({ dimensions: 2 }),
      sweepBelow: 0,
    });
    forced.setRubble(true);
    forced.step(idle);
    expect(sieve.stats.path).toBe('broadphase'); // the path the static level is for, when chosen
    sw.toggle();
    game.step(idle);
    expect(sw.path).toBe('stock');
  });

  it('replays identically from a seed, and Sieve collision detection plays the same game as stock', () => {
    const run = (mode: 'stock' | 'sieve' | null) => {
      const rec = new FrameRecorder({ now: () => 0 });
      let sw: CollisionSwitch | null = null;
      const game = new Game({ seed: 11, test: true, onAfterUpdate: () => sw?.recordStep() });
      if (mode) sw = new CollisionSwitch(game.engine, rec, mode);
      game.flood(400);
      for (let i = 0; i < depth(120, 240); i++)
        game.step({ ...idle, fire: i % 20 < 10, left: i % 60 < 15, thrust: i % 90 < 30 });
      return {
        score: game.score,
        asteroids: game.asteroids.size,
        positions: game.engine.world.bodies.map((b) => [b.position.x, b.position.y]),
      };
    };
    const plain = run(null);
    expect(plain.score).toBeGreaterThan(0);
    expect(run(null)).toEqual(plain);
    expect(run('stock')).toEqual(plain);
    expect(run('sieve')).toEqual(plain);
  });
});
