/**
 * Installs Sieve's collision handlers on cannon-es's `Narrowphase`: trimesh–trimesh, box–trimesh,
 * convex–trimesh and cylinder–trimesh (which cannon-es 0.20.0 does not have: such pairs produce no
 * contact, pmndrs/cannon-es#21, schteppe/cannon.js#423) — on by default, since they only answer where
 * cannon has no answer — and, as options off by default, sphere–box through OCSI and a prefiltered
 * box–box (both change answers cannon does give).
 *
 * cannon dispatches a shape pair to `narrowphase[shapeA.type | shapeB.type]` (getters on the prototype);
 * {@link installNarrowphase} defines own properties on one `Narrowphase` instance for the added keys, which
 * shadow those getters, and {@link uninstallNarrowphase} deletes them. Each handler has cannon's handler
 * signature and produces cannon `ContactEquation`s through `createContactEquation`, with friction through
 * `createFrictionEquationsFromContact` (or one averaged pair with `enableFrictionReduction`), so the
 * solver treats them as its own. The `justTest` form (kinematic/static pairs) only answers overlap.
 *
 * cannon's own convex contacts (`convexConvex`, `sphereConvex`) are replaced, by default, with the exact
 * hull path (the hull modules: the same answers bit for bit, less work), as own properties under those
 * method names, which cannon's box, convex, cylinder and heightfield handlers call.
 *
 * With the `convex` option (off by default: it changes contact points), the box, convex-polyhedron and
 * cylinder pairs — with each other, with spheres and with heightfields — go to Sieve's own convex
 * contact generator instead (separating axes with Gauss-map edge pruning, reference-face clipping to
 * four points), whose handlers are in the convex folder. It is passed in as a value, `convexContacts`
 * of the `@sieve/cannon/convex` entry point, so that pages without it do not bundle it.
 *
 * The handlers themselves: the trimesh ones (BVH queries of Ericson's Real-Time Collision Detection and
 * GImpact's triangle clipping from Bullet) in the trimesh-contacts module, with the triangle clipping
 * and the contact manifold (reduced by farthest-point sampling) in their own modules; the optional
 * box–box prefilter (an OBB separating-axis test) and OCSI sphere–box in the box-contacts module.
 */
import { checkOptionKeys, optionKeys } from '@sieve/core';
import { type Body, type Narrowphase, type Quaternion, Shape, type Vec3 } from 'cannon-es';
import { convexConvexExact } from './hull/convexContacts.js';
import { sphereConvexExact } from './hull/sphereContacts.js';
import { makeTrimeshHandlers } from './trimeshContacts.js';

/** Options of {@link installNarrowphase}. */
export interface NarrowphaseOptions {
  /** Trimesh–trimesh, box–trimesh, convex–trimesh and cylinder–trimesh contacts. Default true. */
  trimesh?: boolean;
  /**
   * Sphere–box contacts through OCSI, replacing cannon's own. Off by default: it changes results stock
   * produces. What it changes: one contact at the box point nearest the centre, with the exact normal
   * (face, edge or corner), also when the centre is inside the box (the face of least penetration),
   * where cannon's test can miss or push the wrong way; contacts on edges and corners differ from
   * cannon's in the last bits, and a ragdoll or pile of spheres and boxes diverges over time. Why you
   * would want it: fast spheres or thin boxes that end a step with the centre inside the box, and
   * contact normals that do not flip between steps on edges.
   *
   * Turned on by passing the handler itself, `sphereBoxContact` of `@sieve/cannon/convex` (an entry
   * point of its own, so pages that leave it off do not bundle it): `narrowphase: { sphereBox:
   * sphereBoxContact }`. `true` throws a `TypeError` saying so. Default false.
   */
  sphereBox?: false | OptInHandler;
  /**
   * Box–box: an OBB–OBB separating-axis test (`@sieve/core`) first, cannon's own box–box only for boxes
   * that it finds overlapping — cannon's contacts, without its costly hull SAT and clipping for the many
   * pairs whose bounding spheres meet but whose boxes do not. Off by default: the two tests round
   * differently, so for boxes that touch within rounding error the prefilter can drop a contact of zero
   * depth that cannon keeps.
   *
   * Turned on by passing the handler itself, `boxBoxPrefilter` of `@sieve/cannon/convex`:
   * `narrowphase: { boxBox: boxBoxPrefilter }`. `true` throws a `TypeError` saying so. Default false.
   */
  boxBox?: false | OptInHandler;
  /**
   * Sieve's own convex contact generator for Box, ConvexPolyhedron and Cylinder against each other,
   * against spheres and against Heightfield, replacing cannon's (whose convex–convex tests every
   * edge-pair axis by projecting every vertex): a separating-axis test with Gauss-map pruning of edge
   * pairs, warm-started from each pair's last axis, and reference-face clipping to at most four
   * contacts. What it changes: the contact points and their number, and where friction acts. A
   * resting face keeps the same four corners from step to step (cannon keeps one to eight) and gets a
   * fifth contact first, at its load point (under the pair's centre of mass); its friction is two
   * pairs at anchors fixed in both bodies, whose slip is pulled back the next step, sharing the bound
   * cannon gives a pair per contact. Not the solver or the materials: cannon's own contact and
   * friction equations, coefficients and events; heightfield triangles push along their own normal.
   * Why: convex piles step many times faster (a settled 200-hull pile: `world.step` 20–32× stock's,
   * measured on a busy 2-core machine, contestants alternated), resting contacts are steadier, and
   * 10-box towers and 10-hull stacks stand in cannon's default settings (10 iterations, no sleeping),
   * where stock's fall within seconds. With it, box–box is its own (the `boxBox` prefilter is unused);
   * `sphereBox: sphereBoxContact` keeps sphere–box on OCSI.
   *
   * Turned on by passing the generator itself, `convexContacts` of `@sieve/cannon/convex` (its own
   * entry point, so pages that leave it off do not bundle it):
   * `narrowphase: { convex: convexContacts }`. `true` throws a `TypeError` saying so. Default false.
   */
  convex?: false | ConvexContacts;
  /**
   * cannon's own convex contacts — box–box, box/convex/cylinder pairs, sphere–convex, and box– and
   * convex–heightfield (its `convexConvex` and `sphereConvex`) — computed by Sieve's reimplementation:
   * the same contacts, normals, order, events and friction, bit for bit, without allocating, with
   * what cannon recomputes per axis computed once per pair, and without the axes that provably cannot
   * change its answer. Installed as the `convexConvex` and `sphereConvex` own properties of the
   * narrowphase. Default true; false leaves cannon's own code.
   */
  exactConvex?: boolean;
  /**
   * Most contacts kept per trimesh shape pair, and per hull–heightfield pair with `convex` (deepest
   * first, then spread out), a positive integer. Default 8.
   */
  maxContacts?: number;
}

/**
 * The keys of {@link NarrowphaseOptions}: any other key throws a `TypeError` naming it. Kept complete
 * by the compiler (`optionKeys`): add a new option here too.
 */
const NARROWPHASE_OPTION_KEYS = optionKeys<NarrowphaseOptions>({
  trimesh: true,
  sphereBox: true,
  boxBox: true,
  convex: true,
  exactConvex: true,
  maxContacts: true,
});
const NARROWPHASE_SWITCHES = ['trimesh', 'exactConvex'] as const;
/** The handlers passed as values, each by its export of `@sieve/cannon/convex`. */
const OPT_IN_HANDLERS = { sphereBox: 'sphereBoxContact', boxBox: 'boxBoxPrefilter' } as const;

/**
 * Checks narrowphase options as `where` (`'installSieve: options.narrowphase'`): known keys, booleans,
 * `convex`, `sphereBox` and `boxBox` false or their values of `@sieve/cannon/convex`, a positive integer
 * `maxContacts`. Throws a `TypeError` or `RangeError` naming the option.
 */
export function checkNarrowphaseOptions(options: NarrowphaseOptions, where: string): void {
  checkOptionKeys(where, options, NARROWPHASE_OPTION_KEYS);
  for (const key of NARROWPHASE_SWITCHES) {
    const v = options[key];
    if (v !== undefined && typeof v !== 'boolean') {
      throw new TypeError(`${where}.${key} must be true or false, got ${String(v)}`);
    }
  }
  const convex = options.convex;
  if (convex !== undefined && convex !== false && !isConvexContacts(convex)) {
    throw new TypeError(
      convex === true
        ? `${where}.convex takes the convex contact generator, not true: import { convexContacts } from '@sieve/cannon/convex' and pass convex: convexContacts`
        : `${where}.convex must be false or convexContacts of '@sieve/cannon/convex', got ${String(convex)}`,
    );
  }
  for (const key of ['sphereBox', 'boxBox'] as const) {
    const v: unknown = options[key];
    if (v === undefined || v === false || (isOptInHandler(v) && v.key === key)) continue;
    const name = OPT_IN_HANDLERS[key];
    throw new TypeError(
      v === true
        ? `${where}.${key} takes the handler, not true: import { ${name} } from '@sieve/cannon/convex' and pass ${key}: ${name}`
        : `${where}.${key} must be false or ${name} of '@sieve/cannon/convex', got ${String(v)}`,
    );
  }
  const maxContacts = options.maxContacts;
  if (maxContacts !== undefined && !(Number.isInteger(maxContacts) && maxContacts >= 1)) {
    throw new RangeError(`${where}.maxContacts must be a positive integer, got ${String(maxContacts)}`);
  }
}

/**
 * A cannon-es narrowphase handler: the signature of the functions cannon dispatches a shape pair to
 * (called on the `Narrowphase`); returns whether the shapes touch, the only answer of its `justTest` form.
 */
export type Handler = (
  this: Narrowphase,
  si: Shape,
  sj: Shape,
  xi: Vec3,
  xj: Vec3,
  qi: Quaternion,
  qj: Quaternion,
  bi: Body,
  bj: Body,
  rsi?: Shape | null,
  rsj?: Shape | null,
  justTest?: boolean,
) => boolean | undefined;

/**
 * Sieve's convex contact generator, as {@link NarrowphaseOptions.convex} takes it: the value
 * `convexContacts` exported by `@sieve/cannon/convex` (an entry point of its own, so that a page which
 * leaves the option off does not bundle it).
 */
export interface ConvexContacts {
  /**
   * Makes the convex handlers of one installation (sharing their scratch and pair cache), keeping at
   * most `maxContacts` contacts per hull–heightfield pair: `[dispatch key, handler]` rows.
   * @internal
   */
  readonly makeHandlers: (maxContacts: number) => [number, Handler][];
}

/** Whether `v` is the convex contact generator of `@sieve/cannon/convex`. */
/**
 * An opt-in contact handler of `@sieve/cannon/convex` (`sphereBoxContact`, `boxBoxPrefilter`): the value
 * of the narrowphase option it turns on.
 */
export interface OptInHandler {
  /** The option it is the value of. @internal */
  readonly key: 'sphereBox' | 'boxBox';
  /** The handler. @internal */
  readonly handler: Handler;
}

function isOptInHandler(v: unknown): v is OptInHandler {
  return typeof v === 'object' && v !== null && typeof (v as OptInHandler).handler === 'function';
}

function isConvexContacts(v: unknown): v is ConvexContacts {
  return typeof v === 'object' && v !== null && typeof (v as ConvexContacts).makeHandlers === 'function';
}

const TYPES = Shape.types;

/**
 * Dispatch keys (`typeA | typeB` of cannon-es's `Shape.types` bits) of the handlers this module adds:
 * the property names {@link installNarrowphase} defines on a `Narrowphase` instance.
 */
export const SIEVE_COLLISION_TYPES = {
  /** Trimesh–trimesh (`TRIMESH`, 256): BVH mesh–mesh query and triangle clipping; on by default. */
  trimeshTrimesh: TYPES.TRIMESH,
  /** Box–trimesh (`BOX | TRIMESH`, 260): the box's hull against the mesh; on by default. */
  boxTrimesh: TYPES.BOX | TYPES.TRIMESH,
  /** Convex polyhedron–trimesh (`CONVEXPOLYHEDRON | TRIMESH`, 272); on by default. */
  convexTrimesh: TYPES.CONVEXPOLYHEDRON | TYPES.TRIMESH,
  /** Cylinder–trimesh (`CYLINDER | TRIMESH`, 384): cannon's cylinder is a convex hull; on by default. */
  cylinderTrimesh: TYPES.CYLINDER | TYPES.TRIMESH,
  /** Sphere–box (`SPHERE | BOX`, 5) through OCSI; replaces cannon's handler only with `sphereBox: true`. */
  sphereBox: TYPES.SPHERE | TYPES.BOX,
  /** Box–box (`BOX`, 4) with a separating-axis prefilter; replaces cannon's only with `boxBox: true`. */
  boxBox: TYPES.BOX,
} as const;

interface NarrowphaseState {
  keys: (number | string)[];
  /** Own property descriptors the install shadowed (usually none). */
  previous: (PropertyDescriptor | undefined)[];
}

const states = new WeakMap<Narrowphase, NarrowphaseState>();

/** Whether {@link installNarrowphase} put Sieve's handlers on `np` (and they are still there). */
export function narrowphaseInstalled(np: Narrowphase): boolean {
  return states.has(np);
}

/**
 * Adds the Sieve handlers to one cannon `Narrowphase` (a world's `world.narrowphase`) as own properties
 * under the keys of {@link SIEVE_COLLISION_TYPES}, shadowing cannon's prototype getters for those
 * shape pairs only. Throws an `Error` if already installed on `np`, and a `TypeError`/`RangeError`
 * naming the option for an unknown key, a switch that is not a boolean or a `maxContacts` that is
 * not a positive integer, before anything changes. `installSieve` calls it.
 */
export function installNarrowphase(np: Narrowphase, options: NarrowphaseOptions = {}): void {
  if (states.has(np)) throw new Error('installNarrowphase: already installed on this narrowphase');
  checkNarrowphaseOptions(options, 'installNarrowphase: options');
  const maxContacts = options.maxContacts ?? 8;
  const table: [number | string, Handler][] = [];
  if (options.trimesh ?? true) {
    const { trimeshTrimesh, convexTrimesh } = makeTrimeshHandlers(maxContacts);
    const types = SIEVE_COLLISION_TYPES;
    table.push(
      [types.trimeshTrimesh, trimeshTrimesh],
      [types.boxTrimesh, convexTrimesh],
      [types.convexTrimesh, convexTrimesh],
      [types.cylinderTrimesh, convexTrimesh],
    );
  }
  if (options.sphereBox) table.push([SIEVE_COLLISION_TYPES.sphereBox, options.sphereBox.handler]);
  const convex = options.convex || null;
  if (options.boxBox && !convex) table.push([SIEVE_COLLISION_TYPES.boxBox, options.boxBox.handler]);
  if (convex) {
    for (const row of convex.makeHandlers(maxContacts)) {
      if (!table.some(([k]) => k === row[0])) table.push(row);
    }
  }
  if (options.exactConvex ?? true) {
    // Method names, not type keys: cannon's box, convex, cylinder and heightfield handlers call them.
    table.push(
      ['convexConvex', convexConvexExact as unknown as Handler],
      ['sphereConvex', sphereConvexExact as unknown as Handler],
    );
  }
  const state: NarrowphaseState = { keys: [], previous: [] };
  for (const [key, fn] of table) {
    state.keys.push(key);
    state.previous.push(Object.getOwnPropertyDescriptor(np, key));
    Object.defineProperty(np, key, { value: fn, configurable: true, writable: true, enumerable: false });
  }
  states.set(np, state);
}

/**
 * Removes what {@link installNarrowphase} added (restoring any own property it shadowed), so cannon's
 * own handlers answer again. Returns false, and does nothing, if nothing was installed on `np`.
 */
export function uninstallNarrowphase(np: Narrowphase): boolean {
  const state = states.get(np);
  if (!state) return false;
  for (let k = 0; k < state.keys.length; k++) {
    const key = state.keys[k];
    const previous = state.previous[k];
    delete (np as unknown as Record<number | string, unknown>)[key];
    if (previous) Object.defineProperty(np, key, previous);
  }
  states.delete(np);
  return true;
}
