#!/usr/bin/env node
/**
 * `pnpm run docs`: the API reference of every published entry point, generated from the TSDoc comments by
 * TypeDoc into docs/api (gitignored). The entry points come from each package's `exports` map and tsup
 * config (an `exports` subpath `./parallel` → `dist/parallel.js` → tsup entry `parallel` → its source
 * file), so entry points added later are documented without touching this script; each becomes a module
 * named after its import path (`@sieve/core/parallel`). An `exports` subpath without declarations (the
 * parallel broadphase's worker script, `./parallel-worker`) is internal and left out. Each package's
 * README.md is its main module's page (as on npm), and links to a package README (the root README's
 * package table) lead to that page.
 *
 * Validation is on: the reference is written, but the command fails (exit 1, each problem listed) when a
 * public export or member has no TSDoc (`notDocumented`), a `{@link}` is broken, or a type is used but
 * not exported. `--no-validate` skips that.
 *
 * Usage: node scripts/docs.mjs [--out dir] [--no-validate]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { Application, Converter, MinimalSourceFile, ReflectionKind } from 'typedoc';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(root, outAt >= 0 ? args[outAt + 1] : 'docs/api');

/**
 * Every public entry point: { name: '@sieve/core/parallel', packageName: '@sieve/core', file: absolute
 * source path, readme: the package's README.md for its main entry, else null }.
 */
async function entryPoints() {
  const entries = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const pkgDir = join(root, 'packages', dir);
    const pkgFile = join(pkgDir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    if (pkg.private) continue;
    const config = (await tsImport(join(pkgDir, 'tsup.config.ts'), import.meta.url)).default;
    const tsup = Array.isArray(config) ? config[0] : config;
    const entry = Array.isArray(tsup.entry)
      ? Object.fromEntries(tsup.entry.map((f) => [f.replace(/^.*\//, '').replace(/\.tsx?$/, ''), f]))
      : tsup.entry;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (!subpath.startsWith('.') || subpath.endsWith('.json')) continue;
      // No declarations: a file the package loads itself (a worker script), not an API.
      if (typeof target === 'string') continue;
      const js =
        typeof target === 'string' ? target : (target.import?.default ?? target.default ?? target.import);
      if (typeof js !== 'string') continue;
      const key = js.replace(/^\.\/dist\//, '').replace(/\.(c|m)?js$/, '');
      if (!entry[key])
        throw new Error(`${pkg.name}: exports "${subpath}" → ${js}, but tsup has no entry "${key}"`);
      const readme = join(pkgDir, 'README.md');
      entries.push({
        name: pkg.name + subpath.slice(1),
        packageName: pkg.name,
        file: join(pkgDir, entry[key]),
        readme: subpath === '.' && existsSync(readme) ? readme : null,
      });
    }
  }
  return entries;
}

/** TypeDoc options (`validate`: also fail on exports without TSDoc). */
function options(files, validate) {
  return {
    entryPoints: files,
    entryPointStrategy: 'resolve',
    tsconfig: join(root, 'scripts', 'tsconfig.docs.json'),
    name: 'Sieve',
    readme: join(root, 'README.md'),
    excludePrivate: true,
    excludeInternal: true,
    // Source links to the repository (a clone's own remote may be a local path, as in CI).
    disableGit: true,
    gitRevision: 'main',
    // ({path} is relative to the entry points' common folder, packages/.)
    sourceLinkTemplate: 'https://github.com/sieve-js/sieve/blob/{gitRevision}/packages/{path}#L{line}',
    // The sources are type-checked by `pnpm typecheck`; this only documents them.
    skipErrorChecking: true,
    sort: ['kind', 'instance-first', 'alphabetical-ignoring-documents'],
    validation: { notExported: true, invalidLink: true, notDocumented: validate },
    logLevel: 'Warn',
  };
}

/** Runs `fn` with the app's warnings and errors collected (and still printed) into `problems`. */
function collect(app, problems) {
  for (const level of ['warn', 'error']) {
    const original = app.logger[level].bind(app.logger);
    app.logger[level] = (message, ...rest) => {
      const text = String(message);
      if (!text.includes('git remote')) problems.push(text);
      original(message, ...rest);
    };
  }
}

async function main() {
  const entries = await entryPoints();
  const byFile = new Map(entries.map((e) => [resolve(e.file), e]));
  const validate = !args.includes('--no-validate');
  const problems = [];
  const app = await Application.bootstrapWithPlugins({
    ...options(
      entries.map((e) => e.file),
      validate,
    ),
    // TypeDoc asks for documentation only in the project's package (none, with entry points in several
    // packages) unless told which: every package documented here.
    packagesRequiringDocumentation: [...new Set(entries.map((e) => e.packageName))],
    out,
  });
  collect(app, problems);
  // Name each module after its import path rather than its folder; a package's main module shows its
  // README, and links to that README (from the root README) lead to the module's page.
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const mod of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const symbol = context.getSymbolFromReflection?.(mod) ?? context.project.getSymbolFromReflection?.(mod);
      const file = symbol?.declarations?.[0]?.getSourceFile?.().fileName;
      const entry = file && byFile.get(resolve(file));
      if (!entry) continue;
      mod.name = entry.name;
      if (entry.readme) {
        const text = readFileSync(entry.readme, 'utf8');
        const files = context.project.files;
        mod.readme = app.converter.parseRawComment(new MinimalSourceFile(text, entry.readme), files).content;
        files.registerReflectionPath(entry.readme, mod);
      }
    }
  });
  const project = await app.convert();
  if (!project) {
    process.exitCode = 1;
    return;
  }
  app.validate(project);
  await app.generateDocs(project, out);
  console.log(`docs: API reference of ${entries.map((e) => e.name).join(', ')} in ${relative(root, out)}`);
  if (validate && problems.length > 0) {
    console.error(`docs: ${problems.length} problem(s) (undocumented exports, broken links) — see above`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
