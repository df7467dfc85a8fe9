/**
 * Runs two engines built by the same scene builder side by side — one stock, one changed by
 * `setup` (Sieve installed, modes switched...) — and compares them after every update: the collisions
 * array (pairs of parts, in order), the collisionStart/Active/End events, and every body's position,
 * angle and velocity, exactly (Object.is). Bodies are named by their creation order in their engine,
 * so the two engines' different ids compare equal. Any Matter module runs it (matter-js by default,
 * or Phaser's bundled copy).
 */
import Matter from 'matter-js';
import type { Scene } from './scenes.js';

/** The Matter module a comparison steps and reads with (matter-js's, or Phaser's bundled copy). */
export type HarnessMatter = Pick<typeof Matter, 'Composite' | 'Engine' | 'Events'>;

/** Assigns each body and part a canonical index: its rank by id (creation order) in its engine. */
class Namer {
  private byId = new Map<number, number>();
  name(body: Matter.Body): number {
    const n = this.byId.get(body.id);
    if (n === undefined) throw new Error(`unnamed body ${body.id}`);
    return n;
  }
  refresh(engine: Matter.Engine, M: HarnessMatter): void {
    const fresh: number[] = [];
    for (const b of M.Composite.allBodies(engine.world)) {
      for (const p of b.parts) if (!this.byId.has(p.id)) fresh.push(p.id);
    }
    fresh.sort((a, b) => a - b);
    for (const id of fresh) if (!this.byId.has(id)) this.byId.set(id, this.byId.size);
  }
}

interface Trace {
  collisions: string;
  events: string[];
}

function recorder(engine: Matter.Engine, namer: Namer, M: HarnessMatter) {
  const events: string[] = [];
  const pairName = (p: Matter.Pair) => `${namer.name(p.bodyA)}-${namer.name(p.bodyB)}`;
  for (const kind of ['collisionStart', 'collisionActive', 'collisionEnd'] as const) {
    M.Events.on(engine, kind, (e: Matter.IEvent<Matter.Engine>) => {
      const pairs = (e as Matter.IEventCollision<Matter.Engine>).pairs;
      events.push(`${kind}:${pairs.map(pairName).join(',')}`);
    });
  }
  return {
    take(): Trace {
      const collisions = ((engine.detector as unknown as { collisions: Matter.Collision[] }).collisions ?? [])
        .map((c) => `${namer.name(c.bodyA)}-${namer.name(c.bodyB)}`)
        .join(',');
      const out = { collisions, events: events.slice() };
      events.length = 0;
      return out;
    },
  };
}

/** Every body's state, as exact numbers keyed by canonical name. */
function state(engine: Matter.Engine, namer: Namer, M: HarnessMatter): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const b of M.Composite.allBodies(engine.world)) {
    // Fields @types/matter-js leaves out.
    const inner = b as unknown as {
      totalContacts: number;
      positionImpulse: Matter.Vector;
      positionPrev: Matter.Vector;
    };
    out.set(namer.name(b), [
      b.position.x,
      b.position.y,
      b.angle,
      b.velocity.x,
      b.velocity.y,
      b.isSleeping ? 1 : 0,
      // What the engine's per-body loops write (and Sieve's static-body tracking skips where unchanged).
      b.speed,
      b.angularVelocity,
      b.force.x,
      b.force.y,
      b.torque as number,
      inner.totalContacts,
      inner.positionImpulse.x,
      inner.positionImpulse.y,
      inner.positionPrev.x,
      inner.positionPrev.y,
      b.bounds.min.x,
      b.bounds.max.y,
      b.isStatic ? 1 : 0,
    ]);
  }
  return out;
}

/** What {@link compareRuns} found. */
export interface Comparison {
  /** First step where anything differed, or -1. */
  firstDifference: number;
  /** What differed there. */
  what: string;
  /** Total collisions seen over the run (to show the scene did collide). */
  totalCollisions: number;
  /** Distinct collisionStart events seen. */
  totalStarts: number;
  /** Steps run. */
  steps: number;
}

/**
 * Builds the scene twice, runs `steps` updates of both, and compares after each one.
 * `setup(engine)` is applied to the second engine before the first update; `perStep(engine, step)`
 * (optional) runs on the second engine before each update (switching modes, uninstalling...).
 * `M` is the Matter module the scene was built with (default matter-js).
 */
export function compareRuns(
  build: () => Scene,
  steps: number,
  setup: (engine: Matter.Engine) => void,
  perStep?: (engine: Matter.Engine, step: number) => void,
  M: HarnessMatter = Matter,
): Comparison {
  const a = build();
  const b = build();
  const namerA = new Namer();
  const namerB = new Namer();
  const recA = recorder(a.engine, namerA, M);
  const recB = recorder(b.engine, namerB, M);
  setup(b.engine);
  let totalCollisions = 0;
  let totalStarts = 0;
  const delta = 1000 / 60;
  for (let step = 0; step < steps; step++) {
    a.beforeStep?.(step);
    b.beforeStep?.(step);
    perStep?.(b.engine, step);
    namerA.refresh(a.engine, M);
    namerB.refresh(b.engine, M);
    M.Engine.update(a.engine, delta);
    M.Engine.update(b.engine, delta);
    const ta = recA.take();
    const tb = recB.take();
    totalCollisions += a.engine.pairs.list.length;
    totalStarts += ta.events.filter((e) => e.startsWith('collisionStart')).length;
    const fail = (what: string): Comparison => ({
      firstDifference: step,
      what,
      totalCollisions,
      totalStarts,
      steps,
    });
    if (ta.collisions !== tb.collisions) {
      return fail(
        `collisions differ:\n stock ${ta.collisions.slice(0, 300)}\n sieve ${tb.collisions.slice(0, 300)}`,
      );
    }
    if (ta.events.join('|') !== tb.events.join('|')) return fail('events differ');
    const sa = state(a.engine, namerA, M);
    const sb = state(b.engine, namerB, M);
    if (sa.size !== sb.size) return fail(`body counts differ ${sa.size} vs ${sb.size}`);
    for (const [name, va] of sa) {
      const vb = sb.get(name);
      if (vb === undefined || va.some((v, i) => !Object.is(v, vb[i]))) {
        return fail(`body ${name} differs: ${va.join(' ')} vs ${vb?.join(' ')}`);
      }
    }
  }
  return { firstDifference: -1, what: '', totalCollisions, totalStarts, steps };
}
