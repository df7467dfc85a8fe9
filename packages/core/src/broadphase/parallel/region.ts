/**
 * One region of the region-parallel sweep and prune: what a worker (or, without shared memory, the
 * calling thread) runs for its region each frame.
 *
 * As in the sweep-and-prune notes, §2, a region runs Sieve's sequential SweepAndPrune over the boxes
 * in its responsibility bounds plus the ghosts it receives: here a box belongs to every region whose
 * (closed) responsibility bounds it overlaps, so a box near a border is in its neighbour's list too
 * (the notes' send and ghost bounds, with each box's own extent as the cutoff), and a box larger than
 * a region is in every region it reaches. Two overlapping boxes both contain the min corner of their
 * intersection, which lies in some region; both are members there, so that region's exact sweep and
 * prune finds the pair — no pair is lost. A pair seen in several regions is reported by each, and the
 * host merges the regions' changes into one reference-counted pair set (a pair is present while any
 * region holds it), so each pair comes out exactly once, whatever the number of regions.
 *
 * Each frame the runner reads the changed slots from shared memory, decides membership against its
 * bounds, feeds its SweepAndPrune with remove / insert / the members' new bounds, updates it, and
 * writes the pairs that began and ended in the region (as global slots) into its output buffer. With
 * many regions, deciding membership by reading every changed box in every region costs each region
 * as much as the whole scene's bounds; a frame then runs in two phases — the sort-by-destination step
 * of parallel particle codes: each worker first classifies its share of the changed boxes against all
 * regions (one bit per region), and each region then reads only the bits and its own boxes.
 */
import { growArray } from '../../growArray.js';
import { SLOT_MASK } from '../proxies.js';
import { SweepAndPrune } from '../sap/index.js';
import type { Dimensions } from '../types.js';
import {
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_REGION_MEMBERS,
  H_USED,
  HEADER_WORDS,
  type InstanceBuffers,
  OUT_BEGAN,
  OUT_ENDED,
  OUT_PAIRS,
  REGION_STAT_WORDS,
  T_REGION_MS,
} from './shared.js';

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * A region's SweepAndPrune, which also takes a member's new bounds straight from the shared bounds
 * array: the host already checked them, so the per-frame copy into a scratch batch and `moveMany`'s
 * second check and copy are skipped.
 */
class RegionSweepAndPrune extends SweepAndPrune {
  /** Copies `stride` numbers of `from` at `at` into the local box `slot` and queues its move. */
  moveFrom(slot: number, from: Float64Array, at: number): void {
    this.store.copyFrom(slot, from, at);
    this.markMoved(slot);
  }
}

/** The sequential sweep and prune of one region, fed from shared memory. */
export class RegionRunner {
  private readonly stride: number;
  private readonly local: RegionSweepAndPrune;
  private bounds!: Float64Array;
  private alive!: Uint8Array;
  private dirty!: Int32Array;
  private header!: Int32Array;
  private timings!: Float64Array;
  private regions!: Float64Array;
  private out!: Int32Array;
  private masks!: Uint32Array;
  /** Milliseconds of this frame's classification phase (counted in the region's time). */
  private classifyMs = 0;
  /** Global slot → local handle (−1: not a member). */
  private localOf = new Int32Array(64).fill(-1);
  /** Local slot → global slot (kept after a local removal, so ended pairs still map). */
  private globalOf = new Int32Array(64);
  private readonly scratch: Float64Array;

  constructor(
    readonly dimensions: Dimensions,
    /** Which region this runner owns. */
    readonly region: number,
    buffers: InstanceBuffers,
    validate = false,
  ) {
    this.stride = 2 * dimensions;
    this.scratch = new Float64Array(this.stride);
    this.local = new RegionSweepAndPrune({ dimensions, validate });
    this.setBuffers(buffers);
  }

  /** Adopts new (grown) buffers; membership and the local sweep and prune are kept. */
  setBuffers(b: InstanceBuffers): void {
    this.bounds = new Float64Array(b.bounds);
    this.alive = new Uint8Array(b.alive);
    this.dirty = new Int32Array(b.dirty);
    this.header = new Int32Array(b.header);
    this.timings = new Float64Array(b.timings);
    this.regions = new Float64Array(b.regions);
    this.out = new Int32Array(b.out);
    this.masks = new Uint32Array(b.masks);
    const capacity = this.alive.length;
    if (this.localOf.length < capacity) {
      const grown = new Int32Array(capacity).fill(-1);
      grown.set(this.localOf);
      this.localOf = grown;
    }
  }

  /** Boxes this region holds (its own and its ghosts). */
  get members(): number {
    return this.local.count;
  }

  /**
   * First phase of a two-phase frame: for this runner's share of the frame's slot list (the share
   * numbered like its region), the bit set of regions each box's (closed) bounds overlap, into `masks`.
   */
  classify(): void {
    const t0 = now();
    const d = this.dimensions;
    const s = this.stride;
    const h = this.header;
    const full = h[H_FULL] === 1;
    const count = full ? h[H_USED] : h[H_DIRTY];
    const reg = this.regions;
    const regions = reg.length / s;
    const start = Math.floor((count * this.region) / regions);
    const end = Math.floor((count * (this.region + 1)) / regions);
    const b = this.bounds;
    const alive = this.alive;
    const dirty = this.dirty;
    const masks = this.masks;
    for (let i = start; i < end; i++) {
      const slot = full ? i : dirty[i];
      let mask = 0;
      if (alive[slot] === 1) {
        const o = slot * s;
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
      masks[i] = mask;
    }
    this.classifyMs = now() - t0;
  }

  /** Brings the region up to date with the changed slots and writes its pair changes. */
  frame(): void {
    const t0 = now();
    const d = this.dimensions;
    const s = this.stride;
    const h = this.header;
    const full = h[H_FULL] === 1;
    const count = full ? h[H_USED] : h[H_DIRTY];
    const reg = this.regions;
    const ro = this.region * s;
    const b = this.bounds;
    const alive = this.alive;
    const dirty = this.dirty;
    const localOf = this.localOf;
    const local = this.local;
    // The region's bounds in locals (a 2-D region gets an infinite third axis).
    const x0 = reg[ro];
    const y0 = reg[ro + 1];
    const z0 = d === 3 ? reg[ro + 2] : Number.NEGATIVE_INFINITY;
    const x1 = reg[ro + d];
    const y1 = reg[ro + d + 1];
    const z1 = d === 3 ? reg[ro + 5] : Number.POSITIVE_INFINITY;
    const masked = h[H_MASKED] === 1;
    const masks = this.masks;
    const bit = this.region;
    for (let i = 0; i < count; i++) {
      const slot = full ? i : dirty[i];
      const o = slot * s;
      let inside: boolean;
      if (masked) inside = ((masks[i] >>> bit) & 1) === 1;
      else {
        // Closed intervals: a box touching the border belongs to both sides.
        inside = alive[slot] === 1 && b[o] <= x1 && b[o + d] >= x0 && b[o + 1] <= y1 && b[o + d + 1] >= y0;
        if (d === 3 && inside) inside = b[o + 2] <= z1 && b[o + 5] >= z0;
      }
      const member = localOf[slot];
      if (inside) {
        if (member >= 0) local.moveFrom(member & SLOT_MASK, b, o);
        else {
          for (let j = 0; j < s; j++) this.scratch[j] = b[o + j];
          const handle = this.local.insert(this.scratch);
          localOf[slot] = handle;
          const ls = handle & SLOT_MASK;
          if (ls >= this.globalOf.length) this.globalOf = growArray(this.globalOf, ls + 1);
          this.globalOf[ls] = slot;
        }
      } else if (member >= 0) {
        this.local.remove(member);
        localOf[slot] = -1;
      }
    }
    local.update();
    h[HEADER_WORDS + REGION_STAT_WORDS * this.region + H_REGION_MEMBERS] = this.local.count;
    this.writeOutput();
    this.timings[this.region + T_REGION_MS] = (masked ? this.classifyMs : 0) + now() - t0;
  }

  /**
   * Writes the last frame's began and ended pairs (global slots) into the output buffer; when they
   * do not fit, writes only the two counts (the host grows the buffer and asks again).
   */
  writeOutput(): boolean {
    const { pairs: _pairs, began, ended } = this.local.pairBuffers();
    const nb = this.local.beganCount;
    const ne = this.local.endedCount;
    const out = this.out;
    out[OUT_BEGAN] = nb;
    out[OUT_ENDED] = ne;
    if (OUT_PAIRS + 2 * (nb + ne) > out.length) return false;
    const g = this.globalOf;
    let w = OUT_PAIRS;
    for (let i = 0; i < 2 * nb; i++) out[w++] = g[began[i] & SLOT_MASK];
    for (let i = 0; i < 2 * ne; i++) out[w++] = g[ended[i] & SLOT_MASK];
    return true;
  }
}
