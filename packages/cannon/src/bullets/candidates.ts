/**
 * The candidates of one bullet: the union of its shapes' swept bounds, the broadphase query by that
 * box (grown by the slow movers' margin), and the culls that run on the tree's own copy of the boxes
 * before any body is read — the bullet's centre path against each box grown by the bullet's reach and
 * that body's displacement (slab clipping) — plus the planes and huge bodies kept out of the tree and
 * this step's fast movers. Without a Sieve broadphase, every body of the world by its bounding sphere.
 */
import { sweptBounds } from '@sieve/core';
import { type AABB, Body, type World } from 'cannon-es';
import { type BodyParts, type CcdPart, PART_BOX, PART_MESH, PART_SPHERE } from '../ccdShapes.js';
import type { BroadphaseView } from './broadphaseView.js';
import { displacement, type Movers, reachOf } from './movers.js';
import { MA, P0, P1, SWEPT } from './scratch.js';

/** The tree query: SWEPT grown by the slow movers' margin. */
const QUERY = new Float64Array(6);
/** One part's swept bounds. */
const PART_BOX_SCRATCH = new Float64Array(6);
/** Records returned by the tree query (reused). */
const RECORDS: number[] = [];

/** SWEPT = union of the swept bounds of the bullet's parts; false if there is none. */
export function sweptBox(parts: BodyParts, dt: number): boolean {
  let any = false;
  for (const p of parts.parts) {
    if (p.kind !== PART_SPHERE && p.kind !== PART_BOX && p.kind !== PART_MESH) continue;
    sweptBounds(p.ccd as NonNullable<CcdPart['ccd']>, MA, dt, any ? PART_BOX_SCRATCH : SWEPT);
    if (any) {
      for (let k = 0; k < 3; k++) {
        if (PART_BOX_SCRATCH[k] < SWEPT[k]) SWEPT[k] = PART_BOX_SCRATCH[k];
        if (PART_BOX_SCRATCH[3 + k] > SWEPT[3 + k]) SWEPT[3 + k] = PART_BOX_SCRATCH[3 + k];
      }
    }
    any = true;
  }
  return any;
}

/**
 * The bodies that may meet the bullet `self` into `out`; returns their count. With the tree: its
 * query by the swept box grown by the slow movers' margin, then — on the tree's own copy of the
 * boxes, before touching any body — the bullet's centre path against each box grown by the bullet's
 * reach plus that margin (a slab test), which leaves the few boxes along the path of a bullet that
 * crosses its query box diagonally.
 */
export function gatherCandidates(
  out: Body[],
  world: World,
  view: BroadphaseView | null,
  movers: Movers,
  self: Body,
  stamp: number,
  reach: number,
): number {
  out.length = 0;
  if (view !== null) {
    const m = movers.slowMargin;
    for (let k = 0; k < 3; k++) {
      QUERY[k] = SWEPT[k] - m;
      QUERY[3 + k] = SWEPT[3 + k] + m;
    }
    const h = RECORDS;
    h.length = 0;
    view.queryRecords(QUERY, h);
    const recBody = view.recBody;
    const recBounds = view.recBounds;
    for (let k = 0; k < h.length; k++) {
      const r = h[k];
      // the box grown by the bullet's reach and by how far this body moved
      if (!pathMeetsBox(recBounds, 6 * r, reach + movers.moveOf(r, stamp))) continue;
      const b = recBody[r];
      if (!b || b === self) continue;
      if (movers.isFast(b, stamp)) continue; // tested below
      out.push(b);
    }
    h.length = 0;
    const specials = view.specials;
    for (let k = 0; k < specials.length; k++) {
      const r = specials[k];
      const b = recBody[r];
      if (b && b !== self && pathMeetsBox(recBounds, 6 * r, reach + m)) out.push(b);
    }
    const boxes = movers.fastBoxes;
    for (let k = 0; k < movers.fastCount; k++) {
      if (!pathMeetsBox(boxes, 6 * k, reach)) continue;
      const b = movers.heapBody[k] as Body;
      if (b !== self) out.push(b);
    }
    return out.length;
  }
  // No Sieve tree: every body, by its bounding sphere at its end pose grown by how far it moved (its
  // AABB may be stale under cannon's own broadphases, and updating it here would clear the
  // `aabbNeedsUpdate` flag other code relies on).
  const bodies = world.bodies;
  for (let k = 0; k < bodies.length; k++) {
    const b = bodies[k];
    if (b === self) continue;
    const d = b.type === Body.STATIC || b.sleepState === Body.SLEEPING ? 0 : displacement(b);
    const r = reachOf(b) + d;
    const p = b.position;
    const dx = Math.max(SWEPT[0] - p.x, 0, p.x - SWEPT[3]);
    const dy = Math.max(SWEPT[1] - p.y, 0, p.y - SWEPT[4]);
    const dz = Math.max(SWEPT[2] - p.z, 0, p.z - SWEPT[5]);
    if (!(dx * dx + dy * dy + dz * dz > r * r)) out.push(b);
  }
  return out.length;
}

/**
 * Whether the bullet's centre path P0 → P1 meets the box `b[o..o+5]` grown by `grow` (slab clipping;
 * the grown box contains every point within `grow` of the box). Infinite boxes (planes) pass; NaN
 * boxes fail.
 */
export function pathMeetsBox(b: Float64Array, o: number, grow: number): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const lo = b[o + k] - grow;
    const hi = b[o + 3 + k] + grow;
    const p = P0[k];
    const d = P1[k] - p;
    if (d === 0) {
      if (!(p >= lo && p <= hi)) return false;
      continue;
    }
    let ta = (lo - p) / d;
    let tb = (hi - p) / d;
    if (ta > tb) {
      const x = ta;
      ta = tb;
      tb = x;
    }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (!(t0 <= t1)) return false;
  }
  return true;
}

/** Whether a cannon AABB grown by `m` overlaps SWEPT (inclusive; false for NaN boxes). */
export function overlapsSwept(b: AABB, m: number): boolean {
  const l = b.lowerBound;
  const u = b.upperBound;
  return (
    l.x - m <= SWEPT[3] &&
    u.x + m >= SWEPT[0] &&
    l.y - m <= SWEPT[4] &&
    u.y + m >= SWEPT[1] &&
    l.z - m <= SWEPT[5] &&
    u.z + m >= SWEPT[2]
  );
}
