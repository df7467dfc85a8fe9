/**
 * The shared broadphase contract suite: every broadphase in ./registry.ts against the BruteForce
 * reference, on random scenes (fast-check, fixed seeds) and long seeded motion sequences, in 2-D and
 * 3-D, with ties, touching and zero-size boxes, coordinates near ±1e9 with tiny extents, huge boxes,
 * teleports, add/remove churn; one integer scene scaled from far smaller than the cells to far larger
 * (boxes on both sides of the big-box threshold); coordinates up to ±1.7e308 and boxes spanning the
 * whole double range; plus bad input and determinism.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import type { Dimensions } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { Lockstep, lockstep } from './harness.js';
import { BROADPHASES } from './registry.js';
import { motion, opArb, SCALES, STYLES, scaled } from './scenes.js';

/** Frames of the coherent-motion scene (a standard-depth run steps fewer; see depth.ts). */
const COHERENT_FRAMES = depth(50, 150);

for (const entry of BROADPHASES) {
  describe(`broadphase contract: ${entry.name}`, () => {
    for (const d of [2, 3] as const) {
      for (const style of STYLES) {
        it(`${d}-D random operation sequences, ${style} boxes, equal BruteForce`, () => {
          const scales = style === 'scaled' ? SCALES : [1];
          fc.assert(
            fc.property(
              fc.constantFrom(...scales),
              fc.array(opArb(d, style), { minLength: 1, maxLength: 80 }),
              (scale, ops) => {
                const step = lockstep(entry, d);
                for (const op of ops) step.apply(scaled(op, scale));
                step.update();
                step.finish();
              },
            ),
            { seed: 20261121 + d * 10 + STYLES.indexOf(style), numRuns: depth(20, 60) },
          );
        });
      }

      it(`${d}-D coherent motion over ${COHERENT_FRAMES} frames equals BruteForce every frame`, () => {
        const step = lockstep(entry, d);
        motion(step, d, 7 + d, { n: 250, frames: COHERENT_FRAMES, speed: 0.6, teleport: 0, churn: 0 });
        expect(step.updates).toBe(COHERENT_FRAMES + 1);
      });

      it(`${d}-D integer-grid motion (ties and touching every frame) equals BruteForce`, () => {
        const step = lockstep(entry, d);
        motion(step, d, 11 + d, {
          n: 150,
          frames: depth(35, 100),
          speed: 3,
          teleport: 0.02,
          churn: 0,
          quantize: true,
        });
      });

      it(`${d}-D teleports and add/remove churn equal BruteForce`, () => {
        const step = lockstep(entry, d);
        motion(step, d, 23 + d, { n: 200, frames: depth(30, 80), speed: 2, teleport: 0.1, churn: 6 });
      });

      it(`${d}-D teleports to ±1e18 … ±1.7e308 and back, with churn, equal BruteForce`, () => {
        const step = lockstep(entry, d);
        motion(step, d, 41 + d, {
          n: 120,
          frames: depth(15, 40),
          speed: 2,
          teleport: 0.1,
          churn: 2,
          far: 0.5,
        });
      });

      for (const scale of [1 / 32, 8]) {
        it(`${d}-D motion at scale ${scale} (cells far larger / far smaller than the boxes)`, () => {
          const step = lockstep(entry, d);
          motion(step, d, 53 + d, {
            n: 100,
            frames: depth(15, 40),
            speed: 1.5,
            teleport: 0.05,
            churn: 1,
            scale,
          });
        });
      }

      it(`${d}-D everything teleports every frame`, () => {
        const step = lockstep(entry, d);
        motion(step, d, 31 + d, { n: 120, frames: depth(15, 40), speed: 1, teleport: 1, churn: 0 });
      });
    }

    it('reports touching boxes (face, edge, corner) and zero-size boxes as overlapping', () => {
      const bp = entry.create({ dimensions: 3 });
      const a = bp.insert([0, 0, 0, 1, 1, 1]);
      const face = bp.insert([1, 0, 0, 2, 1, 1]);
      const edge = bp.insert([1, 1, -1, 2, 2, 0.5]);
      const corner = bp.insert([1, 1, 1, 2, 2, 2]);
      const point = bp.insert([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
      const apart = bp.insert([1.0000001, 3, 3, 2, 4, 4]);
      bp.update();
      const pairs = Array.from(bp.pairs());
      const has = (x: number, y: number) => {
        for (let i = 0; i < pairs.length; i += 2) {
          if (pairs[i] === Math.min(x, y) && pairs[i + 1] === Math.max(x, y)) return true;
        }
        return false;
      };
      expect(has(a, face)).toBe(true);
      expect(has(a, edge)).toBe(true);
      expect(has(a, corner)).toBe(true);
      expect(has(a, point)).toBe(true);
      expect(has(a, apart)).toBe(false);
      const found: number[] = [];
      bp.queryBounds([2, 2, 2, 2.5, 2.5, 2.5], found);
      expect(found).toEqual([corner]);
    });

    it('rejects bad input with a clear error and stays valid afterwards', () => {
      const bp = entry.create({ dimensions: 3 });
      const step = new Lockstep(bp, 3);
      step.apply({ kind: 'insert', box: [0, 0, 0, 2, 2, 2] });
      step.apply({ kind: 'insert', box: [1, 1, 1, 3, 3, 3] });
      step.update();
      const [h] = step.live[0];
      expect(() => bp.insert([0, 0, 0, 1, Number.NaN, 1])).toThrow(/bounds\[4\] \(maxY\) is NaN/);
      expect(() => bp.insert([0, 0, Number.POSITIVE_INFINITY, 1, 1, 1])).toThrow(/minZ.*not a finite number/);
      expect(() => bp.insert([0, 2, 0, 1, 1, 1])).toThrow(/minY 2 is greater than maxY 1/);
      expect(() => bp.insert([0, 0, 1, 1])).toThrow(/length 4, expected 6/);
      expect(() => bp.move(h, [0, 0, 0, 1, 1])).toThrow(/length 5, expected 6/);
      expect(() => bp.move(h, [5, 0, 0, 1, 1, 1])).toThrow(/minX 5 is greater than maxX 1/);
      expect(() => bp.move(123456, [0, 0, 0, 1, 1, 1])).toThrow(/handle 123456 is unknown or was removed/);
      expect(() => bp.move(-1, [0, 0, 0, 1, 1, 1])).toThrow(/-1 is not a handle/);
      expect(() => bp.move(1.5, [0, 0, 0, 1, 1, 1])).toThrow(/1.5 is not a handle/);
      // The same from a Float64Array (the common call, which a broadphase may check by a path of its own).
      const f = (...v: number[]) => Float64Array.from(v);
      expect(() => bp.move(h, f(0, 0, 0, 1, Number.NaN, 1))).toThrow(/bounds\[4\] \(maxY\) is NaN/);
      expect(() => bp.move(h, f(0, 0, Number.NEGATIVE_INFINITY, 1, 1, 1))).toThrow(
        /minZ.*not a finite number/,
      );
      expect(() => bp.move(h, f(0, 2, 0, 1, 1, 1))).toThrow(/minY 2 is greater than maxY 1/);
      expect(() => bp.move(h, f(0, 0, 0, 1, 1))).toThrow(/length 5, expected 6/);
      expect(() => bp.move(123456, f(0, 0, 0, 1, 1, 1))).toThrow(/handle 123456 is unknown or was removed/);
      expect(() => bp.move(-1, f(0, 0, 0, 1, 1, 1))).toThrow(/-1 is not a handle/);
      expect(() => bp.move(1.5, f(0, 0, 0, 1, 1, 1))).toThrow(/1.5 is not a handle/);
      expect(() => bp.queryBounds([0, 0, 0, Number.NaN, 1, 1], [])).toThrow(/maxX/);
      step.apply({ kind: 'remove', pick: 0 });
      expect(() => bp.remove(h)).toThrow(/unknown or was removed/);
      expect(() => bp.move(h, [0, 0, 0, 1, 1, 1])).toThrow(/unknown or was removed/);
      step.update();
      // The slot is reused after the update: the old handle must stay stale.
      step.apply({ kind: 'insert', box: [0, 0, 0, 5, 5, 5] });
      step.update();
      expect(bp.has(h)).toBe(false);
      expect(() => bp.move(h, [0, 0, 0, 1, 1, 1])).toThrow(/unknown or was removed/);
      expect(() => bp.move(h, f(0, 0, 0, 1, 1, 1))).toThrow(/unknown or was removed/);
      expect(() => bp.getBounds(h, [])).toThrow(/unknown or was removed/);
      step.apply({ kind: 'move', pick: 0, box: [2, 2, 2, 4, 4, 4] });
      step.update();
      expect(bp.pairCount).toBe(1);
      expect(() => entry.create({ dimensions: 4 as Dimensions })).toThrow(/dimensions must be 2 or 3/);
    });

    it('stores a tag per proxy: tagOf, pairTags (ended pairs of removed proxies too), bad tags rejected', () => {
      const bp = entry.create({ dimensions: 2 });
      const a = bp.insert([0, 0, 2, 2], 7);
      const b = bp.insert([1, 1, 3, 3], -2147483648);
      const c = bp.insert([10, 10, 11, 11]);
      bp.update();
      expect([bp.tagOf(a), bp.tagOf(b), bp.tagOf(c)]).toEqual([7, -2147483648, 0]);
      const pairs = Array.from(bp.pairBuffers().pairs.subarray(0, 2 * bp.pairCount));
      expect(pairs).toEqual([Math.min(a, b), Math.max(a, b)]);
      expect(Array.from(bp.pairTags().pairs.subarray(0, 2))).toEqual(
        a < b ? [7, -2147483648] : [-2147483648, 7],
      );
      expect(Array.from(bp.pairTags().began.subarray(0, 2 * bp.beganCount))).toEqual(
        Array.from(bp.pairTags().pairs.subarray(0, 2)),
      );
      for (const bad of [1.5, Number.NaN, 2 ** 31, -(2 ** 31) - 1, '3' as unknown as number]) {
        expect(() => bp.insert([0, 0, 1, 1], bad), String(bad)).toThrow(/tag must be an integer/);
      }
      expect(bp.count).toBe(3);
      bp.remove(b);
      expect(() => bp.tagOf(b)).toThrow(/unknown or was removed/);
      bp.update();
      // The removed proxy's slot may be reused right away: its ended pair still reports its tag.
      const d = bp.insert([0, 0, 1, 1], 99);
      expect(bp.endedCount).toBe(1);
      expect(Array.from(bp.pairTags().ended.subarray(0, 2))).toEqual(
        a < b ? [7, -2147483648] : [-2147483648, 7],
      );
      bp.update();
      expect(bp.tagOf(d)).toBe(99);
      expect(Array.from(bp.pairTags().began.subarray(0, 2))).toEqual(a < d ? [7, 99] : [99, 7]);
    });

    it('is deterministic: the same operations give the same pairs, began and ended, pinned by a hash', () => {
      // The second run without the invariant walk after every update (the first has it): the same
      // hash either way.
      const run = (validate: boolean) => {
        const bp = entry.create({ dimensions: 3, validate });
        const r = rng(99);
        const handles: number[] = [];
        let hash = 0x811c9dc5;
        const mix = (list: Int32Array) => {
          for (let i = 0; i < list.length; i++) hash = Math.imul(hash ^ list[i], 0x01000193) >>> 0;
          hash = Math.imul(hash ^ 0xff, 0x01000193) >>> 0;
        };
        const box = () => {
          const p = [r() * 40, r() * 40, r() * 40];
          const s = [r() * 4, r() * 4, r() * 4];
          return [...p, ...p.map((v, k) => v + s[k])];
        };
        for (let i = 0; i < 300; i++) handles.push(bp.insert(box()));
        for (let f = 0; f < 30; f++) {
          for (let i = 0; i < 40; i++) bp.move(handles[Math.floor(r() * handles.length)], box());
          if (f % 5 === 4) {
            const i = Math.floor(r() * handles.length);
            bp.remove(handles[i]);
            handles[i] = bp.insert(box());
          }
          bp.update();
          mix(bp.pairs());
          mix(bp.began());
          mix(bp.ended());
        }
        return hash;
      };
      const first = run(true);
      expect(run(false)).toBe(first);
      expect(first).toBe(EXPECTED_DETERMINISM_HASH);
    });
  });
}

/** FNV-1a over every pairs/began/ended list of the determinism scenario (same for every broadphase). */
const EXPECTED_DETERMINISM_HASH = 1836728533;
