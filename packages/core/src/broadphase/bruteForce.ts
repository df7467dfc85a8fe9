/**
 * The brute-force reference broadphase: every `update()` tests all n(n−1)/2 pairs of live boxes (but
 * pairs of two static proxies) and diffs the result against the previous update. O(n²) — for tests and for small scenes only. It shares
 * nothing with the fast broadphases but the handle store, so it can judge them; for the same reason it
 * is written plainly and, unlike them, allocates its result arrays on every update.
 */
import { checkOptions, checkStaticFlag, ProxyStore, SLOT_MASK } from './proxies.js';
import {
  BROADPHASE_OPTION_KEYS,
  type Broadphase,
  type BroadphaseOptions,
  type Dimensions,
  type PairBuffers,
  type QueryCallback,
} from './types.js';

/** Reference broadphase that tests every pair. Implements the {@link Broadphase} contract. */
export class BruteForce implements Broadphase {
  /** 2 or 3. */
  readonly dimensions: Dimensions;
  private readonly store: ProxyStore;
  private current: Int32Array = new Int32Array(0);
  private beganPairs: Int32Array = new Int32Array(0);
  private endedPairs: Int32Array = new Int32Array(0);
  private readonly tagLists: PairBuffers = {
    pairs: new Int32Array(0),
    began: new Int32Array(0),
    ended: new Int32Array(0),
  };

  /** An empty brute-force broadphase (`validate` has nothing to check here). */
  constructor(options: BroadphaseOptions) {
    checkOptions(options, 'BruteForce', BROADPHASE_OPTION_KEYS);
    this.store = new ProxyStore(options.dimensions, options.initialCapacity ?? 64, 'BruteForce', () => {});
    this.dimensions = options.dimensions;
  }

  /** How many proxies are live. */
  get count(): number {
    return this.store.count;
  }

  /** Pairs in `pairs()`. */
  get pairCount(): number {
    return this.current.length >> 1;
  }

  /** Pairs in `began()`. */
  get beganCount(): number {
    return this.beganPairs.length >> 1;
  }

  /** Pairs in `ended()`. */
  get endedCount(): number {
    return this.endedPairs.length >> 1;
  }

  /** {@inheritDoc Broadphase.insert} */
  insert(bounds: ArrayLike<number>, tag?: number, isStatic?: boolean): number {
    const slot = this.store.allocate(bounds, tag, isStatic);
    return this.store.handles[slot];
  }

  /** {@inheritDoc Broadphase.setStatic} */
  setStatic(handle: number, isStatic: boolean): void {
    const slot = this.store.slotOf(handle, 'setStatic');
    checkStaticFlag(isStatic, this.store.names.setStatic, false);
    this.store.statics[slot] = isStatic ? 1 : 0;
  }

  /** {@inheritDoc Broadphase.isStatic} */
  isStatic(handle: number): boolean {
    return this.store.statics[this.store.slotOf(handle, 'isStatic')] === 1;
  }

  /** {@inheritDoc Broadphase.move} */
  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.moveSlot(handle, bounds);
    this.store.setBounds(slot, bounds);
  }

  /** {@inheritDoc Broadphase.moveMany} */
  moveMany(handles: ArrayLike<number>, bounds: ArrayLike<number>, count?: number): void {
    const n = this.store.checkMany(handles, bounds, count, 'moveMany');
    const s = this.store.stride;
    for (let i = 0; i < n; i++) {
      const slot = this.store.slotOf(handles[i], 'moveMany');
      for (let j = 0; j < s; j++) this.store.bounds[slot * s + j] = bounds[i * s + j];
    }
  }

  /** {@inheritDoc Broadphase.remove} */
  remove(handle: number): void {
    this.store.release(this.store.slotOf(handle, 'remove'));
  }

  /** Whether `handle` names a live proxy. */
  has(handle: number): boolean {
    return this.store.has(handle);
  }

  /** Copies a live proxy's current bounds into `out` and returns it. */
  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
  }

  /** {@inheritDoc Broadphase.tagOf} */
  tagOf(handle: number): number {
    return this.store.tags[this.store.slotOf(handle, 'tagOf')];
  }

  /** Tests every pair of live boxes and diffs the result against the previous update. */
  update(): void {
    const store = this.store;
    const d = this.dimensions;
    const s = store.stride;
    const b = store.bounds;
    const found: number[] = [];
    for (let i = 0; i < store.used; i++) {
      if (store.alive[i] === 0) continue;
      for (let j = i + 1; j < store.used; j++) {
        if (store.alive[j] === 0 || (store.statics[i] === 1 && store.statics[j] === 1)) continue;
        let overlap = true;
        for (let k = 0; k < d; k++) {
          if (b[i * s + k] > b[j * s + d + k] || b[j * s + k] > b[i * s + d + k]) {
            overlap = false;
            break;
          }
        }
        if (overlap) {
          const hi = store.handles[i];
          const hj = store.handles[j];
          found.push(Math.min(hi, hj), Math.max(hi, hj));
        }
      }
    }
    const next = sortedPairList(found);
    // Both lists are sorted: one merge gives the pairs only in `next` (began) and only in `current` (ended).
    const began: number[] = [];
    const ended: number[] = [];
    const cur = this.current;
    let i = 0;
    let j = 0;
    while (i < cur.length || j < next.length) {
      const order =
        i >= cur.length ? 1 : j >= next.length ? -1 : cur[i] - next[j] || cur[i + 1] - next[j + 1];
      if (order < 0) {
        ended.push(cur[i], cur[i + 1]);
        i += 2;
      } else if (order > 0) {
        began.push(next[j], next[j + 1]);
        j += 2;
      } else {
        i += 2;
        j += 2;
      }
    }
    this.current = next;
    this.beganPairs = Int32Array.from(began);
    this.endedPairs = Int32Array.from(ended);
    // Read before the slots are recycled: the ended pairs of removed proxies keep their tags.
    this.tagLists.pairs = this.current.map((h) => store.tags[h & SLOT_MASK]);
    this.tagLists.began = this.beganPairs.map((h) => store.tags[h & SLOT_MASK]);
    this.tagLists.ended = this.endedPairs.map((h) => store.tags[h & SLOT_MASK]);
    store.recycle();
  }

  /** {@inheritDoc Broadphase.pairs} */
  pairs(): Int32Array {
    return this.current;
  }

  /** {@inheritDoc Broadphase.began} */
  began(): Int32Array {
    return this.beganPairs;
  }

  /** {@inheritDoc Broadphase.ended} */
  ended(): Int32Array {
    return this.endedPairs;
  }

  /** {@inheritDoc Broadphase.pairBuffers} */
  pairBuffers(): PairBuffers {
    return { pairs: this.current, began: this.beganPairs, ended: this.endedPairs };
  }

  /** {@inheritDoc Broadphase.pairTags} */
  pairTags(): PairBuffers {
    return this.tagLists;
  }

  /** {@inheritDoc Broadphase.queryBounds} */
  queryBounds(bounds: ArrayLike<number>, out: QueryCallback | number[] | Int32Array): number {
    return this.store.scanQuery(bounds, out);
  }
}

/** Sorts a flat pair list ascending by (a, b) (the list's pairs already have a < b). */
function sortedPairList(flat: number[]): Int32Array {
  const n = flat.length / 2;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((i, j) => flat[2 * i] - flat[2 * j] || flat[2 * i + 1] - flat[2 * j + 1]);
  const out = new Int32Array(flat.length);
  order.forEach((i, k) => {
    out[2 * k] = flat[2 * i];
    out[2 * k + 1] = flat[2 * i + 1];
  });
  return out;
}
