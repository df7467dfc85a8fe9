/**
 * Compile-time check (run by the package's type check, never executed): the real WebGPU objects of the
 * npm package `webgpu` (typed by `@webgpu/types`) fit the local interfaces of `@sieve/core/gpu`, so
 * callers pass a `GPUDevice` or a `GPU` without casts.
 */
import type { create } from 'webgpu';
import { GpuMeshMesh } from '../../src/gpu/index.js';

export async function fitsRealWebGpu(gpu: ReturnType<typeof create>): Promise<void> {
  await GpuMeshMesh.create({ gpu });
  const adapter = await gpu.requestAdapter();
  if (!adapter) return;
  const device = await adapter.requestDevice();
  await GpuMeshMesh.create({ device });
}
