/**
 * Broadphases under hostile but finite input: coordinates up to the double range never hang the grid
 * (far boxes live outside it) and keep exact pairs; the pair lost when a big box and a returning
 * small box met in a region emptied during the same update stays found; `moveMany` rejects a bad
 * `count` or `handles` before changing anything. Every case runs under a time limit.
 */
import { describe, expect, it } from 'vitest';
import { type Broadphase, BruteForce, Octree, SweepAndPrune } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { Lockstep } from './harness.js';

const FAR = [1e9, 1e15, 1e18, 1e20, 1e100, 1e300, 1.7e308, -1e18, -1e300, -1.7e308, Number.MAX_VALUE];

function pairsOf(bp: Broadphase): number[] {
  return Array.from(bp.pairs());
}

describe('SweepAndPrune: the lost pair (boxes near the big-box threshold)', () => {
  // A big box and a small box that returns to a cell emptied earlier in the same update: the big box
  // skipped the emptied region, the small box revived it without the big box.
  const run = (validate: boolean) => {
    const bp = new SweepAndPrune({ dimensions: 2, cellSize: 0.3, validate });
    const h = [
      [3, 1, 4, 2],
      [2, 3, 3, 4],
      [0, 2, 1, 3],
    ].map((b) => bp.insert(b));
    bp.update();
    const moved = [
      [3, 0, 4, 1],
      [2, 2, 3, 3],
      [3, 1, 4, 2],
    ];
    for (let i = 0; i < 3; i++) bp.move(h[i], moved[i]);
    bp.update();
    const fresh = new SweepAndPrune({ dimensions: 2, cellSize: 0.3, validate });
    for (const b of moved) fresh.insert(b);
    fresh.update();
    return { moved: pairsOf(bp), fresh: pairsOf(fresh) };
  };

  it('moving the boxes gives the pairs inserting them fresh gives: [0, 2, 1, 2]', () => {
    const { moved, fresh } = run(false);
    expect(fresh).toEqual([0, 2, 1, 2]);
    expect(moved).toEqual([0, 2, 1, 2]);
  });

  it('passes validate() on every update', () => {
    expect(() => run(true)).not.toThrow();
  });
});

describe('SweepAndPrune: far coordinates never hang and keep exact pairs', () => {
  it('cellSize 1, two boxes, one at x = 1e20 (and beyond)', { timeout: 10_000 }, () => {
    for (const x of FAR) {
      const bp = new SweepAndPrune({ dimensions: 3, cellSize: 1, validate: true });
      const a = bp.insert([0, 0, 0, 1, 1, 1]);
      const b = bp.insert([x, 0, 0, x, 1, 1]);
      bp.update();
      expect(bp.pairCount).toBe(0);
      bp.move(a, [x, 0, 0, x, 1, 1]);
      bp.update();
      expect(pairsOf(bp)).toEqual([a, b]);
      const found: number[] = [];
      bp.queryBounds([x, 0.5, 0.5, x, 0.5, 0.5], found);
      expect(found.sort((p, q) => p - q)).toEqual([a, b]);
    }
  });

  it('automatic grid with 300 boxes, one teleported to 1e18, 1e20, 1e300, -1.7e308', {
    timeout: 20_000,
  }, () => {
    for (const x of [1e18, 1e20, 1e300, -1.7e308]) {
      for (const d of [2, 3] as const) {
        const step = new Lockstep(new SweepAndPrune({ dimensions: d }), d);
        const r = rng(5);
        for (let i = 0; i < 300; i++) {
          const p = Array.from({ length: d }, () => r() * 50);
          step.apply({ kind: 'insert', box: [...p, ...p.map((v) => v + 1 + r())] });
        }
        step.update();
        const far = Array.from({ length: d }, (_, k) => (k === 0 ? x : 3));
        step.apply({ kind: 'move', pick: 7, box: [...far, ...far.map((v) => v + 1)] });
        step.update();
        step.apply({ kind: 'move', pick: 8, box: [...far, ...far.map((v) => v + 1)] });
        step.update();
        step.apply({ kind: 'query', box: [...far, ...far] });
        step.apply({
          kind: 'query',
          box: [-Number.MAX_VALUE, 0, 0, Number.MAX_VALUE, 10, 10].slice(0, 2 * d),
        });
        // Back home: the box rejoins the grid.
        step.apply({ kind: 'move', pick: 7, box: [...far.map(() => 1), ...far.map(() => 2)] });
        step.update();
      }
    }
  });

  it('boxes spanning the whole double range and boxes beyond the grid on one side', {
    timeout: 10_000,
  }, () => {
    const bp = new SweepAndPrune({ dimensions: 2, cellSize: 0.5, validate: true });
    const step = new Lockstep(bp, 2);
    step.apply({
      kind: 'insert',
      box: [-Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_VALUE, Number.MAX_VALUE],
    });
    step.apply({ kind: 'insert', box: [0, 0, 1, 1] });
    step.apply({ kind: 'insert', box: [0.5, 0, 1e300, 1] });
    step.apply({ kind: 'insert', box: [-1e300, 0.5, 0.25, 0.75] });
    step.update();
    const edge = SweepAndPrune.GRID_CELL_LIMIT * 0.5;
    step.apply({ kind: 'insert', box: [edge - 1, 0, edge + 1, 1] });
    step.apply({ kind: 'insert', box: [edge, 0, edge, 0] });
    step.update();
    step.apply({ kind: 'query', box: [edge, 0, edge, 0] });
    expect(bp.pairCount).toBe(step.ref.pairCount);
  });

  it('rejects a cellSize whose inverse overflows, and bad grid options', () => {
    expect(() => new SweepAndPrune({ dimensions: 3, cellSize: 1e-320 })).toThrow(/cellSize .* too small/);
    expect(() => new SweepAndPrune({ dimensions: 3, maxCellsPerObject: Number.NaN })).toThrow(
      /maxCellsPerObject/,
    );
    expect(() => new SweepAndPrune({ dimensions: 3, maxCellsPerObject: 1e9 })).toThrow(/maxCellsPerObject/);
    expect(() => new SweepAndPrune({ dimensions: 3, autoGridThreshold: 0 })).toThrow(/autoGridThreshold/);
    expect(() => new SweepAndPrune({ dimensions: 3, objectsPerCell: -1 })).toThrow(/objectsPerCell/);
    expect(() => new SweepAndPrune({ dimensions: 3, passShare: Number.NaN })).toThrow(/passShare/);
    expect(() => new SweepAndPrune(null as never)).toThrow(TypeError);
    expect(() => new Octree(undefined as never)).toThrow(/options must be an object/);
    expect(() => new BruteForce(7 as never)).toThrow(/options must be an object/);
  });
});

describe('Octree: far coordinates keep exact pairs', () => {
  it('teleports to 1e300, -1.7e308 and back', { timeout: 20_000 }, () => {
    for (const x of FAR) {
      const step = new Lockstep(new Octree({ dimensions: 3, validate: true }), 3);
      for (let i = 0; i < 40; i++) step.apply({ kind: 'insert', box: [i, 0, 0, i + 1.5, 1, 1] });
      step.update();
      step.apply({ kind: 'move', pick: 3, box: [x, 0, 0, x, 1, 1] });
      step.update();
      step.apply({ kind: 'move', pick: 4, box: [x, 0, 0, x, 1, 1] });
      step.apply({ kind: 'move', pick: 5, box: [-Number.MAX_VALUE, 0, 0, Number.MAX_VALUE, 1, 1] });
      step.update();
      step.apply({ kind: 'query', box: [x, 0, 0, x, 0, 0] });
      step.apply({ kind: 'move', pick: 3, box: [3, 0, 0, 4, 1, 1] });
      step.update();
    }
  });
});

describe('moveMany validates count and handles before anything changes', () => {
  for (const make of [() => new SweepAndPrune({ dimensions: 2 }), () => new Octree({ dimensions: 2 })]) {
    it(`${make().constructor.name}`, () => {
      const bp = make();
      const a = bp.insert([0, 0, 1, 1]);
      const b = bp.insert([5, 5, 6, 6]);
      bp.update();
      const handles = [a, b];
      const bounds = [0.5, 0.5, 5.5, 5.5, 5, 5, 6, 6];
      for (const count of [Number.NaN, -1, 1.5, 3, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
        expect(() => bp.moveMany(handles, bounds, count), String(count)).toThrow(RangeError);
        expect(() => bp.moveMany(handles, bounds, count)).toThrow(/count/);
      }
      for (const bad of [null, undefined, 5, 'ab', { 0: a }] as unknown as number[][]) {
        expect(() => bp.moveMany(bad, bounds)).toThrow(/handles/);
      }
      expect(() => bp.moveMany(handles, null as never)).toThrow(/bounds/);
      expect(() => bp.moveMany(handles, [0, 0, 1, 1, 5, 5, 6])).toThrow(/bounds has 7 numbers, need 8/);
      expect(() => bp.moveMany([a, a + 1e6], bounds)).toThrow(/unknown or was removed/);
      bp.update();
      expect(bp.pairCount).toBe(0);
      expect(bp.getBounds(a, [])).toEqual([0, 0, 1, 1]);
      bp.moveMany(handles, bounds, 1);
      bp.update();
      expect(pairsOf(bp)).toEqual([a, b]);
      expect(() => bp.getBounds(a, null as never)).toThrow(/out must be/);
      expect(() => bp.getBounds(a, new Float64Array(2))).toThrow(/out must be/);
      expect(() => bp.queryBounds([0, 0, 1, 1], null as never)).toThrow(/out must be/);
    });
  }
});

describe('moveMany with typed arrays (the per-frame fast path) names the first bad entry, changes nothing', () => {
  for (const d of [2, 3] as const) {
    for (const make of [
      () => new SweepAndPrune({ dimensions: d }),
      () => new Octree({ dimensions: d }),
      () => new BruteForce({ dimensions: d }),
    ]) {
      it(`${make().constructor.name}, ${d}-D`, () => {
        const bp = make();
        const s = 2 * d;
        const n = 40;
        const handles = new Int32Array(n);
        const start = new Float64Array(n * s);
        for (let i = 0; i < n; i++) {
          for (let k = 0; k < d; k++) {
            start[i * s + k] = 3 * i + k;
            start[i * s + d + k] = 3 * i + k + 1;
          }
          handles[i] = bp.insert(start.subarray(i * s, i * s + s));
        }
        bp.update();
        const gone = bp.insert(start.subarray(0, s));
        bp.update();
        bp.remove(gone);
        bp.update();
        // Every box moved onto the first: all would overlap, if any of it were taken.
        const onto = new Float64Array(n * s);
        for (let i = 0; i < n; i++) onto.set(start.subarray(0, s), i * s);
        const cases: Array<[string, (h: Int32Array, b: Float64Array) => void, RegExp]> = [
          ['stale handle', (h) => (h[17] = gone), /unknown or was removed/],
          ['slot past the used ones', (h) => (h[17] = 1 << 19), /unknown or was removed/],
          ['negative handle', (h) => (h[17] = -5), /is not a handle/],
          ['NaN', (_, b) => (b[17 * s + 1] = Number.NaN), new RegExp(`bounds\\[${17 * s + 1}\\] is NaN`)],
          ['Infinity', (_, b) => (b[17 * s + d] = Number.POSITIVE_INFINITY), /is Infinity/],
          [
            'min > max',
            (_, b) => (b[17 * s + d - 1] = 1e9),
            new RegExp(`box 17 has min > max on axis ${d - 1}`),
          ],
        ];
        for (const [what, spoil, message] of cases) {
          const h = handles.slice();
          const b = onto.slice();
          spoil(h, b);
          expect(() => bp.moveMany(h, b), what).toThrow(message);
          bp.update();
          expect(bp.pairCount, what).toBe(0);
        }
        bp.moveMany(handles, onto);
        bp.update();
        expect(bp.pairCount).toBe((n * (n - 1)) / 2);
      });
    }
  }
});
