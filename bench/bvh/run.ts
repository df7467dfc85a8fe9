/**
 * BVH benchmark: Sieve's triangle BVH against three-mesh-bvh, same process, same three.js geometries
 * (TorusKnotGeometry at ~10 k, ~50 k and ~200 k triangles).
 *
 * - build time (centre split and SAH, both libraries);
 * - mesh–mesh, A (each size) against B (10 k), at an interpenetrating, a near-miss (bounding boxes
 *   overlap, no triangle does) and a far pose: "any hit" (ours `meshMeshIntersects` vs
 *   `MeshBVH.intersectsGeometry`, B having a bounds tree) and "all pairs" (ours `meshMeshPairs` vs
 *   `bvhcast` with an `intersectsTriangles` callback counting `intersectsTriangle` hits) — answers and
 *   pair counts are checked to agree;
 * - ray casts per second (ours `raycastFirst` vs `MeshBVH.raycastFirst`, DoubleSide, same random rays;
 *   hit distances are checked to agree).
 *
 * Medians of several repetitions, ours and theirs timed in interleaved samples; fast calls are batched
 * so one timed sample lasts ≥ ~2 ms.
 * `pnpm bench:bvh` for the full run (a few minutes), `BVH_QUICK=1` (or `--quick`) for a short check.
 * Writes bench/results/bvh.json and bench/results/bvh.svg.
 */
import {
  MeshBVH,
  MeshMeshResult,
  meshMeshIntersects,
  meshMeshPairs,
  RayHit,
  raycastFirst,
} from '@sieve/core';
import {
  type BufferGeometry,
  DoubleSide,
  Euler,
  Matrix4,
  Quaternion,
  Ray,
  TorusKnotGeometry,
  Vector3,
} from 'three';
import { CENTER, SAH, MeshBVH as TmbBVH } from 'three-mesh-bvh';
import { writeJson, writeText } from '../lib/results.js';
import { median, rng } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { gpuBench } from './gpu.js';

const QUICK = process.env.BVH_QUICK === '1' || process.argv.includes('--quick');
const REPS = QUICK ? 3 : 9;

/** Torus knots with about 10 k, 50 k and 200 k triangles (2 · tubular · radial). */
const SIZES = QUICK
  ? [
      { name: '10k', tubular: 250, radial: 20 },
      { name: '50k', tubular: 500, radial: 50 },
    ]
  : [
      { name: '10k', tubular: 250, radial: 20 },
      { name: '50k', tubular: 500, radial: 50 },
      { name: '200k', tubular: 1000, radial: 100 },
    ];

function knot(tubular: number, radial: number): BufferGeometry {
  return new TorusKnotGeometry(1, 0.3, tubular, radial);
}

function arrays(g: BufferGeometry): { positions: Float32Array; index: Uint32Array | Uint16Array } {
  return {
    positions: g.attributes.position.array as Float32Array,
    index: g.index!.array as Uint32Array | Uint16Array,
  };
}

/** How many calls of `fn` make a sample of ≥ ~2 ms (timer resolution), after a ≥ 30 ms warm-up. */
function calibrate(fn: () => void): number {
  const w0 = performance.now();
  for (let i = 0; i < 3 || performance.now() - w0 < 30; i++) fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - t0 >= 2 || batch >= 1 << 20) return batch;
    batch *= 4;
  }
}

/**
 * Median milliseconds per call of each contender, timed in interleaved samples (ours, theirs, ours,
 * …) so that machine noise hits them alike; fast calls are batched.
 */
function compareMs(fns: Array<() => void>, reps = REPS): number[] {
  const batches = fns.map(calibrate);
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r < reps; r++) {
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      for (let i = 0; i < batches[k]; i++) fn();
      samples[k].push((performance.now() - t0) / batches[k]);
    });
  }
  return samples.map(median);
}

/**
 * Median build times of several contenders, interleaved rep by rep so machine noise hits them alike.
 * Each contender gets a fresh input from `prepare` (untimed) and a warm-up of ≥ 3 builds and ≥ 150 ms.
 */
function buildTimes(
  contenders: Array<{ prepare: () => unknown; build: (x: unknown) => unknown }>,
  reps: number,
): number[] {
  for (const c of contenders) {
    const w0 = performance.now();
    for (let i = 0; i < 3 || performance.now() - w0 < 150; i++) c.build(c.prepare());
  }
  const samples: number[][] = contenders.map(() => []);
  for (let r = 0; r < reps; r++) {
    contenders.forEach((c, k) => {
      const x = c.prepare();
      const t0 = performance.now();
      c.build(x);
      samples[k].push(performance.now() - t0);
    });
  }
  return samples.map(median);
}

const fmt = (ms: number) => (ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(3) : ms.toFixed(4));
const x = (slow: number, fast: number) => Math.round((slow / fast) * 100) / 100;

// ---------------------------------------------------------------------------------------------------
console.log(`BVH benchmark${QUICK ? ' (quick)' : ''}: Sieve vs three-mesh-bvh 0.9.17, medians of ${REPS}`);

interface BuildRow {
  size: string;
  triangles: number;
  oursCenterMs: number;
  oursSahMs: number;
  tmbCenterMs: number;
  tmbSahMs: number;
}
const buildRows: BuildRow[] = [];
const geoms = new Map<string, BufferGeometry>();
for (const s of SIZES) {
  const g = knot(s.tubular, s.radial);
  geoms.set(s.name, g);
  const { positions, index } = arrays(g);
  const triangles = index.length / 3;
  const reps = REPS;
  // three-mesh-bvh reorders the geometry's index in place: it gets a fresh clone each time.
  const [oursCenterMs, oursSahMs, tmbCenterMs, tmbSahMs] = buildTimes(
    [
      { prepare: () => null, build: () => new MeshBVH(positions, index, { strategy: 'center' }) },
      { prepare: () => null, build: () => new MeshBVH(positions, index, { strategy: 'sah' }) },
      { prepare: () => g.clone(), build: (c) => new TmbBVH(c as BufferGeometry, { strategy: CENTER }) },
      { prepare: () => g.clone(), build: (c) => new TmbBVH(c as BufferGeometry, { strategy: SAH }) },
    ],
    reps,
  );
  const row: BuildRow = { size: s.name, triangles, oursCenterMs, oursSahMs, tmbCenterMs, tmbSahMs };
  buildRows.push(row);
  console.log(
    `build ${s.name} (${triangles} tris): ours center ${fmt(row.oursCenterMs)} ms, sah ${fmt(row.oursSahMs)} ms | ` +
      `tmb center ${fmt(row.tmbCenterMs)} ms, sah ${fmt(row.tmbSahMs)} ms | ratio center ${x(row.tmbCenterMs, row.oursCenterMs)}×, sah ${x(row.tmbSahMs, row.oursSahMs)}×`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Mesh–mesh: B = the 10 k knot, rotated and offset along a fixed direction.
const gB = geoms.get('10k')!;
const bB = new MeshBVH(arrays(gB).positions, arrays(gB).index);
const tmbGB = gB.clone();
const tmbB = new TmbBVH(tmbGB);
(tmbGB as unknown as { boundsTree: TmbBVH }).boundsTree = tmbB;
const dir = new Vector3(1, 0.3, 0.2).normalize();
const rot = new Quaternion().setFromEuler(new Euler(0.3, 0.5, 0.7));
const pose = (d: number) => new Matrix4().compose(dir.clone().multiplyScalar(d), rot, new Vector3(1, 1, 1));

interface MeshRow {
  size: string;
  pose: string;
  hit: boolean;
  pairs: number;
  tmbPairs: number;
  oursTriangleTests: number;
  tmbTriangleTests: number;
  oursAnyMs: number;
  tmbAnyMs: number;
  oursAllMs: number;
  tmbAllMs: number;
}
const meshRows: MeshRow[] = [];
const result = new MeshMeshResult();
const worldBox = (g: BufferGeometry, m: Matrix4) => {
  g.computeBoundingBox();
  return g.boundingBox!.clone().applyMatrix4(m);
};

for (const s of SIZES) {
  const gA = geoms.get(s.name)!;
  const { positions, index } = arrays(gA);
  const bA = new MeshBVH(positions, index);
  const tmbGA = gA.clone();
  const tmbA = new TmbBVH(tmbGA);
  // Near miss: bisect the offset between touching and separated, then step 0.01 further out.
  let lo = 0;
  let hi = 5;
  for (let i = 0; i < 40; i++) {
    const mid = 0.5 * (lo + hi);
    if (meshMeshIntersects(bA, null, bB, pose(mid).elements, result)) lo = mid;
    else hi = mid;
  }
  const near = pose(hi + 0.01);
  if (!worldBox(gA, new Matrix4()).intersectsBox(worldBox(gB, near)))
    throw new Error('near-miss pose: boxes do not overlap');
  const poses: Array<[string, Matrix4]> = [
    ['interpenetrating', pose(0.15)],
    ['near miss', near],
    ['far', pose(10)],
  ];
  for (const [name, m] of poses) {
    const e = m.elements;
    const hit = meshMeshIntersects(bA, null, bB, e, result);
    const tmbHit = tmbA.intersectsGeometry(tmbGB, m);
    if (hit !== tmbHit) console.warn(`  ! ${s.name} ${name}: any-hit disagrees (ours ${hit}, tmb ${tmbHit})`);
    const pairs = meshMeshPairs(bA, null, bB, e, result);
    const oursTriangleTests = result.triangleTests;
    let tmbPairs = 0;
    let tmbTriangleTests = 0;
    const tmbAll = () => {
      tmbPairs = 0;
      tmbTriangleTests = 0;
      tmbA.bvhcast(tmbB, m, {
        intersectsTriangles(t1, t2) {
          tmbTriangleTests++;
          if (t1.intersectsTriangle(t2)) tmbPairs++;
          return false;
        },
      });
    };
    tmbAll();
    if (pairs !== tmbPairs)
      console.warn(`  ! ${s.name} ${name}: pair counts differ (ours ${pairs}, tmb ${tmbPairs})`);
    const slowReps = s.name === '200k' ? 3 : Math.min(REPS, 5);
    const [oursAnyMs, tmbAnyMs] = compareMs([
      () => meshMeshIntersects(bA, null, bB, e, result),
      () => tmbA.intersectsGeometry(tmbGB, m),
    ]);
    const [oursAllMs, tmbAllMs] = compareMs([() => meshMeshPairs(bA, null, bB, e, result), tmbAll], slowReps);
    const row: MeshRow = {
      size: s.name,
      pose: name,
      hit,
      pairs,
      tmbPairs,
      oursTriangleTests,
      tmbTriangleTests,
      oursAnyMs,
      tmbAnyMs,
      oursAllMs,
      tmbAllMs,
    };
    meshRows.push(row);
    console.log(
      `mesh–mesh ${s.name} vs 10k, ${name}: hit ${hit}, pairs ${pairs} (tmb ${tmbPairs}), triangle tests ${oursTriangleTests} (tmb ${tmbTriangleTests}) | ` +
        `any ${fmt(row.oursAnyMs)} vs ${fmt(row.tmbAnyMs)} ms (${x(row.tmbAnyMs, row.oursAnyMs)}×) | ` +
        `all ${fmt(row.oursAllMs)} vs ${fmt(row.tmbAllMs)} ms (${x(row.tmbAllMs, row.oursAllMs)}×)`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Ray casts: the same random rays for both, from a sphere of radius 3 towards points in the knot's box.
interface RayRow {
  size: string;
  rays: number;
  hits: number;
  maxDistanceDiff: number;
  disagreements: number;
  oursRaysPerSec: number;
  tmbRaysPerSec: number;
}
const rayRows: RayRow[] = [];
const RAYS = QUICK ? 2000 : 10000;
for (const s of SIZES) {
  const g = geoms.get(s.name)!;
  const { positions, index } = arrays(g);
  const b = new MeshBVH(positions, index);
  const tg = g.clone();
  const t = new TmbBVH(tg);
  const r = rng(1234);
  const origins = new Float64Array(3 * RAYS);
  const dirs = new Float64Array(3 * RAYS);
  const tmbRays: Ray[] = [];
  for (let i = 0; i < RAYS; i++) {
    const u = 2 * r() - 1;
    const th = 2 * Math.PI * r();
    const o = [3 * Math.sqrt(1 - u * u) * Math.cos(th), 3 * Math.sqrt(1 - u * u) * Math.sin(th), 3 * u];
    const target = [1.6 * (r() - 0.5), 1.6 * (r() - 0.5), 0.8 * (r() - 0.5)];
    const d = new Vector3(target[0] - o[0], target[1] - o[1], target[2] - o[2]).normalize();
    origins.set(o, 3 * i);
    dirs.set([d.x, d.y, d.z], 3 * i);
    tmbRays.push(new Ray(new Vector3(o[0], o[1], o[2]), d));
  }
  const hit = new RayHit();
  let hits = 0;
  let disagreements = 0;
  let maxDistanceDiff = 0;
  for (let i = 0; i < RAYS; i++) {
    const ours = raycastFirst(
      b,
      null,
      origins.subarray(3 * i, 3 * i + 3),
      dirs.subarray(3 * i, 3 * i + 3),
      hit,
    );
    const theirs = t.raycastFirst(tmbRays[i], DoubleSide);
    if (ours !== (theirs !== null)) disagreements++;
    else if (ours && theirs) {
      hits++;
      maxDistanceDiff = Math.max(maxDistanceDiff, Math.abs(hit.distance - theirs.distance));
    }
  }
  const o3 = new Float64Array(3);
  const d3 = new Float64Array(3);
  const oursAll = () => {
    for (let i = 0; i < RAYS; i++) {
      o3[0] = origins[3 * i];
      o3[1] = origins[3 * i + 1];
      o3[2] = origins[3 * i + 2];
      d3[0] = dirs[3 * i];
      d3[1] = dirs[3 * i + 1];
      d3[2] = dirs[3 * i + 2];
      raycastFirst(b, null, o3, d3, hit);
    }
  };
  const tmbAll = () => {
    for (let i = 0; i < RAYS; i++) t.raycastFirst(tmbRays[i], DoubleSide);
  };
  const [oursMs, tmbMs] = compareMs([oursAll, tmbAll]);
  const row: RayRow = {
    size: s.name,
    rays: RAYS,
    hits,
    maxDistanceDiff,
    disagreements,
    oursRaysPerSec: RAYS / (oursMs / 1000),
    tmbRaysPerSec: RAYS / (tmbMs / 1000),
  };
  rayRows.push(row);
  console.log(
    `rays ${s.name}: ${hits}/${RAYS} hit, ${disagreements} disagreements, max |Δdistance| ${maxDistanceDiff.toExponential(1)} | ` +
      `ours ${(row.oursRaysPerSec / 1e6).toFixed(2)} M/s vs tmb ${(row.tmbRaysPerSec / 1e6).toFixed(2)} M/s (${x(row.oursRaysPerSec, row.tmbRaysPerSec)}×)`,
  );
}

// ---------------------------------------------------------------------------------------------------
const headline = meshRows.filter((r) => r.size === '50k');
const summary = {
  buildCenterRatio50k: x(buildRows[1].tmbCenterMs, buildRows[1].oursCenterMs),
  buildSahRatio50k: x(buildRows[1].tmbSahMs, buildRows[1].oursSahMs),
  anyHitRatio50kVs10k: Object.fromEntries(headline.map((r) => [r.pose, x(r.tmbAnyMs, r.oursAnyMs)])),
  allPairsRatio50kVs10k: Object.fromEntries(headline.map((r) => [r.pose, x(r.tmbAllMs, r.oursAllMs)])),
  rayRatio: Object.fromEntries(rayRows.map((r) => [r.size, x(r.oursRaysPerSec, r.tmbRaysPerSec)])),
};
console.log('summary (three-mesh-bvh time / ours):', JSON.stringify(summary));
// GPU rows (bvh/gpu.ts): "no adapter" when WebGPU is missing.
const gpu = await gpuBench({ quick: QUICK, reps: REPS });
const jsonPath = writeJson('bvh', {
  benchmark: 'bvh',
  peer: 'three-mesh-bvh 0.9.17',
  quick: QUICK,
  reps: REPS,
  note: 'ratios are three-mesh-bvh time / Sieve time (>1: Sieve faster); medians; noisy shared machine',
  summary,
  build: buildRows,
  meshMesh: meshRows,
  rays: rayRows,
  gpu,
});

const tris = (size: string) => buildRows.find((b) => b.size === size)!.triangles;
const pts = <T>(rows: T[], f: (r: T) => [number, number]): Array<[number, number]> => rows.map(f);
const meshChart = (kind: 'any' | 'all') =>
  lineChart(
    ['interpenetrating', 'near miss', 'far'].flatMap((p) => {
      const rows = meshRows.filter((r) => r.pose === p);
      return [
        {
          name: `Sieve, ${p}`,
          points: pts(rows, (r) => [tris(r.size), kind === 'any' ? r.oursAnyMs : r.oursAllMs]),
        },
        {
          name: `tmb, ${p}`,
          points: pts(rows, (r) => [tris(r.size), kind === 'any' ? r.tmbAnyMs : r.tmbAllMs]),
        },
      ];
    }),
    {
      title: kind === 'any' ? 'Mesh–mesh any hit (A vs 10k knot)' : 'Mesh–mesh all pairs (A vs 10k knot)',
      xLabel: 'triangles in A',
      yLabel: 'ms',
    },
  );
const charts = [
  lineChart(
    [
      { name: 'Sieve centre', points: pts(buildRows, (r) => [r.triangles, r.oursCenterMs]) },
      { name: 'Sieve SAH', points: pts(buildRows, (r) => [r.triangles, r.oursSahMs]) },
      { name: 'three-mesh-bvh CENTER', points: pts(buildRows, (r) => [r.triangles, r.tmbCenterMs]) },
      { name: 'three-mesh-bvh SAH', points: pts(buildRows, (r) => [r.triangles, r.tmbSahMs]) },
    ],
    { title: 'Build time', xLabel: 'triangles', yLabel: 'ms' },
  ),
  lineChart(
    [
      { name: 'Sieve raycastFirst', points: pts(rayRows, (r) => [tris(r.size), r.oursRaysPerSec / 1e6]) },
      {
        name: 'three-mesh-bvh raycastFirst',
        points: pts(rayRows, (r) => [tris(r.size), r.tmbRaysPerSec / 1e6]),
      },
    ],
    { title: 'Closest-hit ray casts', xLabel: 'triangles', yLabel: 'million rays / s' },
  ),
  meshChart('any'),
  meshChart('all'),
];
const svgPath = writeText('bvh.svg', svgPage(charts, 2, 'Triangle BVH: Sieve vs three-mesh-bvh'));
console.log(`wrote ${jsonPath} and ${svgPath}`);
