/**
 * Which broadphase holds the matter-js adapter's proxies (`SieveOptions.broadphase`): the sweep and prune
 * the adapter builds (`'sap'`), or a `Broadphase` instance the caller built and owns — the way to run the
 * detector on the `Octree` or on the region-parallel sweep and prune of `@sieve/core/parallel`
 * (`new ParallelSweepAndPrune({ dimensions: 2, workers })`) without this package importing them, so a
 * bundle holds only the broadphases its page imports.
 *
 * Checking and building are separate: {@link checkBroadphase} reads the options and throws on a bad
 * one before anything is built or changed, {@link buildBroadphase} then builds what was checked.
 */
import { type Broadphase, checkOptionKeys, SWEEP_AND_PRUNE_OPTION_KEYS, SweepAndPrune } from '@sieve/core';
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

/** How to run the detector on worker threads, for the errors that meet the removed `'parallel'`. */
const PARALLEL_HINT =
  "pass broadphase: new ParallelSweepAndPrune({ dimensions: 2, workers, ... }) from '@sieve/core/parallel' " +
  '(an instance you own: call its dispose() after uninstallSieve)';

/** How to run the detector on the octree, for the errors that meet the removed `'octree'`. */
const OCTREE_HINT =
  "pass broadphase: new Octree({ dimensions: 2, ... }) from '@sieve/core' (its options there), so that " +
  'only pages that import the octree ship it';

/** A checked `SieveOptions.broadphase`: the name of one the adapter builds, or the caller's instance. */
export type BroadphaseChoice = 'sap' | Broadphase;

/**
 * Checks `options.broadphase` (and `options.parallel`, `options.sap`, `options.octree` with it) without
 * building or changing anything. `inUse` holds the caller-owned instances already serving an engine.
 * Throws a `TypeError` or `RangeError` naming the option.
 */
export function checkBroadphase(options: SieveOptions, inUse: WeakSet<object>): BroadphaseChoice {
  const where = 'installSieve: options.broadphase';
  const parallel = (options as { parallel?: unknown }).parallel;
  if (parallel !== undefined) {
    throw new RangeError(`installSieve: options.parallel is not supported; ${PARALLEL_HINT}`);
  }
  if (options.octree !== undefined) {
    throw new TypeError(`installSieve: options.octree is not supported; ${OCTREE_HINT}`);
  }
  const value: unknown = options.broadphase ?? 'sap';
  if (value === 'sap') {
    checkOptionKeys('installSieve: options.sap', options.sap, SAP_KEYS);
    return value;
  }
  if (value === 'parallel') {
    throw new RangeError(`${where}: 'parallel' is not supported; ${PARALLEL_HINT}`);
  }
  if (value === 'octree') {
    throw new RangeError(`${where}: 'octree' is not built by name; ${OCTREE_HINT}`);
  }
  if (typeof value === 'string') {
    throw new RangeError(`${where} must be 'sap' or a Broadphase instance, got '${value}'`);
  }
  if (typeof value !== 'object') {
    throw new TypeError(`${where} must be 'sap' or a Broadphase instance, got ${String(value)}`);
  }
  const bp = value as Record<string, unknown>;
  for (const method of CONTRACT_METHODS) {
    if (typeof bp[method] !== 'function') {
      throw new TypeError(
        `${where} must be 'sap' or an object implementing the Broadphase contract of @sieve/core (missing ${method}())`,
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
  if (inUse.has(bp)) {
    throw new Error(`${where} already serves another engine's Sieve detector (uninstallSieve it first)`);
  }
  if (options.sap !== undefined) {
    throw new TypeError(
      'installSieve: options.sap configures a broadphase the adapter builds; ' +
        'with a Broadphase instance as options.broadphase, configure the instance when you construct it',
    );
  }
  return value as Broadphase;
}

/** The keys of `options.sap`: the sweep and prune's, but `dimensions` (always 2); values by its constructor. */
const SAP_KEYS = SWEEP_AND_PRUNE_OPTION_KEYS.filter((k) => k !== 'dimensions');

/** Builds the broadphase {@link checkBroadphase} chose; `owned`: built here (the adapter's own). */
export function buildBroadphase(
  choice: BroadphaseChoice,
  options: SieveOptions,
): { broadphase: Broadphase; owned: boolean } {
  if (choice === 'sap') {
    return { broadphase: new SweepAndPrune({ ...options.sap, dimensions: 2 }), owned: true };
  }
  return { broadphase: choice, owned: false };
}

/**
 * Lets go of a broadphase the adapter built: disposes it when it has a `dispose()` (the
 * `SweepAndPrune` holds no threads or other resources today). Never called for an instance
 * the caller passed — that one is the caller's to dispose.
 */
export function releaseOwnBroadphase(broadphase: Broadphase): void {
  const dispose = (broadphase as { dispose?: unknown }).dispose;
  if (typeof dispose === 'function') dispose.call(broadphase);
}
