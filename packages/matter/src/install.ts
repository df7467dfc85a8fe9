/**
 * Installing Sieve on a matter-js engine: the arguments checked, matter-js's `Detector.collisions`
 * wrapped (once per Matter module, dispatching on the detector) and a {@link SieveDetector} built to
 * answer the engine's calls; `uninstallSieve` undoes it.
 */
import Matter from 'matter-js';
import type { MatterEngineLike, MatterModuleLike } from './matterTypes.js';
import type { SieveOptions } from './options.js';
import { acquirePatch, checkUnclaimed, register, releasePatch } from './registry.js';
import { SieveDetector } from './sieveDetector.js';

/**
 * Installs Sieve's broadphase on a matter-js engine: from the next `Engine.update` the engine's
 * `Detector.collisions` is answered by a {@link SieveDetector} (same collisions, same order, same
 * events as stock). Other engines in the page are untouched. Throws if the engine already has one.
 *
 * @param engine - A `Matter.Engine` (anything with an `engine.detector` holding `bodies`).
 * @param options - See {@link SieveOptions}.
 */
export function installSieve(engine: MatterEngineLike, options: SieveOptions = {}): SieveDetector {
  if (
    engine == null ||
    typeof engine !== 'object' ||
    engine.detector == null ||
    typeof engine.detector !== 'object'
  ) {
    throw new TypeError('installSieve: engine must be a Matter.Engine (with an engine.detector object)');
  }
  if (!Array.isArray(engine.detector.bodies)) {
    throw new TypeError('installSieve: engine.detector.bodies must be an array');
  }
  checkUnclaimed(engine);
  const matter: MatterModuleLike = options.matter ?? Matter;
  if (matter == null || matter.Detector == null || matter.Collision == null) {
    throw new TypeError(
      'installSieve: options.matter must be the Matter module (with Detector and Collision)',
    );
  }
  const patch = acquirePatch(matter);
  let sieve: SieveDetector;
  try {
    sieve = new SieveDetector(engine, matter, patch.original, options);
  } catch (e) {
    releasePatch(matter);
    throw e;
  }
  register(engine, matter, sieve);
  return sieve;
}
