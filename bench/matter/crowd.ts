/**
 * The crowd rows of `pnpm bench:matter`: moving circles standing in tall columns (no gravity, each
 * launched at a small velocity of its own), where matter-js's sort and sweep compares each body with
 * its whole column — the worlds where Sieve's detector answers from a broadphase passed to it
 * (`options.broadphase`) rather than from its sweep. Stock, Sieve installed with a `SweepAndPrune`
 * (choosing its path), and each of its two paths forced take turns on one engine (oneEngine.ts); the
 * default install, without a broadphase, runs the sweep path.
 */
import Matter from 'matter-js';
import { type RaceOptions, type RaceResult, raceOnOneEngine } from './oneEngine.js';

/** One crowd measured: the race's medians (oneEngine.ts) and the two ratios the rows are read for. */
export interface CrowdRow extends RaceResult {
  columns: number;
  rows: number;
  /** stock ÷ the default install (the sweep), and stock ÷ Sieve with a `SweepAndPrune`, Engine.update. */
  defaultSpeedUp: number;
  withBroadphaseSpeedUp: number;
}

/** A crowd of `columns × rows` circles of radius 1.2, 3 apart (columns never touch in x). */
function crowd(columns: number, rows: number): Matter.Engine {
  const { Bodies, Body, Composite, Engine } = Matter;
  const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
  const bodies: Matter.Body[] = [];
  for (let i = 0; i < columns * rows; i++) {
    const b = Bodies.circle((i % columns) * 3, Math.floor(i / columns) * 3, 1.2);
    // Small velocities of their own (a fixed pattern, not a generator: every build is the same).
    Body.setVelocity(b, { x: ((i * 7919) % 13) / 60 - 0.1, y: ((i * 104729) % 17) / 80 - 0.1 });
    bodies.push(b);
  }
  Composite.add(engine.world, bodies);
  return engine;
}

/** Measures one crowd; see the module comment. */
export function measureCrowd(columns: number, rows: number, options: RaceOptions = {}): CrowdRow {
  const r = raceOnOneEngine(Matter, () => ({ engine: crowd(columns, rows) }), options);
  const u = r.updateMs;
  return {
    columns,
    rows,
    ...r,
    defaultSpeedUp: u.stock / u.sweep,
    withBroadphaseSpeedUp: u.stock / u.sieve,
  };
}

/** One line of the console report. */
export function formatCrowdRow(r: CrowdRow): string {
  const f = (x: number) => x.toFixed(2);
  return (
    `${r.columns} columns × ${r.rows}: Engine.update stock ${f(r.updateMs.stock)} ms, ` +
    `default (sweep) ${f(r.updateMs.sweep)}, with a SweepAndPrune ${f(r.updateMs.sieve)} (${r.sievePath}), ` +
    `broadphase forced ${f(r.updateMs.broadphase)}; stock ÷ default ${f(r.defaultSpeedUp)}×, ` +
    `stock ÷ with a SweepAndPrune ${f(r.withBroadphaseSpeedUp)}×${r.identical ? '' : '  RESULTS DIFFER'}`
  );
}
