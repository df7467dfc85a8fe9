/**
 * `@sieve/core/parallel` — the region-parallel sweep and prune of the sweep-and-prune notes, §2:
 * regions of space, each running Sieve's sequential SweepAndPrune on its own worker thread, merged
 * into the exact pair lists of the sequential broadphase. A separate entry point, so the root entry
 * of `@sieve/core` stays free of worker code; its worker script is `@sieve/core/parallel-worker`.
 *
 * @packageDocumentation
 */
export { type ParallelMode, ParallelSweepAndPrune } from './host.js';
export type { ParallelSweepAndPruneOptions, WorkerPoolOptions } from './options.js';
export { hardwareThreads, WorkerPool } from './pool.js';
