/**
 * ParallelSweepAndPrune against the sequential SweepAndPrune, operation by operation: the same handles,
 * and after every update the very same pairs, began and ended arrays (same order), with 1, 2 and 4
 * workers — on coherent motion with churn, teleports across regions, boxes larger than a region, boxes
 * gathering in one corner (the layout must follow), and a first frame too large for the output buffers.
 * Plus `updateAsync`, `dispose`, crashed and hung workers, the fallback without SharedArrayBuffer, and
 * determinism across worker counts. (The shared contract suite runs it against BruteForce too:
 * registry.ts.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import { ParallelSweepAndPrune, WorkerPool } from '../../src/broadphase/parallel/index.js';
import { imbalance, RegionLayout } from '../../src/broadphase/parallel/layout.js';
import {
  C_READY,
  C_STATUS,
  CMD_DRAIN,
  CONTROL_STRIDE,
  H_ALL_MOVED,
  H_WALK,
  STATUS_EXITED,
} from '../../src/broadphase/parallel/shared.js';
import { SLOT_MASK } from '../../src/broadphase/proxies.js';
import { type Dimensions, SweepAndPrune } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { sharedPool, workerUrl } from './parallelWorker.js';

/** '' when two pair lists are identical, else where they first differ (cheaper than a deep equal). */
function difference(got: Int32Array, want: Int32Array): string {
  if (got.length !== want.length) return `length ${got.length} instead of ${want.length}`;
  for (let i = 0; i < got.length; i++) {
    if (got[i] !== want[i]) return `entry ${i} is ${got[i]} instead of ${want[i]}`;
  }
  return '';
}

/** Drives a ParallelSweepAndPrune and a SweepAndPrune with the same operations, comparing exactly. */
class Twin {
  readonly seq: SweepAndPrune;
  readonly handles: number[] = [];
  updates = 0;
  private inserted = 0;
  constructor(
    readonly par: ParallelSweepAndPrune,
    d: Dimensions,
  ) {
    this.seq = new SweepAndPrune({ dimensions: d });
  }
  insert(box: number[]): number {
    // Tags ride along: the caller's own index for the body, read back with the pairs.
    const tag = 1000 + this.inserted++;
    const h = this.par.insert(box, tag);
    expect(this.seq.insert(box, tag)).toBe(h);
    expect(this.par.tagOf(h)).toBe(tag);
    this.handles.push(h);
    return h;
  }
  move(i: number, box: number[]): void {
    this.par.move(this.handles[i], box);
    this.seq.move(this.handles[i], box);
  }
  remove(i: number): void {
    this.par.remove(this.handles[i]);
    this.seq.remove(this.handles[i]);
    this.handles.splice(i, 1);
  }
  compare(): void {
    this.updates++;
    const where = `update ${this.updates}`;
    expect(this.par.pairCount, where).toBe(this.seq.pairCount);
    expect(difference(this.par.pairs(), this.seq.pairs()), `pairs, ${where}`).toBe('');
    expect(difference(this.par.began(), this.seq.began()), `began, ${where}`).toBe('');
    expect(difference(this.par.ended(), this.seq.ended()), `ended, ${where}`).toBe('');
    const tags = this.par.pairTags();
    const want = this.seq.pairTags();
    expect(
      difference(
        tags.pairs.subarray(0, 2 * this.par.pairCount),
        want.pairs.subarray(0, 2 * this.seq.pairCount),
      ),
    ).toBe('');
    expect(
      difference(
        tags.ended.subarray(0, 2 * this.par.endedCount),
        want.ended.subarray(0, 2 * this.seq.endedCount),
      ),
    ).toBe('');
    expect(this.par.beganCount).toBe(this.seq.beganCount);
    expect(this.par.endedCount).toBe(this.seq.endedCount);
  }
  update(): void {
    this.par.update();
    this.seq.update();
    this.compare();
  }
  async updateAsync(): Promise<void> {
    await this.par.updateAsync();
    this.seq.update();
    this.compare();
  }
}

interface SceneOptions {
  n: number;
  frames: number;
  teleport: number;
  churn: number;
  /** Boxes as large as half the world (larger than any region). */
  big: number;
  /** From this frame on, every box drifts into one corner. */
  gatherFrom?: number;
  async?: boolean;
}

/** A seeded scene run on a Twin; returns the layouts seen (to check that gathering re-cuts). */
async function scene(t: Twin, d: Dimensions, seed: number, o: SceneOptions): Promise<Float64Array[]> {
  const r = rng(seed);
  const world = 80;
  const pos: number[][] = [];
  const vel: number[][] = [];
  const half: number[][] = [];
  const make = (big: boolean) => {
    pos.push(Array.from({ length: d }, () => r() * world));
    vel.push(Array.from({ length: d }, () => (r() - 0.5) * 1.5));
    half.push(Array.from({ length: d }, () => (big ? world / 4 : 0.3 + r() * 1.5)));
  };
  const box = (i: number) => [
    ...pos[i].map((p, k) => p - half[i][k]),
    ...pos[i].map((p, k) => p + half[i][k]),
  ];
  for (let i = 0; i < o.n; i++) {
    make(i < o.big);
    t.insert(box(i));
  }
  const layouts: Float64Array[] = [];
  const step = async () => {
    if (o.async) await t.updateAsync();
    else t.update();
    layouts.push(t.par.regionBounds());
  };
  await step();
  for (let f = 0; f < o.frames; f++) {
    for (let i = 0; i < pos.length; i++) {
      if (r() < o.teleport) for (let k = 0; k < d; k++) pos[i][k] = r() * world;
      else if (o.gatherFrom !== undefined && f >= o.gatherFrom) {
        // Targets spread over a 15-unit corner of the 80-unit world.
        for (let k = 0; k < d; k++) pos[i][k] += (5 + 0.3 * ((i * (k + 1) * 7) % 50) - pos[i][k]) * 0.2;
      } else {
        for (let k = 0; k < d; k++) {
          pos[i][k] += vel[i][k];
          if (pos[i][k] < 0 || pos[i][k] > world) vel[i][k] = -vel[i][k];
        }
      }
      t.move(i, box(i));
    }
    for (let c = 0; c < o.churn; c++) {
      const i = Math.floor(r() * pos.length);
      t.remove(i);
      pos.splice(i, 1);
      vel.splice(i, 1);
      half.splice(i, 1);
      make(r() < 0.02);
      t.insert(box(pos.length - 1));
    }
    await step();
  }
  return layouts;
}

const parallel = (workers: number, d: Dimensions, extra: object = {}) =>
  new ParallelSweepAndPrune({
    dimensions: d,
    pool: sharedPool(workers),
    minBoxesPerRegion: 16,
    layoutInterval: 2,
    ...extra,
  });

describe('ParallelSweepAndPrune equals the sequential SweepAndPrune, order included', () => {
  for (const workers of [1, 2, 4]) {
    for (const d of [2, 3] as const) {
      it(`${workers} worker(s), ${d}-D: coherent motion, churn, big boxes, teleports`, async () => {
        const t = new Twin(parallel(workers, d), d);
        await scene(t, d, 100 + workers * 10 + d, {
          n: 400,
          frames: depth(20, 60),
          teleport: 0.03,
          churn: 4,
          big: 3,
        });
        expect(t.par.count).toBe(t.seq.count);
        if (workers > 1) expect(Math.min(...t.par.regionMembers())).toBeGreaterThan(0);
        t.par.dispose();
      });
    }

    it(`${workers} worker(s): everything teleports every frame`, async () => {
      const t = new Twin(parallel(workers, 3), 3);
      await scene(t, 3, 7 + workers, { n: 300, frames: depth(10, 25), teleport: 1, churn: 0, big: 0 });
      t.par.dispose();
    });

    it(`${workers} worker(s): boxes gather in one corner and the regions follow`, async () => {
      const t = new Twin(parallel(workers, 3, { rebalanceAt: 1.2 }), 3);
      const layouts = await scene(t, 3, 55 + workers, {
        n: 500,
        frames: depth(30, 50),
        teleport: 0,
        churn: 2,
        big: 0,
        gatherFrom: 10,
      });
      if (workers > 1) {
        // The layout changed after the boxes gathered, and balances them again.
        expect(layouts[layouts.length - 1]).not.toEqual(layouts[5]);
        const members = t.par.regionMembers();
        const mean = members.reduce((a, b) => a + b, 0) / members.length;
        expect(Math.max(...members)).toBeLessThan(1.6 * mean);
      }
      t.par.dispose();
    });
  }

  for (const workers of [1, 3]) {
    it(`${workers} worker(s) + the calling thread: coherent motion, churn, big boxes, teleports, gathering`, async () => {
      const t = new Twin(parallel(workers, 3, { callerRegion: true, rebalanceAt: 1.2 }), 3);
      expect(t.par.callerRegion).toBe(true);
      expect(t.par.regionCount).toBe(workers + 1);
      await scene(t, 3, 500 + workers, {
        n: 500,
        frames: depth(36, 60),
        teleport: 0.03,
        churn: 4,
        big: 3,
        gatherFrom: depth(18, 30),
      });
      expect(Math.min(...t.par.regionMembers())).toBeGreaterThan(0);
      t.par.dispose();
    });
  }

  it('updateAsync with the calling thread running a region gives the same lists as update', async () => {
    const t = new Twin(parallel(2, 2, { callerRegion: true, twoPhase: 'always' }), 2);
    await scene(t, 2, 78, { n: 300, frames: 30, teleport: 0.05, churn: 3, big: 2, async: true });
    expect(() => t.par.update()).not.toThrow();
    t.par.dispose();
  });

  for (const workers of [2, 4]) {
    it(`${workers} workers, two-phase frames: coherent motion, churn, big boxes, teleports, gathering`, async () => {
      const t = new Twin(parallel(workers, 3, { twoPhase: 'always', rebalanceAt: 1.2 }), 3);
      await scene(t, 3, 300 + workers, {
        n: 500,
        frames: depth(36, 60),
        teleport: 0.03,
        churn: 4,
        big: 3,
        gatherFrom: depth(18, 30),
      });
      t.par.dispose();
    });
  }

  it('two-phase frames in-thread (3 regions, 2-D) and large frames under auto', async () => {
    const t = new Twin(
      new ParallelSweepAndPrune({
        dimensions: 2,
        workers: 3,
        inThread: true,
        twoPhase: 'always',
        minBoxesPerRegion: 16,
      }),
      2,
    );
    await scene(t, 2, 41, { n: 400, frames: 40, teleport: 0.05, churn: 3, big: 2 });
    t.par.dispose();
    // 'auto' takes two phases from 4 regions and 4 096 changed boxes.
    const u = new Twin(parallel(4, 3), 3);
    await scene(u, 3, 43, { n: 5000, frames: 6, teleport: 0.01, churn: 20, big: 2 });
    u.par.dispose();
  });

  // A moveMany, or move() calls, of most boxes (from 4 096) make the update take every box, as
  // markAllMoved does: each region walks its own members (two-phase frames) instead of reading the whole
  // list of moved boxes; the inserted, removed, flipped and static ones stay listed.
  for (const [workers, twoPhase, inThread] of [
    [1, 'auto', false],
    [2, 'auto', false],
    [4, 'auto', false],
    [2, 'never', false],
    [3, 'auto', true],
  ] as const) {
    it(`${workers} ${inThread ? 'regions in-thread' : 'workers'} (twoPhase ${twoPhase}): moveMany or move() of most boxes — in slot order, shuffled, 60 % — with statics, flips, churn and a move after the batch`, () => {
      const d = 3;
      const t = new Twin(
        inThread
          ? new ParallelSweepAndPrune({
              dimensions: d,
              workers,
              inThread,
              minBoxesPerRegion: 16,
              validate: true,
            })
          : // (validate over one region of 8 000 boxes would take seconds a test)
            parallel(workers, d, { validate: workers > 1, twoPhase }),
        d,
      );
      const header = (t.par as unknown as { frames: { header: Int32Array } }).frames.header;
      const r = rng(500 + workers + (twoPhase === 'never' ? 10 : 0) + (inThread ? 20 : 0));
      const world = 70;
      const n = 8000;
      const box = () => {
        const p = Array.from({ length: d }, () => r() * world);
        const h = 0.3 + r() * 1.2;
        return [...p.map((v) => v - h), ...p.map((v) => v + h)];
      };
      const boxes: number[][] = [];
      for (let i = 0; i < n; i++) {
        boxes.push(box());
        t.insert(boxes[i]);
      }
      const setStatic = (i: number, on: boolean) => {
        t.par.setStatic(t.handles[i], on);
        t.seq.setStatic(t.handles[i], on);
      };
      for (let i = 0; i < n; i += 97) setStatic(i, true);
      t.update();
      let walked = 0;
      let inSlotOrder = 0;
      let takenWhole = 0;
      for (let f = 0; f < depth(9, 24); f++) {
        // Every fourth frame moves the boxes one by one through move() instead of one batch.
        const perBody = f % 4 === 3;
        // Churn (from the third frame): the batch then holds a handle in a new slot, out of slot order,
        // and a box inserted in this frame is moved in it.
        if (f % 3 === 2 || perBody) {
          for (let c = 0; c < 5; c++) {
            const i = 1 + Math.floor(r() * (t.handles.length - 1));
            t.remove(i);
            boxes.splice(i, 1);
            boxes.push(box());
            t.insert(boxes[boxes.length - 1]);
          }
        }
        // A static box turns dynamic, or a dynamic one static.
        if (f % 4 === 1) setStatic(97 * (1 + (f % 7)) + (f % 8 === 1 ? 0 : 1), f % 8 !== 1);
        // All boxes in slot order (one block copy), all shuffled, or 60 % of them shuffled.
        const order = t.handles.map((_, i) => i);
        if (f % 3 !== 0) {
          for (let i = order.length - 1; i > 0; i--) {
            const j = Math.floor(r() * (i + 1));
            [order[i], order[j]] = [order[j], order[i]];
          }
        }
        const picked = f % 3 === 2 ? order.slice(0, Math.ceil(0.6 * order.length)) : order;
        // Every other frame, arrays with room to spare and a count (no block copy then).
        const spare = f % 2 === 1 ? 3 : 0;
        const handles = new Int32Array(picked.length + spare).fill(-1);
        const bounds = new Float64Array((picked.length + spare) * 2 * d).fill(Number.NaN);
        picked.forEach((i, j) => {
          const b = boxes[i];
          const jump = r() < 0.01;
          for (let k = 0; k < d; k++) {
            const shift = jump ? r() * world - b[k] : (r() - 0.5) * 0.6;
            b[k] += shift;
            b[k + d] += shift;
          }
          handles[j] = t.handles[i];
          bounds.set(b, j * 2 * d);
        });
        if (perBody) for (const i of picked) t.move(i, boxes[i]);
        else {
          if (spare === 0 && handles.every((h, i) => (h & SLOT_MASK) === i)) inSlotOrder++;
          t.par.moveMany(handles, bounds, picked.length);
          t.seq.moveMany(handles, bounds, picked.length);
        }
        // A single move after the batch wins over it.
        boxes[0] = box();
        t.move(0, boxes[0]);
        t.update();
        walked += header[H_WALK];
        if (perBody) takenWhole += header[H_ALL_MOVED];
        // Every box as moved (a batch copied wrong may change no pair).
        const got = new Array<number>(2 * d);
        for (let i = 0; i < boxes.length; i++) {
          t.par.getBounds(t.handles[i], got);
          if (got.some((v, k) => v !== boxes[i][k])) expect(got, `box ${i}, frame ${f}`).toEqual(boxes[i]);
        }
      }
      expect(inSlotOrder).toBeGreaterThan(0);
      expect(takenWhole).toBeGreaterThan(0);
      // (One region walks no members: it takes every box anyway.)
      if (twoPhase === 'auto' && workers > 1) expect(walked).toBeGreaterThan(2);
      expect(t.par.pairCount).toBeGreaterThan(500);
      t.par.dispose();
    });
  }

  it('2 workers: a moveMany of most boxes reads every box, so a bad one written into `bounds` unmarked makes update() throw naming it; fixed, the next update is exact', () => {
    const t = new Twin(parallel(2, 3), 3);
    const r = rng(77);
    const n = 6000;
    const boxes: number[][] = [];
    for (let i = 0; i < n; i++) {
      const p = [r() * 60, r() * 60, r() * 60];
      boxes.push([...p, ...p.map((v) => v + 1 + r())]);
      t.insert(boxes[i]);
    }
    t.update();
    const batch = () => {
      const bounds = new Float64Array(6 * n);
      boxes.forEach((b, i) => {
        for (let k = 0; k < 3; k++) {
          const shift = (r() - 0.5) * 0.6;
          b[k] += shift;
          b[k + 3] += shift;
        }
        bounds.set(b, 6 * i);
      });
      const handles = Int32Array.from(t.handles);
      t.par.moveMany(handles, bounds);
      t.seq.moveMany(handles, bounds);
    };
    for (let f = 0; f < 3; f++) {
      batch();
      t.update();
    }
    batch();
    const victim = 4321;
    const at = t.par.offsetOf(t.handles[victim]);
    t.par.bounds.set([0, 0, 0, -1, 1, 1], at);
    const before = [t.par.pairs().slice(), t.par.began().slice(), t.par.ended().slice()];
    expect(() => t.par.update()).toThrow(new RegExp(`handle ${t.handles[victim]} in \`bounds\``));
    expect(difference(t.par.pairs(), before[0])).toBe('');
    expect(difference(t.par.began(), before[1])).toBe('');
    expect(difference(t.par.ended(), before[2])).toBe('');
    t.par.bounds.set(boxes[victim], at);
    t.update();
    batch();
    t.update();
    t.par.dispose();
  });

  it('a first frame with more pairs than the output buffers hold (they grow, nothing is lost)', async () => {
    const t = new Twin(parallel(2, 3), 3);
    const r = rng(3);
    // 260 boxes in one small cube: ~33 000 pairs at once.
    for (let i = 0; i < 260; i++) {
      const p = [r() * 2, r() * 2, r() * 2];
      t.insert([...p, ...p.map((v) => v + 2)]);
    }
    t.update();
    expect(t.par.pairCount).toBeGreaterThan(30_000);
    for (let i = 0; i < 260; i++) t.move(i, [100 + i * 3, 0, 0, 101 + i * 3, 1, 1]);
    await t.updateAsync();
    expect(t.par.endedCount).toBeGreaterThan(30_000);
    t.par.dispose();
  });

  it('updateAsync gives the same lists as update', async () => {
    const t = new Twin(parallel(4, 3), 3);
    await scene(t, 3, 77, { n: 300, frames: 30, teleport: 0.05, churn: 3, big: 2, async: true });
    expect(() => t.par.update()).not.toThrow();
    t.par.dispose();
  });

  it('is deterministic: 1, 2 and 4 workers, one region alone and the sequential sweep give one hash', async () => {
    const hashes: number[] = [];
    for (const workers of [0, 1, 2, 4, -1]) {
      const bp =
        workers === 0
          ? new SweepAndPrune({ dimensions: 3 })
          : workers < 0
            ? new ParallelSweepAndPrune({ dimensions: 3, workers: 1 })
            : parallel(workers, 3);
      const r = rng(99);
      const handles: number[] = [];
      let hash = 0x811c9dc5;
      const mix = (list: Int32Array) => {
        for (let i = 0; i < list.length; i++) hash = Math.imul(hash ^ list[i], 0x01000193) >>> 0;
        hash = Math.imul(hash ^ 0xff, 0x01000193) >>> 0;
      };
      const box = () => {
        const p = [r() * 40, r() * 40, r() * 40];
        return [...p, ...p.map((v) => v + r() * 4)];
      };
      for (let i = 0; i < 300; i++) handles.push(bp.insert(box()));
      for (let f = 0; f < 30; f++) {
        for (let i = 0; i < 40; i++) bp.move(handles[Math.floor(r() * handles.length)], box());
        if (f % 5 === 4) {
          const i = Math.floor(r() * handles.length);
          bp.remove(handles[i]);
          handles[i] = bp.insert(box());
        }
        bp.update();
        mix(bp.pairs());
        mix(bp.began());
        mix(bp.ended());
      }
      hashes.push(hash);
      if (bp instanceof ParallelSweepAndPrune) bp.dispose();
    }
    expect(new Set(hashes).size).toBe(1);
  });
});

describe('ParallelSweepAndPrune threads', () => {
  it('starts its own workers once, reuses them, and dispose() stops them', async () => {
    const bp = new ParallelSweepAndPrune({ dimensions: 2, workers: 2, workerUrl: workerUrl() });
    expect(bp.mode).toBe('workers');
    expect(bp.fallbackReason).toBeNull();
    await bp.ready();
    const a = bp.insert([0, 0, 1, 1]);
    const b = bp.insert([0.5, 0.5, 2, 2]);
    for (let i = 0; i < 5; i++) bp.update();
    expect(Array.from(bp.pairs())).toEqual([a, b]);
    expect(bp.regionTimes().length).toBe(2);
    bp.dispose();
    expect(() => bp.update()).toThrow(/used after dispose/);
    expect(() => bp.insert([0, 0, 1, 1])).toThrow(/used after dispose/);
    bp.dispose(); // twice is fine
  });

  it('a pool of its own: the calling thread runs region 0, so workers: N starts N − 1 threads', async () => {
    const bp = new ParallelSweepAndPrune({
      dimensions: 3,
      workers: 3,
      workerUrl: workerUrl(),
      minBoxesPerRegion: 256,
    });
    expect(bp.callerRegion).toBe(true);
    expect(bp.regionCount).toBe(3);
    const t = new Twin(bp, 3);
    for (let i = 0; i < 3000; i++)
      t.insert([
        (i % 50) * 0.9,
        Math.floor(i / 50) * 0.9,
        0,
        (i % 50) * 0.9 + 1,
        Math.floor(i / 50) * 0.9 + 1,
        1,
      ]);
    t.update();
    t.compare();
    expect(Math.min(...bp.regionMembers())).toBeGreaterThan(0);
    for (let f = 0; f < 5; f++) {
      for (let i = 0; i < 3000; i += 7)
        t.move(i, [
          (i % 50) * 0.9 + f * 0.3,
          Math.floor(i / 50) * 0.9,
          0,
          (i % 50) * 0.9 + 1 + f * 0.3,
          Math.floor(i / 50) * 0.9 + 1,
          1,
        ]);
      t.update();
      t.compare();
    }
    bp.dispose();
    // workers: 1 starts no thread: its one region runs on the calling thread (a plain SweepAndPrune).
    const alone = new ParallelSweepAndPrune({ dimensions: 3, workers: 1, workerUrl: workerUrl() });
    expect([alone.mode, alone.regionCount, alone.callerRegion, alone.fallbackReason]).toEqual([
      'in-thread',
      1,
      false,
      null,
    ]);
    alone.dispose();
    // callerRegion: false keeps the calling thread free: one worker does everything on its thread.
    const one = new ParallelSweepAndPrune({
      dimensions: 3,
      workers: 1,
      workerUrl: workerUrl(),
      callerRegion: false,
    });
    expect([one.mode, one.regionCount, one.callerRegion]).toEqual(['workers', 1, false]);
    const u = new Twin(one, 3);
    await scene(u, 3, 61, { n: 300, frames: 20, teleport: 0.05, churn: 3, big: 2 });
    await scene(u, 3, 62, { n: 100, frames: 10, teleport: 0.05, churn: 3, big: 1, async: true });
    one.dispose();
    const off = new ParallelSweepAndPrune({
      dimensions: 3,
      workers: 3,
      workerUrl: workerUrl(),
      callerRegion: false,
    });
    expect(off.callerRegion).toBe(false);
    expect(off.regionCount).toBe(3);
    off.dispose();
  });

  it('WorkerPool.run calls onEach after each acknowledgement, in order, and survives a throwing one', () => {
    const pool = new WorkerPool({ workers: 3, workerUrl: workerUrl() });
    const seen: number[] = [];
    // A command every worker answers without work (read no messages, go on waiting).
    pool.run(CMD_DRAIN, 0, 3, 0, (w) => seen.push(w));
    expect(seen).toEqual([0, 1, 2]);
    seen.length = 0;
    expect(() =>
      pool.run(CMD_DRAIN, 0, 3, 0, (w) => {
        seen.push(w);
        if (w === 0) throw new Error('from onEach');
      }),
    ).toThrow('from onEach');
    // The first throw stops the calls, every worker is still waited for, and the pool goes on.
    expect(seen).toEqual([0]);
    pool.run(CMD_DRAIN, 0, 3, 0, (w) => seen.push(w));
    expect(seen).toEqual([0, 0, 1, 2]);
    pool.dispose();
  });

  it('a shared pool outlives the broadphases that use it', () => {
    const pool = new WorkerPool({ workers: 2, workerUrl: workerUrl() });
    const first = new ParallelSweepAndPrune({ dimensions: 3, pool });
    first.insert([0, 0, 0, 1, 1, 1]);
    first.update();
    first.dispose();
    expect(pool.isDisposed).toBe(false);
    const second = new ParallelSweepAndPrune({ dimensions: 3, pool });
    const a = second.insert([0, 0, 0, 1, 1, 1]);
    const b = second.insert([1, 1, 1, 2, 2, 2]);
    second.update();
    expect(Array.from(second.pairs())).toEqual([a, b]);
    pool.dispose();
    expect(() => second.update()).toThrow(/after dispose/);
  });

  /**
   * Waits (up to 30 s) until every worker of `pool` has started, reading its ready words without the
   * pool's own deadline, which these tests keep short.
   */
  const untilStarted = async (pool: WorkerPool) => {
    const control = (pool as unknown as { control: Int32Array }).control;
    const deadline = performance.now() + 30_000;
    for (let w = 0; w < pool.size; w++) {
      while (Atomics.load(control, w * CONTROL_STRIDE + C_READY) !== 1) {
        if (performance.now() > deadline) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  };

  for (const mode of ['throw', 'exit', 'hang'] as const) {
    it(`a worker that crashes (${mode}) makes update() throw instead of hanging`, async () => {
      const pool = new WorkerPool({ workers: 2, workerUrl: workerUrl(), timeoutMs: 1500 });
      // Started before the first command: on a loaded machine a worker's start-up alone can take longer
      // than the short deadline these tests set for a command (and for `ready()`).
      await untilStarted(pool);
      const bp = new ParallelSweepAndPrune({ dimensions: 3, pool });
      bp.insert([0, 0, 0, 1, 1, 1]);
      bp.update();
      pool.crashForTesting(1, mode);
      const t0 = performance.now();
      const message = {
        throw: /worker 1 failed: .*deliberate crash/s,
        exit: /worker 1 exited/,
        hang: /worker 1 did not answer within 1500 ms/,
      }[mode];
      expect(() => bp.update()).toThrow(message);
      expect(performance.now() - t0).toBeLessThan(10_000);
      // It stays failed, with the same error.
      expect(() => bp.update()).toThrow(message);
      await expect(bp.updateAsync()).rejects.toThrow(message);
      pool.dispose();
    });
  }

  /** Waits (up to 10 s) until worker `w`'s status word says it exited, without touching the pool. */
  const untilExited = async (pool: WorkerPool, w: number) => {
    const control = (pool as unknown as { control: Int32Array }).control;
    const deadline = performance.now() + 10_000;
    while (Atomics.load(control, w * CONTROL_STRIDE + C_STATUS) !== STATUS_EXITED) {
      if (performance.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  for (const mode of ['throw', 'exit', 'hang', 'terminate'] as const) {
    it(`a worker that crashes (${mode}) while the calling thread waits at a barrier makes update() throw`, async () => {
      const pool = new WorkerPool({ workers: 2, workerUrl: workerUrl(), timeoutMs: 1500 });
      // Started before the first command: on a loaded machine a worker's start-up alone can take longer
      // than the short deadline these tests set for a command (and for `ready()`).
      await untilStarted(pool);
      const bp = new ParallelSweepAndPrune({ dimensions: 3, pool, callerRegion: true, minBoxesPerRegion: 4 });
      for (let i = 0; i < 60; i++) bp.insert([i, 0, 0, i + 1.5, 1, 1]);
      bp.update();
      pool.crashForTesting(1, mode);
      // A termination is done by the pool's supervisor thread: let it land first (the worker's status
      // word says it exited; only read, so update() still has to find the death itself), or a fast
      // update() could finish before the worker dies.
      if (mode === 'terminate') await untilExited(pool, 1);
      const t0 = performance.now();
      const message = {
        throw: /worker 1 failed: .*deliberate crash/s,
        exit: /worker 1 exited/,
        hang: /worker 1 did not answer within 1500 ms/,
        terminate: /worker 1 exited/,
      }[mode];
      bp.move(0, [0, 0, 0, 2, 1, 1]);
      expect(() => bp.update()).toThrow(message);
      expect(performance.now() - t0).toBeLessThan(10_000);
      expect(() => bp.update()).toThrow(message);
      pool.dispose();
    });
  }

  it('updateAsync surfaces a crash as a rejected promise', async () => {
    const pool = new WorkerPool({ workers: 2, workerUrl: workerUrl(), timeoutMs: 5000 });
    const bp = new ParallelSweepAndPrune({ dimensions: 3, pool });
    await bp.ready();
    bp.insert([0, 0, 0, 1, 1, 1]);
    await bp.updateAsync();
    pool.crashForTesting(0, 'throw');
    await expect(bp.updateAsync()).rejects.toThrow(/worker 0 failed/);
    pool.dispose();
  });

  it('updateAsync without Atomics.waitAsync waits on acknowledgement messages', async () => {
    const atomics = Atomics as unknown as { waitAsync?: unknown };
    const saved = atomics.waitAsync;
    atomics.waitAsync = undefined;
    let pool: WorkerPool;
    try {
      pool = new WorkerPool({ workers: 2, workerUrl: workerUrl(), timeoutMs: 10_000 });
    } finally {
      atomics.waitAsync = saved;
    }
    const t = new Twin(new ParallelSweepAndPrune({ dimensions: 3, pool, minBoxesPerRegion: 16 }), 3);
    await scene(t, 3, 31, { n: 200, frames: 10, teleport: 0.1, churn: 2, big: 1, async: true });
    pool.dispose();
  });

  it('rejects bad options before starting anything', () => {
    expect(
      () => new ParallelSweepAndPrune({ dimensions: 3, workers: 2, twoPhase: 'sometimes' as 'auto' }),
    ).toThrow(/twoPhase must be 'auto', 'always' or 'never', got 'sometimes'/);
    expect(() => new ParallelSweepAndPrune({ dimensions: 3, workers: 0 })).toThrow(
      /workers must be an integer/,
    );
    const pool = sharedPool(2);
    expect(() => new ParallelSweepAndPrune({ dimensions: 3, pool, workers: 4 })).toThrow(/pool has 2/);
    expect(() => new ParallelSweepAndPrune({ dimensions: 3, rebalanceAt: 0.5 })).toThrow(/rebalanceAt/);
    expect(() => new WorkerPool({ workers: 1.5 })).toThrow(/workers must be an integer/);
  });

  it('refuses changes while an updateAsync is running', async () => {
    const bp = parallel(2, 3);
    const h = bp.insert([0, 0, 0, 1, 1, 1]);
    const pending = bp.updateAsync();
    expect(() => bp.move(h, [1, 1, 1, 2, 2, 2])).toThrow(/updateAsync\(\) is still running/);
    await pending;
    bp.move(h, [1, 1, 1, 2, 2, 2]);
    bp.dispose();
  });
});

describe('ParallelSweepAndPrune without SharedArrayBuffer', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('runs the regions on the calling thread, says so once, and still equals SweepAndPrune', async () => {
    vi.stubGlobal('SharedArrayBuffer', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = new ParallelSweepAndPrune({ dimensions: 3, workers: 4, minBoxesPerRegion: 16 });
    expect(first.mode).toBe('in-thread');
    expect(first.fallbackReason).toMatch(/SharedArrayBuffer is unavailable/);
    const t = new Twin(first, 3);
    await scene(t, 3, 5, { n: 300, frames: 30, teleport: 0.05, churn: 3, big: 2 });
    expect(Math.min(...first.regionMembers())).toBeGreaterThan(0);
    const second = new ParallelSweepAndPrune({ dimensions: 2, workers: 2 });
    expect(second.mode).toBe('in-thread');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/regions run on the calling thread/);
    first.dispose();
    second.dispose();
  });

  it('one region: on the calling thread without a reason, or with one when a worker was asked for', async () => {
    vi.stubGlobal('SharedArrayBuffer', undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const alone = new ParallelSweepAndPrune({ dimensions: 3, workers: 1 });
    expect([alone.mode, alone.fallbackReason]).toEqual(['in-thread', null]);
    const asked = new ParallelSweepAndPrune({ dimensions: 3, workers: 1, callerRegion: false });
    expect(asked.mode).toBe('in-thread');
    expect(asked.fallbackReason).toMatch(/SharedArrayBuffer is unavailable/);
    const t = new Twin(asked, 3);
    await scene(t, 3, 9, { n: 200, frames: 20, teleport: 0.05, churn: 3, big: 2, async: true });
    alone.dispose();
    asked.dispose();
  });

  it('inThread: true runs in-thread without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bp = new ParallelSweepAndPrune({ dimensions: 2, workers: 3, inThread: true });
    expect(bp.mode).toBe('in-thread');
    expect(bp.fallbackReason).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('RegionLayout', () => {
  it('cuts space into regions that cover it and hold equal shares of the box centres', () => {
    const r = rng(12);
    for (const regions of [2, 3, 4, 5, 8]) {
      for (const d of [2, 3] as const) {
        const n = 997;
        const s = 2 * d;
        const bounds = new Float64Array(n * s);
        const alive = new Uint8Array(n).fill(1);
        for (let i = 0; i < n; i++) {
          // Clustered: most boxes near the origin, a few far out on one axis.
          for (let k = 0; k < d; k++) {
            const c = i % 10 === 0 && k === 0 ? 1e6 * r() : r() * r() * 50;
            bounds[i * s + k] = c - 0.5;
            bounds[i * s + d + k] = c + 0.5;
          }
        }
        alive[3] = 0;
        const out = new Float64Array(regions * s);
        new RegionLayout(d, regions).compute(bounds, alive, n, out);
        const counts = new Array(regions).fill(0);
        for (let i = 0; i < n; i++) {
          if (alive[i] === 0) continue;
          let owner = -1;
          for (let g = 0; g < regions && owner < 0; g++) {
            let inside = true;
            for (let k = 0; k < d; k++) {
              const c = 0.5 * bounds[i * s + k] + 0.5 * bounds[i * s + d + k];
              if (c < out[g * s + k] || c > out[g * s + d + k]) inside = false;
            }
            if (inside) owner = g;
          }
          expect(owner, `box ${i} lies in no region`).toBeGreaterThanOrEqual(0);
          counts[owner]++;
        }
        // Quantile cuts: every region within a few boxes of its share (ties at a cut go to the first).
        expect(imbalance(counts), `${regions} regions, ${d}-D: ${counts}`).toBeLessThan(1.05);
        // The rim is infinite: the regions cover all of space.
        for (let k = 0; k < d; k++) {
          expect(Math.min(...Array.from({ length: regions }, (_, g) => out[g * s + k]))).toBe(-Infinity);
          expect(Math.max(...Array.from({ length: regions }, (_, g) => out[g * s + d + k]))).toBe(Infinity);
        }
      }
    }
  });

  it('shares the boxes in proportion to the weights, and can keep the last cut axes', () => {
    const r = rng(31);
    const n = 1000;
    const bounds = new Float64Array(n * 4);
    const spread = (wide: number) => {
      for (let i = 0; i < n; i++) {
        const x = r() * (wide === 0 ? 100 : 10);
        const y = r() * (wide === 1 ? 100 : 10);
        bounds.set([x, y, x + 1, y + 1], i * 4);
      }
    };
    const alive = new Uint8Array(n).fill(1);
    const layout = new RegionLayout(2, 2);
    const out = new Float64Array(8);
    spread(0);
    layout.weights.set([1, 3]);
    layout.compute(bounds, alive, n, out);
    // Cut across x, at the quarter of the centres.
    expect(out[2]).toBeLessThan(Infinity);
    expect(out[3]).toBe(Infinity);
    let left = 0;
    for (let i = 0; i < n; i++) if (bounds[i * 4] + 0.5 <= out[2]) left++;
    expect(Math.abs(left - 250)).toBeLessThan(3);
    expect(imbalance([left, n - left], layout.weights)).toBeLessThan(1.02);
    expect(imbalance([left, n - left])).toBeGreaterThan(1.4);
    // The boxes now spread most along y: a new layout cuts across y, one that keeps its axes across x.
    spread(1);
    layout.weights.fill(1);
    layout.compute(bounds, alive, n, out, true);
    expect(out[2]).toBeLessThan(Infinity);
    expect(out[3]).toBe(Infinity);
    layout.compute(bounds, alive, n, out);
    expect(out[2]).toBe(Infinity);
    expect(out[3]).toBeLessThan(Infinity);
  });
});
