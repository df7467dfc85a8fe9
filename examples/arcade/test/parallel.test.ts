/**
 * The parallel mode's two halves in Node: the game on @sieve/matter's parallel broadphase (2
 * `worker_threads`, as the physics worker runs it on Web Workers) plays exactly the game of stock
 * matter-js, and a snapshot (state.ts) carries every number the view and the HUD read across the thread
 * boundary unchanged.
 */
import { ParallelSweepAndPrune } from '@sieve/core/parallel';
import { installSieve, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { sharedPool } from '../../../packages/core/test/broadphase/parallelWorker.js';
import { Game, type Input } from '../src/game.js';
import { RemoteGame, type StepReport, snapshotLength, writeSnapshot } from '../src/state.js';

const idle: Input = { left: false, right: false, thrust: false, fire: false };
const script = (i: number): Input => ({ ...idle, fire: i % 20 < 10, left: i % 60 < 15, thrust: i % 90 < 30 });

function report(regions: number, path: StepReport['path'] = 'broadphase'): StepReport {
  return {
    mode: 'sieve',
    path,
    steps: 1,
    physicsMs: 1.5,
    collisionMs: Number.NaN,
    broadphaseMs: 0.25,
    narrowphaseMs: 0.125,
    candidates: 42,
    collisions: 7,
    pairs: 9,
    debrisPairs: 3,
    regionMs: Float64Array.from({ length: regions }, (_, r) => 0.5 + r),
  };
}

/** What the view and the HUD read of a game, as plain values. */
function seen(g: Game | RemoteGame) {
  return {
    steps: g.steps,
    score: g.score,
    lives: g.lives,
    wave: g.wave,
    state: g.state,
    shipAlive: g.shipAlive,
    invulnerable: g.invulnerable,
    thrusting: g.thrusting,
    shotsFired: g.shotsFired,
    bodyCount: g.bodyCount,
    rubbleCount: g.rubbleCount,
    ship: [g.ship.position.x, g.ship.position.y, g.ship.angle, g.ship.velocity.x, g.ship.velocity.y],
    asteroids: [...g.asteroids].map(([id, a]) => [
      id,
      a.size,
      a.body.position.x,
      a.body.position.y,
      a.body.angle,
      ...a.outline,
    ]),
    bullets: [...g.bullets].map(([id, b]) => [id, b.body.position.x, b.body.position.y]),
    sparks: g.sparks.map((s) => [s.x, s.y]),
    // The width to 1e-9 px (the snapshot sends the half width; min and max are rebuilt from it).
    debris: g.debris.map((d) => [
      d.position.x,
      d.position.y,
      Number((d.bounds.max.x - d.bounds.min.x).toFixed(9)),
    ]),
  };
}

describe('the arcade parallel mode, in Node', () => {
  it('the game on the parallel broadphase (2 workers) plays the same game as stock matter-js', () => {
    const run = (parallel: boolean) => {
      const game = new Game({ seed: 11, test: true });
      // Built and owned here, as the physics worker does (on the test process's shared pool).
      const bp = parallel
        ? new ParallelSweepAndPrune({ dimensions: 2, pool: sharedPool(2), minBoxesPerRegion: 64 })
        : null;
      if (bp) installSieve(game.engine, { matter: Matter, broadphase: bp, sweepBelow: 0 });
      game.flood(1200);
      let split = 0;
      try {
        for (let i = 0; i < 200; i++) {
          game.step(script(i));
          if (bp && bp.regionMembers()[0] > 0 && bp.regionMembers()[1] > 0) split++;
        }
      } finally {
        if (bp) {
          uninstallSieve(game.engine);
          bp.dispose();
        }
      }
      // Body ids differ (matter-js numbers bodies process-wide): compare everything else.
      const state = seen(game);
      return {
        split,
        state: {
          ...state,
          asteroids: state.asteroids.map((a) => a.slice(1)),
          bullets: state.bullets.map((b) => b.slice(1)),
        },
      };
    };
    const stock = run(false);
    const parallel = run(true);
    expect(stock.state.score).toBeGreaterThan(0);
    expect(parallel.split).toBe(200); // the field really was cut between the two workers
    expect(parallel.state).toEqual(stock.state);
  });

  it('a snapshot carries what the view reads; asteroids, bullets and debris come and go', () => {
    const game = new Game({ seed: 5, test: true });
    game.flood(300);
    const remote = new RemoteGame();
    for (let i = 0; i < 150; i++) {
      game.step(script(i));
      if (i === 60) game.clearDebris();
      if (i === 70) game.setRubble(true);
      if (i === 90) game.flood(50);
      if (i === 110) game.setRubble(false);
      if (i % 10 !== 9) continue;
      const r = report(3, i < 100 ? 'broadphase' : 'sweep');
      const data = new Float64Array(snapshotLength(game, 3));
      writeSnapshot(game, r, data);
      remote.apply(data);
      expect(seen(remote), `step ${i}`).toEqual(seen(game));
      expect(remote.report).toEqual(r);
    }
    expect(game.asteroidsDestroyed).toBeGreaterThan(0);
    expect(remote.rubbleCount).toBe(0);
  });
});
