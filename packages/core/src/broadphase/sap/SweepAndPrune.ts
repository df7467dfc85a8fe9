/**
 * Incremental sweep and prune (SAP) in 2-D and 3-D, partitioned into regions: the public class, which
 * records inserts, moves and removes and brings the pair set up to date in `update()`.
 *
 * Each region follows the sweep-and-prune notes, §1, and Bullet's btAxisSweep3: per-axis lists of
 * MIN/MAX endpoints kept sorted by insertion sort to exploit temporal coherence, the pair set changing
 * only on swaps (endpointLists.ts). The regions are §2's answer to a single list's weakness: in 3-D, at
 * a fixed volume fraction, the number of endpoints per unit of length on one axis grows as N^(2/3), and
 * so do the swaps per box per frame. Space is cut into the cells of a sparse uniform grid (as PhysX's
 * multi-box pruning and Bullet's btMultiSapBroadphase do), each cell that holds boxes a region with
 * its own lists (regions.ts); a box is an entry in every cell its box overlaps (entries.ts), and a pair
 * is counted once per region where the two boxes meet (pairSet.ts). The grid's cell size is chosen from
 * the boxes the first time the broadphase holds `autoGridThreshold` of them (cellSize.ts; until then
 * there is one region: classic SAP), or given as an option. How an update moves boxes — slides,
 * passes, bulk rebuilds — is in passes.ts; queries in queries.ts; the invariant checks behind the
 * `validate` option in invariants.ts; the data layout in state.ts and layout.ts.
 */
import { checkStaticFlag, copyBox, SLOT_MASK } from '../proxies.js';
import { chooseCellSize } from './cellSize.js';
import { SapInvariants } from './invariants.js';
import { GRID_CELL_LIMIT, type SweepAndPruneOptions } from './options.js';

/**
 * Incremental, region-partitioned sweep and prune. Implements the {@link Broadphase} contract.
 *
 * @example
 * ```ts
 * import { SweepAndPrune } from '@sieve/core';
 *
 * const bp = new SweepAndPrune({ dimensions: 2 });
 * const a = bp.insert([0, 0, 1, 1]); // [minX, minY, maxX, maxY] → an integer handle
 * const b = bp.insert([1, 0, 2, 1]); // touching counts as overlapping
 * const c = bp.insert([5, 5, 6, 6]);
 * bp.update();
 * console.log(bp.pairs()); // Int32Array [a, b]: every overlapping pair, a < b, sorted
 * bp.move(c, [1.5, 0.5, 2.5, 1.5]); // c now overlaps b
 * bp.update();
 * console.log(bp.began(), bp.ended()); // [b, c] began, nothing ended
 * bp.remove(a); // `a` is stale from now on: using it throws
 * ```
 */
export class SweepAndPrune extends SapInvariants {
  /**
   * The largest cell index, in absolute value, of the grid on every axis (2^30): the grid holds
   * coordinates within `GRID_CELL_LIMIT × cellSize` of the origin. A box whose cells reach past it is
   * kept outside the grid with the big boxes (exact pairs still, found in the global region).
   */
  static readonly GRID_CELL_LIMIT = GRID_CELL_LIMIT;

  /** Checks `options` (each bad value throws a RangeError naming it) and builds an empty broadphase. */
  constructor(options: SweepAndPruneOptions) {
    super(options);
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

  /** {@inheritDoc Broadphase.insert} */
  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    const slot = this.store.allocate(bounds, tag, isStatic);
    this.inserted[this.insertedCount++] = slot;
    return this.store.handles[slot];
  }

  /** {@inheritDoc Broadphase.setStatic} */
  setStatic(handle: number, isStatic: boolean): void {
    const slot = this.store.slotOf(handle, 'setStatic');
    checkStaticFlag(isStatic, this.store.names.setStatic, false);
    const flag = isStatic ? 1 : 0;
    if (this.store.statics[slot] === flag) return;
    this.store.statics[slot] = flag;
    // A box not listed yet takes its flag when it is; a listed one changes its counts at the update.
    if (this.inLists[slot] === 1 && this.flipQueued[slot] === 0) {
      this.flipQueued[slot] = 1;
      this.flipped[this.flippedCount++] = slot;
    }
  }

  /** {@inheritDoc Broadphase.move} */
  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.moveSlot(handle, bounds);
    this.store.setBounds(slot, bounds);
    this.markMoved(slot);
  }

  /** {@inheritDoc Broadphase.moveMany} */
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
      copyBox(box, slot * s, bounds, i * s, s);
      // markMoved, with the arrays and the count in locals (3 % at 20 000 boxes over calling it).
      if (inLists[slot] === 1 && flag[slot] === 0) {
        flag[slot] = 1;
        dirty[dirtyCount++] = slot;
      }
    }
    this.dirtyCount = dirtyCount;
  }

  /** {@inheritDoc Broadphase.remove} */
  remove(handle: number): void {
    const slot = this.store.slotOf(handle, 'remove');
    this.store.release(slot);
    if (this.inLists[slot] === 1) this.removed[this.removedCount++] = slot;
  }

  /**
   * Brings the pair set up to date: applies the static flags changed since the last update, chooses
   * the grid once there are enough boxes, takes out the removed boxes, moves the moved ones (passes.ts), lists the inserted ones, sorts and sweeps the
   * regions filled from empty, releases the emptied ones, and publishes began/ended.
   */
  update(): void {
    if (this.flippedCount > 0) this.applyFlips();
    if (
      this.autoGrid &&
      this.cellSize === Number.POSITIVE_INFINITY &&
      this.store.count >= this.autoGridThreshold
    ) {
      this.cellSize = chooseCellSize(this.store, this.objectsPerCell);
      this.inverseCell = 1 / this.cellSize;
      if (this.cellSize !== Number.POSITIVE_INFINITY) {
        this.regrid();
        // Numbered region by region at the end of this update (not after the bulk rebuilds of
        // teleporting scenes: renumbering every frame would cost more than it saves).
        this.entriesMade = this.entriesUsed;
      }
    }
    for (let i = 0; i < this.removedCount; i++) this.unlist(this.removed[i]);
    this.removedCount = 0;
    if (this.dirtyCount > 0) this.applyMoves();
    for (let i = 0; i < this.insertedCount; i++) {
      const slot = this.inserted[i];
      if (this.store.alive[slot] === 0) continue;
      this.list(slot);
    }
    this.insertedCount = 0;
    for (let i = 0; i < this.bulkCount; i++) this.sortAndSweep(this.bulkRegions[i]);
    this.bulkCount = 0;
    this.releaseEmptiedRegions();
    this.finishUpdate();
    // Worth it once the entries outgrow the caches; small worlds would only pay for it.
    if (this.entriesMade > Math.max(this.store.count >> 2, 4096)) this.renumberEntries();
    if (this.validateEachUpdate) this.validate();
  }

  /**
   * Checks every internal invariant and throws on the first broken one. O(n²); for
   * tests and debugging — or pass `validate: true` to the constructor to run it after every update.
   */
  validate(): void {
    this.checkInvariants();
  }
}
