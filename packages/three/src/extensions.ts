/**
 * The three-mesh-bvh extension functions, same names and signatures (`src/utils/ExtensionUtilities.js`):
 * `computeBoundsTree` / `disposeBoundsTree` for `BufferGeometry`, `acceleratedRaycast` for `Mesh`,
 * `InstancedMesh` and `BatchedMesh`, `computeBatchedBoundsTree` / `disposeBatchedBoundsTree` for
 * `BatchedMesh`. Nothing is patched on import (the package has no side effects): the user assigns them
 * to three.js's prototypes, as with three-mesh-bvh.
 *
 * `acceleratedRaycast` returns what three.js's own `raycast` of the object returns (see
 * `raycast/meshRaycast.ts`); with `raycaster.firstHitOnly`, only the first of those hits per mesh (per
 * instance for instanced and batched meshes, as three-mesh-bvh). Without a bounds tree, or where the
 * tree cannot answer exactly, it runs three.js's own method.
 */
import {
  type BatchedMesh,
  Box3,
  type BufferGeometry,
  type InstancedMesh,
  type Intersection,
  Line,
  type Material,
  Matrix4,
  Mesh,
  Points,
  type Raycaster,
  SkinnedMesh,
  Sphere,
} from 'three';
import { BoundsTree, type BoundsTreeOptions } from './boundsTree.js';
import { type MeshCast, raycastMesh } from './raycast/meshRaycast.js';

// three.js's own methods, read once (no patching here): the fallbacks.
const stockMeshRaycast = Mesh.prototype.raycast;
const stockSkinnedRaycast = SkinnedMesh.prototype.raycast;
const stockLineRaycast = Line.prototype.raycast;
const stockPointsRaycast = Points.prototype.raycast;

/**
 * A geometry's `boundsTree` slot, typed loosely: three-mesh-bvh's declarations (a user migrating may
 * have both) augment `BufferGeometry.boundsTree` with their own type.
 */
interface TreeSlot {
  boundsTree?: unknown;
}

/**
 * Builds a {@link BoundsTree} for this geometry and stores it as `geometry.boundsTree` (returned too).
 * Assign it to three.js's prototype once:
 *
 * ```ts
 * import * as THREE from 'three';
 * import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from '@sieve/three';
 *
 * THREE.BufferGeometry.prototype.computeBoundsTree = computeBoundsTree;
 * THREE.BufferGeometry.prototype.disposeBoundsTree = disposeBoundsTree;
 * THREE.Mesh.prototype.raycast = acceleratedRaycast;
 *
 * const mesh = new THREE.Mesh(new THREE.TorusKnotGeometry(1, 0.3, 200, 32), new THREE.MeshBasicMaterial());
 * mesh.geometry.computeBoundsTree();
 * const raycaster = new THREE.Raycaster(new THREE.Vector3(0, 0, 5), new THREE.Vector3(0, 0, -1));
 * const hits = raycaster.intersectObject(mesh); // exactly what three.js's own Mesh.raycast returns
 *
 * // TypeScript: the added members, declared in your project (not shipped, so that three-mesh-bvh's
 * // declarations of the same members never clash with these while you migrate).
 * declare module 'three' {
 *   interface BufferGeometry {
 *     computeBoundsTree: typeof computeBoundsTree;
 *     disposeBoundsTree: typeof disposeBoundsTree;
 *   }
 *   interface Raycaster {
 *     firstHitOnly?: boolean;
 *   }
 * }
 * ```
 */
export function computeBoundsTree(this: BufferGeometry, options?: BoundsTreeOptions): BoundsTree {
  const tree = new BoundsTree(this, options);
  (this as unknown as TreeSlot).boundsTree = tree;
  return tree;
}

/** Drops `geometry.boundsTree` (raycasts go back to three.js's own loop). */
export function disposeBoundsTree(this: BufferGeometry): void {
  (this as unknown as TreeSlot).boundsTree = null;
}

/** Private fields of `BatchedMesh` read by its raycast (three.js r170+). */
interface BatchedInternals {
  _instanceInfo: Array<{ visible: boolean; active: boolean; geometryIndex: number }>;
  _geometryInfo: Array<{ start: number; count: number }>;
  _geometryCount: number;
}

/** `BatchedMesh.boundsTrees` (loosely typed, as {@link TreeSlot}). */
function treesOf(bm: BatchedMesh): Array<unknown> | undefined {
  return (bm as unknown as { boundsTrees?: Array<unknown> }).boundsTrees;
}

/**
 * For `BatchedMesh`: builds a {@link BoundsTree} per geometry of the batch (over that geometry's range
 * of the shared buffers) into `batchedMesh.boundsTrees`. With `index` ≥ 0 only that geometry's tree is
 * (re)built and returned, else all of them (the array is returned). Call it again after
 * `setGeometryAt` or `optimize` moved a geometry; a tree whose range no longer matches is not used.
 *
 * ```ts
 * import * as THREE from 'three';
 * import { acceleratedRaycast, computeBatchedBoundsTree, disposeBatchedBoundsTree } from '@sieve/three';
 *
 * THREE.BatchedMesh.prototype.computeBoundsTree = computeBatchedBoundsTree;
 * THREE.BatchedMesh.prototype.disposeBoundsTree = disposeBatchedBoundsTree;
 * THREE.BatchedMesh.prototype.raycast = acceleratedRaycast;
 *
 * const batched = new THREE.BatchedMesh(10, 5000, 15000, new THREE.MeshBasicMaterial());
 * batched.addInstance(batched.addGeometry(new THREE.TorusKnotGeometry()));
 * batched.computeBoundsTree(); // one tree per geometry of the batch
 *
 * declare module 'three' {
 *   interface BatchedMesh {
 *     computeBoundsTree: typeof computeBatchedBoundsTree;
 *     disposeBoundsTree: typeof disposeBatchedBoundsTree;
 *   }
 * }
 * ```
 */
export function computeBatchedBoundsTree(
  this: BatchedMesh,
  index = -1,
  options: BoundsTreeOptions = {},
): BoundsTree | Array<BoundsTree | null> | null {
  const self = this as unknown as BatchedInternals;
  if (options && (options as BoundsTreeOptions).range !== undefined) {
    throw new TypeError('computeBatchedBoundsTree: options.range is set per geometry; do not pass it');
  }
  const infos = self._geometryInfo;
  const count = self._geometryCount ?? infos.length;
  if (!treesOf(this))
    (this as unknown as { boundsTrees: unknown[] }).boundsTrees = new Array(count).fill(null);
  const trees = treesOf(this) as Array<BoundsTree | null>;
  while (trees.length < count) trees.push(null);
  const buildAt = (g: number): BoundsTree | null => {
    const info = infos[g];
    if (!info || (info as { active?: boolean }).active === false || info.start < 0) return null;
    return new BoundsTree(this.geometry, { ...options, setBoundingBox: false, range: info });
  };
  if (index < 0) {
    for (let g = 0; g < count; g++) trees[g] = buildAt(g);
    return trees;
  }
  if (!Number.isInteger(index) || index >= count) {
    throw new RangeError(`computeBatchedBoundsTree: index ${index} is not a geometry of this BatchedMesh`);
  }
  trees[index] = buildAt(index);
  return trees[index];
}

/** For `BatchedMesh`: drops the tree of geometry `index`, or all of them when `index` < 0. */
export function disposeBatchedBoundsTree(this: BatchedMesh, index = -1): void {
  const trees = treesOf(this);
  if (!trees) return;
  if (index < 0) trees.fill(null);
  else if (index < trees.length) trees[index] = null;
}

/** `Raycaster` with three-mesh-bvh's `firstHitOnly` flag. */
type FirstHitRaycaster = Raycaster & { firstHitOnly?: boolean };

const meshCast: MeshCast = {
  object: null as unknown as Mesh,
  matrixWorld: new Matrix4(),
  material: null as unknown as Material,
  geometry: null as unknown as BufferGeometry,
  drawStart: 0,
  drawCount: Infinity,
  sphere: new Sphere(),
  box: null,
};
const fallbackHits: Intersection[] = [];

/**
 * A drop-in for `Mesh.prototype.raycast` (and `InstancedMesh`'s, `BatchedMesh`'s): three.js's result,
 * found through the geometry's {@link BoundsTree}. Honours `raycaster.firstHitOnly` (three-mesh-bvh's
 * flag: only the nearest hit of each mesh or instance), `near`/`far`, draw ranges, groups and material
 * sides. See {@link computeBoundsTree} for the setup.
 *
 * @example
 * ```ts
 * import * as THREE from 'three';
 * import { acceleratedRaycast, computeBoundsTree } from '@sieve/three';
 *
 * THREE.Mesh.prototype.raycast = acceleratedRaycast; // every mesh, once
 * const geometry = new THREE.SphereGeometry(1, 64, 32);
 * computeBoundsTree.call(geometry); // or geometry.computeBoundsTree() with the prototype set up
 * const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial());
 * mesh.updateMatrixWorld();
 * const raycaster = new THREE.Raycaster(new THREE.Vector3(0, 0, 5), new THREE.Vector3(0, 0, -1));
 * const [first] = raycaster.intersectObject(mesh); // three.js's own result, through the tree
 * console.log(first.distance, first.faceIndex); // about 4 (a facet of the sphere), and its triangle
 * (raycaster as THREE.Raycaster & { firstHitOnly?: boolean }).firstHitOnly = true; // nearest hit only
 * ```
 */
export function acceleratedRaycast(
  this: Mesh | InstancedMesh | BatchedMesh,
  raycaster: Raycaster,
  intersects: Intersection[],
): void {
  if ((this as BatchedMesh).isBatchedMesh) {
    batchedRaycast(this as BatchedMesh, raycaster, intersects);
  } else if ((this as InstancedMesh).isInstancedMesh) {
    instancedRaycast(this as InstancedMesh, raycaster, intersects);
  } else if ((this as SkinnedMesh).isSkinnedMesh) {
    stockSkinnedRaycast.call(this as SkinnedMesh, raycaster, intersects);
  } else if ((this as unknown as Line).isLine) {
    // Lines and points (three-mesh-bvh falls back to their own raycast too): LineSegments and LineLoop
    // inherit Line's, which reads their step from the object.
    stockLineRaycast.call(this as unknown as Line, raycaster, intersects);
  } else if ((this as unknown as Points).isPoints) {
    stockPointsRaycast.call(this as unknown as Points, raycaster, intersects);
  } else {
    meshRaycast(this as Mesh, raycaster, intersects);
  }
}

/** One mesh: its geometry's tree, or three.js's loop (with `firstHitOnly` applied to its result). */
function meshRaycast(mesh: Mesh, raycaster: FirstHitRaycaster, intersects: Intersection[]): void {
  const geometry = mesh.geometry;
  const material = mesh.material;
  if (material === undefined) return;
  const tree = (geometry as unknown as TreeSlot).boundsTree;
  const morphed = geometry.morphAttributes.position !== undefined && mesh.morphTargetInfluences !== undefined;
  if (tree instanceof BoundsTree && !morphed && tree.rangeStart === 0) {
    if (geometry.boundingSphere === null) geometry.computeBoundingSphere();
    const c = meshCast;
    c.object = mesh;
    c.matrixWorld = mesh.matrixWorld;
    c.material = material;
    c.geometry = geometry;
    c.drawStart = geometry.drawRange.start;
    c.drawCount = geometry.drawRange.count;
    c.sphere = geometry.boundingSphere as Sphere;
    c.box = geometry.boundingBox;
    if (raycastMesh(tree, c, raycaster, intersects, raycaster.firstHitOnly === true)) return;
  }
  stockRaycast(mesh, raycaster, intersects);
}

/** three.js's `Mesh.raycast`, reduced to its first hit when `raycaster.firstHitOnly` is set. */
function stockRaycast(mesh: Mesh, raycaster: FirstHitRaycaster, intersects: Intersection[]): void {
  if (raycaster.firstHitOnly !== true) {
    stockMeshRaycast.call(mesh, raycaster, intersects);
    return;
  }
  fallbackHits.length = 0;
  stockMeshRaycast.call(mesh, raycaster, fallbackHits);
  if (fallbackHits.length > 0) {
    // Stable: the first of equal distances is the earliest in three.js's loop.
    fallbackHits.sort((a, b) => a.distance - b.distance);
    intersects.push(fallbackHits[0]);
  }
  fallbackHits.length = 0;
}

const _instanceSphere = new Sphere();
const _instanceLocal = new Matrix4();
const _instanceWorld = new Matrix4();
const instanceHits: Intersection[] = [];
// Scratch meshes are made on first use, not on import: an Object3D made at load would shift the ids
// of the user's objects.
let _instanceMesh: Mesh | null = null;
let _batchMesh: Mesh | null = null;

/** three.js's `InstancedMesh.raycast`, each instance cast as a mesh (see {@link meshRaycast}). */
function instancedRaycast(im: InstancedMesh, raycaster: Raycaster, intersects: Intersection[]): void {
  const matrixWorld = im.matrixWorld;
  _instanceMesh ??= new Mesh();
  const mesh = _instanceMesh;
  mesh.geometry = im.geometry;
  mesh.material = im.material;
  if (mesh.material === undefined) return;
  if (im.boundingSphere === null) im.computeBoundingSphere();
  _instanceSphere.copy(im.boundingSphere as Sphere);
  _instanceSphere.applyMatrix4(matrixWorld);
  if (raycaster.ray.intersectsSphere(_instanceSphere) === false) return;
  for (let instanceId = 0; instanceId < im.count; instanceId++) {
    im.getMatrixAt(instanceId, _instanceLocal);
    _instanceWorld.multiplyMatrices(matrixWorld, _instanceLocal);
    mesh.matrixWorld = _instanceWorld;
    meshRaycast(mesh, raycaster, instanceHits);
    for (let i = 0; i < instanceHits.length; i++) {
      const hit = instanceHits[i];
      hit.instanceId = instanceId;
      hit.object = im;
      intersects.push(hit);
    }
    instanceHits.length = 0;
  }
}

const _batchBox = new Box3();
const _batchSphere = new Sphere();
const batchHits: Intersection[] = [];

/** three.js's `BatchedMesh.raycast`, each instance cast on its geometry's tree when it has one. */
function batchedRaycast(bm: BatchedMesh, raycaster: FirstHitRaycaster, intersects: Intersection[]): void {
  const self = bm as unknown as BatchedInternals;
  const trees = treesOf(bm);
  const instanceInfo = self._instanceInfo;
  const geometryInfo = self._geometryInfo;
  const batchGeometry = bm.geometry;
  // three.js's raycast mesh: a separate geometry sharing the batch's index and attributes (no groups).
  _batchMesh ??= new Mesh();
  const mesh = _batchMesh;
  mesh.material = bm.material;
  mesh.geometry.index = batchGeometry.index;
  mesh.geometry.attributes = batchGeometry.attributes;
  if (mesh.geometry.boundingBox === null) mesh.geometry.boundingBox = new Box3();
  if (mesh.geometry.boundingSphere === null) mesh.geometry.boundingSphere = new Sphere();
  const c = meshCast;
  for (let i = 0, l = instanceInfo.length; i < l; i++) {
    if (!instanceInfo[i].visible || !instanceInfo[i].active) continue;
    const geometryId = instanceInfo[i].geometryIndex;
    const info = geometryInfo[geometryId];
    mesh.geometry.setDrawRange(info.start, info.count);
    bm.getMatrixAt(i, mesh.matrixWorld).premultiply(bm.matrixWorld);
    bm.getBoundingBoxAt(geometryId, mesh.geometry.boundingBox as Box3);
    bm.getBoundingSphereAt(geometryId, mesh.geometry.boundingSphere as Sphere);
    const tree = trees ? trees[geometryId] : null;
    let done = false;
    if (
      tree instanceof BoundsTree &&
      tree.geometry === batchGeometry &&
      tree.rangeStart === info.start &&
      tree.rangeCount === info.count
    ) {
      c.object = bm;
      c.matrixWorld = mesh.matrixWorld;
      c.material = bm.material;
      c.geometry = mesh.geometry;
      c.drawStart = info.start;
      c.drawCount = info.count;
      c.sphere = _batchSphere.copy(mesh.geometry.boundingSphere as Sphere);
      c.box = _batchBox.copy(mesh.geometry.boundingBox as Box3);
      done = raycastMesh(tree, c, raycaster, batchHits, raycaster.firstHitOnly === true);
    }
    if (!done) {
      stockRaycast(mesh, raycaster, batchHits);
      for (const hit of batchHits) hit.object = bm;
    }
    for (let j = 0; j < batchHits.length; j++) {
      const hit = batchHits[j];
      hit.batchId = i;
      intersects.push(hit);
    }
    batchHits.length = 0;
  }
  mesh.material = null as unknown as Material;
  mesh.geometry.index = null;
  mesh.geometry.attributes = {};
  mesh.geometry.setDrawRange(0, Infinity);
}
