/**
 * "Bullets" for matter-js: bodies that stop at (or bounce from) their first contact in an
 * `Engine.update` instead of passing through thin or small bodies. Post-step correction, as the
 * recipe in `@sieve/core`'s `ccd/index.ts` describes: record each bullet's pose in `beforeUpdate`; in
 * `afterUpdate` build its motion over the update (`motion2FromPoses`, dt = 1: matter's units are per
 * update), gather the bodies its swept bounds overlap (the `queryBounds` of the broadphase passed to
 * the engine's {@link SieveDetector} while its broadphase path answers, else a scan of
 * `detector.bodies`),
 * find the earliest time of impact by conservative advancement (`timeOfImpact2D`,
 * the hard-rigid-body event-driven MD paper §2.4–2.5, Eq. 32), move the bullet back to that pose and
 * remove (stop) or reflect (bounce) the approaching part of its velocity along the contact normal.
 *
 * Rules and approximations (documented choices):
 * - Candidates pass matter's own filters: `Detector.canCollide` on the parents' collision filters; the
 *   bullet itself is skipped; parts that are sensors (`isSensor`) are not hits (matter would not stop
 *   anything there either); a bullet that is itself a sensor is still stopped (so a sensor shot, as in
 *   the arcade example, can be told about the hit with `onHit`).
 * - Shapes: a part with `circleRadius` (made by `Bodies.circle`) is a circle of that radius — matter's
 *   polygon is inscribed in it, so this is conservative; any other part is the box bounding its
 *   vertices in its body's frame (exact for rectangles, conservative for other polygons: a bullet may
 *   stop up to the gap between a polygon and its box early). Compound bodies are tested per part.
 * - Other bodies move over the update from (`positionPrev`, `anglePrev`) to (`position`, `angle`);
 *   static bodies stand still. Candidates come from their bounds at detection time (or now, when
 *   scanning): a fast non-bullet body crossing the bullet's path may be missed — make it a bullet too.
 * - A contact already present at the update's start (`TOI_OVERLAP`) is left to matter's solver, so a
 *   bullet resting on (or starting inside) something is never frozen there. After a stop the bullet
 *   rests a tolerance (≈1e-3 × its size) away from the surface, moving along it.
 * - Bullets removed from the world are skipped (found by one scan of `detector.bodies` each time the
 *   world or the marks change); marks are kept in a `WeakMap`, so a discarded body needs no unmarking.
 *
 * API, as `@sieve/cannon`'s: `installBullets(engine)` once, then `setBullet(body, settings)` /
 * `setBullet(body, false)` / `isBullet(body)`. The former engine-first forms still work (deprecated).
 */

import type { CcdShape2D } from '@sieve/core';
import {
  checkOptionKeys,
  createMotion2D,
  createTimeOfImpactResult2D,
  motion2FromPoses,
  optionKeys,
  poseAtTime2D,
  sweptBounds2D,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  timeOfImpact2D,
} from '@sieve/core';
import Matter from 'matter-js';
import type { MatterBodyLike, MatterEngineLike } from './matterTypes.js';
import { getSieve } from './registry.js';

/** What a bullet does at its first contact. */
export type BulletResponse = 'stop' | 'bounce';

/** Where and when a bullet hit: one reused object, valid during the `onHit` call only. */
export interface BulletHit {
  /** Fraction of the update at the contact, in [0, 1]. */
  t: number;
  /** Unit contact normal, from the bullet towards the other body: x component. */
  normalX: number;
  /** Unit contact normal: y component. */
  normalY: number;
  /** Contact point (world): x. */
  pointX: number;
  /** Contact point (world): y. */
  pointY: number;
  /** The part of the other body that was hit (the body itself unless compound). */
  part: MatterBodyLike;
}

/** How a bullet answers its first contact (the second argument of {@link setBullet}). */
export interface BulletSettings {
  /** `'stop'` (default): remove the approaching normal velocity. `'bounce'`: reflect it. */
  response?: BulletResponse;
  /** Bounce only: the share of the normal speed kept, in [0, 1]. Default: the body's `restitution`. */
  restitution?: number;
  /**
   * Called in `afterUpdate` for each hit, after the bullet was moved back and its velocity changed.
   * Do not add or remove bodies here (matter may still iterate them); queue the work instead.
   */
  onHit?: (bullet: MatterBodyLike, other: MatterBodyLike, hit: BulletHit) => void;
}

/**
 * The keys of {@link BulletSettings}: `setBullet` throws a `TypeError` naming any other key. Kept
 * complete by the compiler (`optionKeys`): add a new setting here too.
 */
const BULLET_SETTING_KEYS = optionKeys<BulletSettings>({ response: true, restitution: true, onHit: true });

/** @deprecated Renamed {@link BulletSettings} (the name `@sieve/cannon` uses). */
export type BulletOptions = BulletSettings;

/** A bullet's checked settings. */
interface ResolvedSettings {
  bounce: boolean;
  /** NaN: the body's restitution. */
  restitution: number;
  onHit: BulletSettings['onHit'];
}

/** Marked bodies (a mark per body, so a body can be marked before it joins a world). */
const marks = new WeakMap<object, ResolvedSettings>();
/** Bumped by every mark or unmark: systems resynchronise their records when it changed. */
let marksVersion = 0;

/** The fields of a `Matter.Body` the bullets read, beyond {@link MatterBodyLike}. */
interface BodyLike extends MatterBodyLike {
  position: { x: number; y: number };
  positionPrev: { x: number; y: number };
  angle: number;
  anglePrev: number;
  velocity: { x: number; y: number };
  vertices: { x: number; y: number }[];
  circleRadius?: number;
  isSensor: boolean;
  restitution: number;
  parent: BodyLike;
  parts: BodyLike[];
}

interface BulletRecord {
  body: BodyLike;
  bounce: boolean;
  /** NaN: the body's restitution. */
  restitution: number;
  onHit: BulletSettings['onHit'];
  x0: number;
  y0: number;
  a0: number;
  /** Update count at which the start pose was recorded (−1: never). */
  recorded: number;
  inWorld: boolean;
}

/** A reusable slot for one part's shape (circle or box, in its body's frame). */
class ShapeSlot {
  readonly circle = { kind: 'circle' as const, radius: 0, offset: new Float64Array(2) };
  readonly box = {
    kind: 'box' as const,
    halfExtents: new Float64Array(2),
    offset: new Float64Array(2),
    angle: 0,
  };

  /** Fills and returns the shape of `part` in the frame of `body` (its parent) at their current pose. */
  of(part: BodyLike, body: BodyLike): CcdShape2D {
    const c = Math.cos(body.angle);
    const s = Math.sin(body.angle);
    const px = body.position.x;
    const py = body.position.y;
    const r = part.circleRadius;
    if (typeof r === 'number' && r > 0) {
      const dx = part.position.x - px;
      const dy = part.position.y - py;
      // Rotate by −angle into the body's frame.
      this.circle.offset[0] = dx * c + dy * s;
      this.circle.offset[1] = -dx * s + dy * c;
      this.circle.radius = r;
      return this.circle;
    }
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    const vs = part.vertices;
    for (let i = 0; i < vs.length; i++) {
      const dx = vs[i].x - px;
      const dy = vs[i].y - py;
      const lx = dx * c + dy * s;
      const ly = -dx * s + dy * c;
      if (lx < x0) x0 = lx;
      if (lx > x1) x1 = lx;
      if (ly < y0) y0 = ly;
      if (ly > y1) y1 = ly;
    }
    const b = this.box;
    b.halfExtents[0] = 0.5 * (x1 - x0);
    b.halfExtents[1] = 0.5 * (y1 - y0);
    b.offset[0] = 0.5 * (x0 + x1);
    b.offset[1] = 0.5 * (y0 + y1);
    return b;
  }
}

const DT = 1;
const TOI_OPTIONS = { dt: DT };

/** The bullets of one engine, with its `beforeUpdate`/`afterUpdate` listeners. */
class BulletSystem {
  readonly records: BulletRecord[] = [];
  readonly index = new Map<MatterBodyLike, number>();
  private updates = 0;
  private seenBodies: MatterBodyLike[] | null = null;
  /** `marksVersion` at the last {@link BulletSystem.sync}. */
  private seenVersion = -1;
  private readonly motion = createMotion2D();
  private readonly otherMotion = createMotion2D();
  private readonly result = createTimeOfImpactResult2D();
  private readonly box = new Float64Array(4);
  private readonly partBox = new Float64Array(4);
  /** One slot per part of the bullet being swept (indexed like `parts`), filled once per sweep. */
  private readonly bulletSlots: ShapeSlot[] = [];
  private readonly bulletShapes: CcdShape2D[] = [];
  private readonly otherSlot = new ShapeSlot();
  private readonly candidates: MatterBodyLike[] = [];
  private readonly p0 = new Float64Array(2);
  private readonly p1 = new Float64Array(2);
  private readonly pose = new Float64Array(2);
  private readonly vec = { x: 0, y: 0 };
  private readonly hit: BulletHit = {
    t: 0,
    normalX: 0,
    normalY: 0,
    pointX: 0,
    pointY: 0,
    part: undefined as unknown as MatterBodyLike,
  };

  private readonly onBefore = (): void => this.before();
  private readonly onAfter = (): void => this.after();

  constructor(readonly engine: MatterEngineLike) {
    const events = Matter.Events as unknown as {
      on(o: unknown, name: string, cb: () => void): void;
    };
    events.on(engine, 'beforeUpdate', this.onBefore);
    events.on(engine, 'afterUpdate', this.onAfter);
  }

  /** Removes the listeners and the records (called by {@link uninstallBullets}). */
  detach(): void {
    const events = Matter.Events as unknown as {
      off(o: unknown, name: string, cb: () => void): void;
    };
    events.off(this.engine, 'beforeUpdate', this.onBefore);
    events.off(this.engine, 'afterUpdate', this.onAfter);
    this.records.length = 0;
    this.index.clear();
  }

  /** Adds a record for `body` (or updates its settings). */
  private add(body: BodyLike, m: ResolvedSettings): number {
    const i = this.index.get(body);
    if (i !== undefined) {
      // Already a bullet: new settings, same recorded pose and membership.
      const rec = this.records[i];
      rec.bounce = m.bounce;
      rec.restitution = m.restitution;
      rec.onHit = m.onHit;
      return i;
    }
    this.index.set(body, this.records.length);
    this.records.push({
      body,
      bounce: m.bounce,
      restitution: m.restitution,
      onHit: m.onHit,
      x0: 0,
      y0: 0,
      a0: 0,
      recorded: -1,
      inWorld: false,
    });
    return this.records.length - 1;
  }

  /**
   * Brings the records in line with the marks and with `bodies` (the engine's bodies): a record per
   * marked body of the engine, `inWorld` set for those in `bodies`, records of unmarked bodies dropped.
   */
  private sync(bodies: MatterBodyLike[]): void {
    const records = this.records;
    for (let i = records.length - 1; i >= 0; i--) {
      if (!marks.has(records[i].body)) this.remove(records[i].body);
    }
    for (let i = 0; i < records.length; i++) records[i].inWorld = false;
    for (let i = 0; i < bodies.length; i++) {
      const m = marks.get(bodies[i]);
      if (m !== undefined) records[this.add(bodies[i] as BodyLike, m)].inWorld = true;
    }
    this.seenVersion = marksVersion;
  }

  private remove(body: MatterBodyLike): void {
    const i = this.index.get(body);
    if (i === undefined) return;
    const last = this.records.pop() as BulletRecord;
    this.index.delete(body);
    if (last.body !== body) {
      this.records[i] = last;
      this.index.set(last.body, i);
    }
  }

  private before(): void {
    this.updates++;
    if (this.seenVersion !== marksVersion) {
      // New marks: records for the engine's marked bodies now, so their start pose is recorded.
      const world = (this.engine as { world?: unknown }).world;
      this.sync(world ? (Matter.Composite.allBodies(world as Matter.Composite) as MatterBodyLike[]) : []);
      this.seenBodies = null;
    }
    const records = this.records;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const b = r.body;
      r.x0 = b.position.x;
      r.y0 = b.position.y;
      r.a0 = b.angle;
      r.recorded = this.updates;
    }
  }

  /** Marks which bullets are in the world: one pass over `detector.bodies` when it or the marks changed. */
  private syncMembership(): void {
    const bodies = this.engine.detector.bodies;
    if (this.seenVersion === marksVersion && bodies === this.seenBodies) return;
    this.sync(bodies);
    this.seenBodies = bodies;
  }

  private after(): void {
    const records = this.records;
    if (records.length === 0) return;
    this.syncMembership();
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (r.inWorld && r.recorded === this.updates && !r.body.isStatic) this.sweep(r);
    }
  }

  /** The candidates overlapping `box`: from the Sieve broadphase when current, else a scan. */
  private gather(box: Float64Array): number {
    const out = this.candidates;
    const sieve = getSieve(this.engine);
    if (sieve !== undefined) {
      const n = sieve.queryBodies(box, out);
      if (n >= 0) return n;
    }
    const bodies = this.engine.detector.bodies;
    let n = 0;
    for (let i = 0; i < bodies.length; i++) {
      const bb = bodies[i].bounds;
      if (bb.min.x > box[2] || bb.max.x < box[0] || bb.min.y > box[3] || bb.max.y < box[1]) continue;
      out[n++] = bodies[i];
    }
    return n;
  }

  private sweep(r: BulletRecord): void {
    const body = r.body;
    const pos = body.position;
    if (pos.x === r.x0 && pos.y === r.y0 && body.angle === r.a0) return;
    const p0 = this.p0;
    const p1 = this.p1;
    p0[0] = r.x0;
    p0[1] = r.y0;
    p1[0] = pos.x;
    p1[1] = pos.y;
    const m = motion2FromPoses(this.motion, p0, r.a0, p1, body.angle, DT);
    const bParts = body.parts;
    const bStart = bParts.length > 1 ? 1 : 0;
    // Swept bounds of the whole bullet (union over its parts).
    const box = this.box;
    box[0] = Number.POSITIVE_INFINITY;
    box[1] = Number.POSITIVE_INFINITY;
    box[2] = Number.NEGATIVE_INFINITY;
    box[3] = Number.NEGATIVE_INFINITY;
    const pb = this.partBox;
    const bulletShapes = this.bulletShapes;
    for (let k = bStart; k < bParts.length; k++) {
      while (k >= this.bulletSlots.length) this.bulletSlots.push(new ShapeSlot());
      const shape = this.bulletSlots[k].of(bParts[k], body);
      bulletShapes[k] = shape;
      sweptBounds2D(shape, m, DT, pb);
      if (pb[0] < box[0]) box[0] = pb[0];
      if (pb[1] < box[1]) box[1] = pb[1];
      if (pb[2] > box[2]) box[2] = pb[2];
      if (pb[3] > box[3]) box[3] = pb[3];
    }
    const n = this.gather(box);
    const canCollide = Matter.Detector.canCollide as unknown as (a: unknown, b: unknown) => boolean;
    const res = this.result;
    const om = this.otherMotion;
    let bestT = Number.POSITIVE_INFINITY;
    let bestOther: BodyLike | null = null;
    let bestPart: BodyLike | null = null;
    let nx = 0;
    let ny = 0;
    let cx = 0;
    let cy = 0;
    const cands = this.candidates;
    for (let c = 0; c < n; c++) {
      const other = cands[c] as BodyLike;
      cands[c] = undefined as unknown as MatterBodyLike;
      if (other === body || !canCollide(body.collisionFilter, other.collisionFilter)) continue;
      p0[0] = other.positionPrev.x;
      p0[1] = other.positionPrev.y;
      p1[0] = other.position.x;
      p1[1] = other.position.y;
      if (other.isStatic) motion2FromPoses(om, p1, other.angle, p1, other.angle, DT);
      else motion2FromPoses(om, p0, other.anglePrev, p1, other.angle, DT);
      const oParts = other.parts;
      const oStart = oParts.length > 1 ? 1 : 0;
      for (let z = oStart; z < oParts.length; z++) {
        const part = oParts[z];
        if (part.isSensor) continue;
        const ob = part.bounds;
        if (ob.min.x > box[2] || ob.max.x < box[0] || ob.min.y > box[3] || ob.max.y < box[1]) continue;
        const otherShape = this.otherSlot.of(part, other);
        for (let k = bStart; k < bParts.length; k++) {
          timeOfImpact2D(bulletShapes[k], m, otherShape, om, TOI_OPTIONS, res);
          if ((res.status === TOI_HIT || res.status === TOI_ITERATION_LIMIT) && res.t < bestT) {
            bestT = res.t;
            bestOther = other;
            bestPart = part;
            nx = res.normal[0];
            ny = res.normal[1];
            cx = res.point[0];
            cy = res.point[1];
          }
        }
      }
    }
    if (bestOther === null || bestPart === null) return;
    // Back to the pose at the contact (setPosition/setAngle keep the velocity).
    const pose = this.pose;
    const angle = poseAtTime2D(m, DT, bestT, pose);
    const v = this.vec;
    v.x = pose[0];
    v.y = pose[1];
    Matter.Body.setPosition(body as unknown as Matter.Body, v);
    if (angle !== body.angle) Matter.Body.setAngle(body as unknown as Matter.Body, angle);
    // Response along the normal, relative to the other body's velocity (zero when static).
    const ovx = bestOther.isStatic ? 0 : bestOther.velocity.x;
    const ovy = bestOther.isStatic ? 0 : bestOther.velocity.y;
    const u = (body.velocity.x - ovx) * nx + (body.velocity.y - ovy) * ny;
    if (u > 0) {
      // Stop: e = 0, so k = u removes the approaching part exactly.
      const e = r.bounce ? (Number.isNaN(r.restitution) ? body.restitution : r.restitution) : 0;
      const k = (1 + e) * u;
      v.x = body.velocity.x - k * nx;
      v.y = body.velocity.y - k * ny;
      Matter.Body.setVelocity(body as unknown as Matter.Body, v);
    }
    if (r.onHit !== undefined) {
      const hit = this.hit;
      hit.t = bestT;
      hit.normalX = nx;
      hit.normalY = ny;
      hit.pointX = cx;
      hit.pointY = cy;
      hit.part = bestPart;
      r.onHit(body, bestOther, hit);
    }
  }
}

const systems = new WeakMap<object, BulletSystem>();

function checkEngine(fn: string, engine: MatterEngineLike): void {
  if (engine == null || typeof engine !== 'object' || engine.detector == null) {
    throw new TypeError(`${fn}: engine must be a Matter.Engine`);
  }
}

function checkBody(fn: string, body: MatterBodyLike): void {
  if (body == null || typeof body !== 'object' || !Array.isArray(body.parts)) {
    throw new TypeError(`${fn}: body must be a Matter.Body`);
  }
}

/** Whether `x` is a Matter.Engine rather than a body (the deprecated engine-first forms). */
function isEngine(x: unknown): x is MatterEngineLike {
  return x != null && typeof x === 'object' && (x as MatterEngineLike).detector != null;
}

function resolveSettings(settings: BulletSettings): ResolvedSettings {
  if (settings === null || typeof settings !== 'object') {
    throw new TypeError('setBullet: settings must be an object, true or false');
  }
  checkOptionKeys('setBullet: options', settings, BULLET_SETTING_KEYS);
  const response = settings.response ?? 'stop';
  if (response !== 'stop' && response !== 'bounce') {
    throw new RangeError(`setBullet: options.response must be 'stop' or 'bounce', got ${String(response)}`);
  }
  const e = settings.restitution;
  if (e !== undefined && !(typeof e === 'number' && e >= 0 && e <= 1)) {
    throw new RangeError(`setBullet: options.restitution must be in [0, 1], got ${String(e)}`);
  }
  if (settings.onHit !== undefined && typeof settings.onHit !== 'function') {
    throw new TypeError('setBullet: options.onHit must be a function');
  }
  return { bounce: response === 'bounce', restitution: e ?? Number.NaN, onHit: settings.onHit };
}

/**
 * Starts sweeping the bullets of `engine` (bodies marked with {@link setBullet}, now or later) in each
 * `Engine.update`. Idempotent. Throws a TypeError for a non-engine.
 */
export function installBullets(engine: MatterEngineLike): void {
  checkEngine('installBullets', engine);
  if (!systems.has(engine)) systems.set(engine, new BulletSystem(engine));
}

/** Stops sweeping the bullets of `engine` (their marks stay). Returns false if it was not installed. */
export function uninstallBullets(engine: MatterEngineLike): boolean {
  const system = systems.get(engine);
  if (!system) return false;
  systems.delete(engine);
  system.detach();
  return true;
}

/**
 * Marks `body` as a bullet (`settings`, or `true` for the defaults), or unmarks it (`false`) — as
 * `@sieve/cannon`'s `setBullet(body, settings)` and Box2D's `b2Body_SetBullet`. Works before or after
 * the body joins a world; an engine sweeps its bullets once {@link installBullets} ran on it. From the
 * next `Engine.update` on, the bullet stops at (or bounces from) its first contact in each update
 * instead of passing through thin or small bodies (candidates come from the broadphase passed to the
 * engine's Sieve detector while its broadphase path answers; otherwise from a scan of the bodies). Throws on a bad body, `response`,
 * `restitution` or `onHit`.
 */
export function setBullet(body: MatterBodyLike, settings?: BulletSettings | boolean): void;
/**
 * @deprecated Use `installBullets(engine)` once and `setBullet(body, settings)`. This form does both
 * (installs the engine's bullets if needed, then marks the body).
 */
export function setBullet(
  engine: MatterEngineLike,
  body: MatterBodyLike,
  settings?: BulletSettings | false,
): void;
export function setBullet(
  a: MatterBodyLike | MatterEngineLike,
  b?: MatterBodyLike | BulletSettings | boolean,
  c?: BulletSettings | false,
): void {
  if (isEngine(a)) {
    checkBody('setBullet', b as MatterBodyLike);
    const settings = resolveMark(c ?? {}); // before the engine changes
    installBullets(a);
    applyMark(b as MatterBodyLike, settings);
    return;
  }
  if (a == null || typeof a !== 'object') {
    throw new TypeError(
      'setBullet: body must be a Matter.Body (or, deprecated, engine must be a Matter.Engine)',
    );
  }
  checkBody('setBullet', a as MatterBodyLike);
  applyMark(a as MatterBodyLike, resolveMark((b as BulletSettings | boolean | undefined) ?? true));
}

/** A mark's checked settings, or null to unmark (`false`). */
function resolveMark(settings: BulletSettings | boolean): ResolvedSettings | null {
  if (settings === false) return null;
  return resolveSettings(settings === true ? {} : settings);
}

function applyMark(body: MatterBodyLike, settings: ResolvedSettings | null): void {
  if (settings === null) {
    if (marks.delete(body)) marksVersion++;
    return;
  }
  marks.set(body, settings);
  marksVersion++;
}

/** Whether `body` is marked as a bullet (see {@link setBullet}). */
export function isBullet(body: MatterBodyLike): boolean;
/** @deprecated Use `isBullet(body)`: whether `body` is marked and `engine` sweeps bullets. */
export function isBullet(engine: MatterEngineLike, body: MatterBodyLike): boolean;
export function isBullet(a: MatterBodyLike | MatterEngineLike, b?: MatterBodyLike): boolean {
  if (isEngine(a) && b !== undefined) return systems.has(a) && marks.has(b);
  return marks.has(a);
}
