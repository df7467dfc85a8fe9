/**
 * The ground under a character after a move: among the contacts of the capsule within the ground probe
 * distance, the one whose normal is the most upward, if it is no steeper than the climb angle (Rapier's
 * grounded test, with the slope limit of its `max_slope_climb_angle`). Ties go to the first mesh, then
 * the first triangle in tree order.
 */
import type { BoundsTree } from '../boundsTree.js';
import type { CharacterMove } from './result.js';
import { CFG, COS_SLOPE, contacts, gatherContacts, level, PROBE, UP } from './world.js';

/** Slots of {@link GROUND}. */
export const GROUND_GAP = 0; // the smallest gap between the grown capsule and climbable ground (≤ 0: touching)
/** What {@link findGround} found besides the result's fields. */
export const GROUND = new Float64Array(1);

/** Fills the ground fields of `result` and returns `result.grounded`. */
export function findGround(result: CharacterMove): boolean {
  const ux = CFG[UP];
  const uy = CFG[UP + 1];
  const uz = CFG[UP + 2];
  let best = CFG[COS_SLOPE];
  let found = false;
  GROUND[GROUND_GAP] = Infinity;
  for (let i = 0; i < level.count; i++) {
    const n = gatherContacts(i);
    const N = contacts.normals;
    for (let k = 0; k < n; k++) {
      const c = N[3 * k] * ux + N[3 * k + 1] * uy + N[3 * k + 2] * uz;
      if (c >= CFG[COS_SLOPE]) {
        const gap = CFG[PROBE] - contacts.depths[k];
        if (gap < GROUND[GROUND_GAP]) GROUND[GROUND_GAP] = gap;
      }
      if (c < best || (found && c === best)) continue;
      found = true;
      best = c;
      result.groundNormal.x = N[3 * k];
      result.groundNormal.y = N[3 * k + 1];
      result.groundNormal.z = N[3 * k + 2];
      const P = contacts.points;
      result.groundPoint.x = P[3 * k];
      result.groundPoint.y = P[3 * k + 1];
      result.groundPoint.z = P[3 * k + 2];
      result.groundMesh = level.meshes[i];
      result.groundFace = (level.trees[i] as BoundsTree).firstTriangle + contacts.triangles[k];
    }
  }
  result.grounded = found;
  if (!found) {
    result.groundMesh = null;
    result.groundFace = -1;
  }
  return found;
}
