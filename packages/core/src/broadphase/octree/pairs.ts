/**
 * Candidate pairs of the octree (fat boxes overlapping, kept per proxy in `candidatePairs.ts`) and
 * the pairs they feed: dropped for removed proxies, refreshed by a tree query for proxies with a new
 * fat box, rebuilt wholesale when most proxies got one, and re-tested exactly for proxies that moved
 * inside their fat box. Temporal coherence as Box2D's broadphase (a persistent list of fat-box
 * overlaps, updated for moved proxies only). Two static proxies are never candidates.
 */

import { growArray } from '../../growArray.js';
import { OctreePlacement } from './placement.js';
import { DIRTY, NONE, overlapsBoxes, REFAT } from './shared.js';

/** Pair layer of `Octree`. */
export abstract class OctreePairs extends OctreePlacement {
  /** Ends the reported pairs of a removed slot and drops its candidates. */
  protected dropCandidates(slot: number): void {
    const cands = this.candidates;
    let l = cands.head[slot];
    while (l !== NONE) {
      const after = cands.next[l];
      const e = l >> 1;
      if (cands.over[e] === 1) this.pairSet.ensureAbsent(slot, cands.ends[l ^ 1]);
      cands.remove(e);
      l = after;
    }
  }

  /**
   * Slot a's fat box (or static flag) changed: drops the candidates it no longer overlaps (ending their
   * pairs), then queries the tree for the fat boxes it overlaps now and adds the new ones (a static
   * slot skips the static ones).
   */
  protected refreshCandidates(a: number, rebuild = false): void {
    const epoch = rebuild ? this.nextEpoch() : this.pruneCandidates(a);
    const statics = this.store.statics;
    const fixed = statics[a] === 1;
    const d = this.dimensions;
    const s = 2 * d;
    const f = this.fat;
    const box = this.box;
    const stamp = this.stamp;
    const itemBox = this.items.box;
    const itemSlot = this.items.slot;
    const q = a * s;
    let stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const end = this.start[n] + this.own[n];
      for (let i = this.start[n]; i < end; i++) {
        const o = itemSlot[i];
        if (rebuild ? o <= a : stamp[o] === epoch) continue;
        if (fixed && statics[o] === 1) continue;
        if (!overlapsBoxes(itemBox, i * s, f, q, d)) continue;
        stamp[o] = epoch;
        this.addCandidate(a, o);
      }
      const first = this.child[n];
      if (first !== NONE) {
        if (top + this.fanout > stack.length) stack = this.stack = growArray(stack, top + this.fanout);
        for (let c = first; c < first + this.fanout; c++)
          if (overlapsBoxes(box, c * s, f, q, d)) stack[top++] = c;
      }
    }
  }

  /** {@link refreshCandidates} for 3-D, unrolled (the tree query is the hot loop of busy frames). */
  protected refreshCandidates3(a: number, rebuild = false): void {
    const epoch = rebuild ? this.nextEpoch() : this.pruneCandidates(a);
    const statics = this.store.statics;
    const fixed = statics[a] === 1;
    const f = this.fat;
    const box = this.box;
    const stamp = this.stamp;
    const itemBox = this.items.box;
    const itemSlot = this.items.slot;
    const start = this.start;
    const own = this.own;
    const child = this.child;
    const q = a * 6;
    const x0 = f[q];
    const y0 = f[q + 1];
    const z0 = f[q + 2];
    const x1 = f[q + 3];
    const y1 = f[q + 4];
    const z1 = f[q + 5];
    let stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const end = start[n] + own[n];
      for (let i = start[n]; i < end; i++) {
        const p = i * 6;
        // One branch per box instead of six: the outcome is hard to predict either way.
        const hit =
          +(itemBox[p] <= x1) &
          +(x0 <= itemBox[p + 3]) &
          +(itemBox[p + 1] <= y1) &
          +(y0 <= itemBox[p + 4]) &
          +(itemBox[p + 2] <= z1) &
          +(z0 <= itemBox[p + 5]);
        if (hit === 0) continue;
        const o = itemSlot[i];
        // In a rebuild the smaller slot of each pair adds it; else only pairs not yet known.
        if (rebuild ? o <= a : stamp[o] === epoch) continue;
        if (fixed && statics[o] === 1) continue;
        stamp[o] = epoch;
        this.addCandidate(a, o);
      }
      const first = child[n];
      if (first !== NONE) {
        if (top + 8 > stack.length) stack = this.stack = growArray(stack, top + 8);
        for (let c = first; c < first + 8; c++) {
          const p = c * 6;
          const hit =
            +(box[p] <= x1) &
            +(x0 <= box[p + 3]) &
            +(box[p + 1] <= y1) &
            +(y0 <= box[p + 4]) &
            +(box[p + 2] <= z1) &
            +(z0 <= box[p + 5]);
          if (hit !== 0) stack[top++] = c;
        }
      }
    }
  }

  /**
   * Most proxies got a new fat box: drops every candidate, marks every pair absent, and lets each
   * proxy query the tree once, the smaller slot of each pair adding it. Leaves nothing for the
   * incremental steps of the update to do.
   */
  protected rebuildCandidates(): void {
    this.candidates.clear(this.store.used);
    this.pairSet.markAllAbsent();
    const alive = this.store.alive;
    for (let slot = 0; slot < this.store.used; slot++) {
      if (alive[slot] === 1) {
        if (this.dimensions === 3) this.refreshCandidates3(slot, true);
        else this.refreshCandidates(slot, true);
      }
    }
    this.refatCount = 0;
    // Nothing left to refresh (removed slots have no candidates left to drop) or to re-test.
    for (let i = 0; i < this.dirtyCount; i++) this.flag[this.dirty[i]] |= REFAT;
  }

  /** A new candidate (a, o), reported at once if the exact boxes overlap. */
  protected addCandidate(a: number, o: number): void {
    const e = this.candidates.add(a, o);
    const s = 2 * this.dimensions;
    if (overlapsBoxes(this.store.bounds, a * s, this.store.bounds, o * s, this.dimensions)) {
      this.candidates.over[e] = 1;
      this.pairSet.ensurePresent(a, o);
    }
  }

  /**
   * Drops slot a's candidates whose fat boxes no longer overlap a's, or which are static as a is
   * (ending their reported pairs), re-tests the others' exact boxes and stamps them, and a itself,
   * with a new epoch; returns it.
   */
  protected pruneCandidates(a: number): number {
    const epoch = this.nextEpoch();
    const d = this.dimensions;
    const s = 2 * d;
    const f = this.fat;
    const exact = this.store.bounds;
    const cands = this.candidates;
    const statics = this.store.statics;
    const fixed = statics[a] === 1;
    let l = cands.head[a];
    while (l !== NONE) {
      const after = cands.next[l];
      const b = cands.ends[l ^ 1];
      const e = l >> 1;
      if (overlapsBoxes(f, a * s, f, b * s, d) && !(fixed && statics[b] === 1)) {
        this.stamp[b] = epoch;
        const now = overlapsBoxes(exact, a * s, exact, b * s, d) ? 1 : 0;
        if (now !== cands.over[e]) {
          cands.over[e] = now;
          if (now === 1) this.pairSet.ensurePresent(a, b);
          else this.pairSet.ensureAbsent(a, b);
        }
      } else {
        if (cands.over[e] === 1) this.pairSet.ensureAbsent(a, b);
        cands.remove(e);
      }
      l = after;
    }
    this.stamp[a] = epoch;
    return epoch;
  }

  /** A fresh query stamp. */
  protected nextEpoch(): number {
    if (this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  /**
   * Exact test of each candidate of slot a (moved inside its fat box); reports pairs that start or
   * stop overlapping. Candidates whose fat box changed were tested by their own refresh; a pair of two
   * other moved slots is tested by the smaller one.
   */
  protected retest(a: number): void {
    const d = this.dimensions;
    const s = 2 * d;
    const b = this.store.bounds;
    const flag = this.flag;
    const cands = this.candidates;
    const ends = cands.ends;
    const next = cands.next;
    const over = cands.over;
    for (let l = cands.head[a]; l !== NONE; l = next[l]) {
      const o = ends[l ^ 1];
      const f = flag[o];
      if ((f & REFAT) !== 0 || ((f & DIRTY) !== 0 && o < a)) continue;
      const e = l >> 1;
      const now = overlapsBoxes(b, a * s, b, o * s, d) ? 1 : 0;
      if (now !== over[e]) {
        over[e] = now;
        if (now === 1) this.pairSet.ensurePresent(a, o);
        else this.pairSet.ensureAbsent(a, o);
      }
    }
  }
}
