// AssemblyScript source of the WebAssembly SIMD kernels behind `OcsiBatch` (see ../ocsiBatch.ts).
// Built by packages/core/scripts/build-wasm.mjs into ocsiKernel.generated.ts (base64, loaded synchronously).
// Not TypeScript: the extension keeps tsc, biome and vitest away from it; asc compiles it as AssemblyScript.
//
// Follows the OCSI paper ("Oriented Cuboid Sphere Intersection"), Algorithm 5 and Eq. 2, vectorised across configurations as
// the paper's OpenMP SIMD loops are: four lanes (four sphere–cuboid pairs) per f32x4 register.
//
// Memory layout (all offsets in bytes, 16-byte aligned, `cap` a multiple of 16):
//   lanes:  plane k (k = 0..11: rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z) at base + 4·k·cap.
//   shape:  plane k (k = 0..3: hx, hy, hz, radius) at shape + 4·k·shapeCap, lane i at + i·shapeStride,
//           shapeStride = 4 for one value per lane (ocsiOverlapLanes), 0 for one shared value stored four
//           times, a 64-byte splat block with shapeCap = 4 (ocsiOverlapUniform).
// Entry points: ocsiOverlapUniform, ocsiOverlapLanes (flags + count), ocsiDistanceSq (float64 arithmetic).
// Plain loads: the caller (OcsiBatch) sizes the memory so every block of 16 lanes is in bounds.
//
// Exactness: the overlap kernel decides in float32, then re-decides in float64 (the same operations, in the
// same order, as the TypeScript path) every lane whose float32 result lies within a proven error bound of
// the boundary, so its flags are bit-identical to the TypeScript path for inputs that honour the batched
// contract (finite values, axes of length 1 within 1e-3). Bound: with N = |rSC| and u = 2^-24, the
// float32 value of Σ(2·l_i)² differs from the exact one by at most ~156·u·N² and 4R² by 4·u·R², so a lane
// whose difference to 4R² exceeds 2^-15·(N² + R²) + 2^-100 (3.3× that, plus an underflow floor) is certain.

// One block of four lanes: Σ (2·max(|rSC·e_i| − c_i, 0))², computed as t + |t| with t = |a| − c (exact
// doubling of max(t, 0), two cheap instructions instead of a NaN-aware max).
@inline
function sum4(p: usize, cap4: usize, x: v128, y: v128, z: v128, hx: v128, hy: v128, hz: v128): v128 {
  let t = f32x4.add(
    f32x4.add(f32x4.mul(x, v128.load(p + 3 * cap4)), f32x4.mul(y, v128.load(p + 4 * cap4))),
    f32x4.mul(z, v128.load(p + 5 * cap4)),
  );
  let u = f32x4.add(
    f32x4.add(f32x4.mul(x, v128.load(p + 6 * cap4)), f32x4.mul(y, v128.load(p + 7 * cap4))),
    f32x4.mul(z, v128.load(p + 8 * cap4)),
  );
  let v = f32x4.add(
    f32x4.add(f32x4.mul(x, v128.load(p + 9 * cap4)), f32x4.mul(y, v128.load(p + 10 * cap4))),
    f32x4.mul(z, v128.load(p + 11 * cap4)),
  );
  t = f32x4.sub(f32x4.abs(t), hx);
  u = f32x4.sub(f32x4.abs(u), hy);
  v = f32x4.sub(f32x4.abs(v), hz);
  t = f32x4.add(t, f32x4.abs(t));
  u = f32x4.add(u, f32x4.abs(u));
  v = f32x4.add(v, f32x4.abs(v));
  return f32x4.add(f32x4.add(f32x4.mul(t, t), f32x4.mul(u, u)), f32x4.mul(v, v));
}

// Four lanes: their overlap bits (float32 decision) in bits 0–3 and their "too close to call" bits in 4–7.
@inline
function block4(p: usize, cap4: usize, hx: v128, hy: v128, hz: v128, r: v128): i32 {
  const x = v128.load(p);
  const y = v128.load(p + cap4);
  const z = v128.load(p + 2 * cap4);
  const sum = sum4(p, cap4, x, y, z, hx, hy, hz);
  const r2 = f32x4.mul(f32x4.mul(f32x4.splat(4), r), r);
  const n2 = f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.mul(z, z));
  const bound = f32x4.add(
    f32x4.mul(f32x4.splat(3.0517578125e-5), f32x4.add(n2, f32x4.mul(r, r))),
    f32x4.splat(7.888609052210118e-31),
  );
  const certain = f32x4.gt(f32x4.abs(f32x4.sub(sum, r2)), bound);
  return i32x4.bitmask(f32x4.le(sum, r2)) | ((i32x4.bitmask(certain) ^ 15) << 4);
}

// The float64 decision for one lane: the same operations, in the same order, as ocsiOverlapBatch in TS.
function exact(p: usize, cap4: usize, s: usize, shapeCap4: usize): bool {
  const x = <f64>load<f32>(p);
  const y = <f64>load<f32>(p + cap4);
  const z = <f64>load<f32>(p + 2 * cap4);
  let t = x * <f64>load<f32>(p + 3 * cap4) + y * <f64>load<f32>(p + 4 * cap4) + z * <f64>load<f32>(p + 5 * cap4);
  let u = x * <f64>load<f32>(p + 6 * cap4) + y * <f64>load<f32>(p + 7 * cap4) + z * <f64>load<f32>(p + 8 * cap4);
  let v = x * <f64>load<f32>(p + 9 * cap4) + y * <f64>load<f32>(p + 10 * cap4) + z * <f64>load<f32>(p + 11 * cap4);
  t = abs<f64>(t) - <f64>load<f32>(s);
  u = abs<f64>(u) - <f64>load<f32>(s + shapeCap4);
  v = abs<f64>(v) - <f64>load<f32>(s + 2 * shapeCap4);
  t = t + abs<f64>(t);
  u = u + abs<f64>(u);
  v = v + abs<f64>(v);
  const r = <f64>load<f32>(s + 3 * shapeCap4);
  return t * t + u * u + v * v <= 4 * r * r;
}

// The overlap loop; `uniform` is a compile-time constant after inlining (one shape for all lanes, kept in
// registers, or one shape per lane read from the shape planes).
@inline
function overlapLoop(
  base: usize,
  cap: i32,
  n: i32,
  shape: usize,
  shapeCap: i32,
  out: usize,
  uniform: bool,
): i32 {
  const cap4 = (<usize>cap) << 2;
  const shapeCap4 = (<usize>shapeCap) << 2;
  const stride: usize = uniform ? 0 : 4;
  const one = i8x16.splat(1);
  const bitSel = i8x16(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const hx = v128.load(shape);
  const hy = v128.load(shape + shapeCap4);
  const hz = v128.load(shape + 2 * shapeCap4);
  const r = v128.load(shape + 3 * shapeCap4);
  let count = 0;
  for (let i = 0; i < n; i += 16) {
    const p = base + ((<usize>i) << 2);
    const s = shape + <usize>i * stride;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    if (uniform) {
      b0 = block4(p, cap4, hx, hy, hz, r);
      b1 = block4(p + 16, cap4, hx, hy, hz, r);
      b2 = block4(p + 32, cap4, hx, hy, hz, r);
      b3 = block4(p + 48, cap4, hx, hy, hz, r);
    } else {
      for (let j: usize = 0; j < 64; j += 16) {
        const q = s + j;
        const bj = block4(
          p + j,
          cap4,
          v128.load(q),
          v128.load(q + shapeCap4),
          v128.load(q + 2 * shapeCap4),
          v128.load(q + 3 * shapeCap4),
        );
        if (j == 0) b0 = bj;
        else if (j == 16) b1 = bj;
        else if (j == 32) b2 = bj;
        else b3 = bj;
      }
    }
    let valid = 0xffff;
    if (n - i < 16) valid = (1 << (n - i)) - 1;
    let bits = ((b0 & 15) | ((b1 & 15) << 4) | ((b2 & 15) << 8) | ((b3 & 15) << 12)) & valid;
    let ubits = ((b0 >> 4) | ((b1 >> 4) << 4) | ((b2 >> 4) << 8) | ((b3 >> 4) << 12)) & valid;
    // Rare: re-decide lanes near the boundary (or non-finite) in float64.
    while (ubits != 0) {
      const k = ctz(ubits);
      ubits &= ubits - 1;
      if (exact(p + ((<usize>k) << 2), cap4, s + <usize>k * stride, shapeCap4)) bits |= 1 << k;
      else bits &= ~(1 << k);
    }
    count += popcnt(bits);
    // Expand the 16 bits back into 16 bytes of 0/1.
    const w = i16x8.splat(<i16>bits);
    const sel = i8x16.shuffle(w, w, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    v128.store(out + <usize>i, v128.and(i8x16.eq(v128.and(sel, bitSel), bitSel), one));
  }
  return count;
}

/**
 * One shape for every lane: hx, hy, hz, radius each stored four times at `shape` (64 bytes). Writes 1/0
 * bytes at out[0..n) (and zeros up to the next multiple of 16); returns the overlap count.
 */
export function ocsiOverlapUniform(base: usize, cap: i32, n: i32, shape: usize, out: usize): i32 {
  return overlapLoop(base, cap, n, shape, 4, out, true);
}

/**
 * One shape per lane: planes hx, hy, hz, radius at shape + 4·k·shapeCap. Same output as the uniform form.
 */
export function ocsiOverlapLanes(base: usize, cap: i32, n: i32, shape: usize, shapeCap: i32, out: usize): i32 {
  return overlapLoop(base, cap, n, shape, shapeCap, out, false);
}

// Two float32 values at p, promoted to f64x2.
@inline
function load2(p: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(p));
}

/**
 * Squared distances (Eq. 2) in float64 arithmetic, rounded once to float32, at out[0..n) (one extra lane is
 * written when n is odd). Shape planes as in ocsiOverlapLanes; pass shapeStride 0 with a splat block for one
 * shape, 4 for one shape per lane.
 */
export function ocsiDistanceSq(
  base: usize,
  cap: i32,
  n: i32,
  shape: usize,
  shapeCap: i32,
  shapeStride: i32,
  out: usize,
): void {
  const cap4 = (<usize>cap) << 2;
  const shapeCap4 = (<usize>shapeCap) << 2;
  const stride = <usize>shapeStride;
  const quarter = f64x2.splat(0.25);
  for (let i = 0; i < n; i += 2) {
    const p = base + ((<usize>i) << 2);
    const s = shape + <usize>i * stride;
    const x = load2(p);
    const y = load2(p + cap4);
    const z = load2(p + 2 * cap4);
    let t = f64x2.add(
      f64x2.add(f64x2.mul(x, load2(p + 3 * cap4)), f64x2.mul(y, load2(p + 4 * cap4))),
      f64x2.mul(z, load2(p + 5 * cap4)),
    );
    let u = f64x2.add(
      f64x2.add(f64x2.mul(x, load2(p + 6 * cap4)), f64x2.mul(y, load2(p + 7 * cap4))),
      f64x2.mul(z, load2(p + 8 * cap4)),
    );
    let v = f64x2.add(
      f64x2.add(f64x2.mul(x, load2(p + 9 * cap4)), f64x2.mul(y, load2(p + 10 * cap4))),
      f64x2.mul(z, load2(p + 11 * cap4)),
    );
    t = f64x2.sub(f64x2.abs(t), load2(s));
    u = f64x2.sub(f64x2.abs(u), load2(s + shapeCap4));
    v = f64x2.sub(f64x2.abs(v), load2(s + 2 * shapeCap4));
    t = f64x2.add(t, f64x2.abs(t));
    u = f64x2.add(u, f64x2.abs(u));
    v = f64x2.add(v, f64x2.abs(v));
    const d = f64x2.mul(f64x2.add(f64x2.add(f64x2.mul(t, t), f64x2.mul(u, u)), f64x2.mul(v, v)), quarter);
    v128.store64_lane(out + ((<usize>i) << 2), f32x4.demote_f64x2_zero(d), 0);
  }
}
