/**
 * Region layout for the region-parallel sweep and prune: cuts space into as many regions as there
 * are workers, with about as many boxes in each — load balanced by counts, not a fixed grid.
 *
 * The sweep-and-prune notes, §2.1–2.2, give each region responsibility bounds (`min_x ... max_y`)
 * and assign each region to one processor. A fixed grid leaves most processors idle when the boxes
 * gather in one place, so the bounds here come from the boxes: a recursive bisection at quantiles
 * of the box centres along the longest axis of their spread (the median split of a k-d tree, as in
 * Bentley 1975 and the "kd-tree decomposition" of parallel particle codes), giving `⌊w/2⌋ / w` of the
 * boxes to one side when `w` regions remain to be made. The outermost bounds are infinite, so the
 * regions cover all of space; neighbouring regions share their cut plane (bounds are closed).
 *
 * Quantiles are found by quickselect (Hoare's FIND, median-of-three pivots) on scratch typed arrays
 * kept between layouts: deterministic, O(N) per level, no allocation once the scratch has grown.
 *
 * Each region can be given a weight, its share of the boxes relative to the others' (the threads need
 * not be equally fast: see frames.ts), and a layout can keep the last one's cut axes, so that moving
 * the cuts a little moves only the boxes near them into another region.
 */
import { growArray } from '../../growArray.js';

/** Computes region responsibility bounds from the boxes. */
export class RegionLayout {
  /** Numbers per box and per region: 2 × dimensions. */
  private readonly stride: number;
  private order = new Int32Array(64);
  private keys = new Float64Array(64);
  /** Each region's share of the boxes, relative to the others' (1 each: equal counts). */
  readonly weights: Float64Array;
  /**
   * The axis of each cut of the last layout, by the region it starts (cut `k` lies between regions
   * `k − 1` and `k`; −1: no layout yet).
   */
  private readonly axes: Int8Array;

  constructor(
    readonly dimensions: 2 | 3,
    /** How many regions a layout has. */
    readonly regions: number,
  ) {
    this.stride = 2 * dimensions;
    this.weights = new Float64Array(regions).fill(1);
    this.axes = new Int8Array(regions).fill(-1);
  }

  /**
   * The layout before there are boxes to balance: region 0 covers all of space, every other region
   * is empty (min +∞, max −∞, so no box overlaps it).
   */
  single(out: Float64Array): void {
    const d = this.dimensions;
    const s = this.stride;
    for (let r = 0; r < this.regions; r++) {
      for (let k = 0; k < d; k++) {
        out[r * s + k] = r === 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
        out[r * s + d + k] = r === 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      }
    }
  }

  /**
   * Writes `regions` responsibility boxes (`out[r · 2D ...]`, min then max) sharing the live boxes
   * (`alive[slot] === 1`, slots below `used`) by their centres, in proportion to the weights. With
   * `keepAxes`, every cut lies across the same axis as in the last layout.
   */
  compute(bounds: Float64Array, alive: Uint8Array, used: number, out: Float64Array, keepAxes = false): void {
    const d = this.dimensions;
    const s = this.stride;
    this.order = growArray(this.order, used);
    this.keys = growArray(this.keys, used);
    let n = 0;
    for (let slot = 0; slot < used; slot++) if (alive[slot] === 1) this.order[n++] = slot;
    if (n === 0) {
      this.single(out);
      return;
    }
    const root = new Float64Array(s);
    for (let k = 0; k < d; k++) {
      root[k] = Number.NEGATIVE_INFINITY;
      root[d + k] = Number.POSITIVE_INFINITY;
    }
    this.split(bounds, 0, n, 0, this.regions, root, out, keepAxes);
  }

  /** The axis along which the centres of the boxes `order[lo ... hi)` spread most (0 for none). */
  private widestAxis(bounds: Float64Array, lo: number, hi: number): number {
    const d = this.dimensions;
    const s = this.stride;
    let axis = 0;
    let widest = -1;
    for (let k = 0; k < d; k++) {
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = lo; i < hi; i++) {
        const o = this.order[i] * s;
        const c = 0.5 * bounds[o + k] + 0.5 * bounds[o + d + k];
        if (c < min) min = c;
        if (c > max) max = c;
      }
      if (max - min > widest) {
        widest = max - min;
        axis = k;
      }
    }
    return axis;
  }

  /**
   * Lays out regions `first ... first + count - 1` inside `box`, over the boxes `order[lo ... hi)`.
   * (Recursion depth is log2 of the region count.)
   */
  private split(
    bounds: Float64Array,
    lo: number,
    hi: number,
    first: number,
    count: number,
    box: Float64Array,
    out: Float64Array,
    keepAxes: boolean,
  ): void {
    const d = this.dimensions;
    const s = this.stride;
    if (count === 1) {
      for (let i = 0; i < s; i++) out[first * s + i] = box[i];
      return;
    }
    const left = count >> 1;
    const kept = keepAxes ? this.axes[first + left] : -1;
    const axis = kept >= 0 ? kept : this.widestAxis(bounds, lo, hi);
    this.axes[first + left] = axis;
    let cut: number;
    let mid = lo;
    if (hi > lo) {
      for (let i = lo; i < hi; i++) {
        const o = this.order[i] * s;
        this.keys[i] = 0.5 * bounds[o + axis] + 0.5 * bounds[o + d + axis];
      }
      let below = 0;
      let all = 0;
      for (let r = first; r < first + count; r++) {
        if (r < first + left) below += this.weights[r];
        all += this.weights[r];
      }
      mid = lo + Math.floor(((hi - lo) * below) / all);
      if (mid >= hi) mid = hi - 1;
      select(this.keys, this.order, lo, hi - 1, mid);
      cut = this.keys[mid];
    } else {
      // No boxes here: cut through the middle of the finite part (or at 0).
      const a = box[axis];
      const b = box[d + axis];
      cut = Number.isFinite(a) && Number.isFinite(b) ? 0.5 * a + 0.5 * b : Number.isFinite(a) ? a : b;
      if (!Number.isFinite(cut)) cut = 0;
    }
    // A box written into shared memory and not checked yet may hold NaN: cut at an edge then (the
    // layout only balances; any cut covers space).
    if (Number.isNaN(cut))
      cut = Number.isFinite(box[axis]) ? box[axis] : Number.isFinite(box[d + axis]) ? box[d + axis] : 0;
    // Clamp into the box so the two halves stay inside it.
    if (cut < box[axis]) cut = box[axis];
    if (cut > box[d + axis]) cut = box[d + axis];
    const lower = box.slice();
    lower[d + axis] = cut;
    const upper = box.slice();
    upper[axis] = cut;
    this.split(bounds, lo, mid, first, left, lower, out, keepAxes);
    this.split(bounds, mid, hi, first + left, count - left, upper, out, keepAxes);
  }
}

/**
 * Quickselect: reorders `keys[lo ... hi]` (inclusive) and `order` with it so that `keys[k]` is the
 * value a full sort would put there, smaller-or-equal keys before it and greater-or-equal after.
 */
function select(keys: Float64Array, order: Int32Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three into keys[lo] as the pivot.
    if (keys[mid] < keys[lo]) swap(keys, order, mid, lo);
    if (keys[hi] < keys[lo]) swap(keys, order, hi, lo);
    if (keys[hi] < keys[mid]) swap(keys, order, hi, mid);
    swap(keys, order, mid, lo);
    const pivot = keys[lo];
    let i = lo;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (i <= hi && keys[i] < pivot);
      do j--;
      while (keys[j] > pivot);
      if (i >= j) break;
      swap(keys, order, i, j);
    }
    swap(keys, order, lo, j);
    if (j === k) return;
    if (j < k) lo = j + 1;
    else hi = j - 1;
  }
}

function swap(keys: Float64Array, order: Int32Array, i: number, j: number): void {
  const key = keys[i];
  keys[i] = keys[j];
  keys[j] = key;
  const o = order[i];
  order[i] = order[j];
  order[j] = o;
}

/**
 * The largest member count over its share of the total (the mean, or in proportion to `weights`):
 * 1 is perfect balance.
 */
export function imbalance(members: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let total = 0;
  let weight = 0;
  for (let i = 0; i < members.length; i++) {
    total += members[i];
    weight += weights ? weights[i] : 1;
  }
  if (total === 0) return 1;
  let max = 0;
  for (let i = 0; i < members.length; i++) {
    const over = (members[i] * weight) / (total * (weights ? weights[i] : 1));
    if (over > max) max = over;
  }
  return max;
}
