/**
 * GPU-vs-CPU scenarios of the GPU triangle pass, shared by the headless-Chromium test (bundled into a
 * page) and the Node (Dawn) test: random, touching, coplanar, degenerate, far-from-origin and deforming
 * poses, each compared with the CPU queries — the pair list and the hit data must equal
 * `meshMeshBruteForce`'s bit for bit (both list pairs in slot order) and the pair set must equal
 * `meshMeshPairs`'s.
 */
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import {
  MeshMeshResult,
  meshMeshBruteForce,
  meshMeshIntersects,
  meshMeshPairs,
} from '../../src/bvh/meshMesh.js';
import type { GpuMeshMesh } from '../../src/gpu/GpuMeshMesh.js';
import type { GpuPairQuery } from '../../src/gpu/types.js';
import { compose, grid, mixedSoup, randomQuat, rng, uvSphere } from '../bvh/helpers.js';

/** Outcome of one scenario. */
export interface CaseReport {
  name: string;
  poses: number;
  /** Intersecting pairs summed over the poses (CPU). */
  pairs: number;
  /** Pairs the shader flagged as within its float32 bound (re-tested in float64). */
  uncertain: number;
  /** Candidate pairs the GPU tested. */
  candidates: number;
  /** Mismatch descriptions (empty: every pose agreed). */
  errors: string[];
}

/** Outcome of all scenarios. */
export interface ScenarioReport {
  backend: string;
  info: string;
  cases: CaseReport[];
  ms: number;
}

const cpu = new MeshMeshResult();
const ref = new MeshMeshResult();
const gpu = new MeshMeshResult();

/** Sorted pair keys of a result. */
function keys(r: MeshMeshResult, nB: number): number[] {
  const k: number[] = [];
  for (let i = 0; i < r.count; i++) k.push(r.slotsA[i] * nB + r.slotsB[i]);
  return k.sort((x, y) => x - y);
}

/**
 * Compares the pass's result with the CPU ones; returns a mismatch description or ''. Every backend
 * lists pairs in slot order, with or without `bruteForce`, so it must equal `meshMeshBruteForce` bit
 * for bit (and hold the pair set of `meshMeshPairs`).
 */
function compare(a: MeshBVH, b: MeshBVH, ma: ArrayLike<number> | null, mb: ArrayLike<number> | null): string {
  meshMeshBruteForce(a, ma, b, mb, ref);
  meshMeshPairs(a, ma, b, mb, cpu);
  if (gpu.count !== ref.count) return `count ${gpu.count} vs brute force ${ref.count}`;
  for (let k = 0; k < ref.count; k++) {
    if (gpu.slotsA[k] !== ref.slotsA[k] || gpu.slotsB[k] !== ref.slotsB[k]) {
      return `pair ${k}: (${gpu.slotsA[k]}, ${gpu.slotsB[k]}) vs (${ref.slotsA[k]}, ${ref.slotsB[k]})`;
    }
    if (gpu.trianglesA[k] !== ref.trianglesA[k] || gpu.trianglesB[k] !== ref.trianglesB[k]) {
      return `pair ${k}: triangle ids differ`;
    }
  }
  for (const f of ['pointA', 'normalA', 'pointB', 'normalB'] as const) {
    for (let c = 0; c < 3; c++) {
      if (gpu[f][c] !== ref[f][c]) return `${f}[${c}] ${gpu[f][c]} vs ${ref[f][c]}`;
    }
  }
  if (gpu.distinctA !== ref.distinctA || gpu.distinctB !== ref.distinctB) return 'distinct counts differ';
  const kc = keys(cpu, b.triangleCount);
  const kg = keys(gpu, b.triangleCount);
  if (kc.length !== kg.length || kc.some((v, i) => v !== kg[i])) return 'pair set differs from meshMeshPairs';
  return '';
}

/** Scenario names to run (null: all). */
let only: readonly string[] | null = null;

function newCase(name: string): CaseReport {
  return { name, poses: 0, pairs: 0, uncertain: 0, candidates: 0, errors: [] };
}

async function check(
  g: GpuMeshMesh,
  c: CaseReport,
  ha: number,
  a: MeshBVH,
  ma: ArrayLike<number> | null,
  hb: number,
  b: MeshBVH,
  mb: ArrayLike<number> | null,
  bruteForce = false,
): Promise<void> {
  if (only && !only.includes(c.name)) return;
  await g.pairs(ha, ma, hb, mb, gpu, { bruteForce });
  const err = compare(a, b, ma, mb);
  c.poses++;
  c.pairs += ref.count;
  c.uncertain += g.stats.uncertain;
  c.candidates += g.stats.candidatePairs;
  if (err) c.errors.push(`pose ${c.poses - 1}: ${err}`);
}

/**
 * Runs the scenarios on `g` (its backend decides whether the GPU runs): all, or those named in
 * `names`; `scale` multiplies the number of poses.
 */
export async function runScenarios(
  g: GpuMeshMesh,
  scale = 1,
  names: readonly string[] | null = null,
): Promise<ScenarioReport> {
  only = names;
  const t0 = performance.now();
  const cases: CaseReport[] = [];
  const r = rng(20);
  const sA = uvSphere(1, 24, 16);
  const sB = uvSphere(0.7, 18, 12);
  const A = new MeshBVH(sA.positions, sA.index);
  const B = new MeshBVH(sB.positions, sB.index, { strategy: 'sah' });
  const ha = g.addMesh(A);
  const hb = g.addMesh(B);

  // Random poses: rotations, translations, uniform and non-uniform scales, a mirror.
  const random = newCase('random');
  for (let i = 0; i < 24 * scale; i++) {
    const ma = i % 3 === 0 ? null : compose([r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r));
    const s: [number, number, number] =
      i % 4 === 1 ? [0.5 + r(), 0.5 + r(), 0.5 + r()] : i % 4 === 2 ? [-1, 1, 1] : [1, 1, 1];
    const mb = compose([2 * r() - 1, 2 * r() - 1, 2 * r() - 1], randomQuat(r), s);
    await check(g, random, ha, A, ma, hb, B, mb);
  }
  cases.push(random);

  // Touching: B slid along a direction to the last offset that still touches (bisection on the CPU
  // any-hit query), then a hair further in and out.
  const touching = newCase('touching');
  for (let i = 0; i < 6 * scale; i++) {
    const q = randomQuat(r);
    const dir = [r() - 0.5, r() - 0.5, r() - 0.5];
    const len = Math.hypot(dir[0], dir[1], dir[2]);
    const at = (d: number) => compose([(d * dir[0]) / len, (d * dir[1]) / len, (d * dir[2]) / len], q);
    let lo = 0;
    let hi = 3;
    for (let k = 0; k < 60; k++) {
      const mid = 0.5 * (lo + hi);
      if (meshMeshIntersects(A, null, B, at(mid), cpu)) lo = mid;
      else hi = mid;
    }
    for (const d of [lo, hi, lo * (1 - 1e-7), hi * (1 + 1e-7)])
      await check(g, touching, ha, A, null, hb, B, at(d));
  }
  // Exactly shared vertices and edges: a grid against itself shifted by whole cells, and rotated 90°.
  const G = grid(12, 0.25);
  const GA = new MeshBVH(G.positions, G.index);
  const hg = g.addMesh(GA);
  for (const m of [
    compose([3, 0, 0], [0, 0, 0, 1]),
    compose([0.25, 0.25, 0], [0, 0, 0, 1]),
    compose([0, 0, 0], [0, 0, Math.SQRT1_2, Math.SQRT1_2]),
    compose([0, 0, 0], [Math.SQRT1_2, 0, 0, Math.SQRT1_2]),
  ]) {
    await check(g, touching, hg, GA, null, hg, GA, m);
  }
  cases.push(touching);

  // Coplanar: grids in one plane (rotated within it, shifted in it, and off it by tiny amounts).
  const coplanar = newCase('coplanar');
  const H = grid(9, 0.31);
  const GB = new MeshBVH(H.positions, H.index);
  const hh = g.addMesh(GB);
  for (let i = 0; i < 5 * scale; i++) {
    const ang = r() * Math.PI;
    const dz = i === 0 ? 0 : (r() - 0.5) * 10 ** -(3 + 2 * i);
    const m = compose([r() - 0.5, r() - 0.5, dz], [0, 0, Math.sin(ang / 2), Math.cos(ang / 2)]);
    await check(g, coplanar, hg, GA, null, hh, GB, m);
    // The same, both meshes tilted out of z = 0 by the same transform.
    const tilt = compose([0.1, 0.2, 0.3], randomQuat(r));
    const both = new Float64Array(16);
    for (let c = 0; c < 4; c++) {
      for (let row = 0; row < 4; row++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += tilt[4 * k + row] * m[4 * c + k];
        both[4 * c + row] = s;
      }
    }
    await check(g, coplanar, hg, GA, tilt, hh, GB, both);
  }
  cases.push(coplanar);

  // Degenerate triangles: a soup with needles, plus collinear and coincident triangles.
  const degenerate = newCase('degenerate');
  const soup = mixedSoup(5, 20, 200);
  const extra = new Float32Array(soup.positions.length + 36);
  extra.set(soup.positions);
  const o = soup.positions.length;
  extra.set([0, 0, 0, 0.5, 0.5, 0.5, 1, 1, 1], o); // collinear
  extra.set([0.2, 0.1, 0, 0.2, 0.1, 0, 0.2, 0.1, 0], o + 9); // a point
  extra.set([-0.3, 0, 0, -0.3, 0, 0, 0.4, 0.2, 0.1], o + 18); // two coincident vertices
  extra.set([0, 0, 0, 1e-4, 0, 0, 2e-4, 1e-16, 0], o + 27); // nearly collinear
  const D = new MeshBVH(extra, null);
  const hd = g.addMesh(D);
  for (let i = 0; i < 6 * scale; i++) {
    const m = compose([(r() - 0.5) * 0.5, (r() - 0.5) * 0.5, (r() - 0.5) * 0.5], randomQuat(r));
    await check(g, degenerate, hd, D, null, hd, D, m);
    await check(g, degenerate, hd, D, null, hb, B, m);
  }
  cases.push(degenerate);

  // Far from the origin: soups whose coordinates are ~500 (float32 spacing 3e-5) against each other,
  // rotated about their centre — cancellation in every difference, large transform rounding.
  const far = newCase('far');
  const fs = mixedSoup(9, 10, 300);
  const fp = fs.positions;
  for (let v = 0; v < fp.length; v += 3) {
    fp[v] += 500;
    fp[v + 1] -= 300;
    fp[v + 2] += 200;
  }
  const F = new MeshBVH(fp, null);
  const hf = g.addMesh(F);
  for (let i = 0; i < 6 * scale; i++) {
    const q = randomQuat(r);
    const rot = compose([0, 0, 0], q);
    // B = T(c + d)·R·T(−c): rotated about the soup centre c, moved by a small d.
    const c = [500, -300, 200];
    const d = [(r() - 0.5) * 0.2, (r() - 0.5) * 0.2, (r() - 0.5) * 0.2];
    for (let k = 0; k < 3; k++) {
      rot[12 + k] = c[k] + d[k] - (rot[k] * c[0] + rot[4 + k] * c[1] + rot[8 + k] * c[2]);
    }
    await check(g, far, hf, F, null, hf, F, rot);
  }
  cases.push(far);

  // A batch: several mesh pairs in one call (one read-back), one of them far apart (no candidates),
  // one brute force; each result must equal its own CPU answer.
  const batch = newCase('batch');
  if (!only || only.includes('batch')) {
    const results = [0, 1, 2, 3, 4].map(() => new MeshMeshResult());
    const queries: GpuPairQuery[] = [
      { a: ha, matrixA: null, b: hb, matrixB: compose([0.5, 0.2, 0], randomQuat(r)), result: results[0] },
      { a: hg, matrixA: null, b: hb, matrixB: compose([0.2, 0.1, 0.3], randomQuat(r)), result: results[1] },
      { a: ha, matrixA: null, b: hb, matrixB: compose([9, 0, 0], randomQuat(r)), result: results[2] },
      { a: hd, matrixA: null, b: hb, matrixB: compose([0.1, 0, 0], randomQuat(r)), result: results[3] },
      {
        a: hb,
        matrixA: compose([0, 0.3, 0], randomQuat(r)),
        b: ha,
        matrixB: null,
        result: results[4],
        bruteForce: true,
      },
    ];
    const bvhs = new Map<number, MeshBVH>([
      [ha, A],
      [hb, B],
      [hg, GA],
      [hd, D],
    ]);
    await g.pairsBatch(queries);
    for (const q of queries) {
      gpu.count = 0;
      // Compare through the shared helper: copy the query's answer into the scratch result.
      for (let k = 0; k < q.result.count; k++) {
        gpu.push(q.result.slotsA[k], q.result.slotsB[k], q.result.trianglesA[k], q.result.trianglesB[k]);
      }
      for (const f of ['pointA', 'normalA', 'pointB', 'normalB'] as const) gpu[f].set(q.result[f]);
      gpu.distinctA = q.result.distinctA;
      gpu.distinctB = q.result.distinctB;
      const a = bvhs.get(q.a)!;
      const b = bvhs.get(q.b)!;
      const err = compare(a, b, q.matrixA, q.matrixB);
      batch.poses++;
      batch.pairs += ref.count;
      if (err) batch.errors.push(`query ${batch.poses - 1}: ${err}`);
    }
    batch.uncertain += g.stats.uncertain;
    batch.candidates += g.stats.candidatePairs;
    if (results[2].count !== 0) batch.errors.push('the far query found pairs');
  }
  cases.push(batch);

  // Deforming: a wavy grid whose vertices move every frame, against the sphere. Brute force on the
  // GPU (BVH stale) and the refitted BVH (noticed through its version) must both give the CPU answer.
  const deforming = newCase('deforming');
  const W = grid(24, 0.1);
  const rest = W.positions.slice();
  const pos = W.positions;
  const WB = new MeshBVH(pos, W.index);
  const hw = g.addMesh(WB);
  const mS = compose([0, 0, 0.55], [0, 0, 0, 1]);
  for (let f = 0; f < 5 * scale; f++) {
    for (let v = 0; v < pos.length; v += 3) {
      pos[v + 2] = rest[v + 2] + 0.3 * Math.sin(3 * rest[v] + f) * Math.cos(2 * rest[v + 1] - 0.5 * f);
    }
    g.updateMesh(hw, pos);
    WB.refit(pos); // for the CPU references (and the BVH path below)
    await check(g, deforming, hw, WB, null, hb, B, mS, true);
    await check(g, deforming, hw, WB, null, hb, B, mS, false);
  }
  cases.push(deforming);

  return {
    backend: g.backend,
    info: g.info,
    cases: cases.filter((c) => !names || names.includes(c.name)),
    ms: performance.now() - t0,
  };
}
