/**
 * The data of `SweepAndPrune`, in one place: every typed array of the structure, what it holds, and
 * how it grows — the counterpart of Box2D v3's `b2BroadPhase` struct. The behaviour is added in layers,
 * one concept per file, each a subclass of the one before:
 *
 *     SapState (this file: the data)
 *       → SapRegions     (regions.ts: the grid, its cells and their regions)
 *       → SapLists       (endpointLists.ts: sorted endpoint lists, the one sift, sweeps, the swap rule)
 *       → SapEntries     (entries.ts: a box's entries, memberships, renumbering)
 *       → SapCrossings   (crossings.ts: cell crossings applied region by region in a busy update)
 *       → SapKernel      (kernel.ts: a busy update's passes in WebAssembly, kernelHeap.ts its memory)
 *       → SapPasses      (passes.ts: how an update moves boxes)
 *       → SapQueries     (queries.ts: queryBounds)
 *       → SapInvariants  (invariants.ts: the checks behind the `validate` option)
 *       → SweepAndPrune  (SweepAndPrune.ts: the public class, `update()`)
 *
 * so every method reads the arrays as fields of one object, as the single class did (no extra
 * indirection on the hot paths). Record layouts (tokens, endpoint positions, list starts) are in layout.ts.
 *
 * Data layout (structure of arrays, no object per region or entry): `listed` holds each box's bounds
 * as the lists hold them; entries (one per box per region) have `entryObject`, `entryRegion`,
 * `entryNext` (the box's list of entries) and `where` (the arena index of each endpoint); a region owns
 * a block of the endpoint arena (endpointArena.ts, from `regionStart`) in which each axis's list
 * `[listFirst, listFirst + regionLength)` floats with room on both sides. The per-axis `values[k]`
 * (Float64Array) and `tokens[k]` (Int32Array) are sorted by (value, isMax).
 */
import { growArray } from '../../growArray.js';
import { PairedBroadphase } from '../pairedBroadphase.js';
import { checkOptions } from '../proxies.js';
import { CellGrid } from './cellGrid.js';
import { EndpointArena } from './endpointArena.js';
import { readSapOptions, type SweepAndPruneOptions } from './options.js';

/** Every array of the sweep and prune; the layers above add the behaviour. */
export abstract class SapState extends PairedBroadphase {
  /**
   * The class its errors name (`SweepAndPrune.move: …`): a subclass that serves another public class
   * names that one instead.
   * @internal
   */
  protected static readonly errorName: string = 'SweepAndPrune';
  /** The `validate` option: check every invariant after each update. */
  protected readonly validateEachUpdate: boolean;
  /** Whether the cell size is chosen from the boxes (`cellSize: 'auto'`). */
  protected readonly autoGrid: boolean;
  /** Boxes that make the automatic grid be chosen. */
  protected readonly autoGridThreshold: number;
  /** About how many boxes an automatic cell should hold. */
  protected readonly objectsPerCell: number;
  /** A box overlapping more cells than this is big. */
  protected readonly maxCellsPerObject: number;
  /** Share of moved boxes past which an update sorts by passes. */
  protected readonly passShare: number;
  /** Share of boxes changing cells past which an update rebuilds every region. */
  protected readonly rebuildShare: number;
  /** Current cell edge (Infinity: one cell). */
  protected cellSize: number;
  /** 1 / cellSize: cells are found by a multiplication (every cell lookup uses the same one). */
  protected inverseCell: number;

  // Per box (slot).
  /** Each box's bounds as the lists hold them (2·D numbers per slot, mins then maxes). */
  protected listed: Float64Array;
  /** Cell range per box: lowest cell index per axis, then highest. */
  protected cells: Float64Array;
  /** 1 while the box is in the lists (inserted and brought in by an update, not removed). */
  protected inLists: Uint8Array;
  /** 1 while the box is big (in the global region). */
  protected big: Uint8Array;
  /**
   * 1 while the box is listed as static: the flag its pair counts were made with (the store's
   * `statics` holds the latest one; a change is applied at the next update). Two static boxes are
   * never counted: their endpoints' swaps are not even recorded.
   */
  protected fixed: Uint8Array;
  /** Listed static boxes (while 0, no static test is made anywhere). */
  protected fixedCount = 0;
  /** Listed boxes whose static flag changed since the last update (`flipQueued` marks them). */
  protected flipped: Int32Array;
  /** 1 while the box is in `flipped`. */
  protected flipQueued: Uint8Array;
  /** Boxes in `flipped`. */
  protected flippedCount = 0;
  /** The box's first entry (-1: none); the rest follow through `entryNext`. */
  protected firstEntry: Int32Array;
  /** Boxes moved since the last update (`dirtyFlag` marks them). */
  protected dirty: Int32Array;
  /** 1 while the box is in `dirty`. */
  protected dirtyFlag: Uint8Array;
  /** Boxes in `dirty`. */
  protected dirtyCount = 0;
  /** Slots inserted since the last update. */
  protected inserted: Int32Array;
  /** Slots in `inserted`. */
  protected insertedCount = 0;
  /** Listed slots removed since the last update. */
  protected removed: Int32Array;
  /** Slots in `removed`. */
  protected removedCount = 0;
  /** The big boxes' slots. */
  protected bigSlots = new Int32Array(16);
  /** Slots in `bigSlots`. */
  protected bigCount = 0;
  /** Stamps a box as reported by the current query. */
  protected queryStamp: Int32Array;
  /** The current query's stamp. */
  protected queryCounter = 0;

  // Per entry (a box in a region).
  /** The box (slot) of each entry. */
  protected entryObject: Int32Array = new Int32Array(64);
  /** The region of each entry. */
  protected entryRegion: Int32Array = new Int32Array(64);
  /** The next entry of the same box (-1: last). */
  protected entryNext: Int32Array = new Int32Array(64);
  /** Marks the entries a membership update keeps. */
  protected entryStamp: Int32Array = new Int32Array(64);
  /** Arena index of each entry's endpoints (layout.ts, `whereAt`). */
  protected where: Int32Array;
  /** Freed entry numbers, reused first. */
  protected freeEntries = new Int32Array(64);
  /** Entries in `freeEntries`. */
  protected freeEntryCount = 0;
  /** Entry numbers ever handed out; every entry is below. */
  protected entriesUsed = 0;
  /** The current stamp of `entryStamp` and `regionStamp`. */
  protected stamp = 0;
  /** Entries made since the entries were last renumbered in slot order. */
  protected entriesMade = 0;
  /** Second copies of the per-entry arrays, written by the renumbering and swapped in. */
  /** Spare `entryObject`. */
  protected spareObject: Int32Array = new Int32Array(0);
  /** Spare `entryRegion`. */
  protected spareRegion: Int32Array = new Int32Array(0);
  /** Spare `entryNext`. */
  protected spareNext: Int32Array = new Int32Array(0);
  /** Spare `entryStamp`. */
  protected spareStamp: Int32Array = new Int32Array(0);
  /** Spare `where`. */
  protected spareWhere: Int32Array = new Int32Array(0);

  // Regions: blocks of the endpoint arena, described by typed arrays.
  /** Every region's endpoint lists: values and tokens, one flat pair of arrays per axis. */
  protected readonly arena: EndpointArena;
  /** Start of each region's block in the arena (-1: region free). */
  protected regionStart = new Int32Array(16);
  /**
   * Where each region's list of axis k starts (layout.ts, `listAt`): each list floats in its block with
   * room on both sides, so an endpoint is added or removed by shifting the shorter side of the list.
   */
  protected listFirst = new Int32Array(48);
  /** Size class of each region's block. */
  protected regionClass = new Uint8Array(16);
  /** Endpoints in each of the region's lists (2 × entries). */
  protected regionLength = new Int32Array(16);
  /** Cell coordinates (unused for the global region), three per region. */
  protected regionCell = new Float64Array(48);
  /** 1 while a region filled from empty during this update waits, unsorted, for its sort-and-sweep. */
  protected regionBulk = new Uint8Array(16);
  /** Entries of small boxes; a cell region with none left is released (big boxes need no cell alone). */
  protected regionSmall = new Int32Array(16);
  /** Marks a region as touched by the current batch of moves. */
  protected regionStamp = new Int32Array(16);
  /** Region numbers ever handed out; every region is below. */
  protected regionsUsed = 0;
  /** Freed region numbers, reused first. */
  protected freeRegions = new Int32Array(16);
  /** Regions in `freeRegions`. */
  protected freeRegionCount = 0;
  /** Cell coordinates → region. */
  protected readonly grid: CellGrid;
  /** Regions touched by the current batch of moves. */
  protected touched = new Int32Array(16);
  /** Per region: first crossing (+1; 0: none) of a box leaving it, and of a box entering it. */
  protected leaveHead = new Int32Array(16);
  /** See `leaveHead`. */
  protected enterHead = new Int32Array(16);
  /** Per crossing: the next one of the same region's list (+1; 0: none). */
  protected crossingNext = new Int32Array(64);
  /** Per crossing: the entry that leaves, or the box (slot) that enters. */
  protected crossingItem = new Int32Array(64);
  /** Crossings planned for the current update. */
  protected crossingCount = 0;
  /** Moved boxes whose cell range changes in the current update. */
  protected crossers: Int32Array;
  /** While true, a new entry takes the box's latest bounds (a crossing applied before `listed` is). */
  protected enterLatest = false;
  /** Regions filled from empty during this update, waiting for their sort-and-sweep. */
  protected bulkRegions = new Int32Array(16);
  /** Regions in `bulkRegions`. */
  protected bulkCount = 0;
  /** Regions left without small boxes during this update (released at its end). */
  protected emptied = new Int32Array(16);
  /** Regions in `emptied`. */
  protected emptiedCount = 0;
  /** Min/max swaps of the current sift (token pairs, left then right), for the swap rule. */
  protected swaps = new Int32Array(256);
  /** Entries in `swaps` (two per swap). */
  protected swapCount = 0;
  /** Open entries of a sweep (of dynamic boxes); a region's entries while a pass writes its values. */
  protected active = new Int32Array(16);
  /** Where the cache-warming reads leave their sum, so the compiler keeps them (passes.ts). */
  protected readonly touchSink = new Float64Array(1);
  /** Open entries of static boxes in a sweep (they meet only the dynamic ones). */
  protected activeFixed = new Int32Array(16);
  /**
   * Each open entry's index in `active`, or `~index` in `activeFixed` (and the renumbering's map).
   */
  protected activeIndex = new Int32Array(64);

  /** Checks the options (the proxy store's first, then the grid's) and allocates every array. */
  protected constructor(options: SweepAndPruneOptions) {
    const name = new.target.errorName;
    super(checkOptions(options, name).dimensions, options.initialCapacity ?? 64, name);
    const settings = readSapOptions(options);
    const d = this.dimensions;
    this.validateEachUpdate = settings.validate;
    this.autoGrid = settings.autoGrid;
    this.cellSize = settings.cellSize;
    this.inverseCell = 1 / this.cellSize;
    this.autoGridThreshold = settings.autoGridThreshold;
    this.objectsPerCell = settings.objectsPerCell;
    this.maxCellsPerObject = settings.maxCellsPerObject;
    this.passShare = settings.passShare;
    this.rebuildShare = settings.rebuildShare;
    const c = this.store.capacity;
    this.listed = new Float64Array(2 * d * c);
    this.cells = new Float64Array(2 * d * c);
    this.inLists = new Uint8Array(c);
    this.big = new Uint8Array(c);
    this.fixed = new Uint8Array(c);
    this.flipped = new Int32Array(c);
    this.flipQueued = new Uint8Array(c);
    this.crossers = new Int32Array(c);
    this.firstEntry = new Int32Array(c).fill(-1);
    this.dirty = new Int32Array(c);
    this.dirtyFlag = new Uint8Array(c);
    this.inserted = new Int32Array(c);
    this.removed = new Int32Array(c);
    this.queryStamp = new Int32Array(c);
    this.grid = new CellGrid(d);
    this.where = new Int32Array(this.entryObject.length * 2 * d);
    this.arena = new EndpointArena(d);
  }

  /** Grows the per-slot arrays with the proxy store. */
  protected grow(capacity: number): void {
    const d = this.dimensions;
    this.listed = growArray(this.listed, 2 * d * capacity);
    this.cells = growArray(this.cells, 2 * d * capacity);
    this.inLists = growArray(this.inLists, capacity);
    this.big = growArray(this.big, capacity);
    this.fixed = growArray(this.fixed, capacity);
    this.flipped = growArray(this.flipped, capacity);
    this.flipQueued = growArray(this.flipQueued, capacity);
    this.crossers = growArray(this.crossers, capacity);
    const first = growArray(this.firstEntry, capacity);
    first.fill(-1, this.firstEntry.length);
    this.firstEntry = first;
    this.dirty = growArray(this.dirty, capacity);
    this.dirtyFlag = growArray(this.dirtyFlag, capacity);
    this.inserted = growArray(this.inserted, capacity);
    this.removed = growArray(this.removed, capacity);
    this.queryStamp = growArray(this.queryStamp, capacity);
  }

  /** Adds box `slot` to region r (entries.ts); returns the entry. */
  protected abstract addEntry(slot: number, r: number): number;
  /** Removes entry e from its region and its box (entries.ts). */
  protected abstract removeEntry(e: number): void;
}
