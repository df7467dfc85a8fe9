/**
 * The contact checks of a character move: pushing the capsule out of what moved into it before the move
 * (a platform, a refit mesh, a teleport: Rapier's `check_and_fix_penetrations`), and finding the ground
 * after it (a contact within the skin whose normal is no steeper than the climb angle, as Rapier's
 * grounded test with the slope limit).
 *
 * Both read the contacts of the grown capsule, its radius grown once more by the ground probe distance,
 * with every level mesh (`capsuleContacts`: one contact per triangle, normal from the triangle to the
 * capsule's segment).
 */
import type { CharacterMove } from './result.js';
import { CFG, COS_SLOPE, contacts, gatherContacts, level, PROBE, probe, RADIUS, UP } from './world.js';

/** Push-out passes at most (each resolves the deepest contact, then looks again). */
const PUSH_PASSES = 4;
/** The deepest contact: depth (0), normal (1–3). */
const DEEP = new Float64Array(4);

/**
 * Pushes the probe out of the level (a few passes, the deepest contact first) and returns whether it
 * then has ground under it, within the probe distance.
 */
export function settle(result: CharacterMove): boolean {
  const ux = CFG[UP];
  const uy = CFG[UP + 1];
  const uz = CFG[UP + 2];
  const cos = CFG[COS_SLOPE];
  // Penetrations below this are rounding, and harmless: a sweep only refuses to go deeper.
  const threshold = 1e-6 * CFG[RADIUS];
  let supported = false;
  for (let pass = 0; pass <= PUSH_PASSES; pass++) {
    supported = false;
    DEEP[0] = threshold;
    let deep = false;
    for (let i = 0; i < level.count; i++) {
      const n = gatherContacts(i);
      const N = contacts.normals;
      for (let k = 0; k < n; k++) {
        const nx = N[3 * k];
        const ny = N[3 * k + 1];
        const nz = N[3 * k + 2];
        if (nx * ux + ny * uy + nz * uz >= cos) supported = true;
        const depth = contacts.depths[k] - CFG[PROBE];
        if (depth > DEEP[0]) {
          deep = true;
          DEEP[0] = depth;
          DEEP[1] = nx;
          DEEP[2] = ny;
          DEEP[3] = nz;
        }
      }
    }
    if (!deep || pass === PUSH_PASSES) break;
    result.pushedOut = true;
    const d = DEEP[0] + threshold;
    const px = d * DEEP[1];
    const py = d * DEEP[2];
    const pz = d * DEEP[3];
    probe.start.x += px;
    probe.start.y += py;
    probe.start.z += pz;
    probe.end.x += px;
    probe.end.y += py;
    probe.end.z += pz;
  }
  return supported;
}
