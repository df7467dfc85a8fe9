#!/usr/bin/env node
/**
 * Type-checks the examples in the TSDoc comments of every published package: each ```ts block in a
 * `/** … *\/` comment of `packages/<name>/src/**\/*.ts` (```ts no-check blocks excepted) is written as
 * a module of its own into `.doc-examples/` and the lot is checked with one `tsc` run, strict, with the
 * `@sieve/*` imports resolved to the sources and the engines (cannon-es, matter-js, three, pixi.js) to
 * the packages' own installs. Errors are reported at the comment's file and line. It also fails when a
 * main entry point ({@link REQUIRED}) has no such example in its TSDoc. Part of `pnpm typecheck` (and
 * so of `pnpm test`).
 *
 * Usage: node scripts/doc-examples.mjs [--keep] [--list]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsc } from './tsc.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, '.doc-examples');
const args = process.argv.slice(2);

/**
 * The main entry points, by package folder: each needs a checked ```ts example in the TSDoc comment of
 * its declaration.
 */
const REQUIRED = {
  cannon: ['installSieve', 'installSieveLite'],
  matter: ['installSieve'],
  core: [
    'SweepAndPrune',
    'Octree',
    'ParallelSweepAndPrune',
    'MeshBVH',
    'meshMeshPairs',
    'raycastFirst',
    'timeOfImpact',
    'OcsiBatch',
    'GpuMeshMesh',
  ],
  overlay: ['Overlay', 'FrameRecorder'],
  three: [
    'computeBoundsTree',
    'acceleratedRaycast',
    'BoundsTree',
    'meshesIntersect',
    'capsuleContacts',
    'capsuleCast',
  ],
};

/** Every .ts file under `dir`. */
function sources(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/**
 * The ```ts blocks of the TSDoc comments of `text`: { code, line, of } (line of the first code line,
 * 1-based; `of`, the name the comment documents when it is an exported declaration).
 */
function examples(text) {
  const blocks = [];
  const lines = text.split('\n');
  let inComment = false;
  let fence = null;
  let pending = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inComment) {
      if (/^\s*\/\*\*/.test(line) && !/\*\/\s*$/.test(line.replace(/^\s*\/\*\*/, ''))) inComment = true;
      continue;
    }
    if (/\*\/\s*$/.test(line)) {
      inComment = false;
      fence = null;
      // What the comment documents: the next line, when it declares an export.
      const decl =
        /^export (?:declare )?(?:abstract )?(?:async )?(?:class|function|const|interface) (\w+)/.exec(
          lines[i + 1] ?? '',
        );
      for (const b of pending) b.of = decl ? decl[1] : null;
      pending = [];
      continue;
    }
    const body = line.replace(/^\s*\* ?/, '');
    const open = /^```(\S*)(.*)$/.exec(body);
    if (fence === null && open) {
      const lang = open[1];
      if ((lang === 'ts' || lang === 'typescript') && !open[2].includes('no-check'))
        fence = { code: [], line: i + 2 };
      else if (lang !== '') fence = { skip: true };
      continue;
    }
    if (fence !== null && body.startsWith('```')) {
      if (!fence.skip) {
        const block = { code: fence.code.join('\n'), line: fence.line, of: null };
        blocks.push(block);
        pending.push(block);
      }
      fence = null;
      continue;
    }
    if (fence !== null && !fence.skip) fence.code.push(body);
  }
  return blocks;
}

/** `packages/<dir>/node_modules/<name>` when installed there. */
function installed(dir, name) {
  const path = join(root, 'packages', dir, 'node_modules', name);
  return existsSync(path) ? [relative(out, path)] : null;
}

function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const where = new Map(); // generated file → source file
  const missing = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const pkgFile = join(root, 'packages', dir, 'package.json');
    if (!existsSync(pkgFile) || JSON.parse(readFileSync(pkgFile, 'utf8')).private) continue;
    const documented = new Set();
    for (const file of sources(join(root, 'packages', dir, 'src'))) {
      for (const block of examples(readFileSync(file, 'utf8'))) {
        if (block.of) documented.add(block.of);
        const name = `${relative(join(root, 'packages'), file).replace(/[/.]/g, '_')}_${block.line}.ts`;
        // Each block starts on the comment's line, so tsc's line numbers are the source's.
        writeFileSync(join(out, name), `${'\n'.repeat(block.line - 1)}${block.code}\nexport {};\n`);
        where.set(name, relative(root, file));
      }
    }
    for (const name of REQUIRED[dir] ?? []) if (!documented.has(name)) missing.push(`${dir}: ${name}`);
  }
  if (args.includes('--list')) for (const [name, file] of where) console.log(`${file}: ${name}`);
  const paths = {
    '@sieve/core': ['../packages/core/src/index.ts'],
    '@sieve/core/gpu': ['../packages/core/src/gpu/index.ts'],
    '@sieve/core/parallel': ['../packages/core/src/broadphase/parallel/index.ts'],
    '@sieve/matter': ['../packages/matter/src/index.ts'],
    '@sieve/overlay': ['../packages/overlay/src/index.ts'],
    '@sieve/cannon': ['../packages/cannon/src/index.ts'],
    '@sieve/cannon/convex': ['../packages/cannon/src/convex/index.ts'],
    '@sieve/three': ['../packages/three/src/index.ts'],
  };
  // The engines, from the adapters' own installs (this folder has no node_modules of its own).
  for (const [name, dir, from] of [
    ['cannon-es', 'cannon', 'cannon-es'],
    ['matter-js', 'matter', '@types/matter-js'],
    ['three', 'three', '@types/three'],
    ['three/*', 'three', '@types/three/*'],
    ['pixi.js', 'overlay', 'pixi.js'],
  ]) {
    const target = installed(dir, from.replace('/*', ''));
    if (target) paths[name] = from.endsWith('/*') ? [`${target[0]}/*`] : target;
  }
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify(
      {
        extends: '../tsconfig.base.json',
        compilerOptions: {
          noEmit: true,
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: ['../node_modules/@types'],
          allowImportingTsExtensions: true,
          paths,
        },
        include: ['*.ts'],
      },
      null,
      2,
    ),
  );
  let failed = false;
  try {
    execFileSync(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (e) {
    failed = true;
    const text = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    // Report examples' errors at their source files; errors inside the sources are the packages' own.
    console.error(
      text.replace(/^(?:\.doc-examples\/)?(\S+?\.ts)\((\d+),(\d+)\)/gm, (m, file, line, col) => {
        const source = where.get(file);
        return source ? `${source}(${line},${col}) [TSDoc example]` : m;
      }),
    );
  }
  if (!args.includes('--keep')) rmSync(out, { recursive: true, force: true });
  if (missing.length > 0) {
    failed = true;
    console.error(`doc-examples: no checked \`\`\`ts example in the TSDoc of ${missing.join(', ')}`);
  }
  if (failed) {
    console.error('doc-examples: TSDoc examples with type errors (above)');
    process.exitCode = 1;
  } else console.log(`doc-examples: ${where.size} TSDoc examples type-check`);
}

main();
