/**
 * `pnpm bench:three`: @sieve/three against three-mesh-bvh 0.9.17 (and three.js's own `Octree` for the
 * capsule), same process, same three.js meshes and rays:
 *
 * - build: `computeBoundsTree()` of both (default options), torus knots of ~10 k, 50 k, 200 k triangles;
 * - rays through `Raycaster.intersectObject` with each library's `acceleratedRaycast`: first hit
 *   (`firstHitOnly`) and all hits, `FrontSide` (three.js's default material) and `DoubleSide`, random
 *   rays at the knots and picking rays down onto a terrain; every hit list is also compared with
 *   three.js's own `Mesh.raycast` (ours must be identical: `mismatches` 0);
 * - `intersectsGeometry` (knot against a 10 k knot: interpenetrating, near miss, far);
 * - sphere and capsule queries on a terrain level: `intersectsSphere` of both; the capsule push-out of
 *   three.js's FPS example (`Octree.capsuleIntersect`) against ours (`capsuleIntersect`) and against
 *   three-mesh-bvh's character-controller example (a `shapecast` with `closestPointToSegment`);
 * - `refit()` after the vertices of a knot moved.
 *
 * Ratios are the peer's time over ours (> 1: Sieve faster), medians of interleaved samples (ours, the
 * peer, ours, …) so that the shared machine's noise hits both alike, timed in process CPU time (a
 * sample does not count the time the process waited for a core); fast calls are batched so a sample
 * lasts ≥ 3 ms. `--quick` (or BENCH_QUICK=1) for a short run. Writes bench/results/three.json and
 * three.svg.
 */
import { acceleratedRaycast, type BoundsTree, capsuleIntersect, computeBoundsTree } from '@sieve/three';
import {
  Box3,
  type BufferGeometry,
  DoubleSide,
  Euler,
  FrontSide,
  type Intersection,
  Line3,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  Quaternion,
  Raycaster,
  type Side,
  Sphere,
  Vector3,
} from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { Octree } from 'three/examples/jsm/math/Octree.js';
import {
  type MeshBVH as TmbBVH,
  computeBoundsTree as tmbComputeBoundsTree,
  acceleratedRaycast as tmbRaycast,
} from 'three-mesh-bvh';
import { writeJson, writeText } from '../lib/results.js';
import { median, rng } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { knotGeometry, knotRays, pickRays, terrainGeometry } from './scenes.js';
import { compareCpu, cpuNow } from './timing.js';

const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
const REPS = QUICK ? 9 : 21;

/** Median CPU ms per call of each contender, sampled in turn (ours, theirs, ours, …). */
function compare(fns: Array<() => void>, reps = REPS): number[] {
  return compareCpu(fns, reps);
}

/** Median build times, interleaved, each build on a fresh input from `prepare` (untimed). */
function buildTimes(contenders: Array<{ prepare: () => unknown; build: (x: unknown) => unknown }>): number[] {
  for (const c of contenders) {
    const w0 = cpuNow();
    for (let i = 0; i < 3 || cpuNow() - w0 < 150; i++) c.build(c.prepare());
  }
  const samples: number[][] = contenders.map(() => []);
  for (let r = 0; r < REPS; r++) {
    contenders.forEach((c, k) => {
      const x = c.prepare();
      const t0 = cpuNow();
      c.build(x);
      samples[k].push(cpuNow() - t0);
    });
  }
  return samples.map(median);
}

const ratio = (theirs: number, ours: number) => Math.round((theirs / ours) * 100) / 100;
const fmt = (ms: number) => (ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(3) : ms.toFixed(4));

type TmbGeometry = BufferGeometry & { boundsTree?: TmbBVH };
const stockRaycast = Mesh.prototype.raycast;

console.log(
  `three benchmark${QUICK ? ' (quick)' : ''}: @sieve/three vs three-mesh-bvh 0.9.17, medians of ${REPS}`,
);

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
const knots = new Map(SIZES.map((s) => [s.name, knotGeometry(s.tubular, s.radial)]));

// ---------------------------------------------------------------------------------------------------
interface BuildRow {
  size: string;
  triangles: number;
  oursMs: number;
  tmbMs: number;
  ratio: number;
}
const buildRows: BuildRow[] = [];
for (const s of SIZES) {
  const g = knots.get(s.name) as BufferGeometry;
  const triangles = (g.index as { count: number }).count / 3;
  // Both set geometry.boundingBox when it is null (three-mesh-bvh from its root, ours by
  // computeBoundingBox); three-mesh-bvh also rewrites the index: fresh clones, untimed.
  const [oursMs, tmbMs] = buildTimes([
    { prepare: () => g.clone(), build: (c) => computeBoundsTree.call(c as BufferGeometry) },
    { prepare: () => g.clone(), build: (c) => tmbComputeBoundsTree.call(c as BufferGeometry) },
  ]);
  const row = { size: s.name, triangles, oursMs, tmbMs, ratio: ratio(tmbMs, oursMs) };
  buildRows.push(row);
  console.log(
    `build ${s.name} (${triangles} tris): ours ${fmt(oursMs)} ms, tmb ${fmt(tmbMs)} ms → ${row.ratio}×`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Rays. Each scene: our mesh (our tree), three-mesh-bvh's mesh (its tree, on a clone whose index it
// rewrote), and the rays.
interface RayRow {
  scene: string;
  triangles: number;
  side: string;
  firstHitOnly: boolean;
  rays: number;
  /** Rays whose hits were compared with three.js's own raycast, and their hit count. */
  checked: number;
  hits: number;
  mismatches: number;
  oursRaysPerSec: number;
  tmbRaysPerSec: number;
  ratio: number;
}
const rayRows: RayRow[] = [];
const RAYS = QUICK ? 1000 : 4000;
const CHECKED = 1000;

/** Same hits as three.js, bit for bit (distance, point, face, uv, normal, barycoord, faceIndex). */
function sameHits(a: Intersection[], b: Intersection[]): boolean {
  if (a.length !== b.length) return false;
  const v = (x: { x: number; y: number; z?: number } | undefined | null) => (x ? `${x.x},${x.y},${x.z}` : '');
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.distance !== y.distance || x.faceIndex !== y.faceIndex || v(x.point) !== v(y.point)) return false;
    if (v(x.uv) !== v(y.uv) || v(x.normal) !== v(y.normal) || v(x.barycoord) !== v(y.barycoord)) return false;
    if (x.face?.a !== y.face?.a || x.face?.b !== y.face?.b || v(x.face?.normal) !== v(y.face?.normal))
      return false;
  }
  return true;
}

const scenes: Array<{ name: string; geometry: BufferGeometry; rays: Raycaster[] }> = [
  ...SIZES.map((s) => ({
    name: `knot ${s.name}`,
    geometry: knots.get(s.name) as BufferGeometry,
    rays: knotRays(rng(7), RAYS),
  })),
  { name: 'terrain 80k', geometry: terrainGeometry(200), rays: pickRays(rng(9), RAYS) },
];
const out: Intersection[] = [];
for (const scene of scenes) {
  const ourGeometry = scene.geometry.clone();
  computeBoundsTree.call(ourGeometry);
  const tmbGeometry = scene.geometry.clone() as TmbGeometry;
  tmbComputeBoundsTree.call(tmbGeometry);
  const triangles = (ourGeometry.index as { count: number }).count / 3;
  for (const [sideName, side] of [
    ['FrontSide', FrontSide],
    ['DoubleSide', DoubleSide],
  ] as Array<[string, Side]>) {
    const ours = new Mesh(ourGeometry, new MeshBasicMaterial({ side }));
    ours.raycast = acceleratedRaycast;
    const tmb = new Mesh(tmbGeometry, new MeshBasicMaterial({ side }));
    tmb.raycast = tmbRaycast;
    const stock = new Mesh(scene.geometry, new MeshBasicMaterial({ side }));
    stock.raycast = stockRaycast;
    for (const firstHitOnly of [true, false]) {
      for (const rc of scene.rays) (rc as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = firstHitOnly;
      // Identical to three.js: our list against three.js's own (its first element for firstHitOnly), on
      // the first 1000 rays (three.js's own raycast tests every triangle: slow on the big meshes).
      let hits = 0;
      let mismatches = 0;
      for (const rc of scene.rays.slice(0, CHECKED)) {
        const want = rc.intersectObject(stock, false);
        const got = rc.intersectObject(ours, false);
        if (!sameHits(got, firstHitOnly ? want.slice(0, 1) : want)) mismatches++;
        hits += got.length;
      }
      const cast = (mesh: Mesh) => () => {
        for (const rc of scene.rays) {
          out.length = 0;
          rc.intersectObject(mesh, false, out);
        }
      };
      const [oursMs, tmbMs] = compare([cast(ours), cast(tmb)]);
      const row: RayRow = {
        scene: scene.name,
        triangles,
        side: sideName,
        firstHitOnly,
        rays: scene.rays.length,
        checked: Math.min(CHECKED, scene.rays.length),
        hits,
        mismatches,
        oursRaysPerSec: scene.rays.length / (oursMs / 1000),
        tmbRaysPerSec: scene.rays.length / (tmbMs / 1000),
        ratio: ratio(tmbMs, oursMs),
      };
      rayRows.push(row);
      console.log(
        `rays ${scene.name} ${sideName} ${firstHitOnly ? 'first hit' : 'all hits'}: ${hits} hits on ${row.checked} rays, ${mismatches} mismatches with three.js | ` +
          `ours ${(row.oursRaysPerSec / 1e6).toFixed(3)} M/s, tmb ${(row.tmbRaysPerSec / 1e6).toFixed(3)} M/s → ${row.ratio}×`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// intersectsGeometry: A (each knot) against B (the 10 k knot, rotated and moved along a direction).
interface GeometryRow {
  size: string;
  pose: string;
  hit: boolean;
  oursMs: number;
  tmbMs: number;
  ratio: number;
}
const geometryRows: GeometryRow[] = [];
{
  const gB = knots.get('10k') as BufferGeometry;
  const ourB = gB.clone();
  computeBoundsTree.call(ourB);
  const tmbB = gB.clone() as TmbGeometry;
  tmbComputeBoundsTree.call(tmbB);
  const dir = new Vector3(1, 0.3, 0.2).normalize();
  const rot = new Quaternion().setFromEuler(new Euler(0.3, 0.5, 0.7));
  const pose = (d: number) => new Matrix4().compose(dir.clone().multiplyScalar(d), rot, new Vector3(1, 1, 1));
  for (const s of SIZES) {
    const ourA = (knots.get(s.name) as BufferGeometry).clone();
    const ourTree = computeBoundsTree.call(ourA) as BoundsTree;
    const tmbA = (knots.get(s.name) as BufferGeometry).clone() as TmbGeometry;
    const tmbTree = tmbComputeBoundsTree.call(tmbA) as TmbBVH;
    // Near miss: bisect the offset between touching and apart, then 0.01 further.
    let lo = 0;
    let hi = 5;
    for (let i = 0; i < 40; i++) {
      const mid = 0.5 * (lo + hi);
      if (ourTree.intersectsGeometry(ourB, pose(mid))) lo = mid;
      else hi = mid;
    }
    for (const [name, m] of [
      ['interpenetrating', pose(0.15)],
      ['near miss', pose(hi + 0.01)],
      ['far', pose(10)],
    ] as Array<[string, Matrix4]>) {
      const hit = ourTree.intersectsGeometry(ourB, m);
      const tmbHit = tmbTree.intersectsGeometry(tmbB, m);
      if (hit !== tmbHit)
        console.warn(`  ! intersectsGeometry ${s.name} ${name}: ours ${hit}, tmb ${tmbHit}`);
      const [oursMs, tmbMs] = compare([
        () => ourTree.intersectsGeometry(ourB, m),
        () => tmbTree.intersectsGeometry(tmbB, m),
      ]);
      const row = { size: s.name, pose: name, hit, oursMs, tmbMs, ratio: ratio(tmbMs, oursMs) };
      geometryRows.push(row);
      console.log(
        `intersectsGeometry ${s.name} vs 10k, ${name} (${hit}): ours ${fmt(oursMs)} ms, tmb ${fmt(tmbMs)} ms → ${row.ratio}×`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Sphere and capsule queries on a terrain level, at random player positions near the ground.
interface ShapeRow {
  query: string;
  level: string;
  triangles: number;
  queries: number;
  oursMs: number;
  peer: string;
  peerMs: number;
  ratio: number;
}
const shapeRows: ShapeRow[] = [];
const LEVELS = QUICK ? [64, 128] : [64, 128, 256];
for (const n of LEVELS) {
  const g = terrainGeometry(n);
  const triangles = (g.index as { count: number }).count / 3;
  const level = new Mesh(g.clone());
  computeBoundsTree.call(level.geometry);
  const tmbGeometry = g.clone() as TmbGeometry;
  const tmbTree = tmbComputeBoundsTree.call(tmbGeometry) as TmbBVH;
  const octree = new Octree().fromGraphNode(new Mesh(g.clone()));
  const r = rng(n + 1);
  const Q = 200;
  const capsules: Capsule[] = [];
  const spheres: Sphere[] = [];
  const down = new Raycaster();
  for (let i = 0; i < Q; i++) {
    const x = (r() - 0.5) * 90;
    const z = (r() - 0.5) * 90;
    down.set(new Vector3(x, 50, z), new Vector3(0, -1, 0));
    const ground = down.intersectObject(level)[0].point.y;
    // Feet between 0.4 below and 0.4 above the ground: about half the players touch it.
    const y = ground + 0.35 + (r() - 0.5) * 0.8;
    capsules.push(new Capsule(new Vector3(x, y, z), new Vector3(x, y + 1, z), 0.35));
    spheres.push(new Sphere(new Vector3(x, y, z), 0.5));
  }
  const ourTree = (level.geometry as unknown as { boundsTree: BoundsTree }).boundsTree;
  const levelName = `terrain ${Math.round(triangles / 1000)}k`;
  const push = { normal: new Vector3(), depth: 0 };
  // three-mesh-bvh's characterMovement example: a shapecast with the capsule's box and segment.
  const tempBox = new Box3();
  const tempSegment = new Line3();
  const triPoint = new Vector3();
  const capsulePoint = new Vector3();
  const tmbCapsule = (c: Capsule) => {
    tempSegment.set(c.start, c.end);
    tempBox.makeEmpty().expandByPoint(c.start).expandByPoint(c.end);
    tempBox.min.addScalar(-c.radius);
    tempBox.max.addScalar(c.radius);
    let hit = false;
    tmbTree.shapecast({
      intersectsBounds: (box) => box.intersectsBox(tempBox),
      intersectsTriangle: (tri) => {
        const distance = tri.closestPointToSegment(tempSegment, triPoint, capsulePoint);
        if (distance < c.radius) {
          const depth = c.radius - distance;
          const direction = capsulePoint.sub(triPoint).normalize();
          tempSegment.start.addScaledVector(direction, depth);
          tempSegment.end.addScaledVector(direction, depth);
          hit = true;
        }
        return false;
      },
    });
    return hit;
  };
  const runs: Array<[string, string, () => void, () => void]> = [
    [
      'capsule push-out',
      'three.js Octree.capsuleIntersect',
      () => {
        for (const c of capsules) capsuleIntersect(level, c, push);
      },
      () => {
        for (const c of capsules) octree.capsuleIntersect(c);
      },
    ],
    [
      'capsule push-out',
      'three-mesh-bvh shapecast (its character example)',
      () => {
        for (const c of capsules) capsuleIntersect(level, c, push);
      },
      () => {
        for (const c of capsules) tmbCapsule(c);
      },
    ],
    [
      'intersectsSphere',
      'three-mesh-bvh intersectsSphere',
      () => {
        for (const s of spheres) ourTree.intersectsSphere(s);
      },
      () => {
        for (const s of spheres) tmbTree.intersectsSphere(s);
      },
    ],
  ];
  for (const [query, peer, ours, theirs] of runs) {
    const [oursMs, peerMs] = compare([ours, theirs]);
    const row = {
      query,
      level: levelName,
      triangles,
      queries: Q,
      oursMs,
      peer,
      peerMs,
      ratio: ratio(peerMs, oursMs),
    };
    shapeRows.push(row);
    console.log(
      `${query} ${levelName}, ${Q} queries: ours ${fmt(oursMs)} ms, ${peer} ${fmt(peerMs)} ms → ${row.ratio}×`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Refit after the vertices of a knot moved (the same wave for both; the timed part is refit only).
interface RefitRow {
  size: string;
  oursMs: number;
  tmbMs: number;
  ratio: number;
}
const refitRows: RefitRow[] = [];
for (const s of SIZES) {
  const ourG = (knots.get(s.name) as BufferGeometry).clone();
  const ourTree = computeBoundsTree.call(ourG) as BoundsTree;
  const tmbG = (knots.get(s.name) as BufferGeometry).clone() as TmbGeometry;
  const tmbTree = tmbComputeBoundsTree.call(tmbG) as TmbBVH;
  let phase = 0;
  const wave = (g: BufferGeometry) => {
    const p = g.attributes.position;
    phase += 0.1;
    for (let i = 0; i < p.count; i++) p.setY(i, p.getY(i) + 0.01 * Math.sin(p.getX(i) * 3 + phase));
  };
  const [oursMs, tmbMs] = buildTimes([
    { prepare: () => wave(ourG), build: () => ourTree.refit() },
    { prepare: () => wave(tmbG), build: () => tmbTree.refit() },
  ]);
  const row = { size: s.name, oursMs, tmbMs, ratio: ratio(tmbMs, oursMs) };
  refitRows.push(row);
  console.log(`refit ${s.name}: ours ${fmt(oursMs)} ms, tmb ${fmt(tmbMs)} ms → ${row.ratio}×`);
}

// ---------------------------------------------------------------------------------------------------
const geo = (rows: number[]) =>
  Math.round(Math.exp(rows.reduce((a, b) => a + Math.log(b), 0) / rows.length) * 100) / 100;
const summary = {
  buildRatio: Object.fromEntries(buildRows.map((r) => [r.size, r.ratio])),
  firstHitRatio: geo(rayRows.filter((r) => r.firstHitOnly).map((r) => r.ratio)),
  allHitsRatio: geo(rayRows.filter((r) => !r.firstHitOnly).map((r) => r.ratio)),
  rayMismatchesWithThree: rayRows.reduce((a, r) => a + r.mismatches, 0),
  intersectsGeometryRatio: geo(geometryRows.map((r) => r.ratio)),
  capsuleVsOctree: geo(shapeRows.filter((r) => r.peer.includes('Octree')).map((r) => r.ratio)),
  capsuleVsTmb: geo(
    shapeRows.filter((r) => r.query === 'capsule push-out' && !r.peer.includes('Octree')).map((r) => r.ratio),
  ),
  sphereVsTmb: geo(shapeRows.filter((r) => r.query === 'intersectsSphere').map((r) => r.ratio)),
  refitRatio: geo(refitRows.map((r) => r.ratio)),
};
console.log('summary (peer time / ours, geometric means):', JSON.stringify(summary));
const jsonPath = writeJson('three', {
  benchmark: 'three',
  peers: [
    'three-mesh-bvh 0.9.17',
    'three.js Octree (examples/jsm/math/Octree.js)',
    'three.js Mesh.raycast (hits)',
  ],
  quick: QUICK,
  reps: REPS,
  note: 'ratios are peer time / @sieve/three time (>1: Sieve faster); medians of interleaved samples; noisy shared machine',
  summary,
  build: buildRows,
  rays: rayRows,
  intersectsGeometry: geometryRows,
  shapes: shapeRows,
  refit: refitRows,
});

const rayChart = (first: boolean) =>
  lineChart(
    ['FrontSide', 'DoubleSide'].flatMap((side) => {
      const rows = rayRows.filter(
        (r) => r.firstHitOnly === first && r.side === side && r.scene.startsWith('knot'),
      );
      return [
        {
          name: `Sieve, ${side}`,
          points: rows.map((r) => [r.triangles, r.oursRaysPerSec / 1e6] as [number, number]),
        },
        {
          name: `tmb, ${side}`,
          points: rows.map((r) => [r.triangles, r.tmbRaysPerSec / 1e6] as [number, number]),
        },
      ];
    }),
    {
      title: first ? 'Rays, first hit (torus knots)' : 'Rays, all hits (torus knots)',
      xLabel: 'triangles',
      yLabel: 'million rays / s',
    },
  );
const charts = [
  lineChart(
    [
      {
        name: 'Sieve computeBoundsTree',
        points: buildRows.map((r) => [r.triangles, r.oursMs] as [number, number]),
      },
      {
        name: 'tmb computeBoundsTree',
        points: buildRows.map((r) => [r.triangles, r.tmbMs] as [number, number]),
      },
    ],
    { title: 'Build', xLabel: 'triangles', yLabel: 'ms' },
  ),
  rayChart(true),
  rayChart(false),
  lineChart(
    [
      ...['three.js Octree.capsuleIntersect', 'three-mesh-bvh shapecast (its character example)'].map(
        (peer) => ({
          name: peer.startsWith('three.js') ? 'Octree' : 'tmb shapecast',
          points: shapeRows
            .filter((r) => r.peer === peer)
            .map((r) => [r.triangles, (r.queries / r.peerMs) * 1000] as [number, number]),
        }),
      ),
      {
        name: 'Sieve capsuleIntersect',
        points: shapeRows
          .filter((r) => r.peer.includes('Octree'))
          .map((r) => [r.triangles, (r.queries / r.oursMs) * 1000] as [number, number]),
      },
    ],
    { title: 'Capsule push-out on a terrain', xLabel: 'triangles', yLabel: 'queries / s' },
  ),
];
const svgPath = writeText(
  'three.svg',
  svgPage(charts, 2, '@sieve/three vs three-mesh-bvh and three.js Octree'),
);
console.log(`wrote ${jsonPath} and ${svgPath}`);
