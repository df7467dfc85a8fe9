/**
 * Public API of the continuous collision module: time of impact by conservative advancement
 * (the hard-rigid-body event-driven MD paper §2.4–2.5, Eq. 32; docs/references.md), 3-D and 2-D, swept bounds for the broadphase, and
 * the motion helpers an engine adapter uses around them. The GJK distance (`gjk.ts`) and the per-side
 * records (`side.ts`) are internal: import them by path inside core.
 *
 * ## "Bullets" in an engine adapter, per physics step
 *
 * Post-step correction: let the engine step, then move each bullet back to its first contact.
 *
 * 1. Before the step (cannon-es: the world's `preStep` event, once per internal step; matter-js:
 *    `Events.on(engine, 'beforeUpdate')`), copy each bullet's pose: position and quaternion (matter:
 *    position and angle). Copy the poses of dynamic bodies too if bullets should see their exact motion.
 * 2. After the step (cannon-es `postStep`; matter-js `afterUpdate`), for each bullet:
 *    - `motionFromPoses(m, p0, q0, body.position, body.quaternion, dt)` (matter: `motion2FromPoses(m, p0,
 *      angle0, body.position, body.angle, 1)` — dt = 1 means "per update", matter's velocity unit); its
 *      end pose is exactly the engine's;
 *    - `sweptBounds(shape, m, dt, box)` and the candidates whose bounds overlap it: `queryBounds(box)` on
 *      the adapter's broadphase of the other bodies (a query is cheaper than a bullet proxy: a bullet's
 *      long swept box makes sweep-and-prune swap a lot; bench/ccd measures both);
 *    - for each candidate shape, `timeOfImpact(bulletShape, m, otherShape, otherMotion, { dt }, out)`
 *      (2-D: `timeOfImpact2D`); the other motion comes from its copied poses, or is its pose with zero
 *      velocity for a static body. Keep the smallest `out.t` among results with status `TOI_HIT` or
 *      `TOI_ITERATION_LIMIT`. Skip `TOI_OVERLAP` (already touching at the step's start: the engine's
 *      solver has that contact; stopping there would freeze a bullet resting on the ground);
 *    - if a contact was found: `poseAtTime(m, dt, t, position, quaternion)` and write that pose to the
 *      body (matter: `Body.setPosition`, `Body.setAngle` with `poseAtTime2D`); then the response, with
 *      `n` = `out.normal` (from the bullet, A, to the other body, B) and the relative velocity
 *      `u = (v_bullet − v_other)·n` (> 0 when approaching): stop = remove the normal part,
 *      `v −= u·n`; bounce = `v −= (1 + restitution)·u·n` (matter: `Body.setVelocity`, per update).
 *      The bullet spends the rest of the step at the contact; the next step starts from there, touching
 *      within `tolerance` and moving away, which is not a hit.
 *
 * Shapes are described once per body (`{ kind: 'sphere', radius }`, `{ kind: 'box', halfExtents,
 * offset?, orientation? }`, `{ kind: 'mesh', bvh }`; 2-D `circle` and `box`); a compound body is one
 * call per child shape with its `offset` and `orientation`. Motions and results are reused objects of
 * typed arrays (`createMotion`, `createTimeOfImpactResult`): nothing is allocated per call.
 *
 * ## Skin for long-lived broadphase entries (the paper's ∆NNL, §3.3)
 *
 * Insert each body with `sweptBounds(shape, motion, dt, box, margin)` — its bounds grown by a skin
 * `margin` — and keep what was inserted. Each step, recompute the swept bounds without margin: while
 * `containsBounds(stored, swept, 3)` holds, the stored entry still covers the body and its pairs stay
 * valid, so skip `move()`; otherwise move it with a fresh margin. `maxDisplacement` (and
 * `rotationBound`, Eq. 33's L) give how fast a body eats its skin: at most ‖v‖·dt + 2·L·sin(|ω|·dt/2)
 * per step, so a skin m lasts at least m / that many steps (§4.5: a larger skin, fewer moves, more pairs).
 */
export {
  containsBounds,
  maxDisplacement,
  motion2FromPoses,
  motionFromPoses,
  poseAtTime,
  poseAtTime2D,
  rotationBound,
  sweptBounds,
  sweptBounds2D,
} from './swept.js';
export {
  TOI_MAGNITUDE_LIMIT,
  TOI_MAX_ITERATIONS,
  TOI_RELATIVE_TOLERANCE,
  timeOfImpact,
  timeOfImpact2D,
} from './toi.js';
export * from './types.js';
