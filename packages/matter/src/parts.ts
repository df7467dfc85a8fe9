/**
 * matter-js's narrowphase over the parts of compound bodies, as stock's `Detector.collisions` runs it:
 * parts 1.. of each body (part 0 is the compound's hull), or the body itself when it has one part; each
 * part pair whose bounds overlap goes to `Collision.collides`, in that order. Both ways the adapter
 * answers a step (its own sort and sweep, and the broadphase's candidates) call this one loop.
 */
import type { CollidesFn, MatterBodyLike } from './matterTypes.js';

/**
 * Appends the collisions of `bodyA`'s and `bodyB`'s parts to `collisions` from `index` on, in stock's
 * order; returns the index after the last one written.
 */
export function collideParts(
  bodyA: MatterBodyLike,
  bodyB: MatterBodyLike,
  collides: CollidesFn,
  pairs: unknown,
  collisions: unknown[],
  index: number,
): number {
  const partsA = bodyA.parts;
  const partsB = bodyB.parts;
  const partsALength = partsA.length;
  const partsBLength = partsB.length;
  const partsAStart = partsALength > 1 ? 1 : 0;
  const partsBStart = partsBLength > 1 ? 1 : 0;
  for (let k = partsAStart; k < partsALength; k++) {
    const partA = partsA[k];
    const boundsA = partA.bounds;
    for (let z = partsBStart; z < partsBLength; z++) {
      const partB = partsB[z];
      const boundsB = partB.bounds;
      if (
        boundsA.min.x > boundsB.max.x ||
        boundsA.max.x < boundsB.min.x ||
        boundsA.max.y < boundsB.min.y ||
        boundsA.min.y > boundsB.max.y
      ) {
        continue;
      }
      const collision = collides(partA, partB, pairs);
      if (collision) collisions[index++] = collision;
    }
  }
  return index;
}

/**
 * Stock's narrowphase call for one pair of bodies: `Collision.collides` on the two bodies when both
 * have a single part, else {@link collideParts}. Appends at `index`; returns the index after.
 */
export function collidePair(
  bodyA: MatterBodyLike,
  bodyB: MatterBodyLike,
  collides: CollidesFn,
  pairs: unknown,
  collisions: unknown[],
  index: number,
): number {
  if (bodyA.parts.length === 1 && bodyB.parts.length === 1) {
    const collision = collides(bodyA, bodyB, pairs);
    if (collision) collisions[index++] = collision;
    return index;
  }
  return collideParts(bodyA, bodyB, collides, pairs, collisions, index);
}
