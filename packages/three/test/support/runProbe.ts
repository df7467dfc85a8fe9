/**
 * Runs a heap probe in a child process of its own (`node --expose-gc --import tsx <probe> [args]`), so
 * the test runner's own traffic does not share the heap, and parses the JSON it prints.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a heap probe prints: the heap growth of each window of frames, and a checksum of the results. */
export interface ProbeReport {
  growth: number[];
  checksum: number;
}

const tsconfig = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

/** Runs the probe at `probePath` with `args` in a child process and returns its report. */
export function runProbe(probePath: string, ...args: string[]): ProbeReport {
  return JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probePath, ...args], {
      encoding: 'utf8',
      // @sieve/core from its sources, as in the test runner (a fresh clone has no dist/).
      env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
    }),
  ) as ProbeReport;
}
