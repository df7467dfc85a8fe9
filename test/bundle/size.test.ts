/**
 * Bundle weight: what a page pays for Sieve, measured with esbuild (minified; see `pages.ts`). The
 * default page of each adapter stays under its limit, the large opt-in parts (OCSI's WebAssembly
 * kernel, the WebGPU pass, the region-parallel broadphase, the bullets' sweep with core's continuous
 * collision, cannon's convex contact generator) are only in pages that import them, and nothing runs at import time (a package imported
 * for one small export ships that export alone). `pnpm size` prints the table of the READMEs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAGES, type Measured, measureAll, measurePage, OPT_IN, type PAGES } from './pages.js';

let pages: Record<keyof typeof PAGES, Measured>;
beforeAll(async () => {
  pages = await measureAll();
}, 120_000);

const has = (m: Measured, pattern: RegExp) => [...m.modules.keys()].filter((k) => pattern.test(k));

describe('bundle weight (esbuild, minified)', () => {
  /**
   * The limits, in minified bytes of Sieve's share, are in `defaultPages.json` (the consumer check holds
   * the packed tarballs to them too): the measurements of this code when they were set (`pnpm size`:
   * cannon 132.9, matter 74.6, SweepAndPrune 46.3, Overlay 20.8 kB; cannon 133.8 since its box contacts
   * keep their points on the triangle, 134.1 since installSieve shares its code with installSieveLite;
   * matter 29.8 since its broadphase is the caller's to pass; cannon 77.0 since it too runs a sort and
   * sweep unless a tree is passed, the OCSI handlers are values of `@sieve/cannon/convex` and the BVH
   * query cannon uses no longer brings the `MeshBVH` class; SweepAndPrune 47.1 since it lays its
   * regions out in visit order and reads bounds ahead, 53.8 since its busy updates' passes run in a
   * 1.4 kB WebAssembly kernel embedded as base64) plus about 3 %; lower them when the bundles
   * shrink, and think twice before raising one. (Targets, both met: the cannon page no heavier than
   * cannon-es's own share of it, 82 kB, and the matter page 50 kB.)
   */
  it('the default pages stay under their limits', () => {
    for (const [name, { limit }] of Object.entries(DEFAULT_PAGES)) {
      const m = pages[name as keyof typeof PAGES];
      expect(m.sieve, `${name}: ${m.sieve} bytes of Sieve`).toBeLessThanOrEqual(limit);
      expect(m.sieve).toBeGreaterThan(limit / 4); // measured something
    }
    // The engine, when bundled, is counted apart.
    expect(pages.cannonWithEngine.engine).toBeGreaterThan(50_000);
    // (the same modules; minified names differ a little)
    expect(Math.abs(pages.cannonWithEngine.sieve - pages.cannon.sieve)).toBeLessThan(
      pages.cannon.sieve / 100,
    );
  });

  it("the cannon page: no tree (the caller passes one), and no heavier than cannon-es's own share", () => {
    const cannon = pages.cannon;
    expect(has(cannon, /^core\/src\/broadphase\/(sap|octree|parallel)\//)).toEqual([]);
    expect(has(cannon, /^cannon\/src\/sweep\.ts$/).length).toBe(1);
    expect(has(cannon, /^core\/src\/bvh\/MeshBVH\.ts$/)).toEqual([]); // the trimesh contacts query a plain tree
    expect(cannon.sieve).toBeLessThanOrEqual(pages.cannonWithEngine.engine);
  });

  it("installSieveLite's page: no narrowphase additions, and far lighter than the full page", () => {
    const lite = pages.cannonLite;
    expect(has(lite, /^(core\/src\/(bvh|narrowphase)\/|cannon\/src\/(hull\/|narrowphase|trimesh))/)).toEqual(
      [],
    );
    expect(has(lite, /^cannon\/src\/sweep\.ts$/).length).toBe(1);
    expect(lite.sieve).toBeLessThan(pages.cannon.sieve * 0.5);
  });

  it('the matter page: no broadphase (the caller passes one), and under the 50 kB target', () => {
    const matter = pages.matter;
    expect(has(matter, /^core\/src\/broadphase\/(sap|octree|parallel)\//)).toEqual([]);
    expect(has(matter, /^matter\/src\/sweep\.ts$/).length).toBe(1);
    expect(matter.sieve).toBeLessThanOrEqual(50_000);
  });

  it('the large opt-in parts are only in pages that import them', () => {
    for (const [part, pattern] of Object.entries(OPT_IN)) {
      for (const page of ['cannon', 'cannonLite', 'matter', 'sweepAndPrune'] as const)
        expect(has(pages[page], pattern), `${part} in the ${page} page`).toEqual([]);
      expect(
        has(pages[part as keyof typeof OPT_IN], pattern).length,
        `${part} in its own page`,
      ).toBeGreaterThan(0);
    }
    // One opt-in part does not bring another.
    expect(has(pages.gpu, OPT_IN.parallel)).toEqual([]);
    expect(has(pages.parallel, OPT_IN.gpu)).toEqual([]);
    expect(has(pages.ocsiBatch, OPT_IN.bullets)).toEqual([]);
  });

  it('nothing runs at import time: a package imported for one small export ships that export alone', async () => {
    for (const name of ['@sieve/core', '@sieve/cannon', '@sieve/matter', '@sieve/overlay']) {
      const bare = await measurePage(`import '${name}';`, ['cannon-es', 'matter-js']);
      expect(bare.total, `import '${name}'`).toBe(0);
    }
    const grow = await measurePage("import { growArray } from '@sieve/core'; console.log(growArray);");
    expect([...grow.modules.keys()]).toEqual(['core/src/growArray.ts']);
    const mark = await measurePage("import { isBullet } from '@sieve/matter'; console.log(isBullet);", [
      'matter-js',
    ]);
    expect(mark.sieve).toBeLessThan(2_000);
  });
});
