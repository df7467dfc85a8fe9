/**
 * @sieve/cannon/convex — the contacts for convex shapes that change cannon-es's answers, each the value
 * of the `installSieve` narrowphase option that turns it on: Sieve's convex contact generator (Box,
 * ConvexPolyhedron and Cylinder against each other, against spheres and against Heightfield: separating
 * axes with Gauss-map edge pruning, as in Gregorius's "The Separating Axis Test between Convex
 * Polyhedra", and reference-face clipping to four points), `narrowphase: { convex }`; the OCSI
 * sphere–box contact, `{ sphereBox }`; the OBB–OBB box–box prefilter, `{ boxBox }`. An entry point of
 * its own, so that a page which turns none on ships none.
 *
 * @packageDocumentation
 */
import { boxBoxPrefiltered, sphereBoxOcsi } from '../boxContacts.js';
import type { ConvexContacts, OptInHandler } from '../narrowphase.js';
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

/**
 * The OCSI sphere–box contact: pass it as `narrowphase: { sphereBox: sphereBoxContact }` to replace
 * cannon's sphere–box handler (see `NarrowphaseOptions.sphereBox` of `@sieve/cannon` for what it
 * changes and why you would want it).
 *
 * @example
 * ```ts
 * import { installSieve } from '@sieve/cannon';
 * import { sphereBoxContact } from '@sieve/cannon/convex';
 * import { Body, Box, Sphere, Vec3, World } from 'cannon-es';
 *
 * const world = new World({ gravity: new Vec3(0, -9.82, 0) });
 * world.addBody(new Body({ mass: 0, shape: new Box(new Vec3(5, 0.05, 5)) })); // a thin floor
 * world.addBody(new Body({ mass: 1, shape: new Sphere(0.5), position: new Vec3(0, 2, 0) }));
 * installSieve(world, { narrowphase: { sphereBox: sphereBoxContact } });
 * for (let i = 0; i < 120; i++) world.step(1 / 60);
 * ```
 */
export const sphereBoxContact: OptInHandler = { key: 'sphereBox', handler: sphereBoxOcsi };

/**
 * The box–box prefilter (an OBB–OBB separating-axis test before cannon's own box–box): pass it as
 * `narrowphase: { boxBox: boxBoxPrefilter }` (see `NarrowphaseOptions.boxBox` of `@sieve/cannon`).
 *
 * @example
 * ```ts
 * import { installSieve } from '@sieve/cannon';
 * import { boxBoxPrefilter } from '@sieve/cannon/convex';
 * import { World } from 'cannon-es';
 *
 * installSieve(new World(), { narrowphase: { boxBox: boxBoxPrefilter } });
 * ```
 */
export const boxBoxPrefilter: OptInHandler = { key: 'boxBox', handler: boxBoxPrefiltered };

export type { ConvexContacts, OptInHandler } from '../narrowphase.js';
