/**
 * Mesh queries for three.js meshes in world space: mesh–mesh (any hit, all triangle pairs), closest
 * point, sphere, box and capsule contacts, the Octree's capsule push-out, and the swept capsule — each
 * on the meshes' bounds trees (`geometry.computeBoundsTree()` first) under their `matrixWorld`.
 *
 * The work is `@sieve/core`'s (mesh–mesh, mesh–sphere, mesh–OBB) and this package's `queries/` (capsule,
 * swept capsule, closest point); this module reads three.js objects into them. Triangle indices are
 * the geometry's triangle numbers (`faceIndex` in raycast hits). Contact normals point from the mesh
 * towards the query shape; moving the shape by `depth·normal` separates it from that triangle.
 * Nothing here allocates per call once the result objects are warm.
 */
import {
  MeshContacts,
  MeshMeshResult,
  meshMeshIntersects,
  meshMeshPairs,
  meshObbContacts,
  meshObbIntersects,
  meshSphereContacts,
  meshSphereIntersects,
} from '@sieve/core';
import { type Box3, type Matrix4, type Mesh, type Sphere, Vector3 } from 'three';
import { BoundsTree } from './boundsTree.js';
import { obbOf } from './queries/boxes.js';
import {
  type CapsuleLike,
  capsuleContactsBvh,
  capsulePushOutBvh,
  intersectsCapsuleBvh,
  type PointLike,
  PUSH,
} from './queries/capsule.js';
import { capsuleCastBvh, SWEEP } from './queries/capsuleCast.js';
import { closestPointBvh, type HitPointInfo, nearestInto } from './queries/closestPoint.js';

export type { CapsuleLike, HitPointInfo, PointLike };
export { MeshContacts, MeshMeshResult };

/** The up-to-date bounds tree of `mesh`'s geometry; throws a `TypeError` naming `fn` if it has none. */
export function treeOf(mesh: Mesh, fn: string, name = 'mesh'): BoundsTree {
  const tree = (mesh?.geometry as { boundsTree?: unknown } | undefined)?.boundsTree;
  if (!(tree instanceof BoundsTree)) {
    throw new TypeError(
      `${fn}: ${name}.geometry has no bounds tree (call geometry.computeBoundsTree() first)`,
    );
  }
  tree.update();
  return tree;
}

const sharedPairs = new MeshMeshResult();

/**
 * Whether two meshes intersect under their world matrices (triangles touching count). Stops at the
 * first intersecting pair.
 *
 * ```ts
 * import { Mesh, TorusKnotGeometry } from 'three';
 * import { computeBoundsTree, meshesIntersect } from '@sieve/three';
 *
 * const a = new Mesh(new TorusKnotGeometry());
 * const b = new Mesh(new TorusKnotGeometry());
 * computeBoundsTree.call(a.geometry);
 * computeBoundsTree.call(b.geometry);
 * b.position.set(0.5, 0, 0);
 * b.updateMatrixWorld();
 * console.log(meshesIntersect(a, b)); // true
 * ```
 */
export function meshesIntersect(a: Mesh, b: Mesh): boolean {
  const ta = treeOf(a, 'meshesIntersect', 'a');
  const tb = treeOf(b, 'meshesIntersect', 'b');
  return meshMeshIntersects(ta.bvh, a.matrixWorld.elements, tb.bvh, b.matrixWorld.elements, sharedPairs);
}

/**
 * Every intersecting triangle pair of two meshes under their world matrices, into `result`
 * (`trianglesA[i]`, `trianglesB[i]` for `i < count`; plus averaged hit data, see `MeshMeshResult`).
 * Returns the pair count.
 *
 * ```ts
 * import { Mesh, TorusKnotGeometry } from 'three';
 * import { computeBoundsTree, MeshMeshResult, meshTrianglePairs } from '@sieve/three';
 *
 * const a = new Mesh(new TorusKnotGeometry());
 * const b = new Mesh(new TorusKnotGeometry());
 * computeBoundsTree.call(a.geometry);
 * computeBoundsTree.call(b.geometry);
 * b.position.set(0.5, 0, 0);
 * b.updateMatrixWorld();
 * const pairs = new MeshMeshResult();
 * const n = meshTrianglePairs(a, b, pairs);
 * console.log(n > 0, pairs.trianglesA[0], pairs.trianglesB[0]);
 * ```
 */
export function meshTrianglePairs(a: Mesh, b: Mesh, result: MeshMeshResult): number {
  const ta = treeOf(a, 'meshTrianglePairs', 'a');
  const tb = treeOf(b, 'meshTrianglePairs', 'b');
  if (!(result instanceof MeshMeshResult)) {
    throw new TypeError('meshTrianglePairs: result must be a MeshMeshResult');
  }
  const n = meshMeshPairs(ta.bvh, a.matrixWorld.elements, tb.bvh, b.matrixWorld.elements, result);
  renumber(result.trianglesA, n, ta);
  renumber(result.trianglesB, n, tb);
  return n;
}

/**
 * Turns the first `count` triangle numbers of `triangles`, counted from the start of `tree`'s range (a
 * tree built over `range`), into the geometry's triangle numbers (`faceIndex`); returns `count`.
 */
function renumber(triangles: Uint32Array, count: number, tree: BoundsTree): number {
  const first = tree.firstTriangle;
  if (first !== 0) for (let k = 0; k < count; k++) triangles[k] += first;
  return count;
}

/**
 * The point of `mesh` (world space) nearest to the world point `point`, into `target` (a new object if
 * omitted), or `null` if none lies within `maxThreshold`. Stops at the first point closer than
 * `minThreshold`. Exact under any world matrix, non-uniform scale included.
 *
 * ```ts
 * import { Mesh, SphereGeometry, Vector3 } from 'three';
 * import { closestPointToPoint, computeBoundsTree } from '@sieve/three';
 *
 * const mesh = new Mesh(new SphereGeometry(1, 32, 16));
 * computeBoundsTree.call(mesh.geometry);
 * const hit = closestPointToPoint(mesh, new Vector3(0, 3, 0));
 * console.log(hit?.distance.toFixed(3)); // "2.000"
 * ```
 */
export function closestPointToPoint(
  mesh: Mesh,
  point: Vector3,
  target?: HitPointInfo,
  minThreshold = 0,
  maxThreshold = Infinity,
): HitPointInfo | null {
  const tree = treeOf(mesh, 'closestPointToPoint');
  const found = closestPointBvh(tree.bvh, mesh.matrixWorld.elements, point, minThreshold, maxThreshold);
  return nearestInto(found, tree.firstTriangle, target);
}

function sphereArgs(sphere: Sphere, fn: string): void {
  if (!sphere?.center) throw new TypeError(`${fn}: sphere must be a Sphere`);
  CENTER[0] = sphere.center.x;
  CENTER[1] = sphere.center.y;
  CENTER[2] = sphere.center.z;
}
const CENTER = new Float64Array(3);

/**
 * Contacts of a world-space sphere with `mesh`, one per touching triangle, into `out` (cleared first):
 * `out.points` on the mesh, `out.normals` from the mesh to the sphere's centre, `out.depths` =
 * radius − distance. Returns the count.
 *
 * ```ts
 * import { Mesh, PlaneGeometry, Sphere, Vector3 } from 'three';
 * import { computeBoundsTree, MeshContacts, sphereContacts } from '@sieve/three';
 *
 * const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
 * computeBoundsTree.call(floor.geometry);
 * const contacts = new MeshContacts();
 * sphereContacts(floor, new Sphere(new Vector3(0, 0.4, 0), 0.5), contacts);
 * console.log(contacts.count, contacts.normals[1], contacts.depths[0].toFixed(2)); // 2 1 "0.10"
 * ```
 */
export function sphereContacts(mesh: Mesh, sphere: Sphere, out: MeshContacts): number {
  const tree = treeOf(mesh, 'sphereContacts');
  sphereArgs(sphere, 'sphereContacts');
  const n = meshSphereContacts(tree.bvh, mesh.matrixWorld.elements, CENTER, sphere.radius, out);
  return renumber(out.triangles, n, tree);
}

/** Whether a world-space sphere touches `mesh` (stops at the first triangle). See {@link sphereContacts}. */
export function intersectsSphere(mesh: Mesh, sphere: Sphere): boolean {
  const tree = treeOf(mesh, 'intersectsSphere');
  sphereArgs(sphere, 'intersectsSphere');
  return meshSphereIntersects(tree.bvh, mesh.matrixWorld.elements, CENTER, sphere.radius);
}

/**
 * Contacts of a box (`box` in its own frame, placed in the world by `boxMatrix`: rotation, translation,
 * scale) with `mesh`, one per touching triangle, into `out` (cleared first): least-penetration axis as
 * the normal (mesh → box) and depth. Returns the count.
 *
 * ```ts
 * import { Box3, Matrix4, Mesh, PlaneGeometry, Vector3 } from 'three';
 * import { boxContacts, computeBoundsTree, MeshContacts } from '@sieve/three';
 *
 * const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
 * computeBoundsTree.call(floor.geometry);
 * const crate = new Box3(new Vector3(-0.5, -0.5, -0.5), new Vector3(0.5, 0.5, 0.5));
 * const contacts = new MeshContacts();
 * boxContacts(floor, crate, new Matrix4().makeTranslation(0, 0.4, 0), contacts);
 * console.log(contacts.count > 0, contacts.depths[0].toFixed(2)); // true "0.10"
 * ```
 */
export function boxContacts(mesh: Mesh, box: Box3, boxMatrix: Matrix4, out: MeshContacts): number {
  const tree = treeOf(mesh, 'boxContacts');
  const n = meshObbContacts(tree.bvh, mesh.matrixWorld.elements, obbOf(box, boxMatrix, 'boxContacts'), out);
  return renumber(out.triangles, n, tree);
}

/** Whether a placed box touches `mesh` (stops at the first triangle). See {@link boxContacts}. */
export function intersectsBox(mesh: Mesh, box: Box3, boxMatrix: Matrix4): boolean {
  const tree = treeOf(mesh, 'intersectsBox');
  return meshObbIntersects(tree.bvh, mesh.matrixWorld.elements, obbOf(box, boxMatrix, 'intersectsBox'));
}

/**
 * Contacts of a world-space capsule (three.js's `Capsule`: `start`, `end`, `radius`) with `mesh`, one
 * per touching triangle, into `out` (cleared first): points on the mesh, normals from the mesh to the
 * capsule's segment, depths = radius − distance (when the segment meets a triangle: the face normal
 * towards the capsule's middle, and the depth that clears the plane). Returns the count.
 *
 * ```ts
 * import { Mesh, PlaneGeometry, Vector3 } from 'three';
 * import { Capsule } from 'three/examples/jsm/math/Capsule.js';
 * import { capsuleContacts, computeBoundsTree, MeshContacts } from '@sieve/three';
 *
 * const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
 * computeBoundsTree.call(floor.geometry);
 * const player = new Capsule(new Vector3(0, 0.3, 0), new Vector3(0, 1.5, 0), 0.35);
 * const contacts = new MeshContacts();
 * capsuleContacts(floor, player, contacts);
 * console.log(contacts.count, contacts.depths[0].toFixed(2)); // 2 "0.05"
 * ```
 */
export function capsuleContacts(mesh: Mesh, capsule: CapsuleLike, out: MeshContacts): number {
  const tree = treeOf(mesh, 'capsuleContacts');
  if (!(out instanceof MeshContacts)) throw new TypeError('capsuleContacts: out must be a MeshContacts');
  const n = capsuleContactsBvh(tree.bvh, mesh.matrixWorld.elements, capsule, out);
  return renumber(out.triangles, n, tree);
}

/** Whether a world-space capsule touches `mesh` (stops at the first triangle). See {@link capsuleContacts}. */
export function intersectsCapsule(mesh: Mesh, capsule: CapsuleLike): boolean {
  return intersectsCapsuleBvh(treeOf(mesh, 'intersectsCapsule').bvh, mesh.matrixWorld.elements, capsule);
}

/** The push-out of {@link capsuleIntersect}, as three.js's `Octree.capsuleIntersect` returns it. */
export interface CapsulePush {
  /**
   * Unit direction of the push — or zero, as three.js returns it, when the triangles' pushes cancel out or
   * are lost to rounding (`depth` 0: a penetration was found, but there is nothing to move).
   */
  normal: Vector3;
  /** Its length. */
  depth: number;
}

/**
 * three.js's `Octree.capsuleIntersect` on a mesh: the triangles the capsule penetrates push it out one
 * after the other; returns the total push as `{ normal, depth }` (into `target` when given), or `false`
 * when nothing is penetrated. The FPS example's collision step ports as is:
 *
 * ```ts
 * import { Mesh, PlaneGeometry, Vector3 } from 'three';
 * import { Capsule } from 'three/examples/jsm/math/Capsule.js';
 * import { capsuleIntersect, computeBoundsTree } from '@sieve/three';
 *
 * const level = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
 * computeBoundsTree.call(level.geometry);
 * const player = new Capsule(new Vector3(0, 0.3, 0), new Vector3(0, 1.5, 0), 0.35);
 * const result = capsuleIntersect(level, player);
 * if (result) player.translate(result.normal.multiplyScalar(result.depth));
 * console.log(player.start.y.toFixed(2)); // "0.35"
 * ```
 */
export function capsuleIntersect(
  mesh: Mesh,
  capsule: CapsuleLike,
  target?: CapsulePush,
): CapsulePush | false {
  const tree = treeOf(mesh, 'capsuleIntersect');
  if (!capsulePushOutBvh(tree.bvh, mesh.matrixWorld.elements, capsule)) return false;
  const out = target ?? { normal: new Vector3(), depth: 0 };
  const depth = Math.sqrt(PUSH[0] * PUSH[0] + PUSH[1] * PUSH[1] + PUSH[2] * PUSH[2]);
  out.depth = depth;
  // Field stores, not Vector3.set: doubles passed to a call V8 does not inline are boxed.
  const n = out.normal;
  n.x = depth > 0 ? PUSH[0] / depth : 0;
  n.y = depth > 0 ? PUSH[1] / depth : 0;
  n.z = depth > 0 ? PUSH[2] / depth : 0;
  return out;
}

/** Result of {@link capsuleCast}. Reuse one across calls. */
export class CapsuleCastHit {
  /** Whether the last cast touched the mesh (the other fields are valid only then). */
  hit = false;
  /** Fraction of the displacement travelled at the first contact, in [0, 1]. */
  fraction = 1;
  /** Unit contact normal, from the mesh towards the capsule. */
  normal = new Vector3();
  /** Contact point on the mesh. */
  point = new Vector3();
  /** Index of the triangle touched (the geometry's triangle number). */
  faceIndex = -1;
  /** Whether the capsule touched that triangle already at the start (fraction 0, moving into it). */
  startedInContact = false;
}

/**
 * Sweeps a world-space capsule by `displacement` against `mesh`: the first contact, so the capsule
 * cannot pass through a wall however far it moves in one call. Fills `hit` and returns `hit.hit`.
 * Triangles the capsule already touches block it only if it moves further into them, so a capsule
 * resting on a floor slides along it. `tolerance`: how far beyond the radius a contact counts
 * (default `1e-7·(radius + |displacement|)`; a smaller one, 0 included, is raised to
 * `1e-12·(radius + |displacement|)` plus the coordinates' rounding: a contact at exactly the radius cannot
 * be found in floating point); a controller keeps its own skin on top.
 *
 * ```ts
 * import { BoxGeometry, Mesh, Vector3 } from 'three';
 * import { Capsule } from 'three/examples/jsm/math/Capsule.js';
 * import { CapsuleCastHit, capsuleCast, computeBoundsTree } from '@sieve/three';
 *
 * const wall = new Mesh(new BoxGeometry(0.1, 4, 4)); // a thin wall at x = 0
 * computeBoundsTree.call(wall.geometry);
 * const player = new Capsule(new Vector3(-2, 0.5, 0), new Vector3(-2, 1.5, 0), 0.5);
 * const hit = new CapsuleCastHit();
 * capsuleCast(wall, player, new Vector3(10, 0, 0), hit); // one huge step: no tunnelling
 * console.log(hit.fraction.toFixed(3), hit.normal.x); // "0.145" -1
 * ```
 */
export function capsuleCast(
  mesh: Mesh,
  capsule: CapsuleLike,
  displacement: Vector3,
  hit: CapsuleCastHit,
  tolerance?: number,
): boolean {
  const tree = treeOf(mesh, 'capsuleCast');
  if (!(hit instanceof CapsuleCastHit)) throw new TypeError('capsuleCast: hit must be a CapsuleCastHit');
  hit.hit = capsuleCastBvh(tree.bvh, mesh.matrixWorld.elements, capsule, displacement, tolerance);
  if (hit.hit) {
    hit.fraction = SWEEP[0];
    const n = hit.normal;
    const p = hit.point;
    n.x = SWEEP[1];
    n.y = SWEEP[2];
    n.z = SWEEP[3];
    p.x = SWEEP[4];
    p.y = SWEEP[5];
    p.z = SWEEP[6];
    hit.faceIndex = tree.firstTriangle + SWEEP[7];
    hit.startedInContact = SWEEP[8] === 1;
  } else {
    hit.fraction = 1;
    hit.faceIndex = -1;
    hit.startedInContact = false;
  }
  return hit.hit;
}
