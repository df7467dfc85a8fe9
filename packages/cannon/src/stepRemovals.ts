/**
 * Bodies removed while a cannon-es world is inside `step()` (from `collide`, `beginContact`,
 * `preStep` or `postStep` listeners), made safe without changing what stock does wherever stock
 * survives.
 *
 * cannon-es 0.20's `World.internalStep` caches the body count `N` when it begins, and its later loops
 * (waking bodies after the narrowphase, damping, integrating, the sleep pass) run `for (i = 0; i !== N;
 * i++) bodies[i]…`: a listener that removes a body, and adds none back before the next such loop,
 * leaves them reading past the end of the array, and the step throws a `TypeError` half done. A removal
 * followed by an add (pick up and respawn, in either order, or a body removed and added back) keeps
 * the count, and stock survives it.
 *
 * Here every removal is stock's own, done at once (the same array, indices, collision matrix, events
 * and `body.world` as stock, whatever the listeners do in between); only when one of those loops is
 * about to run over a list shorter than `N` is the list padded, for that loop alone, with inert static
 * placeholders that each loop skips — so the rest of the step runs over the bodies still in the world,
 * as if the loops ended with the list. The padding is put on right after the contact events (before
 * the wake-up and damping loops), after the `preStep` listeners (the integration) and after the
 * `postStep` listeners (the sleep pass), and taken off before those listeners run and when the step
 * ends: no world listener sees a placeholder (a body's own `wakeup` or `sleep` listener, called from
 * inside those loops, could — only in a step stock would have thrown out of). Costs nothing while no
 * step shortens the list.
 */
import { Body } from 'cannon-es';

/** The world's fields this module wraps or reads (cannon's typings do not list all of them). */
export interface StepRemovalWorld {
  bodies: Body[];
  internalStep(dt: number): void;
  emitContactEvents(): void;
  dispatchEvent(event: { type: string }): unknown;
}

/** An inert placeholder: static, asleep, never put to sleep, with no id a world knows. */
function makePlaceholder(): Body {
  // A body takes the next id from a global counter: put it back, so the ids of the bodies a game
  // creates afterwards are those stock would give them.
  const next = Body.idCounter;
  const body = new Body({ mass: 0, type: Body.STATIC, allowSleep: false });
  Body.idCounter = next;
  body.id = -1;
  body.sleepState = Body.SLEEPING;
  return body;
}

/**
 * Wraps `internalStep`, `emitContactEvents` and `dispatchEvent` of one world (own properties, which
 * shadow the prototype's; {@link uninstallStepRemovals} deletes them).
 */
export function installStepRemovals(w: StepRemovalWorld): void {
  const proto = Object.getPrototypeOf(w) as StepRemovalWorld;
  /** Body count of the running internal step (0 outside a step), and placeholders now in the list. */
  const state = { count: 0, padded: 0 };
  const placeholders: Body[] = [];
  const pad = (bodies: Body[]): void => {
    const missing = state.count - bodies.length;
    for (let k = 0; k < missing; k++) {
      if (k === placeholders.length) placeholders.push(makePlaceholder());
      bodies.push(placeholders[k]);
    }
    if (missing > 0) state.padded = missing;
  };
  const unpad = (bodies: Body[]): void => {
    if (state.padded === 0) return;
    state.padded = 0;
    // Placeholders sit at the end unless something edited the list while they were in it.
    let n = bodies.length;
    while (n > 0 && placeholders.includes(bodies[n - 1])) n--;
    bodies.length = n;
    let moved = false;
    for (let i = bodies.length - 1; i >= 0; i--) {
      if (placeholders.includes(bodies[i])) {
        bodies.splice(i, 1);
        moved = true;
      }
    }
    if (moved) for (let i = 0; i < bodies.length; i++) bodies[i].index = i;
  };
  /** An own, non-enumerable, writable and configurable property of `w` (shadowing the prototype's). */
  const define = (name: string, value: unknown): void => {
    Object.defineProperty(w, name, { configurable: true, writable: true, value });
  };
  define('internalStep', function internalStep(this: StepRemovalWorld, dt: number): void {
    const outer = state.count;
    state.count = this.bodies.length;
    try {
      proto.internalStep.call(this, dt);
    } finally {
      unpad(this.bodies);
      state.count = outer;
    }
  });
  define('emitContactEvents', function emitContactEvents(this: StepRemovalWorld): void {
    proto.emitContactEvents.call(this);
    // The last listeners before the wake-up and damping loops have run.
    if (state.count > 0) pad(this.bodies);
  });
  define('dispatchEvent', function dispatchEvent(this: StepRemovalWorld, event: { type: string }): unknown {
    if (state.count === 0 || (event.type !== 'preStep' && event.type !== 'postStep')) {
      return proto.dispatchEvent.call(this, event);
    }
    unpad(this.bodies);
    try {
      return proto.dispatchEvent.call(this, event);
    } finally {
      pad(this.bodies); // the integration, or the sleep pass, comes next
    }
  });
}

/** Removes what {@link installStepRemovals} put on `w`. */
export function uninstallStepRemovals(w: StepRemovalWorld): void {
  const target = w as unknown as Record<string, unknown>;
  delete target.internalStep;
  delete target.emitContactEvents;
  delete target.dispatchEvent;
}
