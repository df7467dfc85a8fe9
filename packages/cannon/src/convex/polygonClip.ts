/**
 * One step of Sutherland–Hodgman polygon clipping (Sutherland and Hodgman, "Reentrant Polygon
 * Clipping", 1974): a convex polygon in flat xyz arrays cut by one half-space. The hull and heightfield
 * contact builders clip an incident face by each side plane of a reference face with it.
 */

/**
 * Clips polygon `src` (`n` points, xyz each) to the half-space `s·x ≤ off` (`plane` = s, off) into
 * `dst`, which must hold n + 1 points; returns the clipped polygon's point count.
 */
export function clipPolygon(src: Float64Array, n: number, plane: Float64Array, dst: Float64Array): number {
  const sx = plane[0];
  const sy = plane[1];
  const sz = plane[2];
  const off = plane[3];
  let m = 0;
  let p = 3 * (n - 1);
  let dp = sx * src[p] + sy * src[p + 1] + sz * src[p + 2] - off;
  for (let k = 0; k < n; k++) {
    const c = 3 * k;
    const dc = sx * src[c] + sy * src[c + 1] + sz * src[c + 2] - off;
    if (dp <= 0 !== dc <= 0) {
      const r = dp / (dp - dc);
      dst[3 * m] = src[p] + r * (src[c] - src[p]);
      dst[3 * m + 1] = src[p + 1] + r * (src[c + 1] - src[p + 1]);
      dst[3 * m + 2] = src[p + 2] + r * (src[c + 2] - src[p + 2]);
      m++;
    }
    if (dc <= 0) {
      dst[3 * m] = src[c];
      dst[3 * m + 1] = src[c + 1];
      dst[3 * m + 2] = src[c + 2];
      m++;
    }
    p = c;
    dp = dc;
  }
  return m;
}
