/**
 * Shorter property names for the packages' private members in what they ship (esbuild's `mangleProps`
 * with a fixed `mangleCache`, as Preact and Vue shorten their internal fields), and the same options for
 * the bundle-size pages, so that the sizes measured are the sizes shipped.
 *
 * Which names: those the packages' sources declare only as `private` or `protected` class members and
 * reach only through those members. The type checker resolves every `x.name` of the sources; a name
 * reached through anything else (an engine's or the DOM's property, an `any`), declared anywhere as
 * something else (a public member, an interface or type member, an object literal's or a destructured
 * key, an enum member) or written whole as a string (a dynamic `obj[key]`) keeps its name. Since an
 * engine's code can only reach an object's public members, it never meets a shortened name.
 *
 * One table for every package (name → short name, chosen by esbuild over all of them at once: the most
 * frequent names shortest, none equal to a name left as it is), so that a subclass in one package and
 * its base in another agree. It takes a few seconds to compute and is cached in
 * `node_modules/.cache` by the sources' sizes and times and by this file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as TS from 'typescript';

/** What esbuild takes and gives for mangling (its types are not reachable from this folder). */
interface MangleBuild {
  buildSync(options: Record<string, unknown>): { mangleCache?: Record<string, string | false> };
}

/** esbuild options that shorten the private names (see the module comment). */
export interface MangleOptions {
  mangleProps: RegExp;
  mangleCache: Record<string, string | false>;
}

/**
 * The workspace root, found from the working folder (a package's, the root's or the tests'): tsup
 * bundles its config with this file into the package's folder, where `import.meta.url` would mislead.
 */
function findRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error('mangle: no pnpm-workspace.yaml above the working folder');
  }
}

const PACKAGES = ['core', 'cannon', 'matter', 'overlay', 'three'];

/** The packages' source files. */
function sources(root: string): string[] {
  return PACKAGES.flatMap((p) => {
    const src = join(root, 'packages', p, 'src');
    return readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(src, f));
  }).sort();
}

/** The TypeScript compiler, loaded only when the table is computed. */
let ts: typeof TS;

/** Whether a declaration is a `private` or `protected` class member. */
function hiddenMember(node: TS.Node): boolean {
  const member =
    ts.isPropertyDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    (ts.isParameter(node) && ts.isConstructorDeclaration(node.parent));
  return (
    member &&
    (ts.getCombinedModifierFlags(node as TS.Declaration) &
      (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !==
      0
  );
}

/** Whether a named node declares a name that is not private: a public member, a key, an enum member. */
function openDeclaration(node: TS.Node): boolean {
  return (
    ts.isPropertyDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isPropertySignature(node) ||
    ts.isMethodSignature(node) ||
    ts.isPropertyAssignment(node) ||
    ts.isShorthandPropertyAssignment(node) ||
    ts.isEnumMember(node) ||
    (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) && !node.propertyName)
  );
}

/** The names of `files` that are private and reached only as such (see the module comment). */
function privateNames(root: string, files: string[]): string[] {
  // Loaded here, when the table is not cached: a build that finds it pays nothing for TypeScript.
  ts = createRequire(join(root, 'package.json'))('typescript');
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    baseUrl: root,
    paths: JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const ours = new Set(files);
  const hidden = new Set<string>();
  const open = new Set<string>();
  for (const source of program.getSourceFiles()) {
    if (!ours.has(source.fileName)) continue;
    const visit = (node: TS.Node): void => {
      const name = (node as { name?: TS.Node }).name;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) open.add(node.text);
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
        const declarations = checker.getSymbolAtLocation(node.name)?.declarations ?? [];
        const private_ =
          declarations.length > 0 &&
          declarations.every((d) => hiddenMember(d) && ours.has(d.getSourceFile().fileName));
        if (!private_) open.add(node.name.text);
      } else if (name && ts.isIdentifier(name)) {
        if (hiddenMember(node)) hidden.add(name.text);
        else if (openDeclaration(node)) open.add(name.text);
      }
      if (ts.isBindingElement(node) && node.propertyName && ts.isIdentifier(node.propertyName))
        open.add(node.propertyName.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...hidden].filter((name) => !open.has(name)).sort();
}

/** The short name of each of `names`, chosen by esbuild over every package at once. */
function shortNames(root: string, files: string[], names: string[]): Record<string, string | false> {
  // The esbuild the packages build with (tsup's; a development dependency of @sieve/core).
  const esbuild = createRequire(join(root, 'packages', 'core', 'package.json'))('esbuild') as MangleBuild;
  // Every source file in one build, none bundled: the names are counted and chosen over all of them.
  const result = esbuild.buildSync({
    entryPoints: files,
    format: 'esm',
    outdir: join(root, 'node_modules', '.cache', 'sieve-mangle'),
    write: false,
    mangleProps: new RegExp(`^(?:${names.join('|')})$`),
    mangleCache: {},
    minify: true,
    logLevel: 'error',
  });
  return result.mangleCache ?? {};
}

/** The table, name → short name (computed, or read from the cache when no source changed). */
function table(): Record<string, string | false> {
  const root = findRoot();
  const files = sources(root);
  const key = createHash('sha1');
  // This file too: a change to its rules makes a new table.
  key.update(readFileSync(join(root, 'scripts', 'mangle.ts')));
  for (const f of files) {
    const s = statSync(f);
    key.update(`${f}:${s.size}:${s.mtimeMs}\n`);
  }
  const digest = key.digest('hex');
  const cacheFile = join(root, 'node_modules', '.cache', 'sieve-mangle.json');
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
    if (cached.digest === digest) return cached.table;
  } catch {}
  const result = shortNames(root, files, privateNames(root, files));
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(cacheFile, JSON.stringify({ digest, table: result }));
  } catch {}
  return result;
}

/**
 * esbuild options that shorten the private names: `mangleProps` matches exactly the table's names,
 * and `mangleCache` fixes what each becomes.
 */
export function mangleOptions(): MangleOptions {
  const cache = table();
  return { mangleProps: new RegExp(`^(?:${Object.keys(cache).join('|')})$`), mangleCache: cache };
}
