import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Cross-origin isolation: browsers then give performance.now() 5 µs resolution instead of 100 µs, which
// the timing overlay needs to see sub-millisecond phases.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The @sieve packages resolve to their TypeScript sources, so a fresh clone builds the game without
// building the packages first.
export default defineConfig({
  base: './',
  resolve: {
    alias: {
      '@sieve/core': src('../../packages/core/src/index.ts'),
      '@sieve/matter': src('../../packages/matter/src/index.ts'),
      '@sieve/overlay': src('../../packages/overlay/src/index.ts'),
    },
    // One copy of each, whichever package imports it.
    dedupe: ['matter-js', 'pixi.js'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    sourcemap: false,
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: isolation },
  server: { host: '127.0.0.1', headers: isolation },
});
