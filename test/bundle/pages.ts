/**
 * What a user's bundle holds of Sieve: small pages bundled with esbuild (ESM, minified, for the
 * browser) and measured module by module from its metafile. The `@sieve/*` packages are taken from
 * their TypeScript sources (as the vitest config does; their published ESM is the same modules, built by
 * tsup with esbuild), the engines from their installed packages or left external.
 *
 * Used by `size.test.ts` (the limits) and `report.ts` (`pnpm size`: the table in the READMEs).
 */

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { mangleOptions } from '../../scripts/mangle.js';
import { pureModuleScope } from '../../scripts/pure.js';
import defaultPages from './defaultPages.json';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = (p: string) => `${root}packages/${p}`;

/** The `@sieve/*` import paths and their sources (sub-paths first). */
const ALIAS: Record<string, string> = {
  '@sieve/core/gpu': src('core/src/gpu/index.ts'),
  '@sieve/core/parallel': src('core/src/broadphase/parallel/index.ts'),
  '@sieve/core': src('core/src/index.ts'),
  '@sieve/cannon/convex': src('cannon/src/convex/index.ts'),
  '@sieve/cannon': src('cannon/src/index.ts'),
  '@sieve/matter': src('matter/src/index.ts'),
  '@sieve/overlay': src('overlay/src/index.ts'),
};

/** A measured page. */
export interface Measured {
  /** Minified bytes of the whole bundle. */
  total: number;
  /** Of those, bytes from the `@sieve/*` packages. */
  sieve: number;
  /** Of those, bytes from an engine bundled in (cannon-es, matter-js). */
  engine: number;
  /** Gzipped bytes of the whole bundle. */
  gzip: number;
  /** Bytes in the bundle per source module, `core/src/…` or `cannon/src/…` (only those with bytes). */
  modules: Map<string, number>;
}

/**
 * Bundles `code` (an ES module importing `@sieve/*` and the engines) and measures it. `external`: the
 * packages left out of the bundle (the engines, by default, as the brief of each page says).
 * `installed`: a project folder whose `node_modules` holds the packed packages, to measure those
 * instead of the sources (the consumer check's tarballs; their private names are shortened already).
 */
export async function measurePage(
  code: string,
  external: string[] = [],
  installed?: string,
): Promise<Measured> {
  const result = await build({
    // Resolved from this workspace package, which depends on the engines, or from the project.
    stdin: { contents: code, resolveDir: installed ?? `${root}test`, loader: 'js', sourcefile: 'page.js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    ...(installed
      ? // An empty tsconfig, given inline: no tsconfig above the project's folder may map `@sieve/*`
        // elsewhere (esbuild then reads none).
        { absWorkingDir: installed, tsconfigRaw: '{}' }
      : // The private names shortened and the load-time initializers marked pure, as the packages'
        // builds do (see scripts/mangle.ts and scripts/pure.ts): what a page of the published build weighs.
        { ...mangleOptions(), alias: ALIAS, plugins: [pureModuleScope()] }),
    // Node-only paths of the parallel broadphase and the GPU pass (never reached in a browser).
    external: [...external, 'node:*', 'worker_threads', 'webgpu'],
    logLevel: 'error',
  });
  const out = result.outputFiles[0].contents;
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  // A module of Sieve's: `packages/<name>/…` of the sources, `node_modules/@sieve/<name>/…` installed.
  const ours = installed ? 'node_modules/@sieve/' : 'packages/';
  const modules = new Map<string, number>();
  let sieve = 0;
  let engine = 0;
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    if (bytesInOutput === 0) continue;
    const at = path.lastIndexOf(ours);
    if (at >= 0 && (installed || !path.includes('node_modules'))) {
      sieve += bytesInOutput;
      modules.set(path.slice(at + ours.length), bytesInOutput);
    } else if (path.includes('node_modules')) engine += bytesInOutput;
  }
  return { total: out.length, sieve, engine, gzip: gzipSync(out).length, modules };
}

/**
 * The default pages with their limits in minified bytes of Sieve's share (also read by the consumer
 * check, which bundles them from the packed tarballs).
 */
export const DEFAULT_PAGES: Record<
  'cannon' | 'matter' | 'sweepAndPrune' | 'overlay',
  { code: string; external: string[]; limit: number }
> = defaultPages;

/** The pages measured: what a first page of each package imports and calls. */
export const PAGES = {
  /** `installSieve(world)` with every default (cannon-es left external). */
  cannon: DEFAULT_PAGES.cannon.code,
  /** The same page with cannon-es bundled in: cannon-es's own share of it. */
  cannonWithEngine: DEFAULT_PAGES.cannon.code,
  /** `installSieveLite(world)`: the cannon page without the narrowphase additions. */
  cannonLite:
    "import { World } from 'cannon-es'; import { installSieveLite } from '@sieve/cannon'; installSieveLite(new World());",
  /** `installSieve(engine)` with every default (matter-js left external). */
  matter: DEFAULT_PAGES.matter.code,
  /** The core's sweep and prune alone. */
  sweepAndPrune: DEFAULT_PAGES.sweepAndPrune.code,
  /** The overlay's recorder and canvas panel. */
  overlay: DEFAULT_PAGES.overlay.code,
  /** Opt-in parts, each alone: what a page pays when it asks for one. */
  bullets: "import { setBullet } from '@sieve/cannon'; console.log(setBullet);",
  convex:
    "import { World } from 'cannon-es'; import { installSieve } from '@sieve/cannon'; import { convexContacts } from '@sieve/cannon/convex'; installSieve(new World(), { narrowphase: { convex: convexContacts } });",
  ocsiBatch: "import { OcsiBatch } from '@sieve/core'; console.log(OcsiBatch);",
  gpu: "import { GpuMeshMesh } from '@sieve/core/gpu'; console.log(GpuMeshMesh);",
  parallel:
    "import { ParallelSweepAndPrune } from '@sieve/core/parallel'; console.log(ParallelSweepAndPrune);",
  octree: "import { Octree } from '@sieve/core'; console.log(new Octree({ dimensions: 3 }));",
} as const;

/** Which engine each page leaves external. */
export const EXTERNAL: Record<keyof typeof PAGES, string[]> = {
  cannon: ['cannon-es'],
  cannonWithEngine: [],
  cannonLite: ['cannon-es'],
  matter: ['matter-js'],
  sweepAndPrune: [],
  overlay: [],
  bullets: ['cannon-es'],
  convex: ['cannon-es'],
  ocsiBatch: [],
  gpu: [],
  parallel: [],
  octree: [],
};

/**
 * Modules of the large opt-in parts: a page has them only if it imports them (the OCSI WebAssembly
 * kernel, the WebGPU pass, the region-parallel broadphase, the Octree — passed to the adapters as an
 * instance —, the bullets' sweep with core's continuous collision, and cannon's convex contact
 * generator of `@sieve/cannon/convex`).
 */
export const OPT_IN: Record<'ocsiBatch' | 'gpu' | 'parallel' | 'octree' | 'bullets' | 'convex', RegExp> = {
  octree: /^core\/src\/broadphase\/octree\/(Octree|placement)\.ts$/,
  ocsiBatch: /^core\/src\/narrowphase\/(wasm\/|ocsiBatch\.ts)/,
  gpu: /^core\/src\/gpu\//,
  parallel: /^core\/src\/broadphase\/parallel\//,
  bullets: /^(cannon\/src\/bullets\/(system|sweep)\.ts|core\/src\/ccd\/toi)/,
  // The convex generator and the OCSI sphere–box and box–box handlers (values of `@sieve/cannon/convex`).
  convex: /^(cannon\/src\/(convex\/|boxContacts\.ts)|core\/src\/narrowphase\/(obbObb|ocsi))/,
};

/** Measures every page (one after the other: esbuild uses the cores itself). */
export async function measureAll(): Promise<Record<keyof typeof PAGES, Measured>> {
  const out = {} as Record<keyof typeof PAGES, Measured>;
  for (const name of Object.keys(PAGES) as (keyof typeof PAGES)[])
    out[name] = await measurePage(PAGES[name], EXTERNAL[name]);
  return out;
}
