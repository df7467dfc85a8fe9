/**
 * The tilemap rows of `pnpm bench:matter`: levels of static 32-px tiles (built as Phaser's
 * `convertTilemapLayer` builds them: one static rectangle per solid tile) with 300 dynamic circles and
 * boxes, in plain matter-js 0.20 and inside Phaser 3.90's and Phaser 4's bundled copies
 * (`Phaser.Physics.Matter.Matter`).
 *
 * Stock, Sieve installed with a `SweepAndPrune` (choosing its path), and each of Sieve's two paths
 * forced take turns on one engine (oneEngine.ts); the default install, without a broadphase, runs the
 * sweep path.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Matter from 'matter-js';
import { buildTilemapWorld, tilemapLevel } from '../../packages/matter/test/tilemap.js';
import { type RaceOptions, raceOnOneEngine } from './oneEngine.js';

/** Which Matter module a row runs in. */
export type Flavour = 'matter-js' | 'phaser3' | 'phaser4';

/** The Matter module of a flavour (Phaser's from the sources its package ships). */
function matterOf(flavour: Flavour): { M: typeof Matter; version: string } {
  if (flavour === 'matter-js') return { M: Matter, version: '0.20.0' };
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${flavour === 'phaser3' ? 'phaser' : 'phaser4'}/package.json`);
  const version = (require(manifest) as { version: string }).version;
  return {
    M: require(join(dirname(manifest), 'src/physics/matter-js/CustomMain.js')) as typeof Matter,
    version: `Phaser ${version}`,
  };
}

/** One level measured. */
export interface TilemapRow {
  flavour: Flavour;
  matter: string;
  tiles: number;
  /** Average ground depth in tiles (18: a platformer; 70: a deep, dug-out level). */
  ground: number;
  dynamic: number;
  bodies: number;
  stepsPerBlock: number;
  repetitions: number;
  /** Median CPU ms of one Engine.update, per contestant. */
  updateMs: { stock: number; sieve: number; sweep: number; broadphase: number };
  /** Median CPU ms of one Detector.collisions, per contestant. */
  detectorMs: { stock: number; sieve: number; sweep: number; broadphase: number };
  /** The path Sieve chose as installed. */
  sievePath: string;
  /** stock ÷ Sieve (as installed), Engine.update and the detector alone. */
  updateSpeedUp: number;
  detectorSpeedUp: number;
  /** The default's time ÷ the faster forced path's (≤ 1 within noise: the choice was right). */
  defaultVsBest: number;
  identical: boolean;
}

/** Measures one level; see the module comment. */
export function measureTilemap(
  flavour: Flavour,
  tiles: number,
  ground: number,
  options: { dynamic?: number } & RaceOptions = {},
): TilemapRow {
  const { M, version } = matterOf(flavour);
  const dynamic = options.dynamic ?? 300;
  const level = tilemapLevel({ tiles, ground });
  const r = raceOnOneEngine(
    M,
    () => ({ engine: buildTilemapWorld<Matter.Engine>(M as never, level, { dynamic }).engine }),
    options,
  );
  const u = r.updateMs;
  return {
    flavour,
    matter: version,
    tiles,
    ground,
    dynamic,
    bodies: r.bodies,
    stepsPerBlock: r.stepsPerBlock,
    repetitions: r.repetitions,
    updateMs: u,
    detectorMs: r.detectorMs,
    sievePath: r.sievePath,
    updateSpeedUp: u.stock / u.sieve,
    detectorSpeedUp: r.detectorMs.stock / r.detectorMs.sieve,
    defaultVsBest: r.defaultVsBest,
    identical: r.identical,
  };
}

/** One line of the console report. */
export function formatTilemapRow(r: TilemapRow): string {
  const f = (x: number) => x.toFixed(2);
  return (
    `${r.matter.padEnd(12)} ${String(r.tiles).padStart(5)} tiles (ground ${r.ground}) + ${r.dynamic}: ` +
    `Engine.update stock ${f(r.updateMs.stock)} ms, Sieve ${f(r.updateMs.sieve)} ms (${r.sievePath}), ` +
    `sweep forced ${f(r.updateMs.sweep)}, broadphase forced ${f(r.updateMs.broadphase)}; ` +
    `stock ÷ Sieve ${f(r.updateSpeedUp)}× (detector ${f(r.detectorSpeedUp)}×), ` +
    `Sieve ÷ best forced ${f(r.defaultVsBest)}${r.identical ? '' : '  RESULTS DIFFER'}`
  );
}
