/**
 * @sieve/matter — Sieve's incremental 2-D sweep and prune as matter-js's broadphase.
 *
 * ```ts
 * import { installSieve, uninstallSieve } from '@sieve/matter';
 * const sieve = installSieve(engine); // same collisions, pairs and events as stock, found faster
 * sieve.stats.broadphaseMs;           // timing of the last step, for an overlay
 * sieve.mode = 'stock';               // switch back and forth on a live engine
 * uninstallSieve(engine);
 * ```
 */
export type {
  MatterBodyLike,
  MatterCollisionFilterLike,
  MatterDetectorLike,
  MatterEngineLike,
  MatterModuleLike,
  MatterVectorLike,
} from './matterTypes.js';
export {
  type BroadphaseKind,
  type DetectorMode,
  getSieve,
  installSieve,
  SieveDetector,
  type SieveOptions,
  type SieveStats,
  uninstallSieve,
} from './sieveDetector.js';
export { XOrder } from './xOrder.js';
