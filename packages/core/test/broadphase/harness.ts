/**
 * Runs the same operations on a broadphase under test and on the BruteForce reference, and checks
 * after every update that both report the same pairs, began and ended lists, and queries.
 * Handles are mapped through object ids, so a broadphase may number its proxies as it likes.
 *
 * Every proxy is inserted with its own tag (negative ones too), and every update also checks the
 * incremental read-outs: `pairBuffers()` and the counts against the views, `pairTags()` entry for entry
 * (the ended pairs of removed proxies included), and `tagOf` of every live handle. Every other move
 * goes through `moveMany`. Static proxies (an insert's `isStatic`, `setStatic`) go to both; once a
 * sequence used them, `isStatic` of every live handle is checked too.
 *
 * The shared suites run the same seeded sequences on every broadphase of the registry, and the
 * reference's update is O(n²): a Lockstep made by {@link lockstep} records the reference's answers the
 * first time a sequence reaches an update and reads them back when another broadphase's run reaches
 * it, keyed by a hash of every operation before it (see {@link OpHash}). The reference is still given
 * every insert, move and remove (its handles and queries stay its own), and a sequence that leaves the
 * recorded ones goes on with real updates from the recorded state.
 */
import { expect } from 'vitest';
import { type Broadphase, BruteForce, type Dimensions } from '../../src/index.js';
import type { BroadphaseEntry } from './registry.js';

export type Op =
  | { kind: 'insert'; box: number[]; isStatic?: boolean }
  | { kind: 'setStatic'; pick: number; isStatic: boolean }
  | { kind: 'move'; pick: number; box: number[] }
  | { kind: 'remove'; pick: number }
  | { kind: 'update' }
  | { kind: 'query'; box: number[] };

/**
 * A pair list as the harness compares it: flat `[a0, b0, a1, b1, …]` (handles are non-negative int32),
 * sorted by (a, b). Numbers, not `a,b` strings: the suites compare millions of pairs, and building,
 * sorting and hashing strings was most of the harness's own time. {@link pairText} writes a pair as
 * `a,b` for the failure reports.
 */
type PairList = Int32Array;

/** `a,b`: pair `i` of a pair list, as the failure reports name it. */
function pairText(list: PairList, i: number): string {
  return `${list[2 * i]},${list[2 * i + 1]}`;
}

/** Every pair of a pair list as `a,b` (for a failure report). */
function pairTexts(list: PairList): string[] {
  return Array.from({ length: list.length / 2 }, (_, i) => pairText(list, i));
}

/** Order of pairs `i` of `x` and `j` of `y`: by a, then b. */
function comparePairs(x: PairList, i: number, y: PairList, j: number): number {
  return x[2 * i] - y[2 * j] || x[2 * i + 1] - y[2 * j + 1];
}

/**
 * `list` sorted by (a, b): itself when already sorted (the reference's lists always are, the tested
 * ones mapped to reference handles mostly), else a sorted copy — through one number a pair,
 * a · 2³¹ + b, exact while a < 2²² (then a plain numeric sort), or a comparison of (a, b).
 */
function sortedPairs(list: PairList): PairList {
  const n = list.length / 2;
  let sorted = true;
  let maxA = 0;
  for (let i = 0; i < n; i++) {
    if (sorted && i > 0 && comparePairs(list, i - 1, list, i) > 0) sorted = false;
    if (list[2 * i] > maxA) maxA = list[2 * i];
  }
  if (sorted) return list;
  const out = new Int32Array(list.length);
  if (maxA < 2 ** 22) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = list[2 * i] * 2 ** 31 + list[2 * i + 1];
    keys.sort();
    for (let k = 0; k < n; k++) {
      out[2 * k] = Math.floor(keys[k] / 2 ** 31);
      out[2 * k + 1] = keys[k] % 2 ** 31;
    }
    return out;
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((i, j) => comparePairs(list, i, list, j));
  for (let k = 0; k < n; k++) {
    out[2 * k] = list[2 * order[k]];
    out[2 * k + 1] = list[2 * order[k] + 1];
  }
  return out;
}

/** Pair list → the same pairs in reference handles, each as (smaller, larger), sorted. */
function toRefPairs(list: ArrayLike<number>, map: Map<number, number>): PairList {
  const out = new Int32Array(list.length);
  for (let i = 0; i < list.length; i += 2) {
    const a = map.get(list[i]);
    const b = map.get(list[i + 1]);
    if (a === undefined || b === undefined)
      throw new Error(`unknown handle in pair (${list[i]}, ${list[i + 1]})`);
    out[i] = Math.min(a, b);
    out[i + 1] = Math.max(a, b);
  }
  return sortedPairs(out);
}

/** The reference's pair list, each pair as it lists it, sorted. */
function asPairs(list: ArrayLike<number>): PairList {
  return sortedPairs(Int32Array.from(list));
}

/** Whether pair `i` of `x` is in sorted `y` (binary search). */
function hasPair(y: PairList, x: PairList, i: number): boolean {
  let lo = 0;
  let hi = y.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePairs(y, mid, x, i);
    if (c === 0) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** `expect(got, what).toEqual(want)` on the two lists' `a,b` texts, called only when they differ. */
function expectSamePairs(got: PairList, want: PairList, what: string): void {
  let same = got.length === want.length;
  for (let i = 0; same && i < got.length; i++) same = got[i] === want[i];
  if (!same) expect(pairTexts(got), what).toEqual(pairTexts(want));
}

/**
 * Checks a pair list's own form: a < b in each pair, strictly ascending by (a, b). (Here and below,
 * `expect` is called only where a check fails: a call costs microseconds, and the suites check
 * millions of list entries — plain comparisons make the same checks a hundred times faster.)
 */
export function expectSortedPairs(list: ArrayLike<number>): void {
  for (let i = 0; i < list.length; i += 2) {
    if (!(list[i] < list[i + 1])) expect(list[i], `pair ${i / 2}`).toBeLessThan(list[i + 1]);
    if (i > 0) {
      const before = list[i - 2] < list[i] || (list[i - 2] === list[i] && list[i - 1] < list[i + 1]);
      if (!before) expect(before, `pairs not ascending at ${i / 2}`).toBe(true);
    }
  }
}

/** The reference's answers at one update, as it gave them and as the harness compares them. */
interface RecordedUpdate {
  raw: { pairs: Int32Array; began: Int32Array; ended: Int32Array };
  pairs: PairList;
  began: PairList;
  ended: PairList;
}

/** The reference's answers by the hash of the operations before them (see {@link Lockstep.update}). */
const recorded = new Map<string, RecordedUpdate>();

/**
 * The BruteForce fields a read-back update sets, as its own update would have (its pair lists, and the
 * removed slots made reusable, so later inserts get the handles they got when the answers were recorded).
 */
interface BruteForceState {
  current: Int32Array;
  beganPairs: Int32Array;
  endedPairs: Int32Array;
  store: { recycle(): void };
}

/**
 * A running hash of an operation sequence: two 32-bit multiply–xor lanes over every number of every
 * operation (doubles by their bits), so two different sequences share a key with a chance near 2⁻⁶⁴.
 */
class OpHash {
  private h1 = 0x811c9dc5;
  private h2 = 0x27d4eb2f;
  private readonly bits = new Float64Array(1);
  private readonly words = new Uint32Array(this.bits.buffer);

  word(x: number): void {
    this.h1 = Math.imul(this.h1 ^ x, 0x01000193) >>> 0;
    const h = Math.imul((this.h2 ^ x) + 0x9e3779b9, 0x85ebca6b) >>> 0;
    this.h2 = (h ^ (h >>> 13)) >>> 0;
  }

  number(x: number): void {
    this.bits[0] = x;
    this.word(this.words[0]);
    this.word(this.words[1]);
  }

  op(op: Op): void {
    this.word(OP_KINDS.indexOf(op.kind));
    if ('pick' in op) this.word(op.pick);
    if ('isStatic' in op) this.word(op.isStatic === undefined ? 2 : op.isStatic ? 1 : 0);
    if ('box' in op) {
      this.word(op.box.length);
      for (const x of op.box) this.number(x);
    }
  }

  key(): string {
    return `${this.h1}:${this.h2}`;
  }
}

const OP_KINDS: readonly Op['kind'][] = ['insert', 'setStatic', 'move', 'remove', 'update', 'query'];

export class Lockstep {
  readonly ref: BruteForce;
  /** The hash of the operations so far, when the reference's answers are recorded and read back. */
  private readonly history: OpHash | null;
  /** Live objects: [handle in tested, handle in reference]. */
  readonly live: Array<[number, number]> = [];
  /** Tested handle → reference handle, including removed ones (pairs that ended name them). */
  private readonly toRef = new Map<number, number>();
  private previous: PairList = new Int32Array(0);
  /** Tested handle → the tag it was inserted with (removed handles kept). */
  private readonly tags = new Map<number, number>();
  private nextTag = 1;
  private moves = 0;
  /** Tested handle → whether it is static (once any op named the flag). */
  private readonly statics = new Map<number, boolean>();
  private staticsUsed = false;
  updates = 0;

  /**
   * `walk`: the tested broadphase's invariant walk, for one created without the `validate` option —
   * run after the first update, every {@link VALIDATE_EVERY}th after it and at {@link finish} (see
   * {@link lockstep}); none for one that checks itself after every update.
   */
  constructor(
    readonly tested: Broadphase,
    readonly dimensions: Dimensions,
    private readonly walk: (() => void) | null = null,
    shareReference = false,
  ) {
    this.ref = new BruteForce({ dimensions });
    this.history = shareReference ? new OpHash() : null;
    this.history?.word(dimensions);
  }

  /** The end of a sequence: the sampled invariant walk once more (nothing when there is none). */
  finish(): void {
    this.walk?.();
  }

  apply(op: Op): void {
    // An update is hashed by update() itself (the suites also call it directly).
    if (op.kind !== 'update') this.history?.op(op);
    switch (op.kind) {
      case 'insert': {
        // Distinct int32 tags, about half of them negative.
        const tag = Math.imul(this.nextTag++, 0x9e3779b1);
        let h: number;
        let r: number;
        if (op.isStatic === undefined) {
          h = this.tested.insert(op.box, tag);
          r = this.ref.insert(op.box, tag);
        } else {
          this.staticsUsed = true;
          h = this.tested.insert(op.box, tag, op.isStatic);
          r = this.ref.insert(op.box, tag, op.isStatic);
        }
        this.statics.set(h, op.isStatic === true);
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
        if (this.tested.has(h)) expect(this.tested.has(h)).toBe(false);
        break;
      }
      case 'setStatic': {
        if (this.live.length === 0) return;
        const [h, r] = this.live[op.pick % this.live.length];
        this.staticsUsed = true;
        this.tested.setStatic(h, op.isStatic);
        this.ref.setStatic(r, op.isStatic);
        this.statics.set(h, op.isStatic);
        if (this.tested.isStatic(h) !== op.isStatic) expect(this.tested.isStatic(h)).toBe(op.isStatic);
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
    const want = this.updateReference();
    this.updates++;
    const pairs = this.tested.pairs();
    const began = this.tested.began();
    const ended = this.tested.ended();
    expectSortedPairs(pairs);
    expectSortedPairs(began);
    expectSortedPairs(ended);
    expectIs(this.tested.pairCount, pairs.length / 2, 'pairCount');
    expectIs(this.tested.count, this.ref.count, 'count');
    const now = toRefPairs(pairs, this.toRef);
    const b = toRefPairs(began, this.toRef);
    const e = toRefPairs(ended, this.toRef);
    expectSamePairs(now, want.pairs, 'pairs');
    expectSamePairs(b, want.began, 'began');
    expectSamePairs(e, want.ended, 'ended');
    // pairs after = pairs before + began − ended, with began new and ended old.
    const before = this.previous;
    for (let i = 0; i < b.length / 2; i++)
      if (hasPair(before, b, i)) expect(true, `began pair ${pairText(b, i)} was already there`).toBe(false);
    for (let i = 0; i < e.length / 2; i++)
      if (!hasPair(before, e, i)) expect(false, `ended pair ${pairText(e, i)} was not there`).toBe(true);
    const kept: number[] = [];
    for (let i = 0; i < before.length / 2; i++)
      if (!hasPair(e, before, i)) kept.push(before[2 * i], before[2 * i + 1]);
    const expected = sortedPairs(Int32Array.from([...kept, ...b]));
    expectSamePairs(now, expected, 'pairs before + began − ended');
    this.previous = now;
    this.checkBuffersAndTags(pairs, began, ended);
    if (this.walk && (this.updates - 1) % VALIDATE_EVERY === 0) this.walk();
  }

  /**
   * Updates the reference — or, when this sequence reached the same point on another broadphase,
   * sets it to the answers recorded there — and returns its answers.
   */
  private updateReference(): RecordedUpdate {
    const ref = this.ref;
    const history = this.history;
    history?.word(OP_KINDS.indexOf('update'));
    const key = history?.key();
    const known = key === undefined ? undefined : recorded.get(key);
    if (known !== undefined) {
      const state = ref as unknown as BruteForceState;
      state.current = known.raw.pairs;
      state.beganPairs = known.raw.began;
      state.endedPairs = known.raw.ended;
      state.store.recycle();
      return known;
    }
    ref.update();
    const raw = { pairs: ref.pairs(), began: ref.began(), ended: ref.ended() };
    const answer = { raw, pairs: asPairs(raw.pairs), began: asPairs(raw.began), ended: asPairs(raw.ended) };
    if (key !== undefined) recorded.set(key, answer);
    return answer;
  }

  /** pairBuffers, the counts, pairTags and tagOf agree with the pair lists and the inserted tags. */
  private checkBuffersAndTags(pairs: Int32Array, began: Int32Array, ended: Int32Array): void {
    const t = this.tested;
    expectIs(t.beganCount, began.length / 2, 'beganCount');
    expectIs(t.endedCount, ended.length / 2, 'endedCount');
    const buffers = t.pairBuffers();
    expectSame(Array.from(buffers.pairs.subarray(0, pairs.length)), Array.from(pairs), 'pairBuffers().pairs');
    expectSame(Array.from(buffers.began.subarray(0, began.length)), Array.from(began), 'pairBuffers().began');
    expectSame(Array.from(buffers.ended.subarray(0, ended.length)), Array.from(ended), 'pairBuffers().ended');
    const tags = t.pairTags();
    const expectTags = (list: Int32Array, got: Int32Array, what: string) => {
      const want = Array.from(list, (h) => this.tags.get(h));
      expectSame(Array.from(got.subarray(0, list.length)), want, `${what} tags`);
    };
    expectTags(pairs, tags.pairs, 'pairs');
    expectTags(began, tags.began, 'began');
    expectTags(ended, tags.ended, 'ended');
    // Every live handle's tag (and static flag), as one list each.
    const live = this.live.map(([h]) => h);
    expectSame(
      live.map((h) => t.tagOf(h)),
      live.map((h) => this.tags.get(h)),
      'tagOf',
    );
    if (this.staticsUsed)
      expectSame(
        live.map((h) => t.isStatic(h)),
        live.map((h) => this.statics.get(h)),
        'isStatic',
      );
  }
}

/** `expect(got, what).toBe(want)`, called only when `got` is not `want` (`Object.is`, as `toBe` compares). */
function expectIs(got: unknown, want: unknown, what: string): void {
  if (!Object.is(got, want)) expect(got, what).toBe(want);
}

/**
 * `expect(got, what).toEqual(want)` for lists of primitives, called only when an entry differs
 * (`Object.is`, as `toEqual` compares primitives): the same check and the same failure report, without
 * vitest's deep comparison on every frame's lists.
 */
function expectSame(got: readonly unknown[], want: readonly unknown[], what: string): void {
  let same = got.length === want.length;
  for (let i = 0; same && i < got.length; i++) same = Object.is(got[i], want[i]);
  if (!same) expect(got, what).toEqual(want);
}

/** A sampled invariant walk runs after updates 1, 1 + VALIDATE_EVERY, 1 + 2 · VALIDATE_EVERY, … */
export const VALIDATE_EVERY = 4;

/**
 * A Lockstep on a new broadphase of `entry`. One with an invariant walk of its own to call
 * (`validate()`: SweepAndPrune, Octree) is created without the walk after every update; the Lockstep
 * runs it after a deterministic sample of updates (the first, every {@link VALIDATE_EVERY}th) and at
 * `finish()`, which the suites call at the end of every sequence. The walk is most of a small
 * scene's update time; pairs, began, ended, the buffers and the tags are still compared with the
 * reference after every update, and a structure left broken by one update is still broken at the next
 * walk (or answers wrong before it). Any other broadphase checks itself after every update.
 */
export function lockstep(entry: BroadphaseEntry, d: Dimensions): Lockstep {
  const sampled = entry.create({ dimensions: d, validate: false }) as Broadphase & { validate?: () => void };
  if (typeof sampled.validate === 'function') {
    return new Lockstep(sampled, d, () => sampled.validate!(), true);
  }
  return new Lockstep(entry.create({ dimensions: d }), d, null, true);
}
