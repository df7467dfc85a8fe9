/**
 * Which pairs a region of the region-parallel sweep and prune owns, and how that changed this frame.
 *
 * A pair is reported by exactly one region: the one whose half-open bounds `[min, max)` hold the lowest
 * corner of the two boxes' intersection — the reference-point method of parallel spatial joins
 * (Dittrich and Seeger, "Data redundancy and duplicate detection in spatial join processing", ICDE
 * 2000). That corner lies in both boxes, so both are members of its region (a box belongs to every
 * region its closed bounds overlap), whose exact sweep and prune finds the pair; the rim of the layout
 * is infinite, so every finite point lies in exactly one region and no other region reports it.
 *
 * Each frame the region walks its sweep and prune's sorted pair list beside the last frame's and lists
 * the pairs it started or stopped owning (a pair whose corner crossed into a neighbour ends here and
 * begins there; the merge phase cancels the two). While a region covers all of space it owns every
 * pair, and its changes are its sweep and prune's own began and ended lists. Both lists come out as
 * global handles, sorted.
 *
 * A pair whose two boxes have their lower corners inside the region's half-open bounds is owned
 * without looking at the boxes again: the intersection's lowest corner is the larger of the two lower
 * corners, axis by axis. One pass in slot order marks the boxes whose lower corner lies outside (on a
 * cut between regions only a thin slab of boxes does), so the walk reads two bytes for most pairs
 * instead of two boxes scattered over the region's store.
 */
import { growArray } from '../../growArray.js';
import { SLOT_MASK } from '../proxies.js';
import { sortPairs } from '../sortPairs.js';
import { copyRange } from './copyRange.js';

/** Whether region `r` of a layout (`regions`, 2·d numbers a region) is all of space. */
export function coversAll(regions: Float64Array, r: number, d: number): boolean {
  const ro = 2 * d * r;
  for (let k = 0; k < d; k++) {
    if (regions[ro + k] !== Number.NEGATIVE_INFINITY || regions[ro + d + k] !== Number.POSITIVE_INFINITY) {
      return false;
    }
  }
  return true;
}

/** The pairs one region owns, and their changes at the last frame; no allocation once grown. */
export class PairOwnership {
  /** Pairs the region began owning at the last frame (global handles, a < b, sorted; `beganCount` of them). */
  began = new Int32Array(64);
  /** Pairs the region stopped owning at the last frame (as `began`). */
  ended = new Int32Array(64);
  beganCount = 0;
  endedCount = 0;
  /** The local pair list after the last frame (local handles), and which of its pairs the region owned. */
  private previous = new Int32Array(64);
  private previousOwned = new Uint8Array(32);
  private previousCount = 0;
  /** Whether the region owned every pair of the last frame's list (it covered all of space). */
  private previousAll = true;
  private owned = new Uint8Array(32);
  /** Per local slot: 1 where the box's lower corner lies outside the region's bounds (see the header). */
  private outside = new Uint8Array(64);
  // This frame's inputs (fields, so the walk's helpers read them without arguments or closures).
  private boxes: Float64Array = new Float64Array(0);
  private regions: Float64Array = new Float64Array(0);
  private handles: Int32Array = new Int32Array(0);
  private globalOf: Int32Array = new Int32Array(0);

  constructor(
    readonly dimensions: number,
    /** The region whose pairs these are. */
    readonly region: number,
  ) {}

  /**
   * Brings the owned pairs up to date with the region's sweep and prune after its update: its sorted
   * pair list (`pairs`, `n` pairs of local handles) and began / ended lists, its boxes (`boxes`, by
   * local slot, every live one below slot `slots`), the layout (`regions`), and the maps from local
   * slot to global slot (`globalOf`) and global slot to handle (`handles`).
   */
  update(
    pairs: Int32Array,
    n: number,
    began: Int32Array,
    nb: number,
    ended: Int32Array,
    ne: number,
    boxes: Float64Array,
    slots: number,
    regions: Float64Array,
    handles: Int32Array,
    globalOf: Int32Array,
  ): void {
    this.boxes = boxes;
    this.regions = regions;
    this.handles = handles;
    this.globalOf = globalOf;
    const everything = coversAll(regions, this.region, this.dimensions);
    this.beganCount = 0;
    this.endedCount = 0;
    // Room for every change before the emits: a pair begins at most once per current pair (or per
    // began pair of the region), and ends at most once per last-frame or current pair (or ended pair).
    const fast = everything && this.previousAll;
    const mostBegan = 2 * (fast ? nb : n);
    const mostEnded = 2 * (fast ? ne : this.previousCount + n);
    if (this.began.length < mostBegan) this.began = growArray(this.began, mostBegan);
    if (this.ended.length < mostEnded) this.ended = growArray(this.ended, mostEnded);
    if (fast) {
      for (let i = 0; i < nb; i++) this.emit(true, began[2 * i], began[2 * i + 1]);
      for (let i = 0; i < ne; i++) this.emit(false, ended[2 * i], ended[2 * i + 1]);
    } else {
      if (!everything) this.markOutside(slots);
      this.walk(pairs, n, everything);
    }
    // This frame's list becomes the last frame's.
    if (this.previous.length < 2 * n) this.previous = growArray(this.previous, 2 * n);
    copyRange(this.previous, 0, pairs, 0, 2 * n);
    this.previousCount = n;
    this.previousAll = everything;
    this.toGlobal(this.began, this.beganCount);
    this.toGlobal(this.ended, this.endedCount);
    if (this.beganCount > 1) sortPairs(this.began, this.beganCount);
    if (this.endedCount > 1) sortPairs(this.ended, this.endedCount);
  }

  /** The merge walk of {@link update}, for a region that does not own every pair. */
  private walk(pairs: Int32Array, n: number, everything: boolean): void {
    const prev = this.previous;
    const prevOwned = this.previousOwned;
    const prevAll = this.previousAll;
    const m = this.previousCount;
    this.owned = growArray(this.owned, n);
    const owned = this.owned;
    const outside = this.outside;
    let i = 0;
    let j = 0;
    while (i < m || j < n) {
      let order: number;
      if (i >= m) order = 1;
      else if (j >= n) order = -1;
      else {
        const pa = prev[2 * i];
        const ca = pairs[2 * j];
        order = pa !== ca ? (pa < ca ? -1 : 1) : prev[2 * i + 1] - pairs[2 * j + 1];
      }
      if (order < 0) {
        if (prevAll || prevOwned[i] === 1) this.emit(false, prev[2 * i], prev[2 * i + 1]);
        i++;
        continue;
      }
      const a = pairs[2 * j];
      const b = pairs[2 * j + 1];
      const own = everything || (outside[a & SLOT_MASK] | outside[b & SLOT_MASK]) === 0 || this.owns(a, b);
      owned[j] = own ? 1 : 0;
      if (order > 0) {
        if (own) this.emit(true, pairs[2 * j], pairs[2 * j + 1]);
      } else {
        if (own !== (prevAll || prevOwned[i] === 1)) this.emit(own, pairs[2 * j], pairs[2 * j + 1]);
        i++;
      }
      j++;
    }
    this.previousOwned = owned;
    this.owned = prevOwned;
  }

  /** Marks, for local slots `[0, slots)`, the boxes whose lower corner lies outside the region. */
  private markOutside(slots: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const box = this.boxes;
    const reg = this.regions;
    const ro = this.region * s;
    this.outside = growArray(this.outside, slots);
    const outside = this.outside;
    const x0 = reg[ro];
    const y0 = reg[ro + 1];
    const x1 = reg[ro + d];
    const y1 = reg[ro + d + 1];
    if (d === 3) {
      const z0 = reg[ro + 2];
      const z1 = reg[ro + 5];
      for (let slot = 0, o = 0; slot < slots; slot++, o += 6) {
        const x = box[o];
        const y = box[o + 1];
        const z = box[o + 2];
        outside[slot] = x0 <= x && x < x1 && y0 <= y && y < y1 && z0 <= z && z < z1 ? 0 : 1;
      }
    } else {
      for (let slot = 0, o = 0; slot < slots; slot++, o += 4) {
        const x = box[o];
        const y = box[o + 1];
        outside[slot] = x0 <= x && x < x1 && y0 <= y && y < y1 ? 0 : 1;
      }
    }
  }

  /** Whether the region owns the pair of local handles (a, b) (see the module's header). */
  private owns(a: number, b: number): boolean {
    const d = this.dimensions;
    const s = 2 * d;
    const box = this.boxes;
    const reg = this.regions;
    const oa = (a & SLOT_MASK) * s;
    const ob = (b & SLOT_MASK) * s;
    const ro = this.region * s;
    for (let k = 0; k < d; k++) {
      const p = Math.max(box[oa + k], box[ob + k]);
      if (!(reg[ro + k] <= p && p < reg[ro + d + k])) return false;
    }
    return true;
  }

  /** Records a began (or ended) pair of local handles (mapped to global handles by {@link toGlobal}). */
  private emit(began: boolean, a: number, b: number): void {
    // The lists have room: update() sized them for every change.
    if (began) {
      this.began[2 * this.beganCount] = a;
      this.began[2 * this.beganCount + 1] = b;
      this.beganCount++;
    } else {
      this.ended[2 * this.endedCount] = a;
      this.ended[2 * this.endedCount + 1] = b;
      this.endedCount++;
    }
  }

  /**
   * Maps the first `count` pairs of local handles in `list` to global handles, lower first: one tight
   * loop, whose scattered reads the processor overlaps (the walk's, one pair at a time, it could not).
   */
  private toGlobal(list: Int32Array, count: number): void {
    const handles = this.handles;
    const globalOf = this.globalOf;
    for (let i = 0; i < 2 * count; i += 2) {
      const ha = handles[globalOf[list[i] & SLOT_MASK]];
      const hb = handles[globalOf[list[i + 1] & SLOT_MASK]];
      list[i] = Math.min(ha, hb);
      list[i + 1] = Math.max(ha, hb);
    }
  }
}
