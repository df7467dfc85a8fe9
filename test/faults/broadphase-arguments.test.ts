/**
 * Wrong arguments to the broadphases' methods (`SweepAndPrune`, `Octree`, `BruteForce`): boxes with NaN,
 * infinite, inverted or missing numbers, stale and never-issued handles, bad tags, counts past the
 * batch — each throws naming the argument, and the broadphase is left exactly as it was: the same
 * proxies, bounds and pairs after the refused call and the next `update()` as without it.
 */
import { type Broadphase, BruteForce, Octree, SweepAndPrune } from '@sieve/core';
import { describe, expect, it } from 'vitest';

const MAKERS: [string, () => Broadphase][] = [
  ['SweepAndPrune', () => new SweepAndPrune({ dimensions: 2 })],
  ['Octree', () => new Octree({ dimensions: 2 })],
  ['BruteForce', () => new BruteForce({ dimensions: 2 })],
];

/** A broadphase with six boxes (some overlapping) and one removed; returns it and the live handles. */
function filled(make: () => Broadphase): { bp: Broadphase; handles: number[]; stale: number } {
  const bp = make();
  const handles: number[] = [];
  for (let i = 0; i < 6; i++) handles.push(bp.insert([i * 1.5, 0, i * 1.5 + 2, 2], i));
  const stale = bp.insert([50, 50, 51, 51]);
  bp.update();
  bp.remove(stale);
  bp.update();
  return { bp, handles, stale };
}

/** Everything observable: count, each proxy's bounds and tag, the pairs after an update. */
function snapshot(bp: Broadphase, handles: number[]): string {
  const out = new Float64Array(4);
  const boxes = handles.map((h) => `${bp.has(h)}:${bp.has(h) ? [...bp.getBounds(h, out)].join(',') : ''}`);
  bp.update();
  return `${bp.count}|${boxes.join(';')}|${[...bp.pairs()].join(',')}|${bp.beganCount},${bp.endedCount}`;
}

const BAD_BOXES: [string, unknown][] = [
  ['NaN', [0, Number.NaN, 1, 1]],
  ['Infinity', [0, 0, Number.POSITIVE_INFINITY, 1]],
  ['inverted', [2, 0, 1, 1]],
  ['short', [0, 0, 1]],
  ['not an array', 7],
  ['a string', ['0', 0, 1, 1]],
];

describe('broadphase methods refuse bad arguments and change nothing', () => {
  for (const [name, make] of MAKERS) {
    it(`${name}: insert, move, moveMany, remove, tags, queries`, () => {
      const reference = filled(make);
      const expected = snapshot(reference.bp, reference.handles);
      const { bp, handles, stale } = filled(make);
      const calls: [string, () => unknown][] = [];
      for (const [what, box] of BAD_BOXES) {
        calls.push([`insert ${what}`, () => bp.insert(box as number[])]);
        calls.push([`move ${what}`, () => bp.move(handles[2], box as number[])]);
        calls.push([`queryBounds ${what}`, () => bp.queryBounds(box as number[], [])]);
      }
      const good = [0, 0, 1, 1];
      calls.push(
        ['insert with a fractional tag', () => bp.insert(good, 1.5)],
        ['insert with a tag past int32', () => bp.insert(good, 2 ** 31)],
        ['move a stale handle', () => bp.move(stale, good)],
        ['move a never-issued handle', () => bp.move(999_999, good)],
        ['move a negative handle', () => bp.move(-1, good)],
        ['remove a stale handle', () => bp.remove(stale)],
        ['getBounds of a stale handle', () => bp.getBounds(stale, new Float64Array(4))],
        ['tagOf a stale handle', () => bp.tagOf(stale)],
        // A batch with one bad entry moves none of them.
        [
          'moveMany with a NaN in the last box',
          () => bp.moveMany([handles[0], handles[1]], [5, 5, 6, 6, 0, 0, Number.NaN, 1]),
        ],
        ['moveMany with a stale handle', () => bp.moveMany([handles[0], stale], [5, 5, 6, 6, 7, 7, 8, 8])],
        ['moveMany with a count past the batch', () => bp.moveMany([handles[0]], [5, 5, 6, 6], 2)],
        ['queryBounds into a bad out', () => bp.queryBounds(good, 5 as never)],
      );
      for (const [what, call] of calls) {
        let error: unknown = null;
        try {
          call();
        } catch (e) {
          error = e;
        }
        expect(error, `${name}: ${what} must throw`).toBeInstanceOf(Error);
        expect((error as Error).message, `${name}: ${what}`).toMatch(new RegExp(name));
      }
      expect(snapshot(bp, handles)).toBe(expected);
    });
  }
});
