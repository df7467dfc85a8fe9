/**
 * Which broadphase holds the matter-js adapter's proxies (`SieveOptions.broadphase`): one the adapter
 * builds from a name (`'sap'`, `'octree'`), or a `Broadphase` instance the caller built and owns — the
 * way to run the detector on the region-parallel sweep and prune of `@sieve/core/parallel`
 * (`new ParallelSweepAndPrune({ dimensions: 2, workers })`) without this package importing it, so a
 * bundle that never asks for worker threads never ships them.
 *
 * Checking and building are separate: {@link checkBroadphase} reads the options and throws on a bad
 * one before anything is built or changed, {@link buildBroadphase} then builds what was checked.
 */
import { type Broadphase, Octree, SweepAndPrune } from '@sieve/core';
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

/** A checked `SieveOptions.broadphase`: the name of one the adapter builds, or the caller's instance. */
export type BroadphaseChoice = 'sap' | 'octree' | Broadphase;

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
  const value: unknown = options.broadphase ?? 'sap';
  if (value === 'sap' || value === 'octree') return value;
  if (value === 'parallel') {
    throw new RangeError(`${where}: 'parallel' is not supported; ${PARALLEL_HINT}`);
  }
  if (typeof value === 'string') {
    throw new RangeError(`${where} must be 'sap', 'octree' or a Broadphase instance, got '${value}'`);
  }
  if (typeof value !== 'object') {
    throw new TypeError(`${where} must be 'sap', 'octree' or a Broadphase instance, got ${String(value)}`);
  }
  const bp = value as Record<string, unknown>;
  for (const method of CONTRACT_METHODS) {
    if (typeof bp[method] !== 'function') {
      throw new TypeError(
        `${where} must be 'sap', 'octree' or an object implementing the Broadphase contract of @sieve/core (missing ${method}())`,
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
  if (options.sap !== undefined || options.octree !== undefined) {
    throw new TypeError(
      `installSieve: options.${options.sap !== undefined ? 'sap' : 'octree'} configures a broadphase the adapter builds; ` +
        'with a Broadphase instance as options.broadphase, configure the instance when you construct it',
    );
  }
  return value as Broadphase;
}

/** Builds the broadphase {@link checkBroadphase} chose; `owned`: built here (the adapter's own). */
export function buildBroadphase(
  choice: BroadphaseChoice,
  options: SieveOptions,
): { broadphase: Broadphase; owned: boolean } {
  if (choice === 'sap') {
    return { broadphase: new SweepAndPrune({ ...options.sap, dimensions: 2 }), owned: true };
  }
  if (choice === 'octree') {
    return { broadphase: new Octree({ ...options.octree, dimensions: 2 }), owned: true };
  }
  return { broadphase: choice, owned: false };
}

/**
 * Lets go of a broadphase the adapter built: disposes it when it has a `dispose()` (neither
 * `SweepAndPrune` nor `Octree` holds threads or other resources today). Never called for an instance
 * the caller passed — that one is the caller's to dispose.
 */
export function releaseOwnBroadphase(broadphase: Broadphase): void {
  const dispose = (broadphase as { dispose?: unknown }).dispose;
  if (typeof dispose === 'function') dispose.call(broadphase);
}
