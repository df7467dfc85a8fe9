import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameRecorder, type OverlayExport } from '../src/index.js';

/** A recorder on a fake clock the test advances by hand. */
function fake(capacity = 8) {
  const clock = { t: 1000 };
  const rec = new FrameRecorder({ capacity, now: () => clock.t, phases: ['physics', 'render'] });
  return { rec, clock };
}

function sortedStats(values: number[]) {
  const a = values.slice().sort((x, y) => x - y);
  const n = a.length;
  const median = n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  return { min: a[0], max: a[n - 1], median, mean: values.reduce((s, v) => s + v, 0) / n };
}

describe('FrameRecorder ring buffers', () => {
  it('times begin/end phases on the clock, accumulates repeats, nests, and closes frames', () => {
    const { rec, clock } = fake();
    rec.begin('physics');
    clock.t += 2;
    rec.begin('render'); // nested inside physics
    clock.t += 3;
    expect(rec.end()).toBe(3);
    clock.t += 1;
    expect(rec.end()).toBe(6);
    rec.begin('render'); // second render in the same frame accumulates
    clock.t += 0.5;
    rec.end();
    rec.record('physics', 0.25);
    rec.count('bodies', 42);
    rec.endFrame();
    expect(rec.frameCount).toBe(1);
    expect(rec.size).toBe(1);
    expect(rec.phaseHistory('physics')[0]).toBeCloseTo(6.25, 6);
    expect(rec.phaseHistory('render')[0]).toBeCloseTo(3.5, 6);
    expect(rec.counterHistory('bodies')[0]).toBe(42);
    // Accumulators are cleared by endFrame: an empty frame records "not measured" (NaN), and the interval.
    clock.t += 10;
    rec.endFrame();
    expect(Array.from(rec.phaseHistory('physics'))).toEqual([6.25, Number.NaN]);
    expect(Array.from(rec.counterHistory('bodies'))).toEqual([42, Number.NaN]);
    expect(rec.frameStats().last).toBe(10);
    expect(rec.frameStats().count).toBe(1); // the first frame has no interval and is left out
    // Not-measured frames are left out of the statistics; `last` says the last frame did not measure it.
    expect(rec.phaseStats('physics')).toMatchObject({ count: 1, median: 6.25, max: 6.25 });
    expect(rec.phaseStats('physics').last).toBeNaN();
  });

  it('a phase never measured in the window has NaN statistics and count 0, never a misleading 0', () => {
    const { rec, clock } = fake();
    rec.phase('broadphase');
    for (let f = 0; f < 5; f++) {
      rec.record('physics', 1 + f);
      clock.t += 16;
      rec.endFrame();
    }
    const s = rec.phaseStats('broadphase');
    expect(s.count).toBe(0);
    for (const k of ['min', 'median', 'max', 'mean', 'last'] as const) expect(s[k]).toBeNaN();
    expect(rec.phaseStats('physics')).toMatchObject({ count: 5, median: 3, last: 5 });
    const data = JSON.parse(rec.exportFrames()) as OverlayExport;
    expect(data.frames.every((f) => f.phases.broadphase === null)).toBe(true);
    expect(data.stats.phases.broadphase.median).toBeNull();
  });

  it('"other" is the interval minus top-level phases: nested and recorded-inside phases count once', () => {
    const { rec, clock } = fake();
    rec.endFrame(); // first frame: no interval, no "other"
    expect(rec.otherStats().count).toBe(0);
    rec.begin('physics');
    clock.t += 4;
    rec.record('collision', 3); // recorded while physics is open: part of physics
    rec.begin('broadphase'); // nested
    clock.t += 1;
    rec.end();
    rec.end(); // physics = 5
    rec.record('render', 2); // top level
    clock.t += 20; // the frame closes 25 ms after the previous one
    rec.endFrame();
    expect(rec.frameStats().last).toBe(25);
    expect(rec.otherStats().last).toBe(25 - 5 - 2);
    expect(rec.phaseParent('collision')).toBe(rec.phase('physics'));
    expect(rec.phaseParent('broadphase')).toBe(rec.phase('physics'));
    expect(rec.phaseParent('render')).toBe(-1);
    expect(rec.phaseParent('physics')).toBe(-1);
    // Phases longer than the interval (a clock mismatch) clamp "other" at 0.
    rec.record('render', 100);
    clock.t += 10;
    rec.endFrame();
    expect(rec.otherStats().last).toBe(0);
  });

  it('segments: beginSegment keeps the medians per label, clears the window, and names the comparison', () => {
    const clock = { t: 0 };
    const rec = new FrameRecorder({
      now: () => clock.t,
      phases: ['collision', 'broadphase'],
      segment: 'sieve',
    });
    const run = (frames: number, collision: number, broadphase: number | null) => {
      for (let f = 0; f < frames; f++) {
        rec.record('collision', collision);
        if (broadphase !== null) rec.record('broadphase', broadphase);
        rec.count('pairs', 7);
        clock.t += 16;
        rec.endFrame();
      }
    };
    run(10, 2, 1);
    expect(rec.comparison).toBeUndefined();
    rec.beginSegment('stock');
    expect(rec.segment).toBe('stock');
    expect(rec.frameCount).toBe(0); // window cleared: stock statistics never mix with Sieve frames
    run(6, 9, null); // stock reports no broadphase
    const sieve = rec.comparison!;
    expect(sieve).toMatchObject({ label: 'sieve', frames: 10, frameMedian: 16 });
    expect(sieve.phases).toEqual({ collision: 2, broadphase: 1 });
    expect(sieve.counters).toEqual({ pairs: 7 });
    expect(rec.phaseStats('collision').median).toBe(9);
    expect(rec.phaseStats('broadphase').count).toBe(0);
    rec.beginSegment('sieve');
    run(3, 3, 1);
    expect(rec.comparison?.label).toBe('stock');
    expect(rec.comparison?.phases.broadphase).toBeNaN();
    expect(rec.segmentSummary('sieve')?.phases.collision).toBe(2); // the earlier Sieve segment
    const data = JSON.parse(rec.exportFrames()) as OverlayExport;
    expect(data.segment).toBe('sieve');
    expect(Object.keys(data.segments)).toEqual(['sieve', 'stock']); // finished segments, oldest first
    expect(data.segments.stock.phases).toEqual({ collision: 9, broadphase: null });
    expect(() => rec.beginSegment(3 as never)).toThrow(/label must be a string/);
  });

  it('worlds: a segment is compared only with a segment of the same world, never across world sizes', () => {
    const clock = { t: 0 };
    const rec = new FrameRecorder({
      now: () => clock.t,
      phases: ['collision'],
      segment: 'sieve',
      world: '5 bodies',
    });
    const run = (frames: number, collision: number) => {
      for (let f = 0; f < frames; f++) {
        rec.record('collision', collision);
        clock.t += 16;
        rec.endFrame();
      }
    };
    expect(rec.world).toBe('5 bodies');
    run(10, 0.02); // a small world: Sieve answers in 0.02 ms
    rec.beginSegment('sieve', '2505 bodies'); // the world grows: nothing to compare with yet
    run(5, 0.5);
    expect(rec.world).toBe('2505 bodies');
    expect(rec.comparison).toBeUndefined(); // not the 5-body Sieve frames
    rec.beginSegment('stock'); // same world (default: the current one)
    expect(rec.world).toBe('2505 bodies');
    run(5, 3.75);
    expect(rec.comparison).toMatchObject({
      label: 'sieve',
      world: '2505 bodies',
      phases: { collision: 0.5 },
    });
    rec.beginSegment('stock', '5000 bodies');
    expect(rec.comparison).toBeUndefined();
    run(3, 7);
    // The small world's segments are kept, under their world.
    expect(rec.segmentSummary('sieve', '5 bodies')?.phases.collision).toBeCloseTo(0.02, 6);
    expect(rec.segmentSummary('sieve')).toBeUndefined(); // none in the current world
    const data = JSON.parse(rec.exportFrames()) as OverlayExport;
    expect(data.world).toBe('5000 bodies');
    expect(data.segments).toEqual({}); // the export never holds another world's segments
    rec.beginSegment('sieve');
    const again = JSON.parse(rec.exportFrames()) as OverlayExport;
    expect(Object.keys(again.segments)).toEqual(['stock']);
    expect(again.segments.stock).toMatchObject({ world: '5000 bodies', frames: 3 });
    expect(() => rec.beginSegment('sieve', 5 as never)).toThrow(/world must be a string/);
    expect(() => new FrameRecorder({ world: 5 as never })).toThrow(/world must be a string/);
  });

  it('keeps the last `capacity` frames, oldest first, after wrapping many times', () => {
    const cap = 7;
    const { rec, clock } = fake(cap);
    const total = 3 * cap + 4;
    for (let f = 0; f < total; f++) {
      rec.record('physics', f);
      rec.count('frame', f * 10);
      clock.t += 16;
      rec.endFrame();
    }
    expect(rec.frameCount).toBe(total);
    expect(rec.size).toBe(cap);
    const expected = Array.from({ length: cap }, (_, k) => total - cap + k);
    expect(Array.from(rec.phaseHistory('physics'))).toEqual(expected);
    expect(Array.from(rec.counterHistory('frame'))).toEqual(expected.map((v) => v * 10));
    // Raw ring + oldestSlot gives the same order.
    const ring = rec.phaseRing('physics');
    const viaSlots = expected.map((_, k) => ring[(rec.oldestSlot + k) % cap]);
    expect(viaSlots).toEqual(expected);
    // Once wrapped, every interval counts.
    expect(rec.frameStats().count).toBe(cap);
    expect(rec.frameStats().median).toBe(16);
  });

  it('min/median/max/mean/last equal a sorted brute force on random windows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.array(fc.float({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 120 }),
        (cap, values) => {
          const rec = new FrameRecorder({ capacity: cap, now: () => 0 });
          const stored: number[] = [];
          for (const v of values) {
            rec.record('p', v);
            rec.endFrame();
            stored.push(Math.fround(v));
          }
          const win = stored.slice(-cap);
          const s = rec.phaseStats('p');
          const ref = sortedStats(win);
          expect(s.count).toBe(win.length);
          expect(s.min).toBe(ref.min);
          expect(s.max).toBe(ref.max);
          expect(s.median).toBeCloseTo(ref.median, 9);
          expect(s.mean).toBeCloseTo(ref.mean, 6);
          expect(s.last).toBe(win[win.length - 1]);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('median is right on sorted, reversed and constant windows (selection pivots)', () => {
    for (const make of [(k: number) => k, (k: number) => 300 - k, () => 5, (k: number) => k % 3]) {
      const rec = new FrameRecorder({ capacity: 300, now: () => 0 });
      const vals: number[] = [];
      for (let k = 0; k < 300; k++) {
        rec.record('p', make(k));
        rec.endFrame();
        vals.push(make(k));
      }
      expect(rec.phaseStats('p').median).toBe(sortedStats(vals).median);
    }
  });

  it('accepts indices from phase()/counter() and registers names once, in order', () => {
    const rec = new FrameRecorder({ now: () => 0, phases: ['a', 'b'], counters: ['n'] });
    expect(rec.phase('a')).toBe(0);
    expect(rec.phase('b')).toBe(1);
    expect(rec.phase('c')).toBe(2);
    expect(rec.phase('a')).toBe(0);
    expect(rec.phaseNames).toEqual(['a', 'b', 'c']);
    expect(rec.counter('n')).toBe(0);
    rec.record(2, 1.5);
    rec.count(0, 3);
    rec.endFrame();
    expect(rec.phaseStats('c').last).toBe(1.5);
    expect(rec.counterStats('n').last).toBe(3);
    // Many phases grow the accumulator without losing values.
    for (let i = 0; i < 40; i++) rec.record(`x${i}`, i);
    rec.endFrame();
    for (let i = 0; i < 40; i++) expect(rec.phaseStats(`x${i}`).last).toBe(i);
  });

  it('rejects bad input with errors naming the argument', () => {
    const { rec } = fake();
    expect(() => new FrameRecorder({ capacity: 1 })).toThrow(/capacity/);
    expect(() => new FrameRecorder({ capacity: 2.5 })).toThrow(/capacity/);
    expect(() => new FrameRecorder({ budgetMs: 0 })).toThrow(/budgetMs/);
    expect(() => new FrameRecorder({ budgetMs: Number.NaN })).toThrow(/budgetMs/);
    expect(() => rec.end()).toThrow(/without a matching begin/);
    expect(() => rec.begin(5)).toThrow(/phase index 5/);
    expect(() => rec.begin(-1)).toThrow(/phase index/);
    expect(() => rec.record('physics', Number.NaN)).toThrow(/ms must be finite/);
    expect(() => rec.record('physics', -1)).toThrow(/ms must be finite/);
    expect(() => rec.record('physics', Number.POSITIVE_INFINITY)).toThrow(/ms must be finite/);
    expect(() => rec.count('bodies', Number.NaN)).toThrow(/value must be finite/);
    expect(() => rec.phase('')).toThrow(/non-empty/);
    expect(() => rec.phaseStats('nope')).toThrow(/unknown phase "nope"/);
    expect(rec.phaseNames).not.toContain('nope'); // reading never registers
    rec.begin('physics');
    expect(() => rec.endFrame()).toThrow(/still open \(innermost: physics\)/);
    rec.end();
    expect(() => rec.phaseHistory('physics', new Float32Array(0))).not.toThrow(); // size 0 so far
    rec.endFrame();
    expect(() => rec.phaseHistory('physics', new Float32Array(0))).toThrow(/out has length 0/);
    let deep = 0;
    expect(() => {
      for (; deep < 100; deep++) rec.begin('physics');
    }).toThrow(/nested deeper than 32/);
    expect(deep).toBe(32);
  });

  it('reset forgets frames but keeps registrations', () => {
    const { rec, clock } = fake();
    rec.record('physics', 3);
    clock.t += 5;
    rec.endFrame();
    rec.reset();
    expect(rec.frameCount).toBe(0);
    expect(rec.phaseStats('physics').count).toBe(0);
    expect(rec.phaseNames).toEqual(['physics', 'render']);
  });
});

describe('FrameRecorder JSON export', () => {
  it('exports the window oldest first, with names, indices, times and stats, and parses back', () => {
    const { rec, clock } = fake(4);
    for (let f = 0; f < 6; f++) {
      rec.begin('physics');
      clock.t += 1 + f;
      rec.end();
      rec.record('render', 0.5);
      rec.count('bodies', 100 + f);
      clock.t += 2;
      rec.endFrame();
    }
    const data = JSON.parse(rec.exportFrames()) as OverlayExport;
    expect(data.version).toBe(3);
    expect(data.capacity).toBe(4);
    expect(data.frameCount).toBe(6);
    expect(data.budgetMs).toBe(16.7);
    expect(data.phases).toEqual(['physics', 'render']);
    expect(data.counters).toEqual(['bodies']);
    expect(data.frames.map((f) => f.index)).toEqual([2, 3, 4, 5]);
    expect(data.frames.map((f) => f.phases.physics)).toEqual([3, 4, 5, 6]);
    expect(data.frames.map((f) => f.phases.render)).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(data.frames.map((f) => f.counters.bodies)).toEqual([102, 103, 104, 105]);
    expect(data.frames.map((f) => f.frameMs)).toEqual([5, 6, 7, 8]);
    // "other": the interval minus the two top-level phases.
    expect(data.frames.map((f) => f.otherMs)).toEqual([1.5, 1.5, 1.5, 1.5]);
    for (let k = 1; k < 4; k++)
      expect(data.frames[k].time - data.frames[k - 1].time).toBe(data.frames[k].frameMs);
    expect(data.stats.phases.physics).toMatchObject({ min: 3, max: 6, median: 4.5, last: 6, count: 4 });
    expect(data.stats.counters.bodies.last).toBe(105);
    expect(data.stats.frame.median).toBe(6.5);
    // JSON.stringify(recorder) goes through toJSON.
    expect(JSON.parse(JSON.stringify(rec))).toEqual(data);
  });

  it('exports an empty window before the first frame', () => {
    const rec = new FrameRecorder({ now: () => 0 });
    const data = rec.toJSON();
    expect(data.frames).toEqual([]);
    expect(data.stats.frame.count).toBe(0);
  });
});
