/**
 * Phase 1 of a frame of the region-parallel sweep and prune: the checks of bounds written straight into
 * shared memory, and the sort of the frame's boxes into regions — one bit per region a box's closed
 * bounds overlap, the sort-by-destination step of parallel particle codes — run by every worker on
 * chunks of the frame's list claimed from a shared counter (dynamic scheduling, OpenMP's
 * `schedule(dynamic)`): a worker woken late finds its share done by the others, and the phase ends
 * when the work does, not when the last worker got a core.
 *
 * The masks stay by slot from frame to frame. Most boxes lie in one region, most often last frame's;
 * that guess is checked first. In a walking frame (see H_WALK) each chunk also lists, in slot order,
 * the boxes whose regions changed (and every listed box), so that a region need not read the whole
 * list to find its newcomers, nor any mask of a box that stayed.
 */
import { wrongBox } from '../proxies.js';
import {
  CLASSIFY_CHUNK,
  H_ALL_MOVED,
  H_CHECK,
  H_CHUNK_NEXT,
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_TAKE_ALL,
  H_USED,
  H_WALK,
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
  entering: Int32Array;
  chunks: Int32Array;
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
    if (masked) {
      // Checked and sorted in one pass over the boxes.
      const n = sortIntoRegions(v, dimensions, start, end, check);
      if (n >= 0) {
        v.chunks[c] = n;
        continue;
      }
    }
    const bad = check ? firstBad(v, dimensions, start, end) : -1;
    if (bad >= 0) {
      if (first < 0 || bad < first) first = bad;
      v.chunks[c] = 0;
    }
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
 * slot, with {@link TAKEN} on every box the frame looks at; the others keep their bits without it. In
 * a walking frame, lists the taken boxes whose regions changed, or that are listed, into this chunk's
 * stretch of `entering`, and returns how many. With `check`, also checks every box it reads (as
 * {@link firstBad} does, in the same pass) and returns −1 if one is not finite with min ≤ max.
 */
function sortIntoRegions(v: ClassifyViews, d: number, start: number, end: number, check: boolean): number {
  const s = 2 * d;
  const h = v.header;
  const all = h[H_FULL] === 1 || h[H_TAKE_ALL] === 1;
  const every = all || h[H_ALL_MOVED] === 1;
  const walk = h[H_WALK] === 1;
  const reg = v.regions;
  const regions = reg.length / s;
  const b = v.bounds;
  const alive = v.alive;
  const statics = v.statics;
  const listed = v.listed;
  const dirty = v.dirty;
  const masks = v.masks;
  const entering = v.entering;
  let n = 0;
  let bad = 0;
  for (let i = start; i < end; i++) {
    const slot = every ? i : dirty[i];
    const last = masks[slot] & ~TAKEN;
    // A listed box, live or removed, is taken; in a whole-list frame, so is every live dynamic one.
    const isListed = listed[slot] === 1;
    const taken = !every || isListed || (alive[slot] === 1 && (all || statics[slot] === 0));
    if (!taken) {
      masks[slot] = last;
      continue;
    }
    let mask = 0;
    if (alive[slot] === 1) {
      const o = slot * s;
      // The box is read (firstBad's rule: taken and live, a removed listed box is not).
      if (check) bad |= wrongBox(b, o, d);
      // Most boxes lie strictly inside last frame's one region: then only that region holds them.
      const guess = 31 - Math.clz32(last);
      if (last !== 0 && (last & (last - 1)) === 0 && guess < regions && strictlyInside(reg, b, o, guess, d)) {
        mask = last;
      } else {
        const x0 = b[o];
        const y0 = b[o + 1];
        const x1 = b[o + d];
        const y1 = b[o + d + 1];
        for (let r = 0; r < regions; r++) {
          const ro = r * s;
          if (x0 <= reg[ro + d] && x1 >= reg[ro] && y0 <= reg[ro + d + 1] && y1 >= reg[ro + 1]) {
            if (d === 2 || (b[o + 2] <= reg[ro + 5] && b[o + 5] >= reg[ro + 2])) mask |= 1 << r;
          }
        }
      }
    }
    masks[slot] = TAKEN | mask;
    if (walk && (isListed || mask !== last)) entering[start + n++] = slot;
  }
  return bad === 0 ? n : -1;
}

/** Whether box `o` of `b` lies strictly inside region r's bounds (so it reaches no other region). */
function strictlyInside(reg: Float64Array, b: Float64Array, o: number, r: number, d: number): boolean {
  const ro = r * 2 * d;
  if (!(reg[ro] < b[o] && b[o + d] < reg[ro + d])) return false;
  if (!(reg[ro + 1] < b[o + 1] && b[o + d + 1] < reg[ro + d + 1])) return false;
  return d === 2 || (reg[ro + 2] < b[o + 2] && b[o + 5] < reg[ro + 5]);
}
