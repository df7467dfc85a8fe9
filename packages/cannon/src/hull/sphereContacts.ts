/**
 * The default-install replacement of cannon-es 0.20.0's `Narrowphase.sphereConvex` (sphere against a
 * convex polyhedron or cylinder, and against each heightfield pillar): the first hull corner inside
 * the sphere, else the first face whose plane the sphere crosses with its centre over the face polygon
 * (cannon's `pointInPolygon`), else an edge of that face — the same tests, contact and friction, bit
 * for bit, with each world vertex turned once instead of once per use and no `Vec3` allocated or taken
 * from the pool.
 */
import type {
  Body,
  ContactEquation,
  ConvexPolyhedron,
  Narrowphase,
  Quaternion,
  Sphere,
  Vec3,
} from 'cannon-es';
import { hullData } from './hullData.js';
import { AS_IS, rotate, toBodies } from './pairFrame.js';

type SphereConvex = (
  this: Narrowphase,
  si: Sphere,
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
) => boolean | undefined;

interface Np {
  createContactEquation(...a: unknown[]): ContactEquation;
  createFrictionEquationsFromContact(c: unknown, out: unknown[]): boolean;
  frictionResult: unknown[];
  result: ContactEquation[];
}

let W = new Float64Array(96);
/** The face's world normal (0–2), the sphere centre (3–5) and the hull's quaternion (6–9). */
const N = new Float64Array(10);

function faceOk(face: number[] | undefined, nv: number): boolean {
  if (face == null || face.length === 0) return false;
  for (let j = 0; j < face.length; j++) {
    const i = face[j];
    if (!(typeof i === 'number' && i >= 0 && i < nv && Math.floor(i) === i)) return false;
  }
  return true;
}

/** cannon's pointInPolygon for the world vertices `face` of W, normal N, point (px, py, pz). */
function pointInFace(face: number[]): boolean {
  const px = N[3];
  const py = N[4];
  const pz = N[5];
  let positive = -1; // -1: not set, 1: true, 0: false
  const n = face.length;
  const nx = N[0];
  const ny = N[1];
  const nz = N[2];
  for (let i = 0; i < n; i++) {
    const v = 3 * face[i];
    const u = 3 * face[(i + 1) % n];
    const ex = W[u] - W[v];
    const ey = W[u + 1] - W[v + 1];
    const ez = W[u + 2] - W[v + 2];
    // edge × normal
    const cx = ey * nz - ez * ny;
    const cy = ez * nx - ex * nz;
    const cz = ex * ny - ey * nx;
    const r = cx * (px - W[v]) + cy * (py - W[v + 1]) + cz * (pz - W[v + 2]);
    if (positive === -1 || (r > 0 && positive === 1) || (r <= 0 && positive === 0)) {
      if (positive === -1) positive = r > 0 ? 1 : 0;
      continue;
    }
    return false;
  }
  return true;
}

function stock(np: Narrowphase): SphereConvex {
  return (Object.getPrototypeOf(np) as { sphereConvex: SphereConvex }).sphereConvex;
}

/** cannon's `sphereConvex`, bit for bit (see the module comment); an own property of a `Narrowphase`. */
export const sphereConvexExact: SphereConvex = function sphereConvex(
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
  const H = hullData(sj);
  const faces = sj.faces;
  let ok = H.valid && H.nv < 1e6;
  for (let f = 0; ok && f < faces.length; f++) ok = faceOk(faces[f], H.nv);
  if (!ok) return stock(this).call(this, si, sj, xi, xj, qi, qj, bi, bj, rsi, rsj, justTest);
  const np = this as unknown as Np;
  const R = si.radius;
  const nv = H.nv;
  if (W.length < 3 * nv) W = new Float64Array(6 * nv);
  const V = H.verts;
  N[6] = qj.x;
  N[7] = qj.y;
  N[8] = qj.z;
  N[9] = qj.w;
  const cx = xi.x;
  const cy = xi.y;
  const cz = xi.z;
  N[3] = cx;
  N[4] = cy;
  N[5] = cz;
  // Corners: world corner = q·v + xj (cannon's `xj.vadd(corner, corner)`: corner + xj).
  for (let i = 0; i < nv; i++) {
    const k = 3 * i;
    rotate(N, 6, AS_IS, V, k, W, k);
    W[k] = W[k] + xj.x;
    W[k + 1] = W[k + 1] + xj.y;
    W[k + 2] = W[k + 2] + xj.z;
    const sx = W[k] - cx;
    const sy = W[k + 1] - cy;
    const sz = W[k + 2] - cz;
    if (sx * sx + sy * sy + sz * sz < R * R) {
      if (justTest) return true;
      const r = np.createContactEquation(bi, bj, si, sj, rsi, rsj);
      // ni = normalize(sphere→corner), ri = R·ni; rj = corner − xj; then relative to the bodies.
      D[0] = sx;
      D[1] = sy;
      D[2] = sz;
      radial(r, si);
      r.rj.x = W[k] - xj.x;
      r.rj.y = W[k + 1] - xj.y;
      r.rj.z = W[k + 2] - xj.z;
      relative(np, r, xi, xj, bi, bj);
      return undefined;
    }
  }
  // Faces.
  const normals = H.normals;
  for (let i = 0, nfaces = faces.length; i !== nfaces; i++) {
    const face = faces[i];
    rotate(N, 6, AS_IS, normals, 3 * i, N, 0);
    const nx = N[0];
    const ny = N[1];
    const nz = N[2];
    const w0 = 3 * face[0];
    const wx = W[w0];
    const wy = W[w0 + 1];
    const wz = W[w0 + 2];
    // Sphere point closest to the plane: xi − R·n (cannon: n.scale(−R) then xi.vadd).
    const spx = -R * nx + cx;
    const spy = -R * ny + cy;
    const spz = -R * nz + cz;
    const penetration = (spx - wx) * nx + (spy - wy) * ny + (spz - wz) * nz;
    if (penetration < 0 && (cx - wx) * nx + (cy - wy) * ny + (cz - wz) * nz > 0) {
      if (pointInFace(face)) {
        if (justTest) return true;
        const r = np.createContactEquation(bi, bj, si, sj, rsi, rsj);
        const psx = -R * nx;
        const psy = -R * ny;
        const psz = -R * nz;
        r.ri.x = psx;
        r.ri.y = psy;
        r.ri.z = psz;
        r.ni.x = -nx;
        r.ni.y = -ny;
        r.ni.z = -nz;
        const p2x = -penetration * nx;
        const p2y = -penetration * ny;
        const p2z = -penetration * nz;
        r.rj.x = cx - xj.x + psx + p2x;
        r.rj.y = cy - xj.y + psy + p2y;
        r.rj.z = cz - xj.z + psz + p2z;
        relative(np, r, xi, xj, bi, bj);
        return undefined;
      }
      // Edges of this face: v1 = vertex j+1, v2 = vertex j+2.
      const L = face.length;
      for (let j = 0; j !== L; j++) {
        const a = 3 * face[(j + 1) % L];
        const b = 3 * face[(j + 2) % L];
        const v1x = W[a];
        const v1y = W[a + 1];
        const v1z = W[a + 2];
        const ex = W[b] - v1x;
        const ey = W[b + 1] - v1y;
        const ez = W[b + 2] - v1z;
        // Vec3.unit
        let ux: number;
        let uy: number;
        let uz: number;
        let ninv = Math.sqrt(ex * ex + ey * ey + ez * ez);
        if (ninv > 0.0) {
          ninv = 1.0 / ninv;
          ux = ex * ninv;
          uy = ey * ninv;
          uz = ez * ninv;
        } else {
          ux = 1;
          uy = 0;
          uz = 0;
        }
        const dot = (cx - v1x) * ux + (cy - v1y) * uy + (cz - v1z) * uz;
        const px = dot * ux + v1x;
        const py = dot * uy + v1y;
        const pz = dot * uz + v1z;
        const tx = px - cx;
        const ty = py - cy;
        const tz = pz - cz;
        if (dot > 0 && dot * dot < ex * ex + ey * ey + ez * ez && tx * tx + ty * ty + tz * tz < R * R) {
          if (justTest) return true;
          const r = np.createContactEquation(bi, bj, si, sj, rsi, rsj);
          r.rj.x = px - xj.x;
          r.rj.y = py - xj.y;
          r.rj.z = pz - xj.z;
          D[0] = px - cx;
          D[1] = py - cy;
          D[2] = pz - cz;
          radial(r, si);
          relative(np, r, xi, xj, bi, bj);
          return undefined;
        }
      }
    }
  }
  return undefined;
};

/** Direction from the sphere's centre to a contact, for {@link radial}. */
const D = new Float64Array(3);

/**
 * `ni = normalize(D)` (zero for a zero `D`) and `ri = radius·ni`, as cannon computes them, field by field
 * (not `Vec3.set`: a call V8 leaves un-inlined boxes each double argument, hence `D` too).
 */
function radial(r: ContactEquation, sphere: Sphere): void {
  const R = sphere.radius;
  let x = D[0];
  let y = D[1];
  let z = D[2];
  const len = Math.sqrt(x * x + y * y + z * z);
  if (len > 0.0) {
    const inv = 1 / len;
    x *= inv;
    y *= inv;
    z *= inv;
  } else {
    x = 0;
    y = 0;
    z = 0;
  }
  r.ni.x = x;
  r.ni.y = y;
  r.ni.z = z;
  r.ri.x = R * x;
  r.ri.y = R * y;
  r.ri.z = R * z;
}

/** cannon's last steps of every sphere–convex contact ({@link toBodies}), then the contact with its friction. */
function relative(np: Np, r: ContactEquation, xi: Vec3, xj: Vec3, bi: Body, bj: Body): void {
  toBodies(r, xi, xj, bi, bj);
  np.result.push(r);
  np.createFrictionEquationsFromContact(r, np.frictionResult);
}
