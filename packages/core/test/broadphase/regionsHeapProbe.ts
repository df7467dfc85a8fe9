/**
 * Heap-growth probe of ParallelSweepAndPrune with two regions — one on a worker, one on the calling
 * thread — run in a child process of its own (`node --expose-gc --import tsx regionsHeapProbe.ts
 * [control]`). The calling thread's region gets a fifth of the boxes, so it waits at the frame's
 * barriers for the worker (spinning, then sleeping) every frame. Boxes bounce in a cube, written into
 * `bounds` then `markAllMoved()` (`moveMany`: 4 500 of them, moved by one `moveMany`); `control` adds an
 * array of about 4 kB allocated a frame. Measures the calling
 * thread's heap: the host's part and region 0's, barriers included, which are the worker's code too.
 * Warms up, then prints the heap growth of each window of 300 frames (after a full GC) as JSON.
 */
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { ParallelSweepAndPrune } from '../../src/broadphase/parallel/index.js';
import { bouncingBoxes } from '../support/bouncingBoxes.js';
import { workerUrl } from './parallelWorker.js';

const control = process.argv[2] === 'control';
// Fed through moveMany of every box instead (in slot order: one block copy), from 4 096 boxes an
// update that takes every box.
const batch = process.argv[2] === 'moveMany';
const n = batch ? 4500 : 3000;
const d = 3;
const scene = bouncingBoxes(n, d, 11);
const boxes = new Float64Array(n * 2 * d);
const bp = new ParallelSweepAndPrune({
  dimensions: d,
  workers: 2,
  workerUrl: workerUrl(),
  minBoxesPerRegion: 16,
});
await bp.ready();
// The spin of shared cores, whatever this machine has.
bp.barrierSpinUs = 20;
const handles = new Int32Array(n);
for (let i = 0; i < n; i++) {
  scene.write(i, boxes, i * 2 * d);
  handles[i] = bp.insert(boxes.subarray(i * 2 * d, (i + 1) * 2 * d), i);
}
bp.update();
// Region 0 (the calling thread's) a fifth of the boxes, from the next layout on: the cuts as the
// broadphase moves them for a slow thread, with these weights.
type Frames = { layout: { weights: Float64Array }; adaptPending: boolean; followSpeeds(m: Int32Array): void };
const frames = (bp as unknown as { frames: Frames }).frames;
frames.layout.weights[0] = 0.4;
frames.layout.weights[1] = 1.6;
frames.adaptPending = true;
// Kept so: the threads' measured speeds would move the cuts back.
frames.followSpeeds = () => {};
let checksum = 0;
// Where the control run's arrays escape to (so the JIT cannot remove them).
export let sink: number[] = [];
const frame = () => {
  scene.stepAll(boxes);
  if (batch) bp.moveMany(handles, boxes);
  else {
    // The broadphase's own array: handle i is slot i here (inserted in order, none removed).
    bp.bounds.set(boxes);
    bp.markAllMoved();
  }
  bp.update();
  checksum = (checksum + bp.pairCount + bp.beganCount) | 0;
  // About 4 kB a frame.
  if (control) sink = new Array<number>(500).fill(checksum);
};
for (let f = 0; f < 600; f++) frame();
const members = Array.from(bp.regionMembers());
if (!(members[0] < members[1]))
  throw new Error(`regionsHeapProbe: region 0 holds ${members[0]} boxes, region 1 ${members[1]}`);
// Quiet: under 1 kB a frame (a frame reads the clock a few times, and each read allocates a number).
const growth = heapWindows(frame, {
  frames: 300,
  windows: control ? 4 : 12,
  quietBelow: control ? undefined : 300 * 1024,
});
bp.dispose();
console.log(JSON.stringify({ growth, checksum, members }));
process.exit(0);
