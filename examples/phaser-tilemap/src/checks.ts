/**
 * What the headless test compares between runs with and without Sieve: a running hash of each
 * step's collisions (body ids in the order the detector returned them) and collision events, every
 * body's exact state, and whether anything fell through the level.
 */

/** The parts of a Matter body read here. */
export interface Body {
  id: number;
  isStatic: boolean;
  position: { x: number; y: number };
  velocity: { x: number; y: number };
  angle: number;
}

/** The parts of Phaser's matter-js module read here (and what `installSieve` needs of it). */
export interface MatterModule {
  Composite: { allBodies(composite: unknown): Body[] };
  Detector: { collisions(detector: never): unknown[]; canCollide(a: never, b: never): boolean };
  Collision: { collides(a: never, b: never, pairs?: never): unknown };
}

/** A Matter engine as read here. */
export interface EngineLike {
  world: unknown;
  detector: { collisions?: { bodyA: Body; bodyB: Body }[] };
  pairs: { collisionStart: { bodyA: Body; bodyB: Body }[]; collisionEnd: { bodyA: Body; bodyB: Body }[] };
}

/** FNV-1a over 32-bit words. */
function mix(hash: number, word: number): number {
  return Math.imul(hash ^ (word | 0), 16777619) >>> 0;
}

/** `hash` extended by the last step's collisions and its collisionStart / collisionEnd pairs. */
export function collisionHash(hash: number, engine: EngineLike): number {
  let h = hash === 0 ? 2166136261 : hash;
  for (const c of engine.detector.collisions ?? []) h = mix(mix(h, c.bodyA.id), c.bodyB.id);
  h = mix(h, -1);
  for (const p of engine.pairs.collisionStart) h = mix(mix(h, p.bodyA.id), p.bodyB.id);
  h = mix(h, -2);
  for (const p of engine.pairs.collisionEnd) h = mix(mix(h, p.bodyA.id), p.bodyB.id);
  return h;
}

/** Every body's position, angle and velocity, in world order (exact numbers). */
export function snapshot(M: MatterModule, engine: EngineLike): number[] {
  const out: number[] = [];
  for (const b of M.Composite.allBodies(engine.world)) {
    out.push(b.id, b.position.x, b.position.y, b.angle, b.velocity.x, b.velocity.y);
  }
  return out;
}

/**
 * Dynamic bodies below the level's bottom (`bottom`, px), or whose centre lies more than half a tile
 * under the ground's surface in their column (`surface(column)`, px): what fell through the tiles.
 */
export function sunkBodies(
  M: MatterModule,
  engine: EngineLike,
  surface: (column: number) => number,
  bottom: number,
  tile = 32,
): number {
  let n = 0;
  for (const b of M.Composite.allBodies(engine.world)) {
    if (b.isStatic) continue;
    const { x, y } = b.position;
    if (!(y < bottom) || y > surface(Math.floor(x / tile)) + tile / 2) n++;
  }
  return n;
}
