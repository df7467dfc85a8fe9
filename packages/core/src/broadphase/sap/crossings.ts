/**
 * Boxes crossing cell borders in an update where most boxes move. Moving such a box between regions
 * after the passes, as the membership update does (entries.ts), reaches each region again once it has
 * left the cache; here the crossings are counted exactly and planned before the passes, then applied
 * region by region while the region is being sorted anyway (passes.ts): a box leaves a region before
 * the region's pass — the region still as its pair counts were made — and enters one after it — the
 * region as it is now, the box with its latest bounds. Each region's pair counts stay its own to the
 * end (a pair is counted per region, the sweep-and-prune notes, §2), so the order does not matter.
 * Boxes that become big, or enter a cell without a region yet, are left to the membership update.
 */
import { growArray } from '../../growArray.js';
import { SapEntries } from './entries.js';
import { listAt } from './layout.js';
import { GRID_CELL_LIMIT, type SweepAndPruneOptions } from './options.js';

/** Crossings of cell borders, planned before the passes and applied region by region. */
export abstract class SapCrossings extends SapEntries {
  /** A box's new cell range while it is planned: lowest cell per axis, then highest. */
  private readonly range = new Float64Array(6);

  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /**
   * Lists in `crossers` the moved boxes (flagged in `dirty`) whose cell range changes, judged from
   * their latest bounds; returns how many — or, as soon as there are more than `limit`, `limit + 1`
   * (the update then rebuilds every region: the list is not needed).
   */
  protected collectCrossers(limit: number): number {
    const box = this.store.bounds;
    const cells = this.cells;
    const inverse = this.inverseCell;
    const dirty = this.dirty;
    const flag = this.dirtyFlag;
    const out = this.crossers;
    const n = this.dirtyCount;
    let count = 0;
    if (this.dimensions === 3) {
      for (let i = 0; i < n; i++) {
        const slot = dirty[i];
        if (flag[slot] === 0) continue;
        const o = slot * 6;
        // Branch-free (-0 === 0, so cellOf's + 0 is not needed here).
        const moves =
          (Math.floor(box[o] * inverse) !== cells[o] ? 1 : 0) |
          (Math.floor(box[o + 1] * inverse) !== cells[o + 1] ? 1 : 0) |
          (Math.floor(box[o + 2] * inverse) !== cells[o + 2] ? 1 : 0) |
          (Math.floor(box[o + 3] * inverse) !== cells[o + 3] ? 1 : 0) |
          (Math.floor(box[o + 4] * inverse) !== cells[o + 4] ? 1 : 0) |
          (Math.floor(box[o + 5] * inverse) !== cells[o + 5] ? 1 : 0);
        if (moves !== 0) {
          out[count++] = slot;
          if (count > limit) return count;
        }
      }
    } else {
      for (let i = 0; i < n; i++) {
        const slot = dirty[i];
        if (flag[slot] === 0) continue;
        const o = slot * 4;
        const moves =
          (Math.floor(box[o] * inverse) !== cells[o] ? 1 : 0) |
          (Math.floor(box[o + 1] * inverse) !== cells[o + 1] ? 1 : 0) |
          (Math.floor(box[o + 2] * inverse) !== cells[o + 2] ? 1 : 0) |
          (Math.floor(box[o + 3] * inverse) !== cells[o + 3] ? 1 : 0);
        if (moves !== 0) {
          out[count++] = slot;
          if (count > limit) return count;
        }
      }
    }
    return count;
  }

  /**
   * Plans the crossings of the first `count` crossers: a small box that stays small and whose new
   * cells all have regions (none filled from empty in this update) leaves the regions of its old cells
   * outside the new range and enters those of its new cells outside the old one; its cell range is
   * updated now. The other crossers are left as they are, for the membership update: they are moved to
   * the front of `crossers`; returns how many.
   */
  protected planCrossings(count: number): number {
    const d = this.dimensions;
    const d2 = 2 * d;
    const box = this.store.bounds;
    const cells = this.cells;
    const range = this.range;
    const grid = this.grid;
    this.crossingCount = 0;
    let left = 0;
    for (let i = 0; i < count; i++) {
      const slot = this.crossers[i];
      // Left for the membership update until planned below.
      this.crossers[left++] = slot;
      if (this.big[slot] === 1) continue;
      const o = slot * d2;
      let span = 1;
      let inside = true;
      for (let k = 0; k < d; k++) {
        const lo = this.cellOf(box[o + k]);
        const hi = this.cellOf(box[o + d + k]);
        range[k] = lo;
        range[3 + k] = hi;
        if (lo < -GRID_CELL_LIMIT || hi > GRID_CELL_LIMIT) inside = false;
        span *= hi - lo + 1;
      }
      if (!inside || span > this.maxCellsPerObject) continue;
      const z0 = d === 3 ? range[2] : 0;
      const z1 = d === 3 ? range[5] : 0;
      // Every new cell must have a region sorted in this update.
      let known = true;
      for (let x = range[0]; known && x <= range[3]; x++) {
        for (let y = range[1]; known && y <= range[4]; y++) {
          for (let z = z0; z <= z1; z++) {
            const r = grid.get(x, y, z);
            if (r < 0 || this.regionBulk[r] === 1) {
              known = false;
              break;
            }
          }
        }
      }
      if (!known) continue;
      // Leaving: the entries of old cells outside the new range.
      for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
        const r = this.entryRegion[e];
        for (let k = 0; k < d; k++) {
          const c = this.regionCell[listAt(r, k)];
          if (c < range[k] || c > range[3 + k]) {
            this.plan(this.leaveHead, r, e);
            break;
          }
        }
      }
      // Entering: the new cells outside the old range.
      const oz0 = d === 3 ? cells[o + 2] : 0;
      const oz1 = d === 3 ? cells[o + 5] : 0;
      for (let x = range[0]; x <= range[3]; x++) {
        for (let y = range[1]; y <= range[4]; y++) {
          for (let z = z0; z <= z1; z++) {
            const old = x >= cells[o] && x <= cells[o + d] && y >= cells[o + 1] && y <= cells[o + d + 1];
            if (old && z >= oz0 && z <= oz1) continue;
            this.plan(this.enterHead, grid.get(x, y, z), slot);
          }
        }
      }
      for (let k = 0; k < d; k++) {
        cells[o + k] = range[k];
        cells[o + d + k] = range[3 + k];
      }
      left--;
    }
    return left;
  }

  /** Adds `item` to region r's list of crossings in `heads` (leaving or entering). */
  private plan(heads: Int32Array, r: number, item: number): void {
    const c = this.crossingCount++;
    if (c === this.crossingNext.length) {
      this.crossingNext = growArray(this.crossingNext, c + 1);
      this.crossingItem = growArray(this.crossingItem, c + 1);
    }
    this.crossingItem[c] = item;
    this.crossingNext[c] = heads[r];
    heads[r] = c + 1;
  }

  /** The planned entries leaving region r go (before its pass: their pairs there end as counted). */
  protected leaveRegion(r: number): void {
    let c = this.leaveHead[r];
    this.leaveHead[r] = 0;
    while (c > 0) {
      const e = this.crossingItem[c - 1];
      c = this.crossingNext[c - 1];
      this.removeEntry(e);
    }
  }

  /** The planned boxes entering region r come, with their latest bounds (after its pass). */
  protected enterRegion(r: number): void {
    let c = this.enterHead[r];
    this.enterHead[r] = 0;
    this.enterLatest = true;
    while (c > 0) {
      const slot = this.crossingItem[c - 1];
      c = this.crossingNext[c - 1];
      this.addEntry(slot, r);
    }
    this.enterLatest = false;
  }
}
