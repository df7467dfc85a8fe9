import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The @sieve packages resolve to their TypeScript sources (exact names first: `@sieve/core/gpu` is its
// own entry), so the page builds without building the packages first.
export default defineConfig({
  base: './',
  resolve: {
    alias: [
      { find: /^@sieve\/core\/gpu$/, replacement: src('../../packages/core/src/gpu/index.ts') },
      { find: /^@sieve\/core$/, replacement: src('../../packages/core/src/index.ts') },
      { find: /^@sieve\/cannon$/, replacement: src('../../packages/cannon/src/index.ts') },
      { find: /^@sieve\/cannon\/convex$/, replacement: src('../../packages/cannon/src/convex/index.ts') },
    ],
    // One copy of each, whichever package imports it.
    dedupe: ['cannon-es', 'three'],
  },
  build: { chunkSizeWarningLimit: 2000 },
});
