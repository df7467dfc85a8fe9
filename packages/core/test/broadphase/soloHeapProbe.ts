/**
 * Heap-growth probe of ParallelSweepAndPrune with one region on the calling thread, run in a child
 * process of its own (`node --expose-gc --import tsx soloHeapProbe.ts [control]`) so that no test-runner
 * traffic shares the heap. Boxes bounce in a cube (a fifth of them static, two flags flipping a frame),
 * fed each frame one of three ways in turn: written into `bounds` then `markAllMoved()`, written then
 * `markMoved` each, and `moveMany`; `control` adds one small array allocated a frame.
 * Warms up, then prints the heap growth of each window of 500 frames (after a full GC) as JSON.
 */
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { ParallelSweepAndPrune } from '../../src/broadphase/parallel/index.js';
import { bouncingBoxes } from '../support/bouncingBoxes.js';

const control = process.argv[2] === 'control';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('usage: node --expose-gc --import tsx soloHeapProbe.ts [control]');

const n = 1000;
const d = 3;
const scene = bouncingBoxes(n, d, 5);
const boxes = new Float64Array(n * 2 * d);
const bp = new ParallelSweepAndPrune({ dimensions: d, workers: 1 });
if (bp.mode !== 'in-thread') throw new Error('soloHeapProbe: not the one region on the calling thread');
const handles = new Int32Array(n);
for (let i = 0; i < n; i++) {
  scene.write(i, boxes, i * 2 * d);
  handles[i] = bp.insert(boxes.subarray(i * 2 * d, (i + 1) * 2 * d), i, i % 5 === 0);
}
bp.update();
let frameCount = 0;
let checksum = 0;
// Where the control run's arrays escape to (so the JIT cannot remove them).
export let sink: number[] = [];
const frame = () => {
  scene.stepAll(boxes);
  const way = frameCount % 3;
  if (way === 2) bp.moveMany(handles, boxes);
  else {
    // The broadphase's own array: handle i is slot i here (inserted in order, none removed).
    bp.bounds.set(boxes);
    if (way === 1) for (let i = 0; i < n; i++) bp.markMoved(handles[i]);
    else bp.markAllMoved();
  }
  for (let j = 0; j < 2; j++) {
    const h = handles[(frameCount * 7 + j * 13) % n];
    bp.setStatic(h, !bp.isStatic(h));
  }
  frameCount = (frameCount + 1) % n;
  bp.update();
  checksum = (checksum + bp.pairCount + bp.beganCount) | 0;
  if (control) sink = [checksum];
};
for (let f = 0; f < 1500; f++) frame();
// The control's allocation must show in every window; the measured run stops at its first quiet one.
const growth = heapWindows(frame, {
  frames: 500,
  windows: control ? 4 : 16,
  quietBelow: control ? undefined : 1024,
});
console.log(JSON.stringify({ growth, checksum }));
