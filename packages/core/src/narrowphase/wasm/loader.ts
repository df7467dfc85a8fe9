/**
 * Loads the OCSI WebAssembly SIMD kernel (ocsiKernel.as, embedded as base64 by scripts/build-wasm.mjs)
 * synchronously, in Node and browsers, without fetch (wasmKernel.ts). The module is compiled once (3.6 KB,
 * under the 4 KB limit browsers put on synchronous compilation on the main thread); each `OcsiBatch`
 * instantiates it over a memory of its own, so no batch's views are ever detached by another's growth.
 * Returns null when WebAssembly or its SIMD extension is unavailable (or forbidden by a
 * content-security policy): callers fall back to the TypeScript kernels.
 */
import { WasmKernel, type WasmMemoryLike } from '../../wasmKernel.js';
import { OCSI_KERNEL_BASE64 } from './ocsiKernel.generated.js';

export type { WasmMemoryLike };

/** The kernel's exports (addresses and sizes in bytes/lanes; see ocsiKernel.as for the layout). */
export interface OcsiWasmExports {
  ocsiOverlapUniform(base: number, cap: number, n: number, shape: number, out: number): number;
  ocsiOverlapLanes(
    base: number,
    cap: number,
    n: number,
    shape: number,
    shapeCap: number,
    out: number,
  ): number;
  ocsiDistanceSq(
    base: number,
    cap: number,
    n: number,
    shape: number,
    shapeCap: number,
    shapeStride: number,
    out: number,
  ): void;
}

const kernel = new WasmKernel<OcsiWasmExports>(OCSI_KERNEL_BASE64);

/** The kernel's bytes (decoded from the embedded base64). */
export function ocsiKernelBytes(): Uint8Array {
  return kernel.bytes();
}

/** Whether the WebAssembly SIMD kernel can run here (WebAssembly with SIMD, compilation allowed). */
export function ocsiWasmAvailable(): boolean {
  return kernel.available();
}

/**
 * A new memory of `bytes` bytes (rounded up to 64 KiB pages) with the kernel instantiated over it, or
 * null when the kernel cannot run here.
 */
export function instantiateOcsiKernel(
  bytes: number,
): { memory: WasmMemoryLike; exports: OcsiWasmExports } | null {
  return kernel.instantiate(bytes);
}
