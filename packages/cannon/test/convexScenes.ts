/**
 * Seeded convex scenes for the convex-narrowphase tests: random hulls as mesh tools produce them
 * (12–24 points, triangulated faces), a hull pile on a box ground, box towers and hull stacks.
 */
import * as CANNON from 'cannon-es';
import { rng } from './worlds.js';

export { rng };

/**
 * The convex hull of points in general position as triangles (brute force: a triple is a face when
 * every other point lies behind its plane), outward-wound; unused points are dropped.
 */
export function hullOfPoints(points: number[][]): CANNON.ConvexPolyhedron {
  const n = points.length;
  const faces: number[][] = [];
  const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const u = sub(points[j], points[i]);
        const v = sub(points[k], points[i]);
        const nx = u[1] * v[2] - u[2] * v[1];
        const ny = u[2] * v[0] - u[0] * v[2];
        const nz = u[0] * v[1] - u[1] * v[0];
        let pos = 0;
        let neg = 0;
        for (let l = 0; l < n; l++) {
          if (l === i || l === j || l === k) continue;
          const w = sub(points[l], points[i]);
          const s = nx * w[0] + ny * w[1] + nz * w[2];
          if (s > 1e-12) pos++;
          else if (s < -1e-12) neg++;
        }
        if (pos === 0) faces.push([i, j, k]);
        else if (neg === 0) faces.push([i, k, j]);
      }
    }
  }
  const used = [...new Set(faces.flat())].sort((a, b) => a - b);
  const map = new Map(used.map((v, k) => [v, k]));
  // Centred on the vertex centroid, so the body's origin is inside the hull (cannon assumes it).
  const c = [0, 1, 2].map((a) => used.reduce((s, k) => s + points[k][a], 0) / used.length);
  return new CANNON.ConvexPolyhedron({
    vertices: used.map((k) => new CANNON.Vec3(points[k][0] - c[0], points[k][1] - c[1], points[k][2] - c[2])),
    faces: faces.map((f) => f.map((v) => map.get(v) as number)),
  });
}

/** A random hull of `count` points near an ellipsoid with semi-axes (ax, ay, az). */
export function randomHull(
  r: () => number,
  count: number,
  ax: number,
  ay: number,
  az: number,
): CANNON.ConvexPolyhedron {
  const pts: number[][] = [];
  for (let k = 0; k < count; k++) {
    // Uniform direction, radius jittered by ±10 %.
    const z = 2 * r() - 1;
    const phi = 2 * Math.PI * r();
    const s = Math.sqrt(1 - z * z);
    const rad = 0.9 + 0.2 * r();
    pts.push([ax * rad * s * Math.cos(phi), ay * rad * s * Math.sin(phi), az * rad * z]);
  }
  return hullOfPoints(pts);
}

/** A static box ground with its top face at y = 0. */
export function boxGround(world: CANNON.World, half = 20): CANNON.Body {
  const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(half, 0.5, half)) });
  ground.position.set(0, -0.5, 0);
  world.addBody(ground);
  return ground;
}

/**
 * The hull pile: `count` random hulls (12–24 points, about 0.3–0.5 across) dropped in a loose grid
 * on a box ground, with gravity. The same bodies for the same seed, whatever is installed. With
 * `boxes`, boxes of random proportions (0.15–0.45 half extents) instead.
 */
export function hullPile(count: number, seed: number, boxes = false): CANNON.World {
  const r = rng(seed);
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  boxGround(world);
  const per = Math.ceil(Math.sqrt(count / 4));
  for (let i = 0; i < count; i++) {
    const size = 0.3 + 0.2 * r();
    if (boxes) {
      const box = new CANNON.Box(new CANNON.Vec3(0.15 + 0.3 * r(), 0.15 + 0.3 * r(), 0.15 + 0.3 * r()));
      const body = new CANNON.Body({ mass: 1, shape: box });
      body.position.set(((i % per) - per / 2) * 1.05, 0.6 + Math.floor(i / (per * per)) * 1.05, 0);
      body.position.z = (Math.floor((i % (per * per)) / per) - per / 2) * 1.05;
      body.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
      world.addBody(body);
      continue;
    }
    const shape = randomHull(
      r,
      12 + Math.floor(r() * 13),
      size,
      size * (0.6 + 0.4 * r()),
      size * (0.7 + 0.3 * r()),
    );
    const body = new CANNON.Body({ mass: 1, shape });
    const layer = Math.floor(i / (per * per));
    const cell = i % (per * per);
    body.position.set(
      ((cell % per) - per / 2) * 1.05 + 0.1 * r(),
      0.6 + layer * 1.05,
      (Math.floor(cell / per) - per / 2) * 1.05 + 0.1 * r(),
    );
    body.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
    world.addBody(body);
  }
  return world;
}

/** A tower of `count` unit boxes (half extent h) on a box ground, each resting on the one below. */
export function boxTower(count: number, h = 0.5): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  boxGround(world);
  for (let i = 0; i < count; i++) {
    const body = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(h, h, h)) });
    body.position.set(0, h + 2 * h * i, 0);
    world.addBody(body);
  }
  return world;
}

/**
 * A stack of `count` hulls (jittered prisms: two rings of `ring` to `ringMax` points each, 12–20 points
 * by default, a wide flat base so they can stack) on a box ground, each resting on the one below.
 */
export function hullStack(count: number, seed: number, ring = 6, ringMax = 10): CANNON.World {
  const r = rng(seed);
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  boxGround(world);
  let y = 0;
  for (let i = 0; i < count; i++) {
    // A prism-like hull: two jittered rings of points, flat top and bottom.
    const pts: number[][] = [];
    const points = ring + Math.floor(r() * (ringMax - ring + 1));
    const h = 0.2 + 0.05 * r();
    const rad = 0.5 + 0.1 * r();
    for (let k = 0; k < points; k++) {
      const a = (2 * Math.PI * (k + 0.3 * r())) / points;
      // Heights jittered by 1e-6: general position for the brute-force hull, caps flat to the eye
      // (and triangulated, as mesh tools export them).
      pts.push([rad * Math.cos(a), -h + 1e-6 * r(), rad * Math.sin(a)]);
      pts.push([0.9 * rad * Math.cos(a + 0.2), h - 1e-6 * r(), 0.9 * rad * Math.sin(a + 0.2)]);
    }
    const shape = hullOfPoints(pts);
    const body = new CANNON.Body({ mass: 1, shape });
    body.position.set(0, y + h, 0);
    y += 2 * h;
    world.addBody(body);
  }
  return world;
}

/**
 * A stack of `count` frustum cylinders (cannon `Cylinder`, axis along y, `segments` sides) on a box
 * ground, each resting on the one below: the narrow top of one carries the wide bottom of the next.
 */
export function cylinderStack(
  count: number,
  radiusTop: number,
  radiusBottom: number,
  height: number,
  segments: number,
): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  boxGround(world);
  for (let i = 0; i < count; i++) {
    const shape = new CANNON.Cylinder(radiusTop, radiusBottom, height, segments);
    const body = new CANNON.Body({ mass: 1, shape });
    body.position.set(0, height / 2 + height * i, 0);
    world.addBody(body);
  }
  return world;
}

/**
 * A tower of ten boxes of different proportions (half extents 0.3–0.8 wide, 0.15–0.5 high), each
 * resting centred on the one below, on a box ground.
 */
export function mixedBoxTower(): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  boxGround(world);
  const halves = [
    [0.8, 0.3, 0.6],
    [0.5, 0.5, 0.5],
    [0.7, 0.2, 0.4],
    [0.3, 0.4, 0.3],
    [0.6, 0.25, 0.6],
    [0.4, 0.3, 0.5],
    [0.5, 0.15, 0.3],
    [0.35, 0.35, 0.35],
    [0.45, 0.2, 0.45],
    [0.3, 0.3, 0.3],
  ];
  let y = 0;
  for (const [x, h, z] of halves) {
    const body = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(x, h, z)) });
    body.position.set(0, y + h, 0);
    y += 2 * h;
    world.addBody(body);
  }
  return world;
}
