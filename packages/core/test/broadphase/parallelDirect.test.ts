/**
 * ParallelSweepAndPrune fed without a copy: bounds written straight into its shared `bounds` array
 * (`offsetOf(handle)` says where), then `markMoved(handle)` or `markAllMoved()` — against the
 * sequential SweepAndPrune fed through `move`, exactly (handles, pairs, began, ended, order, tags),
 * with 1, 2 and 4 workers and with the one region on the calling thread (a plain SweepAndPrune
 * underneath), in 2-D and 3-D, with churn, teleports and the array replaced as the broadphase grows. A
 * bad box written there makes the next update throw a RangeError naming the proxy before anything
 * changes (the workers check the boxes, or the calling thread), and the update after the fix is exact
 * again.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import { runProbe } from '../../../../test/support/runProbe.js';
import { ParallelSweepAndPrune } from '../../src/broadphase/parallel/index.js';
import { H_WALK, T_REGION_MS, T_STRIDE } from '../../src/broadphase/parallel/shared.js';
import { type Dimensions, SweepAndPrune } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { sharedPool } from './parallelWorker.js';

function same(got: Int32Array, want: Int32Array, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < got.length; i++)
    if (got[i] !== want[i]) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${want[i]}`);
}

function compare(par: ParallelSweepAndPrune, seq: SweepAndPrune, where: string): void {
  same(par.pairs(), seq.pairs(), `pairs, ${where}`);
  same(par.began(), seq.began(), `began, ${where}`);
  same(par.ended(), seq.ended(), `ended, ${where}`);
  same(
    par.pairTags().pairs.subarray(0, 2 * par.pairCount),
    seq.pairTags().pairs.subarray(0, 2 * seq.pairCount),
    `pair tags, ${where}`,
  );
  same(
    par.pairTags().ended.subarray(0, 2 * par.endedCount),
    seq.pairTags().ended.subarray(0, 2 * seq.endedCount),
    `ended tags, ${where}`,
  );
}

/** Writes a box straight into the broadphase's shared array. */
function write(par: ParallelSweepAndPrune, handle: number, box: number[]): void {
  par.bounds.set(box, par.offsetOf(handle));
}

/**
 * Shifts every 3-D box along x by `by(i)`, writes it into `par`'s bounds and moves it in `seq` (the
 * same handles), then marks every box moved.
 */
function shiftAll(
  par: ParallelSweepAndPrune,
  seq: SweepAndPrune,
  handles: number[],
  boxes: number[][],
  by: (i: number) => number,
): void {
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i];
    const dx = by(i);
    b[0] += dx;
    b[3] += dx;
    write(par, handles[i], b);
    seq.move(handles[i], b);
  }
  par.markAllMoved();
}

function runScene(
  par: ParallelSweepAndPrune,
  d: Dimensions,
  seed: number,
  allMoved: boolean,
  beforeUpdate?: (frame: number) => void,
): void {
  const seq = new SweepAndPrune({ dimensions: d });
  const r = rng(seed);
  const world = 60;
  const handles: number[] = [];
  const box = () => {
    const p = Array.from({ length: d }, () => r() * world);
    const h = Array.from({ length: d }, () => 0.2 + r() * 2);
    return [...p.map((v, k) => v - h[k]), ...p.map((v, k) => v + h[k])];
  };
  let tag = 0;
  const insert = () => {
    const b = box();
    const h = par.insert(b, ++tag);
    expect(seq.insert(b, tag)).toBe(h);
    handles.push(h);
  };
  for (let i = 0; i < 300; i++) insert();
  par.update();
  seq.update();
  compare(par, seq, 'first update');
  for (let f = 0; f < depth(15, 40); f++) {
    // Every box moves a little, some teleport; all written straight into `bounds`.
    for (const h of handles) {
      const b = new Array<number>(2 * d);
      par.getBounds(h, b);
      const jump = r() < 0.03;
      for (let k = 0; k < d; k++) {
        const shift = jump ? r() * world - b[k] : (r() - 0.5) * 0.8;
        b[k] += shift;
        b[k + d] += shift;
      }
      write(par, h, b);
      seq.move(h, b);
      if (!allMoved) par.markMoved(h);
    }
    if (allMoved) par.markAllMoved();
    // Churn; past the first capacity the broadphase grows and `bounds` is a new array.
    for (let c = 0; c < 6; c++) {
      const i = Math.floor(r() * handles.length);
      par.remove(handles[i]);
      seq.remove(handles[i]);
      handles.splice(i, 1);
      insert();
      if (f % 4 === 0) insert();
    }
    beforeUpdate?.(f);
    par.update();
    seq.update();
    compare(par, seq, `frame ${f}`);
  }
  expect(par.count).toBe(seq.count);
}

/**
 * Worker counts on the shared pools, and the one region on the calling thread: `'alone'` (the default
 * of `workers: 1`, no worker) and `'inThread'` (`workers: 1, inThread: true`).
 */
type Setup = number | 'alone' | 'inThread';
const SETUPS: Setup[] = [1, 2, 4, 'alone', 'inThread'];
const label = (setup: Setup) =>
  typeof setup === 'number' ? `${setup} worker(s)` : `one region on the calling thread (${setup})`;

const make = (setup: Setup, d: Dimensions) => {
  if (typeof setup !== 'number') {
    const par = new ParallelSweepAndPrune({ dimensions: d, workers: 1, inThread: setup === 'inThread' });
    expect(par.mode).toBe('in-thread');
    return par;
  }
  return new ParallelSweepAndPrune({
    dimensions: d,
    pool: sharedPool(setup),
    minBoxesPerRegion: 16,
    layoutInterval: 2,
    rebalanceAt: 1.1,
    validate: true,
  });
};
const seedOf = (setup: Setup) => (typeof setup === 'number' ? setup : setup === 'alone' ? 7 : 8);

describe('ParallelSweepAndPrune fed straight into its bounds array equals SweepAndPrune', () => {
  for (const setup of SETUPS) {
    for (const d of [2, 3] as const) {
      for (const allMoved of [true, false]) {
        it(`${label(setup)}, ${d}-D, ${allMoved ? 'markAllMoved' : 'markMoved per proxy'}`, () => {
          const par = make(setup, d);
          runScene(par, d, 10 * seedOf(setup) + d + (allMoved ? 1 : 0), allMoved);
          par.dispose();
        });
      }
    }
  }

  for (const workers of [2, 4]) {
    it(`${workers} worker(s): cuts moved for the threads' speeds change nothing but the layout`, () => {
      const par = make(workers, 3);
      // What the broadphase does when a region's thread runs slow for a while (its regions take too
      // long per box), forced here every few frames: the cuts move across the same axes.
      const frames = (
        par as unknown as { frames: { layout: { weights: Float64Array }; adaptPending: boolean } }
      ).frames;
      let before = par.regionBounds();
      let moves = 0;
      runScene(par, 3, 77 + workers, true, (f) => {
        const now = par.regionBounds();
        if (f % 3 === 1) {
          if (f > 1 && now.join() !== before.join()) moves++;
          before = now;
          frames.layout.weights.fill(1);
          frames.layout.weights[f % workers] = f % 2 === 0 ? 0.8 : 1.25;
          frames.adaptPending = true;
        }
      });
      expect(moves).toBeGreaterThan(2);
      par.dispose();
    });
  }

  it('2 worker(s): a region measured twice as slow per box gets fewer boxes, and the pairs stay exact', () => {
    const par = new ParallelSweepAndPrune({ dimensions: 3, pool: sharedPool(2), minBoxesPerRegion: 16 });
    const seq = new SweepAndPrune({ dimensions: 3 });
    type Followed = {
      timings: Float64Array;
      adaptPending: boolean;
      updatesSinceLayout: number;
      layout: { weights: Float64Array };
      followSpeeds(members: Int32Array): void;
    };
    const frames = (par as unknown as { frames: Followed }).frames;
    const r = rng(91);
    const n = 3000;
    const handles: number[] = [];
    const boxes: number[][] = [];
    for (let i = 0; i < n; i++) {
      const x = r() * 100;
      const y = r() * 20;
      const z = r() * 20;
      const box = [x, y, z, x + 1 + r(), y + 1 + r(), z + 1 + r()];
      boxes.push(box);
      handles.push(par.insert(box));
      expect(seq.insert(box)).toBe(handles[i]);
    }
    const step = () => {
      shiftAll(par, seq, handles, boxes, () => (r() - 0.5) * 0.2);
      par.update();
      seq.update();
    };
    for (let f = 0; f < 30; f++) step();
    compare(par, seq, 'before');
    // The speeds the regions' threads would report if region 1's took twice as long per box, frame after
    // frame (set where the broadphase reads them after each frame).
    const members = new Int32Array(par.regionMembers());
    for (let k = 0; k < 80; k++) {
      frames.timings[T_REGION_MS] = 0.002 * members[0];
      frames.timings[T_STRIDE + T_REGION_MS] = 0.004 * members[1];
      frames.updatesSinceLayout = 100;
      frames.followSpeeds(members);
    }
    expect(frames.adaptPending).toBe(true);
    expect(frames.layout.weights[0]).toBeGreaterThan(frames.layout.weights[1]);
    step();
    compare(par, seq, 'after the cuts moved');
    const moved = Array.from(par.regionMembers());
    // Shares 1.25 : 0.8 (the weights' range): about 61 % and 39 % of the boxes. (Whatever the real
    // threads' speeds did to the cuts before, these weights alone decide the new ones.)
    expect(moved[0] - moved[1]).toBeGreaterThan(0.15 * n);
    for (let f = 0; f < 10; f++) {
      step();
      compare(par, seq, `frame ${f} after`);
    }
    par.dispose();
  });

  it('in-thread, 3 regions', () => {
    const par = new ParallelSweepAndPrune({
      dimensions: 3,
      workers: 3,
      inThread: true,
      minBoxesPerRegion: 16,
    });
    runScene(par, 3, 5, true);
  });

  for (const setup of [2, 'alone'] as const) {
    it(`documents its layout: box of handle h at (h & 0xFFFFF) · 2·dimensions (${label(setup)})`, () => {
      const par = make(setup, 3);
      const a = par.insert([0, 0, 0, 1, 1, 1]);
      const b = par.insert([5, 5, 5, 6, 6, 6]);
      par.remove(a);
      par.update();
      const c = par.insert([9, 9, 9, 10, 10, 10]);
      expect(c & 0xfffff).toBe(a & 0xfffff);
      expect(c).not.toBe(a);
      expect(par.offsetOf(b)).toBe((b & 0xfffff) * 6);
      expect(par.offsetOf(c)).toBe((c & 0xfffff) * 6);
      expect(Array.from(par.bounds.subarray(par.offsetOf(c), par.offsetOf(c) + 6))).toEqual([
        9, 9, 9, 10, 10, 10,
      ]);
      expect(() => par.offsetOf(a)).toThrow(/offsetOf: handle \d+ is unknown or was removed/);
      expect(() => par.markMoved(a)).toThrow(/markMoved: handle \d+ is unknown or was removed/);
      par.dispose();
    });
  }
});

describe('a bad box written into bounds', () => {
  for (const setup of SETUPS) {
    for (const [what, bad] of [
      ['NaN', [Number.NaN, 0, 0, 1, 1, 1]],
      ['Infinity', [0, 0, 0, 1, Number.POSITIVE_INFINITY, 1]],
      ['min > max', [0, 0, 3, 1, 1, 2]],
    ] as const) {
      it(`${label(setup)}, ${what}: update() throws naming the proxy, before anything changes`, () => {
        for (const allMoved of [true, false]) {
          const par = make(setup, 3);
          const seq = new SweepAndPrune({ dimensions: 3 });
          const handles: number[] = [];
          const r = rng(seedOf(setup));
          for (let i = 0; i < 200; i++) {
            const p = [r() * 20, r() * 20, r() * 20];
            const b = [...p, ...p.map((v) => v + 1.5)];
            handles.push(par.insert(b));
            seq.insert(b);
          }
          par.update();
          seq.update();
          // Every box moves; one of them gets a bad box.
          const victim = handles[137];
          const good = new Array<number>(6);
          for (const h of handles) {
            const b = par.getBounds(h, new Array<number>(6));
            for (let k = 0; k < 6; k++) b[k] += 0.25;
            write(par, h, b);
            seq.move(h, b);
            if (!allMoved) par.markMoved(h);
            if (h === victim) for (let k = 0; k < 6; k++) good[k] = b[k];
          }
          if (allMoved) par.markAllMoved();
          write(par, victim, [...bad]);
          const before = [par.pairs().slice(), par.began().slice(), par.ended().slice()];
          const name = new RegExp(`update: the box of handle ${victim} in \`bounds\``);
          expect(() => par.update()).toThrow(RangeError);
          expect(() => par.update()).toThrow(name);
          // Nothing changed: the lists are those of the last good update.
          same(par.pairs(), before[0], 'pairs after the throw');
          same(par.began(), before[1], 'began after the throw');
          same(par.ended(), before[2], 'ended after the throw');
          // Fixed, the same update goes through and equals the sequential one.
          write(par, victim, good);
          par.update();
          seq.update();
          compare(par, seq, 'after the fix');
          par.dispose();
        }
      });
    }
  }

  it(`2 worker(s): a bad box in a walking frame (members' bounds taken during classify) changes nothing; undone or fixed, the next update is exact`, () => {
    // Enough boxes, every one moved each frame, for the frames to walk the members (H_WALK): their
    // bounds are then taken into the regions' sweeps while the boxes are checked, before the frame
    // knows whether one of them is bad.
    const n = 6000;
    for (const undo of [false, true]) {
      const par = new ParallelSweepAndPrune({
        dimensions: 3,
        pool: sharedPool(2),
        minBoxesPerRegion: 16,
      });
      const seq = new SweepAndPrune({ dimensions: 3 });
      const header = (par as unknown as { frames: { header: Int32Array } }).frames.header;
      const r = rng(302 + (undo ? 1 : 0));
      const boxes: number[][] = [];
      const handles: number[] = [];
      for (let i = 0; i < n; i++) {
        const p = [r() * 60, r() * 60, r() * 60];
        boxes.push([...p, ...p.map((v) => v + 1 + r())]);
        handles.push(par.insert(boxes[i]));
        seq.insert(boxes[i]);
      }
      par.update();
      seq.update();
      const moveAll = (by: (i: number) => number) => shiftAll(par, seq, handles, boxes, by);
      let walked = 0;
      for (let f = 0; f < 6; f++) {
        moveAll(() => (r() - 0.5) * 0.6);
        par.update();
        seq.update();
        walked += header[H_WALK];
        compare(par, seq, `warm-up frame ${f}`);
      }
      expect(walked).toBeGreaterThan(2);
      // Every box moves (pairs begin and end), and one box is bad.
      const steps = boxes.map(() => (r() - 0.5) * 2);
      moveAll((i) => steps[i]);
      const victim = 4321;
      write(par, handles[victim], [Number.NaN, 0, 0, 1, 1, 1]);
      const before = [par.pairs().slice(), par.began().slice(), par.ended().slice()];
      expect(() => par.update()).toThrow(new RegExp(`handle ${handles[victim]} in \`bounds\``));
      same(par.pairs(), before[0], 'pairs after the throw');
      same(par.began(), before[1], 'began after the throw');
      same(par.ended(), before[2], 'ended after the throw');
      if (undo)
        moveAll((i) => -steps[i]); // every box back where the last good update had it
      else write(par, handles[victim], boxes[victim]);
      par.update();
      seq.update();
      compare(par, seq, undo ? 'after the move was undone' : 'after the fix');
      for (let f = 0; f < 3; f++) {
        moveAll(() => (r() - 0.5) * 0.6);
        par.update();
        seq.update();
        compare(par, seq, `frame ${f} after`);
      }
      par.dispose();
    }
  });

  for (const setup of [2, 'alone'] as const) {
    it(`a bad box in a slot nobody marked is not read (${label(setup)})`, () => {
      const par = make(setup, 3);
      const a = par.insert([0, 0, 0, 1, 1, 1]);
      const b = par.insert([0.5, 0, 0, 2, 1, 1]);
      par.update();
      write(par, b, [Number.NaN, 0, 0, 1, 1, 1]);
      par.move(a, [0.2, 0, 0, 1.2, 1, 1]);
      par.update();
      expect(Array.from(par.pairs())).toEqual([a, b]);
      par.dispose();
    });
  }
});

describe('static proxies on the parallel broadphase equal SweepAndPrune', () => {
  for (const setup of SETUPS) {
    it(`${label(setup)}: a tilemap of touching static tiles, dynamic boxes written into bounds, flips and moved tiles`, () => {
      const par = make(setup, 2);
      const seq = new SweepAndPrune({ dimensions: 2 });
      const r = rng(70 + seedOf(setup));
      const tiles: number[] = [];
      // 40 × 40 touching unit tiles: ~6 000 static–static contacts, none of them a pair.
      for (let y = 0; y < 40; y++) {
        for (let x = 0; x < 40; x++) {
          const box = [x, y, x + 1, y + 1];
          const h = par.insert(box, y * 40 + x, true);
          expect(seq.insert(box, y * 40 + x, true)).toBe(h);
          tiles.push(h);
        }
      }
      const movers: number[] = [];
      for (let i = 0; i < 150; i++) {
        const p = [r() * 40, r() * 40];
        const box = [p[0], p[1], p[0] + 0.7, p[1] + 0.7];
        const h = par.insert(box, 5000 + i);
        expect(seq.insert(box, 5000 + i)).toBe(h);
        movers.push(h);
      }
      par.update();
      seq.update();
      compare(par, seq, 'first update');
      for (let f = 0; f < depth(12, 30); f++) {
        for (const h of movers) {
          const b = par.getBounds(h, new Array<number>(4));
          const dx = (r() - 0.5) * 0.6;
          const dy = (r() - 0.5) * 0.6;
          const box = [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
          // markAllMoved reads the dynamic proxies; a static one moves through move() (or markMoved).
          if (par.isStatic(h)) par.move(h, box);
          else write(par, h, box);
          seq.move(h, box);
        }
        par.markAllMoved();
        // Bodies falling asleep and waking (flips), a tile lifted and put back (a moved static).
        for (let k = 0; k < 5; k++) {
          const h = movers[Math.floor(r() * movers.length)];
          const flag = r() < 0.5;
          par.setStatic(h, flag);
          seq.setStatic(h, flag);
        }
        const tile = tiles[Math.floor(r() * tiles.length)];
        const t = par.getBounds(tile, new Array<number>(4));
        const lift = f % 2 === 0 ? 0.25 : -0.25;
        par.move(tile, [t[0], t[1] + lift, t[2], t[3] + lift]);
        seq.move(tile, [t[0], t[1] + lift, t[2], t[3] + lift]);
        par.update();
        seq.update();
        compare(par, seq, `frame ${f}`);
        expect(par.isStatic(tile)).toBe(true);
      }
      par.dispose();
    });
  }
});

describe('two regions, one on a worker, fed through bounds or moveMany', () => {
  it('allocate on the calling thread no more than its few clock reads a frame, barrier waits included', () => {
    // In a child process, so the test runner's own traffic does not share the heap. The calling
    // thread's region is the smaller one, so it waits at both barriers of every frame; a barrier that
    // read the clock on every turn of its spin made about 2.5 kB a frame here.
    const probe = fileURLToPath(new URL('./regionsHeapProbe.ts', import.meta.url));
    const window = 300;
    const r = runProbe<{ growth: number[]; checksum: number; members: number[] }>(probe);
    expect(r.checksum).not.toBe(0);
    expect(r.members[0]).toBeLessThan(r.members[1]);
    // The runtime adds garbage to some windows at random, never to all: the quietest is the measure.
    expect(Math.min(...r.growth), `growth per window ${r.growth.join(', ')}`).toBeLessThan(window * 1024);
    // The same fed through moveMany of every box (an update that then takes every box).
    const batch = runProbe<{ growth: number[]; checksum: number }>(probe, ['moveMany']);
    expect(batch.checksum).not.toBe(0);
    expect(Math.min(...batch.growth), `moveMany: ${batch.growth.join(', ')}`).toBeLessThan(window * 1024);
    // The control: about 4 kB a frame shows in every window.
    const control = runProbe<{ growth: number[] }>(probe, ['control']);
    expect(Math.min(...control.growth), `control: ${control.growth.join(', ')}`).toBeGreaterThan(
      window * 2048,
    );
  });
});
