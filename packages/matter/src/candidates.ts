/**
 * From the broadphase's pairs to matter-js's collisions: stock's filters, stock's order, stock's
 * narrowphase.
 *
 * matter-js 0.20's `Detector.collisions` tests the pairs of bodies whose bounds overlap (inclusive on
 * both axes) with these filters, in this order: both static-or-sleeping → skip; `Detector.canCollide`
 * on the parents' `collisionFilter` (group, then category/mask); then, for a compound body, each pair
 * of parts 1.. with overlapping part bounds; `Collision.collides(partA, partB, detector.pairs)`. Which
 * body goes first into `Collision.collides` (it decides ties in the SAT axis choice) and the order of
 * the collisions array (the order new pairs enter `pairs.list`, which the resolver follows, and the
 * order of the collisionStart/Active pairs) follow stock's stable sort by min.x, kept by
 * {@link XOrder}; the surviving pairs are sorted by (rank of first, rank of second) with core's
 * `PairOrder` (two counting sorts).
 *
 * Per body, the fields these filters read are copied into typed arrays once per step (while syncing
 * the bounds of a body that moved, else the first time one of its pairs is looked at), so the loop
 * over the pairs reads arrays instead of matter-js's objects.
 */
import { type BodyTable, growArray, PairOrder } from '@sieve/core';
import type { CanCollideFn, CollidesFn, MatterBodyLike } from './matterTypes.js';
import { collideParts } from './parts.js';
import type { XOrder } from './xOrder.js';

const RESTING = 1;
const COMPOUND = 2;
const EXOTIC = 4;

/**
 * The candidates of one step: the per-body filter fields, the kept pairs in stock's order and the
 * narrowphase over them. Arrays grow by doubling; nothing is allocated per step once warm.
 */
export class Candidates {
  /**
   * Per record: RESTING (static or sleeping), COMPOUND (parts.length ≠ 1), EXOTIC (a collision
   * filter field that is not a number: its pairs go through `Detector.canCollide` itself).
   */
  private flags = new Uint8Array(0);
  /** The step at which the fields of a record were read. */
  private readStep = new Int32Array(0);
  private group = new Float64Array(0);
  private category = new Int32Array(0);
  private mask = new Int32Array(0);
  /** The candidates kept this step, keyed (rank of first, rank of second) in the x-order. */
  private readonly order = new PairOrder();
  /** `Collision.collides` result per candidate (single-part pairs), computed in broadphase order. */
  private readonly results: unknown[] = [];

  /** Makes room for records below `capacity`. */
  grow(capacity: number): void {
    this.readStep = growArray(this.readStep, capacity);
    this.category = growArray(this.category, capacity);
    this.mask = growArray(this.mask, capacity);
    this.group = growArray(this.group, capacity);
    this.flags = growArray(this.flags, capacity);
  }

  /** Reads record r's flags and collision filter (of `body`) for this step; returns the flags. */
  read(r: number, body: MatterBodyLike, step: number): number {
    const filter = body.collisionFilter;
    const g = filter.group;
    const c = filter.category;
    const m = filter.mask;
    let f = body.isStatic || body.isSleeping ? RESTING : 0;
    if (body.parts.length !== 1) f |= COMPOUND;
    if (typeof g !== 'number' || typeof c !== 'number' || typeof m !== 'number') f |= EXOTIC;
    this.flags[r] = f;
    this.group[r] = g as number;
    // Stored as `&` sees them (ToInt32), which is how canCollide uses category and mask.
    this.category[r] = c as number;
    this.mask[r] = m as number;
    this.readStep[r] = step;
    return f;
  }

  /**
   * Turns the broadphase's pairs (as records of `table`) into stock's body pairs: filters
   * (static/sleeping, collision filters), keys each pair by the ranks of its bodies in `xOrder`
   * (first = earlier) and sorts them by (rank of first, rank of second). Returns how many remain.
   *
   * @param canCollide - `Detector.canCollide` as it is now; `inline` says it is still matter-js's own
   *   (its logic is then evaluated here, else it is called).
   */
  gather(
    table: BodyTable<MatterBodyLike>,
    xOrder: XOrder,
    canCollide: CanCollideFn,
    inline: boolean,
    step: number,
  ): number {
    const pairs = table.pairRecords();
    const count = table.pairCount;
    const order = this.order;
    order.clear();
    order.reserve(count);
    const readStep = this.readStep;
    const flags = this.flags;
    const group = this.group;
    const category = this.category;
    const mask = this.mask;
    const bodyOf = table.bodies;
    const rank = xOrder.rank;
    for (let i = 0; i < count; i++) {
      const a = pairs[2 * i];
      const b = pairs[2 * i + 1];
      const fa = readStep[a] === step ? flags[a] : this.read(a, bodyOf[a] as MatterBodyLike, step);
      const fb = readStep[b] === step ? flags[b] : this.read(b, bodyOf[b] as MatterBodyLike, step);
      if ((fa & fb & RESTING) !== 0) continue;
      if (inline && ((fa | fb) & EXOTIC) === 0) {
        // Detector.canCollide: same non-zero group → the group's sign decides; else category/mask.
        const ga = group[a];
        if (ga === group[b] && ga !== 0) {
          if (!(ga > 0)) continue;
        } else if ((mask[a] & category[b]) === 0 || (mask[b] & category[a]) === 0) {
          continue;
        }
      } else if (
        !canCollide(
          (bodyOf[a] as MatterBodyLike).collisionFilter,
          (bodyOf[b] as MatterBodyLike).collisionFilter,
        )
      ) {
        continue;
      }
      // First = the body earlier in the x-order.
      const ra = rank[a];
      const rb = rank[b];
      if (ra < rb) order.push(ra, rb);
      else order.push(rb, ra);
    }
    order.sort(xOrder.count);
    return order.count;
  }

  /**
   * Stock's narrowphase over the `count` candidates {@link Candidates.gather} kept; fills `collisions`
   * in stock's order and returns its length. `xo` is the x-order's `order` (record at each position),
   * `bodyOf` the table's bodies. `Collision.collides` calls are independent of each other (each reads
   * its two bodies and the pairs table, and writes only its own collision record), so single-part
   * pairs are tested in the broadphase's order — bodies roughly in memory order, kinder to the cache
   * than stock's x-order — and their results emitted in stock's order afterwards.
   *
   * Measured and left out: an exact separating-axis cache (per pair, last step's separating
   * axis tried first, stock's arithmetic) gave no gain. This loop is bound by loading matter-js's vertex
   * objects (boxed `x`/`y`), not by the number of axes: stock's null answer usually comes from its first
   * axis, so one cached axis reads the same vertices — hot, ~0.1 µs a pair either way; cold at 20 000
   * bodies, ~1.2 µs (cached) vs ~1.4 µs (stock), and the table's lookups and misses eat the rest.
   * Any exact rejection needs every vertex of both bodies (the exact min/max), so none is cheaper.
   */
  collide(
    count: number,
    xo: Int32Array,
    bodyOf: readonly (MatterBodyLike | null)[],
    collides: CollidesFn,
    collisions: unknown[],
    pairs: unknown,
  ): number {
    // Candidate i is the pair of the bodies at positions first[i] < second[i] of the x-order.
    const first = this.order.first;
    const second = this.order.second;
    const sorted = this.order.order;
    const flags = this.flags;
    const results = this.results;
    for (let i = 0; i < count; i++) {
      const a = xo[first[i]];
      const b = xo[second[i]];
      results[i] =
        ((flags[a] | flags[b]) & COMPOUND) === 0
          ? collides(bodyOf[a] as MatterBodyLike, bodyOf[b] as MatterBodyLike, pairs)
          : null;
    }
    let index = 0;
    for (let w = 0; w < count; w++) {
      const i = sorted[w];
      const a = xo[first[i]];
      const b = xo[second[i]];
      if (((flags[a] | flags[b]) & COMPOUND) === 0) {
        const collision = results[i];
        if (collision) collisions[index++] = collision;
        continue;
      }
      // A compound body: stock's loop over its parts.
      index = collideParts(
        bodyOf[a] as MatterBodyLike,
        bodyOf[b] as MatterBodyLike,
        collides,
        pairs,
        collisions,
        index,
      );
    }
    // Drop references to this step's records.
    for (let i = 0; i < count; i++) results[i] = null;
    if (collisions.length !== index) collisions.length = index;
    return index;
  }
}
