/**
 * The character controller never ends a move inside the level, over thousands of random moves at frame
 * times from 1/144 s to 1/5 s: a player wanders an enclosed arena of thin walls, acute corners, a
 * corridor barely wider than it, low ceilings, stairs, slopes, crates, posts and a bumpy patch under a
 * rotated, scaled world matrix — heading for those features, jumping, and now and then thrown at
 * hundreds of metres per second — and after every move its capsule is checked with the exact
 * capsule–mesh test against every mesh (at its own radius, and at the radius plus half the skin) and
 * against the arena's bounds. The same inputs give the same positions, bit for bit.
 */
import type { Mesh } from 'three';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { CharacterController } from '../src/index.js';
import { arena, playerCapsule, rng, violation, Walker } from './support/characterScenes.js';

/** Points the wanderer heads for: corners, the corridor, the low ceilings, stairs, ramps, posts. */
const FEATURES = [
  [5, 3.5], // the 25° corner
  [-5, 7.8], // the 10° corner
  [-6, -2], // the corridor
  [-9, -2],
  [6, -6], // under the 1.45 ceiling
  [6, -2.5], // the 1.2 one
  [-7, 4], // the stairs
  [-9, 4],
  [-4, 7.5], // the high step
  [3, -8.5], // the 30° ramp
  [-1, -8.5], // the 60° one
  [-1.8, 2.2], // the thin post
  [6, 6], // the bumpy patch
  [9.9, 9.9], // the arena's corners
  [-9.9, -9.9],
];

interface Stats {
  moves: number;
  worst: string | null;
  stepped: number;
  grounded: number;
  pushed: number;
  positions: number[];
}

/** Runs `frames` random moves in `meshes` from `seed`; `dt` fixed, or random in [1/144, 1/5] when omitted. */
function wander(meshes: Mesh[], seed: number, frames: number, dt?: number): Stats {
  const r = rng(seed);
  const capsule = playerCapsule(0, 0, 0.01);
  const character = new CharacterController(capsule, meshes, { maxStepHeight: 0.3 });
  const walker = new Walker(character);
  const stats: Stats = { moves: 0, worst: null, stepped: 0, grounded: 0, pushed: 0, positions: [] };
  const skin = 0.01 * 1.35;
  for (let f = 0; f < frames; f++) {
    const h = dt ?? Math.exp(Math.log(1 / 144) + r() * Math.log(144 / 5));
    if (r() < 0.04) {
      let dx: number;
      let dz: number;
      if (r() < 0.6) {
        const t = FEATURES[Math.floor(r() * FEATURES.length)];
        dx = t[0] - capsule.start.x;
        dz = t[1] - capsule.start.z;
      } else {
        const a = r() * 2 * Math.PI;
        dx = Math.cos(a);
        dz = Math.sin(a);
      }
      const l = Math.hypot(dx, dz) || 1;
      const speed = 1 + 11 * r();
      walker.wish.set((speed * dx) / l, 0, (speed * dz) / l);
    }
    walker.jump = r() < 0.02;
    if (r() < 0.004) walker.velocity.set((r() - 0.5) * 2000, (r() - 0.5) * 400, (r() - 0.5) * 2000);
    const result = walker.frame(h);
    stats.moves++;
    if (result.stepped) stats.stepped++;
    if (result.grounded) stats.grounded++;
    if (result.pushedOut) stats.pushed++;
    const bad = violation(capsule, meshes) ?? violation(capsule, meshes, capsule.radius + skin / 2);
    if (bad && !stats.worst) stats.worst = `move ${f} (dt ${h}): ${bad}`;
    stats.positions.push(capsule.start.x, capsule.start.y, capsule.start.z);
  }
  return stats;
}

/** A count as the tests' names write it: `6 000`. */
const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

describe('CharacterController: never inside the level', () => {
  // Moves per seed (three arenas with random frame times, one at each fixed rate).
  for (const [label, dt, frames] of [
    ['random frame times in [1/144, 1/5] s', undefined, depth(700, 2000)],
    ['5 fps', 1 / 5, depth(600, 2500)],
    ['144 fps', 1 / 144, depth(1200, 2500)],
  ] as const) {
    const seeds = dt === undefined ? [1, 2, 3] : [4];
    it(`${label}: ${count(seeds.length * frames)} random moves in the arena end outside every mesh, inside the bounds`, () => {
      let moves = 0;
      let stepped = 0;
      let grounded = 0;
      for (const seed of seeds) {
        const meshes = arena(seed);
        const stats = wander(meshes, 1000 + seed, frames, dt);
        expect(stats.worst, `seed ${seed}`).toBeNull();
        moves += stats.moves;
        stepped += stats.stepped;
        grounded += stats.grounded;
        // The wanderer got around: not stuck in one spot.
        const xs = stats.positions.filter((_, i) => i % 3 === 0);
        expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(8);
      }
      expect(moves).toBeGreaterThanOrEqual(depth(600, 2500));
      expect(stepped).toBeGreaterThan(0);
      expect(grounded).toBeGreaterThan(moves / 3);
    }, 120_000);
  }

  it('is deterministic: the same inputs give the same positions, bit for bit', () => {
    const a = wander(arena(7), 77, depth(500, 1500));
    const b = wander(arena(7), 77, depth(500, 1500));
    expect(a.worst).toBeNull();
    expect(new Float64Array(b.positions)).toEqual(new Float64Array(a.positions));
    let hash = 0;
    for (const v of a.positions) hash = (Math.imul(hash, 31) + Math.round(v * 1e6)) | 0;
    expect(hash).not.toBe(0);
  });
});
