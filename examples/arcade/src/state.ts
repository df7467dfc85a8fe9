/**
 * What the view and the HUD read of a game ({@link GameState}, which {@link Game} itself satisfies), and
 * its hand-off between threads: in the parallel mode the game runs in a Web Worker (physics.worker.ts)
 * and, after each batch of steps, {@link writeSnapshot} packs what the view draws into one Float64Array
 * (transferred, not copied) that {@link RemoteGame} unpacks on the page's main thread into the same
 * shape. Along with it come the detector's timings and each parallel-broadphase worker's time.
 */
import type { Game } from './game.js';

/** A 2-D point. */
export interface Point {
  x: number;
  y: number;
}

/** The part of a game that the view and the HUD read. */
export interface GameState {
  readonly steps: number;
  readonly score: number;
  readonly lives: number;
  readonly wave: number;
  readonly state: 'playing' | 'gameover';
  readonly shipAlive: boolean;
  readonly invulnerable: number;
  readonly thrusting: boolean;
  readonly shotsFired: number;
  readonly bodyCount: number;
  /** Pieces of the static level's rubble (0: off); where they lie is `rubbleLayout()`. */
  readonly rubbleCount: number;
  readonly ship: { readonly position: Point; readonly angle: number; readonly velocity: Point };
  readonly asteroids: ReadonlyMap<
    number,
    {
      readonly body: { readonly position: Point; readonly angle: number };
      size: 1 | 2 | 3;
      outline: number[];
    }
  >;
  readonly bullets: ReadonlyMap<number, { readonly body: { readonly position: Point } }>;
  readonly sparks: readonly Point[];
  readonly debris: readonly { readonly position: Point; readonly bounds: { min: Point; max: Point } }[];
}

/** Timings (ms, summed over the batch; NaN = not measured) and counts of the last batch of steps. */
export interface StepReport {
  /** 'sieve' or 'stock'. */
  mode: 'sieve' | 'stock';
  /** In Sieve mode, how the last step was answered (`SieveStats.path`). */
  path: 'sweep' | 'broadphase';
  /** Steps in the batch. */
  steps: number;
  physicsMs: number;
  collisionMs: number;
  broadphaseMs: number;
  narrowphaseMs: number;
  candidates: number;
  collisions: number;
  /** Contact pairs of the engine after the batch. */
  pairs: number;
  /** Of those, active pairs of two debris bodies. */
  debrisPairs: number;
  /** Milliseconds of each parallel-broadphase worker (region) in the batch's updates, summed. */
  regionMs: Float64Array;
}

// Header words of a snapshot.
const H_STEPS = 0;
const H_SCORE = 1;
const H_LIVES = 2;
const H_WAVE = 3;
const H_GAMEOVER = 4;
const H_SHIP_ALIVE = 5;
const H_INVULNERABLE = 6;
const H_THRUSTING = 7;
const H_SHOTS = 8;
const H_BODIES = 9;
const H_SHIP = 10; // x, y, angle, vx, vy
const H_MODE = 15;
const H_BATCH = 16;
const H_PHYSICS = 17;
const H_COLLISION = 18;
const H_BROAD = 19;
const H_NARROW = 20;
const H_CANDIDATES = 21;
const H_COLLISIONS = 22;
const H_PAIRS = 23;
const H_DEBRIS_PAIRS = 24;
const H_REGIONS = 25;
const H_ASTEROIDS = 26;
const H_BULLETS = 27;
const H_SPARKS = 28;
const H_DEBRIS = 29;
const H_PATH = 30;
const H_RUBBLE = 31;
const HEADER = 32;

/** Numbers a snapshot of `game` takes, with `regions` region times. */
export function snapshotLength(game: Game, regions: number): number {
  let n = HEADER + regions + 3 * game.bullets.size + 2 * game.sparks.length + 3 * game.debris.length;
  for (const a of game.asteroids.values()) n += 6 + a.outline.length;
  return n;
}

/** Packs `game` and `report` into `out` (at least {@link snapshotLength} numbers). */
export function writeSnapshot(game: Game, report: StepReport, out: Float64Array): void {
  const ship = game.ship;
  out[H_STEPS] = game.steps;
  out[H_SCORE] = game.score;
  out[H_LIVES] = game.lives;
  out[H_WAVE] = game.wave;
  out[H_GAMEOVER] = game.state === 'gameover' ? 1 : 0;
  out[H_SHIP_ALIVE] = game.shipAlive ? 1 : 0;
  out[H_INVULNERABLE] = game.invulnerable;
  out[H_THRUSTING] = game.thrusting ? 1 : 0;
  out[H_SHOTS] = game.shotsFired;
  out[H_BODIES] = game.bodyCount;
  out[H_SHIP] = ship.position.x;
  out[H_SHIP + 1] = ship.position.y;
  out[H_SHIP + 2] = ship.angle;
  out[H_SHIP + 3] = ship.velocity.x;
  out[H_SHIP + 4] = ship.velocity.y;
  out[H_MODE] = report.mode === 'sieve' ? 1 : 0;
  out[H_BATCH] = report.steps;
  out[H_PHYSICS] = report.physicsMs;
  out[H_COLLISION] = report.collisionMs;
  out[H_BROAD] = report.broadphaseMs;
  out[H_NARROW] = report.narrowphaseMs;
  out[H_CANDIDATES] = report.candidates;
  out[H_COLLISIONS] = report.collisions;
  out[H_PAIRS] = report.pairs;
  out[H_DEBRIS_PAIRS] = report.debrisPairs;
  out[H_REGIONS] = report.regionMs.length;
  out[H_ASTEROIDS] = game.asteroids.size;
  out[H_BULLETS] = game.bullets.size;
  out[H_SPARKS] = game.sparks.length;
  out[H_DEBRIS] = game.debris.length;
  out[H_PATH] = report.path === 'broadphase' ? 1 : 0;
  out[H_RUBBLE] = game.rubbleCount;
  let o = HEADER;
  out.set(report.regionMs, o);
  o += report.regionMs.length;
  for (const [id, a] of game.asteroids) {
    out[o++] = id;
    out[o++] = a.size;
    out[o++] = a.body.position.x;
    out[o++] = a.body.position.y;
    out[o++] = a.body.angle;
    out[o++] = a.outline.length;
    for (let i = 0; i < a.outline.length; i++) out[o++] = a.outline[i];
  }
  for (const [id, b] of game.bullets) {
    out[o++] = id;
    out[o++] = b.body.position.x;
    out[o++] = b.body.position.y;
  }
  for (const s of game.sparks) {
    out[o++] = s.x;
    out[o++] = s.y;
  }
  for (const d of game.debris) {
    out[o++] = d.position.x;
    out[o++] = d.position.y;
    out[o++] = (d.bounds.max.x - d.bounds.min.x) / 2;
  }
}

interface RemoteBody {
  position: Point;
  angle: number;
}

interface RemoteAsteroid {
  body: RemoteBody;
  size: 1 | 2 | 3;
  outline: number[];
  seen: number;
}

interface RemoteDebris {
  position: Point;
  bounds: { min: Point; max: Point };
}

/** A game's state as the last snapshot from the physics worker gave it (see the module comment). */
export class RemoteGame implements GameState {
  steps = 0;
  score = 0;
  lives = 3;
  wave = 0;
  state: 'playing' | 'gameover' = 'playing';
  shipAlive = true;
  invulnerable = 0;
  thrusting = false;
  shotsFired = 0;
  bodyCount = 0;
  rubbleCount = 0;
  readonly ship = { position: { x: 0, y: 0 }, angle: 0, velocity: { x: 0, y: 0 } };
  readonly asteroids = new Map<number, RemoteAsteroid>();
  readonly bullets = new Map<number, { body: RemoteBody; seen: number }>();
  readonly sparks: Point[] = [];
  readonly debris: RemoteDebris[] = [];
  /** The report that came with the last snapshot. */
  readonly report: StepReport = {
    mode: 'sieve',
    path: 'broadphase',
    steps: 0,
    physicsMs: Number.NaN,
    collisionMs: Number.NaN,
    broadphaseMs: Number.NaN,
    narrowphaseMs: Number.NaN,
    candidates: Number.NaN,
    collisions: 0,
    pairs: 0,
    debrisPairs: 0,
    regionMs: new Float64Array(0),
  };
  private stamp = 0;

  /** Takes over the state packed by {@link writeSnapshot}. */
  apply(s: Float64Array): void {
    const stamp = ++this.stamp;
    this.steps = s[H_STEPS];
    this.score = s[H_SCORE];
    this.lives = s[H_LIVES];
    this.wave = s[H_WAVE];
    this.state = s[H_GAMEOVER] === 1 ? 'gameover' : 'playing';
    this.shipAlive = s[H_SHIP_ALIVE] === 1;
    this.invulnerable = s[H_INVULNERABLE];
    this.thrusting = s[H_THRUSTING] === 1;
    this.shotsFired = s[H_SHOTS];
    this.bodyCount = s[H_BODIES];
    this.rubbleCount = s[H_RUBBLE];
    const ship = this.ship;
    ship.position.x = s[H_SHIP];
    ship.position.y = s[H_SHIP + 1];
    ship.angle = s[H_SHIP + 2];
    ship.velocity.x = s[H_SHIP + 3];
    ship.velocity.y = s[H_SHIP + 4];
    const r = this.report;
    r.mode = s[H_MODE] === 1 ? 'sieve' : 'stock';
    r.path = s[H_PATH] === 1 ? 'broadphase' : 'sweep';
    r.steps = s[H_BATCH];
    r.physicsMs = s[H_PHYSICS];
    r.collisionMs = s[H_COLLISION];
    r.broadphaseMs = s[H_BROAD];
    r.narrowphaseMs = s[H_NARROW];
    r.candidates = s[H_CANDIDATES];
    r.collisions = s[H_COLLISIONS];
    r.pairs = s[H_PAIRS];
    r.debrisPairs = s[H_DEBRIS_PAIRS];
    const regions = s[H_REGIONS];
    if (r.regionMs.length !== regions) r.regionMs = new Float64Array(regions);
    let o = HEADER;
    r.regionMs.set(s.subarray(o, o + regions));
    o += regions;

    for (let i = 0, n = s[H_ASTEROIDS]; i < n; i++) {
      const id = s[o];
      const length = s[o + 5];
      let a = this.asteroids.get(id);
      if (!a) {
        a = {
          body: { position: { x: 0, y: 0 }, angle: 0 },
          size: s[o + 1] as 1 | 2 | 3,
          outline: Array.from(s.subarray(o + 6, o + 6 + length)),
          seen: 0,
        };
        this.asteroids.set(id, a);
      }
      a.seen = stamp;
      a.body.position.x = s[o + 2];
      a.body.position.y = s[o + 3];
      a.body.angle = s[o + 4];
      o += 6 + length;
    }
    if (this.asteroids.size !== s[H_ASTEROIDS]) {
      for (const [id, a] of this.asteroids) if (a.seen !== stamp) this.asteroids.delete(id);
    }
    for (let i = 0, n = s[H_BULLETS]; i < n; i++, o += 3) {
      const id = s[o];
      let b = this.bullets.get(id);
      if (!b) {
        b = { body: { position: { x: 0, y: 0 }, angle: 0 }, seen: 0 };
        this.bullets.set(id, b);
      }
      b.seen = stamp;
      b.body.position.x = s[o + 1];
      b.body.position.y = s[o + 2];
    }
    if (this.bullets.size !== s[H_BULLETS]) {
      for (const [id, b] of this.bullets) if (b.seen !== stamp) this.bullets.delete(id);
    }
    const sparks = this.sparks;
    const ns = s[H_SPARKS];
    while (sparks.length < ns) sparks.push({ x: 0, y: 0 });
    sparks.length = ns;
    for (let i = 0; i < ns; i++, o += 2) {
      sparks[i].x = s[o];
      sparks[i].y = s[o + 1];
    }
    const debris = this.debris;
    const nd = s[H_DEBRIS];
    while (debris.length < nd)
      debris.push({ position: { x: 0, y: 0 }, bounds: { min: { x: 0, y: 0 }, max: { x: 0, y: 0 } } });
    debris.length = nd;
    for (let i = 0; i < nd; i++, o += 3) {
      const d = debris[i];
      d.position.x = s[o];
      d.position.y = s[o + 1];
      d.bounds.min.x = s[o] - s[o + 2];
      d.bounds.max.x = s[o] + s[o + 2];
    }
  }
}
