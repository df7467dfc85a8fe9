/**
 * @sieve/cannon — Sieve for cannon-es: a broadphase with `NaiveBroadphase`'s exact pairs on a sort and
 * sweep (or a `@sieve/core` tree you pass), pair-sized collision matrices and overlap keepers with the
 * stock events, and what cannon
 * lacks: trimesh contacts and "bullets" (continuous collision for fast bodies: `setBullet(body)`).
 * `installSieve(world)` puts all of it on a world (stepping as stock does wherever stock has an answer),
 * `uninstallSieve(world)` takes it off.
 */
export { SieveBroadphase, type SieveBroadphaseOptions } from './broadphase.js';
export {
  type BulletOptions,
  type BulletSettings,
  type BulletStepStats,
  BulletSystem,
  getBulletSettings,
  getBulletSystem,
  installBullets,
  isBullet,
  setBullet,
  uninstallBullets,
} from './bullets/index.js';
export { refreshCcdShape } from './ccdShapes.js';
export { PairCollisionMatrix } from './collisionMatrix.js';
export {
  type InstallSieveOptions,
  installSieve,
  isSieveInstalled,
  type SieveInstallation,
  uninstallSieve,
} from './install.js';
export { type InstallSieveLiteOptions, installSieveLite } from './installLite.js';
export {
  type ConvexContacts,
  installNarrowphase,
  type NarrowphaseOptions,
  type OptInHandler,
  SIEVE_COLLISION_TYPES,
  uninstallNarrowphase,
} from './narrowphase.js';
export { PairOverlapKeeper, type PairOverlapKeeperOptions } from './overlapKeeper.js';
export { hasTrimeshBVH, refreshTrimesh, trimeshBVH } from './trimeshCache.js';
