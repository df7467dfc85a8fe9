/**
 * Levels and a player for the character controller tests: procedural geometry (boxes, zero-thickness
 * walls, ramps, stairs, pillars, terrain) merged into meshes with bounds trees, an enclosed arena with
 * the hard cases of a character collider (thin walls, acute corners, a corridor barely wider than the
 * capsule, low ceilings, steps, slopes of both kinds), and a games_fps-style player that integrates a
 * velocity and moves through a `CharacterController`.
 */
import {
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CylinderGeometry,
  Mesh,
  PlaneGeometry,
  Vector3,
} from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import {
  type CharacterController,
  type CharacterMove,
  computeBoundsTree,
  intersectsCapsule,
} from '../../src/index.js';
import { rng } from '../scenes.js';

export { rng };

/** Position-only, non-indexed copy of `g` (what `merge` concatenates). */
function positionsOf(g: BufferGeometry): Float32Array {
  const flat = g.index ? g.toNonIndexed() : g;
  return flat.attributes.position.array as Float32Array;
}

/** One geometry holding the triangles of all of `parts` (position only). */
export function merge(...parts: BufferGeometry[]): BufferGeometry {
  const arrays = parts.map(positionsOf);
  const out = new Float32Array(arrays.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(out, 3));
  return g;
}

/** A mesh of `g` with a bounds tree. */
export function meshOf(g: BufferGeometry): Mesh {
  const m = new Mesh(g);
  computeBoundsTree.call(g);
  m.updateMatrixWorld();
  return m;
}

/** A box of size `w × h × d` whose bottom centre is at `(x, y, z)`, turned `yaw` about y. */
export function box(
  w: number,
  h: number,
  d: number,
  x: number,
  y: number,
  z: number,
  yaw = 0,
): BufferGeometry {
  return new BoxGeometry(w, h, d)
    .translate(0, h / 2, 0)
    .rotateY(yaw)
    .translate(x, y, z);
}

/** A zero-thickness vertical wall (two triangles) from `(x0, z0)` to `(x1, z1)`, from y = 0 to `h`. */
export function sheet(x0: number, z0: number, x1: number, z1: number, h: number): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute(
    'position',
    new BufferAttribute(
      new Float32Array([x0, 0, z0, x1, 0, z1, x1, h, z1, x0, 0, z0, x1, h, z1, x0, h, z0]),
      3,
    ),
  );
  return g;
}

/**
 * A ramp rising at `angle` (radians) along +x from `(x, 0, z)`: a slab of the given length (along the
 * slope) and width, its top surface starting at floor level.
 */
export function ramp(angle: number, length: number, width: number, x: number, z: number): BufferGeometry {
  return new BoxGeometry(length, 0.2, width)
    .translate(length / 2, -0.1, 0)
    .rotateZ(angle)
    .translate(x, 0, z);
}

/**
 * `count` steps of `rise × run`, `width` wide, climbing along −x from `x` at `z`, then a landing at the
 * top running to `xEnd`.
 */
export function stairs(
  count: number,
  rise: number,
  run: number,
  width: number,
  x: number,
  z: number,
  xEnd: number,
): BufferGeometry {
  const parts: BufferGeometry[] = [];
  for (let i = 0; i < count; i++) parts.push(box(run, rise * (i + 1), width, x - run * (i + 0.5), 0, z));
  const top = x - run * count;
  parts.push(box(top - xEnd, rise * count, width, (top + xEnd) / 2, 0, z));
  return merge(...parts);
}

/** The player's capsule of the tests (three.js's FPS example: radius 0.35, segment 0.65 long). */
export function playerCapsule(x = 0, z = 0, y = 0): Capsule {
  return new Capsule(new Vector3(x, y + 0.35, z), new Vector3(x, y + 1, z), 0.35);
}

/** Inner bounds of {@link arena}'s enclosure. */
export const ARENA = { half: 10, height: 4 };

/**
 * An enclosed 20 × 20 arena (thin outer walls and a roof at y = 4) with the hard cases, as three meshes:
 * the static level, a bumpy terrain patch under a rotated and scaled world matrix, and a few
 * zero-thickness walls placed at random by `seed`. The middle (|x|, |z| < 1.5) is free floor.
 */
export function arena(seed: number): Mesh[] {
  const r = rng(seed);
  const H = ARENA.height;
  const parts: BufferGeometry[] = [
    box(24, 1, 24, 0, -1, 0), // floor, top at y = 0
    box(24, 1, 24, 0, H, 0), // roof
    box(0.05, H, 20, -10.025, 0, 0),
    box(0.05, H, 20, 10.025, 0, 0),
    box(20, H, 0.05, 0, 0, -10.025),
    box(20, H, 0.05, 0, 0, 10.025),
    // Acute corners of zero-thickness walls: 25° and 10°.
    sheet(3, 3, 7, 3, 2.5),
    sheet(3, 3, 3 + 4 * Math.cos(0.44), 3 + 4 * Math.sin(0.44), 2.5),
    sheet(-3, 8, -7, 8, 2.5),
    sheet(-3, 8, -3 - 4 * Math.cos(0.17), 8 - 4 * Math.sin(0.17), 2.5),
    // A corridor 0.79 wide (the grown capsule is 0.727 across) between thin boxes.
    box(5, 2, 0.02, -6, 0, -2.4),
    box(5, 2, 0.02, -6, 0, -1.59),
    // Low ceilings, open along x: 1.45 (the capsule is 1.35 tall: passable) and 1.2 (not).
    box(3, 0.1, 3, 6, 1.45, -6),
    box(3, 1.45, 0.2, 6, 0, -7.6),
    box(3, 1.45, 0.2, 6, 0, -4.4),
    box(3, 0.1, 2, 6, 1.2, -2.5),
    box(3, 1.2, 0.2, 6, 0, -3.6),
    box(3, 1.2, 0.2, 6, 0, -1.4),
    // Stairs (5 × 0.2 rise, up along −x to a landing at the wall), a step too high (0.5), ramps of 30°
    // and 60° rising along +x.
    stairs(5, 0.2, 0.4, 2, -5.5, 4, -10),
    box(1, 0.5, 2, -4, 0, 7.5),
    ramp(Math.PI / 6, 4, 2, 1.5, -8.5),
    ramp(Math.PI / 3, 3, 2, -2, -8.5),
    // Pillars, a thin post, crates.
    new CylinderGeometry(0.3, 0.3, H, 12).translate(2, H / 2, 6),
    new CylinderGeometry(0.03, 0.03, H, 6).translate(-1.8, H / 2, 2.2),
  ];
  for (let i = 0; i < 8; i++) {
    const w = 0.3 + 1.2 * r();
    const h = 0.1 + 1.5 * r();
    const x = (r() < 0.5 ? -1 : 1) * (2 + 6 * r());
    const z = (r() < 0.5 ? -1 : 1) * (2 + 6 * r());
    parts.push(box(w, h, 0.3 + 1.2 * r(), x, 0, z, r() * Math.PI));
  }
  const level = meshOf(merge(...parts));
  // A bumpy patch, placed by a rotated, scaled world matrix.
  const patch = new PlaneGeometry(2, 2, 12, 12).rotateX(-Math.PI / 2);
  const p = patch.attributes.position;
  for (let i = 0; i < p.count; i++)
    p.setY(i, 0.15 * Math.sin(5 * p.getX(i)) * Math.cos(4 * p.getZ(i)) - 0.05);
  const terrain = new Mesh(patch);
  computeBoundsTree.call(patch);
  terrain.position.set(6, 0, 6);
  terrain.rotation.y = 0.7;
  terrain.scale.set(1.5, 1, 1.2);
  terrain.updateMatrixWorld();
  // Zero-thickness walls at random.
  const sheets: BufferGeometry[] = [];
  for (let i = 0; i < 6; i++) {
    const x = (r() - 0.5) * 16;
    const z = (r() - 0.5) * 16;
    if (Math.abs(x) < 2.5 && Math.abs(z) < 2.5) continue;
    const a = r() * Math.PI;
    const l = 0.5 + 2 * r();
    sheets.push(sheet(x, z, x + l * Math.cos(a), z + l * Math.sin(a), 0.3 + 2 * r()));
  }
  return [level, terrain, meshOf(merge(...sheets))];
}

/** Where a capsule is wrong: touching a level mesh (with `radius`), or outside the arena. */
export function violation(capsule: Capsule, meshes: Mesh[], radius = capsule.radius): string | null {
  const probe = new Capsule(capsule.start, capsule.end, radius);
  for (let i = 0; i < meshes.length; i++) {
    if (intersectsCapsule(meshes[i], probe)) return `touches mesh ${i}`;
  }
  const r = capsule.radius;
  const { half, height } = ARENA;
  for (const p of [capsule.start, capsule.end]) {
    if (Math.abs(p.x) > half - r || Math.abs(p.z) > half - r || p.y < r || p.y > height - r) {
      return `outside the arena at ${p.x}, ${p.y}, ${p.z}`;
    }
  }
  return null;
}

/** Gravity of three.js's FPS example. */
export const GRAVITY = 30;

/** A games_fps-style player: a velocity integrated per frame and moved through the controller. */
export class Walker {
  readonly velocity = new Vector3();
  readonly wish = new Vector3();
  private readonly displacement = new Vector3();
  jump = false;

  constructor(readonly character: CharacterController) {}

  /** One frame of `dt` seconds: accelerate towards `wish` (m/s, level), gravity, jump, move. */
  frame(dt: number): CharacterMove {
    const v = this.velocity;
    const grounded = this.character.grounded;
    const accel = grounded ? 10 : 2;
    const k = Math.min(1, accel * dt);
    v.x += (this.wish.x - v.x) * k;
    v.z += (this.wish.z - v.z) * k;
    if (grounded && this.jump) v.y = 8;
    else if (!grounded) v.y -= GRAVITY * dt;
    else v.y = Math.min(v.y, 0) - GRAVITY * dt;
    this.displacement.copy(v).multiplyScalar(dt);
    const result = this.character.move(this.displacement);
    result.clipVelocity(v);
    return result;
  }
}
