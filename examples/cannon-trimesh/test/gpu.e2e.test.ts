/**
 * The trimesh demo page in Debian's headless Chromium (playwright-core) with SwiftShader's WebGPU and
 * WebGL: builds the page with Vite into a temporary folder, serves it on 127.0.0.1, and checks that the
 * status line names the path the trimesh–trimesh pairs take — the CPU at first, the GPU pass after G —
 * and that the scene keeps stepping with contacts on the GPU path. Without WebGPU in this Chromium the
 * page must say so and stay on the CPU (the test then checks that instead).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions, closeServer, executablePath, serveDir } from '../../../test/support/browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('cannon-trimesh page: trimesh pairs on the GPU pass', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let dir = '';
  let url = '';

  beforeAll(async () => {
    if (!existsSync(executablePath)) throw new Error(`${executablePath} not found`);
    dir = mkdtempSync(join(tmpdir(), 'sieve-trimesh-'));
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--logLevel',
        'warn',
        '--outDir',
        dir,
        '--emptyOutDir',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    ({ server, url } = await serveDir(dir));
    browser = await chromium.launch(
      chromiumOptions([
        '--headless',
        '--enable-unsafe-webgpu',
        '--use-webgpu-adapter=swiftshader',
        '--enable-unsafe-swiftshader',
      ]),
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the CPU path, then the GPU path after G, and keeps stepping with contacts', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/`);
    await page.waitForFunction(() =>
      document.getElementById('path')?.textContent?.startsWith('trimesh pairs'),
    );
    expect(await page.textContent('#path')).toBe('trimesh pairs: CPU (Sieve BVH)');
    const hasWebGpu = await page.evaluate(() => 'gpu' in navigator);
    await page.keyboard.press('g');
    if (!hasWebGpu) {
      await page.waitForFunction(() => document.getElementById('path')?.textContent?.includes('CPU —'));
      console.warn(`no WebGPU in ${executablePath}: the page says "${await page.textContent('#path')}"`);
      return;
    }
    await page.waitForFunction(
      () => document.getElementById('path')?.textContent?.includes('GPU ('),
      undefined,
      {
        timeout: 60_000,
      },
    );
    // Bodies land: the GPU pass gets trimesh pairs, rejects some, and cannon still makes contacts.
    await page.waitForFunction(
      () => {
        const path = document.getElementById('path')?.textContent ?? '';
        const m = /· (\d+) pairs, (\d+) skipped/.exec(path);
        const contacts = /(\d+) contacts/.exec(document.getElementById('stats')?.textContent ?? '');
        return m !== null && Number(m[1]) > 0 && contacts !== null && Number(contacts[1]) > 0;
      },
      undefined,
      { timeout: 90_000 },
    );
    expect(await page.textContent('#path')).toMatch(/trimesh pairs: GPU \(.*swiftshader.*\) · \d+ pairs/i);
    expect(errors).toEqual([]);
  }, 180_000);
});
