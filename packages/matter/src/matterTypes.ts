/**
 * The parts of matter-js (0.19–0.20) that @sieve/matter reads, typed structurally so the package needs
 * neither `@types/matter-js` at run time nor in its public declarations: a `Matter.Engine`, `Matter.Body`
 * or the `Matter` module itself from `@types/matter-js` is assignable to these.
 */

/** A 2-D vector as matter-js stores it. */
export interface MatterVectorLike {
  /** x, in matter-js world units (pixels in the usual setup; y points down). */
  x: number;
  /** y, in the same units. */
  y: number;
}

/** A body's collision filter (`body.collisionFilter`). */
export interface MatterCollisionFilterLike {
  /**
   * Collision group: two bodies of the same non-zero group always collide (positive) or never collide
   * (negative), whatever their category and mask. matter-js's default is 0.
   */
  group?: number;
  /** The body's category, one bit of 32 (matter-js's default `0x0001`). */
  category?: number;
  /**
   * The categories this body collides with, a 32-bit mask (matter-js's default `0xFFFFFFFF`); a pair
   * of different or zero groups collides when each one's mask has the other's category bit.
   */
  mask?: number;
}

/** The fields of a `Matter.Body` the detector reads (parents and parts alike). */
export interface MatterBodyLike {
  /** matter-js's unique body id (`Common.nextId()`), the key of the detector's per-body records. */
  id: number;
  /** The axis-aligned bounding box matter-js keeps up to date (`Bounds.update`), in world units. */
  bounds: {
    /** The box's minimum corner. */
    min: MatterVectorLike;
    /** The box's maximum corner. */
    max: MatterVectorLike;
  };
  /** `parts[0]` is the body itself; a compound body's real parts are `parts[1...]`. */
  parts: MatterBodyLike[];
  /** A static body never moves; two static-or-sleeping bodies are never tested against each other. */
  isStatic: boolean;
  /** A sleeping body is not moving for now (`Sleeping`); treated as static for pair skipping. */
  isSleeping: boolean;
  /** The body's filter, read by `Detector.canCollide` (on the parents of a compound pair). */
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
  /** `engine.detector`, whose `Detector.collisions` call Sieve answers. */
  detector: MatterDetectorLike;
}

/** The `Matter` module (or any object with its `Detector` and `Collision` namespaces). */
export interface MatterModuleLike {
  /** `Matter.Detector`: `installSieve` replaces its `collisions` and restores it on uninstall. */
  Detector: {
    /** Every colliding pair of `detector.bodies` this step (stock: sort by `bounds.min.x`, then sweep). */
    collisions(detector: never): unknown[];
    /** Whether two collision filters allow a collision (group, then category and mask). */
    canCollide(filterA: never, filterB: never): boolean;
  };
  /** `Matter.Collision`: its SAT test is called for every candidate pair, as stock calls it. */
  Collision: {
    /**
     * The separating-axis test of two convex parts: a `Matter.Collision` record when they overlap
     * (reused from `pairs` when the pair already exists), else `null`.
     */
    collides(bodyA: never, bodyB: never, pairs?: never): unknown;
  };
}

/**
 * Phaser's Matter scene plugin (`this.matter` in a Phaser 3 or 4 scene,
 * `Phaser.Physics.Matter.MatterPhysics`): its `detector` and `collision` are the `Detector` and
 * `Collision` of the copy of matter-js Phaser bundles, typed by Phaser's declarations, so
 * `{ matter: this.matter }` names that copy without a cast.
 */
export interface MatterPluginLike {
  /**
   * Phaser's `Matter.Detector` (the plugin's reference to the module). Typed loosely: Phaser's
   * declarations give it matter-js 0.18's signatures; `installSieve` checks it at run time.
   */
  detector: object;
  /** Phaser's `Matter.Collision` (typed loosely, checked at run time like `detector`). */
  collision: object;
}

/**
 * An engine as Phaser 3's and 4's TypeScript declarations describe it (`MatterJS.Engine`, which
 * omits the `detector` every matter-js 0.19+ engine has): accepted by `installSieve`, which checks
 * at run time that the engine has its detector.
 */
export interface MatterEngineTypedWithoutDetector {
  /** The engine's world (`engine.world`). */
  world: object;
}

/** `Detector.collisions` as called at run time. */
export type CollisionsFn = (detector: MatterDetectorLike) => unknown[];
/** `Detector.canCollide` as called at run time. */
export type CanCollideFn = (a: MatterCollisionFilterLike, b: MatterCollisionFilterLike) => boolean;
/** `Collision.collides` as called at run time (returns a `Matter.Collision` or null). */
export type CollidesFn = (a: MatterBodyLike, b: MatterBodyLike, pairs: unknown) => unknown;
