/**
 * Convex hulls for the hull tests and the cannon benchmark: random points on an ellipsoid turned into a
 * cannon-es `ConvexPolyhedron` (triangle faces, counter-clockwise around the outward normal, as
 * three-to-cannon and users' GLTF colliders give), and a 200-hull pile on a box ground. The hull is
 * found by brute force (every triple of points whose plane has all the others on one side), which is
 * exact for points in general position and small counts (≤ 32 points).
 */
import * as CANNON from 'cannon-es';
import { rng } from '../../core/test/support/rng.js';

/** A triangle-faced hull of `points` (flat x, y, z), or null when the points are degenerate. */
export function hullOf(points: number[]): CANNON.ConvexPolyhedron | null {
  const n = points.length / 3;
  const p = (i: number, k: number) => points[3 * i + k];
  const faces: number[][] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++) {
        const ax = p(j, 0) - p(i, 0);
        const ay = p(j, 1) - p(i, 1);
        const az = p(j, 2) - p(i, 2);
        const bx = p(k, 0) - p(i, 0);
        const by = p(k, 1) - p(i, 1);
        const bz = p(k, 2) - p(i, 2);
        const nx = ay * bz - az * by;
        const ny = az * bx - ax * bz;
        const nz = ax * by - ay * bx;
        let above = 0;
        let below = 0;
        for (let m = 0; m < n; m++) {
          if (m === i || m === j || m === k) continue;
          const d = nx * (p(m, 0) - p(i, 0)) + ny * (p(m, 1) - p(i, 1)) + nz * (p(m, 2) - p(i, 2));
          if (d > 0) above++;
          else if (d < 0) below++;
          else return null; // four coplanar points: not in general position
        }
        if (above === 0) faces.push([i, j, k]);
        else if (below === 0) faces.push([i, k, j]);
      }
  if (faces.length !== 2 * n - 4) return null;
  const vertices: CANNON.Vec3[] = [];
  for (let i = 0; i < n; i++) vertices.push(new CANNON.Vec3(p(i, 0), p(i, 1), p(i, 2)));
  return new CANNON.ConvexPolyhedron({ vertices, faces });
}

/**
 * A hull of `count` random points on the ellipsoid of semi-axes (rx, ry, rz) centred on the origin
 * (drawn again until the points are in general position).
 */
export function randomHull(
  random: () => number,
  count: number,
  rx: number,
  ry: number,
  rz: number,
): CANNON.ConvexPolyhedron {
  for (;;) {
    const pts: number[] = [];
    for (let i = 0; i < count; i++) {
      // A uniform direction (Marsaglia), scaled to the ellipsoid.
      let x = 0;
      let y = 0;
      let s = 2;
      while (s >= 1) {
        x = 2 * random() - 1;
        y = 2 * random() - 1;
        s = x * x + y * y;
      }
      const f = 2 * Math.sqrt(1 - s);
      pts.push(x * f * rx, y * f * ry, (1 - 2 * s) * rz);
    }
    // Centred on the points' mean, so the origin (cannon's centre of mass) is inside the hull.
    for (let k = 0; k < 3; k++) {
      let m = 0;
      for (let i = k; i < pts.length; i += 3) m += pts[i];
      m /= count;
      for (let i = k; i < pts.length; i += 3) pts[i] -= m;
    }
    const hull = hullOf(pts);
    if (hull) return hull;
  }
}

/** Options of {@link hullPile}. */
export interface HullPileOptions {
  /** Bodies. Default 200. */
  count?: number;
  /** Fewest and most points of a hull. Default 12 and 24. */
  minPoints?: number;
  maxPoints?: number;
  /** Distinct hull shapes the bodies share (cannon users share shapes). Default 16. */
  shapes?: number;
  /** Body shapes: hulls, boxes, or both alternately. Default 'hulls'. */
  kind?: 'hulls' | 'boxes' | 'mixed';
  seed?: number;
}

/**
 * A pile of convex hulls (or boxes) dropped in a loose column on a static box ground, with gravity:
 * the scene. Returns the world and the dynamic bodies.
 */
export function hullPile(
  world: CANNON.World,
  o: HullPileOptions = {},
): { world: CANNON.World; bodies: CANNON.Body[] } {
  const count = o.count ?? 200;
  const r = rng(o.seed ?? 29);
  const kind = o.kind ?? 'hulls';
  world.gravity.set(0, -9.82, 0);
  const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(8, 0.5, 8)) });
  ground.position.set(0, -0.5, 0);
  world.addBody(ground);
  const shapes: CANNON.Shape[] = [];
  const nShapes = o.shapes ?? 16;
  const lo = o.minPoints ?? 12;
  const hi = o.maxPoints ?? 24;
  for (let s = 0; s < nShapes; s++) {
    const points = lo + Math.floor(r() * (hi - lo + 1));
    shapes.push(randomHull(r, points, 0.35 + 0.2 * r(), 0.3 + 0.2 * r(), 0.35 + 0.2 * r()));
  }
  const box = new CANNON.Box(new CANNON.Vec3(0.4, 0.3, 0.35));
  const bodies: CANNON.Body[] = [];
  const per = 6;
  for (let i = 0; i < count; i++) {
    const useBox = kind === 'boxes' || (kind === 'mixed' && i % 2 === 1);
    const body = new CANNON.Body({ mass: 1, shape: useBox ? box : shapes[i % nShapes] });
    const layer = Math.floor(i / (per * per));
    const k = i % (per * per);
    body.position.set(
      ((k % per) - per / 2) * 1.05 + r() * 0.1,
      0.6 + layer * 0.9 + r() * 0.1,
      (Math.floor(k / per) - per / 2) * 1.05 + r() * 0.1,
    );
    body.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
    world.addBody(body);
    bodies.push(body);
  }
  return { world, bodies };
}
