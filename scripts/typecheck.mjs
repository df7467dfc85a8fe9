#!/usr/bin/env node
/**
 * `pnpm typecheck`: type-checks every workspace (packages/*, examples/*, bench, test — the folders of
 * pnpm-workspace.yaml) exactly as its own `typecheck` script does (`tsc -p tsconfig.json --noEmit`:
 * each project its own program, with its own `lib`, `types` and `paths`), but all in one TypeScript
 * build (`ts.createSolutionBuilder`, what `tsc -b` runs): the projects share the parsed and bound
 * source files — every project reaches @sieve/core's sources through `paths`, and most the DOM
 * declarations — which halves the work of eleven separate `tsc` runs. Nothing is written: every
 * project is checked with `noEmit`, and the build's own `.tsbuildinfo` files are dropped. A workspace
 * whose `typecheck` script is anything else runs that script. Meanwhile, the TSDoc examples are
 * checked (scripts/doc-examples.mjs).
 *
 * Usage: node scripts/typecheck.mjs
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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
  if (script.trim() === STANDARD) projects.push(join(dir, 'tsconfig.json'));
  else others.push({ dir, script });
}

// The TSDoc examples and any non-standard script, in processes of their own beside the build.
const side = [
  run(process.execPath, [join(root, 'scripts', 'doc-examples.mjs')], root),
  ...others.map((o) => run('pnpm', ['run', 'typecheck'], o.dir)),
];

const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
let errors = 0;
const host = ts.createSolutionBuilderHost(
  ts.sys,
  ts.createSemanticDiagnosticsBuilderProgram,
  (diagnostic) => {
    if (diagnostic.category === ts.DiagnosticCategory.Error) errors++;
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost));
  },
  () => {},
);
// Each project as `tsc -p <its tsconfig> --noEmit` sees it.
host.getParsedCommandLine = (file) => {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    file,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        errors++;
        process.stdout.write(ts.formatDiagnosticsWithColorAndContext([d], formatHost));
      },
    },
  );
  if (parsed) parsed.options.incremental = false;
  return parsed;
};
// Nothing written or touched: no outputs, no .tsbuildinfo.
host.writeFile = () => {};
host.createDirectory = () => {};
host.setModifiedTime = () => {};
host.deleteFile = () => {};
// Every project is checked afresh: none is "up to date" from an earlier run.
host.getModifiedTime = (file) =>
  typeof file === 'string' && !file.endsWith('.tsbuildinfo') ? ts.sys.getModifiedTime?.(file) : undefined;

const started = Date.now();
const status = ts.createSolutionBuilder(host, projects, { verbose: false }).build();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const names = projects.map((p) => relative(root, join(p, '..'))).join(', ');
if (status === ts.ExitStatus.Success && errors === 0)
  console.log(`typecheck: ${projects.length} projects, no errors (${seconds} s): ${names}`);
else console.log(`typecheck: ${errors} errors in ${projects.length} projects (${seconds} s)`);

const codes = await Promise.all(side);
process.exitCode = status === ts.ExitStatus.Success && errors === 0 && codes.every((c) => c === 0) ? 0 : 1;
