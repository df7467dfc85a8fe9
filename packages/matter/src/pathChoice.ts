/**
 * Which of the detector's two paths — matter-js's sort and sweep (reproduced), or the incremental
 * broadphase — answers a step: a cost model over counts both paths know, and the count the
 * broadphase path needs from the sweep's side.
 *
 * Both paths skip the pairs of two resting bodies (static or sleeping, which stock never tests), so
 * both cost about the same per body: each reads every body's bounds and flags every step. They differ
 * in the rest. The sweep pays per pair it looks at — its visits: each awake body against the bodies
 * after it in the x-order up to its `max.x`, each resting body against the awake ones (a sort and
 * sweep's work, Baraff's thesis; Ericson, Real-Time Collision Detection §7.5.2). The broadphase pays
 * for its upkeep: per body (records, the x-order, the pair order) and per awake body (its pairs begin
 * and end in the pair set, are gathered and put back in stock's order). So the broadphase pays off
 * only where the sweep's visits are many: tall columns of tiles, long static bodies over many awake
 * ones, huge crowds — not in a wide, shallow tilemap, where a dynamic body's x-extent holds a few
 * dozen tiles.
 *
 * The weights were measured on the tilemap levels of `bench:matter` and the scenes of `bench:small`
 * (Engine.update and the detector alone, both paths taking turns on one engine, CPU time).
 */
import { growArray } from '@sieve/core';

/** Extra cost of the broadphase path per body, in sweep visits. */
export const PER_BODY = 11;
/**
 * The same while the sweep reads only the visited bodies (static bodies tracked): the broadphase path
 * still reads every body's bounds, about 30 visits' time each (estimated from the per-body read and
 * visit costs, and checked on the tilemap levels of `bench:matter`, where the choice is the faster path).
 */
export const PER_BODY_TRACKED = 40;
/** Extra cost of the broadphase path per awake body, in sweep visits. */
export const PER_AWAKE = 100;
/** The broadphase path counts the sweep's visits (over its own x-order) every this many steps. */
export const COUNT_VISITS_EVERY = 16;

/**
 * The broadphase's upkeep, in sweep visits, for `bodies` bodies of which `awake` are neither static
 * nor sleeping (`tracked`: the sweep reads only the visited bodies, see `SieveOptions.trackStatic`): the broadphase is
 * preferred when the sweep visits at least this many pairs a step, and kept while it visits at least
 * 3/4 of it.
 */
export function upkeep(bodies: number, awake: number, tracked = false): number {
  return (tracked ? PER_BODY_TRACKED : PER_BODY) * bodies + PER_AWAKE * awake;
}

/**
 * Counts the sweep's visits over an x-order (the same count as `SweepCounts.visited`, without the
 * sweep's y tests), stopping once past a cap. Keeps its scratch (the awake bodies' positions) across
 * calls: nothing is allocated once warm.
 */
export class VisitCounter {
  private awakeAt = new Int32Array(0);

  /**
   * The visits over `order[0..n)` (records in stock's order), counted up to `cap` (so it costs at most
   * about `cap` array reads): `minX[r]` and `boxes[4r + 2]` are record r's `min.x` and `max.x`,
   * `resting[r]` is 1 for a static or sleeping body.
   */
  count(
    order: Int32Array,
    n: number,
    minX: Float64Array,
    boxes: Float64Array,
    resting: Uint8Array,
    cap: number,
  ): number {
    if (this.awakeAt.length < n) this.awakeAt = growArray(this.awakeAt, n);
    const awakeAt = this.awakeAt;
    let awake = 0;
    for (let p = 0; p < n; p++) if (resting[order[p]] === 0) awakeAt[awake++] = p;
    let visits = 0;
    // The first entry of awakeAt after position p.
    let next = 0;
    for (let p = 0; p < n && visits < cap; p++) {
      const r = order[p];
      const maxX = boxes[4 * r + 2];
      if (next < awake && awakeAt[next] === p) next++;
      if (resting[r] === 0) {
        let q = p + 1;
        while (q < n && minX[order[q]] <= maxX) q++;
        visits += q - p - 1;
      } else {
        let q = next;
        while (q < awake && minX[order[awakeAt[q]]] <= maxX) q++;
        visits += q - next;
      }
    }
    return visits;
  }
}
