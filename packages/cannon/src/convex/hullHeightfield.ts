/**
 * Hull–heightfield contacts, in the heightfield's local frame (cannon's grid: x, y cells of
 * `elementSize`, height along z; each cell split into the two triangles cannon's `getTriangle` gives).
 *
 * Only the cells under the hull's bounding box and not below its lowest point are visited. Each
 * triangle owns the vertical column over it (the columns tile the grid, so every piece of the hull is
 * tested against exactly one triangle) and is one-sided, as a terrain is: the contact normal is always
 * the triangle's, so a hull sliding over the terrain meets no internal edge between triangles (the
 * "ghost collisions" of separating-axis tests against each triangle, which cannon's prism pillars also
 * get). The incident face — of the faces around the hull's deepest vertex along the downward normal
 * within the column (or anywhere, if no vertex is over the triangle), the one most anti-parallel to the
 * normal, after Dirk Gregorius's "Robust Contact Creation" (GDC 2015) — is clipped by the column's
 * sides, and its points below the triangle's plane become contacts, in a manifold the caller reduces
 * (deepest first, then farthest-point sampling) as for trimeshes.
 */
import { growArray } from '@sieve/core';
import type { Heightfield } from 'cannon-es';
import type { Manifold } from '../contactManifold.js';
import type { Hull } from './hull.js';
import type { HullPair } from './hullQueries.js';
import { clipPolygon } from './polygonClip.js';

const TRI = new Float64Array(9);
const SIDE = new Float64Array(4);
let polyA = new Float64Array(96);
let polyB = new Float64Array(96);

/**
 * Adds the contacts of `hull` (placed in the heightfield's frame by `pair`, already loaded) with
 * heightfield `hf` to `m`: normal from the heightfield to the hull, point on the heightfield as the
 * point of body i and on the hull as that of body j. With `justTest`, returns at the first contact.
 * Returns whether any triangle touches.
 */
export function hullHeightfield(
  hull: Hull,
  pair: HullPair,
  hf: Heightfield,
  m: Manifold,
  justTest: boolean,
): boolean {
  const v = pair.verts;
  const nv = hull.nv;
  if (nv === 0 || hull.nf === 0) return false;
  let lx = Number.POSITIVE_INFINITY;
  let ly = lx;
  let lz = lx;
  let ux = Number.NEGATIVE_INFINITY;
  let uy = ux;
  for (let k = 0; k < 3 * nv; k += 3) {
    if (v[k] < lx) lx = v[k];
    if (v[k] > ux) ux = v[k];
    if (v[k + 1] < ly) ly = v[k + 1];
    if (v[k + 1] > uy) uy = v[k + 1];
    if (v[k + 2] < lz) lz = v[k + 2];
  }
  const data = hf.data;
  const e = hf.elementSize;
  const cellsX = data.length - 1;
  const cellsY = cellsX > 0 ? data[0].length - 1 : 0;
  const i0 = Math.max(0, Math.floor(lx / e));
  const i1 = Math.min(cellsX - 1, Math.floor(ux / e));
  const j0 = Math.max(0, Math.floor(ly / e));
  const j1 = Math.min(cellsY - 1, Math.floor(uy / e));
  const cap = 3 * (hull.maxFaceVerts + 5);
  if (polyA.length < cap) {
    polyA = growArray(polyA, cap);
    polyB = growArray(polyB, cap);
  }
  let touched = false;
  for (let i = i0; i <= i1; i++) {
    const col = data[i];
    const next = data[i + 1];
    for (let j = j0; j <= j1; j++) {
      const h00 = col[j];
      const h10 = next[j];
      const h01 = col[j + 1];
      const h11 = next[j + 1];
      if (lz > Math.max(h00, h10, h01, h11)) continue;
      // Lower triangle (i, j), (i + 1, j), (i, j + 1); upper (i + 1, j + 1), (i, j + 1), (i + 1, j).
      const x0 = i * e;
      const x1 = (i + 1) * e;
      const y0 = j * e;
      const y1 = (j + 1) * e;
      const t = TRI;
      t[0] = x0;
      t[1] = y0;
      t[2] = h00;
      t[3] = x1;
      t[4] = y0;
      t[5] = h10;
      t[6] = x0;
      t[7] = y1;
      t[8] = h01;
      if (triangle(hull, pair, m, justTest)) {
        touched = true;
        if (justTest) return true;
      }
      t[0] = x1;
      t[1] = y1;
      t[2] = h11;
      t[3] = x0;
      t[4] = y1;
      t[5] = h01;
      t[6] = x1;
      t[7] = y0;
      t[8] = h10;
      if (triangle(hull, pair, m, justTest)) {
        touched = true;
        if (justTest) return true;
      }
    }
  }
  return touched;
}

/** Whether vertex `k` of `v` lies in the vertical column over the triangle in `TRI` (counter-clockwise from above). */
function inColumn(v: Float64Array, k: number): boolean {
  const t = TRI;
  const x = v[3 * k];
  const y = v[3 * k + 1];
  for (let a = 0; a < 9; a += 3) {
    const b = a === 6 ? 0 : a + 3;
    if ((t[b + 1] - t[a + 1]) * (x - t[a]) + (t[a] - t[b]) * (y - t[a + 1]) > 0) return false;
  }
  return true;
}

/** The hull against the one-sided triangle in `TRI` (counter-clockwise seen from above). */
function triangle(hull: Hull, pair: HullPair, m: Manifold, justTest: boolean): boolean {
  const t = TRI;
  const ux = t[3] - t[0];
  const uy = t[4] - t[1];
  const uz = t[5] - t[2];
  const wx = t[6] - t[0];
  const wy = t[7] - t[1];
  const wz = t[8] - t[2];
  let nx = uy * wz - uz * wy;
  let ny = uz * wx - ux * wz;
  let nz = ux * wy - uy * wx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0)) return false;
  nx /= len;
  ny /= len;
  nz /= len;
  const d = nx * t[0] + ny * t[1] + nz * t[2];
  // The deepest vertex along −n over the triangle's column, else over the whole hull.
  const v = pair.verts;
  let low = -1;
  let lowS = Number.POSITIVE_INFINITY;
  let anyLow = 0;
  let anyS = Number.POSITIVE_INFINITY;
  for (let k = 0; k < hull.nv; k++) {
    const s = nx * v[3 * k] + ny * v[3 * k + 1] + nz * v[3 * k + 2];
    if (s < anyS) {
      anyS = s;
      anyLow = k;
    }
    if (s < lowS && inColumn(v, k)) {
      lowS = s;
      low = k;
    }
  }
  if (anyS - d > 0) return false;
  if (low < 0) low = anyLow;
  // Incident face: around that vertex, the most anti-parallel to n.
  const pl = pair.planes;
  let inc = -1;
  let incDot = Number.POSITIVE_INFINITY;
  for (let k = hull.vertStart[low]; k < hull.vertStart[low + 1]; k++) {
    const f = hull.vertFaces[k];
    const s = nx * pl[4 * f] + ny * pl[4 * f + 1] + nz * pl[4 * f + 2];
    if (s < incDot) {
      incDot = s;
      inc = f;
    }
  }
  let n = 0;
  let src = polyA;
  let dst = polyB;
  if (inc < 0) {
    // A vertex on no face (a degenerate hull): that vertex alone.
    src[0] = v[3 * low];
    src[1] = v[3 * low + 1];
    src[2] = v[3 * low + 2];
    n = 1;
  } else {
    for (let k = hull.faceStart[inc]; k < hull.faceStart[inc + 1]; k++) {
      const p = 3 * hull.faceVerts[k];
      src[3 * n] = v[p];
      src[3 * n + 1] = v[p + 1];
      src[3 * n + 2] = v[p + 2];
      n++;
    }
  }
  for (let k = 0; k < 3 && n > 0; k++) {
    const a = 3 * k;
    const b = 3 * ((k + 1) % 3);
    // The column's vertical side through this edge: edge × z points out.
    const sx = t[b + 1] - t[a + 1];
    const sy = t[a] - t[b];
    SIDE[0] = sx;
    SIDE[1] = sy;
    SIDE[2] = 0;
    SIDE[3] = sx * t[a] + sy * t[a + 1];
    n = clipPolygon(src, n, SIDE, dst);
    const tmp = src;
    src = dst;
    dst = tmp;
  }
  let any = false;
  for (let k = 0; k < n; k++) {
    const x = src[3 * k];
    const y = src[3 * k + 1];
    const z = src[3 * k + 2];
    const s = nx * x + ny * y + nz * z - d;
    if (s > 0) continue;
    any = true;
    if (justTest) return true;
    m.add(nx, ny, nz, x - s * nx, y - s * ny, z - s * nz, x, y, z, -s);
  }
  return any;
}
