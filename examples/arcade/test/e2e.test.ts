/**
 * End-to-end test of the arcade game in Debian's headless Chromium (playwright-core, never a downloaded
 * browser): builds the game with Vite, serves `dist` from a tiny static server on 127.0.0.1, loads the
 * test layout (`?seed=1&test=1`: one fixed step per frame, an asteroid straight ahead of the ship), then
 * thrusts, shoots, floods, switches stock ↔ Sieve, reads the overlay's exported JSON and saves a
 * screenshot to `examples/arcade/test-results/arcade.png`. Fails on any console error or page error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverlayExport } from '@sieve/overlay';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArcadeHook } from '../src/main.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshot = join(root, 'test-results', 'arcade.png');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

/** Serves `dir` on 127.0.0.1 at a free port. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      // As vite.config.ts: cross-origin isolation gives performance.now() 5 µs resolution.
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Reads the game's test hook (plain values only). */
function hook(page: Page) {
  return page.evaluate(() => {
    const a = window.__arcade as ArcadeHook;
    return {
      frame: a.frame,
      steps: a.steps,
      score: a.score,
      lives: a.lives,
      state: a.state,
      mode: a.mode,
      asteroids: a.asteroids,
      debris: a.debris,
      bodies: a.bodies,
      shotsFired: a.shotsFired,
      ship: a.ship,
      renderer: a.renderer,
      overlayFrames: a.overlay.frameCount,
    };
  });
}

/** Waits until the game has run `n` more frames (and physics steps) than now. */
async function advance(page: Page, n: number) {
  const before = await hook(page);
  await page.waitForFunction(
    ([f, s]) => (window.__arcade?.frame ?? 0) >= f && (window.__arcade?.steps ?? 0) >= s,
    [before.frame + n, before.steps + n] as const,
    { timeout: 20_000 },
  );
  return hook(page);
}

describe('arcade game in headless Chromium', () => {
  let context: BrowserContext | undefined;
  let server: Server | undefined;
  let url = '';
  let userDataDir = '';
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(executablePath))
      throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install chromium)`);
    // Build the game exactly as `pnpm start` does (Vite 7 from this package).
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    ({ server, url } = await serve(dist));
    userDataDir = mkdtempSync(join(tmpdir(), 'arcade-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      viewport: { width: 1024, height: 576 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // WebGL on the CPU (SwiftShader): headless Chromium refuses the software fallback without it.
        '--enable-unsafe-swiftshader',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('plays: frames advance, thrust moves the ship, shots score, flood and stock/Sieve switch keep it running', async () => {
    const page = context!.pages()[0] ?? (await context!.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));

    await page.goto(`${url}/?seed=1&test=1`);
    await page.waitForFunction(() => (window.__arcade?.frame ?? 0) > 10, undefined, { timeout: 20_000 });
    const start = await hook(page);
    expect(start.state).toBe('playing');
    expect(start.lives).toBe(3);
    expect(start.score).toBe(0);
    expect(start.mode).toBe('sieve');
    expect(start.asteroids).toBe(5);

    // Frames advance.
    const later = await advance(page, 10);
    expect(later.frame).toBeGreaterThanOrEqual(start.frame + 10);

    // Thrust: the ship faces up, so it gains upward speed and moves up.
    await page.keyboard.down('ArrowUp');
    await advance(page, 12);
    await page.keyboard.up('ArrowUp');
    const thrusted = await hook(page);
    expect(thrusted.ship.vy).toBeLessThan(-0.5);
    expect(thrusted.ship.y).toBeLessThan(start.ship.y - 2);

    // Shoot: the medium asteroid straight ahead is hit; it splits in two and the score rises by 50.
    await page.keyboard.down('Space');
    await page.waitForFunction(() => (window.__arcade?.score ?? 0) > 0, undefined, { timeout: 20_000 });
    await page.keyboard.up('Space');
    const shot = await hook(page);
    expect(shot.shotsFired).toBeGreaterThan(0);
    expect(shot.score).toBeGreaterThanOrEqual(50);
    expect(shot.asteroids).toBeGreaterThanOrEqual(5); // one medium became two small ones (or more hits)

    // Flood: thousands of debris bodies, and the game keeps running.
    await page.keyboard.press('KeyF');
    const flooded = await advance(page, 5);
    expect(flooded.debris).toBe(2500);
    expect(flooded.bodies).toBeGreaterThan(2500);

    // Stock ↔ Sieve: each switch keeps frames and physics steps going.
    const modeFrames: Record<string, [number, number]> = {};
    await page.keyboard.press('KeyC');
    const stockStart = await hook(page);
    expect(stockStart.mode).toBe('stock');
    const stockEnd = await advance(page, 12);
    expect(stockEnd.mode).toBe('stock');
    modeFrames.stock = [stockStart.overlayFrames, stockEnd.overlayFrames];
    await page.keyboard.press('KeyC');
    const sieveStart = await hook(page);
    expect(sieveStart.mode).toBe('sieve');
    const sieveEnd = await advance(page, 12);
    expect(sieveEnd.state).toBe('playing');
    modeFrames.sieve = [sieveStart.overlayFrames, sieveEnd.overlayFrames];

    // The overlay: its canvas is on the page, and its exported JSON has non-zero phase timings.
    const box = await page.locator('.sieve-overlay canvas').boundingBox();
    expect(box && box.width > 100 && box.height > 100).toBe(true);
    const data = (await page.evaluate(() =>
      JSON.parse(window.__arcade!.overlay.exportFrames()),
    )) as OverlayExport;
    const draws = await page.evaluate(() => {
      const o = window.__arcade!.overlay;
      return { count: o.drawCount, ms: o.drawTimeMs, isolated: crossOriginIsolated };
    });
    expect(draws.count).toBeGreaterThan(0);
    expect(draws.isolated).toBe(true); // COOP/COEP headers: fine-grained performance.now()
    expect(data.version).toBe(1);
    expect(data.frames.length).toBeGreaterThan(50);
    for (const phase of ['physics', 'collision', 'render'])
      expect(data.stats.phases[phase].max, `phase ${phase}`).toBeGreaterThan(0);
    const sum = (phase: string) => data.frames.reduce((s, f) => s + f.phases[phase], 0);
    expect(sum('physics')).toBeGreaterThan(0);
    expect(sum('broadphase')).toBeGreaterThan(0); // Sieve mode splits broad/narrow phase
    expect(data.frames.at(-1)!.counters.bodies).toBeGreaterThan(2500);
    // For the report: median detector time per frame in each mode, and the overlay's own cost.
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
    const perMode = Object.entries(modeFrames).map(([mode, [a, b]]) => {
      const xs = data.frames.filter((f) => f.index >= a + 3 && f.index < b).map((f) => f.phases.collision);
      return `${mode} ${median(xs).toFixed(2)} ms (${xs.length} frames)`;
    });
    console.log(
      `arcade e2e: renderer ${start.renderer}; collision detection with 2500 debris: ${perMode.join(', ')}; ` +
        `overlay ${(draws.ms / draws.count).toFixed(3)} ms per redraw, ${data.stats.overlay.mean.toFixed(3)} ms/frame; ` +
        `frame median ${data.stats.frame.median.toFixed(1)} ms`,
    );

    // Screenshot, for a human to look at.
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: screenshot });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    expect(errors).toEqual([]);
  }, 60_000);
});
