/**
 * Seeded cannon-es worlds for the tests: mixed shapes, filter masks, sleeping, compound bodies.
 */
import * as CANNON from 'cannon-es';
import { rng } from '../../core/test/support/rng.js';

export { rng };

/** A closed box mesh (12 triangles, outward winding) as a cannon Trimesh. */
export function boxTrimesh(hx: number, hy: number, hz: number): CANNON.Trimesh {
  const v = [
    [-hx, -hy, -hz],
    [hx, -hy, -hz],
    [hx, hy, -hz],
    [-hx, hy, -hz],
    [-hx, -hy, hz],
    [hx, -hy, hz],
    [hx, hy, hz],
    [-hx, hy, hz],
  ].flat();
  // biome-ignore format: two triangles a face, one face a line
  const f = [
    0, 2, 1, 0, 3, 2, // -z
    4, 5, 6, 4, 6, 7, // +z
    0, 1, 5, 0, 5, 4, // -y
    3, 7, 6, 3, 6, 2, // +y
    0, 4, 7, 0, 7, 3, // -x
    1, 2, 6, 1, 6, 5, // +x
  ];
  return new CANNON.Trimesh(v, f);
}

/** A flat square floor at y = 0 made of (2n)² triangles facing +y, `half` wide. */
export function floorTrimesh(half: number, n = 2): CANNON.Trimesh {
  const verts: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) verts.push(-half + (2 * half * i) / n, 0, -half + (2 * half * j) / n);
  }
  const at = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      // (x, z) grid; normal (b−a)×(c−a) must point +y.
      idx.push(at(i, j), at(i, j + 1), at(i + 1, j));
      idx.push(at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
    }
  }
  return new CANNON.Trimesh(verts, idx);
}

/** cannon's NaiveBroadphase on bounding boxes: the reference SieveBroadphase equals pair for pair. */
export function naiveBoxes(): CANNON.NaiveBroadphase {
  const bp = new CANNON.NaiveBroadphase();
  bp.useBoundingBoxes = true;
  return bp;
}

/**
 * Resets the id counters cannon keeps per class, so builds of one scene get the same ids (and body ids
 * stay under the 32 767 that stock cannon's contact events can name).
 */
export function resetIds(): void {
  CANNON.Body.idCounter = 0;
  CANNON.Shape.idCounter = 0;
  (CANNON.Constraint as unknown as { idCounter: number }).idCounter = 0;
  (CANNON.Equation as unknown as { idCounter: number }).idCounter = 0;
  (CANNON.Material as unknown as { idCounter: number }).idCounter = 0;
  (CANNON.ContactMaterial as unknown as { idCounter: number }).idCounter = 0;
}

export interface MixedWorldOptions {
  seed: number;
  count: number;
  broadphase: CANNON.Broadphase;
  allowSleep?: boolean;
  gravity?: number;
  /** Half width of the spawn region. */
  spread?: number;
}

/** A world with a ground plane, a heightfield, a static trimesh, and `count` mixed dynamic bodies. */
export function mixedWorld(o: MixedWorldOptions): CANNON.World {
  // Stock cannon packs two body ids into one 32-bit key for its contact events, so ids past 32 767
  // decode to bodies that do not exist. Test files share a process and create far more bodies than
  // that, so every world starts its ids at 0, as a fresh page would.
  resetIds();
  const r = rng(o.seed);
  const world = new CANNON.World({
    gravity: new CANNON.Vec3(0, o.gravity ?? -9.82, 0),
    broadphase: o.broadphase,
  });
  world.allowSleep = o.allowSleep ?? true;
  const spread = o.spread ?? 6;
  const plane = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  plane.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(plane);
  // A heightfield patch at one side.
  const data: number[][] = [];
  for (let i = 0; i < 8; i++) {
    data.push([]);
    for (let j = 0; j < 8; j++) data[i].push(0.3 * Math.sin(i * 0.7) * Math.cos(j * 0.5));
  }
  const hf = new CANNON.Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 1 }) });
  hf.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  hf.position.set(-spread, 0.05, spread);
  world.addBody(hf);
  // A static trimesh ramp.
  const ramp = new CANNON.Body({ mass: 0, shape: boxTrimesh(2, 0.2, 2) });
  ramp.position.set(spread * 0.5, 0.5, -spread * 0.5);
  ramp.quaternion.setFromEuler(0.2, 0, 0.1);
  world.addBody(ramp);
  for (let i = 0; i < o.count; i++) {
    const kind = Math.floor(r() * 6);
    const body = new CANNON.Body({ mass: 1 });
    if (kind === 0) body.addShape(new CANNON.Sphere(0.2 + 0.3 * r()));
    else if (kind === 1)
      body.addShape(new CANNON.Box(new CANNON.Vec3(0.2 + 0.3 * r(), 0.2 + 0.3 * r(), 0.2 + 0.3 * r())));
    else if (kind === 2) body.addShape(new CANNON.Cylinder(0.3, 0.3, 0.6, 8));
    else if (kind === 3) {
      // Compound: two spheres and a box, off-centre.
      body.addShape(new CANNON.Sphere(0.25), new CANNON.Vec3(0.4, 0, 0));
      body.addShape(new CANNON.Sphere(0.25), new CANNON.Vec3(-0.4, 0, 0));
      body.addShape(new CANNON.Box(new CANNON.Vec3(0.3, 0.1, 0.1)), new CANNON.Vec3(0, 0.2, 0));
    } else if (kind === 4) body.addShape(boxTrimesh(0.3, 0.3, 0.3));
    else {
      body.addShape(new CANNON.Sphere(0.3));
      body.type = r() < 0.5 ? CANNON.Body.KINEMATIC : CANNON.Body.DYNAMIC;
      if (body.type === CANNON.Body.KINEMATIC) body.velocity.set(r() - 0.5, 0, r() - 0.5);
    }
    // Filter groups: three groups, one of them ignoring another.
    const g = 1 << Math.floor(r() * 3);
    body.collisionFilterGroup = g;
    body.collisionFilterMask = g === 4 ? ~2 : -1;
    if (r() < 0.1) body.collisionResponse = false;
    body.position.set((r() * 2 - 1) * spread, 0.5 + r() * 6, (r() * 2 - 1) * spread);
    body.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
    body.velocity.set(r() - 0.5, r() - 0.5, r() - 0.5);
    body.sleepSpeedLimit = 0.3;
    body.sleepTimeLimit = 0.3;
    world.addBody(body);
  }
  return world;
}

/** Broadphase wrapper that records the pairs (body indices) it hands to the world each step. */
export function recordPairs(bp: CANNON.Broadphase): { last: number[] } {
  const rec = { last: [] as number[] };
  const inner = bp.collisionPairs.bind(bp);
  bp.collisionPairs = (world, p1, p2) => {
    inner(world, p1, p2);
    rec.last = [];
    for (let k = 0; k < p1.length; k++) rec.last.push(p1[k].index, p2[k].index);
  };
  return rec;
}

/** Positions, quaternions and velocities of every body, flattened. */
export function stateOf(world: CANNON.World): number[] {
  const out: number[] = [];
  for (const b of world.bodies) {
    out.push(b.position.x, b.position.y, b.position.z, b.quaternion.x, b.quaternion.y, b.quaternion.z);
    out.push(b.quaternion.w, b.velocity.x, b.velocity.y, b.velocity.z, b.sleepState);
  }
  return out;
}
