/**
 * `pnpm bench:cannon` (issue 6): `world.step()` of stock cannon-es 0.20.0 (SAPBroadphase; NaiveBroadphase
 * at N = 1 000 only) against the same scene with Sieve installed (`installSieve` of `@sieve/cannon`:
 * SieveBroadphase, pair-sized collision matrices and overlap keepers, the added narrowphase), at
 * N = 1 000, 5 000, 20 000 (and 50 000, Sieve only): mixed spheres and boxes, ~5 % volume fraction, no
 * gravity (scene.ts); Sieve as installed by default (its sort and sweep) and with a `SweepAndPrune`
 * passed as its broadphase (what a large world gains from the tree). Then trimesh–trimesh steps per second (trimesh balls on a trimesh floor), where stock
 * cannon has no handler and reports no contact at all.
 *
 * Timing: each world is built from the same seed; the first `firstSteps` steps are timed one by one (stock
 * cannon's ArrayCollisionMatrix grows to N(N−1)/2 entries then, the issue's one-off stall), then after
 * `warmup` untimed steps (the random start's overlaps are pushed apart) the median of `steps` steps.
 * Stock SAP at 20 000 is attempted once: it throws (reported). Checked: at N = 1 000 a NaiveBroadphase
 * world (boxes) with Sieve's narrowphase and the Sieve world give the same contact count every step and
 * bit-identical bodies (so Sieve's speed is not bought with missed pairs).
 * Then the box-pile and hull-pile rows (convexPiles.ts): 200 boxes or 200 12–24-point hulls on a box
 * ground, stock against Sieve's default install (bit-identical, checked), Sieve with
 * `narrowphase: { convex: convexContacts }` and Rapier 0.21, each step's collision time beside the whole step.
 * Writes bench/results/cannon.json and cannon.svg. `--quick`: small sizes, few steps (smoke test).
 */
import { performance } from 'node:perf_hooks';
import { type InstallSieveOptions, installSieve, type SieveBroadphase } from '@sieve/cannon';
import { SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { writeJson, writeText } from '../lib/results.js';
import { median, ratio } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';
import { convexPiles, type PileRow } from './convexPiles.js';
import { fillMixed, stockWorld, trimeshPile } from './scene.js';

const quick = process.argv.includes('--quick');
const sizes = quick ? [500, 2000] : [1000, 5000, 20000, 50000];
const SEED = 6;
const plan = (n: number) =>
  quick
    ? { firstSteps: 2, warmup: 5, steps: 5 }
    : n >= 20000
      ? { firstSteps: 2, warmup: 3, steps: 5 }
      : { firstSteps: 3, warmup: 30, steps: 20 };

interface Timing {
  /** ms of each of the first steps. */
  firstStepsMs: number[];
  /** Median ms of the following steps. */
  stepMs: number;
  /** Contacts after the last step. */
  contacts: number;
  /** ms to add the bodies. */
  buildMs: number;
}

interface Row {
  n: number;
  stockSap: Timing | { error: string; afterMs: number };
  stockNaive?: Timing;
  sieve: SieveTiming;
  /** Sieve with `broadphase: new SweepAndPrune({ dimensions: 3 })`. */
  sieveSap: SieveTiming;
}

type SieveTiming = Timing & { broadphaseMs: number; pairs: number };

function timeWorld(make: () => CANNON.World, n: number): Timing {
  const { firstSteps, warmup, steps } = plan(n);
  const t0 = performance.now();
  const world = make();
  fillMixed(world, n, SEED);
  const buildMs = performance.now() - t0;
  const firstStepsMs: number[] = [];
  for (let s = 0; s < firstSteps; s++) {
    const t = performance.now();
    world.step(1 / 60);
    firstStepsMs.push(performance.now() - t);
  }
  // The random start has overlaps that the first steps push apart: let it settle before measuring.
  for (let s = 0; s < warmup; s++) world.step(1 / 60);
  const times: number[] = [];
  for (let s = 0; s < steps; s++) {
    const t = performance.now();
    world.step(1 / 60);
    times.push(performance.now() - t);
  }
  if (world.contacts.length === 0)
    throw new Error(`no contacts at N = ${n}: the scene is not doing any work`);
  return { firstStepsMs, stepMs: median(times), contacts: world.contacts.length, buildMs };
}

function sieveWorld(options: InstallSieveOptions = {}): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  installSieve(world, options); // before the bodies are added: cannon's own matrix is resized on every addBody
  return world;
}

/** A Sieve world's step times, with its broadphase's own time each step (median of the last 20). */
function timeSieve(n: number, options: InstallSieveOptions): SieveTiming {
  const broadphaseTimes: number[] = [];
  let pairs = 0;
  const timing = timeWorld(() => {
    const world = sieveWorld(options);
    const bp = world.broadphase as SieveBroadphase;
    const inner = bp.collisionPairs.bind(bp);
    bp.collisionPairs = (w, p1, p2) => {
      const t = performance.now();
      inner(w, p1, p2);
      broadphaseTimes.push(performance.now() - t);
      pairs = p1.length;
    };
    return world;
  }, n);
  return { ...timing, broadphaseMs: median(broadphaseTimes.slice(-20)), pairs };
}

/** Lockstep check at N: Naive (boxes) + Sieve narrowphase vs Sieve installed: contacts and bodies equal. */
function checkAgainstNaive(
  n: number,
  steps: number,
): { steps: number; contactsPerStep: number; identical: boolean } {
  const a = stockWorld('naive-boxes');
  installSieve(a, { broadphase: false, collisionMatrix: false });
  const b = sieveWorld();
  fillMixed(a, n, SEED);
  fillMixed(b, n, SEED);
  let total = 0;
  for (let s = 0; s < steps; s++) {
    a.step(1 / 60);
    b.step(1 / 60);
    if (a.contacts.length !== b.contacts.length) {
      throw new Error(`step ${s}: Naive gives ${a.contacts.length} contacts, Sieve ${b.contacts.length}`);
    }
    total += a.contacts.length;
  }
  const identical = a.bodies.every((x, i) => {
    const y = b.bodies[i];
    return x.position.x === y.position.x && x.position.y === y.position.y && x.position.z === y.position.z;
  });
  if (!identical) throw new Error('bodies differ between the Naive and the Sieve world');
  return { steps, contactsPerStep: total / steps, identical };
}

const rows: Row[] = [];
console.log('cannon-es world.step(), mixed spheres and boxes, 5 % volume fraction, no gravity');
const check = checkAgainstNaive(quick ? 300 : 1000, quick ? 5 : 30);
console.log(
  `check at N = ${quick ? 300 : 1000}: ${check.steps} steps, same contacts (${check.contactsPerStep.toFixed(0)}/step) and identical bodies vs NaiveBroadphase`,
);
for (const n of sizes) {
  let stockSap: Row['stockSap'];
  if (n <= 5000 || (n === 20000 && !quick)) {
    const t = performance.now();
    try {
      stockSap = timeWorld(() => stockWorld('sap'), n);
    } catch (e) {
      stockSap = { error: String(e), afterMs: performance.now() - t };
    }
  } else {
    stockSap = {
      error: 'not attempted (stock cannon-es cannot hold its collision matrix at this N)',
      afterMs: 0,
    };
  }
  const stockNaive = n <= 1000 ? timeWorld(() => stockWorld('naive'), n) : undefined;
  const sieve = timeSieve(n, {});
  const sieveSap = timeSieve(n, { broadphase: new SweepAndPrune({ dimensions: 3 }) });
  if (sieveSap.pairs !== sieve.pairs || sieveSap.contacts !== sieve.contacts) {
    throw new Error(`N=${n}: Sieve's sweep and its SweepAndPrune disagree (pairs or contacts)`);
  }
  rows.push({ n, stockSap, stockNaive, sieve, sieveSap });
  const sap = 'stepMs' in stockSap ? stockSap : null;
  const sieveLine = (name: string, t: SieveTiming) =>
    `; ${name} ${t.stepMs.toFixed(1)} ms/step (first ${t.firstStepsMs.map((x) => x.toFixed(0)).join(', ')} ms, broadphase ${t.broadphaseMs.toFixed(1)} ms, ${t.pairs} pairs, ${t.contacts} contacts)` +
    (sap ? `; SAP/${name} ${ratio(sap.stepMs, t.stepMs)}` : '');
  console.log(
    `N=${n}: stock SAP ${sap ? `${sap.stepMs.toFixed(1)} ms/step (first steps ${sap.firstStepsMs.map((x) => x.toFixed(0)).join(', ')} ms)` : `— ${(stockSap as { error: string }).error}`}` +
      (stockNaive ? `, stock Naive ${stockNaive.stepMs.toFixed(1)} ms` : '') +
      sieveLine('Sieve', sieve) +
      sieveLine('Sieve+SweepAndPrune', sieveSap),
  );
}

// Trimesh–trimesh: balls of 128 triangles on a trimesh floor.
const pile = quick ? 20 : 100;
const trimesh = { bodies: pile, steps: 0, stepsPerSecond: 0, contacts: 0, stockContacts: 0, restingAbove: 0 };
{
  const stock = new CANNON.World();
  trimeshPile(stock, pile, SEED);
  for (let s = 0; s < 60; s++) stock.step(1 / 60);
  trimesh.stockContacts = stock.contacts.length;
  const world = new CANNON.World();
  installSieve(world);
  const bodies = trimeshPile(world, pile, SEED);
  for (let s = 0; s < 60; s++) world.step(1 / 60);
  const steps = quick ? 30 : 240;
  const t = performance.now();
  let contacts = 0;
  for (let s = 0; s < steps; s++) {
    world.step(1 / 60);
    contacts += world.contacts.length;
  }
  const seconds = (performance.now() - t) / 1000;
  trimesh.steps = steps;
  trimesh.stepsPerSecond = steps / seconds;
  trimesh.contacts = contacts / steps;
  trimesh.restingAbove = bodies.filter((b) => b.position.y > 0.4).length;
  console.log(
    `trimesh–trimesh: ${pile} balls (128 triangles) on a trimesh floor: ${trimesh.stepsPerSecond.toFixed(1)} steps/s with Sieve, ` +
      `${trimesh.contacts.toFixed(0)} contacts/step, ${trimesh.restingAbove}/${pile} above the floor; stock cannon-es: ${trimesh.stockContacts} contacts (no trimesh–trimesh handler: they fall through)`,
  );
}

// Box and hull piles: stock, Sieve default, Sieve convex option, Rapier.
console.log('box and hull piles on a box ground (ms per step, median; collision = broadphase + narrowphase)');
const piles: PileRow[] = await convexPiles(
  quick ? [50] : [50, 200],
  quick ? { settle: 30, rounds: 2, steps: 2 } : { settle: 90, rounds: 5, steps: 3 },
  (line) => console.log(line),
);

const series = [
  {
    name: 'stock SAPBroadphase',
    points: rows.flatMap((r) =>
      'stepMs' in r.stockSap ? [[r.n, r.stockSap.stepMs] as [number, number]] : [],
    ),
  },
  {
    name: 'stock NaiveBroadphase',
    points: rows.flatMap((r) => (r.stockNaive ? [[r.n, r.stockNaive.stepMs] as [number, number]] : [])),
  },
  { name: 'Sieve installed', points: rows.map((r) => [r.n, r.sieve.stepMs] as [number, number]) },
  {
    name: 'Sieve with a SweepAndPrune',
    points: rows.map((r) => [r.n, r.sieveSap.stepMs] as [number, number]),
  },
].filter((s) => s.points.length > 0);
const chart = lineChart(series, {
  title: 'cannon-es world.step(), mixed spheres and boxes',
  xLabel: 'bodies',
  yLabel: 'ms per step (median)',
  logX: true,
  logY: true,
  guides: [{ y: 16.7, label: '60 fps' }],
});
const pileCharts = (['boxes', 'hulls'] as const).map((kind) => {
  const of = piles.filter((r) => r.kind === kind);
  const line = (name: string, pick: (r: PileRow) => number | undefined) => ({
    name,
    points: of.flatMap((r) => {
      const y = pick(r);
      return y === undefined ? [] : [[r.n, y] as [number, number]];
    }),
  });
  return lineChart(
    [
      line('stock: step', (r) => r.stock.stepMs),
      line('stock: collision', (r) => r.stock.collisionMs),
      line('Sieve default: step', (r) => r.sieve.stepMs),
      line('Sieve default: collision', (r) => r.sieve.collisionMs),
      line('Sieve convex: step', (r) => r.sieveConvex?.stepMs),
      line('Sieve convex: collision', (r) => r.sieveConvex?.collisionMs),
      line('Rapier 0.21: step', (r) => r.rapier.stepMs),
      line('Rapier 0.21: collision', (r) => r.rapier.collisionMs),
    ].filter((s) => s.points.length > 0),
    {
      title: `${kind === 'boxes' ? 'box' : 'hull'} pile on a box ground`,
      xLabel: 'bodies',
      yLabel: 'ms per step (median)',
      logX: true,
      logY: true,
      guides: [{ y: 16.7, label: '60 fps' }],
    },
  );
});
writeText('cannon.svg', svgPage([chart, ...pileCharts], 1, 'cannon-es: stock vs Sieve'));
const path = writeJson('cannon', { quick, seed: SEED, check, rows, trimesh, piles });
console.log(`wrote ${path}`);
