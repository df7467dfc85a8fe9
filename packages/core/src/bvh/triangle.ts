/**
 * Small float64 triangle helpers shared by the mesh–shape queries: the degeneracy rule of the BVH, and
 * the closest point of a triangle to a point.
 *
 * The closest point follows Ericson, *Real-Time Collision Detection* §5.1.5 (Voronoi regions of the
 * vertices, then of the edges, then the face; the book the Project Oort collision write-up recommends in
 * its conclusion), with each edge's side told by a signed volume against the normal rather than by the
 * book's barycentric differences of products, which cancel on needle triangles.
 */

/** As {@link isDegenerateTriangle}, for the triangle `t[o..o+8]` (no doubles cross the call). */
export function isDegenerateTriangleAt(t: Float64Array, o: number): boolean {
  const ax = t[o + 3] - t[o];
  const ay = t[o + 4] - t[o + 1];
  const az = t[o + 5] - t[o + 2];
  const bx = t[o + 6] - t[o];
  const by = t[o + 7] - t[o + 1];
  const bz = t[o + 8] - t[o + 2];
  const nx = ay * bz - az * by;
  const ny = az * bx - ax * bz;
  const nz = ax * by - ay * bx;
  return nx * nx + ny * ny + nz * nz <= 1e-24 * (ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz);
}

/**
 * Whether a triangle is degenerate by the BVH's rule (same as the triangle–triangle test):
 * `|e1 × e2|² ≤ 1e-24·|e1|²·|e2|²` with `e1`, `e2` its edges from vertex 0. Every BVH query ignores
 * such triangles.
 */
export function isDegenerateTriangle(
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  x2: number,
  y2: number,
  z2: number,
): boolean {
  const ax = x1 - x0;
  const ay = y1 - y0;
  const az = z1 - z0;
  const bx = x2 - x0;
  const by = y2 - y0;
  const bz = z2 - z0;
  const nx = ay * bz - az * by;
  const ny = az * bx - ax * bz;
  const nz = ax * by - ay * bx;
  return nx * nx + ny * ny + nz * nz <= 1e-24 * (ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz);
}

/**
 * The point of the triangle `t[o..o+8]` nearest the point `p[po..po+2]`, written to `out[0..2]`. Float64;
 * array arguments only, so no double is boxed at the call. Ericson's Voronoi regions (vertices by dot
 * products, then edges, then the face), with each edge's side told by a signed volume against the
 * triangle's normal instead of the barycentric differences of products, which cancel on a needle (a
 * triangle with a tiny angle): a point on a needle is found on it. The triangle must not be degenerate
 * (the face region divides by its normal's length).
 */
export function closestPointOnTriangle(
  t: Float64Array,
  o: number,
  p: Float64Array,
  po: number,
  out: Float64Array,
): void {
  const ax = t[o];
  const ay = t[o + 1];
  const az = t[o + 2];
  const bx = t[o + 3];
  const by = t[o + 4];
  const bz = t[o + 5];
  const cx = t[o + 6];
  const cy = t[o + 7];
  const cz = t[o + 8];
  const px = p[po];
  const py = p[po + 1];
  const pz = p[po + 2];
  const abx = bx - ax;
  const aby = by - ay;
  const abz = bz - az;
  const acx = cx - ax;
  const acy = cy - ay;
  const acz = cz - az;
  const apx = px - ax;
  const apy = py - ay;
  const apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    out[0] = ax;
    out[1] = ay;
    out[2] = az;
    return;
  }
  const bpx = px - bx;
  const bpy = py - by;
  const bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    out[0] = bx;
    out[1] = by;
    out[2] = bz;
    return;
  }
  const cpx = px - cx;
  const cpy = py - cy;
  const cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    out[0] = cx;
    out[1] = cy;
    out[2] = cz;
    return;
  }
  // The normal, and the side of each edge the point is on (positive: the triangle's side).
  const nx = aby * acz - abz * acy;
  const ny = abz * acx - abx * acz;
  const nz = abx * acy - aby * acx;
  // Edge AB: (b − a) × (p − a) · n.
  const vc = (aby * apz - abz * apy) * nx + (abz * apx - abx * apz) * ny + (abx * apy - aby * apx) * nz;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    out[0] = ax + v * abx;
    out[1] = ay + v * aby;
    out[2] = az + v * abz;
    return;
  }
  // Edge CA: (a − c) × (p − c) · n = (p − c) × (c − a) · n.
  const vb = (cpy * acz - cpz * acy) * nx + (cpz * acx - cpx * acz) * ny + (cpx * acy - cpy * acx) * nz;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    out[0] = ax + w * acx;
    out[1] = ay + w * acy;
    out[2] = az + w * acz;
    return;
  }
  // Edge BC: (c − b) × (p − b) · n.
  const bcx = cx - bx;
  const bcy = cy - by;
  const bcz = cz - bz;
  const va = (bcy * bpz - bcz * bpy) * nx + (bcz * bpx - bcx * bpz) * ny + (bcx * bpy - bcy * bpx) * nz;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    out[0] = bx + w * bcx;
    out[1] = by + w * bcy;
    out[2] = bz + w * bcz;
    return;
  }
  // Over the face: the projection onto the plane.
  const h = (apx * nx + apy * ny + apz * nz) / (nx * nx + ny * ny + nz * nz);
  out[0] = px - h * nx;
  out[1] = py - h * ny;
  out[2] = pz - h * nz;
}
