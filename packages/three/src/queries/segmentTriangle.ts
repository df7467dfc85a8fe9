/**
 * Closest points of a segment and a triangle, in float64: the geometric kernel of the capsule queries
 * (a capsule touches a triangle when its core segment comes within the radius).
 *
 * Follows Ericson, *Real-Time Collision Detection* (2005): if the segment crosses the triangle, the
 * crossing point (distance 0); otherwise the nearest of the segment's end points to the triangle
 * (§5.1.5, `closestPointOnTriangle` of `@sieve/core`) and of the segment to each edge (§5.1.9,
 * `ClosestPtSegmentSegment`) — the distance of two convex sets that do not meet is reached on a
 * boundary feature of one of them.
 *
 * Arguments and results travel in typed arrays, never as loose doubles (a double crossing a call V8 does
 * not inline is boxed).
 */
import { closestPointOnTriangle } from '@sieve/core';

/**
 * Result of {@link segmentTriangle}: point on the segment (0–2), point on the triangle (3–5), squared
 * distance (6), segment parameter of the first point (7).
 */
export const CLOSEST = new Float64Array(8);

const P = new Float64Array(3);
const Q = new Float64Array(3);
const N = new Float64Array(3);
const SEG = new Float64Array(4);

/**
 * Closest points of ClosestPtSegmentSegment (Ericson §5.1.9) of segments `p1 q1` (in `s[so..so+5]`) and
 * `p2 q2` (triangle vertices `t[a..a+2]`, `t[b..b+2]`): writes their parameters to `SEG[0]`, `SEG[1]`
 * and the squared distance to `SEG[2]`.
 */
function segmentSegment(s: Float64Array, so: number, t: Float64Array, a: number, b: number): void {
  const d1x = s[so + 3] - s[so];
  const d1y = s[so + 4] - s[so + 1];
  const d1z = s[so + 5] - s[so + 2];
  const d2x = t[b] - t[a];
  const d2y = t[b + 1] - t[a + 1];
  const d2z = t[b + 2] - t[a + 2];
  const rx = s[so] - t[a];
  const ry = s[so + 1] - t[a + 1];
  const rz = s[so + 2] - t[a + 2];
  const aa = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let u: number;
  let v: number;
  if (aa <= 0 && e <= 0) {
    u = 0;
    v = 0;
  } else if (aa <= 0) {
    u = 0;
    v = clamp01(f / e);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 0) {
      v = 0;
      u = clamp01(-c / aa);
    } else {
      const bb = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = aa * e - bb * bb;
      u = denom > 0 ? clamp01((bb * f - c * e) / denom) : 0;
      v = (bb * u + f) / e;
      if (v < 0) {
        v = 0;
        u = clamp01(-c / aa);
      } else if (v > 1) {
        v = 1;
        u = clamp01((bb - c) / aa);
      }
    }
  }
  const x = s[so] + d1x * u - (t[a] + d2x * v);
  const y = s[so + 1] + d1y * u - (t[a + 1] + d2y * v);
  const z = s[so + 2] + d1z * u - (t[a + 2] + d2z * v);
  SEG[0] = u;
  SEG[1] = v;
  SEG[2] = x * x + y * y + z * z;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : Math.min(x, 1);
}

/**
 * Closest points of the segment `s[so..so+5]` (two end points) and the non-degenerate triangle
 * `t[to..to+8]`, into {@link CLOSEST}.
 */
export function segmentTriangle(s: Float64Array, so: number, t: Float64Array, to: number): void {
  const ax = t[to];
  const ay = t[to + 1];
  const az = t[to + 2];
  const e1x = t[to + 3] - ax;
  const e1y = t[to + 4] - ay;
  const e1z = t[to + 5] - az;
  const e2x = t[to + 6] - ax;
  const e2y = t[to + 7] - ay;
  const e2z = t[to + 8] - az;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const d0 = nx * (s[so] - ax) + ny * (s[so + 1] - ay) + nz * (s[so + 2] - az);
  const d1 = nx * (s[so + 3] - ax) + ny * (s[so + 4] - ay) + nz * (s[so + 5] - az);
  // The segment crosses (or touches) the plane: is the crossing inside the triangle?
  if ((d0 <= 0 && d1 >= 0) || (d0 >= 0 && d1 <= 0)) {
    const u = d0 === d1 ? 0 : d0 / (d0 - d1);
    const px = s[so] + (s[so + 3] - s[so]) * u;
    const py = s[so + 1] + (s[so + 4] - s[so + 1]) * u;
    const pz = s[so + 2] + (s[so + 5] - s[so + 2]) * u;
    P[0] = px;
    P[1] = py;
    P[2] = pz;
    N[0] = nx;
    N[1] = ny;
    N[2] = nz;
    if (d0 !== d1 && insideTriangle(t, to)) {
      CLOSEST[0] = CLOSEST[3] = px;
      CLOSEST[1] = CLOSEST[4] = py;
      CLOSEST[2] = CLOSEST[5] = pz;
      CLOSEST[6] = 0;
      CLOSEST[7] = u;
      return;
    }
  }
  // End points against the triangle.
  let best = Infinity;
  for (let k = 0; k < 2; k++) {
    P[0] = s[so + 3 * k];
    P[1] = s[so + 3 * k + 1];
    P[2] = s[so + 3 * k + 2];
    closestPointOnTriangle(t, to, P, 0, Q);
    const x = P[0] - Q[0];
    const y = P[1] - Q[1];
    const z = P[2] - Q[2];
    const d = x * x + y * y + z * z;
    if (d < best) {
      best = d;
      CLOSEST[0] = P[0];
      CLOSEST[1] = P[1];
      CLOSEST[2] = P[2];
      CLOSEST[3] = Q[0];
      CLOSEST[4] = Q[1];
      CLOSEST[5] = Q[2];
      CLOSEST[7] = k;
    }
  }
  // The segment against each edge.
  for (let k = 0; k < 3; k++) {
    const a = to + 3 * k;
    const b = to + 3 * (k === 2 ? 0 : k + 1);
    segmentSegment(s, so, t, a, b);
    if (SEG[2] < best) {
      best = SEG[2];
      const u = SEG[0];
      const v = SEG[1];
      CLOSEST[0] = s[so] + (s[so + 3] - s[so]) * u;
      CLOSEST[1] = s[so + 1] + (s[so + 4] - s[so + 1]) * u;
      CLOSEST[2] = s[so + 2] + (s[so + 5] - s[so + 2]) * u;
      CLOSEST[3] = t[a] + (t[b] - t[a]) * v;
      CLOSEST[4] = t[a + 1] + (t[b + 1] - t[a + 1]) * v;
      CLOSEST[5] = t[a + 2] + (t[b + 2] - t[a + 2]) * v;
      CLOSEST[7] = u;
    }
  }
  CLOSEST[6] = best;
}

/**
 * Whether the point `P` (on the triangle's plane) is inside the triangle `t[o..o+8]` of normal `N`: on
 * the inner side of all three edges.
 */
function insideTriangle(t: Float64Array, o: number): boolean {
  const px = P[0];
  const py = P[1];
  const pz = P[2];
  const nx = N[0];
  const ny = N[1];
  const nz = N[2];
  for (let k = 0; k < 3; k++) {
    const a = o + 3 * k;
    const b = o + 3 * (k === 2 ? 0 : k + 1);
    const ex = t[b] - t[a];
    const ey = t[b + 1] - t[a + 1];
    const ez = t[b + 2] - t[a + 2];
    const qx = px - t[a];
    const qy = py - t[a + 1];
    const qz = pz - t[a + 2];
    const cx = ey * qz - ez * qy;
    const cy = ez * qx - ex * qz;
    const cz = ex * qy - ey * qx;
    if (cx * nx + cy * ny + cz * nz < 0) return false;
  }
  return true;
}
