/**
 * Bullets for cannon-es (issue 8): bodies marked with {@link setBullet} do not pass through thin walls.
 * After each internal step has moved them, each fast bullet is swept from its pose before the step to
 * its pose after it; if it touched something on the way, it is put back at the first contact and its
 * velocity answers that contact: "stop" removes the approach along the contact normal, "bounce"
 * reflects it with a restitution.
 *
 * Per internal step (cannon's `postStep` event, so `world.step(dt)`, `world.step(dt, elapsed,
 * maxSubSteps)` and `world.fixedStep()` are all covered), following the recipe of `@sieve/core`'s
 * `ccd/index.ts`:
 * 1. The motion: cannon's `integrate()` stores each body's pose before it moves
 *    (`previousPosition`, `previousQuaternion`), so `motionFromPoses` of that pose and the current
 *    one is exactly the step's motion (constant velocities) — for the bullet and for everything it may
 *    hit. A bullet that moved less than `motionThreshold` × its smallest half extent is skipped: the
 *    discrete step cannot lose it (Box2D v3's "fast body" test, `solver.c` `b2FinalizeBodiesTask`).
 * 2. The candidates: the union of `sweptBounds` of the bullet's shapes, queried in the
 *    `SieveBroadphase` tree (which holds every body's box from the start of the step) after growing it
 *    by how far the other moving bodies moved this step — except the 64 that moved farthest, which are
 *    tested one by one with their own boxes grown by their own displacement, so a few fast bodies do
 *    not make every query large — plus its planes and other huge bodies. The tree's boxes found are
 *    culled before any body is read: the bullet's centre path (a segment) against each box grown by
 *    the bullet's reach and that body's own displacement; then the two bounding spheres along the
 *    relative path of the centres. Without a `SieveBroadphase`, `world.bodies` is scanned. Bullets do
 *    not sweep against other dynamic bullets (as in Box2D v3: give them a collision group that skips
 *    each other); collision filter groups and masks (body and shape), `collisionResponse` (body and
 *    shape) and constraints with `collideConnected: false` are respected.
 * 3. The time of impact of every bullet shape against every candidate shape (`timeOfImpact`, conservative
 *    advancement: seeds/003_242aab26ee069742.txt §2.4; planes analytically, `planeToi.ts`; shape
 *    mapping in `ccdShapes.ts`), keeping the earliest hit at t > 0. A shape that starts the step
 *    touching or overlapping a body (the engine's solver has that contact) is not stopped there — that
 *    would freeze a bullet sliding on the ground — but its core sphere is (Box2D v3's fallback), so
 *    its centre never crosses the body either; a core that already touches (the shape is 3/4 deep) is
 *    stopped even at t = 0.
 * 4. The response at the earliest hit: the bullet is moved to its pose at t (`poseAtTime`) — carried
 *    on from there with the other body's motion if that one moves, so the two end the step as they
 *    touched — then on into the other body by its remaining gap plus `slop`, so that cannon's
 *    narrowphase sees the contact at the next step (its `collide`/`beginContact` events fire, friction
 *    acts, resting works); the gravity of the lost part of the step is taken back (as Box2D v3 does);
 *    and an impulse along the contact normal n at the contact point (for a box, the middle of its
 *    contact patch), from the relative normal velocity u of the two contact points:
 *    j = (1 + e)·u / (m_A⁻¹ + m_B⁻¹ + (r_A×n)·I_A⁻¹(r_A×n) + (r_B×n)·I_B⁻¹(r_B×n)) — the impulse of
 *    seeds/003 §2.5 (Eqs. 40–41, there with e = 1), e = 0 for "stop". A static or kinematic body has
 *    m⁻¹ = 0 and is not changed; a dynamic one gets the opposite impulse (momentum is kept) and is woken
 *    up. The bullet spends the rest of the step at the contact (no second sweep).
 *
 * Not handled: bullet against bullet; bodies moved by hand inside the step (`preStep` listeners) are
 * seen at their box from the start of the step; a rotating plane is seen with its linear motion only.
 * Convex polyhedra and cylinders are swept as their bounding boxes (conservative). As for cannon's
 * own broadphase, a body moved by hand between steps needs `aabbNeedsUpdate = true`.
 *
 * Cost: nothing while no body is marked; per step with bullets, one pass over `world.bodies` (the
 * moving bodies' displacements), then per fast bullet a tree query, the culls, and one time of impact
 * per shape pair left (a core one more when a shape starts touching). No allocation once warm, but
 * for cannon's contact-material lookup when a default bounce hits.
 */

import {
  type CcdBox,
  type CcdSphere,
  createMotion,
  createTimeOfImpactResult,
  growArray,
  motionFromPoses,
  poseAtTime,
  quatToAxes,
  SLOT_MASK,
  sweptBounds,
  type TimeOfImpactOptions,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  timeOfImpact,
} from '@sieve/core';
import { type AABB, Body, type Broadphase, type Material, type World } from 'cannon-es';
import { SieveBroadphase } from './broadphase.js';
import {
  type BodyParts,
  bodyParts,
  type CcdPart,
  PART_BOX,
  PART_MESH,
  PART_NONE,
  PART_PLANE,
  PART_SPHERE,
} from './ccdShapes.js';
import { PLANE_WORDS, planeOfPart, planeTimeOfImpact } from './planeToi.js';
import { quatMul, rotateVec } from './quat.js';

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

interface Resolved {
  /** 0 bounce, 1 stop. */
  stop: boolean;
  /** Restitution, or NaN for the material rule. */
  restitution: number;
}

const settingsOf = new WeakMap<Body, Resolved>();
const systems = new WeakMap<World, BulletSystem>();

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
    if (world) systems.get(world)?.forget(body);
    return;
  }
  settingsOf.set(body, resolveSettings(bullet === true ? {} : bullet));
  if (world) systems.get(world)?.track(body);
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

function resolveSettings(s: BulletSettings): Resolved {
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
export function checkBulletOptions(
  options: BulletOptions,
  fn: string,
): {
  tolerance: number | undefined;
  maxIterations: number;
  slop: number | undefined;
  motionThreshold: number;
  coreFraction: number;
} {
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

/**
 * Starts sweeping the bullets of `world` (those marked now and later) after each internal step.
 * Throws if already installed, or for bad options. Returns the per-world system.
 */
export function installBullets(world: World, options: BulletOptions = {}): BulletSystem {
  if (world == null || !Array.isArray((world as World).bodies)) {
    throw new TypeError('installBullets: world must be a cannon-es World');
  }
  if (systems.has(world)) throw new Error('installBullets: bullets are already installed on this world');
  const system = new BulletSystem(world, options);
  systems.set(world, system);
  return system;
}

/** Stops sweeping the bullets of `world` (their marks stay). Returns false if it was not installed. */
export function uninstallBullets(world: World): boolean {
  const system = systems.get(world);
  if (!system) return false;
  systems.delete(world);
  system.detach();
  return true;
}

/** The bullet system installed on `world`, or null. */
export function getBulletSystem(world: World): BulletSystem | null {
  return systems.get(world) ?? null;
}

// --- the per-world system -----------------------------------------------------------------------------

/** What this module reads from a SieveBroadphase (its private record tables; same package). */
interface TreeAccess {
  readonly sieve: { queryBounds(bounds: ArrayLike<number>, out: number[]): number };
  readonly recOfSlot: Int32Array;
  /** body.id → record (or −1). */
  readonly recOfId: Int32Array;
  readonly recBody: (Body | null)[];
  /** Each record's box as synced at the start of the step (6 numbers a record). */
  readonly recBounds: Float64Array;
  readonly specials: number[];
}

function treeAccess(bp: Broadphase): TreeAccess | null {
  if (!(bp instanceof SieveBroadphase)) return null;
  const a = bp as unknown as TreeAccess;
  if (
    !(a.recOfSlot instanceof Int32Array) ||
    !(a.recOfId instanceof Int32Array) ||
    !(a.recBounds instanceof Float64Array) ||
    !Array.isArray(a.recBody) ||
    !Array.isArray(a.specials)
  ) {
    return null;
  }
  return a;
}

// Scratch (module level: the system runs one world at a time, nothing is re-entrant).
const MA = createMotion();
const MB = createMotion();
const P0 = new Float64Array(3);
const Q0 = new Float64Array(4);
const P1 = new Float64Array(3);
const Q1 = new Float64Array(4);
const OP0 = new Float64Array(3);
const OQ0 = new Float64Array(4);
const OP1 = new Float64Array(3);
const OQ1 = new Float64Array(4);
// Step stamp shared by every world (a body's cached parts are refreshed once per stamp).
let stepStamp = 0;
/** The swept box of the current bullet, and the tree query (grown by the slow movers' margin). */
const SWEPT = new Float64Array(6);
const QUERY = new Float64Array(6);
/** How many of the fastest moving bodies are tested one by one rather than by growing every query. */
const MOVERS = 64;
/** Displacements at or past this are ignored (planes, NaN or runaway bodies). */
const HUGE = 1e12;
const PART_BOX_SCRATCH = new Float64Array(6);
const PLANE = new Float64Array(PLANE_WORDS);
const OUT = createTimeOfImpactResult();
const POS = new Float64Array(3);
const PATCH = new Float64Array(3);
const AX = new Float64Array(9);
const QUAT = new Float64Array(4);
const SQ = new Float64Array(4);
// best hit: 0 t, 1–3 normal, 4–6 point, 7 distance, 8 push (1/0), 9 core (1/0)
const BEST = new Float64Array(10);
/** The motion of the best hit's other body. */
const BEST_MB = createMotion();
const OPOS = new Float64Array(3);
const OQUAT = new Float64Array(4);
const DQ = new Float64Array(4);
const VEC = new Float64Array(3);

/** The bullets of one world and the per-step sweep (see the module comment). */
export class BulletSystem {
  readonly world: World;
  /** What the last internal step did. */
  readonly stats: BulletStepStats = { bullets: 0, swept: 0, candidates: 0, tests: 0, hits: 0 };
  /** Bullets moved back to a contact since installation. */
  totalHits = 0;

  private readonly tolerance: number | undefined;
  private readonly slop: number | undefined;
  private readonly motionThreshold: number;
  private readonly coreFraction: number;
  private readonly toiOptions: TimeOfImpactOptions;
  private readonly maxIterations: number;

  private list: Body[] = [];
  private stopOf = new Uint8Array(16);
  private restitutionOf = new Float64Array(16);
  /** body.id → index in `list`, or −1. */
  private slotOfId = new Int32Array(64).fill(-1);
  private handles: number[] = [];
  private readonly heapD = new Float64Array(MOVERS);
  private readonly heapBody: (Body | null)[] = new Array(MOVERS).fill(null);
  private readonly fastBoxes = new Float64Array(6 * MOVERS);
  private fastCount = 0;
  private slowMargin = 0;
  /** body.id → stamp of the step in which it is in the fast list. */
  private fastStamp = new Int32Array(64);
  /** Tree record → stamp of the step in which `moveOfRec` holds its displacement (else it is still). */
  private moveStamp = new Int32Array(64);
  private moveOfRec = new Float64Array(64);
  private candidates: Body[] = [];
  /** Whether body AABBs are current (synced by the SieveBroadphase at the start of the step). */
  private treeBoxes = false;
  private bestOther: Body | null = null;
  private bestPart: CcdPart | null = null;
  private bestOtherPart: CcdPart | null = null;

  private readonly onPostStep = (): void => this.step();
  private readonly onAddBody = (e: { body: Body | null }): void => {
    if (e.body && settingsOf.has(e.body)) this.track(e.body);
  };
  private readonly onRemoveBody = (e: { body: Body | null }): void => {
    if (e.body) this.forget(e.body);
  };

  /** Use {@link installBullets}. */
  constructor(world: World, options: BulletOptions = {}) {
    const { tolerance, maxIterations, slop, motionThreshold, coreFraction } = checkBulletOptions(
      options,
      'installBullets',
    );
    this.world = world;
    this.tolerance = tolerance;
    this.slop = slop;
    this.motionThreshold = motionThreshold;
    this.coreFraction = coreFraction;
    this.maxIterations = maxIterations;
    this.toiOptions = { dt: 0, maxIterations: this.maxIterations };
    if (tolerance !== undefined) this.toiOptions.tolerance = tolerance;
    world.addEventListener('postStep', this.onPostStep);
    world.addEventListener('addBody', this.onAddBody);
    world.addEventListener('removeBody', this.onRemoveBody);
    for (const body of world.bodies) if (settingsOf.has(body)) this.track(body);
  }

  /** Bullets in the world. */
  get count(): number {
    return this.list.length;
  }

  /** The bullets (a copy). */
  get bodies(): Body[] {
    return this.list.slice();
  }

  /** Removes the listeners and forgets the bullets (called by {@link uninstallBullets}). */
  detach(): void {
    this.world.removeEventListener('postStep', this.onPostStep);
    this.world.removeEventListener('addBody', this.onAddBody);
    this.world.removeEventListener('removeBody', this.onRemoveBody);
    for (const body of this.list) this.slotOfId[body.id] = -1;
    this.list.length = 0;
    this.heapBody.fill(null);
    this.fastCount = 0;
  }

  /** Adds (or updates the settings of) a marked body of this world. */
  track(body: Body): void {
    const s = settingsOf.get(body);
    if (!s) return;
    const id = body.id;
    const known = this.slotOfId.length;
    this.slotOfId = growArray(this.slotOfId, id + 1);
    this.slotOfId.fill(-1, known); // -1: no slot (nothing is filled when it did not grow)
    let k = this.slotOfId[id];
    if (k < 0 || this.list[k] !== body) {
      k = this.list.length;
      this.list.push(body);
      this.stopOf = growArray(this.stopOf, k + 1);
      this.restitutionOf = growArray(this.restitutionOf, k + 1);
      this.slotOfId[id] = k;
    }
    this.stopOf[k] = s.stop ? 1 : 0;
    this.restitutionOf[k] = s.restitution;
  }

  /** Removes a body from the bullets of this world (no-op if absent). */
  forget(body: Body): void {
    const id = body.id;
    if (id >= this.slotOfId.length) return;
    const k = this.slotOfId[id];
    if (k < 0 || this.list[k] !== body) return;
    const last = this.list.length - 1;
    const moved = this.list[last];
    this.list[k] = moved;
    this.stopOf[k] = this.stopOf[last];
    this.restitutionOf[k] = this.restitutionOf[last];
    this.slotOfId[moved.id] = k;
    this.list.length = last;
    this.slotOfId[id] = -1;
  }

  private isListed(body: Body): boolean {
    const id = body.id;
    if (id >= this.slotOfId.length) return false;
    const k = this.slotOfId[id];
    return k >= 0 && this.list[k] === body;
  }

  /** The sweep of one internal step (the `postStep` listener). */
  step(): void {
    const world = this.world;
    const stats = this.stats;
    stats.bullets = this.list.length;
    stats.swept = 0;
    stats.candidates = 0;
    stats.tests = 0;
    stats.hits = 0;
    const dt = world.dt;
    if (this.list.length === 0 || !(dt > 0) || !Number.isFinite(dt)) return;
    const stamp = ++stepStamp;
    this.toiOptions.dt = dt;
    const access = treeAccess(world.broadphase);
    this.treeBoxes = access !== null;
    let moversFound = false;
    for (let i = 0; i < this.list.length; i++) {
      const body = this.list[i];
      if (
        body.type !== Body.DYNAMIC ||
        body.sleepState === Body.SLEEPING ||
        !body.collisionResponse ||
        body.world !== world
      ) {
        continue;
      }
      if (!readPoses(body, P0, Q0, P1, Q1)) continue;
      const parts = bodyParts(body, stamp, this.coreFraction);
      if (!(parts.minExtent < Number.POSITIVE_INFINITY)) continue;
      motionFromPoses(MA, P0, Q0, P1, Q1, dt);
      // fast enough to be swept?
      const v = MA.linearVelocity;
      const w = MA.angularVelocity;
      const angle = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * dt;
      const moved =
        Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * dt +
        2 * parts.maxExtent * Math.sin(0.5 * Math.min(angle, Math.PI));
      if (moved < this.motionThreshold * parts.minExtent || !(moved > 0)) continue;
      stats.swept++;
      if (!this.sweptBox(parts, dt)) continue;
      if (access !== null && !moversFound) {
        this.findMovers(access, stamp);
        moversFound = true;
      }
      const n = this.gather(access, body, stamp, parts.maxExtent * 1.001 + (this.tolerance ?? 0));
      stats.candidates += n;
      BEST[0] = Number.POSITIVE_INFINITY;
      this.bestOther = null;
      for (let c = 0; c < n; c++) this.testBody(body, parts, this.candidates[c], stamp, dt);
      this.candidates.length = 0;
      if (this.bestOther !== null) this.respond(body, i, dt);
    }
  }

  /** SWEPT = union of the swept bounds of the bullet's parts; false if there is none. */
  private sweptBox(parts: BodyParts, dt: number): boolean {
    let any = false;
    for (const p of parts.parts) {
      if (p.kind !== PART_SPHERE && p.kind !== PART_BOX && p.kind !== PART_MESH) continue;
      sweptBounds(p.ccd as NonNullable<CcdPart['ccd']>, MA, dt, any ? PART_BOX_SCRATCH : SWEPT);
      if (any) {
        for (let k = 0; k < 3; k++) {
          if (PART_BOX_SCRATCH[k] < SWEPT[k]) SWEPT[k] = PART_BOX_SCRATCH[k];
          if (PART_BOX_SCRATCH[3 + k] > SWEPT[3 + k]) SWEPT[3 + k] = PART_BOX_SCRATCH[3 + k];
        }
      }
      any = true;
    }
    return any;
  }

  /**
   * The moving bodies other than bullets, for the tree query (whose boxes are from the start of the
   * step): the {@link MOVERS} that moved farthest this step are kept in a list with their boxes grown
   * by their own displacement (tested against every bullet), and the query box is grown by the largest
   * displacement of all the others (`slowMargin`). So one fast body does not make every query large.
   */
  private findMovers(access: TreeAccess, stamp: number): void {
    const bodies = this.world.bodies;
    const heapD = this.heapD;
    const heapB = this.heapBody;
    const recOfId = access.recOfId;
    const recBody = access.recBody;
    this.moveStamp = growArray(this.moveStamp, recBody.length);
    this.moveOfRec = growArray(this.moveOfRec, recBody.length);
    let count = 0;
    let slow = 0;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      if (b.type === Body.STATIC || b.sleepState === Body.SLEEPING) continue;
      if (b.type === Body.DYNAMIC && this.isListed(b)) continue; // never a candidate
      const d = displacement(b);
      if (!(d > 0 && d < HUGE)) continue;
      // remembered by tree record, for the per-box test of `gather`
      const r = b.id < recOfId.length ? recOfId[b.id] : -1;
      if (r >= 0 && r < recBody.length && recBody[r] === b) {
        this.moveStamp[r] = stamp;
        this.moveOfRec[r] = d;
      }
      if (count < MOVERS) {
        // push and sift up (min-heap on d)
        let k = count++;
        while (k > 0) {
          const parent = (k - 1) >> 1;
          if (heapD[parent] <= d) break;
          heapD[k] = heapD[parent];
          heapB[k] = heapB[parent];
          k = parent;
        }
        heapD[k] = d;
        heapB[k] = b;
      } else if (d > heapD[0]) {
        if (heapD[0] > slow) slow = heapD[0];
        // replace the root and sift down
        let k = 0;
        for (;;) {
          const l = 2 * k + 1;
          if (l >= count) break;
          const c = l + 1 < count && heapD[l + 1] < heapD[l] ? l + 1 : l;
          if (heapD[c] >= d) break;
          heapD[k] = heapD[c];
          heapB[k] = heapB[c];
          k = c;
        }
        heapD[k] = d;
        heapB[k] = b;
      } else if (d > slow) {
        slow = d;
      }
    }
    this.slowMargin = slow;
    this.fastCount = count;
    const boxes = this.fastBoxes;
    for (let k = 0; k < count; k++) {
      const b = heapB[k] as Body;
      const id = b.id;
      this.fastStamp = growArray(this.fastStamp, id + 1);
      this.fastStamp[id] = stamp;
      const l = b.aabb.lowerBound;
      const u = b.aabb.upperBound;
      const d = heapD[k];
      const o = 6 * k;
      boxes[o] = l.x - d;
      boxes[o + 1] = l.y - d;
      boxes[o + 2] = l.z - d;
      boxes[o + 3] = u.x + d;
      boxes[o + 4] = u.y + d;
      boxes[o + 5] = u.z + d;
    }
  }

  /**
   * The bodies that may meet the bullet into `candidates`; returns their count. With the tree: its
   * query by the swept box grown by the slow movers' margin, then — on the tree's own copy of the
   * boxes, before touching any body — the bullet's centre path against each box grown by the bullet's
   * reach plus that margin (a slab test), which leaves the few boxes along the path of a bullet that
   * crosses its query box diagonally.
   */
  private gather(access: TreeAccess | null, self: Body, stamp: number, reach: number): number {
    const out = this.candidates;
    out.length = 0;
    if (access !== null) {
      const m = this.slowMargin;
      for (let k = 0; k < 3; k++) {
        QUERY[k] = SWEPT[k] - m;
        QUERY[3 + k] = SWEPT[3 + k] + m;
      }
      const h = this.handles;
      h.length = 0;
      access.sieve.queryBounds(QUERY, h);
      const recOfSlot = access.recOfSlot;
      const recBody = access.recBody;
      const recBounds = access.recBounds;
      const fastStamp = this.fastStamp;
      const moveStamp = this.moveStamp;
      const moveOfRec = this.moveOfRec;
      for (let k = 0; k < h.length; k++) {
        const r = recOfSlot[h[k] & SLOT_MASK];
        // the box grown by the bullet's reach and by how far this body moved
        const grow = r < moveStamp.length && moveStamp[r] === stamp ? reach + moveOfRec[r] : reach;
        if (!pathMeetsBox(recBounds, 6 * r, grow)) continue;
        const b = recBody[r];
        if (!b || b === self) continue;
        if (b.id < fastStamp.length && fastStamp[b.id] === stamp) continue; // tested below
        out.push(b);
      }
      h.length = 0;
      const specials = access.specials;
      for (let k = 0; k < specials.length; k++) {
        const r = specials[k];
        const b = recBody[r];
        if (b && b !== self && pathMeetsBox(recBounds, 6 * r, reach + m)) out.push(b);
      }
      const boxes = this.fastBoxes;
      for (let k = 0; k < this.fastCount; k++) {
        if (!pathMeetsBox(boxes, 6 * k, reach)) continue;
        const b = this.heapBody[k] as Body;
        if (b !== self) out.push(b);
      }
      return out.length;
    }
    // No Sieve tree: every body, by its bounding sphere at its end pose grown by how far it moved (its
    // AABB may be stale under cannon's own broadphases, and updating it here would clear the
    // `aabbNeedsUpdate` flag other code relies on).
    const bodies = this.world.bodies;
    for (let k = 0; k < bodies.length; k++) {
      const b = bodies[k];
      if (b === self) continue;
      const d = b.type === Body.STATIC || b.sleepState === Body.SLEEPING ? 0 : displacement(b);
      const r = reachOf(b) + d;
      const p = b.position;
      const dx = Math.max(SWEPT[0] - p.x, 0, p.x - SWEPT[3]);
      const dy = Math.max(SWEPT[1] - p.y, 0, p.y - SWEPT[4]);
      const dz = Math.max(SWEPT[2] - p.z, 0, p.z - SWEPT[5]);
      if (!(dx * dx + dy * dy + dz * dz > r * r)) out.push(b);
    }
    return out.length;
  }

  /** Times of impact of the bullet against every shape of `other`, keeping the earliest hit in BEST. */
  private testBody(body: Body, parts: BodyParts, other: Body, stamp: number, dt: number): void {
    // bullets do not sweep against other (dynamic) bullets, as in Box2D v3
    if (other.world !== this.world || !other.collisionResponse) return;
    if (other.type === Body.DYNAMIC && this.isListed(other)) return;
    if (
      (body.collisionFilterGroup & other.collisionFilterMask) === 0 ||
      (other.collisionFilterGroup & body.collisionFilterMask) === 0
    ) {
      return;
    }
    const still = other.type === Body.STATIC || other.sleepState === Body.SLEEPING;
    const p = other.position;
    const q = other.quaternion;
    if (!(p.x - p.x === 0 && p.y - p.y === 0 && p.z - p.z === 0)) return;
    // Capsule cull: both centres move on straight lines, every point of the bullet stays within
    // maxExtent of its centre and every point of the other within its bounding radius of its centre
    // (cannon's rule, from each shape's boundingSphereRadius), so they can touch only if the relative
    // path of the centres comes that close.
    const pp = still ? p : other.previousPosition;
    const ax = P0[0] - pp.x;
    const ay = P0[1] - pp.y;
    const az = P0[2] - pp.z;
    const ex = P1[0] - p.x - ax;
    const ey = P1[1] - p.y - ay;
    const ez = P1[2] - p.z - az;
    const ee = ex * ex + ey * ey + ez * ez;
    const s = ee > 0 ? Math.min(Math.max(-(ax * ex + ay * ey + az * ez) / ee, 0), 1) : 0;
    const dx = ax + s * ex;
    const dy = ay + s * ey;
    const dz = az + s * ez;
    const reach = (parts.maxExtent + reachOf(other)) * 1.001 + (this.tolerance ?? 0);
    if (dx * dx + dy * dy + dz * dz > reach * reach) return;
    // the other's box (from the start of the step, with the tree), grown by how far it moved, against
    // the bullet's swept box
    const margin = still ? 0 : displacement(other);
    if (this.treeBoxes && !overlapsSwept(other.aabb, margin)) return;
    if (this.world.constraints.length > 0 && this.connectedWithoutCollision(body, other)) return;
    const op = bodyParts(other, stamp, this.coreFraction);
    // the other's motion over the step
    if (still) {
      MB.position[0] = p.x;
      MB.position[1] = p.y;
      MB.position[2] = p.z;
      MB.quaternion[0] = q.x;
      MB.quaternion[1] = q.y;
      MB.quaternion[2] = q.z;
      MB.quaternion[3] = q.w;
      MB.linearVelocity.fill(0);
      MB.angularVelocity.fill(0);
    } else {
      if (!readPoses(other, OP0, OQ0, OP1, OQ1)) return;
      motionFromPoses(MB, OP0, OQ0, OP1, OQ1, dt);
    }
    const compound = op.parts.length > 1;
    for (const pa of parts.parts) {
      if (pa.kind === PART_NONE || pa.kind === PART_PLANE || !pa.shape.collisionResponse) continue;
      for (const pb of op.parts) {
        if (pb.kind === PART_NONE || !pb.shape.collisionResponse) continue;
        const sa = pa.shape;
        const sb = pb.shape;
        if ((sa.collisionFilterMask & sb.collisionFilterGroup) === 0) continue;
        if ((sb.collisionFilterMask & sa.collisionFilterGroup) === 0) continue;
        if (compound && pb.kind !== PART_PLANE && !this.partNear(other, pb, margin)) continue;
        this.testPair(pa, pb, other, dt);
      }
    }
  }

  /** Whether the bounding sphere of `other`'s part `pb` (at its end pose, grown by `margin`) meets SWEPT. */
  private partNear(other: Body, pb: CcdPart, margin: number): boolean {
    const o = pb.offset;
    const q = other.quaternion;
    const tx = 2 * (q.y * o[2] - q.z * o[1]);
    const ty = 2 * (q.z * o[0] - q.x * o[2]);
    const tz = 2 * (q.x * o[1] - q.y * o[0]);
    const cx = other.position.x + o[0] + q.w * tx + (q.y * tz - q.z * ty);
    const cy = other.position.y + o[1] + q.w * ty + (q.z * tx - q.x * tz);
    const cz = other.position.z + o[2] + q.w * tz + (q.x * ty - q.y * tx);
    const r = pb.maxExtent - Math.sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) + margin;
    const dx = Math.max(SWEPT[0] - cx, 0, cx - SWEPT[3]);
    const dy = Math.max(SWEPT[1] - cy, 0, cy - SWEPT[4]);
    const dz = Math.max(SWEPT[2] - cz, 0, cz - SWEPT[5]);
    return !(dx * dx + dy * dy + dz * dz > r * r);
  }

  private connectedWithoutCollision(a: Body, b: Body): boolean {
    const cs = this.world.constraints;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (!c.collideConnected && ((c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a)))
        return true;
    }
    return false;
  }

  /** One shape pair: the shape's time of impact, or its core's when the shape starts touching. */
  private testPair(pa: CcdPart, pb: CcdPart, other: Body, dt: number): void {
    this.stats.tests++;
    this.toi(pa, pb, false, dt);
    const s = OUT.status;
    if ((s === TOI_HIT || s === TOI_ITERATION_LIMIT) && OUT.t > 0) {
      this.keep(OUT.t, s === TOI_HIT, false, other, pa, pb);
      return;
    }
    if (
      (s === TOI_HIT || s === TOI_OVERLAP || s === TOI_ITERATION_LIMIT) &&
      pa.core !== null &&
      pa.core.radius > 0
    ) {
      this.stats.tests++;
      this.toi(pa, pb, true, dt);
      // Even at t = 0: the core already touches only when the shape is 3/4 deep, and then it must not
      // go deeper (the engine's solver pushes it back out at the next step).
      const c = OUT.status;
      if (c === TOI_HIT || c === TOI_ITERATION_LIMIT) this.keep(OUT.t, false, true, other, pa, pb);
    }
  }

  /** OUT = time of impact of the bullet part `pa` (or its core) against `pb`. */
  private toi(pa: CcdPart, pb: CcdPart, core: boolean, dt: number): void {
    if (pb.kind === PART_PLANE) {
      planeOfPart(pb.offset, pb.orientation, MB, PLANE);
      // a sphere (the core, or a sphere part) or a box (a box part, or a mesh part's bounding box)
      const sphere = core || pa.kind === PART_SPHERE;
      const offset =
        pa.kind === PART_MESH && !core ? ((pa.bounds as CcdBox).offset as Float64Array) : pa.offset;
      const radius = core ? (pa.core as CcdSphere).radius : pa.kind === PART_SPHERE ? pa.minExtent : 0;
      const h = sphere ? null : pa.halfExtents;
      planeTimeOfImpact(
        offset,
        pa.orientation,
        h,
        radius,
        MA,
        PLANE,
        dt,
        this.tolerance,
        this.maxIterations,
        OUT,
      );
      return;
    }
    const shapeB = pb.ccd as NonNullable<CcdPart['ccd']>;
    const shapeA = core
      ? (pa.core as NonNullable<CcdPart['core']>)
      : pa.kind === PART_MESH && pb.kind === PART_MESH
        ? (pa.bounds as NonNullable<CcdPart['bounds']>)
        : (pa.ccd as NonNullable<CcdPart['ccd']>);
    timeOfImpact(shapeA, MA, shapeB, MB, this.toiOptions, OUT);
  }

  private keep(t: number, push: boolean, core: boolean, other: Body, pa: CcdPart, pb: CcdPart): void {
    if (!(t < BEST[0])) return;
    BEST[0] = t;
    for (let k = 0; k < 3; k++) {
      BEST[1 + k] = OUT.normal[k];
      BEST[4 + k] = OUT.point[k];
      BEST_MB.position[k] = MB.position[k];
      BEST_MB.linearVelocity[k] = MB.linearVelocity[k];
      BEST_MB.angularVelocity[k] = MB.angularVelocity[k];
    }
    for (let k = 0; k < 4; k++) BEST_MB.quaternion[k] = MB.quaternion[k];
    BEST[7] = OUT.distance;
    BEST[8] = push ? 1 : 0;
    BEST[9] = core ? 1 : 0;
    this.bestOther = other;
    this.bestPart = pa;
    this.bestOtherPart = pb;
  }

  /** Moves the bullet to its first contact and applies the response (see the module comment). */
  private respond(body: Body, slot: number, dt: number): void {
    const other = this.bestOther as Body;
    const pa = this.bestPart as CcdPart;
    const pb = this.bestOtherPart as CcdPart;
    this.bestOther = null;
    this.stats.hits++;
    this.totalHits++;
    const t = BEST[0];
    poseAtTime(MA, dt, t, POS, QUAT);
    // A moving other body ends the step at its own end pose: carry the bullet (and the contact) along
    // with it from t to the end, so the two end the step touching as they were at t.
    const w = BEST_MB.angularVelocity;
    const v = BEST_MB.linearVelocity;
    if (v[0] !== 0 || v[1] !== 0 || v[2] !== 0 || w[0] !== 0 || w[1] !== 0 || w[2] !== 0) {
      poseAtTime(BEST_MB, dt, t, OPOS, OQUAT);
      const oq = other.quaternion;
      // ΔQ = q_end ⊗ conj(q_t)
      quatMul(oq.x, oq.y, oq.z, oq.w, -OQUAT[0], -OQUAT[1], -OQUAT[2], OQUAT[3], DQ);
      const op = other.position;
      carry(POS, 0, op.x, op.y, op.z);
      carry(BEST, 4, op.x, op.y, op.z);
      rotateVec(DQ, BEST[1], BEST[2], BEST[3], BEST, 1);
      quatMul(DQ[0], DQ[1], DQ[2], DQ[3], QUAT[0], QUAT[1], QUAT[2], QUAT[3], QUAT);
    }
    const nx = BEST[1];
    const ny = BEST[2];
    const nz = BEST[3];
    let push = 0;
    if (BEST[8] === 1) {
      // into the other body by the remaining gap plus the slop, so cannon's narrowphase sees the contact
      push = Math.max(BEST[7], 0) + (this.slop ?? 0.01 * (pa.minExtent > 0 ? pa.minExtent : pa.size));
      POS[0] += push * nx;
      POS[1] += push * ny;
      POS[2] += push * nz;
    }
    body.position.set(POS[0], POS[1], POS[2]);
    body.quaternion.set(QUAT[0], QUAT[1], QUAT[2], QUAT[3]);
    body.aabbNeedsUpdate = true;
    body.updateInertiaWorld();
    // the gravity of the part of the step not travelled (cannon added all of it to the velocity)
    const lost = (1 - t) * dt;
    const g = this.world.gravity;
    const lf = body.linearFactor;
    const vel = body.velocity;
    vel.x -= lost * g.x * lf.x;
    vel.y -= lost * g.y * lf.y;
    vel.z -= lost * g.z * lf.z;
    // impulse along n (from the bullet A to the other body B) at the contact point: the witness point,
    // or for a box the middle of its contact patch (see patchPoint)
    let px = BEST[4] + push * nx;
    let py = BEST[5] + push * ny;
    let pz = BEST[6] + push * nz;
    if (BEST[9] === 0 && pa.kind === PART_BOX && this.patchPoint(body, pa, other, nx, ny, nz)) {
      // (unless the patch middle does not approach: then the witness point, where the sweep found it)
      if (this.approach(body, other, PATCH[0], PATCH[1], PATCH[2], nx, ny, nz) > 0) {
        px = PATCH[0];
        py = PATCH[1];
        pz = PATCH[2];
      }
    }
    const rax = px - POS[0];
    const ray = py - POS[1];
    const raz = pz - POS[2];
    const rbx = px - other.position.x;
    const rby = py - other.position.y;
    const rbz = pz - other.position.z;
    const wa = body.angularVelocity;
    const u = this.approach(body, other, px, py, pz, nx, ny, nz);
    if (!(u > 0)) return;
    const e = this.stopOf[slot] === 1 ? 0 : this.restitution(slot, body, other, pa, pb);
    // angular terms: (r × n) and I⁻¹(r × n)
    const cax = ray * nz - raz * ny;
    const cay = raz * nx - rax * nz;
    const caz = rax * ny - ray * nx;
    const ia = body.invInertiaWorld.elements;
    const iax = ia[0] * cax + ia[1] * cay + ia[2] * caz;
    const iay = ia[3] * cax + ia[4] * cay + ia[5] * caz;
    const iaz = ia[6] * cax + ia[7] * cay + ia[8] * caz;
    let k = body.invMass + cax * iax + cay * iay + caz * iaz;
    const dynamicOther = other.type === Body.DYNAMIC;
    let ibx = 0;
    let iby = 0;
    let ibz = 0;
    if (dynamicOther) {
      const cbx = rby * nz - rbz * ny;
      const cby = rbz * nx - rbx * nz;
      const cbz = rbx * ny - rby * nx;
      const ib = other.invInertiaWorld.elements;
      ibx = ib[0] * cbx + ib[1] * cby + ib[2] * cbz;
      iby = ib[3] * cbx + ib[4] * cby + ib[5] * cbz;
      ibz = ib[6] * cbx + ib[7] * cby + ib[8] * cbz;
      k += other.invMass + cbx * ibx + cby * iby + cbz * ibz;
    }
    if (!(k > 0)) return;
    const j = ((1 + e) * u) / k;
    const ma = j * body.invMass;
    vel.x -= ma * nx * lf.x;
    vel.y -= ma * ny * lf.y;
    vel.z -= ma * nz * lf.z;
    const af = body.angularFactor;
    wa.x -= j * iax * af.x;
    wa.y -= j * iay * af.y;
    wa.z -= j * iaz * af.z;
    if (dynamicOther) {
      const mb = j * other.invMass;
      const lfb = other.linearFactor;
      const afb = other.angularFactor;
      other.velocity.x += mb * nx * lfb.x;
      other.velocity.y += mb * ny * lfb.y;
      other.velocity.z += mb * nz * lfb.z;
      other.angularVelocity.x += j * ibx * afb.x;
      other.angularVelocity.y += j * iby * afb.y;
      other.angularVelocity.z += j * ibz * afb.z;
      if (other.sleepState !== Body.AWAKE) other.wakeUp();
    }
  }

  /**
   * PATCH = the middle of the box part's contact patch at its new pose: the box's vertices nearest the
   * other body along n (within 2 % of its smallest half extent: a face, an edge or a corner), keeping
   * those that approach the other body if any do. The time of impact reports one witness point, and
   * for a face hitting a wall that is an arbitrary corner of the face: an impulse there would set the
   * box spinning. (For a face hitting something smaller than the face, e.g. a thin pole, the true
   * contact is inside the face: the patch middle misses that torque.) Returns false if no vertex is
   * found (NaN pose).
   */
  private patchPoint(body: Body, pa: CcdPart, other: Body, nx: number, ny: number, nz: number): boolean {
    const o = pa.offset;
    const h = pa.halfExtents;
    // centre = POS + R(QUAT)·offset
    rotateVec(QUAT, o[0], o[1], o[2], VEC);
    const cx = POS[0] + VEC[0];
    const cy = POS[1] + VEC[1];
    const cz = POS[2] + VEC[2];
    // axes of S = QUAT ⊗ orientation
    const b = pa.orientation;
    quatMul(QUAT[0], QUAT[1], QUAT[2], QUAT[3], b[0], b[1], b[2], b[3], SQ);
    quatToAxes(SQ, 0, AX);
    let deepest = 0;
    for (let k = 0; k < 3; k++) {
      const dn = AX[3 * k] * nx + AX[3 * k + 1] * ny + AX[3 * k + 2] * nz;
      deepest += h[k] * Math.abs(dn);
    }
    const eps = 0.02 * pa.minExtent;
    let nearCount = 0;
    let fastCount = 0;
    let nX = 0;
    let nY = 0;
    let nZ = 0;
    let fX = 0;
    let fY = 0;
    let fZ = 0;
    for (let i = 0; i < 8; i++) {
      const s0 = i & 1 ? h[0] : -h[0];
      const s1 = i & 2 ? h[1] : -h[1];
      const s2 = i & 4 ? h[2] : -h[2];
      const ex = s0 * AX[0] + s1 * AX[3] + s2 * AX[6];
      const ey = s0 * AX[1] + s1 * AX[4] + s2 * AX[7];
      const ez = s0 * AX[2] + s1 * AX[5] + s2 * AX[8];
      if (ex * nx + ey * ny + ez * nz < deepest - eps) continue;
      const px = cx + ex;
      const py = cy + ey;
      const pz = cz + ez;
      nearCount++;
      nX += px;
      nY += py;
      nZ += pz;
      // approach speed of this vertex along n, relative to the other body's point there (the body is
      // at POS now)
      const u = this.approach(body, other, px, py, pz, nx, ny, nz);
      if (u > 0) {
        fastCount++;
        fX += px;
        fY += py;
        fZ += pz;
      }
    }
    if (fastCount > 0) {
      PATCH[0] = fX / fastCount;
      PATCH[1] = fY / fastCount;
      PATCH[2] = fZ / fastCount;
      return true;
    }
    if (nearCount > 0) {
      PATCH[0] = nX / nearCount;
      PATCH[1] = nY / nearCount;
      PATCH[2] = nZ / nearCount;
      return true;
    }
    return false;
  }

  /** Approach speed along n of the bullet's point (px, py, pz) relative to the other body's point there. */
  private approach(
    body: Body,
    other: Body,
    px: number,
    py: number,
    pz: number,
    nx: number,
    ny: number,
    nz: number,
  ): number {
    const u = pointSpeed(body, px, py, pz, nx, ny, nz);
    return other.type === Body.STATIC ? u : u - pointSpeed(other, px, py, pz, nx, ny, nz);
  }

  /** Restitution of a bounce: the bullet's own, or cannon's material rule for the pair. */
  private restitution(slot: number, body: Body, other: Body, pa: CcdPart, pb: CcdPart): number {
    const own = this.restitutionOf[slot];
    if (!Number.isNaN(own)) return own;
    const world = this.world;
    let cm = null;
    const sa = pa.shape.material;
    const sb = pb.shape.material;
    if (sa && sb) cm = world.getContactMaterial(sa, sb) ?? null;
    const ma: Material | null = body.material;
    const mb: Material | null = other.material;
    if (!cm && ma && mb) cm = world.getContactMaterial(ma, mb) ?? null;
    let e = (cm ?? world.defaultContactMaterial).restitution;
    if (ma && mb && ma.restitution >= 0 && mb.restitution >= 0) e = ma.restitution * mb.restitution;
    return Number.isNaN(e) || e < 0 ? 0 : e;
  }
}

/** Speed along n of the point (px, py, pz) moving with body b: (v + ω × (p − x))·n. */
function pointSpeed(b: Body, px: number, py: number, pz: number, nx: number, ny: number, nz: number): number {
  const v = b.velocity;
  const w = b.angularVelocity;
  const x = b.position;
  const rx = px - x.x;
  const ry = py - x.y;
  const rz = pz - x.z;
  return (
    (v.x + w.y * rz - w.z * ry) * nx + (v.y + w.z * rx - w.x * rz) * ny + (v.z + w.x * ry - w.y * rx) * nz
  );
}

/** p0/q0/p1/q1 = the body's poses before and after the step; false if not finite. */
function readPoses(
  body: Body,
  p0: Float64Array,
  q0: Float64Array,
  p1: Float64Array,
  q1: Float64Array,
): boolean {
  const a = body.previousPosition;
  const b = body.position;
  const qa = body.previousQuaternion;
  const qb = body.quaternion;
  p0[0] = a.x;
  p0[1] = a.y;
  p0[2] = a.z;
  p1[0] = b.x;
  p1[1] = b.y;
  p1[2] = b.z;
  q0[0] = qa.x;
  q0[1] = qa.y;
  q0[2] = qa.z;
  q0[3] = qa.w;
  q1[0] = qb.x;
  q1[1] = qb.y;
  q1[2] = qb.z;
  q1[3] = qb.w;
  for (let k = 0; k < 3; k++) if (!(p0[k] - p0[k] === 0 && p1[k] - p1[k] === 0)) return false;
  return finiteQuat(q0) && finiteQuat(q1);
}

function finiteQuat(q: Float64Array): boolean {
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  return n > 0 && n - n === 0;
}

/**
 * Whether the bullet's centre path P0 → P1 meets the box `b[o..o+5]` grown by `grow` (slab clipping;
 * the grown box contains every point within `grow` of the box). Infinite boxes (planes) pass; NaN
 * boxes fail.
 */
function pathMeetsBox(b: Float64Array, o: number, grow: number): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const lo = b[o + k] - grow;
    const hi = b[o + 3 + k] + grow;
    const p = P0[k];
    const d = P1[k] - p;
    if (d === 0) {
      if (!(p >= lo && p <= hi)) return false;
      continue;
    }
    let ta = (lo - p) / d;
    let tb = (hi - p) / d;
    if (ta > tb) {
      const x = ta;
      ta = tb;
      tb = x;
    }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (!(t0 <= t1)) return false;
  }
  return true;
}

/**
 * p[o..o+2] = (ex, ey, ez) + R(DQ)·(p − OPOS): a point carried by the other body's motion from its
 * pose at t (OPOS) to its end pose.
 */
function carry(p: Float64Array, o: number, ex: number, ey: number, ez: number): void {
  rotateVec(DQ, p[o] - OPOS[0], p[o + 1] - OPOS[1], p[o + 2] - OPOS[2], p, o);
  p[o] += ex;
  p[o + 1] += ey;
  p[o + 2] += ez;
}

/** Whether a cannon AABB grown by `m` overlaps SWEPT (inclusive; false for NaN boxes). */
function overlapsSwept(b: AABB, m: number): boolean {
  const l = b.lowerBound;
  const u = b.upperBound;
  return (
    l.x - m <= SWEPT[3] &&
    u.x + m >= SWEPT[0] &&
    l.y - m <= SWEPT[4] &&
    u.y + m >= SWEPT[1] &&
    l.z - m <= SWEPT[5] &&
    u.z + m >= SWEPT[2]
  );
}

/**
 * Largest distance of a point of the body from its centre: max over shapes of |offset| +
 * `boundingSphereRadius` (cannon's `updateBoundingRadius`, recomputed here so a resized shape is seen).
 */
function reachOf(b: Body): number {
  const shapes = b.shapes;
  const offsets = b.shapeOffsets;
  let r = 0;
  for (let i = 0; i < shapes.length; i++) {
    const o = offsets[i];
    const x = o ? Math.sqrt(o.x * o.x + o.y * o.y + o.z * o.z) + shapes[i].boundingSphereRadius : 0;
    if (x > r || Number.isNaN(x)) r = x;
  }
  return r;
}

/**
 * How far any point of a body moved this step: |Δp| + 2·L·sin(θ/2) from its poses before and after
 * (θ the rotation between them, L its bounding radius).
 */
function displacement(b: Body): number {
  const p = b.position;
  const pp = b.previousPosition;
  const q = b.quaternion;
  const qp = b.previousQuaternion;
  const dx = p.x - pp.x;
  const dy = p.y - pp.y;
  const dz = p.z - pp.z;
  const lin = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const dot = q.x * qp.x + q.y * qp.y + q.z * qp.z + q.w * qp.w;
  if (q.x === qp.x && q.y === qp.y && q.z === qp.z && q.w === qp.w) return lin; // no ∞ · 0 for planes
  const qq =
    (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) * (qp.x * qp.x + qp.y * qp.y + qp.z * qp.z + qp.w * qp.w);
  const c2 = qq > 0 ? (dot * dot) / qq : 1; // cos²(θ/2)
  return lin + 2 * b.boundingRadius * Math.sqrt(Math.max(0, 1 - c2));
}
