/**
 * `@sieve/matter` never imports `@sieve/core/parallel`: a bundler must not ship the region-parallel
 * worker machinery to matter-js users who never ask for it (they pass an instance they imported
 * themselves). Checked twice: no import of it in the sources, and none in the import graph esbuild (the
 * bundler tsup itself uses) follows from the package entry — first with `@sieve/core` external, as the
 * published build has it, then with `@sieve/core` bundled from its sources, as an application's bundler
 * would see it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const srcDir = here('../src');

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }>;
}

/** Bundles the package entry with esbuild (resolved from tsup, whose dependency it is). */
function bundle(external: string[], alias: Record<string, string>): Metafile {
  const requireFromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
  const esbuild = requireFromTsup('esbuild') as { buildSync(o: object): { metafile: Metafile } };
  return esbuild.buildSync({
    entryPoints: [join(srcDir, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    outdir: 'out',
    metafile: true,
    logLevel: 'silent',
    external,
    alias,
  }).metafile;
}

describe('@sieve/matter without @sieve/core/parallel', () => {
  it('no source file imports it (static, dynamic, re-export or require)', () => {
    const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('index.ts');
    // TypeScript's own scanner: import/export-from statements, import() and require(), not the
    // mentions in comments and messages (which tell users where the parallel broadphase lives).
    const found: string[] = [];
    let all = 0;
    for (const f of files) {
      const text = readFileSync(join(srcDir, f), 'utf8');
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        all++;
        if (/core\/parallel|broadphase\/parallel/.test(fileName)) found.push(`${f}: ${fileName}`);
      }
    }
    expect(all).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });

  it("the bundle's import graph holds neither the sub-path nor the parallel sources", () => {
    const published = bundle(['@sieve/core', '@sieve/core/*', 'matter-js'], {});
    const imports = Object.values(published.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports).toContain('@sieve/core');
    expect(imports.filter((p) => p.includes('parallel'))).toEqual([]);

    const app = bundle(['matter-js'], { '@sieve/core': here('../../core/src/index.ts') });
    const inputs = Object.keys(app.inputs);
    expect(inputs.some((p) => p.includes('core/src/broadphase/sap/'))).toBe(true);
    expect(inputs.filter((p) => p.includes('/parallel/'))).toEqual([]);
  });
});
