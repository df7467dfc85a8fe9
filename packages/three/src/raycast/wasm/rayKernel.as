// AssemblyScript source of the WebAssembly SIMD ray walks behind `acceleratedRaycast` (see ../walks.ts).
// Built by packages/three/scripts/build-wasm.mjs into rayKernel.generated.ts (base64, loaded synchronously).
// Not TypeScript: the extension keeps tsc, biome and vitest away from it; asc compiles it as AssemblyScript.
//
// The kernel walks the four-wide tree of ../rayTree.ts and returns *candidates*: the triangle slots that
// pass three.js's ray–triangle test (`Ray.intersectTriangle`, the same float64 operations in the same order,
// so it never drops a triangle three.js would hit). The TypeScript side then runs the exact test on each
// candidate, with its world distance, near/far and ordering (../walks.ts): the kernel only chooses.
// Boxes are tested two children to a float64x2 register with the same operations as the TypeScript walk
// (float32 bounds promoted exactly, (plane − origin) · inverse direction), so they decide alike.
//
// Memory layout (bytes):
//   0–255     parameters, float64 at 8·k (see P_*), int32 at 192 + 4·k (see I_*)
//   records   record r at REC + 128·r: min x, min y, min z, max x, max y, max z of its four children
//             (float32 × 4 each, at 0, 16, …, 80), then four child links (int32 at 96: record index of
//             an inner child, first triangle slot of a leaf) and four counts (int32 at 112: 0 for an inner
//             child, the leaf's triangle count; −1 for an unused slot, whose box is empty)
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

// Whether the triangle at `v` passes three.js's test under the side mode, with t ≤ limit; with `wantT`,
// its t in `T`.
let T: f64 = 0;

@inline
function candidate(
  v: usize,
  back: bool,
  keepBack: i32,
  ox: f64,
  oy: f64,
  oz: f64,
  dx: f64,
  dy: f64,
  dz: f64,
  limit: f64,
  wantT: bool,
): bool {
  const ia = back ? v + 24 : v;
  const ic = back ? v : v + 24;
  const ax = <f64>load<f32>(ia);
  const ay = <f64>load<f32>(ia + 4);
  const az = <f64>load<f32>(ia + 8);
  const e1x = <f64>load<f32>(v + 12) - ax;
  const e1y = <f64>load<f32>(v + 16) - ay;
  const e1z = <f64>load<f32>(v + 20) - az;
  const e2x = <f64>load<f32>(ic) - ax;
  const e2y = <f64>load<f32>(ic + 4) - ay;
  const e2z = <f64>load<f32>(ic + 8) - az;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const DdN0 = dx * nx + dy * ny + dz * nz;
  const front = <i32>(DdN0 > 0);
  const sign = <f64>(2 * front - 1);
  const DdN = sign * DdN0;
  const qx = ox - ax;
  const qy = oy - ay;
  const qz = oz - az;
  const DdQxE2 = sign * (dx * (qy * e2z - qz * e2y) + dy * (qz * e2x - qx * e2z) + dz * (qx * e2y - qy * e2x));
  const DdE1xQ = sign * (dx * (e1y * qz - e1z * qy) + dy * (e1z * qx - e1x * qz) + dz * (e1x * qy - e1y * qx));
  const QdN = -sign * (qx * nx + qy * ny + qz * nz);
  const t = QdN / DdN;
  if (wantT) T = t;
  const facing = (front & keepBack) | <i32>(DdN0 < 0);
  const inside = <i32>!(DdQxE2 < 0) & <i32>!(DdE1xQ < 0) & <i32>!(DdQxE2 + DdE1xQ > DdN);
  const ahead = <i32>!(QdN < 0) & <i32>!(t > limit);
  return (facing & inside & ahead) != 0;
}

// The slab test of two children (lanes) of the record at `r`, `half` 0 for children 0–1, 8 for 2–3:
// a 2-bit mask of the children hit; with `wantKeys`, their entry distances (max(lo, entries)) in KEYS.
let KEYS: v128 = f64x2.splat(0);

@inline
function pair(
  r: usize,
  half: usize,
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
  const x0 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + nxo + half)), oxn), ix);
  const x1 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + (48 - nxo) + half)), oxf), ix);
  const y0 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + nyo + half)), oyn), iy);
  const y1 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + (80 - nyo) + half)), oyf), iy);
  const z0 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + nzo + half)), ozn), iz);
  const z1 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(r + (112 - nzo) + half)), ozf), iz);
  let m = v128.and(f64x2.le(x0, y1), f64x2.le(y0, x1));
  m = v128.and(m, v128.and(f64x2.le(x0, z1), f64x2.le(z0, x1)));
  m = v128.and(m, v128.and(f64x2.le(y0, z1), f64x2.le(z0, y1)));
  m = v128.and(m, v128.and(f64x2.le(x0, hi), f64x2.le(y0, hi)));
  m = v128.and(m, v128.and(f64x2.le(z0, hi), f64x2.ge(x1, lo)));
  m = v128.and(m, v128.and(f64x2.ge(y1, lo), f64x2.ge(z1, lo)));
  if (wantKeys) KEYS = f64x2.max(f64x2.max(lo, x0), f64x2.max(y0, z0));
  return i64x2.bitmask(m);
}

// Every candidate of the ray into OUT; returns their number, or −1 if OUT or the stack overflowed.
export function walkAll(): i32 {
  const nxo = <usize>load<i32>(I_NEAR_X);
  const nyo = <usize>load<i32>(I_NEAR_Y);
  const nzo = <usize>load<i32>(I_NEAR_Z);
  const mode = load<i32>(I_MODE);
  const back = mode == 1;
  const keepBack = <i32>(mode == 2);
  const rec = <usize>load<i32>(I_REC);
  const tri = <usize>load<i32>(I_TRI);
  const links = <usize>load<i32>(I_STACK);
  const stackCap = load<i32>(I_STACK_CAP);
  const counts = links + (<usize>stackCap << 2);
  const out = <usize>load<i32>(I_OUT);
  const outCap = load<i32>(I_OUT_CAP);
  const oxn = f64x2.splat(load<f64>(P_OXN));
  const oyn = f64x2.splat(load<f64>(P_OXN + 8));
  const ozn = f64x2.splat(load<f64>(P_OXN + 16));
  const oxf = f64x2.splat(load<f64>(P_OXF));
  const oyf = f64x2.splat(load<f64>(P_OXF + 8));
  const ozf = f64x2.splat(load<f64>(P_OXF + 16));
  const ix = f64x2.splat(load<f64>(P_INV));
  const iy = f64x2.splat(load<f64>(P_INV + 8));
  const iz = f64x2.splat(load<f64>(P_INV + 16));
  const lo = f64x2.splat(load<f64>(P_LO));
  const hiS = load<f64>(P_HI);
  const hi = f64x2.splat(hiS);
  const ox = load<f64>(P_ORIGIN);
  const oy = load<f64>(P_ORIGIN + 8);
  const oz = load<f64>(P_ORIGIN + 16);
  const dx = load<f64>(P_DIR);
  const dy = load<f64>(P_DIR + 8);
  const dz = load<f64>(P_DIR + 16);
  let sp = 0;
  let n = 0;
  let node: usize = 0;
  while (true) {
    if (sp + 4 > stackCap) return -1;
    const r = rec + (node << 7);
    const mask =
      pair(r, 0, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, false) |
      (pair(r, 8, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, false) << 2);
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
      for (let s = link, end = link + count; s < end; s++) {
        if (candidate(tri + <usize>s * 36, back, keepBack, ox, oy, oz, dx, dy, dz, hiS, false)) {
          if (n == outCap) return -1;
          store<i32>(out + (<usize>n << 2), s);
          n++;
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
  const keepBack = <i32>(mode == 2);
  const rec = <usize>load<i32>(I_REC);
  const tri = <usize>load<i32>(I_TRI);
  const links = <usize>load<i32>(I_STACK);
  const stackCap = load<i32>(I_STACK_CAP);
  const counts = links + (<usize>stackCap << 2);
  const keys = counts + (<usize>stackCap << 2);
  const out = <usize>load<i32>(I_OUT);
  const outCap = load<i32>(I_OUT_CAP);
  const oxn = f64x2.splat(load<f64>(P_OXN));
  const oyn = f64x2.splat(load<f64>(P_OXN + 8));
  const ozn = f64x2.splat(load<f64>(P_OXN + 16));
  const oxf = f64x2.splat(load<f64>(P_OXF));
  const oyf = f64x2.splat(load<f64>(P_OXF + 8));
  const ozf = f64x2.splat(load<f64>(P_OXF + 16));
  const ix = f64x2.splat(load<f64>(P_INV));
  const iy = f64x2.splat(load<f64>(P_INV + 8));
  const iz = f64x2.splat(load<f64>(P_INV + 16));
  const lo = f64x2.splat(load<f64>(P_LO));
  let hiS = load<f64>(P_HI);
  const ox = load<f64>(P_ORIGIN);
  const oy = load<f64>(P_ORIGIN + 8);
  const oz = load<f64>(P_ORIGIN + 16);
  const dx = load<f64>(P_DIR);
  const dy = load<f64>(P_DIR + 8);
  const dz = load<f64>(P_DIR + 16);
  const pad = load<f64>(P_PAD);
  const nearCut = load<f64>(P_NEAR_CUT);
  let sp = 0;
  let n = 0;
  let node: usize = 0;
  while (true) {
    if (sp + 4 > stackCap) return -1;
    const r = rec + (node << 7);
    const hi = f64x2.splat(hiS);
    const m01 = pair(r, 0, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, true);
    const k01 = KEYS;
    const m23 = pair(r, 8, nxo, nyo, nzo, oxn, oyn, ozn, oxf, oyf, ozf, ix, iy, iz, lo, hi, true);
    const k23 = KEYS;
    const mask = m01 | (m23 << 2);
    const sp0 = sp;
    for (let c = 0; c < 4; c++) {
      store<i32>(links + (<usize>sp << 2), load<i32>(r + 96 + (<usize>c << 2)));
      store<i32>(counts + (<usize>sp << 2), load<i32>(r + 112 + (<usize>c << 2)));
      const key =
        c == 0
          ? f64x2.extract_lane(k01, 0)
          : c == 1
            ? f64x2.extract_lane(k01, 1)
            : c == 2
              ? f64x2.extract_lane(k23, 0)
              : f64x2.extract_lane(k23, 1);
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
      for (let s = link, end = link + count; s < end; s++) {
        if (candidate(tri + <usize>s * 36, back, keepBack, ox, oy, oz, dx, dy, dz, hiS, true)) {
          if (n == outCap) return -1;
          store<i32>(out + (<usize>n << 2), s);
          n++;
          // A candidate certainly past `near` bounds the first hit: nothing entered beyond it matters.
          const t = T;
          if (t >= nearCut) {
            const cut = t * (1 + 1e-6) + pad;
            if (cut < hiS) hiS = cut;
          }
        }
      }
    }
  }
  return n;
}
