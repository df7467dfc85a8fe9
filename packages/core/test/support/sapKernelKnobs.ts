/**
 * The internal knobs of SweepAndPrune's WebAssembly passes that the tests reach (kernel.ts): from how
 * many boxes the kernel runs, how many swap records a call has room for, and what it did.
 */
import type { SweepAndPrune } from '../../src/index.js';

/** The kernel's internal fields, as the tests read and set them. */
export interface SapKernelKnobs {
  /** The kernel's heap (null while none was made). */
  heap: unknown;
  /** Boxes from which the kernel runs (integers only: see kernel.ts). */
  kernelFrom: number;
  /** The fewest swap records a kernel call has room for. */
  kernelCapacity: number;
  /** Kernel calls that stopped with a full record buffer and were resumed. */
  kernelStops: number;
}

/** The kernel knobs of a SweepAndPrune. */
export function kernelKnobs(bp: SweepAndPrune): SapKernelKnobs {
  return bp as unknown as SapKernelKnobs;
}

/**
 * Has a SweepAndPrune run the passes of its busy updates in WebAssembly from its first box (not only
 * from 256), with room for `records` swap records a call (fewer make kernel calls stop and resume).
 */
export function kernelFromFirstBox<T extends SweepAndPrune>(bp: T, records = 1024): T {
  const knobs = kernelKnobs(bp);
  knobs.kernelFrom = 0;
  knobs.kernelCapacity = records;
  return bp;
}

/** Has a SweepAndPrune run every pass in TypeScript (2^31 − 1 boxes: never the kernel). */
export function typescriptPassesOnly<T extends SweepAndPrune>(bp: T): T {
  kernelKnobs(bp).kernelFrom = 0x7fffffff;
  return bp;
}
