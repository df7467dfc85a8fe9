/**
 * The parallel mode's physics thread: the whole game (rules and matter-js engine) runs here, in a
 * dedicated Web Worker, with @sieve/matter's detector on the region-parallel sweep and prune of
 * `@sieve/core/parallel` (the sweep-and-prune notes, §2) — each region's sweep and prune on a worker
 * of its own, started from this one. matter-js's `Engine.update` is synchronous and the parallel
 * broadphase's `update()` blocks on `Atomics.wait`, which a worker may do and a page's main thread may
 * not; so the simulation, its collisions and its replays are exactly those of the default mode (the
 * broadphase's pairs are those of the sequential one), and the page only draws.
 *
 * Protocol (see workerGame.ts): `init` → `ready` (or `error`); then each `step` (steps to run, the
 * held input, one-shot actions, and the previous snapshot's buffer back for reuse) → one `snapshot`
 * (state.ts), its buffer transferred, not copied.
 *
 * The broadphase is built here and handed to `installSieve` as an instance (@sieve/matter itself never
 * imports the parallel machinery): it is this worker's to dispose. The page ends the parallel mode by
 * terminating this worker, which ends the region workers it started with it; a failed `init`
 * disposes it at once.
 */

import { ParallelSweepAndPrune } from '@sieve/core/parallel';
import { installSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { Game, type Input } from './game.js';
import type { Action } from './input.js';
import { type StepReport, snapshotLength, writeSnapshot } from './state.js';

/** Page → worker. */
export type ToPhysics =
  | { type: 'init'; seed: number; test: boolean; flood: number; workers: number; floodSize: number }
  | { type: 'step'; steps: number; input: Input; actions: Action[]; buffer: ArrayBuffer | null };

/** Worker → page. */
export type FromPhysics =
  | {
      type: 'ready';
      /** 'workers', or 'in-thread' when the regions run on this thread (no SharedArrayBuffer...). */
      parallelMode: 'workers' | 'in-thread';
      regions: number;
      fallbackReason: string | null;
      crossOriginIsolated: boolean;
      /** The ship's outline in body space (for the view). */
      shipOutline: number[];
    }
  | { type: 'snapshot'; data: Float64Array }
  | { type: 'error'; message: string };

interface Scope {
  postMessage(message: FromPhysics, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToPhysics>) => void) | null;
  crossOriginIsolated?: boolean;
}
const scope = self as unknown as Scope;

let game: Game | null = null;
let sieve: ReturnType<typeof installSieve> | null = null;
let broadphase: ParallelSweepAndPrune | null = null;
let floodSize = 2500;
let spare: ArrayBuffer | null = null;
let t0 = 0;
const report: StepReport = {
  mode: 'sieve',
  path: 'broadphase',
  steps: 0,
  physicsMs: Number.NaN,
  collisionMs: Number.NaN,
  broadphaseMs: Number.NaN,
  narrowphaseMs: Number.NaN,
  candidates: Number.NaN,
  collisions: 0,
  pairs: 0,
  debrisPairs: 0,
  regionMs: new Float64Array(0),
};

/** a + b where NaN means "not measured" (NaN + NaN stays NaN). */
const add = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a + b);

function afterUpdate(): void {
  report.physicsMs = add(report.physicsMs, performance.now() - t0);
  const s = sieve!.stats;
  report.mode = s.mode;
  report.path = s.path;
  report.collisionMs = add(report.collisionMs, s.detectorMs);
  report.broadphaseMs = add(report.broadphaseMs, s.broadphaseMs);
  report.narrowphaseMs = add(report.narrowphaseMs, s.narrowphaseMs);
  report.candidates = s.candidatePairs;
  report.collisions = s.collisions;
  // The regions ran this step only on the broadphase path of Sieve mode.
  if (s.mode === 'sieve' && s.path === 'broadphase') {
    const times = broadphase!.regionTimes();
    for (let r = 0; r < times.length; r++) report.regionMs[r] += times[r];
  }
}

function init(m: Extract<ToPhysics, { type: 'init' }>): void {
  floodSize = m.floodSize;
  game = new Game({
    seed: m.seed,
    test: m.test,
    onBeforeUpdate: () => {
      t0 = performance.now();
    },
    onAfterUpdate: afterUpdate,
  });
  // Regions from 64 bodies each, so the field is split between the workers from a few hundred bodies.
  const bp = new ParallelSweepAndPrune({ dimensions: 2, workers: m.workers, minBoxesPerRegion: 64 });
  try {
    sieve = installSieve(game.engine, {
      matter: Matter,
      clock: () => performance.now(),
      broadphase: bp,
      // The broadphase on every step (the sorted sweep of small worlds would leave the workers idle).
      sweepBelow: 0,
    });
  } catch (e) {
    bp.dispose();
    throw e;
  }
  broadphase = bp;
  report.regionMs = new Float64Array(broadphase.regionCount);
  if (m.flood > 0) game.flood(m.flood);
  const ready = () =>
    scope.postMessage({
      type: 'ready',
      parallelMode: broadphase!.mode,
      regions: broadphase!.regionCount,
      fallbackReason: broadphase!.fallbackReason,
      crossOriginIsolated: scope.crossOriginIsolated === true,
      shipOutline: game!.shipOutline,
    });
  broadphase.ready().then(ready, fail);
}

function step(m: Extract<ToPhysics, { type: 'step' }>): void {
  const g = game!;
  if (m.buffer) spare = m.buffer;
  for (const action of m.actions) {
    if (action === 'flood') g.flood(floodSize);
    else if (action === 'clear') g.clearDebris();
    else if (action === 'mode') sieve!.mode = sieve!.mode === 'sieve' ? 'stock' : 'sieve';
    else if (action === 'rubble') g.setRubble(g.rubbleCount === 0);
    else if (action === 'restart') g.restart();
  }
  report.steps = m.steps;
  report.physicsMs = report.collisionMs = report.broadphaseMs = report.narrowphaseMs = Number.NaN;
  report.regionMs.fill(0);
  for (let i = 0; i < m.steps; i++) g.step(m.input);
  report.mode = sieve!.mode;
  const pairs = g.engine.pairs.list;
  let debrisPairs = 0;
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i];
    if (p.isActive && p.bodyA.label === 'debris' && p.bodyB.label === 'debris') debrisPairs++;
  }
  report.pairs = pairs.length;
  report.debrisPairs = debrisPairs;
  const n = snapshotLength(g, report.regionMs.length);
  const buffer = spare && spare.byteLength >= 8 * n ? spare : new ArrayBuffer(8 * Math.ceil(n * 1.25));
  spare = null;
  const data = new Float64Array(buffer);
  writeSnapshot(g, report, data);
  scope.postMessage({ type: 'snapshot', data }, [buffer]);
}

function fail(e: unknown): void {
  scope.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}

scope.onmessage = (event) => {
  try {
    const m = event.data;
    if (m.type === 'init') init(m);
    else if (m.type === 'step') step(m);
  } catch (e) {
    fail(e);
  }
};
