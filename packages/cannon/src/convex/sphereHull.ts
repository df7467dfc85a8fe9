/**
 * Sphere–hull contact: the point of a convex hull nearest a sphere's centre, exactly, in the hull's
 * local frame (Ericson, Real-Time Collision Detection §5.1: closest point on a convex polyhedron).
 *
 * Centre inside the hull (no face plane has it outside): the face of least penetration, along its
 * normal. Centre outside: the nearest point lies on a face whose plane has the centre outside (some
 * face normal of the point's normal cone faces the centre), so only those faces — and only while their
 * plane distance is below the best distance so far and the radius — are searched: the centre's
 * projection if it falls inside the face's loop, else the nearest point of the loop's edges.
 */
import type { Hull } from './hull.js';

/**
 * The input and result of {@link sphereHull}: the sphere's centre (hull frame) and radius in, the
 * normal from the sphere to the hull, the hull point and the separation out.
 */
export class SphereHullContact {
  /** The sphere's centre in the hull's frame (input). */
  readonly c = new Float64Array(3);
  /** The sphere's radius (input). */
  r = 0;
  /** Unit normal from the sphere's centre towards the hull (hull frame). */
  readonly n = new Float64Array(3);
  /** The hull's surface point of the contact (hull frame). */
  readonly p = new Float64Array(3);
  /** Distance from the sphere's surface to the hull (negative: penetration). */
  sep = 0;
}

/**
 * Finds the contact of the sphere in `io` (centre in the hull's frame, radius) with `hull`; returns
 * whether they overlap (separation below zero), with the contact in `io`.
 */
export function sphereHull(hull: Hull, io: SphereHullContact): boolean {
  const out = io;
  const cx = io.c[0];
  const cy = io.c[1];
  const cz = io.c[2];
  const r = io.r;
  const pl = hull.planes;
  const nf = hull.nf;
  if (nf === 0) return false;
  // The face the centre is farthest outside of (or, inside, least deep in).
  let top = 0;
  let topS = Number.NEGATIVE_INFINITY;
  for (let f = 0; f < nf; f++) {
    const s = pl[4 * f] * cx + pl[4 * f + 1] * cy + pl[4 * f + 2] * cz - pl[4 * f + 3];
    if (s > topS) {
      topS = s;
      top = f;
    }
  }
  if (topS >= r) return false;
  if (topS <= 0) {
    // Inside: push out through the face of least penetration.
    out.n[0] = -pl[4 * top];
    out.n[1] = -pl[4 * top + 1];
    out.n[2] = -pl[4 * top + 2];
    out.p[0] = cx - topS * pl[4 * top];
    out.p[1] = cy - topS * pl[4 * top + 1];
    out.p[2] = cz - topS * pl[4 * top + 2];
    out.sep = topS - r;
    return true;
  }
  const v = hull.verts;
  const fs = hull.faceStart;
  const fv = hull.faceVerts;
  let best2 = r * r;
  let found = false;
  let px = 0;
  let py = 0;
  let pz = 0;
  for (let f = 0; f < nf; f++) {
    const nx = pl[4 * f];
    const ny = pl[4 * f + 1];
    const nz = pl[4 * f + 2];
    const s = nx * cx + ny * cy + nz * cz - pl[4 * f + 3];
    if (s <= 0 || s * s >= best2) continue;
    // The projection, if inside every edge of the loop.
    const qx = cx - s * nx;
    const qy = cy - s * ny;
    const qz = cz - s * nz;
    let inside = true;
    for (let k = fs[f]; k < fs[f + 1]; k++) {
      const a = 3 * fv[k];
      const b = 3 * fv[k + 1 < fs[f + 1] ? k + 1 : fs[f]];
      const ex = v[b] - v[a];
      const ey = v[b + 1] - v[a + 1];
      const ez = v[b + 2] - v[a + 2];
      // Outward side normal cross(e, n).
      const side =
        (ey * nz - ez * ny) * (qx - v[a]) +
        (ez * nx - ex * nz) * (qy - v[a + 1]) +
        (ex * ny - ey * nx) * (qz - v[a + 2]);
      if (side > 0) {
        inside = false;
        // Nearest point of this edge.
        const len2 = ex * ex + ey * ey + ez * ez;
        let t = len2 > 0 ? ((cx - v[a]) * ex + (cy - v[a + 1]) * ey + (cz - v[a + 2]) * ez) / len2 : 0;
        t = Math.min(1, Math.max(0, t));
        const x = v[a] + t * ex;
        const y = v[a + 1] + t * ey;
        const z = v[a + 2] + t * ez;
        const d2 = (cx - x) ** 2 + (cy - y) ** 2 + (cz - z) ** 2;
        if (d2 < best2) {
          best2 = d2;
          px = x;
          py = y;
          pz = z;
          found = true;
        }
      }
    }
    if (inside) {
      best2 = s * s;
      px = qx;
      py = qy;
      pz = qz;
      found = true;
    }
  }
  if (!found) return false;
  const dist = Math.sqrt(best2);
  if (dist > 0) {
    out.n[0] = (px - cx) / dist;
    out.n[1] = (py - cy) / dist;
    out.n[2] = (pz - cz) / dist;
  } else {
    out.n[0] = -pl[4 * top];
    out.n[1] = -pl[4 * top + 1];
    out.n[2] = -pl[4 * top + 2];
  }
  out.p[0] = px;
  out.p[1] = py;
  out.p[2] = pz;
  out.sep = dist - r;
  return true;
}
