/**
 * Triangle geometry for the trimesh contacts: a flat triangle record, its unit normal, and the clip of one
 * triangle against another that yields contact points and depths.
 *
 * A triangle is a record of {@link TRI} numbers in a `Float64Array` (so hull and mesh triangles share one
 * layout and nothing is allocated per step). {@link clipBehind} is GImpact's triangle–triangle clipping
 * (Bullet's `btPrimitiveTriangle`): one triangle is clipped by the prism of the other's three edge
 * planes (Sutherland–Hodgman polygon clipping), keeping the points behind the other's face (faces are
 * outward by winding, `(b−a)×(c−a)` as cannon-es's `Trimesh.updateNormals`) with their distance to its
 * plane as depth.
 */

/** Triangle record: 3 vertices (9 numbers), unit normal (3), then the body it belongs to (0 = i, 1 = j). */
export const TRI = 13;

/** Sets the unit normal `(b−a)×(c−a)` of the triangle at `t[o..o+9)` into `t[o+9..o+12)`; false if degenerate. */
export function triangleNormal(t: Float64Array, o: number): boolean {
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

/** Polygon clipping scratch (a triangle clipped by 3 planes has at most 6 vertices). */
const POLY_A = new Float64Array(3 * 8);
const POLY_B = new Float64Array(3 * 8);

/**
 * Clips triangle `t` (at `to`) by the prism of triangle `f` (at `fo`: its three inward edge planes) and
 * writes the clipped points lying behind `f`'s plane (depth > 0) into `out` as `x, y, z, depth`. Returns
 * how many; -1 if the clipped polygon is empty or no point is behind the plane (the pair is separated
 * along `f`'s normal). GImpact's triangle–triangle clip method (Bullet, btPrimitiveTriangle).
 */
export function clipBehind(
  f: Float64Array,
  fo: number,
  t: Float64Array,
  to: number,
  out: Float64Array,
): number {
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
export function copyTriangle(
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

/** The greatest depth among the first `n` clipped points of `pts` (`x, y, z, depth` each); 0 if none. */
export function maxDepth(pts: Float64Array, n: number): number {
  let d = 0;
  for (let k = 0; k < n; k++) if (pts[4 * k + 3] > d) d = pts[4 * k + 3];
  return d;
}
