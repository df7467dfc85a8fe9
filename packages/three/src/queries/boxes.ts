/**
 * A three.js box placed by a matrix, as the OBB layout of `@sieve/core`'s mesh–OBB queries (centre,
 * unit axes, half extents), without allocating: the columns of the matrix are the box's axes, their
 * lengths scale its half extents (as `obbFromLocalAabbMatrix` of `@sieve/core`, which this defers to,
 * for its checks and errors, whenever the input is not a plain finite box under a non-degenerate,
 * orthogonal matrix).
 */
import { ORTHONORMAL_TOLERANCE, obbFromLocalAabbMatrix } from '@sieve/core';
import type { Box3, Matrix4 } from 'three';
import { affineElements } from './affineElements.js';

const OBB = new Float64Array(15);
const BOX_MIN = new Float64Array(3);
const BOX_MAX = new Float64Array(3);

/** The OBB of `box` placed by `matrix` (rotation, translation, scale; no shear) into a shared array. */
export function obbOf(box: Box3, matrix: Matrix4, fn: string): Float64Array {
  if (!box?.min || !box.max) throw new TypeError(`${fn}: box must be a Box3`);
  const e = affineElements(matrix, fn, 'boxMatrix');
  BOX_MIN[0] = box.min.x;
  BOX_MIN[1] = box.min.y;
  BOX_MIN[2] = box.min.z;
  BOX_MAX[0] = box.max.x;
  BOX_MAX[1] = box.max.y;
  BOX_MAX[2] = box.max.z;
  let plain = e[3] === 0 && e[7] === 0 && e[11] === 0 && e[15] === 1;
  for (let k = 0; k < 3 && plain; k++) {
    const lo = BOX_MIN[k];
    const hi = BOX_MAX[k];
    if (!(lo <= hi) || hi - lo === Infinity || !Number.isFinite(lo)) plain = false;
    const len = Math.sqrt(e[4 * k] * e[4 * k] + e[4 * k + 1] * e[4 * k + 1] + e[4 * k + 2] * e[4 * k + 2]);
    if (!(len > 0 && len < Infinity) || !Number.isFinite(e[12 + k])) plain = false;
    OBB[12 + k] = len * 0.5 * (hi - lo);
    for (let i = 0; i < 3; i++) OBB[3 + 3 * k + i] = e[4 * k + i] / len;
  }
  for (let k = 0; k < 3 && plain; k++) {
    for (let l = k + 1; l < 3; l++) {
      const d =
        OBB[3 + 3 * k] * OBB[3 + 3 * l] + OBB[4 + 3 * k] * OBB[4 + 3 * l] + OBB[5 + 3 * k] * OBB[5 + 3 * l];
      if (!(Math.abs(d) <= ORTHONORMAL_TOLERANCE)) plain = false;
    }
  }
  if (!plain) return obbFromLocalAabbMatrix(OBB, BOX_MIN, BOX_MAX, e);
  for (let i = 0; i < 3; i++) {
    let c = e[12 + i];
    for (let k = 0; k < 3; k++) c += e[4 * k + i] * 0.5 * (BOX_MIN[k] + BOX_MAX[k]);
    OBB[i] = c;
  }
  return OBB;
}
