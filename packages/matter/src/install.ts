/**
 * Installing Sieve on a matter-js engine: the arguments checked, matter-js's `Detector.collisions`
 * wrapped (once per Matter module, dispatching on the detector) and a {@link SieveDetector} built to
 * answer the engine's calls; `uninstallSieve` undoes it.
 */
import { checkOptionKeys } from '@sieve/core';
import Matter from 'matter-js';
import type {
  MatterEngineLike,
  MatterEngineTypedWithoutDetector,
  MatterModuleLike,
  MatterPluginLike,
} from './matterTypes.js';
import { REMOVED_OPTION_KEYS, SIEVE_OPTION_KEYS, type SieveOptions } from './options.js';
import { acquirePatch, checkUnclaimed, register, releasePatch } from './registry.js';
import { SieveDetector } from './sieveDetector.js';

/**
 * Installs Sieve's detector on a matter-js engine: from the next `Engine.update` the engine's
 * `Detector.collisions` is answered by a {@link SieveDetector} (same collisions, same order, same
 * events as stock). Other engines in the page are untouched. Throws if the engine already has one,
 * and a `TypeError` or `RangeError` naming the option for an unknown key or a bad value, before
 * anything changes. With no options it runs matter-js's sort and sweep without its overheads; pass a
 * broadphase ({@link SieveOptions.broadphase}) for worlds where the sweep compares many pairs.
 *
 * @param engine - A `Matter.Engine` (anything with an `engine.detector` holding `bodies`); in
 *   Phaser, `this.matter.world.engine` (see {@link MatterEngineTypedWithoutDetector}).
 * @param options - See {@link SieveOptions}.
 *
 * @example
 * ```ts
 * import { installSieve, uninstallSieve } from '@sieve/matter';
 * import Matter from 'matter-js';
 *
 * const engine = Matter.Engine.create();
 * const ground = Matter.Bodies.rectangle(400, 610, 810, 60, { isStatic: true });
 * const boxes = Array.from({ length: 200 }, (_, i) =>
 *   Matter.Bodies.rectangle(20 + (i % 20) * 38, 20 + Math.floor(i / 20) * 38, 30, 30),
 * );
 * Matter.Composite.add(engine.world, [ground, ...boxes]);
 * const sieve = installSieve(engine); // the same collisions, pairs and events as stock
 * for (let i = 0; i < 60; i++) Matter.Engine.update(engine, 1000 / 60);
 * console.log(sieve.stats.path, sieve.stats.collisions); // 'sweep', and the collisions' count
 * sieve.mode = 'stock'; // switch back and forth on a live engine, for side-by-side timings
 * Matter.Engine.update(engine, 1000 / 60);
 * uninstallSieve(engine); // stock again
 * ```
 */
export function installSieve(
  engine: MatterEngineLike | MatterEngineTypedWithoutDetector,
  options: SieveOptions = {},
): SieveDetector {
  return install(engine as MatterEngineLike, options);
}

/** {@link installSieve} on an engine typed as matter-js's. */
function install(engine: MatterEngineLike, options: SieveOptions): SieveDetector {
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
  checkOptionKeys('installSieve: options', options, SIEVE_OPTION_KEYS, REMOVED_OPTION_KEYS);
  checkUnclaimed(engine);
  const matter = matterModule(options.matter);
  if (matter === null) {
    throw new TypeError(
      "installSieve: options.matter must be the Matter module (with Detector and Collision) or Phaser's Matter plugin (with detector and collision)",
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

/**
 * `options.matter` as a Matter module, or null if it is neither one nor Phaser's Matter plugin (whose
 * `detector` and `collision` are its bundled copy's `Detector` and `Collision`).
 */
function matterModule(given: MatterModuleLike | MatterPluginLike | undefined): MatterModuleLike | null {
  if (given === undefined) return Matter as unknown as MatterModuleLike;
  if (given === null || (typeof given !== 'object' && typeof given !== 'function')) return null;
  const m = given as Partial<MatterModuleLike> & Partial<MatterPluginLike>;
  const module =
    m.Detector != null && m.Collision != null
      ? (m as MatterModuleLike)
      : m.detector != null && m.collision != null
        ? (phaserMatterOf(m as MatterPluginLike) ??
          ({ Detector: m.detector, Collision: m.collision } as MatterModuleLike))
        : null;
  // What each step calls: checked here, so a wrong module never throws from inside Engine.update.
  if (
    module === null ||
    typeof module.Detector.collisions !== 'function' ||
    typeof module.Detector.canCollide !== 'function' ||
    typeof module.Collision.collides !== 'function'
  ) {
    return null;
  }
  return module;
}

/**
 * The whole Matter module behind Phaser's Matter plugin, when the page's Phaser (the global Phaser
 * sets) bundles that copy: the plugin holds only some of the modules, and tracking static bodies
 * (`SieveOptions.trackStatic`) needs `Engine` and `Sleeping` too.
 */
function phaserMatterOf(plugin: MatterPluginLike): MatterModuleLike | null {
  const phaser = (globalThis as { Phaser?: { Physics?: { Matter?: { Matter?: unknown } } } }).Phaser;
  const matter = phaser?.Physics?.Matter?.Matter as Partial<MatterModuleLike> | undefined;
  return matter != null && (matter.Detector as unknown) === plugin.detector
    ? (matter as MatterModuleLike)
    : null;
}
