/**
 * The bullets of one world: a dense list of bodies with their response settings in typed arrays, and
 * a body id → list index table (swap-remove, as every table of the adapters).
 */
import { growArray } from '@sieve/core';
import type { Body } from 'cannon-es';
import type { ResolvedSettings } from './settings.js';

/** The bullets of one world. */
export class BulletList {
  /** The bullet bodies. */
  readonly bodies: Body[] = [];
  /** Per bullet: 1 "stop", 0 "bounce". */
  stopOf = new Uint8Array(16);
  /** Per bullet: restitution of a bounce, NaN for cannon's material rule. */
  restitutionOf = new Float64Array(16);
  /** body.id → index in `bodies`, or −1. */
  private slotOfId = new Int32Array(64).fill(-1);

  /** Adds `body` or updates its settings. */
  set(body: Body, s: ResolvedSettings): void {
    const id = body.id;
    const known = this.slotOfId.length;
    this.slotOfId = growArray(this.slotOfId, id + 1);
    this.slotOfId.fill(-1, known); // -1: no slot (nothing is filled when it did not grow)
    let k = this.slotOfId[id];
    if (k < 0 || this.bodies[k] !== body) {
      k = this.bodies.length;
      this.bodies.push(body);
      this.stopOf = growArray(this.stopOf, k + 1);
      this.restitutionOf = growArray(this.restitutionOf, k + 1);
      this.slotOfId[id] = k;
    }
    this.stopOf[k] = s.stop ? 1 : 0;
    this.restitutionOf[k] = s.restitution;
  }

  /** Removes `body` (no-op if absent). */
  remove(body: Body): void {
    const id = body.id;
    if (id >= this.slotOfId.length) return;
    const k = this.slotOfId[id];
    if (k < 0 || this.bodies[k] !== body) return;
    const last = this.bodies.length - 1;
    const moved = this.bodies[last];
    this.bodies[k] = moved;
    this.stopOf[k] = this.stopOf[last];
    this.restitutionOf[k] = this.restitutionOf[last];
    this.slotOfId[moved.id] = k;
    this.bodies.length = last;
    this.slotOfId[id] = -1;
  }

  /** Whether `body` is in the list. */
  has(body: Body): boolean {
    const id = body.id;
    if (id >= this.slotOfId.length) return false;
    const k = this.slotOfId[id];
    return k >= 0 && this.bodies[k] === body;
  }

  /** Empties the list. */
  clear(): void {
    for (const body of this.bodies) this.slotOfId[body.id] = -1;
    this.bodies.length = 0;
  }
}
