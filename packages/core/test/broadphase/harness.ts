/**
 * Runs the same operations on a broadphase under test and on the BruteForce reference, and checks
 * after every update that both report the same pairs, began and ended lists, and queries.
 * Handles are mapped through object ids, so a broadphase may number its proxies as it likes.
 *
 * Every proxy is inserted with its own tag (negative ones too), and every update also checks the
 * incremental read-outs: `pairBuffers()` and the counts against the views, `pairTags()` entry for entry
 * (the ended pairs of removed proxies included), and `tagOf` of every live handle. Every other move
 * goes through `moveMany`.
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
  /** Tested handle → the tag it was inserted with (removed handles kept). */
  private readonly tags = new Map<number, number>();
  private nextTag = 1;
  private moves = 0;
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
        // Distinct int32 tags, about half of them negative.
        const tag = Math.imul(this.nextTag++, 0x9e3779b1);
        const h = this.tested.insert(op.box, tag);
        const r = this.ref.insert(op.box, tag);
        this.tags.set(h, tag);
        this.live.push([h, r]);
        this.toRef.set(h, r);
        break;
      }
      case 'move': {
        if (this.live.length === 0) return;
        const [h, r] = this.live[op.pick % this.live.length];
        if (this.moves++ % 2 === 0) this.tested.move(h, op.box);
        else this.tested.moveMany(Int32Array.of(h), Float64Array.from(op.box));
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
    this.checkBuffersAndTags(pairs, began, ended);
  }

  /** pairBuffers, the counts, pairTags and tagOf agree with the pair lists and the inserted tags. */
  private checkBuffersAndTags(pairs: Int32Array, began: Int32Array, ended: Int32Array): void {
    const t = this.tested;
    expect(t.beganCount).toBe(began.length / 2);
    expect(t.endedCount).toBe(ended.length / 2);
    const buffers = t.pairBuffers();
    expect(Array.from(buffers.pairs.subarray(0, pairs.length))).toEqual(Array.from(pairs));
    expect(Array.from(buffers.began.subarray(0, began.length))).toEqual(Array.from(began));
    expect(Array.from(buffers.ended.subarray(0, ended.length))).toEqual(Array.from(ended));
    const tags = t.pairTags();
    const expectTags = (list: Int32Array, got: Int32Array, what: string) => {
      const want = Array.from(list, (h) => this.tags.get(h));
      expect(Array.from(got.subarray(0, list.length)), `${what} tags`).toEqual(want);
    };
    expectTags(pairs, tags.pairs, 'pairs');
    expectTags(began, tags.began, 'began');
    expectTags(ended, tags.ended, 'ended');
    for (const [h] of this.live) expect(t.tagOf(h)).toBe(this.tags.get(h));
  }
}
