/**
 * Heap-growth probe for `SieveBroadphase.collisionPairs`, run in a child process of its own
 * (`node --expose-gc --import tsx broadphaseHeapProbe.ts [sweep|tree] [allocate]`; `tree`: on a passed `SweepAndPrune`), so no test-runner
 * traffic shares the heap. A 3-D volume of 1 500 spheres and boxes (the sweep runs in strips) whose
 * positions drift every frame (the order is repaired, pairs begin and end), a few falling asleep or
 * waking, and two bodies of `world.bodies` swapped by hand every frame (the sweep follows bodies whose
 * index changed). The pairs go to sinks that only count them, so cannon's arrays are not measured.
 * Prints the heap growth of each 200-frame window (after a full GC) as JSON.
 */
import { SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { SieveBroadphase } from '../../src/index.js';
import { rng } from '../worlds.js';

const path = process.argv[2] ?? 'sweep';
const allocate = process.argv[3] === 'allocate';
const world = new CANNON.World();
const r = rng(9);
const n = 1500;
const side = 48;
for (let i = 0; i < n; i++) {
  const shape = i % 2 ? new CANNON.Sphere(0.5 + r()) : new CANNON.Box(new CANNON.Vec3(0.6, 0.4, 0.8));
  const body = new CANNON.Body({ mass: i % 5 === 0 ? 0 : 1, shape });
  body.position.set(r() * side, r() * side, r() * side);
  world.addBody(body);
}
const bp = new SieveBroadphase(path === 'tree' ? { sieve: new SweepAndPrune({ dimensions: 3 }) } : {});
bp.setWorld(world);
let pairs = 0;
let most = 0;
const sink = {
  push() {
    pairs++;
    return 0;
  },
} as unknown as CANNON.Body[];
const none = { push: () => 0 } as unknown as CANNON.Body[];
const base = world.bodies.map((b) => [b.position.x, b.position.y, b.position.z]);
let frameIndex = 0;
export let kept: unknown = null;
const frame = () => {
  const t = frameIndex++ * 0.05;
  const bodies = world.bodies;
  for (let i = 0; i < n; i++) {
    const b = bodies[i];
    const o = base[b.id];
    b.position.x = o[0] + 1.5 * Math.sin(t + i);
    b.position.z = o[2] + 1.5 * Math.cos(t + 0.5 * i);
  }
  const k = (frameIndex * 31) % n;
  const asleep = bodies[k];
  asleep.sleepState = asleep.sleepState === CANNON.Body.SLEEPING ? CANNON.Body.AWAKE : CANNON.Body.SLEEPING;
  // Two bodies swapped by hand (their `index` stale until renumbered, as a hand-edited list).
  const a = (frameIndex * 17) % n;
  const c = (frameIndex * 53) % n;
  const swap = bodies[a];
  bodies[a] = bodies[c];
  bodies[c] = swap;
  bodies[a].index = a;
  bodies[c].index = c;
  pairs = 0;
  bp.collisionPairs(world, sink, none);
  if (pairs > most) most = pairs;
  if (allocate) kept = [frameIndex];
};
for (let f = 0; f < 300; f++) frame(); // warm-up: the JIT's tiers, every buffer at its size
const growth = heapWindows(frame, {
  frames: 200,
  windows: allocate ? 4 : 12,
  quietBelow: allocate ? undefined : 1024,
});
// How many strips the sweep ran in (the probe reads the private sweep: 0 on the tree path).
const sweep = (bp as unknown as { axisSweep: { strips: number } | null }).axisSweep;
console.log(JSON.stringify({ growth, pairs: most, bodies: bp.bodyCount, strips: sweep?.strips ?? 0 }));
