/**
 * `GpuMeshMesh`: mesh–mesh triangle intersection with the triangle tests on the GPU (WebGPU compute),
 * returning exactly what the CPU query `meshMeshPairs` returns — or running that CPU query when there
 * is no WebGPU adapter (and saying so in {@link GpuMeshMesh.info}).
 *
 * Follows the Project Oort collision write-up (GPU section): the CPU BVH culls to overlapping node
 * pairs of about a thousand triangles or fewer, and a compute shader runs Möller's triangle–triangle
 * test (JGT 1997) on every triangle pair of those blocks, both meshes' triangles in storage buffers.
 *
 * Per mesh, the vertex positions and the per-slot vertex indices are uploaded once ({@link
 * GpuMeshMesh.addMesh}); per frame the CPU lists the candidate blocks of every queried mesh pair and
 * uploads them with the transforms, the GPU tests every pair, and one read-back returns the hits and
 * the flagged pairs of the whole batch ({@link GpuMeshMesh.pairsBatch}; `pairs` is a batch of one). A
 * deforming mesh re-uploads its positions only ({@link GpuMeshMesh.updateMesh}, or automatically after
 * `bvh.refit()`); with `bruteForce` its stale BVH is not used at all (every pair is tested).
 *
 * Float32 vs float64 — the tolerance: each decision of Möller's test (the side of every vertex of one
 * triangle with respect to the other's plane, the two interval comparisons on the intersection line)
 * is settled on the GPU only when its float32 value is farther from the threshold than a bound on its
 * float32 error — about 100·2⁻²⁴ times the magnitudes it is made of (edge lengths × distance for a
 * plane side; the conditioning of the crossing points for an interval end), plus the float32 rounding
 * of B's transform — widened by 2⁻³⁶·S (S the pair's largest absolute coordinate), which covers the
 * CPU test's own tolerance 2⁻⁴⁰·S. A pair all of whose decisions are settled gets the CPU's answer for
 * sure. Any other pair — touching or within the bound of touching, coplanar, degenerate, crossing at a
 * grazing angle — is flagged and re-tested here with the CPU's float64 test (`exact: true`, the
 * default), so the pair set always equals the CPU query's. On every backend, with or without
 * `bruteForce`, pairs are reported sorted by (slot of A, slot of B) — the order of `meshMeshBruteForce`,
 * whose pairs and hit data every path reproduces bit for bit (`meshMeshPairs` lists the same pairs in
 * traversal order, its hit data summed in that order).
 */
import { affineFromMatrix4, affineInvert, normalMatrix } from '../bvh/affine.js';
import { type MeshBVH, type MeshMeshResult, meshMeshBruteForce } from '../bvh/index.js';
import { meshMeshPairsSlotOrder, relativeTransform } from '../bvh/meshMesh.js';
import { growArray } from '../growArray.js';
import { checkOptionKeys } from '../options.js';
import { BlockList, collectBlocks, type NodeRanges, nodeRanges } from './candidates.js';
import { DecodeScratch, decodeBatch, SLOT_LIMIT } from './decode.js';
import {
  BUFFER_USAGE,
  checkGpuDeviceOptions,
  findGpuDevice,
  type GpuBufferLike,
  type GpuDeviceLike,
  MAP_READ,
} from './device.js';
import { hitData, Marks, slotVertexIndices } from './exact.js';
import { ENTRY_WORDS, PARAMS_BYTES, TRI_TRI_WGSL, WORKGROUP_SIZE } from './shader.js';
import {
  GPU_MESH_MESH_OPTION_KEYS,
  GPU_PAIR_QUERY_KEYS,
  GPU_PAIRS_OPTION_KEYS,
  type GpuMeshMeshOptions,
  type GpuPairQuery,
  type GpuPairsOptions,
  type GpuPassStats,
} from './types.js';

interface GpuMesh {
  bvh: MeshBVH;
  ranges: NodeRanges;
  vi: Uint32Array;
  pos: Float32Array;
  version: number;
  /** Largest absolute coordinate on each axis (bounds B's float32 transform error). */
  maxAbs: Float64Array;
  posBuf: GpuBufferLike | null;
  idxBuf: GpuBufferLike | null;
}

const U32 = 2 ** -24;

/**
 * The GPU triangle pass. Create with {@link GpuMeshMesh.create} (async: it asks for an adapter),
 * register meshes with {@link GpuMeshMesh.addMesh}, query pairs with {@link GpuMeshMesh.pairs} or
 * many mesh pairs at once with {@link GpuMeshMesh.pairsBatch}. One call at a time per instance.
 *
 * @example
 * ```ts
 * import { MeshBVH, MeshMeshResult } from '@sieve/core';
 * import { GpuMeshMesh } from '@sieve/core/gpu';
 *
 * const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]); // a tetrahedron
 * const index = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
 * const gpu = await GpuMeshMesh.create(); // navigator.gpu, a GPUDevice you pass, or `webgpu` in Node
 * console.log(gpu.backend, gpu.info); // 'gpu', or 'cpu' and why (the CPU query answers then)
 * const a = gpu.addMesh(new MeshBVH(positions, index));
 * const b = gpu.addMesh(new MeshBVH(positions, index));
 * const moved = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.25, 0.25, 0.25, 1]; // column-major 4×4
 * const result = new MeshMeshResult();
 * const n = await gpu.pairs(a, null, b, moved, result); // one upload, one dispatch, one read-back
 * console.log(n, result.trianglesA.subarray(0, n)); // the pairs of meshMeshPairs, bit for bit
 * gpu.destroy();
 * ```
 */
export class GpuMeshMesh {
  /** `'gpu'` when a WebGPU device runs the pass, `'cpu'` when the CPU query answers instead. */
  readonly backend: 'gpu' | 'cpu';
  /** The adapter and where it came from, or why there is no GPU. */
  readonly info: string;
  /** Counters of the last call. */
  readonly stats: GpuPassStats = {
    candidatePairs: 0,
    blocks: 0,
    nodeTests: 0,
    dispatches: 0,
    written: 0,
    uncertain: 0,
    uncertainHits: 0,
    reruns: 0,
  };
  private readonly device: GpuDeviceLike | null;
  /** The `GPU` object the device came from, kept alive with it (see `requestGpuDevice`). */
  private gpu: unknown = null;
  private readonly ownsDevice: boolean;
  private readonly pipeline: { getBindGroupLayout(i: number): unknown } | null;
  private readonly blockSize: number;
  private readonly exact: boolean;
  private meshes: (GpuMesh | null)[] = [];
  private readonly list = new BlockList();
  private readonly marks = new Marks();
  /** Per query of the current batch: M_A, T = M_A⁻¹·M_B, T⁻¹ (12 each), normal matrix of M_A (9). */
  private qMA = new Float64Array(12);
  private qT = new Float64Array(12);
  private qTI = new Float64Array(12);
  private qNM = new Float64Array(9);
  /** Per query: its dispatches `[first, end)` in the block list. */
  private qDisp = new Int32Array(2);
  private readonly one: GpuPairQuery[] = [
    { a: 0, matrixA: null, b: 0, matrixB: null, result: null as unknown as MeshMeshResult },
  ];
  private readonly params = new ArrayBuffer(PARAMS_BYTES);
  private readonly paramsF = new Float32Array(this.params);
  private readonly paramsU = new Uint32Array(this.params);
  private readonly zero = new Uint32Array(4);
  private readonly scratch = new DecodeScratch();
  private paramsBuf: GpuBufferLike | null = null;
  private blocksBuf: GpuBufferLike | null = null;
  private startsBuf: GpuBufferLike | null = null;
  private outBuf: GpuBufferLike | null = null;
  private stagingBuf: GpuBufferLike | null = null;
  private capacity = 0;
  /** Bind groups by mesh pair (`a·2²⁰ + b`); cleared when a shared buffer is replaced. */
  private readonly bindGroups = new Map<number, unknown>();
  private busy = false;
  /** Set by {@link GpuMeshMesh.destroy}: every method but `destroy` then throws. */
  private destroyed = false;

  private constructor(
    device: GpuDeviceLike | null,
    ownsDevice: boolean,
    pipeline: { getBindGroupLayout(i: number): unknown } | null,
    info: string,
    blockSize: number,
    exact: boolean,
  ) {
    this.device = device;
    this.ownsDevice = ownsDevice;
    this.pipeline = pipeline;
    this.backend = device && pipeline ? 'gpu' : 'cpu';
    this.info = info;
    this.blockSize = blockSize;
    this.exact = exact;
    if (device) {
      this.paramsBuf = device.createBuffer({
        size: PARAMS_BYTES,
        usage: BUFFER_USAGE.UNIFORM | BUFFER_USAGE.COPY_DST,
        label: 'sieve params',
      });
      this.ensureOutput(4096);
    }
  }

  /**
   * Finds a WebGPU device (see `requestGpuDevice`: a given device, `navigator.gpu`, or the npm package
   * `webgpu` in Node) and compiles the shader. Never fails for a missing or broken WebGPU: the
   * instance then runs the CPU query (`backend === 'cpu'`) and `info` says why. Rejects with a
   * `TypeError` or `RangeError` naming the option for an unknown key or a bad value.
   */
  static async create(options: GpuMeshMeshOptions = {}): Promise<GpuMeshMesh> {
    checkOptionKeys('GpuMeshMesh.create: options', options, GPU_MESH_MESH_OPTION_KEYS);
    checkGpuDeviceOptions(options, 'GpuMeshMesh.create: options');
    if (options.forceCpu !== undefined && typeof options.forceCpu !== 'boolean') {
      throw new TypeError(
        `GpuMeshMesh.create: options.forceCpu must be true or false, got ${String(options.forceCpu)}`,
      );
    }
    const blockSize = options.blockSize ?? 256;
    if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > 1 << 20) {
      throw new RangeError(
        `GpuMeshMesh.create: options.blockSize must be an integer in [1, 2^20] (got ${blockSize})`,
      );
    }
    const exact = options.exact ?? true;
    if (typeof exact !== 'boolean')
      throw new RangeError('GpuMeshMesh.create: options.exact must be a boolean');
    if (options.forceCpu)
      return new GpuMeshMesh(null, false, null, 'CPU forced by options', blockSize, exact);
    const found = await findGpuDevice(options);
    if (!found.device)
      return new GpuMeshMesh(null, false, null, `no WebGPU: ${found.reason}`, blockSize, exact);
    const device = found.device;
    const owns = found.source !== 'given';
    try {
      device.pushErrorScope?.('validation');
      const module = device.createShaderModule({ code: TRI_TRI_WGSL, label: 'sieve tri-tri' });
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module, entryPoint: 'main' },
      } as never);
      const err = await device.popErrorScope?.();
      if (err) throw new Error(err.message);
      const pass = new GpuMeshMesh(
        device,
        owns,
        pipeline,
        `${found.adapter} (${found.source})`,
        blockSize,
        exact,
      );
      pass.gpu = found.gpu;
      return pass;
    } catch (e) {
      if (owns) device.destroy();
      const msg = (e as Error).message.split('\n')[0];
      return new GpuMeshMesh(null, false, null, `WebGPU pipeline failed: ${msg}`, blockSize, exact);
    }
  }

  /**
   * Registers a mesh (its BVH) and uploads its vertices and slot indices; returns its handle (an index
   * from 0, never reused). Throws a `TypeError` if `bvh` is not a `MeshBVH`, a `RangeError` for a
   * mesh of 2³⁰ − 1 triangles or more, and an `Error` after {@link GpuMeshMesh.destroy}.
   */
  addMesh(bvh: MeshBVH): number {
    this.live('addMesh');
    if (!bvh || !(bvh.triVerts instanceof Float32Array) || !(bvh.nodeI32 instanceof Int32Array)) {
      throw new TypeError('GpuMeshMesh.addMesh: bvh must be a MeshBVH');
    }
    if (bvh.triangleCount >= SLOT_LIMIT) {
      throw new RangeError(`GpuMeshMesh.addMesh: bvh has ${bvh.triangleCount} triangles (at most 2^30 - 1)`);
    }
    const mesh: GpuMesh = {
      bvh,
      ranges: nodeRanges(bvh),
      vi: slotVertexIndices(bvh),
      pos: bvh.positions,
      version: bvh.version,
      maxAbs: new Float64Array(3),
      posBuf: null,
      idxBuf: null,
    };
    const d = this.device;
    if (d) {
      mesh.posBuf = d.createBuffer({
        size: Math.max(16, bvh.positions.byteLength),
        usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_DST,
        label: 'sieve positions',
      });
      mesh.idxBuf = d.createBuffer({
        size: Math.max(16, mesh.vi.byteLength),
        usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_DST,
        label: 'sieve slot indices',
      });
      d.queue.writeBuffer(mesh.idxBuf as never, 0, mesh.vi as never);
    }
    this.upload(mesh, bvh.positions);
    this.meshes.push(mesh);
    return this.meshes.length - 1;
  }

  /**
   * New vertex positions for mesh `handle` (same length; default the BVH's current `positions`):
   * re-uploaded for the GPU and used by the float64 re-test. Throws a `RangeError` naming the argument
   * for a bad handle, length or non-finite coordinate. Not needed after `bvh.refit()`, which is noticed.
   */
  updateMesh(handle: number, positions?: Float32Array): void {
    const mesh = this.mesh(handle, 'updateMesh');
    const pos = positions ?? mesh.bvh.positions;
    if (!(pos instanceof Float32Array) || pos.length !== mesh.pos.length) {
      throw new RangeError(
        `GpuMeshMesh.updateMesh: positions must be a Float32Array of length ${mesh.pos.length}`,
      );
    }
    for (let i = 0; i < pos.length; i++) {
      const v = pos[i];
      if (v - v !== 0) throw new RangeError(`GpuMeshMesh.updateMesh: positions[${i}] is not finite (${v})`);
    }
    this.upload(mesh, pos);
    mesh.version = mesh.bvh.version;
  }

  /**
   * Frees mesh `handle`'s GPU buffers; the handle is stale afterwards (using it throws). Throws a
   * `RangeError` for a handle that is unknown or already removed.
   */
  removeMesh(handle: number): void {
    const mesh = this.mesh(handle, 'removeMesh');
    mesh.posBuf?.destroy();
    mesh.idxBuf?.destroy();
    this.meshes[handle] = null;
    this.bindGroups.clear();
  }

  /**
   * Every intersecting triangle pair of mesh `a` under `matrixA` and mesh `b` under `matrixB`
   * (column-major 4×4, exactly 16 numbers, `null` for identity), into `result` with its hit data: the
   * pairs of `meshMeshPairs` of `@sieve/core`, sorted by (slot of A, slot of B), with the hit data of
   * `meshMeshBruteForce` bit for bit, on every backend. Resolves to the pair count. Rejects naming
   * the argument for a stale handle, a bad matrix or an unknown option, and after
   * {@link GpuMeshMesh.destroy}, before anything changes.
   */
  pairs(
    a: number,
    matrixA: ArrayLike<number> | null,
    b: number,
    matrixB: ArrayLike<number> | null,
    result: MeshMeshResult,
    options: GpuPairsOptions = {},
  ): Promise<number> {
    if (this.destroyed) return Promise.reject(new Error('GpuMeshMesh.pairs: used after destroy()'));
    if (this.busy) {
      return Promise.reject(new Error('GpuMeshMesh.pairs: a query is still running (await it first)'));
    }
    try {
      checkOptionKeys('GpuMeshMesh.pairs: options', options, GPU_PAIRS_OPTION_KEYS);
    } catch (e) {
      return Promise.reject(e);
    }
    const q = this.one[0];
    q.a = a;
    q.matrixA = matrixA;
    q.b = b;
    q.matrixB = matrixB;
    q.result = result;
    q.bruteForce = options.bruteForce;
    return this.run(this.one, 'pairs');
  }

  /**
   * {@link GpuMeshMesh.pairs} for many mesh pairs at once — one upload, one dispatch per query, and a
   * single read-back for the whole batch (what an engine's step wants). Each query needs its own
   * `result`. Resolves to the total pair count. Throws (rejects) naming the query and argument for a
   * stale handle, a bad matrix or a missing result, before anything changes.
   */
  pairsBatch(queries: readonly GpuPairQuery[]): Promise<number> {
    if (this.destroyed) return Promise.reject(new Error('GpuMeshMesh.pairsBatch: used after destroy()'));
    if (!Array.isArray(queries)) {
      return Promise.reject(new TypeError('GpuMeshMesh.pairsBatch: queries must be an array'));
    }
    return this.run(queries, 'pairsBatch');
  }

  private async run(queries: readonly GpuPairQuery[], fn: string): Promise<number> {
    const n = queries.length;
    this.qMA = growArray(this.qMA, 12 * n);
    this.qT = growArray(this.qT, 12 * n);
    this.qTI = growArray(this.qTI, 12 * n);
    this.qNM = growArray(this.qNM, 9 * n);
    this.qDisp = growArray(this.qDisp, 2 * n);
    const where = `GpuMeshMesh.${fn}`;
    for (let k = 0; k < n; k++) {
      const q = queries[k];
      const at = n > 1 ? `${where}: queries[${k}]` : where;
      if (q !== this.one[0]) checkOptionKeys(`${where}: queries[${k}]`, q, GPU_PAIR_QUERY_KEYS);
      if (q.bruteForce !== undefined && typeof q.bruteForce !== 'boolean') {
        throw new TypeError(`${at}: bruteForce must be true or false, got ${String(q.bruteForce)}`);
      }
      this.mesh(q.a, fn);
      this.mesh(q.b, fn);
      affineFromMatrix4(this.qMA.subarray(12 * k, 12 * k + 12), q.matrixA, 'matrixA', at);
      affineFromMatrix4(this.qT.subarray(12 * k, 12 * k + 12), q.matrixB, 'matrixB', at);
      if (!q.result || !(q.result.trianglesA instanceof Uint32Array)) {
        throw new TypeError(`${at}: result must be a MeshMeshResult`);
      }
    }
    if (this.busy) throw new Error(`${where}: a query is still running (await it first)`);
    const st = this.stats;
    st.candidatePairs = st.blocks = st.nodeTests = st.dispatches = 0;
    st.written = st.uncertain = st.uncertainHits = st.reruns = 0;
    let total = 0;
    if (this.backend === 'cpu' || !this.device || !this.pipeline) {
      for (const q of queries) {
        const ma = this.meshes[q.a]!.bvh;
        const mb = this.meshes[q.b]!.bvh;
        // Slot order either way, as the GPU path reports (see the class comment).
        total += q.bruteForce
          ? meshMeshBruteForce(ma, q.matrixA, mb, q.matrixB, q.result)
          : meshMeshPairsSlotOrder(ma, q.matrixA, mb, q.matrixB, q.result);
        st.candidatePairs += q.result.triangleTests;
        st.nodeTests += q.result.nodeTests;
      }
      return total;
    }
    this.busy = true;
    try {
      await this.gpuBatch(queries);
      for (const q of queries) total += q.result.count;
      return total;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Frees every GPU buffer (and the device, if this instance requested it). Every other method throws
   * (a query rejects) from then on; calling `destroy` again does nothing.
   */
  destroy(): void {
    if (this.destroyed) return;
    for (let h = 0; h < this.meshes.length; h++) if (this.meshes[h]) this.removeMesh(h);
    this.destroyed = true;
    for (const buf of [this.paramsBuf, this.blocksBuf, this.startsBuf, this.outBuf, this.stagingBuf]) {
      buf?.destroy();
    }
    this.paramsBuf = this.blocksBuf = this.startsBuf = this.outBuf = this.stagingBuf = null;
    if (this.ownsDevice) this.device?.destroy();
    this.gpu = null;
  }

  /** Throws naming `fn` once the instance is destroyed. */
  private live(fn: string): void {
    if (this.destroyed) throw new Error(`GpuMeshMesh.${fn}: used after destroy()`);
  }

  private mesh(handle: number, fn: string): GpuMesh {
    this.live(fn);
    const m = Number.isInteger(handle) && handle >= 0 ? this.meshes[handle] : undefined;
    if (!m) throw new RangeError(`GpuMeshMesh.${fn}: ${handle} is not a live mesh handle`);
    return m;
  }

  private upload(mesh: GpuMesh, pos: Float32Array): void {
    mesh.pos = pos;
    let x = 0;
    let y = 0;
    let z = 0;
    for (let i = 0; i < pos.length; i += 3) {
      x = Math.max(x, Math.abs(pos[i]));
      y = Math.max(y, Math.abs(pos[i + 1]));
      z = Math.max(z, Math.abs(pos[i + 2]));
    }
    mesh.maxAbs[0] = x;
    mesh.maxAbs[1] = y;
    mesh.maxAbs[2] = z;
    if (this.device && mesh.posBuf) this.device.queue.writeBuffer(mesh.posBuf as never, 0, pos as never);
  }

  /** Output and staging buffers for at least `pairs` written pairs. */
  private ensureOutput(pairs: number): void {
    if (pairs <= this.capacity || !this.device) return;
    const cap = Math.max(4096, 2 ** Math.ceil(Math.log2(pairs)));
    this.outBuf?.destroy();
    this.stagingBuf?.destroy();
    const size = 16 + 4 * ENTRY_WORDS * cap;
    this.outBuf = this.device.createBuffer({
      size,
      usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_SRC | BUFFER_USAGE.COPY_DST,
      label: 'sieve output',
    });
    this.stagingBuf = this.device.createBuffer({
      size,
      usage: BUFFER_USAGE.MAP_READ | BUFFER_USAGE.COPY_DST,
      label: 'sieve read-back',
    });
    this.capacity = cap;
    this.bindGroups.clear();
  }

  /** Block buffers large enough for the current list. */
  private ensureBlocks(): void {
    const d = this.device!;
    const n = this.list.count;
    if (!this.blocksBuf || this.blocksBuf.size < 16 * n) {
      this.blocksBuf?.destroy();
      this.blocksBuf = d.createBuffer({
        size: 16 * Math.max(256, 2 ** Math.ceil(Math.log2(n))),
        usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_DST,
        label: 'sieve blocks',
      });
      this.bindGroups.clear();
    }
    if (!this.startsBuf || this.startsBuf.size < 4 * n) {
      this.startsBuf?.destroy();
      this.startsBuf = d.createBuffer({
        size: 4 * Math.max(256, 2 ** Math.ceil(Math.log2(n))),
        usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_DST,
        label: 'sieve block starts',
      });
      this.bindGroups.clear();
    }
    d.queue.writeBuffer(this.blocksBuf as never, 0, this.list.blocks as never, 0, 4 * n);
    d.queue.writeBuffer(this.startsBuf as never, 0, this.list.starts as never, 0, n);
  }

  private bind(ma: GpuMesh, mb: GpuMesh, a: number, b: number): unknown {
    const key = a * 1_048_576 + b;
    let group = this.bindGroups.get(key);
    if (group) return group;
    const buffers = [
      this.paramsBuf,
      ma.posBuf,
      ma.idxBuf,
      mb.posBuf,
      mb.idxBuf,
      this.blocksBuf,
      this.startsBuf,
      this.outBuf,
    ];
    group = this.device!.createBindGroup({
      layout: this.pipeline!.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    } as never);
    this.bindGroups.set(key, group);
    return group;
  }

  /** The GPU path of a validated batch. */
  private async gpuBatch(queries: readonly GpuPairQuery[]): Promise<void> {
    const d = this.device!;
    const st = this.stats;
    const list = this.list;
    const n = queries.length;
    list.reset();
    for (let k = 0; k < n; k++) {
      const q = queries[k];
      const ma = this.meshes[q.a]!;
      const mb = this.meshes[q.b]!;
      if (ma.version !== ma.bvh.version) this.updateMesh(q.a, ma.bvh.positions);
      if (mb.version !== mb.bvh.version) this.updateMesh(q.b, mb.bvh.positions);
      const T = this.qT.subarray(12 * k, 12 * k + 12);
      const TI = this.qTI.subarray(12 * k, 12 * k + 12);
      relativeTransform(q.matrixA, q.matrixB, T);
      affineInvert(TI, T);
      normalMatrix(this.qNM.subarray(9 * k, 9 * k + 9), this.qMA.subarray(12 * k, 12 * k + 12));
      list.newGroup();
      this.qDisp[2 * k] = list.dispatchCount;
      const pairs0 = list.pairs;
      const tests0 = list.nodeTests;
      if (q.bruteForce) {
        if (ma.bvh.triangleCount > 0 && mb.bvh.triangleCount > 0) {
          list.add(0, ma.bvh.triangleCount, 0, mb.bvh.triangleCount);
        }
      } else {
        collectBlocks(ma.bvh, ma.ranges, mb.bvh, mb.ranges, T, TI, this.blockSize, list);
      }
      this.qDisp[2 * k + 1] = list.dispatchCount;
      q.result.count = 0;
      q.result.triangleTests = list.pairs - pairs0;
      q.result.nodeTests = list.nodeTests - tests0;
    }
    st.blocks = list.count;
    st.nodeTests = list.nodeTests;
    st.candidatePairs = list.pairs;
    st.dispatches = list.dispatchCount;
    let count = 0;
    if (list.count > 0) {
      this.ensureBlocks();
      const maxGroups = Math.min(4096, d.limits.maxComputeWorkgroupsPerDimension);
      for (;;) {
        d.queue.writeBuffer(this.outBuf as never, 0, this.zero as never);
        for (let k = 0; k < n; k++) this.dispatchQuery(queries[k], k, maxGroups, k === n - 1);
        const staging = this.stagingBuf!;
        await staging.mapAsync(MAP_READ);
        const words = new Uint32Array(staging.getMappedRange());
        count = words[0];
        if (count > this.capacity) {
          staging.unmap();
          st.reruns++;
          this.ensureOutput(Math.ceil(count * 1.25));
          continue;
        }
        decodeBatch(
          words,
          count,
          queries,
          this.meshes,
          { T: this.qT, exact: this.exact, stats: st },
          this.scratch,
        );
        staging.unmap();
        break;
      }
    }
    st.written = count;
    for (let k = 0; k < n; k++) {
      const q = queries[k];
      const T = this.qT.subarray(12 * k, 12 * k + 12);
      const ma = this.meshes[q.a]!;
      const mb = this.meshes[q.b]!;
      hitData(
        q.result,
        ma,
        mb,
        this.qMA.subarray(12 * k, 12 * k + 12),
        this.qNM.subarray(9 * k, 9 * k + 9),
        T,
        this.marks,
      );
    }
  }

  /**
   * Encodes and submits the dispatches of query `k` (parameters written just before each submit, so
   * queue order gives every dispatch its own); the last one of the batch also copies the output out.
   */
  private dispatchQuery(q: GpuPairQuery, k: number, maxGroups: number, last: boolean): void {
    const d = this.device!;
    const list = this.list;
    const first = this.qDisp[2 * k];
    const end = this.qDisp[2 * k + 1];
    const T = this.qT;
    const mb = this.meshes[q.b]!;
    // Float32 error bound of B's transformed vertices: 8u·max_r(Σ_c |T_rc|·max|b_c| + |t_r|).
    let kb = 0;
    for (let r = 0; r < 3; r++) {
      const o = 12 * k + r;
      const s =
        Math.abs(T[o]) * mb.maxAbs[0] + Math.abs(T[o + 3]) * mb.maxAbs[1] + Math.abs(T[o + 6]) * mb.maxAbs[2];
      kb = Math.max(kb, s + Math.abs(T[o + 9]));
    }
    const pf = this.paramsF;
    const pu = this.paramsU;
    for (let c = 0; c < 4; c++) {
      pf[4 * c] = T[12 * k + 3 * c];
      pf[4 * c + 1] = T[12 * k + 3 * c + 1];
      pf[4 * c + 2] = T[12 * k + 3 * c + 2];
      pf[4 * c + 3] = 0;
    }
    pf[3] = 8 * U32 * kb;
    const group = end > first ? this.bind(this.meshes[q.a]!, mb, q.a, q.b) : null;
    for (let g = first; g < end || (last && g === first); g++) {
      const enc = d.createCommandEncoder();
      if (g < end) {
        const b0 = list.dispatchFirst[g];
        const b1 = g + 1 < list.dispatchCount ? list.dispatchFirst[g + 1] : list.count;
        const total = list.dispatchPairs[g];
        pu[16] = b0;
        pu[17] = b1 - b0;
        pu[18] = total;
        pu[19] = this.capacity;
        pu[20] = k;
        d.queue.writeBuffer(this.paramsBuf as never, 0, this.params as never);
        const pass = enc.beginComputePass();
        pass.setPipeline(this.pipeline as never);
        pass.setBindGroup(0, group as never);
        pass.dispatchWorkgroups(Math.max(1, Math.min(maxGroups, Math.ceil(total / WORKGROUP_SIZE))));
        pass.end();
      }
      if (last && g + 1 >= end) {
        enc.copyBufferToBuffer(this.outBuf as never, 0, this.stagingBuf as never, 0, this.outBuf!.size);
      }
      d.queue.submit([enc.finish()] as never);
    }
  }
}
