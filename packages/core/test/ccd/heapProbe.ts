/**
 * Heap-growth probe for the continuous-collision calls, run in a child process of its own
 * (`node --expose-gc --import tsx heapProbe.ts [allocate]`): a "frame" makes one call of each kind —
 * sphere–box, box–box (GJK), sphere–mesh and box–mesh (BVH), a 2-D pair, swept bounds — warms up,
 * then prints the heap growth of each window of 500 frames (after a full GC). Initial overlaps are not
 * in it: their contact comes from the validated narrowphase functions, which allocate a little.
 */
import { heapWindows } from '../../../../test/support/heapWindows.js';
import * as core from '../../src/index.js';
import { slabMesh } from './reference.js';

const control = process.argv[2] === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const out = core.createTimeOfImpactResult();
const out2 = core.createTimeOfImpactResult2D();
const dt = 1 / 60;
const sphere: core.CcdShape = { kind: 'sphere', radius: 0.05 };
const box: core.CcdShape = { kind: 'box', halfExtents: [0.05, 2, 2] };
const brick: core.CcdShape = { kind: 'box', halfExtents: [0.1, 0.05, 0.05], orientation: [0, 0, 0.3, 0.95] };
const mesh: core.CcdShape = { kind: 'mesh', bvh: slabMesh([4.95, -2, -2], [5.05, 2, 2]) };
const bullet = core.createMotion();
const wall = core.createMotion();
wall.position.set([5, 0.3, 0]);
const still = core.createMotion();
const circle = { kind: 'circle', radius: 2 } as const;
const rect = { kind: 'box', halfExtents: [2, 100] } as const;
const m2a = core.createMotion2D();
const m2b = core.createMotion2D();
m2a.linearVelocity.set([60, 0]);
m2b.position.set([30, 0]);
const bounds = new Float64Array(6);
const opts = { dt };
const opts2 = { dt: 1 };
let checksum = 0;
export let sink: Float64Array = new Float64Array(0);
const frame = (f: number) => {
  bullet.linearVelocity[0] = 500 + (f % 7);
  bullet.angularVelocity[2] = f % 5;
  core.timeOfImpact(sphere, bullet, box, wall, opts, out);
  checksum += out.iterations;
  core.timeOfImpact(brick, bullet, box, wall, opts, out);
  checksum += out.iterations;
  core.timeOfImpact(sphere, bullet, mesh, still, opts, out);
  checksum += out.iterations;
  core.timeOfImpact(mesh, still, brick, bullet, opts, out);
  checksum += out.iterations;
  core.timeOfImpact2D(circle, m2a, rect, m2b, opts2, out2);
  checksum += out2.iterations;
  core.sweptBounds(brick, bullet, dt, bounds, 0.1);
  checksum += bounds[3] > 0 ? 1 : 0;
  if (control) sink = new Float64Array(64);
};
for (let f = 0; f < 3000; f++) frame(f);
// The control's allocation must show in every window; the measured run stops at its first quiet one.
const growth = heapWindows(frame, {
  frames: 500,
  windows: control ? 4 : 16,
  quietBelow: control ? undefined : 128 * 500,
});
console.log(JSON.stringify({ growth, checksum }));
