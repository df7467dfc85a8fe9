/**
 * Collision handlers added to cannon-es's `Narrowphase`: trimesh–trimesh, box–trimesh,
 * convex–trimesh and cylinder–trimesh (which cannon-es 0.20.0 does not have: such pairs produce no
 * contact, pmndrs/cannon-es#21, schteppe/cannon.js#423) — on by default, since they only answer where
 * cannon has no answer — and, as options off by default, sphere–box through OCSI and a prefiltered
 * box–box (both change answers cannon does give).
 *
 * cannon dispatches a shape pair to `narrowphase[shapeA.type | shapeB.type]` (getters on the prototype);
 * {@link installNarrowphase} defines own properties on one `Narrowphase` instance for the added keys, which
 * shadow those getters, and {@link uninstallNarrowphase} deletes them. Each handler has cannon's handler
 * signature and produces cannon `ContactEquation`s through `createContactEquation`, with friction through
 * `createFrictionEquationsFromContact` (or one averaged pair with `enableFrictionReduction`), so the
 * solver treats them as its own. The `justTest` form (kinematic/static pairs) only answers overlap.
 *
 * Contacts, all in world space, normal from body i to body j, `ri`/`rj` the contact points on each
 * body relative to its position (cannon's convention: penetration is `(xj + rj − xi − ri)·n < 0`):
 *
 * - Trimesh–trimesh: Sieve's BVH mesh–mesh query (`meshMeshPairs`: dual-tree descent with
 *   separating-axis node tests, Ericson's Real-Time Collision Detection §6.5, and Möller 1997's
 *   triangle–triangle test) finds the intersecting triangle pairs. Each pair is clipped both ways
 *   (GImpact's triangle clipping, Bullet's `btPrimitiveTriangle`): one triangle clipped by the prism of
 *   the other's three edge planes, keeping the points behind the other's face (faces are outward by
 *   winding, `(b−a)×(c−a)` as cannon's `Trimesh.updateNormals`) with their distance to its plane as depth.
 *   The direction of the smaller greatest depth gives the pair's contacts, along that face's normal. The
 *   manifold is then reduced to `maxContacts` points (deepest first, then farthest-point sampling), so
 *   resting meshes keep a stable spread of supports.
 * - Box/convex/cylinder–trimesh: candidate triangles are the ones touching the hull's oriented box
 *   (`meshObbContacts` on the BVH: exact for a box, conservative for a convex hull, Project Oort's
 *   multi-pass culling); each is clipped as above against every triangle of the hull's faces (fans,
 *   oriented like cannon's outward face normals), and the manifold reduced the same way.
 * - Box–box (option, off by default): cannon's own, behind an OBB–OBB separating-axis test.
 * - Sphere–box (option, off by default, it changes cannon's answer): the OCSI paper's sphere–box test
 *   (its Eq. 2 and Algorithm 5, through `sphereObbContact` of `@sieve/core`): one contact, the box
 *   point nearest the centre, also correct when the centre is inside the box (the face of least
 *   penetration), where cannon's own test misses.
 */
import {
  growArray,
  MeshContacts,
  MeshMeshResult,
  meshMeshIntersects,
  meshMeshPairs,
  meshObbContacts,
  meshObbIntersects,
  obbObbOverlapUnchecked,
  sphereObbContact,
} from '@sieve/core';
import {
  type Body,
  Box,
  type ConvexPolyhedron,
  type Narrowphase,
  type Quaternion,
  Shape,
  type Sphere,
  type Trimesh,
  type Vec3,
} from 'cannon-es';
import { rotationOf, shapeMatrix, transformVertex, trimeshBVH, trimeshIndex } from './trimeshCache.js';

/** Options of {@link installNarrowphase}. */
export interface NarrowphaseOptions {
  /** Trimesh–trimesh, box–trimesh, convex–trimesh and cylinder–trimesh contacts. Default true. */
  trimesh?: boolean;
  /**
   * Sphere–box contacts through OCSI, replacing cannon's own. Off by default: it changes results stock
   * produces. What it changes: one contact at the box point nearest the centre, with the exact normal
   * (face, edge or corner), also when the centre is inside the box (the face of least penetration),
   * where cannon's test can miss or push the wrong way; contacts on edges and corners differ from
   * cannon's in the last bits, and a ragdoll or pile of spheres and boxes diverges over time. Why you
   * would want it: fast spheres or thin boxes that end a step with the centre inside the box, and
   * contact normals that do not flip between steps on edges. Default false.
   */
  sphereBox?: boolean;
  /**
   * Box–box: an OBB–OBB separating-axis test (`@sieve/core`) first, cannon's own box–box only for boxes
   * that it finds overlapping — cannon's contacts, without its costly hull SAT and clipping for the many
   * pairs whose bounding spheres meet but whose boxes do not. Off by default: the two tests round
   * differently, so for boxes that touch within rounding error the prefilter can drop a contact of zero
   * depth that cannon keeps. Default false.
   */
  boxBox?: boolean;
  /**
   * Most contacts kept per trimesh shape pair (deepest first, then spread out), a positive integer.
   * Default 8.
   */
  maxContacts?: number;
}

type Handler = (
  this: Narrowphase,
  si: Shape,
  sj: Shape,
  xi: Vec3,
  xj: Vec3,
  qi: Quaternion,
  qj: Quaternion,
  bi: Body,
  bj: Body,
  rsi?: Shape | null,
  rsj?: Shape | null,
  justTest?: boolean,
) => boolean | undefined;

const TYPES = Shape.types;

/**
 * Dispatch keys (`typeA | typeB` of cannon-es's `Shape.types` bits) of the handlers this module adds:
 * the property names {@link installNarrowphase} defines on a `Narrowphase` instance.
 */
export const SIEVE_COLLISION_TYPES = {
  /** Trimesh–trimesh (`TRIMESH`, 256): BVH mesh–mesh query and triangle clipping; on by default. */
  trimeshTrimesh: TYPES.TRIMESH,
  /** Box–trimesh (`BOX | TRIMESH`, 260): the box's hull against the mesh; on by default. */
  boxTrimesh: TYPES.BOX | TYPES.TRIMESH,
  /** Convex polyhedron–trimesh (`CONVEXPOLYHEDRON | TRIMESH`, 272); on by default. */
  convexTrimesh: TYPES.CONVEXPOLYHEDRON | TYPES.TRIMESH,
  /** Cylinder–trimesh (`CYLINDER | TRIMESH`, 384): cannon's cylinder is a convex hull; on by default. */
  cylinderTrimesh: TYPES.CYLINDER | TYPES.TRIMESH,
  /** Sphere–box (`SPHERE | BOX`, 5) through OCSI; replaces cannon's handler only with `sphereBox: true`. */
  sphereBox: TYPES.SPHERE | TYPES.BOX,
  /** Box–box (`BOX`, 4) with a separating-axis prefilter; replaces cannon's only with `boxBox: true`. */
  boxBox: TYPES.BOX,
} as const;

interface NarrowphaseState {
  keys: number[];
  /** Own property descriptors the install shadowed (usually none). */
  previous: (PropertyDescriptor | undefined)[];
}

const states = new WeakMap<Narrowphase, NarrowphaseState>();

/**
 * Adds the Sieve handlers to one cannon `Narrowphase` (a world's `world.narrowphase`) as own properties
 * under the keys of {@link SIEVE_COLLISION_TYPES}, shadowing cannon's prototype getters for those
 * shape pairs only. Throws an `Error` if already installed on `np`, and a `RangeError` for a
 * `maxContacts` that is not a positive integer, before anything changes. `installSieve` calls it.
 */
export function installNarrowphase(np: Narrowphase, options: NarrowphaseOptions = {}): void {
  if (states.has(np)) throw new Error('installNarrowphase: already installed on this narrowphase');
  const maxContacts = options.maxContacts ?? 8;
  if (!Number.isInteger(maxContacts) || maxContacts < 1) {
    throw new RangeError(`installNarrowphase: maxContacts must be a positive integer, got ${maxContacts}`);
  }
  const table: [number, Handler][] = [];
  if (options.trimesh ?? true) {
    const t = makeTrimeshHandlers(maxContacts);
    table.push([SIEVE_COLLISION_TYPES.trimeshTrimesh, t.trimeshTrimesh]);
    table.push([SIEVE_COLLISION_TYPES.boxTrimesh, t.convexTrimesh]);
    table.push([SIEVE_COLLISION_TYPES.convexTrimesh, t.convexTrimesh]);
    table.push([SIEVE_COLLISION_TYPES.cylinderTrimesh, t.convexTrimesh]);
  }
  if (options.sphereBox ?? false) table.push([SIEVE_COLLISION_TYPES.sphereBox, sphereBoxOcsi]);
  if (options.boxBox ?? false) table.push([SIEVE_COLLISION_TYPES.boxBox, boxBoxPrefiltered]);
  const state: NarrowphaseState = { keys: [], previous: [] };
  for (const [key, fn] of table) {
    state.keys.push(key);
    state.previous.push(Object.getOwnPropertyDescriptor(np, key));
    Object.defineProperty(np, key, { value: fn, configurable: true, writable: true, enumerable: false });
  }
  states.set(np, state);
}

/**
 * Removes what {@link installNarrowphase} added (restoring any own property it shadowed), so cannon's
 * own handlers answer again. Returns false, and does nothing, if nothing was installed on `np`.
 */
export function uninstallNarrowphase(np: Narrowphase): boolean {
  const state = states.get(np);
  if (!state) return false;
  for (let k = 0; k < state.keys.length; k++) {
    const key = state.keys[k];
    const previous = state.previous[k];
    delete (np as unknown as Record<number, unknown>)[key];
    if (previous) Object.defineProperty(np, key, previous);
  }
  states.delete(np);
  return true;
}

// --- contact manifold --------------------------------------------------------------------------------

/**
 * Candidate contacts of one shape pair: normal from body i to body j, points on i and on j (world), depth.
 */
class Manifold {
  count = 0;
  n = new Float64Array(96);
  pi = new Float64Array(96);
  pj = new Float64Array(96);
  depth = new Float64Array(32);
  private minDist = new Float64Array(32);

  reset(): void {
    this.count = 0;
  }

  add(
    nx: number,
    ny: number,
    nz: number,
    pix: number,
    piy: number,
    piz: number,
    pjx: number,
    pjy: number,
    pjz: number,
    depth: number,
  ): void {
    if (this.count === this.depth.length) this.grow();
    const k = this.count++;
    this.depth[k] = depth;
    this.n[3 * k] = nx;
    this.n[3 * k + 1] = ny;
    this.n[3 * k + 2] = nz;
    this.pi[3 * k] = pix;
    this.pi[3 * k + 1] = piy;
    this.pi[3 * k + 2] = piz;
    this.pj[3 * k] = pjx;
    this.pj[3 * k + 1] = pjy;
    this.pj[3 * k + 2] = pjz;
  }

  /**
   * Keeps at most `max` contacts, moved to the front: the deepest, then repeatedly the one farthest from
   * those kept (farthest-point sampling on the points on body j), which keeps the support polygon wide.
   */
  reduce(max: number): void {
    const n = this.count;
    if (n <= max) return;
    if (this.minDist.length < n) this.minDist = new Float64Array(this.depth.length);
    const minDist = this.minDist;
    minDist.fill(Number.POSITIVE_INFINITY, 0, n);
    let next = 0;
    for (let k = 1; k < n; k++) if (this.depth[k] > this.depth[next]) next = k;
    for (let m = 0; m < max; m++) {
      // Swap the pick into place m; the candidates left are those after it.
      this.swap(m, next);
      const px = this.pj[3 * m];
      const py = this.pj[3 * m + 1];
      const pz = this.pj[3 * m + 2];
      let best = -1;
      let bestScore = -1;
      for (let k = m + 1; k < n; k++) {
        const dx = this.pj[3 * k] - px;
        const dy = this.pj[3 * k + 1] - py;
        const dz = this.pj[3 * k + 2] - pz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < minDist[k]) minDist[k] = d2;
        const score = minDist[k];
        if (score > bestScore || (score === bestScore && this.depth[k] > this.depth[best])) {
          bestScore = score;
          best = k;
        }
      }
      if (best < 0) break;
      next = best;
    }
    this.count = max;
  }

  private swap(a: number, b: number): void {
    if (a === b) return;
    swap1(this.depth, a, b);
    swap1(this.minDist, a, b);
    for (let c = 0; c < 3; c++) {
      swap1(this.n, 3 * a + c, 3 * b + c);
      swap1(this.pi, 3 * a + c, 3 * b + c);
      swap1(this.pj, 3 * a + c, 3 * b + c);
    }
  }

  private grow(): void {
    const m = this.depth.length * 2;
    this.depth = growArray(this.depth, m);
    this.n = growArray(this.n, 3 * m);
    this.pi = growArray(this.pi, 3 * m);
    this.pj = growArray(this.pj, 3 * m);
  }
}

function swap1(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** Turns the manifold into cannon contact equations (and friction) on `np`. */
function emit(np: Narrowphase, m: Manifold, bi: Body, bj: Body, si: Shape, sj: Shape): void {
  const xi = bi.position;
  const xj = bj.position;
  for (let k = 0; k < m.count; k++) {
    const c = np.createContactEquation(bi, bj, si, sj, si, sj);
    c.ni.set(m.n[3 * k], m.n[3 * k + 1], m.n[3 * k + 2]);
    c.ri.set(m.pi[3 * k] - xi.x, m.pi[3 * k + 1] - xi.y, m.pi[3 * k + 2] - xi.z);
    c.rj.set(m.pj[3 * k] - xj.x, m.pj[3 * k + 1] - xj.y, m.pj[3 * k + 2] - xj.z);
    np.result.push(c);
    if (!np.enableFrictionReduction) np.createFrictionEquationsFromContact(c, np.frictionResult);
  }
  if (np.enableFrictionReduction && m.count > 0) np.createFrictionFromAverage(m.count);
}

// --- geometry helpers ----------------------------------------------------------------------------------

/** Sets the unit normal `(b−a)×(c−a)` of the triangle at `t[o..o+9)` into `t[o+9..o+12)`; false if degenerate. */
function triangleNormal(t: Float64Array, o: number): boolean {
  const ux = t[o + 3] - t[o];
  const uy = t[o + 4] - t[o + 1];
  const uz = t[o + 5] - t[o + 2];
  const vx = t[o + 6] - t[o];
  const vy = t[o + 7] - t[o + 1];
  const vz = t[o + 8] - t[o + 2];
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0)) return false;
  t[o + 9] = nx / len;
  t[o + 10] = ny / len;
  t[o + 11] = nz / len;
  return true;
}

// --- trimesh handlers ------------------------------------------------------------------------------------

/** Triangle record: 3 vertices (9 numbers), unit normal (3), then the body it belongs to (0 = i, 1 = j). */
const TRI = 13;

/** Polygon clipping scratch (a triangle clipped by 3 planes has at most 6 vertices). */
const POLY_A = new Float64Array(3 * 8);
const POLY_B = new Float64Array(3 * 8);
/** Points of the last clip below the clipping triangle's plane: xyz and depth. */
const CLIP_PTS = new Float64Array(4 * 8);
const CLIP_PTS2 = new Float64Array(4 * 8);

/**
 * Clips triangle `t` (at `to`) by the prism of triangle `f` (at `fo`: its three inward edge planes) and
 * writes the clipped points lying behind `f`'s plane (depth > 0) into `out` as `x, y, z, depth`. Returns
 * how many; -1 if the clipped polygon is empty or no point is behind the plane (the pair is separated
 * along `f`'s normal). GImpact's triangle–triangle clip method (Bullet, btPrimitiveTriangle).
 */
function clipBehind(f: Float64Array, fo: number, t: Float64Array, to: number, out: Float64Array): number {
  let src = POLY_A;
  let dst = POLY_B;
  for (let k = 0; k < 9; k++) src[k] = t[to + k];
  let n = 3;
  const nx = f[fo + 9];
  const ny = f[fo + 10];
  const nz = f[fo + 11];
  for (let e = 0; e < 3 && n > 0; e++) {
    const ax = f[fo + 3 * e];
    const ay = f[fo + 3 * e + 1];
    const az = f[fo + 3 * e + 2];
    const e2 = (e + 1) % 3;
    const ex = f[fo + 3 * e2] - ax;
    const ey = f[fo + 3 * e2 + 1] - ay;
    const ez = f[fo + 3 * e2 + 2] - az;
    // Inward normal of edge e: n × edge (the triangle is counter-clockwise about n).
    const mx = ny * ez - nz * ey;
    const my = nz * ex - nx * ez;
    const mz = nx * ey - ny * ex;
    let m = 0;
    for (let k = 0; k < n; k++) {
      const k2 = (k + 1) % n;
      const px = src[3 * k];
      const py = src[3 * k + 1];
      const pz = src[3 * k + 2];
      const qx = src[3 * k2];
      const qy = src[3 * k2 + 1];
      const qz = src[3 * k2 + 2];
      const dp = (px - ax) * mx + (py - ay) * my + (pz - az) * mz;
      const dq = (qx - ax) * mx + (qy - ay) * my + (qz - az) * mz;
      if (dp >= 0) {
        dst[3 * m] = px;
        dst[3 * m + 1] = py;
        dst[3 * m + 2] = pz;
        m++;
      }
      if (dp >= 0 !== dq >= 0) {
        const s = dp / (dp - dq);
        dst[3 * m] = px + s * (qx - px);
        dst[3 * m + 1] = py + s * (qy - py);
        dst[3 * m + 2] = pz + s * (qz - pz);
        m++;
      }
    }
    n = m;
    const tmp = src;
    src = dst;
    dst = tmp;
  }
  if (n === 0) return -1;
  let count = 0;
  for (let k = 0; k < n; k++) {
    const px = src[3 * k];
    const py = src[3 * k + 1];
    const pz = src[3 * k + 2];
    const d = -((px - f[fo]) * nx + (py - f[fo + 1]) * ny + (pz - f[fo + 2]) * nz);
    if (d > 0) {
      out[4 * count] = px;
      out[4 * count + 1] = py;
      out[4 * count + 2] = pz;
      out[4 * count + 3] = d;
      count++;
    }
  }
  return count > 0 ? count : -1;
}

/** Writes vertices a, b, c of `verts` (3 numbers each) as the triangle at `out[o..o+9)`. */
function copyTriangle(
  verts: Float64Array,
  a: number,
  b: number,
  c: number,
  out: Float64Array,
  o: number,
): void {
  for (let k = 0; k < 3; k++) {
    out[o + k] = verts[3 * a + k];
    out[o + 3 + k] = verts[3 * b + k];
    out[o + 6 + k] = verts[3 * c + k];
  }
}

function maxDepth(pts: Float64Array, n: number): number {
  let d = 0;
  for (let k = 0; k < n; k++) if (pts[4 * k + 3] > d) d = pts[4 * k + 3];
  return d;
}

function makeTrimeshHandlers(maxContacts: number): { trimeshTrimesh: Handler; convexTrimesh: Handler } {
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
    const bvhA = trimeshBVH(a);
    const bvhB = trimeshBVH(b);
    shapeMatrix(xi, qi, a.scale, MA);
    shapeMatrix(xj, qj, b.scale, MB);
    if (justTest) return meshMeshIntersects(bvhA, MA, bvhB, MB, pairs);
    const n = meshMeshPairs(bvhA, MA, bvhB, MB, pairs);
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
    const bvh = trimeshBVH(mesh);
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
    if (justTest && isBox) return meshObbIntersects(bvh, MB, obb);
    const nt = meshObbContacts(bvh, MB, obb, meshContacts);
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
        if (hullTris.length < TRI * (ht + 1)) {
          const grown = new Float64Array(2 * hullTris.length);
          grown.set(hullTris);
          hullTris = grown;
        }
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

// --- box–box: OBB separating axes first ----------------------------------------------------------------

const BB = new Float64Array(30);
const BOX_ROT = new Float64Array(9);

/**
 * Writes the OBB of a box shape at (x, q) into `out` at `o`; with `pad`, its extents padded by a hair
 * (which keeps the box–box filter conservative: only boxes clearly apart skip cannon's own test).
 */
function boxObb(box: Box, x: Vec3, q: Quaternion, pad: boolean, out: Float64Array, o: number): void {
  rotationOf(q, BOX_ROT);
  out[o] = x.x;
  out[o + 1] = x.y;
  out[o + 2] = x.z;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[o + 3 + 3 * r + c] = BOX_ROT[3 * c + r];
  const h = box.halfExtents;
  const scale = pad ? 1 + 1e-7 : 1;
  const add = pad ? 1e-9 : 0;
  out[o + 12] = h.x * scale + add;
  out[o + 13] = h.y * scale + add;
  out[o + 14] = h.z * scale + add;
}

/**
 * cannon's box–box (its convex–convex SAT and clipping) behind an OBB–OBB separating-axis test over the
 * same 15 axes (Gottschalk, Lin and Manocha's OBBTree; Ericson's Real-Time Collision Detection
 * §4.4.1): separated boxes return at once.
 */
const boxBoxPrefiltered: Handler = function (
  this: Narrowphase,
  si,
  sj,
  xi,
  xj,
  qi,
  qj,
  bi,
  bj,
  rsi,
  rsj,
  justTest,
) {
  boxObb(si as Box, xi, qi, true, BB, 0);
  boxObb(sj as Box, xj, qj, true, BB, 15);
  if (!obbObbOverlapUnchecked(BB, 0, BB, 15)) return false;
  return (
    Object.getPrototypeOf(this) as {
      boxBox: (...args: unknown[]) => boolean | undefined;
    }
  ).boxBox.call(this, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest);
};

// --- sphere–box through OCSI --------------------------------------------------------------------------

const SB_OBB = new Float64Array(15);
const SB_CENTER = new Float64Array(3);
const SB_OUT = new Float64Array(7);

/** cannon handler for sphere (i) – box (j) contacts through OCSI. */
const sphereBoxOcsi: Handler = function (
  this: Narrowphase,
  si,
  sj,
  xi,
  xj,
  _qi,
  qj,
  bi,
  bj,
  _rsi,
  _rsj,
  justTest,
) {
  const sphere = si as Sphere;
  boxObb(sj as Box, xj, qj, false, SB_OBB, 0);
  SB_CENTER[0] = xi.x;
  SB_CENTER[1] = xi.y;
  SB_CENTER[2] = xi.z;
  const R = sphere.radius;
  const overlap = sphereObbContact(SB_OBB, SB_CENTER, R, SB_OUT);
  // Touching at depth 0 is not a contact (as in cannon's own test).
  if (!overlap || !(SB_OUT[3] > 0)) return false;
  if (justTest) return true;
  // OCSI's normal points from the box to the sphere; cannon's goes from body i (sphere) to j (box).
  const nx = -SB_OUT[0];
  const ny = -SB_OUT[1];
  const nz = -SB_OUT[2];
  const c = this.createContactEquation(bi, bj, si, sj, si, sj);
  c.ni.set(nx, ny, nz);
  c.ri.set(xi.x + nx * R - bi.position.x, xi.y + ny * R - bi.position.y, xi.z + nz * R - bi.position.z);
  c.rj.set(SB_OUT[4] - bj.position.x, SB_OUT[5] - bj.position.y, SB_OUT[6] - bj.position.z);
  this.result.push(c);
  this.createFrictionEquationsFromContact(c, this.frictionResult);
  return true;
};
