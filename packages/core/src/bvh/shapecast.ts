/**
 * The one single-tree traversal of the triangle BVH: every query on one tree (mesh–sphere, mesh–OBB,
 * ray casts, the continuous-collision mesh path) is a {@link BvhCast} plugged into {@link shapecast}.
 *
 * Follows three-mesh-bvh's `shapecast` (`src/core/cast/shapecast.js`): one stack walk over the packed
 * nodes, the query supplying "does this node's box matter" (`intersectsBounds`), "test these
 * triangles" (`intersectsRange`, which may stop the walk) and, for ordered queries, a key per node
 * (three-mesh-bvh's `boundsTraverseOrder`): the child with the smaller key is visited first and a
 * node whose key exceeds the query's current cutoff (the best hit so far) is skipped when popped.
 *
 * Ordered walks test each node when its parent is expanded (the root before the walk), so a child
 * that misses is never pushed. Unordered walks test a node when they reach it, so when the query stops
 * early the subtrees left on the stack cost nothing; they visit the tree depth first, left child
 * first, and contact lists come out in tree order.
 *
 * The callbacks take only integers and typed arrays and return booleans: a double crossing a call
 * that V8 does not inline would be boxed (an allocation). Keys travel through `keys` (a `Float64Array`
 * the query owns) instead. The stacks are module scratch, grown on demand; a callback must not start
 * another `shapecast` (no re-entry).
 */

import { growArray } from '../growArray.js';
import type { MeshBVH } from './MeshBVH.js';
import { NODE_WORDS } from './nodes.js';

/**
 * Slot of {@link BvhCast.keys} where `intersectsBounds` writes the key of the node it just tested.
 *
 * @internal
 */
export const KEY = 0;
/**
 * Slot of {@link BvhCast.keys} holding the current cutoff: popped nodes with a larger key are skipped.
 *
 * @internal
 */
export const CUTOFF = 1;

/** A query plugged into {@link shapecast}. */
export interface BvhCast {
  /**
   * `null` for an unordered walk; for an ordered one, two doubles the query owns: `keys[KEY]` is
   * written by `intersectsBounds` (smaller first), `keys[CUTOFF]` is read whenever a node is popped.
   */
  readonly keys: Float64Array | null;
  /** Whether the node whose bounds start at word `w` of `f` (`nodeF32`) may hold a hit. */
  intersectsBounds(f: Float32Array, w: number): boolean;
  /** Tests triangle slots `[offset, offset + count)`; returns true to end the walk. */
  intersectsRange(offset: number, count: number): boolean;
}

let nodeStack = new Int32Array(128);
let keyStack = new Float64Array(128);

/**
 * Walks `bvh` for `cast`: returns true when `intersectsRange` ended the walk, false when the tree was
 * exhausted (or is empty).
 *
 * This function is also the template of the specialised walks in `generated/`: each region between
 * `// @hook NAME` and `// @end` is replaced by the query's own code (`scripts/generate-casts.mjs`, run
 * by `pnpm -C packages/core generate:casts`; a test fails when a generated file is stale). Only the
 * hooks differ between the walks; edit the traversal here, never in `generated/`.
 */
export function shapecast(bvh: MeshBVH, cast: BvhCast): boolean {
  if (bvh.triangleCount === 0) return false;
  const f = bvh.nodeF32;
  const n = bvh.nodeI32;
  // @hook setup
  const keys = cast.keys;
  const ordered = keys !== null;
  // @end
  // @hook root
  if (ordered && !cast.intersectsBounds(f, 0)) return false;
  // @end
  let ns = nodeStack;
  let ks = keyStack;
  let sp = 0;
  let node = 0;
  for (;;) {
    const w = node * NODE_WORDS;
    const tag = n[w + 7];
    // @hook visit
    const live = ordered || cast.intersectsBounds(f, w);
    // @end
    if (!live) {
      // Missed: nothing below it matters.
    } else if (tag < 0) {
      // @hook leaf
      if (cast.intersectsRange(n[w + 6], ~tag)) return true;
      // @end
    } else {
      const l = node + 1;
      const r = n[w + 6];
      const wl = l * NODE_WORDS;
      const wr = r * NODE_WORDS;
      // @hook children
      let hitL = true;
      let hitR = true;
      let kl = 0;
      let kr = 0;
      if (ordered) {
        hitL = cast.intersectsBounds(f, wl);
        kl = keys[KEY];
        hitR = cast.intersectsBounds(f, wr);
        kr = keys[KEY];
      }
      // @end
      if (hitL && hitR) {
        if (sp === ns.length) {
          ns = nodeStack = growArray(ns, sp + 1);
          ks = keyStack = growArray(ks, sp + 1);
        }
        // The nearer (or left) child now, the other later.
        if (kl <= kr) {
          ns[sp] = r;
          ks[sp++] = kr;
          node = l;
        } else {
          ns[sp] = l;
          ks[sp++] = kl;
          node = r;
        }
        continue;
      }
      if (hitL) {
        node = l;
        continue;
      }
      if (hitR) {
        node = r;
        continue;
      }
    }
    // Pop the next node still worth visiting.
    for (;;) {
      if (sp === 0) return false;
      node = ns[--sp];
      // @hook pop
      if (!ordered || ks[sp] <= keys[CUTOFF]) break;
      // @end
    }
  }
}
