/**
 * The parts of matter-js (0.19–0.20) that @sieve/matter reads, typed structurally so the package needs
 * neither `@types/matter-js` at run time nor in its public declarations: a `Matter.Engine`, `Matter.Body`
 * or the `Matter` module itself from `@types/matter-js` is assignable to these.
 */

/** A 2-D vector as matter-js stores it. */
export interface MatterVectorLike {
  x: number;
  y: number;
}

/** A body's collision filter (`body.collisionFilter`). */
export interface MatterCollisionFilterLike {
  group?: number;
  category?: number;
  mask?: number;
}

/** The fields of a `Matter.Body` the detector reads (parents and parts alike). */
export interface MatterBodyLike {
  id: number;
  bounds: { min: MatterVectorLike; max: MatterVectorLike };
  /** `parts[0]` is the body itself; a compound body's real parts are `parts[1...]`. */
  parts: MatterBodyLike[];
  isStatic: boolean;
  isSleeping: boolean;
  collisionFilter: MatterCollisionFilterLike;
}

/** A `Matter.Detector` (`engine.detector`). */
export interface MatterDetectorLike {
  /** The bodies to test; matter-js replaces this array (`Detector.setBodies`) when the world changes. */
  bodies: MatterBodyLike[];
  /** The engine's `Matter.Pairs`, from which `Collision.collides` reuses collision records. */
  pairs?: unknown;
  /** The array `Detector.collisions` fills and returns (stock reuses it every step). */
  collisions?: unknown[];
}

/** A `Matter.Engine`: only its detector is touched. */
export interface MatterEngineLike {
  detector: MatterDetectorLike;
}

/** The `Matter` module (or any object with its `Detector` and `Collision` namespaces). */
export interface MatterModuleLike {
  Detector: {
    collisions(detector: never): unknown[];
    canCollide(filterA: never, filterB: never): boolean;
  };
  Collision: {
    collides(bodyA: never, bodyB: never, pairs?: never): unknown;
  };
}

/** `Detector.collisions` as called at run time. */
export type CollisionsFn = (detector: MatterDetectorLike) => unknown[];
/** `Detector.canCollide` as called at run time. */
export type CanCollideFn = (a: MatterCollisionFilterLike, b: MatterCollisionFilterLike) => boolean;
/** `Collision.collides` as called at run time (returns a `Matter.Collision` or null). */
export type CollidesFn = (a: MatterBodyLike, b: MatterBodyLike, pairs: unknown) => unknown;
