/**
 * cannon-es shapes as the continuous-collision shapes of `@sieve/core` (`ccd/types.ts`): one cached
 * record per body ({@link BodyParts}), one part per shape, refreshed from the body's shapes, offsets and
 * orientations at most once per step (so editing a shape's size or a body's offsets between steps is
 * seen), with no allocation once built.
 *
 * | cannon shape | CCD shape |
 * | --- | --- |
 * | `Sphere` | sphere |
 * | `Particle` | sphere of radius 0 |
 * | `Box` | box |
 * | `ConvexPolyhedron`, `Cylinder` | the box bounding its vertices (conservative: a bullet stops at the box, which may be a little before the true surface, and a very close pass by a corner of the box counts as a hit) |
 * | `Trimesh` | mesh through its BVH (`trimeshBVH(shape)`; a scaled mesh gets its own BVH over the scaled vertices, rebuilt when the scale changes) |
 * | `Heightfield` | mesh over its triangles (cannon's split of each cell, `Heightfield.getTriangle`), built once and cached |
 * | `Plane` | handled analytically (`planeToi.ts`) |
 *
 * Each sphere, box or convex part also gets a "core": a sphere at the part's centre of radius
 * `coreFraction` × its smallest half extent. When a bullet starts a step touching or overlapping a body
 * (the engine's solver has that contact), the core's time of impact still stops its centre from
 * crossing the body — Box2D v3's fallback for a fast shape that starts touching (`solver.c`,
 * `b2ContinuousQueryCallback`, `B2_CORE_FRACTION`), on the conservative advancement of
 * the hard-rigid-body event-driven MD paper (§2.4) that `timeOfImpact` implements.
 *
 * Caches are keyed by the body (parts) and by the shape (BVHs, convex bounds) in `WeakMap`s. A part is
 * rebuilt when the body's shape list changes; a heightfield's or convex shape's cached geometry is
 * rebuilt when its data or vertex array is replaced or resized, or when {@link refreshCcdShape} is
 * called after editing it in place.
 */
import { type CcdBox, type CcdMesh, type CcdSphere, MeshBVH, quatRotate } from '@sieve/core';
import { type Body, type ConvexPolyhedron, type Heightfield, Shape, type Trimesh } from 'cannon-es';
import { trimeshBVH } from './trimeshCache.js';

/** No continuous collision for this shape. */
export const PART_NONE = 0;
/** A CCD sphere (`Sphere`, `Particle`). */
export const PART_SPHERE = 1;
/** A CCD box (`Box`; `ConvexPolyhedron` and `Cylinder` through their bounding box). */
export const PART_BOX = 2;
/** A CCD mesh (`Trimesh`, `Heightfield`). */
export const PART_MESH = 3;
/** A cannon `Plane` (half-space below its local z = 0), handled analytically. */
export const PART_PLANE = 4;

/** One shape of a body, ready for `timeOfImpact`. */
export interface CcdPart {
  /** The cannon shape. */
  readonly shape: Shape;
  /** Index of the shape in `body.shapes`. */
  readonly index: number;
  /** One of the `PART_*` constants. */
  readonly kind: number;
  /** The CCD shape (sphere, box or mesh); `null` for planes and unsupported shapes. */
  readonly ccd: CcdSphere | CcdBox | CcdMesh | null;
  /** For a mesh part: the box bounding the mesh (used where the core cannot take two meshes). */
  readonly bounds: CcdBox | null;
  /** The core sphere (see the module comment), or `null` for meshes, planes and unsupported shapes. */
  readonly core: CcdSphere | null;
  /** Shape centre in the body frame (the CCD shape's offset). */
  readonly offset: Float64Array;
  /** Shape rotation relative to the body, `[x, y, z, w]`. */
  readonly orientation: Float64Array;
  /** Box half extents (boxes and convex bounds). */
  readonly halfExtents: Float64Array;
  /** Smallest half extent (sphere radius, box's smallest half extent, mesh's smallest half size). */
  minExtent: number;
  /** Largest distance of a point of the shape from the body's centre. */
  maxExtent: number;
  /** Size used for the default tolerance (radius or half diagonal). */
  size: number;
}

/** The parts of one body. */
export interface BodyParts {
  readonly body: Body;
  readonly parts: CcdPart[];
  /** Shape list the parts were built from (to notice added or removed shapes). */
  readonly shapes: Shape[];
  /** Smallest `minExtent` of the body's parts with a CCD shape (Infinity if none). */
  minExtent: number;
  /** Largest `maxExtent` of the body's parts (planes excluded). */
  maxExtent: number;
  /** Step stamp of the last refresh. */
  stamp: number;
  /** The refresh `coreFraction` used. */
  coreFraction: number;
}

const partsCache = new WeakMap<Body, BodyParts>();

/**
 * The CCD parts of `body`, rebuilt if its shapes changed and refreshed (sizes, offsets, orientations)
 * unless already refreshed with this `stamp`. `coreFraction` sizes the core spheres.
 */
export function bodyParts(body: Body, stamp: number, coreFraction: number): BodyParts {
  let bp = partsCache.get(body);
  // refreshed in this step already (shapes do not change during the bullet pass)
  if (bp !== undefined && bp.stamp === stamp && bp.coreFraction === coreFraction) return bp;
  if (bp === undefined || !sameShapes(bp.shapes, body.shapes)) {
    bp = buildParts(body);
    partsCache.set(body, bp);
  }
  bp.stamp = stamp;
  bp.coreFraction = coreFraction;
  refreshParts(bp, coreFraction);
  return bp;
}

function sameShapes(a: Shape[], b: Shape[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const T = Shape.types;

function buildParts(body: Body): BodyParts {
  const parts: CcdPart[] = [];
  for (let i = 0; i < body.shapes.length; i++) {
    const shape = body.shapes[i];
    const offset = new Float64Array(3);
    const orientation = new Float64Array([0, 0, 0, 1]);
    const halfExtents = new Float64Array(3);
    let kind = PART_NONE;
    let ccd: CcdSphere | CcdBox | CcdMesh | null = null;
    let bounds: CcdBox | null = null;
    let core: CcdSphere | null = null;
    switch (shape.type) {
      case T.SPHERE:
      case T.PARTICLE:
        kind = PART_SPHERE;
        ccd = { kind: 'sphere', radius: 0, offset };
        break;
      case T.BOX:
      case T.CONVEXPOLYHEDRON:
      case T.CYLINDER:
        kind = PART_BOX;
        ccd = { kind: 'box', halfExtents, offset, orientation };
        break;
      case T.TRIMESH:
      case T.HEIGHTFIELD:
        kind = PART_MESH;
        ccd = { kind: 'mesh', bvh: EMPTY_BVH, offset, orientation };
        bounds = { kind: 'box', halfExtents, offset: new Float64Array(3), orientation };
        break;
      case T.PLANE:
        kind = PART_PLANE;
        break;
    }
    if (kind === PART_SPHERE || kind === PART_BOX) core = { kind: 'sphere', radius: 0, offset };
    parts.push({
      shape,
      index: i,
      kind,
      ccd,
      bounds,
      core,
      offset,
      orientation,
      halfExtents,
      minExtent: 0,
      maxExtent: 0,
      size: 0,
    });
  }
  return {
    body,
    parts,
    shapes: body.shapes.slice(),
    minExtent: Number.POSITIVE_INFINITY,
    maxExtent: 0,
    stamp: -1,
    coreFraction: 0,
  };
}

const EMPTY_BVH = new MeshBVH(new Float32Array(9), null);
const LOCAL = new Float64Array(6);

function refreshParts(bp: BodyParts, coreFraction: number): void {
  const body = bp.body;
  let minExtent = Number.POSITIVE_INFINITY;
  let maxExtent = 0;
  for (let i = 0; i < bp.parts.length; i++) {
    const p = bp.parts[i];
    const so = body.shapeOffsets[i];
    const sq = body.shapeOrientations[i];
    const o = p.offset;
    const q = p.orientation;
    o[0] = so ? so.x : 0;
    o[1] = so ? so.y : 0;
    o[2] = so ? so.z : 0;
    if (sq) {
      q[0] = sq.x;
      q[1] = sq.y;
      q[2] = sq.z;
      q[3] = sq.w;
    }
    const h = p.halfExtents;
    const shape = p.shape;
    const base = Math.sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    switch (p.kind) {
      case PART_SPHERE: {
        const r = shape.type === T.SPHERE ? (shape as unknown as { radius: number }).radius : 0;
        (p.ccd as CcdSphere).radius = r;
        p.minExtent = r;
        p.size = r;
        p.maxExtent = base + r;
        break;
      }
      case PART_BOX: {
        if (shape.type === T.BOX) {
          const he = (shape as unknown as { halfExtents: { x: number; y: number; z: number } }).halfExtents;
          h[0] = he.x;
          h[1] = he.y;
          h[2] = he.z;
        } else {
          // Convex: the box bounding the vertices, its centre moved into the offset.
          convexBounds(shape as ConvexPolyhedron, LOCAL);
          for (let k = 0; k < 3; k++) h[k] = 0.5 * (LOCAL[3 + k] - LOCAL[k]);
          addRotated(
            q,
            0.5 * (LOCAL[0] + LOCAL[3]),
            0.5 * (LOCAL[1] + LOCAL[4]),
            0.5 * (LOCAL[2] + LOCAL[5]),
            o,
          );
        }
        const diag = Math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        p.minExtent = Math.min(h[0], h[1], h[2]);
        p.size = diag;
        p.maxExtent = Math.sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) + diag;
        break;
      }
      case PART_MESH: {
        const mesh = p.ccd as CcdMesh;
        mesh.bvh =
          shape.type === T.TRIMESH
            ? scaledTrimeshBVH(shape as Trimesh)
            : heightfieldBVH(shape as Heightfield);
        // Bounding box of the mesh, in the body frame: centre = offset + R(q)·(local centre).
        const b = p.bounds as CcdBox;
        const bo = b.offset as Float64Array;
        const f = mesh.bvh.nodeF32;
        const empty = mesh.bvh.triangleCount === 0;
        for (let k = 0; k < 3; k++) h[k] = empty ? 0 : 0.5 * (f[3 + k] - f[k]);
        bo[0] = o[0];
        bo[1] = o[1];
        bo[2] = o[2];
        if (!empty) addRotated(q, 0.5 * (f[0] + f[3]), 0.5 * (f[1] + f[4]), 0.5 * (f[2] + f[5]), bo);
        const diag = Math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        p.minExtent = Math.min(h[0], h[1], h[2]);
        p.size = diag;
        p.maxExtent = Math.sqrt(bo[0] * bo[0] + bo[1] * bo[1] + bo[2] * bo[2]) + diag;
        break;
      }
      default:
        p.minExtent = Number.POSITIVE_INFINITY;
        p.maxExtent = 0;
        p.size = 0;
    }
    if (p.core) p.core.radius = coreFraction * p.minExtent;
    if (p.kind !== PART_NONE && p.kind !== PART_PLANE) {
      if (p.minExtent < minExtent) minExtent = p.minExtent;
      if (p.maxExtent > maxExtent) maxExtent = p.maxExtent;
    }
  }
  bp.minExtent = minExtent;
  bp.maxExtent = maxExtent;
}

const ROTATED = new Float64Array(3);

/** out += R(q)·(x, y, z) for a unit quaternion q = [x, y, z, w]. */
function addRotated(q: Float64Array, x: number, y: number, z: number, out: Float64Array): void {
  ROTATED[0] = x;
  ROTATED[1] = y;
  ROTATED[2] = z;
  quatRotate(q, 0, ROTATED, 0, ROTATED, 0);
  out[0] += ROTATED[0];
  out[1] += ROTATED[1];
  out[2] += ROTATED[2];
}

// --- cached geometry per shape ------------------------------------------------------------------------

interface ConvexEntry {
  vertices: unknown;
  count: number;
  box: Float64Array;
}
interface ScaledEntry {
  source: MeshBVH;
  sx: number;
  sy: number;
  sz: number;
  bvh: MeshBVH;
}
interface HeightfieldEntry {
  data: number[][];
  nx: number;
  ny: number;
  elementSize: number;
  bvh: MeshBVH;
}

const convexCache = new WeakMap<Shape, ConvexEntry>();
const scaledCache = new WeakMap<Shape, ScaledEntry>();
const heightfieldCache = new WeakMap<Shape, HeightfieldEntry>();

/**
 * Drops the continuous-collision geometry cached for `shape` (a convex shape's bounds, a scaled
 * trimesh's or a heightfield's BVH), so the next step rebuilds it: call it after editing a
 * `ConvexPolyhedron`'s vertices or a `Heightfield`'s data in place. (For a trimesh's vertices, call
 * `refreshTrimesh` as well.)
 */
export function refreshCcdShape(shape: Shape): void {
  convexCache.delete(shape);
  scaledCache.delete(shape);
  heightfieldCache.delete(shape);
}

/** `[min, max]` of a convex shape's vertices (cached), into `out`. */
function convexBounds(shape: ConvexPolyhedron, out: Float64Array): void {
  const verts = shape.vertices;
  let e = convexCache.get(shape);
  if (e === undefined || e.vertices !== verts || e.count !== verts.length) {
    const box = new Float64Array(6);
    if (verts.length === 0) box.fill(0);
    else {
      box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      for (const v of verts) {
        box[0] = Math.min(box[0], v.x);
        box[1] = Math.min(box[1], v.y);
        box[2] = Math.min(box[2], v.z);
        box[3] = Math.max(box[3], v.x);
        box[4] = Math.max(box[4], v.y);
        box[5] = Math.max(box[5], v.z);
      }
    }
    e = { vertices: verts, count: verts.length, box };
    convexCache.set(shape, e);
  }
  out.set(e.box);
}

/** The BVH of a trimesh with its `scale` applied (the shared unscaled one when the scale is 1). */
function scaledTrimeshBVH(shape: Trimesh): MeshBVH {
  const source = trimeshBVH(shape);
  const s = shape.scale;
  if (s.x === 1 && s.y === 1 && s.z === 1) return source;
  let e = scaledCache.get(shape);
  if (e === undefined || e.source !== source || e.sx !== s.x || e.sy !== s.y || e.sz !== s.z) {
    const src = source.positions;
    const v = new Float32Array(src.length);
    for (let i = 0; i < src.length; i += 3) {
      v[i] = src[i] * s.x;
      v[i + 1] = src[i + 1] * s.y;
      v[i + 2] = src[i + 2] * s.z;
    }
    e = { source, sx: s.x, sy: s.y, sz: s.z, bvh: new MeshBVH(v, source.index) };
    scaledCache.set(shape, e);
  }
  return e.bvh;
}

/** A BVH over a heightfield's triangles in its local frame (cannon's split of each cell). */
function heightfieldBVH(shape: Heightfield): MeshBVH {
  const data = shape.data;
  const nx = data.length;
  const ny = nx > 0 ? data[0].length : 0;
  let e = heightfieldCache.get(shape);
  if (
    e === undefined ||
    e.data !== data ||
    e.nx !== nx ||
    e.ny !== ny ||
    e.elementSize !== shape.elementSize
  ) {
    const s = shape.elementSize;
    const v = new Float32Array(3 * Math.max(nx * ny, 3));
    for (let i = 0; i < nx; i++) {
      for (let j = 0; j < ny; j++) {
        const o = 3 * (i * ny + j);
        v[o] = i * s;
        v[o + 1] = j * s;
        v[o + 2] = data[i][j];
      }
    }
    const cells = Math.max(nx - 1, 0) * Math.max(ny - 1, 0);
    const index = new Uint32Array(6 * cells);
    let k = 0;
    const at = (i: number, j: number): number => i * ny + j;
    for (let i = 0; i + 1 < nx; i++) {
      for (let j = 0; j + 1 < ny; j++) {
        // Heightfield.getTriangle: lower (i, j), (i+1, j), (i, j+1); upper (i+1, j+1), (i, j+1), (i+1, j).
        index[k++] = at(i, j);
        index[k++] = at(i + 1, j);
        index[k++] = at(i, j + 1);
        index[k++] = at(i + 1, j + 1);
        index[k++] = at(i, j + 1);
        index[k++] = at(i + 1, j);
      }
    }
    const bvh = cells > 0 ? new MeshBVH(v, index) : EMPTY_BVH;
    e = { data, nx, ny, elementSize: s, bvh };
    heightfieldCache.set(shape, e);
  }
  return e.bvh;
}
