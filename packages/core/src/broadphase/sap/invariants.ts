/**
 * The invariant checks of `SweepAndPrune`, run after every `update()` with the `validate` option (and
 * by `SweepAndPrune.validate()`): each region's lists sorted by (value, isMax) with correct positions
 * and values; each box in exactly the regions its bounds call for; each pair counted once per shared
 * region where the boxes overlap, and every overlapping pair present — but pairs of two static boxes,
 * never counted; each listed box's static flag the latest one. O(n²): for tests and debugging.
 */
import type { PairSet } from '../pairSet.js';
import type { CellGrid } from './cellGrid.js';
import { EndpointArena } from './endpointArena.js';
import { GLOBAL_REGION, listAt, tokenEntry, tokenIsMax, whereAt } from './layout.js';

/** What the checks read of a sweep and prune (a snapshot of its arrays, taken for one check). */
export interface SapInternals {
  readonly dimensions: number;
  /** Slots ever used (the proxy store's `used`). */
  readonly used: number;
  readonly regionsUsed: number;
  readonly freeRegions: Int32Array;
  readonly freeRegionCount: number;
  readonly regionStart: Int32Array;
  readonly regionClass: Uint8Array;
  readonly regionLength: Int32Array;
  readonly regionBulk: Uint8Array;
  readonly regionSmall: Int32Array;
  readonly regionCell: Float64Array;
  readonly listFirst: Int32Array;
  readonly arena: EndpointArena;
  readonly grid: CellGrid;
  readonly entryObject: Int32Array;
  readonly entryRegion: Int32Array;
  readonly entryNext: Int32Array;
  readonly where: Int32Array;
  readonly firstEntry: Int32Array;
  readonly listed: Float64Array;
  readonly cells: Float64Array;
  readonly inLists: Uint8Array;
  readonly big: Uint8Array;
  /** Static flag each listed box's pairs were counted with. */
  readonly fixed: Uint8Array;
  readonly fixedCount: number;
  /** The store's latest static flags. */
  readonly statics: Uint8Array;
  readonly alive: Uint8Array;
  /** Per region: the crossings planned (none between updates). */
  readonly leaveHead: Int32Array;
  readonly enterHead: Int32Array;
  readonly pairSet: PairSet;
}

/** Checks every invariant and throws an Error (`SAP: ...`) on the first broken one. */
export function checkSapInvariants(s: SapInternals): void {
  const d = s.dimensions;
  const d2 = 2 * d;
  const freeRegions = new Set(s.freeRegions.subarray(0, s.freeRegionCount));
  for (let r = 0; r < s.regionsUsed; r++) {
    if (s.leaveHead[r] !== 0 || s.enterHead[r] !== 0)
      throw new Error(`SAP: region ${r} has crossings left over from an update`);
    if (freeRegions.has(r)) continue;
    if (s.regionBulk[r] === 1) throw new Error(`SAP: region ${r} left unswept`);
    let small = 0;
    for (let k = 0; k < d; k++) {
      const first = s.listFirst[listAt(r, k)];
      const end = first + s.regionLength[r];
      const blockStart = s.regionStart[r];
      if (first < blockStart || end > blockStart + EndpointArena.blockSize(s.regionClass[r]))
        throw new Error(`SAP: region ${r} axis ${k} overflows its block`);
      const v = s.arena.values[k];
      const t = s.arena.tokens[k];
      for (let i = first; i < end; i++) {
        const e = tokenEntry(t[i]);
        const isMax = tokenIsMax(t[i]);
        if (s.entryRegion[e] !== r)
          throw new Error(`SAP: region ${r} holds entry ${e} of region ${s.entryRegion[e]}`);
        const slot = s.entryObject[e];
        if (s.inLists[slot] !== 1) throw new Error(`SAP: region ${r} holds box ${slot}, which is not listed`);
        if (s.where[whereAt(e, d2, k, isMax)] !== i)
          throw new Error(`SAP: region ${r} axis ${k} position ${i - first} is stale`);
        if (v[i] !== s.listed[slot * d2 + isMax * d + k])
          throw new Error(`SAP: region ${r} axis ${k} value ${i - first} is stale`);
        if (i > first && (v[i - 1] > v[i] || (v[i - 1] === v[i] && (t[i - 1] & 1) > isMax))) {
          throw new Error(`SAP: region ${r} axis ${k} is not sorted at ${i - first}`);
        }
        if (k === 0 && isMax === 0 && s.big[slot] === 0) small++;
      }
    }
    if (small !== s.regionSmall[r])
      throw new Error(`SAP: region ${r} counts ${s.regionSmall[r]} small boxes, holds ${small}`);
  }
  const regionsOf = (slot: number): number[] => {
    const out: number[] = [];
    for (let e = s.firstEntry[slot]; e >= 0; e = s.entryNext[e]) out.push(s.entryRegion[e]);
    return out.sort((a, b) => a - b);
  };
  const cellInRange = (r: number, slot: number): boolean => {
    for (let k = 0; k < d; k++) {
      const c = s.regionCell[listAt(r, k)];
      if (c < s.cells[slot * d2 + k] || c > s.cells[slot * d2 + d + k]) return false;
    }
    return true;
  };
  const overlaps = (a: number, b: number): boolean => {
    const l = s.listed;
    for (let k = 0; k < d; k++) {
      if (l[a * d2 + k] > l[b * d2 + d + k] || l[b * d2 + k] > l[a * d2 + d + k]) return false;
    }
    return true;
  };
  const listedSlots: number[] = [];
  let fixed = 0;
  for (let slot = 0; slot < s.used; slot++) {
    if (s.inLists[slot] !== 1) {
      if (s.firstEntry[slot] >= 0) throw new Error(`SAP: unlisted box ${slot} has entries`);
      if (s.fixed[slot] !== 0) throw new Error(`SAP: unlisted box ${slot} is listed as static`);
      continue;
    }
    listedSlots.push(slot);
    if (s.fixed[slot] === 1) fixed++;
    if (s.alive[slot] === 1 && s.fixed[slot] !== s.statics[slot])
      throw new Error(`SAP: box ${slot} is listed with a stale static flag`);
    const mine = regionsOf(slot);
    if (new Set(mine).size !== mine.length) throw new Error(`SAP: box ${slot} is twice in one region`);
    for (const r of mine) {
      if (r === GLOBAL_REGION) continue;
      const c = s.regionCell;
      if (s.grid.get(c[listAt(r, 0)], c[listAt(r, 1)], c[listAt(r, 2)]) !== r)
        throw new Error(`SAP: region ${r} is not in the grid`);
      if (!cellInRange(r, slot)) throw new Error(`SAP: box ${slot} is in region ${r} outside its cells`);
    }
    if (s.big[slot] === 1 && !mine.includes(GLOBAL_REGION))
      throw new Error(`SAP: big box ${slot} is not global`);
    if (s.big[slot] === 0 && mine.includes(GLOBAL_REGION))
      throw new Error(`SAP: small box ${slot} is global`);
  }
  if (fixed !== s.fixedCount) throw new Error(`SAP: ${fixed} static boxes listed, counted ${s.fixedCount}`);
  s.pairSet.check();
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
      const counted = s.fixed[a] === 1 && s.fixed[b] === 1 ? 0 : shared;
      if (s.pairSet.countOf(a, b) !== counted) {
        throw new Error(
          `SAP: pair (${a}, ${b}) counted ${s.pairSet.countOf(a, b)} times, expected ${counted}`,
        );
      }
      if (counted > 0) expected++;
    }
  }
  if (expected !== s.pairSet.count) throw new Error(`SAP: ${s.pairSet.count} pairs, expected ${expected}`);
}
