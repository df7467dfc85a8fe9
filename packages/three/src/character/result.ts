/**
 * The outcome of one character move: where the capsule went, whether it stands on the ground (and on
 * what), what it ran into. One object per controller, rewritten by every move (no allocation).
 *
 * Modelled on Rapier's `KinematicCharacterController` results (`computedMovement`, `computedGrounded`,
 * `computedCollision`) and Unity's `CharacterController.Move` flags; `clipVelocity` is the velocity
 * clipping of Quake's `PM_ClipVelocity`, so a game's velocity stops building up against what stopped
 * the capsule.
 */
import { type Mesh, Vector3 } from 'three';
import { CFG, HIT, HIT_FACE, HIT_MESH, HIT_N, HIT_P, level, UP } from './world.js';

/** Most collisions one move reports (a move that slides along more keeps sliding, unreported). */
export const MAX_COLLISIONS = 32;

/** What a collision was, in {@link CharacterMove.collisionKinds}. */
export const CollisionKind = {
  /** Ground the character can stand on (no steeper than `maxSlopeClimbAngle`). */
  Ground: 0,
  /** A wall, or a slope too steep to climb, met while walking: the character slides along it level. */
  Wall: 1,
  /** Something facing down (a ceiling, an overhang) met while moving up. */
  Ceiling: 2,
  /** A slope too steep to stand on, met while falling or being carried: the character slides down it. */
  Slope: 3,
} as const;

/** One of the values of {@link CollisionKind}. */
export type CollisionKind = (typeof CollisionKind)[keyof typeof CollisionKind];

/** Result of `CharacterController.move`, reused by every move of that controller. */
export class CharacterMove {
  /** The translation the move applied to the capsule (platform carry and push-out included). */
  readonly translation = new Vector3();
  /** Whether the capsule stands on ground it can climb, within the skin, after the move. */
  grounded = false;
  /** The most upward-facing ground contact normal (valid when `grounded`). */
  readonly groundNormal = new Vector3();
  /** Its point on the level (valid when `grounded`). */
  readonly groundPoint = new Vector3();
  /** The mesh the capsule stands on (`null` when not grounded): the next move rides it if it moves. */
  groundMesh: Mesh | null = null;
  /** The triangle (the geometry's triangle number) the capsule stands on, or −1. */
  groundFace = -1;
  /** Whether the move climbed a step (autostep). */
  stepped = false;
  /** Whether the move ended by snapping down to the ground. */
  snapped = false;
  /** Whether the capsule ran into something facing down while moving up (zero an upward velocity). */
  hitCeiling = false;
  /** Whether the capsule ran into a wall or a slope too steep to climb while walking. */
  hitWall = false;
  /** Whether the capsule started the move inside the level (a platform or a refit pushed into it) and was pushed out. */
  pushedOut = false;
  /** How far the platform the capsule stood on carried it (zero when none moved). */
  readonly carried = new Vector3();
  /** How far that platform turned about the up vector, in radians (counter-clockwise seen from above). */
  carriedYaw = 0;
  /** Number of collisions reported (at most {@link MAX_COLLISIONS}). */
  collisionCount = 0;
  /** Unit contact normal of each collision, from the level towards the capsule, 3 numbers each. */
  readonly collisionNormals = new Float64Array(3 * MAX_COLLISIONS);
  /** The plane the capsule slid along at each collision (a wall's normal made level), 3 numbers each. */
  readonly slideNormals = new Float64Array(3 * MAX_COLLISIONS);
  /** Contact point of each collision on the level, 3 numbers each. */
  readonly collisionPoints = new Float64Array(3 * MAX_COLLISIONS);
  /** Kind of each collision: a {@link CollisionKind}. */
  readonly collisionKinds = new Uint8Array(MAX_COLLISIONS);
  /** Triangle (the geometry's triangle number) of each collision. */
  readonly collisionFaces = new Int32Array(MAX_COLLISIONS);
  /** Mesh of each collision. */
  readonly collisionMeshes: (Mesh | null)[] = new Array<Mesh | null>(MAX_COLLISIONS).fill(null);
  /** The up vector of the move (for {@link CharacterMove.clipVelocity}). */
  private readonly up = new Float64Array(3);

  /** Clears everything before a move (the up vector is the move's). */
  begin(): void {
    this.translation.x = this.translation.y = this.translation.z = 0;
    this.grounded = false;
    this.groundMesh = null;
    this.groundFace = -1;
    this.stepped = false;
    this.snapped = false;
    this.hitCeiling = false;
    this.hitWall = false;
    this.pushedOut = false;
    this.carried.x = this.carried.y = this.carried.z = 0;
    this.carriedYaw = 0;
    for (let i = 0; i < this.collisionCount; i++) this.collisionMeshes[i] = null;
    this.collisionCount = 0;
    this.up[0] = CFG[UP];
    this.up[1] = CFG[UP + 1];
    this.up[2] = CFG[UP + 2];
  }

  /**
   * Removes from `velocity` what the move's collisions stopped: on ground, the part going down; at a
   * wall, a ceiling or a steep slope, the part going into its slide plane (Quake's velocity clipping).
   * Returns `velocity`. Call it after each move so a velocity does not keep growing against what
   * stopped the capsule (gravity on the floor, running into a wall).
   *
   * ```ts
   * import { Vector3 } from 'three';
   * import { CharacterMove } from '@sieve/three';
   *
   * const result = new CharacterMove(); // as a controller's `move` returns it: no collisions here
   * const velocity = new Vector3(1, -2, 0);
   * console.log(result.clipVelocity(velocity).y); // -2
   * ```
   */
  clipVelocity(velocity: Vector3): Vector3 {
    const u = this.up;
    for (let i = 0; i < this.collisionCount; i++) {
      const o = 3 * i;
      const ground = this.collisionKinds[i] === CollisionKind.Ground;
      const nx = ground ? u[0] : this.slideNormals[o];
      const ny = ground ? u[1] : this.slideNormals[o + 1];
      const nz = ground ? u[2] : this.slideNormals[o + 2];
      const d = velocity.x * nx + velocity.y * ny + velocity.z * nz;
      if (d < 0) {
        velocity.x -= d * nx;
        velocity.y -= d * ny;
        velocity.z -= d * nz;
      }
    }
    if (this.grounded) {
      const d = velocity.x * u[0] + velocity.y * u[1] + velocity.z * u[2];
      if (d < 0) {
        velocity.x -= d * u[0];
        velocity.y -= d * u[1];
        velocity.z -= d * u[2];
      }
    }
    return velocity;
  }
}

/**
 * Appends the contact in `HIT` to `result` as a collision of kind `kind`, sliding along the plane
 * `slide[o..o+2]`.
 */
export function recordCollision(result: CharacterMove, kind: number, slide: Float64Array, o: number): void {
  const i = result.collisionCount;
  if (i === MAX_COLLISIONS) return;
  result.collisionCount = i + 1;
  const k = 3 * i;
  result.collisionNormals[k] = HIT[HIT_N];
  result.collisionNormals[k + 1] = HIT[HIT_N + 1];
  result.collisionNormals[k + 2] = HIT[HIT_N + 2];
  result.collisionPoints[k] = HIT[HIT_P];
  result.collisionPoints[k + 1] = HIT[HIT_P + 1];
  result.collisionPoints[k + 2] = HIT[HIT_P + 2];
  result.slideNormals[k] = slide[o];
  result.slideNormals[k + 1] = slide[o + 1];
  result.slideNormals[k + 2] = slide[o + 2];
  result.collisionKinds[i] = kind;
  result.collisionFaces[i] = HIT[HIT_FACE];
  result.collisionMeshes[i] = level.meshes[HIT[HIT_MESH]];
}
