/**
 * XOrder must give exactly what stock's `bodies.sort((a, b) => a.bounds.min.x - b.bounds.min.x)`
 * gives (a stable sort of the previous order), through both of its paths: the insertion sort of a
 * nearly sorted order and the merge sort it falls back to when the order is far from sorted.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { XOrder } from '../src/xOrder.js';

/** Stock's result: a stable sort of `previous` by key. */
function stockOrder(previous: number[], key: Float64Array): number[] {
  return previous.slice().sort((a, b) => key[a] - key[b]);
}

function run(previous: number[], keys: number[]) {
  const order = new XOrder();
  const key = Float64Array.from(keys);
  const tie = new Int32Array(keys.length);
  for (let p = 0; p < previous.length; p++) {
    order.push(previous[p]);
    tie[previous[p]] = p;
  }
  const shifts = order.sort(key, tie);
  const got = Array.from(order.order.subarray(0, order.count));
  for (let p = 0; p < got.length; p++) expect(order.rank[got[p]]).toBe(p);
  return { got, shifts };
}

// Keys from a small set (many ties, as stacked boxes have), or any doubles.
const keysArb = (n: number) =>
  fc.oneof(
    fc.array(fc.integer({ min: -5, max: 5 }), { minLength: n, maxLength: n }),
    fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }),
  );

describe('XOrder', () => {
  it('equals a stable Array.prototype.sort of the previous order, from any previous order', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 300 })
          .chain((n) => fc.tuple(keysArb(n), fc.shuffledSubarray([...Array(n).keys()], { minLength: n }))),
        ([keys, previous]) => {
          const key = Float64Array.from(keys);
          expect(run(previous, keys).got).toEqual(stockOrder(previous, key));
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('uses the insertion sort on a nearly sorted order and the merge sort on a shuffled one', () => {
    const n = 2000;
    const keys = Array.from({ length: n }, (_, i) => Math.floor(i / 3)); // ties in threes
    const sortedPrev = [...Array(n).keys()];
    // Nearly sorted: swap a few neighbours.
    const near = sortedPrev.slice();
    for (let i = 0; i < n - 1; i += 97) [near[i], near[i + 1]] = [near[i + 1], near[i]];
    const a = run(near, keys);
    expect(a.shifts).toBeGreaterThanOrEqual(0);
    expect(a.got).toEqual(stockOrder(near, Float64Array.from(keys)));
    // Reversed: far beyond the shift budget.
    const reversed = sortedPrev.slice().reverse();
    const b = run(reversed, keys);
    expect(b.shifts).toBe(-1);
    expect(b.got).toEqual(stockOrder(reversed, Float64Array.from(keys)));
  });

  it('compact drops dead records and keeps the order of the others', () => {
    const order = new XOrder();
    for (const r of [4, 0, 3, 1, 2]) order.push(r);
    const dead = new Uint8Array(5);
    dead[3] = 1;
    dead[4] = 1;
    order.compact(dead);
    expect(Array.from(order.order.subarray(0, order.count))).toEqual([0, 1, 2]);
  });
});
