/**
 * Scripted walks through the level, for the tests (in Node on `Game`, in the browser through the page's
 * test hook): into each wall, diagonally into corners, off ledges, through the corridor and the tunnel,
 * up the stairs, at a thin partition at runner speed, riding the elevator, jumping into a ceiling. Each
 * is a start (feet position and yaw), a held input and a duration; `check` says what the walk must
 * achieve besides never ending a step inside the level or outside the yard.
 */
import type { Game, PlayerInput } from './game.js';
import { HALF, LEDGE_X, WALKWAY } from './level.js';

/** The player's radius plus the controller's skin (1% of its 1.35 m height). */
export const REACH = 0.35 + 0.0135;

export interface Walk {
  name: string;
  /** Feet position. */
  from: [number, number, number];
  /** Yaw (0 looks along −z, π/2 along −x). */
  yaw: number;
  input: PlayerInput;
  seconds: number;
  /** Where the capsule's top point must end (a coordinate and how close), if anywhere in particular. */
  check?: { axis: 'x' | 'y' | 'z'; min?: number; max?: number };
}

const face = (dx: number, dz: number) => Math.atan2(-dx, -dz);
const run: PlayerInput = { forward: 1, right: 0, jump: false };

export const WALKS: Walk[] = [
  // The four sides: three outer walls and the walkway's face. Stopped one reach from each.
  {
    name: 'north wall',
    from: [3, 0, -16],
    yaw: 0,
    input: run,
    seconds: 3,
    check: { axis: 'z', min: -HALF + REACH - 1e-3, max: -HALF + REACH + 0.01 },
  },
  {
    name: 'south wall',
    from: [5, 0, 16],
    yaw: Math.PI,
    input: run,
    seconds: 3,
    check: { axis: 'z', min: HALF - REACH - 0.01, max: HALF - REACH + 1e-3 },
  },
  {
    name: 'east wall',
    from: [16, 0, 0],
    yaw: -Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'x', min: HALF - REACH - 0.01, max: HALF - REACH + 1e-3 },
  },
  {
    name: 'walkway face',
    from: [-8, 0, 2],
    yaw: Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'x', min: LEDGE_X + REACH - 1e-3, max: LEDGE_X + REACH + 0.01 },
  },
  // Diagonally into corners: the yard's north-east one (over the bumps), the partitions' 30° and 15° ones.
  {
    name: 'north-east corner',
    from: [15, 0, -15],
    yaw: 0,
    input: { forward: 1, right: 1, jump: false },
    seconds: 3,
    check: { axis: 'x', min: HALF - REACH - 0.05 },
  },
  {
    name: '30° corner',
    from: [8, 0, 3.2],
    yaw: face(-4, -1),
    input: run,
    seconds: 3,
    check: { axis: 'x', max: 6.5 },
  },
  // (Wedged where the corner is as wide as the capsule: a reach over sin(7.5°), 2.8 m from the apex.)
  {
    name: '15° corner',
    from: [-8.5, 0, -4.6],
    yaw: face(4.5, 0.6),
    input: { forward: 1, right: -0.3, jump: false },
    seconds: 3,
    check: { axis: 'x', min: -7 },
  },
  // Off ledges: the walkway's (3 m) and the plateau's (2 m); landing on the floor.
  {
    name: 'off the walkway',
    from: [-15, WALKWAY, 0],
    yaw: -Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'y', max: 1.05 },
  },
  {
    name: 'off the plateau',
    from: [11, 2, 11],
    yaw: -Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'y', max: 1.05 },
  },
  // Through the 0.85 m corridor and the 1.6 m tunnel; up the stairs to the walkway.
  {
    name: 'corridor',
    from: [8, 0, -4],
    yaw: -Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'x', min: 16.5 },
  },
  {
    name: 'tunnel',
    from: [-2, 0, -12],
    yaw: -Math.PI / 2,
    input: run,
    seconds: 3,
    check: { axis: 'x', min: 6.5 },
  },
  {
    name: 'stairs',
    from: [-5, 0, 11.5],
    yaw: Math.PI / 2,
    input: run,
    seconds: 4,
    check: { axis: 'y', min: WALKWAY + 0.9 },
  },
  // A thin partition (the sheet at z = 2), walked into from both sides: never crossed.
  {
    name: 'thin partition, north',
    from: [8, 0, 3.2],
    yaw: 0,
    input: run,
    seconds: 3,
    check: { axis: 'z', min: 2 + REACH - 1e-3, max: 2 + REACH + 0.01 },
  },
  {
    name: 'thin partition, south',
    from: [8, 0, 0],
    yaw: Math.PI,
    input: run,
    seconds: 3,
    check: { axis: 'z', min: 2 - REACH - 0.01, max: 2 - REACH + 1e-3 },
  },
  // Jumping under the tunnel's roof.
  {
    name: 'tunnel jump',
    from: [3, 0, -12],
    yaw: 0,
    input: { forward: 0, right: 0, jump: true },
    seconds: 2,
    check: { axis: 'y', max: 1.6 - 0.35 + 1e-6 },
  },
];

/** What a walk did: steps ending inside the level or outside the yard, and where it ended. */
export interface WalkReport {
  steps: number;
  inside: number;
  outside: number;
  /** The capsule's top point at the end. */
  end: [number, number, number];
  grounded: boolean;
  /** The first step that ended inside or outside, if any. */
  firstBad: number;
}

/** Steps `game` `n` times at `dt` with `input` held, counting the steps that end inside or outside. */
export function stepChecked(game: Game, dt: number, n: number, input: PlayerInput): WalkReport {
  Object.assign(game.input, input);
  let inside = 0;
  let outside = 0;
  let firstBad = -1;
  for (let i = 0; i < n; i++) {
    game.step(dt);
    const a = game.playerInside();
    const b = game.playerOutside();
    if (a) inside++;
    if (b) outside++;
    if ((a || b) && firstBad < 0) firstBad = i;
  }
  game.input.forward = game.input.right = 0;
  game.input.jump = false;
  const e = game.player.end;
  return { steps: n, inside, outside, end: [e.x, e.y, e.z], grounded: game.character.grounded, firstBad };
}

/** Runs `walk` on `game` at `fps`. */
export function runWalk(game: Game, walk: Walk, fps: number): WalkReport {
  game.teleport(walk.from[0], walk.from[1], walk.from[2], walk.yaw);
  game.pitch = 0;
  return stepChecked(game, 1 / fps, Math.round(walk.seconds * fps), walk.input);
}
