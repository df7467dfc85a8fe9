/**
 * `pnpm size`: the bundle weight of each page of `pages.ts` (esbuild, minified; gzip of the whole
 * page), and the largest modules of the adapters' default pages — the table of the READMEs.
 */
import { measureAll } from './pages.js';

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const pages = await measureAll();
console.log('page                   Sieve (min)   page (min)   page (gzip)');
for (const [name, m] of Object.entries(pages))
  console.log(
    `${name.padEnd(22)} ${kB(m.sieve).padStart(11)} ${kB(m.total).padStart(12)} ${kB(m.gzip).padStart(13)}`,
  );
console.log(`\ncannon-es's own share of the cannon page: ${kB(pages.cannonWithEngine.engine)}`);
for (const name of ['cannon', 'matter'] as const) {
  const folders = new Map<string, number>();
  for (const [path, bytes] of pages[name].modules) {
    const folder = path.replace(/\/[^/]+$/, '');
    folders.set(folder, (folders.get(folder) ?? 0) + bytes);
  }
  console.log(`\n${name} page by folder:`);
  for (const [folder, bytes] of [...folders].sort((a, b) => b[1] - a[1]))
    console.log(`  ${kB(bytes).padStart(9)}  ${folder}`);
}
