// Public API of the bvh module: the packed triangle BVH, its queries and the triangle tests.
// Internals — the node layout and its accessors (nodes.ts), the single-tree walk (shapecast.ts), the
// triangle records of the mesh–mesh test, build and refit passes, affine and input-check helpers — are
// imported by path inside core.
export type { BuildOptions, SplitStrategy } from './build.js';
export type { TriangleIndex } from './checks.js';
export { MeshContacts } from './contacts.js';
export { MeshBVH } from './MeshBVH.js';
export { MeshMeshResult, meshMeshBruteForce, meshMeshIntersects, meshMeshPairs } from './meshMesh.js';
export { meshObbBruteForce, meshObbContacts, meshObbIntersects } from './meshObb.js';
export { meshSphereBruteForce, meshSphereContacts, meshSphereIntersects } from './meshSphere.js';
export { RayHit, RayHits, raycastAll, raycastBruteForce, raycastFirst } from './raycast.js';
export { isDegenerateTriangle } from './triangle.js';
export { TRI_EPS, triangleTriangleIntersect } from './triTri.js';
