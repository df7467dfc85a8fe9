/**
 * Incremental sweep and prune (SAP) in 2-D and 3-D, partitioned into regions.
 *
 * Each region follows `shared/seeds/004_7b04ec2be2c8edf3.txt` §1 and Bullet's btAxisSweep3: per-axis
 * lists of MIN/MAX endpoints kept sorted by insertion sort to exploit temporal coherence; the pair
 * set changes only on swaps — a min passing a max adds the pair if the boxes overlap on every axis
 * (§1.3), a max passing a min removes it if they overlapped on the other axes; each entry knows where
 * its endpoints are, so a moved box slides its own endpoints (Bullet's sortMinDown/sortMaxUp...).
 *
 * The regions are §2's answer to a single list's weakness: in 3-D, at a fixed volume fraction, the
 * number of endpoints per unit of length on one axis grows as N^(2/3), and so do the swaps per box per
 * frame. Space is cut into the cells of a sparse uniform grid (as PhysX's multi-box pruning and Bullet's
 * btMultiSapBroadphase do); each cell that holds boxes is a region with its own endpoint lists, and a
 * box is an entry in every cell its box overlaps (usually one). A pair is counted once per region
 * where the two boxes meet, and reported while its count is above zero (see pairSet.ts). Two
 * overlapping boxes always share the cell that holds a point of their intersection, so no pair is lost.
 * Boxes spanning more than `maxCellsPerObject` cells are "big": they live in one global region (where
 * big boxes meet each other) and in every existing cell they overlap (where they meet small boxes).
 *
 * The grid covers cell indices from -GRID_CELL_LIMIT to GRID_CELL_LIMIT on each axis (2^30 cells: a
 * billion units either side of the origin at cells of 1). A box reaching past that
 * range — one that flew off to 1e20 or 1e300 — is kept with the big boxes, outside the grid, so every
 * finite coordinate gets exact pairs, cell indices stay small integers (no loop over cells can be long
 * or fail to advance), and no work grows with a coordinate's magnitude.
 *
 * The grid's cell size is chosen from the boxes themselves the first time the broadphase holds
 * `autoGridThreshold` boxes (until then there is one region: classic SAP), or given as an option.
 *
 * How an update moves boxes, by how many moved (each way keeps every pair's count exact):
 * - Few: each moved endpoint slides through its sorted list on its own (Bullet's way), where every
 *   min/max swap is an exact overlap toggle (the lists always describe a real set of boxes).
 * - More than `passShare` of them: all new values are written, then one insertion-sort pass per region
 *   and axis. Several values changed at once, so a swap is no longer a toggle; each min/max swap instead
 *   applies the change in its pair's overlap between before and after that axis's pass (a pair that
 *   changed state on the axis has exactly one of its two orders flipped). These tests are batched after
 *   each pass, away from the pass's branches, so their scattered reads overlap.
 * - More than `rebuildShare` of them change cells (teleports, fast motion): every region is rebuilt in
 *   bulk, since moving one box between regions costs about as much as re-sorting the region.
 * A region filled from empty is sorted once (O(n log n)) and its pairs found by one sweep along its
 * widest axis.
 *
 * Whether two boxes of a region overlap on the axes other than the one being sorted is read from
 * their endpoints' positions in that region's sorted lists ("each min lies before the other's max"),
 * not from their bounds: the positions are one small record per entry, the bounds two records per
 * box elsewhere in memory, and most swapped pairs are told apart by those axes alone.
 *
 * Data layout (structure of arrays, no object per region or entry): `listed` holds each box's bounds as
 * the lists hold them; entries (one per box per region) have `entryObject`, `entryRegion`, `entryNext`
 * (the box's list of entries) and `where` (`where[entry·2D + 2k + isMax]`, the arena index of each
 * endpoint), and are renumbered in box order now and then, so that walks in box order read them in
 * order; a region owns a block of the endpoint arena (endpointArena.ts, from `regionStart`) in which
 * each axis's list `[listFirst, listFirst + regionLength)` floats with room on both sides (an entry is
 * added or removed by moving the shorter side). The per-axis `values[k]` (Float64Array) and `tokens[k]`
 * (Int32Array, `entry << 1 | isMax`) are sorted by (value, isMax), so that at equal values a min comes
 * first and touching boxes overlap.
 */

import { growArray } from '../growArray.js';
import { CellGrid } from './cellGrid.js';
import { EndpointArena } from './endpointArena.js';
import { PairedBroadphase } from './pairedBroadphase.js';
import { checkBounds, checkOptions, checkQueryOut, emitQueryResult, SLOT_MASK } from './proxies.js';
import type { Broadphase, BroadphaseOptions, QueryCallback } from './types.js';

/** Options of {@link SweepAndPrune}. */
export interface SweepAndPruneOptions extends BroadphaseOptions {
  /**
   * Edge of the grid cells that partition space into regions, or `'auto'` (default) to choose it from
   * the boxes once there are `autoGridThreshold` of them. `Infinity` gives one region: classic SAP.
   */
  cellSize?: number | 'auto';
  /** With `cellSize: 'auto'`, how many boxes make the broadphase choose a grid. Default 256. */
  autoGridThreshold?: number;
  /** With `cellSize: 'auto'`, about how many boxes a cell should hold. Default 48. */
  objectsPerCell?: number;
  /** A box overlapping more cells than this is kept in the global region of big boxes. Default 64 (16 in 2-D). */
  maxCellsPerObject?: number;
  /**
   * When more than this share of the boxes moved since the last update, each touched region is
   * re-sorted by one insertion-sort pass per axis instead of sliding each endpoint on its own.
   * Default 1/16.
   */
  passShare?: number;
  /**
   * When more than this share of the boxes change cells in one update (teleports, respawns, fast
   * motion), every region is rebuilt in bulk (one sort and sweep each) instead of moving boxes between
   * regions one at a time. Default 1/8; `Infinity` never rebuilds.
   */
  rebuildShare?: number;
}

const GLOBAL = 0;

/** {@link SweepAndPrune.GRID_CELL_LIMIT}. */
const GRID_CELL_LIMIT = 2 ** 30;
/** The most cells a small box may cover (a bound on `maxCellsPerObject`). */
const MAX_CELLS_PER_OBJECT = 4096;

/** Incremental, region-partitioned sweep and prune. Implements the {@link Broadphase} contract. */
export class SweepAndPrune extends PairedBroadphase {
  /**
   * The largest cell index, in absolute value, of the grid on every axis (2^30): the grid holds
   * coordinates within `GRID_CELL_LIMIT × cellSize` of the origin. A box whose cells reach past it is
   * kept outside the grid with the big boxes (exact pairs still, found in the global region).
   */
  static readonly GRID_CELL_LIMIT = GRID_CELL_LIMIT;
  private readonly validateEachUpdate: boolean;
  private readonly autoGrid: boolean;
  private readonly autoGridThreshold: number;
  private readonly objectsPerCell: number;
  private readonly maxCellsPerObject: number;
  private readonly passShare: number;
  private readonly rebuildShare: number;
  /** Current cell edge (Infinity: one cell). */
  private cellSize: number;
  /** 1 / cellSize: cells are found by a multiplication (every cell lookup uses the same one). */
  private inverseCell: number;

  // Per box (slot).
  private listed: Float64Array;
  /** Cell range per box: lowest cell index per axis, then highest. */
  private cells: Float64Array;
  private inLists: Uint8Array;
  private big: Uint8Array;
  private firstEntry: Int32Array;
  private dirty: Int32Array;
  private dirtyFlag: Uint8Array;
  private dirtyCount = 0;
  private inserted: Int32Array;
  private insertedCount = 0;
  private removed: Int32Array;
  private removedCount = 0;
  private bigSlots = new Int32Array(16);
  private bigCount = 0;
  private queryStamp: Int32Array;
  private queryCounter = 0;

  // Per entry (a box in a region).
  private entryObject: Int32Array = new Int32Array(64);
  private entryRegion: Int32Array = new Int32Array(64);
  private entryNext: Int32Array = new Int32Array(64);
  private entryStamp: Int32Array = new Int32Array(64);
  private where: Int32Array;
  private freeEntries = new Int32Array(64);
  private freeEntryCount = 0;
  private entriesUsed = 0;
  private stamp = 0;
  /** Entries made since the entries were last renumbered in slot order ({@link renumberEntries}). */
  private entriesMade = 0;
  /** Second copies of the per-entry arrays, written by {@link renumberEntries} and swapped in. */
  private spareObject: Int32Array = new Int32Array(0);
  private spareRegion: Int32Array = new Int32Array(0);
  private spareNext: Int32Array = new Int32Array(0);
  private spareStamp: Int32Array = new Int32Array(0);
  private spareWhere: Int32Array = new Int32Array(0);

  // Regions: blocks of the endpoint arena, described by typed arrays.
  private readonly arena: EndpointArena;
  /** Start of each region's block in the arena (-1: region free). */
  private regionStart = new Int32Array(16);
  /**
   * Where each region's list of axis k starts (`listFirst[3r + k]`, an arena index inside the block):
   * each list floats in its block with room on both sides, so an endpoint is added or removed by
   * shifting the shorter side of the list.
   */
  private listFirst = new Int32Array(48);
  private regionClass = new Uint8Array(16);
  /** Endpoints in each of the region's lists (2 × entries). */
  private regionLength = new Int32Array(16);
  /** Cell coordinates (unused for the global region). */
  private regionCell = new Float64Array(48);
  /** 1 while a region filled from empty during this update waits, unsorted, for its sort-and-sweep. */
  private regionBulk = new Uint8Array(16);
  /** Entries of small boxes; a cell region with none left is released (big boxes need no cell alone). */
  private regionSmall = new Int32Array(16);
  /** Marks a region as touched by the current batch of moves. */
  private regionStamp = new Int32Array(16);
  private regionsUsed = 0;
  private freeRegions = new Int32Array(16);
  private freeRegionCount = 0;
  private readonly grid: CellGrid;
  private touched = new Int32Array(16);
  private bulkRegions = new Int32Array(16);
  private bulkCount = 0;
  private emptied = new Int32Array(16);
  private emptiedCount = 0;
  /** Min/max swaps of the current pass (entry pairs), tested after the pass. */
  private swaps = new Int32Array(256);
  private swapCount = 0;
  /** Scratch for sweeps: open entries and each entry's index among them. */
  private active = new Int32Array(16);
  private activeIndex = new Int32Array(64);

  constructor(options: SweepAndPruneOptions) {
    const capacity = checkOptions(options, 'SweepAndPrune').initialCapacity ?? 64;
    super(options.dimensions, capacity, 'SweepAndPrune');
    const d = options.dimensions;
    this.validateEachUpdate = options.validate ?? false;
    const cellSize = options.cellSize ?? 'auto';
    if (cellSize !== 'auto' && !(typeof cellSize === 'number' && cellSize > 0)) {
      throw new RangeError(
        `SweepAndPrune: cellSize must be 'auto', a positive number or Infinity, got ${String(cellSize)}`,
      );
    }
    if (cellSize !== 'auto' && !Number.isFinite(1 / cellSize)) {
      // 1 / cellSize is Infinity for subnormal cells: no cell index could be computed.
      throw new RangeError(`SweepAndPrune: cellSize ${cellSize} is too small (1 / cellSize overflows)`);
    }
    this.autoGrid = cellSize === 'auto';
    this.cellSize = cellSize === 'auto' ? Number.POSITIVE_INFINITY : cellSize;
    this.inverseCell = 1 / this.cellSize;
    this.autoGridThreshold = options.autoGridThreshold ?? 256;
    if (!(Number.isInteger(this.autoGridThreshold) && this.autoGridThreshold >= 1)) {
      throw new RangeError(
        `SweepAndPrune: autoGridThreshold must be a positive integer, got ${String(options.autoGridThreshold)}`,
      );
    }
    this.objectsPerCell = options.objectsPerCell ?? 48;
    if (
      !(typeof this.objectsPerCell === 'number' && this.objectsPerCell > 0 && this.objectsPerCell < 2 ** 31)
    ) {
      throw new RangeError(
        `SweepAndPrune: objectsPerCell must be a positive finite number, got ${String(options.objectsPerCell)}`,
      );
    }
    this.maxCellsPerObject = options.maxCellsPerObject ?? (d === 3 ? 64 : 16);
    if (
      !(
        Number.isInteger(this.maxCellsPerObject) &&
        this.maxCellsPerObject >= 1 &&
        this.maxCellsPerObject <= MAX_CELLS_PER_OBJECT
      )
    ) {
      throw new RangeError(
        `SweepAndPrune: maxCellsPerObject must be an integer from 1 to ${MAX_CELLS_PER_OBJECT}, got ${String(options.maxCellsPerObject)}`,
      );
    }
    this.passShare = options.passShare ?? 1 / 16;
    if (typeof this.passShare !== 'number' || !(this.passShare >= 0)) {
      throw new RangeError(
        `SweepAndPrune: passShare must be a number >= 0 (or Infinity), got ${String(options.passShare)}`,
      );
    }
    this.rebuildShare = options.rebuildShare ?? 1 / 8;
    if (typeof this.rebuildShare !== 'number' || !(this.rebuildShare >= 0)) {
      throw new RangeError(
        `SweepAndPrune: rebuildShare must be a number >= 0 (or Infinity), got ${String(options.rebuildShare)}`,
      );
    }
    const c = this.store.capacity;
    this.listed = new Float64Array(2 * d * c);
    this.cells = new Float64Array(2 * d * c);
    this.inLists = new Uint8Array(c);
    this.big = new Uint8Array(c);
    this.firstEntry = new Int32Array(c).fill(-1);
    this.dirty = new Int32Array(c);
    this.dirtyFlag = new Uint8Array(c);
    this.inserted = new Int32Array(c);
    this.removed = new Int32Array(c);
    this.queryStamp = new Int32Array(c);
    this.grid = new CellGrid(d);
    this.where = new Int32Array(this.entryObject.length * 2 * d);
    this.arena = new EndpointArena(d);
    this.newRegion(); // the global region of big boxes: index 0
  }

  /** The grid's cell edge in use (Infinity while there is a single region). */
  get currentCellSize(): number {
    return this.cellSize;
  }

  /** Regions in use, the global region of big boxes included. */
  get regionCount(): number {
    return this.regionsUsed - this.freeRegionCount;
  }

  insert(bounds: ArrayLike<number>): number {
    const slot = this.store.allocate(bounds);
    this.inserted[this.insertedCount++] = slot;
    return this.store.handles[slot];
  }

  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, 'SweepAndPrune.move');
    this.store.setBounds(slot, bounds);
    this.markMoved(slot);
  }

  /**
   * Moves many proxies at once: `handles[i]` gets the bounds at `bounds[i · 2D ... i · 2D + 2D)` for
   * i below `count` (an integer from 0 to `handles.length`; default `handles.length`). Validates
   * everything before changing anything.
   */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    const box = this.store.bounds;
    const inLists = this.inLists;
    const flag = this.dirtyFlag;
    const dirty = this.dirty;
    let dirtyCount = this.dirtyCount;
    for (let i = 0; i < n; i++) {
      const slot = handles[i] & SLOT_MASK;
      const o = slot * s;
      const from = i * s;
      box[o] = bounds[from];
      box[o + 1] = bounds[from + 1];
      box[o + 2] = bounds[from + 2];
      box[o + 3] = bounds[from + 3];
      if (s === 6) {
        box[o + 4] = bounds[from + 4];
        box[o + 5] = bounds[from + 5];
      }
      // markMoved, with the arrays and the count in locals (3 % at 20 000 boxes over calling it).
      if (inLists[slot] === 1 && flag[slot] === 0) {
        flag[slot] = 1;
        dirty[dirtyCount++] = slot;
      }
    }
    this.dirtyCount = dirtyCount;
  }

  remove(handle: number): void {
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    if (this.inLists[slot] === 1) this.removed[this.removedCount++] = slot;
  }

  update(): void {
    if (
      this.autoGrid &&
      this.cellSize === Number.POSITIVE_INFINITY &&
      this.store.count >= this.autoGridThreshold
    ) {
      this.cellSize = this.chooseCellSize();
      this.inverseCell = 1 / this.cellSize;
      if (this.cellSize !== Number.POSITIVE_INFINITY) this.regrid();
    }
    for (let i = 0; i < this.removedCount; i++) this.unlist(this.removed[i]);
    this.removedCount = 0;
    if (this.dirtyCount > 0) this.applyMoves();
    for (let i = 0; i < this.insertedCount; i++) {
      const slot = this.inserted[i];
      if (this.store.alive[slot] === 0) continue;
      this.copyListed(slot);
      this.inLists[slot] = 1;
      this.updateMemberships(slot);
    }
    this.insertedCount = 0;
    for (let i = 0; i < this.bulkCount; i++) this.sortAndSweep(this.bulkRegions[i]);
    this.bulkCount = 0;
    this.releaseEmptiedRegions();
    this.pairSet.finalize(this.store.handles);
    this.store.recycle();
    // Worth it once the entries outgrow the caches; small worlds would only pay for it.
    if (this.entriesMade > Math.max(this.store.count >> 2, 4096)) this.renumberEntries();
    if (this.validateEachUpdate) this.validate();
  }

  /**
   * Every box overlapping `bounds`, with the latest bounds. Looks only at the regions of the cells the
   * query covers (plus boxes changed since the last update) unless the query spans many cells or most
   * boxes changed, where one linear scan is cheaper.
   */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    checkBounds(bounds, this.dimensions, 'SweepAndPrune.queryBounds');
    const d = this.dimensions;
    const store = this.store;
    checkQueryOut(out, 'SweepAndPrune.queryBounds');
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
    found = this.queryRegion(GLOBAL, bounds, out, stamp, found);
    for (let i = 0; i < this.dirtyCount; i++) found = this.queryOne(this.dirty[i], bounds, out, stamp, found);
    for (let i = 0; i < this.insertedCount; i++)
      found = this.queryOne(this.inserted[i], bounds, out, stamp, found);
    return found;
  }

  private queryRegion(
    r: number,
    bounds: ArrayLike<number>,
    out: QueryCallback | number[] | Int32Array,
    stamp: number,
    found: number,
  ): number {
    const t = this.arena.tokens[0];
    const end = this.listFirst[3 * r] + this.regionLength[r];
    for (let i = this.listFirst[3 * r]; i < end; i++) {
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

  // --- update steps -------------------------------------------------------------------------------

  private markMoved(slot: number): void {
    if (this.inLists[slot] === 1 && this.dirtyFlag[slot] === 0) {
      this.dirtyFlag[slot] = 1;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  private copyListed(slot: number): void {
    const box = this.store.bounds;
    const listed = this.listed;
    // Written out (4 or 6 numbers): the copy runs for every moved box.
    if (this.dimensions === 3) {
      const o = slot * 6;
      listed[o] = box[o];
      listed[o + 1] = box[o + 1];
      listed[o + 2] = box[o + 2];
      listed[o + 3] = box[o + 3];
      listed[o + 4] = box[o + 4];
      listed[o + 5] = box[o + 5];
    } else {
      const o = slot * 4;
      listed[o] = box[o];
      listed[o + 1] = box[o + 1];
      listed[o + 2] = box[o + 2];
      listed[o + 3] = box[o + 3];
    }
  }

  /** Takes a removed box out of every region (its pairs end) and out of the big list. */
  private unlist(slot: number): void {
    while (this.firstEntry[slot] >= 0) this.removeEntry(this.firstEntry[slot]);
    if (this.big[slot] === 1) this.setBig(slot, false);
    this.inLists[slot] = 0;
    this.dirtyFlag[slot] = 0;
  }

  private applyMoves(): void {
    if (2 * this.dirtyCount > this.store.count) this.sortDirty();
    if (this.manyChangeCells()) {
      this.rebuild();
      return;
    }
    // Bring every moved box's endpoints to their new places, in every region it is in.
    const passes = this.dirtyCount > this.passShare * this.store.count;
    if (passes) this.moveByPasses();
    else {
      for (let i = 0; i < this.dirtyCount; i++) {
        const slot = this.dirty[i];
        if (this.dirtyFlag[slot] === 1) this.slideBox(slot);
      }
    }
    // Every moved box's new bounds are now listed (after passes, copied here), and the boxes whose cell
    // range changed are collected (in `dirty`'s front, reused); only then are their memberships fixed,
    // since adding an entry counts its pairs with the other boxes as listed.
    const listed = this.listed;
    let changed = 0;
    if (passes && this.dimensions === 3) changed = this.listMovedBounds3();
    else {
      for (let i = 0; i < this.dirtyCount; i++) {
        const slot = this.dirty[i];
        if (this.dirtyFlag[slot] === 0) continue;
        this.dirtyFlag[slot] = 0;
        if (passes) this.copyListed(slot);
        if (this.changesCells(listed, slot)) this.dirty[changed++] = slot;
      }
    }
    for (let i = 0; i < changed; i++) this.updateMemberships(this.dirty[i]);
    this.dirtyCount = 0;
  }

  /**
   * After passes in 3-D: copies every moved box's new bounds into `listed` and collects those whose
   * cell range changed at the front of `dirty`; returns how many. One loop with everything in locals
   * (1.03–1.04× at 20 000 boxes over calling copyListed and changesCells per box).
   */
  private listMovedBounds3(): number {
    const listed = this.listed;
    const box = this.store.bounds;
    const cells = this.cells;
    const dirty = this.dirty;
    const flag = this.dirtyFlag;
    const inverse = this.inverseCell;
    const n = this.dirtyCount;
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const slot = dirty[i];
      if (flag[slot] === 0) continue;
      flag[slot] = 0;
      const o = slot * 6;
      const x0 = box[o];
      const y0 = box[o + 1];
      const z0 = box[o + 2];
      const x1 = box[o + 3];
      const y1 = box[o + 4];
      const z1 = box[o + 5];
      listed[o] = x0;
      listed[o + 1] = y0;
      listed[o + 2] = z0;
      listed[o + 3] = x1;
      listed[o + 4] = y1;
      listed[o + 5] = z1;
      // Branch-free, as in changesCells (-0 === 0).
      const moves =
        (Math.floor(x0 * inverse) !== cells[o] ? 1 : 0) |
        (Math.floor(y0 * inverse) !== cells[o + 1] ? 1 : 0) |
        (Math.floor(z0 * inverse) !== cells[o + 2] ? 1 : 0) |
        (Math.floor(x1 * inverse) !== cells[o + 3] ? 1 : 0) |
        (Math.floor(y1 * inverse) !== cells[o + 4] ? 1 : 0) |
        (Math.floor(z1 * inverse) !== cells[o + 5] ? 1 : 0);
      if (moves !== 0) dirty[changed++] = slot;
    }
    return changed;
  }

  /** Lists the moved boxes in slot order (most boxes moved: one walk over the flags). */
  private sortDirty(): void {
    const flag = this.dirtyFlag;
    const dirty = this.dirty;
    const end = this.store.used;
    let c = 0;
    for (let slot = 0; slot < end; slot++) if (flag[slot] === 1) dirty[c++] = slot;
    this.dirtyCount = c;
  }

  /**
   * Whether more than `rebuildShare` of the boxes change cells in this update (teleports, respawns,
   * fast motion), judged from every 8th moved box. Moving a box to another region costs about as much
   * as re-sorting the whole region, so past that share one bulk rebuild of every region is cheaper.
   */
  private manyChangeCells(): boolean {
    const stride = 8;
    if (this.cellSize === Number.POSITIVE_INFINITY || this.dirtyCount < 2 * stride) return false;
    const box = this.store.bounds;
    let sampled = 0;
    let changing = 0;
    for (let i = 0; i < this.dirtyCount; i += stride) {
      const slot = this.dirty[i];
      if (this.dirtyFlag[slot] === 0) continue;
      sampled++;
      if (this.changesCells(box, slot)) changing++;
    }
    return sampled > 0 && (changing / sampled) * this.dirtyCount > this.rebuildShare * this.store.count;
  }

  /** Whether the box of `slot` in `bounds` (`listed` or the latest) lies in other cells than its entries. */
  private changesCells(bounds: Float64Array, slot: number): boolean {
    const d = this.dimensions;
    const o = slot * 2 * d;
    const inverse = this.inverseCell;
    const cells = this.cells;
    // Branch-free (-0 === 0, so no need for cellOf's + 0 here).
    let changes = 0;
    for (let k = 0; k < d; k++) {
      changes |=
        (Math.floor(bounds[o + k] * inverse) !== cells[o + k] ? 1 : 0) |
        (Math.floor(bounds[o + d + k] * inverse) !== cells[o + d + k] ? 1 : 0);
    }
    return changes !== 0;
  }

  /** Takes every moved box's new bounds and rebuilds all regions in bulk (see {@link regrid}). */
  private rebuild(): void {
    for (let i = 0; i < this.dirtyCount; i++) {
      const slot = this.dirty[i];
      if (this.dirtyFlag[slot] === 0) continue;
      this.dirtyFlag[slot] = 0;
      this.copyListed(slot);
    }
    this.dirtyCount = 0;
    this.regrid();
  }

  /** Bullet's updateHandle for one box: per axis, grow before shrinking so a min never passes its max. */
  private slideBox(slot: number): void {
    const d = this.dimensions;
    const o = slot * 2 * d;
    const box = this.store.bounds;
    const listed = this.listed;
    for (let k = 0; k < d; k++) {
      const newMin = box[o + k];
      const newMax = box[o + d + k];
      const oldMin = listed[o + k];
      const oldMax = listed[o + d + k];
      if (newMin < oldMin) {
        listed[o + k] = newMin;
        this.slideEndpoint(slot, k, 0, true);
      }
      if (newMax > oldMax) {
        listed[o + d + k] = newMax;
        this.slideEndpoint(slot, k, 1, false);
      }
      if (newMin > oldMin) {
        listed[o + k] = newMin;
        this.slideEndpoint(slot, k, 0, false);
      }
      if (newMax < oldMax) {
        listed[o + d + k] = newMax;
        this.slideEndpoint(slot, k, 1, true);
      }
    }
  }

  /**
   * Copies one endpoint's listed value into every region of the box and slides it there. (The value is
   * read here rather than passed in: a double argument to a call that is not inlined gets boxed.)
   */
  private slideEndpoint(slot: number, k: number, isMax: number, down: boolean): void {
    const d2 = 2 * this.dimensions;
    const value = this.listed[slot * d2 + isMax * this.dimensions + k];
    const v = this.arena.values[k];
    for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
      const r = this.entryRegion[e];
      const at = this.where[e * d2 + 2 * k + isMax];
      v[at] = value;
      if (this.regionBulk[r] === 1) continue;
      if (down) this.siftDown(r, k, at);
      else this.siftUp(r, k, at);
    }
  }

  /**
   * Many boxes moved: write all their new values into the lists (one walk over their entries for every
   * axis), then per axis re-sort each touched region with one insertion-sort pass (`listed` takes the
   * new bounds afterwards, in {@link applyMoves}). A swap of two boxes' min and max is then not always
   * an overlap toggle, so each swapped pair's overlap before the pass on axis k (axes below k by the
   * latest bounds, the others as listed) is compared with its overlap after (axis k new too) and the
   * difference applied (see {@link applySwaps}): a pair whose state on this axis changed has exactly
   * one of its min/max orders flipped, and a pair whose two orders both flipped (one box passed right
   * through the other) has not changed state. Insertion sort swaps each inverted couple of endpoints
   * exactly once.
   */
  private moveByPasses(): void {
    const d = this.dimensions;
    let touched = 0;
    if (2 * this.dirtyCount > this.store.count) {
      // Most boxes moved: take every region rather than find the touched ones box by box.
      this.touched = growArray(this.touched, this.regionsUsed);
      for (let r = 0; r < this.regionsUsed; r++) {
        if (this.regionStart[r] >= 0 && this.regionBulk[r] === 0 && this.regionLength[r] > 2)
          this.touched[touched++] = r;
      }
    } else {
      const stamp = ++this.stamp;
      for (let i = 0; i < this.dirtyCount; i++) {
        const slot = this.dirty[i];
        if (this.dirtyFlag[slot] === 0) continue;
        for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
          const r = this.entryRegion[e];
          if (this.regionStamp[r] !== stamp && this.regionBulk[r] === 0) {
            this.regionStamp[r] = stamp;
            if (touched === this.touched.length) this.touched = growArray(this.touched, touched + 1);
            this.touched[touched++] = r;
          }
        }
      }
    }
    this.writeMovedValues();
    const values = this.arena.values;
    for (let k = 0; k < d; k++) {
      const v = values[k];
      const t = this.arena.tokens[k];
      for (let i = 0; i < touched; i++) {
        const r = this.touched[i];
        const first = this.listFirst[3 * r + k];
        const end = first + this.regionLength[r];
        // `prev` is the largest value so far: after a sift it sits at j (the prefix's top moved up one).
        let prev = v[first];
        for (let j = first + 1; j < end; j++) {
          const value = v[j];
          if (prev > value || (prev === value && (t[j - 1] & 1) > (t[j] & 1))) this.siftDownInPass(r, k, j);
          else prev = value;
        }
      }
      this.applySwaps(k);
    }
  }

  /** Every moved endpoint's new value, all axes in one walk over the moved boxes' entries. */
  private writeMovedValues(): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const box = this.store.bounds;
    const where = this.where;
    const values = this.arena.values;
    const v0 = values[0];
    const v1 = values[1];
    const v2 = d === 3 ? values[2] : values[1];
    const dirty = this.dirty;
    const flag = this.dirtyFlag;
    const firstEntry = this.firstEntry;
    const entryNext = this.entryNext;
    for (let i = 0; i < this.dirtyCount; i++) {
      const slot = dirty[i];
      if (flag[slot] === 0) continue;
      const o = slot * d2;
      for (let e = firstEntry[slot]; e >= 0; e = entryNext[e]) {
        const w = e * d2;
        v0[where[w]] = box[o];
        v0[where[w + 1]] = box[o + d];
        v1[where[w + 2]] = box[o + 1];
        v1[where[w + 3]] = box[o + d + 1];
        if (d === 3) {
          v2[where[w + 4]] = box[o + 2];
          v2[where[w + 5]] = box[o + 5];
        }
      }
    }
  }

  /**
   * The swap rule for the min/max swaps recorded by a pass on axis k. Each applies the change in the
   * pair's overlap between before this axis and after; a pair's changes do not depend on the order of
   * its swaps (a pair changes state on this axis by exactly one flip), so testing them after the pass is
   * the same as during it, and the tests, free of the pass's branches, overlap their memory reads.
   */
  private applySwaps(k: number): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const swaps = this.swaps;
    const entryObject = this.entryObject;
    const box = this.store.bounds;
    const l = this.listed;
    const n = this.swapCount;
    // Axes other than k in the pass's state (below k sorted already, above still as listed), from the
    // endpoint positions; most swapped pairs stop here.
    for (let i = 0; i < n; i += 2) {
      if (!this.meetOnOtherAxes(swaps[i], swaps[i + 1], k)) continue;
      const a = entryObject[swaps[i]];
      const b = entryObject[swaps[i + 1]];
      const oa = a * d2;
      const ob = b * d2;
      const before = l[oa + k] <= l[ob + d + k] && l[ob + k] <= l[oa + d + k];
      const after = box[oa + k] <= box[ob + d + k] && box[ob + k] <= box[oa + d + k];
      if (before !== after) {
        if (before) this.pairSet.decrement(a, b);
        else this.pairSet.increment(a, b);
      }
    }
    this.swapCount = 0;
  }

  /** siftDown for {@link moveByPasses}: records each min/max swap for {@link applySwaps}. */
  private siftDownInPass(r: number, k: number, i: number): void {
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const first = this.listFirst[3 * r + k];
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    let j = i;
    while (j > first) {
      const pv = v[j - 1];
      const pt = t[j - 1];
      const pMax = pt & 1;
      if (pv < value || (pv === value && pMax <= isMax)) break;
      if (pMax !== isMax) {
        // Tested after the pass (applySwaps), away from this loop's branches.
        if (this.swapCount === this.swaps.length) this.swaps = growArray(this.swaps, this.swapCount + 2);
        this.swaps[this.swapCount++] = token >> 1;
        this.swaps[this.swapCount++] = pt >> 1;
      }
      v[j] = pv;
      t[j] = pt;
      where[(pt >> 1) * d2 + 2 * k + pMax] = j;
      j--;
    }
    v[j] = value;
    t[j] = token;
    where[(token >> 1) * d2 + 2 * k + isMax] = j;
  }

  /**
   * Moves the endpoint at arena index `i` of region r's axis-k list down to its place, applying the swap
   * rule to each endpoint it passes.
   */
  private siftDown(r: number, k: number, i: number): void {
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const first = this.listFirst[3 * r + k];
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    let j = i;
    while (j > first) {
      const pv = v[j - 1];
      const pt = t[j - 1];
      const pMax = pt & 1;
      if (pv < value || (pv === value && pMax <= isMax)) break;
      // `token` ends up left of `pt`.
      if (pMax !== isMax) this.onSwap(token, pt, k);
      v[j] = pv;
      t[j] = pt;
      where[(pt >> 1) * d2 + 2 * k + pMax] = j;
      j--;
    }
    v[j] = value;
    t[j] = token;
    where[(token >> 1) * d2 + 2 * k + isMax] = j;
  }

  /** Moves the endpoint at arena index `i` of region r's axis-k list up to its place (swap rule on). */
  private siftUp(r: number, k: number, i: number): void {
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const last = this.listFirst[3 * r + k] + this.regionLength[r] - 1;
    const value = v[i];
    const token = t[i];
    const isMax = token & 1;
    let j = i;
    while (j < last) {
      const nv = v[j + 1];
      const nt = t[j + 1];
      const nMax = nt & 1;
      if (value < nv || (value === nv && isMax <= nMax)) break;
      // `nt` ends up left of `token`.
      if (nMax !== isMax) this.onSwap(nt, token, k);
      v[j] = nv;
      t[j] = nt;
      where[(nt >> 1) * d2 + 2 * k + nMax] = j;
      j++;
    }
    v[j] = value;
    t[j] = token;
    where[(token >> 1) * d2 + 2 * k + isMax] = j;
  }

  /** The swap rule: endpoint `left` now lies left of `right` on axis k; one is a min, one a max. */
  private onSwap(left: number, right: number, k: number): void {
    if (!this.meetOnOtherAxes(left >> 1, right >> 1, k)) return;
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

  /**
   * Whether entries ea and eb (of one region) overlap on every axis but `skip`, read from their
   * endpoints' positions in the region's sorted lists: inclusive overlap on an axis is "each min lies
   * before the other's max" (at equal values a min is listed first). The positions are one small record
   * per entry, where the bounds would be a record per box elsewhere in memory.
   */
  private meetOnOtherAxes(ea: number, eb: number, skip: number): boolean {
    const where = this.where;
    const d = this.dimensions;
    const wa = ea * 2 * d;
    const wb = eb * 2 * d;
    for (let k = 0; k < d; k++) {
      if (
        k !== skip &&
        (where[wa + 2 * k] > where[wb + 2 * k + 1] || where[wb + 2 * k] > where[wa + 2 * k + 1])
      )
        return false;
    }
    return true;
  }

  /** Whether the listed boxes of slots a and b overlap on every axis (inclusive). */
  private overlaps(a: number, b: number): boolean {
    const l = this.listed;
    const d = this.dimensions;
    const oa = a * 2 * d;
    const ob = b * 2 * d;
    for (let k = 0; k < d; k++) {
      if (l[oa + k] > l[ob + d + k] || l[ob + k] > l[oa + d + k]) return false;
    }
    return true;
  }

  // --- cells and memberships ----------------------------------------------------------------------

  private cellOf(x: number): number {
    // + 0 turns -0 into 0, so one cell has one key.
    return Math.floor(x * this.inverseCell) + 0;
  }

  /**
   * The cell of coordinate x clipped to one past the grid's range (x · inverseCell may be huge or
   * ±Infinity): a query loops over at most the cells the grid can hold.
   */
  private gridCell(x: number): number {
    const c = this.cellOf(x);
    return c < -GRID_CELL_LIMIT ? -GRID_CELL_LIMIT - 1 : c > GRID_CELL_LIMIT ? GRID_CELL_LIMIT + 1 : c;
  }

  /**
   * Brings a box's entries in line with its listed bounds: one entry per cell of its cell range (a
   * small box), or the global region plus every existing cell it overlaps (a big box). Entries are
   * added before stale ones are removed, so a pair still met elsewhere never ends on the way.
   */
  private updateMemberships(slot: number): void {
    const d = this.dimensions;
    const o = slot * 2 * d;
    let span = 1;
    // Outside: past the grid's range on some axis (then big); reaches: overlaps that range on all.
    let outside = false;
    let reaches = true;
    for (let k = 0; k < d; k++) {
      // Unclipped (huge or ±Infinity far away): a far box that moves a little still changes cells.
      const lo = this.cellOf(this.listed[o + k]);
      const hi = this.cellOf(this.listed[o + d + k]);
      this.cells[o + k] = lo;
      this.cells[o + d + k] = hi;
      if (lo < -GRID_CELL_LIMIT || hi > GRID_CELL_LIMIT) outside = true;
      if (hi < -GRID_CELL_LIMIT || lo > GRID_CELL_LIMIT) reaches = false;
      span *= hi - lo + 1;
    }
    const isBig = outside || span > this.maxCellsPerObject;
    if (isBig !== (this.big[slot] === 1)) this.setBig(slot, isBig);
    const stamp = ++this.stamp;
    if (isBig) {
      this.keepEntry(slot, GLOBAL, stamp);
      // Every cell region still in the grid — one emptied during this update too: a small box may
      // return to it before it is released, and must meet the big boxes there.
      if (reaches) {
        for (let r = 1; r < this.regionsUsed; r++) {
          if (this.regionStart[r] >= 0 && this.cellInRange(r, slot)) this.keepEntry(slot, r, stamp);
        }
      }
    } else {
      const c = this.cells;
      const z0 = d === 3 ? c[o + 2] : 0;
      const z1 = d === 3 ? c[o + 5] : 0;
      for (let x = c[o]; x <= c[o + d]; x++) {
        for (let y = c[o + 1]; y <= c[o + d + 1]; y++) {
          for (let z = z0; z <= z1; z++) {
            let r = this.grid.get(x, y, z);
            if (r < 0) r = this.createRegion(x, y, z);
            this.keepEntry(slot, r, stamp);
          }
        }
      }
    }
    let e = this.firstEntry[slot];
    while (e >= 0) {
      const next = this.entryNext[e];
      if (this.entryStamp[e] !== stamp) this.removeEntry(e);
      e = next;
    }
  }

  /** Stamps the box's entry in region r, adding it if the box has none there. */
  private keepEntry(slot: number, r: number, stamp: number): void {
    for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
      if (this.entryRegion[e] === r) {
        this.entryStamp[e] = stamp;
        return;
      }
    }
    // Not `this.entryStamp[this.addEntry(...)]`: addEntry may replace the array while growing it.
    const e = this.addEntry(slot, r);
    this.entryStamp[e] = stamp;
  }

  private cellInRange(r: number, slot: number): boolean {
    const d = this.dimensions;
    const o = slot * 2 * d;
    for (let k = 0; k < d; k++) {
      const c = this.regionCell[3 * r + k];
      if (c < this.cells[o + k] || c > this.cells[o + d + k]) return false;
    }
    return true;
  }

  private setBig(slot: number, isBig: boolean): void {
    for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
      const r = this.entryRegion[e];
      this.regionSmall[r] += isBig ? -1 : 1;
      if (this.regionSmall[r] === 0 && r !== GLOBAL) this.markEmptied(r);
    }
    if (isBig) {
      this.bigSlots = growArray(this.bigSlots, this.bigCount + 1);
      this.bigSlots[this.bigCount++] = slot;
      this.big[slot] = 1;
    } else {
      for (let i = 0; i < this.bigCount; i++) {
        if (this.bigSlots[i] === slot) {
          this.bigSlots[i] = this.bigSlots[--this.bigCount];
          break;
        }
      }
      this.big[slot] = 0;
    }
  }

  private markEmptied(r: number): void {
    if (this.emptiedCount === this.emptied.length)
      this.emptied = growArray(this.emptied, this.emptiedCount + 1);
    this.emptied[this.emptiedCount++] = r;
  }

  /** A fresh region with an empty block of the smallest size class. */
  private newRegion(): number {
    let r: number;
    if (this.freeRegionCount > 0) r = this.freeRegions[--this.freeRegionCount];
    else {
      r = this.regionsUsed++;
      if (r === this.regionStart.length) {
        const n = r + 1;
        this.regionStart = growArray(this.regionStart, n);
        this.listFirst = growArray(this.listFirst, 3 * n);
        this.regionClass = growArray(this.regionClass, n);
        this.regionLength = growArray(this.regionLength, n);
        this.regionCell = growArray(this.regionCell, 3 * n);
        this.regionBulk = growArray(this.regionBulk, n);
        this.regionSmall = growArray(this.regionSmall, n);
        this.regionStamp = growArray(this.regionStamp, n);
      }
    }
    this.regionClass[r] = 0;
    this.regionStart[r] = this.arena.allocate(0);
    for (let k = 0; k < 3; k++)
      this.listFirst[3 * r + k] = this.regionStart[r] + (EndpointArena.blockSize(0) >> 1);
    this.regionLength[r] = 0;
    this.regionBulk[r] = 0;
    this.regionSmall[r] = 0;
    this.regionStamp[r] = 0;
    return r;
  }

  /** A region for a new cell; the big boxes that overlap the cell join it. */
  private createRegion(x: number, y: number, z: number): number {
    const r = this.newRegion();
    this.regionCell[3 * r] = x;
    this.regionCell[3 * r + 1] = y;
    this.regionCell[3 * r + 2] = z;
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
  private releaseEmptiedRegions(): void {
    for (let i = 0; i < this.emptiedCount; i++) {
      const r = this.emptied[i];
      if (this.regionSmall[r] > 0 || r === GLOBAL) continue;
      const x = this.regionCell[3 * r];
      const y = this.regionCell[3 * r + 1];
      const z = this.regionCell[3 * r + 2];
      if (this.grid.get(x, y, z) !== r) continue;
      while (this.regionLength[r] > 0) this.removeEntry(this.arena.tokens[0][this.listFirst[3 * r]] >> 1);
      this.grid.delete(x, y, z);
      this.arena.release(this.regionStart[r], this.regionClass[r]);
      this.regionStart[r] = -1;
      this.freeRegions = growArray(this.freeRegions, this.freeRegionCount + 1);
      this.freeRegions[this.freeRegionCount++] = r;
    }
    this.emptiedCount = 0;
  }

  /** Makes room for `endpoints` in region r's block, moving it to a larger block if needed. */
  private reserve(r: number, endpoints: number): void {
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

  /** Moves region r's axis-k list to start at arena index `to` (its block, or a new one). */
  private moveList(r: number, k: number, to: number): void {
    const from = this.listFirst[3 * r + k];
    if (from === to) return;
    const n = this.regionLength[r];
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const d2 = 2 * this.dimensions;
    v.copyWithin(to, from, from + n);
    t.copyWithin(to, from, from + n);
    for (let i = to; i < to + n; i++) this.where[(t[i] >> 1) * d2 + 2 * k + (t[i] & 1)] = i;
    this.listFirst[3 * r + k] = to;
  }

  /**
   * Adds a box to region r: appended unsorted when the region is being filled from empty (its
   * sort-and-sweep at the end of the update finds the pairs), otherwise slid into place on every axis
   * and counted with every box of the region it overlaps.
   */
  private addEntry(slot: number, r: number): number {
    const e = this.newEntry(slot, r);
    if (this.big[slot] === 0) this.regionSmall[r]++;
    const d = this.dimensions;
    const o = slot * 2 * d;
    const n = this.regionLength[r];
    this.reserve(r, n + 2);
    if (this.regionBulk[r] === 1 || n === 0) {
      const end = this.regionStart[r] + EndpointArena.blockSize(this.regionClass[r]);
      for (let k = 0; k < d; k++) {
        if (this.listFirst[3 * r + k] + n + 2 > end) this.moveList(r, k, this.regionStart[r]);
        const at = this.listFirst[3 * r + k] + n;
        const v = this.arena.values[k];
        const t = this.arena.tokens[k];
        v[at] = this.listed[o + k];
        t[at] = e << 1;
        v[at + 1] = this.listed[o + d + k];
        t[at + 1] = (e << 1) | 1;
        this.where[e * 2 * d + 2 * k] = at;
        this.where[e * 2 * d + 2 * k + 1] = at + 1;
      }
      this.regionLength[r] = n + 2;
      if (this.regionBulk[r] === 0) {
        this.regionBulk[r] = 1;
        this.bulkRegions = growArray(this.bulkRegions, this.bulkCount + 1);
        this.bulkRegions[this.bulkCount++] = r;
      }
      return e;
    }
    for (let k = 0; k < d; k++) this.insertEndpoints(r, k, e, slot);
    this.regionLength[r] = n + 2;
    this.countPartners(r, e, slot, 1);
    return e;
  }

  /**
   * Puts entry e's min and max (box `slot` as listed) at their places in region r's sorted axis-k
   * list: both places found by binary search, then the shorter side of the list moves out of the way
   * (the endpoints above the places up, or those below down), each endpoint once. (The values are read
   * here rather than passed in: a double argument to a call that is not inlined gets boxed.)
   */
  private insertEndpoints(r: number, k: number, e: number, slot: number): void {
    const d = this.dimensions;
    const low = this.listed[slot * 2 * d + k];
    const high = this.listed[slot * 2 * d + d + k];
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const n = this.regionLength[r];
    const blockStart = this.regionStart[r];
    const blockEnd = blockStart + EndpointArena.blockSize(this.regionClass[r]);
    let first = this.listFirst[3 * r + k];
    if (first - 2 < blockStart && first + n + 2 > blockEnd) {
      // No room on either side: re-centre (the block has room for four more, see reserve).
      this.moveList(r, k, blockStart + ((blockEnd - blockStart - n) >> 1));
      first = this.listFirst[3 * r + k];
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
        where[(token >> 1) * d2 + 2 * k + (token & 1)] = i + 2;
      }
      for (let i = hi - 1; i >= lo; i--) {
        const token = t[i];
        v[i + 1] = v[i];
        t[i + 1] = token;
        where[(token >> 1) * d2 + 2 * k + (token & 1)] = i + 1;
      }
      minAt = lo;
      maxAt = hi + 1;
    } else {
      for (let i = first; i < lo; i++) {
        const token = t[i];
        v[i - 2] = v[i];
        t[i - 2] = token;
        where[(token >> 1) * d2 + 2 * k + (token & 1)] = i - 2;
      }
      for (let i = lo; i < hi; i++) {
        const token = t[i];
        v[i - 1] = v[i];
        t[i - 1] = token;
        where[(token >> 1) * d2 + 2 * k + (token & 1)] = i - 1;
      }
      this.listFirst[3 * r + k] = first - 2;
      minAt = lo - 2;
      maxAt = hi - 1;
    }
    v[minAt] = low;
    t[minAt] = e << 1;
    where[e * d2 + 2 * k] = minAt;
    v[maxAt] = high;
    t[maxAt] = (e << 1) | 1;
    where[e * d2 + 2 * k + 1] = maxAt;
  }

  /** Removes an entry: uncounts its pairs in the region (unless still unswept) and drops its endpoints. */
  private removeEntry(e: number): void {
    const r = this.entryRegion[e];
    const slot = this.entryObject[e];
    if (this.regionBulk[r] === 0) this.countPartners(r, e, slot, -1);
    const d = this.dimensions;
    const where = this.where;
    for (let k = 0; k < d; k++) {
      const v = this.arena.values[k];
      const t = this.arena.tokens[k];
      const first = this.listFirst[3 * r + k];
      const end = first + this.regionLength[r];
      const a = where[e * 2 * d + 2 * k];
      const b = where[e * 2 * d + 2 * k + 1];
      // Close the two holes from the shorter side.
      if (end - a <= b - first) {
        for (let i = a + 1; i < end; i++) {
          if (i === b) continue;
          const to = i < b ? i - 1 : i - 2;
          v[to] = v[i];
          const token = t[i];
          t[to] = token;
          where[(token >> 1) * 2 * d + 2 * k + (token & 1)] = to;
        }
      } else {
        for (let i = b - 1; i >= first; i--) {
          if (i === a) continue;
          const to = i > a ? i + 1 : i + 2;
          v[to] = v[i];
          const token = t[i];
          t[to] = token;
          where[(token >> 1) * 2 * d + 2 * k + (token & 1)] = to;
        }
        this.listFirst[3 * r + k] = first + 2;
      }
    }
    this.regionLength[r] -= 2;
    if (this.big[slot] === 0 && --this.regionSmall[r] === 0 && r !== GLOBAL) this.markEmptied(r);
    // Unlink from the box's entry list.
    let prev = -1;
    for (let x = this.firstEntry[slot]; x >= 0; x = this.entryNext[x]) {
      if (x === e) {
        if (prev < 0) this.firstEntry[slot] = this.entryNext[e];
        else this.entryNext[prev] = this.entryNext[e];
        break;
      }
      prev = x;
    }
    this.freeEntries = growArray(this.freeEntries, this.freeEntryCount + 1);
    this.freeEntries[this.freeEntryCount++] = e;
  }

  /**
   * Adds `delta` to the count of every pair of `slot` (entry e) with another box of region r it
   * overlaps. Each axis's list is sorted, so box B overlaps e on axis k exactly when B's max lies right
   * of e's min and B's min lies left of e's max: either the max tokens right of e's min are looked at,
   * or the min tokens left of e's max, whichever of the six (two per axis) is the shortest stretch;
   * only boxes that pass on that axis are tested on the others.
   */
  private countPartners(r: number, e: number, slot: number, delta: number): void {
    const where = this.where;
    const d = this.dimensions;
    const d2 = 2 * d;
    const n = this.regionLength[r];
    // The shortest stretch: `right` scans (eMin, end), `!right` scans [first, eMax).
    let axis = 0;
    let right = true;
    let shortest = n;
    for (let k = 0; k < d; k++) {
      const first = this.listFirst[3 * r + k];
      const toEnd = first + n - where[e * d2 + 2 * k] - 1;
      const fromFirst = where[e * d2 + 2 * k + 1] - first;
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
    const first = this.listFirst[3 * r + axis];
    const eMin = where[e * d2 + 2 * axis];
    const eMax = where[e * d2 + 2 * axis + 1];
    const from = right ? eMin + 1 : first;
    const to = right ? first + n : eMax;
    // The kind of token looked at (max to the right, min to the left) and the far end it must pass.
    const kind = right ? 1 : 0;
    for (let i = from; i < to; i++) {
      const token = t[i];
      if ((token & 1) !== kind || token >> 1 === e) continue;
      const other = where[(token >> 1) * d2 + 2 * axis + (1 - kind)];
      if (right ? other > eMax : other < eMin) continue;
      if (this.meetOnOtherAxes(e, token >> 1, axis)) {
        const b = this.entryObject[token >> 1];
        if (delta > 0) this.pairSet.increment(slot, b);
        else this.pairSet.decrement(slot, b);
      }
    }
  }

  private newEntry(slot: number, r: number): number {
    let e: number;
    if (this.freeEntryCount > 0) e = this.freeEntries[--this.freeEntryCount];
    else {
      e = this.entriesUsed++;
      if (e >= this.entryObject.length) {
        const n = e + 1;
        this.entryObject = growArray(this.entryObject, n);
        this.entryRegion = growArray(this.entryRegion, n);
        this.entryNext = growArray(this.entryNext, n);
        this.entryStamp = growArray(this.entryStamp, n);
        this.activeIndex = growArray(this.activeIndex, n);
        this.where = growArray(this.where, n * 2 * this.dimensions);
      }
    }
    this.entriesMade++;
    this.entryObject[e] = slot;
    this.entryRegion[e] = r;
    this.entryStamp[e] = 0;
    this.entryNext[e] = this.firstEntry[slot];
    this.firstEntry[slot] = e;
    return e;
  }

  /**
   * Renumbers the entries in slot order, each box's entries side by side. Entries made as boxes change
   * cells take freed numbers, scattered; the walk that writes the moved boxes' new values goes in slot
   * order and reads each entry's endpoint positions, so it reads them in order again. Done once as
   * many entries were made since as a quarter of the boxes (and at least 4096): O(entries +
   * endpoints), and no allocation once the spare arrays have grown.
   */
  private renumberEntries(): void {
    this.entriesMade = 0;
    const d = this.dimensions;
    const d2 = 2 * d;
    const map = this.activeIndex;
    const n = this.entryObject.length;
    if (this.spareObject.length !== n) {
      this.spareObject = new Int32Array(n);
      this.spareRegion = new Int32Array(n);
      this.spareNext = new Int32Array(n);
      this.spareStamp = new Int32Array(n);
      this.spareWhere = new Int32Array(n * d2);
    }
    const object = this.spareObject;
    const region = this.spareRegion;
    const next = this.spareNext;
    const stamp = this.spareStamp;
    const where = this.spareWhere;
    let live = 0;
    for (let slot = 0; slot < this.store.used; slot++) {
      let e = this.firstEntry[slot];
      if (e < 0) continue;
      this.firstEntry[slot] = live;
      while (e >= 0) {
        const to = live++;
        map[e] = to;
        object[to] = slot;
        region[to] = this.entryRegion[e];
        stamp[to] = this.entryStamp[e];
        const after = this.entryNext[e];
        next[to] = after < 0 ? -1 : live; // the box's next entry is numbered next
        for (let j = 0; j < d2; j++) where[to * d2 + j] = this.where[e * d2 + j];
        e = after;
      }
    }
    for (let k = 0; k < d; k++) {
      const t = this.arena.tokens[k];
      for (let r = 0; r < this.regionsUsed; r++) {
        if (this.regionStart[r] < 0) continue;
        const first = this.listFirst[3 * r + k];
        const end = first + this.regionLength[r];
        for (let i = first; i < end; i++) t[i] = (map[t[i] >> 1] << 1) | (t[i] & 1);
      }
    }
    this.spareObject = this.entryObject;
    this.spareRegion = this.entryRegion;
    this.spareNext = this.entryNext;
    this.spareStamp = this.entryStamp;
    this.spareWhere = this.where;
    this.entryObject = object;
    this.entryRegion = region;
    this.entryNext = next;
    this.entryStamp = stamp;
    this.where = where;
    this.entriesUsed = live;
    this.freeEntryCount = 0;
  }

  /** A region filled from empty: sort each axis once, then find its pairs with one sweep. */
  private sortAndSweep(r: number): void {
    this.regionBulk[r] = 0;
    const d = this.dimensions;
    for (let k = 0; k < d; k++) {
      const first = this.listFirst[3 * r + k];
      const last = first + this.regionLength[r] - 1;
      const t = this.arena.tokens[k];
      sortEndpoints(this.arena.values[k], t, first, last);
      for (let i = first; i <= last; i++) this.where[(t[i] >> 1) * 2 * d + 2 * k + (t[i] & 1)] = i;
    }
    this.sweep(r, this.widestAxis(r));
  }

  /** The axis along which a region's boxes spread most relative to their sizes (fewest false overlaps). */
  private widestAxis(r: number): number {
    let best = 0;
    let bestScore = -1;
    for (let k = 0; k < this.dimensions; k++) {
      const first = this.listFirst[3 * r + k];
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

  /** Sweeps region r's sorted axis-k list and counts every overlapping pair (one-axis SAP). */
  private sweep(r: number, k: number): void {
    const t = this.arena.tokens[k];
    this.active = growArray(this.active, this.regionLength[r] >> 1);
    const active = this.active;
    const index = this.activeIndex;
    const end = this.listFirst[3 * r + k] + this.regionLength[r];
    let open = 0;
    for (let i = this.listFirst[3 * r + k]; i < end; i++) {
      const token = t[i];
      const e = token >> 1;
      if ((token & 1) === 0) {
        const slot = this.entryObject[e];
        for (let j = 0; j < open; j++) {
          if (this.meetOnOtherAxes(e, active[j], k))
            this.pairSet.increment(slot, this.entryObject[active[j]]);
        }
        index[e] = open;
        active[open++] = e;
      } else {
        const at = index[e];
        const last = active[--open];
        active[at] = last;
        index[last] = at;
      }
    }
  }

  /**
   * The cell edge for the boxes as they are: large enough that a typical box lies in one cell (four
   * times the largest mean extent), and near the edge of a cube holding `objectsPerCell` boxes at the
   * scene's mean density.
   */
  private chooseCellSize(): number {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.store.bounds;
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    const extent = [0, 0, 0];
    let n = 0;
    for (let slot = 0; slot < this.store.used; slot++) {
      if (this.store.alive[slot] === 0) continue;
      n++;
      for (let k = 0; k < d; k++) {
        const a = b[slot * s + k];
        const c = b[slot * s + d + k];
        extent[k] += c - a;
        const mid = 0.5 * (a + c);
        if (mid < lo[k]) lo[k] = mid;
        if (mid > hi[k]) hi[k] = mid;
      }
    }
    let volume = 1;
    let largest = 0;
    for (let k = 0; k < d; k++) {
      const mean = extent[k] / n;
      largest = Math.max(largest, mean);
      volume *= Math.max(hi[k] - lo[k], mean);
    }
    const size = Math.max(4 * largest, ((this.objectsPerCell * volume) / n) ** (1 / d));
    // Infinite (a box near the double range) or so small that 1 / size overflows: one region.
    return Number.isFinite(size) && Number.isFinite(1 / size) ? size : Number.POSITIVE_INFINITY;
  }

  /** Rebuilds every region for the current cell size; all pairs are counted afresh by the sweeps. */
  private regrid(): void {
    this.pairSet.markAllAbsent();
    this.grid.clear();
    this.arena.clear();
    this.regionsUsed = 0;
    this.freeRegionCount = 0;
    this.newRegion();
    this.bulkCount = 0;
    this.emptiedCount = 0;
    this.freeEntryCount = 0;
    this.entriesUsed = 0;
    this.bigCount = 0;
    for (let slot = 0; slot < this.store.used; slot++) {
      this.firstEntry[slot] = -1;
      this.big[slot] = 0;
    }
    for (let slot = 0; slot < this.store.used; slot++) {
      if (this.inLists[slot] === 1) this.updateMemberships(slot);
    }
    // Made in slot order just now: nothing to renumber.
    this.entriesMade = 0;
  }

  /**
   * Checks every invariant and throws on the first broken one: each region's lists sorted by
   * (value, isMax) with correct positions and values; each box in exactly the regions its bounds call
   * for; each pair counted once per shared region where the boxes overlap, and every overlapping pair
   * present. O(n²); for tests and debugging (or pass `validate: true` to the constructor).
   */
  validate(): void {
    const d = this.dimensions;
    const s = 2 * d;
    const freeRegions = new Set(this.freeRegions.subarray(0, this.freeRegionCount));
    for (let r = 0; r < this.regionsUsed; r++) {
      if (freeRegions.has(r)) continue;
      if (this.regionBulk[r] === 1) throw new Error(`SAP: region ${r} left unswept`);
      let small = 0;
      for (let k = 0; k < d; k++) {
        const first = this.listFirst[3 * r + k];
        const end = first + this.regionLength[r];
        const blockStart = this.regionStart[r];
        if (first < blockStart || end > blockStart + EndpointArena.blockSize(this.regionClass[r]))
          throw new Error(`SAP: region ${r} axis ${k} overflows its block`);
        const v = this.arena.values[k];
        const t = this.arena.tokens[k];
        for (let i = first; i < end; i++) {
          const e = t[i] >> 1;
          const isMax = t[i] & 1;
          if (this.entryRegion[e] !== r)
            throw new Error(`SAP: region ${r} holds entry ${e} of region ${this.entryRegion[e]}`);
          const slot = this.entryObject[e];
          if (this.inLists[slot] !== 1)
            throw new Error(`SAP: region ${r} holds box ${slot}, which is not listed`);
          if (this.where[e * s + 2 * k + isMax] !== i)
            throw new Error(`SAP: region ${r} axis ${k} position ${i - first} is stale`);
          if (v[i] !== this.listed[slot * s + isMax * d + k])
            throw new Error(`SAP: region ${r} axis ${k} value ${i - first} is stale`);
          if (i > first && (v[i - 1] > v[i] || (v[i - 1] === v[i] && (t[i - 1] & 1) > isMax))) {
            throw new Error(`SAP: region ${r} axis ${k} is not sorted at ${i - first}`);
          }
          if (k === 0 && isMax === 0 && this.big[slot] === 0) small++;
        }
      }
      if (small !== this.regionSmall[r])
        throw new Error(`SAP: region ${r} counts ${this.regionSmall[r]} small boxes, holds ${small}`);
    }
    const regionsOf = (slot: number): number[] => {
      const out: number[] = [];
      for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) out.push(this.entryRegion[e]);
      return out.sort((a, b) => a - b);
    };
    const listedSlots: number[] = [];
    for (let slot = 0; slot < this.store.used; slot++) {
      if (this.inLists[slot] !== 1) {
        if (this.firstEntry[slot] >= 0) throw new Error(`SAP: unlisted box ${slot} has entries`);
        continue;
      }
      listedSlots.push(slot);
      const mine = regionsOf(slot);
      if (new Set(mine).size !== mine.length) throw new Error(`SAP: box ${slot} is twice in one region`);
      for (const r of mine) {
        if (r === GLOBAL) continue;
        const c = this.regionCell;
        if (this.grid.get(c[3 * r], c[3 * r + 1], c[3 * r + 2]) !== r)
          throw new Error(`SAP: region ${r} is not in the grid`);
        if (!this.cellInRange(r, slot))
          throw new Error(`SAP: box ${slot} is in region ${r} outside its cells`);
      }
      if (this.big[slot] === 1 && !mine.includes(GLOBAL))
        throw new Error(`SAP: big box ${slot} is not global`);
      if (this.big[slot] === 0 && mine.includes(GLOBAL)) throw new Error(`SAP: small box ${slot} is global`);
    }
    this.pairSet.check();
    let expected = 0;
    for (let i = 0; i < listedSlots.length; i++) {
      const a = listedSlots[i];
      const ra = regionsOf(a);
      for (let j = i + 1; j < listedSlots.length; j++) {
        const b = listedSlots[j];
        const overlap = this.overlaps(a, b);
        const shared = overlap ? regionsOf(b).filter((r) => ra.includes(r)).length : 0;
        if (overlap && shared === 0) throw new Error(`SAP: overlapping boxes ${a} and ${b} share no region`);
        if (this.pairSet.countOf(a, b) !== shared) {
          throw new Error(
            `SAP: pair (${a}, ${b}) counted ${this.pairSet.countOf(a, b)} times, expected ${shared}`,
          );
        }
        if (overlap) expected++;
      }
    }
    if (expected !== this.pairSet.count)
      throw new Error(`SAP: ${this.pairSet.count} pairs, expected ${expected}`);
  }

  protected grow(capacity: number): void {
    const d = this.dimensions;
    this.listed = growArray(this.listed, 2 * d * capacity);
    this.cells = growArray(this.cells, 2 * d * capacity);
    this.inLists = growArray(this.inLists, capacity);
    this.big = growArray(this.big, capacity);
    const first = growArray(this.firstEntry, capacity);
    first.fill(-1, this.firstEntry.length);
    this.firstEntry = first;
    this.dirty = growArray(this.dirty, capacity);
    this.dirtyFlag = growArray(this.dirtyFlag, capacity);
    this.inserted = growArray(this.inserted, capacity);
    this.removed = growArray(this.removed, capacity);
    this.queryStamp = growArray(this.queryStamp, capacity);
  }
}

const sortStack = new Int32Array(128);

/** Sorts endpoints `[first, last]` by (value, isMax) in place: quicksort, insertion sort for short runs. */
function sortEndpoints(v: Float64Array, t: Int32Array, first: number, last: number): void {
  let top = 0;
  sortStack[top++] = first;
  sortStack[top++] = last;
  while (top > 0) {
    let hi = sortStack[--top];
    let lo = sortStack[--top];
    while (hi - lo > 24) {
      const mid = (lo + hi) >>> 1;
      // Median of three as pivot.
      const a = v[lo];
      const b = v[mid];
      const c = v[hi];
      const m = a < b ? (b < c ? mid : a < c ? hi : lo) : a < c ? lo : b < c ? hi : mid;
      const pv = v[m];
      const pf = t[m] & 1;
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (v[i] < pv || (v[i] === pv && (t[i] & 1) < pf)) i++;
        while (v[j] > pv || (v[j] === pv && (t[j] & 1) > pf)) j--;
        if (i <= j) {
          const tv = v[i];
          v[i] = v[j];
          v[j] = tv;
          const tt = t[i];
          t[i] = t[j];
          t[j] = tt;
          i++;
          j--;
        }
      }
      // Loop on the smaller side, push the larger: the stack stays under 2·log2(n) entries.
      if (j - lo < hi - i) {
        sortStack[top++] = i;
        sortStack[top++] = hi;
        hi = j;
      } else {
        sortStack[top++] = lo;
        sortStack[top++] = j;
        lo = i;
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const value = v[i];
      const token = t[i];
      const f = token & 1;
      let j = i - 1;
      while (j >= lo && (v[j] > value || (v[j] === value && (t[j] & 1) > f))) {
        v[j + 1] = v[j];
        t[j + 1] = t[j];
        j--;
      }
      v[j + 1] = value;
      t[j + 1] = token;
    }
  }
}
