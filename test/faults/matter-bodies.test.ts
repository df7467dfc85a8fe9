/**
 * matter-js fed duplicate and broken bodies, with Sieve on each of its paths (the sweep, the broadphase,
 * switching between them, the octree) and several world sizes: every update gives stock's collisions,
 * events and body states, and nothing throws from inside `Engine.update` (stock tolerates all of these).
 */

import { SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveOptions } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../support/depth.js';
import { comparePaths, firstDifference, type MatterScene, pile, traceRun } from './support/matterRuns.js';

const { Body, Composite } = Matter;
/** World sizes: a few bodies, a hundred and a large world. */
const SIZES = depth([8, 120, 250], [8, 120, 600]);
/** Updates of each run: past the last fault (injected before update 30) and the last mode switch (33). */
const STEPS = depth(34, 40);

function expectStock(build: () => MatterScene, wantBroadphase: boolean, extra: SieveOptions = {}): void {
  const results = comparePaths(build, STEPS, extra);
  for (const r of results) expect(r.difference, r.name).toBe('');
  // The forced broadphase configurations did run the broadphase path (else the test proves nothing).
  if (wantBroadphase) expect(results[1].paths, results[1].name).toContain('broadphase');
}

describe('matter: a body added twice to the world', () => {
  for (const n of SIZES) {
    it(`from the start, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        Composite.add(s.engine.world, s.byLabel.get('b5') as Matter.Body);
        return s;
      }, false);
    });
    it(`added during the run, then removed once and again, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        const twice = s.byLabel.get('b1') as Matter.Body;
        s.beforeStep = (step) => {
          if (step === 10) Composite.add(s.engine.world, twice);
          if (step === 22) Composite.remove(s.engine.world, twice); // one copy left: a normal world
          if (step === 30) Composite.remove(s.engine.world, twice);
        };
        return s;
      }, true);
    });
    it(`a static body (the floor) listed twice, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        s.beforeStep = (step) => {
          if (step === 5) Composite.add(s.engine.world, s.byLabel.get('floor') as Matter.Body);
        };
        return s;
      }, true);
    });
  }
});

describe('matter: bodies whose bounds turn NaN, infinite or inverted', () => {
  for (const n of SIZES) {
    it(`a body moved to NaN, then removed, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        const b = s.byLabel.get('b7') as Matter.Body;
        s.beforeStep = (step) => {
          if (step === 8) Body.setPosition(b, { x: Number.NaN, y: Number.NaN });
          if (step === 24) Composite.remove(s.engine.world, b);
        };
        return s;
      }, true);
    });
    it(`a body given an infinite velocity, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        const b = s.byLabel.get('b2') as Matter.Body;
        s.beforeStep = (step) => {
          if (step === 6) Body.setVelocity(b, { x: Number.POSITIVE_INFINITY, y: 0 });
        };
        return s;
      }, true);
    });
    it(`a static body's bounds written directly: NaN, then inverted, then repaired, ${n} bodies`, () => {
      // Written behind Matter's back: seen with static bodies read every step (trackStatic: false).
      expectStock(
        () => {
          const s = pile(n);
          const floor = s.byLabel.get('floor') as Matter.Body;
          let saved = 0;
          s.beforeStep = (step) => {
            if (step === 4) {
              saved = floor.bounds.min.x;
              floor.bounds.min.x = Number.NaN;
            }
            if (step === 14) floor.bounds.min.x = floor.bounds.max.x + 5; // finite but min > max
            if (step === 24) floor.bounds.min.x = saved;
          };
          return s;
        },
        true,
        { trackStatic: false },
      );
    });
    it(`a static body moved to NaN by Body.setPosition, then back, ${n} bodies`, () => {
      expectStock(() => {
        const s = pile(n);
        const floor = s.byLabel.get('floor') as Matter.Body;
        let saved = { x: 0, y: 0 };
        s.beforeStep = (step) => {
          if (step === 4) {
            saved = { ...floor.position };
            Body.setPosition(floor, { x: Number.NaN, y: saved.y });
          }
          if (step === 14) Body.setPosition(floor, { x: Number.POSITIVE_INFINITY, y: saved.y });
          if (step === 24) Body.setPosition(floor, saved);
        };
        return s;
      }, true);
    });
  }
});

describe('matter: switching modes while the world is broken', () => {
  it('a duplicate body and a NaN body, Sieve toggled between its mode and stock every few updates', () => {
    const build = () => {
      const s = pile(120);
      const twice = s.byLabel.get('b4') as Matter.Body;
      const broken = s.byLabel.get('b9') as Matter.Body;
      s.beforeStep = (step) => {
        if (step === 6) Composite.add(s.engine.world, twice);
        if (step === 12) Body.setPosition(broken, { x: Number.NaN, y: 10 });
        if (step === 20) Composite.remove(s.engine.world, broken);
        if (step === 28) Composite.remove(s.engine.world, twice);
      };
      return s;
    };
    const stock = traceRun(build(), STEPS);
    const scene = build();
    const sieve = installSieve(scene.engine, {
      broadphase: new SweepAndPrune({ dimensions: 2 }),
      sweepBelow: 0,
    });
    const inner = scene.beforeStep;
    scene.beforeStep = (step) => {
      inner?.(step);
      if (step % 5 === 3) sieve.mode = sieve.mode === 'sieve' ? 'stock' : 'sieve';
    };
    expect(firstDifference(stock, traceRun(scene, STEPS))).toBe('');
  });
});
