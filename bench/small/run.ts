/**
 * `pnpm bench:small` (issue 15): the engines' own kind of scenes — small and typical, 2–500 bodies,
 * ported from the matter-js and cannon-es demos (matterScenes.ts, cannonScenes.ts) — stepped by stock
 * and by the same world with Sieve installed, and the large scenes of bench:matter and bench:cannon,
 * all in one process.
 *
 * Per scene: two copies built from the same seed (Sieve installed on the second before its first
 * step), a warm-up stepped in lockstep (untimed: the JIT settles, contacts form), then repetitions of
 * one block of steps per contestant, the first contestant alternating from one repetition to the next;
 * the figure is the median over repetitions of stock's block time ÷ Sieve's (the same states, since
 * both step in lockstep), next to each one's median ms per step. The block is sized so a block takes
 * about two milliseconds. Times are this process's CPU time (`process.cpuUsage`, microsecond
 * resolution): on a shared machine other processes' time slices then do not land in one
 * contestant's block (wall-clock medians are kept in the JSON too). At the end the two copies' bodies are compared (matter-js must be bit-identical:
 * the run stops otherwise). Large scenes: matter-js 20 000 bodies all moving and 90 % static
 * (bench/matter/scene.ts; the detector's ratio too), cannon-es 1 000 and 5 000 mixed bodies
 * (bench/cannon/scene.ts) against stock's SAPBroadphase, and at 1 000 its default NaiveBroadphase.
 * Writes bench/results/small.json and small.svg. `--quick`: fewer repetitions, no large scenes
 * (a smoke test); `--only=matter|cannon`; `--scenes=stack,pile` picks scenes.
 *
 * matter-js paths: on each matter-js scene (and the large ones), Sieve as installed against each of
 * its two paths forced, taking turns on one engine (bench/matter/oneEngine.ts): the path it chooses
 * must be the faster one (its time ÷ the faster forced path's, ≤ 1 within noise).
 */
import { performance } from 'node:perf_hooks';
import { installSieve as installCannon } from '@sieve/cannon';
import { installSieve as installMatter } from '@sieve/matter';
import * as CANNON from 'cannon-es';
import Matter from 'matter-js';
import { fillMixed } from '../cannon/scene.js';
import { writeJson, writeText } from '../lib/results.js';
import { median } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { raceOnOneEngine } from '../matter/oneEngine.js';
import { buildScene } from '../matter/scene.js';
import { cannonScenes } from './cannonScenes.js';
import { matterScenes } from './matterScenes.js';

const quick = process.argv.includes('--quick');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const only = arg('only');
const pick = arg('scenes')?.split(',');
const SEED = 15;
const REPS = quick ? 7 : 41;
const WARMUP = quick ? 20 : 60;
const DT_MATTER = 1000 / 60;
const DT_CANNON = 1 / 60;

/** This process's CPU time in milliseconds (user + system, all its threads). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One contestant: a step function. */
interface Contestant {
  step(): void;
}

/** One scene's result. */
export interface SmallRow {
  engine: 'matter-js' | 'cannon-es';
  scene: string;
  bodies: number;
  stepsPerBlock: number;
  repetitions: number;
  /** Median CPU ms per step. */
  stockMs: number;
  sieveMs: number;
  /** Median over repetitions of stock's block CPU time ÷ Sieve's. */
  speedUp: number;
  /** The same from wall-clock time (`performance.now`). */
  wallSpeedUp: number;
  /**
   * matter-js: the detector alone (`Detector.collisions`, wall clock summed over a block), stock ÷
   * Sieve, median over a second series of repetitions after the first (its timing wrapper would
   * otherwise weigh on the whole-step figure).
   */
  detectorSpeedUp?: number;
  /** The two copies' bodies equal at the end (positions, bit for bit). */
  identical: boolean;
}

/**
 * Times two contestants that step the same world: warm-up, then `reps` repetitions of one block each,
 * alternating which goes first. Returns the medians.
 */
function race(stock: Contestant, sieve: Contestant, warmup: number, reps: number, minBlockMs: number) {
  for (let i = 0; i < warmup; i++) {
    stock.step();
    sieve.step();
  }
  // Block size: about minBlockMs of stock's steps.
  const t = performance.now();
  stock.step();
  sieve.step();
  const once = Math.max((performance.now() - t) / 2, 1e-4);
  const block = Math.max(1, Math.min(200, Math.ceil(minBlockMs / once)));
  let wall = 0;
  const time = (c: Contestant) => {
    const w = performance.now();
    const cpu = cpuMs();
    for (let i = 0; i < block; i++) c.step();
    const spent = cpuMs() - cpu;
    wall = performance.now() - w;
    return spent;
  };
  const ratios: number[] = [];
  const wallRatios: number[] = [];
  const stockTimes: number[] = [];
  const sieveTimes: number[] = [];
  for (let r = 0; r < reps; r++) {
    let a: number;
    let b: number;
    let wa: number;
    let wb: number;
    if (r % 2 === 0) {
      a = time(stock);
      wa = wall;
      b = time(sieve);
      wb = wall;
    } else {
      b = time(sieve);
      wb = wall;
      a = time(stock);
      wa = wall;
    }
    ratios.push(a / b);
    wallRatios.push(wa / wb);
    stockTimes.push(a / block);
    sieveTimes.push(b / block);
  }
  return {
    block,
    speedUp: median(ratios),
    wallSpeedUp: median(wallRatios),
    stockMs: median(stockTimes),
    sieveMs: median(sieveTimes),
  };
}

// ---------------------------------------------------------------------------------------------------
// matter-js

const { Composite, Detector, Engine } = Matter;

function matterRow(name: string): SmallRow {
  const build = matterScenes[name];
  const a = build(SEED);
  const b = build(SEED);
  installMatter(b.engine);
  let stepA = 0;
  let stepB = 0;
  const stock = {
    step() {
      a.beforeStep?.(stepA++);
      Engine.update(a.engine, DT_MATTER);
    },
  };
  const sieve = {
    step() {
      b.beforeStep?.(stepB++);
      Engine.update(b.engine, DT_MATTER);
    },
  };
  const r = race(stock, sieve, WARMUP, REPS, 2);
  const detectorSpeedUp = detectorRace(stock, sieve, r.block);
  const ba = Composite.allBodies(a.engine.world);
  const bb = Composite.allBodies(b.engine.world);
  const identical =
    ba.length === bb.length &&
    ba.every(
      (x, i) => Object.is(x.position.x, bb[i].position.x) && Object.is(x.position.y, bb[i].position.y),
    );
  if (!identical) throw new Error(`matter-js ${name}: Sieve's world differs from stock's`);
  return {
    engine: 'matter-js',
    scene: name,
    bodies: ba.length,
    stepsPerBlock: r.block,
    repetitions: REPS,
    stockMs: r.stockMs,
    sieveMs: r.sieveMs,
    speedUp: r.speedUp,
    wallSpeedUp: r.wallSpeedUp,
    detectorSpeedUp,
    identical,
  };
}

/** Stock ÷ Sieve of the time inside `Detector.collisions`, median over alternating blocks. */
function detectorRace(stock: Contestant, sieve: Contestant, block: number): number {
  const inner = Detector.collisions;
  let spent = 0;
  Detector.collisions = (d: Matter.Detector) => {
    const t0 = performance.now();
    const out = inner(d);
    spent += performance.now() - t0;
    return out;
  };
  const time = (c: Contestant) => {
    spent = 0;
    for (let i = 0; i < block; i++) c.step();
    return spent;
  };
  const ratios: number[] = [];
  for (let r = 0; r < REPS; r++) {
    if (r % 2 === 0) {
      const a = time(stock);
      ratios.push(a / time(sieve));
    } else {
      const b = time(sieve);
      ratios.push(time(stock) / b);
    }
  }
  Detector.collisions = inner;
  return median(ratios);
}

/** A large matter-js scene: Engine.update and the detector alone, stock ÷ Sieve. */
function matterLarge(kind: 'gas' | 'obstacles', n: number) {
  const a = buildScene(n, kind);
  const b = buildScene(n, kind);
  installMatter(b);
  // One timing wrapper around whatever answers Detector.collisions now (Sieve's dispatch included).
  const inner = Detector.collisions;
  let detectorMs = 0;
  Detector.collisions = (d: Matter.Detector) => {
    const t0 = cpuMs();
    const out = inner(d);
    detectorMs += cpuMs() - t0;
    return out;
  };
  const warmup = quick ? 5 : 30;
  const reps = quick ? 3 : 11;
  for (let i = 0; i < warmup; i++) {
    Engine.update(a, DT_MATTER);
    Engine.update(b, DT_MATTER);
  }
  const update: number[] = [];
  const detector: number[] = [];
  for (let r = 0; r < reps; r++) {
    const order = r % 2 === 0 ? [a, b] : [b, a];
    const ms = new Map<Matter.Engine, [number, number]>();
    for (const e of order) {
      detectorMs = 0;
      const t0 = cpuMs();
      Engine.update(e, DT_MATTER);
      ms.set(e, [cpuMs() - t0, detectorMs]);
    }
    const [ua, da] = ms.get(a) as [number, number];
    const [ub, db] = ms.get(b) as [number, number];
    update.push(ua / ub);
    detector.push(da / db);
  }
  Detector.collisions = inner;
  const identical = Composite.allBodies(a.world).every((x, i) => {
    const y = Composite.allBodies(b.world)[i];
    return Object.is(x.position.x, y.position.x) && Object.is(x.position.y, y.position.y);
  });
  return { scene: kind, bodies: n, update: median(update), detector: median(detector), identical };
}

// ---------------------------------------------------------------------------------------------------
// cannon-es

function cannonWorld(): CANNON.World {
  return new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
}

function sameBodies(a: CANNON.World, b: CANNON.World): boolean {
  return (
    a.bodies.length === b.bodies.length &&
    a.bodies.every((x, i) => {
      const y = b.bodies[i];
      return (
        Object.is(x.position.x, y.position.x) &&
        Object.is(x.position.y, y.position.y) &&
        Object.is(x.position.z, y.position.z)
      );
    })
  );
}

function cannonRow(name: string): SmallRow {
  const a = cannonWorld();
  const b = cannonWorld();
  installCannon(b); // as the README teaches: on the new world, before its bodies
  cannonScenes[name](a, SEED);
  cannonScenes[name](b, SEED);
  const r = race({ step: () => a.step(DT_CANNON) }, { step: () => b.step(DT_CANNON) }, WARMUP, REPS, 2);
  return {
    engine: 'cannon-es',
    scene: name,
    bodies: a.bodies.length,
    stepsPerBlock: r.block,
    repetitions: REPS,
    stockMs: r.stockMs,
    sieveMs: r.sieveMs,
    speedUp: r.speedUp,
    wallSpeedUp: r.wallSpeedUp,
    identical: sameBodies(a, b),
  };
}

/** A large cannon-es scene (bench:cannon's mixed bodies, no gravity): stock ÷ Sieve per world.step. */
function cannonLarge(n: number, stock: 'sap' | 'naive') {
  const a = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  if (stock === 'sap') a.broadphase = new CANNON.SAPBroadphase(a);
  const b = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  installCannon(b);
  fillMixed(a, n, 6);
  fillMixed(b, n, 6);
  const warmup = quick ? 3 : n >= 5000 ? 8 : 20;
  const reps = quick ? 3 : n >= 5000 ? 7 : 11;
  const r = race({ step: () => a.step(DT_CANNON) }, { step: () => b.step(DT_CANNON) }, warmup, reps, 0);
  return {
    bodies: n,
    stock: stock === 'sap' ? 'SAPBroadphase' : 'NaiveBroadphase (default)',
    ...r,
    identical: sameBodies(a, b),
  };
}

// ---------------------------------------------------------------------------------------------------

const rows: SmallRow[] = [];
const fmt = (row: SmallRow) =>
  `  ${row.engine.padEnd(9)} ${row.scene.padEnd(18)} ${String(row.bodies).padStart(4)} bodies  stock ${row.stockMs.toFixed(3)} ms  Sieve ${row.sieveMs.toFixed(3)} ms  stock ÷ Sieve ${row.speedUp.toFixed(2)}× (wall ${row.wallSpeedUp.toFixed(2)}×)` +
  (row.detectorSpeedUp === undefined ? '' : `, detector ${row.detectorSpeedUp.toFixed(2)}×`) +
  (row.identical ? '' : '  (results differ)');
if (only !== 'cannon') {
  console.log('matter-js Engine.update, small scenes (stock ÷ Sieve, median of alternating blocks):');
  for (const name of Object.keys(matterScenes)) {
    if (pick && !pick.includes(name)) continue;
    rows.push(matterRow(name));
    console.log(fmt(rows[rows.length - 1]));
  }
}
if (only !== 'matter') {
  console.log('cannon-es world.step, small scenes (stock ÷ Sieve, median of alternating blocks):');
  for (const name of Object.keys(cannonScenes)) {
    if (pick && !pick.includes(name)) continue;
    rows.push(cannonRow(name));
    console.log(fmt(rows[rows.length - 1]));
  }
}

/**
 * The A/A control: two stock copies of one scene timed against each other in the same way, so the
 * spread of the ratios above can be read against the machine's own noise (ideally 1.00×).
 */
function control(): { matter: number; cannon: number } {
  const out = { matter: Number.NaN, cannon: Number.NaN };
  if (only !== 'cannon') {
    const [a, b] = [matterScenes.pyramid(SEED), matterScenes.pyramid(SEED)];
    const step = (e: Matter.Engine) => ({ step: () => Engine.update(e, DT_MATTER) });
    out.matter = race(step(a.engine), step(b.engine), WARMUP, REPS, 2).speedUp;
  }
  if (only !== 'matter') {
    const [a, b] = [cannonWorld(), cannonWorld()];
    cannonScenes.pyramid(a, SEED);
    cannonScenes.pyramid(b, SEED);
    out.cannon = race(
      { step: () => a.step(DT_CANNON) },
      { step: () => b.step(DT_CANNON) },
      WARMUP,
      REPS,
      2,
    ).speedUp;
  }
  return out;
}
const noise = control();
console.log(
  `A/A control (stock ÷ stock, pyramid): matter-js ${noise.matter.toFixed(2)}×, cannon-es ${noise.cannon.toFixed(2)}×`,
);

const large: { matter: ReturnType<typeof matterLarge>[]; cannon: ReturnType<typeof cannonLarge>[] } = {
  matter: [],
  cannon: [],
};
if (!quick && !pick) {
  console.log('large scenes, same run:');
  if (only !== 'cannon') {
    for (const kind of ['gas', 'obstacles'] as const) {
      const r = matterLarge(kind, 20000);
      large.matter.push(r);
      console.log(
        `  matter-js 20 000 bodies ${kind === 'gas' ? 'all moving' : '90 % static'}: Engine.update ${r.update.toFixed(2)}×, detector ${r.detector.toFixed(2)}×${r.identical ? '' : ' (results differ)'}`,
      );
    }
  }
  if (only !== 'matter') {
    for (const [n, stock] of [
      [1000, 'naive'],
      [1000, 'sap'],
      [5000, 'sap'],
    ] as const) {
      const r = cannonLarge(n, stock);
      large.cannon.push(r);
      console.log(
        `  cannon-es ${n} bodies vs ${r.stock}: world.step ${r.speedUp.toFixed(2)}× (stock ${r.stockMs.toFixed(1)} ms, Sieve ${r.sieveMs.toFixed(1)} ms)`,
      );
    }
  }
}

/** Sieve's choice of path against both paths forced, on one engine (see the module comment). */
const paths: {
  scene: string;
  bodies: number;
  path: string;
  defaultVsBest: number;
  sweepMs: number;
  broadphaseMs: number;
  sieveMs: number;
}[] = [];
if (only !== 'cannon') {
  console.log('matter-js paths: Sieve as installed ÷ the faster forced path (one engine, alternated):');
  const builders: [string, () => { engine: Matter.Engine; beforeStep?: (s: number) => void }][] = Object.keys(
    matterScenes,
  )
    .filter((name) => !pick || pick.includes(name))
    .map((name) => [name, () => matterScenes[name](SEED)]);
  if (!quick && !pick) {
    for (const kind of ['gas', 'obstacles'] as const) {
      builders.push([`${kind} 20000`, () => ({ engine: buildScene(20000, kind) })]);
    }
  }
  for (const [name, build] of builders) {
    const r = raceOnOneEngine(Matter, build, {
      reps: quick ? 5 : 15,
      blockMs: 4,
      warmup: WARMUP,
    });
    if (!r.identical) throw new Error(`matter-js ${name}: Sieve's world differs from stock's`);
    paths.push({
      scene: name,
      bodies: r.bodies,
      path: r.sievePath,
      defaultVsBest: r.defaultVsBest,
      sweepMs: r.updateMs.sweep,
      broadphaseMs: r.updateMs.broadphase,
      sieveMs: r.updateMs.sieve,
    });
    console.log(
      `  ${name.padEnd(18)} ${String(r.bodies).padStart(5)} bodies  Sieve (${r.sievePath}) ${r.updateMs.sieve.toFixed(3)} ms  ` +
        `sweep ${r.updateMs.sweep.toFixed(3)}  broadphase ${r.updateMs.broadphase.toFixed(3)}  ÷ best ${r.defaultVsBest.toFixed(2)}`,
    );
  }
}

const worst = (engine: string) => Math.min(...rows.filter((r) => r.engine === engine).map((r) => r.speedUp));
const mid = (engine: string) => median(rows.filter((r) => r.engine === engine).map((r) => r.speedUp));
const summary = {
  matter: { median: mid('matter-js'), worst: worst('matter-js') },
  cannon: { median: mid('cannon-es'), worst: worst('cannon-es') },
};
console.log(
  `\nmedian / worst stock ÷ Sieve: matter-js ${summary.matter.median.toFixed(2)} / ${summary.matter.worst.toFixed(2)}, ` +
    `cannon-es ${summary.cannon.median.toFixed(2)} / ${summary.cannon.worst.toFixed(2)}`,
);

const charts = (['matter-js', 'cannon-es'] as const)
  .map((engine) => rows.filter((r) => r.engine === engine).sort((x, y) => x.bodies - y.bodies))
  .filter((mine) => mine.length > 0)
  .map((mine) =>
    lineChart(
      [{ name: 'stock ÷ Sieve, one scene a point', points: mine.map((r) => [r.bodies, r.speedUp]) }],
      {
        title: `${mine[0].engine} small scenes: ${mine[0].engine === 'matter-js' ? 'Engine.update' : 'world.step'}`,
        xLabel: 'bodies in the scene',
        yLabel: 'stock ÷ Sieve (median of alternating blocks)',
        logY: false,
        guides: [{ y: 1, label: 'as fast as stock' }],
        width: 620,
      },
    ),
  );
writeText('small.svg', svgPage(charts, 2, 'Small scenes: stock ÷ Sieve (higher is faster with Sieve)'));
const path = writeJson('small', {
  quick,
  method:
    'per scene: stock and Sieve copies from one seed, lockstep warm-up, then repetitions of one timed block per contestant (first contestant alternating); speedUp = median over repetitions of stock block ÷ Sieve block',
  summary,
  control: noise,
  rows,
  large,
  paths,
});
console.log(`wrote ${path} and small.svg`);
