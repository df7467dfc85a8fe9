// Public API of the broadphase module.
export { BruteForce } from './bruteForce.js';
export { OCTREE_OPTION_KEYS, Octree, type OctreeOptions, type OctreeStats } from './octree/index.js';
export { PairLists } from './pairLists.js';
export { PairSet } from './pairSet.js';
export { checkBounds, MAX_PROXIES, SLOT_MASK } from './proxies.js';
export { SWEEP_AND_PRUNE_OPTION_KEYS, SweepAndPrune, type SweepAndPruneOptions } from './sap/index.js';
export { sortPairs } from './sortPairs.js';
export {
  BROADPHASE_OPTION_KEYS,
  type Broadphase,
  type BroadphaseOptions,
  type Dimensions,
  type PairBuffers,
  type QueryCallback,
} from './types.js';
