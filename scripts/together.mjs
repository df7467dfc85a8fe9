#!/usr/bin/env node
/**
 * Runs several of the root package's scripts at once (`pnpm run <name>` each) and fails if any fails:
 * `pnpm test` runs the type checks, the API reference check and the vitest suites side by side: the
 * checks are one busy thread each, and the suites leave gaps (browser tests waiting on Chromium, threads
 * handing frames over) that they fill — 295 s for the whole test against 305 s with the checks first, in
 * one run each on a 2-core machine. (The consumer check stays after them: it packs, and so rebuilds, the
 * packages' dist/ the suites read.) Each output line is prefixed with its script's name; the exit code is
 * 1 if any script failed, after all finish.
 *
 * Usage: node scripts/together.mjs <script> [<script> ...]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const names = process.argv.slice(2);
if (names.length === 0) throw new Error('usage: node scripts/together.mjs <script> [<script> ...]');

/** Runs `pnpm run <name>`, its output line by line with a prefix; resolves to its exit code. */
function run(name) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', '--silent', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    child.on('error', (error) => {
      process.stderr.write(`[${name}] ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const codes = await Promise.all(names.map(run));
const failed = names.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
