/**
 * The convex narrowphase's contacts against brute-force references (convexReference.ts), through the
 * handlers as cannon calls them: many seeded random hull pairs — touching within 1e-6, shallow, deep,
 * face–face, edge–edge, nearly parallel, thin and flat hulls, triangulated boxes — then sphere–hull
 * inside and outside, and hull–heightfield. A face patch (three or four corners) comes as its load
 * contact, then the corners, with two anchored friction pairs; anything else with a pair per contact.
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { convexContacts } from '../src/convex/index.js';
import { installSieve } from '../src/index.js';
import {
  directionalSep,
  dot,
  nearestOnHull,
  norm,
  planeDistance,
  referenceSat,
  sub,
  touchDistance,
  type V3,
  worldHull,
} from './convexReference.js';
import { randomHull, rng } from './convexScenes.js';

interface Contact {
  n: V3;
  pi: V3;
  pj: V3;
}

/** cannon's friction right-hand side, which the patch's anchored pairs replace for their step. */
const stockFrictionB = CANNON.FrictionEquation.prototype.computeB;

/** Calls the installed handler for the first shapes of two bodies, as cannon's getContacts does. */
function collide(world: CANNON.World, a: CANNON.Body, b: CANNON.Body, justTest = false) {
  const np = world.narrowphase as unknown as Record<number, (...args: unknown[]) => boolean | undefined> &
    CANNON.Narrowphase;
  np.result = [];
  np.frictionResult = [];
  np.contactPointPool = [];
  np.frictionEquationPool = [];
  np.currentContactMaterial = world.defaultContactMaterial;
  const sa = a.shapes[0];
  const sb = b.shapes[0];
  const [bi, bj] = sa.type <= sb.type ? [a, b] : [b, a];
  const si = bi.shapes[0];
  const sj = bj.shapes[0];
  const hit = np[si.type | sj.type].call(
    np,
    si,
    sj,
    bi.position,
    bj.position,
    bi.quaternion,
    bj.quaternion,
    bi,
    bj,
    si,
    sj,
    justTest,
  );
  const contacts: Contact[] = np.result.map((c) => ({
    n: [c.ni.x, c.ni.y, c.ni.z],
    pi: [c.ri.x + bi.position.x, c.ri.y + bi.position.y, c.ri.z + bi.position.z],
    pj: [c.rj.x + bj.position.x, c.rj.y + bj.position.y, c.rj.z + bj.position.z],
  }));
  for (const c of np.result) {
    expect(c.bi).toBe(bi);
    expect(c.bj).toBe(bj);
  }
  // A patch: the load contact and three or four corners, two anchored friction pairs.
  const patch = np.result.length >= 4 && np.frictionResult.length === 4;
  if (patch) {
    for (const f of np.frictionResult) expect(f.computeB).not.toBe(stockFrictionB);
  } else {
    expect(np.frictionResult.length).toBe(2 * np.result.length);
    for (const f of np.frictionResult) expect(f.computeB).toBe(stockFrictionB);
  }
  const corners = patch ? contacts.slice(1) : contacts;
  return { hit: hit === true, contacts, corners, patch, bi, bj };
}

function convexWorld(): CANNON.World {
  const world = new CANNON.World();
  installSieve(world, { narrowphase: { convex: convexContacts } });
  return world;
}

function randomQuat(r: () => number): CANNON.Quaternion {
  // Shoemake's uniform rotation.
  const u1 = r();
  const u2 = 2 * Math.PI * r();
  const u3 = 2 * Math.PI * r();
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return new CANNON.Quaternion(a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3));
}

function randomDir(r: () => number): V3 {
  const z = 2 * r() - 1;
  const phi = 2 * Math.PI * r();
  const s = Math.sqrt(1 - z * z);
  return [s * Math.cos(phi), s * Math.sin(phi), z];
}

function bodyOf(shape: CANNON.Shape, x: V3, q: CANNON.Quaternion): CANNON.Body {
  const body = new CANNON.Body({ mass: 1, shape });
  body.position.set(x[0], x[1], x[2]);
  body.quaternion.copy(q);
  return body;
}

const radius = (shape: CANNON.Shape) => shape.boundingSphereRadius;

/**
 * Checks one hull pair against the references: overlap agrees; the normal's exact separation is the
 * penetration within the hysteresis bound; every contact lies on both surfaces as cannon expects
 * (point i on hull i, point j on hull j, depth along the normal no deeper than the hulls' overlap, and
 * no more than the speculative margin above it).
 */
function checkPair(world: CANNON.World, a: CANNON.Body, b: CANNON.Body): 'apart' | 'touch' | 'skip' {
  const { hit, contacts, bi, bj } = collide(world, a, b);
  const hi = worldHull(bi.shapes[0], bi.position, bi.quaternion);
  const hj = worldHull(bj.shapes[0], bj.position, bj.quaternion);
  const ref = referenceSat(hi, hj);
  const scale = Math.min(radius(bi.shapes[0]), radius(bj.shapes[0]));
  if (Math.abs(ref.sep) < 1e-9 * (1 + scale)) return 'skip'; // touching within rounding: either answer
  expect(hit, `reference separation ${ref.sep}`).toBe(ref.sep < 0);
  expect(collide(world, a, b, true).hit).toBe(ref.sep < 0);
  if (!hit) {
    expect(contacts.length).toBe(0);
    return 'apart';
  }
  expect(contacts.length).toBeGreaterThan(0);
  expect(contacts.length).toBeLessThanOrEqual(5);
  const n = contacts[0].n;
  expect(Math.abs(norm(n) - 1)).toBeLessThan(1e-12);
  const along = directionalSep(hi, hj, n);
  // Gregorius's hysteresis may pick a face or edge slightly worse than the best: within 14 % + 2.5 tol.
  const tol = 0.14 * Math.abs(ref.sep) + 2.5 * 0.001 * scale + 1e-9;
  expect(along).toBeLessThanOrEqual(1e-9);
  expect(along).toBeGreaterThanOrEqual(ref.sep - tol);
  const eps = 1e-9 * (1 + scale);
  for (const c of contacts) {
    expect(c.n).toEqual(n);
    // Penetrating, or (a speculative corner of a resting face) at most 1 % of the smaller hull above.
    const depth = dot(sub(c.pj, c.pi), n);
    expect(depth).toBeLessThanOrEqual(0.01 * scale + eps);
    expect(depth).toBeGreaterThanOrEqual(along - eps);
    expect(Math.abs(planeDistance(hi, c.pi))).toBeLessThan(1e-7 * (1 + scale));
    expect(Math.abs(planeDistance(hj, c.pj))).toBeLessThan(1e-7 * (1 + scale));
  }
  return 'touch';
}

/** Places B against A along direction u, at `gap` beyond first touch (negative: overlapping). */
function placeAt(
  a: CANNON.Body,
  shapeB: CANNON.Shape,
  qb: CANNON.Quaternion,
  u: V3,
  gap: number,
): CANNON.Body {
  const p = a.position;
  const hi = worldHull(a.shapes[0], p, a.quaternion);
  const hj = worldHull(shapeB, p, qb);
  const t = touchDistance(hi, hj, u) + gap;
  return bodyOf(shapeB, [p.x + t * u[0], p.y + t * u[1], p.z + t * u[2]], qb);
}

describe('convex narrowphase: hull–hull against the brute-force reference', () => {
  it('random hulls: touching, shallow, deep and apart', () => {
    const world = convexWorld();
    const r = rng(11);
    const tally = { apart: 0, touch: 0, skip: 0 };
    // Whole cycles of the seven gaps at both depths.
    for (let k = 0, pairs = depth(70, 160); k < pairs; k++) {
      const sa = randomHull(r, 12 + Math.floor(r() * 13), 0.3 + r(), 0.3 + r(), 0.3 + r());
      const sb = randomHull(r, 12 + Math.floor(r() * 13), 0.3 + r(), 0.3 + r(), 0.3 + r());
      const a = bodyOf(sa, [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2], randomQuat(r));
      const gaps = [-0.5, -0.1, -1e-3, -1e-6, 1e-6, 1e-3, 0.1];
      const gap = gaps[k % gaps.length] * Math.min(sa.boundingSphereRadius, sb.boundingSphereRadius);
      tally[checkPair(world, a, placeAt(a, sb, randomQuat(r), randomDir(r), gap))]++;
    }
    expect(tally.touch).toBeGreaterThan(depth(35, 80));
    expect(tally.apart).toBeGreaterThan(depth(13, 30));
  });

  it('boxes, cylinders and hulls mixed, at random overlaps', () => {
    const world = convexWorld();
    const r = rng(12);
    const shapes = () => {
      const kind = Math.floor(r() * 3);
      if (kind === 0) return new CANNON.Box(new CANNON.Vec3(0.1 + r(), 0.1 + r(), 0.1 + r()));
      if (kind === 1) return new CANNON.Cylinder(0.2 + r(), 0.2 + r(), 0.3 + r(), 6 + Math.floor(r() * 10));
      return randomHull(r, 12 + Math.floor(r() * 13), 0.3 + r(), 0.3 + r(), 0.3 + r());
    };
    let touching = 0;
    for (let k = 0, pairs = depth(60, 150); k < pairs; k++) {
      const a = bodyOf(shapes(), [0, 0, 0], randomQuat(r));
      const gap = (r() - 0.7) * 0.5;
      if (checkPair(world, a, placeAt(a, shapes(), randomQuat(r), randomDir(r), gap)) === 'touch') touching++;
    }
    expect(touching).toBeGreaterThan(depth(24, 60));
  });

  it('face–face: boxes resting on boxes keep four contacts, nearly parallel included', () => {
    const world = convexWorld();
    for (const tilt of [0, 1e-9, 1e-6, 1e-4, 1e-3]) {
      for (const spin of [0, 0.3, Math.PI / 4]) {
        const a = bodyOf(new CANNON.Box(new CANNON.Vec3(2, 0.5, 2)), [0, 0, 0], new CANNON.Quaternion());
        const q = new CANNON.Quaternion().setFromEuler(tilt, spin, 0);
        // 2e-3 deep: more than a 1e-3 tilt lifts an edge, so all four corners touch.
        const b = placeAt(a, new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)), q, [0, 1, 0], -2e-3);
        expect(checkPair(world, a, b)).toBe('touch');
        const { contacts, corners, patch } = collide(world, a, b);
        expect(patch).toBe(true);
        expect(corners.length).toBe(4);
        for (const c of contacts) expect(c.n[1]).toBeGreaterThan(0.99);
        // The load contact lies under the pair's centre of mass (bodies of equal mass: the midpoint).
        const mid = [(a.position.x + b.position.x) / 2, (a.position.z + b.position.z) / 2];
        expect(Math.abs(contacts[0].pi[0] - mid[0])).toBeLessThan(1e-9);
        expect(Math.abs(contacts[0].pi[2] - mid[1])).toBeLessThan(1e-9);
      }
    }
  });

  it('edge–edge: crossed boxes meet at one contact on the edge axis', () => {
    const world = convexWorld();
    const r = rng(13);
    for (let k = 0, pairs = depth(10, 30); k < pairs; k++) {
      const a = bodyOf(
        new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)),
        [0, 0, 0],
        new CANNON.Quaternion().setFromEuler(0, 0, Math.PI / 4),
      );
      const qb = new CANNON.Quaternion().setFromEuler(Math.PI / 4, 0.01 * (r() - 0.5), 0.01 * (r() - 0.5));
      const b = placeAt(a, new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)), qb, [0, 1, 0], -0.01 * r() - 1e-4);
      expect(checkPair(world, a, b)).toBe('touch');
      const { contacts } = collide(world, a, b);
      expect(contacts.length).toBe(1);
      expect(Math.abs(contacts[0].n[1])).toBeGreaterThan(0.99);
    }
  });

  it('thin hulls, triangulated boxes and squashed hulls', () => {
    const world = convexWorld();
    const r = rng(14);
    // A box as a mesh tool exports it: 12 triangles (coplanar pairs the hull merges back into quads).
    const triBox = (h: number) => {
      const v: number[][] = [];
      for (let k = 0; k < 8; k++) v.push([k & 1 ? h : -h, k & 2 ? h : -h, k & 4 ? h : -h]);
      // biome-ignore format: two triangles a face
      const faces = [[0,4,6],[0,6,2],[1,3,7],[1,7,5],[0,1,5],[0,5,4],[2,6,7],[2,7,3],[0,2,3],[0,3,1],[4,5,7],[4,7,6]];
      return new CANNON.ConvexPolyhedron({
        vertices: v.map((p) => new CANNON.Vec3(p[0], p[1], p[2])),
        faces,
      });
    };
    let touching = 0;
    // Whole cycles of the three kinds at both depths.
    for (let k = 0, pairs = depth(36, 90); k < pairs; k++) {
      const kind = k % 3;
      const sa =
        kind === 0
          ? new CANNON.Box(new CANNON.Vec3(1, 1e-3, 1))
          : kind === 1
            ? triBox(0.5)
            : randomHull(r, 16, 1, 0.02, 1);
      const sb = kind === 1 ? triBox(0.3) : randomHull(r, 12 + Math.floor(r() * 8), 0.5, 0.5, 0.5);
      const a = bodyOf(sa, [0, 0, 0], randomQuat(r));
      const gap = (r() - 0.6) * 0.02;
      if (checkPair(world, a, placeAt(a, sb, randomQuat(r), randomDir(r), gap)) === 'touch') touching++;
    }
    expect(touching).toBeGreaterThan(depth(12, 30));
    // The triangulated box rests on a box with four contacts, like a box.
    const ground = bodyOf(new CANNON.Box(new CANNON.Vec3(2, 0.5, 2)), [0, 0, 0], new CANNON.Quaternion());
    const top = placeAt(ground, triBox(0.5), new CANNON.Quaternion(), [0, 1, 0], -1e-3);
    expect(collide(world, ground, top).corners.length).toBe(4);
  });

  it('a flat hull (one quad, both windings) against a box', () => {
    const world = convexWorld();
    const r = rng(15);
    const quad = () =>
      new CANNON.ConvexPolyhedron({
        vertices: [
          new CANNON.Vec3(-1, 0, -1),
          new CANNON.Vec3(1, 0, -1),
          new CANNON.Vec3(1, 0, 1),
          new CANNON.Vec3(-1, 0, 1),
        ],
        faces: [
          [0, 1, 2, 3],
          [3, 2, 1, 0],
        ],
      });
    let decided = 0;
    for (let k = 0, pairs = depth(24, 60); k < pairs; k++) {
      const a = bodyOf(quad(), [0, 0, 0], randomQuat(r));
      const b = placeAt(
        a,
        new CANNON.Box(new CANNON.Vec3(0.3, 0.2, 0.4)),
        randomQuat(r),
        randomDir(r),
        (r() - 0.5) * 0.1,
      );
      if (checkPair(world, a, b) !== 'skip') decided++;
    }
    expect(decided).toBeGreaterThan(depth(20, 50));
  });
});

describe('convex narrowphase: the warm start changes no answer', () => {
  it('pairs moving in and out of contact get, step by step, what a fresh narrowphase gets', () => {
    // The axis and contacts, that is: which four points a many-sided patch keeps may differ (the
    // reduction remembers last step's), never their number or normal, and both are valid contacts.
    const warm = convexWorld();
    const r = rng(41);
    let touching = 0;
    let apart = 0;
    // Boxes (every third pair) and hulls at both depths.
    for (let k = 0, pairs = depth(6, 12); k < pairs; k++) {
      const a = bodyOf(randomHull(r, 12 + Math.floor(r() * 13), 0.5, 0.4, 0.45), [0, 0, 0], randomQuat(r));
      const b = bodyOf(
        k % 3 === 0 ? new CANNON.Box(new CANNON.Vec3(0.4, 0.3, 0.2)) : randomHull(r, 16, 0.4, 0.5, 0.3),
        [0, 0, 0],
        randomQuat(r),
      );
      const dir = randomDir(r);
      const spin = new CANNON.Quaternion().setFromEuler(0.05 * r(), 0.05 * r(), 0.05 * r());
      for (let step = 0; step < 80; step++) {
        // B sweeps through A and out again, turning.
        const t = 2.5 * Math.cos((step / 80) * 2 * Math.PI);
        b.position.set(t * dir[0], t * dir[1], t * dir[2]);
        b.quaternion = spin.mult(b.quaternion);
        (warm as unknown as { stepnumber: number }).stepnumber = step;
        const w = collide(warm, a, b);
        const cold = collide(convexWorld(), a, b);
        expect(w.hit).toBe(cold.hit);
        expect(w.contacts.length).toBe(cold.contacts.length);
        if (w.hit) {
          expect(w.contacts[0].n).toEqual(cold.contacts[0].n);
          checkPair(warm, a, b);
        }
        if (w.hit) touching++;
        else apart++;
      }
    }
    expect(touching).toBeGreaterThan(depth(50, 100));
    expect(apart).toBeGreaterThan(depth(50, 100));
  });
});

describe('convex narrowphase: sphere–hull against the nearest hull point', () => {
  it('centres outside and inside random hulls, boxes and cylinders', () => {
    const world = convexWorld();
    const r = rng(21);
    let inside = 0;
    let outside = 0;
    for (let k = 0, spheres = depth(120, 300); k < spheres; k++) {
      const kind = k % 3;
      const shape =
        kind === 0
          ? randomHull(r, 12 + Math.floor(r() * 13), 0.5 + r(), 0.5 + r(), 0.5 + r())
          : kind === 1
            ? new CANNON.Box(new CANNON.Vec3(0.2 + r(), 0.2 + r(), 0.2 + r()))
            : new CANNON.Cylinder(0.5, 0.7, 1, 8);
      const hullBody = bodyOf(shape, [r() - 0.5, r() - 0.5, r() - 0.5], randomQuat(r));
      const radiusS = 0.05 + 0.5 * r();
      const d = randomDir(r);
      const dist = 2.5 * r() * shape.boundingSphereRadius;
      const p = hullBody.position;
      const centre: V3 = [p.x + dist * d[0], p.y + dist * d[1], p.z + dist * d[2]];
      const sphere = bodyOf(new CANNON.Sphere(radiusS), centre, new CANNON.Quaternion());
      const h = worldHull(shape, hullBody.position, hullBody.quaternion);
      const inDist = planeDistance(h, centre);
      const nearest = inDist > 0 ? nearestOnHull(h, centre) : null;
      const refSep = nearest ? nearest.dist - radiusS : inDist - radiusS;
      if (Math.abs(refSep) < 1e-9) continue;
      const { hit, contacts } = collide(world, sphere, hullBody);
      expect(hit).toBe(refSep < 0);
      expect(collide(world, sphere, hullBody, true).hit).toBe(refSep < 0);
      if (!hit) continue;
      expect(contacts.length).toBe(1);
      const c = contacts[0];
      // The sphere is body i: its point at the surface along n, the hull point on the hull.
      expect(dot(sub(c.pj, c.pi), c.n)).toBeCloseTo(refSep, 9);
      expect(Math.abs(planeDistance(h, c.pj))).toBeLessThan(1e-9);
      if (nearest) {
        outside++;
        expect(norm(sub(c.pj, nearest.point))).toBeLessThan(1e-7);
      } else inside++;
    }
    expect(inside).toBeGreaterThan(depth(8, 20));
    expect(outside).toBeGreaterThan(depth(12, 30));
  });
});

describe('convex narrowphase: hull–heightfield', () => {
  it('touches where a hull point lies below a triangle, along the triangle normal', () => {
    const world = convexWorld();
    const r = rng(31);
    const data: number[][] = [];
    for (let i = 0; i < 12; i++) {
      data.push([]);
      for (let j = 0; j < 12; j++) data[i].push(0.4 * Math.sin(i * 0.8) * Math.cos(j * 0.6) + 0.1 * r());
    }
    const e = 0.5;
    const hfShape = new CANNON.Heightfield(data, { elementSize: e });
    const hf = bodyOf(hfShape, [0.3, -0.2, 0.1], new CANNON.Quaternion().setFromEuler(-Math.PI / 2, 0, 0));
    // Everything in the heightfield's frame: its triangles (cannon's getTriangle) and their columns.
    const toLocal = (p: V3): V3 => {
      const v = hf.quaternion
        .conjugate()
        .vmult(new CANNON.Vec3(p[0] - hf.position.x, p[1] - hf.position.y, p[2] - hf.position.z));
      return [v.x, v.y, v.z];
    };
    const toLocalDir = (p: V3): V3 => {
      const v = hf.quaternion.conjugate().vmult(new CANNON.Vec3(p[0], p[1], p[2]));
      return [v.x, v.y, v.z];
    };
    const triangles: { t: V3[]; n: V3 }[] = [];
    for (let i = 0; i + 1 < data.length; i++) {
      for (let j = 0; j + 1 < data[0].length; j++) {
        const lower: V3[] = [
          [i * e, j * e, data[i][j]],
          [(i + 1) * e, j * e, data[i + 1][j]],
          [i * e, (j + 1) * e, data[i][j + 1]],
        ];
        const upper: V3[] = [
          [(i + 1) * e, (j + 1) * e, data[i + 1][j + 1]],
          [i * e, (j + 1) * e, data[i][j + 1]],
          [(i + 1) * e, j * e, data[i + 1][j]],
        ];
        for (const t of [lower, upper]) {
          const u = sub(t[1], t[0]);
          const v = sub(t[2], t[0]);
          const n: V3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
          const len = norm(n);
          triangles.push({ t, n: [n[0] / len, n[1] / len, n[2] / len] });
        }
      }
    }
    /** Whether p is in the vertical column over the triangle (counter-clockwise seen from +z). */
    const inColumn = (t: V3[], p: V3, eps = 1e-12) => {
      for (let k = 0; k < 3; k++) {
        const a = t[k];
        const b = t[(k + 1) % 3];
        if ((b[1] - a[1]) * (p[0] - a[0]) - (b[0] - a[0]) * (p[1] - a[1]) > eps) return false;
      }
      return true;
    };
    let hits = 0;
    for (let k = 0, placed = depth(81, 200); k < placed; k++) {
      const shape =
        k % 3 === 0
          ? new CANNON.Box(new CANNON.Vec3(0.1 + 0.3 * r(), 0.1 + 0.3 * r(), 0.1 + 0.3 * r()))
          : k % 3 === 1
            ? randomHull(r, 12 + Math.floor(r() * 13), 0.2 + 0.3 * r(), 0.2 + 0.3 * r(), 0.2 + 0.3 * r())
            : new CANNON.Cylinder(0.3, 0.3, 0.5, 8);
      const x = 0.3 + 1 + r() * 3.5;
      const z = 0.1 - 1 - r() * 3.5;
      const q = randomQuat(r);
      const body = bodyOf(shape, [x, 0, z], q);
      // Height: the lowest hull vertex about ±0.15 around the terrain under the centre.
      const lowest = Math.min(...worldHull(shape, body.position, q).verts.map((v) => v[1]));
      const ground = hfShape.getHeightAt(x - 0.3, -(z - 0.1), true) - 0.2;
      body.position.y = ground - lowest + (r() - 0.5) * 0.3;
      const local = worldHull(shape, body.position, q).verts.map(toLocal);
      // Reference: the deepest hull vertex below any triangle (in its column), to that triangle's plane.
      let refDeep = Number.NEGATIVE_INFINITY;
      for (const { t, n } of triangles)
        for (const v of local) if (inColumn(t, v)) refDeep = Math.max(refDeep, dot(n, sub(t[0], v)));
      const { hit, contacts, bi } = collide(world, body, hf);
      expect(collide(world, body, hf, true).hit).toBe(hit);
      if (refDeep > 1e-9) {
        hits++;
        expect(hit).toBe(true);
      }
      if (!hit) continue;
      const hullIsI = bi === body;
      const hw = worldHull(shape, body.position, q);
      let deepest = 0;
      for (const c of contacts) {
        // Normal from body i to body j: from the hull down into the terrain when the hull is i.
        const up = toLocalDir(hullIsI ? [-c.n[0], -c.n[1], -c.n[2]] : c.n);
        const hullPoint = hullIsI ? c.pi : c.pj;
        const terrainPoint = toLocal(hullIsI ? c.pj : c.pi);
        // The hull point lies in the column of the triangle whose normal the contact has; the terrain
        // point is its projection on that triangle's plane.
        const tri = triangles.find(
          ({ t, n }) => dot(n, up) > 1 - 1e-9 && inColumn(t, toLocal(hullPoint), 1e-9),
        );
        expect(tri, 'the normal of the triangle under the contact').toBeDefined();
        if (!tri) continue;
        expect(Math.abs(dot(tri.n, sub(terrainPoint, tri.t[0])))).toBeLessThan(1e-9);
        expect(Math.abs(planeDistance(hw, hullPoint))).toBeLessThan(1e-7);
        const depth = dot(sub(terrainPoint, toLocal(hullPoint)), up);
        expect(depth).toBeGreaterThanOrEqual(-1e-9);
        // No deeper than the hull reaches below that plane.
        expect(depth).toBeLessThanOrEqual(Math.max(...local.map((v) => dot(tri.n, sub(tri.t[0], v)))) + 1e-9);
        deepest = Math.max(deepest, depth);
      }
      expect(contacts.length).toBeLessThanOrEqual(8);
      // At least as deep as the deepest vertex below a triangle (the manifold keeps the deepest).
      if (refDeep > 1e-9) expect(deepest).toBeGreaterThanOrEqual(refDeep - 1e-9);
    }
    expect(hits).toBeGreaterThan(depth(20, 50));
  });
});
