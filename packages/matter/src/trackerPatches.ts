/**
 * The wrappers that feed each engine's {@link StaticTracker}, once per Matter module and counted by its
 * users (as the `Detector.collisions` wrapper is):
 *
 * - Matter's functions that change a body (`Body.setPosition`, `setStatic`, `translate`, `scale`,
 *   `setVelocity`, `applyForce`, ..., `Sleeping.set`) run as before, then mark the body in every
 *   tracker when it was or is static;
 * - `Engine.update`'s per-body loops (`Engine._bodiesApplyGravity`, `_bodiesUpdate`,
 *   `_bodiesUpdateVelocities`, `_bodiesClearForces`, `Constraint.preSolveAll` / `postSolveAll`,
 *   `Resolver.postSolvePosition`) run stock's function on the bodies the engine's tracker says to visit;
 *   on another engine's bodies, or any other array, on what they were given.
 *
 * When the last user uninstalls, each function is put back unless something wrapped it after us.
 */
import type { StaticTracker, TrackedBody } from './staticTracker.js';

// biome-ignore lint/suspicious/noExplicitAny: wraps functions of any signature
type AnyFn = (...args: any[]) => unknown;
type Namespace = Record<string, unknown>;

/** The fields `Sleeping.set` writes that the skipped loops read (the impulse is watched apart). */
interface SleepingBody extends TrackedBody {
  positionPrev?: { x: number; y: number };
  anglePrev?: number;
  speed?: number;
  angularSpeed?: number;
}

/** The body-changing functions of `Matter.Body` whose calls are marked (those a module lacks are skipped). */
const BODY_CHANGES = [
  'set',
  'setStatic',
  'setMass',
  'setDensity',
  'setInertia',
  'setVertices',
  'setParts',
  'setCentre',
  'setPosition',
  'setAngle',
  'setVelocity',
  'setAngularVelocity',
  'setSpeed',
  'setAngularSpeed',
  'translate',
  'rotate',
  'scale',
  'applyForce',
] as const;

/**
 * `[namespace, function]` of the per-body loops of `Engine.update`, in the order it calls them (the
 * gravity pass, first every step, starts the tracker's step). Each takes the bodies and at most one
 * more argument (delta, gravity).
 */
const LOOPS = [
  ['Engine', '_bodiesApplyGravity'],
  ['Engine', '_bodiesUpdate'],
  ['Engine', '_bodiesUpdateVelocities'],
  ['Engine', '_bodiesClearForces'],
  ['Constraint', 'preSolveAll'],
  ['Constraint', 'postSolveAll'],
] as const;

/** One wrapped function: where it lives, stock's, ours. */
interface Wrapped {
  ns: Namespace;
  name: string;
  original: AnyFn;
  patched: AnyFn;
}

/** The wrappers of one Matter module. */
interface ModulePatch {
  wrapped: Wrapped[];
  trackers: StaticTracker[];
}

/** Keyed by the module's `Body` namespace. */
const patches = new WeakMap<object, ModulePatch>();

/** Whether `matter` has every function the trackers wrap (plain matter-js 0.20 and Phaser's copy do). */
export function canTrack(matter: unknown): boolean {
  if (matter == null || typeof matter !== 'object') return false;
  const m = matter as Record<string, Namespace | undefined>;
  const has = (ns: string, fn: string) => typeof m[ns]?.[fn] === 'function';
  return (
    LOOPS.every(([ns, fn]) => has(ns, fn)) &&
    has('Resolver', 'postSolvePosition') &&
    has('Sleeping', 'set') &&
    has('Body', 'setStatic') &&
    has('Body', 'setPosition')
  );
}

/** The tracker whose engine's step `bodies` is, or null. */
function trackerOf(trackers: StaticTracker[], bodies: unknown): StaticTracker | null {
  for (let i = 0; i < trackers.length; i++) if (trackers[i].owns(bodies)) return trackers[i];
  return null;
}

function wrap(ns: Namespace, name: string, make: (original: AnyFn) => AnyFn): Wrapped {
  const original = ns[name] as AnyFn;
  const patched = make(original);
  ns[name] = patched;
  return { ns, name, original, patched };
}

/** Adds `tracker` to `matter`'s wrappers (wrapping the module on its first tracker). */
export function addTracker(matter: object, tracker: StaticTracker): void {
  const m = matter as Record<string, Namespace>;
  let patch = patches.get(m.Body);
  if (patch === undefined) {
    const trackers: StaticTracker[] = [];
    const wrapped: Wrapped[] = [];
    const markAll = (body: TrackedBody, moving: boolean) => {
      for (let i = 0; i < trackers.length; i++) trackers[i].mark(body, moving);
    };
    for (const name of BODY_CHANGES) {
      if (typeof m.Body[name] !== 'function') continue;
      wrapped.push(
        wrap(
          m.Body,
          name,
          (original) =>
            function (this: unknown, body: TrackedBody) {
              const wasStatic = body != null && body.isStatic === true;
              // biome-ignore lint/complexity/noArguments: forwards every argument as given
              const result = original.apply(this, arguments as unknown as unknown[]);
              const isStatic = body != null && body.isStatic === true;
              if (wasStatic || isStatic) markAll(body, !(wasStatic && isStatic));
              return result;
            },
        ),
      );
    }
    wrapped.push(
      wrap(
        m.Sleeping,
        'set',
        (original) =>
          function (this: unknown, body: SleepingBody, isSleeping: unknown) {
            if (body == null || body.isStatic !== true) return original.call(this, body, isSleeping);
            // Sleeping.update puts every static body to sleep again each step once it has settled (in
            // worlds with sleeping on): a call that leaves what the loops read as it was is no change.
            const sleeping = body.isSleeping;
            const prevX = body.positionPrev?.x;
            const prevY = body.positionPrev?.y;
            const anglePrev = body.anglePrev;
            const speed = body.speed;
            const angularSpeed = body.angularSpeed;
            const result = original.call(this, body, isSleeping);
            if (
              body.isSleeping !== sleeping ||
              body.positionPrev?.x !== prevX ||
              body.positionPrev?.y !== prevY ||
              body.anglePrev !== anglePrev ||
              body.speed !== speed ||
              body.angularSpeed !== angularSpeed ||
              body.isStatic !== true
            )
              markAll(body, body.isStatic !== true);
            return result;
          },
      ),
    );
    for (const [ns, name] of LOOPS) {
      const begins = name === '_bodiesApplyGravity';
      wrapped.push(
        wrap(
          m[ns],
          name,
          (original) =>
            function (this: unknown, bodies: TrackedBody[], more: unknown) {
              const tracker = trackerOf(trackers, bodies);
              if (tracker === null) return original.call(this, bodies, more);
              return original.call(
                this,
                begins ? tracker.beginStep(bodies) : tracker.loopArray(bodies),
                more,
              );
            },
        ),
      );
    }
    wrapped.push(
      wrap(
        m.Resolver,
        'postSolvePosition',
        (original) =>
          function (this: unknown, bodies: TrackedBody[]) {
            const tracker = trackerOf(trackers, bodies);
            if (tracker === null) return original.call(this, bodies);
            const result = original.call(this, tracker.loopArray(bodies));
            tracker.afterPositionPass(bodies);
            return result;
          },
      ),
    );
    patch = { wrapped, trackers };
    patches.set(m.Body, patch);
  }
  patch.trackers.push(tracker);
}

/** Removes `tracker`; the last one takes the wrappers away (each unless wrapped again after us). */
export function removeTracker(matter: object, tracker: StaticTracker): void {
  const body = (matter as Record<string, Namespace>).Body;
  const patch = patches.get(body);
  if (patch === undefined) return;
  const at = patch.trackers.indexOf(tracker);
  if (at >= 0) patch.trackers.splice(at, 1);
  if (patch.trackers.length > 0) return;
  for (const w of patch.wrapped) if (w.ns[w.name] === w.patched) w.ns[w.name] = w.original;
  patches.delete(body);
}
