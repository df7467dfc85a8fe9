/**
 * `installSieve(world)` / `uninstallSieve(world)`: everything this package adds, put on (and taken off) a
 * live cannon-es world in one call.
 *
 * With no options the world steps exactly as it did with cannon's default `NaiveBroadphase` — the same
 * bodies, contacts and `collide` / `beginContact` / `endContact` events, bit for bit — wherever cannon has
 * an answer; what is added only answers where cannon has none. Each part, switchable by option:
 * - `broadphase`: `world.broadphase` becomes a {@link SieveBroadphase} with Naive's pairs and order (it
 *   takes over the replaced broadphase's `useBoundingBoxes`): a sort and sweep by default, or on a
 *   `@sieve/core` broadphase you pass (`new SweepAndPrune({ dimensions: 3 })` for large worlds), or the
 *   SieveBroadphase you pass.
 * - `collisionMatrix`: `world.collisionMatrix` and `world.collisionMatrixPrevious` become
 *   {@link PairCollisionMatrix}es (O(pairs) instead of an N(N−1)/2 array reset every step, with the
 *   array's semantics), and `world.bodyOverlapKeeper` / `world.shapeOverlapKeeper` become
 *   {@link PairOverlapKeeper}s with cannon's keys (O(1) per contact instead of an insertion into a sorted
 *   array; the same event lists). The current pairs are carried over, so no event is repeated or lost.
 * - `narrowphase`: trimesh–trimesh, box–trimesh, convex–trimesh and cylinder–trimesh contacts (cannon
 *   has none), as own properties of `world.narrowphase`; the OCSI sphere–box contact and the box–box
 *   prefilter only when asked for (they change cannon's answers); see `NarrowphaseOptions`.
 * - `deferRemovals`: `world.removeBody` from a listener inside `step()` stays stock's own removal, done
 *   at once (so a removal and an add in a `collide` handler — pick up and respawn — give stock's results
 *   exactly); where stock would then throw (its step loops cached the body count and read past the end
 *   of the shortened array), the rest of the step runs over the bodies still in the world instead (see
 *   `stepRemovals.ts`).
 * - `bullets`: bodies marked with `setBullet(body)` are swept after each internal step and stopped at
 *   (or bounced from) their first contact instead of passing through thin bodies; see `bullets.ts`.
 *   Costs nothing while no body is marked.
 * - `wideContactIds` (off by default): exact overlap keys for body and shape ids up to 2²²; cannon
 *   packs two ids in 32 bits, so past id 32 767 its `beginContact`/`endContact` events carry wrong or
 *   missing bodies. It changes those events, so it is opt-in.
 *
 * Uninstalling restores every original object and property, carrying the collision state back.
 * `installSieveLite` installs the same but the narrowphase part, which it leaves out of
 * a page's bundle.
 */
import { type Broadphase as CoreBroadphase, checkOptionKeys, optionKeys } from '@sieve/core';
import { ArrayCollisionMatrix, type Body, type Broadphase, type World } from 'cannon-es';
import {
  checkSieveBroadphaseKeys,
  isSieveInstance,
  SieveBroadphase,
  type SieveBroadphaseOptions,
} from './broadphase.js';
// The sweep of bullets is not imported here: `setBullet` brings it (see bullets/mark.ts).
import type { BulletOptions, BulletSystem } from './bullets/index.js';
import {
  checkBulletOptions,
  dropBullets,
  existingTracker,
  trackerOf,
  wantBullets,
} from './bullets/settings.js';
import { PairCollisionMatrix } from './collisionMatrix.js';
import {
  checkNarrowphaseOptions,
  installNarrowphase,
  type NarrowphaseOptions,
  narrowphaseInstalled,
  uninstallNarrowphase,
} from './narrowphase.js';
import { PairOverlapKeeper } from './overlapKeeper.js';
import { installStepRemovals, type StepRemovalWorld, uninstallStepRemovals } from './stepRemovals.js';

/** Options of {@link installSieve}. */
export interface InstallSieveOptions {
  /**
   * A SieveBroadphase to use, options for a new one, or false to keep the world's. Default true (a
   * SieveBroadphase on its sort and sweep). A `@sieve/core` broadphase instance — `new SweepAndPrune({
   * dimensions: 3 })` for worlds of thousands of moving bodies, a `ParallelSweepAndPrune` of
   * `@sieve/core/parallel` — is the tree of a new SieveBroadphase: its `sieve` option. `world.step` is
   * synchronous, so a parallel one whose `syncUpdate` is false (on workers, on a browser page's main
   * thread) throws a `RangeError` here rather than inside the step: run the world in a Web Worker.
   */
  broadphase?: boolean | SieveBroadphase | SieveBroadphaseOptions | CoreBroadphase;
  /** Pair-sized collision matrices and overlap keepers (same events as stock). Default true. */
  collisionMatrix?: boolean;
  /**
   * Overlap keepers with exact keys for ids up to 2²² instead of cannon's 16-bit packing, which names
   * wrong or missing bodies in `beginContact`/`endContact` past id 32 767. Changes those events, so
   * off by default; needs `collisionMatrix`.
   */
  wideContactIds?: boolean;
  /** Added narrowphase handlers (all, some, or none). Default true. */
  narrowphase?: boolean | NarrowphaseOptions;
  /**
   * Make `removeBody` calls from listeners inside a step safe where cannon would throw (the rest of the
   * step runs over the bodies still in the world); removals stock survives are untouched. Default true.
   */
  deferRemovals?: boolean;
  /** Sweep bodies marked with `setBullet` (options, or false to leave them alone). Default true. */
  bullets?: boolean | BulletOptions;
}

/**
 * The keys of {@link InstallSieveOptions}: any other key throws a `TypeError` naming it. Kept complete
 * by the compiler (`optionKeys`): add a new option here too.
 */
const INSTALL_SIEVE_OPTION_KEYS = optionKeys<InstallSieveOptions>({
  broadphase: true,
  collisionMatrix: true,
  wideContactIds: true,
  narrowphase: true,
  deferRemovals: true,
  bullets: true,
});

/** What {@link installSieve} put on a world. */
export interface SieveInstallation {
  /** The broadphase installed, or null if the world's own was kept. */
  readonly broadphase: SieveBroadphase | null;
  /**
   * The world's bullet system, or null with option `bullets: false`. It is made when the first body of
   * the world is marked (`setBullet`), so a page that never marks one never loads it: null until then.
   */
  readonly bullets: BulletSystem | null;
}

interface KeeperLike {
  set(i: number, j: number): void;
  tick(): void;
  getDiff(additions: number[], removals: number[]): void;
}

interface MatrixLike {
  get(bi: Body, bj: Body): unknown;
  set(bi: Body, bj: Body, value: boolean): void;
  reset(): void;
  setNumObjects(n: number): void;
}

/** The world's fields this package replaces (cannon's typings do not list the keepers). */
interface WorldInternals {
  broadphase: Broadphase;
  collisionMatrix: MatrixLike;
  collisionMatrixPrevious: MatrixLike;
  bodyOverlapKeeper: KeeperLike;
  shapeOverlapKeeper: KeeperLike;
  bodies: Body[];
}

interface Saved {
  installation: SieveInstallation;
  /** The world's own broadphase, replaced by `installation.broadphase` (null if it was kept). */
  broadphase: Broadphase | null;
  matrices: [MatrixLike, MatrixLike, KeeperLike, KeeperLike] | null;
  /** The narrowphase part installed (null: none). */
  narrowphase: NarrowphasePart | null;
  deferred: boolean;
}

/**
 * The narrowphase half of an installation, passed in by the function that installs it: so that
 * {@link installSieveWith}'s other callers (`installSieveLite`) leave the narrowphase's modules out of a
 * page's bundle.
 */
export interface NarrowphasePart {
  /** Checks `options.narrowphase` (present) and that none is installed yet; throws naming it. */
  check(world: World, option: unknown, where: string): void;
  install(world: World, option: true | NarrowphaseOptions): void;
  uninstall(world: World): void;
}

/** The narrowphase additions of {@link installSieve}. */
const SIEVE_NARROWPHASE: NarrowphasePart = {
  check(world, np, where) {
    if (np !== undefined && typeof np !== 'boolean') {
      if (np === null || typeof np !== 'object') {
        throw new TypeError(
          `${where}: options.narrowphase must be true, false or its options, got ${String(np)}`,
        );
      }
      checkNarrowphaseOptions(np as NarrowphaseOptions, `${where}: options.narrowphase`);
    }
    if (np !== false && narrowphaseInstalled(world.narrowphase)) {
      throw new Error(
        `${where}: Sieve handlers are already installed on world.narrowphase (pass narrowphase: false, or uninstallNarrowphase first)`,
      );
    }
  },
  install: (world, np) => installNarrowphase(world.narrowphase, np === true ? {} : np),
  uninstall: (world) => uninstallNarrowphase(world.narrowphase),
};

const installed = new WeakMap<World, Saved>();

/**
 * Installs Sieve on a live cannon-es world. With no options the world steps bit for bit as with
 * cannon's `NaiveBroadphase` wherever cannon has an answer (same contacts and `collide` /
 * `beginContact` / `endContact` events), and only adds answers where it has none. The parts, each
 * switchable by {@link InstallSieveOptions}: a {@link SieveBroadphase} as `world.broadphase`;
 * {@link PairCollisionMatrix}es and {@link PairOverlapKeeper}s instead of cannon's N(N−1)/2 arrays
 * (current pairs carried over, so no event is repeated or lost); trimesh contacts on
 * `world.narrowphase` ({@link installNarrowphase}); `removeBody` from a listener inside a step made safe
 * (where stock cannon throws); and continuous collision for bodies marked with `setBullet`.
 *
 * Returns what was installed. Throws a `TypeError` if `world` is not a cannon-es `World`, an `Error` if
 * Sieve is already installed on it (uninstall first), and a `TypeError`/`RangeError` naming the option
 * for an unknown key (nested options included), a value of the wrong type or out of range, or
 * `wideContactIds` without `collisionMatrix` — all before the world is changed.
 *
 * @example
 * ```ts
 * import { installSieve, uninstallSieve } from '@sieve/cannon';
 * import { Body, Box, Plane, Sphere, Vec3, World } from 'cannon-es';
 *
 * const world = new World({ gravity: new Vec3(0, -9.82, 0) });
 * const ground = new Body({ mass: 0, shape: new Plane() });
 * ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
 * world.addBody(ground);
 * for (let i = 0; i < 100; i++) {
 *   const shape = i % 2 ? new Sphere(0.5) : new Box(new Vec3(0.5, 0.5, 0.5));
 *   world.addBody(new Body({ mass: 1, shape, position: new Vec3(i % 10, 1 + Math.floor(i / 10), 0) }));
 * }
 * const sieve = installSieve(world); // the same contacts and events as stock, bit for bit
 * for (let i = 0; i < 60; i++) world.step(1 / 60);
 * console.log(world.contacts.length, sieve.broadphase?.bodyCount); // last step's contacts; bodies swept
 * uninstallSieve(world); // cannon's own objects back, the collision state carried over
 * ```
 */
export function installSieve(world: World, options: InstallSieveOptions = {}): SieveInstallation {
  return installSieveWith('installSieve', world, options, INSTALL_SIEVE_OPTION_KEYS, SIEVE_NARROWPHASE);
}

/**
 * What {@link installSieve} does, with the narrowphase part passed in (null: none, and no
 * `narrowphase` option): `where` names the caller in errors, `keys` are its option keys.
 */
export function installSieveWith(
  where: string,
  world: World,
  options: InstallSieveOptions,
  keys: readonly string[],
  narrowphase: NarrowphasePart | null,
): SieveInstallation {
  if (world == null || !Array.isArray((world as World).bodies)) {
    throw new TypeError(`${where}: world must be a cannon-es World`);
  }
  if (installed.has(world)) throw new Error(`${where}: Sieve is already installed on this world`);
  checkInstallOptions(options, where, keys); // every option, before anything changes
  narrowphase?.check(world, options.narrowphase, where);
  const w = world as unknown as WorldInternals;
  const bulletOption = options.bullets ?? true;
  const bulletOptions = bulletOption === false ? null : bulletOption === true ? {} : bulletOption;
  if (bulletOptions !== null) checkBulletOptions(bulletOptions, where); // before anything changes
  if (bulletOptions !== null && existingTracker(world) !== undefined) {
    throw new Error(
      `${where}: bullets are already installed on this world (pass bullets: false, or uninstallBullets first)`,
    );
  }
  const npOption = options.narrowphase ?? true;
  // The part that goes on (none for `installSieveLite`, whose options have no `narrowphase`).
  const npPart = npOption === false ? null : narrowphase;
  const bpOption = options.broadphase ?? true;
  let broadphase: SieveBroadphase | null = null;
  let savedBroadphase: Broadphase | null = null;
  if (bpOption !== false) {
    if (bpOption instanceof SieveBroadphase) broadphase = bpOption;
    else if (isSieveInstance(bpOption)) {
      broadphase = new SieveBroadphase({
        sieve: bpOption,
        useBoundingBoxes: w.broadphase.useBoundingBoxes === true,
      });
    } else {
      const o = bpOption === true ? {} : (bpOption as SieveBroadphaseOptions);
      // Keep the replaced broadphase's test (cannon's default is bounding spheres).
      broadphase = new SieveBroadphase({
        ...o,
        useBoundingBoxes: o.useBoundingBoxes ?? w.broadphase.useBoundingBoxes === true,
      });
    }
    savedBroadphase = w.broadphase;
    w.broadphase = broadphase;
    broadphase.setWorld(world);
  }
  let matrices: Saved['matrices'] = null;
  if (options.collisionMatrix ?? true) {
    matrices = [w.collisionMatrix, w.collisionMatrixPrevious, w.bodyOverlapKeeper, w.shapeOverlapKeeper];
    w.collisionMatrix = copyMatrix(world, w.collisionMatrix, new PairCollisionMatrix());
    w.collisionMatrixPrevious = copyMatrix(world, w.collisionMatrixPrevious, new PairCollisionMatrix());
    const stockKeys = !(options.wideContactIds ?? false);
    w.bodyOverlapKeeper = copyKeeper(w.bodyOverlapKeeper, new PairOverlapKeeper({ stockKeys }));
    w.shapeOverlapKeeper = copyKeeper(w.shapeOverlapKeeper, new PairOverlapKeeper({ stockKeys }));
  }
  if (npPart !== null && npOption !== false) npPart.install(world, npOption);
  const deferred = options.deferRemovals ?? true;
  if (deferred) installStepRemovals(world as unknown as StepRemovalWorld);
  if (bulletOptions !== null) wantBullets(world, bulletOptions);
  const installation: SieveInstallation = {
    broadphase,
    get bullets() {
      return bulletOptions === null ? null : ((trackerOf(world) as BulletSystem | undefined) ?? null);
    },
  };
  installed.set(world, {
    installation,
    broadphase: savedBroadphase,
    matrices,
    narrowphase: npPart,
    deferred,
  });
  return installation;
}

/**
 * The checks of {@link installSieve}'s options that need no building, but the narrowphase's (its
 * part checks those): known keys at every level, the type of each option, and `wideContactIds` only
 * with `collisionMatrix`. Throws a `TypeError`, `RangeError` or `Error` naming the option.
 */
function checkInstallOptions(options: InstallSieveOptions, where: string, keys: readonly string[]): void {
  checkOptionKeys(`${where}: options`, options, keys);
  for (const key of ['collisionMatrix', 'wideContactIds', 'deferRemovals'] as const) {
    const v = options[key];
    if (v !== undefined && typeof v !== 'boolean') {
      throw new TypeError(`${where}: options.${key} must be true or false, got ${String(v)}`);
    }
  }
  if (options.wideContactIds === true && options.collisionMatrix === false) {
    throw new TypeError(
      `${where}: options.wideContactIds needs the pair-sized overlap keepers of options.collisionMatrix (true)`,
    );
  }
  const bp = options.broadphase;
  if (isSieveInstance(bp)) checkSieveBroadphaseKeys({ sieve: bp }, `${where}: options.broadphase`);
  else if (bp != null && typeof bp !== 'boolean' && !(bp instanceof SieveBroadphase)) {
    if (typeof bp !== 'object' || !isPlainObject(bp)) {
      throw new TypeError(
        `${where}: options.broadphase must be true, false, a SieveBroadphase or its options, got ${String(bp)}`,
      );
    }
    checkSieveBroadphaseKeys(bp, `${where}: options.broadphase`);
  }
  const bullets = options.bullets;
  if (
    bullets !== undefined &&
    typeof bullets !== 'boolean' &&
    (bullets === null || typeof bullets !== 'object')
  ) {
    throw new TypeError(
      `${where}: options.bullets must be true, false or its options, got ${String(bullets)}`,
    );
  }
}

/** Whether `v` is an object literal (not an instance of some class). */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Takes Sieve off a world: restores cannon's own broadphase, collision matrices, overlap keepers,
 * narrowphase handlers and step methods, carrying the current collision state back so the next step's
 * events continue where Sieve's left off. Returns false (and does nothing) if it was not installed.
 */
export function uninstallSieve(world: World): boolean {
  const saved = installed.get(world);
  if (!saved) return false;
  installed.delete(world);
  const w = world as unknown as WorldInternals;
  const { installation } = saved;
  dropBullets(world);
  if (saved.deferred) uninstallStepRemovals(world as unknown as StepRemovalWorld);
  saved.narrowphase?.uninstall(world);
  if (saved.matrices) {
    const [cm, cmp, bk, sk] = saved.matrices;
    w.collisionMatrix = copyMatrix(world, w.collisionMatrix, cm);
    w.collisionMatrixPrevious = copyMatrix(world, w.collisionMatrixPrevious, cmp);
    w.bodyOverlapKeeper = copyKeeper(w.bodyOverlapKeeper, bk);
    w.shapeOverlapKeeper = copyKeeper(w.shapeOverlapKeeper, sk);
  }
  if (saved.broadphase) {
    // Detach ours only while it is still the world's.
    if (installation.broadphase && w.broadphase === installation.broadphase) installation.broadphase.detach();
    w.broadphase = saved.broadphase;
    saved.broadphase.dirty = true;
  }
  return true;
}

/** Whether Sieve is installed on `world`. */
export function isSieveInstalled(world: World): boolean {
  return installed.has(world);
}

/**
 * Copies the pairs set in `from` into `to` (reset first): the pair-sized matrix lists its own entries;
 * the stock array is walked over its length.
 */
function copyMatrix(world: World, from: MatrixLike, to: MatrixLike): MatrixLike {
  const n = world.bodies.length;
  to.reset();
  if (to instanceof ArrayCollisionMatrix) {
    try {
      to.setNumObjects(n);
    } catch {
      // Too many bodies for cannon's array (the failure Sieve exists to avoid); the world will throw
      // on its own at its next addBody/removeBody, as stock cannon does.
    }
  }
  const bodies = world.bodies;
  if (from instanceof PairCollisionMatrix) {
    from.forEachSet((i, j) => {
      if (i < n && j < n) to.set(bodies[i], bodies[j], true);
    });
  } else if (from instanceof ArrayCollisionMatrix) {
    const m = from.matrix;
    // The array's flat index (i(i+1)/2 + j − 1): walk the set entries only.
    for (let i = 1; i < n; i++) {
      const base = (i * (i + 1)) / 2 - 1;
      if (base >= m.length) break;
      for (let j = 0; j < i; j++) if (m[base + j]) to.set(bodies[i], bodies[j], true);
    }
  }
  return to;
}

/** Carries a keeper's pairs of the step that ended last over to another keeper (emptied first). */
function copyKeeper(from: KeeperLike, to: KeeperLike): KeeperLike {
  to.tick();
  to.tick();
  const fromStock = isStockKeyed(from);
  if (fromStock && isStockKeyed(to)) {
    // Same key packing on both sides: copy the keys themselves (unpacking is lossy past id 65 535).
    const keys = from instanceof PairOverlapKeeper ? from.currentKeys() : stockCurrent(from);
    if (to instanceof PairOverlapKeeper) for (const key of keys) to.addKey(key);
    else {
      const current = stockCurrent(to);
      for (const key of [...keys].sort((a, b) => a - b)) current.push(key);
    }
    return to;
  }
  const pairs = currentPairs(from);
  for (let k = 0; k < pairs.length; k += 2) to.set(pairs[k], pairs[k + 1]);
  return to;
}

/** Whether a keeper packs ids as cannon's stock keeper does. */
function isStockKeyed(k: KeeperLike): boolean {
  return k instanceof PairOverlapKeeper ? k.stockKeys : true;
}

/** The stock keeper's sorted key array of the current step. */
function stockCurrent(k: KeeperLike): number[] {
  return (k as unknown as { current?: number[] }).current ?? [];
}

/** The id pairs a keeper holds as this step's (flat). */
function currentPairs(k: KeeperLike): number[] {
  if (k instanceof PairOverlapKeeper) return k.currentPairs();
  const out: number[] = [];
  for (const key of stockCurrent(k)) out.push((key & 0xffff0000) >> 16, key & 0xffff);
  return out;
}
