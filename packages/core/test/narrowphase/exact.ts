/**
 * Test helpers: an EXACT reference for OCSI (rational arithmetic on the binary values of the inputs, with
 * BigInt), seeded random numbers and paper-style configuration sets in float32 lanes.
 */
import { fillOcsiConfigs } from '../../../../bench/ocsi/configs.js';
import type { OcsiLanes } from '../../src/index.js';
import { rng } from '../support/rng.js';

export { rng };

const view = new DataView(new ArrayBuffer(8));

/** v · 2^1074 as an exact BigInt (every finite double is an integer multiple of 2^-1074). */
export function scaled(v: number): bigint {
  if (!Number.isFinite(v)) throw new Error(`scaled: ${v} is not finite`);
  view.setFloat64(0, v);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (exp !== 0) {
    mant |= 1n << 52n;
    e = exp - 1075;
  }
  const r = mant << BigInt(e + 1074);
  return hi >>> 31 ? -r : r;
}

const abs = (x: bigint) => (x < 0n ? -x : x);

/**
 * The exact OCSI decision for rSC (dim numbers), axes (dim² row by row), half extents and radius, taken as
 * the exact values of the given doubles, and the signed relative margin (d² − R²) / (|rSC|² + R²).
 */
export function exactOcsi(
  r: ArrayLike<number>,
  e: ArrayLike<number>,
  h: ArrayLike<number>,
  radius: number,
  dim = 3,
): { overlap: boolean; margin: number } {
  const S = 1074n;
  let d2 = 0n; // scale 2^(4·1074)
  let n2 = 0n;
  for (let i = 0; i < dim; i++) {
    let a = 0n; // scale 2^(2·1074)
    for (let j = 0; j < dim; j++) a += scaled(r[j]) * scaled(e[i * dim + j]);
    let l = abs(a) - (scaled(h[i]) << S);
    if (l < 0n) l = 0n;
    d2 += l * l;
    const x = scaled(r[i]);
    n2 += (x * x) << (2n * S);
  }
  const rr = scaled(radius);
  const r2 = (rr * rr) << (2n * S);
  const diff = d2 - r2;
  const margin = Number((diff << 64n) / (n2 + r2 + 1n)) / 2 ** 64;
  return { overlap: diff <= 0n, margin };
}

/** Plain float32 lanes (12 planes of `n`). */
export function makeLanes(n: number): OcsiLanes {
  const p = () => new Float32Array(n);
  return {
    rx: p(),
    ry: p(),
    rz: p(),
    e0x: p(),
    e0y: p(),
    e0z: p(),
    e1x: p(),
    e1y: p(),
    e1z: p(),
    e2x: p(),
    e2y: p(),
    e2z: p(),
  };
}

/** Lane i as plain arrays: [rSC (3), axes (9)]. */
export function lane(l: OcsiLanes, i: number): [number[], number[]] {
  return [
    [l.rx[i], l.ry[i], l.rz[i]],
    [l.e0x[i], l.e0y[i], l.e0z[i], l.e1x[i], l.e1y[i], l.e1z[i], l.e2x[i], l.e2y[i], l.e2z[i]],
  ];
}

/** Paper-style configuration sets: for each (L*, W*, R*) `per` lanes. */
export interface PaperSet {
  half: [number, number, number];
  radius: number;
  lanes: OcsiLanes;
  count: number;
}

/** Float32 half extents and radius of the paper's shape (T = 1, L*, W*) and R*. */
export function paperShape(
  L: number,
  W: number,
  R: number,
): { half: [number, number, number]; radius: number } {
  return { half: [0.5, Math.fround(L / 2), Math.fround(W / 2)], radius: Math.fround(R) };
}

/** `count` configurations of the paper's protocol for one shape, seeded. */
export function paperSet(L: number, W: number, R: number, count: number, seed: number): PaperSet {
  const { half, radius } = paperShape(L, W, R);
  const lanes = makeLanes(count);
  fillOcsiConfigs(lanes, count, half, radius, rng(seed));
  return { half, radius, lanes, count };
}
