// AssemblyScript source of the WebAssembly SIMD kernels behind `OcsiBatch` (see ../ocsiBatch.ts).
// Built by packages/core/scripts/build-wasm.mjs into ocsiKernel.generated.ts (base64, loaded synchronously).
// Not TypeScript: the extension keeps tsc, biome and vitest away from it; asc compiles it as AssemblyScript.
//
// Follows seeds/000_e0da60409bb15c04.txt, Algorithm 5 (OCSI) and Eq. 2, vectorised across configurations as
// the paper's OpenMP SIMD loops are: four lanes (four sphere–cuboid pairs) per f32x4 register.
//
// Memory layout (all offsets in bytes, 16-byte aligned, `cap` a multiple of 16):
//   lanes:  plane k (k = 0..11: rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z) at base + 4·k·cap.
//   shape:  plane k (k = 0..3: hx, hy, hz, radius) at shape + 4·k·shapeCap, lane i at + i·shapeStride,
//           shapeStride = 4 for one value per lane, 0 for one shared value stored four times (a splat).
//
// Exactness: the overlap kernel decides in float32, then re-decides in float64 (the same operations, in the
// same order, as the TypeScript path) every lane whose float32 result lies within a proven error bound of
// the boundary, so its flags are bit-identical to the TypeScript path for inputs that honour the batched
// contract (finite values, axes of length 1 within 1e-3). Bound: with N = |rSC| and u = 2^-24, the
// float32 value of Σ(2·l_i)² differs from the exact one by at most ~156·u·N² and 4R² by 4·u·R², so a lane
// whose difference to 4R² exceeds 2^-15·(N² + R²) + 2^-100 (3.3× that, plus an underflow floor) is certain.

// One block of four lanes: Σ (2·max(|rSC·e_i| − c_i, 0))², computed as t + |t| with t = |a| − c (exact
// doubling of max(t, 0), two cheap instructions instead of a NaN-aware max).
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

// Returns an i32x4 with lane bits: -1 where overlapping (float32 decision), and writes the uncertain mask.
let uncertain: v128 = i32x4.splat(0);

function block4(p: usize, cap4: usize, s: usize, shapeCap4: usize): v128 {
  const x = v128.load(p);
  const y = v128.load(p + cap4);
  const z = v128.load(p + 2 * cap4);
  const hx = v128.load(s);
  const hy = v128.load(s + shapeCap4);
  const hz = v128.load(s + 2 * shapeCap4);
  const r = v128.load(s + 3 * shapeCap4);
  const sum = sum4(p, cap4, x, y, z, hx, hy, hz);
  const r2 = f32x4.mul(f32x4.mul(f32x4.splat(4), r), r);
  const n2 = f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.mul(z, z));
  const bound = f32x4.add(
    f32x4.mul(f32x4.splat(3.0517578125e-5), f32x4.add(n2, f32x4.mul(r, r))),
    f32x4.splat(7.888609052210118e-31),
  );
  uncertain = v128.not(f32x4.gt(f32x4.abs(f32x4.sub(sum, r2)), bound));
  return f32x4.le(sum, r2);
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

/**
 * Overlap flags (1/0 bytes at out[0..n), zeros up to the next multiple of 16) and the overlap count.
 */
export function ocsiOverlap(
  base: usize,
  cap: i32,
  n: i32,
  shape: usize,
  shapeCap: i32,
  shapeStride: i32,
  out: usize,
): i32 {
  const cap4 = (<usize>cap) << 2;
  const shapeCap4 = (<usize>shapeCap) << 2;
  const stride = <usize>shapeStride;
  const one = i8x16.splat(1);
  let count = 0;
  for (let i = 0; i < n; i += 16) {
    const p = base + ((<usize>i) << 2);
    const s = shape + <usize>i * stride;
    const m0 = block4(p, cap4, s, shapeCap4);
    const u0 = uncertain;
    const m1 = block4(p + 16, cap4, s + 4 * stride, shapeCap4);
    const u1 = uncertain;
    const m2 = block4(p + 32, cap4, s + 8 * stride, shapeCap4);
    const u2 = uncertain;
    const m3 = block4(p + 48, cap4, s + 12 * stride, shapeCap4);
    const u3 = uncertain;
    let valid = 0xffff;
    if (n - i < 16) valid = (1 << (n - i)) - 1;
    const b = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(m0, m1), i16x8.narrow_i32x4_s(m2, m3));
    let bits = i8x16.bitmask(b) & valid;
    const ub = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(u0, u1), i16x8.narrow_i32x4_s(u2, u3));
    let ubits = i8x16.bitmask(ub) & valid;
    // Rare: re-decide lanes near the boundary (or non-finite) in float64.
    while (ubits != 0) {
      const k = ctz(ubits);
      ubits &= ubits - 1;
      if (exact(p + ((<usize>k) << 2), cap4, s + <usize>k * stride, shapeCap4)) bits |= 1 << k;
      else bits &= ~(1 << k);
    }
    count += popcnt(bits);
    // Expand the 16 bits back into 16 bytes of 0/1.
    const sel = i8x16.shuffle(
      i16x8.splat(<i16>bits),
      i16x8.splat(<i16>bits),
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
    );
    const bitSel = i8x16(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    v128.store(out + <usize>i, v128.and(i8x16.eq(v128.and(sel, bitSel), bitSel), one));
  }
  return count;
}

// Float64 squared distances of two lanes (promoted from float32), as in the TS path; returns (2·d)².
function dist2(
  x: v128,
  y: v128,
  z: v128,
  p: usize,
  cap4: usize,
  hi: bool,
  hx: v128,
  hy: v128,
  hz: v128,
): v128 {
  let e0 = v128.load(p + 3 * cap4);
  let e1 = v128.load(p + 4 * cap4);
  let e2 = v128.load(p + 5 * cap4);
  let e3 = v128.load(p + 6 * cap4);
  let e4 = v128.load(p + 7 * cap4);
  let e5 = v128.load(p + 8 * cap4);
  let e6 = v128.load(p + 9 * cap4);
  let e7 = v128.load(p + 10 * cap4);
  let e8 = v128.load(p + 11 * cap4);
  if (hi) {
    e0 = v128.shuffle<f32>(e0, e0, 2, 3, 2, 3);
    e1 = v128.shuffle<f32>(e1, e1, 2, 3, 2, 3);
    e2 = v128.shuffle<f32>(e2, e2, 2, 3, 2, 3);
    e3 = v128.shuffle<f32>(e3, e3, 2, 3, 2, 3);
    e4 = v128.shuffle<f32>(e4, e4, 2, 3, 2, 3);
    e5 = v128.shuffle<f32>(e5, e5, 2, 3, 2, 3);
    e6 = v128.shuffle<f32>(e6, e6, 2, 3, 2, 3);
    e7 = v128.shuffle<f32>(e7, e7, 2, 3, 2, 3);
    e8 = v128.shuffle<f32>(e8, e8, 2, 3, 2, 3);
  }
  let t = f64x2.add(
    f64x2.add(f64x2.mul(x, f64x2.promote_low_f32x4(e0)), f64x2.mul(y, f64x2.promote_low_f32x4(e1))),
    f64x2.mul(z, f64x2.promote_low_f32x4(e2)),
  );
  let u = f64x2.add(
    f64x2.add(f64x2.mul(x, f64x2.promote_low_f32x4(e3)), f64x2.mul(y, f64x2.promote_low_f32x4(e4))),
    f64x2.mul(z, f64x2.promote_low_f32x4(e5)),
  );
  let v = f64x2.add(
    f64x2.add(f64x2.mul(x, f64x2.promote_low_f32x4(e6)), f64x2.mul(y, f64x2.promote_low_f32x4(e7))),
    f64x2.mul(z, f64x2.promote_low_f32x4(e8)),
  );
  t = f64x2.sub(f64x2.abs(t), hx);
  u = f64x2.sub(f64x2.abs(u), hy);
  v = f64x2.sub(f64x2.abs(v), hz);
  t = f64x2.add(t, f64x2.abs(t));
  u = f64x2.add(u, f64x2.abs(u));
  v = f64x2.add(v, f64x2.abs(v));
  return f64x2.add(f64x2.add(f64x2.mul(t, t), f64x2.mul(u, u)), f64x2.mul(v, v));
}

function hi2(a: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 2, 3));
}

/**
 * Squared distances (Eq. 2, float64 arithmetic, rounded once to float32) at out[0..n) as f32; lanes up to
 * the next multiple of 4 are written too.
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
  for (let i = 0; i < n; i += 4) {
    const p = base + ((<usize>i) << 2);
    const s = shape + <usize>i * stride;
    const xf = v128.load(p);
    const yf = v128.load(p + cap4);
    const zf = v128.load(p + 2 * cap4);
    const hxf = v128.load(s);
    const hyf = v128.load(s + shapeCap4);
    const hzf = v128.load(s + 2 * shapeCap4);
    const lo = dist2(
      f64x2.promote_low_f32x4(xf),
      f64x2.promote_low_f32x4(yf),
      f64x2.promote_low_f32x4(zf),
      p,
      cap4,
      false,
      f64x2.promote_low_f32x4(hxf),
      f64x2.promote_low_f32x4(hyf),
      f64x2.promote_low_f32x4(hzf),
    );
    const hi = dist2(hi2(xf), hi2(yf), hi2(zf), p, cap4, true, hi2(hxf), hi2(hyf), hi2(hzf));
    const lo32 = f32x4.demote_f64x2_zero(f64x2.mul(lo, quarter));
    const hi32 = f32x4.demote_f64x2_zero(f64x2.mul(hi, quarter));
    v128.store(out + ((<usize>i) << 2), v128.shuffle<f32>(lo32, hi32, 0, 1, 4, 5));
  }
}
