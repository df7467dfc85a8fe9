/**
 * Runs the same operations on a broadphase under test and on the BruteForce reference, and checks
 * after every update that both report the same pairs, began and ended lists, and queries.
 * Handles are mapped through object ids, so a broadphase may number its proxies as it likes.
 */
import { expect } from 'vitest';
import { type Broadphase, BruteForce, type Dimensions } from '../../src/index.js';

export type Op =
  | { kind: 'insert'; box: number[] }
  | { kind: 'move'; pick: number; box: number[] }
  | { kind: 'remove'; pick: number }
  | { kind: 'update' }
  | { kind: 'query'; box: number[] };

/** Pair list → sorted list of `a,b` strings in reference handles (test-only readability). */
function toRefPairs(list: ArrayLike<number>, map: Map<number, number>): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += 2) {
    const a = map.get(list[i]);
    const b = map.get(list[i + 1]);
    if (a === undefined || b === undefined)
      throw new Error(`unknown handle in pair (${list[i]}, ${list[i + 1]})`);
    out.push(a < b ? `${a},${b}` : `${b},${a}`);
  }
  return out.sort();
}

function asStrings(list: ArrayLike<number>): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += 2) out.push(`${list[i]},${list[i + 1]}`);
  return out.sort();
}

/** Checks a pair list's own form: a < b in each pair, strictly ascending by (a, b). */
export function expectSortedPairs(list: ArrayLike<number>): void {
  for (let i = 0; i < list.length; i += 2) {
    expect(list[i]).toBeLessThan(list[i + 1]);
    if (i > 0) {
      const before = list[i - 2] < list[i] || (list[i - 2] === list[i] && list[i - 1] < list[i + 1]);
      expect(before, `pairs not ascending at ${i / 2}`).toBe(true);
    }
  }
}

export class Lockstep {
  readonly ref: BruteForce;
  /** Live objects: [handle in tested, handle in reference]. */
  readonly live: Array<[number, number]> = [];
  /** Tested handle → reference handle, including removed ones (pairs that ended name them). */
  private readonly toRef = new Map<number, number>();
  private previous: string[] = [];
  updates = 0;

  constructor(
    readonly tested: Broadphase,
    readonly dimensions: Dimensions,
  ) {
    this.ref = new BruteForce({ dimensions });
  }

  apply(op: Op): void {
    switch (op.kind) {
      case 'insert': {
        const h = this.tested.insert(op.box);
        const r = this.ref.insert(op.box);
        this.live.push([h, r]);
        this.toRef.set(h, r);
        break;
      }
      case 'move': {
        if (this.live.length === 0) return;
        const [h, r] = this.live[op.pick % this.live.length];
        this.tested.move(h, op.box);
        this.ref.move(r, op.box);
        break;
      }
      case 'remove': {
        if (this.live.length === 0) return;
        const i = op.pick % this.live.length;
        const [h, r] = this.live[i];
        this.tested.remove(h);
        this.ref.remove(r);
        this.live.splice(i, 1);
        expect(this.tested.has(h)).toBe(false);
        break;
      }
      case 'update':
        this.update();
        break;
      case 'query': {
        const got: number[] = [];
        const n = this.tested.queryBounds(op.box, got);
        expect(n).toBe(got.length);
        const want: number[] = [];
        this.ref.queryBounds(op.box, want);
        expect(got.map((h) => this.toRef.get(h)!).sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
        break;
      }
    }
  }

  update(): void {
    // Purge mappings of handles that ended and were removed long ago is unnecessary: maps are small.
    this.tested.update();
    this.ref.update();
    this.updates++;
    const pairs = this.tested.pairs();
    const began = this.tested.began();
    const ended = this.tested.ended();
    expectSortedPairs(pairs);
    expectSortedPairs(began);
    expectSortedPairs(ended);
    expect(this.tested.pairCount).toBe(pairs.length / 2);
    expect(this.tested.count).toBe(this.ref.count);
    const now = toRefPairs(pairs, this.toRef);
    expect(now).toEqual(asStrings(this.ref.pairs()));
    expect(toRefPairs(began, this.toRef)).toEqual(asStrings(this.ref.began()));
    expect(toRefPairs(ended, this.toRef)).toEqual(asStrings(this.ref.ended()));
    // pairs after = pairs before + began − ended, with began new and ended old.
    const before = new Set(this.previous);
    const b = toRefPairs(began, this.toRef);
    const e = toRefPairs(ended, this.toRef);
    for (const p of b) expect(before.has(p), `began pair ${p} was already there`).toBe(false);
    for (const p of e) expect(before.has(p), `ended pair ${p} was not there`).toBe(true);
    const expected = new Set(before);
    for (const p of e) expected.delete(p);
    for (const p of b) expected.add(p);
    expect(now).toEqual([...expected].sort());
    this.previous = now;
  }
}
