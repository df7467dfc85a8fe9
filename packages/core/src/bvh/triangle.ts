/**
 * Small float64 triangle helpers shared by the mesh–shape queries: the degeneracy rule of the BVH, and
 * the closest point of a triangle to a point.
 *
 * The closest point follows Ericson, *Real-Time Collision Detection* §5.1.5 (the face region, else
 * the edges), with the region found by signed volumes against the normal rather than by its barycentric
 * differences of products, which cancel on needle triangles (the book the Project Oort collision
 * write-up recommends in its conclusion).
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
 * array arguments only, so no double is boxed at the call. The point's projection onto the plane is the
 * answer when each edge sees it on its inner side (signed volumes against the normal); else the nearest
 * point of the edges it lies beyond. Unlike the barycentric form, nothing here cancels on a needle (a
 * triangle with a tiny angle): a point on one is found on it. A degenerate triangle gives the nearest
 * point of its edges.
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
  const abx = t[o + 3] - ax;
  const aby = t[o + 4] - ay;
  const abz = t[o + 5] - az;
  const acx = t[o + 6] - ax;
  const acy = t[o + 7] - ay;
  const acz = t[o + 8] - az;
  const nx = aby * acz - abz * acy;
  const ny = abz * acx - abx * acz;
  const nz = abx * acy - aby * acx;
  const nn = nx * nx + ny * ny + nz * nz;
  const px = p[po];
  const py = p[po + 1];
  const pz = p[po + 2];
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const j = k === 2 ? 0 : k + 1;
    const ux = t[o + 3 * k];
    const uy = t[o + 3 * k + 1];
    const uz = t[o + 3 * k + 2];
    const vx = t[o + 3 * j] - ux;
    const vy = t[o + 3 * j + 1] - uy;
    const vz = t[o + 3 * j + 2] - uz;
    const wx = px - ux;
    const wy = py - uy;
    const wz = pz - uz;
    // Inside this edge's half-plane (a degenerate triangle has none): not the side of the answer.
    if (nn > 0 && (vy * wz - vz * wy) * nx + (vz * wx - vx * wz) * ny + (vx * wy - vy * wx) * nz >= 0) {
      continue;
    }
    const vv = vx * vx + vy * vy + vz * vz;
    const s = vv > 0 ? Math.min(Math.max((wx * vx + wy * vy + wz * vz) / vv, 0), 1) : 0;
    const dx = wx - s * vx;
    const dy = wy - s * vy;
    const dz = wz - s * vz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best) {
      best = d2;
      out[0] = ux + s * vx;
      out[1] = uy + s * vy;
      out[2] = uz + s * vz;
    }
  }
  if (best !== Infinity) return;
  // Over the face: the projection onto the plane.
  const h = ((px - ax) * nx + (py - ay) * ny + (pz - az) * nz) / nn;
  out[0] = px - h * nx;
  out[1] = py - h * ny;
  out[2] = pz - h * nz;
}
