/**
 * `GpuMeshMesh` misused, on the CPU backend (a WebGPU adapter may not exist where tests run; the GPU
 * backend's answers are compared with the same reference by the core package's Dawn and browser suites):
 * matrices of the wrong length or of a scale float64 cannot invert are refused naming the real problem,
 * a destroyed instance refuses every call, and pairs come in the documented order — sorted by (slot of
 * A, slot of B), hit data bit for bit those of `meshMeshBruteForce` — with and without `bruteForce`.
 */
import { MeshBVH, MeshMeshResult, meshMeshBruteForce, meshMeshPairs } from '@sieve/core';
import { GpuMeshMesh } from '@sieve/core/gpu';
import { describe, expect, it } from 'vitest';

/** A UV sphere of `radius` (rings × segments quads, two triangles each). */
function sphere(radius: number, segments: number, rings: number): MeshBVH {
  const pos: number[] = [];
  const idx: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const v = (r / rings) * Math.PI;
    for (let s = 0; s <= segments; s++) {
      const u = (s / segments) * 2 * Math.PI;
      pos.push(radius * Math.sin(v) * Math.cos(u), radius * Math.cos(v), radius * Math.sin(v) * Math.sin(u));
    }
  }
  const row = segments + 1;
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * row + s;
      idx.push(a, a + row, a + 1, a + 1, a + row, a + row + 1);
    }
  }
  return new MeshBVH(new Float32Array(pos), new Uint32Array(idx), { strategy: 'sah' });
}

/** Column-major 4×4: rotation about z by `angle`, uniform `scale`, translation. */
function pose(tx: number, ty: number, tz: number, angle = 0, scale = 1): number[] {
  const c = Math.cos(angle) * scale;
  const s = Math.sin(angle) * scale;
  return [c, s, 0, 0, -s, c, 0, 0, 0, 0, scale, 0, tx, ty, tz, 1];
}

function sameResult(a: MeshMeshResult, b: MeshMeshResult): string {
  if (a.count !== b.count) return `count ${a.count} vs ${b.count}`;
  for (let k = 0; k < a.count; k++) {
    if (a.slotsA[k] !== b.slotsA[k] || a.slotsB[k] !== b.slotsB[k]) return `pair ${k} differs`;
    if (a.trianglesA[k] !== b.trianglesA[k] || a.trianglesB[k] !== b.trianglesB[k]) return `ids ${k} differ`;
  }
  for (const f of ['pointA', 'normalA', 'pointB', 'normalB'] as const) {
    for (let c = 0; c < 3; c++)
      if (!Object.is(a[f][c], b[f][c])) return `${f}[${c}] ${a[f][c]} vs ${b[f][c]}`;
  }
  if (a.distinctA !== b.distinctA || a.distinctB !== b.distinctB) return 'distinct counts differ';
  return '';
}

describe('GpuMeshMesh (CPU backend): matrices', () => {
  it('refuses a matrix that is not exactly 16 numbers, naming it and its length', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const h = g.addMesh(sphere(1, 8, 6));
    const res = new MeshMeshResult();
    const m = pose(0.5, 0, 0);
    await expect(g.pairs(h, [...m, 0], h, null, res)).rejects.toThrow(
      /matrixA must be a 4x4 matrix .*17 numbers/,
    );
    await expect(g.pairs(h, null, h, m.slice(0, 15), res)).rejects.toThrow(
      /matrixB must be a 4x4 .*15 numbers/,
    );
    await expect(g.pairs(h, null, h, new Float64Array(32), res)).rejects.toThrow(/matrixB .*32 numbers/);
    await expect(
      g.pairsBatch([
        { a: h, matrixA: null, b: h, matrixB: m, result: res },
        { a: h, matrixA: null, b: h, matrixB: [...m, 1], result: new MeshMeshResult() },
      ]),
    ).rejects.toThrow(/queries\[1\]: matrixB must be a 4x4 matrix/);
    expect(await g.pairs(h, null, h, m, res)).toBeGreaterThan(0);
  });

  it('names the real problem: singular, too large or too small to invert in float64', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const h = g.addMesh(sphere(1, 8, 6));
    const res = new MeshMeshResult();
    const flat = pose(0, 0, 0);
    flat[10] = 0; // z squashed: singular at any scale
    await expect(g.pairs(h, flat, h, null, res)).rejects.toThrow(/matrixA is singular/);
    const huge = pose(0, 0, 0, 0.3, 1e200);
    await expect(g.pairs(h, huge, h, null, res)).rejects.toThrow(/matrixA is too large to invert in float64/);
    await expect(g.pairs(h, huge, h, null, res)).rejects.not.toThrow(/singular/);
    const tiny = pose(0, 0, 0, 0.3, 1e-120);
    await expect(g.pairs(h, null, h, tiny, res)).rejects.toThrow(/matrixB is too small to invert in float64/);
    const projective = pose(0, 0, 0);
    projective[3] = 1;
    await expect(g.pairs(h, projective, h, null, res)).rejects.toThrow(/not affine/);
    const nan = pose(0, 0, 0);
    nan[12] = Number.NaN;
    await expect(g.pairs(h, nan, h, null, res)).rejects.toThrow(/matrixA\[12\] is not finite/);
    // A large but workable scale still answers.
    expect(await g.pairs(h, pose(0, 0, 0, 0, 1e30), h, pose(0.5e30, 0, 0, 0, 1e30), res)).toBeGreaterThan(0);
  });
});

describe('GpuMeshMesh (CPU backend): after destroy()', () => {
  it('every method throws (a query rejects); destroy again does nothing', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const bvh = sphere(1, 8, 6);
    const h = g.addMesh(bvh);
    const res = new MeshMeshResult();
    g.destroy();
    expect(() => g.addMesh(bvh)).toThrow(/GpuMeshMesh\.addMesh: used after destroy\(\)/);
    expect(() => g.updateMesh(h)).toThrow(/GpuMeshMesh\.updateMesh: used after destroy\(\)/);
    expect(() => g.removeMesh(h)).toThrow(/GpuMeshMesh\.removeMesh: used after destroy\(\)/);
    await expect(g.pairs(h, null, h, null, res)).rejects.toThrow(
      /GpuMeshMesh\.pairs: used after destroy\(\)/,
    );
    await expect(g.pairsBatch([])).rejects.toThrow(/GpuMeshMesh\.pairsBatch: used after destroy\(\)/);
    expect(() => g.destroy()).not.toThrow();
    expect(res.count).toBe(0); // nothing was written
  });
});

describe('GpuMeshMesh (CPU backend): pair order', () => {
  it('sorted by (slot of A, slot of B), hit data those of meshMeshBruteForce, with and without bruteForce', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const a = sphere(1, 24, 16);
    const b = sphere(0.7, 18, 12);
    const ha = g.addMesh(a);
    const hb = g.addMesh(b);
    const got = new MeshMeshResult();
    const ref = new MeshMeshResult();
    const traversal = new MeshMeshResult();
    let checked = 0;
    let reordered = 0;
    for (let i = 0; i < 8; i++) {
      const ma = i % 2 === 0 ? null : pose(0.1 * i, -0.05 * i, 0.02 * i, 0.4 * i);
      const mb = pose(0.9 - 0.1 * i, 0.2, 0.1 * (i % 3), 0.7 * i, i % 3 === 0 ? 1.3 : 1);
      meshMeshBruteForce(a, ma, b, mb, ref);
      meshMeshPairs(a, ma, b, mb, traversal);
      for (const bruteForce of [false, true]) {
        const n = await g.pairs(ha, ma, hb, mb, got, { bruteForce });
        expect(n).toBe(ref.count);
        expect(sameResult(got, ref), `pose ${i}, bruteForce ${bruteForce}`).toBe('');
        for (let k = 1; k < got.count; k++) {
          const before = got.slotsA[k - 1] * b.triangleCount + got.slotsB[k - 1];
          expect(got.slotsA[k] * b.triangleCount + got.slotsB[k]).toBeGreaterThan(before);
        }
        checked += got.count;
      }
      for (let k = 0; k < traversal.count; k++) {
        if (traversal.slotsA[k] !== ref.slotsA[k] || traversal.slotsB[k] !== ref.slotsB[k]) {
          reordered++;
          break;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
    // The traversal order does differ from slot order on these poses: the sort is what makes them equal.
    expect(reordered).toBeGreaterThan(0);
  });

  it('the same order from a batch', async () => {
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const a = sphere(1, 16, 10);
    const b = sphere(0.8, 12, 8);
    const ha = g.addMesh(a);
    const hb = g.addMesh(b);
    const queries = [0, 1, 2].map((i) => ({
      a: ha,
      matrixA: null,
      b: hb,
      matrixB: pose(0.8 + 0.1 * i, 0.1 * i, 0, 0.5 * i),
      result: new MeshMeshResult(),
      bruteForce: i === 1,
    }));
    await g.pairsBatch(queries);
    const ref = new MeshMeshResult();
    for (const q of queries) {
      meshMeshBruteForce(a, q.matrixA, b, q.matrixB, ref);
      expect(ref.count).toBeGreaterThan(0);
      expect(sameResult(q.result, ref)).toBe('');
    }
  });
});
