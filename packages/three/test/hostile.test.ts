/**
 * Bad input: a clear error naming the argument, thrown before anything changes; odd but legal input
 * (NaN rays, singular or projective world matrices): the same answer as three.js.
 */
import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  type Intersection,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  Raycaster,
  Sphere,
  Vector3,
} from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { describe, expect, it } from 'vitest';
import {
  acceleratedRaycast,
  BoundsTree,
  boxContacts,
  CapsuleCastHit,
  capsuleCast,
  capsuleContacts,
  capsuleIntersect,
  closestPointToPoint,
  computeBoundsTree,
  intersectsCapsule,
  MeshContacts,
  type MeshMeshResult,
  meshesIntersect,
  meshTrianglePairs,
  sphereContacts,
} from '../src/index.js';
import { describe as hit, knot } from './scenes.js';

function floor(): Mesh {
  const mesh = new Mesh(new PlaneGeometry(10, 10, 4, 4).rotateX(-Math.PI / 2));
  computeBoundsTree.call(mesh.geometry);
  return mesh;
}

describe('computeBoundsTree', () => {
  it('refuses what is not a geometry, unknown option keys and bad values', () => {
    expect(() => new BoundsTree({} as BufferGeometry)).toThrow(/BufferGeometry/);
    const g = knot();
    expect(() => computeBoundsTree.call(g, { stratgy: 'sah' } as never)).toThrow(/unknown key 'stratgy'/);
    expect(() => computeBoundsTree.call(g, { strategy: 'best' as never })).toThrow(/options.strategy/);
    expect(() => computeBoundsTree.call(g, { strategy: 3 })).toThrow(/options.strategy/);
    expect(() => computeBoundsTree.call(g, { maxLeafSize: 0 })).toThrow(/maxLeafSize/);
    expect(() => computeBoundsTree.call(g, { maxLeafSize: 4, targetLeafSize: 6 })).toThrow(/disagree/);
    expect(() => computeBoundsTree.call(g, { range: { start: -1, count: 3 } })).toThrow(/options.range/);
    expect(() => computeBoundsTree.call(g, null as never)).toThrow(TypeError);
    expect((g as { boundsTree?: unknown }).boundsTree).toBeUndefined();
    // three-mesh-bvh's names are accepted.
    expect(
      computeBoundsTree.call(g, { strategy: 2, targetLeafSize: 10, indirect: true, verbose: false }),
    ).toBeInstanceOf(BoundsTree);
  });

  it('refuses geometries without positions, with non-finite positions or indices out of range', () => {
    expect(() => computeBoundsTree.call(new BufferGeometry())).toThrow(/no position attribute/);
    const bad = new BufferGeometry();
    bad.setAttribute(
      'position',
      new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, Number.NaN, 0]), 3),
    );
    expect(() => computeBoundsTree.call(bad)).toThrow(/not finite/);
    const out = new BufferGeometry();
    out.setAttribute('position', new BufferAttribute(new Float32Array(9), 3));
    out.setIndex([0, 1, 5]);
    expect(() => computeBoundsTree.call(out)).toThrow(/out of range/);
  });
});

describe('mesh queries', () => {
  it('name the function and the argument', () => {
    const level = floor();
    const bare = new Mesh(new PlaneGeometry());
    const capsule = new Capsule(new Vector3(), new Vector3(0, 1, 0), 0.3);
    const out = new MeshContacts();
    expect(() => capsuleContacts(bare, capsule, out)).toThrow(
      /capsuleContacts: mesh.geometry has no bounds tree/,
    );
    expect(() => meshesIntersect(level, bare)).toThrow(/meshesIntersect: b.geometry has no bounds tree/);
    expect(() => capsuleContacts(level, new Capsule(new Vector3(), new Vector3(), -1), out)).toThrow(
      /capsule.radius/,
    );
    expect(() =>
      capsuleContacts(level, new Capsule(new Vector3(Number.NaN, 0, 0), new Vector3(), 1), out),
    ).toThrow(/capsule.start/);
    expect(() => intersectsCapsule(level, { start: new Vector3(), radius: 1 } as never)).toThrow(
      /capsule.end/,
    );
    expect(() => capsuleIntersect(level, new Capsule(new Vector3(), new Vector3(), Infinity))).toThrow(
      /capsule.radius/,
    );
    expect(() => capsuleContacts(level, capsule, {} as MeshContacts)).toThrow(/out must be a MeshContacts/);
    const hit = new CapsuleCastHit();
    expect(() => capsuleCast(level, capsule, new Vector3(Number.NaN, 0, 0), hit)).toThrow(/displacement/);
    expect(() => capsuleCast(level, capsule, new Vector3(1, 0, 0), hit, -1)).toThrow(/tolerance/);
    expect(() => capsuleCast(level, capsule, new Vector3(1, 0, 0), {} as CapsuleCastHit)).toThrow(
      /CapsuleCastHit/,
    );
    expect(() => closestPointToPoint(level, new Vector3(0, Infinity, 0))).toThrow(/point/);
    expect(() => closestPointToPoint(level, new Vector3(), undefined, 2, 1)).toThrow(/maxThreshold/);
    expect(() => sphereContacts(level, new Sphere(new Vector3(), -2), out)).toThrow(/radius/);
    const sheared = new Matrix4().set(1, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    expect(() =>
      boxContacts(level, new Box3(new Vector3(-1, -1, -1), new Vector3(1, 1, 1)), sheared, out),
    ).toThrow(/orthogonal/);
    expect(() => meshTrianglePairs(level, level, {} as MeshMeshResult)).toThrow(/MeshMeshResult/);
    // Nothing was left half-done: the queries still answer.
    expect(capsuleContacts(level, capsule, out)).toBeGreaterThan(0);
    expect(capsuleCast(level, capsule, new Vector3(0, -1, 0), hit)).toBe(true);
  });

  it('projective or singular world matrices are refused by the mesh queries', () => {
    const level = floor();
    level.matrixAutoUpdate = false;
    level.matrixWorld.elements[3] = 0.5;
    const capsule = new Capsule(new Vector3(), new Vector3(0, 1, 0), 0.3);
    expect(() => capsuleContacts(level, capsule, new MeshContacts())).toThrow(/matrix is not affine/);
    level.matrixWorld.identity().makeScale(1, 0, 1);
    expect(() => capsuleContacts(level, capsule, new MeshContacts())).toThrow(/singular/);
  });
});

describe('acceleratedRaycast on odd input answers as three.js', () => {
  it('NaN and zero rays, singular and projective world matrices, infinite ranges', () => {
    const geometry = knot();
    computeBoundsTree.call(geometry);
    const stock = Mesh.prototype.raycast;
    const cases: Array<[string, (m: Mesh) => void, Raycaster]> = [
      ['NaN origin', () => {}, new Raycaster(new Vector3(Number.NaN, 0, 5), new Vector3(0, 0, -1))],
      ['zero direction', () => {}, new Raycaster(new Vector3(0, 0, 5), new Vector3(0, 0, 0))],
      [
        'singular matrix',
        (m) => m.matrixWorld.makeScale(1, 0, 1),
        new Raycaster(new Vector3(0.5, 0, 5), new Vector3(0, 0, -1)),
      ],
      [
        'projective matrix',
        (m) => {
          m.matrixWorld.elements[3] = 0.05;
        },
        new Raycaster(new Vector3(0.5, 0.2, 5), new Vector3(0, 0, -1)),
      ],
      ['near > far', () => {}, new Raycaster(new Vector3(0.5, 0.2, 5), new Vector3(0, 0, -1), 5, 1)],
      [
        'infinite near',
        () => {},
        new Raycaster(new Vector3(0.5, 0.2, 5), new Vector3(0, 0, -1), Infinity, Infinity),
      ],
    ];
    for (const [name, setup, rc] of cases) {
      const mesh = new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide }));
      mesh.matrixAutoUpdate = false;
      setup(mesh);
      const want: Intersection[] = [];
      stock.call(mesh, rc, want);
      const got: Intersection[] = [];
      acceleratedRaycast.call(mesh, rc, got);
      expect(got.map(hit), name).toEqual(want.map(hit));
    }
  });
});

describe('acceleratedRaycast on lines and points', () => {
  it('runs their own raycast, as three-mesh-bvh falls back to it', async () => {
    const { BufferGeometry: G, Line, LineSegments, Points, Raycaster: R } = await import('three');
    const g = new G().setFromPoints([new Vector3(-1, 0, 0), new Vector3(1, 0, 0), new Vector3(1, 1, 0)]);
    for (const object of [new Line(g), new LineSegments(g), new Points(g)]) {
      const rc = new R(new Vector3(0, 0, 5), new Vector3(0, 0, -1));
      rc.params.Points.threshold = 2;
      const want: Intersection[] = [];
      object.raycast(rc, want);
      const got: Intersection[] = [];
      acceleratedRaycast.call(object as never, rc, got);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(want);
    }
  });
});
