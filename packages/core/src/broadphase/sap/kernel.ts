/**
 * Runs a busy update's passes in WebAssembly (kernelHeap.ts, wasm/passKernel.as): the same steps as
 * `SapPasses.writeRegionValues` with every box and `SapPasses.passRegion` on each axis, over the same
 * arrays, compiled ahead of time: those loops, half of a frame at 100 000 moving boxes, ran 1.9× faster
 * alone, and whole frames 1.2× (measured on the 2-core AMD EPYC host this project runs on). The swaps whose pairs
 * meet on the other axes come back as records and go through the same swap rule, in the order the
 * sifts made them, so the pair set sees the same calls as on the TypeScript path.
 *
 * Before a kernel frame, every array the kernel touches is moved into its heap (see kernelHeap.ts). A
 * box entering a region can grow the entry arrays or the endpoint arena in the middle of the frame
 * (as plain arrays again): from then on the frame's remaining regions run in TypeScript, and the next
 * kernel frame moves the grown arrays in.
 */
import { growArray } from '../../growArray.js';
import { SapCrossings } from './crossings.js';
import { type HeapArray, heapBytes, KernelHeap } from './kernelHeap.js';
import { listAt } from './layout.js';
import type { SweepAndPruneOptions } from './options.js';

/** Kernel arrays other than the per-axis ones (see kernelArray). */
const FIXED_ARRAYS = 8;
/** Arrays per axis: values, tokens and their spares. */
const AXIS_ARRAYS = 4;

const EMPTY = new Int32Array(0);

/** The kernel's heap and the frames it runs. */
export abstract class SapKernel extends SapCrossings {
  /** The kernel's heap (null until a frame first needs it, or where it cannot run). */
  private heap: KernelHeap | null = null;
  /** The store size below which no heap is made again after one could not be had. */
  private heapRetryAt = 0;
  /**
   * Boxes from which a busy update runs its passes in the kernel: below, a frame is too short for the
   * kernel to pay (tests lower it to 0, and raise it to 2^31 − 1 for the TypeScript path: an integer,
   * since reading a field that holds a double allocates in code the engine has not optimized).
   * @internal
   */
  protected kernelFrom = 256;
  /**
   * The fewest swap records a kernel call has room for (more when a region is longer): tests lower it
   * so that calls stop and resume.
   * @internal
   */
  protected kernelCapacity = 1024;
  /** Kernel calls that stopped with their record buffer full and were resumed (for the tests). */
  protected kernelStops = 0;
  /** A region's entries, for the kernel's write step (made with the heap). */
  private kernelEntries: Int32Array = EMPTY;
  /** The kernel's swap records, 3 numbers each: as many as `kernelEntries` has room for. */
  private kernelRecords: Int32Array = EMPTY;

  protected constructor(options: SweepAndPruneOptions) {
    super(options);
  }

  /** The swap rule of a pass (passes.ts). */
  protected abstract swapOnAxis(ea: number, eb: number, k: number, isMax: number): void;

  /**
   * Whether this busy update's passes run in the kernel: every array it touches is then in its heap
   * (moved in here when it was not), and the kernel knows where.
   */
  protected kernelReady(): boolean {
    if (this.store.count < this.kernelFrom) return false;
    if (this.heap === null && (this.store.count < this.heapRetryAt || !KernelHeap.available())) return false;
    // Room for the longest region's entries and records (and for `kernelCapacity` records at least).
    let room = Math.max(this.kernelCapacity, 1);
    for (let r = 0; r < this.regionsUsed; r++) {
      if (this.regionStart[r] >= 0 && this.regionLength[r] > room) room = this.regionLength[r];
    }
    if (this.kernelEntries.length < room) {
      this.kernelEntries = growArray(EMPTY, room);
      this.kernelRecords = growArray(EMPTY, 3 * this.kernelEntries.length);
    }
    const count = FIXED_ARRAYS + AXIS_ARRAYS * this.dimensions;
    let missing = 0;
    let total = 0;
    for (let i = 0; i < count; i++) {
      const a = this.kernelArray(i);
      total += heapBytes(a);
      if (this.heap === null || !this.heap.holds(a)) missing += heapBytes(a);
    }
    if (missing > 0) {
      let heap = this.heap;
      if (heap === null || missing > heap.free) {
        // A new heap for every array, with room for a few of them to double before the next move.
        heap = KernelHeap.create(Math.ceil(total * 1.25) + 65536);
        if (heap === null) {
          this.heap = null;
          this.heapRetryAt = 2 * this.store.count;
          return false;
        }
        this.heap = heap;
      }
      for (let i = 0; i < count; i++) {
        const a = this.kernelArray(i);
        if (!heap.holds(a)) this.kernelArray(i, heap.copy(a));
      }
    }
    this.bindKernel();
    return true;
  }

  /** Whether the arrays a box entering a region may grow are still the heap's (see the header). */
  protected kernelStillHeld(): boolean {
    const heap = this.heap as KernelHeap;
    return heap.holds(this.where) && heap.holds(this.arena.values[0]);
  }

  /**
   * Region r's new values and its passes, in the kernel (a region longer than the kernel's buffers
   * returns false and is left to the TypeScript path).
   */
  protected kernelRegion(r: number): boolean {
    const n = this.regionLength[r];
    if (n > this.kernelEntries.length) return false;
    const kernel = (this.heap as KernelHeap).kernel;
    const d = this.dimensions;
    const records = this.kernelRecords;
    // Any room of at least the region's length lets every call make progress (see passKernel.as);
    // kernelReady made the buffers this long.
    const capacity = Math.max(n, this.kernelCapacity);
    const anyFixed = this.fixedCount > 0 ? 1 : 0;
    const f0 = this.listFirst[listAt(r, 0)];
    const f1 = this.listFirst[listAt(r, 1)];
    const f2 = d === 3 ? this.listFirst[listAt(r, 2)] : f1;
    let axis = 0;
    let at = -1;
    for (;;) {
      const made = kernel.passRegion(f0, f1, f2, n, d, anyFixed, capacity, axis, at);
      for (let i = 0; i < made; i++) {
        const token = records[3 * i];
        this.swapOnAxis(token >> 1, records[3 * i + 1] >> 1, records[3 * i + 2], token & 1);
      }
      at = kernel.resumeIndex();
      if (at < 0) return true;
      axis = kernel.resumeAxis();
      this.kernelStops++;
    }
  }

  /** Tells the kernel where its arrays are. */
  private bindKernel(): void {
    const a = this.arena;
    const d = this.dimensions;
    const v2 = d === 3 ? a.values[2] : a.values[1];
    const t2 = d === 3 ? a.tokens[2] : a.tokens[1];
    (this.heap as KernelHeap).kernel.setArrays(
      a.values[0].byteOffset,
      a.values[1].byteOffset,
      v2.byteOffset,
      a.tokens[0].byteOffset,
      a.tokens[1].byteOffset,
      t2.byteOffset,
      this.where.byteOffset,
      this.entryObject.byteOffset,
      this.store.bounds.byteOffset,
      this.fixed.byteOffset,
      this.kernelEntries.byteOffset,
      this.kernelRecords.byteOffset,
    );
  }

  /**
   * The i-th array the kernel touches or may be handed (the spares swap in), by number; with `to` (a
   * copy of it), its field points at the copy first.
   */
  private kernelArray(i: number, to?: HeapArray): HeapArray {
    switch (i) {
      case 0:
        if (to) this.where = to as Int32Array;
        return this.where;
      case 1:
        if (to) this.spareWhere = to as Int32Array;
        return this.spareWhere;
      case 2:
        if (to) this.entryObject = to as Int32Array;
        return this.entryObject;
      case 3:
        if (to) this.spareObject = to as Int32Array;
        return this.spareObject;
      case 4:
        if (to) this.store.bounds = to as Float64Array;
        return this.store.bounds;
      case 5:
        if (to) this.fixed = to as Uint8Array;
        return this.fixed;
      case 6:
        if (to) this.kernelEntries = to as Int32Array;
        return this.kernelEntries;
      case 7:
        if (to) this.kernelRecords = to as Int32Array;
        return this.kernelRecords;
    }
    const k = ((i - FIXED_ARRAYS) / AXIS_ARRAYS) | 0;
    const a = this.arena;
    switch ((i - FIXED_ARRAYS) % AXIS_ARRAYS) {
      case 0:
        if (to) a.values[k] = to as Float64Array;
        return a.values[k];
      case 1:
        if (to) a.tokens[k] = to as Int32Array;
        return a.tokens[k];
      // A spare the arena has not made yet stays unmade.
      case 2:
        if (to && a.spareValues[k] !== undefined) a.spareValues[k] = to as Float64Array;
        return a.spareValues[k] ?? EMPTY;
      default:
        if (to && a.spareTokens[k] !== undefined) a.spareTokens[k] = to as Int32Array;
        return a.spareTokens[k] ?? EMPTY;
    }
  }
}
