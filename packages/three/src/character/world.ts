/**
 * What one character move works on: the capsule being moved (grown by the skin), the settings of the
 * move, the level's meshes and the two queries every other character module asks of them — the swept
 * capsule's first contact over all meshes, and the contacts of the resting capsule with all meshes.
 *
 * The sweep is this package's swept capsule (`capsuleCast`: Mirtich's conservative advancement per
 * triangle, exact for a translating capsule), so nothing a move does can carry the capsule through a
 * triangle, whatever the length of the step. State lives in typed arrays at module level: a move is
 * one synchronous call, and doubles never cross a call boundary (V8 boxes a double passed to a call it
 * does not inline — an allocation).
 */
import { MeshContacts } from '@sieve/core';
import { type Mesh, Vector3 } from 'three';
import type { BoundsTree } from '../boundsTree.js';
import { capsuleContactsBvh } from '../queries/capsule.js';
import { capsuleCastBvh, SWEEP } from '../queries/capsuleCast.js';

/** Slots of {@link CFG}, the settings of the move in progress. */
export const UP = 0; // 0–2: unit up vector
export const RADIUS = 3; // the capsule's radius plus the skin: the radius every sweep uses
export const SKIN = 4; // the gap kept between the capsule and the level
export const PROBE = 5; // how far below the grown capsule the ground still counts (2 × skin)
export const COS_SLOPE = 6; // cosine of the steepest slope the character can climb and stand on
export const STEP_HEIGHT = 7; // autostep height (0: off)
export const STEP_WIDTH = 8; // room needed on top of a step
export const SNAP = 9; // snap-to-ground distance (0: off)
export const ITERATIONS = 10; // sweeps per slide pass
export const TINY = 11; // lengths below this are no motion (1e-9 of the capsule's size)
export const HUGE_TOLERANCE = 12; // sweep tolerance used for displacements over 1000 radii
/** Settings of the move in progress, copied from the controller when a move starts. */
export const CFG = new Float64Array(13);

/** The capsule being moved, in world space, with radius {@link RADIUS} (the sweeps' `CapsuleLike`). */
export const probe = { start: new Vector3(), end: new Vector3(), radius: 1 };
/** The displacement handed to {@link sweepAll}. */
export const motion = new Vector3();

/** Slots of {@link HIT}, the first contact found by {@link sweepAll}. */
export const HIT_T = 0; // fraction of the motion travelled
export const HIT_N = 1; // 1–3: unit contact normal, from the level towards the capsule
export const HIT_P = 4; // 4–6: contact point on the level
export const HIT_MESH = 7; // index of the mesh in the collider list
export const HIT_FACE = 8; // triangle index in that mesh's geometry
/** The first contact found by the last {@link sweepAll}. */
export const HIT = new Float64Array(9);

/** The level's meshes for the move in progress, their bounds trees, and the one mesh sweeps skip. */
export const level = {
  meshes: [] as Mesh[],
  trees: [] as (BoundsTree | null)[],
  count: 0,
  /** Index of a mesh {@link sweepAll} ignores (a platform carrying the character), or −1. */
  skip: -1,
};

const NO_MESHES: Mesh[] = [];

/** Lets go of the level after a move (a module must not keep a game's meshes alive). */
export function releaseLevel(): void {
  for (let i = 0; i < level.count; i++) level.trees[i] = null;
  level.meshes = NO_MESHES;
  level.count = 0;
  level.skip = -1;
}

/**
 * Sweeps {@link probe} by {@link motion} against every mesh but `level.skip`; on a contact, fills
 * {@link HIT} with the earliest (ties: the first mesh in the list) and returns true.
 */
export function sweepAll(): boolean {
  const len2 = motion.x * motion.x + motion.y * motion.y + motion.z * motion.z;
  // The sweep's own tolerance grows with the displacement (1e-7 of it): past 1000 radii, a fixed one
  // keeps the skin meaningful. (Passing a tolerance boxes it, hence only for such moves.)
  const huge = len2 > 1e6 * CFG[RADIUS] * CFG[RADIUS];
  let found = false;
  HIT[HIT_T] = 2;
  for (let i = 0; i < level.count; i++) {
    if (i === level.skip) continue;
    const mesh = level.meshes[i];
    const bvh = (level.trees[i] as BoundsTree).bvh;
    const hit = huge
      ? capsuleCastBvh(bvh, mesh.matrixWorld.elements, probe, motion, CFG[HUGE_TOLERANCE])
      : capsuleCastBvh(bvh, mesh.matrixWorld.elements, probe, motion);
    if (!hit || !(SWEEP[0] < HIT[HIT_T])) continue;
    found = true;
    for (let k = 0; k < 7; k++) HIT[k] = SWEEP[k];
    HIT[HIT_MESH] = i;
    HIT[HIT_FACE] = (level.trees[i] as BoundsTree).firstTriangle + SWEEP[7];
  }
  if (!found) HIT[HIT_T] = 1;
  return found;
}

/** Contacts of {@link gatherContacts}, one list per mesh in turn. */
export const contacts = new MeshContacts();

/**
 * Contacts of {@link probe}, its radius grown by `CFG[PROBE]` (the contacts within that distance of
 * the grown capsule), with mesh `i` into {@link contacts}. Returns the count.
 */
export function gatherContacts(i: number): number {
  const r = probe.radius;
  probe.radius = r + CFG[PROBE];
  const n = capsuleContactsBvh(
    (level.trees[i] as BoundsTree).bvh,
    level.meshes[i].matrixWorld.elements,
    probe,
    contacts,
  );
  probe.radius = r;
  return n;
}

/** Probe positions saved and restored by {@link saveProbe} / {@link restoreProbe}: 6 numbers a slot. */
const SAVED = new Float64Array(18);

/** Saves the probe's end points in slot `slot` (0–2). */
export function saveProbe(slot: number): void {
  const o = 6 * slot;
  SAVED[o] = probe.start.x;
  SAVED[o + 1] = probe.start.y;
  SAVED[o + 2] = probe.start.z;
  SAVED[o + 3] = probe.end.x;
  SAVED[o + 4] = probe.end.y;
  SAVED[o + 5] = probe.end.z;
}

/** Puts the probe back where {@link saveProbe} saved it in slot `slot`. */
export function restoreProbe(slot: number): void {
  const o = 6 * slot;
  probe.start.x = SAVED[o];
  probe.start.y = SAVED[o + 1];
  probe.start.z = SAVED[o + 2];
  probe.end.x = SAVED[o + 3];
  probe.end.y = SAVED[o + 4];
  probe.end.z = SAVED[o + 5];
}

/** Moves the probe by `HIT[HIT_T]` times {@link motion} (where the last sweep stopped). */
export function advanceToHit(): void {
  const t = HIT[HIT_T];
  const dx = t * motion.x;
  const dy = t * motion.y;
  const dz = t * motion.z;
  probe.start.x += dx;
  probe.start.y += dy;
  probe.start.z += dz;
  probe.end.x += dx;
  probe.end.y += dy;
  probe.end.z += dz;
}

/** The slide pass in progress: the displacement still to go (0–2) and the pass's whole one (3–5). */
export const PASS = new Float64Array(6);

/** Whether the contact in {@link HIT} is ground the character can stand on. */
export function hitIsGround(): boolean {
  const c = HIT[HIT_N] * CFG[UP] + HIT[HIT_N + 1] * CFG[UP + 1] + HIT[HIT_N + 2] * CFG[UP + 2];
  return c >= CFG[COS_SLOPE];
}
