/**
 * Whole worlds with boxes and convex hulls, stepped with stock cannon-es and with `installSieve(world)`
 * (whose exact hull path answers every box, convex, cylinder, sphere–convex and heightfield-pillar
 * pair): every body's numbers, every contact and friction equation, and every event must be the same,
 * bit for bit (`Object.is`), step after step. Scenes ported from cannon-es's examples (convex: various,
 * convex on convex, convex wall; stacks; pile; jenga; heightfield) and hull piles of 12–24-point hulls.
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { installSieve, uninstallSieve } from '../src/index.js';
import { hullPile, randomHull } from './hulls.js';
import { scenes } from './scenes.js';
import { flushStockEventArrays } from './support/stockEventArrays.js';
import { resetIds, rng } from './worlds.js';

const V = (x: number, y: number, z: number) => new CANNON.Vec3(x, y, z);

/** Steps a world `steps` times, recording every number and event. */
function record(
  build: () => CANNON.World,
  steps: number,
  sieve: boolean,
): { states: number[][]; events: string[] } {
  resetIds();
  flushStockEventArrays();
  const world = build();
  if (sieve) installSieve(world);
  const events: string[] = [];
  for (const b of world.bodies) {
    b.addEventListener('collide', (e: { body: CANNON.Body; contact: CANNON.ContactEquation }) =>
      events.push(`c${b.id}/${e.body.id}:${e.contact.ni.x},${e.contact.ri.y},${e.contact.rj.z}`),
    );
  }
  for (const type of ['beginContact', 'endContact'] as const) {
    world.addEventListener(type, (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
      events.push(`${type}${e.bodyA?.id}/${e.bodyB?.id}`),
    );
  }
  const states: number[][] = [];
  for (let k = 0; k < steps; k++) {
    world.step(1 / 60);
    const s: number[] = [];
    for (const b of world.bodies) {
      const { position: p, quaternion: q, velocity: v, angularVelocity: w } = b;
      s.push(b.id, p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z, b.sleepState);
    }
    for (const c of world.contacts) {
      s.push(c.bi.id, c.bj.id, c.si.id, c.sj.id, c.enabled ? 1 : 0, c.restitution);
      s.push(c.ni.x, c.ni.y, c.ni.z, c.ri.x, c.ri.y, c.ri.z, c.rj.x, c.rj.y, c.rj.z);
    }
    for (const f of world.frictionEquations) {
      s.push(
        f.bi.id,
        f.bj.id,
        f.t.x,
        f.t.y,
        f.t.z,
        f.ri.x,
        f.ri.y,
        f.ri.z,
        f.rj.x,
        f.rj.y,
        f.rj.z,
        f.maxForce,
      );
    }
    states.push(s);
  }
  return { states, events };
}

function expectSame(build: () => CANNON.World, steps: number): number {
  const a = record(build, steps, false);
  const b = record(build, steps, true);
  let contacts = 0;
  for (let k = 0; k < steps; k++) {
    const x = a.states[k];
    const y = b.states[k];
    if (x.length !== y.length || x.some((v, i) => !Object.is(v, y[i]))) {
      expect({ step: k, state: y }).toEqual({ step: k, state: x });
    }
    contacts += x.length;
  }
  expect(b.events).toEqual(a.events);
  return contacts;
}

function plane(w: CANNON.World): void {
  const g = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  g.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  w.addBody(g);
}

/** cannon-es's convex example: its three scenes (gravity −30, stiff contacts), in one world apart. */
function convexExample(): CANNON.World {
  const w = new CANNON.World({ gravity: V(0, -30, 0) });
  w.defaultContactMaterial.contactEquationStiffness = 5e6;
  w.defaultContactMaterial.contactEquationRelaxation = 3;
  plane(w);
  const box = (s: number) => new CANNON.Box(V(s, s, s)).convexPolyhedronRepresentation;
  const tetra = new CANNON.ConvexPolyhedron({
    vertices: [V(0, 0, 0), V(2, 0, 0), V(0, 2, 0), V(0, 0, 2)].map((v) => v.vadd(V(-0.35, -0.35, -0.35))),
    faces: [
      [0, 3, 2],
      [0, 1, 3],
      [0, 2, 1],
      [1, 2, 3],
    ],
  });
  const add = (shape: CANNON.Shape, x: number, y: number, z: number, mass = 10) => {
    const b = new CANNON.Body({ mass, shape, position: V(x, y, z) });
    w.addBody(b);
    return b;
  };
  // Various
  add(box(0.5), -1, 1.5, 0);
  add(tetra, -5, 1.5, -3);
  add(new CANNON.Cylinder(0.5, 0.5, 2, 20), 0, 3, 0).quaternion.setFromEuler(0, 0, Math.PI / 3);
  // Convex on convex (tilting over)
  add(box(2), 20, 3, 0);
  add(box(2), 18.5, 9, 0);
  // Convex wall
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) add(box(1), -20 - (2 * i + 0.01), 2 * j + 1.2, 0);
  return w;
}

/** Hulls, boxes, cylinders and spheres on a heightfield (cannon's heightfield example, with hulls). */
function hullHeightfield(): CANNON.World {
  const w = new CANNON.World({ gravity: V(0, -9.82, 0) });
  const data: number[][] = [];
  for (let i = 0; i < 14; i++) {
    data.push([]);
    for (let j = 0; j < 14; j++)
      data[i].push(Math.cos((i / 14) * Math.PI * 2) * Math.cos((j / 14) * Math.PI * 2) * 1.2);
  }
  const hf = new CANNON.Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 1 }) });
  hf.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  hf.position.set(-7, 0, 7);
  w.addBody(hf);
  const r = rng(11);
  const hulls = [randomHull(r, 14, 0.4, 0.35, 0.4), randomHull(r, 20, 0.5, 0.3, 0.45)];
  for (let i = 0; i < 24; i++) {
    const shape =
      i % 4 === 0
        ? new CANNON.Box(V(0.3, 0.25, 0.35))
        : i % 4 === 1
          ? new CANNON.Sphere(0.35)
          : i % 4 === 2
            ? hulls[i % 2]
            : new CANNON.Cylinder(0.3, 0.3, 0.6, 8);
    const b = new CANNON.Body({
      mass: 1,
      shape,
      position: V((i % 6) * 1.6 - 4, 2.5 + Math.floor(i / 6), ((i * 5) % 7) - 3),
    });
    b.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
    w.addBody(b);
  }
  return w;
}

/** Spheres dropped on resting hulls and cylinders (sphere–convex). */
function spheresOnHulls(): CANNON.World {
  const w = new CANNON.World({ gravity: V(0, -9.82, 0) });
  plane(w);
  const r = rng(12);
  for (let i = 0; i < 16; i++) {
    const hull = i % 2 ? randomHull(r, 16, 0.5, 0.3, 0.5) : new CANNON.Cylinder(0.4, 0.5, 0.6, 10);
    w.addBody(
      new CANNON.Body({
        mass: 3,
        shape: hull,
        position: V((i % 4) * 1.3 - 2, 0.6, Math.floor(i / 4) * 1.3 - 2),
      }),
    );
    w.addBody(
      new CANNON.Body({
        mass: 0.5,
        shape: new CANNON.Sphere(0.2 + 0.1 * r()),
        position: V((i % 4) * 1.3 - 2 + 0.2 * r(), 2 + r(), Math.floor(i / 4) * 1.3 - 2),
      }),
    );
  }
  return w;
}

describe('installSieve(world): box and hull worlds step bit for bit as stock', () => {
  it('the harness can fail: stock with friction reduction on differs from stock', () => {
    const a = record(() => scenes.stacks().world, 60, false);
    const b = record(
      () => {
        const w = scenes.stacks().world;
        w.narrowphase.enableFrictionReduction = true;
        return w;
      },
      60,
      false,
    );
    expect(b.states).not.toEqual(a.states);
  });

  for (const name of ['convex', 'stacks', 'pyramid', 'pile', 'jenga', 'heightfield']) {
    it(`cannon-es example scene: ${name}`, () => {
      // Every scene has contacts by step 45.
      expect(expectSame(() => scenes[name]().world, depth(80, 200))).toBeGreaterThan(1000);
    });
  }

  it('cannon-es convex example (various, convex on convex, convex wall)', () => {
    // The big box lands on the other by step 25 and tilts over from there.
    expect(expectSame(convexExample, depth(120, 240))).toBeGreaterThan(1000);
  });

  it('hulls, boxes, cylinders and spheres on a heightfield', () => {
    expect(expectSame(hullHeightfield, depth(80, 200))).toBeGreaterThan(1000);
  });

  it('spheres on hulls and cylinders', () => {
    expect(expectSame(spheresOnHulls, depth(75, 150))).toBeGreaterThan(1000);
  });

  for (const kind of ['hulls', 'boxes', 'mixed'] as const) {
    it(`a pile of 40 ${kind} on a box ground, with friction reduction too`, () => {
      const build = (reduce: boolean) => () => {
        const w = new CANNON.World();
        w.narrowphase.enableFrictionReduction = reduce;
        hullPile(w, { count: 40, kind, seed: 4 });
        return w;
      };
      // Two layers: the upper lands on the lower by step 26.
      expect(expectSame(build(false), depth(50, 150))).toBeGreaterThan(1000);
      expect(expectSame(build(true), depth(40, 60))).toBeGreaterThan(100);
    });
  }

  it('uninstalling restores cannon’s own handlers; exactConvex: false keeps them', () => {
    const w = new CANNON.World();
    const np = w.narrowphase as unknown as Record<string, unknown>;
    const proto = Object.getPrototypeOf(np);
    installSieve(w);
    expect(Object.hasOwn(np, 'convexConvex')).toBe(true);
    expect(np.convexConvex).not.toBe(proto.convexConvex);
    expect(np.sphereConvex).not.toBe(proto.sphereConvex);
    const w2 = new CANNON.World();
    installSieve(w2, { narrowphase: { exactConvex: false } });
    expect(Object.hasOwn(w2.narrowphase, 'convexConvex')).toBe(false);
    // uninstall
    uninstallSieve(w);
    expect(Object.hasOwn(np, 'convexConvex')).toBe(false);
    expect(np.convexConvex).toBe(proto.convexConvex);
  });
});
