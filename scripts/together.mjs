#!/usr/bin/env node
/**
 * Runs several of the root package's scripts at once (`pnpm run <name>` each) and fails if any fails:
 * `pnpm test` runs the vitest suites with the type checks and the API reference check beside them at a low
 * priority (`low:<script>`: niceness 10, which its child processes inherit): the checks are one busy
 * thread each and fill the gaps the suites leave (browser tests waiting on Chromium, threads handing
 * frames over), without taking a core from the suites' worker threads, whose barriers wait on every
 * thread of a frame. (The consumer check stays after them: beside them, even at a low priority, its
 * builds and installs slowed the suites by more than they saved.) Each output line is prefixed with its
 * script's name; the exit code is 1 if any script failed, after all finish.
 *
 * Usage: node scripts/together.mjs [low:]<script> [[low:]<script> ...]
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
if (args.length === 0)
  throw new Error('usage: node scripts/together.mjs [low:]<script> [[low:]<script> ...]');
const names = args.map((a) => a.replace(/^low:/, ''));

/** Runs `pnpm run <name>` (at niceness 10 when `low`), its output line by line with a prefix; resolves to its exit code. */
function run(name, low) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', '--silent', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    // Set before pnpm starts the script (its children inherit it); where the system refuses, it runs as is.
    if (low && child.pid !== undefined) {
      try {
        setPriority(child.pid, 10);
      } catch {}
    }
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

const codes = await Promise.all(names.map((name, i) => run(name, args[i].startsWith('low:'))));
const failed = names.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
