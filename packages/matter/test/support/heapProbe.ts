/**
 * Heap-growth probe for the Sieve detector, run in a child process of its own
 * (`TSX_TSCONFIG_PATH=<this folder>/tsconfig.json node --expose-gc --import tsx heapProbe.ts [n] [warmup]
 * [allocate]`), so no test-runner traffic shares the heap. A grid of bodies that never touch, every
 * third one static; every frame the bounds of all bodies breathe in and out (so proxies move,
 * broadphase pairs begin and end, the x-order changes) and a few bodies fall asleep or wake (their
 * proxies turn static and back), then `Detector.collisions` runs. Prints the heap growth of each 500-frame
 * window (after a full GC) as JSON.
 */

import { SweepAndPrune } from '@sieve/core';
import Matter from 'matter-js';
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { installSieve } from '../../src/index.js';

const [nArg = '1000', warmArg = '2000', control = '', path = 'broadphase'] = process.argv.slice(2);
const allocateEachFrame = control === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const { Bodies, Composite, Detector, Engine } = Matter;

const n = Number(nArg);
const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
const cols = Math.ceil(Math.sqrt(n));
const bodies: Matter.Body[] = [];
for (let i = 0; i < n; i++) {
  const x = (i % cols) * 10;
  const y = Math.floor(i / cols) * 10;
  const isStatic = i % 3 === 0;
  bodies.push(
    i % 2 === 0 ? Bodies.circle(x, y, 4, { isStatic }) : Bodies.rectangle(x, y, 7, 7, { isStatic }),
  );
}
Composite.add(engine.world, bodies);
// 'broadphase' (a SweepAndPrune, forced) or 'sweep' (the default): which of the detector's two paths runs.
const sieve = installSieve(
  engine,
  path === 'sweep'
    ? { clock: false }
    : { clock: false, broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 },
);
Engine.update(engine, 1000 / 60); // fills engine.detector.bodies (Detector.setBodies)
const base = bodies.map((b) => [b.bounds.min.x, b.bounds.min.y, b.bounds.max.x, b.bounds.max.y]);
let checksum = 0;
let frameIndex = 0;
// The most candidate pairs of a step (the bounds breathe with a 7-frame period: the last step of a run
// may have none, wherever the run stops).
let mostCandidates = 0;
export let sink: number[] = [];
const frame = () => {
  const grow = (frameIndex % 7) * 0.5; // 0 … 3 px: neighbours' bounds overlap on some frames
  // Five bodies a frame fall asleep or wake (the flag written as Sleeping.set writes it).
  for (let k = 0; k < 5; k++) {
    const b = bodies[(frameIndex * 37 + k * 101) % bodies.length];
    b.isSleeping = !b.isSleeping;
  }
  frameIndex++;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i].bounds;
    const o = base[i];
    b.min.x = o[0] - grow;
    b.min.y = o[1] - grow;
    b.max.x = o[2] + grow;
    b.max.y = o[3] + grow;
  }
  const collisions = Detector.collisions(engine.detector);
  checksum = (checksum + collisions.length + sieve.stats.candidatePairs) | 0;
  if (sieve.stats.candidatePairs > mostCandidates) mostCandidates = sieve.stats.candidatePairs;
  if (allocateEachFrame) sink = [checksum];
};
for (let f = 0; f < Number(warmArg); f++) frame();
// The control's allocation must show in every window; the measured run stops at its first quiet one.
const growth = heapWindows(frame, {
  frames: 500,
  windows: allocateEachFrame ? 4 : 16,
  quietBelow: allocateEachFrame ? undefined : 1024,
});
console.log(
  JSON.stringify({
    growth,
    checksum,
    candidates: mostCandidates,
    path: sieve.stats.path,
    collisions: sieve.stats.collisions,
  }),
);
