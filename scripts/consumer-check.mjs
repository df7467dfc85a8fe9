#!/usr/bin/env node
/**
 * Consumer check: what a user of the published packages gets. Packs the five packages from a clean tree
 * — each package's `dist/` removed first, as in a fresh clone, so the tarball holds only what its
 * `prepack` build made (`pnpm pack` in dependency order, two at a time: `@sieve/core` before the packages that use it) — checks that every
 * package has that `prepack` and names the other Sieve packages by plain version ranges (what `npm pack`
 * ships: it leaves `workspace:` ranges as written), checks each tarball's contents (LICENSE, README.md, every `exports` target), installs the
 * tarballs with npm into a throw-away project in a temp folder together with cannon-es 0.20.0,
 * matter-js 0.20.0, @types/matter-js and pixi.js, then for each TypeScript version (by default 5.0,
 * the oldest the packages support, the newest 5.x — what both accept, the versions between accept
 * too — and 7, the native compiler, what `npm install typescript` gives today) type-checks
 * scripts/consumer/api.ts, api.cts, an import of every `exports`
 * subpath (ESM, and CommonJS where built) and every ```ts block of the packages' READMEs with
 * `skipLibCheck: false`, in `nodenext` and in `bundler` resolution (and, with the newest TypeScript
 * only, api-pixi.ts: pixi.js 8's own declarations need TypeScript 5.7+; and, with the newest 5.x, every
 * entry point in `node10` resolution, TypeScript's default for a CommonJS project before 6, which reads
 * `typesVersions`). Meanwhile
 * it runs the README examples (compiled with the newest TypeScript) and an ESM and a CommonJS smoke test
 * of each package with Node, and bundles the default pages from the tarballs against the size test's
 * limits (test/bundle/tarballs.ts).
 *
 * Usage: node scripts/consumer-check.mjs [--keep] [--ts 5.0,5,7]
 * README fences: ```ts is checked and run, ```ts check-only is only type-checked (browser code), any
 * other fence is skipped.
 */
import { execFile as execFileCb, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { downlevel } from './downlevel-dts.mjs';
import { typescript7 } from './tsc.mjs';

const execFile = promisify(execFileCb);
const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'scripts', 'consumer');
const PACKAGES = ['core', 'cannon', 'matter', 'overlay', 'three'];
const ENGINES = {
  'cannon-es': '0.20.0',
  'matter-js': '0.20.0',
  '@types/matter-js': '^0.20.2',
  'pixi.js': '^8.14.0',
  three: '~0.181.0',
  '@types/three': '~0.181.0',
};

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const tsAt = args.indexOf('--ts');
const tsVersions = tsAt >= 0 ? args[tsAt + 1].split(',') : ['5.0', '5', '7'];
/** The newest of the versions checked that still resolves `node10` (removed in TypeScript 6). */
const node10Version = [...tsVersions].reverse().find((v) => Number(v.split('.')[0]) < 6);
const started = Date.now();
const log = (msg) => console.log(`[consumer ${((Date.now() - started) / 1000).toFixed(0)}s] ${msg}`);

const npmArgs = ['--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'];

async function run(cmd, argv, cwd, what) {
  try {
    return await execFile(cmd, argv, { cwd, maxBuffer: 64 << 20, env: { ...process.env, FORCE_COLOR: '0' } });
  } catch (e) {
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim();
    throw new Error(`${what} failed:\n${out || e.message}`);
  }
}

/** Every file path an `exports` map points at (conditions and subpaths, recursively). */
function exportTargets(exp, out = []) {
  if (typeof exp === 'string') out.push(exp.replace(/^\.\//, ''));
  else if (exp && typeof exp === 'object') for (const v of Object.values(exp)) exportTargets(v, out);
  return out;
}

/** The workspace's own TypeScript packages: 5.9 (the build's) and 7 (the type checks', scripts/tsc.mjs). */
const WORKSPACE_TYPESCRIPT = [join(root, 'node_modules', 'typescript'), typescript7];

/** The version of the package in `dir`. */
function packageVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** Whether `version` (x.y.z) is what the range `wanted` (`x`, `x.y` or `x.y.z`) asks for. */
function versionMatches(version, wanted) {
  const have = version.split('.');
  return wanted.split('.').every((part, i) => part === have[i]);
}

/**
 * Third-party declarations that fail to compile with `skipLibCheck: false` for every user of some
 * TypeScript versions, with or without Sieve (`import 'three'` alone shows them):
 * - before 5.5, `@types/three` 0.181 and the `@webgpu/types` it pulls in, which DefinitelyTyped no longer
 *   supports there (its window is two years);
 * - from 6 on, `@webgpu/types` (which `@types/three` references) against the WebGPU declarations that
 *   TypeScript's own DOM library now has: the same interfaces declared twice.
 * On those versions, a check whose every error lies in one of these files passes (Sieve's own
 * declarations are still checked with `skipLibCheck: false`); any error in another file fails it. Returns
 * a note naming the files, or '' when the check must fail.
 */
const THIRD_PARTY_TYPES = [
  {
    applies: (major, minor) => major < 5 || (major === 5 && minor < 5),
    files: {
      '@types/three': /^node_modules\/@types\/three\//,
      '@webgpu/types': /^node_modules\/@webgpu\/types\//,
    },
    why: 'which need TypeScript 5.5+',
  },
  {
    applies: (major) => major >= 6,
    files: {
      '@webgpu/types': /^node_modules\/@webgpu\/types\//,
      "TypeScript's lib.dom.d.ts": /(?:^|\/)lib\.dom\.d\.ts\(/,
    },
    why: "the WebGPU types that @types/three pulls in, declared again in TypeScript's DOM library from 6 on",
  },
];
function thirdPartyOnly(output, version) {
  const [major, minor] = version.split('.').map(Number);
  const rule = THIRD_PARTY_TYPES.find((r) => r.applies(major, minor));
  if (!rule) return '';
  const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
  if (errors.length === 0) return '';
  const where = new Set();
  for (const line of errors) {
    const name = Object.keys(rule.files).find((n) => rule.files[n].test(line));
    if (!name) return '';
    where.add(name);
  }
  return `${errors.length} errors inside ${[...where].join(' and ')}, ${rule.why}`;
}

/** The ```ts blocks of a README: { code, run } per block (`ts check-only` blocks are not run). */
function readmeBlocks(text) {
  const blocks = [];
  const re = /^```([^\n]*)\n([\s\S]*?)^```/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const info = m[1].trim().split(/\s+/);
    if (info[0] !== 'ts' && info[0] !== 'typescript') continue;
    if (info.includes('no-check')) continue;
    blocks.push({ code: m[2], run: !info.includes('check-only') });
  }
  return blocks;
}

/** The consumer project's compiler options for `nodenext`, `bundler` or `node10` resolution. */
function tsconfig(resolution, include, extra = {}) {
  const [module, moduleResolution] = {
    nodenext: ['NodeNext', 'NodeNext'],
    bundler: ['ESNext', 'Bundler'],
    // TypeScript's default for `module: commonjs`: no `exports` maps, so subpaths need `typesVersions`.
    node10: ['CommonJS', 'Node10'],
  }[resolution];
  return {
    compilerOptions: {
      target: 'ES2022',
      module,
      moduleResolution,
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      skipLibCheck: false,
      esModuleInterop: true,
      moduleDetection: 'force',
      noEmit: true,
      ...extra,
    },
    include,
  };
}

/** The declaration rewriting itself, on constructs the packages do not emit today. */
function checkDownlevel() {
  const input =
    'declare function f(a: Float64Array<ArrayBuffer>, b: Map<string, Uint8Array<ArrayBufferLike>>): ' +
    'ArrayIterator<[number, Int32Array<ArrayBuffer>]>;\n' +
    'declare function g<T>(x: NoInfer<T>, d: DataView<ArrayBuffer>): MapIterator<string>;\n' +
    'type I = IteratorObject<number, BuiltinIteratorReturn, unknown>; type K = MyFloat64Array<X>;';
  const expected =
    'declare function f(a: Float64Array, b: Map<string, Uint8Array>): IterableIterator<[number, Int32Array]>;\n' +
    'declare function g<T>(x: (T), d: DataView): IterableIterator<string>;\n' +
    'type I = IterableIterator<number>; type K = MyFloat64Array<X>;';
  const output = downlevel(input);
  if (output !== expected)
    throw new Error(`downlevel-dts rewrote\n${input}\nto\n${output}\nnot\n${expected}`);
}

async function main() {
  checkDownlevel();
  const temp = mkdtempSync(join(tmpdir(), 'sieve-consumer-'));
  // What needs nothing packed is installed at once, its downloads overlapping the packing's builds: one
  // TypeScript install per version, and the consumer project's engines (the tarballs are added to that
  // project once packed).
  const project = join(temp, 'project');
  mkdirSync(join(project, 'src', 'readme'), { recursive: true });
  const consumerManifest = (dependencies) =>
    JSON.stringify({ name: 'sieve-consumer', private: true, type: 'module', dependencies }, null, 2);
  writeFileSync(join(project, 'package.json'), consumerManifest(ENGINES));
  const enginesInstall = run(
    'npm',
    ['install', ...npmArgs],
    project,
    'npm install (consumer project engines)',
  );
  // Each TypeScript version's package folder: the workspace's own copy where its version is the one
  // asked for (`5` is 5.9.3, the last 5.x, and `7` the pinned 7.x: installing them again took 10+ CPU-s
  // for the same files), else a fresh install.
  const tsDirs = {};
  const tsInstalls = [];
  for (const v of tsVersions) {
    const own = WORKSPACE_TYPESCRIPT.find((dir) => versionMatches(packageVersion(dir), v));
    if (own) {
      tsDirs[v] = own;
      continue;
    }
    const dir = join(temp, 'typescript', v);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}');
    tsDirs[v] = join(dir, 'node_modules', 'typescript');
    tsInstalls.push(
      run('npm', ['install', ...npmArgs, `typescript@${v}`], dir, `npm install typescript@${v}`),
    );
  }
  // Failures are reported where the installs are awaited (below), not as unhandled rejections.
  for (const install of [enginesInstall, ...tsInstalls]) install.catch(() => {});
  try {
    // Packing must build: every published package has a `prepack` that does (a tarball without
    // `dist/` installs but cannot be imported). And `npm pack` ships the manifest as written (only
    // `pnpm pack` rewrites `workspace:` ranges), so a published package names the other Sieve packages
    // by a plain range that admits their version here ("^0.1.0"; linkWorkspacePackages links them).
    const versions = {};
    const manifests = [];
    for (const dir of readdirSync(join(root, 'packages')).sort()) {
      const file = join(root, 'packages', dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      versions[pkg.name] = pkg.version;
      if (!pkg.private) manifests.push(pkg);
    }
    for (const pkg of manifests) {
      if (!/\bbuild\b/.test(pkg.scripts?.prepack ?? ''))
        throw new Error(`${pkg.name}: no "prepack" script that builds (packing would ship no dist/)`);
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
        for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
          if (range.startsWith('workspace:'))
            throw new Error(
              `${pkg.name}: ${field} "${dep}": "${range}" — npm pack would ship it as is; write "^${versions[dep]}"`,
            );
          if (versions[dep] !== undefined && range !== `^${versions[dep]}`)
            throw new Error(
              `${pkg.name}: ${field} "${dep}": "${range}" — the workspace has ${versions[dep]}`,
            );
        }
    }
    // A clean tree: no dist/ left from an earlier build, so the tarballs hold what packing built.
    for (const name of PACKAGES)
      rmSync(join(root, 'packages', name, 'dist'), { recursive: true, force: true });
    log(`removed the dist/ of ${PACKAGES.join(', ')}; packing builds them (prepack)`);

    // Pack, and check what each tarball holds.
    const tarballs = join(temp, 'tarballs');
    mkdirSync(tarballs);
    const deps = { ...ENGINES };
    const readmes = {};
    // Every import path the packages export ('@sieve/core', '@sieve/core/parallel', …) and whether it has
    // a CommonJS build.
    const subpaths = [];
    // Packing builds (tsup, declarations included): two packages at a time (one per core on the CI
    // machine), a package only once every workspace package it depends on is packed (its declarations
    // are read from their dist/). The checks below go in PACKAGES order.
    const packed = {};
    const pending = [...PACKAGES];
    const packing = new Map();
    const workspaceDeps = (name) => {
      const pkg = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
      const all = { ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies };
      return PACKAGES.filter((other) => other !== name && all[`@sieve/${other}`] !== undefined);
    };
    const packer = async () => {
      for (;;) {
        const i = pending.findIndex((name) => workspaceDeps(name).every((dep) => packed[dep]));
        if (i < 0) {
          if (pending.length === 0) return;
          if (packing.size === 0) throw new Error(`cannot pack ${pending.join(', ')}: a dependency cycle`);
          // Wait for a dependency being packed by the other packer.
          await Promise.race(packing.values());
          continue;
        }
        const [name] = pending.splice(i, 1);
        const job = run(
          'pnpm',
          ['pack', '--pack-destination', tarballs],
          join(root, 'packages', name),
          `pnpm pack ${name}`,
        );
        packing.set(name, job);
        const { stdout } = await job;
        packing.delete(name);
        packed[name] = stdout.trim().split('\n').pop().trim();
      }
    };
    await Promise.all([packer(), packer()]);
    for (const name of PACKAGES) {
      const tgz = packed[name];
      const files = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' })
        .split('\n')
        .map((f) => f.replace(/^package\//, ''));
      const manifest = JSON.parse(
        execFileSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' }),
      );
      const wanted = ['LICENSE', 'README.md', 'package.json', ...exportTargets(manifest.exports)];
      const missing = wanted.filter((f) => !files.includes(f));
      if (missing.length > 0) throw new Error(`${basename(tgz)} lacks ${missing.join(', ')}`);
      for (const field of ['license', 'repository', 'homepage', 'bugs', 'keywords', 'engines'])
        if (manifest[field] === undefined)
          throw new Error(`${manifest.name}: package.json has no "${field}"`);
      if (JSON.stringify(manifest).includes('workspace:'))
        throw new Error(`${manifest.name}: packed package.json still has a workspace: range`);
      for (const [key, target] of Object.entries(manifest.exports ?? {}))
        if (key.startsWith('.') && !key.endsWith('.json'))
          subpaths.push({
            path: manifest.name + key.slice(1),
            cjs:
              typeof target === 'string'
                ? target.endsWith('.cjs') || (manifest.type !== 'module' && target.endsWith('.js'))
                : 'require' in target,
          });
      readmes[name] = execFileSync('tar', ['-xzOf', tgz, 'package/README.md'], { encoding: 'utf8' });
      deps[manifest.name] = `file:${tgz}`;
    }
    log(
      `packed ${PACKAGES.length} tarballs from a clean tree; LICENSE, README.md and every exports target present`,
    );

    // The consumer project: the tarballs added to its engines (the TypeScript installs run meanwhile).
    const withTarballs = (async () => {
      await enginesInstall;
      writeFileSync(join(project, 'package.json'), consumerManifest(deps));
      await run('npm', ['install', ...npmArgs], project, 'npm install (consumer project)');
    })();
    await Promise.all([withTarballs, ...tsInstalls]);
    log(`installed tarballs, engines and TypeScript ${tsVersions.join(', ')}`);

    for (const f of ['api.ts', 'api.cts', 'api-pixi.ts'])
      copyFileSync(join(fixtures, f), join(project, 'src', f));
    for (const f of ['smoke.mjs', 'smoke.cjs']) copyFileSync(join(fixtures, f), join(project, f));
    // Every entry point, imported once from ESM and once from CommonJS: its declarations are then checked
    // too, including entry points added after this script was written.
    const esm = subpaths.map((e, i) => `import * as e${i} from '${e.path}';`);
    writeFileSync(
      join(project, 'src', 'entries.ts'),
      `${esm.join('\n')}\nexport const count = ${esm.length};\n`,
    );
    const cjs = subpaths.filter((e) => e.cjs).map((e, i) => `import e${i} = require('${e.path}');`);
    writeFileSync(join(project, 'src', 'entries.cts'), `${cjs.join('\n')}\nexport = ${cjs.length};\n`);
    const runnable = [];
    for (const name of PACKAGES) {
      readmeBlocks(readmes[name]).forEach((block, i) => {
        const file = `${name}-${i + 1}.ts`;
        writeFileSync(join(project, 'src', 'readme', file), `${block.code}\nexport {};\n`);
        if (block.run) runnable.push(file.replace(/\.ts$/, '.js'));
      });
    }
    const api = ['src/api.ts', 'src/entries.ts', 'src/readme/*.ts'];
    const configs = {
      nodenext: tsconfig('nodenext', [...api, 'src/api.cts', 'src/entries.cts']),
      // The newest TypeScript's nodenext check also emits: the README examples are run from its output
      // (one compile of them, not a second one to emit).
      'nodenext-emit': tsconfig('nodenext', [...api, 'src/api.cts', 'src/entries.cts'], {
        noEmit: false,
        rootDir: 'src',
        outDir: 'out',
      }),
      bundler: tsconfig('bundler', api),
      // pixi.js 8's own declarations use TypeScript 5.7 syntax (generic typed arrays): newest only.
      'bundler-newest': tsconfig('bundler', [...api, 'src/api-pixi.ts']),
      // Every entry point as an older CommonJS project resolves it (newest only: the mapping is the same).
      node10: tsconfig('node10', ['src/entries.ts']),
    };
    for (const [name, config] of Object.entries(configs))
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));

    // The type checks, two at a time (one per core on the CI machine).
    const failures = [];
    const checks = [];
    // The newest version first: its nodenext check emits the README examples that run meanwhile.
    let emitted;
    const emittedPromise = new Promise((resolve) => {
      emitted = resolve;
    });
    for (const v of [...tsVersions].reverse()) {
      const compiler = join(tsDirs[v], 'bin', 'tsc');
      const version = packageVersion(tsDirs[v]);
      const newestVersion = v === tsVersions[tsVersions.length - 1];
      const resolutions = ['nodenext', newestVersion ? 'bundler-newest' : 'bundler'];
      // node10 is gone from TypeScript 6 on: checked with the newest version that still has it.
      if (v === node10Version) resolutions.push('node10');
      for (const resolution of resolutions)
        checks.push({
          tsc: compiler,
          version,
          resolution,
          config: newestVersion && resolution === 'nodenext' ? 'nodenext-emit' : resolution,
        });
    }
    const worker = async () => {
      for (let c = checks.shift(); c; c = checks.shift()) {
        try {
          await run(
            process.execPath,
            // Plain diagnostics (file(line,col): error …) from every version: TypeScript 7 colours them
            // even into a pipe.
            [c.tsc, '-p', `tsconfig.${c.config}.json`, '--pretty', 'false'],
            project,
            `tsc ${c.version}`,
          );
          log(`TypeScript ${c.version}, ${c.resolution}: no errors`);
        } catch (e) {
          const foreign = thirdPartyOnly(e.message, c.version);
          if (foreign) {
            log(`TypeScript ${c.version}, ${c.resolution}: no errors in Sieve (${foreign})`);
          } else {
            failures.push(`TypeScript ${c.version}, ${c.resolution}: ${e.message}`);
            log(`TypeScript ${c.version}, ${c.resolution}: ERRORS`);
          }
        }
        if (c.config === 'nodenext-emit') emitted();
      }
    };
    // The default pages bundled from the installed tarballs, as a user's bundler makes them (esbuild,
    // minified): the published builds stay under the limits the size test holds the sources to.
    const pageSizes = async () => {
      const tsx = join(root, 'node_modules', '.bin', 'tsx');
      const script = join(root, 'test', 'bundle', 'tarballs.ts');
      const { stdout } = await run(tsx, [script, project], root, 'bundle size of the tarballs');
      log(`default pages bundled from the tarballs (esbuild, minified): ${stdout.trim()}`);
    };
    // Meanwhile, run: the smoke tests, then the README examples (emitted by the newest TypeScript's
    // nodenext check; a type error there is reported by that check).
    const runs = async () => {
      for (const smoke of ['smoke.mjs', 'smoke.cjs']) {
        try {
          const { stdout } = await run(process.execPath, [smoke], project, smoke);
          log(stdout.trim());
        } catch (e) {
          failures.push(e.message);
        }
      }
      try {
        await pageSizes();
      } catch (e) {
        failures.push(e.message);
      }
      await emittedPromise;
      try {
        for (const file of runnable)
          await run(process.execPath, [join('out', 'readme', file)], project, `README example ${file}`);
        log(`ran ${runnable.length} README examples`);
      } catch (e) {
        failures.push(e.message);
      }
    };
    await Promise.all([worker(), worker(), runs()]);

    if (failures.length > 0) {
      console.error(`\nconsumer check failed:\n\n${failures.join('\n\n')}`);
      process.exitCode = 1;
    } else {
      log('consumer check passed');
    }
  } finally {
    // No npm left writing into the folder about to be removed (after a failure while packing).
    await Promise.allSettled([enginesInstall, ...tsInstalls]);
    if (flag('--keep')) log(`kept ${temp}`);
    else rmSync(temp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
