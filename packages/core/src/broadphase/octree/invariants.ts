/**
 * The octree's invariant walk behind the `validate` option and `Octree.validate()`: the tree's links
 * and counts, fat boxes, loose cells and fitted boxes, merged subtrees, the free lists, the candidate
 * lists against an all-pairs test of the fat boxes, and the pair set against an all-pairs test (two
 * static proxies making neither). O(n²): for tests and debugging.
 */

import { OctreePairs } from './pairs.js';
import { MIN_SEGMENT } from './segments.js';
import { containsAt, NONE, overlapsBoxes } from './shared.js';

/** Invariant layer of `Octree`. */
export abstract class OctreeInvariants extends OctreePairs {
  /** Throws on the first broken invariant (see the module comment). */
  protected checkInvariants(): void {
    const d = this.dimensions;
    const s = 2 * d;
    const F = this.fanout;
    const b = this.store.bounds;
    if (this.parent[0] !== NONE) throw new Error('Octree: root has a parent');
    const seen = new Uint8Array(this.nodesUsed);
    const itemUse = new Uint8Array(this.items.used);
    const markItems = (start: number, size: number) => {
      if (start + size > this.items.used) throw new Error(`Octree: segment ${start} beyond the pool`);
      for (let i = start; i < start + size; i++) {
        if (itemUse[i] !== 0) throw new Error(`Octree: item ${i} in two segments`);
        itemUse[i] = 1;
      }
    };
    let reached = 0;
    let objects = 0;
    const visit = (n: number): number => {
      if (this.freed[n] === 1) throw new Error(`Octree: node ${n} is in the tree and on the free list`);
      if (seen[n] === 1) throw new Error(`Octree: node ${n} reached twice`);
      seen[n] = 1;
      reached++;
      const count = this.own[n];
      if (count > this.segment[n])
        throw new Error(`Octree: node ${n} holds ${count} in a segment of ${this.segment[n]}`);
      if (this.segment[n] > 0) {
        if (this.segment[n] < MIN_SEGMENT || (this.segment[n] & (this.segment[n] - 1)) !== 0) {
          throw new Error(`Octree: node ${n}'s segment size ${this.segment[n]} is not a power of two`);
        }
        markItems(this.start[n], this.segment[n]);
      }
      for (let i = this.start[n]; i < this.start[n] + count; i++) {
        const o = this.items.slot[i];
        if (this.slotNode[o] !== n || this.slotItem[o] !== i) {
          throw new Error(
            `Octree: slot ${o} in node ${n} item ${i} thinks it is in ${this.slotNode[o]} item ${this.slotItem[o]}`,
          );
        }
        for (let j = 0; j < s; j++) {
          if (this.items.box[i * s + j] !== this.fat[o * s + j])
            throw new Error(`Octree: stale box copy of slot ${o}`);
        }
        if (!containsAt(this.fat, o * s, b, o * s, d))
          throw new Error(`Octree: slot ${o} outside its fat box`);
        if (this.store.alive[o] !== 1) throw new Error(`Octree: dead slot ${o} in node ${n}`);
        if (!this.fits(o, n)) throw new Error(`Octree: slot ${o} outside the loose cell of node ${n}`);
        // A leaf root only needs its boxes to fit: when it grows past 2^53 times the first cell, its
        // centre is rounded and a box's centre may end an ulp outside its cell (harmless until it splits).
        if (n === 0 && this.child[0] !== NONE && !this.centreIn(o, 0))
          throw new Error(`Octree: slot ${o} at the root, centre outside its cell`);
        if (this.child[n] !== NONE && this.fits(o, this.childFor(o, n))) {
          throw new Error(`Octree: slot ${o} stays in node ${n} but fits the child its centre picks`);
        }
        if (!containsAt(this.box, n * s, this.fat, o * s, d)) {
          throw new Error(`Octree: slot ${o} outside node ${n}'s box`);
        }
      }
      let total = count;
      const first = this.child[n];
      if (first !== NONE) {
        if ((first - 1) % F !== 0) throw new Error(`Octree: node ${n}'s children are not a block`);
        for (let c = first; c < first + F; c++) {
          if (this.parent[c] !== n) throw new Error(`Octree: node ${c}'s parent is not ${n}`);
          for (let k = 0; k < d; k++) {
            if (
              this.loose[c * s + k] < this.loose[n * s + k] ||
              this.loose[c * s + d + k] > this.loose[n * s + d + k]
            ) {
              throw new Error(`Octree: loose cell of node ${c} sticks out of its parent's`);
            }
          }
          if (this.total[c] > 0 && !containsAt(this.box, n * s, this.box, c * s, d)) {
            throw new Error(`Octree: node ${c}'s box sticks out of its parent's`);
          }
          total += visit(c);
        }
        if (total <= this.mergeAt)
          throw new Error(`Octree: node ${n} holds ${total} proxies and should have merged`);
      }
      if (total !== this.total[n])
        throw new Error(`Octree: node ${n}'s subtree holds ${total}, counts ${this.total[n]}`);
      if (this.refit[n] !== 0) throw new Error(`Octree: node ${n} still marked for refit after an update`);
      objects += count;
      return total;
    };
    visit(0);
    if (objects !== this.store.count)
      throw new Error(`Octree: tree holds ${objects} proxies, ${this.store.count} live`);
    for (let slot = 0; slot < this.store.used; slot++) {
      if ((this.slotNode[slot] === NONE) !== (this.store.alive[slot] === 0)) {
        throw new Error(
          `Octree: slot ${slot} is ${this.store.alive[slot] ? 'live but not' : 'dead but'} in the tree`,
        );
      }
    }
    if (this.child[0] !== NONE && this.own[0] === 0) {
      let nonEmpty = 0;
      let only = NONE;
      for (let c = this.child[0]; c < this.child[0] + F; c++) {
        if (this.total[c] > 0) {
          nonEmpty++;
          only = c;
        }
      }
      if (nonEmpty === 1 && this.boxInCell(only)) {
        throw new Error('Octree: root should have shrunk to its only non-empty child');
      }
    }
    if (reached !== this.liveNodes)
      throw new Error(`Octree: ${reached} nodes reached, ${this.liveNodes} counted`);
    let freeNodes = 0;
    for (let i = 0; i < this.freeBlockCount; i++) {
      const first = this.freeBlocks[i];
      for (let c = first; c < first + F; c++) {
        if (this.freed[c] !== 1 || seen[c] === 1) throw new Error(`Octree: free block ${first} is in use`);
        freeNodes++;
      }
    }
    if (reached + freeNodes !== this.nodesUsed) {
      throw new Error(`Octree: ${reached} live + ${freeNodes} free nodes, ${this.nodesUsed} allocated`);
    }
    this.items.forEachFree(markItems);
    for (let i = 0; i < this.items.used; i++) if (itemUse[i] === 0) throw new Error(`Octree: item ${i} lost`);
    // Candidates: exactly the pairs of overlapping fat boxes, each in both lists, with its exact state.
    const cands = this.candidates;
    let links = 0;
    for (let slot = 0; slot < this.store.used; slot++) {
      if (this.flag[slot] !== 0) throw new Error(`Octree: slot ${slot} still flagged after an update`);
      let last = NONE;
      for (let l = cands.head[slot]; l !== NONE; l = cands.next[l]) {
        if (cands.ends[l] !== slot || cands.prev[l] !== last) {
          throw new Error(`Octree: broken candidate list of slot ${slot}`);
        }
        if (this.store.alive[slot] !== 1) throw new Error(`Octree: dead slot ${slot} has candidates`);
        last = l;
        if (++links > 2 * cands.used) throw new Error(`Octree: cycle in candidate list of slot ${slot}`);
      }
    }
    if (links !== 2 * cands.count)
      throw new Error(`Octree: ${links} candidate links for ${cands.count} candidates`);
    if (cands.count + cands.freeEntries !== cands.used) throw new Error('Octree: candidate entries lost');
    this.pairSet.check();
    let expected = 0;
    // entryOf[c] is the entry of the candidate (a, c) while markedBy[c] === a + 1.
    const markedBy = new Int32Array(this.store.used);
    const entryOf = new Int32Array(this.store.used);
    for (let a = 0; a < this.store.used; a++) {
      if (this.store.alive[a] !== 1) continue;
      for (let l = cands.head[a]; l !== NONE; l = cands.next[l]) {
        const other = cands.ends[l ^ 1];
        if (markedBy[other] === a + 1) throw new Error(`Octree: candidate (${a}, ${other}) listed twice`);
        markedBy[other] = a + 1;
        entryOf[other] = l >> 1;
      }
      for (let c = a + 1; c < this.store.used; c++) {
        if (this.store.alive[c] !== 1) continue;
        const e = markedBy[c] === a + 1 ? entryOf[c] : undefined;
        // Two static proxies are never candidates.
        const paired = this.store.statics[a] === 0 || this.store.statics[c] === 0;
        const fat = paired && overlapsBoxes(this.fat, a * s, this.fat, c * s, d);
        if (fat !== (e !== undefined)) throw new Error(`Octree: candidate (${a}, ${c}) should be ${fat}`);
        const overlap = paired && overlapsBoxes(b, a * s, b, c * s, d);
        if (overlap && !fat) throw new Error(`Octree: boxes ${a}, ${c} overlap but their fat boxes do not`);
        if (e !== undefined && (cands.over[e] === 1) !== overlap) {
          throw new Error(
            `Octree: candidate (${a}, ${c}) marked ${cands.over[e] === 1}, overlap is ${overlap}`,
          );
        }
        if (overlap !== this.pairSet.has(a, c))
          throw new Error(`Octree: pair (${a}, ${c}) should be ${overlap}`);
        if (overlap) expected++;
      }
    }
    if (expected !== this.pairSet.count)
      throw new Error(`Octree: ${this.pairSet.count} pairs, expected ${expected}`);
  }
}
