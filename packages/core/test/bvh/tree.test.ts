import { describe, expect, it } from 'vitest';
import { MeshContacts } from '../../src/bvh/contacts.js';
import { MeshBVH, meshBVHFromTree } from '../../src/bvh/MeshBVH.js';
import {
  MeshMeshResult,
  meshMeshIntersects,
  meshMeshPairs,
  meshMeshTriangles,
} from '../../src/bvh/meshMesh.js';
import { meshObbContacts, meshObbIntersects, meshObbQuery } from '../../src/bvh/meshObb.js';
import { buildMeshTree } from '../../src/bvh/tree.js';
import { compose, mixedSoup, randomQuat, rng, uvSphere } from './helpers.js';

describe('plain trees (buildMeshTree, for adapters without the MeshBVH class)', () => {
  const meshes = [uvSphere(1, 24, 16), mixedSoup(7, 40, 300)];

  it('are the trees new MeshBVH builds with the default options, number for number', () => {
    for (const m of meshes) {
      const tree = buildMeshTree(m.positions, m.index);
      const bvh = new MeshBVH(m.positions, m.index);
      expect(tree.triangleCount).toBe(bvh.triangleCount);
      expect(tree.nodeCount).toBe(bvh.nodeCount);
      expect(tree.nodeF32).toEqual(bvh.nodeF32);
      expect(tree.nodeI32).toEqual(bvh.nodeI32);
      expect(tree.triIds).toEqual(bvh.triIds);
      expect(tree.triVerts).toEqual(bvh.triVerts);
      expect(tree.version).toBe(0);
    }
  });

  it('throw the MeshBVH constructor’s errors', () => {
    expect(() => buildMeshTree(new Float32Array([0, 0, Number.NaN]), null)).toThrow(
      /^MeshBVH: positions\[2\] is not finite/,
    );
    expect(() => buildMeshTree(new Float32Array(9), new Uint32Array([0, 1, 3]))).toThrow(RangeError);
  });

  it('meshBVHFromTree holds the tree’s own buffers; its refit is the class’s', () => {
    const m = uvSphere(1, 12, 8);
    const tree = buildMeshTree(m.positions, m.index);
    const bvh = meshBVHFromTree(tree);
    expect(bvh).toBeInstanceOf(MeshBVH);
    expect(bvh.nodes).toBe(tree.nodes);
    expect(bvh.nodeF32).toBe(tree.nodeF32);
    expect(bvh.triVerts).toBe(tree.triVerts);
    expect(bvh.triIds).toBe(tree.triIds);
    const moved = m.positions.map((v) => 2 * v);
    bvh.refit(moved);
    expect(bvh.version).toBe(1);
    expect(Array.from(bvh.getBounds(new Float64Array(6)))).toEqual(
      Array.from(new MeshBVH(moved, m.index).getBounds(new Float64Array(6))),
    );
  });

  it('answer the internal query forms as the public ones do', () => {
    const r = rng(5);
    const a = uvSphere(1, 16, 12);
    const b = mixedSoup(3, 20, 200);
    const ta = buildMeshTree(a.positions, a.index);
    const tb = buildMeshTree(b.positions, b.index);
    const ba = new MeshBVH(a.positions, a.index);
    const bb = new MeshBVH(b.positions, b.index);
    const plain = new MeshMeshResult();
    const pub = new MeshMeshResult();
    const contacts = new MeshContacts();
    const pubContacts = new MeshContacts();
    for (let k = 0; k < 40; k++) {
      const mb = compose([r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r), [1, 1, 1]);
      const n = meshMeshTriangles(ta, null, tb, mb, plain, false);
      expect(n).toBe(meshMeshPairs(ba, null, bb, mb, pub));
      expect(plain.trianglesA.subarray(0, n)).toEqual(pub.trianglesA.subarray(0, n));
      expect(plain.trianglesB.subarray(0, n)).toEqual(pub.trianglesB.subarray(0, n));
      expect(meshMeshTriangles(ta, null, tb, mb, plain, true) > 0).toBe(meshMeshIntersects(ba, null, bb, mb));
      const q = randomQuat(r);
      const obb = [r() - 0.5, r() - 0.5, r() - 0.5, ...axesOf(q), 0.3, 0.2, 0.4];
      const c = meshObbQuery(ta, null, obb, contacts);
      expect(c).toBe(meshObbContacts(ba, null, obb, pubContacts));
      expect(contacts.points.subarray(0, 3 * c)).toEqual(pubContacts.points.subarray(0, 3 * c));
      expect(contacts.depths.subarray(0, c)).toEqual(pubContacts.depths.subarray(0, c));
      expect(meshObbQuery(ta, null, obb, null) > 0).toBe(meshObbIntersects(ba, null, obb));
    }
    expect(() => meshObbQuery(ta, null, [0, 0, 0], null)).toThrow(/^meshObbIntersects: /);
    expect(() => meshObbQuery(ta, null, [0, 0, 0], contacts)).toThrow(/^meshObbContacts: /);
  });
});

/** The rotation of a unit quaternion as three orthonormal axes, row by row. */
function axesOf([x, y, z, w]: [number, number, number, number]): number[] {
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y + z * w),
    2 * (x * z - y * w),
    2 * (x * y - z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z + x * w),
    2 * (x * z + y * w),
    2 * (y * z - x * w),
    1 - 2 * (x * x + y * y),
  ];
}
