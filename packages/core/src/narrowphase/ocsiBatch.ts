/**
 * Batched OCSI over structure-of-arrays float32 lanes (one lane = one sphere–box pair): the JavaScript
 * counterpart of the SIMD loops of the OCSI paper ("Oriented Cuboid Sphere Intersection": Algorithm 5
 * with its two loops vectorised by OpenMP, and Section 3's float32 storage), and the form the
 * broadphase→narrowphase pipeline and the adapters call.
 *
 * Layout. Sixteen float32 planes: r_SC (`rx ry rz`), the three unit axes (`e0x e0y e0z e1x … e2z`), the half
 * extents (`hx hy hz`) and the `radius`. Planes suit the WebAssembly kernel (one 128-bit load fills four
 * lanes of a component); in plain JS, planes packed in one array and walked with a running index are within
 * ~15 % of an interleaved array and ~20 % faster than twelve separate arrays (bench/ocsi measures all
 * three). The *Uniform forms share one shape (half extents and radius) among all lanes, as the paper's
 * benchmark does.
 *
 * Two back ends, same answers. `OcsiBatch` owns its planes (one buffer); where WebAssembly SIMD is
 * available the buffer is a WebAssembly memory and ocsiKernel.as runs (four lanes per instruction,
 * ~2.5 ns per pair on the benchmark machine), else the TypeScript loops (~8 ns); the functional
 * `ocsiOverlapBatch*` forms run TypeScript on any caller-owned arrays. The TypeScript loops evaluate
 * Σ(2 l_i)² ≤ 4R² in double precision from the float32 inputs; the WebAssembly kernel decides in float32
 * and re-decides in double the lanes within a proven error bound of the boundary, so both give
 * bit-identical flags, equal to the per-call `ocsiOverlap` on the same (float32) numbers. Distances are
 * computed in double by both and rounded once to float32.
 *
 * Contract of the hot path (not checked per lane): finite values, half extents and radius ≥ 0, axes unit
 * and orthonormal within 1e-3 (the float32 kernel's error bound assumes |e_i| ≤ 1 + 1e-3). Uniform shapes
 * are rounded to float32 like the lanes; numbers past the float32 range (±3.4e38) are stored as ±Infinity.
 * The checked entry points: `new OcsiBatch(n, { validate: true })` (every run validates its lanes first
 * and throws a RangeError naming the lane and the plane), `OcsiBatch.validate(count)` and
 * `validateOcsiLanes(lanes, count, shapes)`. Any finite float32 magnitude is in range: sums are formed in
 * double, where squares of float32 values cannot overflow, and squared distances past the float32 range
 * are stored as Infinity.
 *
 * What an unchecked lane returns — both back ends evaluate, in double from the stored float32 values,
 * t_i = |r_SC·e_i| − c_i, flag = (Σ (t_i + |t_i|)² ≤ 4R²), distSq = ¼ Σ (t_i + |t_i|)², with IEEE
 * semantics, so:
 * - a NaN anywhere in the lane (or one made by ∞ − ∞ or 0 · ∞) gives flag 0 and distSq NaN;
 * - zero axes (all nine 0) project r_SC to 0: flag 1 for any radius, distSq 0;
 * - other non-orthonormal axes give the same formula with those vectors (a parallelepiped, scaled);
 * - a negative half extent c counts as |a| + |c| on its axis; a negative radius as its absolute value;
 * - an infinite r_SC component gives distSq NaN when an axis component it multiplies is 0 (0 · ∞),
 *   else Infinity; the flag is 1 only when distSq is not NaN and R is infinite.
 * Outside the contract the call is still memory-safe: `count` is checked against the arrays.
 */
import { orthonormalityError } from '../math/checks.js';
import { checkOptionKeys, optionKeys } from '../options.js';
import { instantiateOcsiKernel, type OcsiWasmExports, type WasmMemoryLike } from './wasm/loader.js';

/** The per-lane inputs: r_SC and the three unit axes (row by row), each a float32 plane. */
export interface OcsiLanes {
  /** Per lane: x of r_SC, the sphere centre relative to the box centre. */
  readonly rx: Float32Array;
  /** Per lane: y of r_SC. */
  readonly ry: Float32Array;
  /** Per lane: z of r_SC. */
  readonly rz: Float32Array;
  /** Per lane: x of the box's first unit axis (e_T in the OCSI paper). */
  readonly e0x: Float32Array;
  /** Per lane: y of the box's first unit axis (e_T). */
  readonly e0y: Float32Array;
  /** Per lane: z of the box's first unit axis (e_T). */
  readonly e0z: Float32Array;
  /** Per lane: x of the box's second unit axis (e_L). */
  readonly e1x: Float32Array;
  /** Per lane: y of the box's second unit axis (e_L). */
  readonly e1y: Float32Array;
  /** Per lane: z of the box's second unit axis (e_L). */
  readonly e1z: Float32Array;
  /** Per lane: x of the box's third unit axis (e_W). */
  readonly e2x: Float32Array;
  /** Per lane: y of the box's third unit axis (e_W). */
  readonly e2y: Float32Array;
  /** Per lane: z of the box's third unit axis (e_W). */
  readonly e2z: Float32Array;
}

/** Per-lane box half extents and sphere radius. */
export interface OcsiShapeLanes {
  /** Per lane: the box half extent along its first axis (c_T in the OCSI paper). */
  readonly hx: Float32Array;
  /** Per lane: the box half extent along its second axis (c_L). */
  readonly hy: Float32Array;
  /** Per lane: the box half extent along its third axis (c_W). */
  readonly hz: Float32Array;
  /** Per lane: the sphere radius. */
  readonly radius: Float32Array;
}

/** Names of the 16 planes in memory order (lanes, then shape). */
export const OCSI_PLANES = [
  'rx',
  'ry',
  'rz',
  'e0x',
  'e0y',
  'e0z',
  'e1x',
  'e1y',
  'e1z',
  'e2x',
  'e2y',
  'e2z',
  'hx',
  'hy',
  'hz',
  'radius',
] as const;

/** Axis tolerance assumed by the batched kernels (|e_i·e_j − δ_ij| ≤ 1e-3). */
export const OCSI_BATCH_AXIS_TOLERANCE = 1e-3;

function checkCount(fn: string, count: number, arrays: ArrayLike<unknown>[]): void {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`${fn}: count must be an integer >= 0, got ${String(count)}`);
  }
  for (const a of arrays) {
    if (a.length < count)
      throw new RangeError(`${fn}: count ${count} exceeds an array of length ${a.length}`);
  }
}

function laneArrays(l: OcsiLanes): Float32Array[] {
  return [l.rx, l.ry, l.rz, l.e0x, l.e0y, l.e0z, l.e1x, l.e1y, l.e1z, l.e2x, l.e2y, l.e2z];
}

/**
 * Overlap flags for lanes [0, count) with one shape per lane: `out[i] = 1` when the sphere overlaps the box
 * (touching counts), else 0. Returns the number of overlaps. TypeScript kernel (double precision from the
 * float32 inputs).
 */
export function ocsiOverlapBatch(
  lanes: OcsiLanes,
  shapes: OcsiShapeLanes,
  count: number,
  out: Uint8Array,
): number {
  checkCount('ocsiOverlapBatch', count, [
    ...laneArrays(lanes),
    shapes.hx,
    shapes.hy,
    shapes.hz,
    shapes.radius,
    out,
  ]);
  const { rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z } = lanes;
  const { hx, hy, hz, radius } = shapes;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = rx[i];
    const y = ry[i];
    const z = rz[i];
    let t = x * e0x[i] + y * e0y[i] + z * e0z[i];
    let u = x * e1x[i] + y * e1y[i] + z * e1z[i];
    let v = x * e2x[i] + y * e2y[i] + z * e2z[i];
    t = Math.abs(t) - hx[i];
    u = Math.abs(u) - hy[i];
    v = Math.abs(v) - hz[i];
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    const r = radius[i];
    // +(boolean) instead of `? 1 : 0`: V8 keeps it branch-free (random data would mispredict).
    const f = +(t * t + u * u + v * v <= 4 * r * r);
    out[i] = f;
    n += f;
  }
  return n;
}

/**
 * As {@link ocsiOverlapBatch} with one shape for all lanes (half extents `hx, hy, hz` and `radius`, rounded
 * to float32 like the lanes).
 */
export function ocsiOverlapBatchUniform(
  lanes: OcsiLanes,
  hx: number,
  hy: number,
  hz: number,
  radius: number,
  count: number,
  out: Uint8Array,
): number {
  checkCount('ocsiOverlapBatchUniform', count, [...laneArrays(lanes), out]);
  const { rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z } = lanes;
  const cx = Math.fround(hx);
  const cy = Math.fround(hy);
  const cz = Math.fround(hz);
  const r = Math.fround(radius);
  const r2 = 4 * r * r;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = rx[i];
    const y = ry[i];
    const z = rz[i];
    let t = x * e0x[i] + y * e0y[i] + z * e0z[i];
    let u = x * e1x[i] + y * e1y[i] + z * e1z[i];
    let v = x * e2x[i] + y * e2y[i] + z * e2z[i];
    t = Math.abs(t) - cx;
    u = Math.abs(u) - cy;
    v = Math.abs(v) - cz;
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    const f = +(t * t + u * u + v * v <= r2);
    out[i] = f;
    n += f;
  }
  return n;
}

/**
 * Squared distances (Eq. 2; 0 when the centre is inside) for lanes [0, count) into `out` (float32), with
 * one box per lane (`shapes.radius` is not read). TypeScript kernel.
 */
export function ocsiDistanceSqBatch(
  lanes: OcsiLanes,
  shapes: Pick<OcsiShapeLanes, 'hx' | 'hy' | 'hz'>,
  count: number,
  out: Float32Array,
): void {
  checkCount('ocsiDistanceSqBatch', count, [...laneArrays(lanes), shapes.hx, shapes.hy, shapes.hz, out]);
  const { rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z } = lanes;
  const { hx, hy, hz } = shapes;
  for (let i = 0; i < count; i++) {
    const x = rx[i];
    const y = ry[i];
    const z = rz[i];
    let t = x * e0x[i] + y * e0y[i] + z * e0z[i];
    let u = x * e1x[i] + y * e1y[i] + z * e1z[i];
    let v = x * e2x[i] + y * e2y[i] + z * e2z[i];
    t = Math.abs(t) - hx[i];
    u = Math.abs(u) - hy[i];
    v = Math.abs(v) - hz[i];
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    out[i] = (t * t + u * u + v * v) * 0.25;
  }
}

/** As {@link ocsiDistanceSqBatch} with one box for all lanes (half extents rounded to float32). */
export function ocsiDistanceSqBatchUniform(
  lanes: OcsiLanes,
  hx: number,
  hy: number,
  hz: number,
  count: number,
  out: Float32Array,
): void {
  checkCount('ocsiDistanceSqBatchUniform', count, [...laneArrays(lanes), out]);
  const { rx, ry, rz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z } = lanes;
  const cx = Math.fround(hx);
  const cy = Math.fround(hy);
  const cz = Math.fround(hz);
  for (let i = 0; i < count; i++) {
    const x = rx[i];
    const y = ry[i];
    const z = rz[i];
    let t = x * e0x[i] + y * e0y[i] + z * e0z[i];
    let u = x * e1x[i] + y * e1y[i] + z * e1z[i];
    let v = x * e2x[i] + y * e2y[i] + z * e2z[i];
    t = Math.abs(t) - cx;
    u = Math.abs(u) - cy;
    v = Math.abs(v) - cz;
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    out[i] = (t * t + u * u + v * v) * 0.25;
  }
}

/**
 * The validating mode of the batched path: throws a RangeError naming the first bad lane and field —
 * non-finite r_SC or axes, axes not orthonormal within `tolerance`, and (when `shapes` is given)
 * non-finite or negative half extents or radius.
 */
export function validateOcsiLanes(
  lanes: OcsiLanes,
  count: number,
  shapes?: OcsiShapeLanes,
  tolerance = OCSI_BATCH_AXIS_TOLERANCE,
): void {
  const fn = 'validateOcsiLanes';
  const arrays = laneArrays(lanes);
  checkCount(fn, count, shapes ? [...arrays, shapes.hx, shapes.hy, shapes.hz, shapes.radius] : arrays);
  const axes = new Float64Array(9);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 12; k++) {
      const v = arrays[k][i];
      if (!Number.isFinite(v))
        throw new RangeError(`${fn}: lane ${i}: ${OCSI_PLANES[k]} is ${v}, not finite`);
      if (k >= 3) axes[k - 3] = v;
    }
    const err = orthonormalityError(axes, 0, 3);
    if (!(err <= tolerance)) {
      throw new RangeError(
        `${fn}: lane ${i}: axes are not orthonormal within ${tolerance} (|e_i·e_j − δ_ij| = ${err.toExponential(3)})`,
      );
    }
    if (shapes) {
      const s = [shapes.hx[i], shapes.hy[i], shapes.hz[i], shapes.radius[i]];
      for (let k = 0; k < 4; k++) {
        if (!Number.isFinite(s[k]) || s[k] < 0) {
          throw new RangeError(
            `${fn}: lane ${i}: ${OCSI_PLANES[12 + k]} is ${s[k]}, must be finite and >= 0`,
          );
        }
      }
    }
  }
}

// The OcsiBatch layout in one float32 array: lane plane k at base + k·cap, shape plane k (hx, hy, hz, radius)
// at sb + k·scap, lane i's shape at + i·sstride (1 per lane, 0 shared). Walking one array with a running
// index is ~2× faster in V8 than twelve separate typed arrays (one bounds check and base pointer instead of
// twelve). Same arithmetic, in the same order, as ocsiOverlapBatch and the WebAssembly kernel.
function overlapPlanar(
  d: Float32Array,
  base: number,
  cap: number,
  count: number,
  sb: number,
  scap: number,
  sstride: number,
  out: Uint8Array,
): number {
  let n = 0;
  for (let i = 0, s = sb; i < count; i++, s += sstride) {
    let q = base + i;
    const x = d[q];
    const y = d[(q += cap)];
    const z = d[(q += cap)];
    let t = x * d[(q += cap)];
    t += y * d[(q += cap)];
    t += z * d[(q += cap)];
    let u = x * d[(q += cap)];
    u += y * d[(q += cap)];
    u += z * d[(q += cap)];
    let v = x * d[(q += cap)];
    v += y * d[(q += cap)];
    v += z * d[(q += cap)];
    t = Math.abs(t) - d[s];
    u = Math.abs(u) - d[s + scap];
    v = Math.abs(v) - d[s + 2 * scap];
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    const r = d[s + 3 * scap];
    const f = +(t * t + u * u + v * v <= 4 * r * r);
    out[i] = f;
    n += f;
  }
  return n;
}

function distanceSqPlanar(
  d: Float32Array,
  base: number,
  cap: number,
  count: number,
  sb: number,
  scap: number,
  sstride: number,
  out: Float32Array,
): void {
  for (let i = 0, s = sb; i < count; i++, s += sstride) {
    let q = base + i;
    const x = d[q];
    const y = d[(q += cap)];
    const z = d[(q += cap)];
    let t = x * d[(q += cap)];
    t += y * d[(q += cap)];
    t += z * d[(q += cap)];
    let u = x * d[(q += cap)];
    u += y * d[(q += cap)];
    u += z * d[(q += cap)];
    let v = x * d[(q += cap)];
    v += y * d[(q += cap)];
    v += z * d[(q += cap)];
    t = Math.abs(t) - d[s];
    u = Math.abs(u) - d[s + scap];
    v = Math.abs(v) - d[s + 2 * scap];
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    out[i] = (t * t + u * u + v * v) * 0.25;
  }
}

function checkUniform(fn: string, values: number[], names: string[]): void {
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new RangeError(`${fn}: ${names[k]} must be a finite number >= 0, got ${String(v)}`);
    }
  }
}

/** Which kernels an {@link OcsiBatch} runs. */
export type OcsiBackend = 'wasm' | 'js';

/** Options of {@link OcsiBatch}. */
export interface OcsiBatchOptions {
  /** 'auto' (default): WebAssembly SIMD when available, else TypeScript. 'wasm' throws if unavailable. */
  backend?: 'auto' | OcsiBackend;
  /** Validate every lane (and uniform shape) before each run: the validating mode. Default false. */
  validate?: boolean;
}

/**
 * The keys of {@link OcsiBatchOptions}: any other key throws a `TypeError` naming it. Kept complete by
 * the compiler (`optionKeys`): add a new option here too.
 */
const OCSI_BATCH_OPTION_KEYS = optionKeys<OcsiBatchOptions>({ backend: true, validate: true });

/**
 * A batch of sphere–box pairs in structure-of-arrays float32 planes, with its outputs, run by the
 * WebAssembly SIMD kernel when available (else TypeScript, same results).
 *
 * Fill lanes through the plane views (`rx`, `e0x`, …, `hx`, `radius`; each `capacity` long) or
 * {@link OcsiBatch.setLane} / {@link OcsiBatch.setSphereObb}, then call {@link OcsiBatch.overlap} (flags in
 * `flags`) or {@link OcsiBatch.distanceSq} (into `distSq`). Runs allocate nothing. The views stay valid for
 * the batch's lifetime (its memory never grows).
 *
 * @example
 * ```ts
 * import { createObb, OcsiBatch, obbFromAabb } from '@sieve/core';
 *
 * const batch = new OcsiBatch(1024); // 1 024 lanes of float32 planes
 * const box = obbFromAabb(createObb(), [-1, -1, -1], [1, 1, 1]);
 * // Spheres of radius 0.5 above the box, further right lane by lane: centre, radius, the box.
 * for (let i = 0; i < 1024; i++) batch.setSphereObb(i, [i * 0.01, 1.2, 0], 0, 0.5, box, 0);
 * const n = batch.overlap(); // flags in batch.flags: 1 where a sphere meets the box
 * console.log(batch.backend, n, batch.flags[0], batch.flags[1023]); // 'wasm' (or 'js'), 146, 1, 0
 * ```
 */
export class OcsiBatch implements OcsiLanes, OcsiShapeLanes {
  /** Number of lanes. */
  readonly capacity: number;
  /** The kernels in use. */
  readonly backend: OcsiBackend;
  /** Whether runs validate their inputs first. */
  readonly validating: boolean;
  /** Per lane: x of r_SC, the sphere centre relative to the box centre. */
  readonly rx: Float32Array;
  /** Per lane: y of r_SC. */
  readonly ry: Float32Array;
  /** Per lane: z of r_SC. */
  readonly rz: Float32Array;
  /** Per lane: x of the box's first unit axis (e_T in the OCSI paper). */
  readonly e0x: Float32Array;
  /** Per lane: y of the box's first unit axis (e_T). */
  readonly e0y: Float32Array;
  /** Per lane: z of the box's first unit axis (e_T). */
  readonly e0z: Float32Array;
  /** Per lane: x of the box's second unit axis (e_L). */
  readonly e1x: Float32Array;
  /** Per lane: y of the box's second unit axis (e_L). */
  readonly e1y: Float32Array;
  /** Per lane: z of the box's second unit axis (e_L). */
  readonly e1z: Float32Array;
  /** Per lane: x of the box's third unit axis (e_W). */
  readonly e2x: Float32Array;
  /** Per lane: y of the box's third unit axis (e_W). */
  readonly e2y: Float32Array;
  /** Per lane: z of the box's third unit axis (e_W). */
  readonly e2z: Float32Array;
  /** Per lane: the box half extent along its first axis (c_T in the OCSI paper). */
  readonly hx: Float32Array;
  /** Per lane: the box half extent along its second axis (c_L). */
  readonly hy: Float32Array;
  /** Per lane: the box half extent along its third axis (c_W). */
  readonly hz: Float32Array;
  /** Per lane: the sphere radius. */
  readonly radius: Float32Array;
  /** Overlap flags (1/0) written by the overlap runs. */
  readonly flags: Uint8Array;
  /** Squared distances written by the distance runs. */
  readonly distSq: Float32Array;
  /** The memory behind the planes (a WebAssembly memory for the 'wasm' back end). */
  readonly memory: WasmMemoryLike;

  private readonly wasm: OcsiWasmExports | null;
  private readonly cap: number;
  private readonly uniform: Float32Array;
  private readonly all: Float32Array;
  private static readonly BASE = 64;

  /**
   * A batch of `capacity` lanes (an integer in [1, 2^26]), zero-filled, with the back end chosen by
   * `options.backend` and the validating mode by `options.validate`. Throws a RangeError for a bad
   * capacity or back end, a TypeError for an unknown option key or a non-boolean `validate`, and an
   * Error when 'wasm' is asked for and WebAssembly SIMD is unavailable.
   */
  constructor(capacity: number, options: OcsiBatchOptions = {}) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 2 ** 26) {
      throw new RangeError(`OcsiBatch: capacity must be an integer in [1, 2^26], got ${String(capacity)}`);
    }
    checkOptionKeys('OcsiBatch: options', options, OCSI_BATCH_OPTION_KEYS);
    if (options.validate !== undefined && typeof options.validate !== 'boolean') {
      throw new TypeError(
        `OcsiBatch: options.validate must be true or false, got ${String(options.validate)}`,
      );
    }
    const want = options.backend ?? 'auto';
    if (want !== 'auto' && want !== 'wasm' && want !== 'js') {
      throw new RangeError(`OcsiBatch: backend must be 'auto', 'wasm' or 'js', got ${String(want)}`);
    }
    this.capacity = capacity;
    this.validating = options.validate === true;
    // Lanes padded to a multiple of 16 (the kernel's block); all offsets stay 16-byte aligned.
    const cap = Math.ceil(capacity / 16) * 16;
    this.cap = cap;
    const bytes = OcsiBatch.BASE + 16 * 4 * cap + 4 * cap + cap;
    const inst = want === 'js' ? null : instantiateOcsiKernel(bytes);
    if (want === 'wasm' && !inst) throw new Error('OcsiBatch: WebAssembly SIMD is not available here');
    this.wasm = inst ? inst.exports : null;
    this.backend = inst ? 'wasm' : 'js';
    this.memory = inst ? inst.memory : { buffer: new ArrayBuffer(bytes) };
    const buf = this.memory.buffer;
    const plane = (k: number) => new Float32Array(buf, OcsiBatch.BASE + 4 * k * cap, capacity);
    this.uniform = new Float32Array(buf, 0, 16);
    this.all = new Float32Array(buf, 0, 16 + 17 * cap);
    this.rx = plane(0);
    this.ry = plane(1);
    this.rz = plane(2);
    this.e0x = plane(3);
    this.e0y = plane(4);
    this.e0z = plane(5);
    this.e1x = plane(6);
    this.e1y = plane(7);
    this.e1z = plane(8);
    this.e2x = plane(9);
    this.e2y = plane(10);
    this.e2z = plane(11);
    this.hx = plane(12);
    this.hy = plane(13);
    this.hz = plane(14);
    this.radius = plane(15);
    this.distSq = plane(16);
    this.flags = new Uint8Array(buf, OcsiBatch.BASE + 17 * 4 * cap, capacity);
  }

  /**
   * Writes lane `i` from the paper's inputs: r_SC at `r[ro..]`, axes at `e[eo..]` (9 numbers row by row),
   * half extents at `h[ho..]` and the radius. No validation (see {@link OcsiBatch.validate}).
   */
  setLane(
    i: number,
    r: ArrayLike<number>,
    ro: number,
    e: ArrayLike<number>,
    eo: number,
    h: ArrayLike<number>,
    ho: number,
    radius: number,
  ): void {
    this.checkLane(i);
    this.rx[i] = r[ro];
    this.ry[i] = r[ro + 1];
    this.rz[i] = r[ro + 2];
    this.setAxes(i, e, eo);
    this.hx[i] = h[ho];
    this.hy[i] = h[ho + 1];
    this.hz[i] = h[ho + 2];
    this.radius[i] = radius;
  }

  /**
   * Writes lane `i` for a sphere (`center` at `c[co..]`, `radius`) and an OBB in the shared 15-number layout
   * at `obb[oo..]` (r_SC = centre − OBB centre, computed in double before rounding to float32).
   */
  setSphereObb(
    i: number,
    c: ArrayLike<number>,
    co: number,
    radius: number,
    obb: ArrayLike<number>,
    oo: number,
  ): void {
    this.checkLane(i);
    this.rx[i] = c[co] - obb[oo];
    this.ry[i] = c[co + 1] - obb[oo + 1];
    this.rz[i] = c[co + 2] - obb[oo + 2];
    this.setAxes(i, obb, oo + 3);
    this.hx[i] = obb[oo + 12];
    this.hy[i] = obb[oo + 13];
    this.hz[i] = obb[oo + 14];
    this.radius[i] = radius;
  }

  private setAxes(i: number, e: ArrayLike<number>, eo: number): void {
    this.e0x[i] = e[eo];
    this.e0y[i] = e[eo + 1];
    this.e0z[i] = e[eo + 2];
    this.e1x[i] = e[eo + 3];
    this.e1y[i] = e[eo + 4];
    this.e1z[i] = e[eo + 5];
    this.e2x[i] = e[eo + 6];
    this.e2y[i] = e[eo + 7];
    this.e2z[i] = e[eo + 8];
  }

  private checkLane(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.capacity) {
      throw new RangeError(
        `OcsiBatch: lane index must be an integer in [0, ${this.capacity}), got ${String(i)}`,
      );
    }
  }

  private checkRun(fn: string, count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `OcsiBatch.${fn}: count must be an integer in [0, ${this.capacity}], got ${String(count)}`,
      );
    }
  }

  /** Validates lanes [0, count) (with their per-lane shapes unless `uniformShape`); throws on the first bad one. */
  validate(count = this.capacity, uniformShape = false): void {
    validateOcsiLanes(this, count, uniformShape ? undefined : this);
  }

  private setUniform(hx: number, hy: number, hz: number, radius: number): void {
    const u = this.uniform;
    for (let k = 0; k < 4; k++) {
      u[k] = hx;
      u[4 + k] = hy;
      u[8 + k] = hz;
      u[12 + k] = radius;
    }
  }

  /** Overlap flags for lanes [0, count) with their per-lane shapes into `flags`; returns the overlap count. */
  overlap(count = this.capacity): number {
    this.checkRun('overlap', count);
    if (this.validating) this.validate(count);
    if (this.wasm) {
      const base = OcsiBatch.BASE;
      const cap = this.cap;
      return this.wasm.ocsiOverlapLanes(base, cap, count, base + 48 * cap, cap, base + 68 * cap);
    }
    const cap = this.cap;
    return overlapPlanar(this.all, 16, cap, count, 16 + 12 * cap, cap, 1, this.flags);
  }

  /** Overlap flags for lanes [0, count) sharing one box (`hx, hy, hz`) and `radius`; returns the count. */
  overlapUniform(hx: number, hy: number, hz: number, radius: number, count = this.capacity): number {
    this.checkRun('overlapUniform', count);
    if (this.validating) {
      checkUniform('OcsiBatch.overlapUniform', [hx, hy, hz, radius], ['hx', 'hy', 'hz', 'radius']);
      this.validate(count, true);
    }
    this.setUniform(hx, hy, hz, radius);
    if (this.wasm) {
      return this.wasm.ocsiOverlapUniform(OcsiBatch.BASE, this.cap, count, 0, OcsiBatch.BASE + 68 * this.cap);
    }
    return overlapPlanar(this.all, 16, this.cap, count, 0, 4, 0, this.flags);
  }

  /** Squared distances for lanes [0, count) with their per-lane boxes into `distSq`; returns `distSq`. */
  distanceSq(count = this.capacity): Float32Array {
    this.checkRun('distanceSq', count);
    if (this.validating) this.validate(count);
    if (this.wasm) {
      const base = OcsiBatch.BASE;
      const cap = this.cap;
      this.wasm.ocsiDistanceSq(base, cap, count, base + 48 * cap, cap, 4, base + 64 * cap);
    } else {
      distanceSqPlanar(this.all, 16, this.cap, count, 16 + 12 * this.cap, this.cap, 1, this.distSq);
    }
    return this.distSq;
  }

  /** Squared distances for lanes [0, count) sharing one box into `distSq`; returns `distSq`. */
  distanceSqUniform(hx: number, hy: number, hz: number, count = this.capacity): Float32Array {
    this.checkRun('distanceSqUniform', count);
    if (this.validating) {
      checkUniform('OcsiBatch.distanceSqUniform', [hx, hy, hz], ['hx', 'hy', 'hz']);
      this.validate(count, true);
    }
    this.setUniform(hx, hy, hz, 0);
    if (this.wasm) {
      this.wasm.ocsiDistanceSq(OcsiBatch.BASE, this.cap, count, 0, 4, 0, OcsiBatch.BASE + 64 * this.cap);
    } else {
      distanceSqPlanar(this.all, 16, this.cap, count, 0, 4, 0, this.distSq);
    }
    return this.distSq;
  }
}
