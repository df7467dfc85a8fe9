/**
 * Loads the OCSI WebAssembly SIMD kernel (ocsiKernel.as, embedded as base64 by scripts/build-wasm.mjs)
 * synchronously, in Node and browsers, without fetch. The module is compiled once (3.6 KB, under the
 * 4 KB limit browsers put on synchronous compilation on the main thread); each `OcsiBatch` instantiates it
 * over a memory of its own, so no batch's views are ever detached by another's growth. Returns null when
 * WebAssembly or its SIMD extension is unavailable (or forbidden by a content-security policy): callers
 * fall back to the TypeScript kernels.
 */
import { OCSI_KERNEL_BASE64 } from './ocsiKernel.generated.js';

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

/** The minimal structural view of a `WebAssembly.Memory` this package needs. */
export interface WasmMemoryLike {
  readonly buffer: ArrayBuffer;
}

// The subset of the WebAssembly JS API used here (the project's TS lib has no DOM/WebAssembly types).
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number; maximum?: number }) => WasmMemoryLike;
}

function decodeBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lookup = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) lookup[alphabet.charCodeAt(i)] = i;
  let len = text.length;
  while (len > 0 && text[len - 1] === '=') len--;
  const out = new Uint8Array((len * 3) >> 2);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < len; i++) {
    acc = (acc << 6) | lookup[text.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

let api: WasmApi | null | undefined;
let compiled: object | null | undefined;

function wasmApi(): WasmApi | null {
  if (api === undefined) {
    const g = globalThis as { WebAssembly?: WasmApi };
    api = g.WebAssembly && typeof g.WebAssembly.validate === 'function' ? g.WebAssembly : null;
  }
  return api;
}

/** The kernel's bytes (decoded from the embedded base64). */
export function ocsiKernelBytes(): Uint8Array {
  return decodeBase64(OCSI_KERNEL_BASE64);
}

/** Whether the WebAssembly SIMD kernel can run here (WebAssembly with SIMD, compilation allowed). */
export function ocsiWasmAvailable(): boolean {
  if (compiled === undefined) {
    compiled = null;
    const w = wasmApi();
    if (w) {
      try {
        const bytes = ocsiKernelBytes();
        if (w.validate(bytes)) compiled = new w.Module(bytes);
      } catch {
        compiled = null;
      }
    }
  }
  return compiled !== null;
}

/**
 * A new memory of `bytes` bytes (rounded up to 64 KiB pages) with the kernel instantiated over it, or
 * null when the kernel cannot run here.
 */
export function instantiateOcsiKernel(
  bytes: number,
): { memory: WasmMemoryLike; exports: OcsiWasmExports } | null {
  if (!ocsiWasmAvailable()) return null;
  const w = wasmApi() as WasmApi;
  try {
    const pages = Math.max(1, Math.ceil(bytes / 65536));
    const memory = new w.Memory({ initial: pages, maximum: pages });
    const inst = new w.Instance(compiled as object, { env: { memory } });
    return { memory, exports: inst.exports as unknown as OcsiWasmExports };
  } catch {
    return null;
  }
}
