/**
 * `@sieve/core/gpu` — the GPU triangle pass: mesh–mesh triangle tests in a WebGPU compute shader,
 * culled by the CPU BVH, with the CPU query's exact answer (pairs near their float32 error bound are
 * re-tested in float64). A separate entry point, so the core stays free of WebGPU for everyone else.
 * Follows the Project Oort collision write-up (GPU section) and Möller's triangle–triangle test (1997).
 *
 * @packageDocumentation
 */
export {
  BUFFER_USAGE,
  type GpuAdapterLike,
  type GpuBufferLike,
  type GpuCommandEncoderLike,
  type GpuComputePassLike,
  type GpuDeviceLike,
  type GpuDeviceOptions,
  type GpuDeviceResult,
  type GpuLike,
  MAP_READ,
  requestGpuDevice,
} from './device.js';
export { GpuMeshMesh } from './GpuMeshMesh.js';
export { CODE_HIT, CODE_UNCERTAIN, F32_TOL, TRI_TRI_WGSL, WORKGROUP_SIZE } from './shader.js';
export type { GpuMeshMeshOptions, GpuPairQuery, GpuPairsOptions, GpuPassStats } from './types.js';
