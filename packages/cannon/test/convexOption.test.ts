/**
 * `narrowphase: { convex: convexContacts }` (of `@sieve/cannon/convex`) as a user meets it: which pairs it
 * takes over, how it sits with the other narrowphase options, uninstalling, materials, events, kinematic overlaps (the `justTest` form),
 * the hull cache noticing edited shapes, the pair cache, and hostile shapes (no throw inside a step).
 */
import * as CANNON from 'cannon-es';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { boxHull, buildHull, hullOf } from '../src/convex/hull.js';
import { boxBoxPrefilter, convexContacts, sphereBoxContact } from '../src/convex/index.js';
import { PairCache } from '../src/convex/pairCache.js';
import { installSieve, uninstallSieve } from '../src/index.js';
import { boxGround, hullPile, randomHull, rng } from './convexScenes.js';
import { scenes } from './scenes.js';
import { flushStockEventArrays } from './support/stockEventArrays.js';

const T = CANNON.Shape.types;
/** Dispatch keys the option takes over. */
const KEYS = [
  T.BOX,
  T.BOX | T.CONVEXPOLYHEDRON,
  T.CONVEXPOLYHEDRON,
  T.CYLINDER,
  T.BOX | T.CYLINDER,
  T.CONVEXPOLYHEDRON | T.CYLINDER,
  T.SPHERE | T.BOX,
  T.SPHERE | T.CONVEXPOLYHEDRON,
  T.SPHERE | T.CYLINDER,
  T.BOX | T.HEIGHTFIELD,
  T.CONVEXPOLYHEDRON | T.HEIGHTFIELD,
  T.HEIGHTFIELD | T.CYLINDER,
];

const own = (np: CANNON.Narrowphase, key: number) => Object.getOwnPropertyDescriptor(np, key)?.value;

describe('convex option: installation', () => {
  it('takes over the box, convex and cylinder pairs only with convexContacts, and uninstalls cleanly', () => {
    const plain = new CANNON.World();
    installSieve(plain);
    for (const key of KEYS) expect(own(plain.narrowphase, key)).toBeUndefined();
    const world = new CANNON.World();
    installSieve(world, { narrowphase: { convex: convexContacts } });
    const handlers = KEYS.map((key) => own(world.narrowphase, key));
    for (const h of handlers) expect(typeof h).toBe('function');
    // One handler serves all hull–hull keys.
    expect(new Set(handlers.slice(0, 6)).size).toBe(1);
    // Planes and particles stay cannon's.
    expect(own(world.narrowphase, T.PLANE | T.CONVEXPOLYHEDRON)).toBeUndefined();
    uninstallSieve(world);
    for (const key of KEYS) expect(own(world.narrowphase, key)).toBeUndefined();
    // Installing again works, and the option is checked like the others.
    installSieve(world, { narrowphase: { convex: convexContacts } });
    uninstallSieve(world);
    expect(() =>
      installSieve(new CANNON.World(), { narrowphase: { convex: 1 as unknown as false } }),
    ).toThrow(/options\.narrowphase\.convex must be false or convexContacts/);
    expect(() =>
      installSieve(new CANNON.World(), { narrowphase: { convex: {} as unknown as false } }),
    ).toThrow(/convex/);
  });

  it('convex: true throws at install, naming the option and what to import, before the world changes', () => {
    const world = new CANNON.World();
    const { broadphase, collisionMatrix } = world;
    const np = world.narrowphase as unknown as Record<string, unknown>;
    const convexConvex = np.convexConvex;
    const bad = { narrowphase: { convex: true as unknown as false } };
    expect(() => installSieve(world, bad)).toThrow(TypeError);
    expect(() => installSieve(world, bad)).toThrow(
      "installSieve: options.narrowphase.convex takes the convex contact generator, not true: import { convexContacts } from '@sieve/cannon/convex' and pass convex: convexContacts",
    );
    expect(world.broadphase).toBe(broadphase);
    expect(world.collisionMatrix).toBe(collisionMatrix);
    expect(np.convexConvex).toBe(convexConvex);
    for (const key of KEYS) expect(own(world.narrowphase, key)).toBeUndefined();
    // Nothing was installed: the world takes Sieve afterwards.
    installSieve(world, { narrowphase: { convex: convexContacts } });
    uninstallSieve(world);
  });

  it('sphereBox: sphereBoxContact keeps sphere–box on OCSI; boxBox is its own', () => {
    const a = new CANNON.World();
    installSieve(a, {
      narrowphase: { convex: convexContacts, sphereBox: sphereBoxContact, boxBox: boxBoxPrefilter },
    });
    const b = new CANNON.World();
    installSieve(b, { narrowphase: { sphereBox: sphereBoxContact } });
    const c = new CANNON.World();
    installSieve(c, { narrowphase: { convex: convexContacts } });
    expect(own(a.narrowphase, T.SPHERE | T.BOX)).toBe(own(b.narrowphase, T.SPHERE | T.BOX));
    expect(own(a.narrowphase, T.BOX)).toBe(own(a.narrowphase, T.CONVEXPOLYHEDRON));
    expect(own(c.narrowphase, T.SPHERE | T.BOX)).toBe(own(c.narrowphase, T.SPHERE | T.CONVEXPOLYHEDRON));
  });
});

describe('convex option: cannon sees its own equations', () => {
  it('contact materials set restitution and friction; events fire', () => {
    const r = rng(3);
    for (const convex of [false, true]) {
      const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
      world.allowSleep = true;
      const ice = new CANNON.Material('ice');
      const rubber = new CANNON.Material('rubber');
      world.addContactMaterial(new CANNON.ContactMaterial(ice, rubber, { friction: 0.01, restitution: 0.9 }));
      const ground = boxGround(world);
      ground.material = ice;
      const hull = new CANNON.Body({ mass: 1, shape: randomHull(r, 16, 0.4, 0.4, 0.4), material: rubber });
      hull.position.set(0, 1, 0);
      world.addBody(hull);
      installSieve(world, { narrowphase: { convex: convex && convexContacts } });
      let begins = 0;
      let collides = 0;
      world.addEventListener('beginContact', () => begins++);
      hull.addEventListener('collide', () => collides++);
      let restitution = -1;
      let bound = -1;
      let bounced = false;
      for (let s = 0, steps = depth(300, 600); s < steps; s++) {
        world.step(1 / 60);
        if (world.contacts.length > 0) restitution = world.contacts[0].restitution;
        // The friction bound per contact (each tangent): cannon's μ·g·reduced mass (1 against a static
        // body) a pair per contact; a patch's anchored pairs share its corners' total (not the load
        // contact's: it adds none).
        const contacts = world.contacts.length;
        const patch = convex && contacts >= 4 && world.frictionEquations.length === 4;
        let sum = 0;
        for (const f of world.frictionEquations) sum += f.maxForce;
        if (contacts > 0 && world.frictionEquations.length > 0)
          bound = sum / 2 / (patch ? contacts - 1 : contacts);
        if (s > 20 && hull.velocity.y > 1) bounced = true;
      }
      expect(restitution, `convex ${convex}`).toBeCloseTo(0.9, 12);
      expect(bound).toBeCloseTo(0.01 * 9.82, 9);
      expect(bounced).toBe(true);
      expect(begins).toBeGreaterThan(0);
      expect(collides).toBeGreaterThan(0);
    }
  });

  it('dropped hulls, boxes and cylinders come to rest and sleep', () => {
    const r = rng(10);
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
    world.allowSleep = true;
    boxGround(world);
    const bodies: CANNON.Body[] = [];
    for (let k = 0; k < 12; k++) {
      const shape =
        k % 3 === 0
          ? randomHull(r, 16, 0.4, 0.3, 0.35)
          : k % 3 === 1
            ? new CANNON.Box(new CANNON.Vec3(0.3, 0.2, 0.4))
            : new CANNON.Cylinder(0.3, 0.3, 0.4, 10);
      const body = new CANNON.Body({ mass: 1, shape });
      body.position.set((k % 4) * 1.5 - 2, 0.6 + 0.3 * r(), Math.floor(k / 4) * 1.5 - 1.5);
      body.quaternion.setFromEuler(r(), r(), r());
      world.addBody(body);
      bodies.push(body);
    }
    installSieve(world, { narrowphase: { convex: convexContacts } });
    // All asleep from step 228.
    for (let s = 0, steps = depth(400, 900); s < steps; s++) world.step(1 / 60);
    for (const b of bodies) {
      expect(b.sleepState).toBe(CANNON.Body.SLEEPING);
      expect(b.position.y).toBeGreaterThan(0.1);
    }
  });

  it('friction reduction: one averaged friction pair per manifold (the load contact adds none)', () => {
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
    world.narrowphase.enableFrictionReduction = true;
    boxGround(world);
    const box = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5)) });
    box.position.set(0, 0.499, 0);
    world.addBody(box);
    installSieve(world, { narrowphase: { convex: convexContacts } });
    world.step(1 / 60);
    expect(world.contacts.length).toBe(5);
    expect(world.frictionEquations.length).toBe(2);
  });

  it('kinematic through static: the overlap is reported (justTest) as stock reports it', () => {
    const events: string[][] = [];
    for (const convex of [false, true]) {
      const world = new CANNON.World();
      const wall = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(0.2, 2, 2)) });
      world.addBody(wall);
      const mover = new CANNON.Body({
        mass: 0,
        type: CANNON.Body.KINEMATIC,
        shape: randomHull(rng(4), 14, 0.5, 0.5, 0.5),
      });
      mover.position.set(-3, 0, 0);
      mover.velocity.set(3, 0, 0);
      world.addBody(mover);
      installSieve(world, { narrowphase: { convex: convex && convexContacts } });
      const log: string[] = [];
      world.addEventListener('beginContact', () => log.push(`begin ${world.stepnumber}`));
      world.addEventListener('endContact', () => log.push(`end ${world.stepnumber}`));
      flushStockEventArrays();
      for (let s = 0; s < 150; s++) world.step(1 / 60);
      expect(world.contacts.length).toBe(0); // justTest makes no equations
      events.push(log);
    }
    expect(events[0].length).toBe(2);
    expect(events[1].length).toBe(2);
    // The same steps as stock, give or take the one where the hulls touch within rounding.
    for (let k = 0; k < 2; k++) {
      const a = Number(events[0][k].split(' ')[1]);
      const b = Number(events[1][k].split(' ')[1]);
      expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
    }
  });
});

describe('convex option: cannon-es example scenes', () => {
  // Past every scene's late edits (the last at step 170) at both depths; at the standard depth a scene
  // without any runs 120 (every body has landed by step 114).
  const steps = (late: unknown) => (late ? depth(180, 300) : depth(120, 300));
  it(`every ported example steps ${depth('120 to 180', '300')} steps with the option as with stock: finite, nothing through the floor`, () => {
    for (const [name, make] of Object.entries(scenes)) {
      const lowest: number[] = [];
      for (const convex of [false, true]) {
        const { world, late } = make();
        installSieve(world, { narrowphase: { convex: convex && convexContacts } });
        for (let s = 0, n = steps(late); s < n; s++) {
          late?.(s);
          world.step(1 / 60);
        }
        let low = Number.POSITIVE_INFINITY;
        for (const b of world.bodies) {
          expect(Number.isFinite(b.position.x + b.position.y + b.position.z), name).toBe(true);
          if (b.mass > 0) low = Math.min(low, b.position.y);
        }
        lowest.push(low);
      }
      // Where stock keeps every body on the floor, so does the option (a body falling off an edge
      // falls in both).
      if (lowest[0] > 0) expect(lowest[1], name).toBeGreaterThan(0.9 * lowest[0] - 0.05);
    }
  });
});

describe('convex option: hull cache', () => {
  it('merges coplanar triangles, and builds boxes and cylinders as their faces', () => {
    expect(boxHull(1, 2, 3)).toMatchObject({ nv: 8, nf: 6, ne: 12, maxFaceVerts: 4 });
    // A triangulated box (12 triangles) is a box again.
    const v: number[] = [];
    for (let k = 0; k < 8; k++) v.push(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    // biome-ignore format: two triangles a face
    const tris = [[0,4,6],[0,6,2],[1,3,7],[1,7,5],[0,1,5],[0,5,4],[2,6,7],[2,7,3],[0,2,3],[0,3,1],[4,5,7],[4,7,6]];
    expect(buildHull(v, tris)).toMatchObject({ nf: 6, ne: 12, maxFaceVerts: 4 });
    // Inward winding is turned outward.
    const flipped = buildHull(
      v,
      tris.map((t) => [t[0], t[2], t[1]]),
    );
    for (let f = 0; f < flipped.nf; f++) expect(flipped.planes[4 * f + 3]).toBeCloseTo(1, 12);
    const cyl = hullOf(new CANNON.Cylinder(1, 1, 2, 10), 0);
    expect(cyl).toMatchObject({ nv: 20, nf: 12, ne: 30 });
  });

  it('notices half extents changed, polyhedra edited in place or replaced', () => {
    const box = new CANNON.Box(new CANNON.Vec3(1, 1, 1));
    const h1 = hullOf(box, 1);
    expect(hullOf(box, 1)).toBe(h1);
    box.halfExtents.set(2, 1, 1);
    box.updateConvexPolyhedronRepresentation();
    const h2 = hullOf(box, 2);
    expect(h2).not.toBe(h1);
    expect(h2.planes.slice(0, 4)).toEqual(Float64Array.of(-1, 0, 0, 2));
    const poly = randomHull(rng(5), 16, 1, 1, 1);
    const p1 = hullOf(poly, 1);
    expect(hullOf(poly, 1)).toBe(p1);
    expect(hullOf(poly, 2)).toBe(p1); // next step, unchanged: same hull
    poly.vertices[0].x += 0.1; // edited in place
    expect(hullOf(poly, 2)).toBe(p1); // the contents are checked once a step
    expect(hullOf(poly, 3)).not.toBe(p1);
    const p3 = hullOf(poly, 3);
    poly.vertices = poly.vertices.map((x) => x.clone()); // replaced
    expect(hullOf(poly, 3)).not.toBe(p3);
  });

  it('a dropped hull lands on a box resized between steps', () => {
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
    const ground = boxGround(world);
    const hull = new CANNON.Body({ mass: 1, shape: randomHull(rng(6), 16, 0.3, 0.3, 0.3) });
    hull.position.set(0, 1.5, 0);
    world.addBody(hull);
    installSieve(world, { narrowphase: { convex: convexContacts } });
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    // The ground grows 1 up (top face at y = 1).
    const box = ground.shapes[0] as CANNON.Box;
    box.halfExtents.set(20, 1, 20);
    box.updateConvexPolyhedronRepresentation();
    ground.position.set(0, 0, 0);
    ground.updateBoundingRadius();
    ground.aabbNeedsUpdate = true;
    for (let s = 0; s < 240; s++) world.step(1 / 60);
    expect(hull.position.y).toBeGreaterThan(1.1);
    expect(hull.position.y).toBeLessThan(1.5);
  });
});

describe('convex option: pair cache', () => {
  it('keeps records across growth and drops pairs unused for a few steps', () => {
    const cache = new PairCache(3, 1);
    const r = rng(7);
    const live = new Map<string, number>();
    for (let step = 1; step < 60; step++) {
      // 300 pairs a step, a third of them new.
      for (let k = 0; k < 300; k++) {
        const a = k < 200 ? k : 1000 * step + k;
        const b = a + 7;
        const s = cache.slot(a, b, step);
        const key = `${a},${b}`;
        if (live.has(key)) expect(cache.ints[3 * s]).toBe(live.get(key));
        else expect(cache.ints[3 * s]).toBe(0);
        const v = 1 + Math.floor(r() * 1000);
        cache.ints[3 * s] = v;
        cache.floats[s] = v;
        live.set(key, v);
      }
    }
    // The table holds the recent pairs, not all 6 000 seen.
    expect(cache.size).toBeLessThan(2000);
  });
});

describe('convex option: hostile shapes', () => {
  it('empty, zero-size, flat, NaN and huge hulls step without throwing', () => {
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
    boxGround(world);
    const shapes: CANNON.Shape[] = [
      new CANNON.ConvexPolyhedron({ vertices: [], faces: [] }),
      new CANNON.Box(new CANNON.Vec3(0, 0, 0)),
      new CANNON.ConvexPolyhedron({
        vertices: [new CANNON.Vec3(0, 0, 0), new CANNON.Vec3(1, 0, 0), new CANNON.Vec3(0, 0, 1)],
        faces: [[0, 1, 2]],
      }),
      new CANNON.ConvexPolyhedron({
        vertices: [
          new CANNON.Vec3(Number.NaN, 0, 0),
          new CANNON.Vec3(1, 0, 0),
          new CANNON.Vec3(0, 1, 0),
          new CANNON.Vec3(0, 0, 1),
        ],
        faces: [
          [0, 2, 1],
          [0, 1, 3],
          [0, 3, 2],
          [1, 2, 3],
        ],
      }),
      new CANNON.Box(new CANNON.Vec3(1e300, 1e300, 1e300)),
      randomHull(rng(8), 12, 1e-9, 1e-9, 1e-9),
    ];
    for (const shape of shapes) {
      const body = new CANNON.Body({ mass: 1, shape });
      body.position.set(0, 0.2, 0);
      world.addBody(body);
    }
    const hf = new CANNON.Body({
      mass: 0,
      shape: new CANNON.Heightfield(
        [
          [0, 0],
          [0, 0],
        ],
        { elementSize: 1 },
      ),
    });
    world.addBody(hf);
    installSieve(world, { narrowphase: { convex: convexContacts } });
    expect(() => {
      for (let s = 0; s < 30; s++) world.step(1 / 60);
    }).not.toThrow();
  });

  it('a 60-hull pile settles on the ground, every body finite and above it', () => {
    const world = hullPile(60, 9);
    installSieve(world, { narrowphase: { convex: convexContacts } });
    // Every hull has landed by step 50; the pile still shifts until about step 250.
    for (let s = 0, steps = depth(150, 300); s < steps; s++) world.step(1 / 60);
    for (const b of world.bodies) {
      expect(Number.isFinite(b.position.y)).toBe(true);
      if (b.mass > 0) expect(b.position.y).toBeGreaterThan(0);
    }
  });
});
