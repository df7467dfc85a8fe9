// Public API of the bvh module: the packed triangle BVH, its queries and the triangle tests.
// The single-tree walk (shapecast.ts), the closest point of a triangle and the affine-transform reader
// are public for the adapters' own queries (capsule and closest-point casts). Internals — the node
// layout and its accessors (nodes.ts), the triangle records of the mesh–mesh test, build and refit
// passes, input-check helpers — are imported by path inside core.
export { type Affine, affineFromMatrix4, affineInvert } from './affine.js';
export type { BuildOptions, SplitStrategy } from './build.js';
export type { TriangleIndex } from './checks.js';
export { MeshContacts } from './contacts.js';
export { MeshBVH } from './MeshBVH.js';
export { MeshMeshResult, meshMeshBruteForce, meshMeshIntersects, meshMeshPairs } from './meshMesh.js';
export { meshObbBruteForce, meshObbContacts, meshObbIntersects } from './meshObb.js';
export { meshSphereBruteForce, meshSphereContacts, meshSphereIntersects } from './meshSphere.js';
export { RayHit, RayHits, raycastAll, raycastBruteForce, raycastFirst } from './raycast.js';
export { type BvhCast, CUTOFF, KEY, shapecast } from './shapecast.js';
export { closestPointOnTriangle, isDegenerateTriangle, isDegenerateTriangleAt } from './triangle.js';
export { TRI_EPS, triangleTriangleIntersect } from './triTri.js';
