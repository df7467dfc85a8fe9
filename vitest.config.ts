import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Test files whose modules no file leaves changed (see `projects` below). */
const SHARED = [
  'packages/core/test/**/*.test.ts',
  'packages/cannon/test/**/*.test.ts',
  'packages/three/test/**/*.test.ts',
  'packages/overlay/test/**/*.test.ts',
  'examples/cannon-trimesh/test/**/*.test.ts',
  'examples/three-fps/test/**/*.test.ts',
  'test/bundle/**/*.test.ts',
];

// Tests run against the TypeScript sources, not the built packages.
export default defineConfig({
  resolve: {
    alias: {
      // Sub-path entries first: '@sieve/core' would otherwise match them as a prefix.
      '@sieve/core/gpu': src('./packages/core/src/gpu/index.ts'),
      '@sieve/core/parallel': src('./packages/core/src/broadphase/parallel/index.ts'),
      '@sieve/core': src('./packages/core/src/index.ts'),
      '@sieve/matter': src('./packages/matter/src/index.ts'),
      '@sieve/overlay': src('./packages/overlay/src/index.ts'),
      '@sieve/cannon/convex': src('./packages/cannon/src/convex/index.ts'),
      '@sieve/cannon': src('./packages/cannon/src/index.ts'),
      '@sieve/three': src('./packages/three/src/index.ts'),
    },
  },
  test: {
    testTimeout: 60_000,
    pool: 'forks',
    // One temporary folder for the run, removed at its end (test/support/tempRoot.ts).
    globalSetup: ['./test/support/tempRoot.ts'],
    // Files in parallel on every core: vitest's default leaves one core to its own process, which on a
    // 2-core machine runs the files one at a time while the second core idles (most files are one busy
    // thread; the browser tests mostly wait on Chromium).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          // Sieve's own modules, cannon-es (Sieve installs per world) and three.js (the one prototype
          // patch is put back in a finally): no file leaves a module changed, so the files of a test
          // process share their imports instead of loading them again for each file.
          name: 'shared',
          include: SHARED,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // matter-js carries Sieve's wrappers in its module while any engine has Sieve installed, and
          // the fault tests leave cannon-es's module-level event lists full (a listener that throws
          // inside step()); these files compare against a pristine stock engine, so each gets fresh
          // modules.
          name: 'isolated',
          include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED],
        },
      },
    ],
  },
});
