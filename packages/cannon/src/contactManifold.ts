/**
 * The contact manifold of one shape pair and its hand-over to cannon-es.
 *
 * {@link Manifold} collects candidate contacts (all in world space: normal from body i to body j, the
 * point on each body, depth) in flat typed arrays that grow and are then reused, so a step allocates
 * nothing. `reduce` keeps at most `maxContacts` of them: the deepest, then repeatedly the candidate
 * farthest from those kept (farthest-point sampling, Gonzalez's greedy k-centre), so resting meshes keep
 * a stable, wide spread of supports. {@link emit} turns what is left into cannon `ContactEquation`s
 * through the `Narrowphase`'s own `createContactEquation`, with friction through
 * `createFrictionEquationsFromContact` (or one averaged pair with `enableFrictionReduction`), following
 * cannon-es's convention (`ri`/`rj` relative to each body's position; penetration is
 * `(xj + rj − xi − ri)·n < 0`), so the solver treats them as its own.
 */
import { growArray } from '@sieve/core';
import type { Body, Narrowphase, Shape } from 'cannon-es';

/**
 * Candidate contacts of one shape pair: normal from body i to body j, points on i and on j (world), depth.
 */
export class Manifold {
  /** How many contacts are held (the first `count` of each array). */
  count = 0;
  /** Unit normals, xyz per contact, from body i to body j. */
  n = new Float64Array(96);
  /** Contact points on body i (world), xyz per contact. */
  pi = new Float64Array(96);
  /** Contact points on body j (world), xyz per contact. */
  pj = new Float64Array(96);
  /** Penetration depths, one per contact. */
  depth = new Float64Array(32);
  private minDist = new Float64Array(32);

  /** Empties the manifold (keeping its arrays). */
  reset(): void {
    this.count = 0;
  }

  /** Appends one contact: normal `n`, point `pi` on body i, point `pj` on body j, and its depth. */
  add(
    nx: number,
    ny: number,
    nz: number,
    pix: number,
    piy: number,
    piz: number,
    pjx: number,
    pjy: number,
    pjz: number,
    depth: number,
  ): void {
    if (this.count === this.depth.length) this.grow();
    const k = this.count++;
    this.depth[k] = depth;
    this.n[3 * k] = nx;
    this.n[3 * k + 1] = ny;
    this.n[3 * k + 2] = nz;
    this.pi[3 * k] = pix;
    this.pi[3 * k + 1] = piy;
    this.pi[3 * k + 2] = piz;
    this.pj[3 * k] = pjx;
    this.pj[3 * k + 1] = pjy;
    this.pj[3 * k + 2] = pjz;
  }

  /**
   * Keeps at most `max` contacts, moved to the front: the deepest, then repeatedly the one farthest from
   * those kept (farthest-point sampling on the points on body j), which keeps the support polygon wide.
   */
  reduce(max: number): void {
    const n = this.count;
    if (n <= max) return;
    if (this.minDist.length < n) this.minDist = new Float64Array(this.depth.length);
    const minDist = this.minDist;
    minDist.fill(Number.POSITIVE_INFINITY, 0, n);
    let next = 0;
    for (let k = 1; k < n; k++) if (this.depth[k] > this.depth[next]) next = k;
    for (let m = 0; m < max; m++) {
      // Swap the pick into place m; the candidates left are those after it.
      this.swap(m, next);
      const px = this.pj[3 * m];
      const py = this.pj[3 * m + 1];
      const pz = this.pj[3 * m + 2];
      let best = -1;
      let bestScore = -1;
      for (let k = m + 1; k < n; k++) {
        const dx = this.pj[3 * k] - px;
        const dy = this.pj[3 * k + 1] - py;
        const dz = this.pj[3 * k + 2] - pz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < minDist[k]) minDist[k] = d2;
        const score = minDist[k];
        if (score > bestScore || (score === bestScore && this.depth[k] > this.depth[best])) {
          bestScore = score;
          best = k;
        }
      }
      if (best < 0) break;
      next = best;
    }
    this.count = max;
  }

  private swap(a: number, b: number): void {
    if (a === b) return;
    swap1(this.depth, a, b);
    swap1(this.minDist, a, b);
    for (let c = 0; c < 3; c++) {
      swap1(this.n, 3 * a + c, 3 * b + c);
      swap1(this.pi, 3 * a + c, 3 * b + c);
      swap1(this.pj, 3 * a + c, 3 * b + c);
    }
  }

  private grow(): void {
    const m = this.depth.length * 2;
    this.depth = growArray(this.depth, m);
    this.n = growArray(this.n, 3 * m);
    this.pi = growArray(this.pi, 3 * m);
    this.pj = growArray(this.pj, 3 * m);
  }
}

function swap1(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/**
 * Turns the manifold into cannon contact equations (and friction) on `np`, for bodies `bi`, `bj` and
 * shapes `si`, `sj`.
 */
export function emit(np: Narrowphase, m: Manifold, bi: Body, bj: Body, si: Shape, sj: Shape): void {
  const xi = bi.position;
  const xj = bj.position;
  for (let k = 0; k < m.count; k++) {
    const c = np.createContactEquation(bi, bj, si, sj, si, sj);
    c.ni.set(m.n[3 * k], m.n[3 * k + 1], m.n[3 * k + 2]);
    c.ri.set(m.pi[3 * k] - xi.x, m.pi[3 * k + 1] - xi.y, m.pi[3 * k + 2] - xi.z);
    c.rj.set(m.pj[3 * k] - xj.x, m.pj[3 * k + 1] - xj.y, m.pj[3 * k + 2] - xj.z);
    np.result.push(c);
    if (!np.enableFrictionReduction) np.createFrictionEquationsFromContact(c, np.frictionResult);
  }
  if (np.enableFrictionReduction && m.count > 0) np.createFrictionFromAverage(m.count);
}
