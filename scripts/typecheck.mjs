#!/usr/bin/env node
/**
 * `pnpm typecheck`: type-checks every workspace (packages/*, examples/*, bench, test — the folders of
 * pnpm-workspace.yaml) as its own `typecheck` script does (`tsc -p tsconfig.json --noEmit`: its files,
 * with its own `lib`, `types` and `paths`), with TypeScript 7's native compiler (scripts/tsc.mjs): the
 * eleven projects one after the other, one checker thread each, in 16–23 CPU-s where TypeScript 5.9's
 * solution builder took 52 (the whole check runs beside the test suites, so every CPU-second it takes
 * is one they wait for on a 2-core machine). A workspace whose `typecheck` script is anything else runs
 * that script. Meanwhile, the TSDoc examples are checked (scripts/doc-examples.mjs).
 *
 * Usage: node scripts/typecheck.mjs
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsc } from './tsc.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const STANDARD = 'tsc -p tsconfig.json --noEmit';

/** The workspace folders (pnpm-workspace.yaml's `packages` globs: `dir/*` or `dir`). */
function workspaces() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [];
  let inPackages = false;
  for (const line of yaml.split('\n')) {
    if (/^packages:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages && /^\s*-\s*/.test(line))
      globs.push(line.replace(/^\s*-\s*/, '').replace(/['"]/g, ''));
  }
  const dirs = [];
  for (const glob of globs) {
    if (glob.endsWith('/*')) {
      const parent = join(root, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const name of readdirSync(parent).sort()) dirs.push(join(parent, name));
    } else dirs.push(join(root, glob));
  }
  return dirs.filter((d) => existsSync(join(d, 'package.json')));
}

/** Runs a command, resolving to its exit code (output passed through). */
function run(cmd, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const projects = [];
const others = [];
for (const dir of workspaces()) {
  const script = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.typecheck;
  if (!script) continue;
  if (script.trim() === STANDARD) projects.push(dir);
  else others.push({ dir, script });
}

// The TSDoc examples and any non-standard script, in processes of their own beside the projects.
const side = [
  run(process.execPath, [join(root, 'scripts', 'doc-examples.mjs')], root),
  ...others.map((o) => run('pnpm', ['run', 'typecheck'], o.dir)),
];

const started = Date.now();
const failed = [];
for (const dir of projects) {
  // One checker thread: TypeScript 7's default of four spends more CPU time for the same check.
  const code = await run(
    process.execPath,
    [tsc, '-p', join(dir, 'tsconfig.json'), '--noEmit', '--checkers', '1', '--pretty'],
    root,
  );
  if (code !== 0) failed.push(relative(root, dir));
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const names = projects.map((dir) => relative(root, dir)).join(', ');
if (failed.length === 0)
  console.log(`typecheck: ${projects.length} projects, no errors (${seconds} s): ${names}`);
else console.log(`typecheck: errors in ${failed.join(', ')} (${seconds} s)`);

const codes = await Promise.all(side);
process.exitCode = failed.length === 0 && codes.every((c) => c === 0) ? 0 : 1;
