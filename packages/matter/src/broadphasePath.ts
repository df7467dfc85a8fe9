/**
 * The detector's broadphase path: an incremental broadphase of `@sieve/core` (the caller's instance,
 * such as `SweepAndPrune`: per-axis endpoint lists kept sorted by insertion sort, after Baraff's
 * thesis and Bullet's `btAxisSweep3`) holding one proxy per body with the body's `bounds`, moved only
 * when the bounds changed, static and sleeping bodies as static proxies (their mutual pairs never
 * exist), so the candidate pairs are exactly the bounds-overlapping ones stock would test.
 *
 * Same results as stock, bit for bit:
 * - Candidates are the pairs of bodies whose bounds overlap, inclusive on both axes — stock's test
 *   (`boundsB.min.x > boundXMax` breaks, `boundYMax < boundsB.min.y || boundYMin > boundsB.max.y`
 *   skips: touching bounds are tested) and the broadphase's (inclusive overlap) are the same.
 * - Then stock's filters in stock's order, and stock's order of the collisions (the body order of
 *   stock's stable sort by min.x, kept by {@link XOrder}): see {@link Candidates}.
 *
 * The bodies, their proxies and the bounds each proxy holds live in core's `BodyTable` (the engine
 * seam both adapters share): bodies are found by id, added and removed bodies noticed by a stamp pass
 * when matter-js hands over a new body list, moves batched into one `moveMany`, and pairs read back as
 * records through the tag each proxy carries.
 *
 * No allocation per step once warm: typed arrays grow by doubling.
 */
import { BodyTable, type BodyTableHooks, type Broadphase, growArray, NO_PROXY } from '@sieve/core';
import { Candidates } from './candidates.js';
import type { CanCollideFn, CollidesFn, MatterBodyLike } from './matterTypes.js';
import { VisitCounter } from './pathChoice.js';
import { XOrder } from './xOrder.js';

/** One engine's bodies as proxies of a broadphase, and the steps answered from its pairs. */
export class BroadphasePath {
  /** The caller's broadphase holding one proxy per body. */
  readonly broadphase: Broadphase;

  /**
   * Records (one per body; core's engine seam): the body, its proxy and the bounds the proxy holds
   * (minX, minY, maxX, maxY); `index` is the body's position in `detector.bodies` at the last resync
   * (the tie key of the sort after a resync).
   */
  private readonly table: BodyTable<MatterBodyLike>;
  /** bounds.min.x of each record: the x-order's key. */
  private minX = new Float64Array(0);
  /** Per record: the filter fields of its body, the candidates and the narrowphase of the step. */
  private readonly candidates = new Candidates();
  /** 1 for a freed record (until the table reuses it): what {@link XOrder.compact} drops. */
  private dead = new Uint8Array(0);
  /**
   * Per record: 1 when its proxy is static in the broadphase (its body static or sleeping at the last
   * sync). Two such proxies never make a pair — stock skips those pairs before any other test.
   */
  private resting = new Uint8Array(0);
  /** Whether the broadphase keeps static proxies (`setStatic`; every broadphase of `@sieve/core`). */
  private readonly staticProxies: boolean;
  private readonly xOrder = new XOrder();
  private readonly visitCounter = new VisitCounter();
  /** `detector.bodies` as of the last sync; a new array means matter-js called `Detector.setBodies`. */
  private lastBodies: MatterBodyLike[] | null = null;
  private needResync = true;
  /** Scratch of {@link BroadphasePath.query}. */
  private readonly queryRecords: number[] = [];
  /** See {@link BroadphasePath.awake}. */
  private awakeCount = 0;

  constructor(broadphase: Broadphase) {
    this.broadphase = broadphase;
    this.staticProxies = typeof (broadphase as Partial<Broadphase>).setStatic === 'function';
    const hooks: BodyTableHooks = {
      grow: (capacity) => {
        this.candidates.grow(capacity);
        this.minX = growArray(this.minX, capacity);
        this.dead = growArray(this.dead, capacity);
        this.resting = growArray(this.resting, capacity);
        this.xOrder.reserve(capacity);
      },
      added: (r) => {
        this.dead[r] = 0;
        this.resting[r] = 0;
        this.minX[r] = (this.table.bodies[r] as MatterBodyLike).bounds.min.x;
        this.xOrder.push(r);
      },
      removed: (r) => {
        this.dead[r] = 1;
      },
    };
    this.table = new BodyTable<MatterBodyLike>(broadphase, hooks);
  }

  /** Bodies in the x-order (the world's bodies as of the last sync). */
  get count(): number {
    return this.xOrder.count;
  }

  /** Bodies that were awake (neither static nor sleeping) at the last {@link BroadphasePath.sync}. */
  get awake(): number {
    return this.awakeCount;
  }

  /** The next step resyncs the records from `detector.bodies` (the sweep or stock answered since). */
  markStale(): void {
    this.needResync = true;
  }

  /**
   * Whether the records no longer match `bodies`: a switch back from stock, or matter-js replaced
   * (`Detector.setBodies`) or resized the array since the last resync.
   */
  private isStale(bodies: MatterBodyLike[]): boolean {
    return this.needResync || bodies !== this.lastBodies || bodies.length !== this.xOrder.count;
  }

  /**
   * Brings the proxies up to date with `bodies` and sorts the x-order: returns how many proxies moved,
   * or -1 for a world the proxies cannot stand for as stock sees it — a body listed twice (found by
   * the resync, before the proxies change), or a body whose bounds are not finite or inverted (found
   * by the sync: left unplaced). Then `bodies` is left in stock's order and the step is the sweep's
   * (stock's own algorithm, so results never depend on the path); the next step resyncs.
   */
  sync(bodies: MatterBodyLike[], step: number): number {
    const resync = this.isStale(bodies);
    if (resync && !this.resync(bodies)) {
      this.needResync = true;
      return -1;
    }
    const moved = this.syncBounds(step);
    this.table.commit();
    if (this.table.proxied !== this.table.live) {
      if (!resync) this.handBack(bodies);
      this.needResync = true;
      return -1;
    }
    // Stable sort by min.x: ties keep the order of detector.bodies after a resync (setBodies, or the
    // order stock left), else the previous step's order.
    this.xOrder.sort(this.minX, resync ? this.table.index : this.xOrder.rank);
    return moved;
  }

  /** The candidates of the synced step that pass stock's filters (see {@link Candidates.gather}). */
  gather(canCollide: CanCollideFn, inline: boolean, step: number): number {
    return this.candidates.gather(this.table, this.xOrder, canCollide, inline, step);
  }

  /** Stock's narrowphase on the gathered candidates, in stock's order (see {@link Candidates.collide}). */
  collide(tested: number, collides: CollidesFn, out: unknown[], pairs: unknown): number {
    return this.candidates.collide(tested, this.xOrder.order, this.table.bodies, collides, out, pairs);
  }

  /**
   * The sweep's visits over this path's x-order (see {@link VisitCounter}), counted up to `cap`: how
   * much the sweep would work here, for the choice of path.
   */
  countVisits(cap: number): number {
    const x = this.xOrder;
    return this.visitCounter.count(x.order, x.count, this.minX, this.table.boxes, this.resting, cap);
  }

  /**
   * The bodies whose proxies overlap `bounds` (`[minX, minY, maxX, maxY]`), written to `out[0..n)`;
   * returns n, or -1 when the proxies do not match `bodies` (see {@link BroadphasePath.isStale}).
   */
  query(bounds: ArrayLike<number>, out: MatterBodyLike[], bodies: MatterBodyLike[]): number {
    if (this.isStale(bodies)) return -1;
    const records = this.queryRecords;
    records.length = 0;
    const n = this.table.queryRecords(bounds, records);
    const bodyOf = this.table.bodies;
    for (let i = 0; i < n; i++) out[i] = bodyOf[records[i]] as MatterBodyLike;
    return n;
  }

  /**
   * Before stock or the sweep answers again: leaves `bodies` in the order stock would have left it,
   * so a switch keeps the simulation identical.
   */
  handBack(bodies: MatterBodyLike[]): void {
    if (this.isStale(bodies)) return;
    const order = this.xOrder.order;
    const bodyOf = this.table.bodies;
    for (let p = 0; p < bodies.length; p++) bodies[p] = bodyOf[order[p]] as MatterBodyLike;
  }

  /** Removes every proxy from the broadphase (empty again, for another engine). */
  release(): void {
    this.table.reset();
  }

  /**
   * Brings the records in line with `detector.bodies`: new bodies get records (their proxies come with
   * the next sync), gone ones lose them. Returns false when a body is listed twice (`Composite.add` of a
   * body already in the world: stock then pairs it with itself and twice with its neighbours); it
   * keeps one record for it, and the step is left to the sweep.
   */
  private resync(bodies: MatterBodyLike[]): boolean {
    this.needResync = false;
    this.lastBodies = bodies;
    const table = this.table;
    const n = bodies.length;
    let distinct = 0;
    table.beginPass(n);
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      const seen = table.find(body, body.id);
      if (seen >= 0 && table.visited(seen)) continue;
      table.visit(body, body.id, i);
      distinct++;
    }
    // Records not visited (their bodies left the world) are freed; freed records stay marked dead
    // until the table reuses them (compact only visits live ones).
    if (table.endPass(distinct) > 0) this.xOrder.compact(this.dead);
    return distinct === n;
  }

  /**
   * Moves every proxy whose body's bounds changed (one `moveMany`); inserts proxies for new bodies and
   * bodies whose bounds became finite again; a body with non-finite or inverted bounds (a broken
   * simulation) has no proxy, and the step goes to the sweep. Returns how many proxies moved.
   */
  private syncBounds(step: number): number {
    const table = this.table;
    const records = table.used;
    const bodyOf = table.bodies;
    const box = table.boxes;
    const minX = this.minX;
    const candidates = this.candidates;
    const resting = this.resting;
    const statics = this.staticProxies;
    let awake = 0;
    // In record order: bodies were created (and laid out in memory) roughly in that order.
    for (let r = 0; r < records; r++) {
      const body = bodyOf[r];
      if (body === null) continue;
      const rest = body.isStatic || body.isSleeping ? 1 : 0;
      awake += 1 - rest;
      // Static or sleeping now (Body.setStatic, Sleeping.set, or the flags written directly): the
      // proxy follows at this update, before any pair is read.
      if (rest !== resting[r]) this.flip(r, statics);
      const bounds = body.bounds;
      const min = bounds.min;
      const max = bounds.max;
      const x0 = min.x;
      const y0 = min.y;
      const x1 = max.x;
      const y1 = max.y;
      minX[r] = x0;
      const o = 4 * r;
      if (box[o] === x0 && box[o + 1] === y0 && box[o + 2] === x1 && box[o + 3] === y1) continue;
      // A moving body is likely in a pair: read its flags while its object is in cache.
      candidates.read(r, body, step);
      box[o] = x0;
      box[o + 1] = y0;
      box[o + 2] = x1;
      box[o + 3] = y1;
      if (
        x0 <= x1 &&
        y0 <= y1 &&
        x0 > Number.NEGATIVE_INFINITY &&
        y0 > Number.NEGATIVE_INFINITY &&
        x1 < Number.POSITIVE_INFINITY &&
        y1 < Number.POSITIVE_INFINITY
      ) {
        if (table.handles[r] !== NO_PROXY)
          table.place(r); // a move into the batch
        else {
          table.place(r); // a new proxy: dynamic until told otherwise
          if (resting[r] === 1 && statics) this.broadphase.setStatic(table.handles[r], true);
        }
      } else {
        table.unplace(r);
      }
    }
    this.awakeCount = awake;
    return table.pendingMoves;
  }

  /**
   * Record r's body turned static or sleeping, or woke: its proxy (if any) follows, when the
   * broadphase keeps static proxies (`statics`).
   */
  private flip(r: number, statics: boolean): void {
    const now = this.resting[r] === 1 ? 0 : 1;
    this.resting[r] = now;
    const handle = this.table.handles[r];
    if (statics && handle !== NO_PROXY) this.broadphase.setStatic(handle, now === 1);
  }
}
