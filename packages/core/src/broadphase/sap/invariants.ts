/**
 * The invariant checks of `SweepAndPrune`, run after every `update()` with the `validate` option (and
 * by `SweepAndPrune.validate()`): each region's lists sorted by (value, isMax) with correct positions
 * and values; each box in exactly the regions its bounds call for; each pair counted once per shared
 * region where the boxes overlap, and every overlapping pair present — but pairs of two static boxes,
 * never counted; each listed box's static flag the latest one. O(n²): for tests and debugging.
 */
import { EndpointArena } from './endpointArena.js';
import { GLOBAL_REGION, listAt, tokenEntry, tokenIsMax, whereAt } from './layout.js';
import { SapQueries } from './queries.js';

/** The invariant checks, as the last layer under `SweepAndPrune` (they read every array of the layers). */
export abstract class SapInvariants extends SapQueries {
  /** Checks every invariant and throws an Error (`SAP: ...`) on the first broken one. */
  protected checkInvariants(): void {
    const store = this.store;
    const d = this.dimensions;
    const d2 = 2 * d;
    const freeRegions = new Set(this.freeRegions.subarray(0, this.freeRegionCount));
    for (let r = 0; r < this.regionsUsed; r++) {
      if (this.leaveHead[r] !== 0 || this.enterHead[r] !== 0)
        throw new Error(`SAP: region ${r} has crossings left over from an update`);
      if (freeRegions.has(r)) continue;
      if (this.regionBulk[r] === 1) throw new Error(`SAP: region ${r} left unswept`);
      let small = 0;
      for (let k = 0; k < d; k++) {
        const first = this.listFirst[listAt(r, k)];
        const end = first + this.regionLength[r];
        const blockStart = this.regionStart[r];
        if (first < blockStart || end > blockStart + EndpointArena.blockSize(this.regionClass[r]))
          throw new Error(`SAP: region ${r} axis ${k} overflows its block`);
        const v = this.arena.values[k];
        const t = this.arena.tokens[k];
        for (let i = first; i < end; i++) {
          const e = tokenEntry(t[i]);
          const isMax = tokenIsMax(t[i]);
          if (this.entryRegion[e] !== r)
            throw new Error(`SAP: region ${r} holds entry ${e} of region ${this.entryRegion[e]}`);
          const slot = this.entryObject[e];
          if (this.inLists[slot] !== 1)
            throw new Error(`SAP: region ${r} holds box ${slot}, which is not listed`);
          if (this.where[whereAt(e, d2, k, isMax)] !== i)
            throw new Error(`SAP: region ${r} axis ${k} position ${i - first} is stale`);
          if (v[i] !== this.listed[slot * d2 + isMax * d + k])
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
    const overlaps = (a: number, b: number): boolean => {
      const l = this.listed;
      for (let k = 0; k < d; k++) {
        if (l[a * d2 + k] > l[b * d2 + d + k] || l[b * d2 + k] > l[a * d2 + d + k]) return false;
      }
      return true;
    };
    const listedSlots: number[] = [];
    let fixed = 0;
    for (let slot = 0; slot < store.used; slot++) {
      if (this.inLists[slot] !== 1) {
        if (this.firstEntry[slot] >= 0) throw new Error(`SAP: unlisted box ${slot} has entries`);
        if (this.fixed[slot] !== 0) throw new Error(`SAP: unlisted box ${slot} is listed as static`);
        continue;
      }
      listedSlots.push(slot);
      if (this.fixed[slot] === 1) fixed++;
      if (store.alive[slot] === 1 && this.fixed[slot] !== store.statics[slot])
        throw new Error(`SAP: box ${slot} is listed with a stale static flag`);
      const mine = regionsOf(slot);
      if (new Set(mine).size !== mine.length) throw new Error(`SAP: box ${slot} is twice in one region`);
      for (const r of mine) {
        if (r === GLOBAL_REGION) continue;
        const c = this.regionCell;
        if (this.grid.get(c[listAt(r, 0)], c[listAt(r, 1)], c[listAt(r, 2)]) !== r)
          throw new Error(`SAP: region ${r} is not in the grid`);
        if (!this.cellInRange(r, slot))
          throw new Error(`SAP: box ${slot} is in region ${r} outside its cells`);
      }
      if (this.big[slot] === 1 && !mine.includes(GLOBAL_REGION))
        throw new Error(`SAP: big box ${slot} is not global`);
      if (this.big[slot] === 0 && mine.includes(GLOBAL_REGION))
        throw new Error(`SAP: small box ${slot} is global`);
    }
    if (fixed !== this.fixedCount)
      throw new Error(`SAP: ${fixed} static boxes listed, counted ${this.fixedCount}`);
    this.pairSet.check();
    let expected = 0;
    for (let i = 0; i < listedSlots.length; i++) {
      const a = listedSlots[i];
      const ra = regionsOf(a);
      for (let j = i + 1; j < listedSlots.length; j++) {
        const b = listedSlots[j];
        const overlap = overlaps(a, b);
        const shared = overlap ? regionsOf(b).filter((r) => ra.includes(r)).length : 0;
        if (overlap && shared === 0) throw new Error(`SAP: overlapping boxes ${a} and ${b} share no region`);
        // Two static boxes are never counted.
        const counted = this.fixed[a] === 1 && this.fixed[b] === 1 ? 0 : shared;
        if (this.pairSet.countOf(a, b) !== counted) {
          throw new Error(
            `SAP: pair (${a}, ${b}) counted ${this.pairSet.countOf(a, b)} times, expected ${counted}`,
          );
        }
        if (counted > 0) expected++;
      }
    }
    if (expected !== this.pairSet.count)
      throw new Error(`SAP: ${this.pairSet.count} pairs, expected ${expected}`);
  }
}
