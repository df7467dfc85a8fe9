/**
 * The seam between an engine's bodies and a Sieve broadphase: a table of records, one per engine body,
 * each with the proxy that stands for the body in the broadphase and the box that proxy was given.
 *
 * What the engine adapters all need and would otherwise each write: bodies found by an integer key (the
 * engine's body id, checked against the body itself, so a reused id is never mistaken for another body);
 * bodies added to or removed from the world noticed with one O(N) pass over the engine's list, by
 * stamping every record the pass visits (Box2D v3's body/shape ids and Bullet's
 * `btBroadphaseProxy::m_clientObject` are the same idea: the broadphase holds an integer, the engine maps
 * it back); moves batched into one `moveMany` per step (Box2D's `b2BroadPhase_MoveProxy` buffer,
 * Bullet's deferred `setAabb`); and the broadphase's pairs read back as records through the tag each
 * proxy was inserted with, never by decoding handles.
 *
 * Each moved box is written twice on the adapter's side of the seam: once into the record (the caller
 * computes it there, so the next step can compare against it) and once into the batch `moveMany` reads;
 * the broadphase keeps its own copy from there on.
 *
 * A key that is not a small non-negative integer, or that a live body already holds (two bodies with one
 * id), files its body in a `Map` instead: still found every step, a little more slowly.
 *
 * Records are small dense integers, reused last-freed first, so callers keep per-body data in parallel
 * typed arrays grown through {@link BodyTableHooks.grow}. Nothing is allocated per step once the arrays
 * have reached their size.
 */

import { copyBox, SLOT_MASK } from '../broadphase/proxies.js';
import type { Broadphase } from '../broadphase/types.js';
import { growArray } from '../growArray.js';
import { checkOptionKeys, optionKeys } from '../options.js';

/** The handle of a record whose body has no proxy in the broadphase. */
export const NO_PROXY = -1;

/** Keys at or above this go to a `Map` instead of the key table (which would otherwise grow with them). */
const KEY_TABLE_LIMIT = 1 << 22;

/**
 * How a {@link BodyTable} tells its owner about its records. Called synchronously; none of them may
 * add or remove records.
 */
export interface BodyTableHooks {
  /**
   * The table's per-record arrays now hold `capacity` records: grow the owner's parallel arrays to at
   * least that many (`growArray(array, capacity)`).
   */
  grow(capacity: number): void;
  /** Record `record` was just created for a body: its box is NaN and it has no proxy. */
  added(record: number): void;
  /**
   * Record `record` is about to be freed (its body left the world): its proxy is already removed,
   * `bodies[record]` is still the body.
   */
  removed(record: number): void;
}

/** Options of {@link BodyTable}. */
export interface BodyTableOptions {
  /** Records to make room for up front (arrays double past it). Default 64. */
  initialCapacity?: number;
}

/**
 * The keys of {@link BodyTableOptions}: any other key throws a `TypeError` naming it. Kept complete by
 * the compiler (`optionKeys`): add a new option here too.
 */
const BODY_TABLE_OPTION_KEYS = optionKeys<BodyTableOptions>({ initialCapacity: true });

/**
 * Records of engine bodies and their broadphase proxies (see the module comment).
 *
 * A step, as an adapter runs it (a sketch: `table` and `bodies` are the adapter's):
 * ```ts no-check
 * table.beginPass(bodies.length);
 * for (let i = 0; i < bodies.length; i++) {
 *   const r = table.visit(bodies[i], bodies[i].id, i);
 *   // compare the body's box with table.boxes at r · stride; if it changed, write it there and:
 *   table.place(r); // insert a proxy tagged r, or queue a move
 * }
 * table.endPass(bodies.length); // frees the records no pass visited (bodies gone)
 * table.commit();               // one moveMany, then update()
 * const pairs = table.pairRecords(); // records, 2 · table.pairCount entries
 * ```
 */
export class BodyTable<B extends object> {
  /** Numbers per box: 2 · the broadphase's dimensions. */
  readonly stride: number;
  /** Record → its body, or null for a free record. */
  readonly bodies: (B | null)[] = [];
  /** Record → its proxy's handle, or {@link NO_PROXY}. */
  handles: Int32Array;
  /**
   * Record → the box last given to its proxy (`stride` numbers a record; min corner then max corner).
   * Owned by the caller between passes: it writes a body's new box here before {@link BodyTable.place}.
   * NaN for a new record, so that any box differs from it.
   */
  boxes: Float64Array;
  /** Record → its position in the engine's list at the pass that last visited it. */
  index: Int32Array;
  /** Position in the engine's list → the record visited there by the last pass. */
  at: Int32Array;
  /** Records in use: every live record is below this. */
  used = 0;
  /** Live records (bodies in the table). */
  live = 0;
  /**
   * Records whose body has a proxy in the broadphase: `live` when every body's box was placed, fewer
   * while some record is unplaced (a box the caller found unusable, or a body not placed yet).
   */
  proxied = 0;

  private bp: Broadphase;
  private readonly hooks: BodyTableHooks;
  private stamps: Int32Array;
  /** The key each record was filed under (-1: filed in {@link BodyTable.byBody}). */
  private keys: Int32Array;
  private stamp = 0;
  private readonly free: number[] = [];
  /** key → record, -1 when none. */
  private keyTable = new Int32Array(64).fill(-1);
  /** Records of bodies whose key is not a small non-negative integer. */
  private byBody: Map<B, number> | null = null;

  // The batch of moves of this step.
  private moveHandles = new Int32Array(64);
  private moveBounds: Float64Array;
  private moveCount = 0;
  private readonly insertBox: Float64Array;

  // Broadphases that drop tags: records by slot (see recordOfHandle).
  private tagsChecked = false;
  private tagged = true;
  private recordOfSlot = new Int32Array(64);
  private pairRecordBuffer = new Int32Array(64);

  /**
   * @param broadphase - Where the proxies live (any {@link Broadphase}; the table inserts, moves and
   *   removes them and calls its `update()`).
   * @param hooks - See {@link BodyTableHooks}.
   */
  constructor(broadphase: Broadphase, hooks: BodyTableHooks, options: BodyTableOptions = {}) {
    if (broadphase == null || typeof broadphase.moveMany !== 'function') {
      throw new TypeError(`BodyTable: broadphase must be a Broadphase, got ${String(broadphase)}`);
    }
    if (hooks == null || typeof hooks.grow !== 'function') {
      throw new TypeError('BodyTable: hooks must have grow, added and removed functions');
    }
    if (typeof hooks.added !== 'function' || typeof hooks.removed !== 'function') {
      throw new TypeError('BodyTable: hooks must have grow, added and removed functions');
    }
    checkOptionKeys('BodyTable: options', options, BODY_TABLE_OPTION_KEYS);
    const capacity = options.initialCapacity ?? 64;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `BodyTable: options.initialCapacity must be a positive integer, got ${String(capacity)}`,
      );
    }
    this.bp = broadphase;
    this.hooks = hooks;
    this.stride = 2 * broadphase.dimensions;
    this.handles = new Int32Array(capacity);
    this.boxes = new Float64Array(this.stride * capacity);
    this.index = new Int32Array(capacity);
    this.at = new Int32Array(capacity);
    this.stamps = new Int32Array(capacity);
    this.keys = new Int32Array(capacity);
    this.moveBounds = new Float64Array(this.stride * 64);
    this.insertBox = new Float64Array(this.stride);
    hooks.grow(capacity);
  }

  /** The broadphase holding the proxies. */
  get broadphase(): Broadphase {
    return this.bp;
  }

  /** How many records the per-record arrays hold (what {@link BodyTableHooks.grow} last reported). */
  get capacity(): number {
    return this.handles.length;
  }

  /** Pairs in {@link BodyTable.pairRecords} (the broadphase's pair count). */
  get pairCount(): number {
    return this.bp.pairCount;
  }

  /**
   * Forgets every record and proxy (no hook is called) and, when given, switches to another broadphase
   * (an empty one of the same dimensions).
   */
  reset(broadphase?: Broadphase): void {
    if (broadphase !== undefined) {
      if (broadphase == null || broadphase.dimensions !== this.bp.dimensions) {
        throw new TypeError(
          `BodyTable.reset: broadphase must be a ${this.bp.dimensions}-D Broadphase, got ${String(broadphase)}`,
        );
      }
      this.bp = broadphase;
      this.tagsChecked = false;
      this.tagged = true;
    } else {
      for (let r = 0; r < this.used; r++) if (this.handles[r] !== NO_PROXY) this.bp.remove(this.handles[r]);
    }
    for (let r = 0; r < this.used; r++) {
      const k = this.keys[r];
      if (this.bodies[r] !== null && k >= 0 && this.keyTable[k] === r) this.keyTable[k] = -1;
    }
    this.byBody?.clear();
    this.bodies.length = 0;
    this.free.length = 0;
    this.used = 0;
    this.live = 0;
    this.proxied = 0;
    this.moveCount = 0;
  }

  /**
   * Starts a pass over the engine's `count` bodies: every {@link BodyTable.visit} until
   * {@link BodyTable.endPass} stamps its record.
   */
  beginPass(count: number): void {
    if (!(count >= 0) || count !== Math.floor(count)) {
      throw new RangeError(`BodyTable.beginPass: count must be a non-negative integer, got ${count}`);
    }
    if (this.at.length < count) this.at = growArray(this.at, count);
    this.stamp = (this.stamp + 1) | 0;
  }

  /**
   * The record of `body` (filed under `key`, normally the engine's body id), created if it has none
   * (then {@link BodyTableHooks.added} is called); stamps it as seen by this pass at `position` in
   * the engine's list (`0 ≤ position <` the count given to {@link BodyTable.beginPass}).
   */
  visit(body: B, key: number, position: number): number {
    let r = this.find(body, key);
    if (r < 0) r = this.add(body, key);
    this.stamps[r] = this.stamp;
    this.index[r] = position;
    this.at[position] = r;
    return r;
  }

  /** The record of `body` filed under `key`, or -1 (never creates one). */
  find(body: B, key: number): number {
    if (key >>> 0 === key && key < this.keyTable.length) {
      const r = this.keyTable[key];
      if (r >= 0 && this.bodies[r] === body) return r;
    }
    // A key out of the table's range, or one another body was filed under first.
    if (this.byBody === null) return -1;
    const r = this.byBody.get(body);
    return r === undefined ? -1 : r;
  }

  /** Whether the current pass has visited `record` already. */
  visited(record: number): boolean {
    return this.stamps[record] === this.stamp && this.bodies[record] != null;
  }

  /**
   * Ends a pass over `count` bodies: when the table holds another number of bodies, every record the
   * pass did not visit is freed (its proxy removed, {@link BodyTableHooks.removed} called). Returns
   * how many were freed.
   */
  endPass(count: number): number {
    if (this.live === count) return 0;
    let freed = 0;
    const stamp = this.stamp;
    for (let r = 0; r < this.used; r++) {
      if (this.bodies[r] !== null && this.stamps[r] !== stamp) {
        this.release(r);
        freed++;
      }
    }
    return freed;
  }

  /**
   * Gives record `record`'s proxy the box now at `boxes[record · stride …]` (finite, min ≤ max: the
   * broadphase checks it): a new proxy tagged with the record, or a move queued for
   * {@link BodyTable.commit}.
   */
  place(record: number): void {
    const s = this.stride;
    const boxes = this.boxes;
    const o = record * s;
    const h = this.handles[record];
    if (h !== NO_PROXY) {
      const m = this.moveCount;
      if (m === this.moveHandles.length) {
        this.moveHandles = growArray(this.moveHandles, m + 1);
        this.moveBounds = growArray(this.moveBounds, s * (m + 1));
      }
      this.moveHandles[m] = h;
      copyBox(this.moveBounds, m * s, boxes, o, s);
      this.moveCount = m + 1;
      return;
    }
    const ib = this.insertBox;
    for (let k = 0; k < s; k++) ib[k] = boxes[o + k];
    const handle = this.bp.insert(ib, record);
    this.handles[record] = handle;
    this.proxied++;
    if (!this.tagged || !this.tagsChecked) this.noteSlot(handle, record);
  }

  /** Removes record `record`'s proxy, if it has one (its box is kept). */
  unplace(record: number): void {
    const h = this.handles[record];
    if (h === NO_PROXY) return;
    this.handles[record] = NO_PROXY;
    this.proxied--;
    this.bp.remove(h);
  }

  /** Moves queued by {@link BodyTable.place} since the last commit. */
  get pendingMoves(): number {
    return this.moveCount;
  }

  /** Applies the queued moves (one `moveMany`) and brings the broadphase's pairs up to date. */
  commit(): void {
    const m = this.moveCount;
    this.moveCount = 0;
    if (m > 0) this.bp.moveMany(this.moveHandles, this.moveBounds, m);
    this.bp.update();
  }

  /**
   * The broadphase's current pairs as records: entries `2k` and `2k + 1` are the records of pair k,
   * for k below {@link BodyTable.pairCount}, in the broadphase's pair order. A buffer reused until the
   * next {@link BodyTable.commit}.
   */
  pairRecords(): Int32Array {
    if (this.tagged) return this.bp.pairTags().pairs;
    const pairs = this.bp.pairBuffers().pairs;
    const n = 2 * this.bp.pairCount;
    if (this.pairRecordBuffer.length < n) this.pairRecordBuffer = growArray(this.pairRecordBuffer, n);
    const out = this.pairRecordBuffer;
    for (let i = 0; i < n; i++) out[i] = this.recordOfHandle(pairs[i]);
    return out;
  }

  /**
   * Appends to `out` the records whose proxies overlap `bounds` (the broadphase's `queryBounds`, so
   * as of the latest place/unplace); returns how many were appended.
   */
  queryRecords(bounds: ArrayLike<number>, out: number[]): number {
    const start = out.length;
    this.bp.queryBounds(bounds, out);
    for (let k = start; k < out.length; k++) out[k] = this.recordOfHandle(out[k]);
    return out.length - start;
  }

  /** The record a live proxy's handle stands for. */
  recordOfHandle(handle: number): number {
    if (this.tagged) return this.bp.tagOf(handle);
    // A broadphase that does not keep tags: the record noted for the handle's slot at insert.
    return this.recordOfSlot[handle & SLOT_MASK];
  }

  /**
   * Records by slot for a broadphase that drops the tags given to `insert`: noted until an insert of a
   * record other than 0 shows whether the tag came back, and from then on only when it did not.
   */
  private noteSlot(handle: number, record: number): void {
    const slot = handle & SLOT_MASK;
    if (slot >= this.recordOfSlot.length) this.recordOfSlot = growArray(this.recordOfSlot, slot + 1);
    this.recordOfSlot[slot] = record;
    if (!this.tagsChecked && record !== 0) {
      this.tagsChecked = true;
      this.tagged = this.bp.tagOf(handle) === record;
    }
  }

  private add(body: B, key: number): number {
    let r: number;
    if (this.free.length > 0) r = this.free.pop() as number;
    else {
      r = this.used++;
      if (r === this.handles.length) this.growRecords(r + 1);
    }
    this.bodies[r] = body;
    this.handles[r] = NO_PROXY;
    this.boxes.fill(Number.NaN, r * this.stride, (r + 1) * this.stride);
    if (key >>> 0 === key && key < KEY_TABLE_LIMIT && !(this.keyTable[key] >= 0)) {
      if (key >= this.keyTable.length) {
        const old = this.keyTable.length;
        this.keyTable = growArray(this.keyTable, key + 1);
        this.keyTable.fill(-1, old);
      }
      this.keyTable[key] = r;
      this.keys[r] = key;
    } else {
      if (this.byBody === null) this.byBody = new Map();
      this.byBody.set(body, r);
      this.keys[r] = -1;
    }
    this.live++;
    this.hooks.added(r);
    return r;
  }

  private release(r: number): void {
    this.unplace(r);
    this.hooks.removed(r);
    const k = this.keys[r];
    const body = this.bodies[r] as B;
    if (k >= 0) {
      if (this.keyTable[k] === r) this.keyTable[k] = -1;
    } else if (this.byBody !== null && this.byBody.get(body) === r) {
      this.byBody.delete(body);
    }
    this.bodies[r] = null;
    this.free.push(r);
    this.live--;
  }

  private growRecords(size: number): void {
    this.handles = growArray(this.handles, size);
    const capacity = this.handles.length;
    this.boxes = growArray(this.boxes, this.stride * capacity);
    this.index = growArray(this.index, capacity);
    this.stamps = growArray(this.stamps, capacity);
    this.keys = growArray(this.keys, capacity);
    this.hooks.grow(capacity);
  }
}
