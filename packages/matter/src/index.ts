/**
 * @sieve/matter — matter-js's collision detection with stock's results, found faster: its sort and
 * sweep without the overheads, static bodies left alone, and Sieve's incremental broadphase for
 * large worlds when you pass one.
 *
 * ```ts
 * import { installBullets, installSieve, setBullet, uninstallSieve } from '@sieve/matter';
 * import Matter from 'matter-js';
 *
 * const engine = Matter.Engine.create();
 * const shot = Matter.Bodies.circle(0, 0, 2);
 * Matter.Composite.add(engine.world, shot);
 * const sieve = installSieve(engine); // same collisions, pairs and events as stock, found faster
 * sieve.stats.collisions;             // the last step's collisions (timings with options.clock)
 * sieve.mode = 'stock';               // switch back and forth on a live engine
 * uninstallSieve(engine);
 * installBullets(engine);
 * setBullet(shot, { response: 'stop' }); // stops at its first contact, never tunnels
 * ```
 */
export {
  type BulletHit,
  type BulletOptions,
  type BulletResponse,
  type BulletSettings,
  installBullets,
  isBullet,
  setBullet,
  uninstallBullets,
} from './bullets.js';
export { installSieve } from './install.js';
export type {
  MatterBodyLike,
  MatterCollisionFilterLike,
  MatterDetectorLike,
  MatterEngineLike,
  MatterEngineTypedWithoutDetector,
  MatterModuleLike,
  MatterPluginLike,
  MatterVectorLike,
} from './matterTypes.js';
export {
  DEFAULT_SWEEP_BELOW,
  type DetectorMode,
  type DetectorPath,
  type SieveOptions,
  type SieveStats,
} from './options.js';
export { getSieve, uninstallSieve } from './registry.js';
export { SieveDetector } from './sieveDetector.js';
