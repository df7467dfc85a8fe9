/**
 * The brute-force reference broadphase: every `update()` tests all n(n−1)/2 pairs of live boxes and
 * diffs the result against the previous update. O(n²) — for tests and for small scenes only. It shares
 * nothing with the fast broadphases but the handle store, so it can judge them; for the same reason it
 * is written plainly and, unlike them, allocates its result arrays on every update.
 */
import { checkBounds, checkOptions, ProxyStore } from './proxies.js';
import type { Broadphase, BroadphaseOptions, Dimensions, QueryCallback } from './types.js';

/** Reference broadphase that tests every pair. Implements the {@link Broadphase} contract. */
export class BruteForce implements Broadphase {
  readonly dimensions: Dimensions;
  private readonly store: ProxyStore;
  private current: Int32Array = new Int32Array(0);
  private beganPairs: Int32Array = new Int32Array(0);
  private endedPairs: Int32Array = new Int32Array(0);

  constructor(options: BroadphaseOptions) {
    checkOptions(options, 'BruteForce');
    this.store = new ProxyStore(options.dimensions, options.initialCapacity ?? 64, 'BruteForce', () => {});
    this.dimensions = options.dimensions;
  }

  get count(): number {
    return this.store.count;
  }

  get pairCount(): number {
    return this.current.length >> 1;
  }

  insert(bounds: ArrayLike<number>): number {
    const slot = this.store.allocate(bounds);
    return this.store.handles[slot];
  }

  move(handle: number, bounds: ArrayLike<number>): void {
    const slot = this.store.slotOf(handle, 'move');
    checkBounds(bounds, this.dimensions, 'BruteForce.move');
    this.store.setBounds(slot, bounds);
  }

  remove(handle: number): void {
    this.store.release(this.store.slotOf(handle, 'remove'));
  }

  has(handle: number): boolean {
    return this.store.has(handle);
  }

  getBounds<T extends number[] | Float64Array | Float32Array>(handle: number, out: T): T {
    return this.store.copyBounds(this.store.slotOf(handle, 'getBounds'), out);
  }

  update(): void {
    const store = this.store;
    const d = this.dimensions;
    const s = store.stride;
    const b = store.bounds;
    const found: number[] = [];
    for (let i = 0; i < store.used; i++) {
      if (store.alive[i] === 0) continue;
      for (let j = i + 1; j < store.used; j++) {
        if (store.alive[j] === 0) continue;
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
    store.recycle();
  }

  pairs(): Int32Array {
    return this.current;
  }

  began(): Int32Array {
    return this.beganPairs;
  }

  ended(): Int32Array {
    return this.endedPairs;
  }

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
