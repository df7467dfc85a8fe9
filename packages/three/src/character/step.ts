/**
 * Autostep: a character walking into an obstacle no taller than the step height climbs onto it.
 *
 * The up–forward–down moves of the classic kinematic character controllers (PhysX's and Bullet's
 * `btKinematicCharacterController`: step up, move, step down), with the checks of Rapier's
 * `KinematicCharacterController` autostep: the lift is swept, there must be `minStepWidth` of free room
 * on top of the obstacle at the lifted height, and the ground found there, within the lift, must be
 * climbable. Every move is a sweep, so a step never ends inside the level; one that fails leaves the
 * capsule where it was. The capsule lands where the lateral displacement takes it; when it cannot stand
 * there — its round bottom on the obstacle's edge after a short frame, or against a further, higher
 * obstacle after a long one — it lands `minStepWidth` past the start instead (as Rapier's horizontal
 * nudge), where the room check found ground.
 */
import {
  advanceToHit,
  CFG,
  HIT,
  HIT_N,
  HIT_P,
  HIT_T,
  hitIsGround,
  motion,
  PASS,
  probe,
  restoreProbe,
  SKIN,
  STEP_HEIGHT,
  STEP_WIDTH,
  saveProbe,
  sweepAll,
  TINY,
  UP,
} from './world.js';

/**
 * The lateral direction (0–2), its length (3), the lift (4), the contact being stepped over (5–13), and
 * the height along up of the grown capsule's lowest point before the step (14).
 */
const S = new Float64Array(15);

/** Sets `motion` to the lateral direction times `S[slot]`. */
function forward(slot: number): void {
  motion.x = S[0] * S[slot];
  motion.y = S[1] * S[slot];
  motion.z = S[2] * S[slot];
}

/** Sets `motion` to straight down by the lift plus the skin. */
function downward(): void {
  const d = S[4] + CFG[SKIN];
  motion.x = -d * CFG[UP];
  motion.y = -d * CFG[UP + 1];
  motion.z = -d * CFG[UP + 2];
}

/**
 * Sweeps down from the probe's position; lands there and returns true if it finds ground to stand on no
 * higher than the step height above where the capsule stood (a step's height is that of the point stood
 * on: a round bottom landing on the edge of a higher obstacle has not climbed a step).
 */
function land(): boolean {
  downward();
  if (!sweepAll() || !hitIsGround()) return false;
  const h = HIT[HIT_P] * CFG[UP] + HIT[HIT_P + 1] * CFG[UP + 1] + HIT[HIT_P + 2] * CFG[UP + 2] - S[14];
  if (h > CFG[STEP_HEIGHT] + CFG[TINY]) return false;
  advanceToHit();
  return true;
}

/** Moves the probe along `motion` as far as it is free (the fraction travelled is left in `HIT[HIT_T]`). */
function moveFree(): void {
  sweepAll(); // a miss leaves HIT_T = 1
  advanceToHit();
}

/**
 * Tries to climb the obstacle of the contact in `HIT` with the lateral part of the remaining
 * displacement (`PASS[0..2]`). On success the probe stands on the obstacle, `PASS[0..2]` holds what is
 * left of the lateral displacement, and it returns true; otherwise the probe and `HIT` are unchanged.
 */
export function tryStep(): boolean {
  const ux = CFG[UP];
  const uy = CFG[UP + 1];
  const uz = CFG[UP + 2];
  const v = PASS[0] * ux + PASS[1] * uy + PASS[2] * uz;
  const lx = PASS[0] - v * ux;
  const ly = PASS[1] - v * uy;
  const lz = PASS[2] - v * uz;
  const len = Math.sqrt(lx * lx + ly * ly + lz * lz);
  if (!(len > CFG[TINY])) return false;
  // Only into the obstacle (its normal made level), not along it.
  const c = HIT[HIT_N] * ux + HIT[HIT_N + 1] * uy + HIT[HIT_N + 2] * uz;
  if ((HIT[HIT_N] - c * ux) * lx + (HIT[HIT_N + 1] - c * uy) * ly + (HIT[HIT_N + 2] - c * uz) * lz >= 0) {
    return false;
  }
  S[0] = lx / len;
  S[1] = ly / len;
  S[2] = lz / len;
  S[3] = len;
  for (let k = 0; k < 9; k++) S[5 + k] = HIT[k];
  const a = probe.start.x * ux + probe.start.y * uy + probe.start.z * uz;
  const b = probe.end.x * ux + probe.end.y * uy + probe.end.z * uz;
  S[14] = Math.min(a, b) - probe.radius;
  saveProbe(0);
  if (climb()) return true;
  restoreProbe(0);
  for (let k = 0; k < 9; k++) HIT[k] = S[5 + k];
  return false;
}

/** The step itself, from the saved start (slot 0); false when it cannot be taken. */
function climb(): boolean {
  // Up, as far as the ceiling lets (the lift).
  const h = CFG[STEP_HEIGHT];
  motion.x = h * CFG[UP];
  motion.y = h * CFG[UP + 1];
  motion.z = h * CFG[UP + 2];
  moveFree();
  S[4] = h * HIT[HIT_T];
  if (!(S[4] > CFG[TINY])) return false;
  saveProbe(1);
  // Room on top: minStepWidth forward at the lifted height, then climbable ground below it.
  const width = CFG[STEP_WIDTH];
  motion.x = S[0] * width;
  motion.y = S[1] * width;
  motion.z = S[2] * width;
  if (sweepAll()) return false;
  advanceToHit();
  if (!land()) return false;
  restoreProbe(1);
  // The step: forward by the lateral displacement, then down onto the obstacle.
  forward(3);
  moveFree();
  const travelled = S[3] * HIT[HIT_T];
  let done = travelled;
  if (!land()) {
    // On the obstacle's edge, too steep to stand on, or over the next, higher obstacle: land where the
    // room check found ground instead.
    restoreProbe(1);
    motion.x = S[0] * width;
    motion.y = S[1] * width;
    motion.z = S[2] * width;
    if (sweepAll()) return false;
    advanceToHit();
    if (!land()) return false;
    done = width;
  }
  // What is left of the lateral displacement.
  const left = S[3] - done;
  const f = left > 0 ? left / S[3] : 0;
  const lx = S[0] * S[3];
  const ly = S[1] * S[3];
  const lz = S[2] * S[3];
  PASS[0] = f * lx;
  PASS[1] = f * ly;
  PASS[2] = f * lz;
  return true;
}
