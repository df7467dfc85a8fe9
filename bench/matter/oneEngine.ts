/**
 * Stock matter-js and Sieve's detector timed on ONE engine: the contestants — stock (`sieve.mode =
 * 'stock'`), Sieve installed with a `SweepAndPrune` (its own choice of path), its sweep path forced
 * (`sweepBelow: Infinity`, what the default install without a broadphase runs) and its broadphase path
 * forced (`sweepBelow: 0`) — are switched on the live engine (the
 * simulation is the same whichever answers), so they run on the same bodies laid out the same way in
 * memory: two engines built one after the other time their heap layouts as much as their detectors
 * (±20 % on this project's machine, for the same work). After each switch a few untimed steps (the
 * broadphase resyncs its proxies, the choice waits 8 steps); then a block of timed steps, the first
 * contestant rotating from one repetition to the next; per contestant the median of its blocks' CPU
 * time (`process.cpuUsage`). The detector alone is timed the same way in a second series (a wrapper
 * around `Detector.collisions`). A stock engine stepped beside the measured one (untimed) must end
 * with every body where the measured one's are, bit for bit.
 */
import { SweepAndPrune } from '@sieve/core';
import { DEFAULT_SWEEP_BELOW, installSieve } from '@sieve/matter';
import type Matter from 'matter-js';
import { median } from '../lib/stats.js';

const DT = 1000 / 60;

/** This process's CPU time in milliseconds. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Who answers `Detector.collisions` in a block. */
export type Contestant = 'stock' | 'sieve' | 'sweep' | 'broadphase';
const CONTESTANTS: Contestant[] = ['stock', 'sieve', 'sweep', 'broadphase'];

/** Options of {@link raceOnOneEngine}. */
export interface RaceOptions {
  /** Repetitions (blocks per contestant). Default 9. */
  reps?: number;
  /** Block length, in milliseconds of stock's steps. Default 40. */
  blockMs?: number;
  /** Untimed steps first. Default 60. */
  warmup?: number;
}

/** A scene: its engine and an optional script run before each update with the step index. */
export interface RaceScene {
  engine: Matter.Engine;
  beforeStep?: (step: number) => void;
}

/** What {@link raceOnOneEngine} measured: medians per contestant, CPU ms. */
export interface RaceResult {
  bodies: number;
  stepsPerBlock: number;
  repetitions: number;
  updateMs: Record<Contestant, number>;
  detectorMs: Record<Contestant, number>;
  /** The path Sieve as installed answered with in its last block. */
  sievePath: string;
  /** Sieve as installed ÷ the faster forced path, Engine.update. */
  defaultVsBest: number;
  /** The measured engine ends bit-identical to a stock engine stepped beside it. */
  identical: boolean;
}

/** Times the contestants on one engine of `build()` (see the module comment). */
export function raceOnOneEngine(
  M: typeof Matter,
  build: () => RaceScene,
  options: RaceOptions = {},
): RaceResult {
  const reps = options.reps ?? 9;
  const measured = build();
  const reference = build();
  // With a SweepAndPrune, so that both paths can be forced; as installed, the cost model chooses (the
  // default, without a broadphase, is the sweep path).
  const sieve = installSieve(measured.engine, {
    matter: M as never,
    clock: false,
    broadphase: new SweepAndPrune({ dimensions: 2 }),
  });
  let steps = 0;
  const stepMeasured = () => {
    measured.beforeStep?.(steps);
    M.Engine.update(measured.engine, DT);
    steps++;
  };
  let referenceSteps = 0;
  const catchUp = () => {
    for (; referenceSteps < steps; referenceSteps++) {
      reference.beforeStep?.(referenceSteps);
      M.Engine.update(reference.engine, DT);
    }
  };
  const use = (c: Contestant): number => {
    if (c === 'stock') {
      sieve.mode = 'stock';
      return 2;
    }
    sieve.mode = 'sieve';
    sieve.sweepBelow =
      c === 'sweep' ? Number.POSITIVE_INFINITY : c === 'broadphase' ? 0 : DEFAULT_SWEEP_BELOW;
    // As installed, the detector waits 8 steps to change paths (and counts visits every 16).
    return c === 'sieve' ? 26 : 3;
  };
  for (let i = 0; i < (options.warmup ?? 60); i++) stepMeasured();
  use('stock');
  stepMeasured();
  const t0 = cpuMs();
  stepMeasured();
  const once = Math.max(cpuMs() - t0, 0.002);
  const block = Math.max(2, Math.min(200, Math.ceil((options.blockMs ?? 40) / once)));
  const series = (detectorOnly: boolean) => {
    const inner = M.Detector.collisions;
    let detector = 0;
    if (detectorOnly) {
      M.Detector.collisions = ((d: Matter.Detector) => {
        const t = cpuMs();
        const out = inner(d);
        detector += cpuMs() - t;
        return out;
      }) as typeof inner;
    }
    const times = new Map<Contestant, number[]>(CONTESTANTS.map((c) => [c, []]));
    let path = '';
    try {
      for (let r = 0; r < reps; r++) {
        for (let k = 0; k < CONTESTANTS.length; k++) {
          const c = CONTESTANTS[(k + r) % CONTESTANTS.length];
          const settle = use(c);
          for (let i = 0; i < settle; i++) stepMeasured();
          detector = 0;
          const t = cpuMs();
          for (let i = 0; i < block; i++) stepMeasured();
          const spent = cpuMs() - t;
          (times.get(c) as number[]).push((detectorOnly ? detector : spent) / block);
          if (c === 'sieve') path = sieve.stats.path;
        }
        catchUp();
      }
    } finally {
      M.Detector.collisions = inner;
    }
    const ms = {} as Record<Contestant, number>;
    for (const c of CONTESTANTS) ms[c] = median(times.get(c) as number[]);
    return { ms, path };
  };
  const update = series(false);
  const detector = series(true);
  catchUp();
  const a = M.Composite.allBodies(measured.engine.world);
  const b = M.Composite.allBodies(reference.engine.world);
  const identical =
    a.length === b.length &&
    a.every((x, i) => Object.is(x.position.x, b[i].position.x) && Object.is(x.position.y, b[i].position.y));
  sieve.uninstall();
  const u = update.ms;
  return {
    bodies: a.length,
    stepsPerBlock: block,
    repetitions: reps,
    updateMs: u,
    detectorMs: detector.ms,
    sievePath: update.path,
    defaultVsBest: u.sieve / Math.min(u.sweep, u.broadphase),
    identical,
  };
}
