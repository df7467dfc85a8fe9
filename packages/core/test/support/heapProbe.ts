/**
 * Heap-growth probe, run in a child process of its own (`node --expose-gc --import tsx heapProbe.ts
 * <Broadphase> [n] [warmup] [allocate] [teleport] [statics] [few] [typescript]`) so that no test-runner traffic shares the heap. Simulates boxes bouncing in
 * a cube, warms up, then prints the heap growth of each window of 500 frames (after a full GC) as JSON.
 */
import { heapWindows } from '../../../../test/support/heapWindows.js';
import * as core from '../../src/index.js';
import { bouncingBoxes } from './bouncingBoxes.js';
import { typescriptPassesOnly } from './sapKernelKnobs.js';

const [name = 'SweepAndPrune', nArg = '1000', warmArg = '3000', ...flags] = process.argv.slice(2);
// The control run allocates a small array each frame, to show the probe sees it.
const allocateEachFrame = flags.includes('allocate');
// Every box jumps anywhere every frame (SweepAndPrune's bulk-rebuild path) instead of bouncing.
const teleport = flags.includes('teleport');
// Every third box static, and two boxes a frame flipping between static and dynamic.
const statics = flags.includes('statics');
// Only every 32nd box moves each frame (SweepAndPrune then looks up each box instead of sweeping).
const few = flags.includes('few');
// SweepAndPrune's passes in TypeScript only (an internal knob: in WebAssembly from 256 boxes by default).
const typescript = flags.includes('typescript');
const jump = new Uint32Array([7]);
const n = Number(nArg);
const d = 3;
const Ctor = (core as unknown as Record<string, new (o: { dimensions: 3 }) => core.Broadphase>)[name];
const gc = (globalThis as { gc?: () => void }).gc;
if (!Ctor || !gc)
  throw new Error(`usage: node --expose-gc --import tsx heapProbe.ts <Broadphase> [n] [warmup]`);

const scene = bouncingBoxes(n, d, 5);
const box = new Float64Array(2 * d);
const bp = new Ctor({ dimensions: d });
if (typescript) typescriptPassesOnly(bp as core.SweepAndPrune);
const handles = new Int32Array(n);
for (let i = 0; i < n; i++) {
  scene.write(i, box, 0);
  handles[i] = statics ? bp.insert(box, i, i % 3 === 0) : bp.insert(box);
}
let frameCount = 0;
bp.update();
let checksum = 0;
// Where the control run's arrays escape to (so the JIT cannot remove them).
export let sink: number[] = [];
const frame = () => {
  for (let i = 0; i < n; i++) {
    if (teleport) {
      for (let j = i * d; j < (i + 1) * d; j++) {
        // The generator's state in a typed array: a module-level number past the small-integer range
        // would be boxed on every store (an allocation of the probe's own).
        jump[0] = Math.imul(jump[0], 1664525) + 1013904223;
        scene.pos[j] = (jump[0] / 4294967296) * 100;
      }
    } else scene.step(i);
    scene.write(i, box, 0);
    if (!few || (i + frameCount) % 32 === 0) bp.move(handles[i], box);
  }
  if (statics) {
    for (let j = 0; j < 2; j++) {
      const h = handles[(frameCount * 7 + j * 13) % n];
      bp.setStatic(h, !bp.isStatic(h));
    }
  }
  frameCount = (frameCount + 1) % n;
  bp.update();
  checksum = (checksum + bp.pairCount) | 0;
  if (allocateEachFrame) sink = [checksum];
};
for (let f = 0; f < Number(warmArg); f++) frame();
// The control's allocation must show in every window; the measured run stops at its first quiet one.
const growth = heapWindows(frame, {
  frames: 500,
  windows: allocateEachFrame ? 4 : 16,
  quietBelow: allocateEachFrame ? undefined : 1024,
});
console.log(JSON.stringify({ growth, checksum }));
