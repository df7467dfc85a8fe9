/**
 * The region-partitioned sweep and prune: `SweepAndPrune` and its options. The files of this folder,
 * one concept each, are listed in state.ts.
 */
export { SWEEP_AND_PRUNE_OPTION_KEYS, type SweepAndPruneOptions } from './options.js';
export { SweepAndPrune } from './SweepAndPrune.js';
