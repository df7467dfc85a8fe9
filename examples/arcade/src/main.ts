/**
 * Sieve arcade: asteroids on pixi.js + matter-js, with a live switch between stock matter-js and Sieve
 * collision detection (@sieve/matter) and a timing overlay (@sieve/overlay).
 *
 * Keys: ←/→ or A/D turn, ↑ or W thrust, Space fire; F adds 2 500 debris bodies (up to 30 000), X clears
 * them, L lays or lifts the static level (10 000 pieces of rubble), C switches stock ↔ Sieve, O cycles
 * the overlay, R restarts from a clean field, P switches the parallel mode on or off. Touch: the
 * on-screen buttons.
 *
 * The HUD names the path that answered the last step (stock; Sieve's `sweep` or `broadphase`, as
 * @sieve/matter picks them from the world's size and how much of it moves; in the parallel mode,
 * `parallel`) and the body count. The overlay keeps one segment per collision mode and
 * world (debris and rubble counts): every F, X, L or R starts a new one, so stock and Sieve are only
 * ever compared over the same world.
 * URL: `?workers=N` runs the parallel mode — the game in a Web Worker, Sieve's region-parallel broadphase
 * on N worker threads (needs cross-origin isolation; without it the broadphase runs its regions on the
 * physics worker and the HUD says so) — `?seed=N` fixes the field, `?mode=stock|sieve` the starting detector, `?touch=1` shows the touch
 * pad, `?flood=N` starts with N debris, `?aa=0` turns antialiasing off, `?res=R` draws the playfield at R
 * canvas pixels per CSS pixel, `?test=1` the end-to-end test layout (one fixed step per frame, an
 * asteroid right in front of the ship).
 */
import { attachToPixiTicker, Overlay } from '@sieve/overlay';
import { Application } from 'pixi.js';
import { type CollisionMode, CollisionSwitch } from './collision.js';
import { Game, type Input, MAX_DEBRIS, STEP_MS } from './game.js';
import { type Action, Controls } from './input.js';
import type { GameState } from './state.js';
import { type Reserved, View } from './view.js';
import { WorkerGame } from './workerGame.js';

/** What the end-to-end test reads and drives (`window.__arcade`). */
export interface ArcadeHook {
  /** Ticker frames run by the game loop. */
  readonly frame: number;
  readonly steps: number;
  readonly score: number;
  readonly lives: number;
  readonly state: 'playing' | 'gameover';
  readonly mode: CollisionMode;
  /** What answered the last step: 'stock', or Sieve's 'sweep', 'broadphase' or 'parallel'. */
  readonly path: Path;
  readonly asteroids: number;
  readonly debris: number;
  /** Pieces of the static level's rubble (0: off). */
  readonly rubble: number;
  readonly bodies: number;
  readonly shotsFired: number;
  /** Ship position and velocity (px, px per step). */
  readonly ship: { x: number; y: number; vx: number; vy: number; alive: boolean };
  /** The renderer pixi picked: 'webgl', 'webgpu' or 'canvas'. */
  readonly renderer: string;
  /** The playfield's rectangle on the screen, in CSS pixels. */
  readonly playfield: { x: number; y: number; width: number; height: number };
  readonly overlay: Overlay;
  /** The parallel mode (`?workers=N`, key P), once its physics worker is ready; null otherwise. */
  readonly parallel: {
    /** 'workers', or 'in-thread' where the broadphase fell back to one thread. */
    mode: 'workers' | 'in-thread';
    workers: number;
    fallbackReason: string | null;
    crossOriginIsolated: boolean;
    /** Snapshots the page received from the physics worker. */
    snapshots: number;
    /** Active contact pairs between two debris bodies after the last batch. */
    debrisPairs: number;
    /** Each broadphase worker's milliseconds in the last batch. */
    regionMs: number[];
  } | null;
  action(action: Action): void;
}

declare global {
  interface Window {
    __arcade?: ArcadeHook;
  }
}

const params = new URLSearchParams(location.search);
const seed = Number(params.get('seed') ?? Math.floor(Math.random() * 1e9)) >>> 0;
const test = params.get('test') === '1';
const startMode: CollisionMode = params.get('mode') === 'stock' ? 'stock' : 'sieve';
const FLOOD = 2500;
const OVERLAY_WIDTH = 264;
/** Windows narrower than this (CSS pixels) start with the overlay hidden: its panel would leave the
 * playfield less than half the width. */
const NARROW = 2 * OVERLAY_WIDTH + 80;
/**
 * Moving boxes from which the region-parallel broadphase beats one thread (`pnpm bench:broadphase --
 * --parallel`: 2 workers on 2 cores, 1.6× at 100 000 boxes; below about 20 000, SweepAndPrune wins).
 */
const PARALLEL_PAYS_FROM = 20_000;
/** Parallel mode: the game on a Web Worker, Sieve's broadphase on this many worker threads (0: off). */
const workers = parseWorkers(params.get('workers'));
/** What P switches to: the parallel mode with 2 workers, or back. */
const P_WORKERS = 2;

function parseWorkers(value: string | null): number {
  if (value === null || value === '' || value === '0') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new RangeError(`?workers= must be an integer from 0 to 64, got ${JSON.stringify(value)}`);
  return n;
}

/** What answered a step: stock matter-js, or Sieve's sorted sweep, incremental or parallel broadphase. */
export type Path = 'stock' | 'sweep' | 'broadphase' | 'parallel';

/** The world a measurement is about, for the overlay's segments: what F, X, L and R change. */
function worldOf(state: GameState): string {
  const debris = `${state.debris.length} debris`;
  return state.rubbleCount > 0 ? `${debris} · ${state.rubbleCount} static` : debris;
}

/** The game as the loop drives it: here on the page (default) or in a physics worker (parallel). */
interface Driver {
  readonly state: GameState;
  /** The collision mode that answered the last step. */
  readonly mode: CollisionMode;
  readonly path: Path;
  readonly candidates: number;
  readonly collisions: number;
  readonly pairs: number;
  step(steps: number, input: Input): void;
  act(action: 'flood' | 'clear' | 'rubble' | 'mode' | 'restart'): void;
}

/** The default mode: the game and its engine on the page, Sieve's sequential broadphase. */
function localDriver(overlay: Overlay): Driver & { game: Game } {
  let collision: CollisionSwitch | null = null;
  const physics = overlay.phase('physics');
  const game = new Game({
    seed,
    test,
    onBeforeUpdate: () => overlay.begin(physics),
    onAfterUpdate: () => {
      // The detector ran inside the engine update: its timings are part of 'physics', not beside it.
      collision?.recordStep();
      overlay.end();
    },
  });
  const sw = new CollisionSwitch(game.engine, overlay, startMode);
  collision = sw;
  const flood = Number(params.get('flood') ?? 0);
  if (flood > 0) game.flood(flood);
  return {
    game,
    state: game,
    get mode() {
      return sw.mode;
    },
    get path() {
      return sw.path;
    },
    get candidates() {
      return sw.candidatePairs;
    },
    get collisions() {
      return sw.collisions;
    },
    get pairs() {
      return game.engine.pairs.list.length;
    },
    step(steps, input) {
      for (let i = 0; i < steps; i++) game.step(input);
    },
    act(action) {
      if (action === 'flood') game.flood(FLOOD);
      else if (action === 'clear') game.clearDebris();
      else if (action === 'rubble') game.setRubble(game.rubbleCount === 0);
      else if (action === 'mode') sw.toggle();
      else game.restart();
    },
  };
}

/**
 * The parallel mode: the game runs in a Web Worker (physics.worker.ts) whose @sieve/matter detector
 * uses `@sieve/core/parallel` on `workers` threads; the page draws its snapshots. The worker's timings
 * are recorded nested in 'snapshot' (the page's own cost of taking one over), so the overlay's "other"
 * stays the page's own time; 'worker N' is the time region N's thread spent in the broadphase updates.
 * A snapshot from another mode or world than the overlay's segment starts a new segment first.
 */
async function workerDriver(overlay: Overlay): Promise<Driver & { remote: WorkerGame }> {
  const snapshot = overlay.phase('snapshot');
  overlay.hiddenPhases.add(snapshot); // a row without a graph: it stays near zero
  const rows = {
    physics: overlay.phase('physics'),
    collision: overlay.phase('collision'),
    broadphase: overlay.phase('broadphase'),
    narrowphase: overlay.phase('narrowphase'),
  };
  const workerRows: number[] = [];
  for (let w = 0; w < workers; w++) workerRows.push(overlay.phase(`worker ${w + 1}`));
  const record = (row: number, ms: number) => {
    if (!Number.isNaN(ms)) overlay.record(row, ms);
  };
  let fail: (e: Error) => void = () => {};
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    fail = reject;
  });
  const remote = new WorkerGame({
    seed,
    test,
    flood: Number(params.get('flood') ?? 0),
    floodSize: FLOOD,
    workers,
    onReady: () => ready(),
    onSnapshot: (game) => {
      const r = game.report;
      syncSegment(overlay, r.mode, worldOf(game));
      overlay.begin(snapshot);
      record(rows.physics, r.physicsMs);
      record(rows.collision, r.collisionMs);
      record(rows.broadphase, r.broadphaseMs);
      record(rows.narrowphase, r.narrowphaseMs);
      // Region times only where the regions ran (Sieve mode).
      if (r.mode === 'sieve')
        for (let w = 0; w < r.regionMs.length; w++) record(workerRows[w], r.regionMs[w]);
      overlay.end();
    },
    onError: (message) => {
      const error = new Error(`physics worker: ${message}`);
      fail(error);
      console.error(error);
      showMessage(`Physics worker failed: ${message}`);
    },
  });
  await started;
  if (startMode === 'stock') remote.action('mode');
  const r = remote.game.report;
  return {
    remote,
    state: remote.game,
    get mode() {
      return r.mode;
    },
    get path() {
      return r.mode === 'stock' ? 'stock' : r.path === 'broadphase' ? 'parallel' : 'sweep';
    },
    get candidates() {
      return r.candidates;
    },
    get collisions() {
      return r.collisions;
    },
    get pairs() {
      return r.pairs;
    },
    step(steps, input) {
      remote.tick(steps, input);
    },
    act(action) {
      remote.action(action);
    },
  };
}

/** Starts a new overlay segment when the mode or the world measured is not the current segment's. */
function syncSegment(overlay: Overlay, mode: CollisionMode, world: string): void {
  if (overlay.segment !== mode || overlay.world !== world) overlay.beginSegment(mode, world);
}

function showMessage(text: string): void {
  const message = document.getElementById('message');
  if (message) {
    message.style.display = 'flex';
    message.textContent = text;
  }
}

async function main(): Promise<void> {
  const app = new Application();
  await app.init({
    preference: 'webgl',
    background: 0x02030a,
    resizeTo: window,
    antialias: params.get('aa') !== '0',
    autoDensity: true,
    // Default: the screen's pixel density, at most 2.
    resolution: Number(params.get('res')) || Math.min(window.devicePixelRatio || 1, 2),
  });
  document.body.prepend(app.canvas);

  // The overlay sits in its own column at the right; the view keeps the playfield left of it. Statistics
  // are kept per collision mode and world (one segment each), the other mode's medians in the same world
  // shown beside.
  const overlay = new Overlay({
    title: workers > 0 ? `arcade · ${workers} workers` : 'arcade',
    phases: workers > 0 ? ['snapshot'] : ['physics', 'collision', 'broadphase', 'narrowphase', 'sync'],
    counters: ['bodies', 'candidates', 'collisions', 'pairs'],
    toggleKey: null, // the game binds O itself
    corner: 'top-right',
    width: OVERLAY_WIDTH,
    // The parallel mode has more rows (the page's snapshot, one per worker): shorter graphs. The
    // overlay shrinks them further where the window is short (fitWindow).
    graphHeight: workers > 0 ? Math.max(12, 30 - 3 * workers) : 36,
    segment: startMode,
  });

  const local = workers > 0 ? null : localDriver(overlay);
  const parallel = workers > 0 ? await workerDriver(overlay) : null;
  const driver: Driver = (local ?? parallel)!;
  const hud = document.getElementById('hud')!;
  const actions = document.getElementById('actions')!;
  const touch = document.getElementById('touch')!;

  // The screen's edges the playfield keeps clear of: the HUD above, the buttons below, the overlay at
  // the right. Measured when the HUD's text, the window or the overlay's mode change.
  const reserved: Reserved = { top: 0, right: 0, bottom: 0 };
  // The HUD's tallest since the window last changed size: a line that wraps as a count grows moves the
  // playfield once, not back and forth.
  let hudBottom = 0;
  const measure = (resized = false) => {
    reserved.right = overlay.mode === 'hidden' ? 0 : OVERLAY_WIDTH + 8;
    const free = `${Math.max(160, window.innerWidth - reserved.right - 20)}px`;
    hud.style.maxWidth = free;
    // The touch pad sits at the bottom right: the buttons keep left of it, or above it where the
    // window is too narrow for both side by side.
    const pad = document.body.classList.contains('touch') ? touch.getBoundingClientRect() : null;
    const besidePad = pad !== null && window.innerWidth - pad.width - 30 >= 160;
    actions.style.maxWidth = besidePad ? `${window.innerWidth - pad.width - 30}px` : free;
    actions.style.bottom = pad !== null && !besidePad ? `${window.innerHeight - pad.top + 8}px` : '';
    const bottom = hud.getBoundingClientRect().bottom + 6;
    hudBottom = resized ? bottom : Math.max(hudBottom, bottom);
    reserved.top = hudBottom;
    const below = Math.min(actions.getBoundingClientRect().top, pad?.top ?? Number.POSITIVE_INFINITY);
    reserved.bottom = window.innerHeight - below + 6;
  };
  window.addEventListener('resize', () => measure(true));
  const view = new View(app, local?.game ?? parallel!.remote, () => reserved);

  const act = (action: Action) => {
    switch (action) {
      case 'flood':
      case 'clear':
      case 'rubble':
      case 'restart':
      case 'mode':
        driver.act(action);
        break;
      case 'overlay':
        overlay.toggle();
        measure(true); // the HUD's width changes with the overlay's
        break;
      case 'parallel': {
        // Reloads in the other mode: a fresh game with the same seed, collision mode and amount of
        // debris (the static level and the overlay's measurements start over).
        const next = new URLSearchParams(location.search);
        if (workers > 0) next.delete('workers');
        else next.set('workers', String(P_WORKERS));
        next.set('seed', String(seed));
        next.set('mode', driver.mode);
        const debris = driver.state.debris.length;
        if (debris > 0) next.set('flood', String(debris));
        else next.delete('flood');
        location.search = next.toString();
        break;
      }
    }
    hudKey = '';
  };
  const controls = new Controls(act);
  for (const el of document.querySelectorAll<HTMLElement>('[data-action]'))
    controls.bindAction(el, el.dataset.action as Action);
  for (const el of document.querySelectorAll<HTMLElement>('[data-hold]'))
    controls.bindHold(el, el.dataset.hold as 'left' | 'right' | 'thrust' | 'fire');
  if (params.get('touch') === '1' || matchMedia('(pointer: coarse)').matches) {
    document.body.classList.add('touch');
    // A touch screen is small and the pad takes its bottom right: the overlay starts as text only, or
    // hidden (O shows it) where the window is too narrow for the panel beside a playfield.
    overlay.setMode(window.innerWidth < NARROW ? 'hidden' : 'compact');
  }

  const count = (n: number) => n.toLocaleString('en-US');
  /** What each path is, in a line. */
  const pathLine = (path: Path): string => {
    switch (path) {
      case 'stock':
        return "stock: matter-js's detector sorts every body, every step";
      case 'sweep':
        return "sweep: matter's sort and sweep, less overhead, resting bodies skipped";
      case 'broadphase':
        return 'broadphase: incremental sweep and prune, only moved bodies cost';
      case 'parallel':
        return parallel?.remote.info?.mode === 'workers'
          ? 'parallel: sweep and prune by regions, one per worker thread'
          : "parallel: sweep and prune by regions, all on the physics worker's own thread";
    }
  };
  /** The parallel mode's line: what runs where, when it pays, or why the regions fell back to one thread. */
  const parallelLine = (game: GameState, mode: CollisionMode): string => {
    const info = parallel?.remote.info;
    if (!info)
      return (
        `<div>one thread · P: broadphase on ${P_WORKERS} worker threads ` +
        `(pays from ~${count(PARALLEL_PAYS_FROM)} moving bodies)</div>`
      );
    if (info.mode === 'workers' && mode === 'stock') {
      return (
        `<div class="parallel">physics in a Web Worker; stock matter-js's detector answers, the worker threads ` +
        `wait (C: Sieve's broadphase on <b>${info.regions} worker threads</b>)</div>`
      );
    }
    if (info.mode === 'workers') {
      const moving = game.bodyCount - game.rubbleCount;
      const verdict =
        moving >= PARALLEL_PAYS_FROM
          ? `${count(moving)} moving: in their range (the overlay's collision time says by how much here)`
          : `${count(moving)} moving: one thread is faster (F: more, P: off)`;
      return (
        `<div class="parallel">physics in a Web Worker, broadphase on <b>${info.regions} worker threads</b> · ` +
        `they pay from ~${count(PARALLEL_PAYS_FROM)} moving bodies; ${verdict}</div>`
      );
    }
    return (
      `<div class="fallback">parallel broadphase FELL BACK to in-thread (${info.regions} regions on the physics ` +
      `worker): ${info.fallbackReason ?? 'inThread was asked'}</div>`
    );
  };

  let hudKey = '';
  let bodiesShown = -1;
  let bodiesEl: HTMLElement | null = null;
  const updateHud = () => {
    const game = driver.state;
    const mode = driver.mode;
    const path = driver.path;
    // Rebuilt when its text changes, but for the body count (bullets come and go every few frames).
    const key = `${game.score}|${game.lives}|${game.wave}|${game.state}|${mode}|${path}|${game.debris.length}|${game.rubbleCount}|${parallel?.remote.info?.mode}`;
    if (key === hudKey) {
      if (bodiesEl && game.bodyCount !== bodiesShown) {
        bodiesShown = game.bodyCount;
        bodiesEl.textContent = count(bodiesShown);
      }
      return;
    }
    hudKey = key;
    bodiesShown = game.bodyCount;
    const over = game.state === 'gameover' ? ' <span class="over">GAME OVER — R restarts</span>' : '';
    hud.innerHTML =
      `<div class="big">SCORE ${game.score}  ${'▲ '.repeat(Math.max(0, game.lives))} <small>wave ${game.wave}</small>${over}</div>` +
      `<div>collision: <b class="mode-${mode}">${mode === 'sieve' ? 'Sieve' : 'stock matter-js'}</b> (C) · ` +
      `path: <b class="path" data-path="${path}">${path}</b> · <b class="bodies">${count(game.bodyCount)}</b> bodies</div>` +
      `<div class="dim">${pathLine(path)}</div>` +
      `<div>debris ${count(game.debris.length)} (F +${count(FLOOD)} to ${count(MAX_DEBRIS)}, X clears) · ` +
      `static level: ${game.rubbleCount > 0 ? `${count(game.rubbleCount)} rubble` : 'off'} (L)</div>` +
      parallelLine(game, mode);
    bodiesEl = hud.querySelector('.bodies');
    measure();
  };

  const sync = overlay.phase('sync');
  let frame = 0;
  let acc = 0;
  app.ticker.add((ticker) => {
    frame++;
    // The segment follows what the next steps measure (local mode; the parallel mode's snapshots do it).
    if (local) syncSegment(overlay, driver.mode, worldOf(driver.state));
    // Fixed steps; at most 2 per frame so a slow detector cannot spiral. Tests: exactly one per frame
    // (in the parallel mode: one per frame while the physics worker keeps up; a frame that finds it
    // still busy hands it none).
    let steps = 1;
    if (!test) {
      acc = Math.min(acc + ticker.deltaMS, 4 * STEP_MS);
      steps = 0;
      while (acc >= STEP_MS && steps < 2) {
        acc -= STEP_MS;
        steps++;
      }
      if (steps === 2) acc = Math.min(acc, STEP_MS);
    }
    driver.step(steps, controls.input);
    overlay.begin(sync);
    view.sync(driver.state);
    updateHud();
    overlay.end();
    overlay.count('bodies', driver.state.bodyCount);
    const candidates = driver.candidates;
    if (!Number.isNaN(candidates)) overlay.count('candidates', candidates);
    overlay.count('collisions', driver.collisions);
    overlay.count('pairs', driver.pairs);
  });
  // Times pixi's render as the phase 'render' and closes each overlay frame after it.
  attachToPixiTicker(app, overlay);

  window.__arcade = {
    get frame() {
      return frame;
    },
    get steps() {
      return driver.state.steps;
    },
    get score() {
      return driver.state.score;
    },
    get lives() {
      return driver.state.lives;
    },
    get state() {
      return driver.state.state;
    },
    get mode() {
      return driver.mode;
    },
    get path() {
      return driver.path;
    },
    get asteroids() {
      return driver.state.asteroids.size;
    },
    get debris() {
      return driver.state.debris.length;
    },
    get rubble() {
      return driver.state.rubbleCount;
    },
    get bodies() {
      return driver.state.bodyCount;
    },
    get shotsFired() {
      return driver.state.shotsFired;
    },
    get ship() {
      const { position: p, velocity: v } = driver.state.ship;
      return { x: p.x, y: p.y, vx: v.x, vy: v.y, alive: driver.state.shipAlive };
    },
    get parallel() {
      const remote = parallel?.remote;
      if (!remote?.info) return null;
      const r = remote.game.report;
      return {
        mode: remote.info.mode,
        workers: remote.info.regions,
        fallbackReason: remote.info.fallbackReason,
        crossOriginIsolated: remote.info.crossOriginIsolated,
        snapshots: remote.snapshots,
        debrisPairs: r.debrisPairs,
        regionMs: Array.from(r.regionMs),
      };
    },
    renderer: app.renderer.name,
    playfield: view.playfield,
    overlay,
    action: act,
  };
}

main().catch((e: unknown) => {
  console.error(e);
  const message = document.getElementById('message');
  if (message) {
    message.style.display = 'flex';
    message.textContent = `Could not start: ${e instanceof Error ? e.message : String(e)}`;
  }
});
