// AssemblyScript source of the WebAssembly SIMD ray walks behind `acceleratedRaycast` (see ../walks.ts).
// Built by packages/three/scripts/build-wasm.mjs into rayKernel.generated.ts (base64, loaded synchronously).
// Not TypeScript: the extension keeps tsc, biome and vitest away from it; asc compiles it as AssemblyScript.
//
// The kernel walks the four-wide tree of ../rayTree.ts and returns *candidates*: the triangle slots that
// pass three.js's ray–triangle test (`Ray.intersectTriangle`, the same float64 operations in the same order,
// two triangles to a float64x2 register, so it never drops a triangle three.js would hit). The TypeScript
// side then runs the exact test on each candidate, with its world distance, near/far and ordering
// (../walks.ts): the kernel only chooses.
//
// Boxes only need to be conservative: the four children of a record are tested at once in float32 lanes,
// (plane − origin) · inverse direction. Each value is within 7·2⁻²⁴·S of the exact one (S the largest
// coordinate of the tree's box and the local origin; the caller keeps S in [2⁻¹⁰⁰, 2¹⁰⁰] and direction
// components at least 1e-20 in size, so nothing overflows to a wrong side or turns NaN), and the boxes
// and the range are padded by 4e-6·S: a box holding a hit is never culled.
//
// Memory layout (bytes):
//   0–255     parameters, float64 at 8·k (see P_*), int32 at 192 + 4·k (see I_*)
//   records   record r at REC + 128·r: min x, min y, min z, max x, max y, max z of its four children
//             (float32 × 4 each, at 0, 16, …, 80), then four child links (int32 at 96: record index of
//             an inner child, first triangle slot of a leaf) and four counts (int32 at 112: 0 for an inner
//             child, the leaf's triangle count; an unused slot has the empty box, which no ray enters)
//   triangles slot s at TRI + 36·s: three vertices, float32 xyz each (MeshBVH.triVerts)
//   stack     STACK: int32 links, int32 counts, float64 keys (STACK_CAP entries each)
//   out       OUT: int32 candidate slots (OUT_CAP)

const P_OXN: usize = 0; // slab origins for the entry planes (x, y, z), shifted by the padding
const P_OXF: usize = 24; // slab origins for the exit planes
const P_INV: usize = 48; // inverse direction
const P_LO: usize = 72; // local parameter range [lo, hi]
const P_HI: usize = 80;
const P_ORIGIN: usize = 88; // local ray origin (as three.js holds it)
const P_DIR: usize = 112; // local ray direction
const P_PAD: usize = 136; // box padding (first hit: margin added to a candidate's t to cut the range)
const P_NEAR_CUT: usize = 144; // first hit: a candidate with t ≥ this is certainly not before `near`
const I_NEAR_X: usize = 192; // byte offset of the entry plane in a record: x (0 or 48), y (16 or 64), z
const I_NEAR_Y: usize = 196;
const I_NEAR_Z: usize = 200;
const I_MODE: usize = 204; // side mode: 0 front, 1 back, 2 double
const I_REC: usize = 208;
const I_TRI: usize = 212;
const I_STACK: usize = 216;
const I_STACK_CAP: usize = 220;
const I_OUT: usize = 224;
const I_OUT_CAP: usize = 228;

// Which of the triangles at `v0` (lane 0) and `v1` (lane 1) pass three.js's test under the side mode
// (with `wantT`, also t ≤ limit, their t in `T2`): a 2-bit mask. Each lane runs the float64 operations
// of the scalar test in the same order (IEEE lanes round as scalars do), so it decides exactly as
// three.js does.
let T2: v128 = f64x2.splat(0);

// A coordinate of both triangles (`off` bytes into each), promoted to float64 lanes.
@inline
function lanes(v0: usize, v1: usize, off: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load32_lane(v1 + off, v128.load32_zero(v0 + off), 1));
}

@inline
function candidates2(
  v0: usize,
  v1: usize,
  back: bool,
  keepBack: bool,
  ox: v128,
  oy: v128,
  oz: v128,
  dx: v128,
  dy: v128,
  dz: v128,
  limit: v128,
  wantT: bool,
): i32 {
  const ia: usize = back ? 24 : 0;
  const ic: usize = back ? 0 : 24;
  const ax = lanes(v0, v1, ia);
  const ay = lanes(v0, v1, ia + 4);
  const az = lanes(v0, v1, ia + 8);
  const e1x = f64x2.sub(lanes(v0, v1, 12), ax);
  const e1y = f64x2.sub(lanes(v0, v1, 16), ay);
  const e1z = f64x2.sub(lanes(v0, v1, 20), az);
  const e2x = f64x2.sub(lanes(v0, v1, ic), ax);
  const e2y = f64x2.sub(lanes(v0, v1, ic + 4), ay);
  const e2z = f64x2.sub(lanes(v0, v1, ic + 8), az);
  const nx = f64x2.sub(f64x2.mul(e1y, e2z), f64x2.mul(e1z, e2y));
  const ny = f64x2.sub(f64x2.mul(e1z, e2x), f64x2.mul(e1x, e2z));
  const nz = f64x2.sub(f64x2.mul(e1x, e2y), f64x2.mul(e1y, e2x));
  const DdN0 = f64x2.add(f64x2.add(f64x2.mul(dx, nx), f64x2.mul(dy, ny)), f64x2.mul(dz, nz));
  const zero = f64x2.splat(0);
  const front = f64x2.gt(DdN0, zero);
  // sign · x for sign = ±1 (−1 where not front) is x with its sign bit flipped where not front.
  const signBit = i64x2.splat(0x8000000000000000);
  const flip = v128.andnot(signBit, front);
  const DdN = v128.xor(DdN0, flip);
  const qx = f64x2.sub(ox, ax);
  const qy = f64x2.sub(oy, ay);
  const qz = f64x2.sub(oz, az);
  const DdQxE2 = v128.xor(
    f64x2.add(
      f64x2.add(
        f64x2.mul(dx, f64x2.sub(f64x2.mul(qy, e2z), f64x2.mul(qz, e2y))),
        f64x2.mul(dy, f64x2.sub(f64x2.mul(qz, e2x), f64x2.mul(qx, e2z))),
      ),
      f64x2.mul(dz, f64x2.sub(f64x2.mul(qx, e2y), f64x2.mul(qy, e2x))),
    ),
    flip,
  );
  const DdE1xQ = v128.xor(
    f64x2.add(
      f64x2.add(
        f64x2.mul(dx, f64x2.sub(f64x2.mul(e1y, qz), f64x2.mul(e1z, qy))),
        f64x2.mul(dy, f64x2.sub(f64x2.mul(e1z, qx), f64x2.mul(e1x, qz))),
      ),
      f64x2.mul(dz, f64x2.sub(f64x2.mul(e1x, qy), f64x2.mul(e1y, qx))),
    ),
    flip,
  );
  // −sign · x: flipped where front.
  const QdN = v128.xor(
    f64x2.add(f64x2.add(f64x2.mul(qx, nx), f64x2.mul(qy, ny)), f64x2.mul(qz, nz)),
    v128.and(signBit, front),
  );
  const behind = f64x2.lt(DdN0, zero);
  const facing = keepBack ? v128.or(front, behind) : behind;
  // !(a < b) and !(a > b) as masks (NaN passes them, as in three.js's early returns).
  let m = v128.andnot(facing, f64x2.lt(DdQxE2, zero));
  m = v128.andnot(m, f64x2.lt(DdE1xQ, zero));
  m = v128.andnot(m, f64x2.gt(f64x2.add(DdQxE2, DdE1xQ), DdN));
  m = v128.andnot(m, f64x2.lt(QdN, zero));
  // t ≤ limit (the walk of every hit leaves t to the TypeScript side's near/far test: no division).
  if (wantT) {
    const t = f64x2.div(QdN, DdN);
    T2 = t;
    m = v128.andnot(m, f64x2.gt(t, limit));
  }
  return i64x2.bitmask(m);
}

// The slab test of the four children of the record at `r`, in float32 lanes: a 4-bit mask of the
// children hit; with `wantKeys`, their entry distances (max(lo, entries)) in KEYS.
let KEYS: v128 = f32x4.splat(0);

@inline
function quad(
  r: usize,
  nxo: usize,
  nyo: usize,
  nzo: usize,
  oxn: v128,
  oyn: v128,
  ozn: v128,
  oxf: v128,
  oyf: v128,
  ozf: v128,
  ix: v128,
  iy: v128,
  iz: v128,
  lo: v128,
  hi: v128,
  wantKeys: bool,
): i32 {
  const x0 = f32x4.mul(f32x4.sub(v128.load(r + nxo), oxn), ix);
  const x1 = f32x4.mul(f32x4.sub(v128.load(r + (48 - nxo)), oxf), ix);
  const y0 = f32x4.mul(f32x4.sub(v128.load(r + nyo), oyn), iy);
  const y1 = f32x4.mul(f32x4.sub(v128.load(r + (80 - nyo)), oyf), iy);
  const z0 = f32x4.mul(f32x4.sub(v128.load(r + nzo), ozn), iz);
  const z1 = f32x4.mul(f32x4.sub(v128.load(r + (112 - nzo)), ozf), iz);
  const enter = f32x4.pmax(f32x4.pmax(lo, x0), f32x4.pmax(y0, z0));
  const exit = f32x4.pmin(f32x4.pmin(hi, x1), f32x4.pmin(y1, z1));
  if (wantKeys) KEYS = enter;
  return i32x4.bitmask(f32x4.le(enter, exit));
}

// Every candidate of the ray into OUT; returns their number, or −1 if OUT or the stack overflowed.
export function walkAll(): i32 {
  const nxo = <usize>load<i32>(I_NEAR_X);
  const nyo = <usize>load<i32>(I_NEAR_Y);
  const nzo = <usize>load<i32>(I_NEAR_Z);
  const mode = load<i32>(I_MODE);
  const back = mode == 1;
  const keepBack = mode == 2;
  const rec = <usize>load<i32>(I_REC);
  const tri = <usize>load<i32>(I_TRI);
  const links = <usize>load<i32>(I_STACK);
  const stackCap = load<i32>(I_STACK_CAP);
  const counts = links + (<usize>stackCap << 2);
  const out = <usize>load<i32>(I_OUT);
  const outCap = load<i32>(I_OUT_CAP);
  const oxn = f32x4.splat(<f32>load<f64>(P_OXN));
  const oyn = f32x4.splat(<f32>load<f64>(P_OXN + 8));
  const ozn = f32x4.splat(<f32>load<f64>(P_OXN + 16));
  const oxf = f32x4.splat(<f32>load<f64>(P_OXF));
  const oyf = f32x4.splat(<f32>load<f64>(P_OXF + 8));
  const ozf = f32x4.splat(<f32>load<f64>(P_OXF + 16));
  const ix = f32x4.splat(<f32>load<f64>(P_INV));
  const iy = f32x4.splat(<f32>load<f64>(P_INV + 8));
  const iz = f32x4.splat(<f32>load<f64>(P_INV + 16));
  const lo = f32x4.splat(<f32>load<f64>(P_LO));
  const hiS = load<f64>(P_HI);
  const hi = f32x4.splat(<f32>hiS);
  const limit = f64x2.splat(hiS);
  const ox = f64x2.splat(load<f64>(P_ORIGIN));
  const oy = f64x2.splat(load<f64>(P_ORIGIN + 8));
  const oz = f64x2.splat(load<f64>(P_ORIGIN + 16));
  const dx = f64x2.splat(load<f64>(P_DIR));
  const dy = f64x2.splat(load<f64>(P_DIR + 8));
  const dz = f64x2.splat(load<f64>(P_DIR + 16));
  let sp = 0;
  let n = 0;
  let node: usize = 0;
  while (true) {
    if (sp + 4 > stackCap) return -1;
    const r = rec + (node << 7);
    const mask = quad(r, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, false);
    // Every child onto the stack, kept only if hit.
    for (let c = 0; c < 4; c++) {
      store<i32>(links + (<usize>sp << 2), load<i32>(r + 96 + (<usize>c << 2)));
      store<i32>(counts + (<usize>sp << 2), load<i32>(r + 112 + (<usize>c << 2)));
      sp += (mask >> c) & 1;
    }
    while (true) {
      if (sp == 0) return n;
      sp--;
      const link = load<i32>(links + (<usize>sp << 2));
      const count = load<i32>(counts + (<usize>sp << 2));
      if (count == 0) {
        node = <usize>link;
        break;
      }
      // Two triangles at a time (the last of an odd leaf tested in both lanes, its second lane dropped).
      for (let s = link, end = link + count; s < end; s += 2) {
        const v0 = tri + <usize>s * 36;
        const two = s + 1 < end;
        let m = candidates2(v0, two ? v0 + 36 : v0, back, keepBack, ox, oy, oz, dx, dy, dz, limit, false);
        if (!two) m &= 1;
        if (m != 0) {
          if (n + 2 > outCap) return -1;
          store<i32>(out + (<usize>n << 2), s);
          n += m & 1;
          store<i32>(out + (<usize>n << 2), s + 1);
          n += m >> 1;
        }
      }
    }
  }
  return n;
}

// The candidates of the first hit into OUT: nearest child first, subtrees entered beyond the range cut
// by the candidates found so far skipped. Returns their number, or −1 on overflow.
export function walkFirst(): i32 {
  const nxo = <usize>load<i32>(I_NEAR_X);
  const nyo = <usize>load<i32>(I_NEAR_Y);
  const nzo = <usize>load<i32>(I_NEAR_Z);
  const mode = load<i32>(I_MODE);
  const back = mode == 1;
  const keepBack = mode == 2;
  const rec = <usize>load<i32>(I_REC);
  const tri = <usize>load<i32>(I_TRI);
  const links = <usize>load<i32>(I_STACK);
  const stackCap = load<i32>(I_STACK_CAP);
  const counts = links + (<usize>stackCap << 2);
  const keys = counts + (<usize>stackCap << 2);
  const out = <usize>load<i32>(I_OUT);
  const outCap = load<i32>(I_OUT_CAP);
  const oxn = f32x4.splat(<f32>load<f64>(P_OXN));
  const oyn = f32x4.splat(<f32>load<f64>(P_OXN + 8));
  const ozn = f32x4.splat(<f32>load<f64>(P_OXN + 16));
  const oxf = f32x4.splat(<f32>load<f64>(P_OXF));
  const oyf = f32x4.splat(<f32>load<f64>(P_OXF + 8));
  const ozf = f32x4.splat(<f32>load<f64>(P_OXF + 16));
  const ix = f32x4.splat(<f32>load<f64>(P_INV));
  const iy = f32x4.splat(<f32>load<f64>(P_INV + 8));
  const iz = f32x4.splat(<f32>load<f64>(P_INV + 16));
  const lo = f32x4.splat(<f32>load<f64>(P_LO));
  let hiS = load<f64>(P_HI);
  const ox = f64x2.splat(load<f64>(P_ORIGIN));
  const oy = f64x2.splat(load<f64>(P_ORIGIN + 8));
  const oz = f64x2.splat(load<f64>(P_ORIGIN + 16));
  const dx = f64x2.splat(load<f64>(P_DIR));
  const dy = f64x2.splat(load<f64>(P_DIR + 8));
  const dz = f64x2.splat(load<f64>(P_DIR + 16));
  const pad = load<f64>(P_PAD);
  const nearCut = load<f64>(P_NEAR_CUT);
  let sp = 0;
  let n = 0;
  let node: usize = 0;
  while (true) {
    if (sp + 4 > stackCap) return -1;
    const r = rec + (node << 7);
    const hi = f32x4.splat(<f32>hiS);
    const mask = quad(r, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, true);
    const k = KEYS;
    const sp0 = sp;
    for (let c = 0; c < 4; c++) {
      store<i32>(links + (<usize>sp << 2), load<i32>(r + 96 + (<usize>c << 2)));
      store<i32>(counts + (<usize>sp << 2), load<i32>(r + 112 + (<usize>c << 2)));
      const key = <f64>(
        c == 0
          ? f32x4.extract_lane(k, 0)
          : c == 1
            ? f32x4.extract_lane(k, 1)
            : c == 2
              ? f32x4.extract_lane(k, 2)
              : f32x4.extract_lane(k, 3));
      store<f64>(keys + (<usize>sp << 3), key);
      sp += (mask >> c) & 1;
    }
    // The nearest child hit goes on top.
    const top = sp - 1;
    for (let i = sp0; i < top; i++) {
      const ki = load<f64>(keys + (<usize>i << 3));
      const kt = load<f64>(keys + (<usize>top << 3));
      if (ki < kt) {
        const li = load<i32>(links + (<usize>i << 2));
        const ci = load<i32>(counts + (<usize>i << 2));
        store<i32>(links + (<usize>i << 2), load<i32>(links + (<usize>top << 2)));
        store<i32>(counts + (<usize>i << 2), load<i32>(counts + (<usize>top << 2)));
        store<f64>(keys + (<usize>i << 3), kt);
        store<i32>(links + (<usize>top << 2), li);
        store<i32>(counts + (<usize>top << 2), ci);
        store<f64>(keys + (<usize>top << 3), ki);
      }
    }
    while (true) {
      if (sp == 0) return n;
      sp--;
      if (load<f64>(keys + (<usize>sp << 3)) > hiS) continue;
      const link = load<i32>(links + (<usize>sp << 2));
      const count = load<i32>(counts + (<usize>sp << 2));
      if (count == 0) {
        node = <usize>link;
        break;
      }
      for (let s = link, end = link + count; s < end; s += 2) {
        const v0 = tri + <usize>s * 36;
        const two = s + 1 < end;
        let m = candidates2(v0, two ? v0 + 36 : v0, back, keepBack, ox, oy, oz, dx, dy, dz, f64x2.splat(hiS), true);
        if (!two) m &= 1;
        if (m != 0) {
          if (n + 2 > outCap) return -1;
          store<i32>(out + (<usize>n << 2), s);
          n += m & 1;
          store<i32>(out + (<usize>n << 2), s + 1);
          n += m >> 1;
          // A candidate certainly past `near` bounds the first hit: nothing entered beyond it matters.
          const t0 = f64x2.extract_lane(T2, 0);
          const t1 = f64x2.extract_lane(T2, 1);
          if ((m & 1) != 0 && t0 >= nearCut) hiS = min(hiS, t0 * (1 + 1e-6) + pad);
          if ((m & 2) != 0 && t1 >= nearCut) hiS = min(hiS, t1 * (1 + 1e-6) + pad);
        }
      }
    }
  }
  return n;
}
