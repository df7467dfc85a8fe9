/**
 * three.js's ray–triangle test, operation for operation, on a BVH's packed float32 triangles.
 *
 * A port of `Ray.intersectTriangle` (three.js `src/math/Ray.js`, itself from Geometric Tools'
 * `IntrRay3Triangle3`) to scalar code: the same subtractions, cross and dot products in the same
 * order, so every double it produces — the parameter `t` and the local hit point `origin + direction·t`
 * (`Ray.at`) — is bit for bit the one three.js computes for the same ray and vertices. That is what
 * makes `acceleratedRaycast` return exactly `Mesh.raycast`'s hits: the BVH only chooses which triangles
 * to test, never how.
 *
 * State lives in typed arrays (module scratch): a double passed to or returned from a function V8 does
 * not inline is boxed, an allocation per call.
 */

/** The local ray of the current cast: origin (0–2), direction (3–5), as three.js holds them. */
export const RAY = new Float64Array(6);

/** Output of {@link rayTriangle}: `t` (0), then the local hit point (1–3). */
export const TRI_HIT = new Float64Array(4);

/** Material side modes, as `checkIntersection` in three.js's `Mesh.js` picks them. */
export const SIDE_FRONT = 0;
/** Back side: vertices taken as (c, b, a), back faces culled. */
export const SIDE_BACK = 1;
/** Both sides: (a, b, c), no culling. */
export const SIDE_DOUBLE = 2;

/**
 * The three.js side mode for a `material.side` value: `BackSide` (1) tests (c, b, a) with culling,
 * `FrontSide` (0) tests (a, b, c) with culling, anything else (a, b, c) without.
 */
export function sideMode(side: unknown): number {
  return side === 1 ? SIDE_BACK : side === 0 ? SIDE_FRONT : SIDE_DOUBLE;
}

/**
 * `Ray.intersectTriangle` of the triangle at `v[i..i+8]` (three vertices a, b, c) under side mode
 * `mode`, against {@link RAY}. On a hit writes `t` and the point to {@link TRI_HIT} and returns true.
 */
export function rayTriangle(v: Float32Array, i: number, mode: number): boolean {
  // three.js: `BackSide` → intersectTriangle(c, b, a, true); otherwise (a, b, c, side === FrontSide).
  let ia = i;
  let ic = i + 6;
  if (mode === SIDE_BACK) {
    ia = i + 6;
    ic = i;
  }
  const ax = v[ia];
  const ay = v[ia + 1];
  const az = v[ia + 2];
  // _edge1 = b − a, _edge2 = c − a, _normal = _edge1 × _edge2.
  const e1x = v[i + 3] - ax;
  const e1y = v[i + 4] - ay;
  const e1z = v[i + 5] - az;
  const e2x = v[ic] - ax;
  const e2y = v[ic + 1] - ay;
  const e2z = v[ic + 2] - az;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const dx = RAY[3];
  const dy = RAY[4];
  const dz = RAY[5];
  let DdN = dx * nx + dy * ny + dz * nz;
  let sign: number;
  if (DdN > 0) {
    if (mode !== SIDE_DOUBLE) return false;
    sign = 1;
  } else if (DdN < 0) {
    sign = -1;
    DdN = -DdN;
  } else {
    return false;
  }
  // _diff = origin − a.
  const qx = RAY[0] - ax;
  const qy = RAY[1] - ay;
  const qz = RAY[2] - az;
  // DdQxE2 = sign · D·(Q × E2).
  const cx = qy * e2z - qz * e2y;
  const cy = qz * e2x - qx * e2z;
  const cz = qx * e2y - qy * e2x;
  const DdQxE2 = sign * (dx * cx + dy * cy + dz * cz);
  if (DdQxE2 < 0) return false;
  // DdE1xQ = sign · D·(E1 × Q).
  const fx = e1y * qz - e1z * qy;
  const fy = e1z * qx - e1x * qz;
  const fz = e1x * qy - e1y * qx;
  const DdE1xQ = sign * (dx * fx + dy * fy + dz * fz);
  if (DdE1xQ < 0) return false;
  if (DdQxE2 + DdE1xQ > DdN) return false;
  const QdN = -sign * (qx * nx + qy * ny + qz * nz);
  if (QdN < 0) return false;
  const t = QdN / DdN;
  TRI_HIT[0] = t;
  // Ray.at: origin.addScaledVector(direction, t).
  TRI_HIT[1] = RAY[0] + dx * t;
  TRI_HIT[2] = RAY[1] + dy * t;
  TRI_HIT[3] = RAY[2] + dz * t;
  return true;
}

/** The largest `t` {@link nextCandidate} reports (local units; set by the walk before each leaf). */
export const T_LIMIT = new Float64Array(1);

/** A comparison's outcome as 0 or 1 (inlined: a flag, no jump). */
function bit(b: boolean): number {
  return b as unknown as number;
}

/**
 * The first slot in `[s, s1)` whose triangle passes {@link rayTriangle} under `mode` with `t` at most
 * `T_LIMIT[0]`, or −1. The same arithmetic with every early return turned into a flag — a triangle's
 * tests are coin flips for the branch predictor, so the whole test runs and one rarely taken jump
 * remains (NaN falls through each test as it does in three.js) — the ray held in locals across the
 * leaf, and nothing written. The walks then run {@link rayTriangle} on the candidate it returns, which
 * decides and records the hit.
 */
export function nextCandidate(v: Float32Array, s: number, s1: number, mode: number): number {
  const ox = RAY[0];
  const oy = RAY[1];
  const oz = RAY[2];
  const dx = RAY[3];
  const dy = RAY[4];
  const dz = RAY[5];
  const limit = T_LIMIT[0];
  const back = mode === SIDE_BACK;
  // Back faces (DdN > 0) are culled unless the material is double-sided.
  const keepBack = bit(mode === SIDE_DOUBLE);
  for (; s < s1; s++) {
    const i = 9 * s;
    const ia = back ? i + 6 : i;
    const ic = back ? i : i + 6;
    const ax = v[ia];
    const ay = v[ia + 1];
    const az = v[ia + 2];
    const e1x = v[i + 3] - ax;
    const e1y = v[i + 4] - ay;
    const e1z = v[i + 5] - az;
    const e2x = v[ic] - ax;
    const e2y = v[ic + 1] - ay;
    const e2z = v[ic + 2] - az;
    const nx = e1y * e2z - e1z * e2y;
    const ny = e1z * e2x - e1x * e2z;
    const nz = e1x * e2y - e1y * e2x;
    const DdN0 = dx * nx + dy * ny + dz * nz;
    const front = bit(DdN0 > 0);
    // sign = 1 for DdN > 0, else −1 (DdN = 0 and NaN are rejected below); |DdN| as three.js negates it.
    const sign = 2 * front - 1;
    const DdN = sign * DdN0;
    const qx = ox - ax;
    const qy = oy - ay;
    const qz = oz - az;
    const DdQxE2 =
      sign * (dx * (qy * e2z - qz * e2y) + dy * (qz * e2x - qx * e2z) + dz * (qx * e2y - qy * e2x));
    const DdE1xQ =
      sign * (dx * (e1y * qz - e1z * qy) + dy * (e1z * qx - e1x * qz) + dz * (e1x * qy - e1y * qx));
    const QdN = -sign * (qx * nx + qy * ny + qz * nz);
    const facing = (front & keepBack) | bit(DdN0 < 0);
    const inside = bit(!(DdQxE2 < 0)) & bit(!(DdE1xQ < 0)) & bit(!(DdQxE2 + DdE1xQ > DdN));
    const ahead = bit(!(QdN < 0)) & bit(!(QdN / DdN > limit));
    if ((facing & inside & ahead) !== 0) return s;
  }
  return -1;
}
