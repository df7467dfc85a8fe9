/**
 * The order in which matter-js's stock detector visits bodies, kept incrementally.
 *
 * Stock `Detector.collisions` sorts `detector.bodies` in place by `bounds.min.x` every step
 * (`Array.prototype.sort`, which is stable), starting from the previous step's order — or from
 * `Composite.allBodies` order on a step where the world changed (`Detector.setBodies`). A stable sort's
 * result is unique: it is the order by the key `(min.x, position before the sort)`. That order decides
 * which body of a pair is passed first to `Collision.collides` and the order of the collisions array
 * (hence of new pairs in `pairs.list`, the order the resolver visits them, and the order of the
 * collision events), so reproducing it is what makes the simulation bit-identical to stock.
 *
 * Kept as the sweep-and-prune notes (§1.2) keep their endpoint lists: an insertion sort of
 * the previous order, near O(N) under temporal coherence. When the input is far from sorted (new
 * bodies appended at the end, a teleport) the insertion sort gives up after a budget of shifts and a
 * bottom-up merge sort finishes the job — both sort by the same total order, so the result is the same
 * (§1.2's "a quick O(n log n) sort can be used to obtain the initial ordering").
 */

/** Record indices in stock's visiting order, with the inverse map. Arrays grow by doubling. */
export class XOrder {
  /** `order[p]` is the record at position p. */
  order = new Int32Array(64);
  /** `rank[r]` is the position of record r (valid for live records after {@link XOrder.sort}). */
  rank = new Int32Array(64);
  /** Live records in the order. */
  count = 0;
  private scratch = new Int32Array(64);

  /** Makes room for record indices below `records` and `records` entries. */
  reserve(records: number): void {
    if (records <= this.order.length && records <= this.rank.length) return;
    let c = this.order.length;
    while (c < records) c *= 2;
    const o = new Int32Array(c);
    o.set(this.order.subarray(0, this.count));
    this.order = o;
    const r = new Int32Array(c);
    r.set(this.rank);
    this.rank = r;
    this.scratch = new Int32Array(c);
  }

  /** Appends a record at the end of the order (sorted into place by the next {@link XOrder.sort}). */
  push(record: number): void {
    this.reserve(this.count + 1);
    this.order[this.count++] = record;
  }

  /** Drops every record for which `dead[record] === 1`, keeping the others in order. */
  compact(dead: Uint8Array): void {
    const o = this.order;
    let w = 0;
    for (let p = 0; p < this.count; p++) {
      const r = o[p];
      if (dead[r] === 0) o[w++] = r;
    }
    this.count = w;
  }

  /**
   * Sorts by `(key[r], tie[r])` ascending and refreshes `rank`. `tie` must be distinct among live
   * records (a previous rank, or an index in `detector.bodies`). Returns the insertion-sort shifts
   * (or -1 when the merge sort took over).
   */
  sort(key: Float64Array, tie: Int32Array): number {
    const o = this.order;
    const n = this.count;
    const budget = 8 * n + 256;
    let shifts = 0;
    for (let i = 1; i < n; i++) {
      const r = o[i];
      const k = key[r];
      const t = tie[r];
      let j = i - 1;
      let q = o[j];
      // Shift while o[j] comes after r: key greater, or equal key and greater tie.
      while (key[q] > k || (key[q] === k && tie[q] > t)) {
        o[j + 1] = q;
        shifts++;
        if (--j < 0) break;
        q = o[j];
      }
      o[j + 1] = r;
      if (shifts > budget) {
        this.mergeSort(key, tie);
        shifts = -1;
        break;
      }
    }
    const rank = this.rank;
    const sorted = this.order; // the merge sort may have swapped buffers
    for (let p = 0; p < n; p++) rank[sorted[p]] = p;
    return shifts;
  }

  /** Bottom-up merge sort of the whole order by `(key, tie)`. */
  private mergeSort(key: Float64Array, tie: Int32Array): void {
    const n = this.count;
    let src = this.order;
    let dst = this.scratch;
    for (let width = 1; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let i = lo;
        let j = mid;
        let w = lo;
        while (i < mid && j < hi) {
          const a = src[i];
          const b = src[j];
          // Take b first only if it sorts strictly before a.
          if (key[b] < key[a] || (key[b] === key[a] && tie[b] < tie[a])) {
            dst[w++] = b;
            j++;
          } else {
            dst[w++] = a;
            i++;
          }
        }
        while (i < mid) dst[w++] = src[i++];
        while (j < hi) dst[w++] = src[j++];
      }
      const t = src;
      src = dst;
      dst = t;
    }
    if (src !== this.order) {
      this.scratch = this.order;
      this.order = src;
    }
  }
}
