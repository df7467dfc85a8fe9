/**
 * Scenes for the cannon-es benchmark: mixed spheres and boxes at ~5 % volume fraction without gravity
 * (the scene), and trimesh bodies dropped on a trimesh floor.
 */
import * as CANNON from 'cannon-es';
import { rng } from '../lib/stats.js';

export type Stock = 'sap' | 'naive' | 'naive-boxes';

/** Sphere radius and box half extent of the mixed scene. */
const R = 0.5;
const H = 0.4;

/** Fills `world` with n mixed bodies (seeded): the same bodies whatever the world's broadphase. */
export function fillMixed(world: CANNON.World, n: number, seed: number): void {
  const r = rng(seed);
  const meanVolume = 0.5 * ((4 / 3) * Math.PI * R ** 3 + 8 * H ** 3);
  const side = Math.cbrt((n * meanVolume) / 0.05);
  for (let i = 0; i < n; i++) {
    const body = new CANNON.Body({
      mass: 1,
      shape: i % 2 === 0 ? new CANNON.Sphere(R) : new CANNON.Box(new CANNON.Vec3(H, H, H)),
      position: new CANNON.Vec3(r() * side, r() * side, r() * side),
      velocity: new CANNON.Vec3(r() - 0.5, r() - 0.5, r() - 0.5),
    });
    body.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
    body.aabbNeedsUpdate = true;
    world.addBody(body);
  }
}

/** A world without gravity and the given stock broadphase. */
export function stockWorld(kind: Stock): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  if (kind === 'sap') world.broadphase = new CANNON.SAPBroadphase(world);
  else {
    const bp = new CANNON.NaiveBroadphase();
    bp.useBoundingBoxes = kind === 'naive-boxes';
    world.broadphase = bp;
  }
  return world;
}

/** An icosphere-like closed mesh (subdivided octahedron, outward winding) of radius r. */
export function ballMesh(r: number, subdivisions = 2): CANNON.Trimesh {
  let verts: number[][] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
  ];
  let faces = [
    [0, 2, 4],
    [2, 1, 4],
    [1, 3, 4],
    [3, 0, 4],
    [2, 0, 5],
    [1, 2, 5],
    [3, 1, 5],
    [0, 3, 5],
  ];
  for (let s = 0; s < subdivisions; s++) {
    const mid = new Map<string, number>();
    const midpoint = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let m = mid.get(key);
      if (m === undefined) {
        const p = verts[a].map((x, k) => (x + verts[b][k]) / 2);
        const len = Math.hypot(p[0], p[1], p[2]);
        verts.push(p.map((x) => x / len));
        m = verts.length - 1;
        mid.set(key, m);
      }
      return m;
    };
    const next: number[][] = [];
    for (const [a, b, c] of faces) {
      const ab = midpoint(a, b);
      const bc = midpoint(b, c);
      const ca = midpoint(c, a);
      next.push([a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]);
    }
    faces = next;
  }
  verts = verts.map((v) => v.map((x) => x * r));
  return new CANNON.Trimesh(verts.flat(), faces.flat());
}

/** A flat trimesh floor at y = 0 (normal +y), 2n² triangles over [-half, half]². */
export function floorMesh(half: number, n: number): CANNON.Trimesh {
  const verts: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) verts.push(-half + (2 * half * i) / n, 0, -half + (2 * half * j) / n);
  }
  const at = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      idx.push(at(i, j), at(i, j + 1), at(i + 1, j));
      idx.push(at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
    }
  }
  return new CANNON.Trimesh(verts, idx);
}

/** `count` trimesh balls (128 triangles each) dropped in a heap on a trimesh floor, with gravity. */
export function trimeshPile(world: CANNON.World, count: number, seed: number): CANNON.Body[] {
  const r = rng(seed);
  world.gravity.set(0, -9.82, 0);
  world.addBody(new CANNON.Body({ mass: 0, shape: floorMesh(20, 16) }));
  const bodies: CANNON.Body[] = [];
  const ball = ballMesh(0.5); // shared: its BVH is built once
  const per = Math.ceil(Math.sqrt(count));
  for (let i = 0; i < count; i++) {
    const body = new CANNON.Body({
      mass: 1,
      shape: ball,
      position: new CANNON.Vec3(
        ((i % per) - per / 2) * 1.3 + r() * 0.2,
        1 + Math.floor(i / per) * 1.2,
        r() * 0.4,
      ),
    });
    world.addBody(body);
    bodies.push(body);
  }
  return bodies;
}
