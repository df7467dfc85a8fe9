/**
 * Sieve arcade: asteroids on pixi.js + matter-js, with a live switch between stock matter-js and Sieve
 * collision detection (@sieve/matter) and a timing overlay (@sieve/overlay).
 *
 * Keys: ←/→ or A/D turn, ↑ or W thrust, Space fire; F floods 2500 debris bodies, X clears them,
 * C switches stock ↔ Sieve, O cycles the overlay, R restarts, P switches the parallel mode on or off.
 * Touch: the on-screen buttons.
 * URL: `?workers=N` runs the parallel mode — the game in a Web Worker, Sieve's region-parallel broadphase
 * on N worker threads (needs cross-origin isolation; without it the broadphase runs its regions on the
 * physics worker and the HUD says so) — `?seed=N` fixes the field, `?mode=stock|sieve` the starting detector, `?touch=1` shows the touch
 * pad, `?flood=N` starts with N debris, `?test=1` the end-to-end test layout (one fixed step per frame,
 * an asteroid right in front of the ship).
 */
import { attachToPixiTicker, Overlay } from '@sieve/overlay';
import { Application } from 'pixi.js';
import { type CollisionMode, CollisionSwitch } from './collision.js';
import { Game, type Input, STEP_MS } from './game.js';
import { type Action, Controls } from './input.js';
import type { GameState } from './state.js';
import { View } from './view.js';
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
  readonly asteroids: number;
  readonly debris: number;
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

/** The game as the loop drives it: here on the page (default) or in a physics worker (parallel). */
interface Driver {
  readonly state: GameState;
  readonly mode: CollisionMode;
  readonly candidates: number;
  readonly collisions: number;
  readonly pairs: number;
  step(steps: number, input: Input): void;
  act(action: 'flood' | 'clear' | 'mode' | 'restart'): void;
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
  let mode: CollisionMode = startMode;
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
      return mode;
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
      if (action === 'mode') mode = mode === 'sieve' ? 'stock' : 'sieve';
      remote.action(action);
    },
  };
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
    resolution: Math.min(window.devicePixelRatio || 1, 2),
  });
  document.body.prepend(app.canvas);

  // The overlay sits in its own column at the right; the view keeps the playfield left of it. Statistics
  // are kept per collision mode (one segment each), the other mode's medians shown beside.
  const overlay = new Overlay({
    title: workers > 0 ? `arcade · ${workers} workers` : 'arcade',
    phases: workers > 0 ? ['snapshot'] : ['physics', 'collision', 'broadphase', 'narrowphase', 'sync'],
    counters: ['bodies', 'candidates', 'collisions', 'pairs'],
    toggleKey: null, // the game binds O itself
    corner: 'top-right',
    width: OVERLAY_WIDTH,
    // The parallel mode has more rows (the page's snapshot, one per worker): shorter graphs keep the
    // panel within a 576 px high window.
    graphHeight: workers > 0 ? Math.max(12, 30 - 3 * workers) : 36,
    segment: startMode,
  });

  const local = workers > 0 ? null : localDriver(overlay);
  const parallel = workers > 0 ? await workerDriver(overlay) : null;
  const driver: Driver = (local ?? parallel)!;
  const view = new View(app, local?.game ?? parallel!.remote, () =>
    overlay.mode === 'hidden' ? 0 : OVERLAY_WIDTH + 8,
  );
  const hud = document.getElementById('hud')!;
  const message = document.getElementById('message')!;

  const act = (action: Action) => {
    switch (action) {
      case 'flood':
      case 'clear':
      case 'restart':
        driver.act(action);
        break;
      case 'mode':
        driver.act('mode');
        overlay.beginSegment(driver.mode);
        break;
      case 'overlay':
        overlay.toggle();
        break;
      case 'parallel': {
        // Reloads in the other mode (a fresh game with the same seed).
        const next = new URLSearchParams(location.search);
        if (workers > 0) next.delete('workers');
        else next.set('workers', String(P_WORKERS));
        next.set('seed', String(seed));
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
  if (params.get('touch') === '1' || matchMedia('(pointer: coarse)').matches)
    document.body.classList.add('touch');

  /** The parallel mode's line: what runs where, or why the regions fell back to one thread. */
  const parallelLine = (): string => {
    const info = parallel?.remote.info;
    if (!info) return '<div>physics on this page (P: parallel mode, physics in a Web Worker)</div>';
    if (info.mode === 'workers')
      return `<div class="parallel">physics in a Web Worker · parallel broadphase on <b>${info.regions} workers</b> (P: off)</div>`;
    return (
      `<div class="fallback">parallel broadphase FELL BACK to in-thread (${info.regions} regions on the physics ` +
      `worker): ${info.fallbackReason ?? 'inThread was asked'}</div>`
    );
  };

  let hudKey = '';
  const updateHud = () => {
    const game = driver.state;
    const key = `${game.score}|${game.lives}|${game.wave}|${game.state}|${driver.mode}|${game.debris.length}`;
    if (key === hudKey) return;
    hudKey = key;
    const mode = driver.mode;
    hud.innerHTML =
      `<div class="big">SCORE ${game.score}   ${'▲ '.repeat(Math.max(0, game.lives))}</div>` +
      `<div>wave ${game.wave} · collision: <b class="mode-${mode}">${mode === 'sieve' ? 'Sieve' : 'stock matter-js'}</b> (C)</div>` +
      `<div>debris ${game.debris.length} (F floods, X clears) · bodies ${game.bodyCount}</div>` +
      parallelLine();
    if (game.state === 'gameover') {
      message.style.display = 'flex';
      message.innerHTML = `<h1>GAME OVER</h1><div>score ${game.score} — press R or tap restart</div>`;
    } else {
      message.style.display = 'none';
    }
  };

  const sync = overlay.phase('sync');
  let frame = 0;
  let acc = 0;
  app.ticker.add((ticker) => {
    frame++;
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
    get asteroids() {
      return driver.state.asteroids.size;
    },
    get debris() {
      return driver.state.debris.length;
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
