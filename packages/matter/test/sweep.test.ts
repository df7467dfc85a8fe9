/**
 * StockSweep must give exactly what stock's `Detector.collisions` gives on the same `detector.bodies`:
 * the same order of the array after its sort (from any previous order, with many tied `min.x`), the
 * same collisions in the same order with the same argument order, through both of its sorts (the
 * insertion sort and stock's own sort past the shift budget), with static and sleeping bodies,
 * collision filters, compound bodies and a replaced `Detector.canCollide`.
 */
import fc from 'fast-check';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import type { CanCollideFn, CollidesFn, MatterBodyLike } from '../src/matterTypes.js';
import { StockSweep } from '../src/sweep.js';

const { Bodies, Body, Collision, Detector } = Matter;

interface Spec {
  x: number;
  y: number;
  w: number;
  kind: number;
  flags: number;
  group: number;
  category: number;
  mask: number;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  // Few distinct x: many equal min.x (ties) among equal shapes.
  x: fc.integer({ min: 0, max: 12 }).map((i) => i * 5),
  y: fc.integer({ min: 0, max: 12 }).map((i) => i * 5),
  w: fc.constantFrom(6, 10, 14),
  kind: fc.integer({ min: 0, max: 3 }),
  flags: fc.integer({ min: 0, max: 3 }),
  group: fc.constantFrom(0, 0, 0, 1, -1, 2),
  category: fc.constantFrom(1, 1, 2, 4),
  mask: fc.constantFrom(-1, -1, 1, 6, 0xffffffff),
});

function makeBody(s: Spec, i: number): Matter.Body {
  const options = {
    label: `b${i}`,
    collisionFilter: { group: s.group, category: s.category, mask: s.mask },
  };
  let body: Matter.Body;
  if (s.kind === 0) body = Bodies.circle(s.x, s.y, s.w / 2, options);
  else if (s.kind === 1) body = Bodies.rectangle(s.x, s.y, s.w, s.w, options);
  else if (s.kind === 2) body = Bodies.polygon(s.x, s.y, 5, s.w / 2, { ...options, angle: 0.3 });
  else {
    body = Body.create({
      ...options,
      parts: [Bodies.rectangle(s.x, s.y, s.w, s.w / 3), Bodies.rectangle(s.x, s.y, s.w / 3, s.w)],
    });
  }
  if (s.flags & 1) Body.setStatic(body, true);
  if (s.flags & 2) body.isSleeping = true;
  return body;
}

const name = (c: Matter.Collision) => `${c.bodyA.label}/${c.bodyB.label}:${c.depth}`;

function compare(specs: Spec[], order: number[], canCollide?: CanCollideFn): void {
  const bodies = specs.map(makeBody);
  const stockBodies = order.map((i) => bodies[i]);
  const mineBodies = stockBodies.slice();
  const stockDetector = Detector.create({ bodies: stockBodies });
  const original = Detector.canCollide;
  if (canCollide) Detector.canCollide = canCollide as typeof Detector.canCollide;
  let stock: string[];
  try {
    stock = Detector.collisions(stockDetector).map(name);
  } finally {
    Detector.canCollide = original;
  }
  const sweep = new StockSweep();
  const out: unknown[] = [];
  const n = sweep.collisions(
    mineBodies as unknown as MatterBodyLike[],
    out,
    null,
    canCollide ?? (original as unknown as CanCollideFn),
    canCollide === undefined,
    Collision.collides as unknown as CollidesFn,
  );
  expect(n).toBe(out.length);
  expect((out as Matter.Collision[]).map(name)).toEqual(stock);
  expect(mineBodies.map((b) => b.label)).toEqual(stockBodies.map((b) => b.label));
}

describe('StockSweep', () => {
  it('equals stock Detector.collisions: body order, collisions and their order, from any previous order', () => {
    fc.assert(
      fc.property(
        fc
          .array(specArb, { minLength: 0, maxLength: 60 })
          .chain((specs) =>
            fc.tuple(
              fc.constant(specs),
              fc.shuffledSubarray([...specs.keys()], { minLength: specs.length }),
              fc.boolean(),
            ),
          ),
        ([specs, order, replaced]) => {
          // A replaced canCollide (here: only groups) is called, not inlined.
          const groupsOnly: CanCollideFn | undefined = replaced
            ? (a, b) => !(a.group === b.group && (a.group ?? 0) < 0)
            : undefined;
          compare(specs, order, groupsOnly);
        },
      ),
      { seed: 15, numRuns: 250 },
    );
  });

  it('a nearly sorted previous order and a reversed one (past the shift budget) give stock results', () => {
    const specs: Spec[] = [];
    for (let i = 0; i < 300; i++) {
      specs.push({
        x: Math.floor(i / 3) * 4,
        y: (i % 3) * 9,
        w: 10,
        kind: 1,
        flags: 0,
        group: 0,
        category: 1,
        mask: -1,
      });
    }
    const sorted = [...specs.keys()];
    const near = sorted.slice();
    for (let i = 0; i < near.length - 1; i += 37) [near[i], near[i + 1]] = [near[i + 1], near[i]];
    compare(specs, near);
    compare(specs, sorted.slice().reverse());
  });

  it('declines (returns -1, nothing changed) when a min.x is not finite', () => {
    const a = Bodies.rectangle(0, 0, 10, 10);
    const b = Bodies.rectangle(5, 0, 10, 10);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      b.bounds.min.x = bad;
      const bodies = [b, a];
      const out: unknown[] = ['untouched'];
      const n = new StockSweep().collisions(
        bodies as unknown as MatterBodyLike[],
        out,
        null,
        Detector.canCollide as unknown as CanCollideFn,
        true,
        Collision.collides as unknown as CollidesFn,
      );
      expect(n).toBe(-1);
      expect(out).toEqual(['untouched']);
      expect(bodies).toEqual([b, a]);
    }
  });
});
