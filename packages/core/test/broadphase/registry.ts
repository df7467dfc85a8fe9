/**
 * Every broadphase the shared contract suite runs against the BruteForce reference. Adding a
 * broadphase to the project means adding one line here — the suite itself is never copied.
 */
import { ParallelSweepAndPrune } from '../../src/broadphase/parallel/index.js';
import { type Broadphase, type BroadphaseOptions, Octree, SweepAndPrune } from '../../src/index.js';
import { kernelFromFirstBox } from '../support/sapKernelKnobs.js';
import { parallelEntry } from './parallelWorker.js';

export interface BroadphaseEntry {
  name: string;
  /**
   * A broadphase with these options; it checks its invariants after every update unless the options
   * say `validate: false` (then the suite calls `validate()` itself, on a sample of updates). The
   * ParallelSweepAndPrune entries, which have no `validate()` to call, always check them (in the
   * workers).
   */
  create: (options: BroadphaseOptions) => Broadphase;
}

export const BROADPHASES: BroadphaseEntry[] = [
  // Default options: one region until 256 boxes (most suite scenes), then an automatic grid.
  { name: 'SweepAndPrune', create: (o) => new SweepAndPrune({ validate: true, ...o }) },
  // The grid switched on early, mid-sequence, with few boxes per cell.
  {
    name: 'SweepAndPrune (auto grid from 40 boxes)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, autoGridThreshold: 40, objectsPerCell: 4 }),
  },
  // Small fixed cells: boxes in several regions, cell crossings every frame, big boxes; boxes always
  // change regions one at a time (never the bulk rebuild).
  {
    name: 'SweepAndPrune (cells of 3)',
    create: (o) =>
      new SweepAndPrune({ validate: true, ...o, cellSize: 3, rebuildShare: Number.POSITIVE_INFINITY }),
  },
  // The bulk rebuild whenever a sampled moved box changes cells.
  {
    name: 'SweepAndPrune (cells of 2, rebuilds)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, cellSize: 2, rebuildShare: 0 }),
  },
  // Insertion-sort passes for every batch of moves, however small.
  {
    name: 'SweepAndPrune (cells of 5, passes always)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, cellSize: 5, passShare: 0 }),
  },
  // One region and passes always: the classic single-list SAP with whole-list passes.
  {
    name: 'SweepAndPrune (one region, passes always)',
    create: (o) =>
      new SweepAndPrune({ validate: true, ...o, cellSize: Number.POSITIVE_INFINITY, passShare: 0 }),
  },
  {
    name: 'SweepAndPrune (cells of 1, big past 4 cells)',
    create: (o) =>
      new SweepAndPrune({
        validate: true,
        ...o,
        cellSize: 1,
        maxCellsPerObject: 4,
        initialCapacity: 1,
        passShare: 2,
        rebuildShare: Number.POSITIVE_INFINITY,
      }),
  },
  // Cells of 0.3 with the default threshold (16 cells in 2-D, 64 in 3-D): most boxes cover many cells
  // and change between big and small as they move.
  {
    name: 'SweepAndPrune (cells of 0.3)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, cellSize: 0.3 }),
  },
  // Cells far smaller than every box (all big) and far larger (all in one cell).
  {
    name: 'SweepAndPrune (cells of 1/64)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, cellSize: 1 / 64 }),
  },
  {
    name: 'SweepAndPrune (cells of 1e6)',
    create: (o) => new SweepAndPrune({ validate: true, ...o, cellSize: 1e6, passShare: 0 }),
  },
  // The passes of busy updates in WebAssembly (kernel.ts) from the first box; then with small cells
  // (crossings during the passes), passes for every batch and record buffers so short that kernel
  // calls stop and resume.
  {
    name: 'SweepAndPrune (WebAssembly passes)',
    create: (o) => kernelFromFirstBox(new SweepAndPrune({ validate: true, ...o })),
  },
  {
    name: 'SweepAndPrune (WebAssembly passes, cells of 3, short record buffers)',
    create: (o) =>
      kernelFromFirstBox(
        new SweepAndPrune({
          validate: true,
          ...o,
          cellSize: 3,
          passShare: 0,
          rebuildShare: Number.POSITIVE_INFINITY,
        }),
        0,
      ),
  },
  { name: 'Octree', create: (o) => new Octree({ validate: true, ...o }) },
  // One proxy per leaf in a tiny first world (splits, merges and root growth all the time), fat boxes
  // twice as large, candidates always patched, never rebuilt.
  {
    name: 'Octree (leaf capacity 1, tiny world, margin 1, no rebuilds)',
    create: (o) =>
      new Octree({
        validate: true,
        ...o,
        leafCapacity: 1,
        worldHalfSize: 1e-3,
        initialCapacity: 1,
        margin: 1,
        rebuildShare: Number.POSITIVE_INFINITY,
      }),
  },
  // The region-parallel sweep and prune on 1, 2 and 4 worker threads (one shared pool per count), cut
  // into regions from 4 boxes per region and re-cut whenever the balance drifts. One worker is the
  // region path with a single region on a worker thread (what `workers: 1, callerRegion: false` runs).
  // One-phase frames (what 'auto' runs for these small frames) on 2 regions, two-phase frames on 4,
  // each with and without the calling thread running a region (its entries below). Each further entry
  // costs the two suites about 5 CPU-s, mostly threads handing frames over on a 2-core machine.
  { name: 'ParallelSweepAndPrune (1 worker)', create: parallelEntry(1) },
  { name: 'ParallelSweepAndPrune (2 workers)', create: parallelEntry(2) },
  // Every frame in two phases (the changed boxes sorted into regions first), which 'auto' uses only
  // for large frames.
  { name: 'ParallelSweepAndPrune (4 workers, two-phase frames)', create: parallelEntry(4, 'always') },
  // The calling thread running region 0 beside the workers (the default of a pool of its own), in one
  // and two phases.
  {
    name: 'ParallelSweepAndPrune (1 worker + the calling thread)',
    create: parallelEntry(1, 'auto', true),
  },
  {
    name: 'ParallelSweepAndPrune (3 workers + the calling thread, two-phase frames)',
    create: parallelEntry(3, 'always', true),
  },
  // `workers: 1` by default: its one region on the calling thread, a plain SweepAndPrune underneath
  // (checking its invariants after every update), no worker.
  {
    name: 'ParallelSweepAndPrune (1 region, the calling thread alone)',
    create: (o) => new ParallelSweepAndPrune({ ...o, validate: true, workers: 1 }),
  },
];
