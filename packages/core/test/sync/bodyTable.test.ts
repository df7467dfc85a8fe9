/**
 * The engine seam (`BodyTable`, `PairOrder`) against brute force: random worlds whose bodies come and
 * go, move, share ids or have keys the id table cannot hold, synced the way the adapters sync them;
 * the records, hooks and pairs must always match a direct scan of the world.
 */
import { describe, expect, it } from 'vitest';
import {
  BodyTable,
  type BodyTableHooks,
  type Broadphase,
  NO_PROXY,
  Octree,
  PairOrder,
  SweepAndPrune,
} from '../../src/index.js';
import { rng } from '../support/rng.js';

interface Thing {
  id: number;
  box: number[];
  /** A thing with no proxy (the adapters keep such bodies out of the broadphase). */
  out: boolean;
}

/** Hooks that keep a parallel array, as an adapter does, and count their calls. */
function recordingHooks() {
  const state = {
    tag: new Int32Array(0),
    added: 0,
    removed: 0,
    table: null as BodyTable<Thing> | null,
  };
  const hooks: BodyTableHooks = {
    grow: (capacity) => {
      const next = new Int32Array(capacity).fill(-7);
      next.set(state.tag);
      state.tag = next;
    },
    added: (r) => {
      const table = state.table as BodyTable<Thing>;
      state.added++;
      expect(table.handles[r]).toBe(NO_PROXY);
      expect(Number.isNaN(table.boxes[r * table.stride])).toBe(true);
      state.tag[r] = (table.bodies[r] as Thing).id;
    },
    removed: (r) => {
      const table = state.table as BodyTable<Thing>;
      state.removed++;
      expect(table.handles[r]).toBe(NO_PROXY);
      expect(table.bodies[r]).not.toBeNull();
      state.tag[r] = -1;
    },
  };
  return { state, hooks };
}

function overlaps(a: number[], b: number[], d: number): boolean {
  for (let k = 0; k < d; k++) if (a[k] > b[k + d] || b[k] > a[k + d]) return false;
  return true;
}

/** One adapter-style step: pass, place or unplace, free the gone, commit. */
function sync(table: BodyTable<Thing>, world: Thing[], key: (t: Thing) => number): void {
  const s = table.stride;
  table.beginPass(world.length);
  for (let i = 0; i < world.length; i++) {
    const t = world[i];
    const r = table.visit(t, key(t), i);
    const o = r * s;
    let same = true;
    for (let k = 0; k < s; k++) same &&= table.boxes[o + k] === t.box[k];
    if (t.out) {
      for (let k = 0; k < s; k++) table.boxes[o + k] = t.box[k];
      table.unplace(r);
    } else if (!same || table.handles[r] === NO_PROXY) {
      for (let k = 0; k < s; k++) table.boxes[o + k] = t.box[k];
      table.place(r);
    }
  }
  table.endPass(world.length);
  table.commit();
}

/** A broadphase that drops the tags given to insert (as one written before tags existed would). */
function tagless(inner: Broadphase): Broadphase {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'insert') return (bounds: ArrayLike<number>) => target.insert(bounds);
      if (prop === 'tagOf') return () => 0;
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function scenario(seed: number, d: 2 | 3, make: () => Broadphase, keyOf: 'id' | 'weird') {
  const r = rng(seed);
  const bp = make();
  const { state, hooks } = recordingHooks();
  const table = new BodyTable<Thing>(bp, hooks, { initialCapacity: 4 });
  state.table = table;
  const key = keyOf === 'id' ? (t: Thing) => t.id : (t: Thing) => (t.id % 3 === 0 ? -t.id - 0.5 : t.id);
  let nextId = 0;
  const randomBox = () => {
    const box: number[] = [];
    for (let k = 0; k < d; k++) box.push(r() * 40);
    for (let k = 0; k < d; k++) box.push(box[k] + r() * 6);
    return box;
  };
  const make1 = (): Thing => ({
    // Every seventh body reuses an id (a reset counter): two bodies with one id.
    id: nextId % 7 === 6 ? nextId++ - 3 : nextId++,
    box: randomBox(),
    out: r() < 0.1,
  });
  let world: Thing[] = [];
  for (let i = 0; i < 30; i++) world.push(make1());
  const recordOf = new Map<Thing, number>();
  for (let step = 0; step < 60; step++) {
    // Churn: remove some, add some, shuffle a little, move some, take some out of the broadphase.
    world = world.filter(() => r() > 0.08);
    const add = Math.floor(r() * 5);
    for (let i = 0; i < add; i++) world.splice(Math.floor(r() * (world.length + 1)), 0, make1());
    if (r() < 0.3 && world.length > 2) {
      const i = Math.floor(r() * world.length);
      const j = Math.floor(r() * world.length);
      [world[i], world[j]] = [world[j], world[i]];
    }
    for (const t of world) {
      if (r() < 0.3) t.box = randomBox();
      if (r() < 0.05) t.out = !t.out;
    }
    const before = state.added - state.removed;
    sync(table, world, key);
    expect(state.added - state.removed).toBe(world.length);
    expect(table.live).toBe(world.length);
    expect(before).toBeGreaterThanOrEqual(0);
    // Records: one per body, stable while the body stays, index/at consistent, hooks in step.
    const seen = new Set<number>();
    for (let i = 0; i < world.length; i++) {
      const t = world[i];
      const rec = table.find(t, key(t));
      expect(rec).toBeGreaterThanOrEqual(0);
      expect(seen.has(rec)).toBe(false);
      seen.add(rec);
      expect(table.bodies[rec]).toBe(t);
      expect(table.index[rec]).toBe(i);
      expect(table.at[i]).toBe(rec);
      expect(table.visited(rec)).toBe(true);
      expect(state.tag[rec]).toBe(t.id);
      expect(table.handles[rec] === NO_PROXY).toBe(t.out);
      const old = recordOf.get(t);
      if (old !== undefined) expect(rec).toBe(old); // never churned, even with a shared id
      recordOf.set(t, rec);
    }
    for (const t of [...recordOf.keys()]) if (!world.includes(t)) recordOf.delete(t);
    // Pairs: exactly the overlapping pairs of bodies in the broadphase, as records.
    const pairs = table.pairRecords();
    const got: string[] = [];
    for (let k = 0; k < table.pairCount; k++) {
      const a = table.bodies[pairs[2 * k]] as Thing;
      const b = table.bodies[pairs[2 * k + 1]] as Thing;
      const [x, y] = world.indexOf(a) < world.indexOf(b) ? [a, b] : [b, a];
      got.push(`${world.indexOf(x)},${world.indexOf(y)}`);
    }
    const want: string[] = [];
    for (let i = 0; i < world.length; i++) {
      for (let j = i + 1; j < world.length; j++) {
        if (!world[i].out && !world[j].out && overlaps(world[i].box, world[j].box, d)) want.push(`${i},${j}`);
      }
    }
    expect(got.sort()).toEqual(want.sort());
    // Queries answer in records too.
    const q = randomBox();
    const found: number[] = [];
    const n = table.queryRecords(q, found);
    expect(n).toBe(found.length);
    const direct = world.filter((t) => !t.out && overlaps(t.box, q, d)).map((t) => table.find(t, key(t)));
    expect(found.sort((a, b) => a - b)).toEqual(direct.sort((a, b) => a - b));
  }
  return { table, state, bp };
}

describe('BodyTable', () => {
  it('keeps one record per body and the broadphase pairs as records (SweepAndPrune, 2-D and 3-D)', () => {
    for (const seed of [1, 2, 3]) {
      scenario(seed, 2, () => new SweepAndPrune({ dimensions: 2 }), 'id');
      scenario(seed + 10, 3, () => new SweepAndPrune({ dimensions: 3 }), 'id');
    }
  });

  it('files keys the id table cannot hold (negative, fractional) and shared ids in a map, without churn', () => {
    scenario(4, 3, () => new SweepAndPrune({ dimensions: 3 }), 'weird');
  });

  it('works on an Octree and on a broadphase that drops tags (records by slot)', () => {
    scenario(5, 3, () => new Octree({ dimensions: 3 }), 'id');
    scenario(6, 2, () => tagless(new SweepAndPrune({ dimensions: 2 })), 'id');
  });

  it('batches moves into one moveMany per commit', () => {
    const bp = new SweepAndPrune({ dimensions: 2 });
    let calls = 0;
    let moved = 0;
    const moveMany = bp.moveMany.bind(bp);
    bp.moveMany = (h, b, c) => {
      calls++;
      moved += c ?? h.length;
      moveMany(h, b, c);
    };
    const { state, hooks } = recordingHooks();
    const table = new BodyTable<Thing>(bp, hooks);
    state.table = table;
    const world: Thing[] = [];
    for (let i = 0; i < 100; i++) world.push({ id: i, box: [i, 0, i + 0.5, 1], out: false });
    sync(table, world, (t) => t.id);
    expect(calls).toBe(0); // first step: inserts only
    for (let i = 0; i < 100; i += 3) world[i].box = [i, 2, i + 0.5, 3];
    sync(table, world, (t) => t.id);
    expect(calls).toBe(1);
    expect(moved).toBe(34);
    expect(table.pendingMoves).toBe(0);
  });

  it('reset forgets every record, and can switch to another broadphase', () => {
    const { state, hooks } = recordingHooks();
    const first = new SweepAndPrune({ dimensions: 2 });
    const table = new BodyTable<Thing>(first, hooks);
    state.table = table;
    const world: Thing[] = [
      { id: 0, box: [0, 0, 1, 1], out: false },
      { id: 1, box: [0.5, 0.5, 2, 2], out: false },
    ];
    sync(table, world, (t) => t.id);
    expect(table.pairCount).toBe(1);
    table.reset();
    expect(first.count).toBe(0);
    expect(table.live).toBe(0);
    expect(table.find(world[0], 0)).toBe(-1);
    const second = new SweepAndPrune({ dimensions: 2 });
    table.reset(second);
    expect(table.broadphase).toBe(second);
    sync(table, world, (t) => t.id);
    expect(second.count).toBe(2);
    expect(table.pairCount).toBe(1);
    expect(() => table.reset(new SweepAndPrune({ dimensions: 3 }))).toThrow(/2-D Broadphase/);
  });

  it('rejects bad arguments with errors naming them', () => {
    const { state, hooks } = recordingHooks();
    const bp = new SweepAndPrune({ dimensions: 2 });
    expect(() => new BodyTable(null as unknown as Broadphase, hooks)).toThrow(/broadphase/);
    expect(() => new BodyTable(bp, {} as BodyTableHooks)).toThrow(/hooks/);
    expect(() => new BodyTable(bp, hooks, { initialCapacity: 0 })).toThrow(/initialCapacity/);
    const table = new BodyTable<Thing>(bp, hooks);
    state.table = table;
    expect(() => table.beginPass(-1)).toThrow(/count/);
    expect(() => table.beginPass(1.5)).toThrow(/count/);
    // A box the broadphase rejects fails at place (insert checks it) and changes nothing.
    table.beginPass(1);
    const r = table.visit({ id: 0, box: [], out: false }, 0, 0);
    table.boxes.set([1, 0, 0, 1], r * 4);
    expect(() => table.place(r)).toThrow(/minX/);
    expect(table.handles[r]).toBe(NO_PROXY);
    expect(bp.count).toBe(0);
  });
});

describe('PairOrder', () => {
  it('sorts by (first, second) like a stable comparison sort, short lists and long', () => {
    const r = rng(9);
    const order = new PairOrder();
    for (const [count, keys] of [
      [0, 1],
      [1, 3],
      [5, 4],
      [24, 10],
      [25, 10],
      [300, 40],
      [2000, 3000],
    ]) {
      order.clear();
      const pairs: [number, number, number][] = [];
      for (let i = 0; i < count; i++) {
        const f = Math.floor(r() * keys);
        const s = Math.floor(r() * keys);
        expect(order.push(f, s)).toBe(i);
        pairs.push([f, s, i]);
      }
      const sorted = order.sort(keys);
      const want = [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((p) => p[2]);
      expect([...sorted.subarray(0, count)]).toEqual(want);
      expect(order.count).toBe(count);
      for (let i = 0; i < count; i++) {
        expect(order.first[i]).toBe(pairs[i][0]);
        expect(order.second[i]).toBe(pairs[i][1]);
      }
    }
  });
});
