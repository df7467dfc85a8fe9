/**
 * `CharacterController`: a capsule moved through a level of triangle meshes by collide and slide — the
 * character collider of a first-person or third-person game — with steps, slopes, snapping to the
 * ground and moving platforms.
 *
 * Its API follows Rapier's `KinematicCharacterController` (offset/skin, autostep with a height and a
 * minimum width, max slope climb angle, snap to ground, grounded state, the collisions of the move) and
 * Unity's `CharacterController.Move`; the motion is Fauerby's collide and slide ("Improved Collision
 * detection and Response", 2003) on this package's exact swept capsule, so a move of any length stops
 * at the first wall: a character cannot pass through the level at any frame rate. One move:
 *
 * 1. ride the platform it stood on, if that mesh's world matrix changed since the last move;
 * 2. push the capsule out of anything that moved into it (a platform, a refit mesh);
 * 3. walk: the level part of the displacement (and any upward part), sliding and stepping;
 * 4. fall: the downward part, landing on ground or sliding down steep slopes;
 * 5. find the ground; snap down onto it if the character started on the ground and is not moving up
 *    (down a slope, off a step down, or back onto the floor after passing over a crest).
 */
import { affineFromMatrix4, checkOptionKeys, optionKeys } from '@sieve/core';
import type { Mesh, Vector3 } from 'three';
import { BoundsTree } from '../boundsTree.js';
import type { CapsuleLike } from '../queries/capsule.js';
import { findGround, GROUND, GROUND_GAP } from './ground.js';
import { CARRY, platformMotion } from './platform.js';
import { CharacterMove } from './result.js';
import { settle } from './settle.js';
import { FALL, RIDE, slide, WALK } from './slide.js';
import { LevelStamp } from './stamp.js';
import {
  advanceToHit,
  CFG,
  COS_SLOPE,
  HIT,
  HIT_T,
  HUGE_TOLERANCE,
  ITERATIONS,
  level,
  motion,
  PASS,
  PROBE,
  probe,
  RADIUS,
  releaseLevel,
  restoreProbe,
  SKIN,
  SNAP,
  STEP_HEIGHT,
  STEP_WIDTH,
  saveProbe,
  sweepAll,
  TINY,
  UP,
} from './world.js';

/** Options of {@link CharacterController} (and of {@link CharacterController.configure}). */
export interface CharacterControllerOptions {
  /** The up direction (normalized here; default +y). Steps, slopes, ground and falls are measured along it. */
  up?: Vector3;
  /**
   * The gap kept between the capsule and the level (Rapier's `offset`, Unity's skin width): every sweep
   * uses the radius plus this, so rounding never puts the capsule itself inside. Default: 1% of the
   * capsule's height (`|end − start| + 2·radius`). Must be > 0.
   */
  skin?: number;
  /**
   * The steepest slope, in radians from level, the character walks up and stands on (default π/4);
   * steeper ones are walls when walking into them and are slid down when falling onto them. In
   * [0, π/2).
   */
  maxSlopeClimbAngle?: number;
  /**
   * Autostep: the highest obstacle the character climbs by walking into it, measured to the point it
   * ends up standing on (default 0: off). Lower edges, up to `radius·(1 − cos maxSlopeClimbAngle)`, are
   * rolled over by the capsule's round bottom as any slope, autostep or not.
   */
  maxStepHeight?: number;
  /** Autostep: the free room needed on top of an obstacle to climb it (default: half the radius). */
  minStepWidth?: number;
  /**
   * Snap to ground: a character that started the move on the ground and is not moving up ends it on
   * ground within this distance below, if there is any (walking down a slope or a step, over a crest),
   * instead of in the air (default: 20% of the capsule's height; 0: off).
   */
  snapToGround?: number;
  /** Sweeps per slide pass at most (default 8; 1–64). */
  maxIterations?: number;
}

const OPTION_KEYS = optionKeys<CharacterControllerOptions>({
  up: true,
  skin: true,
  maxSlopeClimbAngle: true,
  maxStepHeight: true,
  minStepWidth: true,
  snapToGround: true,
  maxIterations: true,
});

function lengthOrUndefined(where: string, name: string, v: unknown, positive: boolean): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (positive && v === 0)) {
    throw new RangeError(
      `${where}: options.${name} must be a finite number ${positive ? '> 0' : '>= 0'} (got ${String(v)})`,
    );
  }
}

function finitePoint(p: Vector3 | CapsuleLike['start'] | undefined): boolean {
  return !!p && Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z);
}

function checkCapsule(where: string, capsule: CapsuleLike): void {
  if (!capsule || typeof capsule !== 'object') throw new TypeError(`${where}: capsule must be a Capsule`);
  if (!finitePoint(capsule.start)) {
    throw new RangeError(`${where}: capsule.start must be a vector of finite numbers`);
  }
  if (!finitePoint(capsule.end))
    throw new RangeError(`${where}: capsule.end must be a vector of finite numbers`);
  const r = capsule.radius;
  if (typeof r !== 'number' || !(r > 0) || r === Infinity) {
    throw new RangeError(`${where}: capsule.radius must be a finite number > 0 (got ${String(r)})`);
  }
}

/** Throws unless every entry of `colliders` is a mesh with a bounds tree; brings the trees up to date. */
function prepareLevel(where: string, colliders: readonly Mesh[]): void {
  if (!Array.isArray(colliders)) throw new TypeError(`${where}: colliders must be an array of meshes`);
  for (let i = 0; i < colliders.length; i++) {
    const mesh = colliders[i];
    const tree = (mesh?.geometry as { boundsTree?: unknown } | undefined)?.boundsTree;
    if (!(tree instanceof BoundsTree) || !mesh.matrixWorld?.elements) {
      throw new TypeError(
        `${where}: colliders[${i}] must be a Mesh whose geometry has a bounds tree (call geometry.computeBoundsTree() first)`,
      );
    }
  }
  for (let i = 0; i < colliders.length; i++) {
    try {
      affineFromMatrix4(MATRIX, colliders[i].matrixWorld.elements, 'matrixWorld');
    } catch (e) {
      throw new RangeError(`${where}: colliders[${i}].${(e as Error).message}`);
    }
  }
  for (let i = 0; i < colliders.length; i++) {
    const tree = (colliders[i].geometry as { boundsTree: BoundsTree }).boundsTree;
    tree.update();
    level.trees[i] = tree;
  }
  level.meshes = colliders as Mesh[];
  level.count = colliders.length;
  level.skip = -1;
}

/** Scratch for checking the colliders' world matrices. */
const MATRIX = new Float64Array(12);
/** The bottom point of the probe's segment (the end lower along up), for the platform carry. */
const FOOT = new Float64Array(3);
/** Where the probe started the move (for the translation). */
const START = new Float64Array(3);

/**
 * A character collider: moves a capsule (three.js's `Capsule` from `three/examples/jsm/math/Capsule.js`,
 * or any `{ start, end, radius }`) through level meshes, never into them. Give it the displacement a
 * frame wants (velocity × dt, gravity included); it moves the capsule as far as the level allows —
 * sliding along walls, climbing slopes and steps, landing on floors, riding moving platforms — and
 * reports where the ground is. Each level mesh needs a bounds tree (`geometry.computeBoundsTree()`) and
 * an up-to-date `matrixWorld`; a mesh whose `matrixWorld` changes between moves is a moving platform,
 * and positions flagged `needsUpdate` are refit. `move` allocates nothing.
 *
 * ```ts
 * import { BoxGeometry, Mesh, Vector3 } from 'three';
 * import { Capsule } from 'three/examples/jsm/math/Capsule.js';
 * import { CharacterController, computeBoundsTree } from '@sieve/three';
 *
 * const floor = new Mesh(new BoxGeometry(20, 1, 20).translate(0, -0.5, 0));
 * const wall = new Mesh(new BoxGeometry(0.1, 3, 20).translate(2, 1.5, 0)); // thin, at x = 2
 * for (const m of [floor, wall]) computeBoundsTree.call(m.geometry);
 *
 * const player = new Capsule(new Vector3(0, 0.35, 0), new Vector3(0, 1, 0), 0.35);
 * const character = new CharacterController(player, [floor, wall], { maxStepHeight: 0.3 });
 * const velocity = new Vector3(400, 0, 0); // far too fast: one frame would jump the wall
 * const dt = 1 / 5;
 * velocity.y -= 30 * dt; // gravity
 * const result = character.move(velocity.clone().multiplyScalar(dt));
 * result.clipVelocity(velocity); // what the wall and the floor stopped
 * console.log(player.start.x < 2 - 0.35, result.grounded, result.hitWall); // true true true
 * ```
 */
export class CharacterController {
  /** The capsule moved (the one given, moved in place). */
  readonly capsule: CapsuleLike;
  /** The level: meshes with bounds trees. Replace or edit the array between moves as the level changes. */
  colliders: Mesh[];
  /** The result of the last move (the object `move` returns). */
  readonly result = new CharacterMove();
  private readonly up = new Float64Array([0, 1, 0]);
  private skin: number | undefined = undefined;
  private maxSlope = Math.PI / 4;
  private stepHeight = 0;
  private stepWidth: number | undefined = undefined;
  private snap: number | undefined = undefined;
  private iterations = 8;
  /** The mesh stood on after the last move, and its world matrix then. */
  private platform: Mesh | null = null;
  private readonly platformMatrix = new Float64Array(16);
  private onGround = false;
  /** The capsule and the level as the last move left them (to skip the push-out check). */
  private readonly stamp = new LevelStamp();

  /**
   * Moves `capsule` (in place) through `colliders`. Throws a `TypeError` for a capsule or collider list
   * that is not one, or an unknown option key, and a `RangeError` for a bad value, before anything is
   * kept.
   */
  constructor(capsule: CapsuleLike, colliders: Mesh[], options: CharacterControllerOptions = {}) {
    const where = 'new CharacterController';
    checkCapsule(where, capsule);
    prepareLevel(where, colliders);
    this.applyOptions(where, options);
    this.capsule = capsule;
    this.colliders = colliders;
  }

  /**
   * Changes some options (the others keep their values): a crouch that lowers the step height, a new up
   * vector on a planet. Same checks as the constructor, before anything changes.
   *
   * ```ts
   * import { BoxGeometry, Mesh, Vector3 } from 'three';
   * import { Capsule } from 'three/examples/jsm/math/Capsule.js';
   * import { CharacterController, computeBoundsTree } from '@sieve/three';
   *
   * const floor = new Mesh(new BoxGeometry(20, 1, 20).translate(0, -0.5, 0));
   * computeBoundsTree.call(floor.geometry);
   * const player = new Capsule(new Vector3(0, 0.35, 0), new Vector3(0, 1, 0), 0.35);
   * const character = new CharacterController(player, [floor]);
   * character.configure({ maxStepHeight: 0.2, maxSlopeClimbAngle: Math.PI / 6 });
   * ```
   */
  configure(options: CharacterControllerOptions): void {
    this.applyOptions('CharacterController.configure', options);
    this.stamp.invalidate();
  }

  private applyOptions(where: string, options: CharacterControllerOptions): void {
    checkOptionKeys(`${where}: options`, options, OPTION_KEYS);
    const o = options ?? {};
    let ux = this.up[0];
    let uy = this.up[1];
    let uz = this.up[2];
    if (o.up !== undefined) {
      const u = o.up;
      const l = u && Math.sqrt(u.x * u.x + u.y * u.y + u.z * u.z);
      if (!u || !Number.isFinite(l) || !(l > 0)) {
        throw new RangeError(`${where}: options.up must be a non-zero vector of finite numbers`);
      }
      ux = u.x / l;
      uy = u.y / l;
      uz = u.z / l;
    }
    lengthOrUndefined(where, 'skin', o.skin, true);
    const slope = o.maxSlopeClimbAngle;
    if (slope !== undefined && (typeof slope !== 'number' || !(slope >= 0 && slope < Math.PI / 2))) {
      throw new RangeError(
        `${where}: options.maxSlopeClimbAngle must be an angle in radians in [0, π/2) (got ${String(slope)})`,
      );
    }
    lengthOrUndefined(where, 'maxStepHeight', o.maxStepHeight, false);
    lengthOrUndefined(where, 'minStepWidth', o.minStepWidth, false);
    lengthOrUndefined(where, 'snapToGround', o.snapToGround, false);
    const it = o.maxIterations;
    if (it !== undefined && (!Number.isInteger(it) || it < 1 || it > 64)) {
      throw new RangeError(`${where}: options.maxIterations must be an integer in 1–64 (got ${String(it)})`);
    }
    // Checked: keep.
    this.up[0] = ux;
    this.up[1] = uy;
    this.up[2] = uz;
    if ('skin' in o) this.skin = o.skin;
    if (slope !== undefined) this.maxSlope = slope;
    if (o.maxStepHeight !== undefined) this.stepHeight = o.maxStepHeight;
    if ('minStepWidth' in o) this.stepWidth = o.minStepWidth;
    if ('snapToGround' in o) this.snap = o.snapToGround;
    if (it !== undefined) this.iterations = it;
  }

  /** Whether the capsule stood on climbable ground after the last move. */
  get grounded(): boolean {
    return this.onGround;
  }

  /**
   * Forgets the ground and the platform of the last move: call it after teleporting the capsule, so the
   * next move neither rides the old platform nor counts as starting on the ground.
   */
  reset(): void {
    this.onGround = false;
    this.platform = null;
    this.stamp.invalidate();
  }

  /**
   * Moves the capsule by `displacement` (world units; velocity × dt, gravity included) as far as the
   * level allows, sliding, climbing, stepping, landing and riding as described on the class. Returns
   * {@link CharacterController.result}. Throws a `RangeError` for a non-finite displacement or a bad
   * capsule, and a `TypeError` for a collider without a bounds tree, before the capsule moves.
   * Allocates nothing.
   */
  move(displacement: Vector3): CharacterMove {
    const where = 'CharacterController.move';
    if (!finitePoint(displacement)) {
      throw new RangeError(`${where}: displacement must be a vector of finite numbers`);
    }
    const capsule = this.capsule;
    checkCapsule(where, capsule);
    prepareLevel(where, this.colliders);
    this.loadSettings();
    const result = this.result;
    result.begin();
    const s = capsule.start;
    const e = capsule.end;
    probe.start.x = s.x;
    probe.start.y = s.y;
    probe.start.z = s.z;
    probe.end.x = e.x;
    probe.end.y = e.y;
    probe.end.z = e.z;
    probe.radius = CFG[RADIUS];
    START[0] = s.x;
    START[1] = s.y;
    START[2] = s.z;

    // Nothing moved since the last move (the capsule, the meshes, their trees): nothing can have moved
    // into the capsule, and the ground it found still holds.
    const unchanged = this.stamp.matches(capsule);
    this.ride(result);
    const supported = unchanged ? this.onGround : settle(result);
    const ux = CFG[UP];
    const uy = CFG[UP + 1];
    const uz = CFG[UP + 2];
    const dx = displacement.x;
    const dy = displacement.y;
    const dz = displacement.z;
    const v = dx * ux + dy * uy + dz * uz;
    const down = Math.min(v, 0);
    // Walk: all but the downward part.
    PASS[3] = dx - down * ux;
    PASS[4] = dy - down * uy;
    PASS[5] = dz - down * uz;
    slide(result, WALK, supported && v <= 0);
    // Fall: the downward part.
    if (down < 0) {
      PASS[3] = down * ux;
      PASS[4] = down * uy;
      PASS[5] = down * uz;
      slide(result, FALL, false);
    }
    let grounded = findGround(result);
    if (supported && v <= 0 && CFG[SNAP] > 0 && !result.hitCeiling) grounded = snap(result, grounded);
    s.x = probe.start.x;
    s.y = probe.start.y;
    s.z = probe.start.z;
    e.x = probe.end.x;
    e.y = probe.end.y;
    e.z = probe.end.z;
    result.translation.x = probe.start.x - START[0];
    result.translation.y = probe.start.y - START[1];
    result.translation.z = probe.start.z - START[2];
    this.onGround = grounded;
    this.platform = result.groundMesh;
    if (this.platform !== null) {
      const m = this.platform.matrixWorld.elements;
      for (let k = 0; k < 16; k++) this.platformMatrix[k] = m[k];
    }
    this.stamp.record(capsule);
    releaseLevel();
    return result;
  }

  /** Copies the settings into the move's scratch, resolving the defaults against the capsule's size. */
  private loadSettings(): void {
    const c = this.capsule;
    const sx = c.end.x - c.start.x;
    const sy = c.end.y - c.start.y;
    const sz = c.end.z - c.start.z;
    const r = c.radius;
    const height = Math.sqrt(sx * sx + sy * sy + sz * sz) + 2 * r;
    const skin = this.skin === undefined ? 0.01 * height : this.skin;
    CFG[UP] = this.up[0];
    CFG[UP + 1] = this.up[1];
    CFG[UP + 2] = this.up[2];
    CFG[RADIUS] = r + skin;
    CFG[SKIN] = skin;
    CFG[PROBE] = 2 * skin;
    CFG[COS_SLOPE] = Math.cos(this.maxSlope);
    CFG[STEP_HEIGHT] = this.stepHeight;
    CFG[STEP_WIDTH] = this.stepWidth === undefined ? 0.5 * r : this.stepWidth;
    CFG[SNAP] = this.snap === undefined ? 0.2 * height : this.snap;
    CFG[ITERATIONS] = this.iterations;
    CFG[TINY] = 1e-9 * height;
    CFG[HUGE_TOLERANCE] = Math.min(1e-4 * (r + skin), 0.25 * skin);
  }

  /** Step 1: rides the platform stood on last time, if its world matrix changed. */
  private ride(result: CharacterMove): void {
    const mesh = this.platform;
    if (!this.onGround || mesh === null) return;
    const index = this.colliders.indexOf(mesh);
    if (index < 0) return;
    // The bottom of the segment: the end lower along up.
    const ux = CFG[UP];
    const uy = CFG[UP + 1];
    const uz = CFG[UP + 2];
    const a = probe.start;
    const b = probe.end;
    const low = a.x * ux + a.y * uy + a.z * uz <= b.x * ux + b.y * uy + b.z * uz ? a : b;
    FOOT[0] = low.x;
    FOOT[1] = low.y;
    FOOT[2] = low.z;
    if (!platformMotion(this.platformMatrix, mesh.matrixWorld.elements, FOOT)) return;
    PASS[3] = CARRY[0];
    PASS[4] = CARRY[1];
    PASS[5] = CARRY[2];
    // The platform itself moved with the character: the carry is swept against the rest of the level.
    level.skip = index;
    slide(result, RIDE, false);
    level.skip = -1;
    result.carried.x = probe.start.x - START[0];
    result.carried.y = probe.start.y - START[1];
    result.carried.z = probe.start.z - START[2];
    result.carriedYaw = CARRY[3];
  }
}

/**
 * Step 5's snap: a character that started on the ground and is not moving up is put down on ground
 * within the snap distance — after walking off a slope or a step down (then it is not grounded), or
 * when it hovers within the skin (then it is, but a walk over a crest left it a little up). Returns
 * whether it is grounded after.
 */
function snap(result: CharacterMove, grounded: boolean): boolean {
  if (grounded && GROUND[GROUND_GAP] <= 1e-6 * CFG[RADIUS]) return true; // resting on it already
  const d = -CFG[SNAP];
  motion.x = d * CFG[UP];
  motion.y = d * CFG[UP + 1];
  motion.z = d * CFG[UP + 2];
  if (!sweepAll()) return grounded;
  if (!(HIT[HIT_T] * CFG[SNAP] > CFG[TINY])) return grounded; // already down
  saveProbe(2);
  advanceToHit();
  if (findGround(result)) {
    result.snapped = true;
    return true;
  }
  restoreProbe(2);
  return findGround(result);
}
