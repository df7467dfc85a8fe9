/**
 * Option, query and statistics types of the GPU triangle pass (`GpuMeshMesh`), which follows the
 * Project Oort collision write-up (GPU section) and Möller's triangle–triangle test (1997).
 */
import type { MeshMeshResult } from '../bvh/index.js';
import { optionKeys } from '../options.js';
import type { GpuDeviceOptions } from './device.js';

/** Options of `GpuMeshMesh.create`. */
export interface GpuMeshMeshOptions extends GpuDeviceOptions {
  /**
   * The CPU descent stops at node pairs holding at most this many triangles each; every pair of
   * their triangles goes to the GPU. Default 256 (the write-up used 1 024 a leaf).
   */
  blockSize?: number;
  /**
   * `true` (default): pairs the shader flags as within its float32 error bound are re-tested on the
   * CPU in float64, so the answer equals the CPU query's. `false`: the shader's float32 answer is
   * taken (tolerance 2⁻²⁰ of the coordinate scale), no CPU re-test.
   */
  exact?: boolean;
  /** Never use the GPU (the CPU query only), for comparisons. */
  forceCpu?: boolean;
}

/**
 * The keys of {@link GpuMeshMeshOptions} (its own and the device options it extends): any other key
 * throws a `TypeError` naming it. Kept complete by the compiler (`optionKeys`).
 */
export const GPU_MESH_MESH_OPTION_KEYS = optionKeys<GpuMeshMeshOptions>({
  device: true,
  gpu: true,
  node: true,
  powerPreference: true,
  blockSize: true,
  exact: true,
  forceCpu: true,
});

/** Options of one `GpuMeshMesh.pairs` query. */
export interface GpuPairsOptions {
  /**
   * Test every triangle of A against every triangle of B, without the BVHs — for deforming meshes
   * whose trees were not refitted (positions come from `GpuMeshMesh.updateMesh`). On the CPU backend
   * `meshMeshBruteForce` runs instead, which reads the tree's triangle copy: refit first.
   */
  bruteForce?: boolean;
}

/** The keys of {@link GpuPairsOptions}; any other key throws a `TypeError` naming it. */
export const GPU_PAIRS_OPTION_KEYS = optionKeys<GpuPairsOptions>({ bruteForce: true });

/** One query of `GpuMeshMesh.pairsBatch`: the arguments of `GpuMeshMesh.pairs` as one object. */
export interface GpuPairQuery extends GpuPairsOptions {
  /** Handle of mesh A (from `addMesh`). */
  a: number;
  /** Column-major 4×4 of A, `null` for identity. */
  matrixA: ArrayLike<number> | null;
  /** Handle of mesh B. */
  b: number;
  /** Column-major 4×4 of B, `null` for identity. */
  matrixB: ArrayLike<number> | null;
  /** Receives the pairs and hit data; one distinct result per query of a batch. */
  result: MeshMeshResult;
}

/** The keys of {@link GpuPairQuery}; any other key throws a `TypeError` naming it. */
export const GPU_PAIR_QUERY_KEYS = optionKeys<GpuPairQuery>({
  a: true,
  matrixA: true,
  b: true,
  matrixB: true,
  result: true,
  bruteForce: true,
});

/** Counters of the last `GpuMeshMesh.pairs` or `pairsBatch` call (summed over a batch). */
export interface GpuPassStats {
  /** Triangle pairs the GPU tested. */
  candidatePairs: number;
  /** Blocks (node pairs) listed by the CPU descent. */
  blocks: number;
  /** BVH node-pair overlap tests the CPU descent made. */
  nodeTests: number;
  /** Compute dispatches (at least one per query with candidates; one per 2³⁰ pairs). */
  dispatches: number;
  /** Pairs the GPU wrote back: hits and flagged ones. */
  written: number;
  /** Of {@link GpuPassStats.written}, the pairs flagged as within the float32 error bound. */
  uncertain: number;
  /** Flagged pairs the float64 re-test found intersecting. */
  uncertainHits: number;
  /** Times the output buffer was too small and the pass ran again. */
  reruns: number;
}
