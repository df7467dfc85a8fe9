/**
 * The time of impact of a sphere or box (side 0) against a triangle mesh (side 1), one sample: every
 * triangle that can limit the step is folded in, through the BVH's one traversal (`bvh/shapecast.ts`,
 * three-mesh-bvh's `shapecast` model) as an ordered cast.
 *
 * A mesh is not convex, but each triangle is, so the step rule of the convex pairs (`toiKernels.ts`: the
 * hard-rigid-body event-driven MD paper's bound, Eq. 32, projected on the closest-point normal as in
 * Mirtich's conservative advancement) holds per triangle. Each BVH node's box is convex too and holds its
 * triangles: a node's separation from the shape along a direction, over the closing rate along it, is a
 * time no triangle below can beat. That time is the node's key; the walk visits the sooner child first
 * and skips every node whose key is no sooner than the best step found so far (and every node the shape
 * moves away from).
 *
 * Work happens in the mesh's frame at the sample time (the shape brought into it, the relative velocity
 * rotated into it), so the mesh's vertices are never transformed. Sphere–triangle distances use
 * Ericson's closest point on a triangle (*Real-Time Collision Detection* §5.1.5, `bvh/triangle.ts`);
 * box–triangle distances GJK (Gilbert, Johnson and Keerthi 1988; `gjk.ts`).
 */
import type { MeshBVH } from '../bvh/MeshBVH.js';
import { type BvhCast, CUTOFF, KEY, shapecast } from '../bvh/shapecast.js';
import { closestPointOnTriangle, isDegenerateTriangleAt } from '../bvh/triangle.js';
import { GJK_BOX, GJK_SEPARATION, GJK_TRIANGLE, gjk, gjkDistance } from './gjk.js';
import { Side, sides } from './side.js';
import { piece } from './toiKernels.js';
import {
  Contact,
  keepPiece,
  Obb,
  OVERLAP,
  PARAMS,
  Param,
  PIECE,
  Piece,
  SAMPLE,
  sample,
} from './toiRecords.js';

// --- the shape in the mesh frame --------------------------------------------------------------------------

/** Slots of {@link LOCAL}. */
enum Local {
  /** Slots 0–14: the shape in the mesh frame (sphere: its centre; box: its OBB). */
  Shape = 0,
  /** Slots 15–17: the relative velocity vM − vS in the mesh frame, per frame. */
  Velocity = 15,
  /** Slots 18–20: the mesh frame's origin in world. */
  Origin = 18,
  /** Slots 21–29: the mesh frame's axes in world, row by row. */
  Axes = 21,
  /** Numbers in {@link LOCAL}. */
  Words = 30,
}

/** The shape and the relative motion in the mesh frame at the sample time (layout: {@link Local}). */
const LOCAL = new Float64Array(Local.Words);
/** The triangle being tested, 9 coordinates in the mesh frame. */
const TRI = new Float64Array(9);
/** The point of {@link TRI} nearest the shape's centre. */
const NEAREST = new Float64Array(3);
/**
 * A piece in the mesh frame, in the piece layout ({@link Piece}): its normal points from
 * the mesh to the shape, point A is the shape's, point B the mesh's.
 */
const MESH_PIECE = new Float64Array(Piece.Words);

/** PIECE[o..o+2] = the mesh-frame point MESH_PIECE[m..m+2] in world. */
function toWorld(m: number, o: number): void {
  const x = MESH_PIECE[m];
  const y = MESH_PIECE[m + 1];
  const z = MESH_PIECE[m + 2];
  const e = Local.Axes;
  PIECE[o] = LOCAL[Local.Origin] + x * LOCAL[e] + y * LOCAL[e + 3] + z * LOCAL[e + 6];
  PIECE[o + 1] = LOCAL[Local.Origin + 1] + x * LOCAL[e + 1] + y * LOCAL[e + 4] + z * LOCAL[e + 7];
  PIECE[o + 2] = LOCAL[Local.Origin + 2] + x * LOCAL[e + 2] + y * LOCAL[e + 5] + z * LOCAL[e + 8];
}

/** MESH_PIECE as a world piece in PIECE (normal flipped: from the shape, side 0, to the mesh). */
function meshToWorld(): void {
  const nx = MESH_PIECE[Piece.Normal];
  const ny = MESH_PIECE[Piece.Normal + 1];
  const nz = MESH_PIECE[Piece.Normal + 2];
  const e = Local.Axes;
  PIECE[Piece.Distance] = MESH_PIECE[Piece.Distance];
  PIECE[Piece.Closing] = MESH_PIECE[Piece.Closing];
  PIECE[Piece.Normal] = -(nx * LOCAL[e] + ny * LOCAL[e + 3] + nz * LOCAL[e + 6]);
  PIECE[Piece.Normal + 1] = -(nx * LOCAL[e + 1] + ny * LOCAL[e + 4] + nz * LOCAL[e + 7]);
  PIECE[Piece.Normal + 2] = -(nx * LOCAL[e + 2] + ny * LOCAL[e + 5] + nz * LOCAL[e + 8]);
  toWorld(Piece.PointA, Piece.PointA);
  toWorld(Piece.PointB, Piece.PointB);
}

/** Folds MESH_PIECE in: far pieces only tighten the step (no world transform needed). */
function meshPiece(): void {
  const d = MESH_PIECE[Piece.Distance];
  const c = MESH_PIECE[Piece.Closing];
  if (d > PARAMS[Param.Tolerance]) {
    const step = c > 0 ? (d - PARAMS[Param.Target]) / c : Number.POSITIVE_INFINITY;
    if (step < PARAMS[Param.Step]) PARAMS[Param.Step] = step;
    if (sample.hit || (sample.found && d >= SAMPLE[Contact.Distance])) return;
    meshToWorld();
    keepPiece(SAMPLE);
    sample.found = true;
    return;
  }
  meshToWorld();
  piece();
}

/**
 * Overlap with the triangle in TRI: normal = the face normal turned towards the shape's centre (or the
 * direction from the nearest triangle point for a sphere whose centre is outside it), point = the
 * triangle point nearest the centre; depth reported for spheres only (0 for boxes).
 */
function meshOverlap(sphere: boolean): void {
  const px = LOCAL[Local.Shape];
  const py = LOCAL[Local.Shape + 1];
  const pz = LOCAL[Local.Shape + 2];
  const r = sphere ? sides[0][Side.RAD] : 0;
  closestPointOnTriangle(TRI, 0, LOCAL, Local.Shape, NEAREST);
  const qx = NEAREST[0];
  const qy = NEAREST[1];
  const qz = NEAREST[2];
  let nx = px - qx;
  let ny = py - qy;
  let nz = pz - qz;
  let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  let depth = 0;
  if (len > 0 && r > 0 && len < r) {
    depth = r - len;
  } else {
    const ux = TRI[3] - TRI[0];
    const uy = TRI[4] - TRI[1];
    const uz = TRI[5] - TRI[2];
    const vx = TRI[6] - TRI[0];
    const vy = TRI[7] - TRI[1];
    const vz = TRI[8] - TRI[2];
    let fx = uy * vz - uz * vy;
    let fy = uz * vx - ux * vz;
    let fz = ux * vy - uy * vx;
    if (fx * nx + fy * ny + fz * nz < 0) {
      fx = -fx;
      fy = -fy;
      fz = -fz;
    }
    nx = fx;
    ny = fy;
    nz = fz;
    len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (r > 0) depth = r;
  }
  const n = Piece.Normal;
  MESH_PIECE[Piece.Distance] = -depth;
  MESH_PIECE[Piece.Closing] = 0;
  MESH_PIECE[n] = nx / len;
  MESH_PIECE[n + 1] = ny / len;
  MESH_PIECE[n + 2] = nz / len;
  MESH_PIECE[Piece.PointA] = px - MESH_PIECE[n] * r;
  MESH_PIECE[Piece.PointA + 1] = py - MESH_PIECE[n + 1] * r;
  MESH_PIECE[Piece.PointA + 2] = pz - MESH_PIECE[n + 2] * r;
  MESH_PIECE[Piece.PointB] = qx;
  MESH_PIECE[Piece.PointB + 1] = qy;
  MESH_PIECE[Piece.PointB + 2] = qz;
  meshToWorld();
  keepPiece(OVERLAP);
  sample.overlap = true;
}

/** The sphere (centre LOCAL[0..2], radius of side 0) against the triangle in TRI. */
function sphereTriangle(): void {
  const px = LOCAL[Local.Shape];
  const py = LOCAL[Local.Shape + 1];
  const pz = LOCAL[Local.Shape + 2];
  const r = sides[0][Side.RAD];
  closestPointOnTriangle(TRI, 0, LOCAL, Local.Shape, NEAREST);
  const qx = NEAREST[0];
  const qy = NEAREST[1];
  const qz = NEAREST[2];
  const dx = px - qx;
  const dy = py - qy;
  const dz = pz - qz;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const d = dist - r;
  if (dist === 0 || d < 0) {
    meshOverlap(true);
    return;
  }
  const nx = dx / dist;
  const ny = dy / dist;
  const nz = dz / dist;
  const v = Local.Velocity;
  MESH_PIECE[Piece.Distance] = d;
  MESH_PIECE[Piece.Closing] = LOCAL[v] * nx + LOCAL[v + 1] * ny + LOCAL[v + 2] * nz + PARAMS[Param.Rotation];
  MESH_PIECE[Piece.Normal] = nx;
  MESH_PIECE[Piece.Normal + 1] = ny;
  MESH_PIECE[Piece.Normal + 2] = nz;
  MESH_PIECE[Piece.PointA] = px - nx * r;
  MESH_PIECE[Piece.PointA + 1] = py - ny * r;
  MESH_PIECE[Piece.PointA + 2] = pz - nz * r;
  MESH_PIECE[Piece.PointB] = qx;
  MESH_PIECE[Piece.PointB + 1] = qy;
  MESH_PIECE[Piece.PointB + 2] = qz;
  meshPiece();
}

/** The box (OBB LOCAL[0..14]) against the triangle in TRI. */
function boxTriangle(): void {
  if (gjkDistance(GJK_TRIANGLE, TRI, 0, GJK_BOX, LOCAL, Local.Shape, null) < 0) {
    meshOverlap(false);
    return;
  }
  const nrm = gjk.normal; // triangle (mesh) → box
  const pm = gjk.pointA;
  const ps = gjk.pointB;
  const v = Local.Velocity;
  MESH_PIECE[Piece.Distance] = Math.max(gjk.result[GJK_SEPARATION], 0);
  MESH_PIECE[Piece.Closing] =
    LOCAL[v] * nrm[0] + LOCAL[v + 1] * nrm[1] + LOCAL[v + 2] * nrm[2] + PARAMS[Param.Rotation];
  for (let i = 0; i < 3; i++) {
    MESH_PIECE[Piece.Normal + i] = nrm[i];
    MESH_PIECE[Piece.PointA + i] = ps[i];
    MESH_PIECE[Piece.PointB + i] = pm[i];
  }
  meshPiece();
}

// --- the walk ---------------------------------------------------------------------------------------------

/**
 * KEYS[KEY] = a time before which no triangle under the node whose bounds start at word `w` of `f` can
 * come within tolerance of the shape (0 when the node may be within tolerance already). The node's box is
 * convex and holds its triangles, so along any direction n (mesh → shape) in which the shape and the box
 * are separated by g, every triangle below is separated by at least g, and that shrinks at most at the
 * closing rate c = (vM − vS)·n + |ωA|LA + |ωB|LB (Eq. 32 applied to the node, projected like the convex
 * pairs'): no contact before (g − target)/c. The best of several directions is kept — the node's three
 * axes, the box shape's three axes, and for a sphere the exact direction from the box's nearest point —
 * so a node the shape passes by or moves away from is skipped even when it is near.
 */
function nodeBound(f: Float32Array, w: number, sphere: boolean): void {
  const cx = 0.5 * (f[w] + f[w + 3]);
  const cy = 0.5 * (f[w + 1] + f[w + 4]);
  const cz = 0.5 * (f[w + 2] + f[w + 5]);
  const hx = 0.5 * (f[w + 3] - f[w]);
  const hy = 0.5 * (f[w + 4] - f[w + 1]);
  const hz = 0.5 * (f[w + 5] - f[w + 2]);
  const dx = LOCAL[Local.Shape] - cx;
  const dy = LOCAL[Local.Shape + 1] - cy;
  const dz = LOCAL[Local.Shape + 2] - cz;
  const tol = PARAMS[Param.Tolerance];
  const target = PARAMS[Param.Target];
  const rot = PARAMS[Param.Rotation];
  const vx = LOCAL[Local.Velocity];
  const vy = LOCAL[Local.Velocity + 1];
  const vz = LOCAL[Local.Velocity + 2];
  let best = 0;
  let g: number;
  let c: number;
  let tau: number;
  // extent of the shape's core along the node axes (box) or its radius (sphere)
  let ex = 0;
  let ey = 0;
  let ez = 0;
  let r = 0;
  if (sphere) {
    r = sides[0][Side.RAD];
    const qx = Math.abs(dx) - hx;
    const qy = Math.abs(dy) - hy;
    const qz = Math.abs(dz) - hz;
    const px = qx > 0 ? (dx > 0 ? qx : -qx) : 0;
    const py = qy > 0 ? (dy > 0 ? qy : -qy) : 0;
    const pz = qz > 0 ? (dz > 0 ? qz : -qz) : 0;
    const l = Math.sqrt(px * px + py * py + pz * pz);
    g = l - r;
    if (g <= tol) {
      KEYS[KEY] = 0;
      return;
    }
    c = (vx * px + vy * py + vz * pz) / l + rot;
    best = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
  } else {
    const a = Local.Shape + Obb.Axes;
    const a0 = LOCAL[Local.Shape + Obb.Half];
    const a1 = LOCAL[Local.Shape + Obb.Half + 1];
    const a2 = LOCAL[Local.Shape + Obb.Half + 2];
    ex = Math.abs(LOCAL[a]) * a0 + Math.abs(LOCAL[a + 3]) * a1 + Math.abs(LOCAL[a + 6]) * a2;
    ey = Math.abs(LOCAL[a + 1]) * a0 + Math.abs(LOCAL[a + 4]) * a1 + Math.abs(LOCAL[a + 7]) * a2;
    ez = Math.abs(LOCAL[a + 2]) * a0 + Math.abs(LOCAL[a + 5]) * a1 + Math.abs(LOCAL[a + 8]) * a2;
    // the box's own axes
    for (let j = 0; j < 3; j++) {
      const ux = LOCAL[a + 3 * j];
      const uy = LOCAL[a + 1 + 3 * j];
      const uz = LOCAL[a + 2 + 3 * j];
      const du = dx * ux + dy * uy + dz * uz;
      g =
        Math.abs(du) -
        LOCAL[Local.Shape + Obb.Half + j] -
        (hx * Math.abs(ux) + hy * Math.abs(uy) + hz * Math.abs(uz));
      if (g > tol) {
        c = (du > 0 ? 1 : -1) * (vx * ux + vy * uy + vz * uz) + rot;
        tau = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
        if (tau > best) best = tau;
      }
    }
  }
  // the node's axes
  g = Math.abs(dx) - hx - ex - r;
  if (g > tol) {
    c = (dx > 0 ? vx : -vx) + rot;
    tau = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
    if (tau > best) best = tau;
  }
  g = Math.abs(dy) - hy - ey - r;
  if (g > tol) {
    c = (dy > 0 ? vy : -vy) + rot;
    tau = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
    if (tau > best) best = tau;
  }
  g = Math.abs(dz) - hz - ez - r;
  if (g > tol) {
    c = (dz > 0 ? vz : -vz) + rot;
    tau = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
    if (tau > best) best = tau;
  }
  KEYS[KEY] = best;
}

/** The keys of the ordered walk: a node's time bound (KEY) and the cutoff (CUTOFF) just below the step. */
const KEYS = new Float64Array(2);
// KEYS[CUTOFF] = the largest double below PARAMS[Param.Step]: the walk visits a popped node when its key
// is ≤ the cutoff, i.e. strictly sooner than the best step (a node that cannot beat it is skipped). The
// step is > 0 or +Infinity; the predecessor is its bit pattern minus one.
const STEP_BITS = new Float64Array(1);
const STEP_WORDS = new Uint32Array(STEP_BITS.buffer);
const LOW_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
function setCutoff(): void {
  const step = PARAMS[Param.Step];
  if (step > 0) {
    STEP_BITS[0] = step;
    if (STEP_WORDS[LOW_WORD] === 0) {
      STEP_WORDS[LOW_WORD] = 0xffffffff;
      STEP_WORDS[1 - LOW_WORD]--;
    } else {
      STEP_WORDS[LOW_WORD]--;
    }
    KEYS[CUTOFF] = STEP_BITS[0];
  } else {
    KEYS[CUTOFF] = Number.NEGATIVE_INFINITY;
  }
}

let bvhNow: MeshBVH | null = null;

/** Tests the triangles of a leaf; ends the walk on an overlap. */
function testRange(offset: number, count: number, sphere: boolean): boolean {
  const tv = (bvhNow as MeshBVH).triVerts;
  for (let s = offset, end = offset + count; s < end; s++) {
    const o = 9 * s;
    for (let k = 0; k < 9; k++) TRI[k] = tv[o + k];
    if (isDegenerateTriangleAt(TRI, 0)) continue;
    if (sphere) sphereTriangle();
    else boxTriangle();
    if (sample.overlap) return true;
  }
  setCutoff();
  return false;
}

/** The sphere's walk: ordered by {@link nodeBound}, nodes that cannot beat the best step skipped. */
const sphereCast: BvhCast = {
  keys: KEYS,
  intersectsBounds(f: Float32Array, w: number): boolean {
    nodeBound(f, w, true);
    return !(KEYS[KEY] >= PARAMS[Param.Step]);
  },
  intersectsRange(offset: number, count: number): boolean {
    return testRange(offset, count, true);
  },
};

/** The box's walk, as {@link sphereCast}. */
const boxCast: BvhCast = {
  keys: KEYS,
  intersectsBounds(f: Float32Array, w: number): boolean {
    nodeBound(f, w, false);
    return !(KEYS[KEY] >= PARAMS[Param.Step]);
  },
  intersectsRange(offset: number, count: number): boolean {
    return testRange(offset, count, false);
  },
};

/**
 * Folds the mesh (side 1, `bvh`) against the sphere or box of side 0 into the current sample: sets the
 * mesh frame, brings the shape and the relative velocity into it, and walks the tree.
 */
export function shapeMesh(bvh: MeshBVH, sphere: boolean): void {
  const S = sides[0];
  const M = sides[1];
  // Mesh frame at t: origin = the shape centre of the mesh side, axes = its OBB axes.
  for (let i = 0; i < 3; i++) LOCAL[Local.Origin + i] = M[Side.OBB + i];
  for (let i = 0; i < 9; i++) LOCAL[Local.Axes + i] = M[Side.OBB + Obb.Axes + i];
  const ox = S[Side.OBB] - LOCAL[Local.Origin];
  const oy = S[Side.OBB + 1] - LOCAL[Local.Origin + 1];
  const oz = S[Side.OBB + 2] - LOCAL[Local.Origin + 2];
  const rvx = M[Side.VD] - S[Side.VD];
  const rvy = M[Side.VD + 1] - S[Side.VD + 1];
  const rvz = M[Side.VD + 2] - S[Side.VD + 2];
  for (let k = 0; k < 3; k++) {
    const e = Local.Axes + 3 * k;
    LOCAL[Local.Shape + k] = ox * LOCAL[e] + oy * LOCAL[e + 1] + oz * LOCAL[e + 2];
    LOCAL[Local.Velocity + k] = rvx * LOCAL[e] + rvy * LOCAL[e + 1] + rvz * LOCAL[e + 2];
  }
  if (!sphere) {
    // box axes in the mesh frame: component k of axis j = axis_j · e_k
    for (let j = 0; j < 3; j++) {
      const a = Side.OBB + Obb.Axes + 3 * j;
      for (let k = 0; k < 3; k++) {
        const e = Local.Axes + 3 * k;
        LOCAL[Local.Shape + Obb.Axes + 3 * j + k] =
          S[a] * LOCAL[e] + S[a + 1] * LOCAL[e + 1] + S[a + 2] * LOCAL[e + 2];
      }
      LOCAL[Local.Shape + Obb.Half + j] = S[Side.OBB + Obb.Half + j];
    }
  }
  PARAMS[Param.Rotation] = S[Side.WL] + M[Side.WL];
  bvhNow = bvh;
  setCutoff();
  shapecast(bvh, sphere ? sphereCast : boxCast);
  bvhNow = null;
}
