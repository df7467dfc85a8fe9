/**
 * The game rules and physics of the arcade example, with no rendering: a ship in an asteroid field on a
 * matter-js world with zero gravity. Thrust, rotate and shoot; asteroids split in two when hit (large →
 * medium → small, 20/50/100 points); three lives, game over and restart; a new wave when the field is
 * clear. Two loads stress collision detection: `flood(n)` pours thousands of small moving debris bodies
 * into the field, and `setRubble(true)` lays a static level of ten thousand rubble bodies that the debris
 * bounces through — the kind of world where only the moving bodies should cost anything.
 *
 * Shots are `@sieve/matter` bullets: each update they stop at their first contact (reported to the game
 * like matter's own collision), so fast shots never pass through small asteroids.
 *
 * Everything wraps around the screen edges. One call to `step()` is one fixed 1/60 s physics step, so a
 * seed and a sequence of inputs always replay the same game (the end-to-end test relies on it).
 */
import { type BulletOptions, setBullet } from '@sieve/matter';
import Matter from 'matter-js';
import { mulberry32, type Rng, range } from './rng.js';

const { Bodies, Body, Composite, Engine, Events, Vertices } = Matter;

/** World size in pixels (the view scales it to the window). */
export const WORLD_W = 1280;
export const WORLD_H = 720;
/** One physics step, in ms. */
export const STEP_MS = 1000 / 60;

// Collision categories: bullets only meet asteroids; debris meets everything but bullets; the static
// rubble only meets debris (the ship and the asteroids fly over it).
const SHIP = 0x1;
const ASTEROID = 0x2;
const BULLET = 0x4;
const DEBRIS = 0x8;
const RUBBLE = 0x10;

const RADIUS = [0, 13, 24, 44] as const;
const POINTS = [0, 100, 50, 20] as const;
const THRUST = 0.14;
const MAX_SPEED = 7;
const TURN = 0.075;
const BULLET_SPEED = 14;
const BULLET_LIFE = 40;
const FIRE_COOLDOWN = 7;
const MAX_BULLETS = 12;
const RESPAWN_STEPS = 75;
const INVULNERABLE_STEPS = 150;
/** Most debris bodies the field will hold. */
export const MAX_DEBRIS = 30_000;
/** Spacing of the static rubble's grid, in px, and the radius of one piece. */
const RUBBLE_CELL = 9.2;
const RUBBLE_RADIUS = 1.5;
/** The rubble leaves the ship's spawn point clear, this far around the field's centre. */
const RUBBLE_CLEAR = 150;

/**
 * Where the static level's rubble lies: (x, y) pairs, flat — a jittered grid over the whole field but
 * for a clear disc around the centre, the same for every seed (the view draws it from this too).
 */
export function rubbleLayout(): Float64Array {
  const cols = Math.floor(WORLD_W / RUBBLE_CELL);
  const rows = Math.floor(WORLD_H / RUBBLE_CELL);
  const rng = mulberry32(0x5eed);
  const out: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const x = (i + 0.5 + range(rng, -0.25, 0.25)) * RUBBLE_CELL;
      const y = (j + 0.5 + range(rng, -0.25, 0.25)) * RUBBLE_CELL;
      if (Math.hypot(x - WORLD_W / 2, y - WORLD_H / 2) >= RUBBLE_CLEAR) out.push(x, y);
    }
  }
  return Float64Array.from(out);
}

/** What the player is pressing this step. */
export interface Input {
  left: boolean;
  right: boolean;
  thrust: boolean;
  fire: boolean;
}

/** An asteroid: its body, size (3 large, 2 medium, 1 small) and outline in body space at angle 0. */
export interface Asteroid {
  body: Matter.Body;
  size: 1 | 2 | 3;
  outline: number[];
}

/** A short-lived visual spark (not a physics body). */
export interface Spark {
  x: number;
  y: number;
  vx: number;
  vy: number;
  life: number;
}

/** Options of a {@link Game}. */
export interface GameOptions {
  /** Seed of the asteroid field and every random choice. */
  seed: number;
  /**
   * Test layout: the ship at the centre facing up, a medium asteroid at rest straight ahead, the rest of the
   * wave in the corners, and a long spawn shield — so that shooting at once is a guaranteed hit.
   */
  test?: boolean;
  /** Called around `Engine.update` (e.g. to time it). */
  onBeforeUpdate?: () => void;
  /** Called after `Engine.update`. */
  onAfterUpdate?: () => void;
}

/** Outline (flat x, y pairs) of `body` relative to its position, at its current angle undone. */
function outlineOf(body: Matter.Body): number[] {
  const out: number[] = [];
  const c = Math.cos(-body.angle);
  const s = Math.sin(-body.angle);
  for (const v of body.vertices) {
    const dx = v.x - body.position.x;
    const dy = v.y - body.position.y;
    out.push(dx * c - dy * s, dx * s + dy * c);
  }
  return out;
}

/** The asteroid game. */
export class Game {
  readonly engine: Matter.Engine;
  readonly asteroids = new Map<number, Asteroid>();
  /** Live shots, with the velocity they were fired at (a stopped shot's own velocity lost its normal part). */
  readonly bullets = new Map<number, { body: Matter.Body; life: number; vx: number; vy: number }>();
  readonly debris: Matter.Body[] = [];
  /** The static level's rubble (empty while the level is off). */
  readonly rubble: Matter.Body[] = [];
  readonly sparks: Spark[] = [];
  ship: Matter.Body;
  /** Ship outline in body space. */
  readonly shipOutline: number[];
  score = 0;
  lives = 3;
  wave = 0;
  state: 'playing' | 'gameover' = 'playing';
  /** Physics steps since the start. */
  steps = 0;
  shotsFired = 0;
  asteroidsDestroyed = 0;
  /** Whether the ship is in the world (false while waiting to respawn). */
  shipAlive = true;
  /** Steps of spawn shield left. */
  invulnerable = 0;
  /** Whether thrust was applied this step (for the flame). */
  thrusting = false;

  private rng: Rng;
  private readonly test: boolean;
  private fireCooldown = 0;
  private respawnTimer = 0;
  private readonly hits: [Matter.Body, Matter.Body][] = [];
  private readonly options: GameOptions;
  /** Shots stop at their first contact; the hit is handled like matter's collisionStart. */
  private readonly bulletOptions: BulletOptions = {
    response: 'stop',
    onHit: (bullet, other) => {
      this.hits.push([bullet as Matter.Body, other as Matter.Body]);
    },
  };

  constructor(options: GameOptions) {
    this.options = options;
    this.rng = mulberry32(options.seed);
    this.test = options.test ?? false;
    this.engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 }, enableSleeping: false });
    Events.on(this.engine, 'collisionStart', (e: Matter.IEventCollision<Matter.Engine>) => {
      // Acted on after the update: bodies must not be removed while matter iterates them.
      for (const p of e.pairs) this.hits.push([p.bodyA, p.bodyB]);
    });
    this.ship = this.makeShip();
    this.shipOutline = outlineOf(this.ship);
    this.restart();
  }

  /**
   * Starts a new game from a clean field: no debris, no rubble, the first wave (the seed's random
   * sequence continues).
   */
  restart(): void {
    this.clearDebris();
    this.setRubble(false);
    for (const a of this.asteroids.values()) Composite.remove(this.engine.world, a.body);
    for (const b of this.bullets.values()) this.removeBullet(b.body);
    this.asteroids.clear();
    this.bullets.clear();
    this.sparks.length = 0;
    this.hits.length = 0;
    this.score = 0;
    this.lives = 3;
    this.wave = 0;
    this.state = 'playing';
    this.shotsFired = 0;
    this.asteroidsDestroyed = 0;
    this.spawnShip();
    if (this.test) this.invulnerable = 600;
    this.nextWave();
  }

  private makeShip(): Matter.Body {
    const ship = Bodies.fromVertices(WORLD_W / 2, WORLD_H / 2, [
      [
        { x: 0, y: -18 },
        { x: 12, y: 12 },
        { x: -12, y: 12 },
      ],
    ]);
    Body.set(ship, {
      label: 'ship',
      frictionAir: 0.008,
      friction: 0,
      restitution: 0.6,
      collisionFilter: { category: SHIP, mask: ASTEROID | DEBRIS, group: 0 },
    });
    return ship;
  }

  private spawnShip(): void {
    Composite.remove(this.engine.world, this.ship);
    Body.setPosition(this.ship, { x: WORLD_W / 2, y: WORLD_H / 2 });
    Body.setAngle(this.ship, 0);
    Body.setVelocity(this.ship, { x: 0, y: 0 });
    Body.setAngularVelocity(this.ship, 0);
    Composite.add(this.engine.world, this.ship);
    this.shipAlive = true;
    this.invulnerable = INVULNERABLE_STEPS;
  }

  /** Adds an asteroid of `size` at (x, y) moving at (vx, vy). */
  addAsteroid(size: 1 | 2 | 3, x: number, y: number, vx: number, vy: number): Asteroid {
    const r = RADIUS[size];
    const n = 7 + Math.floor(this.rng() * 4);
    const points: Matter.Vector[] = [];
    for (let i = 0; i < n; i++) {
      const a = ((i + range(this.rng, -0.3, 0.3)) / n) * Math.PI * 2;
      const rr = r * range(this.rng, 0.78, 1.05);
      points.push({ x: Math.cos(a) * rr, y: Math.sin(a) * rr });
    }
    // Convex hull first: matter only simulates convex parts (a concave outline would need poly-decomp).
    const body = Bodies.fromVertices(x, y, [Vertices.hull(points as Matter.Vertex[])], {
      label: 'asteroid',
      frictionAir: 0,
      friction: 0,
      restitution: 0.9,
      collisionFilter: { category: ASTEROID, mask: SHIP | BULLET | ASTEROID | DEBRIS, group: 0 },
    });
    Body.setVelocity(body, { x: vx, y: vy });
    Body.setAngularVelocity(body, range(this.rng, -0.02, 0.02));
    const asteroid: Asteroid = { body, size, outline: outlineOf(body) };
    this.asteroids.set(body.id, asteroid);
    Composite.add(this.engine.world, body);
    return asteroid;
  }

  private nextWave(): void {
    this.wave++;
    const count = 3 + this.wave;
    const cx = WORLD_W / 2;
    const cy = WORLD_H / 2;
    if (this.test && this.wave === 1) {
      // Straight ahead of the ship (which faces up), at rest: the first shots must hit it.
      this.addAsteroid(2, cx, cy - 170, 0, 0);
      const corners = [
        [120, 110],
        [WORLD_W - 120, 110],
        [120, WORLD_H - 110],
        [WORLD_W - 120, WORLD_H - 110],
      ];
      for (const [x, y] of corners)
        this.addAsteroid(3, x, y, range(this.rng, -0.4, 0.4), range(this.rng, -0.4, 0.4));
      return;
    }
    // The first wave starts farther off: at its top speed an asteroid then needs about 4 s to reach a
    // player still reading the HUD, well past the spawn shield (2.5 s).
    const away = this.wave === 1 ? 380 : 260;
    for (let i = 0; i < count; i++) {
      const { x, y } = this.spotAwayFromShip(away);
      const a = this.rng() * Math.PI * 2;
      const v = range(this.rng, 0.5, 1.3 + 0.1 * this.wave);
      this.addAsteroid(3, x, y, Math.cos(a) * v, Math.sin(a) * v);
    }
  }

  /** A random point of the field at least `distance` px from the ship. */
  private spotAwayFromShip(distance: number): Matter.Vector {
    let x = 0;
    let y = 0;
    do {
      x = this.rng() * WORLD_W;
      y = this.rng() * WORLD_H;
    } while (Math.hypot(x - this.ship.position.x, y - this.ship.position.y) < distance);
    return { x, y };
  }

  /** Pours `n` small debris bodies into the field (away from the ship), up to {@link MAX_DEBRIS}. */
  flood(n: number): number {
    const add = Math.max(0, Math.min(n, MAX_DEBRIS - this.debris.length));
    const bodies: Matter.Body[] = [];
    for (let i = 0; i < add; i++) {
      const { x, y } = this.spotAwayFromShip(90);
      // Pentagons: the cheapest shape for matter's SAT that still rolls like a pebble.
      const body = Bodies.polygon(x, y, 5, range(this.rng, 1.6, 2.6), {
        label: 'debris',
        frictionAir: 0,
        friction: 0,
        restitution: 0.9,
        density: 0.0005,
        collisionFilter: { category: DEBRIS, mask: SHIP | ASTEROID | DEBRIS | RUBBLE, group: 0 },
      });
      const a = this.rng() * Math.PI * 2;
      const v = range(this.rng, 0.2, 1.2);
      Body.setVelocity(body, { x: Math.cos(a) * v, y: Math.sin(a) * v });
      bodies.push(body);
      this.debris.push(body);
    }
    Composite.add(this.engine.world, bodies);
    return add;
  }

  /** Removes every debris body. */
  clearDebris(): void {
    Composite.remove(this.engine.world, this.debris);
    this.debris.length = 0;
  }

  /** Lays the static level's rubble ({@link rubbleLayout}) or takes it away. */
  setRubble(on: boolean): void {
    if (on === this.rubble.length > 0) return;
    if (!on) {
      Composite.remove(this.engine.world, this.rubble);
      this.rubble.length = 0;
      return;
    }
    const at = rubbleLayout();
    for (let k = 0; k < at.length; k += 2) {
      this.rubble.push(
        Bodies.polygon(at[k], at[k + 1], 4, RUBBLE_RADIUS, {
          label: 'rubble',
          isStatic: true,
          friction: 0,
          restitution: 0.9,
          collisionFilter: { category: RUBBLE, mask: DEBRIS, group: 0 },
        }),
      );
    }
    Composite.add(this.engine.world, this.rubble);
  }

  /** Pieces of static rubble in the world (0 while the static level is off). */
  get rubbleCount(): number {
    return this.rubble.length;
  }

  /** Number of bodies in the world. */
  get bodyCount(): number {
    return this.engine.world.bodies.length;
  }

  /** Advances the game by one fixed step with the given input. */
  step(input: Input): void {
    this.steps++;
    const ship = this.ship;
    this.thrusting = false;
    if (this.shipAlive && this.state === 'playing') {
      Body.setAngularVelocity(ship, input.left === input.right ? 0 : input.left ? -TURN : TURN);
      const fx = Math.sin(ship.angle);
      const fy = -Math.cos(ship.angle);
      if (input.thrust) {
        let vx = ship.velocity.x + fx * THRUST;
        let vy = ship.velocity.y + fy * THRUST;
        const sp = Math.hypot(vx, vy);
        if (sp > MAX_SPEED) {
          vx *= MAX_SPEED / sp;
          vy *= MAX_SPEED / sp;
        }
        Body.setVelocity(ship, { x: vx, y: vy });
        this.thrusting = true;
      }
      if (this.fireCooldown > 0) this.fireCooldown--;
      if (input.fire && this.fireCooldown === 0 && this.bullets.size < MAX_BULLETS) this.fire(fx, fy);
    }

    this.options.onBeforeUpdate?.();
    Engine.update(this.engine, STEP_MS);
    this.options.onAfterUpdate?.();

    for (const [a, b] of this.hits) this.onContact(a, b);
    this.hits.length = 0;

    for (const bullet of this.bullets.values()) {
      if (--bullet.life <= 0) this.removeBullet(bullet.body);
    }
    this.wrap();
    for (let i = this.sparks.length - 1; i >= 0; i--) {
      const s = this.sparks[i];
      s.x += s.vx;
      s.y += s.vy;
      if (--s.life <= 0) {
        this.sparks[i] = this.sparks[this.sparks.length - 1];
        this.sparks.pop();
      }
    }
    if (this.invulnerable > 0) this.invulnerable--;
    if (!this.shipAlive && this.state === 'playing' && --this.respawnTimer <= 0) {
      // Respawn only when the centre is clear.
      let clear = true;
      for (const a of this.asteroids.values()) {
        if (Math.hypot(a.body.position.x - WORLD_W / 2, a.body.position.y - WORLD_H / 2) < 120) clear = false;
      }
      if (clear) this.spawnShip();
    }
    if (this.asteroids.size === 0 && this.state === 'playing') this.nextWave();
  }

  private fire(fx: number, fy: number): void {
    const ship = this.ship;
    const body = Bodies.circle(ship.position.x + fx * 20, ship.position.y + fy * 20, 2.5, {
      label: 'bullet',
      isSensor: true,
      frictionAir: 0,
      collisionFilter: { category: BULLET, mask: ASTEROID, group: 0 },
    });
    const vx = ship.velocity.x + fx * BULLET_SPEED;
    const vy = ship.velocity.y + fy * BULLET_SPEED;
    Body.setVelocity(body, { x: vx, y: vy });
    setBullet(this.engine, body, this.bulletOptions);
    this.bullets.set(body.id, { body, life: BULLET_LIFE, vx, vy });
    Composite.add(this.engine.world, body);
    this.fireCooldown = FIRE_COOLDOWN;
    this.shotsFired++;
  }

  private onContact(a: Matter.Body, b: Matter.Body): void {
    if (a.label === 'asteroid') [a, b] = [b, a];
    if (b.label !== 'asteroid') return;
    if (a.label === 'bullet') {
      const asteroid = this.asteroids.get(b.id);
      const shot = this.bullets.get(a.id);
      if (!asteroid || !shot) return; // already used up this step
      this.removeBullet(a);
      this.destroy(asteroid, { x: shot.vx, y: shot.vy });
    } else if (a.label === 'ship' && this.shipAlive && this.invulnerable === 0 && this.state === 'playing') {
      this.loseLife();
    }
  }

  private removeBullet(body: Matter.Body): void {
    Composite.remove(this.engine.world, body);
    setBullet(this.engine, body, false);
    this.bullets.delete(body.id);
  }

  private destroy(asteroid: Asteroid, hitVelocity: Matter.Vector): void {
    const { body, size } = asteroid;
    Composite.remove(this.engine.world, body);
    this.asteroids.delete(body.id);
    this.asteroidsDestroyed++;
    if (this.state === 'playing') this.score += POINTS[size];
    this.burst(body.position.x, body.position.y, 6 + size * 4);
    if (size > 1) {
      // Two halves flying apart across the shot's direction.
      const len = Math.hypot(hitVelocity.x, hitVelocity.y) || 1;
      const px = -hitVelocity.y / len;
      const py = hitVelocity.x / len;
      const r = RADIUS[size - 1];
      const kick = range(this.rng, 0.8, 1.6);
      for (const side of [-1, 1]) {
        this.addAsteroid(
          (size - 1) as 1 | 2,
          body.position.x + px * r * side,
          body.position.y + py * r * side,
          body.velocity.x + px * kick * side,
          body.velocity.y + py * kick * side,
        );
      }
    }
  }

  private loseLife(): void {
    this.burst(this.ship.position.x, this.ship.position.y, 24);
    Composite.remove(this.engine.world, this.ship);
    this.shipAlive = false;
    this.lives--;
    this.respawnTimer = RESPAWN_STEPS;
    if (this.lives <= 0) this.state = 'gameover';
  }

  private burst(x: number, y: number, n: number): void {
    for (let i = 0; i < n; i++) {
      const a = this.rng() * Math.PI * 2;
      const v = range(this.rng, 0.5, 3);
      this.sparks.push({
        x,
        y,
        vx: Math.cos(a) * v,
        vy: Math.sin(a) * v,
        life: 20 + Math.floor(this.rng() * 25),
      });
    }
  }

  /** Moves bodies that left the field to the opposite edge. */
  private wrap(): void {
    const bodies = this.engine.world.bodies;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      if (b.isStatic) continue;
      const m = (b.bounds.max.x - b.bounds.min.x) / 2;
      const { x, y } = b.position;
      let nx = x;
      let ny = y;
      if (x < -m) nx = x + WORLD_W + 2 * m;
      else if (x > WORLD_W + m) nx = x - WORLD_W - 2 * m;
      if (y < -m) ny = y + WORLD_H + 2 * m;
      else if (y > WORLD_H + m) ny = y - WORLD_H - 2 * m;
      if (nx !== x || ny !== y) Body.setPosition(b, { x: nx, y: ny });
    }
  }
}
