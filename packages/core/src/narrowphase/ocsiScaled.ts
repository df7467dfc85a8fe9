/**
 * The overflow-safe decisions of OCSI: the squared distance Σ l_i² and the overlap test Σ l_i² ≤ R² for
 * oriented and axis-aligned boxes at any finite magnitude, and the projection of the sphere centre into
 * the box frame they work on (shared with the contact forms of `ocsi.ts`).
 *
 * The fast path is the OCSI paper's ("Oriented Cuboid Sphere Intersection"): l_i = max(|r_SC·e_i| − c_i, 0)
 * (Eq. 2), overlap iff Σ l_i² ≤ R² (Algorithm 5), computed as Σ (2 l_i)² ≤ 4R² with 2 l_i = t + |t| — an
 * exact doubling, bit-identical below ~1e150 and the expression the batched kernels (`ocsiBatch.ts`)
 * evaluate. The axis-aligned forms are Arvo's test (Arvo 1990, the paper's Algorithm 1) on min/max.
 *
 * Squares of coordinates past ~1e154 overflow and below ~1e-162 underflow, so a sum or radius² outside
 * [2^-960, 2^960] (rare: the fast path costs two comparisons) sends the decision to a scaled form, as
 * Blue's algorithm and LAPACK's `dnrm2` scale before squaring: each gap and the radius are divided by
 * the largest of them before they are squared, and coordinates whose differences could overflow are first
 * multiplied by an exact power of two (the projection's {@link projectionScale}). Squared distances beyond
 * the double range are `Infinity` (their correct rounding).
 *
 * Module scratch, so no call allocates; callers have checked their arguments.
 */

/** Squared sums inside [SAFE_MIN, SAFE_MAX] carry no overflow or underflow worth a rounding. */
export const SAFE_MAX = 2 ** 960;
/** Lower end of the safe range of squared sums (see {@link SAFE_MAX}). */
export const SAFE_MIN = 2 ** -960;

/**
 * The sphere centre in the box frame, `dim` numbers: set by {@link projectPaper} / {@link projectWorld}
 * (times {@link projectionScale}), or by the axis-aligned contact directly.
 */
export const LOCAL_CENTER = new Float64Array(3);
const A = LOCAL_CENTER;
// The centre relative to the box (possibly quartered) before projection.
const R = new Float64Array(3);
// Gaps (distances per axis, ≥ 0) for the scaled forms.
const G = new Float64Array(3);
// The power of two the current projection A (and the box intervals built from it) was multiplied by: 1,
// or 1/4 when the unscaled projection overflowed (coordinates near the double range).
let scale = 1;

/** The power of two the current projection was multiplied by: 1, or 1/4 near the double range. */
export function projectionScale(): number {
  return scale;
}

// Whether √(Σ G_i²) ≤ r for gaps G (≥ 0, finite) and r ≥ 0, without overflow or underflow: every
// term is divided by the largest before squaring.
function gapsWithin(dim: number, r: number): boolean {
  let m = r;
  for (let i = 0; i < dim; i++) if (G[i] > m) m = G[i];
  if (m === 0) return true;
  let sum = 0;
  for (let i = 0; i < dim; i++) {
    const g = G[i] / m;
    sum += g * g;
  }
  const q = r / m;
  return sum <= q * q;
}

// √(Σ G_i²) without intermediate overflow or underflow (Infinity only past the double range).
function gapsNorm(dim: number): number {
  let m = 0;
  for (let i = 0; i < dim; i++) if (G[i] > m) m = G[i];
  if (m === 0) return 0;
  let sum = 0;
  for (let i = 0; i < dim; i++) {
    const g = G[i] / m;
    sum += g * g;
  }
  return m * Math.sqrt(sum);
}

// G_i = max(|A_i| − c_i·scale, 0): the gaps of the current projection to the centred box.
function obbGaps(dim: number, h: ArrayLike<number>, ho: number): void {
  for (let i = 0; i < dim; i++) G[i] = Math.max(Math.abs(A[i]) - h[ho + i] * scale, 0);
}

/**
 * Σ l_i² ≤ r² for the current projection (box half extents at `h[ho..]`): the doubled sum where it is
 * safe, the scaled gaps otherwise.
 */
export function obbWithin(dim: number, h: ArrayLike<number>, ho: number, r: number): boolean {
  const s = doubledSum(dim, h, ho);
  const rr = 4 * r * r;
  if (scale === 1 && s < SAFE_MAX && rr < SAFE_MAX && (s > SAFE_MIN || rr > SAFE_MIN)) return s <= rr;
  obbGaps(dim, h, ho);
  return gapsWithin(dim, r * scale);
}

/** Σ l_i² for the current projection (Infinity past the double range). */
export function obbDistanceSq(dim: number, h: ArrayLike<number>, ho: number): number {
  const s = doubledSum(dim, h, ho);
  if (scale === 1 && s < SAFE_MAX && s > SAFE_MIN) return 0.25 * s;
  obbGaps(dim, h, ho);
  const n = gapsNorm(dim) / scale;
  return n * n;
}

// Σ (2 l_i)², l_i = max(|a_i| − c_i, 0), in the order the batched kernels use.
function doubledSum(dim: number, h: ArrayLike<number>, ho: number): number {
  let s = 0;
  for (let i = 0; i < dim; i++) {
    const t = Math.abs(A[i]) - h[ho + i];
    const l2 = t + Math.abs(t);
    s += l2 * l2;
  }
  return s;
}

/**
 * A = rSC·e_i (rSC at r[0..], axes at e[0..] row by row) with `scale` 1, or from rSC/4 with `scale` 1/4
 * when that overflows.
 */
export function projectPaper(dim: number, r: ArrayLike<number>, e: ArrayLike<number>): void {
  scale = 1;
  project(dim, r, 0, e, 0);
  if (finiteA(dim)) return;
  scale = 0.25;
  for (let i = 0; i < dim; i++) R[i] = r[i] * 0.25;
  project(dim, R, 0, e, 0);
}

function finiteA(dim: number): boolean {
  let ok = true;
  // x − x is 0 for finite x, NaN otherwise.
  for (let i = 0; i < dim; i++) if (A[i] - A[i] !== 0) ok = false;
  return ok;
}

// A[i] = r·e_i for the rSC at r[ro..] and axes at e[eo..] (row by row).
function project(dim: number, r: ArrayLike<number>, ro: number, e: ArrayLike<number>, eo: number): void {
  if (dim === 3) {
    const x = r[ro];
    const y = r[ro + 1];
    const z = r[ro + 2];
    A[0] = x * e[eo] + y * e[eo + 1] + z * e[eo + 2];
    A[1] = x * e[eo + 3] + y * e[eo + 4] + z * e[eo + 5];
    A[2] = x * e[eo + 6] + y * e[eo + 7] + z * e[eo + 8];
  } else {
    const x = r[ro];
    const y = r[ro + 1];
    A[0] = x * e[eo] + y * e[eo + 1];
    A[1] = x * e[eo + 2] + y * e[eo + 3];
  }
}

/**
 * A = (point − centre)·e_i for the `dim`-D OBB at `obb[oo..]` (centre, then the axes at +dim), with
 * `scale` 1, or from quarters with `scale` 1/4 when that overflows.
 */
export function projectWorld(
  dim: number,
  obb: ArrayLike<number>,
  oo: number,
  point: ArrayLike<number>,
): void {
  scale = 1;
  for (let i = 0; i < dim; i++) R[i] = point[i] - obb[oo + i];
  project(dim, R, 0, obb, oo + dim);
  if (finiteA(dim)) return;
  // Near the double range: (point − centre)·e_i from quarters, which cannot overflow.
  scale = 0.25;
  for (let i = 0; i < dim; i++) R[i] = point[i] * 0.25 - obb[oo + i] * 0.25;
  project(dim, R, 0, obb, oo + dim);
}

/**
 * Squared distance from `p` to the axis-aligned box [`min`, `max`] (`dim` axes; Infinity past the double
 * range).
 */
export function aabbDistanceSq(
  dim: number,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  p: ArrayLike<number>,
): number {
  let d = 0;
  for (let i = 0; i < dim; i++) {
    const c = p[i];
    if (c < min[i]) {
      const e = min[i] - c;
      d += e * e;
    } else if (c > max[i]) {
      const e = c - max[i];
      d += e * e;
    }
  }
  if ((d < SAFE_MAX && d > SAFE_MIN) || d === 0) return d;
  // Overflow or underflow somewhere: the gaps, from halves where a difference could overflow.
  const sc = aabbGaps(dim, min, max, p);
  const n = gapsNorm(dim) / sc;
  return n * n;
}

// G_i = the point's distance outside [min_i, max_i] times the returned power of two (1, or 1/2 when a
// difference overflows).
function aabbGaps(dim: number, min: ArrayLike<number>, max: ArrayLike<number>, p: ArrayLike<number>): number {
  let sc = 1;
  for (let pass = 0; pass < 2; pass++) {
    let finite = true;
    for (let i = 0; i < dim; i++) {
      const c = p[i] * sc;
      const lo = min[i] * sc;
      const hi = max[i] * sc;
      const g = c < lo ? lo - c : c > hi ? c - hi : 0;
      G[i] = g;
      if (g === Number.POSITIVE_INFINITY) finite = false;
    }
    if (finite) break;
    sc = 0.5;
  }
  return sc;
}

/** The sphere–AABB overlap decision: Σ gaps² ≤ r², scaled where squares could overflow or underflow. */
export function aabbWithin(
  dim: number,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  p: ArrayLike<number>,
  r: number,
): boolean {
  let d = 0;
  for (let i = 0; i < dim; i++) {
    const c = p[i];
    if (c < min[i]) {
      const e = min[i] - c;
      d += e * e;
    } else if (c > max[i]) {
      const e = c - max[i];
      d += e * e;
    }
  }
  const rr = r * r;
  if (d < SAFE_MAX && rr < SAFE_MAX && (d > SAFE_MIN || rr > SAFE_MIN)) return d <= rr;
  const sc = aabbGaps(dim, min, max, p);
  return gapsWithin(dim, r * sc);
}
