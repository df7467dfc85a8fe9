// Public API of the bvh module: the packed triangle BVH, its queries and the triangle tests.
// Internal helpers (build and refit passes, affine and validation utilities) are imported by path.
export type { Affine } from './affine.js';
export type { BuildOptions, SplitStrategy } from './build.js';
export { MeshContacts } from './contacts.js';
export { MeshBVH } from './MeshBVH.js';
export {
  CULL_EPS,
  MeshMeshResult,
  meshMeshBruteForce,
  meshMeshIntersects,
  meshMeshPairs,
  relativeTransform,
} from './meshMesh.js';
export { meshObbBruteForce, meshObbContacts, meshObbIntersects } from './meshObb.js';
export { meshSphereBruteForce, meshSphereContacts, meshSphereIntersects } from './meshSphere.js';
export {
  isLeaf,
  leafCount,
  leafOffset,
  NODE_BYTES,
  NODE_WORDS,
  nodeBase,
  rightChild,
  splitAxis,
} from './nodes.js';
export { RayHit, RayHits, raycastAll, raycastBruteForce, raycastFirst } from './raycast.js';
export { isDegenerateTriangle } from './triangle.js';
export {
  isDegenerateRecord,
  setTriangleRecord,
  TRI_EPS,
  TRI_RECORD,
  triangleTriangleIntersect,
  triTriRecords,
} from './triTri.js';
export { type TriangleIndex, validateMesh } from './validate.js';
