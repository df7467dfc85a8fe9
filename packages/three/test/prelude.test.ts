/**
 * The scalar copy of three.js's raycast prelude against three.js's own objects, bit for bit: the ray in
 * the mesh's frame, and the bounding-sphere and bounding-box decisions.
 */
import { Box3, Euler, Matrix4, Quaternion, Ray, Sphere, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { PRELUDE_CAST, PRELUDE_MISS, prelude } from '../src/raycast/prelude.js';
import { RAY } from '../src/raycast/rayTriangle.js';
import { rng } from './scenes.js';

/** three.js's `Mesh.raycast` up to the triangle loop: `null` when it returns early, else the local ray. */
function threePrelude(
  m: Matrix4,
  sphere: Sphere,
  box: Box3 | null,
  ray: Ray,
  near: number,
  far: number,
): Ray | null {
  const s = sphere.clone().applyMatrix4(m);
  const r = ray.clone().recast(near);
  if (s.containsPoint(r.origin) === false) {
    const at = new Vector3();
    if (r.intersectSphere(s, at) === null) return null;
    if (r.origin.distanceToSquared(at) > (far - near) ** 2) return null;
  }
  const local = ray.clone().applyMatrix4(m.clone().invert());
  if (box !== null && local.intersectsBox(box) === false) return null;
  return local;
}

describe('raycast prelude', () => {
  it('equals three.js bit for bit under random matrices, spheres, boxes and rays', () => {
    const r = rng(21);
    let cast = 0;
    let missed = 0;
    for (let i = 0; i < 3000; i++) {
      const scale = 10 ** (6 * r() - 3);
      const m = new Matrix4().compose(
        new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(10 ** (4 * r())),
        new Quaternion().setFromEuler(new Euler(7 * r(), 7 * r(), 7 * r())),
        new Vector3(scale * (0.5 + r()), scale * (r() < 0.2 ? -1 : 1), scale * (0.2 + 3 * r())),
      );
      if (i % 10 === 0) m.multiply(new Matrix4().set(1, r(), 0, 0, 0, 1, r(), 0, 0, 0, 1, 0, 0, 0, 0, 1));
      const sphere = new Sphere(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5), 0.5 + r());
      const box =
        i % 3 === 0 ? null : new Box3().setFromCenterAndSize(sphere.center, new Vector3(r(), r(), r()));
      const target = sphere.center.clone().applyMatrix4(m);
      const origin = target
        .clone()
        .add(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(5 * scale));
      const dir = target
        .clone()
        .add(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(2 * scale))
        .sub(origin);
      const ray = new Ray(origin, dir.normalize());
      const near = i % 4 === 0 ? r() * scale : 0;
      const far = i % 5 === 0 ? near + r() * 4 * scale : Infinity;
      const want = threePrelude(m, sphere, box, ray, near, far);
      const got = prelude(m, sphere, box, ray, { near, far });
      expect(got).toBe(want === null ? PRELUDE_MISS : PRELUDE_CAST);
      if (want) {
        expect(Array.from(RAY)).toEqual([
          want.origin.x,
          want.origin.y,
          want.origin.z,
          want.direction.x,
          want.direction.y,
          want.direction.z,
        ]);
        cast++;
      } else {
        missed++;
      }
    }
    expect(cast).toBeGreaterThan(300);
    expect(missed).toBeGreaterThan(300);
  });
});
