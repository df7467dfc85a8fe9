/**
 * How an update moves boxes, by how many moved (each way keeps every pair's count exact):
 *
 * - Few: each moved endpoint slides through its sorted list on its own (Bullet's btAxisSweep3
 *   updateHandle), where every min/max swap is an exact overlap toggle.
 * - More than `passShare` of them: region by region, the new values are written, then each axis is
 *   re-sorted by one insertion-sort pass. Several values changed at once, so a swap is no longer a
 *   toggle; each min/max swap instead applies the change in its pair's overlap between before and
 *   after that axis's pass (a pair that changed state on the axis has exactly one of its two orders
 *   flipped). One region at a time, all its axes, so its lists and records stay in the cache; when
 *   most boxes moved, the boxes crossing cell borders move between regions during the same walk
 *   (crossings.ts), and from 256 boxes each region's values and passes run in WebAssembly (kernel.ts).
 * - More than `rebuildShare` of them change cells (teleports, fast motion): every region is rebuilt in
 *   bulk, since moving one box between regions costs about as much as re-sorting the region.
 *
 * Boxes whose cell range changed (and did not cross during the passes) then have their memberships
 * fixed (entries.ts).
 */
import { growArray } from '../../growArray.js';
import { copyBox } from '../proxies.js';
import { SapKernel } from './kernel.js';
import { listAt, whereAt, whereOfToken } from './layout.js';
import type { SweepAndPruneOptions } from './options.js';

/** The moves of an update: slides, passes or a bulk rebuild. */
export abstract class SapPasses extends SapKernel {
  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /** Queues a listed box's move for the next update. */
  protected markMoved(slot: number): void {
    if (this.inLists[slot] === 1 && this.dirtyFlag[slot] === 0) {
      this.dirtyFlag[slot] = 1;
      this.dirty[this.dirtyCount++] = slot;
    }
  }

  /** Lists an inserted box: its latest bounds and static flag, then its entries (pairs counted). */
  protected list(slot: number): void {
    this.copyListed(slot);
    this.inLists[slot] = 1;
    if (this.store.statics[slot] === 1) {
      this.fixed[slot] = 1;
      this.fixedCount++;
    }
    this.updateMemberships(slot);
  }

  /** Copies a box's latest bounds into `listed`. */
  protected copyListed(slot: number): void {
    const s = this.store.stride;
    copyBox(this.listed, slot * s, this.store.bounds, slot * s, s);
  }

  /** Brings every moved box's endpoints and memberships up to date. */
  protected applyMoves(): void {
    const most = 2 * this.dirtyCount > this.store.count;
    if (most) this.sortDirty();
    const passes = this.dirtyCount > this.passShare * this.store.count;
    // The crossers left to the membership update when crossings were planned (-1: none planned).
    let left = -1;
    if (most && passes && this.cellSize !== Number.POSITIVE_INFINITY && this.bulkCount === 0) {
      // Every region sorted by a pass: the boxes crossing cell borders are counted exactly, and most
      // of them move between regions during the passes (crossings.ts).
      const limit = Math.floor(this.rebuildShare * this.store.count);
      const crossers = this.collectCrossers(Math.min(limit, this.store.count));
      if (crossers > limit) {
        this.rebuild();
        return;
      }
      left = this.planCrossings(crossers);
    } else if (this.manyChangeCells()) {
      this.rebuild();
      return;
    }
    // Bring every moved box's endpoints to their new places, in every region it is in.
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
    if (left >= 0) {
      // Crossings planned: the crossers they left out are known already.
      this.listMovedBounds();
      for (let i = 0; i < left; i++) this.updateMemberships(this.crossers[i]);
      this.dirtyCount = 0;
      return;
    }
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

  /** Copies every moved box's new bounds into `listed` (one loop, everything in locals). */
  private listMovedBounds(): void {
    const listed = this.listed;
    const box = this.store.bounds;
    const dirty = this.dirty;
    const flag = this.dirtyFlag;
    const n = this.dirtyCount;
    const s = 2 * this.dimensions;
    for (let i = 0; i < n; i++) {
      const slot = dirty[i];
      if (flag[slot] === 0) continue;
      flag[slot] = 0;
      copyBox(listed, slot * s, box, slot * s, s);
    }
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

  /** Takes every moved box's new bounds and rebuilds all regions in bulk (see regrid). */
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
        this.slideEndpoint(slot, k, 0, -1);
      }
      if (newMax > oldMax) {
        listed[o + d + k] = newMax;
        this.slideEndpoint(slot, k, 1, 1);
      }
      if (newMin > oldMin) {
        listed[o + k] = newMin;
        this.slideEndpoint(slot, k, 0, 1);
      }
      if (newMax < oldMax) {
        listed[o + d + k] = newMax;
        this.slideEndpoint(slot, k, 1, -1);
      }
    }
  }

  /**
   * Copies one endpoint's listed value into every region of the box and sifts it there (towards the
   * list's start for `step` -1), applying each swap as a toggle. (The value is read here rather than
   * passed in: a double argument to a call that is not inlined gets boxed.)
   */
  private slideEndpoint(slot: number, k: number, isMax: number, step: number): void {
    const d2 = 2 * this.dimensions;
    const value = this.listed[slot * d2 + isMax * this.dimensions + k];
    const v = this.arena.values[k];
    for (let e = this.firstEntry[slot]; e >= 0; e = this.entryNext[e]) {
      const r = this.entryRegion[e];
      const at = this.where[whereAt(e, d2, k, isMax)];
      v[at] = value;
      if (this.regionBulk[r] === 1) continue;
      this.sift(r, k, at, step);
      this.applyToggles(k);
    }
  }

  /**
   * Many boxes moved: region by region, write the moved boxes' new values into the region's lists,
   * then re-sort each axis with one insertion-sort pass (`listed` takes the new bounds afterwards, in
   * applyMoves). A swap of two boxes' min and max is then not always an overlap toggle, so each swapped
   * pair's overlap before the pass on axis k (axes below k by the latest bounds, the others as listed)
   * is compared with its overlap after (axis k new too) and the difference applied (see swapOnAxis): a
   * pair whose state on this axis changed has exactly one of its min/max orders flipped, and a pair
   * whose two orders both flipped (one box passed right through the other) has not changed state.
   * Insertion sort swaps each inverted couple of endpoints exactly once. Regions share no endpoint and
   * a pair is counted per region, so each region is done on its own, all axes at once: its lists and
   * its entries' records (numbered region by region, see renumberEntries) stay in cache throughout.
   */
  private moveByPasses(): void {
    const d = this.dimensions;
    let touched = 0;
    const most = 2 * this.dirtyCount > this.store.count;
    if (most) {
      // Most boxes moved: take every region rather than find the touched ones box by box.
      this.touched = growArray(this.touched, this.regionsUsed);
      for (let r = 0; r < this.regionsUsed; r++) {
        if (this.regionStart[r] >= 0 && this.regionBulk[r] === 0) this.touched[touched++] = r;
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
    // Regions being filled from empty (rare: a grid chosen in this update) take the values too.
    const everywhere = this.bulkCount > 0;
    if (everywhere) this.writeMovedValues();
    // Most boxes moved: each region's new values and passes run in WebAssembly when they can (kernel.ts).
    let kernel = most && !everywhere && this.kernelReady();
    for (let i = 0; i < touched; i++) {
      const r = this.touched[i];
      // Planned crossings (most boxes moved, see applyMoves): boxes leave before the pass, enter after.
      if (this.leaveHead[r] !== 0) this.leaveRegion(r);
      if (!kernel || !this.kernelRegion(r)) {
        if (!everywhere) this.writeRegionValues(r, most);
        if (this.regionLength[r] > 2) {
          for (let k = 0; k < d; k++) this.passRegion(r, k);
        }
      }
      if (this.enterHead[r] !== 0) {
        this.enterRegion(r);
        if (kernel) kernel = this.kernelStillHeld();
      }
    }
  }

  /**
   * One insertion-sort pass over region r's axis-k list: each endpoint found below its left neighbour
   * sifts down (towards the list's start), and every min/max swap on the way is recorded (left token
   * first) — but the swaps of two static boxes. The sift of {@link SapLists.sift}, written out here:
   * this loop is the hot path of a frame where most boxes move.
   */
  private passRegion(r: number, k: number): void {
    const v = this.arena.values[k];
    const t = this.arena.tokens[k];
    const where = this.where;
    const d2 = 2 * this.dimensions;
    const first = this.listFirst[listAt(r, k)];
    const end = first + this.regionLength[r];
    const fixed = this.fixed;
    const entryObject = this.entryObject;
    const anyFixed = this.fixedCount > 0;
    // `prev` is the largest value so far: after a sift it sits at j (the prefix's top moved up one).
    let prev = v[first];
    for (let j = first + 1; j < end; j++) {
      const value = v[j];
      if (prev < value || (prev === value && (t[j - 1] & 1) <= (t[j] & 1))) {
        prev = value;
        continue;
      }
      const token = t[j];
      const isMax = token & 1;
      const movingFixed = anyFixed && fixed[entryObject[token >> 1]] === 1;
      let i = j;
      while (i !== first) {
        const nv = v[i - 1];
        const nt = t[i - 1];
        // In place once the neighbour sorts before it by (value, isMax).
        if (nv < value || (nv === value && (nt & 1) <= isMax)) break;
        // A min/max swap (but two static boxes'): most pairs do not meet on the other axes.
        if (
          (nt & 1) !== isMax &&
          (!movingFixed || fixed[entryObject[nt >> 1]] === 0) &&
          this.meetOnOtherAxes(token >> 1, nt >> 1, k)
        )
          this.swapOnAxis(token >> 1, nt >> 1, k, isMax);
        v[i] = nv;
        t[i] = nt;
        where[whereOfToken(nt, d2, k)] = i;
        i--;
      }
      v[i] = value;
      t[i] = token;
      where[whereOfToken(token, d2, k)] = i;
    }
  }

  /**
   * The swap rule of a pass for one min/max swap on axis k: entry ea's endpoint (a min if `isMax` is
   * 0) sifting down past entry eb's, the two meeting on the other axes as the pass left them (below k
   * sorted already, above still as listed). Applies the change in their pair's overlap on axis k
   * between before this axis's pass and after. A pair changes state on the axis by exactly one flip of
   * its two min/max orders, so applying it at any of its swaps is the same. The list was sorted by
   * (listed value, isMax) before the pass, and eb's endpoint, below ea's, came before it then:
   * - a's min passing b's max: b's max was below a's min (strictly, a min sorting first at equal
   *   values), so they did not overlap before; a's min ends below b's max, so they overlap after
   *   exactly when b's min lies at or below a's max (latest bounds) — the listed bounds are not read;
   * - a's max passing b's min: b's min was at or below a's max, and a's max ends below b's min, so
   *   they do not overlap after, and did before exactly when a's min lay at or below b's max (listed).
   */
  protected swapOnAxis(ea: number, eb: number, k: number, isMax: number): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const a = this.entryObject[ea];
    const b = this.entryObject[eb];
    if (isMax === 0) {
      const box = this.store.bounds;
      if (box[b * d2 + k] <= box[a * d2 + d + k]) this.pairSet.increment(a, b);
    } else {
      const l = this.listed;
      if (l[a * d2 + k] <= l[b * d2 + d + k]) this.pairSet.decrement(a, b);
    }
  }

  /**
   * The new values of region r's boxes (all axes): its entries are listed from its axis-0 list (min
   * tokens), then each entry's values are copied from the box's latest bounds. With `all`, every entry
   * is written — a box that did not move has the values it is listed with, so nothing changes for it —
   * and the copy loop has no branch. Else only the moved boxes' entries are. The boxes' bounds are read
   * at random (the cost of a frame at 100 000 boxes): with `all`, a loop as short as can be first
   * touches each box's cache lines, so that many of those reads are in flight at once (the copy loop,
   * with its stores, kept few), and the copy then finds them in the cache.
   */
  private writeRegionValues(r: number, all: boolean): void {
    const d = this.dimensions;
    const d2 = 2 * d;
    const box = this.store.bounds;
    const where = this.where;
    const values = this.arena.values;
    const v0 = values[0];
    const v1 = values[1];
    const v2 = d === 3 ? values[2] : values[1];
    const t0 = this.arena.tokens[0];
    const entryObject = this.entryObject;
    const first = this.listFirst[listAt(r, 0)];
    const end = first + this.regionLength[r];
    // The region's entries, in list order: every min token's (branch-free).
    const n = this.regionLength[r] >> 1;
    if (this.active.length < n) this.active = growArray(this.active, n);
    const entries = this.active;
    let count = 0;
    for (let i = first; i < end; i++) {
      const token = t0[i];
      entries[count] = token >> 1;
      count += (token & 1) ^ 1;
    }
    if (all) {
      // A box's first and last bound: both cache lines it may straddle.
      let touch = 0;
      for (let j = 0; j < count; j++) {
        const o = entryObject[entries[j]] * d2;
        touch += box[o] + box[o + d2 - 1];
      }
      // Kept somewhere, so that the reads are not optimized away.
      this.touchSink[0] = touch;
    }
    const flag = this.dirtyFlag;
    for (let j = 0; j < count; j++) {
      const e = entries[j];
      const slot = entryObject[e];
      if (!all && flag[slot] === 0) continue;
      const o = slot * d2;
      // The entry's record, written out in layout order: axis 0 min, max, axis 1 min, max, ...
      const w = whereAt(e, d2, 0, 0);
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

  /** Every moved endpoint's new value, all axes in one walk over the moved boxes' entries (every region). */
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
        const w = whereAt(e, d2, 0, 0);
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
}
