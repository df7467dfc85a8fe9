/**
 * @sieve/cannon — Sieve for cannon-es: an incremental broadphase, pair-sized collision matrices, and
 * trimesh contacts, and "bullets" (continuous collision for fast bodies: `setBullet(body)`).
 * `installSieve(world)` puts all of it on a world, `uninstallSieve(world)` takes it off.
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
} from './bullets.js';
export { refreshCcdShape } from './ccdShapes.js';
export { PairCollisionMatrix } from './collisionMatrix.js';
export {
  type InstallSieveOptions,
  installSieve,
  isSieveInstalled,
  type SieveInstallation,
  uninstallSieve,
} from './install.js';
export {
  installNarrowphase,
  type NarrowphaseOptions,
  SIEVE_COLLISION_TYPES,
  uninstallNarrowphase,
} from './narrowphase.js';
export { PairOverlapKeeper } from './overlapKeeper.js';
export { hasTrimeshBVH, refreshTrimesh, trimeshBVH } from './trimeshCache.js';
