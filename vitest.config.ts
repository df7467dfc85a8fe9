import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
    include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // One temporary folder for the run, removed at its end (test/support/tempRoot.ts).
    globalSetup: ['./test/support/tempRoot.ts'],
    // Files in parallel on every core: vitest's default leaves one core to its own process, which on a
    // 2-core machine runs the files one at a time while the second core idles (most files are one busy
    // thread; the browser tests mostly wait on Chromium).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
