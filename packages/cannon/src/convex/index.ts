/**
 * @sieve/cannon/convex — Sieve's convex contact generator for cannon-es (Box, ConvexPolyhedron and
 * Cylinder against each other, against spheres and against Heightfield: separating axes with Gauss-map
 * edge pruning, as in Gregorius's "The Separating Axis Test between Convex Polyhedra", and
 * reference-face clipping to four points), as a value for `installSieve`'s
 * `narrowphase: { convex }` option. An entry point of its own, so that a page which does not turn it
 * on does not ship it.
 *
 * @packageDocumentation
 */
import type { ConvexContacts } from '../narrowphase.js';
import { makeConvexHandlers } from './handlers.js';

/**
 * Sieve's convex contact generator: pass it as `narrowphase: { convex: convexContacts }` to
 * `installSieve` (or `installNarrowphase`) to replace cannon's box, convex-polyhedron and cylinder
 * contacts — with each other, with spheres and with heightfields — by Sieve's own (see
 * `NarrowphaseOptions.convex` of `@sieve/cannon` for what it changes and why you would want it).
 *
 * @example
 * ```ts
 * import { installSieve } from '@sieve/cannon';
 * import { convexContacts } from '@sieve/cannon/convex';
 * import { Body, Box, Vec3, World } from 'cannon-es';
 *
 * const world = new World({ gravity: new Vec3(0, -9.82, 0) });
 * world.addBody(new Body({ mass: 0, shape: new Box(new Vec3(10, 0.5, 10)) }));
 * for (let i = 0; i < 10; i++) {
 *   const box = new Box(new Vec3(0.5, 0.5, 0.5));
 *   world.addBody(new Body({ mass: 1, shape: box, position: new Vec3(0, 1 + i, 0) }));
 * }
 * installSieve(world, { narrowphase: { convex: convexContacts } }); // a 10-box tower that stands
 * for (let i = 0; i < 600; i++) world.step(1 / 60);
 * ```
 */
export const convexContacts: ConvexContacts = { makeHandlers: makeConvexHandlers };

export type { ConvexContacts } from '../narrowphase.js';
