/**
 * Differential runs of matter-js worlds for the fault tests: the same scene built twice (stock, and with
 * Sieve installed on one of its paths), the same faults injected before the same updates, and after every
 * update a trace of what a game sees — the collisions array (as body labels, in order), the collision
 * events and every body's position, angle and velocity (exact: `String` of a double round-trips, NaN
 * included). Bodies are named by a label given at creation, so two engines' different ids compare equal.
 */
import { Octree, SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveOptions } from '@sieve/matter';
import Matter from 'matter-js';
import { rng } from '../../../packages/core/test/support/rng.js';

const { Bodies, Composite, Engine, Events } = Matter;

/** A scene: an engine, and the faults to inject before update `step` (same calls in both engines). */
export interface MatterScene {
  engine: Matter.Engine;
  /** The scene's bodies by label. */
  byLabel: Map<string, Matter.Body>;
  beforeStep?: (step: number) => void;
}

/**
 * A pile of `n` boxes and circles (one compound body among them) falling on a static floor between two
 * walls; labels `floor`, `wallL`, `wallR`, `b0`… in creation order.
 */
export function pile(n: number, seed = 1): MatterScene {
  const r = rng(seed);
  const engine = Engine.create();
  const byLabel = new Map<string, Matter.Body>();
  const add = (label: string, body: Matter.Body) => {
    body.label = label;
    for (const part of body.parts) if (part !== body) part.label = `${label}.${part.id - body.id}`;
    byLabel.set(label, body);
    return body;
  };
  const width = Math.max(400, Math.ceil(Math.sqrt(n)) * 40);
  const bodies: Matter.Body[] = [
    add('floor', Bodies.rectangle(width / 2, 620, width + 200, 40, { isStatic: true })),
    add('wallL', Bodies.rectangle(-10, 400, 20, 800, { isStatic: true })),
    add('wallR', Bodies.rectangle(width + 10, 400, 20, 800, { isStatic: true })),
  ];
  const cols = Math.max(4, Math.floor(width / 30));
  for (let i = 0; i < n; i++) {
    const x = 20 + (i % cols) * 28 + r() * 4;
    const y = 580 - Math.floor(i / cols) * 30 - r() * 4;
    let body: Matter.Body;
    if (i === 3) {
      const a = Bodies.rectangle(x, y, 20, 8);
      const b = Bodies.rectangle(x, y + 6, 8, 12);
      body = Matter.Body.create({ parts: [a, b] });
    } else if (i % 3 === 0) body = Bodies.circle(x, y, 10 + r() * 3);
    else body = Bodies.rectangle(x, y, 18 + r() * 6, 18 + r() * 6, { angle: r() - 0.5 });
    bodies.push(add(`b${i}`, body));
  }
  Composite.add(engine.world, bodies);
  return { engine, byLabel };
}

/** Name of a body or part for traces. */
function nameOf(body: Matter.Body): string {
  return body.label;
}

/** Runs `steps` updates; returns one trace line per update (or the error an update threw). */
export function traceRun(scene: MatterScene, steps: number): string[] {
  const { engine } = scene;
  const events: string[] = [];
  for (const kind of ['collisionStart', 'collisionEnd'] as const) {
    Events.on(engine, kind, (e: Matter.IEvent<Matter.Engine>) => {
      const pairs = (e as Matter.IEventCollision<Matter.Engine>).pairs;
      events.push(`${kind}:${pairs.map((p) => `${nameOf(p.bodyA)}-${nameOf(p.bodyB)}`).join(',')}`);
    });
  }
  const lines: string[] = [];
  for (let step = 0; step < steps; step++) {
    scene.beforeStep?.(step);
    events.length = 0;
    try {
      Engine.update(engine, 1000 / 60);
    } catch (e) {
      lines.push(`update threw: ${(e as Error).message}`);
      break;
    }
    const collisions = (engine.detector as unknown as { collisions: Matter.Collision[] }).collisions
      .map((c) => `${nameOf(c.bodyA)}-${nameOf(c.bodyB)}`)
      .join(',');
    const bodies = Composite.allBodies(engine.world)
      .map(
        (b) =>
          `${b.label}:${b.position.x},${b.position.y},${b.angle},${b.velocity.x},${b.velocity.y},${b.isSleeping}`,
      )
      .join(';');
    lines.push(`${collisions}|${events.join('/')}|${bodies}`);
  }
  return lines;
}

/** The first update whose trace differs, with both lines (abridged), or '' when none does. */
export function firstDifference(stock: string[], sieve: string[]): string {
  const n = Math.max(stock.length, sieve.length);
  for (let i = 0; i < n; i++) {
    if (stock[i] !== sieve[i]) {
      return `update ${i}:\n stock ${String(stock[i]).slice(0, 240)}\n sieve ${String(sieve[i]).slice(0, 240)}`;
    }
  }
  return '';
}

/**
 * The Sieve configurations the tests run: the default (the sweep alone), a `SweepAndPrune` with its
 * path forced and with the path chosen by the world (a small threshold), and the octree. Getters: each
 * run gets a broadphase of its own (an instance serves one engine).
 */
export const MATTER_PATHS: readonly { name: string; options: SieveOptions }[] = [
  { name: 'default (the sweep)', options: {} },
  {
    name: 'SweepAndPrune, broadphase path (sweepBelow 0)',
    get options(): SieveOptions {
      return { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 };
    },
  },
  {
    name: 'SweepAndPrune, chosen by the world (sweepBelow 16)',
    get options(): SieveOptions {
      return { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 16 };
    },
  },
  {
    name: 'octree, broadphase path',
    get options(): SieveOptions {
      return { broadphase: new Octree({ dimensions: 2 }), sweepBelow: 0 };
    },
  },
];

/**
 * Runs `build` stock and under each of {@link MATTER_PATHS} (plus `extra` options); returns, per
 * configuration, the first difference from stock ('' when none) and which paths the detector used.
 */
export function comparePaths(
  build: () => MatterScene,
  steps: number,
  extra: SieveOptions = {},
): { name: string; difference: string; paths: string }[] {
  const stock = traceRun(build(), steps);
  return MATTER_PATHS.map(({ name, options }) => {
    const scene = build();
    const sieve = installSieve(scene.engine, { ...options, ...extra });
    const paths = new Set<string>();
    Events.on(scene.engine, 'afterUpdate', () => paths.add(sieve.stats.path));
    const trace = traceRun(scene, steps);
    return { name, difference: firstDifference(stock, trace), paths: [...paths].sort().join('+') };
  });
}
