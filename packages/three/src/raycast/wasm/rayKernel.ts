/**
 * The WebAssembly SIMD ray walks (`rayKernel.as`, embedded as base64 by scripts/build-wasm.mjs): loaded
 * synchronously in Node and browsers, without fetch. The module is compiled once (under the 4 KB browsers
 * allow for synchronous compilation on the main thread); each tree instantiates it over a memory of its
 * own holding its records and triangles, so no tree's views are ever detached by another's. Returns
 * null when WebAssembly or its SIMD extension is unavailable (or forbidden by a content-security
 * policy): the walks of `../walks.ts` then run in TypeScript.
 *
 * Follows `@sieve/core`'s loader of its OCSI kernel.
 */
import { RAY_KERNEL_BASE64 } from './rayKernel.generated.js';

/** The kernel's exports (see rayKernel.as for the memory layout they read). */
export interface RayKernelExports {
  walkAll(): number;
  walkFirst(): number;
}

/** The kernel over a memory of its own. */
export interface RayKernel {
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly exports: RayKernelExports;
}

// The subset of the WebAssembly JS API used here (the package's TS lib has no WebAssembly types).
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number; maximum?: number }) => { readonly buffer: ArrayBuffer };
}

let api: WasmApi | null | undefined;
let compiled: object | null | undefined;
let enabled = true;

/** The kernel's bytes (decoded from the embedded base64). */
export function rayKernelBytes(): Uint8Array {
  const text = (globalThis as unknown as { atob(s: string): string }).atob(RAY_KERNEL_BASE64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Whether the kernel can run here (WebAssembly with SIMD, compilation allowed, not switched off). */
export function rayKernelAvailable(): boolean {
  if (!enabled) return false;
  if (compiled === undefined) {
    compiled = null;
    if (api === undefined) {
      const g = globalThis as { WebAssembly?: WasmApi };
      api = g.WebAssembly && typeof g.WebAssembly.validate === 'function' ? g.WebAssembly : null;
    }
    if (api) {
      try {
        const bytes = rayKernelBytes();
        if (api.validate(bytes)) compiled = new api.Module(bytes);
      } catch {
        compiled = null;
      }
    }
  }
  return compiled !== null;
}

/**
 * Switches the kernel off (`false`: trees built from then on walk in TypeScript) or back on; see
 * `configureRayKernel` in ../wasmTree.ts.
 * @internal
 */
export function setRayKernelEnabled(on: boolean): void {
  enabled = on;
}

/**
 * A new memory of `bytes` bytes (rounded up to 64 KiB pages) with the kernel instantiated over it, or
 * null when the kernel cannot run here.
 */
export function instantiateRayKernel(bytes: number): RayKernel | null {
  if (!rayKernelAvailable()) return null;
  const w = api as WasmApi;
  try {
    const pages = Math.max(1, Math.ceil(bytes / 65536));
    const memory = new w.Memory({ initial: pages, maximum: pages });
    const inst = new w.Instance(compiled as object, { env: { memory } });
    return { memory, exports: inst.exports as unknown as RayKernelExports };
  } catch {
    return null;
  }
}
