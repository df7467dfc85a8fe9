/**
 * Which matter-js engines have a Sieve detector, and how their `Detector.collisions` calls reach it.
 *
 * matter-js 0.20's `Engine.update` calls the module function `Detector.collisions(engine.detector)`,
 * not a method of the engine, so an engine's detector is replaced by wrapping that function — once per
 * Matter module, shared by every engine installed on it and counted by its users — and dispatching on
 * the detector object: a registered one is answered by its {@link SieveDetector}, any other (an engine
 * without Sieve) by the original. When the last user uninstalls, the original is put back unless
 * something wrapped it after us.
 */
import type { CollisionsFn, MatterEngineLike, MatterModuleLike } from './matterTypes.js';
import type { SieveDetector } from './sieveDetector.js';

/** The wrapper around one Matter module's `Detector.collisions`. */
export interface Patch {
  /** `Detector.collisions` as it was before the wrapper (stock's, usually). */
  original: CollisionsFn;
  /** The wrapper, dispatching on the detector. */
  patched: CollisionsFn;
  /** Engines installed on this Matter module. */
  users: number;
}

/** Keyed by the module's `Detector` namespace: the one object every way of naming the module shares. */
const patches = new WeakMap<object, Patch>();
/** Detector → its SieveDetector, for the patched Detector.collisions. */
const byDetector = new WeakMap<object, SieveDetector>();
/** Engine → its SieveDetector. */
const byEngine = new WeakMap<object, { sieve: SieveDetector; matter: MatterModuleLike }>();

/** The caller-owned broadphases serving an installed detector (one engine each). */
export const callerBroadphases: WeakSet<object> = new WeakSet<object>();

/** Throws if `engine` or its detector already has a Sieve detector. */
export function checkUnclaimed(engine: MatterEngineLike): void {
  if (byEngine.has(engine)) {
    throw new Error('installSieve: this engine already has a Sieve detector (call uninstallSieve first)');
  }
  if (byDetector.has(engine.detector)) {
    throw new Error('installSieve: engine.detector already belongs to another engine with a Sieve detector');
  }
}

/** Wraps `matter`'s `Detector.collisions` (once per module) and counts one more user of the wrapper. */
export function acquirePatch(matter: MatterModuleLike): Patch {
  let patch = patches.get(matter.Detector);
  if (patch === undefined) {
    const detectorNs = matter.Detector as unknown as { collisions: CollisionsFn };
    const original = detectorNs.collisions;
    if (typeof original !== 'function') {
      throw new TypeError('installSieve: options.matter has no Detector.collisions function');
    }
    const patched: CollisionsFn = (detector) => {
      const sieve = byDetector.get(detector);
      return sieve === undefined ? original(detector) : sieve.collisions(detector);
    };
    patch = { original, patched, users: 0 };
    patches.set(matter.Detector, patch);
    detectorNs.collisions = patched;
  }
  patch.users++;
  return patch;
}

/** Counts one user less of `matter`'s wrapper; the last one takes the wrapper away. */
export function releasePatch(matter: MatterModuleLike): void {
  const patch = patches.get(matter.Detector);
  if (patch === undefined) return;
  if (--patch.users > 0) return;
  const detectorNs = matter.Detector as unknown as { collisions: CollisionsFn };
  // Restore only if nobody wrapped it after us; otherwise our wrapper stays inside theirs (with no
  // detector registered it defers to stock) and a later install wraps whatever is current.
  if (detectorNs.collisions === patch.patched) detectorNs.collisions = patch.original;
  patches.delete(matter.Detector);
}

/** Routes `engine`'s `Detector.collisions` calls to `sieve` (its wrapper acquired on `matter`). */
export function register(engine: MatterEngineLike, matter: MatterModuleLike, sieve: SieveDetector): void {
  byDetector.set(engine.detector, sieve);
  byEngine.set(engine, { sieve, matter });
}

/**
 * Removes the Sieve detector from an engine: from the next `Engine.update` stock matter-js detects
 * again, from the body order Sieve kept (so the simulation continues exactly as stock's would).
 * Returns false if the engine had none.
 *
 * A broadphase instance passed as `options.broadphase` stays the caller's: it is not disposed (a
 * `ParallelSweepAndPrune` keeps its worker threads until you call its `dispose()`); the detector's
 * proxies are removed from it (their pairs end at its next `update()`), so it is empty again and can
 * serve another engine.
 */
export function uninstallSieve(engine: MatterEngineLike): boolean {
  const entry = engine == null ? undefined : byEngine.get(engine);
  if (entry === undefined) return false;
  entry.sieve.detach();
  byEngine.delete(engine);
  byDetector.delete(entry.sieve.detector);
  releasePatch(entry.matter);
  return true;
}

/** The Sieve detector installed on `engine`, if any. */
export function getSieve(engine: MatterEngineLike): SieveDetector | undefined {
  return engine == null ? undefined : byEngine.get(engine)?.sieve;
}
