/**
 * Time of impact of two moving bodies over a frame by conservative advancement: spheres, boxes and
 * triangle meshes (through their BVH) in 3-D; circles and rectangles in 2-D. This module is the public
 * entry; the work is split by concern:
 *
 * - `toiOptions.ts` — options, limits, argument checks and the per-call tolerances;
 * - `toiRecords.ts` — the scratch records (parameters, contact records, pieces) with named layouts;
 * - `toiKernels.ts` — the convex distance kernels and the step rule every piece goes through;
 * - `toiMesh.ts` — a shape against a triangle mesh, as an ordered cast of the BVH's one traversal;
 * - `toiAdvance.ts` — the advancement loop and the result.
 *
 * The method follows the hard-rigid-body event-driven MD paper (De Michele 2010, after Donev, Torquato and
 * Stillinger 2005; `docs/references.md`), §2.4.2: the distance between two rigid bodies cannot shrink
 * faster than ‖vA − vB‖ + ‖ωA‖LA + ‖ωB‖LB (Eq. 32, LA and LB the bounds of Eq. 33), so from a time t at
 * distance d(t) no contact can happen before t + d(t)/ḋmax (Eq. 39): step by that, re-measure, repeat —
 * Mirtich's conservative advancement (1996), with the linear part projected on the closest-point normal
 * as in Box2D's time of impact. Distances come from the OCSI paper's closest point (sphere–box),
 * Ericson's closest point on a triangle (*Real-Time Collision Detection* §5.1.5) and GJK (Gilbert, Johnson
 * and Keerthi 1988) for boxes and triangles; an overlap at t = 0 reports the narrowphase contact.
 */
import { KIND_MESH, kinds, prepareSide, prepareSide2D } from './side.js';
import { advance } from './toiAdvance.js';
import { checkMagnitudes, checkOut, kindOf, readOptions, setTolerances } from './toiOptions.js';
import { sample } from './toiRecords.js';
import type {
  CcdMotion,
  CcdMotion2D,
  CcdShape,
  CcdShape2D,
  TimeOfImpactOptions,
  TimeOfImpactResult,
  TimeOfImpactResult2D,
} from './types.js';

export { TOI_MAGNITUDE_LIMIT, TOI_MAX_ITERATIONS, TOI_RELATIVE_TOLERANCE } from './toiOptions.js';

/**
 * Time of impact of two moving 3-D bodies over one frame, by conservative advancement.
 *
 * Each body is a shape ({@link CcdShape}: sphere, box, or mesh through its BVH; at most one mesh) and a
 * motion ({@link CcdMotion}: pose at the frame start, constant linear and angular velocity). The frame
 * is `options.dt` long, mapped to t ∈ [0, 1]. Writes `out` and returns whether the caller must stop the
 * motion at `out.t`:
 * - {@link TOI_HIT} (true): at `out.t` the shapes are within `tolerance` (and not overlapping) while
 *   approaching; `normal` (A → B), `pointA`, `pointB`, `point`, `distance` describe the contact there.
 *   t = 0 when they start touching and approaching;
 * - {@link TOI_OVERLAP} (true): they already overlap at t = 0; the narrowphase contact is reported
 *   (`distance` = −depth). An engine's solver normally handles that itself;
 * - {@link TOI_ITERATION_LIMIT} (true): undecided within `maxIterations`; `t` is the last time proven
 *   free of contact — stop there (conservative: never a tunnel);
 * - {@link TOI_SEPARATED} (false): no contact within the frame (`t` = 1).
 *
 * Guarantees: the reported t is never later than the first contact (no tunnelling), the shapes do not
 * overlap at the reported t; a pass that never comes within tolerance is not a hit. Throws a
 * RangeError/TypeError naming the argument for NaN/infinite numbers, magnitudes beyond
 * {@link TOI_MAGNITUDE_LIMIT}, a negative radius or extent, a zero quaternion, an unknown shape kind,
 * bad options, or two meshes (not supported). No allocation.
 *
 * @example
 * ```ts
 * import { createTimeOfImpactResult, TOI_HIT, timeOfImpact } from '@sieve/core';
 *
 * // A fast sphere flying at a resting one: when in the frame do they touch?
 * const still = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], linearVelocity: [0, 0, 0], angularVelocity: [0, 0, 0] };
 * const bullet = { ...still, position: [-10, 0, 0], linearVelocity: [600, 0, 0] }; // 10 units a frame
 * const sphere = { kind: 'sphere', radius: 0.5 } as const;
 * const toi = createTimeOfImpactResult(); // reused from query to query
 * if (timeOfImpact(sphere, bullet, sphere, still, { dt: 1 / 60 }, toi)) {
 *   console.log(toi.status === TOI_HIT, toi.t, toi.normal); // true, ≈ 0.9 of the frame, (1, 0, 0)
 * }
 * ```
 */
export function timeOfImpact(
  shapeA: CcdShape,
  motionA: CcdMotion,
  shapeB: CcdShape,
  motionB: CcdMotion,
  options: TimeOfImpactOptions,
  out: TimeOfImpactResult,
): boolean {
  const fn = 'timeOfImpact';
  const maxIterations = readOptions(fn, options);
  checkOut(fn, out, 3);
  const ka = kindOf(shapeA);
  const kb = kindOf(shapeB);
  const swapped = ka > kb;
  prepareSide(swapped ? 1 : 0, shapeA, motionA, fn, 'shapeA', 'motionA');
  prepareSide(swapped ? 0 : 1, shapeB, motionB, fn, 'shapeB', 'motionB');
  checkMagnitudes(fn, swapped);
  if (kinds[0] === KIND_MESH) {
    throw new RangeError(
      `${fn}: mesh–mesh time of impact is not supported; give one body a sphere or box shape`,
    );
  }
  sample.planar = false;
  setTolerances(options);
  return advance(maxIterations, out, swapped, 3);
}

/**
 * 2-D time of impact (matter-js bodies): circles and rectangles ({@link CcdShape2D}) with 2-D motions
 * ({@link CcdMotion2D}). Same contract and results as {@link timeOfImpact}, with 2-D vectors in `out`.
 */
export function timeOfImpact2D(
  shapeA: CcdShape2D,
  motionA: CcdMotion2D,
  shapeB: CcdShape2D,
  motionB: CcdMotion2D,
  options: TimeOfImpactOptions,
  out: TimeOfImpactResult2D,
): boolean {
  const fn = 'timeOfImpact2D';
  const maxIterations = readOptions(fn, options);
  checkOut(fn, out, 2);
  const ka = kindOf(shapeA);
  const kb = kindOf(shapeB);
  const swapped = ka > kb;
  prepareSide2D(swapped ? 1 : 0, shapeA, motionA, fn, 'shapeA', 'motionA');
  prepareSide2D(swapped ? 0 : 1, shapeB, motionB, fn, 'shapeB', 'motionB');
  checkMagnitudes(fn, swapped);
  sample.planar = true;
  setTolerances(options);
  return advance(maxIterations, out, swapped, 2);
}
