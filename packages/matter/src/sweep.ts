/**
 * matter-js's own sort and sweep, reproduced step for step, for worlds too small for a broadphase
 * to pay for its upkeep.
 *
 * matter-js 0.20's `Detector.collisions` sorts `detector.bodies` in place by `bounds.min.x`
 * (`Array.prototype.sort`, stable, a comparator call per comparison), then sweeps: each body is
 * compared with the bodies after it until one starts beyond its `max.x`, bounds overlapping on y are
 * filtered (both static or sleeping, `Detector.canCollide`) and passed to `Collision.collides`, part
 * by part for compound bodies. This is the same algorithm (the sort and sweep of Baraff's thesis and
 * of Ericson's Real-Time Collision Detection §7.5.2) with the same results, only cheaper per call:
 *
 * - The sort is an insertion sort of the previous step's order, which is almost sorted under temporal
 *   coherence. A stable sort's result is unique (the order by `(min.x, position before the sort)`),
 *   and an insertion sort only ever swaps neighbours whose keys are strictly out of order, so the
 *   result is stock's; when the order is far from sorted (bodies appended, a teleport) the insertion
 *   sort stops after a budget of shifts and `Array.prototype.sort` with stock's comparator finishes —
 *   from a partial order in which equal keys kept their relative order, so again stock's result.
 * - The keys and the other bounds are read once per body into typed arrays; the sweep's inner loop
 *   reads those instead of three chained objects per comparison.
 * - `Detector.canCollide` is evaluated inline (the same expression on the same filter objects) while
 *   it is matter-js's own; a replaced one is called.
 *
 * A `min.x` that is not finite (a broken simulation) makes stock's comparator return NaN, for which no
 * order is defined: {@link StockSweep.collisions} then declines and the caller runs stock itself.
 */
import type { CanCollideFn, CollidesFn, MatterBodyLike, MatterCollisionFilterLike } from './matterTypes.js';
import { collidePair } from './parts.js';
import type { StaticTracker, TrackedBody } from './staticTracker.js';

/** Stock's comparator (`Detector._compareBoundsX`), used when the insertion sort gives up. */
const compareBoundsX = (a: MatterBodyLike, b: MatterBodyLike) => a.bounds.min.x - b.bounds.min.x;

/** Counts of the last {@link StockSweep.collisions} call. */
export interface SweepCounts {
  /** Pairs of bodies whose bounds overlap, not both static or sleeping. */
  candidates: number;
  /** Of those, pairs that passed the static/sleeping and collision-filter tests. */
  tested: number;
  /** Bodies neither static nor sleeping. */
  awake: number;
  /** Pairs the sweep looked at: each body with the bodies after it up to its `max.x` (the sweep's work). */
  visited: number;
}

/** Stock's sort and sweep over `detector.bodies` with typed-array scratch reused across calls. */
export class StockSweep {
  private minX = new Float64Array(64);
  private maxX = new Float64Array(64);
  private minY = new Float64Array(64);
  private maxY = new Float64Array(64);
  private resting = new Uint8Array(64);
  /** Positions of the awake bodies (neither static nor sleeping), ascending. */
  private awakeAt = new Int32Array(64);
  /** Counts of the last call. */
  readonly counts: SweepCounts = { candidates: 0, tested: 0, awake: 0, visited: 0 };

  /**
   * Per position: the index of the body in the tracker's list, and its inverse; valid while
   * {@link StockSweep.cachedBodies} is the detector's array (see {@link StockSweep.readTracked}).
   */
  private rec = new Int32Array(64);
  private posOf = new Int32Array(64);
  /** The array, tracker generation and tracker step the per-position bounds were last read for. */
  private cachedBodies: MatterBodyLike[] | null = null;
  private cachedGeneration = -1;
  private cachedStep = -1;

  /**
   * Sorts `bodies` in place as stock does and fills `collisions` with stock's collisions in stock's
   * order; returns how many, or -1 (nothing changed) when a `min.x` is not finite.
   *
   * @param canCollide - `Detector.canCollide` as it is now; `inline` says it is still matter-js's own.
   * @param tracker - The engine's static-body tracker, or null: while it is live and this sweep ran in
   *   the step before on the same array, only the bodies it visits are read again (the others hold
   *   the bounds and flags read then).
   */
  collisions(
    bodies: MatterBodyLike[],
    collisions: unknown[],
    pairs: unknown,
    canCollide: CanCollideFn,
    inline: boolean,
    collides: CollidesFn,
    tracker: StaticTracker | null = null,
  ): number {
    const n = bodies.length;
    if (this.minX.length < n) {
      const c = Math.max(n, 2 * this.minX.length);
      this.minX = new Float64Array(c);
      this.maxX = new Float64Array(c);
      this.minY = new Float64Array(c);
      this.maxY = new Float64Array(c);
      this.resting = new Uint8Array(c);
      this.awakeAt = new Int32Array(c);
      this.rec = new Int32Array(c);
      this.cachedBodies = null;
    }
    const tracked = tracker?.savesReads(n) === true;
    let incremental =
      tracked &&
      tracker.live &&
      this.cachedBodies === bodies &&
      this.cachedGeneration === tracker.generation &&
      this.cachedStep === tracker.steps - 1 &&
      tracker.bodies?.length === n;
    this.cachedBodies = null;
    if (incremental) {
      const read = this.readTracked(bodies, tracker as StaticTracker);
      if (read === 0) return -1;
      // A body not where the cache says (the array was changed behind matter-js's back): read all.
      if (read < 0) incremental = false;
    }
    if (!incremental && !this.readAll(bodies, n)) return -1;
    let cached = incremental;
    if (this.sort(bodies, n, incremental)) {
      // Far from sorted: stock's own stable sort finished from the partial order; read again.
      if (!this.readAll(bodies, n)) return -1;
      cached = false;
    }
    if (cached) {
      this.cachedBodies = bodies;
      this.cachedStep = (tracker as StaticTracker).steps;
    } else if (tracked) this.cacheFor(bodies, n, tracker as StaticTracker);
    const resting = this.resting;
    const awakeAt = this.awakeAt;
    let awake = 0;
    for (let i = 0; i < n; i++) if (resting[i] === 0) awakeAt[awake++] = i;
    this.counts.awake = awake;
    this.counts.candidates = 0;
    this.counts.tested = 0;
    // With a quarter of the bodies or more resting, their mutual pairs are worth skipping.
    const index =
      4 * awake > 3 * n
        ? this.sweepAll(bodies, n, collisions, pairs, canCollide, inline, collides)
        : this.sweepAwake(bodies, n, awake, collisions, pairs, canCollide, inline, collides);
    if (collisions.length !== index) collisions.length = index;
    return index;
  }

  /** Reads every body's bounds and flags into the per-position arrays; false when a `min.x` is not finite. */
  private readAll(bodies: MatterBodyLike[], n: number): boolean {
    for (let i = 0; i < n; i++) if (!this.read(bodies[i], i)) return false;
    return true;
  }

  /** Reads one body into position i; false when its `min.x` is not finite. */
  private read(body: MatterBodyLike, i: number): boolean {
    const bounds = body.bounds;
    const x = bounds.min.x;
    // x - x is NaN for NaN and ±Infinity alike.
    if (x - x !== 0) return false;
    this.minX[i] = x;
    this.maxX[i] = bounds.max.x;
    this.minY[i] = bounds.min.y;
    this.maxY[i] = bounds.max.y;
    this.resting[i] = body.isStatic || body.isSleeping ? 1 : 0;
    return true;
  }

  /**
   * Reads again only the bodies the tracker visits this step: 1, or 0 when a `min.x` is not finite,
   * -1 when the array no longer holds a body where the cache says.
   */
  private readTracked(bodies: MatterBodyLike[], tracker: StaticTracker): number {
    const list = tracker.bodies as readonly MatterBodyLike[];
    const count = tracker.visitedCount();
    const at = tracker.visitedAt;
    const posOf = this.posOf;
    for (let k = 0; k < count; k++) {
      const p = posOf[at[k]];
      const body = bodies[p];
      if (body !== list[at[k]]) return -1;
      if (!this.read(body, p)) return 0;
    }
    return 1;
  }

  /** Maps positions to the tracker's list and back; leaves the cache off when a body is missing or listed twice. */
  private cacheFor(bodies: MatterBodyLike[], n: number, tracker: StaticTracker): void {
    const list = tracker.bodies;
    if (list === null || list.length !== n) return;
    if (this.posOf.length < n) this.posOf = new Int32Array(this.minX.length);
    const posOf = this.posOf;
    posOf.fill(-1, 0, n);
    const rec = this.rec;
    for (let p = 0; p < n; p++) {
      const t = tracker.positionOf(bodies[p] as TrackedBody);
      if (t < 0 || posOf[t] >= 0) return;
      rec[p] = t;
      posOf[t] = p;
    }
    this.cachedBodies = bodies;
    this.cachedGeneration = tracker.generation;
    this.cachedStep = tracker.steps;
  }

  /**
   * Stock's sweep as stock runs it: each body against every body after it up to its `max.x`, the
   * pairs of two resting bodies skipped after the bounds test. Returns the collisions' count.
   */
  private sweepAll(
    bodies: MatterBodyLike[],
    n: number,
    collisions: unknown[],
    pairs: unknown,
    canCollide: CanCollideFn,
    inline: boolean,
    collides: CollidesFn,
  ): number {
    const minX = this.minX;
    const maxX = this.maxX;
    const minY = this.minY;
    const maxY = this.maxY;
    const resting = this.resting;
    let candidates = 0;
    let tested = 0;
    let visited = 0;
    let index = 0;
    for (let i = 0; i < n; i++) {
      const boundXMax = maxX[i];
      const boundYMax = maxY[i];
      const boundYMin = minY[i];
      const restingA = resting[i];
      let bodyA: MatterBodyLike | undefined;
      let filterA: MatterCollisionFilterLike | undefined;
      let j = i + 1;
      for (; j < n; j++) {
        if (minX[j] > boundXMax) break;
        if (boundYMax < minY[j] || boundYMin > maxY[j]) continue;
        if (restingA !== 0 && resting[j] !== 0) continue;
        candidates++;
        if (bodyA === undefined) {
          bodyA = bodies[i];
          filterA = bodyA.collisionFilter;
        }
        const bodyB = bodies[j];
        if (!filtersMeet(filterA as MatterCollisionFilterLike, bodyB.collisionFilter, inline, canCollide))
          continue;
        tested++;
        index = collidePair(bodyA, bodyB, collides, pairs, collisions, index);
      }
      visited += j - i - 1;
    }
    this.counts.candidates = candidates;
    this.counts.tested = tested;
    this.counts.visited = visited;
    return index;
  }

  /**
   * The same pairs in the same order, without looking at the pairs of two resting bodies: an awake
   * body against every body after it up to its `max.x`, a static or sleeping one against the awake
   * bodies after it only (`awakeAt`, ascending). Returns the collisions' count.
   */
  private sweepAwake(
    bodies: MatterBodyLike[],
    n: number,
    awake: number,
    collisions: unknown[],
    pairs: unknown,
    canCollide: CanCollideFn,
    inline: boolean,
    collides: CollidesFn,
  ): number {
    const minX = this.minX;
    const maxX = this.maxX;
    const minY = this.minY;
    const maxY = this.maxY;
    const resting = this.resting;
    const awakeAt = this.awakeAt;
    let visited = 0;
    let index = 0;
    // The first entry of awakeAt after position i.
    let next = 0;
    for (let i = 0; i < n; i++) {
      const boundXMax = maxX[i];
      const boundYMax = maxY[i];
      const boundYMin = minY[i];
      if (next < awake && awakeAt[next] === i) next++;
      if (resting[i] === 0) {
        let j = i + 1;
        for (; j < n; j++) {
          if (minX[j] > boundXMax) break;
          if (boundYMax < minY[j] || boundYMin > maxY[j]) continue;
          index = this.test(bodies, i, j, collisions, index, pairs, canCollide, inline, collides);
        }
        visited += j - i - 1;
        continue;
      }
      let q = next;
      for (; q < awake; q++) {
        const j = awakeAt[q];
        if (minX[j] > boundXMax) break;
        if (boundYMax < minY[j] || boundYMin > maxY[j]) continue;
        index = this.test(bodies, i, j, collisions, index, pairs, canCollide, inline, collides);
      }
      visited += q - next;
    }
    this.counts.visited = visited;
    return index;
  }

  /**
   * Stock's tests of the candidate pair at positions i < j (bounds overlapping, not both resting):
   * `Detector.canCollide` (inline while `inline` says it is matter-js's own), then
   * `Collision.collides` on the bodies or on each pair of their parts. Appends the collisions at
   * `index`; returns the index after them.
   */
  private test(
    bodies: MatterBodyLike[],
    i: number,
    j: number,
    collisions: unknown[],
    index: number,
    pairs: unknown,
    canCollide: CanCollideFn,
    inline: boolean,
    collides: CollidesFn,
  ): number {
    const counts = this.counts;
    counts.candidates++;
    const bodyA = bodies[i];
    const bodyB = bodies[j];
    if (!filtersMeet(bodyA.collisionFilter, bodyB.collisionFilter, inline, canCollide)) return index;
    counts.tested++;
    return collidePair(bodyA, bodyB, collides, pairs, collisions, index);
  }

  /**
   * Stock's stable sort of `bodies[0..n)` by `minX`, in place, the per-position arrays moved along
   * (and the tracker map when `tracked`). Returns true when it gave up and `Array.prototype.sort` with
   * stock's comparator finished (the per-position arrays are then to be read again).
   */
  private sort(bodies: MatterBodyLike[], n: number, tracked: boolean): boolean {
    const minX = this.minX;
    const maxX = this.maxX;
    const minY = this.minY;
    const maxY = this.maxY;
    const resting = this.resting;
    const rec = this.rec;
    const posOf = this.posOf;
    const budget = 4 * n + 32;
    let shifts = 0;
    for (let i = 1; i < n; i++) {
      const k = minX[i];
      if (!(minX[i - 1] > k)) continue;
      const body = bodies[i];
      const x1 = maxX[i];
      const y0 = minY[i];
      const y1 = maxY[i];
      const r = resting[i];
      const t = rec[i];
      let j = i - 1;
      do {
        bodies[j + 1] = bodies[j];
        minX[j + 1] = minX[j];
        maxX[j + 1] = maxX[j];
        minY[j + 1] = minY[j];
        maxY[j + 1] = maxY[j];
        resting[j + 1] = resting[j];
        if (tracked) {
          rec[j + 1] = rec[j];
          posOf[rec[j]] = j + 1;
        }
        j--;
      } while (j >= 0 && minX[j] > k);
      bodies[j + 1] = body;
      minX[j + 1] = k;
      maxX[j + 1] = x1;
      minY[j + 1] = y0;
      maxY[j + 1] = y1;
      resting[j + 1] = r;
      if (tracked) {
        rec[j + 1] = t;
        posOf[t] = j + 1;
      }
      shifts += i - 1 - j;
      if (shifts > budget) {
        // Far from sorted: stock's own stable sort finishes from this partial order.
        bodies.sort(compareBoundsX);
        return true;
      }
    }
    return false;
  }
}

/**
 * `Detector.canCollide(fa, fb)`: inline (the same expression on the same objects) while `inline` says
 * the engine's own is matter-js's, else the engine's function.
 */
function filtersMeet(
  fa: MatterCollisionFilterLike,
  fb: MatterCollisionFilterLike,
  inline: boolean,
  canCollide: CanCollideFn,
): boolean {
  if (!inline) return canCollide(fa, fb);
  if (fa.group === fb.group && fa.group !== 0) return (fa.group as number) > 0;
  return (
    ((fa.mask as number) & (fb.category as number)) !== 0 &&
    ((fb.mask as number) & (fa.category as number)) !== 0
  );
}
