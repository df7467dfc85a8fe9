/**
 * Proxy storage shared by every broadphase: generational integer handles (as Box2D v3's ids), the
 * latest bounds of each proxy in one flat Float64Array, and the checks that reject bad input before
 * anything is changed.
 *
 * A handle is `generation << 20 | slot`: 20 bits of slot (up to 1 048 576 live proxies) and 11 bits
 * of generation, so handles are non-negative int32 values. Removing a proxy bumps its slot's
 * generation at once (the old handle is stale from then on), but the slot itself is only reused after
 * the next `update()` — so a pair that ends because its proxy was removed is still reported with the
 * old handle, and cannot be confused with a pair of the slot's next owner. Freed slots are reused
 * first-in first-out, which makes a stale handle colliding with a live one (after 2048 reuses of one
 * slot) as unlikely as it can be.
 */
import { checkOptionKeys } from '../options.js';
import type { Dimensions } from './types.js';

/** Bits of a handle that hold the slot index. */
export const SLOT_BITS = 20;
/** The most proxies one broadphase can hold at once. */
export const MAX_PROXIES = 1 << SLOT_BITS;
/**
 * The slot of a handle: `handle & SLOT_MASK`.
 *
 * @internal
 */
export const SLOT_MASK = MAX_PROXIES - 1;
const GENERATION_MASK = (1 << 11) - 1;

const AXIS_NAMES = ['X', 'Y', 'Z'];

/** The names of the entries of a bounds array, for error messages: `minX`, ..., `maxZ`. */
export function boundsNames(dimensions: Dimensions): string[] {
  const axes = AXIS_NAMES.slice(0, dimensions);
  return [...axes.map((a) => `min${a}`), ...axes.map((a) => `max${a}`)];
}

/**
 * Throws a clear error if `bounds` is not a valid box: wrong length, a NaN or infinite entry, or a
 * min greater than its max. `where` names the caller in the message.
 */
export function checkBounds(bounds: ArrayLike<number>, dimensions: Dimensions, where: string): void {
  // Typed-array fast path: a function of its own keeps its element reads monomorphic (reads shared
  // between number[] and Float64Array callers box every double they load).
  if (bounds instanceof Float64Array && wellFormedFloat64Bounds(bounds, dimensions)) return;
  const stride = 2 * dimensions;
  if (bounds == null || typeof bounds.length !== 'number') {
    throw new TypeError(`${where}: bounds must be an array of ${stride} numbers, got ${String(bounds)}`);
  }
  if (bounds.length !== stride) {
    throw new RangeError(
      `${where}: bounds has length ${bounds.length}, expected ${stride} ([${boundsNames(dimensions).join(', ')}])`,
    );
  }
  for (let i = 0; i < stride; i++) {
    const v = bounds[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(
        `${where}: bounds[${i}] (${boundsNames(dimensions)[i]}) is ${String(v)}, not a finite number`,
      );
    }
  }
  for (let d = 0; d < dimensions; d++) {
    if (bounds[d] > bounds[d + dimensions]) {
      const a = AXIS_NAMES[d];
      throw new RangeError(
        `${where}: min${a} ${bounds[d]} is greater than max${a} ${bounds[d + dimensions]}`,
      );
    }
  }
}

/**
 * 1 when the box at `o` of `b` (2·d numbers, mins then maxes) is not finite with min ≤ max, else 0:
 * branch-free, for the loops that check every box written in place.
 */
export function wrongBox(b: Float64Array, o: number, d: number): number {
  const x0 = b[o];
  const y0 = b[o + 1];
  const x1 = b[o + d];
  const y1 = b[o + d + 1];
  // x − x is 0 exactly for finite x (NaN for NaN and ±Infinity); NaN fails every <=.
  let wrong =
    (x0 - x0 + (y0 - y0) + (x1 - x1) + (y1 - y1) === 0 ? 0 : 1) | (x0 <= x1 ? 0 : 1) | (y0 <= y1 ? 0 : 1);
  if (d === 3) {
    const z0 = b[o + 2];
    const z1 = b[o + 5];
    wrong |= (z0 - z0 + (z1 - z1) === 0 ? 0 : 1) | (z0 <= z1 ? 0 : 1);
  }
  return wrong;
}

/**
 * When `handles[i]` is slot i for every i < n (a batch in slot order: the handles of boxes inserted in
 * order, all moved) and `from` is a Float64Array of exactly those boxes, copies them into `to` with one
 * block copy and returns true; else copies nothing and returns false. Stops at the first handle out of
 * order. (A longer `from` is left to the caller: a view of its start would allocate every frame.)
 */
export function copyBoxesInSlotOrder(
  to: Float64Array,
  handles: ArrayLike<number>,
  from: ArrayLike<number>,
  n: number,
  s: number,
): boolean {
  if (!(from instanceof Float64Array) || from.length !== n * s) return false;
  for (let i = 0; i < n; i++) if ((handles[i] & SLOT_MASK) !== i) return false;
  to.set(from);
  return true;
}

/**
 * Copies the box at `from[o ...]` (`s` = 4 or 6 numbers, mins then maxes) into `to[at ...]`: written
 * out, as it runs for every moved box of a frame.
 */
export function copyBox(to: Float64Array, at: number, from: ArrayLike<number>, o: number, s: number): void {
  to[at] = from[o];
  to[at + 1] = from[o + 1];
  to[at + 2] = from[o + 2];
  to[at + 3] = from[o + 3];
  if (s === 6) {
    to[at + 4] = from[o + 4];
    to[at + 5] = from[o + 5];
  }
}

/**
 * Throws the RangeError for slot `slot`'s box, written straight into `bounds` (the store's own by
 * default) by the caller and found not finite with min ≤ max: `<where>: the box of handle H in
 * \`bounds\` (at O): ` and what is wrong with it.
 */
export function throwBadWrittenBox(
  store: ProxyStore,
  slot: number,
  where: string,
  bounds: Float64Array = store.bounds,
): never {
  const s = store.stride;
  const named = `${where}: the box of handle ${store.handles[slot]} in \`bounds\` (at ${slot * s})`;
  checkBounds(bounds.slice(slot * s, slot * s + s), store.dimensions, named);
  // Fixed since it was checked (another thread wrote it): say so all the same.
  throw new RangeError(`${named} was not finite with min <= max when checked`);
}

/**
 * Throws a TypeError naming `owner` unless `options` is an object (the constructor's options) whose
 * keys are all in `known` (when given) and whose `validate`, if set, is a boolean.
 */
export function checkOptions<T extends object>(options: T, owner: string, known?: readonly string[]): T {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `${owner}: options must be an object such as { dimensions: 3 }, got ${String(options)}`,
    );
  }
  if (known !== undefined) checkOptionKeys(`${owner}: options`, options, known);
  const validate = (options as { validate?: unknown }).validate;
  if (validate !== undefined && typeof validate !== 'boolean') {
    throw new TypeError(`${owner}: options.validate must be true or false, got ${String(validate)}`);
  }
  return options;
}

/**
 * Throws a TypeError naming `where` unless `out` is what {@link Broadphase.queryBounds} can report
 * into: a function, an array or an Int32Array.
 */
export function checkQueryOut(out: unknown, where: string): void {
  if (typeof out !== 'function' && !Array.isArray(out) && !(out instanceof Int32Array)) {
    throw new TypeError(`${where}: out must be a callback, an array or an Int32Array, got ${String(out)}`);
  }
}

/**
 * Throws a RangeError naming `where` unless `tag` is an integer that fits an int32 (a user tag stored
 * with a proxy: an index into the engine's own records, typically).
 */
export function checkTag(tag: number, where: string): void {
  if (typeof tag !== 'number' || !Number.isInteger(tag) || tag < -0x80000000 || tag > 0x7fffffff) {
    throw new RangeError(`${where}: tag must be an integer from -2^31 to 2^31 - 1, got ${String(tag)}`);
  }
}

/**
 * Throws a TypeError naming `where` unless `isStatic` is a boolean (`undefined` too where
 * `optional`: an insert without the flag).
 */
export function checkStaticFlag(isStatic: unknown, where: string, optional: boolean): void {
  if (typeof isStatic !== 'boolean' && !(optional && isStatic === undefined)) {
    throw new TypeError(`${where}: isStatic must be true or false, got ${String(isStatic)}`);
  }
}

/** Whether a Float64Array holds a valid box (length, finite, min ≤ max); no message, no allocation. */
function wellFormedFloat64Bounds(b: Float64Array, dimensions: number): boolean {
  if (b.length !== 2 * dimensions) return false;
  for (let i = 0; i < 2 * dimensions; i++) {
    const v = b[i];
    // v − v is 0 for every finite v, NaN for NaN and ±Infinity.
    if (v - v !== 0) return false;
  }
  for (let k = 0; k < dimensions; k++) if (b[k] > b[k + dimensions]) return false;
  return true;
}

/**
 * Slots, generations and latest bounds of the proxies of one broadphase. The broadphase keeps its own
 * per-slot arrays and grows them in {@link ProxyStore.onGrow}.
 */
export class ProxyStore {
  readonly dimensions: Dimensions;
  /** Numbers per box: 2 × dimensions. */
  readonly stride: number;
  /** Slots the arrays have room for. */
  capacity: number;
  /** Latest bounds of each slot, `stride` numbers per slot (min then max). */
  bounds: Float64Array;
  /** Current handle of each slot (the stale one is kept until the slot is reused). */
  handles: Int32Array;
  /** 1 while the slot holds a live proxy. */
  alive: Uint8Array;
  /**
   * The user tag of each slot (`insert(bounds, tag)`; 0 by default). Kept after the proxy is removed
   * until the slot is reused, so the pairs that end with it can still report it.
   */
  tags: Int32Array;
  /** Whether any proxy was ever given a tag other than 0 (until then every tag reads 0). */
  tagged = false;
  /**
   * 1 while the slot's proxy is static, as last set by `insert` or `setStatic` (a broadphase applies
   * a change at its next update and keeps the state its structure was built with itself).
   */
  statics: Uint8Array;
  /** Live proxies. */
  count = 0;
  /** Slots ever handed out; every used slot is below this. */
  used = 0;
  /** FIFO ring of free slots. */
  private free: Int32Array;
  private freeHead = 0;
  private freeSize = 0;
  /** Slots removed since the last update; they join the free ring in {@link ProxyStore.recycle}. */
  private released: Int32Array;
  private releasedCount = 0;
  private readonly onGrow: (capacity: number) => void;
  private readonly owner: string;
  /**
   * What the argument checks of the owner's methods name, `<owner>.<method>`: built once, so that a
   * check run per move, insert or query allocates no string.
   */
  readonly names: { insert: string; move: string; setStatic: string; queryBounds: string };

  constructor(
    dimensions: Dimensions,
    initialCapacity: number,
    owner: string,
    onGrow: (capacity: number) => void,
  ) {
    if (dimensions !== 2 && dimensions !== 3) {
      throw new RangeError(`${owner}: dimensions must be 2 or 3, got ${String(dimensions)}`);
    }
    if (!Number.isInteger(initialCapacity) || initialCapacity < 1) {
      throw new RangeError(
        `${owner}: initialCapacity must be a positive integer, got ${String(initialCapacity)}`,
      );
    }
    this.dimensions = dimensions;
    this.stride = 2 * dimensions;
    this.owner = owner;
    this.names = {
      insert: `${owner}.insert`,
      move: `${owner}.move`,
      setStatic: `${owner}.setStatic`,
      queryBounds: `${owner}.queryBounds`,
    };
    this.onGrow = onGrow;
    this.capacity = Math.min(initialCapacity, MAX_PROXIES);
    this.bounds = new Float64Array(this.capacity * this.stride);
    this.handles = new Int32Array(this.capacity);
    this.alive = new Uint8Array(this.capacity);
    this.tags = new Int32Array(this.capacity);
    this.statics = new Uint8Array(this.capacity);
    this.free = new Int32Array(this.capacity);
    this.released = new Int32Array(this.capacity);
  }

  /** Checks `bounds`, `tag` and `isStatic`, takes a slot, stores them and returns the slot. */
  allocate(bounds: ArrayLike<number>, tag = 0, isStatic?: boolean): number {
    checkBounds(bounds, this.dimensions, this.names.insert);
    checkTag(tag, this.names.insert);
    checkStaticFlag(isStatic, this.names.insert, true);
    let slot: number;
    if (this.freeSize > 0) {
      slot = this.free[this.freeHead];
      this.freeHead = (this.freeHead + 1) % this.free.length;
      this.freeSize--;
    } else {
      if (this.used === MAX_PROXIES) {
        throw new RangeError(`${this.owner}.insert: cannot hold more than ${MAX_PROXIES} proxies`);
      }
      if (this.used === this.capacity) this.grow();
      slot = this.used++;
      this.handles[slot] = slot;
    }
    this.alive[slot] = 1;
    this.tags[slot] = tag;
    if (tag !== 0) this.tagged = true;
    this.statics[slot] = isStatic === true ? 1 : 0;
    this.count++;
    this.setBounds(slot, bounds);
    return slot;
  }

  /** Stores already checked bounds for a slot. */
  setBounds(slot: number, bounds: ArrayLike<number>): void {
    // Written out (copyBox): a builtin `set` of 4 or 6 numbers costs more, and it runs per move.
    copyBox(this.bounds, slot * this.stride, bounds, 0, this.stride);
  }

  /**
   * Checks a bulk move before anything changes: `count` live handles, and their boxes at
   * `bounds[i · stride ...]` (finite, min ≤ max); throws naming `where` and the first bad entry.
   * `Int32Array` handles with `Float64Array` bounds take a fast path; anything odd there goes to the
   * checks that name it.
   */
  checkMany(
    handles: ArrayLike<number>,
    bounds: ArrayLike<number>,
    count: number | undefined,
    where: string,
  ): number {
    const s = this.stride;
    const d = this.dimensions;
    // No message string is built unless something is wrong: this runs every frame.
    if (handles == null || typeof handles !== 'object' || typeof handles.length !== 'number') {
      throw new TypeError(
        `${this.owner}.${where}: handles must be an array or Int32Array of handles, got ${String(handles)}`,
      );
    }
    if (bounds == null || typeof bounds !== 'object' || typeof bounds.length !== 'number') {
      throw new TypeError(
        `${this.owner}.${where}: bounds must be an array or Float64Array of numbers, got ${String(bounds)}`,
      );
    }
    if (count === undefined) count = handles.length;
    else if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > handles.length) {
      throw new RangeError(
        `${this.owner}.${where}: count must be an integer from 0 to handles.length (${handles.length}), got ${String(count)}`,
      );
    }
    if (bounds.length < count * s) {
      throw new RangeError(`${this.owner}.${where}: bounds has ${bounds.length} numbers, need ${count * s}`);
    }
    const typed = bounds instanceof Float64Array && handles instanceof Int32Array;
    if (typed && this.wellFormedBatch(handles, bounds, count)) return count;
    // Something is wrong, or the arrays are not typed: find and name the first bad entry.
    for (let i = 0; i < count; i++) {
      const o = i * s;
      this.slotOf(handles[i], where);
      for (let j = 0; j < s; j++) {
        const v = bounds[o + j];
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          throw new RangeError(
            `${this.owner}.${where}: bounds[${o + j}] is ${String(v)}, not a finite number`,
          );
        }
      }
      for (let k = 0; k < d; k++) {
        if (bounds[o + k] > bounds[o + d + k]) {
          throw new RangeError(`${this.owner}.${where}: box ${i} has min > max on axis ${k}`);
        }
      }
    }
    return count;
  }

  /**
   * Whether every one of `count` handles is live and every box finite with min ≤ max: the per-frame
   * fast path of {@link checkMany}, one pass for the handles and one for the bounds, branch-free (the
   * verdict is accumulated), so a well-formed batch costs no mispredicted branch. When it says no, the
   * caller's loop finds and names the first bad entry.
   */
  private wellFormedBatch(handles: Int32Array, bounds: Float64Array, count: number): boolean {
    const used = this.used;
    const alive = this.alive;
    const live = this.handles;
    if (used === 0) return count === 0;
    let bad = 0;
    for (let i = 0; i < count; i++) {
      const h = handles[i];
      // Clamped so a bad handle reads a real element (out-of-range reads would deoptimise the loop).
      const slot = Math.min(h & SLOT_MASK, used - 1);
      bad |= (h < 0 ? 1 : 0) | (alive[slot] ^ 1) | (live[slot] !== h ? 1 : 0);
    }
    if (this.dimensions === 3) {
      for (let o = 0, end = 6 * count; o < end; o += 6) bad |= badBox3(bounds, o);
    } else {
      for (let o = 0, end = 4 * count; o < end; o += 4) bad |= badBox2(bounds, o);
    }
    return bad === 0;
  }

  /**
   * The slot of live `handle` for a `move` to `bounds`, checked before anything changes: throws naming
   * the handle or the bad number. A `Float64Array` of one box, finite with min ≤ max, takes one quick
   * pass (an engine moves its bodies one by one every frame, as {@link checkMany}'s fast path for a
   * batch); anything else the checks that name what is wrong.
   */
  moveSlot(handle: number, bounds: ArrayLike<number>): number {
    const fast = this.wellFormedSlot(handle, bounds);
    if (fast >= 0) return fast;
    const slot = this.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, this.names.move);
    return slot;
  }

  /** The slot of live `handle` when `bounds` is a `Float64Array` of one well-formed box, else −1. */
  private wellFormedSlot(handle: number, bounds: ArrayLike<number>): number {
    if (!(bounds instanceof Float64Array) || bounds.length !== this.stride) return -1;
    // A fraction, a negative or a stale handle never equals the slot's current handle.
    const slot = handle & SLOT_MASK;
    if (!(slot < this.used && this.handles[slot] === handle && this.alive[slot] === 1)) return -1;
    const bad = this.dimensions === 3 ? badBox3(bounds, 0) : badBox2(bounds, 0);
    return bad === 0 ? slot : -1;
  }

  /** The slot of a live handle; throws naming `where` for anything else. */
  slotOf(handle: number, where: string): number {
    if (typeof handle !== 'number' || !Number.isInteger(handle) || handle < 0 || handle > 0x7fffffff) {
      throw new RangeError(`${this.owner}.${where}: ${String(handle)} is not a handle`);
    }
    const slot = handle & SLOT_MASK;
    if (slot >= this.used || this.alive[slot] === 0 || this.handles[slot] !== handle) {
      throw new RangeError(`${this.owner}.${where}: handle ${handle} is unknown or was removed`);
    }
    return slot;
  }

  /** Whether `handle` names a live proxy. */
  has(handle: number): boolean {
    if (!Number.isInteger(handle) || handle < 0 || handle > 0x7fffffff) return false;
    const slot = handle & SLOT_MASK;
    return slot < this.used && this.alive[slot] === 1 && this.handles[slot] === handle;
  }

  /** Marks a slot dead. Its handle is stale at once; the slot is reused after {@link recycle}. */
  release(slot: number): void {
    this.alive[slot] = 0;
    this.count--;
    this.released[this.releasedCount++] = slot;
  }

  /** Makes the slots released since the last call reusable, with their next generation. */
  recycle(): void {
    for (let i = 0; i < this.releasedCount; i++) {
      const slot = this.released[i];
      const generation = ((this.handles[slot] >>> SLOT_BITS) + 1) & GENERATION_MASK;
      this.handles[slot] = (generation << SLOT_BITS) | slot;
      this.free[(this.freeHead + this.freeSize) % this.free.length] = slot;
      this.freeSize++;
    }
    this.releasedCount = 0;
  }

  /** Copies a slot's bounds into `out` (an array, or a typed array of length ≥ 2 × dimensions). */
  copyBounds<T extends number[] | Float64Array | Float32Array>(
    slot: number,
    out: T,
    from: Float64Array = this.bounds,
  ): T {
    const s = this.stride;
    if (
      !Array.isArray(out) &&
      !((out instanceof Float64Array || out instanceof Float32Array) && out.length >= s)
    ) {
      throw new TypeError(
        `${this.owner}.getBounds: out must be an array, or a Float64Array or Float32Array of length >= ${s}, got ${String(out)}`,
      );
    }
    const o = slot * s;
    for (let i = 0; i < s; i++) out[i] = from[o + i];
    return out;
  }

  /** Whether the slot's latest bounds overlap `q` (already checked), inclusively. */
  overlapsBounds(slot: number, q: ArrayLike<number>): boolean {
    const d = this.dimensions;
    const b = this.bounds;
    const o = slot * 2 * d;
    for (let k = 0; k < d; k++) {
      if (b[o + k] > q[k + d] || q[k] > b[o + d + k]) return false;
    }
    return true;
  }

  /** Linear scan for {@link Broadphase.queryBounds}: every live slot's handle overlapping `q`. */
  scanQuery(q: ArrayLike<number>, out: ((handle: number) => void) | number[] | Int32Array): number {
    checkBounds(q, this.dimensions, this.names.queryBounds);
    checkQueryOut(out, this.names.queryBounds);
    let found = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (this.alive[slot] === 1 && this.overlapsBounds(slot, q)) {
        emitQueryResult(out, this.handles[slot], found);
        found++;
      }
    }
    return found;
  }

  private grow(): void {
    const capacity = Math.min(this.capacity * 2, MAX_PROXIES);
    const bounds = new Float64Array(capacity * this.stride);
    bounds.set(this.bounds);
    this.bounds = bounds;
    const handles = new Int32Array(capacity);
    handles.set(this.handles);
    this.handles = handles;
    const alive = new Uint8Array(capacity);
    alive.set(this.alive);
    this.alive = alive;
    const tags = new Int32Array(capacity);
    tags.set(this.tags);
    this.tags = tags;
    const statics = new Uint8Array(capacity);
    statics.set(this.statics);
    this.statics = statics;
    // The free ring is empty whenever we grow (we only grow when no slot is free).
    this.free = new Int32Array(capacity);
    this.freeHead = 0;
    const released = new Int32Array(capacity);
    released.set(this.released.subarray(0, this.releasedCount));
    this.released = released;
    this.capacity = capacity;
    this.onGrow(capacity);
  }
}

/** Hands one query result to a callback, an array or a typed array (which keeps at most its length). */
export function emitQueryResult(
  out: ((handle: number) => void) | number[] | Int32Array,
  handle: number,
  index: number,
): void {
  if (typeof out === 'function') out(handle);
  else if (Array.isArray(out)) out.push(handle);
  else if (index < out.length) out[index] = handle;
}

/**
 * 0 when the 3-D box at `o` of `b` is finite with min ≤ max, else 1, without a branch: x − x is 0
 * exactly for finite x (NaN for NaN and ±Infinity), and NaN fails every ≤.
 */
function badBox3(b: Float64Array, o: number): number {
  const x0 = b[o];
  const y0 = b[o + 1];
  const z0 = b[o + 2];
  const x1 = b[o + 3];
  const y1 = b[o + 4];
  const z1 = b[o + 5];
  const fine = x0 - x0 + (y0 - y0) + (z0 - z0) + (x1 - x1) + (y1 - y1) + (z1 - z1) === 0;
  return (fine ? 0 : 1) | (x0 <= x1 ? 0 : 1) | (y0 <= y1 ? 0 : 1) | (z0 <= z1 ? 0 : 1);
}

/** {@link badBox3} for a 2-D box. */
function badBox2(b: Float64Array, o: number): number {
  const x0 = b[o];
  const y0 = b[o + 1];
  const x1 = b[o + 2];
  const y1 = b[o + 3];
  const fine = x0 - x0 + (y0 - y0) + (x1 - x1) + (y1 - y1) === 0;
  return (fine ? 0 : 1) | (x0 <= x1 ? 0 : 1) | (y0 <= y1 ? 0 : 1);
}
