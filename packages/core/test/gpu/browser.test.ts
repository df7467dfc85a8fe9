/**
 * The GPU triangle pass in Debian's headless Chromium (playwright-core, never a downloaded browser) on
 * SwiftShader's WebGPU (`--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader`, no GPU needed):
 * bundles `page.ts` with esbuild into a temporary folder, serves it on 127.0.0.1 (WebGPU needs a secure
 * context; localhost is one) and checks the pass against the CPU queries on random, touching, coplanar,
 * degenerate, far-from-origin and deforming poses. Where this Chromium has no WebGPU the GPU case is
 * reported as skipped with the reason (set SIEVE_REQUIRE_WEBGPU=1 to fail instead); the CPU fallback
 * is checked either way.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions, closeServer, executablePath, serveDir } from '../../../../test/support/browser.js';
import type { PageReport } from './page.js';

const entry = fileURLToPath(new URL('./page.ts', import.meta.url));

describe('GPU triangle pass in headless Chromium (SwiftShader WebGPU)', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let dir = '';
  let report: PageReport | undefined;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(executablePath))
      throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install chromium)`);
    dir = mkdtempSync(join(tmpdir(), 'sieve-gpu-'));
    await build({
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      outfile: join(dir, 'page.js'),
      logLevel: 'warning',
    });
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>sieve gpu</title></head>' +
        '<body><script type="module" src="/page.js"></script></body></html>',
    );
    ({ server, url: serverUrl } = await serveDir(dir));
    browser = await chromium.launch(
      chromiumOptions(['--headless', '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader']),
    );
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    // Half of each scenario's poses, the scale the Node test runs: every scenario still runs, and the
    // test takes 11 CPU-s instead of 16 (SwiftShader's WebGPU runs on the CPU, beside the other suites).
    await page.goto(`${serverUrl}/?scale=0.5`);
    const read = () => (globalThis as { __gpuReport?: PageReport }).__gpuReport;
    await page.waitForFunction(
      () => (globalThis as { __gpuReport?: PageReport }).__gpuReport !== undefined,
      undefined,
      {
        timeout: 280_000,
      },
    );
    report = await page.evaluate(read);
  }, 300_000);

  let serverUrl = '';

  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the page without errors', () => {
    expect(report?.error ?? null).toBeNull();
    expect(errors).toEqual([]);
  });

  it('GPU pass equals the CPU query on every pose (pairs and hit data)', (ctx) => {
    const gpu = report!.gpu!;
    if (gpu.backend !== 'gpu') {
      const why = `no WebGPU in ${executablePath} (navigator.gpu ${report!.navigatorGpu ? 'present' : 'absent'}): ${gpu.info}`;
      if (process.env.SIEVE_REQUIRE_WEBGPU === '1') throw new Error(why);
      console.warn(`GPU pass NOT tested: ${why}`);
      ctx.skip();
      return;
    }
    console.info(
      `GPU pass on ${gpu.info}: ${gpu.cases.map((c) => `${c.name} ${c.poses} poses, ${c.pairs} pairs, ${c.uncertain} re-tested`).join('; ')} (${Math.round(gpu.ms)} ms)`,
    );
    expect(gpu.info).toMatch(/swiftshader/i);
    for (const c of gpu.cases) {
      expect(c.errors, c.name).toEqual([]);
      expect(c.poses, c.name).toBeGreaterThan(0);
    }
    const byName = Object.fromEntries(gpu.cases.map((c) => [c.name, c]));
    // The scenarios really are what they say: pairs found, and the coplanar and touching ones exercise
    // the float64 re-test while most random pairs are settled on the GPU.
    for (const name of ['random', 'touching', 'coplanar', 'degenerate', 'far', 'batch', 'deforming']) {
      expect(byName[name].pairs, name).toBeGreaterThan(0);
    }
    expect(byName.coplanar.uncertain).toBeGreaterThan(0);
    expect(byName.touching.uncertain).toBeGreaterThan(0);
    expect(byName.random.uncertain).toBeLessThan(byName.random.pairs);
  });

  it('the comparison catches wrong answers: float32 answers alone (exact: false) differ somewhere', (ctx) => {
    const f32 = report!.f32;
    if (!f32) {
      ctx.skip();
      return;
    }
    // Without the float64 re-test, touching and coplanar pairs within the float32 error get the
    // shader's guess, and some guesses differ from the CPU: this is what the re-test is for.
    const errors = f32.cases.reduce((n, c) => n + c.errors.length, 0);
    expect(f32.cases.map((c) => c.name)).toEqual(['touching', 'coplanar']);
    expect(errors).toBeGreaterThan(0);
  });

  it('CPU fallback (no GPU) equals the CPU query too', () => {
    const cpu = report!.cpu!;
    expect(cpu.backend).toBe('cpu');
    for (const c of cpu.cases) expect(c.errors, c.name).toEqual([]);
  });
});
