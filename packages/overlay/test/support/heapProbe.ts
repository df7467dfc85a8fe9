/**
 * Heap-growth probe for FrameRecorder, run in a child process of its own (`node --expose-gc --import tsx
 * heapProbe.ts [allocate]`) so no test-runner traffic shares the heap. Records frames like a game would
 * (six phases by name and by index, three counters, endFrame), warms up past many ring wraps, then
 * prints the heap growth of each window of 2000 frames (after a full GC) as JSON.
 */

import { heapWindows } from '../../../../test/support/heapWindows.js';
import { FrameRecorder } from '../../src/index.js';

const control = process.argv[2] === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('usage: node --expose-gc --import tsx heapProbe.ts [allocate]');

// The probe measures the recorder, not the clock: Node's performance.now() allocates (an hrtime array per
// call), and any clock returning a non-integer double from an un-inlined call may box it. A small-integer
// tick counter allocates nothing, so whatever the heap shows is the recorder's own.
let tick = 0;
const rec = new FrameRecorder({ capacity: 300, now: () => (tick = (tick + 1) | 0) });
const render = rec.phase('render');
let checksum = 0;
// Where the control run's arrays escape to (so the JIT cannot remove them).
export let sink: number[] = [];
const frame = (f: number) => {
  rec.begin('physics');
  rec.begin('broadphase');
  rec.end();
  rec.begin('narrowphase');
  rec.end();
  rec.end();
  rec.begin(render);
  rec.end();
  rec.record('solver', 0.1);
  rec.record('game', 0.2);
  rec.count('bodies', f & 1023);
  rec.count('pairs', f & 511);
  rec.count('contacts', f & 255);
  rec.endFrame();
  checksum = (checksum + rec.size) | 0;
  if (control) sink = [checksum];
};
let f = 0;
for (; f < 10000; f++) frame(f);
const growth = heapWindows(() => frame(f++), { frames: 2000, windows: 8 });
console.log(JSON.stringify({ growth, checksum }));
