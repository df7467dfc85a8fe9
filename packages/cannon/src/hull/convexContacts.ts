/**
 * The default-install replacement of cannon-es 0.20.0's `Narrowphase.convexConvex`, the routine behind
 * box–box, box–convex, convex–convex, the cylinder pairs and every heightfield pillar of box– and
 * convex–heightfield: cannon's bounding-sphere test, separating axis (the separating-axis module) and clipping
 * (the clipping module), then its contact and friction equations built with the same arithmetic in the same
 * order — bit-identical contacts, normals, order, events and friction — without a `Vec3` per axis,
 * per clipped vertex or per contact point, and with far fewer axes projected.
 *
 * Shapes or poses cannon's own code would throw on or answer with non-finite numbers (see the hull-data module,
 * and face lists out of range) go to cannon's own routine, which does whatever it does with them.
 */
import type { Body, ConvexPolyhedron, Narrowphase, Quaternion, Vec3 } from 'cannon-es';
import { clipHull, clipOut } from './clipHull.js';
import { hullData } from './hullData.js';
import { loadPair, toBodies } from './pairFrame.js';
import { separatingAxis, separatingAxisOut } from './separatingAxis.js';

type ConvexConvex = (
  this: Narrowphase,
  si: ConvexPolyhedron,
  sj: ConvexPolyhedron,
  xi: Vec3,
  xj: Vec3,
  qi: Quaternion,
  qj: Quaternion,
  bi: Body,
  bj: Body,
  rsi?: unknown,
  rsj?: unknown,
  justTest?: boolean,
  faceListA?: number[] | null,
  faceListB?: number[] | null,
) => boolean | undefined;

/** Whether a position and quaternion are finite and not huge (cannon's arithmetic stays finite). */
function saneFrame(x: Vec3, q: Quaternion): boolean {
  const m = Math.max(
    Math.abs(x.x),
    Math.abs(x.y),
    Math.abs(x.z),
    Math.abs(q.x),
    Math.abs(q.y),
    Math.abs(q.z),
    Math.abs(q.w),
  );
  return m < 1e100; // false for NaN too
}

function saneList(list: ArrayLike<number> | null | undefined, n: number): boolean {
  if (list == null) return true;
  for (let i = 0; i < list.length; i++) {
    const f = list[i];
    if (!(typeof f === 'number' && f >= 0 && f < n && Math.floor(f) === f)) return false;
  }
  return true;
}

function stock(np: Narrowphase): ConvexConvex {
  return (Object.getPrototypeOf(np) as { convexConvex: ConvexConvex }).convexConvex;
}

/**
 * cannon's `convexConvex`, bit for bit (see the module comment); installed as an own property of a
 * world's `Narrowphase`, so cannon's box, convex, cylinder and heightfield handlers call it.
 */
export const convexConvexExact: ConvexConvex = function convexConvex(
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
  faceListA,
  faceListB,
) {
  // Vec3.distanceTo, written out (a call returning a double would box it).
  const ex = xj.x - xi.x;
  const ey = xj.y - xi.y;
  const ez = xj.z - xi.z;
  if (Math.sqrt(ex * ex + ey * ey + ez * ez) > si.boundingSphereRadius + sj.boundingSphereRadius) return;
  const A = hullData(si);
  const B = hullData(sj);
  if (
    !A.valid ||
    !B.valid ||
    !saneFrame(xi, qi) ||
    !saneFrame(xj, qj) ||
    !saneList(faceListA, A.nf) ||
    !saneList(faceListB, B.nf)
  ) {
    return stock(this).call(this, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest, faceListA, faceListB);
  }
  loadPair(A, B, xi, qi, xj, qj);
  const found = separatingAxis(A, B, faceListA, faceListB);
  if (found === 0) return;
  const s = separatingAxisOut;
  const sx = s[0];
  const sy = s[1];
  const sz = s[2];
  const n = found === 1 ? clipHull(A, B, si.faces, sj.faces) : -1;
  if (n < 0) {
    return stock(this).call(this, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest, faceListA, faceListB);
  }
  const points = clipOut.points;
  const depths = clipOut.depths;
  const nx = clipOut.normal[0];
  const ny = clipOut.normal[1];
  const nz = clipOut.normal[2];
  const np = this as Narrowphase & {
    createContactEquation(...a: unknown[]): import('cannon-es').ContactEquation;
    createFrictionEquationsFromContact(c: unknown, out: unknown[]): boolean;
    createFrictionFromAverage(n: number): void;
    frictionResult: unknown[];
  };
  let numContacts = 0;
  for (let j = 0; j < n; j++) {
    if (justTest) return true;
    const r = np.createContactEquation(bi, bj, si, sj, rsi, rsj);
    const ri = r.ri;
    const rj = r.rj;
    r.ni.x = -sx;
    r.ni.y = -sy;
    r.ni.z = -sz;
    // q = −normal·depth; ri = point + q; rj = point; then cannon's relative-vector steps, in its order.
    const depth = depths[j];
    const qx = depth * -nx;
    const qy = depth * -ny;
    const qz = depth * -nz;
    const px = points[3 * j];
    const py = points[3 * j + 1];
    const pz = points[3 * j + 2];
    ri.x = qx + px;
    ri.y = qy + py;
    ri.z = qz + pz;
    rj.x = px;
    rj.y = py;
    rj.z = pz;
    ri.x = ri.x - xi.x;
    ri.y = ri.y - xi.y;
    ri.z = ri.z - xi.z;
    rj.x = rj.x - xj.x;
    rj.y = rj.y - xj.y;
    rj.z = rj.z - xj.z;
    toBodies(r, xi, xj, bi, bj);
    this.result.push(r);
    numContacts++;
    if (!this.enableFrictionReduction) np.createFrictionEquationsFromContact(r, np.frictionResult);
  }
  if (this.enableFrictionReduction && numContacts) np.createFrictionFromAverage(numContacts);
  return undefined;
};
