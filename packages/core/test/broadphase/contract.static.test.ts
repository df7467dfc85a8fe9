/**
 * The shared contract suite for static proxies: every broadphase in ./registry.ts against the
 * BruteForce reference with proxies inserted static or dynamic, flipped between the two (as bodies
 * sleep and wake), static proxies moved and removed — random operation sequences in every box style,
 * motion sequences, tilemaps of touching static tiles — plus hand-checked cases (static pairs never
 * reported, flips taking effect at the update, removal, queries), bad input, and a pinned
 * determinism hash. BruteForce's own filtering is checked by the hand-checked cases, which run on it
 * too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../../test/support/depth.js';
import { type Broadphase, BruteForce } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { lockstep } from './harness.js';
import { BROADPHASES, type BroadphaseEntry } from './registry.js';
import { motion, opArb, SCALES, STYLES, scaled, tilemap } from './scenes.js';

/** Whether a broadphase implements the static proxies (one still being written does not yet). */
function hasStatics(bp: Broadphase): boolean {
  return typeof (bp as Partial<Broadphase>).setStatic === 'function';
}

/** A pair list as sorted `a,b` strings (handles). */
function pairsOf(list: Int32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += 2) out.push(`${list[i]},${list[i + 1]}`);
  return out.sort();
}

function pair(a: number, b: number): string {
  return a < b ? `${a},${b}` : `${b},${a}`;
}

/** Frames of the coherent-motion scene (a standard-depth run steps fewer; see depth.ts). */
const COHERENT_FRAMES = depth(35, 100);

const ENTRIES: BroadphaseEntry[] = [{ name: 'BruteForce', create: (o) => new BruteForce(o) }, ...BROADPHASES];

for (const entry of ENTRIES) {
  const reference = entry.name === 'BruteForce';
  describe(`static proxies: ${entry.name}`, () => {
    if (!reference) {
      for (const d of [2, 3] as const) {
        for (const style of STYLES) {
          it(`${d}-D random sequences with static proxies and flips, ${style} boxes, equal BruteForce`, (ctx) => {
            if (!hasStatics(entry.create({ dimensions: d }))) ctx.skip();
            const scales = style === 'scaled' ? SCALES : [1];
            fc.assert(
              fc.property(
                fc.constantFrom(...scales),
                fc.array(opArb(d, style, true), { minLength: 1, maxLength: 80 }),
                (scale, ops) => {
                  const step = lockstep(entry, d);
                  for (const op of ops) step.apply(scaled(op, scale));
                  step.update();
                  step.finish();
                },
              ),
              { seed: 20260725 + d * 10 + STYLES.indexOf(style), numRuns: depth(14, 40) },
            );
          });
        }

        it(`${d}-D coherent motion, 40 % static (some moving), flips every frame, equals BruteForce`, (ctx) => {
          if (!hasStatics(entry.create({ dimensions: d }))) ctx.skip();
          const step = lockstep(entry, d);
          motion(step, d, 61 + d, {
            n: 250,
            frames: COHERENT_FRAMES,
            speed: 0.6,
            teleport: 0,
            churn: 0,
            statics: { share: 0.4, flip: 0.03, still: 0.8 },
          });
          expect(step.updates).toBe(COHERENT_FRAMES + 1);
        });

        it(`${d}-D integer-grid motion with statics (ties and touching), teleports and churn`, (ctx) => {
          if (!hasStatics(entry.create({ dimensions: d }))) ctx.skip();
          const step = lockstep(entry, d);
          motion(step, d, 67 + d, {
            n: 150,
            frames: depth(20, 60),
            speed: 3,
            teleport: 0.05,
            churn: 4,
            quantize: true,
            statics: { share: 0.5, flip: 0.05, still: 0.5 },
          });
        });

        it(`${d}-D everything static but a few, all flipping often, far teleports`, (ctx) => {
          if (!hasStatics(entry.create({ dimensions: d }))) ctx.skip();
          const step = lockstep(entry, d);
          motion(step, d, 71 + d, {
            n: 120,
            frames: depth(15, 40),
            speed: 2,
            teleport: 0.1,
            churn: 2,
            far: 0.3,
            statics: { share: 0.9, flip: 0.2, still: 0.3 },
          });
        });

        it(`${d}-D tilemap: touching static tiles, sleepers, moving platforms, churn`, (ctx) => {
          if (!hasStatics(entry.create({ dimensions: d }))) ctx.skip();
          const step = lockstep(entry, d);
          tilemap(step, d, 83 + d, {
            cols: 24,
            rows: 12,
            dynamic: 60,
            frames: depth(20, 60),
            sleep: 0.05,
            tileMove: 0.01,
            tileFlip: 0.01,
            churn: 3,
          });
        });
      }
    }

    it('never reports two static proxies; a flip begins or ends their pairs at the next update', (ctx) => {
      const bp = entry.create({ dimensions: 2 });
      if (!hasStatics(bp)) ctx.skip();
      // Three touching tiles and a box over the first two.
      const t0 = bp.insert([0, 0, 1, 1], 10, true);
      const t1 = bp.insert([1, 0, 2, 1], 11, true);
      const t2 = bp.insert([2, 0, 3, 1], 12, true);
      const box = bp.insert([0.5, 0.5, 1.5, 1.5], 13);
      expect([t0, t1, t2, box].map((h) => bp.isStatic(h))).toEqual([true, true, true, false]);
      bp.update();
      expect(pairsOf(bp.pairs())).toEqual([pair(t0, box), pair(t1, box)].sort());
      expect(bp.pairCount).toBe(2);
      // The box falls asleep: static too, its pairs end at the update (not before).
      bp.setStatic(box, true);
      expect(bp.isStatic(box)).toBe(true);
      expect(bp.pairCount).toBe(2);
      bp.update();
      expect(bp.pairCount).toBe(0);
      expect(pairsOf(bp.ended())).toEqual([pair(t0, box), pair(t1, box)].sort());
      expect(bp.beganCount).toBe(0);
      // A tile turns dynamic: its pairs with every static proxy begin.
      bp.setStatic(t1, false);
      bp.update();
      expect(pairsOf(bp.began())).toEqual([pair(t0, t1), pair(t1, t2), pair(t1, box)].sort());
      expect(Array.from(bp.pairTags().began.subarray(0, 6))).toEqual(
        Array.from(bp.began(), (h) => bp.tagOf(h)),
      );
      // Setting the current value changes nothing.
      bp.setStatic(t1, false);
      bp.setStatic(t0, true);
      bp.update();
      expect(bp.beganCount + bp.endedCount).toBe(0);
      expect(bp.pairCount).toBe(3);
      // Flipped twice before an update: nothing happens.
      bp.setStatic(t1, true);
      bp.setStatic(t1, false);
      bp.update();
      expect(bp.beganCount + bp.endedCount).toBe(0);
    });

    it('moves static proxies (their pairs with dynamic ones change), removes them, queries see them', (ctx) => {
      const bp = entry.create({ dimensions: 3 });
      if (!hasStatics(bp)) ctx.skip();
      const platform = bp.insert([0, 0, 0, 4, 1, 4], 0, true);
      const wall = bp.insert([4, 0, 0, 5, 5, 4], 0, true);
      const crate = bp.insert([6, 1, 0, 7, 2, 1]);
      bp.update();
      expect(bp.pairCount).toBe(0);
      // The platform moves under the crate: a pair with the dynamic crate, none with the wall.
      bp.move(platform, [5, 0, 0, 9, 1, 4]);
      bp.update();
      expect(pairsOf(bp.pairs())).toEqual([pair(platform, crate)]);
      const found: number[] = [];
      bp.queryBounds([4.5, 0.5, 0.5, 5.5, 0.6, 0.6], found);
      expect(found.sort((a, b) => a - b)).toEqual([platform, wall].sort((a, b) => a - b));
      // Moved and flipped in one frame: the wall turns dynamic as it moves onto the platform.
      bp.move(wall, [8, 0.5, 0, 9, 5, 4]);
      bp.setStatic(wall, false);
      bp.update();
      expect(pairsOf(bp.began())).toEqual([pair(platform, wall)]);
      expect(bp.pairCount).toBe(2);
      // A static proxy removed: its pairs with dynamic proxies end as usual.
      bp.remove(platform);
      expect(() => bp.isStatic(platform)).toThrow(/unknown or was removed/);
      bp.update();
      expect(pairsOf(bp.ended())).toEqual([pair(platform, crate), pair(platform, wall)].sort());
      // Flipped, then removed before the update: its pairs end the same.
      const floor = bp.insert([0, 0, 0, 10, 0.5, 10], 0, true);
      bp.update();
      expect(pairsOf(bp.pairs())).toEqual([pair(floor, wall)]);
      bp.setStatic(floor, false);
      bp.remove(floor);
      bp.update();
      expect(pairsOf(bp.ended())).toEqual([pair(floor, wall)]);
      expect(bp.pairCount).toBe(0);
    });

    it('rejects a bad isStatic or handle with a clear error and changes nothing', (ctx) => {
      const bp = entry.create({ dimensions: 2 });
      if (!hasStatics(bp)) ctx.skip();
      const a = bp.insert([0, 0, 1, 1], 0, true);
      const b = bp.insert([0, 0, 1, 1]);
      for (const bad of [1, 0, 'true', null, {}, Number.NaN]) {
        expect(() => bp.insert([0, 0, 1, 1], 0, bad as never), String(bad)).toThrow(
          /insert: isStatic must be true or false/,
        );
        expect(() => bp.setStatic(a, bad as never), String(bad)).toThrow(
          /setStatic: isStatic must be true or false/,
        );
      }
      expect(() => bp.setStatic(a, undefined as never)).toThrow(TypeError);
      expect(() => bp.setStatic(123456, true)).toThrow(/setStatic: handle 123456 is unknown or was removed/);
      expect(() => bp.setStatic(-1, true)).toThrow(/-1 is not a handle/);
      expect(() => bp.isStatic(1.5)).toThrow(/isStatic: 1.5 is not a handle/);
      expect(bp.count).toBe(2);
      expect(bp.isStatic(a)).toBe(true);
      bp.update();
      expect(pairsOf(bp.pairs())).toEqual([pair(a, b)]);
      bp.remove(a);
      expect(() => bp.setStatic(a, false)).toThrow(/unknown or was removed/);
      bp.update();
      expect(bp.pairCount).toBe(0);
    });

    it('is deterministic with static proxies and flips, pinned by a hash (same for every broadphase)', (ctx) => {
      if (!hasStatics(entry.create({ dimensions: 3 }))) ctx.skip();
      // The second run without the invariant walk after every update (the first has it): the same
      // hash either way.
      const run = (validate: boolean) => {
        const bp = entry.create({ dimensions: 3, validate });
        const r = rng(1234);
        const handles: number[] = [];
        let hash = 0x811c9dc5;
        const mix = (list: Int32Array) => {
          for (let i = 0; i < list.length; i++) hash = Math.imul(hash ^ list[i], 0x01000193) >>> 0;
          hash = Math.imul(hash ^ 0xff, 0x01000193) >>> 0;
        };
        const box = () => {
          const p = [r() * 30, r() * 30, r() * 30];
          const s = [r() * 4, r() * 4, r() * 4];
          return [...p, ...p.map((v, k) => v + s[k])];
        };
        for (let i = 0; i < 300; i++) handles.push(bp.insert(box(), i, r() < 0.5));
        for (let f = 0; f < 30; f++) {
          for (let i = 0; i < 40; i++) bp.move(handles[Math.floor(r() * handles.length)], box());
          for (let i = 0; i < 10; i++) {
            const h = handles[Math.floor(r() * handles.length)];
            bp.setStatic(h, !bp.isStatic(h));
          }
          if (f % 5 === 4) {
            const i = Math.floor(r() * handles.length);
            bp.remove(handles[i]);
            handles[i] = bp.insert(box(), i, r() < 0.5);
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
      expect(first).toBe(EXPECTED_STATIC_HASH);
    });
  });
}

/** FNV-1a over every pairs/began/ended list of the static determinism scenario. */
const EXPECTED_STATIC_HASH = 812868412;
