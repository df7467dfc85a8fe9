/**
 * The configuration generator of the OCSI paper's benchmark (its Section 3), shared by bench/ocsi and
 * the core's tests so both exercise the same distribution. Benchmark code: not part of `@sieve/core`.
 *
 * The cuboid (edges a, b, c; the paper uses T = 1 as unit, L*, W* ∈ [1, 20]) sits at the origin aligned
 * with the axes; the sphere centre is uniform in a spherocuboid (the cuboid grown by a radius ρ, i.e. its
 * Minkowski sum with a ball) whose ρ is tuned so that a chosen fraction of configurations do NOT overlap
 * (the paper's "acceptance ratio", 40 %); then the frame is rotated uniformly at random. The spherocuboid's
 * volume is Steiner's formula V(r) = abc + 2(ab + bc + ca)·r + π(a + b + c)·r² + 4/3·π·r³, and a sphere of
 * radius R overlaps iff its centre lies in the spherocuboid of radius R, so the non-overlap fraction is
 * 1 − V(R)/V(ρ): ρ solves V(ρ) = V(R)/(1 − acceptance), by bisection.
 */
import { type OcsiLanes, quatToAxes, randomRotationQuat } from '@sieve/core';

/** Steiner's volume of a box with edges a, b, c grown by r (the spherocuboid). */
export function steinerVolume(a: number, b: number, c: number, r: number): number {
  return (
    a * b * c +
    2 * (a * b + b * c + c * a) * r +
    Math.PI * (a + b + c) * r * r +
    (4 / 3) * Math.PI * r * r * r
  );
}

/**
 * The spherocuboid radius ρ for which a centre sampled uniformly in it misses a sphere of `sphereRadius`
 * with probability `acceptance` (box edges a, b, c). Bisection to relative 1e-12.
 */
export function spherocuboidRadius(
  a: number,
  b: number,
  c: number,
  sphereRadius: number,
  acceptance = 0.4,
): number {
  if (!(acceptance >= 0 && acceptance < 1)) {
    throw new RangeError(`spherocuboidRadius: acceptance must be in [0, 1), got ${String(acceptance)}`);
  }
  for (const [n, v] of [
    ['a', a],
    ['b', b],
    ['c', c],
    ['sphereRadius', sphereRadius],
  ] as const) {
    if (!(Number.isFinite(v) && v >= 0))
      throw new RangeError(`spherocuboidRadius: ${n} must be finite and >= 0`);
  }
  const target = steinerVolume(a, b, c, sphereRadius) / (1 - acceptance);
  let lo = sphereRadius;
  let hi = Math.max(1, sphereRadius);
  while (steinerVolume(a, b, c, hi) < target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (steinerVolume(a, b, c, mid) < target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

const q = new Float64Array(4);
const e = new Float64Array(9);

/**
 * Fills lanes [start, start + count) of `lanes` with the paper's configurations for a box of half extents
 * `halfExtents` (3 numbers) and a sphere of `radius`: r_SC uniform in the spherocuboid tuned to
 * `acceptance`, then a uniform random rotation (Shoemake). `random()` returns uniform numbers in [0, 1)
 * (pass a seeded generator for reproducible sets). Values are computed in double and stored as float32.
 * Returns the spherocuboid radius used.
 */
export function fillOcsiConfigs(
  lanes: OcsiLanes,
  count: number,
  halfExtents: ArrayLike<number>,
  radius: number,
  random: () => number,
  acceptance = 0.4,
  start = 0,
): number {
  const hx = halfExtents[0];
  const hy = halfExtents[1];
  const hz = halfExtents[2];
  const rho = spherocuboidRadius(2 * hx, 2 * hy, 2 * hz, radius, acceptance);
  const rho2 = rho * rho;
  for (let i = start; i < start + count; i++) {
    // rejection sampling of the spherocuboid from its bounding box
    let x = 0;
    let y = 0;
    let z = 0;
    for (;;) {
      x = (2 * random() - 1) * (hx + rho);
      y = (2 * random() - 1) * (hy + rho);
      z = (2 * random() - 1) * (hz + rho);
      const dx = Math.max(Math.abs(x) - hx, 0);
      const dy = Math.max(Math.abs(y) - hy, 0);
      const dz = Math.max(Math.abs(z) - hz, 0);
      if (dx * dx + dy * dy + dz * dz <= rho2) break;
    }
    // rotate the frame: box axes e_k = Q·x̂_k, centre offset Q·p
    quatToAxes(randomRotationQuat(random(), random(), random(), q), 0, e, 0);
    lanes.rx[i] = x * e[0] + y * e[3] + z * e[6];
    lanes.ry[i] = x * e[1] + y * e[4] + z * e[7];
    lanes.rz[i] = x * e[2] + y * e[5] + z * e[8];
    lanes.e0x[i] = e[0];
    lanes.e0y[i] = e[1];
    lanes.e0z[i] = e[2];
    lanes.e1x[i] = e[3];
    lanes.e1y[i] = e[4];
    lanes.e1z[i] = e[5];
    lanes.e2x[i] = e[6];
    lanes.e2y[i] = e[7];
    lanes.e2z[i] = e[8];
  }
  return rho;
}
