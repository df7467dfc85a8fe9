/**
 * The parallel broadphase of the matter-js adapter: `installSieve(engine, { broadphase: 'parallel' })`
 * keeps the proxies in `@sieve/core/parallel`'s region-parallel sweep and prune (the sweep-and-prune
 * notes, §2: space cut into regions, each region's sequential sweep and prune on its own worker thread,
 * merged into the very pair lists of the sequential one), so the collisions stay those of stock
 * matter-js, bit for bit.
 *
 * matter-js's `Engine.update` is synchronous, so the detector waits for the regions with a blocking
 * update (`Atomics.wait`): allowed in Node and inside a Web Worker, not on a browser page's main thread
 * (where `update` throws). Run the engine in a worker there. Without `SharedArrayBuffer` (a page that is
 * not cross-origin isolated) the regions run on the calling thread, with the same results, and the
 * broadphase says so once (`fallbackReason`).
 */
import type { Broadphase } from '@sieve/core';
import { ParallelSweepAndPrune, type ParallelSweepAndPruneOptions } from '@sieve/core/parallel';

/**
 * Options of the parallel broadphase (`SieveOptions.parallel`): `workers` (regions, one thread each),
 * a shared `pool`, the `workerUrl` of `@sieve/core/parallel-worker` when a bundler does not find it,
 * `minBoxesPerRegion` (below this many bodies per region one region holds everything)...
 */
export type ParallelBroadphaseOptions = Omit<ParallelSweepAndPruneOptions, 'dimensions'>;

/** A 2-D ParallelSweepAndPrune for the matter-js detector. */
export function createParallelBroadphase(
  options: ParallelBroadphaseOptions | undefined,
): ParallelSweepAndPrune {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`installSieve: options.parallel must be an object, got ${String(options)}`);
  }
  return new ParallelSweepAndPrune({ ...options, dimensions: 2 });
}

/** Stops the worker threads of a parallel broadphase (others need nothing). */
export function disposeBroadphase(broadphase: Broadphase): void {
  if (broadphase instanceof ParallelSweepAndPrune) broadphase.dispose();
}

export { ParallelSweepAndPrune };
