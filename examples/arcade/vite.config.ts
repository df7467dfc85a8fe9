import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Cross-origin isolation (`Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Embedder-Policy:
 * require-corp`): SharedArrayBuffer for a parallel broadphase, and performance.now() at 5 µs instead of
 * 100 µs, which the timing overlay needs to see sub-millisecond phases. One source for every server:
 * `public/_headers` (Netlify / Cloudflare Pages format), copied into the built site; `vite dev` and
 * `vite preview` send the headers it gives `/*`.
 */
function siteHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  let all = false;
  for (const line of readFileSync(src('./public/_headers'), 'utf8').split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) all = line.trim() === '/*';
    else if (all) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  return headers;
}
const isolation = siteHeaders();

// The @sieve packages resolve to their TypeScript sources, so a fresh clone builds the game without
// building the packages first.
export default defineConfig({
  base: './',
  resolve: {
    alias: [
      // Sub-path entry first: '@sieve/core' would otherwise match it as a prefix.
      {
        find: '@sieve/core/parallel',
        replacement: src('../../packages/core/src/broadphase/parallel/index.ts'),
      },
      { find: '@sieve/core', replacement: src('../../packages/core/src/index.ts') },
      { find: '@sieve/matter', replacement: src('../../packages/matter/src/index.ts') },
      { find: '@sieve/overlay', replacement: src('../../packages/overlay/src/index.ts') },
      // The parallel broadphase starts its region workers from `./parallel-worker.js` next to it: its
      // built name; from the sources, that is the TypeScript worker entry.
      {
        find: /^.*\/broadphase\/parallel\/parallel-worker\.js$/,
        replacement: src('../../packages/core/src/broadphase/parallel/worker.ts'),
      },
    ],
    // One copy of each, whichever package imports it.
    dedupe: ['matter-js', 'pixi.js'],
  },
  // Module workers: the parallel mode's physics worker, and the broadphase's region workers it starts.
  worker: { format: 'es' },
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
