/**
 * Bullets for cannon-es: bodies marked with {@link setBullet} do not pass through thin walls.
 * After each internal step has moved them, each fast bullet is swept from its pose before the step to
 * its pose after it; if it touched something on the way, it is put back at the first contact and its
 * velocity answers that contact: "stop" removes the approach along the contact normal, "bounce"
 * reflects it with a restitution.
 *
 * Per internal step (cannon's `postStep` event, so `world.step(dt)`, `world.step(dt, elapsed,
 * maxSubSteps)` and `world.fixedStep()` are all covered), following the recipe of `@sieve/core`'s
 * `ccd/index.ts`:
 * 1. The motion: cannon's `integrate()` stores each body's pose before it moves
 *    (`previousPosition`, `previousQuaternion`), so `motionFromPoses` of that pose and the current
 *    one is exactly the step's motion (constant velocities) — for the bullet and for everything it may
 *    hit. A bullet that moved less than `motionThreshold` × its smallest half extent is skipped: the
 *    discrete step cannot lose it (Box2D v3's "fast body" test, `solver.c` `b2FinalizeBodiesTask`).
 * 2. The candidates: the union of `sweptBounds` of the bullet's shapes, queried in the
 *    `SieveBroadphase` tree (which holds every body's box from the start of the step) after growing it
 *    by how far the other moving bodies moved this step — except the 64 that moved farthest, which are
 *    tested one by one with their own boxes grown by their own displacement, so a few fast bodies do
 *    not make every query large — plus its planes and other huge bodies. The tree's boxes found are
 *    culled before any body is read: the bullet's centre path (a segment) against each box grown by
 *    the bullet's reach and that body's own displacement; then the two bounding spheres along the
 *    relative path of the centres. Without a `SieveBroadphase`, `world.bodies` is scanned. Bullets do
 *    not sweep against other dynamic bullets (as in Box2D v3: give them a collision group that skips
 *    each other); collision filter groups and masks (body and shape), `collisionResponse` (body and
 *    shape) and constraints with `collideConnected: false` are respected.
 * 3. The time of impact of every bullet shape against every candidate shape (`timeOfImpact`, conservative
 *    advancement: the hard-rigid-body event-driven MD paper §2.4; planes analytically, `../planeToi.ts`; shape
 *    mapping in `../ccdShapes.ts`), keeping the earliest hit at t > 0. A shape that starts the step
 *    touching or overlapping a body (the engine's solver has that contact) is not stopped there — that
 *    would freeze a bullet sliding on the ground — but its core sphere is (Box2D v3's fallback), so
 *    its centre never crosses the body either; a core that already touches (the shape is 3/4 deep) is
 *    stopped even at t = 0.
 * 4. The response at the earliest hit: the bullet is moved to its pose at t (`poseAtTime`) — carried
 *    on from there with the other body's motion if that one moves, so the two end the step as they
 *    touched — then on into the other body by its remaining gap plus `slop`, so that cannon's
 *    narrowphase sees the contact at the next step (its `collide`/`beginContact` events fire, friction
 *    acts, resting works); the gravity of the lost part of the step is taken back (as Box2D v3 does);
 *    and an impulse along the contact normal n at the contact point (for a box, the middle of its
 *    contact patch), from the relative normal velocity u of the two contact points:
 *    j = (1 + e)·u / (m_A⁻¹ + m_B⁻¹ + (r_A×n)·I_A⁻¹(r_A×n) + (r_B×n)·I_B⁻¹(r_B×n)) — the impulse of
 *    that paper's §2.5 (Eqs. 40–41, there with e = 1), e = 0 for "stop". A static or kinematic body has
 *    m⁻¹ = 0 and is not changed; a dynamic one gets the opposite impulse (momentum is kept) and is woken
 *    up. The bullet spends the rest of the step at the contact (no second sweep).
 *
 * Not handled: bullet against bullet; bodies moved by hand inside the step (`preStep` listeners) are
 * seen at their box from the start of the step; a rotating plane is seen with its linear motion only.
 * Convex polyhedra and cylinders are swept as their bounding boxes (conservative). As for cannon's
 * own broadphase, a body moved by hand between steps needs `aabbNeedsUpdate = true`.
 *
 * Files: `settings.ts` (marks, settings, options, which worlds want bullets), `mark.ts` (`setBullet`,
 * which alone brings the sweep into a bundle), `list.ts` (a world's bullets), `movers.ts` (step
 * 1–2: the fast movers), `candidates.ts` (step 2), `sweep.ts` (step 3), `response.ts` (step 4),
 * `system.ts` (the per-world system running them), `broadphaseView.ts` (what is read from the
 * `SieveBroadphase`), `scratch.ts` (shared scratch and the hit record's layout).
 *
 * Cost: nothing in a bundle that never calls `setBullet` (`installSieve` only records that the world
 * wants bullets; the system is made when the first of its bodies is marked); nothing per step while the
 * world has no bullet (the per-step `postStep` listener is added when the
 * first body is marked and taken off between steps once none is left; a bullet's sweep then runs after
 * the `postStep` listeners added before it was hooked); per step with bullets, one pass over `world.bodies` (the
 * moving bodies' displacements), then per fast bullet a tree query, the culls, and one time of impact
 * per shape pair left (a core one more when a shape starts touching). No allocation once warm, but
 * for cannon's contact-material lookup when a default bounce hits.
 */

export { setBullet } from './mark.js';
export type { BulletOptions, BulletSettings, BulletStepStats } from './settings.js';
export { checkBulletOptions, getBulletSettings, isBullet } from './settings.js';
export { BulletSystem, getBulletSystem, installBullets, uninstallBullets } from './system.js';
