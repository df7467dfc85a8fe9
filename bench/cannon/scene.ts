/**
 * Scenes for the cannon-es benchmark: mixed spheres and boxes at ~5 % volume fraction without gravity
 * (the scene), and trimesh bodies dropped on a trimesh floor.
 */
import * as CANNON from 'cannon-es';
import { ballMesh, floorMesh } from '../../examples/cannon-trimesh/src/scene.js';
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
