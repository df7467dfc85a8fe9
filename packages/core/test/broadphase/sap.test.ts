/**
 * SweepAndPrune beyond the shared contract: no allocation per frame once warm, the bulk entry point,
 * the automatic cell size ignoring outliers, and the invariant checker catching a corrupted structure.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { runProbe } from '../../../../test/support/runProbe.js';
import { BruteForce, SweepAndPrune } from '../../src/index.js';

function scene(n: number, d: 2 | 3, seed: number) {
  let s = seed;
  const r = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const pos = new Float64Array(n * d).map(() => r() * 100);
  const vel = new Float64Array(n * d).map(() => (r() - 0.5) * 0.5);
  const half = new Float64Array(n * d).map(() => 0.2 + r() * 1.5);
  const bounds = new Float64Array(n * 2 * d);
  const step = () => {
    for (let i = 0; i < n * d; i++) {
      pos[i] += vel[i];
      if (pos[i] < 0 || pos[i] > 100) vel[i] = -vel[i];
    }
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < d; k++) {
        bounds[i * 2 * d + k] = pos[i * d + k] - half[i * d + k];
        bounds[i * 2 * d + d + k] = pos[i * d + k] + half[i * d + k];
      }
    }
  };
  step();
  return { bounds, step };
}

describe('SweepAndPrune', () => {
  it('does not allocate per frame once capacities are reached (a 500-frame window after the warm-up leaves the heap flat, every update path)', () => {
    // In a child process, so the test runner's own traffic does not share the heap.
    const probe = fileURLToPath(new URL('../support/heapProbe.ts', import.meta.url));
    const run = (...extra: string[]) => runProbe(probe, ['SweepAndPrune', '1000', '1500', ...extra]);
    // A steady allocation of even 2 bytes a frame grows every 500-frame window by ≥ 1 KB. The runtime
    // (module loader thread, JIT) adds garbage to some windows at random, never to all: the quietest
    // window is the measure.
    const quiet = run();
    expect(quiet.checksum).not.toBe(0);
    expect(Math.min(...quiet.growth), `growth per window: ${quiet.growth.join(', ')}`).toBeLessThan(1024);
    // Every box jumping every frame: the bulk rebuild of every region, every frame.
    const rebuilds = run('teleport');
    expect(rebuilds.checksum).not.toBe(0);
    expect(Math.min(...rebuilds.growth), `teleport growth: ${rebuilds.growth.join(', ')}`).toBeLessThan(1024);
    // A third of the boxes static, two flipping between static and dynamic every frame.
    const statics = run('statics');
    expect(statics.checksum).not.toBe(0);
    expect(Math.min(...statics.growth), `statics growth: ${statics.growth.join(', ')}`).toBeLessThan(1024);
    // Few boxes moving (each looked up in its cells rather than its cells swept), and flips.
    const few = run('few', 'statics');
    expect(few.checksum).not.toBe(0);
    expect(Math.min(...few.growth), `few-moving growth: ${few.growth.join(', ')}`).toBeLessThan(1024);
    // The busy updates' passes in TypeScript (the runs above have them in WebAssembly, from 256 boxes).
    const typescript = run('typescript', 'statics');
    expect(typescript.checksum).not.toBe(0);
    expect(Math.min(...typescript.growth), `TypeScript growth: ${typescript.growth.join(', ')}`).toBeLessThan(
      1024,
    );
    // The same probe with one 1-element array allocated per frame must see it in every window.
    const control = run('allocate');
    expect(Math.min(...control.growth), `control growth: ${control.growth.join(', ')}`).toBeGreaterThan(4096);
  });

  it('moveMany equals one move per proxy, and validates everything before changing anything', () => {
    const n = 300;
    const { bounds, step } = scene(n, 2, 9);
    const bulk = new SweepAndPrune({ dimensions: 2, validate: true });
    const single = new SweepAndPrune({ dimensions: 2 });
    const ref = new BruteForce({ dimensions: 2 });
    const handles: number[] = [];
    for (let i = 0; i < n; i++) {
      const box = bounds.subarray(i * 4, i * 4 + 4);
      handles.push(bulk.insert(box));
      single.insert(box);
      ref.insert(box);
    }
    for (let f = 0; f < 50; f++) {
      step();
      bulk.moveMany(handles, bounds);
      for (let i = 0; i < n; i++) {
        single.move(handles[i], bounds.subarray(i * 4, i * 4 + 4));
        ref.move(handles[i], bounds.subarray(i * 4, i * 4 + 4));
      }
      bulk.update();
      single.update();
      ref.update();
      expect(Array.from(bulk.pairs())).toEqual(Array.from(ref.pairs()));
      expect(Array.from(single.pairs())).toEqual(Array.from(ref.pairs()));
      expect(Array.from(bulk.began())).toEqual(Array.from(ref.began()));
    }
    const bad = Float64Array.from(bounds);
    bad[4 * 7 + 2] = Number.NaN;
    const before = Array.from(bulk.pairs());
    expect(() => bulk.moveMany(handles, bad)).toThrow(/bounds\[30\] is NaN/);
    expect(() => bulk.moveMany([handles[0], 999999], bounds)).toThrow(/unknown or was removed/);
    expect(() => bulk.moveMany(handles, bounds.subarray(0, 10))).toThrow(/has 10 numbers, need 1200/);
    bulk.update();
    expect(Array.from(bulk.pairs())).toEqual(before);
  });

  it('gives the same pairs and events whatever order the boxes are moved in', () => {
    // Most boxes moved: the update walks them in slot order, not in the caller's order.
    const n = 2000;
    const { bounds, step } = scene(n, 3, 21);
    const inOrder = new SweepAndPrune({ dimensions: 3 });
    const reversed = new SweepAndPrune({ dimensions: 3, validate: true });
    const handles = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      handles[i] = inOrder.insert(bounds.subarray(i * 6, i * 6 + 6));
      reversed.insert(bounds.subarray(i * 6, i * 6 + 6));
    }
    const backHandles = handles.slice().reverse();
    const backBounds = new Float64Array(n * 6);
    for (let f = 0; f < 40; f++) {
      step();
      for (let i = 0; i < n; i++) backBounds.set(bounds.subarray(i * 6, i * 6 + 6), (n - 1 - i) * 6);
      inOrder.moveMany(handles, bounds);
      reversed.moveMany(backHandles, backBounds);
      inOrder.update();
      reversed.update();
      expect(Array.from(reversed.pairs())).toEqual(Array.from(inOrder.pairs()));
      expect(Array.from(reversed.began())).toEqual(Array.from(inOrder.began()));
      expect(Array.from(reversed.ended())).toEqual(Array.from(inOrder.ended()));
    }
    expect(inOrder.pairCount).toBeGreaterThan(50);
  });

  it('holds 8 000 boxes filled at once (one sort) and keeps them right under motion', () => {
    const n = 8000;
    const { bounds, step } = scene(n, 3, 77);
    const bp = new SweepAndPrune({ dimensions: 3 });
    const handles = new Int32Array(n);
    for (let i = 0; i < n; i++) handles[i] = bp.insert(bounds.subarray(i * 6, i * 6 + 6));
    bp.update();
    for (let f = 0; f < 5; f++) {
      step();
      bp.moveMany(handles, bounds);
      bp.update();
    }
    bp.validate();
    expect(bp.pairCount).toBeGreaterThan(300);
  });

  it('chooses the automatic cell size from the bulk of the boxes: one far or huge box changes nothing', () => {
    const n = 300;
    const { bounds } = scene(n, 3, 5);
    const build = (extra: number[][]) => {
      const bp = new SweepAndPrune({ dimensions: 3, validate: true });
      for (let i = 0; i < n; i++) bp.insert(bounds.subarray(i * 6, i * 6 + 6));
      for (const box of extra) bp.insert(box);
      bp.update();
      return bp;
    };
    const plain = build([]);
    expect(plain.currentCellSize).toBeGreaterThan(1);
    expect(plain.currentCellSize).toBeLessThan(100);
    const outliers = [
      [[1e18, 0, 0, 1e18 + 1, 1, 1]],
      [[-1.7e308, -1.7e308, -1.7e308, -1.7e308, -1.7e308, -1.7e308]],
      [[-1e18, -1e18, -1e18, 1e18, 1e18, 1e18]],
      [
        [-1.7e308, 0, 0, 1.7e308, 1, 1],
        [5e15, 5e15, 5e15, 5e15 + 2, 5e15 + 2, 5e15 + 2],
      ],
    ];
    for (const extra of outliers) {
      const bp = build(extra);
      expect(bp.currentCellSize, JSON.stringify(extra)).toBe(plain.currentCellSize);
      expect(bp.regionCount).toBeGreaterThan(10);
      // The outliers live outside the grid (with the big boxes); the pairs stay exact.
      const ref = new BruteForce({ dimensions: 3 });
      for (let i = 0; i < n; i++) ref.insert(bounds.subarray(i * 6, i * 6 + 6));
      for (const box of extra) ref.insert(box);
      ref.update();
      expect(Array.from(bp.pairs())).toEqual(Array.from(ref.pairs()));
    }
  });

  it('stays exact while hundreds of boxes cross cells each frame, by passes and by slides (statics, churn)', () => {
    // Small cells and fast motion: most boxes move every frame, hundreds cross cell borders (moved
    // between cells before the sweeps); every fourth frame only a few boxes move (each slid in its
    // lists); some boxes flip between static and dynamic, some are removed and inserted. Equal to
    // BruteForce every frame.
    const n = 2500;
    const d = 3;
    const { bounds, step } = scene(n, d, 31);
    const bp = new SweepAndPrune({ dimensions: d, objectsPerCell: 8, rebuildShare: 0.5 });
    const ref = new BruteForce({ dimensions: d });
    const handles = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      handles[i] = bp.insert(bounds.subarray(i * 6, i * 6 + 6), i, i % 7 === 0);
      expect(ref.insert(bounds.subarray(i * 6, i * 6 + 6), i, i % 7 === 0)).toBe(handles[i]);
    }
    const inside = bp as unknown as {
      addEntry(slot: number, r: number): number;
      slideBox(slot: number): void;
    };
    const entered = vi.spyOn(inside, 'addEntry');
    const slid = vi.spyOn(inside, 'slideBox');
    for (let f = 0; f < 40; f++) {
      step();
      const moved = f % 4 === 3 ? 50 : n;
      bp.moveMany(handles, bounds, moved);
      for (let i = 0; i < moved; i++) ref.move(handles[i], bounds.subarray(i * 6, i * 6 + 6));
      for (let j = 0; j < 40; j++) {
        const h = handles[(f * 131 + j * 97) % n];
        bp.setStatic(h, !bp.isStatic(h));
        ref.setStatic(h, bp.isStatic(h));
      }
      if (f % 3 === 2) {
        for (let j = 0; j < 20; j++) {
          const i = (f * 53 + j * 211) % n;
          bp.remove(handles[i]);
          ref.remove(handles[i]);
          handles[i] = bp.insert(bounds.subarray(i * 6, i * 6 + 6), i, j % 2 === 0);
          expect(ref.insert(bounds.subarray(i * 6, i * 6 + 6), i, j % 2 === 0)).toBe(handles[i]);
        }
      }
      bp.update();
      ref.update();
      expect(Array.from(bp.pairs())).toEqual(Array.from(ref.pairs()));
      expect(Array.from(bp.began())).toEqual(Array.from(ref.began()));
      expect(Array.from(bp.ended())).toEqual(Array.from(ref.ended()));
    }
    bp.validate();
    expect(bp.pairCount).toBeGreaterThan(50);
    // The scene did what it is for: boxes changed cells, some updates slid boxes one by one.
    expect(entered.mock.calls.length).toBeGreaterThan(1000);
    expect(slid.mock.calls.length).toBeGreaterThan(5);
  });

  it('validate() detects a corrupted list', () => {
    const bp = new SweepAndPrune({ dimensions: 2 });
    for (let i = 0; i < 10; i++) bp.insert([i, 0, i + 1.5, 1]);
    bp.update();
    bp.validate();
    // Corrupt one endpoint value behind the structure's back (region 1, the one cell, holds them all).
    const inside = bp as unknown as { arena: { values: Float64Array[] }; regionStart: Int32Array };
    inside.arena.values[0][inside.regionStart[1] + 3] = -100;
    expect(() => bp.validate()).toThrow(/SAP: region 1 axis 0/);
  });
});
