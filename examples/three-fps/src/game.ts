/**
 * The game, without a screen: three.js's FPS example (examples/games_fps.html — a level, a player
 * capsule, thrown spheres bouncing off the level and each other) rebuilt on @sieve/three. The player is
 * a `CharacterController` (collide and slide on swept capsules: no wall is passed at any frame rate, with
 * steps, slopes, snapping and the elevator carrying it); the spheres are swept too (`capsuleCast` with a
 * zero-length capsule is a swept sphere), so a fast throw cannot tunnel through a thin wall either.
 *
 * The player's handling is the example's (its acceleration, damping and gravity); where it translates
 * the capsule and then pushes it out of the Octree (`capsuleIntersect`), this moves it with the
 * controller. One `step(dt)` per rendered frame — no substeps needed, whatever the frame time.
 */
import {
  CapsuleCastHit,
  CharacterController,
  capsuleCast,
  computeBoundsTree,
  intersectsCapsule,
  MeshContacts,
  sphereContacts,
} from '@sieve/three';
import { Mesh, Sphere, Vector3 } from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { buildElevator, buildLevel, ELEVATOR, HALF, WALKWAY } from './level.js';

/** Gravity (m/s², the example's). */
export const GRAVITY = 30;
/** Spheres in the pool (the oldest is thrown again), and their radius (the example's). */
export const SPHERE_COUNT = 100;
export const SPHERE_RADIUS = 0.2;
/** Jump speed, m/s. */
const JUMP = 9;
/** Where the player starts: the middle of the yard. */
export const SPAWN = { x: 0, z: 0 };
/** The elevator's period, s. */
const ELEVATOR_PERIOD = 10;

/** What the player wants this frame: axes in [−1, 1], jump held. */
export interface PlayerInput {
  forward: number;
  right: number;
  jump: boolean;
}

/** A thrown sphere. */
export class Ball {
  readonly center = new Vector3(0, -100, 0);
  readonly velocity = new Vector3();
  active = false;
}

const scratch = new Vector3();
const direction = new Vector3();
const motion = new Vector3();
const hit = new CapsuleCastHit();
const best = new CapsuleCastHit();
const contacts = new MeshContacts();
const probe = new Sphere();
/** A ball as a capsule of zero length: what `capsuleCast` sweeps. */
const ballCapsule = { start: new Vector3(), end: new Vector3(), radius: SPHERE_RADIUS };

export class Game {
  /** The level (merged, vertex-coloured), with a bounds tree. */
  readonly level: Mesh;
  /** The elevator: moved by its world matrix, from the floor to the walkway and back. */
  readonly elevator: Mesh;
  /** What the player and the spheres collide with. */
  readonly colliders: Mesh[];
  /** The player's capsule (the example's: radius 0.35, from 0.35 m to 1 m above the feet). */
  readonly player = new Capsule(new Vector3(SPAWN.x, 0.35, SPAWN.z), new Vector3(SPAWN.x, 1, SPAWN.z), 0.35);
  readonly character: CharacterController;
  readonly velocity = new Vector3();
  readonly input: PlayerInput = { forward: 0, right: 0, jump: false };
  readonly balls: Ball[] = [];
  /** Look direction: yaw about y (0: towards −z), pitch up/down. */
  yaw = 0;
  pitch = 0;
  /** Game time, s. */
  time = 0;
  /** Steps run. */
  steps = 0;
  /** Time spent in collision work in the last step (player move and spheres), ms. */
  collisionMs = 0;
  private next = 0;

  constructor() {
    const level = new Mesh(buildLevel());
    computeBoundsTree.call(level.geometry);
    level.updateMatrixWorld();
    const elevator = new Mesh(buildElevator());
    computeBoundsTree.call(elevator.geometry);
    this.level = level;
    this.elevator = elevator;
    this.colliders = [level, elevator];
    this.placeElevator();
    this.character = new CharacterController(this.player, this.colliders, {
      maxStepHeight: 0.35,
      maxSlopeClimbAngle: (45 * Math.PI) / 180,
      snapToGround: 0.3,
    });
    for (let i = 0; i < SPHERE_COUNT; i++) this.balls.push(new Ball());
  }

  /** Advances the game by `dt` seconds: the elevator, the player, the spheres. */
  step(dt: number): void {
    if (!(dt > 0)) return;
    this.time += dt;
    this.steps++;
    this.placeElevator();
    const t0 = performance.now();
    this.movePlayer(dt);
    this.moveBalls(dt);
    this.collisionMs = performance.now() - t0;
  }

  /** Puts the player at `(x, y, z)` (its feet), looking along `yaw`, at rest. */
  teleport(x: number, y: number, z: number, yaw = this.yaw): void {
    this.player.start.set(x, y + 0.35, z);
    this.player.end.set(x, y + 1, z);
    this.velocity.set(0, 0, 0);
    this.yaw = yaw;
    this.character.reset();
  }

  /** The unit look direction. */
  lookDirection(target: Vector3): Vector3 {
    const c = Math.cos(this.pitch);
    return target.set(-Math.sin(this.yaw) * c, Math.sin(this.pitch), -Math.cos(this.yaw) * c);
  }

  /**
   * Throws the next sphere of the pool from the player's eye along the look direction, at 15–45 m/s
   * (`strength` in [0, 1]: how long the button was held, as in the example).
   */
  throwBall(strength: number): Ball {
    const ball = this.balls[this.next];
    this.next = (this.next + 1) % this.balls.length;
    this.lookDirection(direction);
    // From the eye (the capsule's top point, clear of the level by its radius) to 1.5 radii ahead,
    // swept: against a wall the sphere starts at the wall.
    ball.center.copy(this.player.end);
    motion.copy(direction).multiplyScalar(this.player.radius * 1.5);
    this.sweepBall(ball, motion);
    ball.velocity.copy(direction).multiplyScalar(15 + 30 * Math.min(1, Math.max(0, strength)));
    ball.velocity.addScaledVector(this.velocity, 0.5);
    ball.active = true;
    return ball;
  }

  /** Active spheres. */
  get activeBalls(): number {
    let n = 0;
    for (const b of this.balls) if (b.active) n++;
    return n;
  }

  private placeElevator(): void {
    const phase = (this.time % ELEVATOR_PERIOD) / ELEVATOR_PERIOD;
    const y = (WALKWAY / 2) * (1 - Math.cos(2 * Math.PI * phase));
    this.elevator.position.set(ELEVATOR.x, y, ELEVATOR.z);
    this.elevator.updateMatrixWorld();
  }

  private movePlayer(dt: number): void {
    const grounded = this.character.grounded;
    const v = this.velocity;
    // The example's handling: acceleration along the wish, exponential damping, gravity in the air.
    const accel = dt * (grounded ? 25 : 8);
    const sin = Math.sin(this.yaw);
    const cos = Math.cos(this.yaw);
    let f = this.input.forward;
    let r = this.input.right;
    const l = Math.hypot(f, r);
    if (l > 1) {
      f /= l;
      r /= l;
    }
    v.x += (-sin * f + cos * r) * accel;
    v.z += (-cos * f - sin * r) * accel;
    if (grounded && this.input.jump) v.y = JUMP;
    if (!grounded) v.y -= GRAVITY * dt;
    let damping = Math.exp(-4 * dt) - 1;
    if (!grounded) damping *= 0.1;
    v.addScaledVector(v, damping);
    scratch.copy(v).multiplyScalar(dt);
    const result = this.character.move(scratch);
    result.clipVelocity(v);
    if (this.player.start.y < -10) this.teleport(SPAWN.x, 0, SPAWN.z); // never: a guard, not a mechanic
  }

  /** Sweeps `ball` by `d` against the level and the elevator; leaves the earliest hit in `best`. */
  private sweepBall(ball: Ball, d: Vector3): boolean {
    ballCapsule.start.copy(ball.center);
    ballCapsule.end.copy(ball.center);
    best.hit = false;
    best.fraction = 1;
    for (const mesh of this.colliders) {
      if (capsuleCast(mesh, ballCapsule, d, hit) && (!best.hit || hit.fraction < best.fraction)) {
        best.hit = true;
        best.fraction = hit.fraction;
        best.normal.copy(hit.normal);
      }
    }
    ball.center.addScaledVector(d, best.fraction);
    return best.hit;
  }

  private moveBalls(dt: number): void {
    const damping = Math.exp(-1.5 * dt) - 1;
    for (const ball of this.balls) {
      if (!ball.active) continue;
      const v = ball.velocity;
      v.y -= GRAVITY * dt;
      v.addScaledVector(v, damping);
      motion.copy(v).multiplyScalar(dt);
      // Up to three bounces a step, each swept.
      for (let k = 0; k < 3 && motion.lengthSq() > 1e-12; k++) {
        if (!this.sweepBall(ball, motion)) break;
        motion.multiplyScalar(1 - best.fraction);
        bounce(v, best.normal);
        bounce(motion, best.normal);
      }
      this.ballPlayer(ball);
      if (Math.abs(ball.center.x) > 3 * HALF || Math.abs(ball.center.z) > 3 * HALF || ball.center.y < -20) {
        ball.active = false;
      }
    }
    this.ballBall();
    for (const ball of this.balls) if (ball.active) this.pushOut(ball);
  }

  /** The example's player–sphere collision, on the closest point of the capsule's segment. */
  private ballPlayer(ball: Ball): void {
    const p = this.player;
    const r = p.radius + SPHERE_RADIUS;
    closestOnSegment(p.start, p.end, ball.center, scratch);
    const d2 = scratch.distanceToSquared(ball.center);
    if (d2 >= r * r || d2 === 0) return;
    const d = Math.sqrt(d2);
    direction.subVectors(ball.center, scratch).divideScalar(d);
    const v1 = direction.dot(this.velocity);
    const v2 = direction.dot(ball.velocity);
    this.velocity.addScaledVector(direction, v2 - v1);
    ball.velocity.addScaledVector(direction, v1 - v2);
    ball.center.addScaledVector(direction, r - d);
  }

  /** The example's sphere–sphere collisions: pushed apart, normal velocities exchanged. */
  private ballBall(): void {
    const balls = this.balls;
    const r2 = 4 * SPHERE_RADIUS * SPHERE_RADIUS;
    for (let i = 0; i < balls.length; i++) {
      const a = balls[i];
      if (!a.active) continue;
      for (let j = i + 1; j < balls.length; j++) {
        const b = balls[j];
        if (!b.active) continue;
        const d2 = a.center.distanceToSquared(b.center);
        if (d2 >= r2 || d2 === 0) continue;
        const d = Math.sqrt(d2);
        direction.subVectors(a.center, b.center).divideScalar(d);
        const va = direction.dot(a.velocity);
        const vb = direction.dot(b.velocity);
        a.velocity.addScaledVector(direction, vb - va);
        b.velocity.addScaledVector(direction, va - vb);
        const push = (2 * SPHERE_RADIUS - d) / 2;
        a.center.addScaledVector(direction, push);
        b.center.addScaledVector(direction, -push);
      }
    }
  }

  /** Pushes a sphere out of the level (after the unswept pushes of the player and the other spheres). */
  private pushOut(ball: Ball): void {
    probe.radius = SPHERE_RADIUS;
    for (let pass = 0; pass < 3; pass++) {
      let deepest = 0;
      probe.center.copy(ball.center);
      for (const mesh of this.colliders) {
        const n = sphereContacts(mesh, probe, contacts);
        for (let k = 0; k < n; k++) {
          if (contacts.depths[k] <= deepest) continue;
          deepest = contacts.depths[k];
          direction.fromArray(contacts.normals, 3 * k);
        }
      }
      if (deepest <= 1e-6) return;
      ball.center.addScaledVector(direction, deepest + 1e-6);
      const vn = ball.velocity.dot(direction);
      if (vn < 0) ball.velocity.addScaledVector(direction, -vn);
    }
  }

  /** Whether the player's capsule touches the level or the elevator. */
  playerInside(): boolean {
    return this.colliders.some((m) => intersectsCapsule(m, this.player));
  }

  /** Whether the player's capsule is outside the yard (beyond a wall, under the floor). */
  playerOutside(): boolean {
    const r = this.player.radius;
    for (const p of [this.player.start, this.player.end]) {
      if (Math.abs(p.x) > HALF - r + 1e-6 || Math.abs(p.z) > HALF - r + 1e-6 || p.y < r - 1e-6) return true;
    }
    return false;
  }
}

/** Removes the part of `v` going into the plane of normal `n`, bouncing back half of it if fast. */
function bounce(v: Vector3, n: Vector3): void {
  const vn = v.dot(n);
  if (vn >= 0) return;
  // Fast impacts bounce (restitution 0.5); slow ones stop, so a sphere comes to rest on the floor.
  const restitution = vn < -2 ? 0.5 : 0;
  v.addScaledVector(n, -(1 + restitution) * vn);
}

/** The point of segment `a b` closest to `p`, into `out`. */
function closestOnSegment(a: Vector3, b: Vector3, p: Vector3, out: Vector3): Vector3 {
  out.subVectors(b, a);
  const l2 = out.lengthSq();
  const t = l2 > 0 ? Math.min(1, Math.max(0, scratchDot(p, a, out) / l2)) : 0;
  return out.multiplyScalar(t).add(a);
}

function scratchDot(p: Vector3, a: Vector3, d: Vector3): number {
  return (p.x - a.x) * d.x + (p.y - a.y) * d.y + (p.z - a.z) * d.z;
}
