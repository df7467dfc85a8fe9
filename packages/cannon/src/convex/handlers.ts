/**
 * The cannon-es handlers of the convex narrowphase (installed with
 * `narrowphase: { convex: convexContacts }`, the value the convex entry point exports): Box,
 * ConvexPolyhedron and Cylinder against each other, against spheres and against Heightfield.
 *
 * Each has cannon's handler signature, reads the cached hull of its shapes (the hull module), and turns
 * what the hull-contacts, sphere-hull and hull-heightfield modules find into cannon `ContactEquation`s
 * through the `Narrowphase`'s own `createContactEquation` (with the shapes cannon passes for its
 * events), with friction through `createFrictionEquationsFromContact` (or one averaged pair with
 * `enableFrictionReduction`), as cannon's own handlers do: the solver, materials and events are
 * unchanged. A hull pair's face contact goes out as a patch (the contact-patch module): its load
 * contact, its corners, and two anchored friction pairs instead of a pair per corner. The `justTest`
 * form only answers overlap. Hull pairs keep their last axis (the warm start), their face reduction's
 * last four points and their patch anchors in a pair cache keyed by the two shape ids. All scratch
 * belongs to one installation, so a step allocates nothing but the equations cannon pools itself.
 */
import type { Body, Heightfield, Narrowphase, Quaternion, Shape, Sphere, Vec3 } from 'cannon-es';
import { Manifold } from '../contactManifold.js';
import type { Handler } from '../narrowphase.js';
import { rotationOf } from '../trimeshCache.js';
import { emitAnchoredFriction, loadPoint, PATCH_FLOATS, patchAnchors } from './contactPatch.js';
import { type Hull, hullOf } from './hull.js';
import { collideHulls, HullManifold, ReductionMemory } from './hullContacts.js';
import { hullHeightfield } from './hullHeightfield.js';
import { AxisQuery, HullPair } from './hullQueries.js';
import { REDUCTION_FLOATS } from './manifoldReduction.js';
import { PairCache } from './pairCache.js';
import { SphereHullContact, sphereHull } from './sphereHull.js';

// cannon-es's Shape.types bits.
const SPHERE = 1;
const BOX = 4;
const CONVEX = 16;
const HEIGHTFIELD = 32;
const CYLINDER = 128;

/**
 * Dispatch keys (`typeA | typeB` of cannon-es's `Shape.types`) the convex narrowphase takes over, by
 * which handler serves them.
 */
export const CONVEX_KEYS = {
  /** Box–box, box–convex, convex–convex, and each with a cylinder. */
  hullHull: [BOX, BOX | CONVEX, CONVEX, CYLINDER, BOX | CYLINDER, CONVEX | CYLINDER],
  /** Sphere–box, sphere–convex, sphere–cylinder. */
  sphereHull: [SPHERE | BOX, SPHERE | CONVEX, SPHERE | CYLINDER],
  /** Box–heightfield and convex–heightfield (the hull is cannon's shape i). */
  hullHeightfield: [BOX | HEIGHTFIELD, CONVEX | HEIGHTFIELD],
  /** Heightfield–cylinder (the heightfield is cannon's shape i: its type bit is lower). */
  heightfieldHull: [HEIGHTFIELD | CYLINDER],
} as const;

/** The world's step number: the stamp for the hull cache's contents check and the pair cache's ages. */
function stampOf(np: Narrowphase): number {
  return (np.world as { stepnumber?: number } | undefined)?.stepnumber ?? 0;
}

/**
 * Makes the convex narrowphase's handlers for one installation, sharing its scratch and pair cache;
 * hull–heightfield pairs keep at most `maxContacts` contacts. Returns `[key, handler]` rows.
 */
export function makeConvexHandlers(maxContacts: number): [number, Handler][] {
  const RA = new Float64Array(9);
  const RB = new Float64Array(9);
  const pair = new HullPair();
  const feature = new AxisQuery();
  const hm = new HullManifold();
  // Per pair: the kind and feature indices of its last axis; its face reduction's memory, then its
  // patch anchors.
  const cache = new PairCache(3, REDUCTION_FLOATS + PATCH_FLOATS);
  const reduction = new ReductionMemory();
  /** The pair's weighted centre of mass, the load point (on A, on B) and the anchors, in A's frame. */
  const COM = new Float64Array(3);
  const LOAD = new Float64Array(6);
  const ANCHORS = new Float64Array(12);
  const RADIUS = new Float64Array(1);
  const sphere = new SphereHullContact();
  const manifold = new Manifold();

  /** pair.rot = RAᵀ·RB and pair.t = RAᵀ·(xb − xa): hull B in A's frame. */
  const relate = (xa: Vec3, xb: Vec3): void => {
    const r = pair.rot;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++)
        r[3 * i + j] = RA[i] * RB[j] + RA[3 + i] * RB[3 + j] + RA[6 + i] * RB[6 + j];
    }
    const dx = xb.x - xa.x;
    const dy = xb.y - xa.y;
    const dz = xb.z - xa.z;
    pair.t[0] = RA[0] * dx + RA[3] * dy + RA[6] * dz;
    pair.t[1] = RA[1] * dx + RA[4] * dy + RA[7] * dz;
    pair.t[2] = RA[2] * dx + RA[5] * dy + RA[8] * dz;
  };

  const hullHull: Handler = function (this: Narrowphase, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest) {
    const stamp = stampOf(this);
    const A = hullOf(si, stamp);
    const B = hullOf(sj, stamp);
    rotationOf(qi, RA);
    rotationOf(qj, RB);
    relate(xi, xj);
    pair.load(B);
    const slot = cache.slot(si.id, sj.id, stamp);
    const ints = cache.ints;
    feature.kind = ints[3 * slot];
    feature.i0 = ints[3 * slot + 1];
    feature.i1 = ints[3 * slot + 2];
    const rec = (REDUCTION_FLOATS + PATCH_FLOATS) * slot;
    reduction.buf = cache.floats;
    reduction.at = rec;
    const hit = collideHulls(A, B, pair, feature, hm, justTest === true, reduction);
    cache.ints[3 * slot] = feature.kind;
    cache.ints[3 * slot + 1] = feature.i0;
    cache.ints[3 * slot + 2] = feature.i1;
    if (!hit) return false;
    if (justTest) return true;
    const count = hm.count;
    rotate(RA, hm.n, 0, W, 0);
    // A face patch: the load contact first, the corners, then the anchored patch friction (the
    // contact-patch module). Anything else (edges, a single point): a friction pair per contact.
    const patch = hm.face && count >= 3 && centreOfMass(bi, bj, xi) && loadPoint(hm, COM, LOAD);
    const reduce = this.enableFrictionReduction;
    if (patch) {
      place(RA, LOAD, 0, xi, W, 3);
      place(RA, LOAD, 3, xi, W, 6);
      emit(this, bi, bj, si, sj, rsi, rsj, false);
    }
    for (let k = 0; k < count; k++) {
      place(RA, hm.pa, 3 * k, xi, W, 3);
      place(RA, hm.pb, 3 * k, xi, W, 6);
      emit(this, bi, bj, si, sj, rsi, rsj, !patch && !reduce);
    }
    if (reduce && count > 0) this.createFrictionFromAverage(count);
    else if (patch) {
      const load = this.result[this.result.length - count - 1];
      RADIUS[0] = Math.min(A.radius, B.radius);
      patchAnchors(hm, pair.rot, pair.t, cache.floats, rec + REDUCTION_FLOATS, stamp, RADIUS, ANCHORS);
      for (let k = 0; k < 12; k += 3) place(RA, ANCHORS, k, xi, ANCHORS, k);
      emitAnchoredFriction(this, load, bi, bj, ANCHORS, count);
    }
    return count > 0;
  };

  /**
   * The pair's centre of mass for the load point into `COM` (A's frame, A at `xa`): the bodies'
   * centres weighted by inverse mass (a static body's weighs nothing). False when both are static.
   */
  const centreOfMass = (bi: Body, bj: Body, xa: Vec3): boolean => {
    const sum = bi.invMass + bj.invMass;
    if (!(sum > 0)) return false;
    const wi = bi.invMass / sum;
    const wj = 1 - wi;
    const dx = wi * bi.position.x + wj * bj.position.x - xa.x;
    const dy = wi * bi.position.y + wj * bj.position.y - xa.y;
    const dz = wi * bi.position.z + wj * bj.position.z - xa.z;
    // RAᵀ·d.
    COM[0] = RA[0] * dx + RA[3] * dy + RA[6] * dz;
    COM[1] = RA[1] * dx + RA[4] * dy + RA[7] * dz;
    COM[2] = RA[2] * dx + RA[5] * dy + RA[8] * dz;
    return true;
  };

  const sphereHullHandler: Handler = function (
    this: Narrowphase,
    si,
    sj,
    xi,
    xj,
    _qi,
    qj,
    bi,
    bj,
    rsi,
    rsj,
    justTest,
  ) {
    const hull = hullOf(sj, stampOf(this));
    rotationOf(qj, RB);
    const dx = xi.x - xj.x;
    const dy = xi.y - xj.y;
    const dz = xi.z - xj.z;
    const r = (si as Sphere).radius;
    const c = sphere.c;
    c[0] = RB[0] * dx + RB[3] * dy + RB[6] * dz;
    c[1] = RB[1] * dx + RB[4] * dy + RB[7] * dz;
    c[2] = RB[2] * dx + RB[5] * dy + RB[8] * dz;
    sphere.r = r;
    if (!sphereHull(hull, sphere)) return false;
    if (justTest) return true;
    rotate(RB, sphere.n, 0, W, 0);
    // The sphere's point: its centre pushed out along n by the radius.
    W[3] = xi.x + r * W[0];
    W[4] = xi.y + r * W[1];
    W[5] = xi.z + r * W[2];
    place(RB, sphere.p, 0, xj, W, 6);
    emit(this, bi, bj, si, sj, rsi, rsj, !this.enableFrictionReduction);
    if (this.enableFrictionReduction) this.createFrictionFromAverage(1);
    return true;
  };

  /**
   * Hull `hull` (shape `sh` at xh, qh) against heightfield `hf` (at xf, qf); cannon's body i is the
   * hull's when `hullFirst`. Contacts go to the narrowphase with cannon's shape order.
   */
  const terrain = (
    np: Narrowphase,
    hull: Hull,
    hf: Heightfield,
    xh: Vec3,
    qh: Quaternion,
    xf: Vec3,
    qf: Quaternion,
    hullFirst: boolean,
    bi: Body,
    bj: Body,
    si: Shape,
    sj: Shape,
    rsi: Shape | null | undefined,
    rsj: Shape | null | undefined,
    justTest: boolean,
  ): boolean => {
    // Frame A is the heightfield's, B the hull's.
    rotationOf(qf, RA);
    rotationOf(qh, RB);
    relate(xf, xh);
    pair.load(hull);
    manifold.reset();
    if (!hullHeightfield(hull, pair, hf, manifold, justTest)) return false;
    if (justTest) return true;
    manifold.reduce(maxContacts);
    for (let k = 0; k < manifold.count; k++) {
      // The manifold's normal points from the terrain to the hull; its pi is the terrain point.
      rotate(RA, manifold.n, 3 * k, W, 0);
      if (hullFirst) {
        W[0] = -W[0];
        W[1] = -W[1];
        W[2] = -W[2];
      }
      place(RA, hullFirst ? manifold.pj : manifold.pi, 3 * k, xf, W, 3);
      place(RA, hullFirst ? manifold.pi : manifold.pj, 3 * k, xf, W, 6);
      emit(np, bi, bj, si, sj, rsi, rsj, !np.enableFrictionReduction);
    }
    if (np.enableFrictionReduction && manifold.count > 0) np.createFrictionFromAverage(manifold.count);
    return manifold.count > 0;
  };

  const hullHeightfieldHandler: Handler = function (
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
    const hull = hullOf(si, stampOf(this));
    return terrain(
      this,
      hull,
      sj as Heightfield,
      xi,
      qi,
      xj,
      qj,
      true,
      bi,
      bj,
      si,
      sj,
      rsi,
      rsj,
      justTest === true,
    );
  };

  const heightfieldHullHandler: Handler = function (
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
    const hull = hullOf(sj, stampOf(this));
    return terrain(
      this,
      hull,
      si as Heightfield,
      xj,
      qj,
      xi,
      qi,
      false,
      bi,
      bj,
      si,
      sj,
      rsi,
      rsj,
      justTest === true,
    );
  };

  const rows: [number, Handler][] = [];
  for (const key of CONVEX_KEYS.hullHull) rows.push([key, hullHull]);
  for (const key of CONVEX_KEYS.sphereHull) rows.push([key, sphereHullHandler]);
  for (const key of CONVEX_KEYS.hullHeightfield) rows.push([key, hullHeightfieldHandler]);
  for (const key of CONVEX_KEYS.heightfieldHull) rows.push([key, heightfieldHullHandler]);
  return rows;
}

/**
 * One contact in world space for `emit`: unit normal from body i to body j, the point on body i, the
 * point on body j (numbers travel in this array, not in arguments: no boxing).
 */
const W = new Float64Array(9);

/** `out[o…o+2]` = R·`v[k…k+2]`. */
function rotate(R: Float64Array, v: Float64Array, k: number, out: Float64Array, o: number): void {
  const x = v[k];
  const y = v[k + 1];
  const z = v[k + 2];
  out[o] = R[0] * x + R[1] * y + R[2] * z;
  out[o + 1] = R[3] * x + R[4] * y + R[5] * z;
  out[o + 2] = R[6] * x + R[7] * y + R[8] * z;
}

/** `out[o…o+2]` = R·`v[k…k+2]` + x: a point of a shape's frame in the world. */
function place(R: Float64Array, v: Float64Array, k: number, x: Vec3, out: Float64Array, o: number): void {
  rotate(R, v, k, out, o);
  out[o] += x.x;
  out[o + 1] += x.y;
  out[o + 2] += x.z;
}

/**
 * Hands the contact in `W` to cannon as its own handlers do: a pooled `ContactEquation` (with the
 * shapes cannon passed), points relative to the bodies, and its friction pair when `friction` (not
 * when friction is averaged over the manifold, or is the patch's).
 */
function emit(
  np: Narrowphase,
  bi: Body,
  bj: Body,
  si: Shape,
  sj: Shape,
  rsi: Shape | null | undefined,
  rsj: Shape | null | undefined,
  friction: boolean,
): void {
  const c = np.createContactEquation(bi, bj, si, sj, rsi ?? si, rsj ?? sj);
  const n = c.ni;
  n.x = W[0];
  n.y = W[1];
  n.z = W[2];
  const ri = c.ri;
  ri.x = W[3] - bi.position.x;
  ri.y = W[4] - bi.position.y;
  ri.z = W[5] - bi.position.z;
  const rj = c.rj;
  rj.x = W[6] - bj.position.x;
  rj.y = W[7] - bj.position.y;
  rj.z = W[8] - bj.position.z;
  np.result.push(c);
  if (friction) np.createFrictionEquationsFromContact(c, np.frictionResult);
}
