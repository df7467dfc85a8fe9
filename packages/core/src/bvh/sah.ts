/**
 * The binned surface-area-heuristic split of the BVH build (`strategy: 'sah'`): triangle boxes, the
 * cheapest of 16 bin boundaries along the longest axis of a node's centroid box, and the partition that
 * grows both children's centroid boxes. `buildTopology` (`build.ts`) takes it as a {@link SahSplit}, so
 * that a centre-split build does not bundle it.
 *
 * Follows Wald, "On fast construction of SAH-based bounding volume hierarchies" (2007): bin the
 * triangle boxes by centroid, sweep the bin boundaries, cost `area(L)·|L| + area(R)·|R|`
 * (three-mesh-bvh's SAH bins 8 on each axis).
 */

import { type SahSplit, swapSlots } from './build.js';

const BINS = 16;

// Scratch: per bin, a count and a box; suffix areas.
const binCount = new Int32Array(BINS);
const binBox = new Float64Array(BINS * 6);
const rightArea = new Float64Array(BINS);

/** The binned SAH of `buildTopology`. */
export const SAH: SahSplit = {
  box(positions, i0, i1, i2, t, tb, cent) {
    for (let k = 0; k < 3; k++) {
      const a = positions[i0 + k];
      const b = positions[i1 + k];
      const c = positions[i2 + k];
      const lo = a < b ? Math.min(a, c) : Math.min(b, c);
      const hi = a > b ? Math.max(a, c) : Math.max(b, c);
      tb[6 * t + k] = lo;
      tb[6 * t + 3 + k] = hi;
      cent[3 * t + k] = 0.5 * (lo + hi);
    }
  },

  plane(ids, cent, tb, offset, count, axis, extent, cb, cbo, pos) {
    // Binned SAH along the longest centroid axis (Wald 2007): bin the triangle boxes by centroid,
    // sweep the bin boundaries, keep the cheapest.
    binCount.fill(0);
    for (let b = 0; b < BINS; b++) {
      const o = 6 * b;
      binBox[o] = binBox[o + 1] = binBox[o + 2] = Infinity;
      binBox[o + 3] = binBox[o + 4] = binBox[o + 5] = -Infinity;
    }
    const scale = BINS / extent;
    const origin = cb[cbo + axis];
    for (let s = offset, end = offset + count; s < end; s++) {
      let b = ((cent[3 * s + axis] - origin) * scale) | 0;
      if (b >= BINS) b = BINS - 1;
      binCount[b]++;
      const o = 6 * b;
      const t6 = 6 * ids[s];
      const lx = tb[t6];
      const ly = tb[t6 + 1];
      const lz = tb[t6 + 2];
      const hx = tb[t6 + 3];
      const hy = tb[t6 + 4];
      const hz = tb[t6 + 5];
      if (lx < binBox[o]) binBox[o] = lx;
      if (ly < binBox[o + 1]) binBox[o + 1] = ly;
      if (lz < binBox[o + 2]) binBox[o + 2] = lz;
      if (hx > binBox[o + 3]) binBox[o + 3] = hx;
      if (hy > binBox[o + 4]) binBox[o + 4] = hy;
      if (hz > binBox[o + 5]) binBox[o + 5] = hz;
    }
    // Suffix areas: rightArea[b] = area of bins b..BINS-1.
    let mx = Infinity;
    let my = Infinity;
    let mz = Infinity;
    let Mx = -Infinity;
    let My = -Infinity;
    let Mz = -Infinity;
    for (let b = BINS - 1; b > 0; b--) {
      const o = 6 * b;
      if (binBox[o] < mx) mx = binBox[o];
      if (binBox[o + 1] < my) my = binBox[o + 1];
      if (binBox[o + 2] < mz) mz = binBox[o + 2];
      if (binBox[o + 3] > Mx) Mx = binBox[o + 3];
      if (binBox[o + 4] > My) My = binBox[o + 4];
      if (binBox[o + 5] > Mz) Mz = binBox[o + 5];
      const dx = Mx - mx;
      const dy = My - my;
      const dz = Mz - mz;
      rightArea[b] = dx > -Infinity ? dx * dy + dy * dz + dz * dx : 0;
    }
    mx = my = mz = Infinity;
    Mx = My = Mz = -Infinity;
    let left = 0;
    let best = Infinity;
    let bestBin = -1;
    for (let b = 0; b < BINS - 1; b++) {
      const o = 6 * b;
      left += binCount[b];
      if (binBox[o] < mx) mx = binBox[o];
      if (binBox[o + 1] < my) my = binBox[o + 1];
      if (binBox[o + 2] < mz) mz = binBox[o + 2];
      if (binBox[o + 3] > Mx) Mx = binBox[o + 3];
      if (binBox[o + 4] > My) My = binBox[o + 4];
      if (binBox[o + 5] > Mz) Mz = binBox[o + 5];
      if (left === 0 || left === count) continue;
      const dx = Mx - mx;
      const dy = My - my;
      const dz = Mz - mz;
      const cost = (dx * dy + dy * dz + dz * dx) * left + rightArea[b + 1] * (count - left);
      if (cost < best) {
        best = cost;
        bestBin = b;
      }
    }
    return bestBin >= 0 ? origin + ((bestBin + 1) * extent) / BINS : pos;
  },

  partition(ids, cent, offset, count, axis, pos, cbs, lo, ro) {
    // Children's centroid boxes grow in locals (typed-array stores in this loop cost ~2x).
    let lx0 = Infinity;
    let ly0 = Infinity;
    let lz0 = Infinity;
    let lx1 = -Infinity;
    let ly1 = -Infinity;
    let lz1 = -Infinity;
    let rx0 = Infinity;
    let ry0 = Infinity;
    let rz0 = Infinity;
    let rx1 = -Infinity;
    let ry1 = -Infinity;
    let rz1 = -Infinity;
    let i = offset;
    let j = offset + count - 1;
    for (;;) {
      while (i <= j) {
        const c = 3 * i;
        if (!(cent[c + axis] < pos)) break;
        const x = cent[c];
        const y = cent[c + 1];
        const z = cent[c + 2];
        if (x < lx0) lx0 = x;
        if (x > lx1) lx1 = x;
        if (y < ly0) ly0 = y;
        if (y > ly1) ly1 = y;
        if (z < lz0) lz0 = z;
        if (z > lz1) lz1 = z;
        i++;
      }
      while (i <= j) {
        const c = 3 * j;
        if (cent[c + axis] < pos) break;
        const x = cent[c];
        const y = cent[c + 1];
        const z = cent[c + 2];
        if (x < rx0) rx0 = x;
        if (x > rx1) rx1 = x;
        if (y < ry0) ry0 = y;
        if (y > ry1) ry1 = y;
        if (z < rz0) rz0 = z;
        if (z > rz1) rz1 = z;
        j--;
      }
      if (i >= j) break;
      swapSlots(ids, cent, i, j);
    }
    cbs[lo] = lx0;
    cbs[lo + 1] = ly0;
    cbs[lo + 2] = lz0;
    cbs[lo + 3] = lx1;
    cbs[lo + 4] = ly1;
    cbs[lo + 5] = lz1;
    cbs[ro] = rx0;
    cbs[ro + 1] = ry0;
    cbs[ro + 2] = rz0;
    cbs[ro + 3] = rx1;
    cbs[ro + 4] = ry1;
    cbs[ro + 5] = rz1;
    return i;
  },
};
