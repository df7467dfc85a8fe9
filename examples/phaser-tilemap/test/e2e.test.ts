/**
 * The Phaser tilemap platformer in Debian's headless Chromium (playwright-core, never a downloaded
 * browser), built with Vite for Phaser 3 (`phaser`) and, at the deep test depth, for Phaser 4 too
 * (`PHASER=4`, the `phaser4` alias):
 * in its test mode (`?test=1`: one fixed physics step a frame, the player driven by a script) the
 * same level runs with Sieve off, on, and switched every 50 steps; after a fixed number of steps the
 * running hash of every step's collisions and collision events and every body's exact state must be
 * the same in all three, the level must hold 10 000+ tiles, and no body may have fallen through it.
 * Then, in play mode, the S key switches Sieve off and on and the overlay draws its phases. Fails on
 * any console or page error. Chromium: `CHROMIUM_PATH`, else `/usr/bin/chromium`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, executablePath, launchChromium, serveDir } from '../../../test/support/browser.js';
import { deep, depth } from '../../../test/support/depth.js';
import type { TilemapHook } from '../src/main.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/**
 * Steps of each deterministic run: the props land within a few dozen steps, and a toggled run switches
 * twice (off at step 50, on again at 100) before step 120.
 */
const STEPS = depth(120, 200);
/**
 * The window of the deterministic runs. The game's canvas fills the window, and drawing 10 000 tiles
 * with Chromium's CPU rasteriser costs more than the physics: a small window makes a run about 3× faster
 * and changes nothing checked here (the physics never reads the window; the hashes are the same at
 * any size). Play mode uses the full window.
 */
const RUN_VIEWPORT = { width: 240, height: 135 };
const PLAY_VIEWPORT = { width: 960, height: 540 };
/**
 * The Phaser versions run in the browser: Phaser 3 at the standard depth, Phaser 3 and 4 at the deep
 * one. Phaser 4's copy of matter-js is held to stock bit for bit at every depth in Node, by the
 * adapter's Phaser suite; here a second build and three more runs would add a fifth of the whole
 * browser suite's time.
 */
const PHASERS: readonly (readonly [3 | 4, string])[] = deep
  ? [
      [3, ''],
      [4, '/phaser4'],
    ]
  : [[3, '']];

/** Builds the game with this package's Vite (`PHASER=4` for Phaser 4). */
function build(phaser: 3 | 4): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PHASER: String(phaser) } },
  );
}

/**
 * Physics steps a frame in the deterministic runs. Chromium draws at most 60 frames a second, so one
 * step a frame makes a run last 200 / 60 s at least, mostly waiting; four steps a frame (the game's own
 * catch-up after a slow frame does the same) run the same steps in a quarter of the frames.
 */
const STEPS_PER_FRAME = 4;

/** One deterministic run: its hook's plain values once `STEPS` steps are done. */
async function run(page: Page, site: string, sieve: 'on' | 'off' | 'toggle') {
  await page.goto(`${site}/index.html?test=1&steps=${STEPS}&sieve=${sieve}&stepsPerFrame=${STEPS_PER_FRAME}`);
  await page.waitForFunction(() => window.__tilemap?.done === true, undefined, { timeout: 120_000 });
  return page.evaluate(() => {
    const t = window.__tilemap as TilemapHook;
    return {
      phaser: t.phaser,
      steps: t.steps,
      mode: t.mode,
      path: t.path,
      switches: t.switches,
      tiles: t.tiles,
      props: t.props,
      bodies: t.bodies,
      collisionHash: t.collisionHash,
      collisions: t.collisions,
      snapshot: t.snapshot(),
      sunk: t.sunk(),
    };
  });
}

describe('Phaser tilemap platformer in headless Chromium', () => {
  let context: BrowserContext | undefined;
  let server: Server | undefined;
  let url = '';
  let userDataDir = '';
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(executablePath))
      throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install chromium)`);
    // Phaser 3 first: its build empties dist/, Phaser 4's goes to dist/phaser4/.
    for (const [phaser, path] of PHASERS) {
      build(phaser);
      expect(existsSync(join(dist, path, 'index.html'))).toBe(true);
    }
    ({ server, url } = await serveDir(dist));
    userDataDir = mkdtempSync(join(tmpdir(), 'phaser-tilemap-chromium-'));
    context = await launchChromium(userDataDir, {
      viewport: PLAY_VIEWPORT,
      // WebGL on the CPU (SwiftShader): headless Chromium refuses the software fallback without it.
      extraArgs: ['--enable-unsafe-swiftshader'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await closeServer(server);
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  for (const [phaser, path] of PHASERS) {
    it(`Phaser ${phaser}: with Sieve, without, and switched every 50 steps — bit for bit, nothing falls through`, async () => {
      const page = context!.pages()[0];
      await page.setViewportSize(RUN_VIEWPORT);
      const off = await run(page, url + path, 'off');
      const on = await run(page, url + path, 'on');
      const toggled = await run(page, url + path, 'toggle');
      expect(off.phaser.startsWith(`${phaser}.`)).toBe(true);
      expect(off.tiles).toBeGreaterThanOrEqual(10000);
      expect(off.bodies).toBeGreaterThan(off.tiles + off.props);
      for (const r of [off, on, toggled]) {
        expect(r.steps).toBe(STEPS);
        expect(r.sunk).toBe(0);
      }
      expect(off.mode).toBe('stock');
      expect(on.mode).toBe('sieve');
      expect(on.path).toBe('sweep'); // no broadphase passed: the sweep answers every step
      expect(toggled.switches).toBe(Math.floor((STEPS - 1) / 50));
      // Same collisions and events at every step, same bodies at the end, exactly.
      expect(on.collisionHash).toBe(off.collisionHash);
      expect(toggled.collisionHash).toBe(off.collisionHash);
      expect(on.snapshot).toEqual(off.snapshot);
      expect(toggled.snapshot).toEqual(off.snapshot);
      expect(on.snapshot.length).toBe(6 * on.bodies);
      // The run did something: props landed and rest on the ground (a collision each at least).
      expect(on.collisions).toBe(off.collisions);
      expect(on.collisions).toBeGreaterThan((STEPS / 2) * on.props);
      expect(errors).toEqual([]);
    }, 300_000);
  }

  it('play mode: S switches Sieve off and on, the overlay draws, the player runs', async () => {
    const page = context!.pages()[0];
    await page.setViewportSize(PLAY_VIEWPORT);
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => (window.__tilemap?.steps ?? 0) > 20, undefined, { timeout: 60_000 });
    const hook = () =>
      page.evaluate(() => {
        const t = window.__tilemap as TilemapHook;
        return { mode: t.mode, steps: t.steps, player: t.player() };
      });
    expect((await hook()).mode).toBe('sieve');
    // Phaser reads the keys in its own frame loop: on a busy machine a key press takes frames to be seen.
    await page.keyboard.press('KeyS');
    await page.waitForFunction(() => window.__tilemap?.mode === 'stock', undefined, { timeout: 60_000 });
    await page.keyboard.press('KeyS');
    await page.waitForFunction(() => window.__tilemap?.mode === 'sieve', undefined, { timeout: 60_000 });
    const before = await hook();
    // The player runs right while the key is held.
    await page.keyboard.down('ArrowRight');
    await page.waitForFunction(
      (s) => (window.__tilemap?.steps ?? 0) > s + 30 && (window.__tilemap?.overlay.frameCount ?? 0) > 10,
      before.steps,
      { timeout: 60_000 },
    );
    await page.keyboard.up('ArrowRight');
    const after = await hook();
    expect(after.player.x).toBeGreaterThan(before.player.x + 20);
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-results', 'phaser-tilemap.png') });
    expect(errors).toEqual([]);
  }, 120_000);
});
