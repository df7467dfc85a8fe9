/**
 * @sieve/three — Sieve's triangle BVH for three.js.
 *
 * - `computeBoundsTree` / `disposeBoundsTree` / `acceleratedRaycast` (and the `BatchedMesh`
 *   variants): three-mesh-bvh's extension functions, answering exactly what three.js's own raycast
 *   answers (`extensions.ts`, `raycast/`).
 * - `BoundsTree`: the tree on `geometry.boundsTree` (`boundsTree.ts`).
 */
export { BoundsTree, type BoundsTreeOptions, type BoundsTreeRange } from './boundsTree.js';
export {
  CharacterController,
  type CharacterControllerOptions,
  CharacterMove,
  CollisionKind,
  MAX_COLLISIONS,
} from './character/index.js';
export {
  acceleratedRaycast,
  computeBatchedBoundsTree,
  computeBoundsTree,
  disposeBatchedBoundsTree,
  disposeBoundsTree,
} from './extensions.js';
export {
  boxContacts,
  CapsuleCastHit,
  type CapsuleLike,
  type CapsulePush,
  capsuleCast,
  capsuleContacts,
  capsuleIntersect,
  closestPointToPoint,
  type HitPointInfo,
  intersectsBox,
  intersectsCapsule,
  intersectsSphere,
  MeshContacts,
  MeshMeshResult,
  meshesIntersect,
  meshTrianglePairs,
  type PointLike,
  sphereContacts,
} from './meshQueries.js';
