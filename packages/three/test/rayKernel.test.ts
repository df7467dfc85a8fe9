/**
 * The WebAssembly ray walk's own edge cases, against three.js's `Mesh.raycast`: its float32 box test at
 * the ends of the coordinate range it takes (and past them, where the TypeScript walk answers), direction
 * components of zero and next to zero, rays through vertices along the axes (boxes touched exactly at
 * a face), and leaves of every size (triangles are tested two at a time, the last of an odd leaf alone).
 */
import {
  DoubleSide,
  FrontSide,
  type Intersection,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Raycaster,
  Vector3,
} from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceleratedRaycast, type BoundsTree, computeBoundsTree } from '../src/index.js';
import { configureRayKernel } from '../src/raycast/wasmTree.js';
import { caster, describe as hit, knot, place, raysFor, soup, terrain, worldMatrices } from './scenes.js';

const stock = Mesh.prototype.raycast;

function hits(mesh: Mesh, rc: Raycaster, ours: boolean, firstHitOnly = false): unknown[] {
  const out: Intersection[] = [];
  (rc as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = firstHitOnly;
  (ours ? acceleratedRaycast : stock).call(mesh, rc, out);
  return out.sort((a, b) => a.distance - b.distance).map(hit);
}

/** Every ray both ways (all hits, first hit) against three.js; returns the number of hits. */
function compare(mesh: Mesh, rays: Array<[Vector3, Vector3]>): number {
  let n = 0;
  for (const ray of rays) {
    const want = hits(mesh, caster(ray), false);
    expect(hits(mesh, caster(ray), true)).toEqual(want);
    expect(hits(mesh, caster(ray), true, true)).toEqual(want.slice(0, 1));
    n += want.length;
  }
  return n;
}

/** Rays from outside along each axis exactly through vertices (the other two components exactly 0). */
function axisRaysThroughVertices(mesh: Mesh, count: number): Array<[Vector3, Vector3]> {
  const pos = mesh.geometry.attributes.position;
  const out: Array<[Vector3, Vector3]> = [];
  mesh.geometry.computeBoundingSphere();
  const far = 4 * (mesh.geometry.boundingSphere?.radius ?? 1);
  for (let i = 0; i < count; i++) {
    const v = new Vector3().fromBufferAttribute(pos, (i * 7919) % pos.count);
    const axis = i % 3;
    const sign = i % 2 === 0 ? 1 : -1;
    const dir = new Vector3().setComponent(axis, sign);
    const origin = v.clone().addScaledVector(dir, -far);
    // The origin's other coordinates are the vertex's exactly: the ray touches boxes at their faces.
    out.push([origin, dir]);
  }
  return out;
}

/** Rays whose direction has components of 1e-30, 1e-21, 1e-19 and −1e-25 (after normalization). */
function nearlyAxisRays(mesh: Mesh, count: number, seed: number): Array<[Vector3, Vector3]> {
  const tiny = [1e-30, 1e-21, 1e-19, -1e-25, 0];
  return raysFor(mesh, count, seed).map(([o, d], i) => {
    const axis = i % 3;
    const dir = new Vector3().setComponent(axis, 1);
    dir.setComponent((axis + 1) % 3, tiny[i % tiny.length]);
    dir.setComponent((axis + 2) % 3, tiny[(i + 2) % tiny.length]);
    return [o.clone().addScaledVector(dir, -0.5 * o.distanceTo(d)), dir];
  });
}

describe('the WebAssembly walk', () => {
  beforeAll(() => configureRayKernel({ enabled: true, minTriangles: 0 }));
  afterAll(() => configureRayKernel({ enabled: true, minTriangles: 2048 }));

  it('walks these meshes (the kernel is on)', () => {
    const g = knot();
    const tree = computeBoundsTree.call(g) as BoundsTree;
    expect(tree.rayTree().wasm).not.toBeNull();
  });

  // 2¹⁰⁰ ≈ 1.3e30 and 2⁻¹⁰⁰ ≈ 7.9e-31 bound the kernel's float32 box test; outside, TypeScript walks.
  for (const scale of [1e29, 3e-29, 1e31, 1e-32, 1e36]) {
    it(`a torus knot scaled by ${scale}`, () => {
      const g = knot(scale, 48, 8);
      computeBoundsTree.call(g);
      let n = 0;
      let seed = 3;
      for (const [, m] of worldMatrices().slice(0, 3)) {
        for (const side of [FrontSide, DoubleSide]) {
          const mesh = place(new Mesh(g, new MeshBasicMaterial({ side })), m);
          n += compare(mesh, raysFor(mesh, 60, seed++));
          n += compare(mesh, axisRaysThroughVertices(mesh, 30));
        }
      }
      expect(n).toBeGreaterThan(50);
    });
  }

  it('direction components of zero and next to zero', () => {
    let n = 0;
    for (const g of [knot(), terrain(16, 5), soup(300, 9)]) {
      computeBoundsTree.call(g);
      for (const [, m] of [['identity', new Matrix4()], ...worldMatrices().slice(1, 3)] as Array<
        [string, Matrix4]
      >) {
        const mesh = place(new Mesh(g, new MeshBasicMaterial({ side: DoubleSide })), m);
        n += compare(mesh, nearlyAxisRays(mesh, 90, 21));
        n += compare(mesh, axisRaysThroughVertices(mesh, 60));
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it('leaves of every size from 1 to 9 (two triangles a test, an odd one alone)', () => {
    let n = 0;
    for (let leaf = 1; leaf <= 9; leaf++) {
      for (const make of [() => knot(1, 40, 8), () => soup(250, leaf)]) {
        const g = make();
        computeBoundsTree.call(g, { maxLeafSize: leaf });
        const mesh = place(new Mesh(g, new MeshBasicMaterial({ side: DoubleSide })), worldMatrices()[1][1]);
        n += compare(mesh, raysFor(mesh, 40, leaf));
      }
    }
    expect(n).toBeGreaterThan(200);
  });
});
