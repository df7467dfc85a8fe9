/**
 * The conservative-advancement loop of the time of impact (Mirtich 1996; the hard-rigid-body
 * event-driven MD paper, §2.4.2, Eq. 39): sample the pair at t, step by the smallest time any piece
 * allows, re-sample, until a hit, an overlap, the end of the frame or the iteration cap.
 *
 * Grazing (§2.4.2 step 6): when the bodies are within `tolerance` but not approaching at the closest
 * points, the kernels step by tolerance / ḋmax, so a body sliding or skimming past is not reported as a
 * hit; if the next sample overlaps, the hit is reported at the last sample that was free of contact
 * (never later than a true contact).
 */
import type { MeshBVH } from '../bvh/MeshBVH.js';
import { KIND_MESH, KIND_SPHERE, kinds, meshes, poseAt, TIME } from './side.js';
import { boxBox, sphereBox, sphereSphere } from './toiKernels.js';
import { shapeMesh } from './toiMesh.js';
import type { RawOut } from './toiOptions.js';
import {
  Contact,
  copyContact,
  GJK_HINT,
  OVERLAP,
  PARAMS,
  Param,
  SAMPLE,
  SAVED,
  sample,
} from './toiRecords.js';
import { TOI_HIT, TOI_ITERATION_LIMIT, TOI_OVERLAP, TOI_SEPARATED } from './types.js';

/** One sample of the prepared sides at their current poses: the step allowed, hit or overlap. */
function evaluate(): void {
  sample.hit = false;
  sample.overlap = false;
  sample.found = false;
  PARAMS[Param.Step] = Number.POSITIVE_INFINITY;
  const ka = kinds[0];
  const kb = kinds[1];
  if (kb === KIND_MESH) shapeMesh(meshes[1] as MeshBVH, ka === KIND_SPHERE);
  else if (ka === KIND_SPHERE && kb === KIND_SPHERE) sphereSphere();
  else if (ka === KIND_SPHERE) sphereBox(0, 1);
  else boxBox();
}

/**
 * Writes the result (time in PARAMS[Param.Time], contact record `c`) to `out`, swapping A and B back
 * when the pair was ordered by kind; returns whether the motion must stop.
 */
function emit(
  out: RawOut,
  status: number,
  c: Float64Array,
  iterations: number,
  swapped: boolean,
  dim: number,
): boolean {
  out.status = status;
  out.t = PARAMS[Param.Time];
  out.iterations = iterations;
  out.distance = c[Contact.Distance];
  const s = swapped ? -1 : 1;
  const pa = swapped ? Contact.PointB : Contact.PointA;
  const pb = swapped ? Contact.PointA : Contact.PointB;
  for (let i = 0; i < dim; i++) {
    out.normal[i] = s * c[Contact.Normal + i] + 0; // + 0: no −0
    out.pointA[i] = c[pa + i];
    out.pointB[i] = c[pb + i];
    out.point[i] = 0.5 * (c[Contact.PointA + i] + c[Contact.PointB + i]);
  }
  return status !== TOI_SEPARATED;
}

/**
 * The conservative-advancement loop over the prepared sides (`side.ts`) with the parameters in
 * `PARAMS`; writes `out` (`dim`-vectors) and returns whether the caller must stop the motion.
 */
export function advance(maxIterations: number, out: RawOut, swapped: boolean, dim: number): boolean {
  GJK_HINT[0] = 0;
  GJK_HINT[1] = 0;
  GJK_HINT[2] = 0;
  let t = 0;
  let safeT = -1;
  let iterations = 0;
  for (;;) {
    iterations++;
    TIME[0] = t;
    poseAt(0);
    poseAt(1);
    evaluate();
    if (sample.overlap) {
      if (safeT < 0) {
        PARAMS[Param.Time] = 0;
        return emit(out, TOI_OVERLAP, OVERLAP, iterations, swapped, dim);
      }
      // Only after a grazing step: the last contact-free sample is where the motion must stop.
      PARAMS[Param.Time] = safeT;
      return emit(out, TOI_HIT, SAVED, iterations, swapped, dim);
    }
    if (sample.hit) {
      PARAMS[Param.Time] = t;
      return emit(out, TOI_HIT, SAMPLE, iterations, swapped, dim);
    }
    copyContact(SAMPLE, SAVED);
    safeT = t;
    const step = PARAMS[Param.Step];
    if (!(step < Number.POSITIVE_INFINITY) || t + step > 1) {
      PARAMS[Param.Time] = 1;
      return emit(out, TOI_SEPARATED, SAMPLE, iterations, swapped, dim);
    }
    if (iterations >= maxIterations) {
      PARAMS[Param.Time] = safeT;
      return emit(out, TOI_ITERATION_LIMIT, SAVED, iterations, swapped, dim);
    }
    t += step;
  }
}
