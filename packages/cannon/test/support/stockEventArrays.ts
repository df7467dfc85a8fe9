/**
 * cannon-es keeps the contact diffs of `World.emitContactEvents` in module-level arrays and empties
 * the shape-contact diff only at the next body diff (any world's): a world listening to shape contacts
 * leaves its last diff there, and the next world that listens to body contacts — in the next test file
 * of the same test process too — gets those stale ids as `beginContact` / `endContact` events at its
 * first step. Each recorded run calls {@link flushStockEventArrays} first, so one run cannot leak events
 * into the next.
 */
import * as CANNON from 'cannon-es';

/** Empties cannon-es's module-level contact-diff arrays: one step of a world listening to body contacts. */
export function flushStockEventArrays(): void {
  const w = new CANNON.World();
  w.addEventListener('beginContact', () => {});
  w.step(1 / 60);
}
