/**
 * The game without a browser: every scripted walk (into the walls, diagonally into corners, off ledges,
 * through the corridor and the tunnel, up the stairs, at a thin partition, into a ceiling) at 5, 30 and
 * 144 fps never ends a step inside the level or outside the yard, and gets where it should; the elevator
 * carries the player; thrown spheres stay out of the level; a minute of random play at random frame
 * times never ends inside either (at the standard depth: 40 spheres, 20 seconds of play).
 */
import { intersectsSphere } from '@sieve/three';
import { Sphere } from 'three';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { Game, SPHERE_RADIUS } from '../src/game.js';
import { HALF } from '../src/level.js';
import { runWalk, stepChecked, WALKS } from '../src/walks.js';

/** Spheres thrown, one a step. */
const BALLS = depth(40, 100);
/** Seconds of random play, as the test's name says them. */
const PLAY = depth(
  { seconds: 20, name: '20 seconds', minSteps: 300 },
  { seconds: 60, name: 'a minute', minSteps: 1000 },
);

describe('three-fps game', () => {
  const game = new Game();
  for (const fps of [5, 30, 144]) {
    for (const walk of WALKS) {
      it(`${walk.name} at ${fps} fps`, () => {
        const report = runWalk(game, walk, fps);
        expect(report.firstBad, JSON.stringify(report)).toBe(-1);
        if (walk.check) {
          const v = report.end[{ x: 0, y: 1, z: 2 }[walk.check.axis]];
          if (walk.check.min !== undefined)
            expect(v, JSON.stringify(report)).toBeGreaterThanOrEqual(walk.check.min);
          if (walk.check.max !== undefined)
            expect(v, JSON.stringify(report)).toBeLessThanOrEqual(walk.check.max);
        }
      });
    }
  }
});

describe('three-fps game: elevator, spheres, random play', () => {
  it('the elevator carries the player up to the walkway, which it walks onto', () => {
    for (const fps of [5, 60, 144]) {
      const game = new Game(); // time 0: the elevator at the floor
      game.teleport(-10.5, 0, -6, Math.PI / 2);
      for (let i = 0; i < 5 * fps; i++) {
        game.step(1 / fps);
        expect(game.playerInside() || game.playerOutside()).toBe(false);
        expect(game.player.start.y - 0.35 - 0.0135).toBeCloseTo(game.elevator.position.y, 5);
      }
      expect(game.elevator.position.y).toBeCloseTo(3, 6); // half a period: the top
      const report = stepChecked(game, 1 / fps, 2 * fps, { forward: 1, right: 0, jump: false });
      expect(report.firstBad).toBe(-1);
      expect(report.end[0]).toBeLessThan(-12.5);
      expect(report.end[1]).toBeCloseTo(3 + 1 + 0.0135, 5);
    }
  });

  it('thrown spheres bounce off the level and each other and never end a step inside it', () => {
    for (const fps of [5, 60]) {
      const game = new Game();
      const probe = new Sphere();
      let worst = 0;
      for (let i = 0; i < BALLS + 6 * fps; i++) {
        if (i < BALLS) {
          game.yaw = i * 0.37;
          game.pitch = -0.3 + 0.6 * Math.sin(i);
          game.throwBall((i % 7) / 7);
        }
        game.step(1 / fps);
        for (const b of game.balls) {
          if (!b.active) continue;
          // Penetration deeper than a micrometre, after the push-out: none.
          probe.set(b.center, SPHERE_RADIUS - 1e-6);
          for (const m of game.colliders) if (intersectsSphere(m, probe)) worst++;
        }
      }
      expect(worst, `${fps} fps`).toBe(0);
      expect(game.activeBalls).toBe(BALLS);
      // They came to rest on the ground, inside the yard.
      for (const b of game.balls) {
        if (!b.active) continue;
        expect(Math.abs(b.center.x)).toBeLessThan(HALF);
        expect(Math.abs(b.center.z)).toBeLessThan(HALF);
        expect(b.velocity.length()).toBeLessThan(2);
      }
    }
  });

  it(`${PLAY.name} of random play at random frame times never ends inside the level or outside the yard`, () => {
    const game = new Game();
    let seed = 12345;
    const r = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    let time = 0;
    let steps = 0;
    let bad = -1;
    while (time < PLAY.seconds) {
      const dt = Math.exp(Math.log(1 / 144) + r() * Math.log(144 / 5));
      if (r() < 0.05) {
        game.input.forward = r() * 2 - 1;
        game.input.right = r() * 2 - 1;
        game.yaw = r() * 2 * Math.PI;
      }
      game.input.jump = r() < 0.03;
      if (r() < 0.02) game.throwBall(r());
      game.step(dt);
      if (bad < 0 && (game.playerInside() || game.playerOutside())) bad = steps;
      time += dt;
      steps++;
    }
    expect(bad).toBe(-1);
    expect(steps).toBeGreaterThan(PLAY.minSteps);
  });
});
