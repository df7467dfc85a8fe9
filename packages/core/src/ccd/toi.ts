/**
 * Time of impact of two moving bodies over a frame by conservative advancement: spheres, boxes and
 * triangle meshes (through their BVH) in 3-D; circles and rectangles in 2-D.
 *
 * Follows seeds/003_242aab26ee069742.txt §2.4.2: the distance between two rigid bodies cannot shrink
 * faster than ‖vA − vB‖ + ‖ωA‖LA + ‖ωB‖LB (Eq. 32, LA and LB the bounds of Eq. 33), so from a time t at
 * distance d(t) no contact can happen before t + d(t)/ḋmax (Eq. 39): step by that, re-measure, repeat.
 * For convex pairs the linear part is projected on the closest-point normal n (the separation along a
 * fixed n shrinks at most at (vA − vB)·n + ‖ωA‖LA + ‖ωB‖LB, and d ≥ that separation: the bound behind
 * Mirtich's conservative advancement and Box2D's time of impact), so a body passing alongside another
 * is not slowed by its tangential speed — this is what keeps grazing passes cheap. A triangle mesh is
 * not convex: each triangle is (§2.4.2's bound per convex piece), and so is each BVH node's box, which
 * holds its triangles: a node's separation from the shape along its own separating direction, over
 * the closing rate along that direction, is a time no triangle below can beat — the traversal skips
 * nodes that cannot limit the step (and every node the shape moves away from).
 *
 * Grazing (§2.4.2 step 6): when the bodies are within `tolerance` but not approaching at the closest
 * points, the step is tolerance / ḋmax (Eq. 39's second branch), so a body sliding or skimming past is
 * not reported as a hit; if the next sample overlaps, the hit is reported at the last sample that was
 * free of contact (never later than a true contact).
 *
 * Distances: sphere–sphere exactly; sphere–box by OCSI's closest point (seeds/000_e0da60409bb15c04.txt
 * Eq. 2, inlined unchecked as in the BVH queries); box–box, box–triangle by GJK (`gjk.ts`), whose
 * separation is a certified lower bound; sphere–triangle by Ericson's closest point (`bvh/triangle.ts`).
 * Overlap at t = 0 reports the narrowphase contact (`ocsi.ts`, `obbObb.ts`).
 */
import type { MeshBVH } from '../bvh/MeshBVH.js';
import { NODE_WORDS } from '../bvh/nodes.js';
import { growArray } from '../growArray.js';
import { checkNonNegative } from '../math/validate.js';
import { obbObbContact, obbObbContact2D } from '../narrowphase/obbObb.js';
import { circleObbContact2D, sphereObbContact } from '../narrowphase/ocsi.js';
import { GJK_BOX, GJK_SEPARATION, GJK_TRIANGLE, gjk, gjkDistance } from './gjk.js';
import {
  BC,
  CORE,
  DT,
  KIND_BOX,
  KIND_MESH,
  KIND_SPHERE,
  kinds,
  LB,
  meshes,
  OBB,
  P0,
  poseAt,
  prepareSide,
  prepareSide2D,
  RAD,
  SIZE,
  sides,
  TIME,
  VD,
  WD,
  WL,
} from './side.js';
import {
  type CcdMotion,
  type CcdMotion2D,
  type CcdShape,
  type CcdShape2D,
  type TimeOfImpactOptions,
  type TimeOfImpactResult,
  type TimeOfImpactResult2D,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  TOI_SEPARATED,
} from './types.js';

/** Default iteration cap of {@link timeOfImpact}. */
export const TOI_MAX_ITERATIONS = 128;
/** Default tolerance as a fraction of the smaller shape's size. */
export const TOI_RELATIVE_TOLERANCE = 1e-3;
/**
 * The largest magnitude (2^200 ≈ 1.6e60) of a position coordinate, a displacement over the frame
 * (velocity × dt), a radius, a half extent or a mesh's size that {@link timeOfImpact} accepts: GJK's
 * determinants are products of up to four coordinate differences, which stay finite (and the answers
 * scale-invariant) far below the double range there. Larger values throw a RangeError naming the body.
 */
export const TOI_MAGNITUDE_LIMIT = 2 ** 200;

// Throws unless every magnitude of the prepared side `i` (body `shape`/`motion`) is within the limit.
function checkMagnitudes(fn: string, i: number, shape: string, motion: string): void {
  const S = sides[i];
  const limit = TOI_MAGNITUDE_LIMIT;
  for (let k = 0; k < 3; k++) {
    if (!(Math.abs(S[P0 + k]) <= limit) || !(Math.abs(S[OBB + k]) <= limit)) {
      throw new RangeError(
        `${fn}: ${motion}'s position (${S[P0 + k]} on axis ${k}) is beyond ±${limit.toExponential(2)}, the range time of impact supports`,
      );
    }
    if (!(Math.abs(S[VD + k]) <= limit)) {
      throw new RangeError(
        `${fn}: ${motion}'s velocity × dt (${S[VD + k]} on axis ${k}) is beyond ±${limit.toExponential(2)}, the range time of impact supports`,
      );
    }
  }
  const size = Math.max(S[RAD], S[OBB + 12], S[OBB + 13], S[OBB + 14], S[CORE], S[SIZE], S[LB], S[WL]);
  if (!(size <= limit)) {
    throw new RangeError(
      `${fn}: ${shape}'s size (${size}) is beyond ${limit.toExponential(2)}, the range time of impact supports`,
    );
  }
}

// Per-call parameters: 0 tolerance, 1 target distance (tolerance/2), 2 ε of "approaching", 3 step of the
// current evaluation, 4 (unused), 5 rotation terms |ωA|LA + |ωB|LB,
// 6 the time to emit.
const PAR = new Float64Array(8);
// Contact of the current evaluation (EV), of the last contact-free sample (SAVED), of an overlap (OV):
// 0 distance, 1–3 normal A→B, 4–6 point of A, 7–9 point of B (world).
const EV = new Float64Array(10);
const SAVED = new Float64Array(10);
const OV = new Float64Array(10);
let evHit = false;
let evOverlap = false;
let evHave = false;
let dim2 = false;
const HINT = new Float64Array(3);
const CONTACT = new Float64Array(7);
const OBB2A = new Float64Array(8);
const OBB2B = new Float64Array(8);
const CENTER = new Float64Array(3);
// Views of each side's pose as a 15-number OBB, for the narrowphase contact calls (made once).
const OBB_VIEW = [sides[0].subarray(OBB, OBB + 15), sides[1].subarray(OBB, OBB + 15)];

// The piece being folded in (world): 0 distance, 1 closing bound c, 2–4 normal A → B, 5–7 point of A,
// 8–10 point of B. Values travel through typed arrays, never as arguments: in V8 a double passed to (or
// returned from) a call that is not inlined is boxed on the heap, and these run per step.
const PC = new Float64Array(11);

// dst = [d, n, a, b] of the current piece.
function keep(dst: Float64Array): void {
  dst[0] = PC[0];
  for (let i = 1; i < 10; i++) dst[i] = PC[i + 1];
}

// PC[1] = closing-rate bound along the normal PC[2..4] (A → B): (vA − vB)·n + |ωA|LA + |ωB|LB, per frame.
function closing(): void {
  const A = sides[0];
  const B = sides[1];
  PC[1] =
    (A[VD] - B[VD]) * PC[2] +
    (A[VD + 1] - B[VD + 1]) * PC[3] +
    (A[VD + 2] - B[VD + 2]) * PC[4] +
    A[WL] +
    B[WL];
}

/**
 * Folds the convex piece in PC (not overlapping: distance ≥ 0) into the evaluation: the step it allows,
 * and whether it is a hit (within tolerance and approaching at the closest points).
 */
function piece(): void {
  const tol = PAR[0];
  const d = PC[0];
  const c = PC[1];
  let step: number;
  if (d > tol) {
    step = c > 0 ? (d - PAR[1]) / c : Number.POSITIVE_INFINITY;
  } else {
    // Within tolerance: a hit if the closest points approach, else a grazing step of tolerance / ḋmax.
    const A = sides[0];
    const B = sides[1];
    const rax = PC[5] - A[BC];
    const ray = PC[6] - A[BC + 1];
    const raz = PC[7] - A[BC + 2];
    const rbx = PC[8] - B[BC];
    const rby = PC[9] - B[BC + 1];
    const rbz = PC[10] - B[BC + 2];
    // velocity of a body point = v + ω × r (per frame)
    const vax = A[VD] + A[WD + 1] * raz - A[WD + 2] * ray;
    const vay = A[VD + 1] + A[WD + 2] * rax - A[WD] * raz;
    const vaz = A[VD + 2] + A[WD] * ray - A[WD + 1] * rax;
    const vbx = B[VD] + B[WD + 1] * rbz - B[WD + 2] * rby;
    const vby = B[VD + 1] + B[WD + 2] * rbx - B[WD] * rbz;
    const vbz = B[VD + 2] + B[WD] * rby - B[WD + 1] * rbx;
    const u = (vbx - vax) * PC[2] + (vby - vay) * PC[3] + (vbz - vaz) * PC[4];
    if (u < -PAR[2]) {
      if (!evHit || d < EV[0]) keep(EV);
      evHit = true;
      evHave = true;
      return;
    }
    step = c > 0 ? tol / c : Number.POSITIVE_INFINITY;
  }
  if (step < PAR[3]) PAR[3] = step;
  if (!evHit && (!evHave || d < EV[0])) {
    keep(EV);
    evHave = true;
  }
}

// --- convex pairs -----------------------------------------------------------------------------------------

function sphereSphere(): void {
  const A = sides[0];
  const B = sides[1];
  const dx = B[OBB] - A[OBB];
  const dy = B[OBB + 1] - A[OBB + 1];
  const dz = B[OBB + 2] - A[OBB + 2];
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const ra = A[RAD];
  const rb = B[RAD];
  const d = dist - ra - rb;
  let nx = 1;
  let ny = 0;
  let nz = 0;
  if (dist > 0) {
    nx = dx / dist;
    ny = dy / dist;
    nz = dz / dist;
  }
  PC[0] = d;
  PC[2] = nx;
  PC[3] = ny;
  PC[4] = nz;
  PC[5] = A[OBB] + nx * ra;
  PC[6] = A[OBB + 1] + ny * ra;
  PC[7] = A[OBB + 2] + nz * ra;
  PC[8] = B[OBB] - nx * rb;
  PC[9] = B[OBB + 1] - ny * rb;
  PC[10] = B[OBB + 2] - nz * rb;
  if (d < 0 || dist === 0) {
    keep(OV);
    evOverlap = true;
    return;
  }
  closing();
  piece();
}

// Sphere (side s) against box (side b); the normal always points from side 0 to side 1.
function sphereBox(s: number, b: number): void {
  const S = sides[s];
  const X = sides[b];
  const rx = S[OBB] - X[OBB];
  const ry = S[OBB + 1] - X[OBB + 1];
  const rz = S[OBB + 2] - X[OBB + 2];
  // OCSI in the box frame (seeds/000 Eq. 2): clamp the centre's coordinates into [−h, h].
  let qx = X[OBB];
  let qy = X[OBB + 1];
  let qz = X[OBB + 2];
  let dx = 0;
  let dy = 0;
  let dz = 0;
  for (let k = 0; k < 3; k++) {
    const e = OBB + 3 + 3 * k;
    const a = rx * X[e] + ry * X[e + 1] + rz * X[e + 2];
    const h = X[OBB + 12 + k];
    const q = a < -h ? -h : Math.min(a, h);
    const diff = a - q;
    qx += q * X[e];
    qy += q * X[e + 1];
    qz += q * X[e + 2];
    dx += diff * X[e];
    dy += diff * X[e + 1];
    dz += diff * X[e + 2];
  }
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const r = S[RAD];
  const d = dist - r;
  if (dist === 0 || d < 0) {
    evOverlap = true;
    overlapSphereBox(s, b);
    return;
  }
  // n from the box towards the sphere
  const nx = dx / dist;
  const ny = dy / dist;
  const nz = dz / dist;
  const so = s === 0 ? 5 : 8;
  const bo = s === 0 ? 8 : 5;
  const sg = s === 0 ? -1 : 1;
  PC[0] = d;
  PC[2] = sg * nx;
  PC[3] = sg * ny;
  PC[4] = sg * nz;
  PC[so] = S[OBB] - nx * r;
  PC[so + 1] = S[OBB + 1] - ny * r;
  PC[so + 2] = S[OBB + 2] - nz * r;
  PC[bo] = qx;
  PC[bo + 1] = qy;
  PC[bo + 2] = qz;
  closing();
  piece();
}

function toObb2(src: Float64Array, dst: Float64Array): void {
  dst[0] = src[OBB];
  dst[1] = src[OBB + 1];
  dst[2] = src[OBB + 3];
  dst[3] = src[OBB + 4];
  dst[4] = src[OBB + 6];
  dst[5] = src[OBB + 7];
  dst[6] = src[OBB + 12];
  dst[7] = src[OBB + 13];
}

function overlapSphereBox(s: number, b: number): void {
  const S = sides[s];
  const X = sides[b];
  const r = S[RAD];
  CENTER[0] = S[OBB];
  CENTER[1] = S[OBB + 1];
  CENTER[2] = S[OBB + 2];
  // CONTACT: normal from the box to the sphere, depth, point on the box (narrowphase, ocsi.ts)
  if (dim2) {
    toObb2(X, OBB2B);
    circleObbContact2D(OBB2B, CENTER, r, CONTACT);
    CONTACT[6] = 0;
    CONTACT[5] = CONTACT[4];
    CONTACT[4] = CONTACT[3];
    CONTACT[3] = CONTACT[2];
    CONTACT[2] = 0;
  } else {
    sphereObbContact(OBB_VIEW[b], CENTER, r, CONTACT);
  }
  const so = s === 0 ? 5 : 8;
  const bo = s === 0 ? 8 : 5;
  const sg = s === 0 ? -1 : 1;
  PC[0] = -CONTACT[3];
  for (let i = 0; i < 3; i++) {
    PC[2 + i] = sg * CONTACT[i] + 0;
    PC[so + i] = CENTER[i] - CONTACT[i] * r; // the sphere's deepest point
    PC[bo + i] = CONTACT[4 + i];
  }
  keep(OV);
}

function boxBox(): void {
  const A = sides[0];
  const B = sides[1];
  if (gjkDistance(GJK_BOX, A, OBB, GJK_BOX, B, OBB, HINT) < 0) {
    evOverlap = true;
    overlapBoxBox();
    return;
  }
  const n = gjk.normal;
  const pa = gjk.pointA;
  const pb = gjk.pointB;
  PC[0] = Math.max(gjk.result[GJK_SEPARATION], 0);
  for (let i = 0; i < 3; i++) {
    HINT[i] = n[i];
    PC[2 + i] = n[i];
    PC[5 + i] = pa[i];
    PC[8 + i] = pb[i];
  }
  closing();
  piece();
}

function overlapBoxBox(): void {
  if (dim2) {
    toObb2(sides[0], OBB2A);
    toObb2(sides[1], OBB2B);
    obbObbContact2D(OBB2A, OBB2B, CONTACT);
    CONTACT[6] = 0;
    CONTACT[5] = CONTACT[4];
    CONTACT[4] = CONTACT[3];
    CONTACT[3] = CONTACT[2];
    CONTACT[2] = 0;
  } else {
    obbObbContact(OBB_VIEW[0], OBB_VIEW[1], CONTACT);
  }
  PC[0] = -CONTACT[3];
  for (let i = 0; i < 3; i++) {
    PC[2 + i] = CONTACT[i];
    PC[5 + i] = CONTACT[4 + i];
    PC[8 + i] = CONTACT[4 + i];
  }
  keep(OV);
}

// --- shape (side 0) against a mesh (side 1), in the mesh's local frame -----------------------------------

// Shape in the mesh frame: sphere centre (0–2) or OBB (0–14); relative velocity vM − vS in the mesh frame
// (15–17); the mesh frame's origin (18–20) and axes (21–29) in world.
const LOC = new Float64Array(30);
const TRI = new Float64Array(9);
let stack = new Int32Array(128);
let stackLb = new Float64Array(128);
// A piece in the mesh frame: 0 distance, 1 closing bound, 2–4 normal mesh → shape, 5–7 point of the
// shape, 8–10 point of the mesh. NLB: node lower bound.
const MP = new Float64Array(11);
const NLB = new Float64Array(5);

// PC[o..o+2] = the mesh-frame point MP[m..m+2] in world.
function toWorld(m: number, o: number): void {
  const x = MP[m];
  const y = MP[m + 1];
  const z = MP[m + 2];
  PC[o] = LOC[18] + x * LOC[21] + y * LOC[24] + z * LOC[27];
  PC[o + 1] = LOC[19] + x * LOC[22] + y * LOC[25] + z * LOC[28];
  PC[o + 2] = LOC[20] + x * LOC[23] + y * LOC[26] + z * LOC[29];
}

// The mesh-frame piece MP as a world piece in PC (normal flipped: from the shape, side 0, to the mesh).
function meshToWorld(): void {
  const nx = MP[2];
  const ny = MP[3];
  const nz = MP[4];
  PC[0] = MP[0];
  PC[1] = MP[1];
  PC[2] = -(nx * LOC[21] + ny * LOC[24] + nz * LOC[27]);
  PC[3] = -(nx * LOC[22] + ny * LOC[25] + nz * LOC[28]);
  PC[4] = -(nx * LOC[23] + ny * LOC[26] + nz * LOC[29]);
  toWorld(5, 5);
  toWorld(8, 8);
}

// Folds the mesh-frame piece MP in: far pieces only tighten the step (no world transform needed).
function meshPiece(): void {
  const d = MP[0];
  const c = MP[1];
  if (d > PAR[0]) {
    const step = c > 0 ? (d - PAR[1]) / c : Number.POSITIVE_INFINITY;
    if (step < PAR[3]) PAR[3] = step;
    if (evHit || (evHave && d >= EV[0])) return;
    meshToWorld();
    keep(EV);
    evHave = true;
    return;
  }
  meshToWorld();
  piece();
}

// Overlap with the triangle in TRI: normal = the face normal turned towards the shape's centre (or the
// direction from the nearest triangle point for a sphere whose centre is outside it), point = the
// triangle point nearest the centre; depth reported for spheres only (0 for boxes).
function meshOverlap(sphere: boolean): void {
  const px = LOC[0];
  const py = LOC[1];
  const pz = LOC[2];
  const r = sphere ? sides[0][RAD] : 0;
  closestOnTriangle();
  const qx = Q[0];
  const qy = Q[1];
  const qz = Q[2];
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
  MP[0] = -depth;
  MP[1] = 0;
  MP[2] = nx / len;
  MP[3] = ny / len;
  MP[4] = nz / len;
  MP[5] = px - MP[2] * r;
  MP[6] = py - MP[3] * r;
  MP[7] = pz - MP[4] * r;
  MP[8] = qx;
  MP[9] = qy;
  MP[10] = qz;
  meshToWorld();
  keep(OV);
  evOverlap = true;
}

function shapeMesh(bvh: MeshBVH): void {
  const S = sides[0];
  const M = sides[1];
  const sphere = kinds[0] === KIND_SPHERE;
  // Mesh frame at t: origin = the shape centre of the mesh side, axes = its OBB axes.
  for (let i = 0; i < 3; i++) LOC[18 + i] = M[OBB + i];
  for (let i = 0; i < 9; i++) LOC[21 + i] = M[OBB + 3 + i];
  const ox = S[OBB] - LOC[18];
  const oy = S[OBB + 1] - LOC[19];
  const oz = S[OBB + 2] - LOC[20];
  const rvx = M[VD] - S[VD];
  const rvy = M[VD + 1] - S[VD + 1];
  const rvz = M[VD + 2] - S[VD + 2];
  for (let k = 0; k < 3; k++) {
    const e = 21 + 3 * k;
    LOC[k] = ox * LOC[e] + oy * LOC[e + 1] + oz * LOC[e + 2];
    LOC[15 + k] = rvx * LOC[e] + rvy * LOC[e + 1] + rvz * LOC[e + 2];
  }
  if (!sphere) {
    // box axes in the mesh frame: component k of axis j = axis_j · e_k
    for (let j = 0; j < 3; j++) {
      const a = OBB + 3 + 3 * j;
      for (let k = 0; k < 3; k++) {
        const e = 21 + 3 * k;
        LOC[3 + 3 * j + k] = S[a] * LOC[e] + S[a + 1] * LOC[e + 1] + S[a + 2] * LOC[e + 2];
      }
      LOC[12 + j] = S[OBB + 12 + j];
    }
  }
  PAR[5] = S[WL] + M[WL];
  if (bvh.triangleCount === 0) return;
  const f = bvh.nodeF32;
  const n = bvh.nodeI32;
  const tv = bvh.triVerts;
  let sp = 0;
  nodeBound(f, 0, sphere);
  stack[sp] = 0;
  stackLb[sp++] = NLB[4];
  while (sp > 0) {
    sp--;
    const node = stack[sp];
    // No triangle below can come within tolerance before this time (see nodeBound): skip the node when
    // that is no sooner than the best step found so far.
    if (stackLb[sp] >= PAR[3]) continue;
    const base = node * NODE_WORDS;
    const tag = n[base + 7];
    if (tag < 0) {
      for (let s = n[base + 6], end = s + ~tag; s < end; s++) {
        const o = 9 * s;
        for (let k = 0; k < 9; k++) TRI[k] = tv[o + k];
        if (degenerate()) continue;
        if (sphere) sphereTriangle();
        else boxTriangle();
        if (evOverlap) return;
      }
    } else {
      if (sp + 2 > stack.length) {
        stack = growArray(stack, sp + 2);
        stackLb = growArray(stackLb, sp + 2);
      }
      const left = node + 1;
      const right = n[base + 6];
      nodeBound(f, left, sphere);
      const tl = NLB[4];
      nodeBound(f, right, sphere);
      const tr = NLB[4];
      // the sooner child on top of the stack: it tightens the best step before the other is tested
      if (tl <= tr) {
        stack[sp] = right;
        stackLb[sp++] = tr;
        stack[sp] = left;
        stackLb[sp++] = tl;
      } else {
        stack[sp] = left;
        stackLb[sp++] = tl;
        stack[sp] = right;
        stackLb[sp++] = tr;
      }
    }
  }
}

// Whether the triangle in TRI is degenerate by the BVH's rule (bvh/triangle.ts isDegenerateTriangle),
// computed here on the typed array.
function degenerate(): boolean {
  const ax = TRI[3] - TRI[0];
  const ay = TRI[4] - TRI[1];
  const az = TRI[5] - TRI[2];
  const bx = TRI[6] - TRI[0];
  const by = TRI[7] - TRI[1];
  const bz = TRI[8] - TRI[2];
  const nx = ay * bz - az * by;
  const ny = az * bx - ax * bz;
  const nz = ax * by - ay * bx;
  return nx * nx + ny * ny + nz * nz <= 1e-24 * (ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz);
}

/**
 * NLB[4] = a time before which no triangle under node `node` can come within tolerance of the shape
 * (0 when the node may be within tolerance already). The node's box is convex and holds its triangles,
 * so along any direction n (mesh → shape) in which the shape and the box are separated by g, every
 * triangle below is separated by at least g, and that shrinks at most at the closing rate
 * c = (vM − vS)·n + |ωA|LA + |ωB|LB (the §2.4.2 bound applied to the node, projected like the convex
 * pairs'): no contact before (g − target)/c. The best of several directions is kept — the node's three
 * axes, the box shape's three axes, and for a sphere the exact direction from the box's nearest point —
 * so a node the shape passes by or moves away from is skipped even when it is near.
 */
function nodeBound(f: Float32Array, node: number, sphere: boolean): void {
  const w = node * NODE_WORDS;
  const cx = 0.5 * (f[w] + f[w + 3]);
  const cy = 0.5 * (f[w + 1] + f[w + 4]);
  const cz = 0.5 * (f[w + 2] + f[w + 5]);
  const hx = 0.5 * (f[w + 3] - f[w]);
  const hy = 0.5 * (f[w + 4] - f[w + 1]);
  const hz = 0.5 * (f[w + 5] - f[w + 2]);
  const dx = LOC[0] - cx;
  const dy = LOC[1] - cy;
  const dz = LOC[2] - cz;
  const tol = PAR[0];
  const target = PAR[1];
  const rot = PAR[5];
  const vx = LOC[15];
  const vy = LOC[16];
  const vz = LOC[17];
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
    r = sides[0][RAD];
    const qx = Math.abs(dx) - hx;
    const qy = Math.abs(dy) - hy;
    const qz = Math.abs(dz) - hz;
    const px = qx > 0 ? (dx > 0 ? qx : -qx) : 0;
    const py = qy > 0 ? (dy > 0 ? qy : -qy) : 0;
    const pz = qz > 0 ? (dz > 0 ? qz : -qz) : 0;
    const l = Math.sqrt(px * px + py * py + pz * pz);
    g = l - r;
    if (g <= tol) {
      NLB[4] = 0;
      return;
    }
    c = (vx * px + vy * py + vz * pz) / l + rot;
    best = c > 0 ? (g - target) / c : Number.POSITIVE_INFINITY;
  } else {
    const a0 = LOC[12];
    const a1 = LOC[13];
    const a2 = LOC[14];
    ex = Math.abs(LOC[3]) * a0 + Math.abs(LOC[6]) * a1 + Math.abs(LOC[9]) * a2;
    ey = Math.abs(LOC[4]) * a0 + Math.abs(LOC[7]) * a1 + Math.abs(LOC[10]) * a2;
    ez = Math.abs(LOC[5]) * a0 + Math.abs(LOC[8]) * a1 + Math.abs(LOC[11]) * a2;
    // the box's own axes
    for (let j = 0; j < 3; j++) {
      const ux = LOC[3 + 3 * j];
      const uy = LOC[4 + 3 * j];
      const uz = LOC[5 + 3 * j];
      const du = dx * ux + dy * uy + dz * uz;
      g = Math.abs(du) - LOC[12 + j] - (hx * Math.abs(ux) + hy * Math.abs(uy) + hz * Math.abs(uz));
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
  NLB[4] = best;
}

// Q = the point of the triangle TRI nearest the point LOC[0..2]: Ericson §5.1.5 (as bvh/triangle.ts's
// closestPointOnTriangle, on typed arrays so that no double crosses a call).
const Q = new Float64Array(3);
function closestOnTriangle(): void {
  const px = LOC[0];
  const py = LOC[1];
  const pz = LOC[2];
  const ax = TRI[0];
  const ay = TRI[1];
  const az = TRI[2];
  const abx = TRI[3] - ax;
  const aby = TRI[4] - ay;
  const abz = TRI[5] - az;
  const acx = TRI[6] - ax;
  const acy = TRI[7] - ay;
  const acz = TRI[8] - az;
  const apx = px - ax;
  const apy = py - ay;
  const apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  let v = 0;
  let w = 0;
  if (d1 <= 0 && d2 <= 0) {
    // vertex a
  } else {
    const bpx = px - TRI[3];
    const bpy = py - TRI[4];
    const bpz = pz - TRI[5];
    const d3 = abx * bpx + aby * bpy + abz * bpz;
    const d4 = acx * bpx + acy * bpy + acz * bpz;
    const cpx = px - TRI[6];
    const cpy = py - TRI[7];
    const cpz = pz - TRI[8];
    const d5 = abx * cpx + aby * cpy + abz * cpz;
    const d6 = acx * cpx + acy * cpy + acz * cpz;
    const vc = d1 * d4 - d3 * d2;
    const vb = d5 * d2 - d1 * d6;
    const va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) {
      v = 1; // vertex b
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      v = d1 / (d1 - d3); // edge ab
    } else if (d6 >= 0 && d5 <= d6) {
      w = 1; // vertex c
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      w = d2 / (d2 - d6); // edge ac
    } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      w = (d4 - d3) / (d4 - d3 + (d5 - d6)); // edge bc
      v = 1 - w;
    } else {
      const den = 1 / (va + vb + vc);
      v = vb * den;
      w = vc * den;
    }
  }
  Q[0] = ax + abx * v + acx * w;
  Q[1] = ay + aby * v + acy * w;
  Q[2] = az + abz * v + acz * w;
}

function sphereTriangle(): void {
  const px = LOC[0];
  const py = LOC[1];
  const pz = LOC[2];
  const r = sides[0][RAD];
  closestOnTriangle();
  const qx = Q[0];
  const qy = Q[1];
  const qz = Q[2];
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
  MP[0] = d;
  MP[1] = LOC[15] * nx + LOC[16] * ny + LOC[17] * nz + PAR[5];
  MP[2] = nx;
  MP[3] = ny;
  MP[4] = nz;
  MP[5] = px - nx * r;
  MP[6] = py - ny * r;
  MP[7] = pz - nz * r;
  MP[8] = qx;
  MP[9] = qy;
  MP[10] = qz;
  meshPiece();
}

function boxTriangle(): void {
  if (gjkDistance(GJK_TRIANGLE, TRI, 0, GJK_BOX, LOC, 0, null) < 0) {
    meshOverlap(false);
    return;
  }
  const nrm = gjk.normal; // triangle (mesh) → box
  const pm = gjk.pointA;
  const ps = gjk.pointB;
  MP[0] = Math.max(gjk.result[GJK_SEPARATION], 0);
  MP[1] = LOC[15] * nrm[0] + LOC[16] * nrm[1] + LOC[17] * nrm[2] + PAR[5];
  for (let i = 0; i < 3; i++) {
    MP[2 + i] = nrm[i];
    MP[5 + i] = ps[i];
    MP[8 + i] = pm[i];
  }
  meshPiece();
}

// --- driver -----------------------------------------------------------------------------------------------

function evaluate(): void {
  evHit = false;
  evOverlap = false;
  evHave = false;
  PAR[3] = Number.POSITIVE_INFINITY;
  const ka = kinds[0];
  const kb = kinds[1];
  if (kb === KIND_MESH) shapeMesh(meshes[1] as MeshBVH);
  else if (ka === KIND_SPHERE && kb === KIND_SPHERE) sphereSphere();
  else if (ka === KIND_SPHERE) sphereBox(0, 1);
  else boxBox();
}

function copy10(src: Float64Array, dst: Float64Array): void {
  for (let i = 0; i < 10; i++) dst[i] = src[i];
}

interface RawOut {
  status: number;
  t: number;
  normal: Float64Array;
  point: Float64Array;
  pointA: Float64Array;
  pointB: Float64Array;
  distance: number;
  iterations: number;
}

// Writes the result (time in PAR[6], contact record c) to out; returns whether the motion must stop.
function emit(
  out: RawOut,
  status: number,
  c: Float64Array,
  iterations: number,
  swapped: boolean,
  dim: number,
) {
  out.status = status;
  out.t = PAR[6];
  out.iterations = iterations;
  out.distance = c[0];
  const s = swapped ? -1 : 1;
  const pa = swapped ? 7 : 4;
  const pb = swapped ? 4 : 7;
  for (let i = 0; i < dim; i++) {
    out.normal[i] = s * c[1 + i] + 0; // + 0: no −0
    out.pointA[i] = c[pa + i];
    out.pointB[i] = c[pb + i];
    out.point[i] = 0.5 * (c[4 + i] + c[7 + i]);
  }
  return status !== TOI_SEPARATED;
}

// The conservative-advancement loop over the prepared sides.
function advance(maxIterations: number, out: RawOut, swapped: boolean, dim: number): boolean {
  HINT[0] = 0;
  HINT[1] = 0;
  HINT[2] = 0;
  let t = 0;
  let safeT = -1;
  let iterations = 0;
  for (;;) {
    iterations++;
    TIME[0] = t;
    poseAt(0);
    poseAt(1);
    evaluate();
    if (evOverlap) {
      if (safeT < 0) {
        PAR[6] = 0;
        return emit(out, TOI_OVERLAP, OV, iterations, swapped, dim);
      }
      // Only after a grazing step: the last contact-free sample is where the motion must stop.
      PAR[6] = safeT;
      return emit(out, TOI_HIT, SAVED, iterations, swapped, dim);
    }
    if (evHit) {
      PAR[6] = t;
      return emit(out, TOI_HIT, EV, iterations, swapped, dim);
    }
    copy10(EV, SAVED);
    safeT = t;
    const step = PAR[3];
    if (!(step < Number.POSITIVE_INFINITY) || t + step > 1) {
      PAR[6] = 1;
      return emit(out, TOI_SEPARATED, EV, iterations, swapped, dim);
    }
    if (iterations >= maxIterations) {
      PAR[6] = safeT;
      return emit(out, TOI_ITERATION_LIMIT, SAVED, iterations, swapped, dim);
    }
    t += step;
  }
}

function readOptions(fn: string, options: TimeOfImpactOptions): number {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with at least { dt }`);
  }
  const dt = options.dt;
  if (!(typeof dt === 'number' && dt >= 0 && dt - dt === 0)) checkNonNegative(fn, 'options.dt', dt);
  DT[0] = dt;
  let maxIterations = TOI_MAX_ITERATIONS;
  if (options.maxIterations !== undefined) {
    maxIterations = options.maxIterations;
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new RangeError(
        `${fn}: options.maxIterations must be an integer >= 1, got ${String(maxIterations)}`,
      );
    }
  }
  if (options.tolerance !== undefined) {
    const tol = options.tolerance;
    if (typeof tol !== 'number' || !Number.isFinite(tol) || !(tol > 0)) {
      throw new RangeError(`${fn}: options.tolerance must be a finite number > 0, got ${String(tol)}`);
    }
  }
  return maxIterations;
}

// Sets PAR[0..2] from the prepared sides and the options.
function setTolerances(options: TimeOfImpactOptions): void {
  const A = sides[0];
  const B = sides[1];
  let tol = options.tolerance;
  if (tol === undefined) {
    const sa = A[SIZE];
    const sb = B[SIZE];
    const size = sa > 0 && sb > 0 ? Math.min(sa, sb) : Math.max(sa, sb);
    let scale = 1;
    for (let i = 0; i < 3; i++) {
      scale = Math.max(
        scale,
        Math.abs(A[P0 + i]),
        Math.abs(B[P0 + i]),
        Math.abs(A[P0 + i] + A[VD + i]),
        Math.abs(B[P0 + i] + B[VD + i]),
      );
    }
    tol = Math.max(TOI_RELATIVE_TOLERANCE * size, 1e-9 * scale);
  }
  PAR[0] = tol;
  PAR[1] = 0.5 * tol;
  const speed =
    Math.sqrt(A[VD] * A[VD] + A[VD + 1] * A[VD + 1] + A[VD + 2] * A[VD + 2]) +
    Math.sqrt(B[VD] * B[VD] + B[VD + 1] * B[VD + 1] + B[VD + 2] * B[VD + 2]) +
    A[WL] +
    B[WL];
  PAR[2] = 1e-9 * speed;
}

/**
 * Time of impact of two moving 3-D bodies over one frame, by conservative advancement.
 *
 * Each body is a shape ({@link CcdShape}: sphere, box, or mesh through its BVH; at most one mesh) and a
 * motion ({@link CcdMotion}: pose at the frame start, constant linear and angular velocity). The frame
 * is `options.dt` long, mapped to t ∈ [0, 1]. Writes `out` and returns whether the caller must stop the
 * motion at `out.t`:
 * - {@link TOI_HIT} (true): at `out.t` the shapes are within `tolerance` (and not overlapping) while
 *   approaching; `normal` (A → B), `pointA`, `pointB`, `point`, `distance` describe the contact there.
 *   t = 0 when they start touching and approaching;
 * - {@link TOI_OVERLAP} (true): they already overlap at t = 0; the narrowphase contact is reported
 *   (`distance` = −depth). An engine's solver normally handles that itself;
 * - {@link TOI_ITERATION_LIMIT} (true): undecided within `maxIterations`; `t` is the last time proven
 *   free of contact — stop there (conservative: never a tunnel);
 * - {@link TOI_SEPARATED} (false): no contact within the frame (`t` = 1).
 *
 * Guarantees: the reported t is never later than the first contact (no tunnelling), the shapes do not
 * overlap at the reported t; a pass that never comes within tolerance is not a hit. Throws a
 * RangeError/TypeError naming the argument for NaN/infinite numbers, magnitudes beyond
 * {@link TOI_MAGNITUDE_LIMIT}, a negative radius or extent, a zero quaternion, an unknown shape kind,
 * bad options, or two meshes (not supported). No allocation.
 */
export function timeOfImpact(
  shapeA: CcdShape,
  motionA: CcdMotion,
  shapeB: CcdShape,
  motionB: CcdMotion,
  options: TimeOfImpactOptions,
  out: TimeOfImpactResult,
): boolean {
  const fn = 'timeOfImpact';
  const maxIterations = readOptions(fn, options);
  checkOut(fn, out, 3);
  const ka = kindOf(shapeA);
  const kb = kindOf(shapeB);
  const swapped = ka > kb;
  prepareSide(swapped ? 1 : 0, shapeA, motionA, fn, 'shapeA', 'motionA');
  prepareSide(swapped ? 0 : 1, shapeB, motionB, fn, 'shapeB', 'motionB');
  checkMagnitudes(fn, swapped ? 1 : 0, 'shapeA', 'motionA');
  checkMagnitudes(fn, swapped ? 0 : 1, 'shapeB', 'motionB');
  if (kinds[0] === KIND_MESH) {
    throw new RangeError(
      `${fn}: mesh–mesh time of impact is not supported; give one body a sphere or box shape`,
    );
  }
  dim2 = false;
  setTolerances(options);
  return advance(maxIterations, out, swapped, 3);
}

/**
 * 2-D time of impact (matter-js bodies): circles and rectangles ({@link CcdShape2D}) with 2-D motions
 * ({@link CcdMotion2D}). Same contract and results as {@link timeOfImpact}, with 2-D vectors in `out`.
 */
export function timeOfImpact2D(
  shapeA: CcdShape2D,
  motionA: CcdMotion2D,
  shapeB: CcdShape2D,
  motionB: CcdMotion2D,
  options: TimeOfImpactOptions,
  out: TimeOfImpactResult2D,
): boolean {
  const fn = 'timeOfImpact2D';
  const maxIterations = readOptions(fn, options);
  checkOut(fn, out, 2);
  const ka = kindOf(shapeA);
  const kb = kindOf(shapeB);
  const swapped = ka > kb;
  prepareSide2D(swapped ? 1 : 0, shapeA, motionA, fn, 'shapeA', 'motionA');
  prepareSide2D(swapped ? 0 : 1, shapeB, motionB, fn, 'shapeB', 'motionB');
  checkMagnitudes(fn, swapped ? 1 : 0, 'shapeA', 'motionA');
  checkMagnitudes(fn, swapped ? 0 : 1, 'shapeB', 'motionB');
  dim2 = true;
  setTolerances(options);
  return advance(maxIterations, out, swapped, 2);
}

// Kind order for the pair dispatch (unknown kinds sort first; prepareSide rejects them with a message).
function kindOf(shape: CcdShape | CcdShape2D): number {
  if (shape === null || typeof shape !== 'object') return -1;
  const k = shape.kind;
  return k === 'sphere' || k === 'circle'
    ? KIND_SPHERE
    : k === 'box'
      ? KIND_BOX
      : k === 'mesh'
        ? KIND_MESH
        : -1;
}

function checkOut(fn: string, out: RawOut, dim: number): void {
  if (
    out === null ||
    typeof out !== 'object' ||
    !(out.normal instanceof Float64Array) ||
    out.normal.length < dim ||
    !(out.point instanceof Float64Array) ||
    out.point.length < dim ||
    !(out.pointA instanceof Float64Array) ||
    out.pointA.length < dim ||
    !(out.pointB instanceof Float64Array) ||
    out.pointB.length < dim
  ) {
    throw new TypeError(
      `${fn}: out must be a result record from createTimeOfImpactResult${dim === 2 ? '2D' : ''}()`,
    );
  }
}
