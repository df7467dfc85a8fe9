import { describe, expect, it } from 'vitest';
import { checkStructure, MeshBVH } from '../../src/bvh/MeshBVH.js';
import { isLeaf, leafCount, leafOffset, NODE_WORDS, rightChild } from '../../src/bvh/nodes.js';
import { grid, mixedSoup, rng, type TestMesh, uvSphere } from './helpers.js';

/** Checks every invariant of a built tree against its mesh (plain loops, one assertion at the end). */
function checkTree(bvh: MeshBVH, mesh: TestMesh, maxLeafSize: number): void {
  const { positions, index } = mesh;
  const f = bvh.nodeF32;
  const i = bvh.nodeI32;
  checkStructure(i, bvh.nodeCount, bvh.triIds, bvh.triangleCount);
  const errors: string[] = [];
  // triVerts holds each slot's original triangle, vertex order preserved.
  for (let s = 0; s < bvh.triangleCount; s++) {
    const t = bvh.triIds[s];
    for (let k = 0; k < 3; k++) {
      const v = index ? index[3 * t + k] : 3 * t + k;
      for (let c = 0; c < 3; c++) {
        if (bvh.triVerts[9 * s + 3 * k + c] !== positions[3 * v + c]) errors.push(`slot ${s} vertex ${k}`);
      }
    }
  }
  let leaves = 0;
  for (let n = 0; n < bvh.nodeCount; n++) {
    const w = n * NODE_WORDS;
    if (isLeaf(i, n)) {
      leaves++;
      const count = leafCount(i, n);
      if (count < 1 || count > maxLeafSize) errors.push(`leaf ${n} has ${count} triangles`);
      // Leaf box = exact bounds of its triangles.
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (let s = leafOffset(i, n); s < leafOffset(i, n) + count; s++) {
        for (let k = 0; k < 9; k++) {
          const v = bvh.triVerts[9 * s + k];
          lo[k % 3] = Math.min(lo[k % 3], v);
          hi[k % 3] = Math.max(hi[k % 3], v);
        }
      }
      for (let k = 0; k < 3; k++) {
        if (f[w + k] !== lo[k] || f[w + 3 + k] !== hi[k]) errors.push(`leaf ${n} box, axis ${k}`);
      }
    } else {
      // Inner box = union of the children's boxes.
      const l = (n + 1) * NODE_WORDS;
      const r = rightChild(i, n) * NODE_WORDS;
      for (let k = 0; k < 3; k++) {
        if (
          f[w + k] !== Math.min(f[l + k], f[r + k]) ||
          f[w + 3 + k] !== Math.max(f[l + 3 + k], f[r + 3 + k])
        ) {
          errors.push(`inner ${n} box, axis ${k}`);
        }
      }
    }
  }
  expect(errors.slice(0, 5)).toEqual([]);
  expect(leaves).toBeGreaterThanOrEqual(Math.ceil(bvh.triangleCount / maxLeafSize));
}

const meshes: Record<string, TestMesh> = {
  'sphere (Uint16 index)': uvSphere(1, 24, 16),
  'grid (Uint32 index)': grid(20, 0.1),
  'soup (non-indexed)': mixedSoup(3, 20, 400),
};

describe('MeshBVH build', () => {
  for (const [name, mesh] of Object.entries(meshes)) {
    for (const strategy of ['center', 'sah'] as const) {
      for (const maxLeafSize of [1, 4, 10]) {
        it(`${name}, ${strategy}, leaf ${maxLeafSize}`, () => {
          const bvh = new MeshBVH(mesh.positions, mesh.index, { strategy, maxLeafSize });
          checkTree(bvh, mesh, maxLeafSize);
        });
      }
    }
  }

  it('coincident centroids are split by count, honouring maxLeafSize', () => {
    // 100 copies of one triangle.
    const pos = new Float32Array(900);
    for (let t = 0; t < 100; t++) pos.set([0, 0, 0, 1, 0, 0, 0, 1, 0], 9 * t);
    const bvh = new MeshBVH(pos, null, { maxLeafSize: 3 });
    checkTree(bvh, { positions: pos, index: null }, 3);
  });

  it('maxDepth caps the depth (leaves may then exceed maxLeafSize)', () => {
    const mesh = uvSphere(1, 24, 16);
    const bvh = new MeshBVH(mesh.positions, mesh.index, { maxLeafSize: 1, maxDepth: 3 });
    // Depth 3 → at most 8 leaves, 15 nodes.
    expect(bvh.nodeCount).toBeLessThanOrEqual(15);
    checkStructure(bvh.nodeI32, bvh.nodeCount, bvh.triIds, bvh.triangleCount);
  });

  it('SAH gives no worse a tree than centre splits by the SAH cost', () => {
    const mesh = mixedSoup(11, 30, 2000);
    const cost = (b: MeshBVH) => {
      const f = b.nodeF32;
      const area = (n: number) => {
        const w = n * NODE_WORDS;
        const dx = f[w + 3] - f[w];
        const dy = f[w + 4] - f[w + 1];
        const dz = f[w + 5] - f[w + 2];
        return dx * dy + dy * dz + dz * dx;
      };
      let c = 0;
      for (let n = 0; n < b.nodeCount; n++)
        c += area(n) * (isLeaf(b.nodeI32, n) ? leafCount(b.nodeI32, n) : 1);
      return c / area(0);
    };
    const center = new MeshBVH(mesh.positions, mesh.index, { strategy: 'center' });
    const sah = new MeshBVH(mesh.positions, mesh.index, { strategy: 'sah' });
    expect(cost(sah)).toBeLessThan(cost(center));
  });

  it('empty mesh: one empty leaf', () => {
    const bvh = new MeshBVH(new Float32Array(0), new Uint32Array(0));
    expect(bvh.triangleCount).toBe(0);
    expect(bvh.nodeCount).toBe(1);
    expect(bvh.getBounds([0, 0, 0, 0, 0, 0])).toEqual([
      Infinity,
      Infinity,
      Infinity,
      -Infinity,
      -Infinity,
      -Infinity,
    ]);
  });

  it('does not modify the caller’s buffers', () => {
    const mesh = uvSphere(1, 12, 8);
    const pos = mesh.positions.slice();
    const idx = (mesh.index as Uint16Array).slice();
    new MeshBVH(mesh.positions, mesh.index, { strategy: 'sah' });
    expect(mesh.positions).toEqual(pos);
    expect(mesh.index).toEqual(idx);
  });
});

describe('relocateTriangles', () => {
  it('moves triVerts into the caller’s array (a view on a larger buffer); refit writes there', () => {
    const mesh = uvSphere(1, 12, 8);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const before = bvh.triVerts.slice();
    const buffer = new ArrayBuffer(64 + 4 * before.length);
    const target = new Float32Array(buffer, 64, before.length);
    bvh.relocateTriangles(target);
    expect(bvh.triVerts).toBe(target);
    expect(target).toEqual(before);
    const moved = mesh.positions.map((x, k) => x + 0.01 * Math.sin(k));
    bvh.refit(moved);
    expect(bvh.triVerts).toBe(target);
    checkTree(bvh, { positions: moved, index: mesh.index }, 8);
  });
  it('rejects anything but a Float32Array of the same length, before anything changes', () => {
    const mesh = grid(3, 1);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const triVerts = bvh.triVerts;
    const n = triVerts.length;
    expect(() => bvh.relocateTriangles(new Float32Array(n + 1))).toThrow(/relocateTriangles: target must be/);
    expect(() => bvh.relocateTriangles(new Float64Array(n) as unknown as Float32Array)).toThrow(
      /relocateTriangles: target must be/,
    );
    expect(bvh.triVerts).toBe(triVerts);
  });
});

describe('refit', () => {
  it('after moving vertices in place, bounds are exact again', () => {
    const mesh = uvSphere(1, 16, 12);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const r = rng(5);
    for (let i = 0; i < mesh.positions.length; i++) mesh.positions[i] += 0.3 * (r() - 0.5);
    const v = bvh.version;
    bvh.refit();
    expect(bvh.version).toBe(v + 1);
    checkTree(bvh, mesh, 8);
  });
  it('with a new positions array', () => {
    const mesh = grid(10, 0.2);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const moved = mesh.positions.map((x, k) => (k % 3 === 2 ? Math.sin(k) : x));
    bvh.refit(moved);
    expect(bvh.positions).toBe(moved);
    checkTree(bvh, { positions: moved, index: mesh.index }, 8);
  });
  it('rejects a different length or a NaN', () => {
    const mesh = grid(4, 1);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    expect(() => bvh.refit(new Float32Array(3))).toThrow(/same length/);
    const bad = mesh.positions.slice();
    bad[7] = Number.NaN;
    expect(() => bvh.refit(bad)).toThrow(/positions\[7\] is not finite/);
  });
});

describe('serialize / deserialize', () => {
  for (const [name, mesh] of Object.entries(meshes)) {
    it(`round trip: ${name}`, () => {
      const bvh = new MeshBVH(mesh.positions, mesh.index, { strategy: 'sah', maxLeafSize: 5 });
      const data = bvh.serialize();
      expect(data.byteLength).toBe(32 + 32 * bvh.nodeCount + 4 * bvh.triangleCount);
      const back = MeshBVH.deserialize(data, mesh.positions, mesh.index);
      expect(back.nodeCount).toBe(bvh.nodeCount);
      expect(new Uint8Array(back.nodes)).toEqual(new Uint8Array(bvh.nodes));
      expect(back.triIds).toEqual(bvh.triIds);
      expect(back.triVerts).toEqual(bvh.triVerts);
      // Survives a structured clone (what postMessage does to it).
      const cloned = structuredClone(data);
      expect(MeshBVH.deserialize(cloned, mesh.positions, mesh.index).nodeCount).toBe(bvh.nodeCount);
    });
  }
  it('rejects foreign, mismatched or corrupted data', () => {
    const mesh = uvSphere(1, 12, 8);
    const bvh = new MeshBVH(mesh.positions, mesh.index);
    const data = bvh.serialize();
    expect(() => MeshBVH.deserialize(new ArrayBuffer(64), mesh.positions, mesh.index)).toThrow(
      /not a serialized/,
    );
    const other = uvSphere(1, 10, 8);
    expect(() => MeshBVH.deserialize(data, other.positions, other.index)).toThrow(/built for/);
    expect(() => MeshBVH.deserialize(data, mesh.positions, null)).toThrow(/built for|non-indexed/);
    const broken = data.slice(0);
    // Point the root's right child back at the root.
    new Int32Array(broken, 32)[6] = 0;
    expect(() => MeshBVH.deserialize(broken, mesh.positions, mesh.index)).toThrow(/invalid links/);
    const dup = data.slice(0);
    const ids = new Uint32Array(dup, 32 + 32 * bvh.nodeCount);
    ids[1] = ids[0];
    expect(() => MeshBVH.deserialize(dup, mesh.positions, mesh.index)).toThrow(/permutation/);
  });
});

describe('bad input gets a clear error', () => {
  const pos = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  it('positions', () => {
    expect(() => new MeshBVH([0, 0, 0] as unknown as Float32Array)).toThrow(
      /positions must be a Float32Array/,
    );
    expect(() => new MeshBVH(new Float32Array(4))).toThrow(/positions.length \(4\) is not a multiple of 3/);
    expect(() => new MeshBVH(new Float32Array(6))).toThrow(/not a multiple of 9/);
    const nan = pos.slice();
    nan[4] = Number.NaN;
    expect(() => new MeshBVH(nan)).toThrow(/positions\[4\] is not finite/);
    const inf = pos.slice();
    inf[8] = Number.POSITIVE_INFINITY;
    expect(() => new MeshBVH(inf)).toThrow(/positions\[8\] is not finite/);
  });
  it('index', () => {
    expect(() => new MeshBVH(pos, new Uint32Array([0, 1]))).toThrow(
      /index.length \(2\) is not a multiple of 3/,
    );
    expect(() => new MeshBVH(pos, new Uint16Array([0, 1, 3]))).toThrow(/index\[2\] = 3 is out of range/);
    expect(() => new MeshBVH(pos, new Int32Array([0, 1, 2]) as unknown as Uint32Array)).toThrow(
      /index must be/,
    );
  });
  it('options', () => {
    expect(() => new MeshBVH(pos, null, { strategy: 'median' as 'sah' })).toThrow(/strategy/);
    expect(() => new MeshBVH(pos, null, { maxLeafSize: 0 })).toThrow(/maxLeafSize/);
    expect(() => new MeshBVH(pos, null, { maxDepth: 1.5 })).toThrow(/maxDepth/);
  });
});
