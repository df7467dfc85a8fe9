/**
 * What the bullet sweep reads from a {@link SieveBroadphase}: its body records (core's `BodyTable`,
 * the engine seam, through the broadphase's public `records`, `hugeRecords` and `recBounds`) — a box
 * query answered as records, a record's body and that body's box as synced at the start of the step,
 * and a body's record. Nothing here decodes handles or reads private fields.
 */
import type { Body, Broadphase } from 'cannon-es';
import { SieveBroadphase } from '../broadphase.js';

/** The broadphase's records as the sweep uses them. */
export interface BroadphaseView {
  /**
   * Appends the records (not handles) whose stored box overlaps `bounds` to `out`; returns the
   * count.
   */
  queryRecords(bounds: ArrayLike<number>, out: number[]): number;
  /** The record of `body`, or −1 when the tree does not track it. */
  recordOf(body: Body): number;
  /** Record → body (null: free). */
  readonly recBody: readonly (Body | null)[];
  /** Each record's box as synced at the start of the step (6 numbers a record). */
  readonly recBounds: Float64Array;
  /** Records of bodies kept out of the tree (planes, huge bodies): every query tests them. */
  readonly specials: readonly number[];
}

/** A reusable view per broadphase (no allocation per step). */
const views = new WeakMap<Broadphase, BroadphaseView>();

/**
 * The view of `bp`, or null when it is not a SieveBroadphase whose tree holds boxes that contain the
 * bodies' current AABBs (`recBounds` is null: the sweep, sphere mode, or a small world on Naive's loop).
 */
export function broadphaseView(bp: Broadphase): BroadphaseView | null {
  if (!(bp instanceof SieveBroadphase) || bp.recBounds === null) return null;
  const table = bp.records;
  if (table === null) return null;
  let v = views.get(bp);
  if (v === undefined) {
    const sieve = bp;
    v = {
      queryRecords: (bounds, out) => table.queryRecords(bounds, out),
      recordOf: (body) => table.find(body, body.id),
      get recBody() {
        return table.bodies;
      },
      get recBounds() {
        return table.boxes;
      },
      get specials() {
        return sieve.hugeRecords;
      },
    };
    views.set(bp, v);
  }
  return v;
}
