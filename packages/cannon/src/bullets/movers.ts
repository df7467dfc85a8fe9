/**
 * The moving bodies a bullet may meet that the broadphase tree does not show where they are: the tree
 * holds every body's box from the start of the step, so a query must be grown by how far the others
 * moved. The {@link MOVERS} bodies that moved farthest are kept in a min-heap with their boxes grown by
 * their own displacement (each tested against every bullet), and the query is grown only by the largest
 * displacement of all the others — so one fast body does not make every query large.
 */
import { growArray } from '@sieve/core';
import { Body, type World } from 'cannon-es';
import type { BroadphaseView } from './broadphaseView.js';
import type { BulletList } from './list.js';

/** How many of the fastest moving bodies are tested one by one rather than by growing every query. */
export const MOVERS = 64;
/** Displacements at or past this are ignored (planes, NaN or runaway bodies). */
const HUGE = 1e12;

/** The fast movers of the current step and the margin of the slow ones. */
export class Movers {
  /** Displacements (min-heap) and bodies of the fast movers. */
  readonly heapD = new Float64Array(MOVERS);
  readonly heapBody: (Body | null)[] = new Array(MOVERS).fill(null);
  /** Their boxes grown by their displacement, 6 numbers each. */
  readonly fastBoxes = new Float64Array(6 * MOVERS);
  fastCount = 0;
  /** The largest displacement of the other moving bodies. */
  slowMargin = 0;
  /** body.id → stamp of the step in which it is in the fast list. */
  fastStamp = new Int32Array(64);
  /** Tree record → stamp of the step in which `moveOfRec` holds its displacement (else it is still). */
  moveStamp = new Int32Array(64);
  moveOfRec = new Float64Array(64);

  /** Whether `b` is one of this step's fast movers. */
  isFast(b: Body, stamp: number): boolean {
    return b.id < this.fastStamp.length && this.fastStamp[b.id] === stamp;
  }

  /** How far record `r` moved this step (0 if it did not). */
  moveOf(r: number, stamp: number): number {
    return r < this.moveStamp.length && this.moveStamp[r] === stamp ? this.moveOfRec[r] : 0;
  }

  /** Forgets the bodies (on uninstall). */
  clear(): void {
    this.heapBody.fill(null);
    this.fastCount = 0;
  }

  /** Finds this step's fast movers (other than bullets) and the slow margin (see the module comment). */
  find(world: World, view: BroadphaseView, stamp: number, bullets: BulletList): void {
    const bodies = world.bodies;
    const heapD = this.heapD;
    const heapB = this.heapBody;
    const recBody = view.recBody;
    this.moveStamp = growArray(this.moveStamp, recBody.length);
    this.moveOfRec = growArray(this.moveOfRec, recBody.length);
    let count = 0;
    let slow = 0;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      if (b.type === Body.STATIC || b.sleepState === Body.SLEEPING) continue;
      if (b.type === Body.DYNAMIC && bullets.has(b)) continue; // never a candidate
      const d = displacement(b);
      if (!(d > 0 && d < HUGE)) continue;
      // remembered by tree record, for the per-box test of `gatherCandidates`
      const r = view.recordOf(b);
      if (r >= 0) {
        this.moveStamp[r] = stamp;
        this.moveOfRec[r] = d;
      }
      if (count < MOVERS) {
        // push and sift up (min-heap on d)
        let k = count++;
        while (k > 0) {
          const parent = (k - 1) >> 1;
          if (heapD[parent] <= d) break;
          heapD[k] = heapD[parent];
          heapB[k] = heapB[parent];
          k = parent;
        }
        heapD[k] = d;
        heapB[k] = b;
      } else if (d > heapD[0]) {
        if (heapD[0] > slow) slow = heapD[0];
        // replace the root and sift down
        let k = 0;
        for (;;) {
          const l = 2 * k + 1;
          if (l >= count) break;
          const c = l + 1 < count && heapD[l + 1] < heapD[l] ? l + 1 : l;
          if (heapD[c] >= d) break;
          heapD[k] = heapD[c];
          heapB[k] = heapB[c];
          k = c;
        }
        heapD[k] = d;
        heapB[k] = b;
      } else if (d > slow) {
        slow = d;
      }
    }
    this.slowMargin = slow;
    this.fastCount = count;
    const boxes = this.fastBoxes;
    for (let k = 0; k < count; k++) {
      const b = heapB[k] as Body;
      const id = b.id;
      this.fastStamp = growArray(this.fastStamp, id + 1);
      this.fastStamp[id] = stamp;
      const l = b.aabb.lowerBound;
      const u = b.aabb.upperBound;
      const d = heapD[k];
      const o = 6 * k;
      boxes[o] = l.x - d;
      boxes[o + 1] = l.y - d;
      boxes[o + 2] = l.z - d;
      boxes[o + 3] = u.x + d;
      boxes[o + 4] = u.y + d;
      boxes[o + 5] = u.z + d;
    }
  }
}

/**
 * Largest distance of a point of the body from its centre: max over shapes of |offset| +
 * `boundingSphereRadius` (cannon's `updateBoundingRadius`, recomputed here so a resized shape is seen).
 */
export function reachOf(b: Body): number {
  const shapes = b.shapes;
  const offsets = b.shapeOffsets;
  let r = 0;
  for (let i = 0; i < shapes.length; i++) {
    const o = offsets[i];
    const x = o ? Math.sqrt(o.x * o.x + o.y * o.y + o.z * o.z) + shapes[i].boundingSphereRadius : 0;
    if (x > r || Number.isNaN(x)) r = x;
  }
  return r;
}

/**
 * How far any point of a body moved this step: |Δp| + 2·L·sin(θ/2) from its poses before and after
 * (θ the rotation between them, L its bounding radius).
 */
export function displacement(b: Body): number {
  const p = b.position;
  const pp = b.previousPosition;
  const q = b.quaternion;
  const qp = b.previousQuaternion;
  const dx = p.x - pp.x;
  const dy = p.y - pp.y;
  const dz = p.z - pp.z;
  const lin = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const dot = q.x * qp.x + q.y * qp.y + q.z * qp.z + q.w * qp.w;
  if (q.x === qp.x && q.y === qp.y && q.z === qp.z && q.w === qp.w) return lin; // no ∞ · 0 for planes
  const qq =
    (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) * (qp.x * qp.x + qp.y * qp.y + qp.z * qp.z + qp.w * qp.w);
  const c2 = qq > 0 ? (dot * dot) / qq : 1; // cos²(θ/2)
  return lin + 2 * b.boundingRadius * Math.sqrt(Math.max(0, 1 - c2));
}
