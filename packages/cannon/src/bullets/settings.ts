/**
 * Bullet settings and options of the cannon-es adapter: which bodies are bullets (a mark per body,
 * kept in a `WeakMap`, so a body can be marked before it joins a world), how each answers its first
 * contact, and the per-world options with their checks. The sweep itself is `system.ts`.
 */
import type { Body, World } from 'cannon-es';

/** How a bullet answers its first contact. */
export interface BulletSettings {
  /**
   * `'bounce'` (default): the approach along the contact normal is reflected with `restitution`;
   * `'stop'`: it is removed (a bounce with restitution 0).
   */
  response?: 'stop' | 'bounce';
  /**
   * Restitution of a bounce, ≥ 0. Default: cannon's own rule for the pair — the contact material of the
   * two shapes' or bodies' materials (else the world's default contact material, restitution 0, so a
   * default bounce is a stop), overridden by the product of the two bodies' material restitutions when
   * both are set.
   */
  restitution?: number;
}

/** Options of {@link installBullets} (and of `installSieve(world, { bullets })`). */
export interface BulletOptions {
  /**
   * Distance at which a bullet counts as touching (world units, > 0). Default: `timeOfImpact`'s,
   * 1e-3 × the smaller shape's size.
   */
  tolerance?: number;
  /** Cap on conservative-advancement steps per time of impact (integer ≥ 1). Default 128. */
  maxIterations?: number;
  /**
   * How far past the contact a stopped bullet is put, so that cannon's narrowphase sees the contact
   * at the next step (world units, ≥ 0). Default: 1 % of the bullet shape's smallest half extent
   * (radius of a sphere).
   */
  slop?: number;
  /**
   * Bullets that move less than this fraction of their smallest half extent in a step are not swept
   * (≥ 0; 0 sweeps every awake bullet every step). Default 0.5.
   */
  motionThreshold?: number;
  /** Radius of the core sphere as a fraction of a shape's smallest half extent, in (0, 1]. Default 0.25. */
  coreFraction?: number;
}

/** What the last internal step did (reset at each step). */
export interface BulletStepStats {
  /** Bullets in the world. */
  bullets: number;
  /** Bullets fast enough to be swept. */
  swept: number;
  /** Candidate bodies left by the broadphase query and the path cull (before the per-body tests). */
  candidates: number;
  /** Time-of-impact computations (shape pairs, cores included). */
  tests: number;
  /** Bullets moved back to a contact. */
  hits: number;
}

/** A bullet's settings, checked: how it answers its first contact. */
export interface ResolvedSettings {
  /** 0 bounce, 1 stop. */
  stop: boolean;
  /** Restitution, or NaN for the material rule. */
  restitution: number;
}

/** The options of {@link BulletOptions} with their defaults. */
export interface BulletConfig {
  tolerance: number | undefined;
  maxIterations: number;
  slop: number | undefined;
  motionThreshold: number;
  coreFraction: number;
}

/** What a world's bullet system does when a body of that world is marked or unmarked. */
interface Tracker {
  track(body: Body): void;
  forget(body: Body): void;
}

const settingsOf = new WeakMap<Body, ResolvedSettings>();
const trackers = new WeakMap<World, Tracker>();

/** The checked settings of a marked body, or undefined. */
export function bulletSettingsOf(body: Body): ResolvedSettings | undefined {
  return settingsOf.get(body);
}

/** Registers (or, with null, removes) the system that tracks the bullets of `world`. */
export function setTracker(world: World, tracker: Tracker | null): void {
  if (tracker) trackers.set(world, tracker);
  else trackers.delete(world);
}

function systemOf(world: World): Tracker | undefined {
  return trackers.get(world);
}

/**
 * Marks `body` as a bullet (`true` or settings: see {@link BulletSettings}) or unmarks it (`false`).
 * Works before or after the body is added to a world; a world sweeps its bullets once bullets are
 * installed on it (`installSieve(world)` does it by default, or {@link installBullets}). Only dynamic
 * bodies are swept. Throws a TypeError/RangeError for a non-body or bad settings.
 */
export function setBullet(body: Body, bullet: boolean | BulletSettings = true): void {
  if (body == null || typeof body !== 'object' || !Array.isArray((body as Body).shapes)) {
    throw new TypeError('setBullet: body must be a cannon-es Body');
  }
  const world = body.world;
  if (bullet === false) {
    settingsOf.delete(body);
    if (world) systemOf(world)?.forget(body);
    return;
  }
  settingsOf.set(body, resolveSettings(bullet === true ? {} : bullet));
  if (world) systemOf(world)?.track(body);
}

/** Whether `body` is marked as a bullet. */
export function isBullet(body: Body): boolean {
  return settingsOf.has(body);
}

/** The settings of a bullet (`restitution` undefined: cannon's material rule), or null if not a bullet. */
export function getBulletSettings(body: Body): BulletSettings | null {
  const s = settingsOf.get(body);
  if (!s) return null;
  return Number.isNaN(s.restitution)
    ? { response: s.stop ? 'stop' : 'bounce' }
    : { response: s.stop ? 'stop' : 'bounce', restitution: s.restitution };
}

function resolveSettings(s: BulletSettings): ResolvedSettings {
  if (s === null || typeof s !== 'object') {
    throw new TypeError('setBullet: bullet must be true, false or { response?, restitution? }');
  }
  const response = s.response ?? 'bounce';
  if (response !== 'stop' && response !== 'bounce') {
    throw new RangeError(`setBullet: response must be 'stop' or 'bounce', got ${String(response)}`);
  }
  let restitution = Number.NaN;
  if (s.restitution !== undefined) {
    restitution = s.restitution;
    if (typeof restitution !== 'number' || !Number.isFinite(restitution) || restitution < 0) {
      throw new RangeError(`setBullet: restitution must be a finite number >= 0, got ${String(restitution)}`);
    }
  }
  return { stop: response === 'stop', restitution };
}

/**
 * Checks `options` (throwing a TypeError/RangeError naming the bad option, as `fn`) and returns them
 * with their defaults.
 */
export function checkBulletOptions(options: BulletOptions, fn: string): BulletConfig {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`${fn}: options must be an object`);
  const { tolerance, maxIterations, slop } = options;
  if (
    tolerance !== undefined &&
    !(typeof tolerance === 'number' && tolerance > 0 && Number.isFinite(tolerance))
  ) {
    throw new RangeError(`${fn}: tolerance must be a finite number > 0, got ${String(tolerance)}`);
  }
  if (maxIterations !== undefined && !(Number.isInteger(maxIterations) && maxIterations >= 1)) {
    throw new RangeError(`${fn}: maxIterations must be an integer >= 1, got ${String(maxIterations)}`);
  }
  if (slop !== undefined && !(typeof slop === 'number' && slop >= 0 && Number.isFinite(slop))) {
    throw new RangeError(`${fn}: slop must be a finite number >= 0, got ${String(slop)}`);
  }
  const motionThreshold = options.motionThreshold ?? 0.5;
  if (!(typeof motionThreshold === 'number' && motionThreshold >= 0 && Number.isFinite(motionThreshold))) {
    throw new RangeError(
      `${fn}: motionThreshold must be a finite number >= 0, got ${String(motionThreshold)}`,
    );
  }
  const coreFraction = options.coreFraction ?? 0.25;
  if (!(typeof coreFraction === 'number' && coreFraction > 0 && coreFraction <= 1)) {
    throw new RangeError(`${fn}: coreFraction must be a number in (0, 1], got ${String(coreFraction)}`);
  }
  return { tolerance, maxIterations: maxIterations ?? 128, slop, motionThreshold, coreFraction };
}
