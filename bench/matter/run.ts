/**
 * `pnpm bench:matter`: `Engine.update` of stock matter-js 0.20 against the same engine with
 * `@sieve/matter` installed with its defaults (the sweep, no broadphase), on circles and rectangles
 * in a walled box, at N = 1 000, 5 000, 20 000.
 *
 * Both engines are built from the same seed and stepped in lockstep (stock, then Sieve, each step), so
 * they see the same states — with Sieve the simulation is bit-identical, which is checked: every step
 * the collisions and pairs must agree in number, and at the end every body's position must be equal.
 * The detector phase is timed by one wrapper around `Detector.collisions` shared by both engines;
 * Sieve's own split (broadphase / narrowphase) comes from `SieveDetector.stats`. Reported: medians
 * over the measured steps (after a warm-up during which the bodies fall and pile up), the detector's
 * share of the update, and stock ÷ Sieve ratios. Writes bench/results/matter.json and matter.svg.
 * `--quick` runs small sizes with few steps (a smoke test, not a measurement); `--sizes=1000,5000`
 * and `--scenes=gas` pick what to run.
 *
 * The `tilemap` scene (tilemap.ts): levels of 2 500 – 20 000 static 32-px tiles with 300 dynamic
 * bodies, in matter-js and inside Phaser 3's and Phaser 4's bundled matter — stock, Sieve installed
 * with a `SweepAndPrune` (choosing its path), and each of its two paths forced, taking turns on one
 * engine. The `crowd` scene (crowd.ts): 5 000 and 10 000 moving circles in tall columns, the same
 * contestants — the worlds where a broadphase passed to `@sieve/matter` pays.
 */
import { performance } from 'node:perf_hooks';
import { installSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { writeJson, writeText } from '../lib/results.js';
import { median, ratio } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { type CrowdRow, formatCrowdRow, measureCrowd } from './crowd.js';
import { buildScene, type SceneKind } from './scene.js';
import { type Flavour, formatTilemapRow, measureTilemap, type TilemapRow } from './tilemap.js';

const quick = process.argv.includes('--quick');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const sizes = arg('sizes')?.split(',').map(Number) ?? (quick ? [1000, 5000] : [1000, 5000, 20000]);
const picked = arg('scenes')?.split(',') ?? ['gas', 'obstacles', 'tilemap', 'crowd'];
const scenes = picked.filter((s) => s !== 'tilemap' && s !== 'crowd') as SceneKind[];
/** Warm-up steps (untimed: the JIT settles, contacts form) and timed steps, per N. */
const plan = (n: number) =>
  quick ? { warmup: 10, steps: 8 } : n >= 20000 ? { warmup: 30, steps: 30 } : { warmup: 40, steps: 60 };

const { Composite, Detector, Engine } = Matter;

interface Row {
  scene: SceneKind;
  n: number;
  warmupSteps: number;
  timedSteps: number;
  stock: { updateMs: number; detectorMs: number; detectorShare: number };
  sieve: {
    updateMs: number;
    detectorMs: number;
    detectorShare: number;
    broadphaseMs: number;
    narrowphaseMs: number;
  };
  updateSpeedUp: number;
  detectorSpeedUp: number;
  /**
   * Stock's sort-and-sweep alone, estimated as its detector time less the narrowphase (the same
   * `Collision.collides` calls on the same pairs as Sieve's narrowphase part), against Sieve's
   * broadphase part.
   */
  broadphaseSpeedUp: number;
  /** Median collisions per step (the same in both engines, checked every step). */
  collisions: number;
  candidatePairs: number;
  identicalPositions: boolean;
}

const rows: Row[] = [];
for (const scene of scenes) for (const n of sizes) rows.push(measure(scene, n));

function measure(scene: SceneKind, n: number): Row {
  const { warmup, steps } = plan(n);
  const stock = buildScene(n, scene);
  const sieveEngine = buildScene(n, scene);
  const sieve = installSieve(sieveEngine);
  // One timing wrapper for both engines, around whatever answers Detector.collisions (the Sieve
  // dispatch included).
  const inner = Detector.collisions;
  let detectorMs = 0;
  Detector.collisions = (detector: Matter.Detector) => {
    const t0 = performance.now();
    const out = inner(detector);
    detectorMs += performance.now() - t0;
    return out;
  };
  const times = { stockUpdate: [] as number[], stockDet: [] as number[], sieveUpdate: [] as number[] };
  const sieveDet: number[] = [];
  const broad: number[] = [];
  const narrow: number[] = [];
  const collisions: number[] = [];
  const candidates: number[] = [];
  const delta = 1000 / 60;
  for (let s = 0; s < warmup + steps; s++) {
    detectorMs = 0;
    let t0 = performance.now();
    Engine.update(stock, delta);
    const stockUpdate = performance.now() - t0;
    const stockDet = detectorMs;
    detectorMs = 0;
    t0 = performance.now();
    Engine.update(sieveEngine, delta);
    const sieveUpdate = performance.now() - t0;
    const cs = (stock.detector as unknown as { collisions: unknown[] }).collisions.length;
    const cv = (sieveEngine.detector as unknown as { collisions: unknown[] }).collisions.length;
    if (cs !== cv || stock.pairs.list.length !== sieveEngine.pairs.list.length) {
      throw new Error(`N=${n} step ${s}: stock found ${cs} collisions, Sieve ${cv}`);
    }
    if (s < warmup) continue;
    times.stockUpdate.push(stockUpdate);
    times.stockDet.push(stockDet);
    times.sieveUpdate.push(sieveUpdate);
    sieveDet.push(detectorMs);
    broad.push(sieve.stats.broadphaseMs);
    narrow.push(sieve.stats.narrowphaseMs);
    collisions.push(cv);
    candidates.push(sieve.stats.candidatePairs);
  }
  Detector.collisions = inner;
  const a = Composite.allBodies(stock.world);
  const b = Composite.allBodies(sieveEngine.world);
  const identicalPositions =
    a.length === b.length &&
    a.every((body, i) => body.position.x === b[i].position.x && body.position.y === b[i].position.y);
  const su = median(times.stockUpdate);
  const sd = median(times.stockDet);
  const vu = median(times.sieveUpdate);
  const vd = median(sieveDet);
  const row: Row = {
    scene,
    n,
    warmupSteps: warmup,
    timedSteps: steps,
    stock: { updateMs: su, detectorMs: sd, detectorShare: sd / su },
    sieve: {
      updateMs: vu,
      detectorMs: vd,
      detectorShare: vd / vu,
      broadphaseMs: median(broad),
      narrowphaseMs: median(narrow),
    },
    updateSpeedUp: su / vu,
    detectorSpeedUp: sd / vd,
    broadphaseSpeedUp: (sd - median(narrow)) / median(broad),
    collisions: median(collisions),
    candidatePairs: median(candidates),
    identicalPositions,
  };
  sieve.uninstall();
  // The split is measured on the broadphase path only (the sweep path answers in one pass).
  const split = (t: { broadphaseMs: number; narrowphaseMs: number }) =>
    Number.isFinite(t.broadphaseMs)
      ? ` = broadphase ${t.broadphaseMs.toFixed(2)} + narrowphase ${t.narrowphaseMs.toFixed(2)}`
      : ', sweep path: no broadphase / narrowphase split';
  console.log(
    `${scene} N=${n}: Engine.update stock ${su.toFixed(2)} ms (detector ${sd.toFixed(2)} ms, ${((100 * sd) / su).toFixed(0)} %), ` +
      `Sieve ${vu.toFixed(2)} ms (detector ${vd.toFixed(2)} ms${split(row.sieve)}); ` +
      `update ${ratio(su, vu)}, detector ${ratio(sd, vd)}; ` +
      `${row.collisions} collisions/step, identical positions: ${identicalPositions}`,
  );
  return row;
}

const charts = scenes.map((scene) => {
  const mine = rows.filter((r) => r.scene === scene);
  const series = (name: string, pick: (r: Row) => number) => ({
    name,
    points: mine.map((r) => [r.n, pick(r)] as [number, number]),
  });
  return lineChart(
    [
      series('stock Engine.update', (r) => r.stock.updateMs),
      series('Sieve Engine.update', (r) => r.sieve.updateMs),
      series('stock Detector.collisions', (r) => r.stock.detectorMs),
      series('Sieve detector (broad + narrow)', (r) => r.sieve.detectorMs),
      series('Sieve broadphase part', (r) => r.sieve.broadphaseMs),
      series("Sieve narrowphase part (= stock's)", (r) => r.sieve.narrowphaseMs),
    ],
    {
      title: `matter-js 0.20, ${scene === 'gas' ? 'all bodies moving' : '90 % static obstacles, 10 % moving'}`,
      xLabel: 'bodies (N)',
      yLabel: 'ms per update (median)',
      guides: [{ y: 16.7, label: '16.7 ms frame budget' }],
      width: 620,
    },
  );
});
// Tilemap levels: [flavour, tiles, ground depth].
const tilemapPlan: [Flavour, number, number][] = quick
  ? [
      ['matter-js', 2500, 18],
      ['phaser3', 2500, 18],
    ]
  : [
      ['matter-js', 2500, 18],
      ['matter-js', 5000, 18],
      ['matter-js', 10000, 18],
      ['matter-js', 20000, 18],
      ['matter-js', 10000, 70],
      ['phaser3', 10000, 18],
      ['phaser4', 10000, 18],
    ];
const tilemapRows: TilemapRow[] = [];
if (picked.includes('tilemap')) {
  console.log('\ntilemap levels + 300 dynamic bodies (contestants alternated on one engine, CPU time):');
  for (const [flavour, tiles, ground] of tilemapPlan) {
    const row = measureTilemap(flavour, tiles, ground, quick ? { reps: 3, warmup: 20 } : {});
    tilemapRows.push(row);
    console.log(`  ${formatTilemapRow(row)}`);
  }
  const platformer = tilemapRows.filter((r) => r.flavour === 'matter-js' && r.ground === 18);
  const tileSeries = (name: string, pick: (r: TilemapRow) => number) => ({
    name,
    points: platformer.map((r) => [r.tiles, pick(r)] as [number, number]),
  });
  charts.push(
    lineChart(
      [
        tileSeries('stock Engine.update', (r) => r.updateMs.stock),
        tileSeries('Sieve Engine.update (its choice)', (r) => r.updateMs.sieve),
        tileSeries('Sieve, sweep path forced', (r) => r.updateMs.sweep),
        tileSeries('Sieve, broadphase path forced', (r) => r.updateMs.broadphase),
        tileSeries('stock Detector.collisions', (r) => r.detectorMs.stock),
        tileSeries('Sieve detector', (r) => r.detectorMs.sieve),
      ],
      {
        title: 'matter-js 0.20, tilemap: static 32-px tiles + 300 dynamic bodies',
        xLabel: 'static tiles',
        yLabel: 'CPU ms per update (median)',
        guides: [{ y: 16.7, label: '16.7 ms frame budget' }],
        width: 620,
      },
    ),
  );
}
// Crowds: [columns, rows].
const crowdPlan: [number, number][] = quick
  ? [[10, 200]]
  : [
      [10, 500],
      [20, 500],
    ];
const crowdRows: CrowdRow[] = [];
if (picked.includes('crowd')) {
  console.log('\ncrowds of moving circles in tall columns (contestants alternated on one engine, CPU time):');
  for (const [columns, rows] of crowdPlan) {
    const row = measureCrowd(columns, rows, quick ? { reps: 3, warmup: 20 } : { reps: 7 });
    crowdRows.push(row);
    console.log(`  ${formatCrowdRow(row)}`);
  }
}
writeText('matter.svg', svgPage(charts, 2, 'Stock matter-js vs Sieve (@sieve/matter)'));
const summary: Record<string, Record<string, { update: string; detector: string; broadphase: string }>> = {};
console.log('\nstock ÷ Sieve (same steps, same results):');
for (const r of rows) {
  summary[r.scene] ??= {};
  summary[r.scene][r.n] = {
    update: ratio(r.stock.updateMs, r.sieve.updateMs),
    detector: ratio(r.stock.detectorMs, r.sieve.detectorMs),
    broadphase: ratio(r.stock.detectorMs - r.sieve.narrowphaseMs, r.sieve.broadphaseMs),
  };
  console.log(
    `  ${r.scene} N=${r.n}: Engine.update ${summary[r.scene][r.n].update}, collision detection ` +
      `${summary[r.scene][r.n].detector} (broadphase part alone ${summary[r.scene][r.n].broadphase})`,
  );
}
const path = writeJson('matter', {
  quick,
  scenes: {
    gas: 'circles and rectangles (50/50, 8-16 px) on a jittered 24 px grid in a walled square box, no gravity, all launched at random, elastic',
    obstacles: 'the same, 90 % of the bodies static, 10 % moving',
    tilemap:
      'a platformer level of static 32-px tiles (one Bodies.rectangle per tile, as Phaser convertTilemapLayer builds them; ground 18 or 70 tiles deep) and 300 dynamic circles and boxes dropped on it; contestants take turns on one engine',
    crowd:
      'moving circles (radius 1.2, 3 apart) in 10 or 20 columns of 500, no gravity; stock, the default install (the sweep), Sieve with a SweepAndPrune passed (its choice of path) and its broadphase path forced take turns on one engine',
  },
  speedUp: summary,
  rows,
  tilemap: tilemapRows,
  crowd: crowdRows,
});
console.log(`\nwrote ${path} and matter.svg`);
