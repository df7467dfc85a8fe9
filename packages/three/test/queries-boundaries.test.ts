/**
 * The mesh queries at the edges of their contracts, each case one a random differential search found
 * wrong (a brute-force reference over every triangle): triangle numbers of trees built over a range,
 * a capsule cast with no tolerance, a sphere centred on a triangle far from the origin, the closest
 * point of a needle triangle, a box contact point on a triangle smaller than the box, and a matrix
 * made affine by an ill-conditioned inverse.
 */
import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  Matrix4,
  Mesh,
  PlaneGeometry,
  Sphere,
  TorusKnotGeometry,
  Vector3,
} from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { describe, expect, it } from 'vitest';
import {
  BoundsTree,
  boxContacts,
  CapsuleCastHit,
  capsuleCast,
  capsuleContacts,
  closestPointToPoint,
  computeBoundsTree,
  MeshContacts,
  MeshMeshResult,
  meshTrianglePairs,
  sphereContacts,
} from '../src/index.js';
import { meshOf } from './support/characterScenes.js';

/** A mesh of one or more triangles, `xyz` 9 numbers each, with a bounds tree. */
function mesh(xyz: number[]): Mesh {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(xyz), 3));
  return meshOf(g);
}

describe('mesh queries at their boundaries', () => {
  it('a tree built over a range reports the geometry’s triangle numbers in every query', () => {
    const g = new PlaneGeometry(4, 4, 4, 4); // 32 triangles, indexed
    computeBoundsTree.call(g, { range: { start: 48, count: 48 } }); // triangles 16 to 31
    const plane = new Mesh(g);
    const pos = g.getAttribute('position');
    const index = g.getIndex()!;
    // The centroid of triangle 20, just above the plane.
    const c = new Vector3();
    for (let k = 0; k < 3; k++) c.add(new Vector3().fromBufferAttribute(pos, index.getX(60 + k)));
    c.divideScalar(3);
    const out = new MeshContacts();
    expect(closestPointToPoint(plane, c)?.faceIndex).toBe(20);
    expect(sphereContacts(plane, new Sphere(c.clone().setZ(0.01), 0.02), out)).toBe(1);
    expect(out.triangles[0]).toBe(20);
    const box = new Box3(new Vector3(-0.01, -0.01, -0.01), new Vector3(0.01, 0.01, 0.01));
    expect(boxContacts(plane, box, new Matrix4().makeTranslation(c.x, c.y, 0.005), out)).toBe(1);
    expect(out.triangles[0]).toBe(20);
    const capsule = new Capsule(c.clone().setZ(0.01), c.clone().setZ(0.5), 0.02);
    expect(capsuleContacts(plane, capsule, out)).toBe(1);
    expect(out.triangles[0]).toBe(20);
    const hit = new CapsuleCastHit();
    expect(
      capsuleCast(plane, new Capsule(c.clone().setZ(1), c.clone().setZ(2), 0.02), new Vector3(0, 0, -2), hit),
    ).toBe(true);
    expect(hit.faceIndex).toBe(20);
    // Against a one-triangle mesh crossing triangle 20 only.
    const needle = mesh([c.x, c.y, -0.1, c.x, c.y, 0.1, c.x + 0.01, c.y + 0.005, 0]);
    const pairs = new MeshMeshResult();
    expect(meshTrianglePairs(plane, needle, pairs)).toBe(1);
    expect([pairs.trianglesA[0], pairs.trianglesB[0]]).toEqual([20, 0]);
    expect(meshTrianglePairs(needle, plane, pairs)).toBe(1);
    expect([pairs.trianglesA[0], pairs.trianglesB[0]]).toEqual([0, 20]);
  });

  it('a capsule cast with tolerance 0 still stops at the first contact (no passing through)', () => {
    const floor = mesh([0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const hit = new CapsuleCastHit();
    let checked = 0;
    for (const sx of [0.3, 0.5, 0.7, 1.05, -0.05])
      for (const dx of [0, 0.1, 0.37, -0.2])
        for (const r of [0.1, 0.25, 0.5])
          for (const len of [0, 0.5]) {
            const capsule = new Capsule(new Vector3(sx, 1, 0.3), new Vector3(sx + len, 1, 0.3), r);
            const d = new Vector3(dx, -3, 0);
            capsuleCast(floor, capsule, d, hit);
            const byDefault = [hit.hit, hit.fraction];
            for (const tolerance of [0, 1e-18, 1e-12]) {
              capsuleCast(floor, capsule, d, hit, tolerance);
              expect(hit.hit).toBe(byDefault[0]);
              if (hit.hit) expect(Math.abs(hit.fraction - (byDefault[1] as number))).toBeLessThan(1e-6);
              checked++;
            }
          }
    expect(checked).toBe(360);
    // The case found first: a sphere passing 0.02 from the triangle's edge, going down through it.
    const ball = new Capsule(new Vector3(-0.05, 1, 0.3), new Vector3(-0.05, 1, 0.3), 0.1);
    expect(capsuleCast(floor, ball, new Vector3(0.1, -3, 0), hit, 0)).toBe(true);
    expect(hit.fraction).toBeCloseTo(0.3006688676432561, 6);
  });

  it('a sphere centred on a triangle far from the origin gets the face normal (by winding)', () => {
    const X = 1e6;
    const v = [X, 0, X, X + 3, 1, X + 0.5, X + 0.25, 2, X + 3];
    const far = mesh(v);
    const a = new Vector3(v[0], v[1], v[2]);
    const ab = new Vector3(v[3], v[4], v[5]).sub(a);
    const ac = new Vector3(v[6], v[7], v[8]).sub(a);
    const face = ab.clone().cross(ac).normalize();
    const out = new MeshContacts();
    for (const [u, w] of [
      [0.3, 0.3],
      [0.2, 0.5],
      [0.1, 0.1],
      [0.45, 0.25],
    ]) {
      const centre = a.clone().addScaledVector(ab, u).addScaledVector(ac, w);
      expect(sphereContacts(far, new Sphere(centre, 1), out)).toBe(1);
      const n = new Vector3(out.normals[0], out.normals[1], out.normals[2]);
      expect(n.dot(face)).toBeCloseTo(1, 9);
      // Moving by depth · normal leaves the centre one radius from the plane.
      const moved = centre.clone().addScaledVector(n, out.depths[0]);
      expect(Math.abs(face.dot(moved.sub(a)))).toBeCloseTo(1, 6);
    }
  });

  it('a point on a needle triangle is found on it, and a sphere there touches it', () => {
    // An angle of 2e-6 rad at each long end: the barycentric form lost about the needle's width here.
    const needle = mesh([0, 0, 0, 1, 0, 0, 0.5, 1e-6, 0]);
    const on = closestPointToPoint(needle, new Vector3(0.25, 1e-7, 0));
    expect(on!.distance).toBeLessThan(1e-15);
    const above = closestPointToPoint(needle, new Vector3(0.25, 1e-7, 1e-6));
    expect(above!.distance).toBeCloseTo(1e-6, 15);
    const out = new MeshContacts();
    expect(sphereContacts(needle, new Sphere(new Vector3(0.25, 1e-7, 1e-6), 2e-6), out)).toBe(1);
    expect(out.depths[0]).toBeCloseTo(1e-6, 15);
  });

  it('a box contact point lies on the triangle when the triangle is smaller than the box’s face', () => {
    const tri = [1, -3, -3, 3, -2, -2, 3, -4, -2];
    const small = mesh(tri);
    const out = new MeshContacts();
    const box = new Box3(new Vector3(0, -3, -3), new Vector3(2, 0, -1));
    expect(boxContacts(small, box, new Matrix4(), out)).toBe(1);
    const p = new Vector3(out.points[0], out.points[1], out.points[2]);
    // On the triangle: its distance to the triangle is rounding.
    const back = closestPointToPoint(small, p);
    expect(back!.distance).toBeLessThan(1e-12);
    expect(out.depths[0]).toBeCloseTo(Math.sqrt(0.2), 12);
  });

  it('intersectsGeometry takes a matrix made affine by an ill-conditioned inverse', () => {
    const tree = new BoundsTree(new TorusKnotGeometry());
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));
    const a = new Matrix4().fromArray([
      22.81241419906879, 7.72269969870089, -18.408886652193186, 0, -15.928369814431857, -5.372384072462009,
      12.83072396500044, 0, 3.783970614228879, 1.3078867014198563, -3.0258418669894116, 0, 2.8945874329656363,
      -9.358174107037485, -4.299503350630403, 1,
    ]);
    const b = new Matrix4().fromArray([
      10.196370060574882, -43.071633049590986, -1.2703588532560213, 0, -5.872917455276719, -39.81843011559057,
      -12.679112374249103, 0, -34.903044050273145, -26.72939587208914, 14.79506151319641, 0,
      320.4183717245854, 34.89523729875714, -252.6240720284805, 1,
    ]);
    const relative = a.clone().invert().multiply(b);
    expect(relative.elements[15]).not.toBe(1); // off by rounding
    expect(typeof tree.intersectsGeometry(g, relative)).toBe('boolean');
    // A truly projective matrix is still refused.
    relative.elements[3] = 0.5;
    expect(() => tree.intersectsGeometry(g, relative)).toThrow(/not affine/);
  });
});
