/**
 * The parallel broadphase's worker script for tests: the TypeScript worker entry bundled once per test
 * process by esbuild (the bundler tsup itself uses) into a temporary ES module, so Node's
 * `worker_threads` can load it while the tests run against the sources. Also one shared WorkerPool
 * per worker count, so the contract suite's thousands of broadphases do not each start threads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { testTemp } from '../../../../test/support/tempRoot.js';
import { ParallelSweepAndPrune, WorkerPool } from '../../src/broadphase/parallel/index.js';
import type { Broadphase, BroadphaseOptions } from '../../src/index.js';

let built: URL | undefined;

/** File URL of the bundled worker (built on first use). */
export function workerUrl(): URL {
  if (built) return built;
  // esbuild is tsup's own dependency: resolve it from there.
  const requireFromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
  const esbuild = requireFromTsup('esbuild') as {
    buildSync(o: object): { outputFiles: Array<{ contents: Uint8Array }> };
  };
  const entry = fileURLToPath(new URL('../../src/broadphase/parallel/worker.ts', import.meta.url));
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
  });
  const dir = mkdtempSync(join(testTemp(), 'sieve-parallel-'));
  const file = join(dir, 'parallel-worker.mjs');
  writeFileSync(file, result.outputFiles[0].contents);
  built = pathToFileURL(file);
  return built;
}

const pools = new Map<number, WorkerPool>();

/** One pool per worker count for the whole test process (its threads are unref'd). */
export function sharedPool(workers: number): WorkerPool {
  let pool = pools.get(workers);
  if (!pool || pool.isDisposed) {
    pool = new WorkerPool({ workers, workerUrl: workerUrl(), timeoutMs: 30_000 });
    pools.set(workers, pool);
  }
  return pool;
}

/**
 * A `create` for the shared contract suite: a ParallelSweepAndPrune on the shared pool of `workers`
 * threads, cut into regions from 4 boxes per region and re-cut whenever the balance drifts (so the
 * suite's small scenes cross region borders, move between regions and see new layouts all the time).
 * `twoPhase` as the option; with `callerRegion`, the calling thread runs one region more beside the
 * pool's. Each call disposes the broadphase the previous call made (the suite never goes back to it),
 * so the workers do not pile up regions.
 */
export function parallelEntry(
  workers: number,
  twoPhase: 'auto' | 'always' | 'never' = 'auto',
  callerRegion = false,
): (o: BroadphaseOptions) => Broadphase {
  let previous: ParallelSweepAndPrune | undefined;
  return (o) => {
    previous?.dispose();
    previous = undefined;
    previous = new ParallelSweepAndPrune({
      ...o,
      validate: true,
      pool: sharedPool(workers),
      minBoxesPerRegion: 4,
      layoutInterval: 1,
      rebalanceAt: 1.05,
      twoPhase,
      callerRegion,
    });
    return previous;
  };
}
