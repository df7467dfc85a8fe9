/**
 * The exact hull path against cannon-es's own code, pair by pair: the same shapes, poses and bodies
 * handed to cannon's `Narrowphase.convexConvex` / `sphereConvex` and to Sieve's, and every contact and
 * friction equation compared number by number with `Object.is` (and the separating axis itself against
 * `ConvexPolyhedron.findSeparatingAxis`). Configurations: face–face, edge–edge, vertex–face, touching
 * (found by bisection on the separating axis test's verdict, so both sides of the boundary are hit),
 * deep, nearly parallel, exact ties between axes, and degenerate hulls (thin boxes, coplanar triangle
 * faces, flat coins); hulls of 4 to 24 points.
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { convexConvexExact } from '../src/hull/convexContacts.js';
import { hullData } from '../src/hull/hullData.js';
import { loadPair } from '../src/hull/pairFrame.js';
import { separatingAxis, separatingAxisOut } from '../src/hull/separatingAxis.js';
import { sphereConvexExact } from '../src/hull/sphereContacts.js';
import { hullOf, randomHull } from './hulls.js';
import { rng } from './worlds.js';

type Fn = (...a: unknown[]) => boolean | undefined;
const proto = CANNON.Narrowphase.prototype as unknown as Record<string, Fn>;

/** A world whose narrowphase is ready to be called directly (as `world.step` leaves it). */
function readyWorld(): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  world.dt = 1 / 60;
  world.narrowphase.currentContactMaterial = world.defaultContactMaterial;
  return world;
}

/** Every number of the equations a handler produced, in order (and the return value). */
function outcome(
  fn: Fn,
  si: CANNON.Shape,
  sj: CANNON.Shape,
  xi: CANNON.Vec3,
  xj: CANNON.Vec3,
  qi: CANNON.Quaternion,
  qj: CANNON.Quaternion,
  justTest: boolean,
  reduction = false,
): unknown[] {
  const world = readyWorld();
  const np = world.narrowphase;
  np.enableFrictionReduction = reduction;
  const bi = new CANNON.Body({ mass: 1 });
  const bj = new CANNON.Body({ mass: 2 });
  bi.position.set(xi.x + 0.25, xi.y, xi.z - 0.5); // shape offsets: body positions differ from shape ones
  bj.position.set(xj.x, xj.y - 0.125, xj.z);
  const ret = fn.call(np, si, sj, xi, xj, qi, qj, bi, bj, si, sj, justTest);
  const out: unknown[] = [ret];
  for (const c of np.result) {
    out.push(c.bi === bi, c.bj === bj, c.si === si, c.sj === sj, c.enabled, c.restitution);
    for (const v of [c.ni, c.ri, c.rj]) out.push(v.x, v.y, v.z);
    out.push(c.a, c.b, c.eps);
  }
  for (const f of np.frictionResult as CANNON.FrictionEquation[]) {
    for (const v of [f.t, f.ri, f.rj]) out.push(v.x, v.y, v.z);
    out.push(f.minForce, f.maxForce, f.enabled);
  }
  return out;
}

function expectSameOutcome(a: unknown[], b: unknown[], what: string): void {
  const same = a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  if (!same) expect(b, what).toEqual(a);
}

/** A random unit quaternion. */
function randomQuat(r: () => number): CANNON.Quaternion {
  const q = new CANNON.Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5);
  return q.normalize();
}

/** The quaternion turning unit a onto unit b. */
function turning(a: CANNON.Vec3, b: CANNON.Vec3): CANNON.Quaternion {
  const q = new CANNON.Quaternion();
  q.setFromVectors(a, b);
  return q.normalize();
}

/**
 * The largest t in [0, far] at which B at xA + t·dir still overlaps A, by bisection on the separating
 * axis test's verdict. Sieve's test answers here (the suite checks that it gives cannon's verdict at
 * every pose it builds, those near this boundary included): cannon's own allocates per call, and 48
 * calls per direction were most of this file's time.
 */
function touchingDistance(
  A: CANNON.ConvexPolyhedron,
  B: CANNON.ConvexPolyhedron,
  xA: CANNON.Vec3,
  qA: CANNON.Quaternion,
  qB: CANNON.Quaternion,
  dir: CANNON.Vec3,
): number {
  let lo = 0;
  let hi = 2 * (A.boundingSphereRadius + B.boundingSphereRadius);
  const xB = new CANNON.Vec3();
  const HA = hullData(A);
  const HB = hullData(B);
  for (let k = 0; k < 48; k++) {
    const mid = 0.5 * (lo + hi);
    xB.set(xA.x + mid * dir.x, xA.y + mid * dir.y, xA.z + mid * dir.z);
    loadPair(HA, HB, xA, qA, xB, qB);
    if (separatingAxis(HA, HB, null, null) === 1) lo = mid;
    else hi = mid;
  }
  return lo;
}

function boxHull(hx: number, hy: number, hz: number): CANNON.ConvexPolyhedron {
  return new CANNON.Box(new CANNON.Vec3(hx, hy, hz)).convexPolyhedronRepresentation;
}

/** A box as a hull of 12 triangles (pairs of coplanar faces). */
function triangulatedBox(hx: number, hy: number, hz: number): CANNON.ConvexPolyhedron {
  const q = boxHull(hx, hy, hz);
  const faces: number[][] = [];
  for (const f of q.faces) faces.push([f[0], f[1], f[2]], [f[0], f[2], f[3]]);
  return new CANNON.ConvexPolyhedron({ vertices: q.vertices.map((v) => v.clone()), faces });
}

/** A flat coin: two n-gons 2·h apart (a cannon Cylinder's faces). */
function coin(radius: number, h: number, n: number): CANNON.ConvexPolyhedron {
  return new CANNON.Cylinder(radius, radius, 2 * h, n);
}

const shapesOf = (r: () => number): CANNON.ConvexPolyhedron[] => [
  randomHull(r, 12, 0.5, 0.4, 0.45),
  randomHull(r, 24, 0.6, 0.3, 0.5),
  randomHull(r, 18, 0.4, 0.4, 0.4),
  hullOf([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1].map((x) => x - 0.3))!,
  boxHull(0.5, 0.3, 0.4),
  boxHull(0.5, 1e-4, 0.5),
  triangulatedBox(0.4, 0.4, 0.4),
  coin(0.5, 0.02, 12),
  new CANNON.Cylinder(0.3, 0.5, 1, 8),
];

type Config = [CANNON.Vec3, CANNON.Quaternion, CANNON.Vec3, CANNON.Quaternion, string];

/** Poses of B around A in every configuration class (see the module comment). */
function configurations(A: CANNON.ConvexPolyhedron, B: CANNON.ConvexPolyhedron, r: () => number): Config[] {
  const out: Config[] = [];
  const xA = new CANNON.Vec3(r() * 4 - 2, r() * 4 - 2, r() * 4 - 2);
  const at = (qA: CANNON.Quaternion, qB: CANNON.Quaternion, dir: CANNON.Vec3, kind: string) => {
    dir.normalize();
    const t = touchingDistance(A, B, xA, qA, qB, dir);
    for (const [pen, name] of [
      [0, 'touching'],
      [-1e-12, 'touching, just apart'],
      [1e-9, 'touching, just in'],
      [0.01, 'resting'],
      [0.2, 'deep'],
      [t, 'centres together'],
      [-0.05, 'apart'],
    ] as [number, string][]) {
      const s = t - pen;
      out.push([
        xA,
        qA,
        new CANNON.Vec3(xA.x + s * dir.x, xA.y + s * dir.y, xA.z + s * dir.z),
        qB,
        `${kind}, ${name}`,
      ]);
    }
  };
  for (let k = 0, random = depth(1, 2); k < random; k++) {
    // vertex–face, edge–edge and the like: random orientations and directions
    at(randomQuat(r), randomQuat(r), new CANNON.Vec3(r() - 0.5, r() - 0.5, r() - 0.5), 'random');
  }
  // face–face: B's face k turned against A's face j; nearly parallel with a tilt of 1e-7..1e-2 rad
  for (const tilt of [0, 1e-7, 1e-4, 1e-2]) {
    const qA = randomQuat(r);
    const fa = A.faceNormals[Math.floor(r() * A.faceNormals.length)];
    const fb = B.faceNormals[Math.floor(r() * B.faceNormals.length)];
    const nA = qA.vmult(fa);
    const minus = new CANNON.Vec3(-nA.x, -nA.y, -nA.z);
    const qB = turning(fb, minus);
    if (tilt > 0) {
      const tq = new CANNON.Quaternion();
      tq.setFromAxisAngle(new CANNON.Vec3(r() - 0.5, r() - 0.5, r() - 0.5).unit(), tilt);
      qB.copy(tq.mult(qB).normalize());
    }
    at(qA, qB, nA.clone(), tilt === 0 ? 'face–face' : `nearly parallel (${tilt})`);
  }
  // aligned frames along coordinate diagonals: exact ties between axes (boxes, symmetric hulls)
  const id = new CANNON.Quaternion();
  for (const d of [new CANNON.Vec3(1, 1, 0), new CANNON.Vec3(1, 1, 1), new CANNON.Vec3(0, -1, 1)])
    at(id, id, d, 'aligned diagonal');
  return out;
}

describe('exact hull contacts are cannon-es’s own, bit for bit', () => {
  it('the comparison can fail: a contact one ulp off is caught', () => {
    const r = rng(1);
    const A = randomHull(r, 12, 0.5, 0.5, 0.5);
    const q = new CANNON.Quaternion();
    const a = outcome(proto.convexConvex, A, A, new CANNON.Vec3(), new CANNON.Vec3(0, 0.6, 0), q, q, false);
    expect(a.length).toBeGreaterThan(20);
    const b = [...a];
    const k = b.findIndex((x, i) => i > 7 && typeof x === 'number' && x !== 0);
    b[k] = (b[k] as number) * (1 + Number.EPSILON);
    expect(a.every((x, i) => Object.is(x, b[i]))).toBe(false);
  });

  it('convex–convex: separating axis, contacts and friction in every configuration class', {
    timeout: 300_000,
  }, () => {
    const r = rng(29);
    // Every shape is drawn at both depths (the same random numbers after); the standard depth pairs all
    // but the third random hull (18 points: between the other two's 12 and 24).
    const shapes = shapesOf(r).filter((_, k) => depth(k !== 2, true));
    const seen = new Map<string, number>();
    let contacts = 0;
    let separated = 0;
    let configuration = 0;
    for (const A of shapes) {
      for (const B of shapes) {
        for (const [xA, qA, xB, qB, kind] of configurations(A, B, r)) {
          const what = `${kind}: ${A.vertices.length}-vertex vs ${B.vertices.length}-vertex hull`;
          // the separating axis itself
          const target = new CANNON.Vec3();
          const stockFound = A.findSeparatingAxis(B, xA, qA, xB, qB, target);
          const HA = hullData(A);
          const HB = hullData(B);
          loadPair(HA, HB, xA, qA, xB, qB);
          const found = separatingAxis(HA, HB, null, null);
          expect(found, what).toBe(stockFound ? 1 : 0);
          if (stockFound) {
            const s = separatingAxisOut;
            const same = Object.is(s[0], target.x) && Object.is(s[1], target.y) && Object.is(s[2], target.z);
            if (!same) expect([...s], what).toEqual([target.x, target.y, target.z]);
          } else separated++;
          // the handler, plain, then justTest or with friction reduction (every other configuration
          // each: cannon's own SAT is most of this test's time, and each variant still sees every class)
          const variant = configuration++ % 2 === 0 ? [true, false] : [false, true];
          for (const [justTest, reduction] of [[false, false], variant]) {
            const a = outcome(proto.convexConvex, A, B, xA, xB, qA, qB, justTest, reduction);
            const b = outcome(convexConvexExact as unknown as Fn, A, B, xA, xB, qA, qB, justTest, reduction);
            expectSameOutcome(a, b, what);
            if (!justTest && !reduction) contacts += a.length - 1 > 0 ? 1 : 0;
          }
          const cls = kind.split(',')[0];
          seen.set(cls, (seen.get(cls) ?? 0) + 1);
        }
      }
    }
    // every class was exercised, with contacts and with separations
    for (const cls of ['random', 'face–face', 'nearly parallel (1e-7)', 'aligned diagonal']) {
      expect(seen.get(cls) ?? 0, cls).toBeGreaterThan(50);
    }
    expect(contacts).toBeGreaterThan(500);
    expect(separated).toBeGreaterThan(200);
  });

  it('heightfield face lists, and shapes cannon would throw on, go the same way', () => {
    const r = rng(7);
    const A = randomHull(r, 16, 0.5, 0.5, 0.5);
    const B = randomHull(r, 14, 0.5, 0.4, 0.5);
    const q = randomQuat(r);
    const xB = new CANNON.Vec3(0.1, 0.45, 0);
    for (const list of [[0], [3, 1], [0, 0]]) {
      const world = readyWorld();
      const bi = new CANNON.Body({ mass: 1 });
      const bj = new CANNON.Body({ mass: 1 });
      const run = (fn: Fn) => {
        world.narrowphase.result.length = 0;
        world.narrowphase.frictionResult.length = 0;
        fn.call(world.narrowphase, A, B, new CANNON.Vec3(), xB, q, q, bi, bj, null, null, false, list, null);
        return world.narrowphase.result.flatMap((c) => [
          c.ni.x,
          c.ni.y,
          c.ni.z,
          c.ri.x,
          c.ri.y,
          c.ri.z,
          c.rj.x,
          c.rj.y,
          c.rj.z,
        ]);
      };
      const a = run(proto.convexConvex);
      const b = run(convexConvexExact as unknown as Fn);
      expect(a.length).toBeGreaterThan(0);
      expect(b.every((x, i) => Object.is(x, a[i])) && a.length === b.length).toBe(true);
    }
    // Shapes cannon's code chokes on are handed to it: the same contacts, or the same error.
    const empty = new CANNON.ConvexPolyhedron({ vertices: [new CANNON.Vec3(0, 0, 0)], faces: [] });
    const broken = randomHull(r, 12, 0.5, 0.5, 0.5);
    broken.faces[3][1] = 99;
    const nan = randomHull(r, 12, 0.5, 0.5, 0.5);
    nan.vertices[2].x = Number.NaN;
    const xA = new CANNON.Vec3();
    for (const S of [empty, broken, nan]) {
      for (const xS of [xA, new CANNON.Vec3(0.3, 0.2, 0.1)]) {
        const result = (fn: Fn) => {
          try {
            return outcome(fn, S, B, xS, xB, q, q, false);
          } catch (e) {
            return [String(e)];
          }
        };
        const a = result(proto.convexConvex);
        expectSameOutcome(a, result(convexConvexExact as unknown as Fn), 'a broken hull');
      }
    }
  });

  it('sphere–convex: corners, edges, faces, inside and outside', () => {
    const r = rng(5);
    const shapes = shapesOf(r);
    let hits = 0;
    // Whole cycles of vertex, edge and face targets at both depths.
    const perShape = depth(60, 150);
    for (const H of shapes) {
      for (let k = 0; k < perShape; k++) {
        const q = randomQuat(r);
        const xj = new CANNON.Vec3(r(), r(), r());
        // aim at a vertex, an edge midpoint or a face centre, at a random distance
        const v = H.vertices[Math.floor(r() * H.vertices.length)];
        const f = H.faces[Math.floor(r() * H.faces.length)];
        const w = H.vertices[f[1]];
        const target =
          k % 3 === 0
            ? v
            : k % 3 === 1
              ? v.vadd(w).scale(0.5)
              : H.vertices[f[0]]
                  .vadd(w)
                  .vadd(H.vertices[f[2]])
                  .scale(1 / 3);
        const world = q.vmult(target).vadd(xj);
        const dir = new CANNON.Vec3(r() - 0.5, r() - 0.5, r() - 0.5).unit();
        const radius = 0.05 + r() * 0.5;
        const s = radius * (r() * 1.6 - 0.3);
        const sphere = new CANNON.Sphere(radius);
        const xi = world.vadd(dir.scale(s));
        for (const justTest of [false, true]) {
          const a = outcome(proto.sphereConvex, sphere, H, xi, xj, new CANNON.Quaternion(), q, justTest);
          const b = outcome(
            sphereConvexExact as unknown as Fn,
            sphere,
            H,
            xi,
            xj,
            new CANNON.Quaternion(),
            q,
            justTest,
          );
          expectSameOutcome(a, b, `sphere ${k} against a ${H.vertices.length}-vertex hull`);
          if (!justTest && a.length > 1) hits++;
        }
      }
    }
    expect(hits).toBeGreaterThan(2 * perShape); // 300 at the full depth
  });
});
