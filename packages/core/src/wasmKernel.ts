/**
 * Loads an embedded WebAssembly kernel (its bytes as base64, written by scripts/build-wasm.mjs)
 * synchronously, in Node and browsers, without fetch: the module is compiled once, on first use, and
 * each user instantiates it over a memory of its own whose size never changes (initial = maximum), so
 * no view of it is ever detached by a growth. Reports the kernel unavailable when WebAssembly (or an
 * extension the kernel uses) is missing or compilation is forbidden by a content-security policy:
 * callers then run their TypeScript path, which gives the same results.
 */

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

/** Decodes standard base64 (no Buffer or atob: both are missing somewhere this package runs). */
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

function wasmApi(): WasmApi | null {
  if (api === undefined) {
    const g = globalThis as { WebAssembly?: WasmApi };
    api = g.WebAssembly && typeof g.WebAssembly.validate === 'function' ? g.WebAssembly : null;
  }
  return api;
}

/** One embedded kernel: compiled on first use, instantiated over fixed-size memories. */
export class WasmKernel<Exports> {
  private compiled: object | null | undefined;

  /** `base64`: the module's bytes. */
  constructor(private readonly base64: string) {}

  /** The module's bytes. */
  bytes(): Uint8Array {
    return decodeBase64(this.base64);
  }

  /** Whether the kernel can run here (WebAssembly present, the module valid, compilation allowed). */
  available(): boolean {
    if (this.compiled === undefined) {
      this.compiled = null;
      const w = wasmApi();
      if (w) {
        try {
          const bytes = this.bytes();
          if (w.validate(bytes)) this.compiled = new w.Module(bytes);
        } catch {
          this.compiled = null;
        }
      }
    }
    return this.compiled !== null;
  }

  /**
   * A new memory of `bytes` bytes (rounded up to 64 KiB pages, never grown) with the kernel
   * instantiated over it, or null when the kernel cannot run here or the memory cannot be had.
   */
  instantiate(bytes: number): { memory: WasmMemoryLike; exports: Exports } | null {
    if (!this.available()) return null;
    const w = wasmApi() as WasmApi;
    try {
      const pages = Math.max(1, Math.ceil(bytes / 65536));
      const memory = new w.Memory({ initial: pages, maximum: pages });
      const inst = new w.Instance(this.compiled as object, { env: { memory } });
      return { memory, exports: inst.exports as unknown as Exports };
    } catch {
      return null;
    }
  }
}
