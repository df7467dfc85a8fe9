/**
 * What the bullet sweep reads from a {@link SieveBroadphase}: its tree (for box queries) and the
 * record tables that map a tree handle to a body and to that body's box as synced at the start of the
 * step. This is the one place that reaches into the broadphase; `SieveBroadphase` has no public
 * accessor for these tables yet, so they are read here by name and checked before use (a broadphase
 * without them gives `null`, and the sweep then scans `world.bodies`).
 */
import { SLOT_MASK } from '@sieve/core';
import type { Body, Broadphase } from 'cannon-es';
import { SieveBroadphase } from '../broadphase.js';

/** The broadphase's records as the sweep uses them. */
export interface BroadphaseView {
  /**
   * Appends the records (not handles) whose stored box overlaps `bounds` to `out`; returns the
   * count.
   */
  queryRecords(bounds: ArrayLike<number>, out: number[]): number;
  /** body.id → record (or −1). */
  readonly recOfId: Int32Array;
  /** Record → body (null: free). */
  readonly recBody: (Body | null)[];
  /** Each record's box as synced at the start of the step (6 numbers a record). */
  readonly recBounds: Float64Array;
  /** Records of bodies kept out of the tree (planes, huge bodies): every query tests them. */
  readonly specials: number[];
}

/** The private tables of SieveBroadphase this module reads (same package). */
interface Internals {
  readonly sieve: { queryBounds(bounds: ArrayLike<number>, out: number[]): number };
  readonly recOfSlot: Int32Array;
  readonly recOfId: Int32Array;
  readonly recBody: (Body | null)[];
  readonly recBounds: Float64Array;
  readonly specials: number[];
}

/** A reusable view per broadphase (no allocation per step). */
const views = new WeakMap<Broadphase, BroadphaseView>();

/** The view of `bp`, or null when it is not a SieveBroadphase with the expected tables. */
export function broadphaseView(bp: Broadphase): BroadphaseView | null {
  if (!(bp instanceof SieveBroadphase)) return null;
  const a = bp as unknown as Internals;
  if (
    !(a.recOfSlot instanceof Int32Array) ||
    !(a.recOfId instanceof Int32Array) ||
    !(a.recBounds instanceof Float64Array) ||
    !Array.isArray(a.recBody) ||
    !Array.isArray(a.specials)
  ) {
    return null;
  }
  let v = views.get(bp);
  if (v === undefined) {
    v = {
      queryRecords: (bounds, out) => {
        const start = out.length;
        a.sieve.queryBounds(bounds, out);
        const recOfSlot = a.recOfSlot;
        for (let k = start; k < out.length; k++) out[k] = recOfSlot[out[k] & SLOT_MASK];
        return out.length - start;
      },
      get recOfId() {
        return a.recOfId;
      },
      get recBody() {
        return a.recBody;
      },
      get recBounds() {
        return a.recBounds;
      },
      get specials() {
        return a.specials;
      },
    };
    views.set(bp, v);
  }
  return v;
}
