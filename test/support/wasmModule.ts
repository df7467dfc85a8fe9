/**
 * `WebAssembly.Module` as the kernel tests use it: the project's TypeScript lib has no WebAssembly value
 * types, so this describes the little they need (compiling bytes, listing exports and imports).
 */

/** The static side of `WebAssembly.Module` the tests call. */
export interface WasmModuleApi {
  new (bytes: Uint8Array): object;
  exports(m: object): { name: string }[];
  imports(m: object): { module: string; name: string; kind: string }[];
}

/** The runtime's `WebAssembly.Module`. */
export const WasmModule = (globalThis as unknown as { WebAssembly: { Module: WasmModuleApi } }).WebAssembly
  .Module;
