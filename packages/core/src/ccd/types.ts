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

/** A sphere of `radius` centred at `offset` (default the body's centre) in its body's frame. */
export interface CcdSphere {
  readonly kind: 'sphere';
  radius: number;
  /** Centre in the body's local frame (3 numbers); default (0, 0, 0). */
  offset?: ArrayLike<number>;
}

/** A box of `halfExtents` (3 numbers ≥ 0), centred at `offset` and turned by `orientation` in its body. */
export interface CcdBox {
  readonly kind: 'box';
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
  readonly kind: 'mesh';
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
  readonly kind: 'circle';
  radius: number;
  offset?: ArrayLike<number>;
}

/** A rectangle of `halfExtents` (2 numbers), at `offset` and turned by `angle` (radians) in its body. */
export interface CcdBox2D {
  readonly kind: 'box';
  halfExtents: ArrayLike<number>;
  offset?: ArrayLike<number>;
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
  position: ArrayLike<number>;
  quaternion: ArrayLike<number>;
  linearVelocity: ArrayLike<number>;
  angularVelocity: ArrayLike<number>;
}

/** A 2-D body's motion over a frame (matter-js: `position`, `angle`, velocities per unit time). */
export interface CcdMotion2D {
  position: ArrayLike<number>;
  angle: number;
  linearVelocity: ArrayLike<number>;
  /** Radians per unit time, counter-clockwise. */
  angularVelocity: number;
}

/** A reusable 3-D motion with zero velocities at the origin (typed arrays you fill each frame). */
export function createMotion(): {
  position: Float64Array;
  quaternion: Float64Array;
  linearVelocity: Float64Array;
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
  position: Float64Array;
  angle: number;
  linearVelocity: Float64Array;
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
  status: number;
  t: number;
  normal: Float64Array;
  point: Float64Array;
  pointA: Float64Array;
  pointB: Float64Array;
  distance: number;
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
