/**
 * Checks the broadphase a caller passes to the matter-js adapter (`SieveOptions.broadphase`): an
 * instance the caller built and owns — `SweepAndPrune` or `Octree` of `@sieve/core`, or the
 * region-parallel sweep and prune of `@sieve/core/parallel` — never one built here by name, so a
 * bundle holds only the broadphases its page imports. Without one the detector runs the sweep alone.
 * Throws on a bad one before anything is built or changed.
 */
import { type Broadphase, checkSyncUpdate } from '@sieve/core';
import type { SieveOptions } from './options.js';

/** The methods of the `Broadphase` contract the detector (through core's `BodyTable`) calls. */
const CONTRACT_METHODS = [
  'insert',
  'moveMany',
  'remove',
  'update',
  'pairBuffers',
  'pairTags',
  'queryBounds',
  'tagOf',
] as const;

/** How to let the detector use Sieve's sweep and prune, for the errors that meet the removed `'sap'`. */
const SAP_HINT =
  "pass broadphase: new SweepAndPrune({ dimensions: 2, ... }) from '@sieve/core' (its options there), " +
  'so that only pages that import it ship it';

/** How to run the detector on worker threads, for the errors that meet the removed `'parallel'`. */
const PARALLEL_HINT =
  "pass broadphase: new ParallelSweepAndPrune({ dimensions: 2, workers, ... }) from '@sieve/core/parallel' " +
  '(an instance you own: call its dispose() after uninstallSieve)';

/** How to run the detector on the octree, for the errors that meet the removed `'octree'`. */
const OCTREE_HINT =
  "pass broadphase: new Octree({ dimensions: 2, ... }) from '@sieve/core' (its options there), so that " +
  'only pages that import the octree ship it';

/**
 * Checks `options.broadphase` (and the removed `options.parallel`, `options.sap`, `options.octree`
 * with it) without building or changing anything: returns the caller's instance, or null for none.
 * `inUse` holds the caller-owned instances already serving an engine. Throws a `TypeError` or
 * `RangeError` naming the option.
 */
export function checkBroadphase(options: SieveOptions, inUse: WeakSet<object>): Broadphase | null {
  const where = 'installSieve: options.broadphase';
  // A removed option is a TypeError, as an unknown key is (a removed value of an option: a RangeError).
  if (options.parallel != null) {
    throw new TypeError(`installSieve: options.parallel is not supported; ${PARALLEL_HINT}`);
  }
  if (options.octree != null) {
    throw new TypeError(`installSieve: options.octree is not supported; ${OCTREE_HINT}`);
  }
  if (options.sap != null) {
    throw new TypeError(`installSieve: options.sap is not supported; ${SAP_HINT}`);
  }
  const value: unknown = options.broadphase;
  if (value == null) return null;
  if (value === 'sap') {
    throw new RangeError(`${where}: 'sap' is not built by name; ${SAP_HINT}`);
  }
  if (value === 'parallel') {
    throw new RangeError(`${where}: 'parallel' is not supported; ${PARALLEL_HINT}`);
  }
  if (value === 'octree') {
    throw new RangeError(`${where}: 'octree' is not built by name; ${OCTREE_HINT}`);
  }
  if (typeof value === 'string') {
    throw new RangeError(`${where} must be a Broadphase instance, got '${value}'`);
  }
  if (typeof value !== 'object') {
    throw new TypeError(`${where} must be a Broadphase instance, got ${String(value)}`);
  }
  const bp = value as Record<string, unknown>;
  for (const method of CONTRACT_METHODS) {
    if (typeof bp[method] !== 'function') {
      throw new TypeError(
        `${where} must be an object implementing the Broadphase contract of @sieve/core (missing ${method}())`,
      );
    }
  }
  if (bp.dimensions !== 2) {
    throw new RangeError(
      `${where} must be a 2-D broadphase (dimensions 2), got dimensions ${String(bp.dimensions)}`,
    );
  }
  if (bp.count !== 0) {
    throw new RangeError(`${where} must be empty (count 0), got count ${String(bp.count)}`);
  }
  checkSyncUpdate(bp, where, 'Engine.update', 'engine');
  if (inUse.has(bp)) {
    throw new Error(`${where} already serves another engine's Sieve detector (uninstallSieve it first)`);
  }
  return value as Broadphase;
}
