// The octree broadphase: `Octree.ts` is the public class; the layers below it are storage
// (`store.ts`), placement (`placement.ts`), candidate pairs (`pairs.ts`, over `candidatePairs.ts`) and
// the invariant walk (`invariants.ts`); node segments are `segments.ts`.
export { OCTREE_OPTION_KEYS, Octree, type OctreeOptions, type OctreeStats } from './Octree.js';
