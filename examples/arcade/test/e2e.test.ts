/**
 * End-to-end test of the arcade game in Debian's headless Chromium (playwright-core, never a downloaded
 * browser): builds the game with Vite, serves `dist` from a tiny static server on 127.0.0.1, loads the
 * test layout (`?seed=1&test=1`: one fixed step per frame, an asteroid straight ahead of the ship; `&aa=0`:
 * no multisampling, which SwiftShader's WebGL spent a fifth of the test's CPU time on and nothing checks;
 * `&res=0.5`: the playfield drawn at half a canvas pixel per CSS pixel, which takes the whole test from 40
 * to 25 CPU-s, Chromium's included, and changes no layout, text or count checked here), then
 * thrusts, shoots, floods, switches stock ↔ Sieve, reads what the overlay draws ("—" for phases stock
 * matter-js does not report, the other mode's medians beside, an "other" row) and its exported JSON,
 * checks that the HUD names the path that answered (sweep, broadphase on the static level, stock),
 * that a comparison never mixes two world sizes (a new segment at every F, X, L and R), that R restarts
 * from a clean field, that no text lies over the playfield and no overlay line runs past its panel (in
 * every overlay mode, also at 800×600), and saves screenshots to `examples/arcade/test-results/`. Then the parallel mode (`?workers=2`): the page cross-origin isolated,
 * the game in its physics worker with Sieve's broadphase on 2 worker threads (not the in-thread fallback),
 * debris colliding, a per-worker time row for each in the overlay; and, served without the isolation
 * headers, the HUD's line saying the broadphase fell back to in-thread. Fails on any console error or
 * page error. Chromium: `CHROMIUM_PATH`,
 * else `/usr/bin/chromium`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverlayExport } from '@sieve/overlay';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, executablePath, launchChromium, serveDir } from '../../../test/support/browser.js';
import type { ArcadeHook } from '../src/main.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const screenshot = join(root, 'test-results', 'arcade.png');

/**
 * The headers the built site's `_headers` file (Netlify / Cloudflare Pages format) gives every path:
 * the test serves exactly these, so the page is cross-origin isolated only if the file is right.
 */
function siteHeaders(dir: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let all = false;
  for (const line of readFileSync(join(dir, '_headers'), 'utf8').split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) all = line.trim() === '/*';
    else if (all) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
  }
  return headers;
}

/** What {@link probe} reads besides the hook's values. */
interface ProbeOptions {
  /** First wait until the game has run this many more frames (and physics steps) than now. */
  frames?: number;
  /** Also read what {@link checkScreen} checks. */
  screen?: boolean;
  /** Also redraw the overlay and return every string it drew on its canvas. */
  drawn?: boolean;
}

/** A box as Playwright's `boundingBox()` gives it (CSS pixels of the viewport), or null without one. */
type Box = { x: number; y: number; width: number; height: number } | null;

/**
 * One round trip to the page. The game keeps the page's main thread busy, so each call waits for it
 * (Playwright's `locator.boundingBox()` took half a second each): everything a check needs is read in
 * one `evaluate`. With `frames`, it first waits in the page — checking once an animation frame, as
 * `waitForFunction` polls — until the game has run that many more frames and physics steps than when
 * the call arrived (at most 20 s). Then it reads the test hook's plain values and, with `screen`, the
 * HUD's path and body count texts, the boxes of the HUD, the action bar and the overlay panel and its
 * canvas (as `boundingBox()` measures them: null for an element without a box), whether the message is
 * visible (as `isVisible()` decides: `checkVisibility()`, `visibility: visible` and a non-empty box)
 * and every overlay line that ends past its panel (measured with the canvas's own font). A selector
 * that does not match exactly one element fails, as a Playwright locator's strict mode does.
 */
function probe(page: Page, options: ProbeOptions = {}) {
  return page.evaluate(async ({ frames, screen, drawn }) => {
    const a = window.__arcade as ArcadeHook;
    if (frames) {
      const frame = a.frame + frames;
      const steps = a.steps + frames;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the game did not run ${frames} frames and steps within 20 s`)),
          20_000,
        );
        const check = () => {
          if (a.frame >= frame && a.steps >= steps) {
            clearTimeout(timer);
            resolve();
          } else requestAnimationFrame(check);
        };
        check();
      });
    }
    const hook = {
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
      playfield: { ...a.playfield },
      path: a.path,
      rubble: a.rubble,
      segment: a.overlay.segment,
      world: a.overlay.world,
      comparison: a.overlay.comparison ?? null,
    };
    /** Every string `draw()` writes on the overlay's canvas, and its lines that end past the panel. */
    const redraw = () => {
      const o = a.overlay;
      const ctx = o.canvas.getContext('2d')!;
      const texts: string[] = [];
      const overflow: string[] = [];
      const original = ctx.fillText;
      ctx.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number) {
        texts.push(text);
        const right = x + this.measureText(text).width;
        if (right > o.width - 2) overflow.push(`"${text}" ends at ${right.toFixed(1)} of ${o.width}`);
        original.call(this, text, x, y);
      };
      try {
        o.draw();
      } finally {
        ctx.fillText = original;
      }
      return { texts, overflow };
    };
    if (!screen) return { hook, texts: drawn ? redraw().texts : [], screen: null };
    const one = (selector: string) => {
      const all = document.querySelectorAll(selector);
      if (all.length !== 1) throw new Error(`${selector}: ${all.length} elements, not one`);
      return all[0];
    };
    const box = (selector: string): Box => {
      const element = one(selector);
      if (element.getClientRects().length === 0) return null;
      const r = element.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const visible = (selector: string) => {
      const all = document.querySelectorAll(selector);
      if (all.length > 1) throw new Error(`${selector}: ${all.length} elements, not one`);
      if (all.length === 0) return false;
      const element = all[0];
      if (!element.checkVisibility() || getComputedStyle(element).visibility !== 'visible') return false;
      const r = element.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const { texts, overflow } = redraw();
    return {
      hook,
      texts: drawn ? texts : [],
      screen: {
        hud: one('#hud').textContent,
        path: one('#hud .path').textContent,
        bodies: one('#hud .bodies').textContent,
        boxes: {
          '#hud': box('#hud'),
          '#actions': box('#actions'),
          '.sieve-overlay': box('.sieve-overlay'),
          '.sieve-overlay canvas': box('.sieve-overlay canvas'),
        } as Record<string, Box>,
        message: visible('#message'),
        overflow,
      },
    };
  }, options);
}

/** Reads the game's test hook (plain values only). */
async function hook(page: Page) {
  return (await probe(page)).hook;
}

/** The box of one of the elements {@link probe} measures, which must have one. */
function boxOf(screen: { boxes: Record<string, Box> }, selector: string) {
  const box = screen.boxes[selector];
  expect(box, `${selector} has no box`).not.toBeNull();
  return box!;
}

/**
 * Checks what a new user sees: the HUD's path label names the path the game reports, no HUD, button or
 * message text lies over the playfield, and every line the overlay draws ends inside its panel
 * (measured with the canvas's own font). Returns what it read.
 */
async function checkScreen(page: Page, what: string) {
  const { hook: state, screen } = await probe(page, { screen: true });
  const s = screen!;
  expect(s.path, what).toBe(state.path);
  expect(s.bodies, what).toBe(state.bodies.toLocaleString('en-US'));
  const field = state.playfield;
  for (const selector of ['#hud', '#actions']) {
    const box = boxOf(s, selector);
    const apart =
      box.y + box.height <= field.y + 0.5 ||
      box.y >= field.y + field.height - 0.5 ||
      box.x + box.width <= field.x + 0.5 ||
      box.x >= field.x + field.width - 0.5;
    expect(
      apart,
      `${what}: ${selector} ${JSON.stringify(box)} over the playfield ${JSON.stringify(field)}`,
    ).toBe(true);
  }
  expect(s.message, what).toBe(false);
  expect(s.overflow, `${what}: overlay lines past the panel`).toEqual([]);
  const panel = boxOf(s, '.sieve-overlay');
  expect(panel.y + panel.height, `${what}: overlay below the window`).toBeLessThanOrEqual(
    page.viewportSize()!.height,
  );
  return { state, screen: s };
}

/** Redraws the overlay and returns every string it drew on its canvas (read from the page). */
async function drawnText(page: Page): Promise<string[]> {
  return (await probe(page, { drawn: true })).texts;
}

/** The words of the first drawn line that starts with `prefix` (a phase row, the legend). */
function words(texts: string[], prefix: string): string[] {
  const line = texts.find((t) => t.trimStart().startsWith(prefix)); // nested phases are indented
  expect(line, `a line starting with "${prefix}" in ${JSON.stringify(texts)}`).toBeDefined();
  return line!.trim().split(/\s+/);
}

/** Waits until the game has run `n` more frames (and physics steps) than now; returns the hook then. */
async function advance(page: Page, n: number) {
  return (await probe(page, { frames: n })).hook;
}

/** {@link advance}, then the strings the overlay draws (one round trip). */
async function advanceAndDraw(page: Page, n: number) {
  const { hook, texts } = await probe(page, { frames: n, drawn: true });
  return { hook, texts };
}

/**
 * Thrusts for about 12 steps: ↑ goes down as a real key, and the page lets it go (a `keyup` on the window,
 * which is what the game listens to) 12 steps after the ship first gains upward speed, at most 20 s later.
 * Held from the test process instead, the key's steps are not bounded on a busy machine: the game runs on
 * while the test waits its turn, and a ship thrusting too long reaches the asteroid in front of it.
 */
async function thrustUp(page: Page) {
  await page.keyboard.down('ArrowUp');
  await page.evaluate(async () => {
    const a = window.__arcade as ArcadeHook;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the ship did not thrust within 20 s')), 20_000);
      let until = -1;
      const check = () => {
        if (until < 0 && a.ship.vy < -0.1) until = a.steps + 12;
        if (until >= 0 && a.steps >= until) {
          window.dispatchEvent(new KeyboardEvent('keyup', { code: 'ArrowUp' }));
          clearTimeout(timer);
          resolve();
        } else requestAnimationFrame(check);
      };
      check();
    });
  });
  await page.keyboard.up('ArrowUp');
  return hook(page);
}

describe('arcade game in headless Chromium', () => {
  let context: BrowserContext | undefined;
  let server: Server | undefined;
  let plainServer: Server | undefined;
  let url = '';
  let userDataDir = '';
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(executablePath))
      throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install chromium)`);
    // Build the game exactly as `pnpm start` does (Vite 8 from this package).
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    // The static site carries its cross-origin-isolation headers for any host that reads `_headers`.
    expect(siteHeaders(dist)).toEqual({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    ({ server, url } = await serveDir(dist, { headers: siteHeaders(dist) }));
    userDataDir = mkdtempSync(join(tmpdir(), 'arcade-chromium-'));
    context = await launchChromium(userDataDir, {
      viewport: { width: 1024, height: 576 },
      // WebGL on the CPU (SwiftShader): headless Chromium refuses the software fallback without it.
      extraArgs: ['--enable-unsafe-swiftshader'],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await closeServer(server);
    await closeServer(plainServer);
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('plays: frames advance, thrust moves the ship, shots score, flood and stock/Sieve switch keep it running', async () => {
    const page = context!.pages()[0] ?? (await context!.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));

    await page.goto(`${url}/?seed=1&test=1&aa=0&res=0.5`);
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
    const thrusted = await thrustUp(page);
    expect(thrusted.ship.vy).toBeLessThan(-0.5);
    expect(thrusted.ship.y).toBeLessThan(start.ship.y - 2);

    // Shoot until something is hit: usually the medium asteroid straight ahead (50 points, split in two),
    // but how far the ship flew depends on how many frames the key was held, which a key event between
    // frames cannot fix exactly — so a small one (20 points, gone) may be hit first. The score and the
    // asteroids left must agree: m mediums (the wave's one) and s smalls destroyed give 50·m + 20·s
    // points and 5 + m − s asteroids.
    await page.keyboard.down('Space');
    await page.waitForFunction(() => (window.__arcade?.score ?? 0) > 0, undefined, { timeout: 20_000 });
    await page.keyboard.up('Space');
    const shot = await hook(page);
    expect(shot.shotsFired).toBeGreaterThan(0);
    const hits = [0, 1].flatMap((m) => {
      const s = (shot.score - 50 * m) / 20;
      return Number.isInteger(s) && s >= 0 && shot.asteroids === 5 + m - s ? [{ m, s }] : [];
    });
    expect(hits.length, `score ${shot.score} with ${shot.asteroids} asteroids left`).toBe(1);

    // Both modes measured on the small world first: later worlds must not be compared with these.
    await page.keyboard.press('KeyC');
    await advance(page, 5);
    await page.keyboard.press('KeyC');
    const empty = await advance(page, 5);
    expect(empty.comparison).toMatchObject({ label: 'stock', world: '0 debris' });

    // Flood: thousands of debris bodies, and the game keeps running. A new world: a new segment, with
    // nothing to compare yet (not the 5-body frames of stock), on the sweep path (most bodies move).
    await page.keyboard.press('KeyF');
    const flooded = await advance(page, 5);
    expect(flooded.debris).toBe(2500);
    expect(flooded.bodies).toBeGreaterThan(2500);
    expect(flooded).toMatchObject({
      world: '2500 debris',
      segment: 'sieve',
      comparison: null,
      path: 'sweep',
    });
    expect(words(await drawnText(page), 'ms')).toEqual(['ms', 'last', 'med', 'max']);
    await checkScreen(page, 'flooded, Sieve');

    // Stock ↔ Sieve: each switch keeps frames and physics steps going, and starts a new overlay segment.
    await page.keyboard.press('KeyC');
    const stockStart = await hook(page);
    expect(stockStart.mode).toBe('stock');
    const { hook: stockEnd, texts: stockText } = await advanceAndDraw(page, 24);
    expect(stockEnd.mode).toBe('stock');
    expect(stockEnd.path).toBe('stock');
    expect(stockEnd.comparison).toMatchObject({ label: 'sieve', world: '2500 debris' });
    // Stock mode: matter-js reports no broadphase / narrowphase split and no candidate count — "—", not 0.
    expect(words(stockText, 'broadphase').slice(1, 4)).toEqual(['—', '—', '—']);
    expect(words(stockText, 'narrowphase').slice(1, 4)).toEqual(['—', '—', '—']);
    expect(stockText.some((t) => t.includes('candidates —'))).toBe(true);
    expect(words(stockText, 'ms').at(-1)).toBe('sieve'); // the Sieve segment's medians beside
    expect(Number(words(stockText, 'collision')[4])).toBeGreaterThan(0);

    await page.keyboard.press('KeyC');
    const sieveStart = await hook(page);
    expect(sieveStart.mode).toBe('sieve');
    const sieveEnd = await advance(page, 36);
    expect(sieveEnd.state).toBe('playing');

    // The overlay: its canvas is on the page, and its exported JSON has non-zero phase timings. The
    // screen as a user sees it (checkScreen), the panel's and the canvas's boxes with it.
    const { state: afterStock, screen } = await checkScreen(page, 'flooded, Sieve after stock');
    const box = boxOf(screen, '.sieve-overlay');
    const canvasBox = boxOf(screen, '.sieve-overlay canvas');
    expect(canvasBox.width).toBeGreaterThan(200);
    expect(canvasBox.height).toBeGreaterThan(400); // graphs tall enough to read
    const data = (await page.evaluate(() =>
      JSON.parse(window.__arcade!.overlay.exportFrames()),
    )) as OverlayExport;
    const draws = await page.evaluate(() => {
      const o = window.__arcade!.overlay;
      return { count: o.drawCount, ms: o.drawTimeMs, isolated: crossOriginIsolated };
    });
    expect(draws.count).toBeGreaterThan(0);
    // COOP/COEP from dist/_headers: SharedArrayBuffer and fine-grained performance.now().
    expect(draws.isolated).toBe(true);
    expect(data.version).toBe(3);
    expect(data.segment).toBe('sieve');
    expect(data.world).toBe('2500 debris');
    // A comparison never mixes world sizes: every kept segment and every frame is of this world.
    for (const seg of Object.values(data.segments)) expect(seg.world).toBe('2500 debris');
    for (const f of data.frames) {
      expect(f.counters.bodies).toBeGreaterThan(2500);
      expect(f.counters.bodies).toBeLessThan(2600);
    }
    expect(data.frames.length).toBeGreaterThan(30); // this Sieve segment only: stock frames are not mixed in
    // (broadphase / narrowphase: only when @sieve/matter answers through its broadphase, not its sweep)
    for (const phase of ['physics', 'collision', 'render'])
      expect(data.stats.phases[phase].max, `phase ${phase}`).toBeGreaterThan(0);
    expect(data.frames.at(-1)!.counters.bodies).toBeGreaterThan(2500);
    // Per mode: the stock segment measured collision but not broadphase; this one measures both.
    const stock = data.segments.stock;
    expect(stock.frames).toBeGreaterThan(20);
    expect(stock.phases.collision).toBeGreaterThan(0);
    expect(stock.phases.broadphase).toBeNull();
    expect(stock.counters.candidates).toBeNull();
    // "other": frame time outside the top-level phases (physics, sync, render), never more than the frame.
    expect(data.stats.other.median).toBeGreaterThan(0);
    for (const f of data.frames.slice(1)) {
      const top = (f.phases.physics ?? 0) + (f.phases.sync ?? 0) + (f.phases.render ?? 0);
      expect(f.otherMs!).toBeLessThanOrEqual(f.frameMs! + 1e-3);
      expect(f.otherMs! + top).toBeLessThanOrEqual(f.frameMs! + 0.5);
    }
    const sieveText = await drawnText(page);
    expect(words(sieveText, 'ms')).toEqual(['ms', 'last', 'med', 'max', 'stock']);
    expect(words(sieveText, 'broadphase')[4]).toBe('—'); // stock did not measure it
    expect(Number(words(sieveText, 'collision')[4])).toBeCloseTo(stock.phases.collision!, 1);
    expect(Number(words(sieveText, 'other')[2])).toBeGreaterThan(0);

    // Placement: the panel sits beside the playfield, never over it.
    const field = afterStock.playfield;
    expect(box.x).toBeGreaterThanOrEqual(field.x + field.width - 0.5);
    const viewport = page.viewportSize()!;
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);

    // For the report: median detector time per step in each mode, and the overlay's own cost.
    console.log(
      `arcade e2e: renderer ${start.renderer}; collision detection with 2500 debris: stock ` +
        `${stock.phases.collision!.toFixed(2)} ms (${stock.frames} frames), Sieve ` +
        `${data.stats.phases.collision.median.toFixed(2)} ms (${data.stats.phases.collision.count} frames); ` +
        `overlay ${(draws.ms / draws.count).toFixed(3)} ms per redraw, ${data.stats.overlay.mean.toFixed(3)} ms/frame; ` +
        `frame median ${data.stats.frame.median.toFixed(1)} ms, other ${data.stats.other.median.toFixed(1)} ms`,
    );

    // Screenshots, for a human to look at: the test layout, then a small 800×600 window.
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: screenshot });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    // The static level without the debris: 10 000 pieces of rubble and a few moving bodies, a world of
    // its own for the overlay; the HUD names the path @sieve/matter chose for it (checkScreen).
    await page.keyboard.press('KeyX');
    await page.keyboard.press('KeyL');
    const level = await advance(page, 12); // past the 8 steps a path switch waits for
    expect(level.rubble).toBeGreaterThan(10_000);
    expect(['sweep', 'broadphase']).toContain(level.path);
    expect(level).toMatchObject({ world: `0 debris · ${level.rubble} static`, comparison: null });
    await checkScreen(page, 'static level, Sieve');
    if (level.path === 'broadphase') {
      const levelText = await drawnText(page);
      expect(Number(words(levelText, 'broadphase')[2])).toBeGreaterThan(0); // measured on this path
    }
    await page.keyboard.press('KeyC');
    const levelStock = await advance(page, 10);
    expect(levelStock).toMatchObject({ path: 'stock', comparison: { label: 'sieve', world: level.world } });
    await checkScreen(page, 'static level, stock');
    for (const mode of ['compact', 'hidden', 'full']) {
      await page.keyboard.press('KeyO');
      await advance(page, 2);
      expect(await page.evaluate(() => window.__arcade!.overlay.mode)).toBe(mode);
      await checkScreen(page, `static level, overlay ${mode}`);
      if (mode !== 'full')
        await page.screenshot({ path: join(root, 'test-results', `arcade-overlay-${mode}.png`) });
    }

    // R: a new game on a clean field (no debris, no rubble), the collision mode kept, a new segment.
    await page.keyboard.press('KeyR');
    const restarted = await advance(page, 5);
    expect(restarted).toMatchObject({
      debris: 0,
      rubble: 0,
      score: 0,
      lives: 3,
      mode: 'stock',
      world: '0 debris',
    });
    expect(restarted.comparison).toMatchObject({ label: 'sieve', world: '0 debris' }); // this world's own
    await page.keyboard.press('KeyC');

    await page.setViewportSize({ width: 800, height: 600 });
    await page.keyboard.press('KeyF');
    await advance(page, 5);
    const smallScreen = await checkScreen(page, '800×600');
    const small = smallScreen.state.playfield;
    const smallBox = boxOf(smallScreen.screen, '.sieve-overlay');
    expect(smallBox.x).toBeGreaterThanOrEqual(small.x + small.width - 0.5);
    expect(smallBox.y + smallBox.height).toBeLessThanOrEqual(600);
    expect(small.width).toBeGreaterThan(500); // two thirds of the window stay playfield
    await page.screenshot({ path: join(root, 'test-results', 'arcade-800x600.png') });

    expect(errors).toEqual([]);
    // Headless pages are never hidden: left open, the flooded game would go on running beside the
    // next tests' pages.
    await page.close();
  }, 120_000);

  it('parallel mode (?workers=2): the game in a Web Worker, the broadphase on 2 worker threads, per-worker times in the overlay', async () => {
    const page = await context!.newPage();
    const pageErrors = watch(page);
    await page.goto(`${url}/?seed=1&test=1&aa=0&res=0.5&workers=2&flood=1500`);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.waitForFunction(() => (window.__arcade?.parallel?.snapshots ?? 0) > 20, undefined, {
      timeout: 30_000,
    });
    const info = (await page.evaluate(() => window.__arcade!.parallel))!;
    expect(info.mode).toBe('workers'); // not the in-thread fallback
    expect(info.workers).toBeGreaterThanOrEqual(2);
    expect(info.fallbackReason).toBeNull();
    expect(info.crossOriginIsolated).toBe(true);
    const { state: start, screen: startScreen } = await checkScreen(page, 'parallel mode');
    expect(startScreen.hud).toContain('broadphase on 2 worker threads');
    // When worker threads pay, said at this size: not here, with 1 500 debris.
    expect(startScreen.hud).toMatch(/pay from ~20,000 moving bodies; 1,5\d\d moving: one thread is faster/);
    expect(start.mode).toBe('sieve');
    expect(start.path).toBe('parallel');
    expect(start.world).toBe('1500 debris');
    expect(start.debris).toBe(1500);
    expect(start.bodies).toBeGreaterThan(1500);

    // The game runs: steps advance, thrust moves the ship up, a shot scores.
    const thrusted = await thrustUp(page);
    expect(thrusted.ship.vy).toBeLessThan(-0.5);
    expect(thrusted.ship.y).toBeLessThan(start.ship.y - 2);
    await page.keyboard.down('Space');
    await page.waitForFunction(() => (window.__arcade?.score ?? 0) > 0, undefined, { timeout: 20_000 });
    await page.keyboard.up('Space');

    // Bodies collide (debris against debris), and both workers spent time on their regions.
    await page.waitForFunction(() => (window.__arcade?.parallel?.debrisPairs ?? 0) > 0, undefined, {
      timeout: 20_000,
    });
    await page.waitForFunction(
      () => {
        const p = window.__arcade?.parallel;
        return p !== null && p !== undefined && p.regionMs.length >= 2 && p.regionMs.every((ms) => ms > 0);
      },
      undefined,
      { timeout: 20_000 },
    );
    // Each row's median (the word after its label and its last value), read once every row has one:
    // the rows are filled by the physics worker's snapshots, so a busy machine may take more frames.
    const rows = ['broadphase', 'worker 1', 'worker 2'];
    const medianOf = (texts: string[], row: string) => Number(words(texts, row)[row.split(' ').length + 1]);
    let text: string[] = [];
    for (let tries = 0; tries < 10; tries++) {
      text = (await advanceAndDraw(page, 30)).texts;
      if (rows.every((row) => medianOf(text, row) > 0)) break;
    }
    for (const row of rows) {
      expect(
        medianOf(text, row),
        `${row}: ${words(text, row).join(' ')} in ${JSON.stringify(text)}`,
      ).toBeGreaterThan(0);
    }
    const data = (await page.evaluate(() =>
      JSON.parse(window.__arcade!.overlay.exportFrames()),
    )) as OverlayExport;
    expect(data.stats.phases['worker 1'].max).toBeGreaterThan(0);
    expect(data.stats.phases['worker 2'].max).toBeGreaterThan(0);
    expect(data.frames.at(-1)!.counters.candidates).toBeGreaterThan(0);
    const median = (phase: string) => data.stats.phases[phase].median.toFixed(2);
    console.log(
      `arcade e2e, parallel mode with 1500 debris: broadphase ${median('broadphase')} ms, worker 1 ` +
        `${median('worker 1')} ms, worker 2 ${median('worker 2')} ms, physics step ${median('physics')} ms ` +
        `(medians, in the physics worker); page's snapshot ${median('snapshot')} ms`,
    );

    // The taller panel still sits beside the playfield, within the window.
    const { hook: now, screen } = await probe(page, { screen: true });
    const box = boxOf(screen!, '.sieve-overlay');
    const field = now.playfield;
    expect(box.x).toBeGreaterThanOrEqual(field.x + field.width - 0.5);
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);

    // Stock ↔ Sieve still switches inside the worker; the segment follows the snapshots.
    await page.keyboard.press('KeyC');
    const stock = await advance(page, 10);
    expect(stock).toMatchObject({ mode: 'stock', path: 'stock', segment: 'stock', world: '1500 debris' });
    expect(stock.comparison).toMatchObject({ label: 'sieve', world: '1500 debris' });
    // In stock mode the HUD does not claim the worker threads answer.
    const { screen: stockScreen } = await checkScreen(page, 'parallel mode, stock');
    expect(stockScreen.hud).toMatch(/stock matter-js's detector answers, the worker threads wait/);
    expect(stockScreen.hud).not.toMatch(/one thread is faster/);
    await page.keyboard.press('KeyO');
    await advance(page, 2);
    await checkScreen(page, 'parallel mode, compact overlay');
    await page.keyboard.press('KeyO');
    await page.keyboard.press('KeyO');
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-results', 'arcade-workers.png') });
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('parallel mode without cross-origin isolation says it fell back to in-thread, and still plays', async () => {
    let plainUrl = '';
    // Without the `_headers` file's headers: a host that ignores the file.
    ({ server: plainServer, url: plainUrl } = await serveDir(dist));
    const page = await context!.newPage();
    const pageErrors = watch(page);
    await page.goto(`${plainUrl}/?seed=1&test=1&aa=0&res=0.5&workers=2&flood=300`);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await page.waitForFunction(() => (window.__arcade?.parallel?.snapshots ?? 0) > 20, undefined, {
      timeout: 30_000,
    });
    const info = (await page.evaluate(() => window.__arcade!.parallel))!;
    expect(info.mode).toBe('in-thread');
    expect(info.fallbackReason).toMatch(/SharedArrayBuffer is unavailable/);
    const fallbackHud = await page.locator('#hud').textContent();
    expect(fallbackHud).toMatch(/FELL BACK to in-thread.*SharedArrayBuffer/);
    expect(fallbackHud).toMatch(/all on the physics worker's own thread/); // not "one per worker thread"
    const before = await hook(page);
    const after = await advance(page, 10);
    expect(after.steps).toBeGreaterThanOrEqual(before.steps + 10);
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

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
