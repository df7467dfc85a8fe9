/**
 * Bullet settings and options of the cannon-es adapter: which bodies are bullets (a mark per body,
 * kept in a `WeakMap`, so a body can be marked before it joins a world), how each answers its first
 * contact, the per-world options with their checks, and which worlds have (or want) a bullet system.
 * The sweep itself is `system.ts`; `setBullet` (`mark.ts`) is what brings it into a bundle.
 *
 * A world given to `installSieve` only *wants* bullets: its system is made when the first of its bodies
 * is marked, so a page that never marks one never loads the sweep (nor the continuous collision of
 * `@sieve/core`). Nothing here imports the sweep.
 */
import { checkOptionKeys, optionKeys } from '@sieve/core';
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

/**
 * The keys of {@link BulletSettings}: `setBullet` throws a `TypeError` naming any other key. Kept
 * complete by the compiler (`optionKeys`): add a new setting here too.
 */
const BULLET_SETTING_KEYS = optionKeys<BulletSettings>({ response: true, restitution: true });

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

/**
 * The keys of {@link BulletOptions}: any other key throws a `TypeError` naming it. Kept complete by
 * the compiler (`optionKeys`): add a new option here too.
 */
const BULLET_OPTION_KEYS = optionKeys<BulletOptions>({
  tolerance: true,
  maxIterations: true,
  slop: true,
  motionThreshold: true,
  coreFraction: true,
});

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

/** What a world's bullet system does when a body of that world is marked or unmarked, or it is removed. */
export interface Tracker {
  track(body: Body): void;
  forget(body: Body): void;
  detach(): void;
}

const settingsOf = new WeakMap<Body, ResolvedSettings>();
const trackers = new WeakMap<World, Tracker>();
/** Worlds that want bullets (`installSieve`), with their checked options and the `addBody` listener. */
const wanted = new WeakMap<World, { options: BulletOptions; onAdd: (e: { body: Body | null }) => void }>();
/** Makes a world's bullet system: set by `mark.ts` (the first `setBullet`), so only then in a bundle. */
let makeSystem: ((world: World, options: BulletOptions) => Tracker) | null = null;

/** The checked settings of a marked body, or undefined. */
export function bulletSettingsOf(body: Body): ResolvedSettings | undefined {
  return settingsOf.get(body);
}

/** Registers (or, with null, removes) the system that tracks the bullets of `world`. */
export function setTracker(world: World, tracker: Tracker | null): void {
  if (tracker) trackers.set(world, tracker);
  else trackers.delete(world);
}

/** The bullet system of `world` (installed, or made for a world that wants bullets), if any. */
export function trackerOf(world: World): Tracker | undefined {
  return trackers.get(world) ?? makeWanted(world);
}

/** The bullet system already on `world`, without making one. */
export function existingTracker(world: World): Tracker | undefined {
  return trackers.get(world);
}

/** Makes the system of a world that wants bullets, once the maker is known (a body was marked). */
function makeWanted(world: World): Tracker | undefined {
  const want = wanted.get(world);
  return want && makeSystem ? makeSystem(world, want.options) : undefined;
}

/** Sets how a world's bullet system is made (from `mark.ts`, before any body is marked). */
export function setSystemMaker(maker: (world: World, options: BulletOptions) => Tracker): void {
  makeSystem = maker;
}

/**
 * Records that `world` sweeps its bullets with `options` (already checked) from the moment one of its
 * bodies is marked — now, or when a marked body joins it. Makes the system at once if a body is
 * already marked and the maker known.
 */
export function wantBullets(world: World, options: BulletOptions): void {
  const onAdd = (e: { body: Body | null }): void => {
    if (e.body && settingsOf.has(e.body) && !trackers.has(world)) makeWanted(world);
  };
  wanted.set(world, { options, onAdd });
  world.addEventListener('addBody', onAdd);
  for (const body of world.bodies) {
    if (settingsOf.has(body)) {
      makeWanted(world);
      break;
    }
  }
}

/** Whether `world` wants bullets (see {@link wantBullets}). */
export function wantsBullets(world: World): boolean {
  return wanted.has(world);
}

/** Undoes {@link wantBullets} and takes off the system made for it, if any (marks stay with the bodies). */
export function dropBullets(world: World): void {
  const want = wanted.get(world);
  if (!want) return;
  wanted.delete(world);
  world.removeEventListener('addBody', want.onAdd);
  const tracker = trackers.get(world);
  if (tracker) {
    trackers.delete(world);
    tracker.detach();
  }
}

/**
 * Marks or unmarks `body` (see `setBullet` in `mark.ts`, which makes the world's system first) and tells
 * its world's system. Throws a TypeError/RangeError for a non-body or bad settings.
 */
export function markBullet(body: Body, bullet: boolean | BulletSettings): void {
  if (body == null || typeof body !== 'object' || !Array.isArray((body as Body).shapes)) {
    throw new TypeError('setBullet: body must be a cannon-es Body');
  }
  const world = body.world;
  if (bullet === false) {
    settingsOf.delete(body);
    if (world) trackers.get(world)?.forget(body);
    return;
  }
  settingsOf.set(body, resolveSettings(bullet === true ? {} : bullet));
  if (world) trackerOf(world)?.track(body);
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
  checkOptionKeys('setBullet: settings', s, BULLET_SETTING_KEYS);
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

const FINITE_NON_NEGATIVE = 'a finite number >= 0';

/** Throws the `RangeError` `${fn}: ${name} must be ${what}, got ${value}` unless `ok`. */
function must(ok: boolean, fn: string, name: string, what: string, value: unknown): void {
  if (!ok) throw new RangeError(`${fn}: ${name} must be ${what}, got ${String(value)}`);
}

/**
 * Checks `options` (throwing a TypeError/RangeError naming the bad option, as `fn`) and returns them
 * with their defaults.
 */
export function checkBulletOptions(options: BulletOptions, fn: string): BulletConfig {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`${fn}: options must be an object`);
  checkOptionKeys(
    fn === 'installSieve' ? 'installSieve: options.bullets' : `${fn}: options`,
    options,
    BULLET_OPTION_KEYS,
  );
  const { tolerance, maxIterations, slop } = options;
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  must(
    tolerance === undefined || (finite(tolerance) && tolerance > 0),
    fn,
    'tolerance',
    'a finite number > 0',
    tolerance,
  );
  must(
    maxIterations === undefined || (Number.isInteger(maxIterations) && maxIterations >= 1),
    fn,
    'maxIterations',
    'an integer >= 1',
    maxIterations,
  );
  must(slop === undefined || (finite(slop) && slop >= 0), fn, 'slop', FINITE_NON_NEGATIVE, slop);
  const motionThreshold = options.motionThreshold ?? 0.5;
  must(
    finite(motionThreshold) && motionThreshold >= 0,
    fn,
    'motionThreshold',
    FINITE_NON_NEGATIVE,
    motionThreshold,
  );
  const coreFraction = options.coreFraction ?? 0.25;
  must(
    typeof coreFraction === 'number' && coreFraction > 0 && coreFraction <= 1,
    fn,
    'coreFraction',
    'a number in (0, 1]',
    coreFraction,
  );
  return { tolerance, maxIterations: maxIterations ?? 128, slop, motionThreshold, coreFraction };
}
