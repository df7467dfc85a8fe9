/**
 * Builds what the parallel broadphase's process-level tests run, once per test process, into a
 * temporary folder: the worker script and the child scenarios (parallelChild.ts), bundled by esbuild
 * from the TypeScript sources, plus a worker script that throws as it loads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { testTemp } from '../../support/tempRoot.js';

export interface ParallelBuild {
  /** The child scenarios' script (run it with node). */
  child: string;
  /** The bundled worker script's URL. */
  worker: URL;
  /** A worker script that throws `broken worker script` as it loads. */
  broken: URL;
}

let built: ParallelBuild | undefined;

export function parallelBuild(): ParallelBuild {
  if (built) return built;
  const dir = mkdtempSync(join(testTemp(), 'sieve-parallel-faults-'));
  const bundle = (entry: string, out: string) =>
    buildSync({
      entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile: join(dir, out),
      logLevel: 'silent',
    });
  bundle('../../../packages/core/src/broadphase/parallel/worker.ts', 'parallel-worker.mjs');
  bundle('./parallelChild.ts', 'parallel-child.mjs');
  writeFileSync(join(dir, 'broken-worker.mjs'), "throw new Error('broken worker script');\n");
  built = {
    child: join(dir, 'parallel-child.mjs'),
    worker: pathToFileURL(join(dir, 'parallel-worker.mjs')),
    broken: pathToFileURL(join(dir, 'broken-worker.mjs')),
  };
  return built;
}
