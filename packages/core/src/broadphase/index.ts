// Public API of the broadphase module.
export { BruteForce } from './bruteForce.js';
export { Octree, type OctreeOptions, type OctreeStats } from './octree/index.js';
export { PairSet } from './pairSet.js';
export { checkBounds, MAX_PROXIES, SLOT_MASK } from './proxies.js';
export { SweepAndPrune, type SweepAndPruneOptions } from './sap/index.js';
export { sortPairs } from './sortPairs.js';
export type { Broadphase, BroadphaseOptions, Dimensions, PairBuffers, QueryCallback } from './types.js';
