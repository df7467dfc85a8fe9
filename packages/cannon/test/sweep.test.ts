/**
 * `AxisSweep` against brute force: over frames of boxes that move a little, teleport, are added and
 * removed (indices shifting, as `world.removeBody` shifts them, or a list edited by hand), left out, and
 * that spread along another axis, every frame's pairs are exactly the pairs of boxes that overlap
 * (inclusively) on all three axes, each once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AxisSweep } from '../src/sweep.js';

interface Item {
  index: number;
  box: number[];
  out: boolean;
}

/** The overlapping pairs of `items`, as sorted "i,j" (i < j) strings. */
function brute(items: Item[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i].box;
      const b = items[j].box;
      if (items[i].out || items[j].out) continue;
      if (a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5]) {
        pairs.push(`${i},${j}`);
      }
    }
  }
  return pairs.sort();
}

function swept(sweep: AxisSweep, items: Item[]): string[] {
  const n = items.length;
  sweep.reserve(n);
  for (let i = 0; i < n; i++) {
    sweep.boxes.set(items[i].box, 6 * i);
    sweep.skip[i] = items[i].out ? 1 : 0;
  }
  const count = sweep.run(items, n);
  const pairs: string[] = [];
  for (let k = 0; k < count; k++) {
    const i = sweep.pairs[2 * k];
    const j = sweep.pairs[2 * k + 1];
    pairs.push(i < j ? `${i},${j}` : `${j},${i}`);
  }
  return pairs.sort();
}

/** A box: lower corner from a coarse grid (ties and touching faces) or anywhere, then a size. */
const coord = fc.oneof(fc.integer({ min: -6, max: 6 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const size = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 3 }),
  fc.double({ min: 0, max: 1e5, noNaN: true }),
);
const boxArb = fc
  .tuple(coord, coord, coord, size, size, size)
  .map(([x, y, z, w, h, d]) => [x, y, z, x + w, y + h, z + d]);

type Edit =
  | { kind: 'nudge'; at: number; by: number }
  | { kind: 'teleport'; at: number; box: number[] }
  | { kind: 'add'; box: number[] }
  | { kind: 'remove'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'out'; at: number }
  | { kind: 'stretch'; axis: number; by: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('nudge' as const),
    at: fc.nat(),
    by: fc.double({ min: -2, max: 2, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('teleport' as const), at: fc.nat(), box: boxArb }),
  fc.record({ kind: fc.constant('add' as const), box: boxArb }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('out' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('stretch' as const),
    axis: fc.integer({ min: 0, max: 2 }),
    by: fc.integer({ min: 2, max: 50 }),
  }),
);

function apply(items: Item[], e: Edit): void {
  const n = items.length;
  if (e.kind === 'add') items.push({ index: n, box: e.box.slice(), out: false });
  else if (e.kind === 'stretch') {
    // Everything spread along one axis: the sweep may change axis.
    for (const it of items) for (const k of [e.axis, e.axis + 3]) it.box[k] *= e.by;
  } else if (n === 0) return;
  else if (e.kind === 'nudge') {
    const b = items[e.at % n].box;
    for (let k = 0; k < 6; k++) b[k] += e.by * (1 + (k % 3));
  } else if (e.kind === 'teleport') items[e.at % n].box = e.box.slice();
  else if (e.kind === 'remove') {
    // As world.removeBody: later bodies shift down and learn their new index.
    items.splice(e.at % n, 1);
    items.forEach((it, i) => {
      it.index = i;
    });
  } else if (e.kind === 'swap') {
    // A list edited by hand: indices stale until the next frame renumbers.
    const a = e.at % n;
    const b = e.with % n;
    [items[a], items[b]] = [items[b], items[a]];
  } else items[e.at % n].out = !items[e.at % n].out;
}

describe('AxisSweep', () => {
  it('finds exactly the overlapping pairs, each once, frame after frame of edits', () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { maxLength: 40 }),
        fc.array(fc.array(editArb, { maxLength: 6 }), { minLength: 1, maxLength: 12 }),
        (boxes, frames) => {
          const items: Item[] = boxes.map((box, index) => ({ index, box, out: false }));
          const sweep = new AxisSweep();
          expect(swept(sweep, items)).toEqual(brute(items));
          for (const edits of frames) {
            for (const e of edits) apply(items, e);
            expect(swept(sweep, items)).toEqual(brute(items));
            items.forEach((it, i) => {
              it.index = i;
            });
          }
        },
      ),
      { seed: 7, numRuns: 400 },
    );
  });

  it('sweeps in strips across a second axis: each pair once, in crowded volumes of mixed sizes', () => {
    // A volume of boxes (3-D scenes: many overlap on any one axis), a few of them huge or flat.
    const volumeBox = fc
      .tuple(
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.oneof(
          { weight: 12, arbitrary: fc.double({ min: 0, max: 3, noNaN: true }) },
          { weight: 1, arbitrary: fc.constantFrom(0, 40, 1e4) },
        ),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
      )
      .map(([x, y, z, s, t]) => [x, y, z, x + s, y + s * t, z + s / t]);
    let striped = 0;
    fc.assert(
      fc.property(
        fc.array(volumeBox, { minLength: 40, maxLength: 400 }),
        fc.array(fc.array(editArb, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        (boxes, frames) => {
          const items: Item[] = boxes.map((box, index) => ({ index, box, out: false }));
          const sweep = new AxisSweep();
          expect(swept(sweep, items)).toEqual(brute(items));
          if (sweep.strips > 1) striped++;
          for (const edits of frames) {
            for (const e of edits) apply(items, e);
            expect(swept(sweep, items)).toEqual(brute(items));
            if (sweep.strips > 1) striped++;
            items.forEach((it, i) => {
              it.index = i;
            });
          }
        },
      ),
      { seed: 11, numRuns: 80 },
    );
    expect(striped).toBeGreaterThan(100);
  });

  it('repairs a coherent order by insertion sort and sorts a scrambled one in full', () => {
    const n = 3000;
    const items: Item[] = [];
    for (let i = 0; i < n; i++) {
      const x = (i * 7919) % n;
      items.push({ index: i, box: [x, 0, 0, x + 1.5, 1, 1], out: false });
    }
    const sweep = new AxisSweep();
    expect(swept(sweep, items)).toEqual(brute(items));
    const first = sweep.fullSorts;
    expect(first).toBe(1); // from scratch: far from sorted
    for (let frame = 0; frame < 5; frame++) {
      for (const it of items) {
        it.box[0] += 0.01 * ((it.index % 3) - 1);
        it.box[3] += 0.01 * ((it.index % 3) - 1);
      }
      expect(swept(sweep, items)).toEqual(brute(items));
    }
    expect(sweep.fullSorts).toBe(first);
    // Bodies removed from the middle (indices shift): each is followed to its new index, no full sort.
    for (const at of [1500, 10, 2000]) {
      items.splice(at, 1);
      items.forEach((it, i) => {
        it.index = i;
      });
      expect(swept(sweep, items)).toEqual(brute(items));
    }
    expect(sweep.fullSorts).toBe(first);
    // Reversed positions: the repair gives up and sorts.
    for (const it of items) {
      it.box[0] = -it.box[0];
      it.box[3] = it.box[0] + 1.5;
    }
    expect(swept(sweep, items)).toEqual(brute(items));
    expect(sweep.fullSorts).toBe(first + 1);
  });

  it('keeps its stamps right when their count would wrap (32-bit), after years of steps', () => {
    const items: Item[] = [];
    for (let i = 0; i < 50; i++)
      items.push({
        index: i,
        box: [i % 7, i % 3, i % 5, (i % 7) + 1.5, (i % 3) + 1, (i % 5) + 1],
        out: false,
      });
    const sweep = new AxisSweep();
    (sweep as unknown as { runs: number }).runs = 2 ** 31 - 3; // as after years of steps at 60 Hz
    for (let run = 0; run < 6; run++) {
      expect(swept(sweep, items)).toEqual(brute(items));
      items.reverse().forEach((it, i) => {
        it.index = i;
      });
    }
  });

  it('sweeps the axis of widest spread, and keeps it against a slightly wider one', () => {
    const items: Item[] = [];
    for (let i = 0; i < 100; i++) items.push({ index: i, box: [0, 0, 10 * i, 1, 1, 10 * i + 1], out: false });
    const sweep = new AxisSweep();
    swept(sweep, items);
    expect(sweep.axis).toBe(2);
    // y a little wider than z: no change (no flapping between near-equal axes).
    for (const it of items) {
      it.box[1] = 11 * it.index;
      it.box[4] = it.box[1] + 1;
    }
    expect(swept(sweep, items)).toEqual(brute(items));
    expect(sweep.axis).toBe(2);
    for (const it of items) {
      it.box[1] = 30 * it.index;
      it.box[4] = it.box[1] + 1;
    }
    expect(swept(sweep, items)).toEqual(brute(items));
    expect(sweep.axis).toBe(1);
  });
});
