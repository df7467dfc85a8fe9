/**
 * Box queries of `SweepAndPrune`: the regions of the cells a query covers (plus the global region and
 * the boxes changed since the last update), each box reported once — or one linear scan when the query
 * spans many cells or most boxes changed.
 */
import { checkBounds, checkQueryOut, emitQueryResult } from '../proxies.js';
import type { QueryCallback } from '../types.js';
import { GLOBAL_REGION, listAt } from './layout.js';
import type { SweepAndPruneOptions } from './options.js';
import { SapPasses } from './passes.js';

/** {@link Broadphase.queryBounds} for the sweep and prune. */
export abstract class SapQueries extends SapPasses {
  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /**
   * Every live box overlapping `bounds` (inclusive), with the latest bounds: no `update()` needed.
   * Handles go to the callback, or are pushed onto / written into `out`; returns how many were found.
   */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    const store = this.store;
    checkBounds(bounds, this.dimensions, store.names.queryBounds);
    checkQueryOut(out, store.names.queryBounds);
    const d = this.dimensions;
    // The query's cells, clipped to the grid's range (boxes beyond it are big: in the global region).
    let span = 1;
    for (let k = 0; k < d; k++)
      span *= Math.max(0, this.gridCell(bounds[d + k]) - this.gridCell(bounds[k]) + 1);
    const pending = this.dirtyCount + this.insertedCount;
    if (
      this.cellSize === Number.POSITIVE_INFINITY ||
      span > this.maxCellsPerObject ||
      pending * 8 > store.count
    ) {
      return store.scanQuery(bounds, out);
    }
    const stamp = ++this.queryCounter;
    let found = 0;
    const lo0 = this.gridCell(bounds[0]);
    const hi0 = this.gridCell(bounds[d]);
    const lo1 = this.gridCell(bounds[1]);
    const hi1 = this.gridCell(bounds[d + 1]);
    const lo2 = d === 3 ? this.gridCell(bounds[2]) : 0;
    const hi2 = d === 3 ? this.gridCell(bounds[5]) : 0;
    for (let x = lo0; x <= hi0; x++) {
      for (let y = lo1; y <= hi1; y++) {
        for (let z = lo2; z <= hi2; z++) {
          const r = this.grid.get(x, y, z);
          if (r >= 0) found = this.queryRegion(r, bounds, out, stamp, found);
        }
      }
    }
    found = this.queryRegion(GLOBAL_REGION, bounds, out, stamp, found);
    for (let i = 0; i < this.dirtyCount; i++) found = this.queryOne(this.dirty[i], bounds, out, stamp, found);
    for (let i = 0; i < this.insertedCount; i++)
      found = this.queryOne(this.inserted[i], bounds, out, stamp, found);
    return found;
  }

  /** Reports the boxes of region r (each min token once) that overlap the query. */
  private queryRegion(
    r: number,
    bounds: ArrayLike<number>,
    out: QueryCallback | number[] | Int32Array,
    stamp: number,
    found: number,
  ): number {
    const t = this.arena.tokens[0];
    const first = this.listFirst[listAt(r, 0)];
    const end = first + this.regionLength[r];
    for (let i = first; i < end; i++) {
      if ((t[i] & 1) === 0) found = this.queryOne(this.entryObject[t[i] >> 1], bounds, out, stamp, found);
    }
    return found;
  }

  /** Reports a box once per query (stamped) if it is alive and overlaps the query's bounds. */
  private queryOne(
    slot: number,
    bounds: ArrayLike<number>,
    out: QueryCallback | number[] | Int32Array,
    stamp: number,
    found: number,
  ): number {
    if (this.queryStamp[slot] === stamp) return found;
    this.queryStamp[slot] = stamp;
    if (this.store.alive[slot] === 1 && this.store.overlapsBounds(slot, bounds)) {
      emitQueryResult(out, this.store.handles[slot], found);
      return found + 1;
    }
    return found;
  }
}
