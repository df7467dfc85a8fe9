/**
 * The consumer check's bundle-size step: the default pages of `defaultPages.json` bundled from the packed
 * packages installed in a project (`tsx test/bundle/tarballs.ts <project folder>`), as a user's bundler
 * makes them, held to the limits the size test holds the sources to. Prints the sizes; exits with 1 and
 * says which page when one is over its limit (or measured nothing).
 */
import { DEFAULT_PAGES, measurePage } from './pages.js';

const project = process.argv[2];
if (!project) throw new Error('usage: tsx test/bundle/tarballs.ts <project folder>');
const pages = Object.entries(DEFAULT_PAGES);
// Side by side: esbuild spreads each over the cores anyway.
const measured = await Promise.all(pages.map(([, page]) => measurePage(page.code, page.external, project)));
const failures: string[] = [];
pages.forEach(([name, { limit }], i) => {
  const { sieve } = measured[i];
  if (sieve > limit || sieve < limit / 4)
    failures.push(`the ${name} page holds ${sieve} bytes of Sieve's tarballs (limit ${limit})`);
});
console.log(pages.map(([name], i) => `${name} ${(measured[i].sieve / 1000).toFixed(1)} kB`).join(', '));
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exitCode = 1;
}
