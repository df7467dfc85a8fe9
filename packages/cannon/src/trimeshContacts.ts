/**
 * Trimesh contacts for cannon-es, which has none (pmndrs/cannon-es#21, schteppe/cannon.js#423): the
 * trimesh–trimesh handler and the convex–trimesh one that also serves boxes and cylinders (cannon's
 * cylinder is a convex hull).
 *
 * - Trimesh–trimesh: Sieve's BVH mesh–mesh query (`meshMeshPairs`: dual-tree descent with
 *   separating-axis node tests, Ericson's Real-Time Collision Detection §6.5, and Möller 1997's
 *   triangle–triangle test) finds the intersecting triangle pairs. Each pair is clipped both ways
 *   (GImpact's triangle clipping, Bullet's `btPrimitiveTriangle`): one triangle clipped by the prism of
 *   the other's three edge planes, keeping the points behind the other's face with their distance to its
 *   plane as depth. The direction of the smaller greatest depth gives the pair's contacts, along that
 *   face's normal. The manifold is then reduced to `maxContacts` points (deepest first, then
 *   farthest-point sampling), so resting meshes keep a stable spread of supports.
 * - Box/convex/cylinder–trimesh: candidate triangles are the ones touching the hull's oriented box
 *   (`meshObbContacts` on the BVH: exact for a box, conservative for a convex hull, Project Oort's
 *   multi-pass culling); each is clipped as above against every triangle of the hull's faces (fans,
 *   oriented like cannon's outward face normals), and the manifold reduced the same way.
 *
 * The `justTest` form (kinematic/static pairs) only answers overlap. All scratch is made once per
 * installation, so a step allocates nothing once the buffers have grown to the scene.
 */
import { growArray, MeshContacts, MeshMeshResult, meshMeshTriangles, meshObbQuery } from '@sieve/core';
import { Box, type ConvexPolyhedron, type Narrowphase, type Trimesh } from 'cannon-es';
import { emit, Manifold } from './contactManifold.js';
import type { Handler } from './narrowphase.js';
import { clipBehind, copyTriangle, maxDepth, TRI, triangleNormal } from './triangleClip.js';
import { rotationOf, shapeMatrix, transformVertex, trimeshIndex, trimeshTree } from './trimeshCache.js';

/** Points of the last clip below the clipping triangle's plane: xyz and depth. */
const CLIP_PTS = new Float64Array(4 * 8);
const CLIP_PTS2 = new Float64Array(4 * 8);

/**
 * Makes the trimesh–trimesh and convex–trimesh handlers (cannon's handler signature), sharing one
 * manifold and scratch, that keep at most `maxContacts` contacts per shape pair.
 */
export function makeTrimeshHandlers(maxContacts: number): {
  trimeshTrimesh: Handler;
  convexTrimesh: Handler;
} {
  const manifold = new Manifold();
  const pairs = new MeshMeshResult();
  const meshContacts = new MeshContacts();
  const MA = new Float64Array(16);
  const MB = new Float64Array(16);
  const obb = new Float64Array(15);
  const rot = new Float64Array(9);
  const triA = new Float64Array(TRI);
  const triB = new Float64Array(TRI);
  let hullVerts = new Float64Array(3 * 64);
  let hullTris = new Float64Array(TRI * 64);

  /** Loads world triangle `tri` of a mesh into `out` (record of body `side`); false if degenerate. */
  const loadTriangle = (
    positions: Float32Array,
    index: Uint32Array,
    tri: number,
    m: Float64Array,
    out: Float64Array,
    side: number,
  ): boolean => {
    transformVertex(positions, index[3 * tri], m, out, 0);
    transformVertex(positions, index[3 * tri + 1], m, out, 3);
    transformVertex(positions, index[3 * tri + 2], m, out, 6);
    out[12] = side;
    return triangleNormal(out, 0);
  };

  /**
   * One triangle pair: the points of each triangle inside the other's prism and behind its face, in the
   * direction of least maximum depth (both directions must have points, else the pair is separated).
   */
  const collideTriangles = (ta: Float64Array, ao: number, tb: Float64Array, bo: number): void => {
    const nb = clipBehind(ta, ao, tb, bo, CLIP_PTS);
    if (nb < 0) return;
    const na = clipBehind(tb, bo, ta, ao, CLIP_PTS2);
    if (na < 0) return;
    if (maxDepth(CLIP_PTS, nb) <= maxDepth(CLIP_PTS2, na)) addClipped(ta, ao, CLIP_PTS, nb);
    else addClipped(tb, bo, CLIP_PTS2, na);
  };

  /** Adds the points behind face `f` (of body i or j, by its record) as contacts. */
  const addClipped = (f: Float64Array, fo: number, pts: Float64Array, n: number): void => {
    const nx = f[fo + 9];
    const ny = f[fo + 10];
    const nz = f[fo + 11];
    const faceOnI = f[fo + 12] === 0;
    for (let k = 0; k < n; k++) {
      const px = pts[4 * k];
      const py = pts[4 * k + 1];
      const pz = pts[4 * k + 2];
      const d = pts[4 * k + 3];
      const sx = px + d * nx;
      const sy = py + d * ny;
      const sz = pz + d * nz;
      // The point's body moves along +n of the face to get out.
      if (faceOnI) manifold.add(nx, ny, nz, sx, sy, sz, px, py, pz, d);
      else manifold.add(-nx, -ny, -nz, px, py, pz, sx, sy, sz, d);
    }
  };

  const trimeshTrimesh: Handler = function (
    this: Narrowphase,
    si,
    sj,
    xi,
    xj,
    qi,
    qj,
    bi,
    bj,
    _rsi,
    _rsj,
    justTest,
  ) {
    const a = si as Trimesh;
    const b = sj as Trimesh;
    const bvhA = trimeshTree(a);
    const bvhB = trimeshTree(b);
    shapeMatrix(xi, qi, a.scale, MA);
    shapeMatrix(xj, qj, b.scale, MB);
    // The pairs alone (the hit data of `meshMeshPairs` is not used).
    const n = meshMeshTriangles(bvhA, MA, bvhB, MB, pairs, justTest === true);
    if (justTest) return n > 0;
    if (n === 0) return false;
    const ia = trimeshIndex(a);
    const ib = trimeshIndex(b);
    manifold.reset();
    for (let k = 0; k < n; k++) {
      if (
        loadTriangle(bvhA.positions, ia, pairs.trianglesA[k], MA, triA, 0) &&
        loadTriangle(bvhB.positions, ib, pairs.trianglesB[k], MB, triB, 1)
      ) {
        collideTriangles(triA, 0, triB, 0);
      }
    }
    manifold.reduce(maxContacts);
    emit(this, manifold, bi, bj, si, sj);
    return manifold.count > 0;
  };

  const convexTrimesh: Handler = function (
    this: Narrowphase,
    si,
    sj,
    xi,
    xj,
    qi,
    qj,
    bi,
    bj,
    _rsi,
    _rsj,
    justTest,
  ) {
    const mesh = sj as Trimesh;
    const isBox = si instanceof Box;
    const hull: ConvexPolyhedron = isBox
      ? (si as Box).convexPolyhedronRepresentation
      : (si as ConvexPolyhedron);
    const bvh = trimeshTree(mesh);
    const index = trimeshIndex(mesh);
    shapeMatrix(xj, qj, mesh.scale, MB);
    // The hull in world space: vertices and its oriented box (for the BVH query).
    rotationOf(qi, rot);
    const verts = hull.vertices;
    const nv = verts.length;
    if (nv === 0) return false;
    if (hullVerts.length < 3 * nv) hullVerts = new Float64Array(6 * nv);
    let lx = Number.POSITIVE_INFINITY;
    let ly = lx;
    let lz = lx;
    let ux = Number.NEGATIVE_INFINITY;
    let uy = ux;
    let uz = ux;
    for (let k = 0; k < nv; k++) {
      const v = verts[k];
      if (v.x < lx) lx = v.x;
      if (v.y < ly) ly = v.y;
      if (v.z < lz) lz = v.z;
      if (v.x > ux) ux = v.x;
      if (v.y > uy) uy = v.y;
      if (v.z > uz) uz = v.z;
      hullVerts[3 * k] = rot[0] * v.x + rot[1] * v.y + rot[2] * v.z + xi.x;
      hullVerts[3 * k + 1] = rot[3] * v.x + rot[4] * v.y + rot[5] * v.z + xi.y;
      hullVerts[3 * k + 2] = rot[6] * v.x + rot[7] * v.y + rot[8] * v.z + xi.z;
    }
    const cx = 0.5 * (lx + ux);
    const cy = 0.5 * (ly + uy);
    const cz = 0.5 * (lz + uz);
    obb[0] = rot[0] * cx + rot[1] * cy + rot[2] * cz + xi.x;
    obb[1] = rot[3] * cx + rot[4] * cy + rot[5] * cz + xi.y;
    obb[2] = rot[6] * cx + rot[7] * cy + rot[8] * cz + xi.z;
    // Axes row by row = columns of the rotation.
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) obb[3 + 3 * r + c] = rot[3 * c + r];
    obb[12] = 0.5 * (ux - lx);
    obb[13] = 0.5 * (uy - ly);
    obb[14] = 0.5 * (uz - lz);
    if (justTest && isBox) return meshObbQuery(bvh, MB, obb, null) > 0;
    const nt = meshObbQuery(bvh, MB, obb, meshContacts);
    if (nt === 0) return false;
    // The hull's faces as world triangles (fans), oriented like cannon's outward face normals.
    const faces = hull.faces;
    const normals = hull.faceNormals;
    let ht = 0;
    for (let f = 0; f < faces.length; f++) {
      const face = faces[f];
      const fn = normals[f];
      const wx = rot[0] * fn.x + rot[1] * fn.y + rot[2] * fn.z;
      const wy = rot[3] * fn.x + rot[4] * fn.y + rot[5] * fn.z;
      const wz = rot[6] * fn.x + rot[7] * fn.y + rot[8] * fn.z;
      for (let c = 1; c + 1 < face.length; c++) {
        hullTris = growArray(hullTris, TRI * (ht + 1));
        const o = TRI * ht;
        copyTriangle(hullVerts, face[0], face[c], face[c + 1], hullTris, o);
        if (!triangleNormal(hullTris, o)) continue;
        if (hullTris[o + 9] * wx + hullTris[o + 10] * wy + hullTris[o + 11] * wz < 0) {
          copyTriangle(hullVerts, face[0], face[c + 1], face[c], hullTris, o);
          triangleNormal(hullTris, o);
        }
        hullTris[o + 12] = 0;
        ht++;
      }
    }
    manifold.reset();
    for (let k = 0; k < nt; k++) {
      if (!loadTriangle(bvh.positions, index, meshContacts.triangles[k], MB, triB, 1)) continue;
      for (let h = 0; h < ht; h++) collideTriangles(hullTris, TRI * h, triB, 0);
    }
    if (justTest) return manifold.count > 0;
    manifold.reduce(maxContacts);
    emit(this, manifold, bi, bj, si, sj);
    return manifold.count > 0;
  };

  return { trimeshTrimesh, convexTrimesh };
}
