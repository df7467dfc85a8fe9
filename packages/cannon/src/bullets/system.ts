/**
 * The bullets of one world and the per-step sweep (the module comment of `index.ts` describes it):
 * the stages — settings (`settings.ts`), the fast movers (`movers.ts`), the candidates
 * (`candidates.ts`), the sweep (`sweep.ts`) and the response (`response.ts`) — run from
 * {@link BulletSystem.step}, cannon's `postStep` listener.
 */
import { motionFromPoses } from '@sieve/core';
import { Body, type World } from 'cannon-es';
import { bodyParts } from '../ccdShapes.js';
import { broadphaseView } from './broadphaseView.js';
import { gatherCandidates, sweptBox } from './candidates.js';
import { BulletList } from './list.js';
import { Movers } from './movers.js';
import { readPoses } from './poses.js';
import { respond } from './response.js';
import { MA, P0, P1, Q0, Q1 } from './scratch.js';
import {
  type BulletConfig,
  type BulletOptions,
  type BulletStepStats,
  bulletSettingsOf,
  checkBulletOptions,
  existingTracker,
  setSystemMaker,
  setTracker,
  trackerOf,
} from './settings.js';
import { Sweep } from './sweep.js';

// Step stamp shared by every world (a body's cached parts are refreshed once per stamp).
let stepStamp = 0;

/** How a world that wants bullets (`installSieve`) gets its system, once this module is loaded. */
function makeSystem(world: World, options: BulletOptions): BulletSystem {
  return new BulletSystem(world, options);
}

/**
 * Starts sweeping the bullets of `world` (those marked now and later) after each internal step.
 * Throws if already installed (`installSieve` installs bullets by default), or for bad options.
 * Returns the per-world system.
 */
export function installBullets(world: World, options: BulletOptions = {}): BulletSystem {
  if (world == null || !Array.isArray((world as World).bodies)) {
    throw new TypeError('installBullets: world must be a cannon-es World');
  }
  setSystemMaker(makeSystem);
  if (trackerOf(world)) throw new Error('installBullets: bullets are already installed on this world');
  return new BulletSystem(world, options);
}

/**
 * Stops sweeping the bullets of `world` installed by {@link installBullets} (their marks stay; those of
 * `installSieve` go with `uninstallSieve`). Returns false if none was installed.
 */
export function uninstallBullets(world: World): boolean {
  const system = existingTracker(world);
  if (!system) return false;
  system.detach();
  return true;
}

/**
 * The bullet system of `world`, or null: the one {@link installBullets} installed, or that of a world
 * given to `installSieve` (made now if no body of it was marked yet).
 */
export function getBulletSystem(world: World): BulletSystem | null {
  setSystemMaker(makeSystem);
  return (trackerOf(world) as BulletSystem | undefined) ?? null;
}

/** The bullets of one world and the per-step sweep. */
export class BulletSystem {
  /** The world whose bullets this system sweeps. */
  readonly world: World;
  /** What the last internal step did. */
  readonly stats: BulletStepStats = { bullets: 0, swept: 0, candidates: 0, tests: 0, hits: 0 };
  /** Bullets moved back to a contact since installation. */
  totalHits = 0;

  private readonly config: BulletConfig;
  private readonly list = new BulletList();
  private readonly movers = new Movers();
  private readonly sweep: Sweep;
  private readonly candidates: Body[] = [];

  /** Whether the `postStep` listener is on (only while the world has bullets; see the constructor). */
  private hooked = false;
  private unhookQueued = false;
  private readonly onPostStep = (): void => this.step();
  /** Takes the `postStep` listener off if the world still has no bullets (run between steps). */
  private readonly unhookIfIdle = (): void => {
    this.unhookQueued = false;
    if (this.hooked && this.list.bodies.length === 0) {
      this.world.removeEventListener('postStep', this.onPostStep);
      this.hooked = false;
    }
  };
  private readonly onAddBody = (e: { body: Body | null }): void => {
    if (e.body && bulletSettingsOf(e.body)) this.track(e.body);
  };
  private readonly onRemoveBody = (e: { body: Body | null }): void => {
    if (e.body) this.forget(e.body);
  };

  /**
   * Use {@link installBullets}. The per-step `postStep` listener is only on while the world has
   * bullets: it is added when the first body is marked (or a marked body joins the world), and taken
   * off between steps once a step found none — so a world without bullets pays nothing per step. The
   * `addBody`/`removeBody` listeners (which never run during a step unless bodies are added or
   * removed) stay, so a body marked before it joins the world is seen when it does.
   */
  constructor(world: World, options: BulletOptions = {}) {
    this.config = checkBulletOptions(options, 'installBullets');
    this.world = world;
    this.sweep = new Sweep(world, this.config, this.list, this.stats);
    world.addEventListener('addBody', this.onAddBody);
    world.addEventListener('removeBody', this.onRemoveBody);
    setTracker(world, this);
    for (const body of world.bodies) if (bulletSettingsOf(body)) this.track(body);
  }

  /** Bullets in the world. */
  get count(): number {
    return this.list.bodies.length;
  }

  /** The bullets (a copy). */
  get bodies(): Body[] {
    return this.list.bodies.slice();
  }

  /** Removes the listeners and forgets the bullets (called by {@link uninstallBullets}). */
  detach(): void {
    if (this.hooked) this.world.removeEventListener('postStep', this.onPostStep);
    this.hooked = false;
    this.world.removeEventListener('addBody', this.onAddBody);
    this.world.removeEventListener('removeBody', this.onRemoveBody);
    setTracker(this.world, null);
    this.list.clear();
    this.movers.clear();
  }

  /** Adds (or updates the settings of) a marked body of this world. */
  track(body: Body): void {
    const s = bulletSettingsOf(body);
    if (!s) return;
    this.list.set(body, s);
    if (!this.hooked) {
      this.world.addEventListener('postStep', this.onPostStep);
      this.hooked = true;
    }
  }

  /** Removes a body from the bullets of this world (no-op if absent). */
  forget(body: Body): void {
    this.list.remove(body);
  }

  /** The sweep of one internal step (the `postStep` listener). */
  step(): void {
    const world = this.world;
    const stats = this.stats;
    const bullets = this.list.bodies;
    const config = this.config;
    const sweep = this.sweep;
    stats.bullets = bullets.length;
    stats.swept = 0;
    stats.candidates = 0;
    stats.tests = 0;
    stats.hits = 0;
    const dt = world.dt;
    if (bullets.length === 0) {
      // No bullets left: unhook after this step (not inside cannon's listener loop, which would then
      // skip the listener after this one).
      if (this.hooked && !this.unhookQueued) {
        this.unhookQueued = true;
        queueMicrotask(this.unhookIfIdle);
      }
      return;
    }
    if (!(dt > 0) || !Number.isFinite(dt)) return;
    const stamp = ++stepStamp;
    sweep.toiOptions.dt = dt;
    const view = broadphaseView(world.broadphase);
    sweep.treeBoxes = view !== null;
    let moversFound = false;
    for (let i = 0; i < bullets.length; i++) {
      const body = bullets[i];
      if (
        body.type !== Body.DYNAMIC ||
        body.sleepState === Body.SLEEPING ||
        !body.collisionResponse ||
        body.world !== world
      ) {
        continue;
      }
      if (!readPoses(body, P0, Q0, P1, Q1)) continue;
      const parts = bodyParts(body, stamp, config.coreFraction);
      if (!(parts.minExtent < Number.POSITIVE_INFINITY)) continue;
      motionFromPoses(MA, P0, Q0, P1, Q1, dt);
      // fast enough to be swept?
      const v = MA.linearVelocity;
      const w = MA.angularVelocity;
      const angle = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * dt;
      const moved =
        Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * dt +
        2 * parts.maxExtent * Math.sin(0.5 * Math.min(angle, Math.PI));
      if (moved < config.motionThreshold * parts.minExtent || !(moved > 0)) continue;
      stats.swept++;
      if (!sweptBox(parts, dt)) continue;
      if (view !== null && !moversFound) {
        this.movers.find(world, view, stamp, this.list);
        moversFound = true;
      }
      const reach = parts.maxExtent * 1.001 + (config.tolerance ?? 0);
      const n = gatherCandidates(this.candidates, world, view, this.movers, body, stamp, reach);
      stats.candidates += n;
      sweep.begin();
      for (let c = 0; c < n; c++) sweep.testBody(body, parts, this.candidates[c], stamp, dt);
      this.candidates.length = 0;
      if (sweep.bestOther !== null) {
        stats.hits++;
        this.totalHits++;
        respond(world, sweep, this.list, config.slop, body, i, dt);
      }
    }
  }
}
