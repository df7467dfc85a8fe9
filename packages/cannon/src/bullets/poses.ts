/** Reading a cannon body's poses before and after a step into typed arrays (`integrate()` keeps both). */
import type { Body } from 'cannon-es';

/** p0/q0/p1/q1 = the body's poses before and after the step; false if not finite. */
export function readPoses(
  body: Body,
  p0: Float64Array,
  q0: Float64Array,
  p1: Float64Array,
  q1: Float64Array,
): boolean {
  const a = body.previousPosition;
  const b = body.position;
  const qa = body.previousQuaternion;
  const qb = body.quaternion;
  p0[0] = a.x;
  p0[1] = a.y;
  p0[2] = a.z;
  p1[0] = b.x;
  p1[1] = b.y;
  p1[2] = b.z;
  q0[0] = qa.x;
  q0[1] = qa.y;
  q0[2] = qa.z;
  q0[3] = qa.w;
  q1[0] = qb.x;
  q1[1] = qb.y;
  q1[2] = qb.z;
  q1[3] = qb.w;
  for (let k = 0; k < 3; k++) if (!(p0[k] - p0[k] === 0 && p1[k] - p1[k] === 0)) return false;
  return finiteQuat(q0) && finiteQuat(q1);
}

function finiteQuat(q: Float64Array): boolean {
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  return n > 0 && n - n === 0;
}
