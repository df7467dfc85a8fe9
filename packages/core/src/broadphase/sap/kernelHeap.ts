/**
 * The memory of SweepAndPrune's WebAssembly pass kernel (wasm/passKernel.as): one fixed-size
 * `WebAssembly.Memory` holding the arrays the kernel reads and writes, handed out by a bump allocator
 * (never grown, so no view of it is ever detached). The sweep and prune keeps growing its arrays as
 * plain typed arrays, as always; before a kernel frame it moves every array the kernel touches into
 * its heap (a copy, then the field points at the copy) — when the heap has no room left, into a new,
 * larger heap with all of them, which also drops the copies left behind by growth. So a frame in which
 * nothing grew moves nothing, and the kernel and the TypeScript path work on the very same arrays.
 *
 * The kernel is optional: without WebAssembly, or where compiling it is forbidden, the heap is never
 * made and every pass runs in TypeScript, with the same results.
 */
import { WasmKernel } from '../../wasmKernel.js';
import { PASS_KERNEL_BASE64 } from './wasm/passKernel.generated.js';

/** The pass kernel's exports (byte addresses; see passKernel.as). */
export interface PassKernel {
  setArrays(
    values0: number,
    values1: number,
    values2: number,
    tokens0: number,
    tokens1: number,
    tokens2: number,
    where: number,
    entryObject: number,
    bounds: number,
    fixed: number,
    entries: number,
    records: number,
  ): void;
  passRegion(
    first0: number,
    first1: number,
    first2: number,
    length: number,
    dimensions: number,
    anyFixed: number,
    capacity: number,
    axis: number,
    at: number,
  ): number;
  resumeAxis(): number;
  resumeIndex(): number;
}

const kernel = new WasmKernel<PassKernel>(PASS_KERNEL_BASE64);

/** The pass kernel's bytes (decoded from the embedded base64). */
export function passKernelBytes(): Uint8Array {
  return kernel.bytes();
}

/** The typed arrays a heap holds. */
export type HeapArray = Float64Array | Int32Array | Uint8Array;

/** Bytes a copy of `a` takes in a heap (16-byte aligned). */
export function heapBytes(a: HeapArray): number {
  return (a.byteLength + 15) & ~15;
}

/** A fixed-size kernel memory with a bump allocator. */
export class KernelHeap {
  /** The memory's buffer: an array lies in the heap when its buffer is this one. */
  readonly buffer: ArrayBuffer;
  /** The kernel, instantiated over this memory. */
  readonly kernel: PassKernel;
  /** Bytes handed out. */
  private top = 0;

  private constructor(buffer: ArrayBuffer, exports: PassKernel) {
    this.buffer = buffer;
    this.kernel = exports;
  }

  /** Whether the kernel can run here at all. */
  static available(): boolean {
    return kernel.available();
  }

  /** A heap of at least `bytes` bytes, or null when the kernel cannot run here or the memory cannot be had. */
  static create(bytes: number): KernelHeap | null {
    const made = kernel.instantiate(bytes);
    return made ? new KernelHeap(made.memory.buffer, made.exports) : null;
  }

  /** Whether array `a` lies in this heap. */
  holds(a: HeapArray): boolean {
    return a.buffer === this.buffer;
  }

  /** Bytes still free. */
  get free(): number {
    return this.buffer.byteLength - this.top;
  }

  /** A copy of `a` in the heap (the caller made sure there is room: see {@link free}). */
  copy<T extends HeapArray>(a: T): T {
    const at = this.top;
    this.top += heapBytes(a);
    const Kind = a.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T;
    const out = new Kind(this.buffer, at, a.length);
    out.set(a as never);
    return out;
  }
}
