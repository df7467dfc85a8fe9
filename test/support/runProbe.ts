/**
 * Runs a heap probe in a child process of its own (`node --expose-gc --import tsx <probe> [args]`), so
 * the test runner's own traffic does not share the heap, and parses the JSON it prints (the probes
 * measure with `heapWindows`).
 */
import { execFileSync } from 'node:child_process';

/** What a heap probe prints at least: the heap growth of each window of frames, and a checksum. */
export interface ProbeReport {
  growth: number[];
  checksum: number;
}

/** Where the probe's TypeScript is resolved from (default: the nearest tsconfig.json, as tsx finds it). */
export interface ProbeOptions {
  /** A tsconfig.json for tsx (`TSX_TSCONFIG_PATH`): e.g. one mapping `@sieve/core` to its sources. */
  tsconfig?: string;
  /** The child's working directory. */
  cwd?: string;
}

/** Runs the probe at `probe` with `args` in a child process and returns what it printed. */
export function runProbe<R extends object = ProbeReport>(
  probe: string,
  args: readonly string[] = [],
  options: ProbeOptions = {},
): R {
  return JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, ...args], {
      encoding: 'utf8',
      cwd: options.cwd,
      env: options.tsconfig ? { ...process.env, TSX_TSCONFIG_PATH: options.tsconfig } : process.env,
    }),
  ) as R;
}
