import { MeshBVH } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { hasTrimeshBVH, installSieve, trimeshBVH, uninstallSieve } from '../src/index.js';
import { boxTrimesh, floorTrimesh } from './worlds.js';

function world(): CANNON.World {
  return new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
}

function addFloor(w: CANNON.World): CANNON.Body {
  const floor = new CANNON.Body({ mass: 0, shape: floorTrimesh(10, 4) });
  w.addBody(floor);
  return floor;
}

function settle(
  w: CANNON.World,
  steps: number,
  watch: CANNON.Body[],
  bound: (b: CANNON.Body) => number,
): number {
  let minMargin = Number.POSITIVE_INFINITY;
  for (let s = 0; s < steps; s++) {
    w.step(1 / 60);
    for (const b of watch) minMargin = Math.min(minMargin, b.position.y - bound(b));
  }
  return minMargin;
}

const speed = (b: CANNON.Body) => Math.hypot(b.velocity.x, b.velocity.y, b.velocity.z);

describe('trimesh contacts', () => {
  it('stock cannon lets a box fall through a trimesh floor; with Sieve it rests on it', () => {
    for (const sieve of [false, true]) {
      const w = world();
      addFloor(w);
      const box = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)) });
      box.position.set(0.3, 2, -0.2);
      box.quaternion.setFromEuler(0.3, 0.2, 0.1);
      w.addBody(box);
      if (sieve) installSieve(w);
      settle(w, 240, [box], () => 0);
      if (!sieve) {
        expect(box.position.y).toBeLessThan(-1); // fell through: no box–trimesh contact in cannon-es
      } else {
        // Resting on a face: centre 0.5 above the floor, not sunk, at rest and level.
        expect(box.position.y).toBeGreaterThan(0.45);
        expect(box.position.y).toBeLessThan(0.52);
        expect(speed(box)).toBeLessThan(0.05);
      }
    }
  });

  it('a trimesh box dropped on the trimesh floor comes to rest on it', () => {
    const w = world();
    addFloor(w);
    const body = new CANNON.Body({ mass: 1, shape: boxTrimesh(0.5, 0.5, 0.5) });
    body.position.set(-0.7, 1.5, 0.4);
    body.quaternion.setFromEuler(0.4, 0.3, 0.2);
    w.addBody(body);
    installSieve(w);
    const margin = settle(w, 300, [body], () => 0.2);
    expect(margin).toBeGreaterThan(0); // never sank to 0.2 (centre) — a 0.5 half-size box
    expect(body.position.y).toBeGreaterThan(0.45);
    expect(body.position.y).toBeLessThan(0.52);
    expect(speed(body)).toBeLessThan(0.05);
    expect(hasTrimeshBVH(body.shapes[0] as CANNON.Trimesh)).toBe(true);
  });

  it('trimeshBVH hands out one MeshBVH per shape, the tree the contacts then query', () => {
    const w = world();
    const floor = addFloor(w);
    const body = new CANNON.Body({ mass: 1, shape: boxTrimesh(0.5, 0.5, 0.5) });
    body.position.set(0, 0.6, 0);
    w.addBody(body);
    installSieve(w);
    settle(w, 30, [body], () => 0); // the handlers build the trees first
    const shape = floor.shapes[0] as CANNON.Trimesh;
    const bvh = trimeshBVH(shape);
    expect(bvh).toBeInstanceOf(MeshBVH);
    expect(trimeshBVH(shape)).toBe(bvh);
    // The floor's tree moved down by 1 through the MeshBVH: the box follows it down.
    for (let k = 1; k < shape.vertices.length; k += 3) shape.vertices[k] -= 1;
    bvh.refit();
    settle(w, 120, [body], () => 0);
    expect(body.position.y).toBeLessThan(-0.4);
    expect(body.position.y).toBeGreaterThan(-0.6);
  });

  it('a stack of boxes on a trimesh floor stays stacked', () => {
    const w = world();
    addFloor(w);
    const boxes: CANNON.Body[] = [];
    for (let i = 0; i < 4; i++) {
      const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)) });
      b.position.set(0.05 * i, 0.5 + 1.02 * i, 0);
      w.addBody(b);
      boxes.push(b);
    }
    installSieve(w);
    settle(w, 300, boxes, () => 0);
    for (let i = 0; i < 4; i++) {
      expect(boxes[i].position.y).toBeGreaterThan(0.5 + i - 0.08);
      expect(boxes[i].position.y).toBeLessThan(0.5 + i + 0.05);
      expect(speed(boxes[i])).toBeLessThan(0.05);
    }
  });

  it('convex and cylinder bodies rest on a trimesh floor', () => {
    const w = world();
    addFloor(w);
    const cyl = new CANNON.Body({ mass: 1, shape: new CANNON.Cylinder(0.4, 0.4, 0.8, 12) });
    cyl.position.set(2, 1.5, 0);
    const verts = [
      new CANNON.Vec3(-0.5, -0.5, -0.5),
      new CANNON.Vec3(0.5, -0.5, -0.5),
      new CANNON.Vec3(0, -0.5, 0.5),
      new CANNON.Vec3(0, 0.5, 0),
    ];
    const tetra = new CANNON.ConvexPolyhedron({
      vertices: verts,
      faces: [
        [0, 1, 2],
        [0, 3, 1],
        [1, 3, 2],
        [2, 3, 0],
      ],
    });
    const tet = new CANNON.Body({ mass: 1, shape: tetra });
    tet.position.set(-2, 1.5, 0);
    w.addBody(cyl);
    w.addBody(tet);
    installSieve(w);
    settle(w, 300, [cyl, tet], () => 0);
    expect(cyl.position.y).toBeGreaterThan(0.3);
    expect(tet.position.y).toBeGreaterThan(0.05);
    expect(speed(cyl)).toBeLessThan(0.05);
    expect(speed(tet)).toBeLessThan(0.05);
  });

  it('uninstall restores the stock handlers (a trimesh box falls through again)', () => {
    const w = world();
    addFloor(w);
    const body = new CANNON.Body({ mass: 1, shape: boxTrimesh(0.5, 0.5, 0.5) });
    body.position.set(0, 0.6, 0);
    w.addBody(body);
    installSieve(w);
    settle(w, 60, [body], () => 0);
    expect(body.position.y).toBeGreaterThan(0.45);
    expect(uninstallSieve(w)).toBe(true);
    settle(w, 120, [body], () => 0);
    expect(body.position.y).toBeLessThan(0);
  });
});

describe('box–box prefilter', () => {
  it('gives stock cannon-es box–box results bit for bit', () => {
    const make = () => {
      const w = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
      const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(10, 0.5, 10)) });
      ground.position.set(0, -0.5, 0);
      ground.aabbNeedsUpdate = true;
      w.addBody(ground);
      for (let i = 0; i < 20; i++) {
        const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.3, 0.3, 0.3)) });
        b.position.set(((i * 7) % 5) * 0.5 - 1, 0.5 + i * 0.5, ((i * 3) % 4) * 0.5 - 1);
        b.quaternion.setFromEuler(i * 0.3, i * 0.7, i * 0.1);
        b.aabbNeedsUpdate = true;
        w.addBody(b);
      }
      return w;
    };
    const a = make();
    const b = make();
    installSieve(b, {
      broadphase: false,
      collisionMatrix: false,
      narrowphase: { trimesh: false, sphereBox: false },
    });
    let contacts = 0;
    for (let s = 0; s < 200; s++) {
      a.step(1 / 60);
      b.step(1 / 60);
      expect(b.contacts.length).toBe(a.contacts.length);
      contacts += a.contacts.length;
    }
    expect(contacts).toBeGreaterThan(1000);
    expect(b.bodies.map((x) => x.position.toArray())).toEqual(a.bodies.map((x) => x.position.toArray()));
  });
});
