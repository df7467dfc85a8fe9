/**
 * The sweep and prune a region of the region-parallel broadphase runs: Sieve's sequential
 * SweepAndPrune (Bullet's btAxisSweep3 lineage, with the multi-SAP grid of the sweep-and-prune notes,
 * §2), fed straight from the shared bounds array — each member's new bounds copied in and its move
 * queued only where they changed, every member in one loop a frame — with a grid of larger cells than
 * SweepAndPrune's own default.
 */
import { copyBox, SLOT_MASK } from '../proxies.js';
import { SweepAndPrune } from '../sap/index.js';
import type { Dimensions } from '../types.js';
import { TAKEN } from './shared.js';

/**
 * About how many boxes a cell of a region's grid holds (SweepAndPrune's `objectsPerCell`; its own
 * default is 48). The regions' sweeps run side by side and share the memory bus, so the scattered reads
 * of boxes crossing cell borders cost them more than they cost one sweep alone, and larger cells (fewer
 * crossings) pay: on the 2-core host, two regions at 100 000 coherent boxes ran 3–4 % faster with 80
 * than with 48, within ±1.5 % of it on the other scenes measured (50 000 and 20 000 boxes, faster or
 * denser motion, unit bodies), where one SweepAndPrune alone gains about 2 % at best and its dense
 * scenes lose. In 2-D, 100 000 boxes in coherent motion ran about 5 % faster, boxes moving half their
 * size a frame about 1.6 % slower.
 */
const REGION_OBJECTS_PER_CELL = 80;

/**
 * A region's SweepAndPrune, which also takes a member's new bounds straight from the shared bounds
 * array (already checked), skipping a box whose bounds did not change.
 */
export class RegionSweepAndPrune extends SweepAndPrune {
  /** Whether the last {@link takeMembers} read a box that is not finite with min ≤ max. */
  takenBad = false;

  constructor(dimensions: Dimensions, validate: boolean) {
    super({ dimensions, validate, objectsPerCell: REGION_OBJECTS_PER_CELL });
  }

  /**
   * Copies `stride` numbers of `from` at `at` into the local box `slot` and queues its move if they
   * differ: for one box the membership walk visits (every member's bounds come in through
   * {@link takeMembers}).
   */
  moveFrom(slot: number, from: Float64Array, at: number): void {
    const box = this.store.bounds;
    const s = this.store.stride;
    const o = slot * s;
    for (let k = 0; k < s; k++) {
      if (box[o + k] !== from[at + k]) {
        copyBox(box, o, from, at, s);
        this.markMoved(slot);
        return;
      }
    }
  }

  /**
   * Takes the new bounds of the members `slots[0, n)` (global slots, `handles` their local handles)
   * from the shared array `from`, each as {@link moveFrom} would, but not a box that is not finite with
   * min ≤ max, a listed one (`listed[slot]`), nor — unless `allTaken` — a static one; and writes into
   * `edge` the indices of the members that may have changed regions: not strictly inside the region
   * (the 2·D numbers of `regions` at `ro`), or whose mask (`masks[slot]`, less TAKEN) is not `own`.
   * Returns how many it wrote there. One loop with every array in a local (this runs for every member
   * every frame: through `this` and a call per member it took about a third longer).
   */
  takeMembers(
    n: number,
    slots: Int32Array,
    handles: Int32Array,
    from: Float64Array,
    listed: Uint8Array,
    allTaken: boolean,
    masks: Uint32Array,
    own: number,
    regions: Float64Array,
    ro: number,
    edge: Int32Array,
  ): number {
    const box = this.store.bounds;
    const statics = this.store.statics;
    const inLists = this.inLists;
    const flag = this.dirtyFlag;
    const dirty = this.dirty;
    let queued = this.dirtyCount;
    let edges = 0;
    let wrong = 0;
    if (this.store.stride === 6) {
      const x0 = regions[ro];
      const y0 = regions[ro + 1];
      const z0 = regions[ro + 2];
      const x1 = regions[ro + 3];
      const y1 = regions[ro + 4];
      const z1 = regions[ro + 5];
      for (let i = 0; i < n; i++) {
        const slot = slots[i];
        const o = slot * 6;
        const a0 = from[o];
        const a1 = from[o + 1];
        const a2 = from[o + 2];
        const a3 = from[o + 3];
        const a4 = from[o + 4];
        const a5 = from[o + 5];
        // wrongBox, inline: x − x is 0 exactly for finite x; NaN fails every <=.
        const bad =
          (a0 - a0 + (a1 - a1) + (a2 - a2) + (a3 - a3) + (a4 - a4) + (a5 - a5) === 0 ? 0 : 1) |
          (a0 <= a3 ? 0 : 1) |
          (a1 <= a4 ? 0 : 1) |
          (a2 <= a5 ? 0 : 1);
        wrong |= bad;
        const ls = handles[i] & SLOT_MASK;
        const q = ls * 6;
        if (
          bad === 0 &&
          listed[slot] === 0 &&
          (allTaken || statics[ls] === 0) &&
          (box[q] !== a0 ||
            box[q + 1] !== a1 ||
            box[q + 2] !== a2 ||
            box[q + 3] !== a3 ||
            box[q + 4] !== a4 ||
            box[q + 5] !== a5)
        ) {
          box[q] = a0;
          box[q + 1] = a1;
          box[q + 2] = a2;
          box[q + 3] = a3;
          box[q + 4] = a4;
          box[q + 5] = a5;
          if (inLists[ls] === 1 && flag[ls] === 0) {
            flag[ls] = 1;
            dirty[queued++] = ls;
          }
        }
        if (
          !(x0 < a0 && a3 < x1 && y0 < a1 && a4 < y1 && z0 < a2 && a5 < z1 && (masks[slot] & ~TAKEN) === own)
        ) {
          edge[edges++] = i;
        }
      }
    } else {
      const x0 = regions[ro];
      const y0 = regions[ro + 1];
      const x1 = regions[ro + 2];
      const y1 = regions[ro + 3];
      for (let i = 0; i < n; i++) {
        const slot = slots[i];
        const o = slot * 4;
        const a0 = from[o];
        const a1 = from[o + 1];
        const a2 = from[o + 2];
        const a3 = from[o + 3];
        const bad =
          (a0 - a0 + (a1 - a1) + (a2 - a2) + (a3 - a3) === 0 ? 0 : 1) |
          (a0 <= a2 ? 0 : 1) |
          (a1 <= a3 ? 0 : 1);
        wrong |= bad;
        const ls = handles[i] & SLOT_MASK;
        const q = ls * 4;
        if (
          bad === 0 &&
          listed[slot] === 0 &&
          (allTaken || statics[ls] === 0) &&
          (box[q] !== a0 || box[q + 1] !== a1 || box[q + 2] !== a2 || box[q + 3] !== a3)
        ) {
          box[q] = a0;
          box[q + 1] = a1;
          box[q + 2] = a2;
          box[q + 3] = a3;
          if (inLists[ls] === 1 && flag[ls] === 0) {
            flag[ls] = 1;
            dirty[queued++] = ls;
          }
        }
        if (!(x0 < a0 && a2 < x1 && y0 < a1 && a3 < y1 && (masks[slot] & ~TAKEN) === own)) edge[edges++] = i;
      }
    }
    this.dirtyCount = queued;
    this.takenBad = wrong !== 0;
    return edges;
  }

  /** The local boxes' bounds (2·D numbers per local slot). */
  get boxes(): Float64Array {
    return this.store.bounds;
  }

  /** How many local slots have ever been used (every live box's slot is below it). */
  get slotsUsed(): number {
    return this.store.used;
  }

  /** The static flag of a local slot. */
  staticAt(slot: number): number {
    return this.store.statics[slot];
  }

  /** Writes `globalOf[slot]` of every live local slot into `into` (long enough); returns how many. */
  collectLive(globalOf: Int32Array, into: Int32Array): number {
    const store = this.store;
    const alive = store.alive;
    let n = 0;
    for (let slot = 0; slot < store.used; slot++) if (alive[slot] === 1) into[n++] = globalOf[slot];
    return n;
  }
}
