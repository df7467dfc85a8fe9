/**
 * Writes benchmark results under bench/results/: JSON with the machine's description, and pictures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of bench/results/. */
export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** What machine produced a result; kept next to the figures so results stay per machine. */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.arch()}`,
    date: new Date().toISOString(),
  };
}

/** Writes `data` (plus machine info) as pretty JSON to bench/results/<name>.json; returns the path. */
export function writeJson(name: string, data: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name}.json`);
  writeFileSync(path, `${JSON.stringify({ machine: machineInfo(), ...(data as object) }, null, 2)}\n`);
  return path;
}

/** Writes a text file (an SVG picture, a markdown table) to bench/results/<file>; returns the path. */
export function writeText(file: string, text: string): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, file);
  writeFileSync(path, text);
  return path;
}
