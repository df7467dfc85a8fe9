/**
 * Collide and slide: the capsule moves by a displacement until the sweep meets the level, then goes on
 * with what is left of the displacement projected onto the plane it met — Fauerby's "Improved Collision
 * detection and Response" (2003) on an exact swept capsule, with Quake's `PM_SlideMove` for several
 * planes at once (the displacement must satisfy every plane met in the pass; two planes leave their
 * crease; more stop the pass) so a capsule in a corner neither jitters nor escapes.
 *
 * What a plane means depends on the pass (the split of Fauerby's velocity and gravity passes, with
 * Rapier's slope rules):
 * - walking: ground no steeper than the climb angle is climbed at the same level speed; anything
 *   steeper is a wall, slid along level (or stepped onto, see `step.ts`); something facing down is a
 *   ceiling, slid along;
 * - falling: ground stops the fall; a steeper slope is slid down;
 * - being carried by a platform: every plane is slid along.
 */
import { type CharacterMove, CollisionKind, recordCollision } from './result.js';
import { tryStep } from './step.js';
import {
  advanceToHit,
  CFG,
  COS_SLOPE,
  HIT,
  HIT_N,
  HIT_T,
  ITERATIONS,
  motion,
  PASS,
  STEP_HEIGHT,
  sweepAll,
  TINY,
  UP,
} from './world.js';

/** Passes of {@link slide}. */
export const WALK = 0;
/** Falling: the downward part of a move. */
export const FALL = 1;
/** Riding: carried by a moving platform. */
export const RIDE = 2;

/** Planes met in one pass, at most. */
const MAX_PLANES = 6;
/** Unit normals of the planes met in the pass, 3 numbers each. */
const PLANES = new Float64Array(3 * MAX_PLANES);
/** Whether each plane is ground climbed at level speed (walking on it) rather than slid along. */
const CLIMB = new Uint8Array(MAX_PLANES);
/** A candidate displacement (0–2) and the slide plane of the last contact (3–5). */
const C = new Float64Array(6);
let planeCount = 0;

/**
 * Moves the probe by the displacement in `PASS[3..5]` (collide and slide), recording the collisions
 * in `result`. `allowStep`: walking may climb steps. Returns whether a fall landed on ground.
 */
export function slide(result: CharacterMove, pass: number, allowStep: boolean): boolean {
  PASS[0] = PASS[3];
  PASS[1] = PASS[4];
  PASS[2] = PASS[5];
  planeCount = 0;
  const ux = CFG[UP];
  const uy = CFG[UP + 1];
  const uz = CFG[UP + 2];
  const tiny2 = CFG[TINY] * CFG[TINY];
  const step = allowStep && pass === WALK && CFG[STEP_HEIGHT] > 0;
  for (let it = 0; it < CFG[ITERATIONS]; it++) {
    if (PASS[0] * PASS[0] + PASS[1] * PASS[1] + PASS[2] * PASS[2] <= tiny2) break;
    motion.x = PASS[0];
    motion.y = PASS[1];
    motion.z = PASS[2];
    const hit = sweepAll();
    advanceToHit();
    if (!hit) return false;
    const rest = 1 - HIT[HIT_T];
    PASS[0] *= rest;
    PASS[1] *= rest;
    PASS[2] *= rest;
    const nx = HIT[HIT_N];
    const ny = HIT[HIT_N + 1];
    const nz = HIT[HIT_N + 2];
    const c = nx * ux + ny * uy + nz * uz;
    const ground = c >= CFG[COS_SLOPE];
    let kind: number;
    C[3] = nx;
    C[4] = ny;
    C[5] = nz;
    if (pass === FALL) {
      if (ground) {
        recordCollision(result, CollisionKind.Ground, C, 3);
        return true;
      }
      kind = CollisionKind.Slope;
    } else if (pass === RIDE) {
      kind = ground ? CollisionKind.Ground : CollisionKind.Slope;
    } else if (ground) {
      kind = CollisionKind.Ground;
    } else if (c < -1e-9) {
      kind = CollisionKind.Ceiling;
      result.hitCeiling = true;
    } else {
      if (step && tryStep()) {
        result.stepped = true;
        continue;
      }
      kind = CollisionKind.Wall;
      result.hitWall = true;
      // Slid along level: a slope too steep to climb is a wall.
      const hx = nx - c * ux;
      const hy = ny - c * uy;
      const hz = nz - c * uz;
      const h = Math.sqrt(hx * hx + hy * hy + hz * hz);
      if (h > 1e-6) {
        C[3] = hx / h;
        C[4] = hy / h;
        C[5] = hz / h;
      }
    }
    recordCollision(result, kind, C, 3);
    if (!clip(pass === WALK && kind === CollisionKind.Ground)) break;
    if (PASS[0] * PASS[3] + PASS[1] * PASS[4] + PASS[2] * PASS[5] <= 0) break; // never back
  }
  return false;
}

/**
 * Adds the plane `C[3..5]` to the pass's planes and replaces `PASS[0..2]` by a displacement that goes
 * into none of them: projected onto one plane, else along the crease of two. Returns false (and zero
 * displacement) when none is left. `climb`: the new plane is ground walked up at level speed.
 */
function clip(climb: boolean): boolean {
  if (planeCount === MAX_PLANES) return stop();
  const p = 3 * planeCount;
  PLANES[p] = C[3];
  PLANES[p + 1] = C[4];
  PLANES[p + 2] = C[5];
  CLIMB[planeCount] = climb ? 1 : 0;
  planeCount++;
  for (let i = planeCount - 1; i >= 0; i--) {
    project(i);
    if (satisfies(i, -1)) return accept();
  }
  for (let i = 0; i < planeCount; i++) {
    for (let j = i + 1; j < planeCount; j++) {
      if (crease(i, j) && satisfies(i, j)) return accept();
    }
  }
  return stop();
}

function stop(): boolean {
  PASS[0] = PASS[1] = PASS[2] = 0;
  return false;
}

function accept(): boolean {
  PASS[0] = C[0];
  PASS[1] = C[1];
  PASS[2] = C[2];
  return true;
}

/**
 * `C[0..2]` = `PASS[0..2]` without its part into plane `i`: removed along the plane's normal, or, on
 * ground walked up, along the up vector (the level part of the displacement is kept: the character
 * climbs a slope at its walking speed).
 */
function project(i: number): void {
  const o = 3 * i;
  const nx = PLANES[o];
  const ny = PLANES[o + 1];
  const nz = PLANES[o + 2];
  const d = PASS[0] * nx + PASS[1] * ny + PASS[2] * nz;
  C[0] = PASS[0];
  C[1] = PASS[1];
  C[2] = PASS[2];
  if (d >= 0) return;
  if (CLIMB[i] === 1) {
    const ux = CFG[UP];
    const uy = CFG[UP + 1];
    const uz = CFG[UP + 2];
    const s = d / (nx * ux + ny * uy + nz * uz);
    C[0] -= s * ux;
    C[1] -= s * uy;
    C[2] -= s * uz;
  } else {
    C[0] -= d * nx;
    C[1] -= d * ny;
    C[2] -= d * nz;
  }
}

/** `C[0..2]` = `PASS[0..2]` projected onto the crease of planes `i` and `j`; false if they are parallel. */
function crease(i: number, j: number): boolean {
  const a = 3 * i;
  const b = 3 * j;
  const dx = PLANES[a + 1] * PLANES[b + 2] - PLANES[a + 2] * PLANES[b + 1];
  const dy = PLANES[a + 2] * PLANES[b] - PLANES[a] * PLANES[b + 2];
  const dz = PLANES[a] * PLANES[b + 1] - PLANES[a + 1] * PLANES[b];
  const l2 = dx * dx + dy * dy + dz * dz;
  if (!(l2 > 1e-12)) return false;
  const s = (PASS[0] * dx + PASS[1] * dy + PASS[2] * dz) / l2;
  C[0] = s * dx;
  C[1] = s * dy;
  C[2] = s * dz;
  return true;
}

/** Whether `C[0..2]` goes into none of the planes but `i` and `j` (up to rounding). */
function satisfies(i: number, j: number): boolean {
  const len = Math.sqrt(C[0] * C[0] + C[1] * C[1] + C[2] * C[2]);
  const eps = -1e-9 * len;
  for (let k = 0; k < planeCount; k++) {
    if (k === i || k === j) continue;
    const o = 3 * k;
    if (C[0] * PLANES[o] + C[1] * PLANES[o + 1] + C[2] * PLANES[o + 2] < eps) return false;
  }
  return true;
}
