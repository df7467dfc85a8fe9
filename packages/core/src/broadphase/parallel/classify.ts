/**
 * Phase 1 of a frame of the region-parallel sweep and prune: the checks of bounds written straight into
 * shared memory, and the sort of the frame's boxes into regions — one bit per region a box's closed
 * bounds overlap, the sort-by-destination step of parallel particle codes — run by every worker on
 * chunks of the frame's list claimed from a shared counter (dynamic scheduling, OpenMP's
 * `schedule(dynamic)`): a worker woken late finds its share done by the others, and the phase ends
 * when the work does, not when the last worker got a core.
 *
 * The masks stay by slot from frame to frame. Most boxes lie in one region, most often last frame's;
 * that guess is checked first. In a walking frame (see H_WALK) the whole list is not read here: each
 * region checks and sorts its own members (the region runner), and the chunks cover only the listed boxes
 * ({@link classifyListed}); the boxes whose regions changed go into a shared change list, and their
 * masks are written after the barrier, by the thread that found them.
 */
import { growArray } from '../../growArray.js';
import { wrongBox } from '../proxies.js';
import {
  CLASSIFY_CHUNK,
  H_ALL_MOVED,
  H_CHANGES,
  H_CHECK,
  H_CHUNK_NEXT,
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_TAKE_ALL,
  H_USED,
  TAKEN,
} from './shared.js';

/** The shared arrays phase 1 reads and writes (views of one broadphase's buffers). */
export interface ClassifyViews {
  bounds: Float64Array;
  alive: Uint8Array;
  statics: Uint8Array;
  listed: Uint8Array;
  dirty: Int32Array;
  header: Int32Array;
  regions: Float64Array;
  masks: Uint32Array;
  changes: Int32Array;
}

/**
 * Boxes whose regions changed in a walking frame, as (slot, bits) pairs, gathered by one thread; no
 * allocation once grown.
 */
export class ChangeList {
  pairs = new Int32Array(64);
  count = 0;

  push(slot: number, bits: number): void {
    if (2 * this.count + 2 > this.pairs.length) this.pairs = growArray(this.pairs, 2 * this.count + 2);
    this.pairs[2 * this.count] = slot;
    this.pairs[2 * this.count + 1] = bits;
    this.count++;
  }

  /**
   * Appends the list to the shared change list (`changes`, counted by the header's H_CHANGES, which
   * hands out the room).
   */
  publish(h: Int32Array, changes: Int32Array): void {
    if (this.count === 0) return;
    const at = Atomics.add(h, H_CHANGES, this.count);
    const pairs = this.pairs;
    for (let j = 0, o = 2 * at; j < 2 * this.count; j++) changes[o + j] = pairs[j];
  }
}

/**
 * Claims chunks of the frame's list until none is left, checking (when the header asks) and sorting
 * each; returns the first entry of the list, among the chunks this caller took, whose box is not
 * finite with min ≤ max (−1: none). The chunks with a bad box have their masks written all the same:
 * the host then throws before any region acts, and has the next update classify every box again.
 */
export function classifyChunks(v: ClassifyViews, dimensions: number): number {
  const h = v.header;
  const every = h[H_FULL] === 1 || h[H_ALL_MOVED] === 1;
  const count = every ? h[H_USED] : h[H_DIRTY];
  const chunks = Math.ceil(count / CLASSIFY_CHUNK);
  const check = h[H_CHECK] === 1;
  const masked = h[H_MASKED] === 1;
  let first = -1;
  for (;;) {
    const c = Atomics.add(h, H_CHUNK_NEXT, 1);
    if (c >= chunks) break;
    const start = c * CLASSIFY_CHUNK;
    const end = Math.min(count, start + CLASSIFY_CHUNK);
    // Checked and sorted in one pass over the boxes (read again to find a bad one).
    if (masked && sortIntoRegions(v, dimensions, start, end, check)) continue;
    const bad = check ? firstBad(v, dimensions, start, end) : -1;
    if (bad >= 0 && (first < 0 || bad < first)) first = bad;
  }
  return first;
}

/**
 * The first entry in [start, end) of the frame's list whose box the frame reads and that is not
 * finite with min ≤ max, or −1: one branch-free pass over the boxes (the verdict accumulated), and
 * the loop that finds the entry only when something is wrong.
 */
function firstBad(v: ClassifyViews, d: number, start: number, end: number): number {
  const s = 2 * d;
  const h = v.header;
  const all = h[H_FULL] === 1 || h[H_TAKE_ALL] === 1 ? 1 : 0;
  const every = all === 1 || h[H_ALL_MOVED] === 1;
  const b = v.bounds;
  const alive = v.alive;
  const statics = v.statics;
  const listed = v.listed;
  const dirty = v.dirty;
  let bad = 0;
  for (let i = start; i < end; i++) {
    const slot = every ? i : dirty[i];
    // 1 when the frame reads this box: a live one that is listed, or any live dynamic one (a live
    // static one too when every box is taken) in a whole-list frame.
    const read = alive[slot] & (every ? listed[slot] | all | (statics[slot] ^ 1) : 1);
    bad |= read & wrongBox(b, slot * s, d);
  }
  if (bad === 0) return -1;
  for (let i = start; i < end; i++) {
    const slot = every ? i : dirty[i];
    if (alive[slot] === 0 || (every && listed[slot] === 0 && all === 0 && statics[slot] === 1)) continue;
    const o = slot * s;
    for (let k = 0; k < d; k++) {
      const lo = b[o + k];
      const hi = b[o + d + k];
      if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) return i;
    }
  }
  return -1;
}

/**
 * The bit set of regions each box of entries [start, end) overlaps (closed bounds), into `masks` by
 * slot, with {@link TAKEN} on every box the frame looks at; the others keep their bits without it.
 * With `check`, also checks every box it reads (as {@link firstBad} does, in the same pass) and
 * returns false if one is not finite with min ≤ max.
 */
function sortIntoRegions(v: ClassifyViews, d: number, start: number, end: number, check: boolean): boolean {
  const s = 2 * d;
  const h = v.header;
  const all = h[H_FULL] === 1 || h[H_TAKE_ALL] === 1;
  const every = all || h[H_ALL_MOVED] === 1;
  const reg = v.regions;
  const regions = reg.length / s;
  const b = v.bounds;
  const alive = v.alive;
  const statics = v.statics;
  const listed = v.listed;
  const dirty = v.dirty;
  const masks = v.masks;
  let bad = 0;
  for (let i = start; i < end; i++) {
    const slot = every ? i : dirty[i];
    const last = masks[slot] & ~TAKEN;
    // A listed box, live or removed, is taken; in a whole-list frame, so is every live dynamic one.
    const taken = !every || listed[slot] === 1 || (alive[slot] === 1 && (all || statics[slot] === 0));
    if (!taken) {
      masks[slot] = last;
      continue;
    }
    let mask = 0;
    if (alive[slot] === 1) {
      const o = slot * s;
      // The box is read (firstBad's rule: taken and live, a removed listed box is not).
      if (check) bad |= wrongBox(b, o, d);
      mask = regionBits(reg, regions, b, o, d, last);
    }
    masks[slot] = TAKEN | mask;
  }
  return bad === 0;
}

/**
 * The listed boxes of a walking frame (see H_WALK), on chunks of the changed-slot list claimed from the
 * shared counter: checks each live one (when the header asks) and sorts it into regions, into `out` as
 * (slot, bits) — a removed one with none. Writes no mask (the walk does, after the barrier). Returns
 * the lowest slot among them whose box is not finite with min ≤ max (−1: none).
 */
export function classifyListed(v: ClassifyViews, d: number, out: ChangeList): number {
  const h = v.header;
  const count = h[H_DIRTY];
  const chunks = Math.ceil(count / CLASSIFY_CHUNK);
  const check = h[H_CHECK] === 1;
  const s = 2 * d;
  const reg = v.regions;
  const regions = reg.length / s;
  const b = v.bounds;
  const alive = v.alive;
  const dirty = v.dirty;
  const masks = v.masks;
  let first = -1;
  for (;;) {
    const c = Atomics.add(h, H_CHUNK_NEXT, 1);
    if (c >= chunks) break;
    const end = Math.min(count, (c + 1) * CLASSIFY_CHUNK);
    for (let i = c * CLASSIFY_CHUNK; i < end; i++) {
      const slot = dirty[i];
      let mask = 0;
      if (alive[slot] === 1) {
        const o = slot * s;
        if (check && wrongBox(b, o, d) !== 0 && (first < 0 || slot < first)) first = slot;
        mask = regionBits(reg, regions, b, o, d, masks[slot] & ~TAKEN);
      }
      out.push(slot, mask);
    }
  }
  return first;
}

/**
 * The bit set of the regions the box at `o` of `b` overlaps (closed bounds), `last` its bits before:
 * most boxes lie strictly inside last frame's one region, and then only that region holds them.
 */
export function regionBits(
  reg: Float64Array,
  regions: number,
  b: Float64Array,
  o: number,
  d: number,
  last: number,
): number {
  const guess = 31 - Math.clz32(last);
  if (last !== 0 && (last & (last - 1)) === 0 && guess < regions && strictlyInside(reg, b, o, guess, d)) {
    return last;
  }
  const s = 2 * d;
  const x0 = b[o];
  const y0 = b[o + 1];
  const x1 = b[o + d];
  const y1 = b[o + d + 1];
  let mask = 0;
  for (let r = 0; r < regions; r++) {
    const ro = r * s;
    if (x0 <= reg[ro + d] && x1 >= reg[ro] && y0 <= reg[ro + d + 1] && y1 >= reg[ro + 1]) {
      if (d === 2 || (b[o + 2] <= reg[ro + 5] && b[o + 5] >= reg[ro + 2])) mask |= 1 << r;
    }
  }
  return mask;
}

/** Whether box `o` of `b` lies strictly inside region r's bounds (so it reaches no other region). */
function strictlyInside(reg: Float64Array, b: Float64Array, o: number, r: number, d: number): boolean {
  const ro = r * 2 * d;
  if (!(reg[ro] < b[o] && b[o + d] < reg[ro + d])) return false;
  if (!(reg[ro + 1] < b[o + 1] && b[o + d + 1] < reg[ro + d + 1])) return false;
  return d === 2 || (reg[ro + 2] < b[o + 2] && b[o + 5] < reg[ro + 5]);
}
