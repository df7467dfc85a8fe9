/**
 * End-to-end test of three-fps in Debian's headless Chromium (playwright-core, never a downloaded
 * browser): builds the page with Vite as `pnpm start` does, serves `dist` on 127.0.0.1, and
 *
 * - in real time: frames are drawn and the game steps;
 * - through the test hook (`?test=1`, `window.__fps`: steps the game at a given frame time without real
 *   time): walks the player into each wall, diagonally into corners, off ledges, through the corridor and
 *   the tunnel, up the stairs, at a thin partition from both sides and into a ceiling, at 5 fps and at
 *   144 fps, and checks after every step that the capsule is neither inside the level nor outside the
 *   yard, and that each walk got where it should (stopped one radius and the skin from a wall, on the
 *   walkway, through the corridor…);
 * - throws spheres and checks none ends inside the level;
 *
 * saves screenshots to `examples/three-fps/test-results/`, and fails on any console or page error.
 * Chromium: `CHROMIUM_PATH`, else `/usr/bin/chromium`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, executablePath, launchChromium, serveDir } from '../../../test/support/browser.js';
import { depth } from '../../../test/support/depth.js';
import type { FpsHook } from '../src/main.js';
import { WALKS, type Walk, type WalkReport } from '../src/walks.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const results = join(root, 'test-results');

/** Spheres thrown in each frame-rate test, one every tenth of a second, all around. */
const BALLS = depth(24, 60);

/** Collects a page's console errors, page errors and failed requests. */
function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  return errors;
}

/** Runs `walk` in the page at `fps` through the hook. */
function walkInPage(page: Page, walk: Walk, fps: number): Promise<WalkReport> {
  return page.evaluate(
    ([w, f]) => {
      const hook = window.__fps as FpsHook;
      hook.teleport(w.from[0], w.from[1], w.from[2], w.yaw);
      return hook.step(1 / f, Math.round(w.seconds * f), w.input);
    },
    [walk, fps] as const,
  );
}

describe('three-fps in headless Chromium', () => {
  let context: BrowserContext | undefined;
  let server: Server | undefined;
  let url = '';
  let userDataDir = '';

  beforeAll(async () => {
    if (!existsSync(executablePath))
      throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install chromium)`);
    // Build the page exactly as `pnpm start` does (Vite 8 from this package).
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    ({ server, url } = await serveDir(dist));
    userDataDir = mkdtempSync(join(tmpdir(), 'three-fps-chromium-'));
    context = await launchChromium(userDataDir, {
      viewport: { width: 960, height: 540 },
      // WebGL on the CPU (SwiftShader): headless Chromium refuses the software fallback without it.
      extraArgs: ['--enable-unsafe-swiftshader'],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await closeServer(server);
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('runs in real time: frames drawn, the game stepping, the HUD showing the collision cost', async () => {
    const page = context!.pages()[0] ?? (await context!.newPage());
    const errors = watch(page);
    await page.goto(`${url}/`);
    await page.waitForFunction(
      () => (window.__fps?.steps ?? 0) > 20 && (window.__fps?.frames ?? 0) > 20,
      undefined,
      {
        timeout: 30_000,
      },
    );
    const hook = await page.evaluate(() => ({
      realTime: window.__fps!.realTime,
      renderer: window.__fps!.renderer,
    }));
    expect(hook.realTime).toBe(true);
    await page.waitForFunction(
      () => /collision \d+\.\d\d ms\/frame/.test(document.getElementById('stats')!.textContent ?? ''),
      undefined,
      {
        timeout: 10_000,
      },
    );
    expect(await page.locator('#blocker').isVisible()).toBe(true); // "Click to play" until the pointer is locked
    mkdirSync(results, { recursive: true });
    await page.screenshot({ path: join(results, 'three-fps.png') });
    expect(statSync(join(results, 'three-fps.png')).size).toBeGreaterThan(10_000);
    console.log(`three-fps e2e: ${hook.renderer}; ${await page.locator('#stats').textContent()}`);
    expect(errors).toEqual([]);
    // Headless pages are never hidden: left open, the real-time game would go on running beside the
    // next tests' pages.
    await page.close();
  }, 60_000);

  for (const fps of [5, 144]) {
    it(`at ${fps} fps, every walk (walls, corners, ledges, corridor, tunnel, stairs, a thin partition, a ceiling) stays out of the level and in the yard`, async () => {
      const page = await context!.newPage();
      const errors = watch(page);
      await page.goto(`${url}/?test=1&res=0.5`);
      await page.waitForFunction(() => (window.__fps?.frames ?? 0) > 2, undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => window.__fps!.realTime)).toBe(false);
      const steps = await page.evaluate(() => window.__fps!.steps);
      expect(steps).toBe(0); // the test alone steps the game
      for (const walk of WALKS) {
        const report = await walkInPage(page, walk, fps);
        const what = `${walk.name} at ${fps} fps: ${JSON.stringify(report)}`;
        expect(report.steps, what).toBe(Math.round(walk.seconds * fps));
        expect(report.inside, what).toBe(0);
        expect(report.outside, what).toBe(0);
        if (walk.check) {
          const v = report.end[{ x: 0, y: 1, z: 2 }[walk.check.axis]];
          if (walk.check.min !== undefined) expect(v, what).toBeGreaterThanOrEqual(walk.check.min);
          if (walk.check.max !== undefined) expect(v, what).toBeLessThanOrEqual(walk.check.max);
        }
      }
      // Spheres thrown all around (at walls, at the floor, up), stepped at this frame rate.
      const balls = await page.evaluate(
        ([f, count]) => {
          const hook = window.__fps as FpsHook;
          hook.teleport(0, 0, 0, 0);
          let inside = 0;
          const idle = { forward: 0, right: 0, jump: false };
          for (let i = 0; i < count; i++) {
            hook.look(i * 0.41, -0.4 + 0.8 * Math.sin(i));
            hook.throwBall((i % 5) / 4);
            hook.step(1 / f, Math.max(1, Math.round(f / 10)), idle);
            inside += hook.balls().inside;
          }
          hook.step(1 / f, 3 * f, idle);
          return { ...hook.balls(), insideDuring: inside };
        },
        [fps, BALLS] as const,
      );
      expect(balls).toEqual({ active: BALLS, inside: 0, outOfYard: 0, insideDuring: 0 });
      await page.evaluate(() => {
        window.__fps!.teleport(8, 0, 8, Math.PI * 0.8);
        window.__fps!.render();
      });
      mkdirSync(results, { recursive: true });
      await page.screenshot({ path: join(results, `three-fps-${fps}fps.png`) });
      await page.close();
      expect(errors).toEqual([]);
    }, 120_000);
  }
});
