/**
 * `AxisSweep`: the candidate pairs of a step by sort and sweep on one axis — the bodies' boxes ordered
 * by their lower bound on the axis of widest spread, each box paired with the boxes that start before
 * it ends, kept only where the other two axes overlap too. It is the sort-and-sweep of Baraff's thesis
 * (1992) and of cannon-es's own `SAPBroadphase` (which picks its axis by variance as here), without a
 * tree: the order is kept from step to step and repaired by insertion sort, near O(N) when bodies move
 * little (Cohen et al., I-COLLIDE, 1995).
 *
 * A sweep on one axis alone meets every box whose extent on it overlaps, which in a 3-D volume is a
 * slab of the world; so the sweep runs in strips across a second axis (the widest of the other two),
 * each box listed in every strip it reaches and each pair reported only in the strip holding the larger
 * of the two boxes' lower bounds on that axis — the strip decomposition of sweep-and-prune (Tracy,
 * Buck and Zhang, "Efficient Large-Scale Sweep and Prune Methods", 2009). Strips are four mean box
 * widths wide; where boxes would be listed too often (sizes far apart), one strip covers all.
 *
 * The boxes are indexed by body index and written by the caller before {@link AxisSweep.run}; a body is
 * matched to its place in last step's order through `body.index`, checked against the array, so bodies
 * added or removed keep the rest of the order. Pairs are reported as (i, j) body indices, each once, in
 * no particular order; the boxes are compared inclusively (touching boxes pair).
 */
import { growArray, sortEndpoints } from '@sieve/core';

/** Inversions the insertion sort may repair, beyond N, before a full sort is cheaper. */
const SHIFT_BUDGET = 8;
/** How much wider another axis's spread must be before the sweep changes axis (no flapping). */
const AXIS_SWITCH = 1.5;
/** A strip is this many mean box widths wide. */
const STRIP_WIDTHS = 4;
/** At least this many boxes a strip on average, at most this many strips. */
const BOXES_PER_STRIP = 16;
const MAX_STRIPS = 1024;
/** Strips are given up when boxes would be listed more than this many times each on average. */
const MAX_LISTINGS = 2;

/** A body as the sweep knows it: cannon's `Body` carries its index in `world.bodies`. */
interface Indexed {
  index: number;
}

/** Sort and sweep over boxes indexed by body index (see the module comment). */
export class AxisSweep {
  /** Each body's box, x0 y0 z0 x1 y1 z1 (6 numbers a body), written by the caller. */
  boxes = new Float64Array(0);
  /** 1 for a body left out of the sweep (the caller pairs it otherwise), written by the caller. */
  skip = new Uint8Array(0);
  /** The candidate pairs of the last run, (i, j) body indices. */
  pairs = new Int32Array(0);
  /** How many pairs `pairs` holds. */
  pairCount = 0;
  /** The axis swept (0, 1 or 2). */
  axis = 0;
  /** How many strips the last run used (across the wider of the other two axes). */
  strips = 1;
  /** Runs whose order was too far from sorted for the insertion sort (sorted in full instead). */
  fullSorts = 0;
  /** Body indices in the sweep, by lower bound on `axis`. */
  private order = new Int32Array(0);
  private count = 0;
  /** Last run's bodies by index (to follow a body whose index changed). */
  private previous: (Indexed | null)[] = [];
  /** Per body index: the run that last placed it in the order. */
  private stamp = new Int32Array(0);
  private runs = 0;
  /** Per body: its first and last strip; per strip: where its list starts in `listed`. */
  private firstStrip = new Int32Array(0);
  private lastStrip = new Int32Array(0);
  private stripStart = new Int32Array(0);
  /** The strips' lists of bodies, each in sweep order. */
  private listed = new Int32Array(0);
  /** Per axis, from the last `chooseAxis`: the spread of box centres. */
  private spread = new Float64Array(3);
  /** The lower bounds of `order`'s bodies on `axis`, for a full sort. */
  private keys = new Float64Array(0);

  /** Makes room for `n` bodies (call before writing `boxes` and `skip`). */
  reserve(n: number): void {
    this.boxes = growArray(this.boxes, 6 * n);
    this.skip = growArray(this.skip, n);
    this.stamp = growArray(this.stamp, n);
    this.order = growArray(this.order, n);
    this.keys = growArray(this.keys, n);
    this.firstStrip = growArray(this.firstStrip, n);
    this.lastStrip = growArray(this.lastStrip, n);
  }

  /** Forgets the order (the next run sorts from scratch). */
  reset(): void {
    this.count = 0;
    this.previous.length = 0;
    this.pairCount = 0;
  }

  /**
   * Finds the candidate pairs of `bodies` (the first `n`, whose boxes and skip flags are written) into
   * `pairs`; returns their count.
   */
  run(bodies: readonly Indexed[], n: number): number {
    this.chooseAxis(n);
    this.repairOrder(bodies, n);
    this.sortOrder();
    this.makeStrips();
    return this.sweep();
  }

  /** Keeps the axis unless another one's spread of box centres is clearly wider. */
  private chooseAxis(n: number): void {
    const b = this.boxes;
    const skip = this.skip;
    let m = 0;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let qx = 0;
    let qy = 0;
    let qz = 0;
    for (let i = 0; i < n; i++) {
      if (skip[i] !== 0) continue;
      const o = 6 * i;
      const cx = b[o] + b[o + 3];
      const cy = b[o + 1] + b[o + 4];
      const cz = b[o + 2] + b[o + 5];
      sx += cx;
      sy += cy;
      sz += cz;
      qx += cx * cx;
      qy += cy * cy;
      qz += cz * cz;
      m++;
    }
    if (m < 2) return;
    const sp = this.spread;
    sp[0] = qx - (sx * sx) / m;
    sp[1] = qy - (sy * sy) / m;
    sp[2] = qz - (sz * sz) / m;
    const widest = sp[0] >= sp[1] && sp[0] >= sp[2] ? 0 : sp[1] >= sp[2] ? 1 : 2;
    // A new axis leaves last order unsorted on it: the sort below starts over.
    if (sp[widest] > AXIS_SWITCH * sp[this.axis]) this.axis = widest;
  }

  /**
   * Last run's order with each body brought to its current index (dropped if gone or left out), then
   * the bodies new to the sweep appended.
   */
  private repairOrder(bodies: readonly Indexed[], n: number): void {
    const stamp = this.stamp;
    // Stamps are 32-bit: start over before the count would wrap (every 2³⁰ runs).
    if (this.runs >= 0x3fffffff) {
      this.runs = 0;
      stamp.fill(0);
    }
    const run = ++this.runs;
    const skip = this.skip;
    const order = this.order;
    const previous = this.previous;
    let m = 0;
    for (let k = 0; k < this.count; k++) {
      const was = order[k];
      const body = previous[was];
      let i = was;
      if (i >= n || bodies[i] !== body) {
        const at = body === null || body === undefined ? -1 : body.index;
        i = at >= 0 && at < n && bodies[at] === body ? at : -1;
      }
      if (i < 0 || skip[i] !== 0 || stamp[i] === run) continue;
      stamp[i] = run;
      order[m++] = i;
    }
    for (let i = 0; i < n; i++) {
      if (skip[i] === 0 && stamp[i] !== run) {
        stamp[i] = run;
        order[m++] = i;
      }
    }
    this.count = m;
    previous.length = n;
    for (let i = 0; i < n; i++) previous[i] = bodies[i];
  }

  /** Insertion sort by lower bound (few moves on a coherent step); a full sort when that is cheaper. */
  private sortOrder(): void {
    const order = this.order;
    const b = this.boxes;
    const axis = this.axis;
    const m = this.count;
    let budget = SHIFT_BUDGET * m + 64;
    for (let k = 1; k < m; k++) {
      const i = order[k];
      const key = b[6 * i + axis];
      let at = k - 1;
      while (at >= 0 && b[6 * order[at] + axis] > key) {
        order[at + 1] = order[at];
        at--;
        budget--;
      }
      order[at + 1] = i;
      if (budget < 0) {
        this.sortFully();
        return;
      }
    }
  }

  /**
   * Sorts the order at once, far from sorted (a new axis, a reordered body list): the sweep and prune's
   * quicksort of the lower bounds, the body indices moved with them (ties in any order: the sweep pairs
   * boxes that start together either way).
   */
  private sortFully(): void {
    const b = this.boxes;
    const axis = this.axis;
    const order = this.order;
    const keys = this.keys;
    for (let k = 0; k < this.count; k++) keys[k] = b[6 * order[k] + axis];
    sortEndpoints(keys, order, 0, this.count - 1);
    this.fullSorts++;
  }

  /**
   * Lists each body in the strips it reaches across the wider of the other two axes, in sweep order; one strip (all bodies)
   * when the boxes are too few, the range not finite, or sizes so far apart that boxes would be listed
   * more than `MAX_LISTINGS` times each.
   */
  private makeStrips(): void {
    const order = this.order;
    const b = this.boxes;
    const m = this.count;
    const a0 = this.axis;
    const sp = this.spread;
    const a1 =
      a0 === 0 ? (sp[1] >= sp[2] ? 1 : 2) : a0 === 1 ? (sp[0] >= sp[2] ? 0 : 2) : sp[0] >= sp[1] ? 0 : 1;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let widths = 0;
    for (let k = 0; k < m; k++) {
      const o = 6 * order[k];
      const l = b[o + a1];
      const h = b[o + 3 + a1];
      if (l < lo) lo = l;
      if (h > hi) hi = h;
      widths += h - l;
    }
    const range = hi - lo;
    let strips = Math.min(MAX_STRIPS, Math.floor(m / BOXES_PER_STRIP));
    if (widths > 0) strips = Math.min(strips, Math.floor((range * m) / (STRIP_WIDTHS * widths)));
    if (!(strips >= 2 && range > 0 && range < 1e300)) {
      this.strips = 1;
      return;
    }
    const scale = strips / range;
    const first = this.firstStrip;
    const last = this.lastStrip;
    let listings = 0;
    for (let k = 0; k < m; k++) {
      const i = order[k];
      const o = 6 * i;
      // Monotonic in the coordinate, so a point inside a box lies in a strip the box reaches.
      const s0 = Math.min(strips - 1, Math.floor((b[o + a1] - lo) * scale));
      const s1 = Math.min(strips - 1, Math.floor((b[o + 3 + a1] - lo) * scale));
      first[i] = s0;
      last[i] = s1;
      listings += s1 - s0 + 1;
    }
    if (listings > MAX_LISTINGS * m) {
      this.strips = 1;
      return;
    }
    this.strips = strips;
    const start = (this.stripStart = growArray(this.stripStart, strips + 1));
    start.fill(0, 0, strips + 1);
    for (let k = 0; k < m; k++) {
      const i = order[k];
      for (let s = first[i]; s <= last[i]; s++) start[s + 1]++;
    }
    for (let s = 0; s < strips; s++) start[s + 1] += start[s];
    const listed = (this.listed = growArray(this.listed, listings));
    // Walking the order forwards, each strip's cursor at its start: each list comes out in sweep order.
    for (let k = 0; k < m; k++) {
      const i = order[k];
      for (let s = first[i]; s <= last[i]; s++) listed[start[s]++] = i;
    }
    // Each cursor ended where the next strip starts: shift them back to the starts.
    for (let s = strips; s > 0; s--) start[s] = start[s - 1];
    start[0] = 0;
  }

  /**
   * Each body against the bodies after it in its strips that start before it ends on the axis; the
   * other axes then decide, and a pair found in two strips counts in one.
   */
  private sweep(): number {
    if (this.strips === 1) {
      this.pairCount = this.sweepList(this.order, 0, this.count, -1, 0);
      return this.pairCount;
    }
    const start = this.stripStart;
    let np = 0;
    for (let s = 0; s < this.strips; s++) np = this.sweepList(this.listed, start[s], start[s + 1], s, np);
    this.pairCount = np;
    return np;
  }

  /**
   * Sweeps `list[from … to)` (in sweep order), appending pairs after the first `np`; returns the new
   * count. In strip `strip` (-1: no strips) a pair counts only if the later of the two boxes' first
   * strips is this one (where their overlap across the strips starts).
   */
  private sweepList(list: Int32Array, from: number, to: number, strip: number, np: number): number {
    const b = this.boxes;
    const first = this.firstStrip;
    const a0 = this.axis;
    const a1 = a0 === 0 ? 1 : 0;
    const a2 = a0 === 2 ? 1 : 2;
    let pairs = this.pairs;
    for (let k = from; k < to; k++) {
      const i = list[k];
      const oi = 6 * i;
      const end = b[oi + 3 + a0];
      const lo1 = b[oi + a1];
      const hi1 = b[oi + 3 + a1];
      const lo2 = b[oi + a2];
      const hi2 = b[oi + 3 + a2];
      const fi = strip < 0 ? 0 : first[i];
      for (let l = k + 1; l < to; l++) {
        const j = list[l];
        const oj = 6 * j;
        if (b[oj + a0] > end) break;
        if (b[oj + a1] > hi1 || b[oj + 3 + a1] < lo1 || b[oj + a2] > hi2 || b[oj + 3 + a2] < lo2) continue;
        if (strip >= 0 && Math.max(fi, first[j]) !== strip) continue;
        if (2 * np + 2 > pairs.length) pairs = this.pairs = growArray(pairs, 2 * np + 2);
        pairs[2 * np] = i;
        pairs[2 * np + 1] = j;
        np++;
      }
    }
    return np;
  }
}
