/**
 * The WGSL compute shader of the GPU triangle pass: Möller's triangle–triangle interval-overlap test
 * (T. Möller, "A Fast Triangle-Triangle Intersection Test", JGT 1997), the float64 CPU version of
 * `bvh/triTri.ts` ported to float32 with error bounds, run on every candidate triangle pair.
 *
 * Layout follows the Project Oort collision write-up (GPU section): both meshes' triangles in storage
 * buffers, one invocation per triangle pair, the hits written to an output buffer. Unlike the
 * write-up's flag per triangle, each hit is appended as a pair (an atomic counter and a list), since
 * the CPU query's answer is the list of pairs. Candidate pairs come as blocks — a range of A's
 * triangle slots × a range of B's — with each block's first work index (`starts`); an invocation finds
 * its block by binary search, then its pair by division.
 *
 * Exactness (the point of the error bounds): every decision the CPU test takes (the sign of a vertex
 * distance to the other triangle's plane, the two interval comparisons) is taken here together with a
 * bound on its float32 error, widened to cover the CPU's own tolerance (2⁻⁴⁰·S) and rounding. A pair
 * whose decisions are all farther than their bounds from the threshold gets the CPU's answer for sure
 * (code 1 = intersects, 0 = not, and then it is not written at all). Any other pair is written with
 * the UNCERTAIN bit (2) and this shader's float32 guess in bit 0 — computed by the same branches as
 * the CPU (coplanar 2-D separating axes, a vertex or edge touching the plane, intervals) with the
 * float32 tolerance 2⁻²⁰·S — so the caller re-tests it in float64 (or takes the guess).
 */

/**
 * Workgroup size of the pass (invocations per workgroup, 1-D).
 *
 * @internal
 */
export const WORKGROUP_SIZE = 64;

/**
 * Bit of an output code: the float32 answer (intersects).
 *
 * @internal
 */
export const CODE_HIT = 1;
/**
 * Bit of an output code: some decision was within its error bound; re-test in float64.
 *
 * @internal
 */
export const CODE_UNCERTAIN = 2;

/**
 * Relative tolerance of the float32 guesses for uncertain pairs (times the pair's coordinate scale).
 *
 * @internal
 */
export const F32_TOL = 2 ** -20;

/** Uniform block size in bytes (see `Params` in the shader: 84 used, rounded to 16). */
export const PARAMS_BYTES = 96;
/** 32-bit words a written pair takes in the output (slot of A and code, slot of B, query). */
export const ENTRY_WORDS = 3;

/**
 * WGSL source of the pass (entry point `main`, bind group 0: params, A's positions and slot indices,
 * B's positions and slot indices, blocks, block starts, output). Exported for inspection and tests.
 *
 * @internal
 */
export const TRI_TRI_WGSL = /* wgsl */ `
struct Params {
  c0: vec4f,          // B -> A transform, column 0; w: bound of the float32 error of B's vertices
  c1: vec4f,          // column 1
  c2: vec4f,          // column 2
  c3: vec4f,          // translation
  blockStart: u32,    // first block of this dispatch
  blockCount: u32,    // blocks in this dispatch
  total: u32,         // pairs in this dispatch
  capacity: u32,      // pairs the output can hold
  query: u32,         // index of the query in its batch (written with each pair)
}

struct Output {
  count: atomic<u32>,
  pad0: u32,
  pad1: u32,
  pad2: u32,
  data: array<u32>,   // 3 words a pair: slotA | code << 30, slotB, query
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> posA: array<f32>;
@group(0) @binding(2) var<storage, read> idxA: array<u32>;
@group(0) @binding(3) var<storage, read> posB: array<f32>;
@group(0) @binding(4) var<storage, read> idxB: array<u32>;
@group(0) @binding(5) var<storage, read> blocks: array<vec4u>;
@group(0) @binding(6) var<storage, read> starts: array<u32>;
@group(0) @binding(7) var<storage, read_write> outp: Output;

const U: f32 = 5.9604645e-8;        // 2^-24, float32 unit roundoff
const CPU_TOL: f32 = 1.4551915e-11; // 2^-36: covers the CPU test's tolerance 2^-40*S and its rounding
const F32_TOL: f32 = 9.536743e-7;   // 2^-20: tolerance of the float32 guesses

fn amax(v: vec3f) -> f32 {
  let a = abs(v);
  return max(a.x, max(a.y, a.z));
}

fn vertA(s: u32, k: u32) -> vec3f {
  let i = 3u * idxA[3u * s + k];
  return vec3f(posA[i], posA[i + 1u], posA[i + 2u]);
}

fn vertB(s: u32, k: u32) -> vec3f {
  let i = 3u * idxB[3u * s + k];
  let p = vec3f(posB[i], posB[i + 1u], posB[i + 2u]);
  return P.c0.xyz * p.x + P.c1.xyz * p.y + P.c2.xyz * p.z + P.c3.xyz;
}

// Bound of the float32 error of N_Y . (x - y0), N_Y = (y1 - y0) x (y2 - y0): edges of Y at most E1, E2
// (max norm), |x - y0| at most W, vertex errors eX (of X) and eY (of Y), plus the CPU's tolerance.
fn distBound(E1: f32, E2: f32, W: f32, eX: f32, eY: f32, tolc: f32) -> f32 {
  let e1 = E1 + 2.0 * eY;
  let e2 = E2 + 2.0 * eY;
  let w = W + eX + eY;
  let p = e1 * e2;
  return 2.0 * (48.0 * U * p * w + 12.0 * eY * w * (e1 + e2) + 6.0 * p * (eX + eY) + 4.0 * p * tolc);
}

fn sgn(d: f32, e: f32) -> i32 {
  if (d > e) { return 1; }
  if (d < -e) { return -1; }
  return 0;
}

fn allSame(s: vec3i) -> bool {
  return (s.x == 1 && s.y == 1 && s.z == 1) || (s.x == -1 && s.y == -1 && s.z == -1);
}

// Projection dropping the dominant axis of n (as the CPU: x dropped -> (y, z), y -> (z, x), z -> (x, y)).
fn drop2(p: vec3f, n: vec3f) -> vec2f {
  let a = abs(n);
  if (a.x >= a.y && a.x >= a.z) { return p.yz; }
  if (a.y >= a.z) { return p.zx; }
  return p.xy;
}

// Whether an edge normal of triangle e separates the point sets e and f by more than tol.
fn separated2d(e: array<vec2f, 3>, f: array<vec2f, 3>, tol: f32) -> bool {
  var ev = e;
  var fv = f;
  for (var i = 0u; i < 3u; i++) {
    let j = select(i + 1u, 0u, i == 2u);
    let ux = ev[j].y - ev[i].y;
    let uy = ev[i].x - ev[j].x;
    if (ux == 0.0 && uy == 0.0) { continue; }
    var eMin = 3.4e38;
    var eMax = -3.4e38;
    var fMin = 3.4e38;
    var fMax = -3.4e38;
    for (var k = 0u; k < 3u; k++) {
      let pe = ux * ev[k].x + uy * ev[k].y;
      let pf = ux * fv[k].x + uy * fv[k].y;
      eMin = min(eMin, pe);
      eMax = max(eMax, pe);
      fMin = min(fMin, pf);
      fMax = max(fMax, pf);
    }
    let t = tol * (abs(ux) + abs(uy));
    if (fMin > eMax + t || eMin > fMax + t) { return true; }
  }
  return false;
}

// 2-D overlap of triangle p and triangle (or segment, point) q, both in the plane of normal n.
fn overlap2d(p0: vec3f, p1: vec3f, p2: vec3f, q0: vec3f, q1: vec3f, q2: vec3f, n: vec3f, tol: f32) -> bool {
  let e = array<vec2f, 3>(drop2(p0, n), drop2(p1, n), drop2(p2, n));
  let f = array<vec2f, 3>(drop2(q0, n), drop2(q1, n), drop2(q2, n));
  var x = e;
  var y = f;
  for (var r = 0u; r < 2u; r++) {
    if (separated2d(x, y, tol)) { return false; }
    x = f;
    y = e;
  }
  return true;
}

// The on-plane vertices (sign 0) of a triangle that only touches a plane: two points (repeated for one).
fn touching(v0: vec3f, v1: vec3f, v2: vec3f, s: vec3i) -> array<vec3f, 2> {
  if (s.x == 0) {
    if (s.y == 0) { return array<vec3f, 2>(v0, v1); }
    if (s.z == 0) { return array<vec3f, 2>(v0, v2); }
    return array<vec3f, 2>(v0, v0);
  }
  if (s.y == 0) {
    if (s.z == 0) { return array<vec3f, 2>(v1, v2); }
    return array<vec3f, 2>(v1, v1);
  }
  return array<vec3f, 2>(v2, v2);
}

// Interval of a triangle crossing the other's plane (the CPU's interval(), zero distances allowed).
fn interval(p: vec3f, d: vec3f, s: vec3i) -> vec2f {
  var t0: f32;
  var t1: f32;
  if (s.x == s.y && s.x != 0) {
    t0 = p.z + (p.x - p.z) * d.z / (d.z - d.x);
    t1 = p.z + (p.y - p.z) * d.z / (d.z - d.y);
  } else if (s.x == s.z && s.x != 0) {
    t0 = p.y + (p.x - p.y) * d.y / (d.y - d.x);
    t1 = p.y + (p.z - p.y) * d.y / (d.y - d.z);
  } else if ((s.y == s.z && s.y != 0) || s.x != 0) {
    t0 = p.x + (p.y - p.x) * d.x / (d.x - d.y);
    t1 = p.x + (p.z - p.x) * d.x / (d.x - d.z);
  } else if (s.y != 0) {
    t0 = p.y + (p.x - p.y) * d.y / (d.y - d.x);
    t1 = p.y + (p.z - p.y) * d.y / (d.y - d.z);
  } else {
    t0 = p.z + (p.x - p.z) * d.z / (d.z - d.x);
    t1 = p.z + (p.y - p.z) * d.z / (d.z - d.y);
  }
  return vec2f(min(t0, t1), max(t0, t1));
}

// Error bound of the interval ends when all three distances have certain, non-zero signs: d within
// ed of the exact values, projections p within ep, elen bounds the triangle's edges (max norm).
fn intervalError(p: vec3f, d: vec3f, ed: f32, ep: f32, elen: f32) -> f32 {
  var k = 0u;
  var i = 1u;
  var j = 2u;
  if ((d.x > 0.0) == (d.y > 0.0)) { k = 2u; i = 0u; j = 1u; }
  else if ((d.x > 0.0) == (d.z > 0.0)) { k = 1u; i = 0u; j = 2u; }
  var pv = p;
  var dv = d;
  let ri = 3.0 * ed / (abs(dv[k]) + abs(dv[i]) - 2.0 * ed) + 4.0 * U;
  let rj = 3.0 * ed / (abs(dv[k]) + abs(dv[j]) - 2.0 * ed) + 4.0 * U;
  let ti = abs(pv[k]) + abs(pv[i] - pv[k]);
  let tj = abs(pv[k]) + abs(pv[j] - pv[k]);
  // The last term covers the CPU's own rounding along its (possibly different) projection axis.
  let e0 = 3.0 * ep + abs(pv[i] - pv[k]) * ri + 3.0 * U * ti + elen * ri * 1.5e-5;
  let e1 = 3.0 * ep + abs(pv[j] - pv[k]) * rj + 3.0 * U * tj + elen * rj * 1.5e-5;
  return 2.0 * max(e0, e1);
}

// Möller's test: 0 = no (certain), 1 = yes (certain), 2 | guess = uncertain.
fn triTri(a0: vec3f, a1: vec3f, a2: vec3f, b0: vec3f, b1: vec3f, b2: vec3f, eB: f32) -> u32 {
  let S = max(max(amax(a0), max(amax(a1), amax(a2))), max(amax(b0), max(amax(b1), amax(b2))));
  let tolc = CPU_TOL * S;
  // B's vertices against A's plane.
  let ea1 = a1 - a0;
  let ea2 = a2 - a0;
  let na = cross(ea1, ea2);
  let wb0 = b0 - a0;
  let wb1 = b1 - a0;
  let wb2 = b2 - a0;
  let db = vec3f(dot(na, wb0), dot(na, wb1), dot(na, wb2));
  let EA1 = amax(ea1);
  let EA2 = amax(ea2);
  let edb = distBound(EA1, EA2, max(amax(wb0), max(amax(wb1), amax(wb2))), eB, 0.0, tolc);
  let sb = vec3i(sgn(db.x, edb), sgn(db.y, edb), sgn(db.z, edb));
  if (allSame(sb)) { return 0u; }
  // A's vertices against B's plane.
  let eb1 = b1 - b0;
  let eb2 = b2 - b0;
  let nb = cross(eb1, eb2);
  let wa0 = a0 - b0;
  let wa1 = a1 - b0;
  let wa2 = a2 - b0;
  let da = vec3f(dot(nb, wa0), dot(nb, wa1), dot(nb, wa2));
  let EB1 = amax(eb1);
  let EB2 = amax(eb2);
  let eda = distBound(EB1, EB2, max(amax(wa0), max(amax(wa1), amax(wa2))), 0.0, eB, tolc);
  let sa = vec3i(sgn(da.x, eda), sgn(da.y, eda), sgn(da.z, eda));
  if (allSame(sa)) { return 0u; }

  let certain = sa.x != 0 && sa.y != 0 && sa.z != 0 && sb.x != 0 && sb.y != 0 && sb.z != 0;
  let tol = F32_TOL * S;
  // One call site per helper below (SwiftShader's compile time grows with every inlined copy).
  // mode 0: intervals on the intersection line; 1: 2-D overlap of p* and q* in the plane of n2;
  // 2: a degenerate triangle (never a hit).
  var mode = 0u;
  var p0 = a0;
  var p1 = a1;
  var p2 = a2;
  var q0 = b0;
  var q1 = b1;
  var q2 = b2;
  var n2 = na;
  if (!certain) {
    // The float32 answer by the CPU's branches, distances within their bound taken as 0.
    let degA = dot(na, na) <= 1e-10 * dot(ea1, ea1) * dot(ea2, ea2);
    let degB = dot(nb, nb) <= 1e-10 * dot(eb1, eb1) * dot(eb2, eb2);
    let bFlat = sb.x == 0 && sb.y == 0 && sb.z == 0;
    let aFlat = sa.x == 0 && sa.y == 0 && sa.z == 0;
    let bTouch = !(sb.x < 0 || sb.y < 0 || sb.z < 0) || !(sb.x > 0 || sb.y > 0 || sb.z > 0);
    let aTouch = !(sa.x < 0 || sa.y < 0 || sa.z < 0) || !(sa.x > 0 || sa.y > 0 || sa.z > 0);
    if (degA || degB) {
      mode = 2u;
    } else if (bFlat || aFlat) {
      mode = 1u;
      if (!bFlat) { n2 = nb; }
    } else if (bTouch || aTouch) {
      // The touching triangle collapses to its on-plane vertices, tested in the other's plane.
      mode = 1u;
      var f: array<vec3f, 2>;
      if (bTouch) {
        f = touching(b0, b1, b2, sb);
      } else {
        f = touching(a0, a1, a2, sa);
        p0 = b0;
        p1 = b1;
        p2 = b2;
        n2 = nb;
      }
      q0 = f[0];
      q1 = f[1];
      q2 = f[1];
    }
  }
  if (mode == 2u) { return 2u; }
  if (mode == 1u) { return select(2u, 3u, overlap2d(p0, p1, p2, q0, q1, q2, n2, tol)); }
  let l = cross(na, nb);
  let al = abs(l);
  var ax = 2u;
  if (al.x >= al.y && al.x >= al.z) { ax = 0u; } else if (al.y >= al.z) { ax = 1u; }
  let pa = vec3f(a0[ax], a1[ax], a2[ax]);
  let pb = vec3f(b0[ax], b1[ax], b2[ax]);
  let za = select(da, vec3f(0.0), sa == vec3i(0));
  let zb = select(db, vec3f(0.0), sb == vec3i(0));
  let ia = interval(pa, za, sa);
  let ib = interval(pb, zb, sb);
  let m1 = ib.y - ia.x;
  let m2 = ia.y - ib.x;
  if (certain) {
    // Both triangles cross the other's plane for sure: compare with the error bounds.
    let e = intervalError(pa, da, eda, 0.0, 2.0 * max(EA1, EA2))
      + intervalError(pb, db, edb, eB, 2.0 * max(EB1, EB2)) + 2.0 * tolc;
    if (m1 < -e || m2 < -e) { return 0u; }
    if (m1 > e && m2 > e) { return 1u; }
    return select(2u, 3u, m1 >= 0.0 && m2 >= 0.0);
  }
  return select(2u, 3u, m1 >= -tol && m2 >= -tol);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let stride = nwg.x * ${WORKGROUP_SIZE}u;
  let eB = P.c0.w;
  for (var w = gid.x; w < P.total; w += stride) {
    // Block of work index w: the last block whose start is <= w.
    var lo = P.blockStart;
    var hi = P.blockStart + P.blockCount - 1u;
    while (lo < hi) {
      let mid = (lo + hi + 1u) >> 1u;
      if (starts[mid] <= w) { lo = mid; } else { hi = mid - 1u; }
    }
    let blk = blocks[lo];
    let local = w - starts[lo];
    let i = local / blk.w;
    let sa = blk.x + i;
    let sb = blk.z + (local - i * blk.w);
    let code = triTri(vertA(sa, 0u), vertA(sa, 1u), vertA(sa, 2u), vertB(sb, 0u), vertB(sb, 1u), vertB(sb, 2u), eB);
    if (code != 0u) {
      let k = atomicAdd(&outp.count, 1u);
      if (k < P.capacity) {
        outp.data[3u * k] = sa | (code << 30u);
        outp.data[3u * k + 1u] = sb;
        outp.data[3u * k + 2u] = P.query;
      }
    }
  }
}
`;
