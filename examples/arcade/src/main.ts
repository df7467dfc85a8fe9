/**
 * Sieve arcade: asteroids on pixi.js + matter-js, with a live switch between stock matter-js and Sieve
 * collision detection (@sieve/matter) and a timing overlay (@sieve/overlay).
 *
 * Keys: ←/→ or A/D turn, ↑ or W thrust, Space fire; F floods 2500 debris bodies, X clears them,
 * C switches stock ↔ Sieve, O cycles the overlay, R restarts. Touch: the on-screen buttons.
 * URL: `?seed=N` fixes the field, `?mode=stock|sieve` the starting detector, `?touch=1` shows the touch
 * pad, `?flood=N` starts with N debris, `?test=1` the end-to-end test layout (one fixed step per frame,
 * an asteroid right in front of the ship).
 */
import { attachToPixiTicker, Overlay } from '@sieve/overlay';
import { Application } from 'pixi.js';
import { type CollisionMode, CollisionSwitch } from './collision.js';
import { Game, STEP_MS } from './game.js';
import { type Action, Controls } from './input.js';
import { View } from './view.js';

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
    title: 'arcade',
    phases: ['physics', 'collision', 'broadphase', 'narrowphase', 'sync'],
    counters: ['bodies', 'candidates', 'collisions', 'pairs'],
    toggleKey: null, // the game binds O itself
    corner: 'top-right',
    width: OVERLAY_WIDTH,
    graphHeight: 36,
    segment: startMode,
  });

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
  collision = new CollisionSwitch(game.engine, overlay, startMode);
  const flood = Number(params.get('flood') ?? 0);
  if (flood > 0) game.flood(flood);

  const view = new View(app, game, () => (overlay.mode === 'hidden' ? 0 : OVERLAY_WIDTH + 8));
  const hud = document.getElementById('hud')!;
  const message = document.getElementById('message')!;

  const act = (action: Action) => {
    switch (action) {
      case 'flood':
        game.flood(FLOOD);
        break;
      case 'clear':
        game.clearDebris();
        break;
      case 'mode':
        overlay.beginSegment(collision.toggle());
        break;
      case 'overlay':
        overlay.toggle();
        break;
      case 'restart':
        game.restart();
        break;
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

  let hudKey = '';
  const updateHud = () => {
    const key = `${game.score}|${game.lives}|${game.wave}|${game.state}|${collision.mode}|${game.debris.length}`;
    if (key === hudKey) return;
    hudKey = key;
    const mode = collision.mode;
    hud.innerHTML =
      `<div class="big">SCORE ${game.score}   ${'▲ '.repeat(Math.max(0, game.lives))}</div>` +
      `<div>wave ${game.wave} · collision: <b class="mode-${mode}">${mode === 'sieve' ? 'Sieve' : 'stock matter-js'}</b> (C)</div>` +
      `<div>debris ${game.debris.length} (F floods, X clears) · bodies ${game.bodyCount}</div>`;
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
    // Fixed steps; at most 2 per frame so a slow detector cannot spiral. Tests: exactly one per frame.
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
    for (let i = 0; i < steps; i++) game.step(controls.input);
    overlay.begin(sync);
    view.sync(game);
    updateHud();
    overlay.end();
    overlay.count('bodies', game.bodyCount);
    const candidates = collision.candidatePairs;
    if (!Number.isNaN(candidates)) overlay.count('candidates', candidates);
    overlay.count('collisions', collision.collisions);
    overlay.count('pairs', game.engine.pairs.list.length);
  });
  // Times pixi's render as the phase 'render' and closes each overlay frame after it.
  attachToPixiTicker(app, overlay);

  window.__arcade = {
    get frame() {
      return frame;
    },
    get steps() {
      return game.steps;
    },
    get score() {
      return game.score;
    },
    get lives() {
      return game.lives;
    },
    get state() {
      return game.state;
    },
    get mode() {
      return collision.mode;
    },
    get asteroids() {
      return game.asteroids.size;
    },
    get debris() {
      return game.debris.length;
    },
    get bodies() {
      return game.bodyCount;
    },
    get shotsFired() {
      return game.shotsFired;
    },
    get ship() {
      const { position: p, velocity: v } = game.ship;
      return { x: p.x, y: p.y, vx: v.x, vy: v.y, alive: game.shipAlive };
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
