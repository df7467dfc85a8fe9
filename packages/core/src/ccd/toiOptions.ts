/**
 * Options, limits and argument checks of the time-of-impact queries: the defaults, the magnitude range
 * the distance kernels support, and the per-call tolerances derived from the prepared sides.
 *
 * The tolerance and target distance follow conservative advancement as Mirtich (1996) and Box2D's time
 * of impact use it: advance until the distance is within `tolerance`, each step aiming to leave half of
 * it. The approach threshold is relative to the bound on the closing speed (the hard-rigid-body
 * event-driven MD paper, Eq. 32).
 */
import { checkNonNegative } from '../math/checks.js';
import { checkOptionKeys } from '../options.js';
import { DT, KIND_BOX, KIND_MESH, KIND_SPHERE, Side, sides } from './side.js';
import { PARAMS, Param } from './toiRecords.js';
import {
  type CcdShape,
  type CcdShape2D,
  TIME_OF_IMPACT_OPTION_KEYS,
  type TimeOfImpactOptions,
} from './types.js';

/** Default iteration cap of {@link timeOfImpact}. */
export const TOI_MAX_ITERATIONS = 128;
/** Default tolerance as a fraction of the smaller shape's size. */
export const TOI_RELATIVE_TOLERANCE = 1e-3;
/**
 * The largest magnitude (2^200 ≈ 1.6e60) of a position coordinate, a displacement over the frame
 * (velocity × dt), a radius, a half extent or a mesh's size that {@link timeOfImpact} accepts: GJK's
 * determinants are products of up to four coordinate differences, which stay finite (and the answers
 * scale-invariant) far below the double range there. Larger values throw a RangeError naming the body.
 */
export const TOI_MAGNITUDE_LIMIT = 2 ** 200;

/** The result record as the advancement writes it (3-D or 2-D vectors). */
export interface RawOut {
  status: number;
  t: number;
  normal: Float64Array;
  point: Float64Array;
  pointA: Float64Array;
  pointB: Float64Array;
  distance: number;
  iterations: number;
}

/**
 * Checks `options` and sets the frame length (`DT`); returns the iteration cap. Throws a TypeError or
 * RangeError naming the option.
 */
export function readOptions(fn: string, options: TimeOfImpactOptions): number {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with at least { dt }`);
  }
  // Constant strings: a template here would allocate on every call.
  checkOptionKeys(
    fn === 'timeOfImpact' ? 'timeOfImpact: options' : 'timeOfImpact2D: options',
    options,
    TIME_OF_IMPACT_OPTION_KEYS,
  );
  const dt = options.dt;
  if (!(typeof dt === 'number' && dt >= 0 && dt - dt === 0)) checkNonNegative(fn, 'options.dt', dt);
  DT[0] = dt;
  let maxIterations = TOI_MAX_ITERATIONS;
  if (options.maxIterations !== undefined) {
    maxIterations = options.maxIterations;
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new RangeError(
        `${fn}: options.maxIterations must be an integer >= 1, got ${String(maxIterations)}`,
      );
    }
  }
  if (options.tolerance !== undefined) {
    const tol = options.tolerance;
    if (typeof tol !== 'number' || !Number.isFinite(tol) || !(tol > 0)) {
      throw new RangeError(`${fn}: options.tolerance must be a finite number > 0, got ${String(tol)}`);
    }
  }
  return maxIterations;
}

/** Throws a TypeError unless `out` is a result record with `dim`-vectors. */
export function checkOut(fn: string, out: RawOut, dim: number): void {
  if (
    out === null ||
    typeof out !== 'object' ||
    !(out.normal instanceof Float64Array) ||
    out.normal.length < dim ||
    !(out.point instanceof Float64Array) ||
    out.point.length < dim ||
    !(out.pointA instanceof Float64Array) ||
    out.pointA.length < dim ||
    !(out.pointB instanceof Float64Array) ||
    out.pointB.length < dim
  ) {
    throw new TypeError(
      `${fn}: out must be a result record from createTimeOfImpactResult${dim === 2 ? '2D' : ''}()`,
    );
  }
}

/**
 * Kind order for the pair dispatch: sphere (circle) < box < mesh, so a mesh is always side B. Unknown
 * kinds sort first; `prepareSide` rejects them with a message.
 */
export function kindOf(shape: CcdShape | CcdShape2D): number {
  if (shape === null || typeof shape !== 'object') return -1;
  const k = shape.kind;
  return k === 'sphere' || k === 'circle'
    ? KIND_SPHERE
    : k === 'box'
      ? KIND_BOX
      : k === 'mesh'
        ? KIND_MESH
        : -1;
}

/**
 * Throws a RangeError unless every magnitude of both prepared sides is within {@link TOI_MAGNITUDE_LIMIT}
 * (`swapped`: side 1 holds body A). This runs on every call: independent comparisons (false for NaN),
 * no sum or max chained through them (a dependent chain of 34 operations measured ~6 % of a convex time
 * of impact), and the messages built in a separate function. No double crosses a call.
 */
export function checkMagnitudes(fn: string, swapped: boolean): void {
  const A = sides[0];
  const B = sides[1];
  const L = TOI_MAGNITUDE_LIMIT;
  if (
    Math.abs(A[Side.P0]) <= L &&
    Math.abs(A[Side.P0 + 1]) <= L &&
    Math.abs(A[Side.P0 + 2]) <= L &&
    Math.abs(A[Side.OBB]) <= L &&
    Math.abs(A[Side.OBB + 1]) <= L &&
    Math.abs(A[Side.OBB + 2]) <= L &&
    Math.abs(A[Side.VD]) <= L &&
    Math.abs(A[Side.VD + 1]) <= L &&
    Math.abs(A[Side.VD + 2]) <= L &&
    A[Side.RAD] <= L &&
    A[Side.OBB + 12] <= L &&
    A[Side.OBB + 13] <= L &&
    A[Side.OBB + 14] <= L &&
    A[Side.CORE] <= L &&
    A[Side.SIZE] <= L &&
    A[Side.LB] <= L &&
    A[Side.WL] <= L &&
    Math.abs(B[Side.P0]) <= L &&
    Math.abs(B[Side.P0 + 1]) <= L &&
    Math.abs(B[Side.P0 + 2]) <= L &&
    Math.abs(B[Side.OBB]) <= L &&
    Math.abs(B[Side.OBB + 1]) <= L &&
    Math.abs(B[Side.OBB + 2]) <= L &&
    Math.abs(B[Side.VD]) <= L &&
    Math.abs(B[Side.VD + 1]) <= L &&
    Math.abs(B[Side.VD + 2]) <= L &&
    B[Side.RAD] <= L &&
    B[Side.OBB + 12] <= L &&
    B[Side.OBB + 13] <= L &&
    B[Side.OBB + 14] <= L &&
    B[Side.CORE] <= L &&
    B[Side.SIZE] <= L &&
    B[Side.LB] <= L &&
    B[Side.WL] <= L
  ) {
    return;
  }
  magnitudeError(fn, swapped ? 1 : 0, 'shapeA', 'motionA');
  magnitudeError(fn, swapped ? 0 : 1, 'shapeB', 'motionB');
}

// The RangeError of checkMagnitudes for side i (body `shape`/`motion`), naming the first magnitude past
// the limit; returns when there is none.
function magnitudeError(fn: string, i: number, shape: string, motion: string): void {
  const S = sides[i];
  const limit = TOI_MAGNITUDE_LIMIT;
  for (let k = 0; k < 3; k++) {
    if (!(Math.abs(S[Side.P0 + k]) <= limit) || !(Math.abs(S[Side.OBB + k]) <= limit)) {
      throw new RangeError(
        `${fn}: ${motion}'s position (${S[Side.P0 + k]} on axis ${k}) is beyond ±${limit.toExponential(2)}, the range time of impact supports`,
      );
    }
    if (!(Math.abs(S[Side.VD + k]) <= limit)) {
      throw new RangeError(
        `${fn}: ${motion}'s velocity × dt (${S[Side.VD + k]} on axis ${k}) is beyond ±${limit.toExponential(2)}, the range time of impact supports`,
      );
    }
  }
  const size = Math.max(
    S[Side.RAD],
    S[Side.OBB + 12],
    S[Side.OBB + 13],
    S[Side.OBB + 14],
    S[Side.CORE],
    S[Side.SIZE],
    S[Side.LB],
    S[Side.WL],
  );
  if (size <= limit) return;
  throw new RangeError(
    `${fn}: ${shape}'s size (${size}) is beyond ${limit.toExponential(2)}, the range time of impact supports`,
  );
}

/**
 * Sets the tolerance, target distance and approach threshold in `PARAMS` from the prepared sides and
 * the options: by default {@link TOI_RELATIVE_TOLERANCE} of the smaller shape's size, and no less than
 * 1e-9 of the coordinates' magnitude (what the distance kernels can resolve there).
 */
export function setTolerances(options: TimeOfImpactOptions): void {
  const A = sides[0];
  const B = sides[1];
  let tol = options.tolerance;
  if (tol === undefined) {
    const sa = A[Side.SIZE];
    const sb = B[Side.SIZE];
    const size = sa > 0 && sb > 0 ? Math.min(sa, sb) : Math.max(sa, sb);
    let scale = 1;
    for (let i = 0; i < 3; i++) {
      scale = Math.max(
        scale,
        Math.abs(A[Side.P0 + i]),
        Math.abs(B[Side.P0 + i]),
        Math.abs(A[Side.P0 + i] + A[Side.VD + i]),
        Math.abs(B[Side.P0 + i] + B[Side.VD + i]),
      );
    }
    tol = Math.max(TOI_RELATIVE_TOLERANCE * size, 1e-9 * scale);
  }
  PARAMS[Param.Tolerance] = tol;
  PARAMS[Param.Target] = 0.5 * tol;
  const speed =
    Math.sqrt(A[Side.VD] * A[Side.VD] + A[Side.VD + 1] * A[Side.VD + 1] + A[Side.VD + 2] * A[Side.VD + 2]) +
    Math.sqrt(B[Side.VD] * B[Side.VD] + B[Side.VD + 1] * B[Side.VD + 1] + B[Side.VD + 2] * B[Side.VD + 2]) +
    A[Side.WL] +
    B[Side.WL];
  PARAMS[Param.ApproachEps] = 1e-9 * speed;
}
