/**
 * The sorted endpoint lists of each region (the sweep-and-prune notes, §1; Bullet's btAxisSweep3):
 * per axis, the MIN/MAX endpoints of the region's boxes kept sorted by (value, isMax), so the pair set
 * changes only on swaps — a min passing a max adds the pair if the boxes overlap on every axis (§1.3),
 * a max passing a min removes it if they overlapped on the other axes.
 *
 * - {@link SapLists.sift} is the one insertion-sort step: it moves one endpoint towards either end of
 *   its list and records every min/max swap on the way. Sliding one box (Bullet's sortMinDown,
 *   sortMaxUp...) applies them at once as exact toggles ({@link SapLists.applyToggles}); a pass over
 *   many moved boxes applies its swaps by another rule (passes.ts).
 * - Whether two boxes of a region overlap on the axes other than the one being sorted is read from
 *   their endpoints' positions in the region's sorted lists ({@link SapLists.meetOnOtherAxes}), not
 *   from their bounds: the positions are one small record per entry.
 * - Adding and removing an entry moves the shorter side of each list; a region filled from empty is
 *   sorted once and its pairs found by one sweep along its widest axis.
 * - Two static boxes never make a pair (Bullet's per-proxy collision filter, applied where a pair
 *   would be made): a swap of two static boxes' endpoints is not recorded, counting skips static
 *   partners of a static box, and a sweep keeps static boxes in an open list of their own that only
 *   dynamic boxes are tested against.
 */
import { growArray } from '../../growArray.js';
import { sortEndpoints } from '../../sortEndpoints.js';
import { EndpointArena } from './endpointArena.js';
import { listAt, maxToken, minToken, whereAt, whereOfToken } from './layout.js';
import type { SweepAndPruneOptions } from './options.js';
import { SapRegions } from './regions.js';

/** {@link SapLists.countPartners} counts the box's pairs with every other box. */
export const ALL_PARTNERS = 0;
/** {@link SapLists.countPartners} counts the box's pairs with dynamic boxes only. */
export const DYNAMIC_PARTNERS = 1;
/** {@link SapLists.countPartners} counts the box's pairs with static boxes only. */
export const STATIC_PARTNERS = 2;

/** Endpoint lists: the sift, the swap rule, entry insertion and removal, sort and sweep. */
export abstract class SapLists extends SapRegions {
  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /**
   * Moves the endpoint at arena index `i` of region r's axis-k list to its place towards the list's
   * start (`step` -1) or end (`step` +1), shifting each endpoint it passes by one. Every min/max swap on
   * the way is recorded in `swaps` as a token pair, the token now on the left first — but the swaps of
   * two static boxes, which never make a pair.
   */
  protected sift(r: number, k: number, i: number, step: number): void {
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const first = this.listFirst[listAt(r, k)];
    const stop = step < 0 ? first : first + this.regionLength[r] - 1;
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    const down = step < 0;
    // A static endpoint records only its swaps with dynamic boxes' endpoints.
    const fixed = this.fixed;
    const entryObject = this.entryObject;
    const movingFixed = this.fixedCount > 0 && fixed[entryObject[token >> 1]] === 1;
    let j = i;
    while (j !== stop) {
      const n = j + step;
      const nv = v[n];
      const nt = t[n];
      const nMax = nt & 1;
      // In place once the neighbour lies on its own side in (value, isMax) order — a min sorts before a
      // max of the same value. (`down` never changes within a call: the branch costs nothing.)
      if (
        down ? nv < value || (nv === value && nMax <= isMax) : value < nv || (value === nv && isMax <= nMax)
      )
        break;
      if (nMax !== isMax && (!movingFixed || fixed[entryObject[nt >> 1]] === 0)) {
        if (this.swapCount === this.swaps.length) this.swaps = growArray(this.swaps, this.swapCount + 2);
        this.swaps[this.swapCount++] = down ? token : nt;
        this.swaps[this.swapCount++] = down ? nt : token;
      }
      v[j] = nv;
      t[j] = nt;
      where[whereOfToken(nt, d2, k)] = j;
      j = n;
    }
    v[j] = value;
    t[j] = token;
    where[whereOfToken(token, d2, k)] = j;
  }

  /**
   * The swap rule for the swaps recorded by sifting one endpoint of axis k (the lists describe a real
   * set of boxes before and after, so each swap is an exact toggle): a min passing a max begins the
   * pair if the boxes now overlap on every axis, a max passing a min ends it if they met on the others.
   */
  protected applyToggles(k: number): void {
    const swaps = this.swaps;
    const n = this.swapCount;
    for (let i = 0; i < n; i += 2) {
      const left = swaps[i];
      const right = swaps[i + 1];
      if (!this.meetOnOtherAxes(left >> 1, right >> 1, k)) continue;
      const a = this.entryObject[left >> 1];
      const b = this.entryObject[right >> 1];
      if ((left & 1) === 0) {
        // A min passed a max: the pair begins if the boxes now overlap on axis k too.
        const l = this.listed;
        const d = this.dimensions;
        const oa = a * 2 * d;
        const ob = b * 2 * d;
        if (l[oa + k] <= l[ob + d + k] && l[ob + k] <= l[oa + d + k]) this.pairSet.increment(a, b);
      } else {
        this.pairSet.decrement(a, b);
      }
    }
    this.swapCount = 0;
  }

  /**
   * Whether entries ea and eb (of one region) overlap on every axis but `skip`, read from their
   * endpoints' positions in the region's sorted lists: inclusive overlap on an axis is "each min lies
   * before the other's max" (at equal values a min is listed first).
   */
  protected meetOnOtherAxes(ea: number, eb: number, skip: number): boolean {
    const where = this.where;
    const d = this.dimensions;
    // Each entry's record once (whereAt at axis 0, min); axis k's min and max follow at 2k and 2k + 1.
    const wa = whereAt(ea, 2 * d, 0, 0);
    const wb = whereAt(eb, 2 * d, 0, 0);
    for (let k = 0; k < d; k++) {
      if (
        k !== skip &&
        (where[wa + 2 * k] > where[wb + 2 * k + 1] || where[wb + 2 * k] > where[wa + 2 * k + 1])
      )
        return false;
    }
    return true;
  }

  /**
   * Puts entry e's min and max (box `slot` as listed, or its latest bounds while `enterLatest`) at
   * their places in region r's sorted axis-k list: both places found by binary search, then the
   * shorter side of the list moves out of the way, each endpoint once. (The values are read here rather than passed in: a double argument to a call
   * that is not inlined gets boxed.)
   */
  protected insertEndpoints(r: number, k: number, e: number, slot: number): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const from = this.enterLatest ? this.store.bounds : this.listed;
    const low = from[slot * d2 + k];
    const high = from[slot * d2 + d + k];
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const n = this.regionLength[r];
    const blockStart = this.regionStart[r];
    const blockEnd = blockStart + EndpointArena.blockSize(this.regionClass[r]);
    let first = this.listFirst[listAt(r, k)];
    if (first - 2 < blockStart && first + n + 2 > blockEnd) {
      // No room on either side: re-centre (the block has room for four more, see reserve).
      this.moveList(r, k, blockStart + ((blockEnd - blockStart - n) >> 1));
      first = this.listFirst[listAt(r, k)];
    }
    const end = first + n;
    // Sorted by (value, isMax), a new endpoint after the equal ones: the min goes above the smaller
    // values and the mins of its value, the max above every value up to its own.
    let a = first;
    let b = end;
    while (a < b) {
      const m = (a + b) >> 1;
      if (v[m] < low || (v[m] === low && (t[m] & 1) === 0)) a = m + 1;
      else b = m;
    }
    const lo = a;
    b = end;
    while (a < b) {
      const m = (a + b) >> 1;
      if (v[m] <= high) a = m + 1;
      else b = m;
    }
    const hi = a;
    const up = first - 2 < blockStart || (end + 2 <= blockEnd && end - lo <= hi - first);
    let minAt: number;
    let maxAt: number;
    if (up) {
      for (let i = end - 1; i >= hi; i--) {
        const token = t[i];
        v[i + 2] = v[i];
        t[i + 2] = token;
        where[whereOfToken(token, d2, k)] = i + 2;
      }
      for (let i = hi - 1; i >= lo; i--) {
        const token = t[i];
        v[i + 1] = v[i];
        t[i + 1] = token;
        where[whereOfToken(token, d2, k)] = i + 1;
      }
      minAt = lo;
      maxAt = hi + 1;
    } else {
      for (let i = first; i < lo; i++) {
        const token = t[i];
        v[i - 2] = v[i];
        t[i - 2] = token;
        where[whereOfToken(token, d2, k)] = i - 2;
      }
      for (let i = lo; i < hi; i++) {
        const token = t[i];
        v[i - 1] = v[i];
        t[i - 1] = token;
        where[whereOfToken(token, d2, k)] = i - 1;
      }
      this.listFirst[listAt(r, k)] = first - 2;
      minAt = lo - 2;
      maxAt = hi - 1;
    }
    v[minAt] = low;
    t[minAt] = minToken(e);
    where[whereAt(e, d2, k, 0)] = minAt;
    v[maxAt] = high;
    t[maxAt] = maxToken(e);
    where[whereAt(e, d2, k, 1)] = maxAt;
  }

  /** Drops entry e's two endpoints from every list of region r, closing the holes from the shorter side. */
  protected removeEndpoints(r: number, e: number): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const where = this.where;
    for (let k = 0; k < d; k++) {
      const v = this.arena.values[k];
      const t = this.arena.tokens[k];
      const first = this.listFirst[listAt(r, k)];
      const end = first + this.regionLength[r];
      const a = where[whereAt(e, d2, k, 0)];
      const b = where[whereAt(e, d2, k, 1)];
      // Two runs each way, shifted by one then by two (no test of the hole per endpoint).
      if (end - a <= b - first) {
        for (let i = a + 1; i < b; i++) {
          const token = t[i];
          v[i - 1] = v[i];
          t[i - 1] = token;
          where[whereOfToken(token, d2, k)] = i - 1;
        }
        for (let i = b + 1; i < end; i++) {
          const token = t[i];
          v[i - 2] = v[i];
          t[i - 2] = token;
          where[whereOfToken(token, d2, k)] = i - 2;
        }
      } else {
        for (let i = b - 1; i > a; i--) {
          const token = t[i];
          v[i + 1] = v[i];
          t[i + 1] = token;
          where[whereOfToken(token, d2, k)] = i + 1;
        }
        for (let i = a - 1; i >= first; i--) {
          const token = t[i];
          v[i + 2] = v[i];
          t[i + 2] = token;
          where[whereOfToken(token, d2, k)] = i + 2;
        }
        this.listFirst[listAt(r, k)] = first + 2;
      }
    }
    this.regionLength[r] -= 2;
  }

  /**
   * Adds `delta` to the count of every pair of `slot` (entry e) with another box of region r it
   * overlaps — every other box, only the dynamic ones or only the static ones (`partners`:
   * `ALL_PARTNERS`, `DYNAMIC_PARTNERS`, `STATIC_PARTNERS`). Each axis's list is sorted, so box B overlaps e on axis k exactly when B's max lies right
   * of e's min and B's min lies left of e's max: either the max tokens right of e's min are looked at,
   * or the min tokens left of e's max, whichever of the six (two per axis) is the shortest stretch;
   * only boxes that pass on that axis are tested on the others.
   */
  protected countPartners(r: number, e: number, slot: number, delta: number, partners: number): void {
    const where = this.where;
    const d = this.dimensions;
    const d2 = 2 * d;
    const n = this.regionLength[r];
    // The shortest stretch: `right` scans (eMin, end), `!right` scans [first, eMax).
    let axis = 0;
    let right = true;
    let shortest = n;
    for (let k = 0; k < d; k++) {
      const first = this.listFirst[listAt(r, k)];
      const toEnd = first + n - where[whereAt(e, d2, k, 0)] - 1;
      const fromFirst = where[whereAt(e, d2, k, 1)] - first;
      if (toEnd < shortest) {
        shortest = toEnd;
        axis = k;
        right = true;
      }
      if (fromFirst < shortest) {
        shortest = fromFirst;
        axis = k;
        right = false;
      }
    }
    const t = this.arena.tokens[axis];
    const first = this.listFirst[listAt(r, axis)];
    const eMin = where[whereAt(e, d2, axis, 0)];
    const eMax = where[whereAt(e, d2, axis, 1)];
    const from = right ? eMin + 1 : first;
    const to = right ? first + n : eMax;
    // The kind of token looked at (max to the right, min to the left) and the far end it must pass.
    const kind = right ? 1 : 0;
    const fixed = this.fixed;
    // The static flag a partner must not have (2: none).
    const skip = partners === DYNAMIC_PARTNERS ? 1 : partners === STATIC_PARTNERS ? 0 : 2;
    for (let i = from; i < to; i++) {
      const token = t[i];
      if ((token & 1) !== kind || token >> 1 === e) continue;
      const other = where[whereAt(token >> 1, d2, axis, 1 - kind)];
      if (right ? other > eMax : other < eMin) continue;
      if (skip !== 2 && fixed[this.entryObject[token >> 1]] === skip) continue;
      if (this.meetOnOtherAxes(e, token >> 1, axis)) {
        const b = this.entryObject[token >> 1];
        if (delta > 0) this.pairSet.increment(slot, b);
        else this.pairSet.decrement(slot, b);
      }
    }
  }

  /** A region filled from empty: sort each axis once, then find its pairs with one sweep. */
  protected sortAndSweep(r: number): void {
    this.regionBulk[r] = 0;
    const d2 = 2 * this.dimensions;
    for (let k = 0; k < this.dimensions; k++) {
      const first = this.listFirst[listAt(r, k)];
      const last = first + this.regionLength[r] - 1;
      const t = this.arena.tokens[k];
      sortEndpoints(this.arena.values[k], t, first, last);
      for (let i = first; i <= last; i++) this.where[whereOfToken(t[i], d2, k)] = i;
    }
    this.sweep(r, this.widestAxis(r));
  }

  /** The axis along which a region's boxes spread most relative to their sizes (fewest false overlaps). */
  protected widestAxis(r: number): number {
    let best = 0;
    let bestScore = -1;
    for (let k = 0; k < this.dimensions; k++) {
      const first = this.listFirst[listAt(r, k)];
      const last = first + this.regionLength[r] - 1;
      const v = this.arena.values[k];
      const t = this.arena.tokens[k];
      // Sum of extents, against the span of the list.
      let extents = 0;
      for (let i = first; i <= last; i++) extents += (t[i] & 1) === 1 ? v[i] : -v[i];
      const span = v[last] - v[first];
      const score = span > 0 ? span / (extents + span * 1e-12) : 0;
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best;
  }

  /**
   * Sweeps region r's sorted axis-k list and counts every overlapping pair (one-axis SAP). Open static
   * boxes wait in a list of their own: a box opening meets the open dynamic boxes, and a dynamic box
   * the open static ones too.
   */
  protected sweep(r: number, k: number): void {
    const t = this.arena.tokens[k];
    const half = this.regionLength[r] >> 1;
    if (this.active.length < half) this.active = growArray(this.active, half);
    const active = this.active;
    // (Grown only once static boxes are listed: a world without any never touches it.)
    if (this.fixedCount > 0 && this.activeFixed.length < half)
      this.activeFixed = growArray(this.activeFixed, half);
    const activeFixed = this.activeFixed;
    const index = this.activeIndex;
    const fixed = this.fixed;
    const end = this.listFirst[listAt(r, k)] + this.regionLength[r];
    let open = 0;
    let openFixed = 0;
    for (let i = this.listFirst[listAt(r, k)]; i < end; i++) {
      const token = t[i];
      const e = token >> 1;
      if ((token & 1) === 0) {
        const slot = this.entryObject[e];
        for (let j = 0; j < open; j++) {
          if (this.meetOnOtherAxes(e, active[j], k))
            this.pairSet.increment(slot, this.entryObject[active[j]]);
        }
        if (fixed[slot] === 1) {
          index[e] = ~openFixed;
          activeFixed[openFixed++] = e;
        } else {
          for (let j = 0; j < openFixed; j++) {
            if (this.meetOnOtherAxes(e, activeFixed[j], k))
              this.pairSet.increment(slot, this.entryObject[activeFixed[j]]);
          }
          index[e] = open;
          active[open++] = e;
        }
      } else {
        const at = index[e];
        if (at >= 0) {
          const last = active[--open];
          active[at] = last;
          index[last] = at;
        } else {
          const last = activeFixed[--openFixed];
          activeFixed[~at] = last;
          index[last] = at;
        }
      }
    }
  }
}
