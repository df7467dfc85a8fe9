#!/usr/bin/env node
/**
 * `pnpm typecheck`: type-checks every workspace (packages/*, examples/*, bench, test — the folders of
 * pnpm-workspace.yaml) as its own `typecheck` script does (`tsc -p tsconfig.json --noEmit`: its files,
 * with its own `lib`, `types` and `paths`), but all in one TypeScript build (`ts.createSolutionBuilder`,
 * what `tsc -b` runs), where the projects share the parsed source files, and projects whose compiler
 * options are identical are checked as one program (see `groups` below): every project reaches
 * @sieve/core's sources through `paths`, which are then checked once per set of options instead of
 * once per project (11 projects in 3 programs: 29–31 CPU-s against 40–43 as 11 programs). Nothing is
 * written: every project is checked with `noEmit`, and the build's own `.tsbuildinfo` files are
 * dropped. A workspace whose `typecheck` script is anything else runs that script. Meanwhile, the
 * TSDoc examples are checked (scripts/doc-examples.mjs).
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
const configHost = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    errors++;
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext([d], formatHost));
  },
};
function parseProject(file) {
  const parsed = ts.getParsedCommandLineOfConfigFile(file, { noEmit: true }, configHost);
  if (parsed) parsed.options.incremental = false;
  return parsed;
}

/**
 * Projects whose compiler options are the same in every respect (`lib`, `types`, `paths` and their
 * base, strictness, …) are checked as one program: the union of their files. A file then is checked
 * once, not once per project that reaches it — @sieve/core's sources are reached by every package —
 * and each file is still checked with exactly the options of every project that includes it. (What
 * one project declares globally becomes visible to the others of its group: a looser check only there,
 * and none of these projects declares globals its neighbours could lean on.)
 */
const groups = new Map();
for (const file of projects) {
  const parsed = parseProject(file);
  if (!parsed) continue;
  const { configFilePath: _, ...options } = parsed.options;
  const key = JSON.stringify(options);
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(parsed);
}
/**
 * Each group's program under a config path of its own (never written: only this host reads it), as the
 * solution builder takes projects by their config file.
 */
const programs = new Map();
for (const members of groups.values()) {
  programs.set(join(root, `.typecheck-group-${programs.size}.json`), {
    ...members[0],
    fileNames: [...new Set(members.flatMap((m) => m.fileNames))],
    errors: members.flatMap((m) => m.errors),
    projectReferences: undefined,
  });
}
// A project whose config did not parse was reported (and counted) by parseProject: it is not built.
host.getParsedCommandLine = (file) => programs.get(file);
// Nothing written or touched: no outputs, no .tsbuildinfo.
host.writeFile = () => {};
host.createDirectory = () => {};
host.setModifiedTime = () => {};
host.deleteFile = () => {};
// Every project is checked afresh: none is "up to date" from an earlier run.
host.getModifiedTime = (file) =>
  typeof file === 'string' && !file.endsWith('.tsbuildinfo') ? ts.sys.getModifiedTime?.(file) : undefined;

const started = Date.now();
const status = ts.createSolutionBuilder(host, [...programs.keys()], { verbose: false }).build();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const names = projects.map((p) => relative(root, join(p, '..'))).join(', ');
if (status === ts.ExitStatus.Success && errors === 0)
  console.log(
    `typecheck: ${projects.length} projects in ${programs.size} programs, no errors (${seconds} s): ${names}`,
  );
else console.log(`typecheck: ${errors} errors in ${projects.length} projects (${seconds} s)`);

const codes = await Promise.all(side);
process.exitCode = status === ts.ExitStatus.Success && errors === 0 && codes.every((c) => c === 0) ? 0 : 1;
