/**
 * Getting a WebGPU device without depending on WebGPU: the few WebGPU interfaces the GPU triangle
 * pass uses, declared locally (so `@sieve/core/gpu` adds no type requirement on its consumers — a
 * real `GPUDevice` from a browser, from `@webgpu/types` or from the npm package `webgpu` fits them),
 * and {@link requestGpuDevice}: a passed-in device, else `navigator.gpu`, else (in Node, on request)
 * the npm package `webgpu` (Dawn), loaded by a dynamic import only then.
 *
 * Follows the WebGPU specification (W3C, "GPUAdapter.requestDevice", buffer usage and map-mode flag
 * values) and Dawn's Node binding (`create(flags)` returning a `navigator.gpu` equivalent).
 */

/** The subset of `GPUBuffer` the pass uses. */
export interface GpuBufferLike {
  readonly size: number;
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

/** The subset of `GPUComputePassEncoder` the pass uses. */
export interface GpuComputePassLike {
  setPipeline(pipeline: never): void;
  setBindGroup(index: number, group: never): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

/** The subset of `GPUCommandEncoder` the pass uses. */
export interface GpuCommandEncoderLike {
  beginComputePass(descriptor?: never): GpuComputePassLike;
  copyBufferToBuffer(src: never, srcOffset: number, dst: never, dstOffset: number, size: number): void;
  finish(): unknown;
}

/** The subset of `GPUDevice` the pass uses (a real `GPUDevice` is one). */
export interface GpuDeviceLike {
  readonly limits: {
    readonly maxStorageBufferBindingSize: number;
    readonly maxComputeWorkgroupsPerDimension: number;
  };
  readonly queue: {
    writeBuffer(buffer: never, offset: number, data: never, dataOffset?: number, size?: number): void;
    submit(commandBuffers: never): void;
  };
  createBuffer(descriptor: { size: number; usage: number; label?: string }): GpuBufferLike;
  createShaderModule(descriptor: { code: string; label?: string }): unknown;
  createComputePipeline(descriptor: never): { getBindGroupLayout(index: number): unknown };
  createBindGroup(descriptor: never): unknown;
  createCommandEncoder(descriptor?: never): GpuCommandEncoderLike;
  pushErrorScope?(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope?(): Promise<{ message: string } | null>;
  destroy(): void;
}

/** The subset of `GPUAdapter` used to get a device. */
export interface GpuAdapterLike {
  readonly info?: { readonly vendor?: string; readonly architecture?: string; readonly description?: string };
  requestDevice(descriptor?: never): Promise<unknown>;
}

/** The subset of `GPU` (`navigator.gpu`) used to get an adapter. */
export interface GpuLike {
  requestAdapter(options?: never): Promise<GpuAdapterLike | null>;
}

/** `GPUBufferUsage` flag values (WebGPU specification), so no WebGPU global is needed. */
export const BUFFER_USAGE = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

/** `GPUMapMode.READ`. */
export const MAP_READ = 0x0001;

/** Options of {@link requestGpuDevice}. */
export interface GpuDeviceOptions {
  /** A device to use as is (a `GPUDevice`). */
  device?: GpuDeviceLike;
  /** Where to request an adapter (default `navigator.gpu` when present). */
  gpu?: GpuLike;
  /**
   * In Node (no `navigator.gpu`): try the npm package `webgpu` (Dawn), an optional peer dependency.
   * `true` (default) loads it with no flags; an array is passed to its `create(flags)` (for instance
   * `['backend=vulkan']`). `false` never loads it.
   */
  node?: boolean | readonly string[];
  /** Adapter power preference, passed to `requestAdapter`. */
  powerPreference?: 'low-power' | 'high-performance';
}

/** What {@link requestGpuDevice} found: a device and where it came from, or why there is none. */
export type GpuDeviceResult =
  | {
      device: GpuDeviceLike;
      source: 'given' | 'navigator.gpu' | 'webgpu';
      adapter: string;
      /**
       * The `GPU` object the device came from (`null` for a given device). Keep it referenced while
       * the device is in use: Dawn's Node binding tears its instance down when it is collected.
       */
      gpu: GpuLike | null;
    }
  | { device: null; source: 'none'; reason: string };

/** Adapter description for reports: vendor, architecture and description, where the adapter says. */
function describeAdapter(adapter: GpuAdapterLike): string {
  const info = adapter.info;
  if (!info) return 'unknown adapter';
  const parts = [info.vendor, info.architecture, info.description].filter((s) => !!s);
  return parts.length > 0 ? parts.join(' / ') : 'unknown adapter';
}

/**
 * Finds a WebGPU device: `options.device` as is; else an adapter from `options.gpu` or
 * `navigator.gpu`; else, in Node and unless `options.node` is `false`, from the npm package `webgpu`
 * (Dawn), imported dynamically. Never throws for a missing WebGPU: the result then has `device: null`
 * and a `reason` saying what was missing (no `navigator.gpu`, package not installed, no adapter).
 */
export async function requestGpuDevice(options: GpuDeviceOptions = {}): Promise<GpuDeviceResult> {
  if (options.device) return { device: options.device, source: 'given', adapter: 'given device', gpu: null };
  const reasons: string[] = [];
  let gpu = options.gpu ?? null;
  let source: 'navigator.gpu' | 'webgpu' = 'navigator.gpu';
  if (!gpu) {
    const nav = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator;
    if (nav?.gpu) gpu = nav.gpu;
    else reasons.push('no navigator.gpu');
  }
  const isNode =
    typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ===
    'string';
  if (!gpu && isNode && options.node !== false) {
    const flags = Array.isArray(options.node) ? [...options.node] : [];
    try {
      // A variable specifier keeps bundlers from resolving the optional peer.
      const spec = 'webgpu';
      const mod = (await import(/* @vite-ignore */ spec)) as { create?: (flags: string[]) => GpuLike };
      if (typeof mod.create !== 'function') reasons.push('npm package webgpu has no create()');
      else {
        gpu = mod.create(flags);
        source = 'webgpu';
      }
    } catch (e) {
      reasons.push(`npm package webgpu not loadable (${(e as Error).message.split('\n')[0]})`);
    }
  }
  if (!gpu) return { device: null, source: 'none', reason: reasons.join('; ') };
  let adapter: GpuAdapterLike | null = null;
  try {
    adapter = await gpu.requestAdapter(
      (options.powerPreference ? { powerPreference: options.powerPreference } : undefined) as never,
    );
  } catch (e) {
    reasons.push(`requestAdapter failed (${(e as Error).message})`);
  }
  if (!adapter) {
    if (reasons.length === 0 || reasons[reasons.length - 1].indexOf('requestAdapter') < 0) {
      reasons.push(`no WebGPU adapter from ${source}`);
    }
    return { device: null, source: 'none', reason: reasons.join('; ') };
  }
  try {
    const device = (await adapter.requestDevice()) as GpuDeviceLike;
    return { device, source, adapter: describeAdapter(adapter), gpu };
  } catch (e) {
    reasons.push(`requestDevice failed (${(e as Error).message})`);
    return { device: null, source: 'none', reason: reasons.join('; ') };
  }
}
