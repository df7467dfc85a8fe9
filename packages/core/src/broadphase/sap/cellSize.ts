/**
 * The automatic cell size of the sweep and prune's grid, chosen from the boxes themselves: large
 * enough that a typical box lies in one cell (four times the largest mean extent), and near the edge of
 * a cube holding `objectsPerCell` boxes at the scene's mean density (the sweep-and-prune notes, §2).
 *
 * On a scene thinner than such a cube along some axis, the cells reach across it, and their edge is
 * chosen along the other axes so that they still hold about `objectsPerCell` boxes.
 *
 * The statistics are taken over the scene's bulk, so that one box far away (a body that flew off to
 * 1e18) or one absurdly large box does not blow the cells up until everything shares one list. The
 * bulk is found from quantiles of a sample (Tukey's fences, widened): per axis, the 1st and 99th
 * percentiles of the box centres and the median extent; a box belongs to the bulk when its centre lies
 * within one such spread (plus four median extents) of them on every axis, and its extent is no larger
 * than those fences are wide. On an ordinary scene every box is in the bulk and the answer is the mean
 * over all boxes, as before; the outliers left out simply live in far cells or, past the grid's range,
 * with the big boxes.
 */
import type { ProxyStore } from '../proxies.js';

/** Boxes sampled (evenly, in slot order) for the quantiles. */
const SAMPLE = 4096;

/** The cell edge for the store's live boxes; Infinity when no finite size fits (then one region). */
export function chooseCellSize(store: ProxyStore, objectsPerCell: number): number {
  const d = store.dimensions;
  const s = 2 * d;
  const b = store.bounds;
  if (store.count === 0) return Number.POSITIVE_INFINITY;
  const step = Math.max(1, Math.floor(store.count / SAMPLE));
  const size = Math.ceil(store.count / step);
  const centres: Float64Array[] = [];
  const extents: Float64Array[] = [];
  for (let k = 0; k < d; k++) {
    centres.push(new Float64Array(size));
    extents.push(new Float64Array(size));
  }
  let seen = 0;
  let taken = 0;
  for (let slot = 0; slot < store.used && taken < size; slot++) {
    if (store.alive[slot] === 0) continue;
    if (seen++ % step !== 0) continue;
    for (let k = 0; k < d; k++) {
      centres[k][taken] = centre(b[slot * s + k], b[slot * s + d + k]);
      extents[k][taken] = b[slot * s + d + k] - b[slot * s + k];
    }
    taken++;
  }
  const fenceLo = [0, 0, 0];
  const fenceHi = [0, 0, 0];
  const extentLimit = [0, 0, 0];
  for (let k = 0; k < d; k++) {
    const c = centres[k].subarray(0, taken).sort();
    const e = extents[k].subarray(0, taken).sort();
    const q01 = c[Math.floor(0.01 * (taken - 1))];
    const q99 = c[Math.ceil(0.99 * (taken - 1))];
    const reach = q99 - q01 + 4 * e[taken >> 1];
    fenceLo[k] = q01 - reach;
    fenceHi[k] = q99 + reach;
    extentLimit[k] = fenceHi[k] - fenceLo[k];
  }
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const extent = [0, 0, 0];
  let n = 0;
  for (let slot = 0; slot < store.used; slot++) {
    if (store.alive[slot] === 0) continue;
    let inBulk = true;
    for (let k = 0; k < d; k++) {
      const a = b[slot * s + k];
      const c = b[slot * s + d + k];
      const mid = centre(a, c);
      if (!(mid >= fenceLo[k] && mid <= fenceHi[k] && c - a <= extentLimit[k])) inBulk = false;
    }
    if (!inBulk) continue;
    n++;
    for (let k = 0; k < d; k++) {
      const a = b[slot * s + k];
      const c = b[slot * s + d + k];
      extent[k] += c - a;
      const mid = centre(a, c);
      if (mid < lo[k]) lo[k] = mid;
      if (mid > hi[k]) hi[k] = mid;
    }
  }
  if (n === 0) return Number.POSITIVE_INFINITY;
  let largest = 0;
  // The bulk's extent per axis, smallest first.
  const span = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let k = 0; k < d; k++) {
    const mean = extent[k] / n;
    largest = Math.max(largest, mean);
    span[k] = Math.max(hi[k] - lo[k], mean);
  }
  span.sort((a, b) => a - b);
  // About n / objectsPerCell cells over the bulk: the edge e with ∏ max(1, span_k / e) = that many.
  // A scene thinner than a cube cell on some axis (a pile along a floor, a side-scrolling level)
  // has one cell across it, and its cells grow along the others rather than hold a few boxes each.
  const cellsWanted = n / objectsPerCell;
  let edge = 0;
  for (let first = 0; first < d; first++) {
    let volume = 1;
    for (let k = first; k < d; k++) volume *= span[k];
    edge = (volume / cellsWanted) ** (1 / (d - first));
    if (!(edge >= span[first])) break;
  }
  edge = Math.max(4 * largest, edge);
  // Infinite (a bulk near the double range) or so small that 1 / edge overflows: one region.
  return Number.isFinite(edge) && Number.isFinite(1 / edge) ? edge : Number.POSITIVE_INFINITY;
}

/** The midpoint of [a, b], without overflowing near the double range. */
function centre(a: number, b: number): number {
  const mid = 0.5 * (a + b);
  return Number.isFinite(mid) ? mid : 0.5 * a + 0.5 * b;
}
