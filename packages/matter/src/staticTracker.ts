/**
 * Which bodies of one engine a step has to visit: its moving bodies, and the static bodies Matter's own
 * functions changed lately.
 *
 * matter-js's `Engine.update` runs seven loops over every body of the world (gravity, integration,
 * the two constraint passes twice, the position-impulse pass, the velocity update, the force reset), and
 * its detector reads every body's bounds. For a static body, stock's gravity, integration and
 * constraint passes skip it, and the three others compute what they computed the step before: its
 * velocity from a position that does not move, a force and an impulse that stay zero. What a static body
 * holds changes only through Matter's functions (`Body.setPosition`, `setStatic`, `translate`, ...,
 * `Sleeping.set`) — the way Box2D v3 keeps static bodies out of its solver sets and wakes them
 * through its API — so those calls mark the body here, and a marked body is visited as stock visits
 * it until two steps after the last change; the others stay where they are. A body seen moving once
 * stays visited (its flags may be written directly), and a step after the body list changed visits
 * everything, so every static body starts from the values stock's loops leave it.
 *
 * The loops run stock's own functions on the list of bodies to visit (in the world's order), so what
 * each visit does is the engine's, in plain matter-js and in Phaser's copy alike.
 */
import type { MatterBodyLike } from './matterTypes.js';

/** The fields of a body the tracker reads (matter-js's names). */
export interface TrackedBody extends MatterBodyLike {
  parent?: TrackedBody;
  positionImpulse?: { x: number; y: number };
  totalContacts?: number;
}

/** A matter-js pair, as far as the contact-count reset reads it. */
interface PairLike {
  isActive: boolean;
  collision: { parentA: TrackedBody; parentB: TrackedBody };
}

/** The engine fields the tracker reads. */
export interface TrackedEngine {
  world?: { cache?: { allBodies?: unknown } | null } | null;
  pairs?: { list?: PairLike[] };
}

/** Watch end of a body that is not watched. */
const UNWATCHED = -1;

/** One engine's tracker: see the module comment. */
export class StaticTracker {
  /** The engine whose world's body list this tracks. */
  readonly engine: TrackedEngine;
  /** Whether the loops visit only the bodies to visit (false: every body, as stock). */
  enabled = true;
  /** Incremented whenever a new body list is classified. */
  generation = 0;
  /** The body list the classification is of (`Composite.allBodies(world)`, cached by matter-js). */
  private list: TrackedBody[] | null = null;
  /** Body → its position in {@link StaticTracker.list}. */
  private readonly index = new Map<TrackedBody, number>();
  /** Per position: 1 while the body is visited (not static at its last look, or watched). */
  private visit = new Uint8Array(0);
  /**
   * Per position: 1 while the body has been static ever since the list was classified. Only those
   * stop being visited when their watch ends: a body seen moving once stays visited, so flags
   * written directly on it (`body.isStatic = true`, then `false`) are seen as stock sees them.
   */
  private settled = new Uint8Array(0);
  /** Per position: the last step through which a watched body is visited, or {@link UNWATCHED}. */
  private watchUntil = new Int32Array(0);
  /** Positions of the watched bodies. */
  private readonly watched: number[] = [];
  /** The bodies to visit, in the world's order, and their positions. */
  private readonly active: TrackedBody[] = [];
  private activeAt = new Int32Array(0);
  private activeCount = 0;
  /** Whether the active list must be rebuilt from the flags. */
  private activeStale = true;
  /** Steps begun (by the gravity pass, the first loop every step runs). */
  private step = 0;
  /** The step whose loops visit every body (the first after the body list changed). */
  private fullStep = -1;
  /** The last step whose first loop ran through this tracker. */
  private liveStep = -1;

  constructor(engine: TrackedEngine) {
    this.engine = engine;
  }

  /** Whether `bodies` is this engine's body list of the step (what Engine.update hands its loops). */
  owns(bodies: unknown): boolean {
    const cache = this.engine.world?.cache;
    return cache != null && cache.allBodies === bodies;
  }

  /** The step count (the detector checks it ran in consecutive steps). */
  get steps(): number {
    return this.step;
  }

  /** Whether this step's first loop ran through the tracker (its marks are being kept). */
  get tracking(): boolean {
    return this.enabled && this.liveStep === this.step;
  }

  /**
   * Whether a reader of bounds saves by reading only the visited bodies this step: the step is
   * tracked and fewer than half of the `n` bodies are visited (a crowd is cheaper read whole).
   */
  savesReads(n: number): boolean {
    return this.tracking && 2 * this.visitedCount() < n;
  }

  /**
   * Whether this step is tracked: its first loop ran through the tracker on the classified list and it
   * is not the step after a new list. Then a body that is not visited holds what it held when the
   * previous step read it.
   */
  get live(): boolean {
    return this.enabled && this.liveStep === this.step && this.fullStep !== this.step;
  }

  /** The body list the tracker classified. */
  get bodies(): readonly TrackedBody[] | null {
    return this.list;
  }

  /** The position of `body` in the classified list, or -1. */
  positionOf(body: TrackedBody): number {
    return this.index.get(body) ?? -1;
  }

  /** How many bodies this step visits; their list positions are {@link StaticTracker.visitedAt}. */
  visitedCount(): number {
    this.refreshActive();
    return this.activeCount;
  }

  /** The list positions of the visited bodies, ascending (valid up to {@link StaticTracker.visitedCount}). */
  get visitedAt(): Int32Array {
    return this.activeAt;
  }

  /**
   * Called by the first loop of a step (gravity) with the step's body list: starts the step, classifies
   * a new list, ends the watches that ran out. Returns the array that loop visits.
   */
  beginStep(bodies: TrackedBody[]): TrackedBody[] {
    this.step++;
    this.liveStep = this.step;
    if (bodies !== this.list) this.classify(bodies);
    else this.expireWatches();
    return this.loopArray(bodies);
  }

  /** The array a loop of this step visits: every body in a full step (or untracked), else the visited ones. */
  loopArray(bodies: TrackedBody[]): TrackedBody[] {
    if (!this.live || bodies !== this.list) return bodies;
    this.refreshActive();
    // Every body visited (a world without static bodies): the list itself.
    return this.activeCount === bodies.length ? bodies : this.active;
  }

  /**
   * After stock's position pass over the visited bodies: the contact counts of the other bodies in
   * active pairs (counted up by stock's pre-solve) go back to zero, as stock's pass leaves every body;
   * watched static bodies still carrying a position impulse (which that pass applies) stay watched.
   */
  afterPositionPass(bodies: TrackedBody[]): void {
    const list = this.list;
    if (list === null || bodies !== list) return;
    if (this.live && this.visitedCount() < list.length) {
      const pairs = this.engine.pairs?.list;
      if (pairs !== undefined) {
        for (let i = 0; i < pairs.length; i++) {
          const pair = pairs[i];
          if (!pair.isActive) continue;
          pair.collision.parentA.totalContacts = 0;
          pair.collision.parentB.totalContacts = 0;
        }
      }
    }
    const watched = this.watched;
    for (let k = 0; k < watched.length; k++) {
      const p = watched[k];
      if (hasImpulse(list[p])) this.watchUntil[p] = this.step + 1;
    }
  }

  /**
   * Called by the wrapped Matter functions when they may have changed `body` (or its parent);
   * `moving`: the body was not static before the call, or is not now.
   */
  mark(body: TrackedBody, moving: boolean): void {
    let p = this.index.get(body);
    if (p === undefined && body.parent != null) p = this.index.get(body.parent);
    if (p === undefined) return;
    if (moving || !this.list?.[p].isStatic) this.settled[p] = 0;
    if (this.watchUntil[p] === UNWATCHED) this.watched.push(p);
    this.watchUntil[p] = this.step + 1;
    if (this.visit[p] === 0) {
      this.visit[p] = 1;
      this.activeStale = true;
    }
  }

  /** Reads every body of a new list: moving ones, and static ones with a position impulse, are visited. */
  private classify(bodies: TrackedBody[]): void {
    const n = bodies.length;
    this.list = bodies;
    this.generation++;
    this.index.clear();
    if (this.visit.length < n) {
      const c = Math.max(n, 2 * this.visit.length);
      this.visit = new Uint8Array(c);
      this.settled = new Uint8Array(c);
      this.watchUntil = new Int32Array(c);
      this.activeAt = new Int32Array(c);
    }
    this.watched.length = 0;
    for (let p = 0; p < n; p++) {
      const body = bodies[p];
      this.index.set(body, p);
      this.watchUntil[p] = UNWATCHED;
      this.settled[p] = body.isStatic ? 1 : 0;
      if (!body.isStatic) {
        this.visit[p] = 1;
      } else if (hasImpulse(body)) {
        this.visit[p] = 1;
        this.watchUntil[p] = this.step + 1;
        this.watched.push(p);
      } else {
        this.visit[p] = 0;
      }
    }
    // The step that follows a new list visits everything: static bodies start from stock's values.
    this.fullStep = this.step;
    this.activeStale = true;
  }

  /** Ends the watches that ran out: bodies static since the classification are no longer visited. */
  private expireWatches(): void {
    const watched = this.watched;
    const list = this.list as TrackedBody[];
    let w = 0;
    for (let k = 0; k < watched.length; k++) {
      const p = watched[k];
      if (this.watchUntil[p] >= this.step) {
        watched[w++] = p;
        continue;
      }
      this.watchUntil[p] = UNWATCHED;
      if (this.settled[p] === 1 && list[p].isStatic) {
        this.visit[p] = 0;
        this.activeStale = true;
      }
    }
    watched.length = w;
  }

  private refreshActive(): void {
    if (!this.activeStale || this.list === null) return;
    const list = this.list;
    const active = this.active;
    const at = this.activeAt;
    const visit = this.visit;
    let k = 0;
    for (let p = 0; p < list.length; p++) {
      if (visit[p] === 0) continue;
      active[k] = list[p];
      at[k++] = p;
    }
    active.length = k;
    this.activeCount = k;
    this.activeStale = false;
  }
}

/** Whether a body carries a position impulse (stock's position pass moves it by that). */
function hasImpulse(body: TrackedBody): boolean {
  const impulse = body.positionImpulse;
  return impulse !== undefined && (impulse.x !== 0 || impulse.y !== 0);
}
