/**
 * SweepAndPrune's WebAssembly passes (kernel.ts) against its TypeScript passes: the same pairs, began
 * and ended, in the same order, frame for frame, in 2-D and 3-D, with static boxes and flips, churn,
 * teleports and boxes crossing cells, with record buffers so short that kernel calls stop and resume;
 * the arrays moved into the kernel's heap and out again when they grow; and the TypeScript path taken
 * whenever no heap can be had.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KernelHeap } from '../../src/broadphase/sap/kernelHeap.js';
import { PASS_KERNEL_BASE64 } from '../../src/broadphase/sap/wasm/passKernel.generated.js';
import { SweepAndPrune, type SweepAndPruneOptions } from '../../src/index.js';
import { WasmKernel } from '../../src/wasmKernel.js';
import { rng } from '../support/rng.js';
import { kernelFromFirstBox, kernelKnobs as knobs, typescriptPassesOnly } from '../support/sapKernelKnobs.js';

/** A kernel broadphase and a TypeScript one, fed the same frames by `frames`, compared after each. */
function compare(
  d: 2 | 3,
  options: Omit<SweepAndPruneOptions, 'dimensions'>,
  records: number,
  seed: number,
  frames: (feed: Feed) => void,
): { kernel: SweepAndPrune; plain: SweepAndPrune } {
  const kernel = kernelFromFirstBox(
    new SweepAndPrune({ dimensions: d, validate: true, ...options }),
    records,
  );
  const plain = typescriptPassesOnly(new SweepAndPrune({ dimensions: d, ...options }));
  const both = [kernel, plain];
  const feed: Feed = {
    r: rng(seed),
    insert: (box, isStatic) => {
      const a = kernel.insert(box, 0, isStatic);
      expect(plain.insert(box, 0, isStatic)).toBe(a);
      return a;
    },
    move: (h, box) => {
      for (const bp of both) bp.move(h, box);
    },
    remove: (h) => {
      for (const bp of both) bp.remove(h);
    },
    setStatic: (h, s) => {
      for (const bp of both) bp.setStatic(h, s);
    },
    update: (frame) => {
      for (const bp of both) bp.update();
      expect([...kernel.pairs()], `pairs, frame ${frame}`).toEqual([...plain.pairs()]);
      expect([...kernel.began()], `began, frame ${frame}`).toEqual([...plain.began()]);
      expect([...kernel.ended()], `ended, frame ${frame}`).toEqual([...plain.ended()]);
    },
  };
  frames(feed);
  return { kernel, plain };
}

interface Feed {
  r: () => number;
  insert(box: Float64Array, isStatic: boolean): number;
  move(h: number, box: Float64Array): void;
  remove(h: number): void;
  setStatic(h: number, isStatic: boolean): void;
  update(frame: number): void;
}

/**
 * `n` boxes of half-size 0.2–1.2 bouncing in a cube of edge `edge` at up to `speed` a frame: a third
 * static, a few flipping, a few removed and inserted, and every 10th frame a tenth of them teleported.
 */
function crowd(d: 2 | 3, n: number, edge: number, speed: number, count: number, swellAt = -1) {
  return (feed: Feed) => {
    const { r } = feed;
    const pos = Float64Array.from({ length: n * d }, () => r() * edge);
    const vel = pos.map(() => (r() - 0.5) * 2 * speed);
    const half = pos.map(() => 0.2 + r());
    const box = new Float64Array(2 * d);
    const write = (i: number) => {
      for (let k = 0; k < d; k++) {
        box[k] = pos[i * d + k] - half[i * d + k];
        box[d + k] = pos[i * d + k] + half[i * d + k];
      }
      return box;
    };
    const handles: number[] = [];
    for (let i = 0; i < n; i++) handles.push(feed.insert(write(i), i % 3 === 0));
    feed.update(0);
    for (let f = 1; f <= count; f++) {
      // Every box half as large again at once: each enters more cells than it left.
      if (f === swellAt) for (let j = 0; j < half.length; j++) half[j] *= 1.5;
      for (let i = 0; i < n; i++) {
        for (let j = i * d; j < (i + 1) * d; j++) {
          pos[j] += vel[j];
          if (pos[j] < 0 || pos[j] > edge) vel[j] = -vel[j];
          if (f % 10 === 0 && i % 10 === 0) pos[j] = r() * edge;
        }
        feed.move(handles[i], write(i));
      }
      for (let c = 0; c < 3; c++) {
        const i = Math.floor(r() * n);
        if (c === 0) feed.setStatic(handles[i], r() < 0.5);
        else {
          feed.remove(handles[i]);
          handles[i] = feed.insert(write(i), false);
        }
      }
      feed.update(f);
    }
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SweepAndPrune, WebAssembly passes', () => {
  for (const d of [2, 3] as const) {
    it(`${d}-D: the TypeScript passes' pairs, began and ended, frame for frame (statics, flips, churn, teleports)`, () => {
      for (const options of [
        {},
        { cellSize: 3, passShare: 0, rebuildShare: Number.POSITIVE_INFINITY },
        { cellSize: Number.POSITIVE_INFINITY, passShare: 0 },
      ]) {
        for (const records of [1024, 0]) {
          const { kernel } = compare(d, options, records, 7 + d, crowd(d, 300, d === 3 ? 12 : 30, 0.4, 40));
          expect(knobs(kernel).heap, JSON.stringify(options)).not.toBeNull();
          // Short buffers stop kernel calls in these crowded regions, and the calls resume.
          if (records === 0) expect(knobs(kernel).kernelStops, JSON.stringify(options)).toBeGreaterThan(0);
        }
      }
    });
  }

  it('moves grown arrays into its heap, and runs a frame in TypeScript from where a box entering a region grew them', () => {
    const held = vi.spyOn(
      SweepAndPrune.prototype as unknown as { kernelStillHeld(): boolean },
      'kernelStillHeld',
    );
    const create = vi.spyOn(KernelHeap, 'create');
    // Small cells; at frame 10 every box swells, so the boxes entering cells in that frame's passes
    // make more entries than the entry arrays hold.
    const { kernel } = compare(
      3,
      { cellSize: 2, passShare: 0, rebuildShare: Number.POSITIVE_INFINITY },
      1024,
      11,
      crowd(3, 600, 12, 0.3, 20, 10),
    );
    expect(knobs(kernel).heap).not.toBeNull();
    expect(held.mock.results.some((x) => x.value === false)).toBe(true);
    // More than one heap: the arrays outgrew the first.
    expect(create.mock.calls.length).toBeGreaterThan(1);
  });

  it('reports the kernel unavailable where compiling WebAssembly is forbidden (a content-security policy)', () => {
    const wasm = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object } })
      .WebAssembly;
    vi.spyOn(wasm, 'Module').mockImplementation(() => {
      throw new Error('WebAssembly.Module(): Refused to compile or instantiate WebAssembly module');
    });
    const kernel = new WasmKernel(PASS_KERNEL_BASE64);
    expect(kernel.available()).toBe(false);
    expect(kernel.instantiate(65536)).toBeNull();
  });

  it('runs its passes in TypeScript when no heap can be had, and asks again only once the boxes doubled', () => {
    const create = vi.spyOn(KernelHeap, 'create').mockReturnValue(null);
    const { kernel } = compare(3, {}, 1024, 5, crowd(3, 200, 12, 0.3, 20));
    expect(knobs(kernel).heap).toBeNull();
    expect(create).toHaveBeenCalledTimes(1);
  });
});
