/**
 * Entries and memberships (the sweep-and-prune notes, §2): a box is an entry in every region its box
 * overlaps — usually one cell. A pair is counted once per region where the two boxes meet and
 * reported while its count is above zero (pairSet.ts); two overlapping boxes always share the cell
 * that holds a point of their intersection, so no pair is lost. Boxes spanning more than
 * `maxCellsPerObject` cells, or reaching past the grid's range, are big: they live in the global region
 * (where big boxes meet each other) and in every existing cell they overlap (where they meet small
 * boxes), as Bullet's btMultiSapBroadphase keeps large proxies in its global SAP.
 *
 * Entries are pooled and renumbered region by region now and then, and the regions' blocks of the
 * endpoint arena laid out again in the same order, so that the work an update does in one region reads
 * and writes one small stretch of the per-entry arrays and of each list array, next to the region
 * visited after it. A box's static flag is applied here too: it decides which of the box's pairs are counted.
 */
import { growArray } from '../../growArray.js';
import { EndpointArena } from './endpointArena.js';
import { ALL_PARTNERS, DYNAMIC_PARTNERS, SapLists, STATIC_PARTNERS } from './endpointLists.js';
import { GLOBAL_REGION, listAt, maxToken, minToken, whereAt } from './layout.js';
import { GRID_CELL_LIMIT, type SweepAndPruneOptions } from './options.js';

/** A box's entries: adding, removing, keeping them in line with its cells; renumbering; regridding. */
export abstract class SapEntries extends SapLists {
  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /** Takes a removed box out of every region (its pairs end) and out of the big list. */
  protected unlist(slot: number): void {
    while (this.firstEntry[slot] >= 0) this.removeEntry(this.firstEntry[slot]);
    if (this.big[slot] === 1) this.setBig(slot, false);
    this.inLists[slot] = 0;
    this.dirtyFlag[slot] = 0;
    if (this.fixed[slot] === 1) {
      this.fixed[slot] = 0;
      this.fixedCount--;
    }
  }

  /**
   * Applies the static flags changed since the last update (before any other change of the update,
   * so the lists still hold what the counts were made from): a box turning static uncounts its pairs
   * with static boxes in every region it is in, a box turning dynamic counts them.
   */
  protected applyFlips(): void {
    const statics = this.store.statics;
    const alive = this.store.alive;
    for (let i = 0; i < this.flippedCount; i++) {
      const slot = this.flipped[i];
      this.flipQueued[slot] = 0;
      // A removed box leaves with the flag its pairs were counted with.
      if (alive[slot] === 0 || this.inLists[slot] === 0 || this.fixed[slot] === statics[slot]) continue;
      const delta = statics[slot] === 1 ? -1 : 1;
      for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
        this.countPartners(this.entryRegion[e], e, slot, delta, STATIC_PARTNERS);
      }
      this.fixed[slot] = statics[slot];
      this.fixedCount -= delta;
    }
    this.flippedCount = 0;
  }

  /** Which partners box `slot` has pairs with: the dynamic ones for a static box, else all. */
  private partnersOf(slot: number): number {
    return this.fixed[slot] === 1 ? DYNAMIC_PARTNERS : ALL_PARTNERS;
  }

  /**
   * Brings a box's entries in line with its listed bounds: one entry per cell of its cell range (a
   * small box), or the global region plus every existing cell it overlaps (a big box). Entries are
   * added before stale ones are removed, so a pair still met elsewhere never ends on the way.
   */
  protected updateMemberships(slot: number): void {
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
      this.keepEntry(slot, GLOBAL_REGION, stamp);
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

  /** Makes a box big (global) or small again, keeping the regions' counts of small boxes. */
  private setBig(slot: number, isBig: boolean): void {
    for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
      const r = this.entryRegion[e];
      this.regionSmall[r] += isBig ? -1 : 1;
      if (this.regionSmall[r] === 0 && r !== GLOBAL_REGION) this.markEmptied(r);
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

  /**
   * Adds a box to region r: appended unsorted when the region is being filled from empty (its
   * sort-and-sweep at the end of the update finds the pairs), otherwise slid into place on every axis
   * and counted with every box of the region it overlaps.
   */
  protected addEntry(slot: number, r: number): number {
    const e = this.newEntry(slot, r);
    if (this.big[slot] === 0) this.regionSmall[r]++;
    const d = this.dimensions;
    const d2 = 2 * d;
    const o = slot * d2;
    const n = this.regionLength[r];
    this.reserve(r, n + 2);
    if (this.regionBulk[r] === 1 || n === 0) {
      const end = this.regionStart[r] + EndpointArena.blockSize(this.regionClass[r]);
      for (let k = 0; k < d; k++) {
        if (this.listFirst[listAt(r, k)] + n + 2 > end) this.moveList(r, k, this.regionStart[r]);
        const at = this.listFirst[listAt(r, k)] + n;
        const v = this.arena.values[k];
        const t = this.arena.tokens[k];
        const from = this.enterLatest ? this.store.bounds : this.listed;
        v[at] = from[o + k];
        t[at] = minToken(e);
        v[at + 1] = from[o + d + k];
        t[at + 1] = maxToken(e);
        this.where[whereAt(e, d2, k, 0)] = at;
        this.where[whereAt(e, d2, k, 1)] = at + 1;
      }
      this.regionLength[r] = n + 2;
      if (this.regionBulk[r] === 0) {
        this.regionBulk[r] = 1;
        if (this.bulkCount === this.bulkRegions.length)
          this.bulkRegions = growArray(this.bulkRegions, this.bulkCount + 1);
        this.bulkRegions[this.bulkCount++] = r;
      }
      return e;
    }
    for (let k = 0; k < d; k++) this.insertEndpoints(r, k, e, slot);
    this.regionLength[r] = n + 2;
    this.countPartners(r, e, slot, 1, this.partnersOf(slot));
    return e;
  }

  /** Removes an entry: uncounts its pairs in the region (unless still unswept) and drops its endpoints. */
  protected removeEntry(e: number): void {
    const r = this.entryRegion[e];
    const slot = this.entryObject[e];
    if (this.regionBulk[r] === 0) this.countPartners(r, e, slot, -1, this.partnersOf(slot));
    this.removeEndpoints(r, e);
    if (this.big[slot] === 0 && --this.regionSmall[r] === 0 && r !== GLOBAL_REGION) this.markEmptied(r);
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
    if (this.freeEntryCount === this.freeEntries.length)
      this.freeEntries = growArray(this.freeEntries, this.freeEntryCount + 1);
    this.freeEntries[this.freeEntryCount++] = e;
  }

  /** A pooled entry for box `slot` in region r, first in the box's list of entries. */
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
   * Renumbers the entries region by region, each region's in the order of its axis-0 list, so that
   * everything an update does to one region — the new values it writes, the endpoint positions its
   * sorting pass shifts, the positions its swap tests read — lies in one small stretch of `where` and
   * the per-entry arrays, not scattered over them (at 100 000 boxes, the difference between cache
   * hits and misses). Entries made as boxes change cells take freed numbers, scattered; this is done
   * again once as many were made as a quarter of the boxes (and at least 4096): O(entries +
   * endpoints), and no allocation once the spare arrays have grown.
   */
  protected renumberEntries(): void {
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
    const stamp = this.spareStamp;
    const where = this.spareWhere;
    const next = this.spareNext;
    const t0 = this.arena.tokens[0];
    // New numbers in region order (every live entry is in its region's lists), the records copied.
    let live = 0;
    for (let r = 0; r < this.regionsUsed; r++) {
      if (this.regionStart[r] < 0) continue;
      const first = this.listFirst[listAt(r, 0)];
      const end = first + this.regionLength[r];
      for (let i = first; i < end; i++) {
        if ((t0[i] & 1) === 1) continue;
        const e = t0[i] >> 1;
        const to = live++;
        map[e] = to;
        object[to] = this.entryObject[e];
        region[to] = r;
        stamp[to] = this.entryStamp[e];
        for (let j = 0; j < d2; j++) where[to * d2 + j] = this.where[e * d2 + j];
      }
    }
    // The boxes' lists of entries, in their old order, through the map.
    for (let slot = 0; slot < this.store.used; slot++) {
      let e = this.firstEntry[slot];
      if (e < 0) continue;
      this.firstEntry[slot] = map[e];
      while (e >= 0) {
        const after = this.entryNext[e];
        next[map[e]] = after < 0 ? -1 : map[after];
        e = after;
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
    // The lists' tokens take the new numbers as the regions' blocks are laid out again.
    this.relayRegions(map);
  }

  /** Rebuilds every region for the current cell size; all pairs are counted afresh by the sweeps. */
  protected regrid(): void {
    this.pairSet.markAllAbsent();
    this.clearRegions();
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
    // Made in slot order just now (the automatic grid's first regrid renumbers them: see update).
    this.entriesMade = 0;
  }
}
