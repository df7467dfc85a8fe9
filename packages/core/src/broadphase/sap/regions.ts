/**
 * The grid and its regions (the sweep-and-prune notes, §2): space is cut into the cells of a sparse
 * uniform grid (as PhysX's multi-box pruning and Bullet's btMultiSapBroadphase do); each cell that holds
 * boxes is a region with its own endpoint lists, in its own block of the endpoint arena. Region 0 is
 * global: the big boxes meet each other there.
 *
 * The grid covers cell indices from -GRID_CELL_LIMIT to GRID_CELL_LIMIT on each axis. A box reaching
 * past that range is kept with the big boxes, outside the grid, so cell indices stay small integers
 * and no loop over cells can be long or fail to advance.
 */
import { growArray } from '../../growArray.js';
import { EndpointArena } from './endpointArena.js';
import { GLOBAL_REGION, LIST_STRIDE, listAt, whereOfToken } from './layout.js';
import { GRID_CELL_LIMIT, type SweepAndPruneOptions } from './options.js';
import { SapState } from './state.js';

/** Cells, the grid, and the lifetime and storage of regions. */
export abstract class SapRegions extends SapState {
  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /** The cell index of coordinate x (unclipped; huge or ±Infinity far away). */
  protected cellOf(x: number): number {
    // + 0 turns -0 into 0, so one cell has one key.
    return Math.floor(x * this.inverseCell) + 0;
  }

  /**
   * The cell of coordinate x clipped to one past the grid's range (x · inverseCell may be huge or
   * ±Infinity): a query loops over at most the cells the grid can hold.
   */
  protected gridCell(x: number): number {
    const c = this.cellOf(x);
    return c < -GRID_CELL_LIMIT ? -GRID_CELL_LIMIT - 1 : c > GRID_CELL_LIMIT ? GRID_CELL_LIMIT + 1 : c;
  }

  /** Whether region r's cell lies in the cell range of box `slot`. */
  protected cellInRange(r: number, slot: number): boolean {
    const d = this.dimensions;
    const o = slot * 2 * d;
    for (let k = 0; k < d; k++) {
      const c = this.regionCell[listAt(r, k)];
      if (c < this.cells[o + k] || c > this.cells[o + d + k]) return false;
    }
    return true;
  }

  /** Queues region r for release at the end of the update (it has no small box left). */
  protected markEmptied(r: number): void {
    if (this.emptiedCount === this.emptied.length)
      this.emptied = growArray(this.emptied, this.emptiedCount + 1);
    this.emptied[this.emptiedCount++] = r;
  }

  /** A fresh region with an empty block of the smallest size class. */
  protected newRegion(): number {
    let r: number;
    if (this.freeRegionCount > 0) r = this.freeRegions[--this.freeRegionCount];
    else {
      r = this.regionsUsed++;
      if (r === this.regionStart.length) {
        const n = r + 1;
        this.regionStart = growArray(this.regionStart, n);
        this.listFirst = growArray(this.listFirst, LIST_STRIDE * n);
        this.regionClass = growArray(this.regionClass, n);
        this.regionLength = growArray(this.regionLength, n);
        this.regionCell = growArray(this.regionCell, LIST_STRIDE * n);
        this.regionBulk = growArray(this.regionBulk, n);
        this.regionSmall = growArray(this.regionSmall, n);
        this.regionStamp = growArray(this.regionStamp, n);
        this.leaveHead = growArray(this.leaveHead, n);
        this.enterHead = growArray(this.enterHead, n);
      }
    }
    this.regionClass[r] = 0;
    this.regionStart[r] = this.arena.allocate(0);
    for (let k = 0; k < 3; k++)
      this.listFirst[listAt(r, k)] = this.regionStart[r] + (EndpointArena.blockSize(0) >> 1);
    this.regionLength[r] = 0;
    this.regionBulk[r] = 0;
    this.regionSmall[r] = 0;
    this.regionStamp[r] = 0;
    this.leaveHead[r] = 0;
    this.enterHead[r] = 0;
    return r;
  }

  /** A region for a new cell; the big boxes that overlap the cell join it. */
  protected createRegion(x: number, y: number, z: number): number {
    const r = this.newRegion();
    this.regionCell[listAt(r, 0)] = x;
    this.regionCell[listAt(r, 1)] = y;
    this.regionCell[listAt(r, 2)] = z;
    this.grid.set(x, y, z, r);
    for (let i = 0; i < this.bigCount; i++) {
      const b = this.bigSlots[i];
      if (this.cellInRange(r, b)) this.addEntry(b, r);
    }
    return r;
  }

  /**
   * Frees the cell regions left without small boxes during this update; the big boxes still in them
   * leave too (big boxes meet each other in the global region).
   */
  protected releaseEmptiedRegions(): void {
    for (let i = 0; i < this.emptiedCount; i++) {
      const r = this.emptied[i];
      if (this.regionSmall[r] > 0 || r === GLOBAL_REGION) continue;
      const x = this.regionCell[listAt(r, 0)];
      const y = this.regionCell[listAt(r, 1)];
      const z = this.regionCell[listAt(r, 2)];
      if (this.grid.get(x, y, z) !== r) continue;
      while (this.regionLength[r] > 0)
        this.removeEntry(this.arena.tokens[0][this.listFirst[listAt(r, 0)]] >> 1);
      this.grid.delete(x, y, z);
      this.arena.release(this.regionStart[r], this.regionClass[r]);
      this.regionStart[r] = -1;
      if (this.freeRegionCount === this.freeRegions.length)
        this.freeRegions = growArray(this.freeRegions, this.freeRegionCount + 1);
      this.freeRegions[this.freeRegionCount++] = r;
    }
    this.emptiedCount = 0;
  }

  /** Forgets every region and cell (a regrid); the global region is made afresh. */
  protected clearRegions(): void {
    this.grid.clear();
    this.arena.clear();
    this.regionsUsed = 0;
    this.freeRegionCount = 0;
    this.newRegion();
    this.bulkCount = 0;
    this.emptiedCount = 0;
  }

  /** Makes room for `endpoints` in region r's block, moving it to a larger block if needed. */
  protected reserve(r: number, endpoints: number): void {
    const c = this.regionClass[r];
    // Two spare endpoints beyond: re-centred, a list then has room for two on either side.
    if (EndpointArena.blockSize(c) >= endpoints + 2) return;
    const nc = EndpointArena.classFor(endpoints + 2);
    const from = this.regionStart[r];
    const to = this.arena.allocate(nc);
    const n = this.regionLength[r];
    // A region being filled only appends: all the room at the end.
    const at = this.regionBulk[r] === 1 ? to : to + ((EndpointArena.blockSize(nc) - n) >> 1);
    for (let k = 0; k < this.dimensions; k++) this.moveList(r, k, at);
    this.arena.release(from, c);
    this.regionStart[r] = to;
    this.regionClass[r] = nc;
  }

  /**
   * Lays the regions' blocks out again one after another in region order, the order the passes visit
   * them (and the entries are numbered in, see renumberEntries): a frame then walks the arena front to
   * back, a stream the hardware prefetches, rather than jumping from block to block. Only the lists
   * are copied; each entry's endpoint positions move with its region's block. The tokens take the
   * entries' new numbers on the way (`renumbered`: old entry → new, see renumberEntries).
   */
  protected relayRegions(renumbered: Int32Array): void {
    const arena = this.arena;
    arena.prepareSpare();
    const d2 = 2 * this.dimensions;
    const where = this.where;
    let top = 0;
    for (let r = 0; r < this.regionsUsed; r++) {
      const from = this.regionStart[r];
      if (from < 0) continue;
      const shift = top - from;
      const n = this.regionLength[r];
      for (let k = 0; k < this.dimensions; k++) {
        const v = arena.values[k];
        const t = arena.tokens[k];
        const sv = arena.spareValues[k];
        const st = arena.spareTokens[k];
        const first = this.listFirst[listAt(r, k)];
        for (let i = first; i < first + n; i++) {
          const token = (renumbered[t[i] >> 1] << 1) | (t[i] & 1);
          sv[i + shift] = v[i];
          st[i + shift] = token;
          // Each endpoint's position moves with the block.
          where[whereOfToken(token, d2, k)] = i + shift;
        }
        this.listFirst[listAt(r, k)] = first + shift;
      }
      this.regionStart[r] = top;
      top += EndpointArena.blockSize(this.regionClass[r]);
    }
    arena.swapSpare(top);
  }

  /** Moves region r's axis-k list to start at arena index `to` (its block, or a new one). */
  protected moveList(r: number, k: number, to: number): void {
    const from = this.listFirst[listAt(r, k)];
    if (from === to) return;
    const n = this.regionLength[r];
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const d2 = 2 * this.dimensions;
    v.copyWithin(to, from, from + n);
    t.copyWithin(to, from, from + n);
    for (let i = to; i < to + n; i++) this.where[whereOfToken(t[i], d2, k)] = i;
    this.listFirst[listAt(r, k)] = to;
  }
}
