/**
 * The trimesh demo page in Debian's headless Chromium (playwright-core) with SwiftShader's WebGPU and
 * WebGL: builds the page with Vite into a temporary folder, serves it on 127.0.0.1, and checks that the
 * status line names the path the trimesh–trimesh pairs take — the CPU at first, the GPU pass after G —
 * and that the scene keeps stepping with contacts on the GPU path. Without WebGPU in this Chromium the
 * page must say so and stay on the CPU (the test then checks that instead).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let file = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

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
    ({ server, url } = await serve(dir));
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--enable-unsafe-webgpu',
        '--use-webgpu-adapter=swiftshader',
        '--enable-unsafe-swiftshader',
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
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
