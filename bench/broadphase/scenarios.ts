/**
 * Issue 4's benchmark: scenarios that separate sweep and prune from the octree, each at several N,
 * with cannon-es's broadphases as peers. Every contestant replays the same seeded motion; a frame is
 * "move what moved + update + read the pairs", timed per frame (the motion itself is computed before
 * the timer starts), and the figure is the median over the timed frames after a warm-up.
 *
 * Scenarios (3-D boxes):
 * - coherent: boxes of varied size bouncing in a cube (5 % volume fraction), moving 5 % of their size
 *   a frame — sweep and prune's home ground;
 * - teleport: every box jumps to a random place in the cube every frame;
 * - fast: as coherent, but each box moves about its own size every frame;
 * - cluster: a pile of boxes on a floor — a long narrow strip (x ∈ [0, 6], y ∈ [0, 2.5], z long) at
 *   20 % volume fraction, jittering: almost every pair overlaps on x and y, only z separates them;
 * - sizes: boxes from 0.1 to 2.5 half-width (log-uniform) plus one box of a sixth of the cube per
 *   1 000, all moving coherently;
 * - static: the coherent cube with 1 % of the boxes moving (half their size a frame), the rest still.
 *
 * All contestants of one size run on the same scene, in turns frame by frame (so a noisy machine's
 * load swings hit them alike), each until it has its frames or has used its time budget.
 *
 * Checks: on the first frame after setup every contestant's pairs are compared pair by pair with the
 * first one's — the two Sieve broadphases must agree exactly or the run throws, cannon-es's
 * differences are reported; on every later frame the Sieve pair counts must agree.
 *
 * `runScenarios` is called by `run.ts`; run this file alone with
 * `pnpm exec tsx broadphase/scenarios.ts [--quick] [scenario…]` (from bench/) for a quick look.
 */
import { performance } from 'node:perf_hooks';
import { Octree, SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { writeJson, writeText } from '../lib/results.js';
import { median, ratio, rng } from '../lib/stats.js';
import { lineChart, seriesBy, svgPage } from '../lib/svg.js';
import { pairKey } from './scene.js';

/** One measurement: a contestant on a scenario at one N. */
export interface ScenarioResult {
  scenario: string;
  n: number;
  contestant: string;
  /** Median milliseconds per frame (move + update + read pairs). */
  msPerFrame: number;
  /** Pairs found on the checked frame. */
  pairs: number;
  /** Frames timed. */
  frames: number;
  /** Pairs the Sieve broadphases found on the checked frame that this contestant did not. */
  missed: number;
  /** Pairs this contestant reported that the Sieve broadphases did not. */
  extra: number;
}

export interface ScenarioOptions {
  /** Small sizes and few frames: checks that everything runs (a minute or so). */
  quick: boolean;
  /** Only these scenarios (default all). */
  only?: string[];
  /** Progress lines (default console.log). */
  log?: (line: string) => void;
}

/** The scenarios, in the order they are run and charted. */
const SCENARIOS = ['coherent', 'teleport', 'fast', 'cluster', 'sizes', 'static'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const TITLES: Record<ScenarioName, string> = {
  coherent: 'Coherent motion (5 % of size per frame)',
  teleport: 'Teleport (every box jumps anywhere, every frame)',
  fast: 'Fast motion (about its size per frame)',
  cluster: 'Cluster along one axis (pile on a floor)',
  sizes: 'Large spread of sizes (a few huge boxes)',
  static: 'Mostly static (1 % of boxes move)',
};

// --- scenes -----------------------------------------------------------------------------------------

/** A scene: box centres and half sizes; `step()` moves the boxes of `movers` (all when null). */
interface Scene {
  n: number;
  pos: Float64Array;
  half: Float64Array;
  /** `[minX, minY, minZ, maxX, maxY, maxZ]` per box, kept current by `step()`. */
  bounds: Float64Array;
  /** The boxes that move each frame (null: all of them), and their bounds packed in that order. */
  movers: Int32Array | null;
  moverBounds: Float64Array;
  step(): void;
}

interface Region {
  /** Region the centres stay in: [x0, y0, z0] to [x1, y1, z1]. */
  lo: number[];
  hi: number[];
}

function sceneOf(
  n: number,
  half: Float64Array,
  region: Region,
  r: () => number,
  motion: { kind: 'bounce'; speed: number } | { kind: 'teleport' },
  moverCount: number,
): Scene {
  const pos = new Float64Array(3 * n);
  const vel = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      pos[3 * i + k] = region.lo[k] + r() * (region.hi[k] - region.lo[k]);
      // Speed in units of the box's own size.
      if (motion.kind === 'bounce') vel[3 * i + k] = (r() * 2 - 1) * motion.speed * 2 * half[3 * i + k];
    }
  }
  const movers =
    moverCount < n
      ? Int32Array.from({ length: moverCount }, (_, j) => Math.floor((j * n) / moverCount))
      : null;
  const bounds = new Float64Array(6 * n);
  const moverBounds = new Float64Array(6 * moverCount);
  const write = (i: number) => {
    for (let k = 0; k < 3; k++) {
      bounds[6 * i + k] = pos[3 * i + k] - half[3 * i + k];
      bounds[6 * i + 3 + k] = pos[3 * i + k] + half[3 * i + k];
    }
  };
  for (let i = 0; i < n; i++) write(i);
  const move = (i: number) => {
    for (let k = 0; k < 3; k++) {
      const j = 3 * i + k;
      if (motion.kind === 'teleport') pos[j] = region.lo[k] + r() * (region.hi[k] - region.lo[k]);
      else {
        const p = pos[j] + vel[j];
        if (p < region.lo[k] || p > region.hi[k]) vel[j] = -vel[j];
        else pos[j] = p;
      }
    }
    write(i);
  };
  return {
    n,
    pos,
    half,
    bounds,
    movers,
    moverBounds,
    step() {
      if (movers === null) {
        for (let i = 0; i < n; i++) move(i);
        return;
      }
      for (let j = 0; j < movers.length; j++) {
        const i = movers[j];
        move(i);
        for (let k = 0; k < 6; k++) moverBounds[6 * j + k] = bounds[6 * i + k];
      }
    },
  };
}

/** Half sizes uniform in [0.25, 1.25] per axis (as the coherent benchmark of issue 2). */
function uniformHalves(n: number, r: () => number): { half: Float64Array; volume: number } {
  const half = new Float64Array(3 * n);
  let volume = 0;
  for (let i = 0; i < 3 * n; i++) half[i] = 0.25 + r();
  for (let i = 0; i < n; i++) volume += 8 * half[3 * i] * half[3 * i + 1] * half[3 * i + 2];
  return { half, volume };
}

function cube(side: number): Region {
  return { lo: [0, 0, 0], hi: [side, side, side] };
}

function makeScene(name: ScenarioName, n: number): Scene {
  const r = rng(1000 + n);
  switch (name) {
    case 'coherent':
    case 'teleport':
    case 'fast':
    case 'static': {
      const { half, volume } = uniformHalves(n, r);
      const region = cube(Math.cbrt(volume / 0.05));
      if (name === 'teleport') return sceneOf(n, half, region, r, { kind: 'teleport' }, n);
      const speed = name === 'coherent' ? 0.05 : name === 'fast' ? 1 : 0.5;
      return sceneOf(
        n,
        half,
        region,
        r,
        { kind: 'bounce', speed },
        name === 'static' ? Math.max(1, n / 100) : n,
      );
    }
    case 'cluster': {
      const { half, volume } = uniformHalves(n, r);
      // A strip 6 wide, 2.5 high: every box overlaps most others on x and y.
      const length = volume / 0.2 / (6 * 2.5);
      return sceneOf(n, half, { lo: [0, 0, 0], hi: [6, 2.5, length] }, r, { kind: 'bounce', speed: 0.02 }, n);
    }
    case 'sizes': {
      const half = new Float64Array(3 * n);
      let volume = 0;
      for (let i = 0; i < n; i++) {
        const h = 0.1 * 25 ** r();
        half[3 * i] = h * (0.75 + 0.5 * r());
        half[3 * i + 1] = h * (0.75 + 0.5 * r());
        half[3 * i + 2] = h * (0.75 + 0.5 * r());
        volume += 8 * half[3 * i] * half[3 * i + 1] * half[3 * i + 2];
      }
      const side = Math.cbrt(volume / 0.05);
      const huge = Math.max(1, Math.round(n / 1000));
      for (let j = 0; j < huge; j++) {
        const i = Math.floor((j * n) / huge);
        for (let k = 0; k < 3; k++) half[3 * i + k] = side / 12;
      }
      return sceneOf(n, half, cube(side), r, { kind: 'bounce', speed: 0.05 }, n);
    }
  }
}

// --- contestants --------------------------------------------------------------------------------------

interface Contestant {
  name: string;
  /** Largest N it can run at, and why (cannon-es's World cannot hold more than 46 340 bodies). */
  maxN?: { n: number; why: string };
  setup(scene: Scene): void;
  /** Applies the scene's current bounds of the movers, finds the pairs; returns the pair count. */
  frame(): number;
  /** Keys `i · 2^22 + j` (i < j, box indices) of the pairs of the last frame. */
  pairKeys(): Set<number>;
}

/** The Sieve broadphases with the bulk entry point and the event buffers. */
type SieveBroadphase = SweepAndPrune | Octree;

/** A Sieve broadphase, fed through its bulk entry point; reads the began/ended events and pairs. */
function sieve(name: string, create: () => SieveBroadphase): Contestant {
  let bp: SieveBroadphase;
  let scene: Scene;
  let handles: Int32Array;
  let moverHandles: Int32Array;
  let boxOf: Int32Array;
  let checksum = 0;
  return {
    name,
    setup(s) {
      scene = s;
      bp = create();
      handles = new Int32Array(s.n);
      for (let i = 0; i < s.n; i++) handles[i] = bp.insert(s.bounds.subarray(6 * i, 6 * i + 6));
      boxOf = new Int32Array(Math.max(...handles) + 1);
      for (let i = 0; i < s.n; i++) boxOf[handles[i]] = i;
      moverHandles = s.movers ? Int32Array.from(s.movers, (i) => handles[i]) : handles;
      bp.update();
    },
    frame() {
      if (scene.movers) bp.moveMany(moverHandles, scene.moverBounds);
      else bp.moveMany(handles, scene.bounds);
      bp.update();
      // What an engine reads each frame: the began and ended events.
      const buffers = bp.pairBuffers();
      for (let i = 0; i < 2 * bp.beganCount; i++) checksum = (checksum + buffers.began[i]) | 0;
      for (let i = 0; i < 2 * bp.endedCount; i++) checksum = (checksum - buffers.ended[i]) | 0;
      return bp.pairCount;
    },
    pairKeys() {
      const out = new Set<number>();
      const p = bp.pairs();
      for (let i = 0; i < p.length; i += 2) out.add(pairKey(boxOf[p[i]], boxOf[p[i + 1]]));
      return out;
    },
  };
}

/** cannon-es: bodies with Box shapes moved by position, `collisionPairs` as a world step calls it. */
function cannon(kind: 'SAP' | 'Naive'): Contestant {
  let world: CANNON.World;
  let bodies: CANNON.Body[];
  let bp: CANNON.Broadphase;
  let scene: Scene;
  const index = new Map<CANNON.Body, number>();
  const p1: CANNON.Body[] = [];
  const p2: CANNON.Body[] = [];
  const place = (i: number) => {
    const b = bodies[i];
    b.position.set(scene.pos[3 * i], scene.pos[3 * i + 1], scene.pos[3 * i + 2]);
    b.aabbNeedsUpdate = true;
  };
  return {
    name: `cannon-es ${kind}Broadphase`,
    // World.addBody sizes its collision matrix with `n * (n - 1) >> 1`, which overflows int32 past this.
    maxN: { n: 46340, why: 'World.addBody overflows its collision matrix past 46 340 bodies' },
    setup(s) {
      scene = s;
      world = new CANNON.World();
      bodies = [];
      for (let i = 0; i < s.n; i++) {
        const h = s.half;
        const body = new CANNON.Body({
          mass: 1,
          shape: new CANNON.Box(new CANNON.Vec3(h[3 * i], h[3 * i + 1], h[3 * i + 2])),
        });
        body.position.set(s.pos[3 * i], s.pos[3 * i + 1], s.pos[3 * i + 2]);
        // The constructor computed the box at the origin; setting the position does not flag it.
        body.aabbNeedsUpdate = true;
        world.addBody(body);
        bodies.push(body);
        index.set(body, i);
      }
      bp = kind === 'SAP' ? new CANNON.SAPBroadphase(world) : new CANNON.NaiveBroadphase();
      // Test boxes, not bounding spheres, so that its pairs compare with Sieve's.
      bp.useBoundingBoxes = true;
      world.broadphase = bp;
      if (bp instanceof CANNON.SAPBroadphase) bp.autoDetectAxis();
    },
    frame() {
      if (scene.movers) for (let j = 0; j < scene.movers.length; j++) place(scene.movers[j]);
      else for (let i = 0; i < scene.n; i++) place(i);
      // World.step marks the broadphase dirty every step (SAPBroadphase re-sorts its axis then).
      bp.dirty = true;
      p1.length = 0;
      p2.length = 0;
      bp.collisionPairs(world, p1, p2);
      return p1.length;
    },
    pairKeys() {
      const out = new Set<number>();
      for (let i = 0; i < p1.length; i++) out.add(pairKey(index.get(p1[i])!, index.get(p2[i])!));
      return out;
    },
  };
}

function contestants(): Contestant[] {
  return [
    sieve('Sieve SweepAndPrune', () => new SweepAndPrune({ dimensions: 3 })),
    sieve('Sieve Octree', () => new Octree({ dimensions: 3 })),
    cannon('SAP'),
    cannon('Naive'),
  ];
}

// --- the run ------------------------------------------------------------------------------------------

/** Runs every scenario at every size for every contestant; see the header for what is measured. */
export async function runScenarios(options: ScenarioOptions): Promise<ScenarioResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sizes = options.quick ? [1000, 5000] : [1000, 5000, 20000, 100000];
  const frames = options.quick ? 10 : 60;
  // Untimed frames first: the JIT needs a few dozen frames to settle (rarely taken paths deoptimise
  // when first reached). A slow contestant starts timing once it has used a quarter of its budget.
  const warmup = options.quick ? 8 : 15;
  // Time one contestant may spend on one size (it stops once past it, after at least minFrames).
  const budgetMs = options.quick ? 400 : 2000;
  const minFrames = 3;
  // A contestant whose next size is predicted to take longer than this per frame is skipped.
  const slowMs = options.quick ? 500 : 1500;
  const results: ScenarioResult[] = [];
  for (const name of SCENARIOS) {
    if (options.only && !options.only.includes(name)) continue;
    log(`\n--- ${name}: ${TITLES[name]}`);
    const history = new Map<string, Array<[number, number]>>();
    for (const n of sizes) {
      const scene = makeScene(name, n);
      interface Entry {
        c: Contestant;
        sieve: boolean;
        times: number[];
        spent: number;
        warm: boolean;
        pairs: number;
        missed: number;
        extra: number;
      }
      const entries: Entry[] = [];
      for (const c of contestants()) {
        if (c.maxN && n > c.maxN.n) {
          log(`N=${String(n).padStart(6)}  ${c.name.padEnd(24)} skipped (${c.maxN.why})`);
          continue;
        }
        const predicted = predict(history.get(c.name) ?? [], n);
        if (predicted > slowMs) {
          log(
            `N=${String(n).padStart(6)}  ${c.name.padEnd(24)} skipped (predicted ${predicted.toFixed(0)} ms/frame)`,
          );
          continue;
        }
        c.setup(scene);
        entries.push({
          c,
          sieve: c.name.startsWith('Sieve'),
          times: [],
          spent: 0,
          warm: false,
          pairs: 0,
          missed: 0,
          extra: 0,
        });
      }
      // Everybody's pairs on the same frame, the first one after setup, compared pair by pair.
      scene.step();
      let reference: Set<number> | undefined;
      for (const e of entries) {
        e.pairs = e.c.frame();
        const keys = e.c.pairKeys();
        if (keys.size !== e.pairs)
          throw new Error(`${e.c.name}: ${e.pairs} pairs counted, ${keys.size} distinct`);
        if (!reference) reference = keys;
        else {
          for (const k of reference) if (!keys.has(k)) e.missed++;
          for (const k of keys) if (!reference.has(k)) e.extra++;
          if (e.sieve && e.missed + e.extra > 0) {
            throw new Error(`${name} N=${n}: ${e.c.name} disagrees (${e.missed} missed, ${e.extra} extra)`);
          }
        }
      }
      // Then every contestant on every frame, in turns (load swings hit all alike), until each has
      // its frames or has used its budget.
      let running = entries;
      for (let f = 0; running.length > 0; f++) {
        scene.step();
        let sievePairs = -1;
        for (let j = 0; j < running.length; j++) {
          const e = running[(f + j) % running.length];
          const t0 = performance.now();
          const pairs = e.c.frame();
          const dt = performance.now() - t0;
          e.spent += dt;
          if (e.warm) e.times.push(dt);
          else e.warm = f + 1 >= warmup || e.spent > budgetMs / 4;
          if (e.sieve) {
            if (sievePairs < 0) sievePairs = pairs;
            else if (pairs !== sievePairs)
              throw new Error(`${name} N=${n} frame ${f}: Sieve pair counts differ`);
          }
        }
        running = running.filter(
          (e) => e.times.length < frames && !(e.spent > budgetMs && e.times.length >= minFrames),
        );
      }
      for (const e of entries) {
        const r: ScenarioResult = {
          scenario: name,
          n,
          contestant: e.c.name,
          msPerFrame: median(e.times),
          pairs: e.pairs,
          frames: e.times.length,
          missed: e.missed,
          extra: e.extra,
        };
        results.push(r);
        history.set(e.c.name, [...(history.get(e.c.name) ?? []), [n, r.msPerFrame]]);
        const diff = r.missed + r.extra > 0 ? `  missed ${r.missed}  extra ${r.extra}` : '';
        log(
          `N=${String(n).padStart(6)}  ${e.c.name.padEnd(24)} ${r.msPerFrame.toFixed(3).padStart(10)} ms/frame` +
            `  (${r.frames} frames)  pairs ${r.pairs}${diff}`,
        );
      }
    }
  }
  return results;
}

/** Predicted ms per frame at n from the last two sizes (log-log slope at least 1, 2 when unknown). */
function predict(past: Array<[number, number]>, n: number): number {
  if (past.length === 0) return 0;
  const [n1, t1] = past[past.length - 1];
  let slope = 2;
  if (past.length >= 2) {
    const [n0, t0] = past[past.length - 2];
    slope = Math.max(1, Math.log(t1 / t0) / Math.log(n1 / n0));
  }
  return t1 * (n / n1) ** slope;
}

/** One log-log chart per scenario (ms per frame against N), laid out on one SVG page. */
function scenarioChartsSvg(results: ScenarioResult[]): string {
  const charts: string[] = [];
  for (const name of SCENARIOS) {
    const rows = results.filter((r) => r.scenario === name);
    if (rows.length === 0) continue;
    charts.push(
      lineChart(
        seriesBy(
          rows,
          (r) => r.contestant,
          (r) => [r.n, r.msPerFrame],
        ),
        {
          title: TITLES[name],
          xLabel: 'boxes (N)',
          yLabel: 'ms per frame (median)',
          guides: [{ y: 16.7, label: '16.7 ms frame budget' }],
        },
      ),
    );
  }
  return svgPage(charts, 2, 'Broadphase scenarios: ms per frame against N (log-log)');
}

interface Winner {
  scenario: string;
  n: number;
  winner: string;
  runnerUp: string;
  ratio: string;
  ms: number;
}

/** Per scenario and N: the fastest contestant and how much faster it is than the runner-up. */
function scenarioWinners(results: ScenarioResult[]): Winner[] {
  const out: Winner[] = [];
  for (const name of SCENARIOS) {
    for (const n of [...new Set(results.filter((r) => r.scenario === name).map((r) => r.n))]) {
      const rows = results
        .filter((r) => r.scenario === name && r.n === n)
        .sort((a, b) => a.msPerFrame - b.msPerFrame);
      if (rows.length === 0) continue;
      const [best, second] = rows;
      out.push({
        scenario: name,
        n,
        winner: best.contestant,
        runnerUp: second?.contestant ?? '—',
        ratio: second ? ratio(second.msPerFrame, best.msPerFrame) : 'n/a',
        ms: best.msPerFrame,
      });
    }
  }
  return out;
}

/** A markdown table of every result: one row per scenario and N, one column per contestant. */
function scenarioTable(results: ScenarioResult[]): string {
  const names = [...new Set(results.map((r) => r.contestant))];
  const lines = [
    `| scenario | N | ${names.join(' | ')} |`,
    `|---|---:|${names.map(() => '---:').join('|')}|`,
  ];
  for (const name of SCENARIOS) {
    for (const n of [...new Set(results.filter((r) => r.scenario === name).map((r) => r.n))]) {
      const cells = names.map((c) => {
        const r = results.find((x) => x.scenario === name && x.n === n && x.contestant === c);
        return r
          ? `${r.msPerFrame < 10 ? r.msPerFrame.toFixed(2) : r.msPerFrame.toFixed(1)}${r.missed ? ` (−${r.missed})` : ''}`
          : '—';
      });
      lines.push(`| ${name} | ${n} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/**
 * Writes bench/results/broadphase-scenarios.json and .svg, and prints the table and each scenario's
 * winners.
 */
export function writeScenarioResults(results: ScenarioResult[], quick: boolean): void {
  const json = writeJson('broadphase-scenarios', { quick, results });
  writeText('broadphase-scenarios.svg', scenarioChartsSvg(results));
  console.log(`\n${scenarioTable(results)}\n\nwrote ${json} and broadphase-scenarios.svg\n`);
  for (const w of scenarioWinners(results)) {
    console.log(
      `${w.scenario.padEnd(9)} N=${String(w.n).padStart(6)}  ${w.winner} (${w.ratio} ahead of ${w.runnerUp})`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const only = args.filter((a) => !a.startsWith('--'));
  const quick = args.includes('--quick');
  writeScenarioResults(await runScenarios({ quick, only: only.length > 0 ? only : undefined }), quick);
}
