/**
 * The GPU triangle pass without a GPU: device discovery reports why there is none, the pass then
 * answers with the CPU query, the CPU culling lists every intersecting pair in exactly one block, and
 * bad input throws naming the argument.
 */
import { describe, expect, it } from 'vitest';
import { affineInvert } from '../../src/bvh/affine.js';
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import { MeshMeshResult, meshMeshBruteForce, relativeTransform } from '../../src/bvh/meshMesh.js';
import { BlockList, collectBlocks, nodeRanges } from '../../src/gpu/candidates.js';
import { GpuMeshMesh, requestGpuDevice } from '../../src/gpu/index.js';
import { compose, grid, randomQuat, rng, uvSphere } from '../bvh/helpers.js';
import { runScenarios } from './scenarios.js';

describe('GPU pass: device discovery', () => {
  it('says why there is no device (no navigator.gpu, Node loading disabled)', async () => {
    const r = await requestGpuDevice({ node: false });
    expect(r.device).toBeNull();
    if (r.device === null) expect(r.reason).toMatch(/no navigator\.gpu/);
  });

  it('reports an adapter-less GPU and a throwing one, and falls back to the CPU', async () => {
    const none = await requestGpuDevice({ gpu: { requestAdapter: async () => null } });
    expect(none.device).toBeNull();
    if (none.device === null) expect(none.reason).toMatch(/no WebGPU adapter/);
    const broken = await GpuMeshMesh.create({
      gpu: {
        requestAdapter: async () => {
          throw new Error('boom');
        },
      },
    });
    expect(broken.backend).toBe('cpu');
    expect(broken.info).toMatch(/requestAdapter failed \(boom\)/);
  });

  it('rejects bad options naming them', async () => {
    await expect(GpuMeshMesh.create({ blockSize: 0 })).rejects.toThrow(/options\.blockSize/);
    await expect(GpuMeshMesh.create({ blockSize: 1.5 })).rejects.toThrow(/options\.blockSize/);
  });
});

describe('GPU pass: CPU fallback', () => {
  it('answers every scenario as the CPU query does', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    expect(g.backend).toBe('cpu');
    expect(g.info).toMatch(/forced/);
    const report = await runScenarios(g, 0.25);
    for (const c of report.cases) {
      expect(c.errors, c.name).toEqual([]);
      expect(c.pairs, c.name).toBeGreaterThan(0);
    }
  });

  it('throws naming the argument for stale handles, bad matrices and bad positions', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const s = uvSphere(1, 8, 6);
    const bvh = new MeshBVH(s.positions, s.index);
    const h = g.addMesh(bvh);
    const res = new MeshMeshResult();
    await expect(g.pairs(h, null, 7, null, res)).rejects.toThrow(/7 is not a live mesh handle/);
    const bad = compose([0, 0, 0], [0, 0, 0, 1]);
    bad[5] = Number.NaN;
    await expect(g.pairs(h, bad, h, null, res)).rejects.toThrow(/matrixA\[5\] is not finite/);
    await expect(g.pairs(h, null, h, bad, res)).rejects.toThrow(/matrixB\[5\] is not finite/);
    expect(() => g.updateMesh(h, new Float32Array(3))).toThrow(/positions must be a Float32Array of length/);
    const nan = s.positions.slice();
    nan[4] = Number.POSITIVE_INFINITY;
    expect(() => g.updateMesh(h, nan)).toThrow(/positions\[4\] is not finite/);
    expect(() => g.addMesh({} as MeshBVH)).toThrow(/bvh must be a MeshBVH/);
    await expect(g.pairsBatch([{ a: h, matrixA: null, b: h, matrixB: bad, result: res }])).rejects.toThrow(
      /pairsBatch: matrixB\[5\] is not finite/,
    );
    await expect(
      g.pairsBatch([
        { a: h, matrixA: null, b: h, matrixB: null, result: res },
        { a: h, matrixA: null, b: h, matrixB: null, result: null as unknown as MeshMeshResult },
      ]),
    ).rejects.toThrow(/queries\[1\]: result must be a MeshMeshResult/);
    g.removeMesh(h);
    await expect(g.pairs(h, null, h, null, res)).rejects.toThrow(/is not a live mesh handle/);
  });
});

describe('GPU pass: CPU culling into blocks', () => {
  it('puts every intersecting pair in exactly one block, for several block sizes', () => {
    const r = rng(3);
    const sa = uvSphere(1, 20, 14);
    const g = grid(16, 0.15);
    const a = new MeshBVH(sa.positions, sa.index);
    const b = new MeshBVH(g.positions, g.index, { strategy: 'sah' });
    const ra = nodeRanges(a);
    const rb = nodeRanges(b);
    expect(ra.count[0]).toBe(a.triangleCount);
    expect(rb.count[0]).toBe(b.triangleCount);
    const list = new BlockList();
    const res = new MeshMeshResult();
    const T = new Float64Array(12);
    const TI = new Float64Array(12);
    let checked = 0;
    for (let i = 0; i < 12; i++) {
      const m = compose([r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r), [0.7 + r(), 0.7 + r(), 1]);
      meshMeshBruteForce(a, null, b, m, res);
      relativeTransform(null, m, T);
      affineInvert(TI, T);
      for (const size of [1, 8, 64, 1024]) {
        list.reset();
        collectBlocks(a, ra, b, rb, T, TI, size, list);
        expect(list.pairs).toBeLessThanOrEqual(a.triangleCount * b.triangleCount);
        let sum = 0;
        for (let k = 0; k < list.count; k++) sum += list.blocks[4 * k + 1] * list.blocks[4 * k + 3];
        expect(sum).toBe(list.pairs);
        for (let p = 0; p < res.count; p++) {
          const s = res.slotsA[p];
          const t = res.slotsB[p];
          let n = 0;
          for (let k = 0; k < list.count; k++) {
            const bl = list.blocks;
            if (
              s >= bl[4 * k] &&
              s < bl[4 * k] + bl[4 * k + 1] &&
              t >= bl[4 * k + 2] &&
              t < bl[4 * k + 2] + bl[4 * k + 3]
            )
              n++;
          }
          expect(n).toBe(1);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('cuts huge blocks and groups dispatches below 2^30 pairs', () => {
    const list = new BlockList();
    list.add(0, 100_000, 0, 50_000); // 5e9 pairs
    expect(list.pairs).toBe(5e9);
    let sum = 0;
    for (let k = 0; k < list.count; k++) {
      const w = list.blocks[4 * k + 1] * list.blocks[4 * k + 3];
      expect(w).toBeLessThanOrEqual(1 << 24);
      sum += w;
    }
    expect(sum).toBe(5e9);
    expect(list.dispatchCount).toBeGreaterThanOrEqual(5);
    for (let d = 0; d < list.dispatchCount; d++) expect(list.dispatchPairs[d]).toBeLessThanOrEqual(2 ** 30);
  });
});
