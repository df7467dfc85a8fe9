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
import type { Dimensions } from '../../src/index.js';
import { rng } from '../support/rng.js';
import { Lockstep, type Op } from './harness.js';
import { BROADPHASES } from './registry.js';

type Style = 'grid' | 'float' | 'far' | 'huge' | 'scaled' | 'extreme';

/**
 * Scales applied to a whole 'scaled' sequence: the same integer scene from far smaller than any
 * configuration's cells (1/64) to far larger (64 and 4096, where most boxes cover too many cells and
 * are big). Powers of two keep every tie and touch exact.
 */
const SCALES = [1 / 64, 1 / 4, 1, 4, 64, 4096];
/** Coordinates far from the origin, up to the double range: beyond any grid. */
const EXTREMES = [1e9, 1e18, -1e18, 1e20, 1e300, -1e300, 1.7e308, -1.7e308];

/** A box arbitrary for a scene style: each style stresses a different way of being wrong. */
function boxArb(d: Dimensions, style: Style): fc.Arbitrary<number[]> {
  const axis = (() => {
    switch (style) {
      // Small integer grid: identical boxes, touching faces/edges/corners, zero-size boxes.
      case 'grid':
        return fc
          .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 4 }))
          .map(([lo, s]) => [lo, lo + s]);
      case 'float':
        return fc
          .tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: 0, max: 15, noNaN: true }))
          .map(([lo, s]) => [lo, lo + s]);
      // Near ±1e9 with extents of a thousandth and below.
      case 'far':
        return fc
          .tuple(fc.constantFrom(-1e9, 1e9), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 4 }))
          .map(([base, lo, s]) => [base + lo * 1e-3, base + (lo + s) * 1e-3]);
      // A few boxes bigger than the whole scene among small ones.
      case 'huge':
        return fc.oneof(
          { weight: 1, arbitrary: fc.constant([-1e6, 1e6]) },
          {
            weight: 6,
            arbitrary: fc
              .tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 3 }))
              .map(([lo, s]) => [lo, lo + s]),
          },
        );
      // Integer boxes covering 1 to 13 units per axis (scaled per sequence): around the big-box
      // threshold at every cell size, boxes changing between big and small as they move.
      case 'scaled':
        return fc
          .tuple(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 12 }))
          .map(([lo, s]) => [lo, lo + s]);
      // Small boxes near the origin among boxes at ±1e9 … ±1.7e308, boxes reaching from the scene
      // to there, and boxes spanning the whole double range.
      case 'extreme':
        return fc.oneof(
          {
            weight: 5,
            arbitrary: fc
              .tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 3 }))
              .map(([lo, s]) => [lo, lo + s]),
          },
          {
            weight: 3,
            arbitrary: fc
              .tuple(
                fc.constantFrom(...EXTREMES),
                fc.integer({ min: 0, max: 3 }),
                fc.integer({ min: 0, max: 2 }),
              )
              .map(([base, lo, s]) => [
                base + lo * 1e-3 * Math.abs(base),
                base + (lo + s) * 1e-3 * Math.abs(base),
              ])
              .map(([a, b]) =>
                Number.isFinite(a) && Number.isFinite(b) ? [a, b] : [-Number.MAX_VALUE, -1e308],
              ),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...EXTREMES), fc.integer({ min: 0, max: 10 }))
              .map(([base, x]) => (base < 0 ? [base, x] : [x, base])),
          },
          { weight: 1, arbitrary: fc.constant([-Number.MAX_VALUE, Number.MAX_VALUE]) },
        );
    }
  })();
  return fc
    .array(axis, { minLength: d, maxLength: d })
    .map((axes) => [...axes.map((a) => a[0]), ...axes.map((a) => a[1])]);
}

function opArb(d: Dimensions, style: Style): fc.Arbitrary<Op> {
  const box = boxArb(d, style);
  return fc.oneof(
    { weight: 4, arbitrary: box.map((b) => ({ kind: 'insert' as const, box: b })) },
    {
      weight: 5,
      arbitrary: fc.tuple(fc.nat(), box).map(([pick, b]) => ({ kind: 'move' as const, pick, box: b })),
    },
    { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'remove' as const, pick })) },
    { weight: 3, arbitrary: fc.constant({ kind: 'update' as const }) },
    { weight: 1, arbitrary: box.map((b) => ({ kind: 'query' as const, box: b })) },
  );
}

interface Mover {
  pos: number[];
  vel: number[];
  half: number[];
  /** A far x coordinate the box sits at (zero-size on x) until its next teleport, or 0. */
  far?: number;
}

function boxOf(m: Mover): number[] {
  return [...m.pos.map((p, k) => p - m.half[k]), ...m.pos.map((p, k) => p + m.half[k])];
}

/**
 * A seeded motion sequence: boxes bouncing in a cube, with optional teleports and churn, compared
 * with the reference every frame.
 */
function motion(
  step: Lockstep,
  d: Dimensions,
  seed: number,
  o: {
    n: number;
    frames: number;
    speed: number;
    teleport: number;
    churn: number;
    quantize?: boolean;
    /** Share of the teleports that go to a far coordinate (±1e18 … ±1.7e308) on one axis. */
    far?: number;
    /** Scales every box (the world is 60 units, boxes up to 6). */
    scale?: number;
  },
): void {
  const scale = o.scale ?? 1;
  const farBox = (m: Mover): number[] | undefined => {
    if (!m.far) return undefined;
    const b = boxOf(m).map((v) => v * scale);
    b[0] = m.far;
    b[d] = m.far;
    return b;
  };
  const boxAt = (m: Mover) => farBox(m) ?? boxOf(m).map((v) => v * scale);
  const r = rng(seed);
  const world = 60;
  const q = (v: number) => (o.quantize ? Math.round(v) : v);
  const make = (): Mover => ({
    pos: Array.from({ length: d }, () => q(r() * world)),
    vel: Array.from({ length: d }, () => (r() - 0.5) * o.speed),
    half: Array.from({ length: d }, () => q(r() * 3)),
  });
  const movers: Mover[] = [];
  for (let i = 0; i < o.n; i++) {
    const m = make();
    movers.push(m);
    step.apply({ kind: 'insert', box: boxAt(m) });
  }
  step.update();
  for (let f = 0; f < o.frames; f++) {
    for (let i = 0; i < movers.length; i++) {
      const m = movers[i];
      if (r() < o.teleport) {
        for (let k = 0; k < d; k++) m.pos[k] = q(r() * world);
        m.far = o.far && r() < o.far ? EXTREMES[Math.floor(r() * EXTREMES.length)] : 0;
      } else {
        for (let k = 0; k < d; k++) {
          m.pos[k] = q(m.pos[k] + m.vel[k]);
          if (m.pos[k] < 0 || m.pos[k] > world) m.vel[k] = -m.vel[k];
        }
      }
      step.apply({ kind: 'move', pick: i, box: boxAt(m) });
    }
    for (let c = 0; c < o.churn; c++) {
      const i = Math.floor(r() * movers.length);
      step.apply({ kind: 'remove', pick: i });
      movers.splice(i, 1);
      const m = make();
      movers.push(m);
      step.apply({ kind: 'insert', box: boxAt(m) });
    }
    step.update();
  }
}

const STYLES: Style[] = ['grid', 'float', 'far', 'huge', 'scaled', 'extreme'];

/** Scales every box of an operation (queries included). */
function scaled(op: Op, scale: number): Op {
  return 'box' in op ? { ...op, box: op.box.map((v) => v * scale) } : op;
}

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
                const step = new Lockstep(entry.create({ dimensions: d }), d);
                for (const op of ops) step.apply(scaled(op, scale));
                step.update();
              },
            ),
            { seed: 20261121 + d * 10 + STYLES.indexOf(style), numRuns: 60 },
          );
        });
      }

      it(`${d}-D coherent motion over 150 frames equals BruteForce every frame`, () => {
        const step = new Lockstep(entry.create({ dimensions: d }), d);
        motion(step, d, 7 + d, { n: 250, frames: 150, speed: 0.6, teleport: 0, churn: 0 });
        expect(step.updates).toBe(151);
      });

      it(`${d}-D integer-grid motion (ties and touching every frame) equals BruteForce`, () => {
        const step = new Lockstep(entry.create({ dimensions: d }), d);
        motion(step, d, 11 + d, { n: 150, frames: 100, speed: 3, teleport: 0.02, churn: 0, quantize: true });
      });

      it(`${d}-D teleports and add/remove churn equal BruteForce`, () => {
        const step = new Lockstep(entry.create({ dimensions: d }), d);
        motion(step, d, 23 + d, { n: 200, frames: 80, speed: 2, teleport: 0.1, churn: 6 });
      });

      it(`${d}-D teleports to ±1e18 … ±1.7e308 and back, with churn, equal BruteForce`, () => {
        const step = new Lockstep(entry.create({ dimensions: d }), d);
        motion(step, d, 41 + d, { n: 120, frames: 40, speed: 2, teleport: 0.1, churn: 2, far: 0.5 });
      });

      for (const scale of [1 / 32, 8]) {
        it(`${d}-D motion at scale ${scale} (cells far larger / far smaller than the boxes)`, () => {
          const step = new Lockstep(entry.create({ dimensions: d }), d);
          motion(step, d, 53 + d, { n: 100, frames: 40, speed: 1.5, teleport: 0.05, churn: 1, scale });
        });
      }

      it(`${d}-D everything teleports every frame`, () => {
        const step = new Lockstep(entry.create({ dimensions: d }), d);
        motion(step, d, 31 + d, { n: 120, frames: 40, speed: 1, teleport: 1, churn: 0 });
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
      const run = () => {
        const bp = entry.create({ dimensions: 3 });
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
      const first = run();
      expect(run()).toBe(first);
      expect(first).toBe(EXPECTED_DETERMINISM_HASH);
    });
  });
}

/** FNV-1a over every pairs/began/ended list of the determinism scenario (same for every broadphase). */
const EXPECTED_DETERMINISM_HASH = 1836728533;
