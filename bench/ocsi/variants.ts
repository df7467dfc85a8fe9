/**
 * The OCSI paper's sphere–cuboid overlap algorithms as unchecked per-call kernels (its Algorithms 1–5:
 * Arvo, QRI, QRF, the vectorised min/max form, OCSI), for this benchmark and as cross-checks in the
 * core's tests. Benchmark code: not part of `@sieve/core`'s API.
 *
 * All take the paper's inputs by offset into arrays, the JavaScript counterpart of the C code passing
 * pointers: `r[ro..ro+2]` = r_SC (sphere centre − box centre), `e[eo..eo+8]` = e_T, e_L, e_W row by row,
 * `h[ho..ho+2]` = c_T, c_L, c_W, and the radius. They validate nothing — a NaN makes the OCSI and min/max
 * forms return false, while Arvo, QRI and QRF (whose comparisons are all false for NaN) skip that axis; the checked
 * per-call API is ocsi.ts, the fast many-pair form ocsiBatch.ts. Every kernel computes a_i = r_SC·e_i in
 * the same order, so they agree exactly except where a quick rejection (QRI, QRF) decides a case that lies
 * within one rounding of the boundary.
 */

/** Signature shared by the per-call kernels below. */
export type OcsiKernel = (
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
) => boolean;

/**
 * OCSI as this library runs it: Σ (2 l_i)² ≤ 4R² with 2 l_i = t + |t|, t = |a_i| − c_i — no branch and
 * no NaN-aware Math.max, so its time does not depend on the data. Same answer as {@link ocsiPaper}.
 */
export function ocsiOverlapUnchecked(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  let t = x * e[eo] + y * e[eo + 1] + z * e[eo + 2];
  let u = x * e[eo + 3] + y * e[eo + 4] + z * e[eo + 5];
  let v = x * e[eo + 6] + y * e[eo + 7] + z * e[eo + 8];
  t = Math.abs(t) - h[ho];
  u = Math.abs(u) - h[ho + 1];
  v = Math.abs(v) - h[ho + 2];
  t += Math.abs(t);
  u += Math.abs(u);
  v += Math.abs(v);
  return t * t + u * u + v * v <= 4 * radius * radius;
}

/** Algorithm 5 (OCSI) written literally: l_i = max(|a_i| − c_i, 0), Σ l_i² ≤ R². */
export function ocsiPaper(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  const lt = Math.max(Math.abs(x * e[eo] + y * e[eo + 1] + z * e[eo + 2]) - h[ho], 0);
  const ll = Math.max(Math.abs(x * e[eo + 3] + y * e[eo + 4] + z * e[eo + 5]) - h[ho + 1], 0);
  const lw = Math.max(Math.abs(x * e[eo + 6] + y * e[eo + 7] + z * e[eo + 8]) - h[ho + 2], 0);
  return lt * lt + ll * ll + lw * lw <= radius * radius;
}

/**
 * Algorithm 1 (Arvo) applied to an oriented box "by transforming into the frame of C": the centre's
 * coordinates a_i = r_SC·e_i tested against B_i = [−c_i, c_i].
 */
export function arvoOverlap(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  let d = 0;
  for (let i = 0; i < 3; i++) {
    const k = eo + 3 * i;
    const a = x * e[k] + y * e[k + 1] + z * e[k + 2];
    const c = h[ho + i];
    if (a < -c) {
      const l = -c - a;
      d += l * l;
    } else if (a > c) {
      const l = a - c;
      d += l * l;
    }
  }
  return d <= radius * radius;
}

/** Algorithm 2 (QRI, Larsson et al.): quick rejection intertwined with the distance loop. */
export function qriOverlap(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  let d = 0;
  for (let i = 0; i < 3; i++) {
    const k = eo + 3 * i;
    const a = x * e[k] + y * e[k + 1] + z * e[k + 2];
    const c = h[ho + i];
    let l = a + c;
    if (l < 0) {
      if (l < -radius) return false;
      d += l * l;
    } else {
      l = a - c;
      if (l > 0) {
        if (l > radius) return false;
        d += l * l;
      }
    }
  }
  return d <= radius * radius;
}

/** Algorithm 3 (QRF, Larsson et al.): all three quick rejections first, then the distance. */
export function qrfOverlap(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  const a0 = x * e[eo] + y * e[eo + 1] + z * e[eo + 2];
  const c0 = h[ho];
  if (a0 < -c0 - radius || a0 > c0 + radius) return false;
  const a1 = x * e[eo + 3] + y * e[eo + 4] + z * e[eo + 5];
  const c1 = h[ho + 1];
  if (a1 < -c1 - radius || a1 > c1 + radius) return false;
  const a2 = x * e[eo + 6] + y * e[eo + 7] + z * e[eo + 8];
  const c2 = h[ho + 2];
  if (a2 < -c2 - radius || a2 > c2 + radius) return false;
  let d = 0;
  if (a0 < -c0) d += (a0 + c0) * (a0 + c0);
  else if (a0 > c0) d += (a0 - c0) * (a0 - c0);
  if (a1 < -c1) d += (a1 + c1) * (a1 + c1);
  else if (a1 > c1) d += (a1 - c1) * (a1 - c1);
  if (a2 < -c2) d += (a2 + c2) * (a2 + c2);
  else if (a2 > c2) d += (a2 - c2) * (a2 - c2);
  return d <= radius * radius;
}

/**
 * Algorithm 4 (Larsson's SSE-intr form, here scalar): l_i = min(a_i + c_i, 0) + max(a_i − c_i, 0), no
 * quick rejection.
 */
export function branchFreeOverlap(
  r: ArrayLike<number>,
  ro: number,
  e: ArrayLike<number>,
  eo: number,
  h: ArrayLike<number>,
  ho: number,
  radius: number,
): boolean {
  const x = r[ro];
  const y = r[ro + 1];
  const z = r[ro + 2];
  const a0 = x * e[eo] + y * e[eo + 1] + z * e[eo + 2];
  const a1 = x * e[eo + 3] + y * e[eo + 4] + z * e[eo + 5];
  const a2 = x * e[eo + 6] + y * e[eo + 7] + z * e[eo + 8];
  const l0 = Math.min(a0 + h[ho], 0) + Math.max(a0 - h[ho], 0);
  const l1 = Math.min(a1 + h[ho + 1], 0) + Math.max(a1 - h[ho + 1], 0);
  const l2 = Math.min(a2 + h[ho + 2], 0) + Math.max(a2 - h[ho + 2], 0);
  return l0 * l0 + l1 * l1 + l2 * l2 <= radius * radius;
}

/** The per-call kernels by name, in the paper's order, for benchmarks and cross-checks. */
export const OCSI_VARIANTS: ReadonlyArray<{ readonly name: string; readonly fn: OcsiKernel }> = [
  { name: 'Arvo', fn: arvoOverlap },
  { name: 'QRI', fn: qriOverlap },
  { name: 'QRF', fn: qrfOverlap },
  { name: 'branch-free', fn: branchFreeOverlap },
  { name: 'OCSI (paper)', fn: ocsiPaper },
  { name: 'OCSI', fn: ocsiOverlapUnchecked },
];
