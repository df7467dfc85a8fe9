/**
 * One region of the region-parallel sweep and prune: what a worker (or the calling thread, for its own
 * region or, without shared memory, for all of them) runs for its region each frame, and its share of
 * the other two phases.
 *
 * As in the sweep-and-prune notes, §2, a region runs Sieve's sequential SweepAndPrune over the boxes
 * in its responsibility bounds plus the ghosts it receives: here a box belongs to every region whose
 * (closed) responsibility bounds it overlaps, so a box near a border is in its neighbour's list too
 * (the notes' send and ghost bounds, with each box's own extent as the cutoff), and a box larger than
 * a region is in every region it reaches.
 *
 * A pair is reported by exactly one region, the one that owns it (ownership.ts: the one holding the
 * lowest corner of the two boxes' intersection).
 *
 * Each frame the runner reads the changed slots from shared memory, decides membership against its
 * bounds, feeds its SweepAndPrune with remove / insert / the members' new bounds, updates it, and
 * writes its owned pair changes (global handles, sorted) into its output buffer. When every box may
 * have moved and the classify phase's masks are exact (see H_WALK), it walks only its own members
 * (kept sorted by slot) and the boxes whose regions changed, instead of the whole list: its classify
 * phase then reads only its members' bounds (checked, tested against its bounds and written into its
 * SweepAndPrune, so that the walk has only the membership changes left) and its share of the listed
 * boxes. The first phase — checking bounds written straight into shared memory and sorting the boxes
 * into regions, on chunks claimed from a shared counter (classify.ts) — and the last — merging one
 * range of pair keys (merge.ts) — run here too.
 */
import { growArray } from '../../growArray.js';
import { SLOT_MASK, wrongBox } from '../proxies.js';
import { sortPairs } from '../sortPairs.js';
import type { Dimensions } from '../types.js';
import { ChangeList, type ClassifyViews, classifyChunks, classifyListed, regionBits } from './classify.js';
import { copyRange } from './copyRange.js';
import { lowerBound } from './lowerBound.js';
import { RangeMerger } from './merge.js';
import { coversAll, PairOwnership } from './ownership.js';
import { RegionSweepAndPrune } from './regionSweepAndPrune.js';
import {
  H_ABORT,
  H_ALL_MOVED,
  H_BARRIER_COUNT,
  H_BARRIER_PASSED,
  H_CHANGES,
  H_CHECK,
  H_DIRTY,
  H_FULL,
  H_MASKED,
  H_REGION_BAD,
  H_REGION_MEMBERS,
  H_REGION_PROGRESS,
  H_SPIN_US,
  H_TAKE_ALL,
  H_TRACE,
  H_USED,
  H_WALK,
  HEADER_WORDS,
  type InstanceBuffers,
  OUT_BEGAN,
  OUT_ENDED,
  OUT_PAIRS,
  REGION_STAT_WORDS,
  T_CLASSIFIED,
  T_FIRST_BARRIER,
  T_FRAMED,
  T_MERGED,
  T_REGION_MS,
  T_SECOND_BARRIER,
  T_STARTED,
  T_STRIDE,
  TAKEN,
} from './shared.js';

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * Turns of a barrier's spin between two reads of the clock (a few microseconds). Each read allocates a
 * number on the heap: read every turn, spins of 20 µs made about 2.5 kB of garbage a frame, and spins
 * of a millisecond (where cores are free) a hundred times that.
 */
const SPIN_TURNS = 1024;

/** Absolute time in ms, comparable across threads (each thread's `performance.now()` has its own origin). */
const clock: () => number =
  typeof performance !== 'undefined' ? () => performance.timeOrigin + performance.now() : () => Date.now();

/** The sequential sweep and prune of one region, fed from shared memory. */
export class RegionRunner {
  private readonly stride: number;
  private readonly local: RegionSweepAndPrune;
  private readonly merger = new RangeMerger();
  private bounds!: Float64Array;
  private alive!: Uint8Array;
  private statics!: Uint8Array;
  private listed!: Uint8Array;
  private handles!: Int32Array;
  private dirty!: Int32Array;
  private header!: Int32Array;
  private timings!: Float64Array;
  private regions!: Float64Array;
  private outs: Int32Array[] = [];
  private merged!: Int32Array;
  private pairs!: Int32Array;
  private masks!: Uint32Array;
  private changes!: Int32Array;
  /** The arrays the classify phase works on (classify.ts). */
  private views!: ClassifyViews;
  /** Milliseconds of this frame's classify phase (counted in the region's time). */
  private classifyMs = 0;
  /** Global slot → local handle (−1: not a member). */
  private localOf = new Int32Array(64).fill(-1);
  /** Local slot → global slot (kept after a local removal, so ended pairs still map). */
  private globalOf = new Int32Array(64);
  /** The members' global slots, sorted, and their local handles (valid while `membersValid`). */
  private memberSlots = new Int32Array(64);
  private memberHandles = new Int32Array(64);
  /** The members a walking frame's classify phase looks at again (indices into the member list). */
  private edge = new Int32Array(64);
  /** A walking frame's changes to the member list (see {@link walkMembers}). */
  private edits = new Int32Array(64);
  /** Check the member list after every walk (the `validate` option). */
  private readonly validate: boolean;
  /** The boxes whose regions this thread found changed in a walking frame's classify phase. */
  private readonly found = new ChangeList();
  /** The frame's whole change list as sortable keys (slot · 2³² + bits), and its bits by entry. */
  private changeList = new Int32Array(128);
  private memberCount = 0;
  private membersValid = false;
  private readonly scratch: Float64Array;
  /** The pairs this region owns, and this frame's changes of them (ownership.ts). */
  private readonly ownership: PairOwnership;
  /**
   * Called while this runner waits at a barrier, every couple of milliseconds (the host thread's
   * runner: it throws when a worker failed, exited or ran past the deadline, so the host never waits
   * for a thread that is gone).
   */
  waitCheck: (() => void) | null = null;
  /** Test hook: the next frame throws (`'throw'`) or never ends (`'hang'`) instead of its work. */
  crash: 'throw' | 'hang' | null = null;

  constructor(
    readonly dimensions: Dimensions,
    /** Which region this runner owns (and which share of the other phases it takes). */
    readonly region: number,
    buffers: InstanceBuffers,
    validate = false,
  ) {
    this.stride = 2 * dimensions;
    this.validate = validate;
    this.scratch = new Float64Array(this.stride);
    this.local = new RegionSweepAndPrune(dimensions, validate);
    this.ownership = new PairOwnership(dimensions, region);
    this.merger.validate = validate;
    this.setBuffers(buffers);
  }

  /** Adopts new (grown) buffers; membership and the local sweep and prune are kept. */
  setBuffers(b: InstanceBuffers): void {
    this.bounds = new Float64Array(b.bounds);
    this.alive = new Uint8Array(b.alive);
    this.statics = new Uint8Array(b.statics);
    this.listed = new Uint8Array(b.listed);
    this.handles = new Int32Array(b.handles);
    this.dirty = new Int32Array(b.dirty);
    this.header = new Int32Array(b.header);
    this.timings = new Float64Array(b.timings);
    this.regions = new Float64Array(b.regions);
    this.outs = b.outs.map((o) => new Int32Array(o));
    this.merged = new Int32Array(b.merged);
    this.pairs = new Int32Array(b.pairs);
    this.masks = new Uint32Array(b.masks);
    this.changes = new Int32Array(b.changes);
    this.views = {
      bounds: this.bounds,
      alive: this.alive,
      statics: this.statics,
      listed: this.listed,
      dirty: this.dirty,
      header: this.header,
      regions: this.regions,
      masks: this.masks,
      changes: this.changes,
    };
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
   * Phase 1, on the chunks of the frame's list this runner claims (classify.ts): checks the bounds
   * written straight into shared memory (when the header asks), recording the first bad entry, and —
   * in a masked frame — sorts the boxes into regions. Returns whether every box it checked passed.
   */
  classify(): boolean {
    const t0 = now();
    const h = this.header;
    let bad: number;
    if (h[H_WALK] === 1 && h[H_MASKED] === 1) {
      this.found.count = 0;
      bad = this.stageMembers(h[H_CHECK] === 1, h[H_FULL] === 1 || h[H_TAKE_ALL] === 1);
      const listed = classifyListed(this.views, this.dimensions, this.found);
      if (listed >= 0 && (bad < 0 || listed < bad)) bad = listed;
      this.found.publish(h, this.changes);
    } else bad = classifyChunks(this.views, this.dimensions);
    this.header[HEADER_WORDS + REGION_STAT_WORDS * this.region + H_REGION_BAD] = bad;
    this.classifyMs = now() - t0;
    return bad < 0;
  }

  /**
   * Phase 2: brings the region up to date with the frame's boxes and writes the pair changes it owns.
   * `classified` says whether phase 1 ran this frame (its time is counted in the region's). Returns
   * whether the changes fit the output buffer (see {@link writeOutput}).
   */
  frame(classified = this.header[H_MASKED] === 1 || this.header[H_CHECK] === 1): boolean {
    if (this.crash === 'throw') throw new Error('deliberate crash (test hook)');
    if (this.crash === 'hang') for (;;) {}
    const t0 = now();
    const h = this.header;
    if (h[H_WALK] === 1 && h[H_MASKED] === 1) this.walkMembers();
    else {
      this.scanList();
      this.membersValid = false;
    }
    const local = this.local;
    local.update();
    h[HEADER_WORDS + REGION_STAT_WORDS * this.region + H_REGION_MEMBERS] = local.count;
    const { pairs, began, ended } = local.pairBuffers();
    this.ownership.update(
      pairs,
      local.pairCount,
      began,
      local.beganCount,
      ended,
      local.endedCount,
      local.boxes,
      local.slotsUsed,
      this.regions,
      this.handles,
      this.globalOf,
    );
    const fits = this.writeOutput();
    this.timings[this.region * T_STRIDE + T_REGION_MS] = (classified ? this.classifyMs : 0) + now() - t0;
    return fits;
  }

  /** Membership from the whole frame list: every listed slot (or every used one), in list order. */
  private scanList(): void {
    const d = this.dimensions;
    const s = this.stride;
    const h = this.header;
    const full = h[H_FULL] === 1;
    const every = full || h[H_ALL_MOVED] === 1;
    const count = every ? h[H_USED] : h[H_DIRTY];
    const reg = this.regions;
    const ro = this.region * s;
    const b = this.bounds;
    const alive = this.alive;
    const statics = this.statics;
    const listed = this.listed;
    const dirty = this.dirty;
    const localOf = this.localOf;
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
    const everywhere = coversAll(this.regions, this.region, d);
    for (let i = 0; i < count; i++) {
      const slot = every ? i : dirty[i];
      let inside = false;
      if (masked) {
        // Most boxes belong to other regions: two reads tell them apart.
        const m = masks[slot];
        inside = ((m >>> bit) & 1) === 1;
        if ((m & TAKEN) === 0 || (!inside && localOf[slot] < 0)) continue;
      } else {
        if (every && listed[slot] === 0 && (alive[slot] === 0 || (!full && statics[slot] === 1))) continue;
        // Closed intervals: a box touching the border belongs to both sides.
        inside = alive[slot] === 1;
        if (!everywhere && inside) {
          const o = slot * s;
          inside = b[o] <= x1 && b[o + d] >= x0 && b[o + 1] <= y1 && b[o + d + 1] >= y0;
          if (d === 3 && inside) inside = b[o + 2] <= z1 && b[o + 5] >= z0;
        }
      }
      // (A flag changes only through setStatic, which lists the slot.)
      this.visit(slot, inside, !every || listed[slot] === 1);
    }
  }

  /**
   * Membership in a walking frame (see H_WALK): the frame's change list (sorted here) — the boxes whose
   * regions changed, and every listed box — visited in slot order, each found in the members (sorted
   * by slot) by binary search. A member not in the list is still a member, with no look at its mask or
   * its local handle (kept beside the slot); its new bounds are in already (the classify phase wrote
   * them, {@link stageMembers}). The few boxes that left or joined are then taken out of and put into
   * the member list in place, its runs between them moved by `copyWithin` (a memmove) rather than
   * copied entry by entry. First writes the masks of the changes this thread found.
   */
  private walkMembers(): void {
    const h = this.header;
    const masks = this.masks;
    const found = this.found;
    for (let j = 0; j < found.count; j++) masks[found.pairs[2 * j]] = TAKEN | found.pairs[2 * j + 1];
    const total = this.sortedChanges(h[H_CHANGES]);
    const changed = this.changeList;
    const slots = this.memberSlots;
    const handles = this.memberHandles;
    const count = this.memberCount;
    if (this.edits.length < 2 * total) this.edits = growArray(this.edits, 2 * total);
    const edits = this.edits;
    const listed = this.listed;
    const localOf = this.localOf;
    const bit = this.region;
    // Removals as (index, -1), joins as (index before which, slot), in slot order.
    let nEdits = 0;
    let joins = 0;
    let i = 0;
    for (let k = 0; k < total; k++) {
      const slot = changed[2 * k];
      i = lowerBound(slots, 0, 1, i, count, slot);
      const was = i < count && slots[i] === slot;
      // Changed: the whole visit (a listed box's static flag may have changed too). Every box in the
      // list is taken.
      const bits = changed[2 * k + 1];
      this.visit(slot, ((bits >>> bit) & 1) === 1, listed[slot] === 1);
      const handle = localOf[slot];
      if (was) {
        if (handle < 0) {
          edits[2 * nEdits] = i;
          edits[2 * nEdits++ + 1] = -1;
        } else handles[i] = handle;
        i++;
      } else if (handle >= 0) {
        edits[2 * nEdits] = i;
        edits[2 * nEdits++ + 1] = slot;
        joins++;
      }
    }
    if (nEdits > 0) this.applyEdits(nEdits, joins);
    if (this.validate) {
      this.checkMembers();
      this.checkMembership();
    }
  }

  /** Throws unless the member list is the local boxes, sorted by slot, with their handles (`validate`). */
  private checkMembers(): void {
    const slots = this.memberSlots;
    const handles = this.memberHandles;
    if (this.memberCount !== this.local.count) {
      throw new Error(
        `ParallelSweepAndPrune: region ${this.region} lists ${this.memberCount} members, holds ${this.local.count}`,
      );
    }
    for (let i = 0; i < this.memberCount; i++) {
      if ((i > 0 && slots[i] <= slots[i - 1]) || handles[i] < 0 || handles[i] !== this.localOf[slots[i]]) {
        throw new Error(
          `ParallelSweepAndPrune: region ${this.region} member ${i} (slot ${slots[i]}) is wrong`,
        );
      }
    }
  }

  /**
   * Throws unless every live box this frame took is a member exactly when its closed bounds overlap
   * the region's (`validate`): a box that left the region but stayed a member would not change a pair
   * (the region does not own its pairs), only slow the region down.
   */
  private checkMembership(): void {
    const h = this.header;
    const allTaken = h[H_FULL] === 1 || h[H_TAKE_ALL] === 1;
    const d = this.dimensions;
    const s = this.stride;
    const reg = this.regions;
    const ro = this.region * s;
    const b = this.bounds;
    for (let slot = 0; slot < h[H_USED]; slot++) {
      if (this.alive[slot] === 0 || (!allTaken && this.statics[slot] === 1 && this.listed[slot] === 0))
        continue;
      let inside = true;
      for (let k = 0; k < d; k++) {
        if (!(b[slot * s + k] <= reg[ro + d + k] && b[slot * s + d + k] >= reg[ro + k])) inside = false;
      }
      if (inside !== this.localOf[slot] >= 0) {
        throw new Error(
          `ParallelSweepAndPrune: region ${this.region} ${inside ? 'lacks' : 'holds'} box ${slot} (validate)`,
        );
      }
    }
  }

  /**
   * Applies {@link walkMembers}' edits to the member list in place: the leavers closed up front to back,
   * then the joiners opened up back to front (their local handles read from `localOf`).
   */
  private applyEdits(nEdits: number, joins: number): void {
    const edits = this.edits;
    const count = this.memberCount;
    // Leavers, first to last: the run between the last one and this one moves down by the leavers
    // before it. A joiner's place becomes its place in the closed-up list.
    let gone = 0;
    let run = 0;
    for (let e = 0; e < nEdits; e++) {
      const at = edits[2 * e];
      if (edits[2 * e + 1] >= 0) {
        edits[2 * e] = at - gone;
        continue;
      }
      if (gone > 0) this.moveMembers(run, at, -gone);
      gone++;
      run = at + 1;
    }
    if (gone > 0) this.moveMembers(run, count, -gone);
    const kept = count - gone;
    if (joins > 0) {
      const need = kept + joins;
      if (this.memberSlots.length < need) this.memberSlots = growArray(this.memberSlots, need);
      if (this.memberHandles.length < need) this.memberHandles = growArray(this.memberHandles, need);
      // Joiners, last first: the run after each moves up by the joiners up to it.
      let end = kept;
      let left = joins;
      for (let e = nEdits - 1; e >= 0; e--) {
        const slot = edits[2 * e + 1];
        if (slot < 0) continue;
        const at = edits[2 * e];
        this.moveMembers(at, end, left);
        this.memberSlots[at + left - 1] = slot;
        this.memberHandles[at + left - 1] = this.localOf[slot];
        end = at;
        left--;
      }
    }
    this.memberCount = kept + joins;
  }

  /** Moves members [from, to) by `by` places (a memmove of slots and handles). */
  private moveMembers(from: number, to: number, by: number): void {
    if (to <= from) return;
    this.memberSlots.copyWithin(from + by, from, to);
    this.memberHandles.copyWithin(from + by, from, to);
  }

  /**
   * Copies the first `total` (slot, bits) entries of the shared change list into `changeList`, sorted
   * by slot (each slot is in the list once), without allocating.
   */
  private sortedChanges(total: number): number {
    this.changeList = growArray(this.changeList, 2 * total);
    const list = this.changeList;
    const changes = this.changes;
    for (let j = 0; j < 2 * total; j++) list[j] = changes[j];
    sortPairs(list, total);
    return total;
  }

  /**
   * A walking frame's classify phase for this region's members (see H_WALK): reads every member's
   * bounds out of the shared array, in member (slot) order — the members lie scattered over the shared
   * array, and a loop that does little but load them keeps many cache misses in flight at once —,
   * checks them (with `check`), and writes them straight into the local sweep and prune, queueing the
   * moves, so that the walk only has to follow the membership changes; and lists in `found` the members
   * whose regions changed and whose mask this thread writes. A member strictly inside this region whose
   * only region was this one stays as it was; another is looked at again ({@link restage}). A listed
   * member (the walk visits it), a static one the frame does not take, and a bad box are not written
   * (an update that finds a bad box changes nothing; a removed box's bounds may be anything). Returns
   * the lowest slot among the boxes it reads whose box is not finite with min ≤ max (−1: none).
   */
  private stageMembers(check: boolean, allTaken: boolean): number {
    if (!this.membersValid) this.collectMembers();
    const n = this.memberCount;
    if (this.edge.length < n) this.edge = growArray(this.edge, n);
    const local = this.local;
    const edges = local.takeMembers(
      n,
      this.memberSlots,
      this.memberHandles,
      this.bounds,
      this.listed,
      allTaken,
      this.masks,
      1 << this.region,
      this.regions,
      this.region * this.stride,
      this.edge,
    );
    for (let e = 0; e < edges; e++) this.restage(this.memberSlots[this.edge[e]], allTaken);
    return check && local.takenBad ? this.firstBadMember(allTaken) : -1;
  }

  /**
   * A member of a walking frame that may have changed regions: sorted again, and listed in `found` if
   * its regions changed — unless it is listed (the listed boxes' share sorts it), a static box the
   * frame does not take (it keeps its bits), or a member of a lower region too (whose thread sorts it).
   */
  private restage(slot: number, allTaken: boolean): void {
    if (this.listed[slot] === 1 || (!allTaken && this.statics[slot] === 1)) return;
    const last = this.masks[slot] & ~TAKEN;
    if ((last & -last) !== 1 << this.region) return;
    const reg = this.regions;
    const bits = regionBits(
      reg,
      reg.length / this.stride,
      this.bounds,
      slot * this.stride,
      this.dimensions,
      last,
    );
    if (bits !== last) this.found.push(slot, bits);
  }

  /** The lowest member slot the frame reads whose box is not finite with min ≤ max (−1: none). */
  private firstBadMember(allTaken: boolean): number {
    const slots = this.memberSlots;
    const b = this.bounds;
    const d = this.dimensions;
    for (let i = 0; i < this.memberCount; i++) {
      const slot = slots[i];
      if (this.alive[slot] === 0) continue;
      if (!allTaken && this.listed[slot] === 0 && this.statics[slot] === 1) continue;
      if (wrongBox(b, slot * this.stride, d) !== 0) return slot;
    }
    return -1;
  }

  /** Rebuilds the sorted member list from the local sweep and prune (after frames that did not keep it). */
  private collectMembers(): void {
    this.memberSlots = growArray(this.memberSlots, this.local.count);
    this.memberHandles = growArray(this.memberHandles, this.local.count);
    const n = this.local.collectLive(this.globalOf, this.memberSlots);
    this.memberSlots.subarray(0, n).sort();
    for (let i = 0; i < n; i++) this.memberHandles[i] = this.localOf[this.memberSlots[i]];
    this.memberCount = n;
    this.membersValid = true;
  }

  /**
   * Brings one box's membership up to date: a member inside takes its new bounds (and its static flag
   * when it may have changed), a box inside that is not a member is inserted, a member outside removed.
   */
  private visit(slot: number, inside: boolean, flagMayChange: boolean): void {
    const member = this.localOf[slot];
    const local = this.local;
    if (inside) {
      const o = slot * this.stride;
      if (member >= 0) {
        const ls = member & SLOT_MASK;
        local.moveFrom(ls, this.bounds, o);
        if (flagMayChange && local.staticAt(ls) !== this.statics[slot]) {
          local.setStatic(member, this.statics[slot] === 1);
        }
      } else {
        const b = this.bounds;
        for (let j = 0; j < this.stride; j++) this.scratch[j] = b[o + j];
        const handle = local.insert(this.scratch, 0, this.statics[slot] === 1);
        this.localOf[slot] = handle;
        const ls = handle & SLOT_MASK;
        if (ls >= this.globalOf.length) this.globalOf = growArray(this.globalOf, ls + 1);
        this.globalOf[ls] = slot;
      }
    } else if (member >= 0) {
      local.remove(member);
      this.localOf[slot] = -1;
    }
  }

  /**
   * The three phases in one (`STEP`), run by every worker of the broadphase at once: classify when the
   * header asks, a barrier, then — unless some box failed its check or some worker failed — the
   * frame, a barrier, and — when every region's output fit — the merge (else the host grows the
   * buffers and asks for the rest). A failure in a phase is rethrown after the worker has passed the
   * barriers the others wait at.
   */
  step(): void {
    const h = this.header;
    const regions = this.outs.length;
    const progress = HEADER_WORDS + REGION_STAT_WORDS * this.region + H_REGION_PROGRESS;
    const classified = h[H_CHECK] === 1 || h[H_MASKED] === 1;
    const t = this.region * T_STRIDE;
    // The milestones, when the host traces (each clock read allocates).
    const tracing = h[H_TRACE] === 1;
    const trace = this.timings;
    if (tracing) {
      trace[t + T_STARTED] = clock();
      trace[t + T_CLASSIFIED] = trace[t + T_STARTED];
      trace[t + T_FIRST_BARRIER] = trace[t + T_STARTED];
    }
    let failure: unknown = null;
    if (classified) {
      try {
        this.classify();
      } catch (error) {
        failure = error;
        Atomics.store(h, H_ABORT, 1);
      }
      h[progress] = 1;
      if (tracing) trace[t + T_CLASSIFIED] = clock();
      this.barrier(regions);
      if (tracing) trace[t + T_FIRST_BARRIER] = clock();
      if (Atomics.load(h, H_ABORT) === 1 || this.anyBad(regions)) {
        if (failure !== null) throw failure;
        return;
      }
    }
    try {
      this.frame(classified);
    } catch (error) {
      failure = error;
      Atomics.store(h, H_ABORT, 1);
    }
    h[progress] = 2;
    if (tracing) trace[t + T_FRAMED] = clock();
    this.barrier(regions);
    if (tracing) trace[t + T_SECOND_BARRIER] = clock();
    if (failure !== null) throw failure;
    if (Atomics.load(h, H_ABORT) !== 1 && this.outputsFit()) this.merge();
    h[progress] = 3;
    if (tracing) trace[t + T_MERGED] = clock();
  }

  /**
   * Waits until all `regions` runners of the broadphase have arrived (spinning for `H_SPIN_US`, then
   * sleeping; the host's runner wakes every couple of milliseconds to run {@link waitCheck}).
   */
  private barrier(regions: number): void {
    if (regions === 1) return;
    const h = this.header;
    const passed = Atomics.load(h, H_BARRIER_PASSED);
    if (Atomics.add(h, H_BARRIER_COUNT, 1) === regions - 1) {
      Atomics.store(h, H_BARRIER_COUNT, 0);
      Atomics.add(h, H_BARRIER_PASSED, 1);
      Atomics.notify(h, H_BARRIER_PASSED);
      return;
    }
    const until = now() + h[H_SPIN_US] / 1000;
    const check = this.waitCheck;
    // Reading the clock allocates (a number on the heap): it is read once every SPIN_TURNS turns.
    let spinning = true;
    for (let turn = 1; Atomics.load(h, H_BARRIER_PASSED) === passed; turn++) {
      if (spinning && (turn % SPIN_TURNS !== 0 || now() <= until)) continue;
      spinning = false;
      Atomics.wait(h, H_BARRIER_PASSED, passed, check ? 2 : 100);
      check?.();
    }
  }

  /** Whether any worker's classify share found a bad box. */
  private anyBad(regions: number): boolean {
    const h = this.header;
    for (let r = 0; r < regions; r++)
      if (h[HEADER_WORDS + REGION_STAT_WORDS * r + H_REGION_BAD] >= 0) return true;
    return false;
  }

  /** Whether every region's pair changes of this frame fit its output buffer. */
  private outputsFit(): boolean {
    for (const out of this.outs)
      if (OUT_PAIRS + 2 * (out[OUT_BEGAN] + out[OUT_ENDED]) > out.length) return false;
    return true;
  }

  /** Phase 3: merges every region's changes for this runner's range of pair keys (merge.ts). */
  merge(): boolean {
    return this.merger.merge(this.region, this.header, this.outs, this.pairs, this.merged);
  }

  /**
   * Writes the last frame's began and ended pairs into the output buffer; when they do not fit,
   * writes only the two counts (the host grows the buffer and asks again). Returns whether they fit.
   */
  writeOutput(): boolean {
    const out = this.outs[this.region];
    const owned = this.ownership;
    const nb = owned.beganCount;
    const ne = owned.endedCount;
    out[OUT_BEGAN] = nb;
    out[OUT_ENDED] = ne;
    if (OUT_PAIRS + 2 * (nb + ne) > out.length) return false;
    copyRange(out, OUT_PAIRS, owned.began, 0, 2 * nb);
    copyRange(out, OUT_PAIRS + 2 * nb, owned.ended, 0, 2 * ne);
    return true;
  }
}
