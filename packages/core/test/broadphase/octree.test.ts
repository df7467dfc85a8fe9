/**
 * Octree beyond the shared contract (which runs it through ./registry.ts): world growth to far and
 * huge boxes, splitting and merging back, node reuse through the free list, loose placement near split
 * planes, the 2-D quadtree, the depth limit, options, the bulk entry point, the invariant checker, and
 * no allocation per frame once warm.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BruteForce, Octree } from '../../src/index.js';

/** Seeded LCG in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** A random box: centre in [lo, hi) on every axis, half size in [0, maxHalf). */
function box(r: () => number, d: 2 | 3, lo: number, hi: number, maxHalf: number): number[] {
  const c = Array.from({ length: d }, () => lo + r() * (hi - lo));
  const h = Array.from({ length: d }, () => r() * maxHalf);
  return [...c.map((v, k) => v - h[k]), ...c.map((v, k) => v + h[k])];
}

/** Sorted pair lists of two broadphases fed the same operations (same handles: same ProxyStore). */
function samePairs(a: { pairs(): Int32Array }, b: { pairs(): Int32Array }): void {
  expect(Array.from(a.pairs())).toEqual(Array.from(b.pairs()));
}

describe('Octree', () => {
  it('grows its world to boxes far outside it, without clamping, and keeps them exact', () => {
    const tree = new Octree({ dimensions: 3, worldHalfSize: 1, validate: true });
    const ref = new BruteForce({ dimensions: 3 });
    const boxes = [
      [0, 0, 0, 1, 1, 1],
      [1e9, 1e9, -1e9, 1e9 + 1e-3, 1e9 + 1e-3, -1e9 + 1e-3],
      [1e9 + 5e-4, 1e9, -1e9, 1e9 + 2e-3, 1e9 + 2e-3, -1e9 + 2e-3],
      [-1e9, 5, 5, -1e9 + 1, 6, 6],
      [-1e6, -1e6, -1e6, 1e6, 1e6, 1e6],
    ];
    const handles = boxes.map((b) => {
      ref.insert(b);
      return tree.insert(b);
    });
    tree.update();
    ref.update();
    samePairs(tree, ref);
    expect(tree.stats().rootHalfSize).toBeGreaterThanOrEqual(1e9);
    // The two boxes near (1e9, 1e9, -1e9) overlap; the huge box overlaps the unit box only.
    expect(Array.from(tree.pairs())).toEqual([handles[0], handles[4], handles[1], handles[2]]);
    const out: number[] = [];
    tree.queryBounds(
      [1e9 + 1.5e-3, 1e9 + 1.5e-3, -1e9 + 1.5e-3, 1e9 + 1.5e-3, 1e9 + 1.5e-3, -1e9 + 1.5e-3],
      out,
    );
    expect(out).toEqual([handles[2]]);
    expect(tree.getBounds(handles[1], [])).toEqual(boxes[1]);
    // Boxes near the end of the double range: the root takes everything.
    const edgeBox = [-1.7e308, 0, 0, 1.7e308, 1, 1];
    const farBox = [1e308, 1e308, 1e308, 1.5e308, 1.5e308, 1.5e308];
    const edge = tree.insert(edgeBox);
    const far = tree.insert(farBox);
    ref.insert(edgeBox);
    ref.insert(farBox);
    tree.update();
    ref.update();
    samePairs(tree, ref);
    expect(tree.has(edge) && tree.has(far)).toBe(true);
    const hits: number[] = [];
    tree.queryBounds([1.2e308, 1.2e308, 1.2e308, 1.2e308, 1.2e308, 1.2e308], hits);
    expect(hits).toEqual([far]);
    // The edge box crosses the unit box and the huge one.
    expect(tree.pairCount).toBe(4);
  });

  it('shrinks its root back to the occupied part of a large first world', () => {
    const tree = new Octree({ dimensions: 3, worldHalfSize: 4096, leafCapacity: 4, validate: true });
    const r = random(3);
    for (let i = 0; i < 300; i++) tree.insert(box(r, 3, 10, 50, 1));
    tree.update();
    const { rootHalfSize, rootCenter } = tree.stats();
    expect(rootHalfSize).toBeLessThanOrEqual(64);
    for (const c of rootCenter) {
      expect(c - rootHalfSize).toBeLessThanOrEqual(10);
      expect(c + rootHalfSize).toBeGreaterThanOrEqual(50);
    }
  });

  it('splits full leaves and merges them back when they empty', () => {
    const tree = new Octree({ dimensions: 3, leafCapacity: 4, validate: true });
    const r = random(5);
    const handles: number[] = [];
    for (let i = 0; i < 400; i++) handles.push(tree.insert(box(r, 3, 0, 100, 1)));
    tree.update();
    const full = tree.stats();
    expect(full.nodes).toBeGreaterThan(100);
    expect(full.depth).toBeGreaterThan(2);
    // A subtree merges back into one leaf once it holds half the leaf capacity or fewer.
    for (const h of handles.splice(3)) tree.remove(h);
    tree.update();
    expect(tree.stats().nodes).toBeGreaterThan(1);
    tree.remove(handles.pop()!);
    tree.update();
    expect(tree.stats().nodes).toBe(1);
    expect(tree.stats().leaves).toBe(1);
    expect(tree.count).toBe(2);
  });

  it('reuses freed nodes: the node pool stays bounded under add/remove churn', () => {
    const tree = new Octree({ dimensions: 3, leafCapacity: 2 });
    const r = random(8);
    const live: number[] = [];
    for (let i = 0; i < 200; i++) live.push(tree.insert(box(r, 3, 0, 50, 1)));
    tree.update();
    let peak = 0;
    const allocated = () => {
      const s = tree.stats();
      return s.nodes + s.freeNodes;
    };
    for (let f = 0; f < 300; f++) {
      // Replace a third of the boxes with boxes in another region each frame.
      const lo = (f % 3) * 100;
      for (let j = 0; j < 70; j++) {
        const i = Math.floor(r() * live.length);
        tree.remove(live[i]);
        live[i] = tree.insert(box(r, 3, lo, lo + 50, 1));
      }
      tree.update();
      if (f === 30) peak = allocated();
      if (f > 30) expect(allocated()).toBeLessThanOrEqual(peak * 1.5);
    }
    expect(tree.stats().freeNodes).toBeGreaterThan(0);
    tree.validate();
  });

  it('keeps small boxes on a split plane out of the root (loose cells); looseness 1 does not', () => {
    const place = (looseness: number) => {
      const tree = new Octree({
        dimensions: 3,
        leafCapacity: 1,
        worldHalfSize: 64,
        looseness,
        validate: true,
      });
      // A row of small boxes straddling the root's x = 0 plane (and each other's planes).
      const handles: number[] = [];
      for (let i = 0; i < 16; i++) handles.push(tree.insert([-0.25, 4 * i + 1, 1, 0.25, 4 * i + 1.5, 1.5]));
      tree.update();
      return handles.map((h) => tree.depthOf(h));
    };
    const loose = place(2);
    expect(Math.min(...loose)).toBeGreaterThanOrEqual(3);
    const tight = place(1);
    expect(tight.every((depth) => depth === 0)).toBe(true);
  });

  it('is a quadtree in 2-D: four children per node, pairs and queries equal brute force', () => {
    const tree = new Octree({ dimensions: 2, leafCapacity: 3, validate: true });
    const ref = new BruteForce({ dimensions: 2 });
    const r = random(12);
    const handles: number[] = [];
    for (let i = 0; i < 300; i++) {
      const b = box(r, 2, -40, 40, 2);
      handles.push(tree.insert(b));
      ref.insert(b);
    }
    for (let f = 0; f < 20; f++) {
      for (let i = 0; i < handles.length; i += 3) {
        const b = box(r, 2, -40, 40, 2);
        tree.move(handles[i], b);
        ref.move(handles[i], b);
      }
      tree.update();
      ref.update();
      samePairs(tree, ref);
      expect(Array.from(tree.began())).toEqual(Array.from(ref.began()));
      expect(Array.from(tree.ended())).toEqual(Array.from(ref.ended()));
    }
    expect((tree.stats().nodes - 1) % 4).toBe(0);
    expect(tree.stats().nodes).toBeGreaterThan(4);
    const q = [-5, -5, 5, 5];
    const got: number[] = [];
    const want: number[] = [];
    tree.queryBounds(q, got);
    ref.queryBounds(q, want);
    expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
  });

  it('finds the same pairs with any margin and rebuild share (fat boxes only change the work)', () => {
    const r = random(44);
    const variants = [
      new Octree({ dimensions: 3, margin: 0, validate: true }),
      new Octree({ dimensions: 3, margin: 0.25, rebuildShare: 0, validate: true }),
      new Octree({
        dimensions: 3,
        margin: 3,
        rebuildShare: Number.POSITIVE_INFINITY,
        leafCapacity: 2,
        validate: true,
      }),
    ];
    const ref = new BruteForce({ dimensions: 3 });
    const pos: number[][] = [];
    const handles: number[] = [];
    for (let i = 0; i < 120; i++) {
      pos.push([r() * 30, r() * 30, r() * 30, 0.2 + r() * 2]);
      const [x, y, z, h] = pos[i];
      const b = [x - h, y - h, z - h, x + h, y + h, z + h];
      handles.push(ref.insert(b));
      for (const v of variants) v.insert(b);
    }
    for (let f = 0; f < 40; f++) {
      // Mixed speeds: some boxes creep (stay in their fat box), some jump.
      for (let i = 0; i < pos.length; i++) {
        const step = i % 3 === 0 ? 5 : 0.05;
        for (let k = 0; k < 3; k++) pos[i][k] += (r() - 0.5) * step;
        const [x, y, z, h] = pos[i];
        const b = [x - h, y - h, z - h, x + h, y + h, z + h];
        ref.move(handles[i], b);
        for (const v of variants) v.move(handles[i], b);
      }
      ref.update();
      for (const v of variants) {
        v.update();
        samePairs(v, ref);
        expect(Array.from(v.began())).toEqual(Array.from(ref.began()));
        expect(Array.from(v.ended())).toEqual(Array.from(ref.ended()));
      }
    }
    // Bigger margins keep more candidates for the same pairs.
    const [none, , wide] = variants.map((v) => v.stats().candidates);
    expect(none).toBe(variants[0].pairCount);
    expect(wide).toBeGreaterThan(none);
  });

  it('stops splitting at maxDepth (identical boxes cannot be separated) and still pairs them all', () => {
    const tree = new Octree({ dimensions: 3, leafCapacity: 1, maxDepth: 6, validate: true });
    for (let i = 0; i < 20; i++) tree.insert([1, 1, 1, 1, 1, 1]);
    tree.update();
    expect(tree.stats().depth).toBeLessThanOrEqual(6);
    expect(tree.pairCount).toBe((20 * 19) / 2);
  });

  it('moveMany equals one move per proxy, and validates everything before changing anything', () => {
    const r = random(21);
    const n = 200;
    const bulk = new Octree({ dimensions: 3, leafCapacity: 4, validate: true });
    const single = new Octree({ dimensions: 3, leafCapacity: 4 });
    const handles: number[] = [];
    for (let i = 0; i < n; i++) {
      const b = box(r, 3, 0, 40, 2);
      handles.push(bulk.insert(b));
      single.insert(b);
    }
    const bounds = new Float64Array(6 * n);
    for (let f = 0; f < 10; f++) {
      for (let i = 0; i < n; i++) bounds.set(box(r, 3, 0, 40, 2), 6 * i);
      bulk.moveMany(handles, bounds);
      for (let i = 0; i < n; i++) single.move(handles[i], bounds.subarray(6 * i, 6 * i + 6));
      bulk.update();
      single.update();
      samePairs(bulk, single);
      expect(bulk.pairBuffers().pairs.subarray(0, 2 * bulk.pairCount)).toEqual(single.pairs());
      expect(bulk.beganCount).toBe(single.began().length / 2);
      expect(bulk.endedCount).toBe(single.ended().length / 2);
    }
    const before = Array.from(bulk.pairs());
    const bad = Float64Array.from(bounds);
    bad[6 * 7 + 2] = Number.NaN;
    expect(() => bulk.moveMany(handles, bad)).toThrow(/bounds\[44\] is NaN/);
    expect(() => bulk.moveMany([handles[0], 999999], bounds)).toThrow(/unknown or was removed/);
    expect(() => bulk.moveMany(handles, bounds.subarray(0, 10))).toThrow(/has 10 numbers, need 1200/);
    const flipped = Float64Array.from(bounds);
    flipped[0] = flipped[3] + 1;
    expect(() => bulk.moveMany(handles, flipped)).toThrow(/box 0 has min > max on axis 0/);
    bulk.update();
    expect(Array.from(bulk.pairs())).toEqual(before);
  });

  it('rejects bad options with errors naming them', () => {
    expect(() => new Octree({ dimensions: 3, leafCapacity: 0 })).toThrow(
      /leafCapacity must be a positive integer/,
    );
    expect(() => new Octree({ dimensions: 3, leafCapacity: 2.5 })).toThrow(/leafCapacity/);
    expect(() => new Octree({ dimensions: 3, looseness: 0.5 })).toThrow(
      /looseness must be a number from 1 to 16/,
    );
    expect(() => new Octree({ dimensions: 3, looseness: Number.NaN })).toThrow(/looseness/);
    expect(() => new Octree({ dimensions: 3, maxDepth: -1 })).toThrow(/maxDepth must be an integer/);
    expect(() => new Octree({ dimensions: 3, worldHalfSize: 0 })).toThrow(
      /worldHalfSize must be a positive finite/,
    );
    expect(() => new Octree({ dimensions: 3, worldHalfSize: Number.POSITIVE_INFINITY })).toThrow(
      /worldHalfSize/,
    );
    expect(() => new Octree({ dimensions: 3, worldCenter: [0, 0] })).toThrow(
      /worldCenter has length 2, expected 3/,
    );
    expect(() => new Octree({ dimensions: 2, worldCenter: [0, Number.NaN] })).toThrow(
      /worldCenter\[1\] is NaN/,
    );
    expect(() => new Octree({ dimensions: 3, initialCapacity: 0 })).toThrow(/initialCapacity/);
    expect(() => new Octree({ dimensions: 3, margin: -1 })).toThrow(/margin must be a number from 0 to 16/);
    expect(() => new Octree({ dimensions: 3, rebuildShare: Number.NaN })).toThrow(
      /rebuildShare must be a number/,
    );
  });

  it('validate() detects a corrupted tree', () => {
    const make = () => {
      const tree = new Octree({ dimensions: 3, leafCapacity: 2 });
      const r = random(30);
      for (let i = 0; i < 50; i++) tree.insert(box(r, 3, 0, 20, 1));
      tree.update();
      tree.validate();
      return tree as unknown as {
        validate(): void;
        total: Int32Array;
        items: { box: Float64Array };
        box: Float64Array;
      };
    };
    const counts = make();
    counts.total[0]++;
    expect(() => counts.validate()).toThrow(/subtree holds 50, counts 51/);
    const copy = make();
    copy.items.box[3] += 1;
    expect(() => copy.validate()).toThrow(/stale box copy/);
    const fitted = make();
    fitted.box[0] = 1e9;
    expect(() => fitted.validate()).toThrow(/outside node 0's box|sticks out of its parent's/);
    // A candidate pair whose recorded exact state is wrong.
    const marked = make() as unknown as {
      validate(): void;
      candidates: { head: Int32Array; over: Uint8Array };
    };
    const link = marked.candidates.head.find((l) => l >= 0)!;
    marked.candidates.over[link >> 1] ^= 1;
    expect(() => marked.validate()).toThrow(/candidate \(\d+, \d+\) marked/);
  });

  it('does not allocate per frame once warm (new-space growth over windows of frames)', () => {
    // In a child process: other test files sharing this process call the same functions with other
    // array types, and megamorphic element loads box every double they read. An engine calling with
    // one array type, as here, stays monomorphic.
    const run = (mode: 'clean' | 'control') =>
      JSON.parse(
        execFileSync(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', PROBE, mode, SOURCE],
          {
            encoding: 'utf8',
          },
        ),
      ) as { windows: number[]; checksum: number };
    const clean = run('clean');
    // A buffer reaching a new record size, or a rarely taken path run in the interpreter after a
    // deoptimisation, allocates now and then; a per-frame allocation of even 16 bytes shows in every
    // window (1 600 bytes).
    const quiet = clean.windows.filter((bytes) => bytes <= 256).length;
    expect(quiet, `bytes allocated per window: ${clean.windows.join(', ')}`).toBeGreaterThanOrEqual(4);
    expect(clean.checksum).not.toBe(0);
    // Control: the same frames plus one small array a frame are seen in every window.
    const control = run('control');
    expect(
      control.windows.every((bytes) => bytes > 1600),
      control.windows.join(', '),
    ).toBe(true);
  });
});

const SOURCE = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/**
 * The allocation probe (plain JS, run with `node --import tsx -e PROBE <clean|control> <source>`): 300
 * boxes bouncing in a cube in an octree with small leaves (splits, merges, relinks and fat-box
 * refreshes every frame), warmed up until V8 has optimised every path; then, for each of 6 windows of
 * 100 frames, a full GC and the young generation's growth (it only grows while something allocates,
 * and nothing else runs during the loop), minus that of an empty window.
 */
const PROBE = `
import v8 from 'node:v8';
import vm from 'node:vm';
const [mode, source] = process.argv.slice(1);
const { Octree } = await import(source);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size;
let seed = 5;
const r = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), seed / 4294967296);
const n = 300;
const pos = Float64Array.from({ length: 3 * n }, () => r() * 100);
const vel = Float64Array.from({ length: 3 * n }, () => (r() - 0.5) * 2);
const half = Float64Array.from({ length: 3 * n }, () => 0.2 + r() * 1.5);
const box = new Float64Array(6);
const fill = (i) => {
  for (let k = 0; k < 3; k++) {
    box[k] = pos[3 * i + k] - half[3 * i + k];
    box[3 + k] = pos[3 * i + k] + half[3 * i + k];
  }
};
const tree = new Octree({ dimensions: 3, leafCapacity: 4 });
const handles = new Int32Array(n);
for (let i = 0; i < n; i++) {
  fill(i);
  handles[i] = tree.insert(box);
}
const query = Float64Array.of(40, 40, 40, 60, 60, 60);
let checksum = 0;
const onHit = (h) => {
  checksum ^= h;
};
let sink;
const frame = () => {
  for (let i = 0; i < 3 * n; i++) {
    pos[i] += vel[i];
    if (pos[i] < 0 || pos[i] > 100) vel[i] = -vel[i];
  }
  for (let i = 0; i < n; i++) {
    fill(i);
    tree.move(handles[i], box);
  }
  tree.update();
  checksum = (checksum + tree.pairCount) | 0;
  tree.queryBounds(query, onHit);
  if (mode === 'control') sink = [checksum];
};
for (let f = 0; f < 4000; f++) frame();
const grown = (frames) => {
  gc();
  const before = young();
  for (let f = 0; f < frames; f++) frame();
  return young() - before;
};
const baseline = grown(0);
const windows = [];
for (let w = 0; w < 6; w++) windows.push(grown(100) - baseline);
console.log(JSON.stringify({ windows, checksum, kept: sink !== undefined }));
`;
