import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The @sieve packages resolve to their TypeScript sources (exact names: sub-path entries stay
// separate), so a fresh clone runs the game without building the packages first.
export default defineConfig({
  base: './',
  resolve: {
    alias: [
      { find: /^@sieve\/core$/, replacement: src('../../packages/core/src/index.ts') },
      { find: /^@sieve\/three$/, replacement: src('../../packages/three/src/index.ts') },
    ],
    // One copy of three.js, whichever package imports it.
    dedupe: ['three'],
  },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  preview: { host: '127.0.0.1', port: 4175, strictPort: true },
  server: { host: '127.0.0.1', port: 5175 },
});
