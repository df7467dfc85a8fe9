/**
 * `Mesh.raycast` on a bounds tree: three.js's own method (`src/objects/Mesh.js`: `raycast`,
 * `_computeIntersections`, `checkGeometryIntersection`, `checkIntersection`) with its triangle loop
 * replaced by a BVH walk, so that it returns the same intersections — same set, same push order (the
 * loop's), same `distance`, `point`, `face`, `faceIndex`, `uv`, `uv1`, `normal` and `barycoord`,
 * bit for bit.
 *
 * Kept from three.js as is, through three.js's own objects: the bounding-sphere early out in world
 * space (with `near`/`far`), the ray taken into the mesh's frame by the inverse world matrix, the
 * local bounding-box early out. Per hit, the attribute interpolation and face normal are three.js's
 * `Triangle` functions on the same vertex values. What the tree cannot represent exactly — morph
 * targets, a projective or singular world matrix, a non-finite ray, non-float32 positions, a draw
 * range or group that starts inside a triangle or reaches past the tree — returns `false` and the
 * caller runs three.js's own loop.
 *
 * `firstOnly` (three-mesh-bvh's `Raycaster.firstHitOnly`) pushes only the hit three.js's sorted list
 * would start with: the smallest distance, ties to the earlier triangle in three.js's loop.
 */
import {
  type Box3,
  type BufferAttribute,
  type BufferGeometry,
  type InterleavedBufferAttribute,
  type Intersection,
  type Material,
  type Matrix4,
  type Object3D,
  type Raycaster,
  type Sphere,
  Vector3,
} from 'three';
import type { BoundsTree } from '../boundsTree.js';
import { hitObject } from './hitObject.js';
import { PRELUDE_MISS, prelude } from './prelude.js';
import { RAY } from './rayTriangle.js';
import { computeFilter, FILTER, FILTER_FALLBACK, FILTER_GROUPS } from './triangleFilter.js';
import {
  BEST,
  C_FAR,
  C_NEAR,
  C_SCALE,
  C_WORLD_ORIGIN,
  CAST,
  HITS,
  setupWalk,
  walkAll,
  walkFirst,
} from './walks.js';

const _vA = new Vector3();
const _vB = new Vector3();
const _vC = new Vector3();
const _localPoint = new Vector3();

type Attribute = BufferAttribute | InterleavedBufferAttribute;

/** What one mesh-level raycast reads: three.js's `Mesh.raycast` inputs, spelled out. */
export interface MeshCast {
  /** The object written to each intersection's `object`. */
  object: Object3D;
  /** The world matrix the geometry is placed by. */
  matrixWorld: Matrix4;
  /** The mesh's material or materials. */
  material: Material | Material[];
  /** The geometry (attributes, index, groups, draw range). */
  geometry: BufferGeometry;
  /** Draw range start and count (a `BatchedMesh` instance's, or the geometry's). */
  drawStart: number;
  drawCount: number;
  /** Local bounding sphere (as `geometry.boundingSphere`) and box (`null`: no box test). */
  sphere: Sphere;
  box: Box3 | null;
}

/**
 * Runs three.js's `Mesh.raycast` for `cast` on `tree`, pushing intersections to `intersects`. Returns
 * `false`, having pushed nothing, when the tree cannot answer exactly: the caller then runs three.js's
 * own method.
 */
export function raycastMesh(
  tree: BoundsTree,
  cast: MeshCast,
  raycaster: Raycaster,
  intersects: Intersection[],
  firstOnly: boolean,
): boolean {
  tree.update();
  if (!tree.exact) return false;
  const { geometry, matrixWorld } = cast;
  const e = matrixWorld.elements;
  if (e[3] !== 0 || e[7] !== 0 || e[11] !== 0 || e[15] !== 1) return false;
  const index = geometry.index;
  const position = geometry.attributes.position as Attribute | undefined;
  if (!position) return false;
  const total = index ? index.count : position.count;
  computeFilter(tree, tree.rangeStart, tree.triangleCount, total, geometry.groups, cast);
  if (FILTER.mode === FILTER_FALLBACK) return false;

  // three.js's early outs and the ray in the mesh's frame (written to RAY), with its arithmetic.
  if (prelude(matrixWorld, cast.sphere, cast.box, raycaster.ray, raycaster) === PRELUDE_MISS) return true;
  const dx = RAY[3];
  const dy = RAY[4];
  const dz = RAY[5];
  if (!(Number.isFinite(RAY[0]) && Number.isFinite(RAY[1]) && Number.isFinite(RAY[2]))) return false;
  if (!(Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz))) return false;
  if (dx === 0 && dy === 0 && dz === 0) return false;
  const w = raycaster.ray.origin;
  CAST[C_WORLD_ORIGIN] = w.x;
  CAST[C_WORLD_ORIGIN + 1] = w.y;
  CAST[C_WORLD_ORIGIN + 2] = w.z;
  CAST[C_NEAR] = raycaster.near;
  CAST[C_FAR] = raycaster.far;
  const sx = e[0] * dx + e[4] * dy + e[8] * dz;
  const sy = e[1] * dx + e[5] * dy + e[9] * dz;
  const sz = e[2] * dx + e[6] * dy + e[10] * dz;
  const scale = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (!(scale > 0 && scale < Infinity)) return false;
  CAST[C_SCALE] = scale;
  const bvh = tree.bvh;
  setupWalk(bvh);
  const rt = tree.rayTree();

  if (firstOnly) {
    walkFirst(bvh, rt);
    if (BEST.slot >= 0) {
      intersects.push(makeIntersection(tree, cast, BEST.slot, BEST.group, BEST.data, 0));
    }
    return true;
  }
  walkAll(bvh, rt);
  const n = HITS.count;
  if (n === 0) return true;
  const order = sortByKey(n);
  for (let i = 0; i < n; i++) {
    const h = order[i];
    intersects.push(makeIntersection(tree, cast, HITS.slot[h], HITS.group[h], HITS.data, 7 * h));
  }
  return true;
}

let orderScratch = new Int32Array(64);

/** Hit positions ordered by loop key (insertion sort: hits are few; keys are distinct). */
function sortByKey(n: number): Int32Array {
  if (orderScratch.length < n) orderScratch = new Int32Array(2 * n);
  const order = orderScratch;
  const key = HITS.key;
  if (n > 64) {
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b]);
    for (let i = 0; i < n; i++) order[i] = idx[i];
    return order;
  }
  for (let i = 0; i < n; i++) {
    const ki = key[i];
    let j = i - 1;
    while (j >= 0 && key[order[j]] > ki) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = i;
  }
  return order;
}

/**
 * The intersection of the hit of slot `s` (`data[o..o+6]` = distance, world point, local point) as
 * three.js builds it (`hitObject.ts`), with its `faceIndex`, vertex indices and material index.
 */
function makeIntersection(
  tree: BoundsTree,
  cast: MeshCast,
  s: number,
  group: number,
  data: Float64Array,
  o: number,
): Intersection {
  const bvh = tree.bvh;
  const geometry = cast.geometry;
  const j = tree.rangeStart + 3 * bvh.triIds[s];
  const index = geometry.index;
  let a = j;
  let b = j + 1;
  let c = j + 2;
  if (index) {
    a = index.getX(j);
    b = index.getX(j + 1);
    c = index.getX(j + 2);
  }
  const materialIndex = FILTER.mode === FILTER_GROUPS ? FILTER.materialIndex[group] : 0;
  return hitObject(
    geometry,
    cast.object,
    bvh.triVerts,
    9 * s,
    a,
    b,
    c,
    data,
    o,
    Math.floor(j / 3),
    materialIndex,
  );
}
