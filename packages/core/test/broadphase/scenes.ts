/**
 * The scenes of the shared broadphase contract suites (contract*.test.ts): box arbitraries per style
 * of being wrong, random operation sequences, and seeded motion sequences — with static proxies
 * (random flags, flips between static and dynamic, moves of static proxies) where asked for.
 */
import fc from 'fast-check';
import type { Dimensions } from '../../src/index.js';
import { rng } from '../support/rng.js';
import type { Lockstep, Op } from './harness.js';

export type Style = 'grid' | 'float' | 'far' | 'huge' | 'scaled' | 'extreme';

/**
 * Scales applied to a whole 'scaled' sequence: the same integer scene from far smaller than any
 * configuration's cells (1/64) to far larger (64 and 4096, where most boxes cover too many cells and
 * are big). Powers of two keep every tie and touch exact.
 */
export const SCALES = [1 / 64, 1 / 4, 1, 4, 64, 4096];
/** Coordinates far from the origin, up to the double range: beyond any grid. */
export const EXTREMES = [1e9, 1e18, -1e18, 1e20, 1e300, -1e300, 1.7e308, -1.7e308];

/** A box arbitrary for a scene style: each style stresses a different way of being wrong. */
export function boxArb(d: Dimensions, style: Style): fc.Arbitrary<number[]> {
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

/**
 * Random operations on boxes of a style. With `statics`, about half of the inserts are static and
 * `setStatic` flips (to either value, the current one included) come as often as removes.
 */
export function opArb(d: Dimensions, style: Style, statics = false): fc.Arbitrary<Op> {
  const box = boxArb(d, style);
  const insert = statics
    ? fc.tuple(box, fc.boolean()).map(([b, isStatic]) => ({ kind: 'insert' as const, box: b, isStatic }))
    : box.map((b) => ({ kind: 'insert' as const, box: b }));
  const flips = statics
    ? [
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.nat(), fc.boolean())
            .map(([pick, isStatic]) => ({ kind: 'setStatic' as const, pick, isStatic }) as Op),
        },
      ]
    : [];
  return fc.oneof(
    { weight: 4, arbitrary: insert as fc.Arbitrary<Op> },
    ...flips,
    {
      weight: 5,
      arbitrary: fc.tuple(fc.nat(), box).map(([pick, b]) => ({ kind: 'move' as const, pick, box: b })),
    },
    { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'remove' as const, pick })) },
    { weight: 3, arbitrary: fc.constant({ kind: 'update' as const }) },
    { weight: 1, arbitrary: box.map((b) => ({ kind: 'query' as const, box: b })) },
  );
}

export interface Mover {
  pos: number[];
  vel: number[];
  half: number[];
  /** A far x coordinate the box sits at (zero-size on x) until its next teleport, or 0. */
  far?: number;
  /** Whether the box is static now. */
  isStatic?: boolean;
}

/** Static proxies in a motion sequence. */
export interface StaticMotion {
  /** Chance that a box is inserted static. */
  share: number;
  /** Chance per box and frame that it flips between static and dynamic (as bodies sleep and wake). */
  flip: number;
  /** Chance per static box and frame that it stays where it is (else it moves like the others). */
  still: number;
}

export function boxOf(m: Mover): number[] {
  return [...m.pos.map((p, k) => p - m.half[k]), ...m.pos.map((p, k) => p + m.half[k])];
}

/**
 * A seeded motion sequence: boxes bouncing in a cube, with optional teleports and churn, compared
 * with the reference every frame.
 */
export function motion(
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
    /** Static boxes (drawn from a generator of their own: the motion stays that of the seed). */
    statics?: StaticMotion;
  },
): void {
  const st = o.statics;
  const rs = rng(seed ^ 0x5eed);
  const insert = (m: Mover) => {
    if (st) m.isStatic = rs() < st.share;
    step.apply({ kind: 'insert', box: boxAt(m), isStatic: st ? m.isStatic : undefined });
  };
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
    insert(m);
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
      if (!(st && m.isStatic && rs() < st.still)) step.apply({ kind: 'move', pick: i, box: boxAt(m) });
    }
    if (st) {
      for (let i = 0; i < movers.length; i++) {
        const m = movers[i];
        if (rs() < st.flip) {
          m.isStatic = !m.isStatic;
          step.apply({ kind: 'setStatic', pick: i, isStatic: m.isStatic });
        }
      }
    }
    for (let c = 0; c < o.churn; c++) {
      const i = Math.floor(r() * movers.length);
      step.apply({ kind: 'remove', pick: i });
      movers.splice(i, 1);
      const m = make();
      movers.push(m);
      insert(m);
    }
    step.update();
  }
  step.finish();
}

export const STYLES: Style[] = ['grid', 'float', 'far', 'huge', 'scaled', 'extreme'];

/** Scales every box of an operation (queries included). */
export function scaled(op: Op, scale: number): Op {
  return 'box' in op ? { ...op, box: op.box.map((v) => v * scale) } : op;
}

/** A tilemap scene: touching static tiles, dynamic boxes moving over them, flips, tile moves and churn. */
export interface TilemapScene {
  /** Tiles per row and rows (unit tiles, touching on every side and corner). */
  cols: number;
  rows: number;
  /** Dynamic boxes. */
  dynamic: number;
  frames: number;
  /** Chance per dynamic box and frame that it turns static (falls asleep), and per sleeper that it wakes. */
  sleep: number;
  /** Chance per tile and frame that it moves (a moving platform) or turns dynamic for a frame. */
  tileMove: number;
  tileFlip: number;
  /** Tiles and boxes removed and inserted again per frame. */
  churn: number;
}

/**
 * A tilemap in 2-D or 3-D (one layer of tiles on z in 3-D): a level of touching static unit tiles,
 * dynamic boxes bouncing over and into it, sleepers turning static and waking, platforms (tiles)
 * moving, tiles turning dynamic and back, and tiles and boxes removed and inserted. Compared with the
 * reference every frame.
 */
export function tilemap(step: Lockstep, d: Dimensions, seed: number, o: TilemapScene): void {
  const r = rng(seed);
  // Every item: its box and whether it is a tile (tiles stay on the grid) and static.
  const items: Array<{ box: number[]; tile: boolean; isStatic: boolean; vel: number[] }> = [];
  const tileBox = (x: number, y: number) => (d === 2 ? [x, y, x + 1, y + 1] : [x, y, 0, x + 1, y + 1, 1]);
  const dynamicBox = () => {
    const p = [r() * o.cols, r() * (o.rows + 4)];
    const h = [0.2 + r() * 0.8, 0.2 + r() * 0.8];
    const b = [p[0], p[1], p[0] + h[0], p[1] + h[1]];
    return d === 2 ? b : [b[0], b[1], r() * 0.5, b[2], b[3], 1 + r()];
  };
  const add = (box: number[], tile: boolean, isStatic: boolean) => {
    items.push({ box, tile, isStatic, vel: [(r() - 0.5) * 0.6, (r() - 0.5) * 0.6] });
    step.apply({ kind: 'insert', box, isStatic });
  };
  for (let y = 0; y < o.rows; y++) for (let x = 0; x < o.cols; x++) add(tileBox(x, y), true, true);
  for (let i = 0; i < o.dynamic; i++) add(dynamicBox(), false, false);
  step.update();
  for (let f = 0; f < o.frames; f++) {
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const moves = it.tile ? r() < o.tileMove : !it.isStatic;
      if (!moves) continue;
      // Tiles move by whole units (ties and touching stay exact); boxes by their velocity.
      const dx = it.tile ? Math.round((r() - 0.5) * 2) : it.vel[0];
      const dy = it.tile ? 0 : it.vel[1];
      it.box[0] += dx;
      it.box[d] += dx;
      it.box[1] += dy;
      it.box[d + 1] += dy;
      if (!it.tile && (it.box[1] < -1 || it.box[d + 1] > o.rows + 5)) it.vel[1] = -it.vel[1];
      if (!it.tile && (it.box[0] < -1 || it.box[d] > o.cols + 1)) it.vel[0] = -it.vel[0];
      step.apply({ kind: 'move', pick: i, box: [...it.box] });
    }
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const flip = it.tile ? o.tileFlip : o.sleep;
      if (r() < flip || (it.tile && !it.isStatic)) {
        it.isStatic = !it.isStatic;
        step.apply({ kind: 'setStatic', pick: i, isStatic: it.isStatic });
      }
    }
    for (let c = 0; c < o.churn; c++) {
      const i = Math.floor(r() * items.length);
      const gone = items[i];
      step.apply({ kind: 'remove', pick: i });
      items.splice(i, 1);
      if (gone.tile) add(gone.box, true, true);
      else add(dynamicBox(), false, r() < 0.3);
    }
    step.update();
  }
  step.finish();
}
