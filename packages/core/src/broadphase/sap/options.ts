/**
 * The options of `SweepAndPrune`, their keys, defaults and checks (each bad value throws a RangeError
 * naming the option, an unknown key a TypeError naming it, before anything is built).
 */
import { optionKeys } from '../../options.js';
import { checkOptions } from '../proxies.js';
import type { BroadphaseOptions } from '../types.js';

/** Options of {@link SweepAndPrune}. */
export interface SweepAndPruneOptions extends BroadphaseOptions {
  /**
   * Edge of the grid cells that partition space into regions, or `'auto'` (default) to choose it from
   * the boxes once there are `autoGridThreshold` of them. `Infinity` gives one region: classic SAP.
   */
  cellSize?: number | 'auto';
  /** With `cellSize: 'auto'`, how many boxes make the broadphase choose a grid. Default 256. */
  autoGridThreshold?: number;
  /** With `cellSize: 'auto'`, about how many boxes a cell should hold. Default 48. */
  objectsPerCell?: number;
  /** A box overlapping more cells than this is kept in the global region of big boxes. Default 64 (16 in 2-D). */
  maxCellsPerObject?: number;
  /**
   * When more than this share of the boxes moved since the last update, each touched region is
   * re-sorted by one insertion-sort pass per axis instead of sliding each endpoint on its own.
   * Default 1/16.
   */
  passShare?: number;
  /**
   * When more than this share of the boxes change cells in one update (teleports, respawns, fast
   * motion), every region is rebuilt in bulk (one sort and sweep each) instead of moving boxes between
   * regions one at a time. Default 1/8; `Infinity` never rebuilds.
   */
  rebuildShare?: number;
}

/**
 * The keys of {@link SweepAndPruneOptions}: any other key given to the constructor throws a `TypeError`
 * naming it. Kept complete by the compiler (`optionKeys`): add a new option here too.
 */
export const SWEEP_AND_PRUNE_OPTION_KEYS = optionKeys<SweepAndPruneOptions>({
  dimensions: true,
  initialCapacity: true,
  validate: true,
  cellSize: true,
  autoGridThreshold: true,
  objectsPerCell: true,
  maxCellsPerObject: true,
  passShare: true,
  rebuildShare: true,
});

/** The largest cell index, in absolute value, of the grid on every axis. */
export const GRID_CELL_LIMIT = 2 ** 30;
/** The most cells a small box may cover (a bound on `maxCellsPerObject`). */
export const MAX_CELLS_PER_OBJECT = 4096;

/** {@link SweepAndPruneOptions} with every default filled in and every value checked. */
export interface SapSettings {
  readonly validate: boolean;
  /** Whether the cell size is chosen from the boxes (`cellSize: 'auto'`). */
  readonly autoGrid: boolean;
  /** The given cell size (Infinity with `'auto'` until one is chosen). */
  readonly cellSize: number;
  readonly autoGridThreshold: number;
  readonly objectsPerCell: number;
  readonly maxCellsPerObject: number;
  readonly passShare: number;
  readonly rebuildShare: number;
}

/** Checks the options and fills in the defaults; throws a RangeError naming the first bad option. */
export function readSapOptions(options: SweepAndPruneOptions): SapSettings {
  const d = checkOptions(options, 'SweepAndPrune', SWEEP_AND_PRUNE_OPTION_KEYS).dimensions;
  const cellSize = options.cellSize ?? 'auto';
  if (cellSize !== 'auto' && !(typeof cellSize === 'number' && cellSize > 0)) {
    throw new RangeError(
      `SweepAndPrune: cellSize must be 'auto', a positive number or Infinity, got ${String(cellSize)}`,
    );
  }
  if (cellSize !== 'auto' && !Number.isFinite(1 / cellSize)) {
    // 1 / cellSize is Infinity for subnormal cells: no cell index could be computed.
    throw new RangeError(`SweepAndPrune: cellSize ${cellSize} is too small (1 / cellSize overflows)`);
  }
  const autoGridThreshold = options.autoGridThreshold ?? 256;
  if (!(Number.isInteger(autoGridThreshold) && autoGridThreshold >= 1)) {
    throw new RangeError(
      `SweepAndPrune: autoGridThreshold must be a positive integer, got ${String(options.autoGridThreshold)}`,
    );
  }
  const objectsPerCell = options.objectsPerCell ?? 48;
  if (!(typeof objectsPerCell === 'number' && objectsPerCell > 0 && objectsPerCell < 2 ** 31)) {
    throw new RangeError(
      `SweepAndPrune: objectsPerCell must be a positive finite number, got ${String(options.objectsPerCell)}`,
    );
  }
  const maxCellsPerObject = options.maxCellsPerObject ?? (d === 3 ? 64 : 16);
  if (
    !(
      Number.isInteger(maxCellsPerObject) &&
      maxCellsPerObject >= 1 &&
      maxCellsPerObject <= MAX_CELLS_PER_OBJECT
    )
  ) {
    throw new RangeError(
      `SweepAndPrune: maxCellsPerObject must be an integer from 1 to ${MAX_CELLS_PER_OBJECT}, got ${String(options.maxCellsPerObject)}`,
    );
  }
  const passShare = options.passShare ?? 1 / 16;
  if (typeof passShare !== 'number' || !(passShare >= 0)) {
    throw new RangeError(
      `SweepAndPrune: passShare must be a number >= 0 (or Infinity), got ${String(options.passShare)}`,
    );
  }
  const rebuildShare = options.rebuildShare ?? 1 / 8;
  if (typeof rebuildShare !== 'number' || !(rebuildShare >= 0)) {
    throw new RangeError(
      `SweepAndPrune: rebuildShare must be a number >= 0 (or Infinity), got ${String(options.rebuildShare)}`,
    );
  }
  return {
    validate: options.validate ?? false,
    autoGrid: cellSize === 'auto',
    cellSize: cellSize === 'auto' ? Number.POSITIVE_INFINITY : cellSize,
    autoGridThreshold,
    objectsPerCell,
    maxCellsPerObject,
    passShare,
    rebuildShare,
  };
}
