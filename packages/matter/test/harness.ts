/**
 * Runs two engines built by the same scene builder side by side — one stock, one changed by
 * `setup` (Sieve installed, modes switched...) — and compares them after every update: the collisions
 * array (pairs of parts, in order), the collisionStart/Active/End events, and every body's position,
 * angle and velocity, exactly (Object.is). Bodies are named by their creation order in their engine,
 * so the two engines' different ids compare equal. Any Matter module runs it (matter-js by default,
 * or Phaser's bundled copy).
 */
import Matter from 'matter-js';
import type { Scene } from './scenes.js';

/** The Matter module a comparison steps and reads with (matter-js's, or Phaser's bundled copy). */
export type HarnessMatter = Pick<typeof Matter, 'Composite' | 'Engine' | 'Events'>;

/**
 * Assigns each body and part a canonical index: its rank by id (creation order) in its engine. Matter's
 * ids are small non-negative integers: they index a table (read for every body every step, where a Map
 * lookup was most of the harness's time); any other id goes to a Map.
 */
class Namer {
  private table = new Int32Array(1024).fill(-1);
  private other = new Map<number, number>();
  private size = 0;
  private get(id: number): number | undefined {
    if (Number.isInteger(id) && id >= 0 && id < 2 ** 28) {
      const n = id < this.table.length ? this.table[id] : -1;
      return n < 0 ? undefined : n;
    }
    return this.other.get(id);
  }
  private set(id: number, n: number): void {
    if (Number.isInteger(id) && id >= 0 && id < 2 ** 28) {
      if (id >= this.table.length) {
        let length = this.table.length * 2;
        while (length <= id) length *= 2;
        const grown = new Int32Array(length).fill(-1);
        grown.set(this.table);
        this.table = grown;
      }
      this.table[id] = n;
    } else this.other.set(id, n);
  }
  name(body: Matter.Body): number {
    const n = this.get(body.id);
    if (n === undefined) throw new Error(`unnamed body ${body.id}`);
    return n;
  }
  refresh(engine: Matter.Engine, M: HarnessMatter): void {
    const fresh: number[] = [];
    for (const b of M.Composite.allBodies(engine.world)) {
      for (const p of b.parts) if (this.get(p.id) === undefined) fresh.push(p.id);
    }
    fresh.sort((a, b) => a - b);
    for (const id of fresh) if (this.get(id) === undefined) this.set(id, this.size++);
  }
}

interface Trace {
  collisions: string;
  events: string[];
}

function recorder(engine: Matter.Engine, namer: Namer, M: HarnessMatter) {
  const events: string[] = [];
  const pairName = (p: Matter.Pair) => `${namer.name(p.bodyA)}-${namer.name(p.bodyB)}`;
  for (const kind of ['collisionStart', 'collisionActive', 'collisionEnd'] as const) {
    M.Events.on(engine, kind, (e: Matter.IEvent<Matter.Engine>) => {
      const pairs = (e as Matter.IEventCollision<Matter.Engine>).pairs;
      events.push(`${kind}:${pairs.map(pairName).join(',')}`);
    });
  }
  return {
    take(): Trace {
      const collisions = ((engine.detector as unknown as { collisions: Matter.Collision[] }).collisions ?? [])
        .map((c) => `${namer.name(c.bodyA)}-${namer.name(c.bodyB)}`)
        .join(',');
      const out = { collisions, events: events.slice() };
      events.length = 0;
      return out;
    },
  };
}

/** Numbers {@link readState} records per body. */
const FIELDS = 19;

/**
 * Every body's state of one step, as exact numbers keyed by canonical name: what a
 * `Map<name, number[]>` holds, in buffers reused from step to step (a new Map and an array a body
 * every step was most of the harness's time on large worlds). `names` lists each name once, in the
 * order a Map keeps its keys (first insertion); a name written twice keeps the later numbers, as
 * `Map.set` does.
 */
class StateBuffer {
  /** Names written this step, in first-insertion order. */
  readonly names: number[] = [];
  /** `FIELDS` numbers a name, at `FIELDS · name` (plain array: each value kept exactly as read). */
  readonly values: unknown[] = [];
  /** The step each name was last written in (−1: never). */
  private written = new Int32Array(64).fill(-1);
  private step = -1;

  begin(step: number): void {
    this.step = step;
    this.names.length = 0;
  }

  has(name: number): boolean {
    return name < this.written.length && this.written[name] === this.step;
  }

  /** The offset of `name`'s numbers, recording it as written this step. */
  slot(name: number): number {
    if (name >= this.written.length) {
      let length = this.written.length * 2;
      while (length <= name) length *= 2;
      const grown = new Int32Array(length).fill(-1);
      grown.set(this.written);
      this.written = grown;
    }
    if (this.written[name] !== this.step) {
      this.written[name] = this.step;
      this.names.push(name);
    }
    return name * FIELDS;
  }

  /** The numbers of `name`, or undefined if it was not written this step. */
  get(name: number): unknown[] | undefined {
    return this.has(name) ? this.values.slice(name * FIELDS, name * FIELDS + FIELDS) : undefined;
  }
}

/** Every body's state, as exact numbers keyed by canonical name, into `out` (for `step`). */
function readState(engine: Matter.Engine, namer: Namer, M: HarnessMatter, out: StateBuffer, step: number) {
  out.begin(step);
  const v = out.values;
  for (const b of M.Composite.allBodies(engine.world)) {
    // Fields @types/matter-js leaves out.
    const inner = b as unknown as {
      totalContacts: number;
      positionImpulse: Matter.Vector;
      positionPrev: Matter.Vector;
    };
    const o = out.slot(namer.name(b));
    v[o] = b.position.x;
    v[o + 1] = b.position.y;
    v[o + 2] = b.angle;
    v[o + 3] = b.velocity.x;
    v[o + 4] = b.velocity.y;
    v[o + 5] = b.isSleeping ? 1 : 0;
    // What the engine's per-body loops write (and Sieve's static-body tracking skips where unchanged).
    v[o + 6] = b.speed;
    v[o + 7] = b.angularVelocity;
    v[o + 8] = b.force.x;
    v[o + 9] = b.force.y;
    v[o + 10] = b.torque as number;
    v[o + 11] = inner.totalContacts;
    v[o + 12] = inner.positionImpulse.x;
    v[o + 13] = inner.positionImpulse.y;
    v[o + 14] = inner.positionPrev.x;
    v[o + 15] = inner.positionPrev.y;
    v[o + 16] = b.bounds.min.x;
    v[o + 17] = b.bounds.max.y;
    v[o + 18] = b.isStatic ? 1 : 0;
  }
}

/** Compares two steps' states as two Maps of name → numbers (Object.is); '' if equal, else what differs. */
function stateDifference(sa: StateBuffer, sb: StateBuffer): string {
  if (sa.names.length !== sb.names.length)
    return `body counts differ ${sa.names.length} vs ${sb.names.length}`;
  const a = sa.values;
  const b = sb.values;
  for (const name of sa.names) {
    let same = sb.has(name);
    for (let i = name * FIELDS, end = i + FIELDS; same && i < end; i++) same = Object.is(a[i], b[i]);
    if (!same) return `body ${name} differs: ${sa.get(name)!.join(' ')} vs ${sb.get(name)?.join(' ')}`;
  }
  return '';
}

/** What {@link compareRuns} found. */
export interface Comparison {
  /** First step where anything differed, or -1. */
  firstDifference: number;
  /** What differed there. */
  what: string;
  /** Total collisions seen over the run (to show the scene did collide). */
  totalCollisions: number;
  /** Distinct collisionStart events seen. */
  totalStarts: number;
  /** Steps run. */
  steps: number;
}

/**
 * Builds the scene twice, runs `steps` updates of both, and compares after each one.
 * `setup(engine)` is applied to the second engine before the first update; `perStep(engine, step)`
 * (optional) runs on the second engine before each update (switching modes, uninstalling...).
 * `M` is the Matter module the scene was built with (default matter-js).
 */
export function compareRuns(
  build: () => Scene,
  steps: number,
  setup: (engine: Matter.Engine) => void,
  perStep?: (engine: Matter.Engine, step: number) => void,
  M: HarnessMatter = Matter,
): Comparison {
  return compareRunsEach(build, steps, [setup], perStep, M)[0]();
}

/**
 * {@link compareRuns} of one scene under several setups, with one stock engine: the scene is built
 * once for stock and once per setup, every engine is updated in lockstep, and each changed engine is
 * compared with stock after every update, exactly as {@link compareRuns} compares its two (stock's
 * run is the same whichever engines run beside it, so one serves every setup). Returns, per setup, a
 * function giving its comparison, or throwing what its setup, `perStep` or its engine's updates threw
 * (an engine that differs or throws is not updated any further; the others go on).
 */
export function compareRunsEach(
  build: () => Scene,
  steps: number,
  setups: readonly ((engine: Matter.Engine) => void)[],
  perStep?: (engine: Matter.Engine, step: number) => void,
  M: HarnessMatter = Matter,
): (() => Comparison)[] {
  const a = build();
  const changed = setups.map(() => build());
  const namerA = new Namer();
  const recA = recorder(a.engine, namerA, M);
  const sa = new StateBuffer();
  interface Run {
    scene: Scene;
    namer: Namer;
    rec: ReturnType<typeof recorder>;
    state: StateBuffer;
    result: Comparison | null;
    thrown: { error: unknown } | null;
  }
  const runs: Run[] = changed.map((scene) => {
    const namer = new Namer();
    return {
      scene,
      namer,
      rec: recorder(scene.engine, namer, M),
      state: new StateBuffer(),
      result: null,
      thrown: null,
    };
  });
  /** Runs `f` for a changed engine; what it throws ends that engine's run. */
  const guard = (run: Run, f: () => void) => {
    if (run.result || run.thrown) return;
    try {
      f();
    } catch (error) {
      run.thrown = { error };
    }
  };
  for (let i = 0; i < runs.length; i++) guard(runs[i], () => setups[i](runs[i].scene.engine));
  let totalCollisions = 0;
  let totalStarts = 0;
  const delta = 1000 / 60;
  for (let step = 0; step < steps; step++) {
    const live = runs.filter((run) => !run.result && !run.thrown);
    if (live.length === 0) break;
    a.beforeStep?.(step);
    for (const run of live) {
      guard(run, () => {
        run.scene.beforeStep?.(step);
        perStep?.(run.scene.engine, step);
      });
    }
    namerA.refresh(a.engine, M);
    for (const run of live) guard(run, () => run.namer.refresh(run.scene.engine, M));
    M.Engine.update(a.engine, delta);
    for (const run of live) guard(run, () => M.Engine.update(run.scene.engine, delta));
    const ta = recA.take();
    totalCollisions += a.engine.pairs.list.length;
    totalStarts += ta.events.filter((e) => e.startsWith('collisionStart')).length;
    const fail = (what: string): Comparison => ({
      firstDifference: step,
      what,
      totalCollisions,
      totalStarts,
      steps,
    });
    const stockEvents = ta.events.join('|');
    let stateRead = false;
    for (const run of live) {
      guard(run, () => {
        const tb = run.rec.take();
        if (ta.collisions !== tb.collisions) {
          run.result = fail(
            `collisions differ:\n stock ${ta.collisions.slice(0, 300)}\n sieve ${tb.collisions.slice(0, 300)}`,
          );
          return;
        }
        if (stockEvents !== tb.events.join('|')) {
          run.result = fail('events differ');
          return;
        }
        if (!stateRead) {
          readState(a.engine, namerA, M, sa, step);
          stateRead = true;
        }
        readState(run.scene.engine, run.namer, M, run.state, step);
        const differs = stateDifference(sa, run.state);
        if (differs) run.result = fail(differs);
      });
    }
  }
  const done: Comparison = { firstDifference: -1, what: '', totalCollisions, totalStarts, steps };
  return runs.map((run) => () => {
    if (run.thrown) throw run.thrown.error;
    return run.result ?? done;
  });
}

/**
 * One {@link compareRunsEach} for a group of tests that each check one setup of the same scene: run
 * by whichever test of the group comes first, its results kept for the others (`result(i)`: setup
 * i's comparison, or what it threw, thrown).
 */
export function sharedRuns(run: () => (() => Comparison)[]): (i: number) => Comparison {
  let results: (() => Comparison)[] | undefined;
  return (i) => {
    results ??= run();
    return results[i]();
  };
}
