/**
 * `installSieveLite(world)`: {@link installSieve} without its narrowphase additions, for pages that
 * weigh their bytes. The broadphase, the pair-sized collision matrices and overlap keepers, the safe
 * removals inside a step and the bullets are the same; cannon's own narrowphase runs untouched, so a
 * page that imports only this function bundles neither the trimesh contacts (core's triangle BVH and
 * its mesh queries) nor the exact convex path — about half of what `installSieve` weighs.
 */
import { optionKeys } from '@sieve/core';
import type { World } from 'cannon-es';
import { type InstallSieveOptions, installSieveWith, type SieveInstallation } from './install.js';

/** Options of {@link installSieveLite}: those of `installSieve` but `narrowphase`. */
export type InstallSieveLiteOptions = Omit<InstallSieveOptions, 'narrowphase'>;

/**
 * The keys of {@link InstallSieveLiteOptions}: any other key (`narrowphase` included) throws a
 * `TypeError` naming it.
 */
const INSTALL_SIEVE_LITE_OPTION_KEYS = optionKeys<InstallSieveLiteOptions>({
  broadphase: true,
  collisionMatrix: true,
  wideContactIds: true,
  deferRemovals: true,
  bullets: true,
});

/**
 * Installs Sieve on a live cannon-es world as {@link installSieve} does, but for the narrowphase: with
 * no options the world steps bit for bit as with cannon's `NaiveBroadphase` everywhere, since cannon's
 * own narrowphase answers every pair. What it leaves out is what `installSieve` adds to the
 * narrowphase: the contacts cannon has none for (trimesh against boxes, convex hulls, cylinders and
 * trimeshes) and the exact convex path that computes cannon's own convex contacts faster (a pile of
 * convex hulls gains only from the broadphase here). Use it when the world has none of those shapes, or
 * when the page's size matters more; a page importing only this function bundles about half of what
 * `installSieve` weighs (see the package README's sizes).
 *
 * Take it off with `uninstallSieve`; `isSieveInstalled` and `installSieve` see it as installed. Throws as
 * `installSieve` does, with the function's name in the message; `narrowphase` is an unknown option here.
 *
 * @example
 * ```ts
 * import { installSieveLite, uninstallSieve } from '@sieve/cannon';
 * import { Body, Box, Plane, Vec3, World } from 'cannon-es';
 *
 * const world = new World({ gravity: new Vec3(0, -9.82, 0) });
 * const ground = new Body({ mass: 0, shape: new Plane() });
 * ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
 * world.addBody(ground);
 * for (let i = 0; i < 400; i++) {
 *   const position = new Vec3(i % 20, 1 + Math.floor(i / 20), 0);
 *   world.addBody(new Body({ mass: 1, shape: new Box(new Vec3(0.4, 0.4, 0.4)), position }));
 * }
 * const sieve = installSieveLite(world); // stock's contacts and events, bit for bit
 * for (let i = 0; i < 60; i++) world.step(1 / 60);
 * console.log(world.contacts.length, sieve.broadphase?.bodyCount);
 * uninstallSieve(world);
 * ```
 */
export function installSieveLite(world: World, options: InstallSieveLiteOptions = {}): SieveInstallation {
  return installSieveWith('installSieveLite', world, options, INSTALL_SIEVE_LITE_OPTION_KEYS, null);
}
