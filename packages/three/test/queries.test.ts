/**
 * The mesh queries against references: brute force over every triangle, an independent
 * high-precision segment–triangle distance, three.js's own Octree for the capsule push-out, and the
 * examples of the API documentation.
 */
import { meshMeshBruteForce } from '@sieve/core';
import {
  Box3,
  BoxGeometry,
  type BufferGeometry,
  Matrix4,
  Mesh,
  PlaneGeometry,
  Raycaster,
  Sphere,
  SphereGeometry,
  TorusKnotGeometry,
  Triangle,
  Vector3,
} from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { Octree } from 'three/examples/jsm/math/Octree.js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import {
  BoundsTree,
  boxContacts,
  CapsuleCastHit,
  capsuleCast,
  capsuleContacts,
  capsuleIntersect,
  closestPointToPoint,
  computeBoundsTree,
  intersectsBox,
  intersectsCapsule,
  intersectsSphere,
  MeshContacts,
  MeshMeshResult,
  meshesIntersect,
  meshTrianglePairs,
  sphereContacts,
} from '../src/index.js';
import { knot, place, rng, soup, terrain, worldMatrices } from './scenes.js';

/**
 * Random capsules per world matrix in the brute-force comparisons of the contacts, and the contacts
 * they find at least (some of them do touch the mesh).
 */
const CAPSULES = depth(10, 25);
const MIN_CONTACTS = depth(5, 20);

function withTree(g: BufferGeometry, m = new Matrix4()): Mesh {
  computeBoundsTree.call(g);
  return place(new Mesh(g), m);
}

/** World triangles of a mesh (index, vertices), degenerate ones included. */
function worldTriangles(mesh: Mesh): Array<[number, Triangle]> {
  const g = mesh.geometry;
  const pos = g.attributes.position;
  const idx = g.index;
  const n = (idx ? idx.count : pos.count) / 3;
  const out: Array<[number, Triangle]> = [];
  for (let t = 0; t < n; t++) {
    const v = [0, 1, 2].map((k) =>
      new Vector3()
        .fromBufferAttribute(pos, idx ? idx.getX(3 * t + k) : 3 * t + k)
        .applyMatrix4(mesh.matrixWorld),
    );
    out.push([t, new Triangle(v[0], v[1], v[2])]);
  }
  return out;
}

function degenerate(t: Triangle): boolean {
  const e1 = t.b.clone().sub(t.a);
  const e2 = t.c.clone().sub(t.a);
  return e1.clone().cross(e2).lengthSq() <= 1e-24 * e1.lengthSq() * e2.lengthSq();
}

/**
 * Steps of the golden-section search below: each narrows the interval by 0.618, so 100 steps (the
 * standard depth) already narrow it to 1e-21 of the segment, far below a double's precision.
 */
const GOLDEN_STEPS = depth(100, 200);

/**
 * Independent reference: distance of a segment to a triangle by golden-section search on the segment
 * parameter of the (convex) point–triangle distance, three.js's `Triangle.closestPointToPoint`.
 */
function segmentTriangleDistance(a: Vector3, b: Vector3, t: Triangle): number {
  const q = new Vector3();
  const p = new Vector3();
  const f = (u: number) => t.closestPointToPoint(p.lerpVectors(a, b, u), q).distanceTo(p);
  let lo = 0;
  let hi = 1;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < GOLDEN_STEPS; i++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(f(0.5 * (lo + hi)), f(0), f(1));
}

describe('capsule contacts', () => {
  const meshes: Array<[string, () => BufferGeometry]> = [
    ['torus knot', () => knot(1, 48, 8)],
    ['terrain', () => terrain(16, 5)],
    ['soup with degenerate triangles', () => soup(300, 9)],
  ];
  for (const [name, make] of meshes) {
    it(`${name}: the tree finds what brute force finds, at the reference distance`, () => {
      const g = make();
      let contacts = 0;
      for (const [, m] of worldMatrices()) {
        const mesh = withTree(g, m);
        const r = rng(contacts + 17);
        const box = new Box3().setFromObject(mesh);
        const size = box.getSize(new Vector3());
        for (let i = 0; i < CAPSULES; i++) {
          const a = new Vector3(r(), r(), r()).multiply(size).add(box.min);
          const b = a
            .clone()
            .add(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(size.length() * 0.3));
          const capsule = new Capsule(a, i % 5 === 0 ? a.clone() : b, 0.02 + 0.2 * r());
          const out = new MeshContacts();
          capsuleContacts(mesh, capsule, out);
          const found = new Map<number, number>();
          for (let k = 0; k < out.count; k++) found.set(out.triangles[k], out.depths[k]);
          for (const [t, tri] of worldTriangles(mesh)) {
            if (degenerate(tri)) {
              expect(found.has(t)).toBe(false);
              continue;
            }
            const d = segmentTriangleDistance(capsule.start, capsule.end, tri);
            const slack = 1e-7 * capsule.radius;
            if (d < capsule.radius - slack) expect(found.has(t), `triangle ${t} at ${d}`).toBe(true);
            if (d > capsule.radius + slack) expect(found.has(t), `triangle ${t} at ${d}`).toBe(false);
            if (found.has(t) && d > 1e-6) {
              expect(found.get(t)).toBeCloseTo(capsule.radius - d, 6);
            }
          }
          expect(intersectsCapsule(mesh, capsule)).toBe(out.count > 0);
          contacts += out.count;
        }
      }
      expect(contacts).toBeGreaterThan(MIN_CONTACTS);
    });
  }

  it('moving the capsule by depth·normal separates it from that triangle', () => {
    const r = rng(12);
    let checked = 0;
    for (const [, m] of worldMatrices()) {
      const mesh = withTree(terrain(8, 2), m);
      const tris = new Map(worldTriangles(mesh));
      const box = new Box3().setFromObject(mesh);
      const size = box.getSize(new Vector3());
      const out = new MeshContacts();
      for (let i = 0; i < 100; i++) {
        const a = new Vector3(r(), r(), r()).multiply(size).add(box.min);
        const b = a.clone().add(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(3));
        const capsule = new Capsule(a, b, 0.1 + 0.5 * r());
        capsuleContacts(mesh, capsule, out);
        for (let k = 0; k < out.count; k++) {
          const n = new Vector3(out.normals[3 * k], out.normals[3 * k + 1], out.normals[3 * k + 2]);
          expect(n.length()).toBeCloseTo(1, 12);
          const moved = capsule.clone().translate(n.multiplyScalar(out.depths[k]));
          const d = segmentTriangleDistance(moved.start, moved.end, tris.get(out.triangles[k])!);
          expect(d).toBeGreaterThan(capsule.radius - 1e-9);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('a segment through a floor: the face normal, and a depth that clears the plane', () => {
    const floor = withTree(new PlaneGeometry(10, 10, 4, 4).rotateX(-Math.PI / 2));
    const out = new MeshContacts();
    for (const [y0, y1] of [
      [0.3, 1.5],
      [-0.2, 1],
      [0, 0],
      [-0.5, 0.2],
    ]) {
      const capsule = new Capsule(new Vector3(0.3, y0, 0.2), new Vector3(0.3, y1, 0.2), 0.35);
      capsuleContacts(floor, capsule, out);
      let pierced = 0;
      for (let k = 0; k < out.count; k++) {
        // The triangle under the capsule (the others touch it with their edges, sideways).
        const px = out.points[3 * k];
        const pz = out.points[3 * k + 2];
        if (Math.abs(px - 0.3) > 1e-9 || Math.abs(pz - 0.2) > 1e-9) continue;
        pierced++;
        expect(out.normals[3 * k + 1]).toBe(1);
        expect(Math.min(y0, y1) + out.depths[k]).toBeCloseTo(0.35, 12);
      }
      expect(pierced).toBe(1);
    }
    const above = new Capsule(new Vector3(0, 0.36, 0), new Vector3(0, 2, 0), 0.35);
    expect(capsuleContacts(floor, above, out)).toBe(0);
  });
});

describe('capsuleIntersect (the Octree push-out)', () => {
  it('pushes the capsule out of the level, as three.js Octree.capsuleIntersect does', () => {
    const level = withTree(terrain(20, 4, 1.5));
    const octree = new Octree().fromGraphNode(level);
    const r = rng(3);
    const out = new MeshContacts();
    const deepest = (c: Capsule) => {
      capsuleContacts(level, c, out);
      let m = 0;
      for (let k = 0; k < out.count; k++) m = Math.max(m, out.depths[k]);
      return m;
    };
    let compared = 0;
    let pushed = 0;
    let clear = 0;
    let upwards = 0;
    for (let i = 0; i < 200; i++) {
      const x = (r() - 0.5) * 16;
      const z = (r() - 0.5) * 16;
      const y = (r() - 0.5) * 3;
      const capsule = new Capsule(new Vector3(x, y, z), new Vector3(x, y + 1, z), 0.35);
      const ours = capsuleIntersect(level, capsule);
      const theirs = octree.capsuleIntersect(capsule);
      // Where the segment crosses the surface, the push is upwards, out of the terrain (the Octree's
      // too, but where its edge test pushes down).
      const down = new Raycaster(new Vector3(x, 100, z), new Vector3(0, -1, 0));
      const ground = down.intersectObject(level)[0]?.point.y ?? -Infinity;
      if (y < ground && y + 1 > ground) {
        expect(ours).not.toBe(false);
        if (ours) expect(ours.normal.y).toBeGreaterThan(0);
        if (theirs && theirs.normal.y > 0) upwards++;
        compared++;
      }
      // Pushes one after the other (the FPS example pushes once a sub-step): no penetration is left.
      const c = capsule.clone();
      for (let n = 0; n < 20; n++) {
        const push = capsuleIntersect(level, c);
        if (!push) break;
        pushed++;
        c.translate(push.normal.clone().multiplyScalar(push.depth));
      }
      // One-sided, as the Octree: a capsule entirely below the surface is left there.
      if (y + 1 > ground) {
        expect(deepest(c)).toBeLessThan(1e-6);
        clear++;
      }
    }
    expect(clear).toBeGreaterThan(100);
    expect(compared).toBeGreaterThan(10);
    expect(upwards).toBeGreaterThan(compared / 2);
    expect(pushed).toBeGreaterThan(50);
  });
});

describe('capsuleCast', () => {
  it('never tunnels through a thin wall, whatever the step', () => {
    const wall = withTree(new BoxGeometry(0.02, 4, 4));
    const hit = new CapsuleCastHit();
    for (const step of [0.1, 1, 10, 1e3, 1e5]) {
      const capsule = new Capsule(new Vector3(-2, 0, 0), new Vector3(-2, 1, 0), 0.5);
      expect(capsuleCast(wall, capsule, new Vector3(step, 0, 0), hit)).toBe(step > 1.49);
      if (hit.hit) {
        expect(hit.fraction * step).toBeCloseTo(2 - 0.01 - 0.5, 6);
        expect(hit.normal.x).toBeCloseTo(-1, 9);
        expect(hit.point.x).toBeCloseTo(-0.01, 9);
      }
    }
  });

  it('stops at the first contact: just before it the capsule is clear, at it the capsule touches', () => {
    const r = rng(8);
    for (const [, m] of worldMatrices().slice(0, 3)) {
      const mesh = withTree(knot(1, 48, 8), m);
      const box = new Box3().setFromObject(mesh);
      const center = box.getCenter(new Vector3());
      let hits = 0;
      for (let i = 0; i < 40; i++) {
        const dir = new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).normalize();
        const start = center.clone().addScaledVector(dir, 4);
        const capsule = new Capsule(start, start.clone().add(new Vector3(0, 0.4, 0)), 0.1 + 0.1 * r());
        const motion = dir
          .clone()
          .multiplyScalar(-8)
          .add(new Vector3(r() - 0.5, r() - 0.5, r() - 0.5));
        const hit = new CapsuleCastHit();
        const out = new MeshContacts();
        if (capsuleCast(mesh, capsule, motion, hit)) {
          hits++;
          expect(hit.startedInContact).toBe(false);
          const before = capsule.clone().translate(motion.clone().multiplyScalar(hit.fraction * (1 - 1e-6)));
          // Slightly before the contact fraction: only grazing contacts (within the tolerance).
          capsuleContacts(mesh, before, out);
          for (let k = 0; k < out.count; k++) expect(out.depths[k]).toBeLessThan(1e-6);
          const at = capsule.clone().translate(motion.clone().multiplyScalar(hit.fraction));
          expect(closestPointToPoint(mesh, hit.point)?.distance).toBeLessThan(1e-9);
          // The contact point is within the radius of the capsule's segment at the contact.
          const seg = at.start.clone();
          const onSeg = new Vector3();
          const line = at.end.clone().sub(seg);
          const u = Math.max(0, Math.min(1, hit.point.clone().sub(seg).dot(line) / line.lengthSq()));
          onSeg.copy(seg).addScaledVector(line, u);
          expect(onSeg.distanceTo(hit.point)).toBeCloseTo(at.radius, 5);
        } else {
          // No contact: sampled along the way, the capsule never penetrates.
          for (let s = 0; s <= 64; s++) {
            const p = capsule.clone().translate(motion.clone().multiplyScalar(s / 64));
            capsuleContacts(mesh, p, out);
            for (let k = 0; k < out.count; k++) expect(out.depths[k]).toBeLessThan(1e-6);
          }
        }
      }
      expect(hits).toBeGreaterThan(10);
    }
  });

  it('slides along a floor it rests on, and stops when pressed into it', () => {
    const floor = withTree(new PlaneGeometry(20, 20, 8, 8).rotateX(-Math.PI / 2));
    const capsule = new Capsule(new Vector3(0, 0.35, 0), new Vector3(0, 1.35, 0), 0.35);
    const hit = new CapsuleCastHit();
    expect(capsuleCast(floor, capsule, new Vector3(3, 0, 1), hit)).toBe(false);
    expect(capsuleCast(floor, capsule, new Vector3(3, 0.5, 1), hit)).toBe(false);
    expect(capsuleCast(floor, capsule, new Vector3(1, -0.5, 0), hit)).toBe(true);
    expect(hit.fraction).toBe(0);
    expect(hit.startedInContact).toBe(true);
    expect(hit.normal.y).toBeCloseTo(1, 12);
  });
});

describe('closestPointToPoint', () => {
  it('equals brute force under any world matrix', () => {
    const g = knot(1, 48, 8);
    const r = rng(4);
    for (const [, m] of worldMatrices()) {
      const mesh = withTree(g, m);
      const tris = worldTriangles(mesh).filter(([, t]) => !degenerate(t));
      for (let i = 0; i < 30; i++) {
        const p = new Vector3(r() - 0.5, r() - 0.5, r() - 0.5).multiplyScalar(8);
        let best = Infinity;
        const q = new Vector3();
        for (const [, t] of tris) best = Math.min(best, t.closestPointToPoint(p, q).distanceTo(p));
        const hit = closestPointToPoint(mesh, p);
        expect(hit).not.toBeNull();
        expect(hit!.distance).toBeCloseTo(best, 12);
        expect(hit!.point.distanceTo(p)).toBeCloseTo(best, 12);
        const t = tris.find(([k]) => k === hit!.faceIndex)![1];
        expect(t.closestPointToPoint(p, q).distanceTo(p)).toBeCloseTo(best, 12);
        // Thresholds.
        expect(closestPointToPoint(mesh, p, undefined, 0, best * 0.99)).toBeNull();
        expect(closestPointToPoint(mesh, p, undefined, 0, best * 1.01)!.distance).toBe(hit!.distance);
        const early = closestPointToPoint(mesh, p, undefined, best * 10);
        expect(early!.distance).toBeLessThan(best * 10);
      }
    }
  });
});

describe('mesh–mesh, sphere and box', () => {
  it('meshTrianglePairs and meshesIntersect agree with brute force under world matrices', () => {
    const a = withTree(knot(1, 48, 8));
    const b = withTree(new TorusKnotGeometry(0.8, 0.25, 40, 6));
    const pairs = new MeshMeshResult();
    const brute = new MeshMeshResult();
    let total = 0;
    for (const [, ma] of worldMatrices()) {
      for (const [, mb] of worldMatrices().slice(0, 3)) {
        place(a, ma);
        place(b, mb);
        const n = meshTrianglePairs(a, b, pairs);
        const treeA = (a.geometry as unknown as { boundsTree: BoundsTree }).boundsTree;
        const treeB = (b.geometry as unknown as { boundsTree: BoundsTree }).boundsTree;
        const m = meshMeshBruteForce(treeA.bvh, ma.elements, treeB.bvh, mb.elements, brute);
        const key = (r: MeshMeshResult, k: number) => `${r.trianglesA[k]}:${r.trianglesB[k]}`;
        const got = new Set(Array.from({ length: n }, (_, k) => key(pairs, k)));
        const want = new Set(Array.from({ length: m }, (_, k) => key(brute, k)));
        expect(got).toEqual(want);
        expect(meshesIntersect(a, b)).toBe(m > 0);
        // The local form: B placed in A's frame.
        const bToA = ma.clone().invert().multiply(mb);
        expect(treeA.intersectsGeometry(b.geometry, bToA)).toBe(m > 0);
        total += n;
      }
    }
    expect(total).toBeGreaterThan(100);
  });

  it('intersectsGeometry builds (and keeps) a tree for a geometry without one', () => {
    const tree = new BoundsTree(new TorusKnotGeometry());
    const other = new TorusKnotGeometry();
    expect(tree.intersectsGeometry(other, new Matrix4().makeTranslation(0.5, 0, 0))).toBe(true);
    expect(tree.intersectsGeometry(other, new Matrix4().makeTranslation(10, 0, 0))).toBe(false);
    expect((other as { boundsTree?: unknown }).boundsTree).toBeUndefined();
  });

  it('sphere and box contacts on a floor', () => {
    const floor = withTree(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
    const contacts = new MeshContacts();
    expect(sphereContacts(floor, new Sphere(new Vector3(0, 0.4, 0), 0.5), contacts)).toBe(2);
    expect(contacts.normals[1]).toBe(1);
    expect(contacts.depths[0]).toBeCloseTo(0.1, 12);
    expect(intersectsSphere(floor, new Sphere(new Vector3(0, 0.6, 0), 0.5))).toBe(false);
    const crate = new Box3(new Vector3(-0.5, -0.5, -0.5), new Vector3(0.5, 0.5, 0.5));
    expect(boxContacts(floor, crate, new Matrix4().makeTranslation(0, 0.4, 0), contacts)).toBeGreaterThan(0);
    expect(contacts.depths[0]).toBeCloseTo(0.1, 12);
    expect(intersectsBox(floor, crate, new Matrix4().makeTranslation(0, 0.6, 0))).toBe(false);
    const tree = new BoundsTree(new PlaneGeometry(2, 2));
    const small = new Box3(new Vector3(-0.1, -0.1, -0.1), new Vector3(0.1, 0.1, 0.1));
    expect(tree.intersectsBox(small, new Matrix4().makeTranslation(0, 0, 0.05))).toBe(true);
    expect(tree.intersectsBox(small, new Matrix4().makeTranslation(0, 0, 0.15))).toBe(false);
    expect(new BoundsTree(new TorusKnotGeometry()).intersectsSphere(new Sphere(new Vector3(), 0.1))).toBe(
      false,
    );
    const ball = new BoundsTree(new SphereGeometry(1, 32, 16));
    expect(ball.closestPointToPoint(new Vector3(0, 3, 0))!.distance).toBeCloseTo(2, 12);
  });
});

describe('the documented examples', () => {
  it('capsuleCast through a thin wall', () => {
    const wall = withTree(new BoxGeometry(0.1, 4, 4));
    const player = new Capsule(new Vector3(-2, 0.5, 0), new Vector3(-2, 1.5, 0), 0.5);
    const hit = new CapsuleCastHit();
    capsuleCast(wall, player, new Vector3(10, 0, 0), hit);
    expect(hit.fraction.toFixed(3)).toBe('0.145');
    expect(hit.normal.x).toBe(-1);
  });

  it('capsuleIntersect as in the FPS example', () => {
    const level = withTree(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2));
    const player = new Capsule(new Vector3(0, 0.3, 0), new Vector3(0, 1.5, 0), 0.35);
    const result = capsuleIntersect(level, player);
    expect(result).not.toBe(false);
    if (result) player.translate(result.normal.multiplyScalar(result.depth));
    expect(player.start.y.toFixed(2)).toBe('0.35');
    const contacts = new MeshContacts();
    capsuleContacts(level, new Capsule(new Vector3(0, 0.3, 0), new Vector3(0, 1.5, 0), 0.35), contacts);
    expect(contacts.count).toBe(2);
    expect(contacts.depths[0].toFixed(2)).toBe('0.05');
  });

  it('mesh pairs and closest point', () => {
    const a = withTree(new TorusKnotGeometry());
    const b = withTree(new TorusKnotGeometry());
    b.matrixAutoUpdate = true;
    b.position.set(0.5, 0, 0);
    b.updateMatrixWorld();
    expect(meshesIntersect(a, b)).toBe(true);
    const pairs = new MeshMeshResult();
    expect(meshTrianglePairs(a, b, pairs)).toBeGreaterThan(0);
    const ball = withTree(new SphereGeometry(1, 32, 16));
    expect(closestPointToPoint(ball, new Vector3(0, 3, 0))!.distance.toFixed(3)).toBe('2.000');
  });
});
