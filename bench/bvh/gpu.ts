/**
 * GPU rows of the BVH benchmark (called from `bvh/run.ts`): two interpenetrating torus knots of the same
 * size (10 k, 50 k, 200 k, 1 M triangles), all intersecting pairs, per frame after the first —
 * Sieve's GPU pass (`@sieve/core/gpu`: CPU culling to blocks, upload, dispatch, one read-back, float64
 * re-test of flagged pairs) vs Sieve's CPU `meshMeshPairs` vs three-mesh-bvh (`bvhcast` +
 * `intersectsTriangle`), interleaved, medians; and a deforming mesh (vertices move every frame): CPU
 * refit + query vs GPU brute force (no tree) vs GPU with the refitted tree.
 *
 * In Node the GPU comes from the npm package `webgpu` (Dawn). With no adapter the rows say so. Without a
 * GPU, Dawn can run on the SwiftShader Vulkan driver of Debian's Chromium — software, labelled so:
 * `VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json LD_LIBRARY_PATH=/usr/lib/chromium pnpm bench:bvh`.
 * `BVH_GPU_SIZES=10k,50k` picks sizes; `BVH_GPU=0` skips the GPU rows.
 */
import { existsSync } from 'node:fs';
import { MeshBVH, MeshMeshResult, meshMeshPairs } from '@sieve/core';
import { GpuMeshMesh } from '@sieve/core/gpu';
import { type BufferGeometry, Euler, Matrix4, Quaternion, TorusKnotGeometry, Vector3 } from 'three';
import { MeshBVH as TmbBVH } from 'three-mesh-bvh';
import { median } from '../lib/stats.js';

/** One size of the rigid all-pairs comparison. */
export interface GpuRow {
  size: string;
  triangles: number;
  pairs: number;
  candidatePairs: number;
  uncertain: number;
  gpuMs: number | null;
  cpuMs: number;
  tmbMs: number | null;
  /** CPU time / GPU time (> 1: the GPU pass is faster). */
  gpuVsCpu: number | null;
}

/** One size of the deforming-mesh comparison. */
export interface DeformRow {
  size: string;
  triangles: number;
  pairs: number;
  cpuRefitMs: number;
  gpuBruteMs: number | null;
  gpuRefitMs: number | null;
}

/** Everything the GPU part measured, or why it did not run. */
export interface GpuBench {
  adapter: string;
  software: boolean;
  note: string;
  rows: GpuRow[];
  deforming: DeformRow[];
  /** Smallest size where the GPU pass beat the CPU query, or null. */
  crossover: string | null;
}

const ALL = [
  // Only for software adapters (SwiftShader tests ~10⁵–10⁶ triangle pairs a second).
  { name: '2k', tubular: 50, radial: 20 },
  { name: '10k', tubular: 250, radial: 20 },
  { name: '50k', tubular: 500, radial: 50 },
  { name: '200k', tubular: 1000, radial: 100 },
  { name: '1M', tubular: 2500, radial: 200 },
];

const fmt = (ms: number | null) => (ms === null ? '—' : ms >= 10 ? ms.toFixed(1) : ms.toFixed(3));
/** `slow / fast` to two significant digits (software GPU rows are far below 1). */
const ratio = (slow: number, fast: number) => Number((slow / fast).toPrecision(2));

function arrays(g: BufferGeometry): { positions: Float32Array; index: Uint32Array | Uint16Array } {
  return {
    positions: g.attributes.position.array as Float32Array,
    index: g.index!.array as Uint32Array | Uint16Array,
  };
}

/** Median ms of each contender over `reps` interleaved rounds (after one untimed warm-up round). */
async function interleaved(fns: Array<(() => unknown) | null>, reps: number): Promise<Array<number | null>> {
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r <= reps; r++) {
    for (let k = 0; k < fns.length; k++) {
      const fn = fns[k];
      if (!fn) continue;
      const t0 = performance.now();
      await fn();
      if (r > 0) samples[k].push(performance.now() - t0);
    }
  }
  return samples.map((s, k) => (fns[k] ? median(s) : null));
}

/** Runs the GPU rows; prints them and returns them for the JSON. */
export async function gpuBench(options: { quick: boolean; reps: number }): Promise<GpuBench> {
  const empty = (adapter: string, note: string): GpuBench => ({
    adapter,
    software: false,
    note,
    rows: [],
    deforming: [],
    crossover: null,
  });
  if (process.env.BVH_GPU === '0') return empty('skipped', 'BVH_GPU=0');
  const pass = await GpuMeshMesh.create();
  if (pass.backend !== 'gpu') {
    console.log(`GPU rows: no adapter (${pass.info})`);
    if (!process.env.VK_ICD_FILENAMES && existsSync('/usr/lib/chromium/vk_swiftshader_icd.json')) {
      console.log(
        '  (software rows: VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json LD_LIBRARY_PATH=/usr/lib/chromium pnpm bench:bvh)',
      );
    }
    return empty('no adapter', pass.info);
  }
  const software = /swiftshader|llvmpipe|software/i.test(pass.info);
  const label = software ? `${pass.info} — SOFTWARE rasterizer, not a GPU` : pass.info;
  console.log(`GPU rows on ${label}`);
  const wanted = process.env.BVH_GPU_SIZES?.split(',');
  const sizes = ALL.filter((s) =>
    wanted
      ? wanted.includes(s.name)
      : software
        ? s.name === '2k'
        : s.name !== '2k' && (!options.quick || s.name === '10k' || s.name === '50k'),
  );
  const reps = Math.max(3, Math.min(options.reps, 5));
  const dir = new Vector3(1, 0.3, 0.2).normalize();
  const rot = new Quaternion().setFromEuler(new Euler(0.3, 0.5, 0.7));
  const pose = new Matrix4().compose(dir.clone().multiplyScalar(0.15), rot, new Vector3(1, 1, 1));
  const e = pose.elements;
  const rows: GpuRow[] = [];
  const deforming: DeformRow[] = [];
  const rCpu = new MeshMeshResult();
  const rGpu = new MeshMeshResult();
  for (const s of sizes) {
    const geom = new TorusKnotGeometry(1, 0.3, s.tubular, s.radial);
    const { positions, index } = arrays(geom);
    const bvh = new MeshBVH(positions, index);
    const h = pass.addMesh(bvh);
    const pairs = meshMeshPairs(bvh, null, bvh, e, rCpu);
    await pass.pairs(h, null, h, e, rGpu);
    if (rGpu.count !== pairs) console.warn(`  ! ${s.name}: GPU ${rGpu.count} pairs vs CPU ${pairs}`);
    const { candidatePairs, uncertain } = pass.stats;
    // three-mesh-bvh on its own clone (it reorders the index); skipped at 1 M (minutes per call).
    let tmb: (() => void) | null = null;
    if (s.name !== '1M') {
      const tg = geom.clone();
      const t = new TmbBVH(tg);
      tmb = () => {
        let n = 0;
        t.bvhcast(t, pose, {
          intersectsTriangles(t1, t2) {
            if (t1.intersectsTriangle(t2)) n++;
            return false;
          },
        });
        return n;
      };
    }
    const slow = s.name === '1M' || (software && s.name !== '2k');
    const [gpuMs, cpuMs, tmbMs] = await interleaved(
      [() => pass.pairs(h, null, h, e, rGpu), () => meshMeshPairs(bvh, null, bvh, e, rCpu), tmb],
      slow ? 2 : reps,
    );
    const row: GpuRow = {
      size: s.name,
      triangles: bvh.triangleCount,
      pairs,
      candidatePairs,
      uncertain,
      gpuMs,
      cpuMs: cpuMs!,
      tmbMs,
      gpuVsCpu: gpuMs ? ratio(cpuMs!, gpuMs) : null,
    };
    rows.push(row);
    console.log(
      `gpu all-pairs ${s.name} × ${s.name} (${row.triangles} tris each): ${pairs} pairs, ${candidatePairs} GPU tests, ${uncertain} re-tested | ` +
        `GPU ${fmt(gpuMs)} ms, CPU ${fmt(cpuMs)} ms, tmb ${fmt(tmbMs)} ms | CPU/GPU ${row.gpuVsCpu}×`,
    );

    // Deforming: A's vertices ripple every frame; B (the same knot, rigid) at the same pose.
    if (software ? s.name === '2k' : s.name === '10k' || s.name === '50k') {
      const moving = positions.slice();
      const defBvh = new MeshBVH(moving, index);
      const hd = pass.addMesh(defBvh);
      let frame = 0;
      const deform = () => {
        frame++;
        for (let v = 0; v < moving.length; v += 3) {
          const k = 1 + 0.03 * Math.sin(4 * positions[v] + 0.7 * frame);
          moving[v] = positions[v] * k;
          moving[v + 1] = positions[v + 1] * k;
          moving[v + 2] = positions[v + 2] * k;
        }
      };
      const [cpuRefitMs, gpuBruteMs, gpuRefitMs] = await interleaved(
        [
          () => {
            deform();
            defBvh.refit(moving);
            return meshMeshPairs(defBvh, null, bvh, e, rCpu);
          },
          () => {
            deform();
            pass.updateMesh(hd, moving);
            return pass.pairs(hd, null, h, e, rGpu, { bruteForce: true });
          },
          () => {
            deform();
            defBvh.refit(moving); // noticed by the pass through bvh.version
            return pass.pairs(hd, null, h, e, rGpu);
          },
        ],
        software ? 2 : reps,
      );
      const drow: DeformRow = {
        size: s.name,
        triangles: bvh.triangleCount,
        pairs: rCpu.count,
        cpuRefitMs: cpuRefitMs!,
        gpuBruteMs,
        gpuRefitMs,
      };
      deforming.push(drow);
      console.log(
        `gpu deforming ${s.name}: CPU refit+query ${fmt(drow.cpuRefitMs)} ms, GPU brute force ${fmt(gpuBruteMs)} ms, ` +
          `GPU with CPU refit ${fmt(gpuRefitMs)} ms`,
      );
      pass.removeMesh(hd);
    }
    pass.removeMesh(h);
  }
  const cross = rows.find((r) => r.gpuMs !== null && r.gpuMs < r.cpuMs);
  const result: GpuBench = {
    adapter: pass.info,
    software,
    note: software
      ? 'SwiftShader is a CPU implementation of Vulkan: these GPU times are software, not a GPU'
      : 'per frame after the first: CPU culling + upload + dispatch + one read-back + float64 re-test',
    rows,
    deforming,
    crossover: cross ? cross.size : null,
  };
  console.log(
    `gpu crossover (GPU faster than CPU from): ${result.crossover ?? `none up to ${sizes[sizes.length - 1].name}`}`,
  );
  pass.destroy();
  return result;
}
