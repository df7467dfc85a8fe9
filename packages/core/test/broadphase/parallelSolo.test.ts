/**
 * ParallelSweepAndPrune with one region on the calling thread (`workers: 1` where `update()` can
 * block, or `workers: 1, inThread: true`): a plain SweepAndPrune underneath, so it must equal one —
 * handles, pairs, began, ended, their order and tags — over fuzzed frames mixing every way in:
 * `insert` (tagged, static), `move`, `moveMany`, boxes written straight into `bounds` then `markMoved`
 * or `markAllMoved` (statics only when listed), `setStatic` flips, removes, and bad boxes written there
 * (a RangeError naming the proxy, nothing changed, exact again once fixed). Also its one-region
 * reports, its errors (word for word those of the region path), and no allocation per frame.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import { runProbe } from '../../../../test/support/runProbe.js';
import { ParallelSweepAndPrune } from '../../src/broadphase/parallel/index.js';
import { type Dimensions, SweepAndPrune } from '../../src/index.js';
import { rng } from '../support/rng.js';

function same(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < got.length; i++)
    if (got[i] !== want[i]) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${want[i]}`);
}

function compare(par: ParallelSweepAndPrune, seq: SweepAndPrune, where: string): void {
  expect(par.pairCount, where).toBe(seq.pairCount);
  expect(par.beganCount, where).toBe(seq.beganCount);
  expect(par.endedCount, where).toBe(seq.endedCount);
  same(par.pairs(), seq.pairs(), `pairs, ${where}`);
  same(par.began(), seq.began(), `began, ${where}`);
  same(par.ended(), seq.ended(), `ended, ${where}`);
  const tags = par.pairTags();
  const want = seq.pairTags();
  same(
    tags.pairs.subarray(0, 2 * par.pairCount),
    want.pairs.subarray(0, 2 * seq.pairCount),
    `tags, ${where}`,
  );
  same(
    tags.began.subarray(0, 2 * par.beganCount),
    want.began.subarray(0, 2 * seq.beganCount),
    `began tags, ${where}`,
  );
  same(
    tags.ended.subarray(0, 2 * par.endedCount),
    want.ended.subarray(0, 2 * seq.endedCount),
    `ended tags, ${where}`,
  );
  expect(par.count, where).toBe(seq.count);
}

/** Every handle `queryBounds` reports, sorted. */
function query(bp: ParallelSweepAndPrune | SweepAndPrune, box: number[]): number[] {
  const out: number[] = [];
  bp.queryBounds(box, out);
  return out.sort((a, b) => a - b);
}

/** Bad boxes by dimension: a NaN, an infinity, a min above its max (on the last axis). */
const BAD: Record<Dimensions, number[][]> = {
  2: [
    [Number.NaN, 0, 1, 1],
    [0, 0, 1, Number.POSITIVE_INFINITY],
    [0, 3, 1, 2],
  ],
  3: [
    [Number.NaN, 0, 0, 1, 1, 1],
    [0, 0, 0, 1, Number.POSITIVE_INFINITY, 1],
    [0, 0, 3, 1, 1, 2],
  ],
};

/**
 * A fuzzed run: every frame moves most dynamic boxes one of four ways (move, moveMany, a write into
 * `bounds` and markMoved, or a write covered by markAllMoved), lifts a static box or two, flips a few
 * flags, removes and inserts; now and then it writes a bad box first and checks the throw.
 */
function fuzz(par: ParallelSweepAndPrune, d: Dimensions, seed: number, frames: number): void {
  const seq = new SweepAndPrune({ dimensions: d });
  const r = rng(seed);
  const world = 40;
  const live: number[] = [];
  const statics = new Set<number>();
  let tag = 0;
  const randomBox = () => {
    const p = Array.from({ length: d }, () => r() * world);
    const h = Array.from({ length: d }, () => (r() < 0.05 ? 0 : 0.2 + r() * 2));
    return [...p.map((v, k) => v - h[k]), ...p.map((v, k) => v + h[k])];
  };
  const nudged = (h: number) => {
    const b = seq.getBounds(h, new Array<number>(2 * d));
    const jump = r() < 0.03;
    for (let k = 0; k < d; k++) {
      const shift = jump ? r() * world - b[k] : (r() - 0.5) * 0.8;
      b[k] += shift;
      b[k + d] += shift;
    }
    return b;
  };
  const write = (h: number, b: number[]) => par.bounds.set(b, par.offsetOf(h));
  const insert = () => {
    const b = randomBox();
    const t = r() < 0.5 ? ++tag : 0;
    const s = r() < 0.2;
    const h = par.insert(b, t, s);
    expect(seq.insert(b, t, s)).toBe(h);
    live.push(h);
    if (s) statics.add(h);
  };
  for (let i = 0; i < 300; i++) insert();
  par.update();
  seq.update();
  compare(par, seq, 'first update');
  for (let f = 0; f < frames; f++) {
    const where = `seed ${seed}, frame ${f}`;
    const allMoved = r() < 0.5;
    const manyHandles: number[] = [];
    const manyBounds: number[] = [];
    for (const h of live) {
      if (r() < 0.2) continue;
      const b = nudged(h);
      seq.move(h, b);
      const way = r();
      if (way < 0.15) par.move(h, b);
      else if (way < 0.3) {
        manyHandles.push(h);
        manyBounds.push(...b);
      } else if (statics.has(h) || !allMoved || way < 0.45) {
        // markAllMoved reads the dynamic proxies only: a static one is marked.
        write(h, b);
        par.markMoved(h);
      } else write(h, b);
    }
    par.moveMany(manyHandles, manyBounds);
    if (allMoved) par.markAllMoved();
    for (let k = 0; k < 3 && live.length > 0; k++) {
      const h = live[Math.floor(r() * live.length)];
      const flag = r() < 0.5;
      par.setStatic(h, flag);
      seq.setStatic(h, flag);
      if (flag) statics.add(h);
      else statics.delete(h);
    }
    for (let c = 0; c < 4; c++) {
      const i = Math.floor(r() * live.length);
      par.remove(live[i]);
      seq.remove(live[i]);
      statics.delete(live[i]);
      live.splice(i, 1);
      insert();
      if (f % 3 === 0) insert();
    }
    // A just-inserted box rewritten in `bounds` before its first update.
    const fresh = live[live.length - 1];
    const b = randomBox();
    write(fresh, b);
    par.markMoved(fresh);
    seq.move(fresh, b);
    if (r() < 0.3) {
      // A bad box in one the update reads: it throws naming it, and nothing changed.
      const dynamic = live.filter((h) => !statics.has(h));
      const victim = dynamic[Math.floor(r() * dynamic.length)];
      const good = par.getBounds(victim, new Array<number>(2 * d));
      write(victim, BAD[d][f % 3]);
      if (!allMoved || r() < 0.5) par.markMoved(victim);
      const before = [par.pairs().slice(), par.began().slice(), par.ended().slice(), par.count];
      expect(() => par.update(), where).toThrow(RangeError);
      expect(() => par.update(), where).toThrow(
        `ParallelSweepAndPrune.update: the box of handle ${victim} in \`bounds\` (at ${par.offsetOf(victim)})`,
      );
      same(par.pairs(), before[0] as Int32Array, `pairs after the throw, ${where}`);
      same(par.began(), before[1] as Int32Array, `began after the throw, ${where}`);
      same(par.ended(), before[2] as Int32Array, `ended after the throw, ${where}`);
      expect(par.count).toBe(before[3]);
      write(victim, good);
    }
    par.update();
    seq.update();
    compare(par, seq, where);
    const q = randomBox().map((v, k) => (k < d ? v - 4 : v + 4));
    expect(query(par, q), `query, ${where}`).toEqual(query(seq, q));
    for (let k = 0; k < 5; k++) {
      const h = live[Math.floor(r() * live.length)];
      expect(par.has(h)).toBe(true);
      expect(par.tagOf(h)).toBe(seq.tagOf(h));
      expect(par.isStatic(h)).toBe(seq.isStatic(h));
      same(par.getBounds(h, new Float64Array(2 * d)), seq.getBounds(h, new Float64Array(2 * d)), 'bounds');
    }
  }
}

const alone = (d: Dimensions, extra: object = {}) =>
  new ParallelSweepAndPrune({ dimensions: d, workers: 1, initialCapacity: 8, ...extra });

describe('one region on the calling thread equals SweepAndPrune, order and tags included', () => {
  for (const d of [2, 3] as const) {
    for (const [label, extra] of [
      ['workers: 1', {}],
      ['workers: 1, inThread: true', { inThread: true }],
      ['workers: 1, validate: true', { validate: true }],
    ] as const) {
      it(`${d}-D, ${label}: fuzzed frames with every way in, flips, churn and bad boxes`, () => {
        for (const seed of [1, 2]) {
          const par = alone(d, extra);
          expect(par.mode).toBe('in-thread');
          fuzz(par, d, 100 * d + seed + label.length, depth(15, 40));
          par.dispose();
        }
      });
    }
  }

  it('markAllMoved reads every live dynamic proxy, and a static one only when marked or moved', () => {
    const par = alone(2);
    const a = par.insert([0, 0, 1, 1]);
    const s = par.insert([5, 5, 6, 6], 0, true);
    const b = par.insert([10, 10, 11, 11]);
    par.update();
    // Both written to overlap a; only the dynamic one is read.
    par.bounds.set([0.5, 0.5, 1.5, 1.5], par.offsetOf(s));
    par.bounds.set([0.5, 0, 1.5, 1], par.offsetOf(b));
    par.markAllMoved();
    par.update();
    expect(Array.from(par.pairs())).toEqual([a, b]);
    par.markMoved(s);
    par.update();
    expect(Array.from(par.began())).toEqual([a, s, s, b]);
    // A bad box in a static proxy nobody marked is not read either, nor one in a removed proxy's slot.
    par.bounds.set([Number.NaN, 0, 1, 1], par.offsetOf(s));
    const at = par.offsetOf(b);
    par.remove(b);
    par.bounds.set([2, 0, 1, 1], at);
    par.markAllMoved();
    expect(() => par.update()).not.toThrow();
    expect(Array.from(par.ended())).toEqual([a, b, s, b]);
  });

  it('reports one region: mode, counts, times, members, bounds, trace; ready and updateAsync', async () => {
    const par = alone(3);
    expect([par.mode, par.regionCount, par.callerRegion, par.fallbackReason]).toEqual([
      'in-thread',
      1,
      false,
      null,
    ]);
    await par.ready();
    // Timed from the first call on.
    expect(Array.from(par.regionTimes())).toEqual([0]);
    for (let i = 0; i < 3000; i++) par.insert([i, 0, 0, i + 1.5, 1, 1]);
    await par.updateAsync();
    expect(par.pairCount).toBe(2999);
    expect(Array.from(par.regionMembers())).toEqual([3000]);
    expect(par.regionTimes().length).toBe(1);
    expect(par.regionTimes()[0]).toBeGreaterThan(0);
    expect(Array.from(par.regionBounds())).toEqual([
      -Infinity,
      -Infinity,
      -Infinity,
      Infinity,
      Infinity,
      Infinity,
    ]);
    const trace = par.stepTrace();
    expect(Array.from(trace.pool)).toEqual([0, 0, 0]);
    expect(trace.regions.length).toBe(trace.stride);
    par.barrierSpinUs = 5;
    expect(par.barrierSpinUs).toBe(0);
    par.dispose();
    expect(() => par.pairs()).toThrow('ParallelSweepAndPrune.pairs: used after dispose()');
  });

  it('throws the errors of the region path, word for word', () => {
    const misuses: Array<[string, (bp: ParallelSweepAndPrune, h: number, gone: number) => unknown]> = [
      ['insert NaN', (bp) => bp.insert([Number.NaN, 0, 0, 1, 1, 1])],
      ['insert short', (bp) => bp.insert([0, 0, 1, 1])],
      ['insert tag', (bp) => bp.insert([0, 0, 0, 1, 1, 1], 1.5)],
      ['insert flag', (bp) => bp.insert([0, 0, 0, 1, 1, 1], 0, 'yes' as never)],
      ['move stale', (bp, _h, gone) => bp.move(gone, [0, 0, 0, 1, 1, 1])],
      ['move min > max', (bp, h) => bp.move(h, [2, 0, 0, 1, 1, 1])],
      ['moveMany', (bp, h) => bp.moveMany([h], [0, 0, 0, 1, Number.NaN, 1])],
      ['moveMany stale', (bp, _h, gone) => bp.moveMany([gone], [0, 0, 0, 1, 1, 1])],
      ['remove stale', (bp, _h, gone) => bp.remove(gone)],
      ['setStatic stale', (bp, _h, gone) => bp.setStatic(gone, true)],
      ['setStatic flag', (bp, h) => bp.setStatic(h, 1 as never)],
      ['isStatic', (bp, _h, gone) => bp.isStatic(gone)],
      ['tagOf', (bp, _h, gone) => bp.tagOf(gone)],
      ['getBounds stale', (bp, _h, gone) => bp.getBounds(gone, [])],
      ['getBounds out', (bp, h) => bp.getBounds(h, new Float64Array(2))],
      ['queryBounds box', (bp) => bp.queryBounds([0, 0, 0, 1, 1], [])],
      ['queryBounds out', (bp) => bp.queryBounds([0, 0, 0, 1, 1, 1], {} as never)],
      ['offsetOf', (bp, _h, gone) => bp.offsetOf(gone)],
      ['markMoved', (bp, _h, gone) => bp.markMoved(gone)],
      ['handle', (bp) => bp.move(-1, [0, 0, 0, 1, 1, 1])],
    ];
    const messages = (bp: ParallelSweepAndPrune) => {
      const h = bp.insert([0, 0, 0, 1, 1, 1]);
      const gone = bp.insert([0, 0, 0, 1, 1, 1]);
      bp.remove(gone);
      bp.update();
      return misuses.map(([label, use]) => {
        try {
          use(bp, h, gone);
          return `${label}: no throw`;
        } catch (error) {
          return `${label}: ${(error as Error).constructor.name} ${(error as Error).message}`;
        }
      });
    };
    const solo = messages(alone(3));
    const regions = messages(new ParallelSweepAndPrune({ dimensions: 3, workers: 2, inThread: true }));
    expect(solo).toEqual(regions);
    for (const m of solo) expect(m).toMatch(/: (RangeError|TypeError) ParallelSweepAndPrune\.\w+: /);
  });

  it('does not allocate per frame (direct writes with markAllMoved or markMoved, and moveMany)', () => {
    // In a child process, so the test runner's own traffic does not share the heap.
    const probe = fileURLToPath(new URL('./soloHeapProbe.ts', import.meta.url));
    const run = (...flags: string[]) => runProbe(probe, flags);
    // Every window feeds the three ways in turn (markAllMoved, markMoved each, moveMany).
    const r = run();
    expect(r.checksum).not.toBe(0);
    // The runtime adds garbage to some windows at random, never to all: the quietest is the measure.
    expect(Math.min(...r.growth), `growth per window ${r.growth.join(', ')}`).toBeLessThan(1024);
    // The control: one small array a frame shows in every window.
    const control = run('control');
    expect(Math.min(...control.growth), `control: ${control.growth.join(', ')}`).toBeGreaterThan(4096);
  });
});
