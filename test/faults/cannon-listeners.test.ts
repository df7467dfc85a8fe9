/**
 * cannon-es worlds whose listeners add and remove bodies inside `step()`, with Sieve in each of its
 * configurations and at world sizes on both sides of the broadphase's naive/tree switch: where stock
 * survives (a removal and an add in the same `collide` handler — pick-up and respawn — in either order,
 * a body removed and added back), every step gives stock's bodies and events; where stock throws (a
 * removal alone from a `collide` handler), Sieve applies the removal when the internal step ends, the
 * same on every configuration.
 */
import type * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../support/depth.js';
import {
  type CannonScene,
  dropWorld,
  firstDifference,
  traceConfigs,
  traceSteps,
} from './support/cannonRuns.js';

const SIZES = [10, 90];
/** Every body has landed by step 55 (the highest drops 3.8 m). */
const STEPS = depth(60, 90);

/** The ground's `collide` listener calls `onHit(scene, body)` for each dynamic body that hits it. */
function onGroundHit(n: number, onHit: (scene: CannonScene, body: CANNON.Body) => void, count: number[]) {
  return () =>
    dropWorld(n, (scene) => {
      const ground = scene.world.bodies[0];
      ground.addEventListener('collide', (e: { body: CANNON.Body }) => {
        if (e.body.world !== scene.world) return;
        count[0]++;
        onHit(scene, e.body);
      });
    });
}

const SURVIVED: Record<string, (scene: CannonScene, body: CANNON.Body) => void> = {
  'remove, then add a new body (respawn)': (s, b) => {
    s.world.removeBody(b);
    s.world.addBody(s.spawn());
  },
  'add a new body, then remove': (s, b) => {
    s.world.addBody(s.spawn());
    s.world.removeBody(b);
  },
  'remove and add back the same body (teleport)': (s, b) => {
    s.world.removeBody(b);
    b.position.set(b.position.x, 6, b.position.z);
    b.velocity.setZero();
    s.world.addBody(b);
  },
  'remove two, add two': (s, b) => {
    const other = s.world.bodies[s.world.bodies.length - 1];
    s.world.removeBody(b);
    if (other !== b && other.mass > 0) s.world.removeBody(other);
    s.world.addBody(s.spawn());
    if (other !== b && other.mass > 0) s.world.addBody(s.spawn());
  },
};

describe('cannon: bodies removed and added in a collide handler, where stock survives', () => {
  for (const n of SIZES) {
    for (const [what, onHit] of Object.entries(SURVIVED)) {
      it(`${what}, ${n} bodies: stock's bodies and events on every configuration`, () => {
        const hits = [0];
        const stock = traceSteps(onGroundHit(n, onHit, hits)(), STEPS);
        expect(stock.every((l) => !l.startsWith('step threw'))).toBe(true);
        expect(hits[0]).toBeGreaterThan(3);
        for (const { name, trace } of traceConfigs(onGroundHit(n, onHit, [0]), STEPS)) {
          expect(firstDifference(stock, trace), name).toBe('');
        }
      });
    }
  }

  it("a removal in one body's collide listener and an add in the other's (one contact)", () => {
    const build = () =>
      dropWorld(30, (scene) => {
        const ground = scene.world.bodies[0];
        for (const body of scene.world.bodies.slice(1)) {
          body.addEventListener('collide', (e: { body: CANNON.Body }) => {
            if (e.body === ground && body.world === scene.world) scene.world.removeBody(body);
          });
        }
        ground.addEventListener('collide', () => {
          if (scene.world.bodies.length < 31) scene.world.addBody(scene.spawn());
        });
      });
    const stock = traceSteps(build(), STEPS);
    expect(stock.every((l) => !l.startsWith('step threw'))).toBe(true);
    for (const { name, trace } of traceConfigs(build, STEPS)) {
      expect(firstDifference(stock, trace), name).toBe('');
    }
  });
});

describe('cannon: removals and adds in different listeners of one step, where stock survives', () => {
  for (const n of SIZES) {
    it(`removed in collide handlers, respawned from beginContact, ${n} bodies`, () => {
      const build = () =>
        dropWorld(n, (scene) => {
          const ground = scene.world.bodies[0];
          let owed = 0;
          ground.addEventListener('collide', (e: { body: CANNON.Body }) => {
            if (e.body.world !== scene.world) return;
            scene.world.removeBody(e.body);
            owed++;
          });
          scene.world.addEventListener('beginContact', () => {
            for (; owed > 0; owed--) scene.world.addBody(scene.spawn());
          });
        });
      const stock = traceSteps(build(), STEPS);
      expect(stock.every((l) => !l.startsWith('step threw'))).toBe(true);
      for (const { name, trace } of traceConfigs(build, STEPS)) {
        expect(firstDifference(stock, trace), name).toBe('');
      }
    });
  }
});

describe('cannon: a body removed alone in a listener, where stock throws', () => {
  for (const n of SIZES) {
    it(`${n} bodies, from collide: removed at once, the rest of the step runs over the bodies left`, () => {
      const seen: string[] = [];
      const frozen = new Map<CANNON.Body, string>();
      const remove = (s: CannonScene, b: CANNON.Body) => {
        s.world.removeBody(b);
        // Stock's removal, done at once: gone from the list, no world.
        seen.push(`${s.world.bodies.includes(b)}/${b.world === null}`);
        frozen.set(b, `${b.position.x},${b.position.y},${b.position.z}`);
      };
      const stock = traceSteps(onGroundHit(n, remove, [0])(), STEPS);
      const threw = stock.findIndex((l) => l.startsWith('step threw'));
      expect(threw).toBeGreaterThan(0);
      const traces = traceConfigs(onGroundHit(n, remove, [0]), STEPS);
      for (const { name, trace } of traces) {
        expect(
          trace.some((l) => l.startsWith('step threw')),
          name,
        ).toBe(false);
        // Stock's steps up to the one it threw out of; then the same on every configuration.
        expect(firstDifference(stock.slice(0, threw), trace.slice(0, threw)), name).toBe('');
        expect(firstDifference(traces[0].trace, trace, [traces[0].name, name]), name).toBe('');
      }
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['false/true']));
      // A removed body is not integrated in the rest of its step.
      for (const [b, at] of frozen) expect(`${b.position.x},${b.position.y},${b.position.z}`).toBe(at);
    });
  }

  for (const [where, allowSleep] of [
    ['preStep', false],
    ['postStep', true],
  ] as const) {
    it(`from ${where}${allowSleep ? ' with sleep on' : ''}: no throw, listeners never see a placeholder`, () => {
      const build = () =>
        dropWorld(20, (scene) => {
          scene.world.allowSleep = allowSleep;
          scene.world.addEventListener(where, () => {
            const bodies = scene.world.bodies;
            scene.log.push(`${where} sees ${bodies.length}: ${bodies.every((b) => scene.names.has(b))}`);
            if (bodies.length > 12) scene.world.removeBody(bodies[bodies.length - 2]);
          });
        });
      const stock = traceSteps(build(), 20);
      expect(stock[stock.length - 1]).toMatch(/^step threw/);
      const traces = traceConfigs(build, 20);
      for (const { name, trace } of traces) {
        expect(
          trace.some((l) => l.startsWith('step threw')),
          name,
        ).toBe(false);
        expect(
          trace.every((l) => !l.includes(': false')),
          name,
        ).toBe(true);
        expect(firstDifference(traces[0].trace, trace, [traces[0].name, name]), name).toBe('');
      }
    });
  }
});
