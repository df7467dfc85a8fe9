/**
 * Shapes, motions and results of the continuous collision module, with their argument checks.
 *
 * Motion model (the hard-rigid-body event-driven MD paper §2.2, constant velocities between events): over a frame of
 * length `dt`, parametrized by t ∈ [0, 1], a body's rotation centre (its centre of mass) moves as
 * p(t) = p0 + t·v·dt and its orientation turns at the constant world angular velocity ω:
 * q(t) = rot(ω̂, t·|ω|·dt) ⊗ q0. A shape sits in its body at a fixed local `offset` (and `orientation`),
 * so it turns about the body's centre. 2-D is the same in the plane: angle(t) = angle0 + t·ω·dt.
 *
 * All inputs are plain objects of arrays, filled once by the caller (typed arrays or `[x, y, z]`) and
 * reused every frame; nothing here allocates per call.
 */
import type { MeshBVH } from '../bvh/MeshBVH.js';
import { optionKeys } from '../options.js';

/** A sphere of `radius` centred at `offset` (default the body's centre) in its body's frame. */
export interface CcdSphere {
  /** Tells the shapes apart: `'sphere'`. */
  readonly kind: 'sphere';
  /** Radius in world units (finite, ≥ 0). */
  radius: number;
  /** Centre in the body's local frame (3 numbers); default (0, 0, 0). */
  offset?: ArrayLike<number>;
}

/** A box of `halfExtents` (3 numbers ≥ 0), centred at `offset` and turned by `orientation` in its body. */
export interface CcdBox {
  /** Tells the shapes apart: `'box'`. */
  readonly kind: 'box';
  /** Half the box's edge along each of its local axes (3 finite numbers ≥ 0). */
  halfExtents: ArrayLike<number>;
  /** Centre in the body's local frame (3 numbers); default (0, 0, 0). */
  offset?: ArrayLike<number>;
  /** Rotation `[x, y, z, w]` relative to the body (normalized here); default identity. */
  orientation?: ArrayLike<number>;
}

/**
 * A triangle mesh through its BVH: the vertices the BVH was built from are in the shape's local frame,
 * placed in the body by `offset` and `orientation` (rigid: bake any scale into the vertices).
 */
export interface CcdMesh {
  /** Tells the shapes apart: `'mesh'`. */
  readonly kind: 'mesh';
  /** The mesh's triangles, in its own vertex frame, with their bounding volume hierarchy. */
  bvh: MeshBVH;
  /** Origin of the mesh's vertex frame in the body's local frame; default (0, 0, 0). */
  offset?: ArrayLike<number>;
  /** Rotation `[x, y, z, w]` of the mesh relative to the body; default identity. */
  orientation?: ArrayLike<number>;
}

/** A 3-D shape for {@link timeOfImpact} and {@link sweptBounds}. */
export type CcdShape = CcdSphere | CcdBox | CcdMesh;

/** A circle of `radius` at `offset` (2 numbers, default (0, 0)) in its body's frame. */
export interface CcdCircle {
  /** Tells the shapes apart: `'circle'`. */
  readonly kind: 'circle';
  /** Radius in world units (finite, ≥ 0). */
  radius: number;
  /** Centre in the body's local frame (2 numbers); default (0, 0). */
  offset?: ArrayLike<number>;
}

/** A rectangle of `halfExtents` (2 numbers), at `offset` and turned by `angle` (radians) in its body. */
export interface CcdBox2D {
  /** Tells the shapes apart: `'box'`. */
  readonly kind: 'box';
  /** Half the rectangle's width and height along its local axes (2 finite numbers ≥ 0). */
  halfExtents: ArrayLike<number>;
  /** Centre in the body's local frame (2 numbers); default (0, 0). */
  offset?: ArrayLike<number>;
  /** Rotation relative to the body in radians, counter-clockwise; default 0. */
  angle?: number;
}

/** A 2-D shape for {@link timeOfImpact2D} and {@link sweptBounds2D}. */
export type CcdShape2D = CcdCircle | CcdBox2D;

/**
 * A body's motion over a frame: its state at the start of the frame and constant velocities.
 * `position` is the rotation centre (the centre of mass for a physics body), `quaternion` `[x, y, z, w]`
 * (need not be normalized, must not be zero), `linearVelocity` in units per unit time, `angularVelocity`
 * a world-frame vector in radians per unit time (cannon-es `body.angularVelocity`).
 */
export interface CcdMotion {
  /** The body's rotation centre at the start of the frame (3 numbers, world frame). */
  position: ArrayLike<number>;
  /** The body's orientation at the start of the frame, `[x, y, z, w]` (not zero; normalized here). */
  quaternion: ArrayLike<number>;
  /** Constant velocity of `position` over the frame (3 numbers, units per unit time). */
  linearVelocity: ArrayLike<number>;
  /** Constant angular velocity over the frame (3 numbers, world frame, radians per unit time). */
  angularVelocity: ArrayLike<number>;
}

/** A 2-D body's motion over a frame (matter-js: `position`, `angle`, velocities per unit time). */
export interface CcdMotion2D {
  /** The body's rotation centre at the start of the frame (2 numbers, world frame). */
  position: ArrayLike<number>;
  /** The body's angle at the start of the frame, radians counter-clockwise. */
  angle: number;
  /** Constant velocity of `position` over the frame (2 numbers, units per unit time). */
  linearVelocity: ArrayLike<number>;
  /** Radians per unit time, counter-clockwise. */
  angularVelocity: number;
}

/** A reusable 3-D motion with zero velocities at the origin (typed arrays you fill each frame). */
export function createMotion(): {
  /** Rotation centre at the frame's start (3 numbers); (0, 0, 0) until you fill it. */
  position: Float64Array;
  /** Orientation `[x, y, z, w]` at the frame's start; identity until you fill it. */
  quaternion: Float64Array;
  /** Velocity over the frame (3 numbers, units per unit time); zero until you fill it. */
  linearVelocity: Float64Array;
  /** Angular velocity over the frame (3 numbers, radians per unit time, world frame); zero at first. */
  angularVelocity: Float64Array;
} {
  const quaternion = new Float64Array(4);
  quaternion[3] = 1;
  return {
    position: new Float64Array(3),
    quaternion,
    linearVelocity: new Float64Array(3),
    angularVelocity: new Float64Array(3),
  };
}

/** A reusable 2-D motion (angle and angular velocity 0). */
export function createMotion2D(): {
  /** Rotation centre at the frame's start (2 numbers); (0, 0) until you fill it. */
  position: Float64Array;
  /** Angle at the frame's start, radians counter-clockwise; 0 at first. */
  angle: number;
  /** Velocity over the frame (2 numbers, units per unit time); zero until you fill it. */
  linearVelocity: Float64Array;
  /** Angular velocity over the frame, radians per unit time counter-clockwise; 0 at first. */
  angularVelocity: number;
} {
  return { position: new Float64Array(2), angle: 0, linearVelocity: new Float64Array(2), angularVelocity: 0 };
}

/** Options of {@link timeOfImpact} and {@link timeOfImpact2D}. */
export interface TimeOfImpactOptions {
  /** Frame length: t = 1 is `dt` time units after the motions' start state. Finite, ≥ 0. */
  dt: number;
  /**
   * Distance at which the bodies count as touching (world units, > 0). A hit is reported at the first
   * time the distance is ≤ tolerance while the bodies approach; advancement aims at tolerance / 2, so
   * the reported gap is typically in [tolerance / 2, tolerance]. Default: 1e-3 × the smaller shape's
   * size (radius, half diagonal or mesh half diagonal), at least 1e-9 × (1 + the largest coordinate).
   */
  tolerance?: number;
  /**
   * Cap on conservative-advancement steps (integer ≥ 1). Head-on hits take 2–4; a spinning body whose
   * tip skims another within a few tolerances takes ~100 (the rotation term of Eq. 32 does not see
   * that the tip moves tangentially). At the cap the result is {@link TOI_ITERATION_LIMIT}: stop at the
   * last safe time rather than risk a tunnel. Default 128.
   */
  maxIterations?: number;
}

/**
 * The keys of {@link TimeOfImpactOptions}: any other key throws a `TypeError` naming it. Kept complete
 * by the compiler (`optionKeys`): add a new option here too.
 */
export const TIME_OF_IMPACT_OPTION_KEYS = optionKeys<TimeOfImpactOptions>({
  dt: true,
  tolerance: true,
  maxIterations: true,
});

/** No contact during the frame (or the shapes separate and never come within tolerance). */
export const TOI_SEPARATED = 0;
/** The shapes come within tolerance while approaching at `t` (t = 0: they start touching). */
export const TOI_HIT = 1;
/** The shapes already overlap (penetrate) at t = 0; `normal`, `point`, `distance` (−depth) describe it. */
export const TOI_OVERLAP = 2;
/**
 * The iteration cap was reached before a decision: `t` is the last time proven free of contact; the
 * caller should treat it like a hit (stop there) — a game would rather stop early than tunnel.
 */
export const TOI_ITERATION_LIMIT = 3;

/** Result of {@link timeOfImpact} (3-D); reuse one across calls. */
export interface TimeOfImpactResult {
  /** {@link TOI_SEPARATED}, {@link TOI_HIT}, {@link TOI_OVERLAP} or {@link TOI_ITERATION_LIMIT}. */
  status: number;
  /** Fraction of the frame in [0, 1] (1 when separated). */
  t: number;
  /** Unit contact normal from A towards B at time t. */
  normal: Float64Array;
  /** Contact point: midway between the closest points of A and B at time t. */
  point: Float64Array;
  /** Closest point of A at time t. */
  pointA: Float64Array;
  /** Closest point of B at time t. */
  pointB: Float64Array;
  /** Distance between the shapes at time t (≥ 0), or minus the penetration depth for an overlap. */
  distance: number;
  /** Conservative-advancement steps taken. */
  iterations: number;
}

/** Result of {@link timeOfImpact2D}. Same fields as {@link TimeOfImpactResult}, with 2-D vectors. */
export interface TimeOfImpactResult2D {
  /** {@link TOI_SEPARATED}, {@link TOI_HIT}, {@link TOI_OVERLAP} or {@link TOI_ITERATION_LIMIT}. */
  status: number;
  /** Fraction of the frame in [0, 1] (1 when separated). */
  t: number;
  /** Unit contact normal from A towards B at time t (2 numbers). */
  normal: Float64Array;
  /** Contact point: midway between the closest points of A and B at time t (2 numbers). */
  point: Float64Array;
  /** Closest point of A at time t (2 numbers). */
  pointA: Float64Array;
  /** Closest point of B at time t (2 numbers). */
  pointB: Float64Array;
  /** Distance between the shapes at time t (≥ 0), or minus the penetration depth for an overlap. */
  distance: number;
  /** Conservative-advancement steps taken. */
  iterations: number;
}

/** A new result record for {@link timeOfImpact}. */
export function createTimeOfImpactResult(): TimeOfImpactResult {
  return {
    status: TOI_SEPARATED,
    t: 1,
    normal: new Float64Array(3),
    point: new Float64Array(3),
    pointA: new Float64Array(3),
    pointB: new Float64Array(3),
    distance: 0,
    iterations: 0,
  };
}

/** A new result record for {@link timeOfImpact2D}. */
export function createTimeOfImpactResult2D(): TimeOfImpactResult2D {
  return {
    status: TOI_SEPARATED,
    t: 1,
    normal: new Float64Array(2),
    point: new Float64Array(2),
    pointA: new Float64Array(2),
    pointB: new Float64Array(2),
    distance: 0,
    iterations: 0,
  };
}
