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

import { checkOptionKeys, optionKeys } from '../options.js';

/** The subset of `GPUBuffer` the pass uses. */
export interface GpuBufferLike {
  /** Size of the buffer in bytes, as allocated by `createBuffer`. */
  readonly size: number;
  /**
   * `GPUBuffer.mapAsync`: maps the buffer for CPU access; resolves once the GPU work writing it has
   * finished. `mode` is a `GPUMapMode` flag ({@link MAP_READ}); `offset` and `size` in bytes (default:
   * the whole buffer). Rejects if the buffer was destroyed or is already mapped.
   */
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  /**
   * `GPUBuffer.getMappedRange`: the mapped bytes from `offset` (default 0) for `size` bytes (default:
   * to the end). Valid until {@link GpuBufferLike.unmap}; throws if the buffer is not mapped.
   */
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  /** `GPUBuffer.unmap`: ends a mapping; the ranges from `getMappedRange` become detached. */
  unmap(): void;
  /** `GPUBuffer.destroy`: frees the buffer's GPU memory at once; later use is a validation error. */
  destroy(): void;
}

/** The subset of `GPUComputePassEncoder` the pass uses. */
export interface GpuComputePassLike {
  /** `GPUComputePassEncoder.setPipeline`: the compute pipeline the next dispatches run. */
  setPipeline(pipeline: never): void;
  /** `setBindGroup`: binds a `GPUBindGroup` to group slot `index` (0-based) of the pipeline layout. */
  setBindGroup(index: number, group: never): void;
  /**
   * `dispatchWorkgroups`: runs `x × y × z` workgroups (`y`, `z` default 1); each count at most the
   * device's `maxComputeWorkgroupsPerDimension`.
   */
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  /** `end`: closes the pass; the encoder can record again afterwards. */
  end(): void;
}

/** The subset of `GPUCommandEncoder` the pass uses. */
export interface GpuCommandEncoderLike {
  /** `GPUCommandEncoder.beginComputePass`: starts recording a compute pass. */
  beginComputePass(descriptor?: never): GpuComputePassLike;
  /**
   * `copyBufferToBuffer`: records a copy of `size` bytes from `src` at `srcOffset` to `dst` at
   * `dstOffset` (offsets and size multiples of 4 bytes, as WebGPU requires).
   */
  copyBufferToBuffer(src: never, srcOffset: number, dst: never, dstOffset: number, size: number): void;
  /** `finish`: ends recording and returns the `GPUCommandBuffer` to pass to `queue.submit`. */
  finish(): unknown;
}

/** The subset of `GPUDevice` the pass uses (a real `GPUDevice` is one). */
export interface GpuDeviceLike {
  /** `GPUDevice.limits`: the two limits the pass sizes its buffers and dispatches by. */
  readonly limits: {
    /** Largest storage-buffer binding, in bytes (WebGPU guarantees at least 128 MiB). */
    readonly maxStorageBufferBindingSize: number;
    /** Largest workgroup count in one dimension of a dispatch (WebGPU guarantees at least 65 535). */
    readonly maxComputeWorkgroupsPerDimension: number;
  };
  /** `GPUDevice.queue`: uploads and submissions. */
  readonly queue: {
    /**
     * `GPUQueue.writeBuffer`: copies `data` into `buffer` at byte `offset`. For a typed array,
     * `dataOffset` and `size` count elements (default: all of it); for an `ArrayBuffer`, bytes.
     */
    writeBuffer(buffer: never, offset: number, data: never, dataOffset?: number, size?: number): void;
    /** `GPUQueue.submit`: runs the command buffers (from `finish()`) in order. */
    submit(commandBuffers: never): void;
  };
  /**
   * `GPUDevice.createBuffer`: a buffer of `size` bytes, `usage` a bitwise OR of {@link BUFFER_USAGE}
   * flags; `label` names it in validation messages.
   */
  createBuffer(descriptor: { size: number; usage: number; label?: string }): GpuBufferLike;
  /** `createShaderModule`: compiles WGSL `code`; errors surface through the error scope. */
  createShaderModule(descriptor: { code: string; label?: string }): unknown;
  /** `createComputePipeline`: a compute pipeline with an `auto` layout. */
  createComputePipeline(descriptor: never): {
    /** `GPUComputePipeline.getBindGroupLayout`: the layout of bind group `index` (0-based). */
    getBindGroupLayout(index: number): unknown;
  };
  /** `createBindGroup`: binds buffers to a bind-group layout's slots. */
  createBindGroup(descriptor: never): unknown;
  /** `createCommandEncoder`: starts recording GPU commands. */
  createCommandEncoder(descriptor?: never): GpuCommandEncoderLike;
  /**
   * `GPUDevice.pushErrorScope`: captures errors of the given kind until the matching
   * `popErrorScope`. Optional here: devices without it are used without error capture.
   */
  pushErrorScope?(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  /** `GPUDevice.popErrorScope`: the first error captured since the matching push, or `null`. */
  popErrorScope?(): Promise<{
    /** The implementation's description of the error. */
    message: string;
  } | null>;
  /** `GPUDevice.destroy`: releases the device and every buffer made from it. */
  destroy(): void;
}

/** The subset of `GPUAdapter` used to get a device. */
export interface GpuAdapterLike {
  /** `GPUAdapter.info` (absent in older implementations); only used to describe the adapter. */
  readonly info?: {
    /** GPU vendor, e.g. `"nvidia"`; may be empty. */
    readonly vendor?: string;
    /** GPU family or architecture, e.g. `"hopper"`; may be empty. */
    readonly architecture?: string;
    /** Free-form description of the adapter; may be empty. */
    readonly description?: string;
  };
  /** `GPUAdapter.requestDevice`: a `GPUDevice` with default limits; rejects if none can be made. */
  requestDevice(descriptor?: never): Promise<unknown>;
}

/** The subset of `GPU` (`navigator.gpu`) used to get an adapter. */
export interface GpuLike {
  /** `GPU.requestAdapter`: an adapter, or `null` when the system has none that fits. */
  requestAdapter(options?: never): Promise<GpuAdapterLike | null>;
}

/** `GPUBufferUsage` flag values (WebGPU specification), so no WebGPU global is needed. */
export const BUFFER_USAGE = {
  /** The buffer can be mapped for reading (only together with `COPY_DST`). */
  MAP_READ: 0x0001,
  /** The buffer can be the source of a copy. */
  COPY_SRC: 0x0004,
  /** The buffer can be the destination of a copy or of `queue.writeBuffer`. */
  COPY_DST: 0x0008,
  /** The buffer can be bound as a uniform buffer. */
  UNIFORM: 0x0040,
  /** The buffer can be bound as a storage buffer. */
  STORAGE: 0x0080,
} as const;

/** `GPUMapMode.READ` (WebGPU specification): the map mode of {@link GpuBufferLike.mapAsync} for reading. */
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

/**
 * The keys of {@link GpuDeviceOptions}: any other key throws a `TypeError` naming it. Kept complete by
 * the compiler (`optionKeys`): add a new option here too.
 */
export const GPU_DEVICE_OPTION_KEYS = optionKeys<GpuDeviceOptions>({
  device: true,
  gpu: true,
  node: true,
  powerPreference: true,
});

/**
 * Checks the values of {@link GpuDeviceOptions} (not the keys) as `where` (`'requestGpuDevice: options'`).
 * Throws a `TypeError` or `RangeError` naming the option.
 */
export function checkGpuDeviceOptions(options: GpuDeviceOptions, where: string): void {
  const { device, gpu, node, powerPreference } = options;
  if (device !== undefined && (device === null || typeof device !== 'object')) {
    throw new TypeError(`${where}.device must be a GPUDevice, got ${String(device)}`);
  }
  if (
    gpu !== undefined &&
    (gpu === null || typeof gpu !== 'object' || typeof gpu.requestAdapter !== 'function')
  ) {
    throw new TypeError(`${where}.gpu must be a GPU object (with requestAdapter), got ${String(gpu)}`);
  }
  if (
    node !== undefined &&
    typeof node !== 'boolean' &&
    !(Array.isArray(node) && node.every((f) => typeof f === 'string'))
  ) {
    throw new TypeError(`${where}.node must be true, false or an array of flag strings, got ${String(node)}`);
  }
  if (
    powerPreference !== undefined &&
    powerPreference !== 'low-power' &&
    powerPreference !== 'high-performance'
  ) {
    throw new RangeError(
      `${where}.powerPreference must be 'low-power' or 'high-performance', got ${String(powerPreference)}`,
    );
  }
}

/** What {@link requestGpuDevice} found: a device and where it came from, or why there is none. */
export type GpuDeviceResult =
  | {
      /** The device to pass to `GpuMeshMesh.create`. */
      device: GpuDeviceLike;
      /**
       * Where it came from: `'given'` (`options.device`), `'navigator.gpu'` (or `options.gpu`), or
       * `'webgpu'` (the npm package).
       */
      source: 'given' | 'navigator.gpu' | 'webgpu';
      /** The adapter's vendor / architecture / description, for reports (`'given device'` if given). */
      adapter: string;
      /**
       * The `GPU` object the device came from (`null` for a given device). Keep it referenced while
       * the device is in use: Dawn's Node binding tears its instance down when it is collected.
       */
      gpu: GpuLike | null;
    }
  | {
      /** No device. */
      device: null;
      /** No source worked. */
      source: 'none';
      /**
       * What was missing or failed, `; `-separated, e.g. `no navigator.gpu; npm package webgpu not
       * loadable (…)`.
       */
      reason: string;
    };

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
 * Rejects with a `TypeError` or `RangeError` naming the option for an unknown key or a bad value.
 */
export async function requestGpuDevice(options: GpuDeviceOptions = {}): Promise<GpuDeviceResult> {
  checkOptionKeys('requestGpuDevice: options', options, GPU_DEVICE_OPTION_KEYS);
  checkGpuDeviceOptions(options, 'requestGpuDevice: options');
  return findGpuDevice(options);
}

/** {@link requestGpuDevice} once its options are checked (`GpuMeshMesh.create` checks its own). */
export async function findGpuDevice(options: GpuDeviceOptions): Promise<GpuDeviceResult> {
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
