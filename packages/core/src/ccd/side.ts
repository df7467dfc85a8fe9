/**
 * One body of a continuous-collision query, prepared once per call into a flat `Float64Array` (no
 * allocation): validated inputs, the motion of the hard-rigid-body event-driven MD paper (§2.2) reduced to a start
 * pose, a displacement and a rotation angle about a fixed axis, the bound L of Eq. 33 (the largest
 * distance from the rotation centre to the shape's core), and the pose at any time t ∈ [0, 1] of the frame.
 *
 * "Core + radius": a sphere is its centre (a point) grown by its radius, a box and a mesh have radius 0.
 * Rotating a sphere about its own centre changes nothing, so its L is only |offset| — Eq. 32 with L
 * measured to the core is still an upper bound on how fast the distance can shrink (the radius part of
 * the surface moves rigidly with the core).
 *
 * 2-D bodies use the same record with z = 0 and ω along z (a rectangle is a box of zero z extent).
 */
import { MeshBVH } from '../bvh/MeshBVH.js';
import { checkFinite, checkFiniteArray, checkNonNegative, checkNonNegativeArray } from '../math/checks.js';
import { quatMultiply, quatRotate, unitQuatToAxes } from '../math/quat.js';
import type { CcdMotion, CcdMotion2D, CcdShape, CcdShape2D } from './types.js';

/** Shape kinds inside the module. Pairs are ordered by kind (a mesh is always side B). */
export const KIND_SPHERE = 0;
export const KIND_BOX = 1;
export const KIND_MESH = 2;

/**
 * Record layout of a side: offsets into its `Float64Array`. An enum, so the build writes the offsets
 * into the code as literals (a module-level constant is a context load at every use in V8, and these
 * are read at every step of the time of impact).
 */
export enum Side {
  /** Body rotation centre at t = 0. */
  P0 = 0,
  /** Displacement over the frame, v·dt. */
  VD = 3,
  /** Rotation over the frame as a vector, ω·dt (world). */
  WD = 6,
  /** Unit rotation axis (valid when TH > 0). */
  AX = 9,
  /** Rotation angle over the frame, |ω|·dt. */
  TH = 12,
  /** Shape's world orientation at t = 0 (body quaternion ⊗ local orientation), normalized. */
  Q0 = 13,
  /** Shape centre minus body centre at t = 0 (world). */
  O0 = 17,
  /** Core radius (sphere radius; 0 for box and mesh). */
  RAD = 20,
  /** Current pose as a 15-number OBB: centre, axes (rows), half extents (box; zero otherwise). */
  OBB = 21,
  /** Bound L (Eq. 33): largest distance from the body centre to the shape's core. */
  LB = 36,
  /** Rotation term of Eq. 32 over the frame: |ω|·dt·L. */
  WL = 37,
  /** Body centre at the current t. */
  BC = 38,
  /** Size used for the default tolerance (radius / half diagonal). */
  SIZE = 41,
  /** Local bound of the core about the shape's own centre (box half diagonal, mesh vertex bound). */
  CORE = 42,
  /** Numbers per side record. */
  Words = 43,
}

/** The two sides of the current query. */
export const sides = [new Float64Array(Side.Words), new Float64Array(Side.Words)];
/** Kind of each side. */
export const kinds = new Int32Array(2);
/** BVH of each side (mesh kind only). */
export const meshes: (MeshBVH | null)[] = [null, null];

const QL = new Float64Array(4);

// Argument checks that build the argument's name (`motionA.position`) only when they throw: the
// validating entry points run every frame and must not allocate.
function vec(
  fn: string,
  prefix: string,
  field: string,
  a: ArrayLike<number>,
  len: number,
  nonNeg: boolean,
): void {
  if (a !== null && typeof a === 'object' && a.length >= len) {
    let ok = true;
    for (let i = 0; i < len; i++) {
      const v = a[i];
      if (typeof v !== 'number' || v - v !== 0 || (nonNeg && v < 0)) ok = false;
    }
    if (ok) return;
  }
  if (nonNeg) checkNonNegativeArray(fn, `${prefix}.${field}`, a, len);
  else checkFiniteArray(fn, `${prefix}.${field}`, a, len);
}

// Scalar checks are written inline at each use (the throwing check is called only on bad input):
// passing a double field to a function boxes it in V8.

function normalizeInto(
  fn: string,
  prefix: string,
  field: string,
  q: ArrayLike<number>,
  out: Float64Array,
): void {
  const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0)) throw new RangeError(`${fn}: ${prefix}.${field} must not be a zero quaternion`);
  out[0] = q[0] / n;
  out[1] = q[1] / n;
  out[2] = q[2] / n;
  out[3] = q[3] / n;
}

const TMPQ = new Float64Array(4);
const DQ = new Float64Array(4);

/**
 * Bound on |x| over a BVH's local vertices, √Σ max(|min_i|, |max_i|)² of the root box (conservative, no
 * pass over the vertices), and the root box's half diagonal; written to `out[0..1]`.
 */
function meshBound(bvh: MeshBVH, out: Float64Array): void {
  const f = bvh.nodeF32;
  out[0] = 0;
  out[1] = 0;
  if (bvh.triangleCount === 0) return;
  let s = 0;
  let h = 0;
  for (let i = 0; i < 3; i++) {
    const m = Math.max(Math.abs(f[i]), Math.abs(f[3 + i]));
    s += m * m;
    const e = 0.5 * (f[3 + i] - f[i]);
    h += e * e;
  }
  out[0] = Math.sqrt(s);
  out[1] = Math.sqrt(h);
}
const MB = new Float64Array(2);

// |a[o..o+2]| without overflow or underflow of the squares (Infinity only past the double range).
function norm3(a: Float64Array, o: number): number {
  const m = Math.max(Math.abs(a[o]), Math.abs(a[o + 1]), Math.abs(a[o + 2]));
  if (m === 0 || m === Number.POSITIVE_INFINITY) return m;
  const x = a[o] / m;
  const y = a[o + 1] / m;
  const z = a[o + 2] / m;
  return m * Math.sqrt(x * x + y * y + z * z);
}

// Velocities of the side being prepared, copied into typed arrays first: [v (3), ω (3)] (per unit time).
const VW = new Float64Array(6);

// Motion terms from VW and DT, then the pose at t = 0.
function finishMotion(side: number): void {
  const S = sides[side];
  const dt = DT[0];
  for (let k = 0; k < 3; k++) {
    S[Side.VD + k] = VW[k] * dt;
    S[Side.WD + k] = VW[3 + k] * dt;
  }
  let th = Math.sqrt(
    S[Side.WD] * S[Side.WD] + S[Side.WD + 1] * S[Side.WD + 1] + S[Side.WD + 2] * S[Side.WD + 2],
  );
  // |ω|·dt past ~1e154 overflows when squared: scaled (Infinity only past the double range).
  if (th === Number.POSITIVE_INFINITY) th = norm3(S, Side.WD);
  S[Side.TH] = th;
  if (th > 0 && th < Number.POSITIVE_INFINITY) {
    S[Side.AX] = S[Side.WD] / th;
    S[Side.AX + 1] = S[Side.WD + 1] / th;
    S[Side.AX + 2] = S[Side.WD + 2] / th;
  } else {
    S[Side.AX] = 0;
    S[Side.AX + 1] = 0;
    S[Side.AX + 2] = 1;
  }
  // |ω|·dt·L, 0 when either is 0 (an infinite L or angle must not make 0 · ∞ = NaN)
  S[Side.WL] = th > 0 && S[Side.LB] > 0 ? th * S[Side.LB] : 0;
  // Start pose; kept as the pose for every t when the body does not turn.
  unitQuatToAxes(S, Side.Q0, S, Side.OBB + 3);
  TIME[0] = 0;
  poseAt(side);
}

// Sets LB, SIZE and CORE from SH.
function finishShape(side: number): void {
  const S = sides[side];
  S[Side.CORE] = SH[SH_CORE];
  S[Side.LB] =
    Math.sqrt(
      SH[SH_OFFSET] * SH[SH_OFFSET] +
        SH[SH_OFFSET + 1] * SH[SH_OFFSET + 1] +
        SH[SH_OFFSET + 2] * SH[SH_OFFSET + 2],
    ) + SH[SH_CORE];
  S[Side.SIZE] = SH[SH_SIZE];
}

/** The shape being prepared, laid out by the `SH_*` offsets: read by {@link finishShape}. */
const SH = new Float64Array(5);
/** `SH` offset: shape centre minus body centre, world (3). */
const SH_OFFSET = 0;
/** `SH` offset: extent of the core about the shape's centre (1). */
const SH_CORE = 3;
/** `SH` offset: size for the default tolerance (1). */
const SH_SIZE = 4;
/** Frame length for the next {@link prepareSide} / {@link prepareSide2D} call (set by the caller). */
export const DT = new Float64Array(1);
/** Frame time t ∈ [0, 1] for the next {@link poseAt} call (set by the caller). */
export const TIME = new Float64Array(1);

/**
 * Prepares side `side` (0 or 1) from a 3-D shape and motion; throws a RangeError/TypeError naming the
 * argument (`${fn}: ${name}.radius must be ...`) on bad input.
 */
export function prepareSide(
  side: number,
  shape: CcdShape,
  motion: CcdMotion,
  fn: string,
  name: string,
  mn: string,
): void {
  const S = sides[side];
  if (shape === null || typeof shape !== 'object')
    throw new TypeError(`${fn}: ${name} must be a shape object`);
  if (motion === null || typeof motion !== 'object')
    throw new TypeError(`${fn}: ${mn} must be a motion object`);
  vec(fn, mn, 'position', motion.position, 3, false);
  vec(fn, mn, 'quaternion', motion.quaternion, 4, false);
  vec(fn, mn, 'linearVelocity', motion.linearVelocity, 3, false);
  vec(fn, mn, 'angularVelocity', motion.angularVelocity, 3, false);
  normalizeInto(fn, mn, 'quaternion', motion.quaternion, TMPQ);
  const off =
    shape.kind === 'sphere' || shape.kind === 'box' || shape.kind === 'mesh' ? shape.offset : undefined;
  let ox = 0;
  let oy = 0;
  let oz = 0;
  if (off !== undefined) {
    vec(fn, name, 'offset', off, 3, false);
    ox = off[0];
    oy = off[1];
    oz = off[2];
  }
  const orient = shape.kind === 'box' || shape.kind === 'mesh' ? shape.orientation : undefined;
  if (orient !== undefined) {
    vec(fn, name, 'orientation', orient, 4, false);
    normalizeInto(fn, name, 'orientation', orient, QL);
    quatMultiply(TMPQ, 0, QL, 0, S, Side.Q0);
  } else {
    for (let i = 0; i < 4; i++) S[Side.Q0 + i] = TMPQ[i];
  }
  SH[SH_OFFSET] = ox;
  SH[SH_OFFSET + 1] = oy;
  SH[SH_OFFSET + 2] = oz;
  quatRotate(TMPQ, 0, SH, SH_OFFSET, S, Side.O0);
  for (let i = 0; i < 3; i++) S[Side.P0 + i] = motion.position[i];
  meshes[side] = null;
  S[Side.RAD] = 0;
  S[Side.OBB + 12] = 0;
  S[Side.OBB + 13] = 0;
  S[Side.OBB + 14] = 0;
  if (shape.kind === 'sphere') {
    // A BigInt or Symbol cannot even be stored in a typed array: type first, then stored before the
    // range check (a typed-array store keeps the double unboxed).
    if (typeof shape.radius !== 'number') checkNonNegative(fn, `${name}.radius`, shape.radius);
    S[Side.RAD] = shape.radius;
    const radius = S[Side.RAD];
    if (!(radius >= 0 && radius < Number.POSITIVE_INFINITY && typeof shape.radius === 'number'))
      checkNonNegative(fn, `${name}.radius`, shape.radius);
    kinds[side] = KIND_SPHERE;
    SH[SH_CORE] = 0;
    SH[SH_SIZE] = radius;
    finishShape(side);
  } else if (shape.kind === 'box') {
    vec(fn, name, 'halfExtents', shape.halfExtents, 3, true);
    kinds[side] = KIND_BOX;
    const h = shape.halfExtents;
    S[Side.OBB + 12] = h[0];
    S[Side.OBB + 13] = h[1];
    S[Side.OBB + 14] = h[2];
    let r = Math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    if (r === Number.POSITIVE_INFINITY) r = norm3(S, Side.OBB + 12); // half extents past ~1e154
    SH[SH_CORE] = r;
    SH[SH_SIZE] = r;
    finishShape(side);
  } else if (shape.kind === 'mesh') {
    if (!(shape.bvh instanceof MeshBVH)) throw new TypeError(`${fn}: ${name}.bvh must be a MeshBVH`);
    kinds[side] = KIND_MESH;
    meshes[side] = shape.bvh;
    meshBound(shape.bvh, MB);
    SH[SH_CORE] = MB[0];
    SH[SH_SIZE] = MB[1];
    finishShape(side);
  } else {
    throw new TypeError(
      `${fn}: ${name}.kind must be 'sphere', 'box' or 'mesh', got ${String((shape as { kind: unknown }).kind)}`,
    );
  }
  const v = motion.linearVelocity;
  const w = motion.angularVelocity;
  VW[0] = v[0];
  VW[1] = v[1];
  VW[2] = v[2];
  VW[3] = w[0];
  VW[4] = w[1];
  VW[5] = w[2];
  finishMotion(side);
}

/** As {@link prepareSide} for a 2-D shape and motion (mapped to the plane z = 0). */
export function prepareSide2D(
  side: number,
  shape: CcdShape2D,
  motion: CcdMotion2D,
  fn: string,
  name: string,
  mn: string,
): void {
  const S = sides[side];
  if (shape === null || typeof shape !== 'object')
    throw new TypeError(`${fn}: ${name} must be a shape object`);
  if (motion === null || typeof motion !== 'object')
    throw new TypeError(`${fn}: ${mn} must be a motion object`);
  vec(fn, mn, 'position', motion.position, 2, false);
  if (!(typeof motion.angle === 'number' && motion.angle - motion.angle === 0))
    checkFinite(fn, `${mn}.angle`, motion.angle);
  vec(fn, mn, 'linearVelocity', motion.linearVelocity, 2, false);
  if (!(typeof motion.angularVelocity === 'number' && motion.angularVelocity - motion.angularVelocity === 0))
    checkFinite(fn, `${mn}.angularVelocity`, motion.angularVelocity);
  let ox = 0;
  let oy = 0;
  if (shape.offset !== undefined) {
    vec(fn, name, 'offset', shape.offset, 2, false);
    ox = shape.offset[0];
    oy = shape.offset[1];
  }
  let angle = motion.angle;
  const c0 = Math.cos(angle);
  const s0 = Math.sin(angle);
  S[Side.O0] = c0 * ox - s0 * oy;
  S[Side.O0 + 1] = s0 * ox + c0 * oy;
  S[Side.O0 + 2] = 0;
  S[Side.P0] = motion.position[0];
  S[Side.P0 + 1] = motion.position[1];
  S[Side.P0 + 2] = 0;
  meshes[side] = null;
  S[Side.RAD] = 0;
  S[Side.OBB + 12] = 0;
  S[Side.OBB + 13] = 0;
  S[Side.OBB + 14] = 0;
  if (shape.kind === 'circle') {
    if (!(typeof shape.radius === 'number' && shape.radius - shape.radius === 0 && shape.radius >= 0))
      checkNonNegative(fn, `${name}.radius`, shape.radius);
    kinds[side] = KIND_SPHERE;
    S[Side.RAD] = shape.radius;
    SH[SH_OFFSET] = ox;
    SH[SH_OFFSET + 1] = oy;
    SH[SH_OFFSET + 2] = 0;
    SH[SH_CORE] = 0;
    SH[SH_SIZE] = shape.radius;
    finishShape(side);
  } else if (shape.kind === 'box') {
    vec(fn, name, 'halfExtents', shape.halfExtents, 2, true);
    if (shape.angle !== undefined) {
      if (!(typeof shape.angle === 'number' && shape.angle - shape.angle === 0))
        checkFinite(fn, `${name}.angle`, shape.angle);
      angle += shape.angle;
    }
    kinds[side] = KIND_BOX;
    S[Side.OBB + 12] = shape.halfExtents[0];
    S[Side.OBB + 13] = shape.halfExtents[1];
    let r = Math.sqrt(
      shape.halfExtents[0] * shape.halfExtents[0] + shape.halfExtents[1] * shape.halfExtents[1],
    );
    if (r === Number.POSITIVE_INFINITY) r = norm3(S, Side.OBB + 12); // half extents past ~1e154 (z is 0)
    SH[SH_OFFSET] = ox;
    SH[SH_OFFSET + 1] = oy;
    SH[SH_OFFSET + 2] = 0;
    SH[SH_CORE] = r;
    SH[SH_SIZE] = r;
    finishShape(side);
  } else {
    throw new TypeError(
      `${fn}: ${name}.kind must be 'circle' or 'box', got ${String((shape as { kind: unknown }).kind)}`,
    );
  }
  S[Side.Q0] = 0;
  S[Side.Q0 + 1] = 0;
  S[Side.Q0 + 2] = Math.sin(0.5 * angle);
  S[Side.Q0 + 3] = Math.cos(0.5 * angle);
  VW[0] = motion.linearVelocity[0];
  VW[1] = motion.linearVelocity[1];
  VW[2] = 0;
  VW[3] = 0;
  VW[4] = 0;
  VW[5] = motion.angularVelocity;
  finishMotion(side);
}

/**
 * Sets the side's current pose (body centre BC, shape OBB centre and axes) at frame time t = TIME[0].
 * Without rotation the axes set at preparation are kept.
 */
export function poseAt(side: number): void {
  const S = sides[side];
  const t = TIME[0];
  // t · v·dt is NaN only for t = 0 with a displacement past the double range: the start, then.
  const tx = t * S[Side.VD];
  const ty = t * S[Side.VD + 1];
  const tz = t * S[Side.VD + 2];
  const bx = S[Side.P0] + (Number.isNaN(tx) ? 0 : tx);
  const by = S[Side.P0 + 1] + (Number.isNaN(ty) ? 0 : ty);
  const bz = S[Side.P0 + 2] + (Number.isNaN(tz) ? 0 : tz);
  S[Side.BC] = bx;
  S[Side.BC + 1] = by;
  S[Side.BC + 2] = bz;
  const th = S[Side.TH];
  if (th === 0) {
    S[Side.OBB] = bx + S[Side.O0];
    S[Side.OBB + 1] = by + S[Side.O0 + 1];
    S[Side.OBB + 2] = bz + S[Side.O0 + 2];
    return;
  }
  let half = 0.5 * t * th;
  if (Number.isNaN(half)) half = 0; // t = 0 with an infinite angle: the start orientation
  const s = Math.sin(half);
  DQ[0] = s * S[Side.AX];
  DQ[1] = s * S[Side.AX + 1];
  DQ[2] = s * S[Side.AX + 2];
  DQ[3] = Math.cos(half);
  quatMultiply(DQ, 0, S, Side.Q0, TMPQ, 0);
  unitQuatToAxes(TMPQ, 0, S, Side.OBB + 3);
  quatRotate(DQ, 0, S, Side.O0, S, Side.OBB);
  S[Side.OBB] += bx;
  S[Side.OBB + 1] += by;
  S[Side.OBB + 2] += bz;
}
