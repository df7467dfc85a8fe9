// Public API of the bvh module: the packed triangle BVH, its queries and the triangle tests.
// The single-tree walk (shapecast.ts), the closest point of a triangle and the affine-transform reader
// are public for the adapters' own queries (capsule and closest-point casts). Internals — the node
// layout and its accessors (nodes.ts), the triangle records of the mesh–mesh test, build and refit
// passes, input-check helpers — are imported by path inside core. Marked `@internal`: the plain tree
// (`buildMeshTree`, `MeshTree`, `meshBVHFromTree`) and its query forms (`meshMeshTriangles`,
// `meshObbQuery`), for an adapter that builds and queries trees without bundling the `MeshBVH` class.
export { type Affine, affineFromMatrix4, affineInvert } from './affine.js';
export type { BuildOptions, SplitStrategy } from './build.js';
export type { TriangleIndex } from './checks.js';
export { MeshContacts } from './contacts.js';
export { MeshBVH, meshBVHFromTree } from './MeshBVH.js';
export {
  MeshMeshResult,
  meshMeshBruteForce,
  meshMeshIntersects,
  meshMeshPairs,
  meshMeshTriangles,
} from './meshMesh.js';
export { meshObbBruteForce, meshObbContacts, meshObbIntersects, meshObbQuery } from './meshObb.js';
export { meshSphereBruteForce, meshSphereContacts, meshSphereIntersects } from './meshSphere.js';
export { RayHit, RayHits, raycastAll, raycastBruteForce, raycastFirst } from './raycast.js';
export { type BvhCast, CUTOFF, KEY, shapecast } from './shapecast.js';
export { buildMeshTree, type MeshTree } from './tree.js';
export { closestPointOnTriangle, isDegenerateTriangle, isDegenerateTriangleAt } from './triangle.js';
export { TRI_EPS, triangleTriangleIntersect } from './triTri.js';
