import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Cross-origin isolation headers (from `public/_headers`, copied into the built site): they give
 * performance.now() 5 µs resolution instead of 100 µs, which the timing overlay needs for
 * sub-millisecond phases. `vite dev` and `vite preview` send them too.
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

// `PHASER=4 vite build` builds the same game on Phaser 4 (the `phaser4` alias of phaser@4.x), into
// dist/phaser4/ (build Phaser 3 first: its build empties dist/); the default is Phaser 3.
const phaser4 = process.env.PHASER === '4';

// The @sieve packages resolve to their TypeScript sources, so a fresh clone runs the game without
// building the packages first.
export default defineConfig({
  base: './',
  resolve: {
    alias: [
      { find: '@sieve/core', replacement: src('../../packages/core/src/index.ts') },
      { find: '@sieve/matter', replacement: src('../../packages/matter/src/index.ts') },
      { find: '@sieve/overlay', replacement: src('../../packages/overlay/src/index.ts') },
      ...(phaser4 ? [{ find: /^phaser$/, replacement: 'phaser4' }] : []),
    ],
    dedupe: ['phaser'],
  },
  build: {
    outDir: phaser4 ? 'dist/phaser4' : 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
  },
  preview: { host: '127.0.0.1', port: 4174, strictPort: true, headers: isolation },
  server: { host: '127.0.0.1', port: 5174, headers: isolation },
});
