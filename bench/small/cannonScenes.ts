/**
 * Small cannon-es scenes for `pnpm bench:small`, after the demo pages of cannon-es's `examples/`
 * folder (single body on a plane, bounce, pile, stacks, pyramid, jenga, compound, ragdoll, convex,
 * sleep, collision filter, heightfield, friction): the same kinds of bodies, shapes, constraints and
 * settings, written here in this project's own words with a seeded generator, 2–500 bodies. The
 * ground is built as cannon-es's README teaches: a static `Plane` turned with
 * `quaternion.setFromEuler(-Math.PI / 2, 0, 0)`. Worlds use cannon's defaults (its
 * NaiveBroadphase) and gravity −9.82 on y, stepped at a fixed 1/60 s.
 */
import * as CANNON from 'cannon-es';
import { rng } from '../lib/stats.js';

/** Builds a scene into `world` (fresh, maybe with Sieve installed): the same seed gives the same scene. */
export type CannonSceneBuilder = (world: CANNON.World, seed: number) => void;

const { Body, Box, Plane, Sphere, Vec3 } = CANNON;

/** The README's ground: a static plane turned to face +y. */
function ground(world: CANNON.World, material?: CANNON.Material): void {
  const body = new Body({ mass: 0, shape: new Plane(), material });
  body.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(body);
}

function box(world: CANNON.World, x: number, y: number, z: number, h: number, mass = 1): CANNON.Body {
  const b = new Body({ mass, shape: new Box(new Vec3(h, h, h)), position: new Vec3(x, y, z) });
  world.addBody(b);
  return b;
}

function sphere(world: CANNON.World, x: number, y: number, z: number, r: number, mass = 1): CANNON.Body {
  const b = new Body({ mass, shape: new Sphere(r), position: new Vec3(x, y, z) });
  world.addBody(b);
  return b;
}

/** A unit cube as a convex polyhedron (the convex demo's box). */
function convexCube(h: number): CANNON.ConvexPolyhedron {
  const v = [
    [-h, -h, -h],
    [h, -h, -h],
    [h, h, -h],
    [-h, h, -h],
    [-h, -h, h],
    [h, -h, h],
    [h, h, h],
    [-h, h, h],
  ].map(([x, y, z]) => new Vec3(x, y, z));
  const faces = [
    [3, 2, 1, 0],
    [4, 5, 6, 7],
    [5, 4, 0, 1],
    [2, 3, 7, 6],
    [0, 4, 7, 3],
    [1, 2, 6, 5],
  ];
  return new CANNON.ConvexPolyhedron({ vertices: v, faces });
}

/** A tetrahedron as a convex polyhedron (the convex demo's other shape). */
function tetra(s: number): CANNON.ConvexPolyhedron {
  const v = [new Vec3(0, 0, 0), new Vec3(s, 0, 0), new Vec3(0, s, 0), new Vec3(0, 0, s)];
  const faces = [
    [0, 3, 2],
    [0, 1, 3],
    [0, 2, 1],
    [1, 2, 3],
  ];
  return new CANNON.ConvexPolyhedron({ vertices: v, faces });
}

/** A figure of boxes and spheres held by cone-twist and point constraints (the ragdoll demo). */
function ragdoll(world: CANNON.World, x: number, y: number, z: number): void {
  const part = (shape: CANNON.Shape, dx: number, dy: number) => {
    const b = new Body({ mass: 1, shape, position: new Vec3(x + dx, y + dy, z) });
    world.addBody(b);
    return b;
  };
  const limb = (h: number) => new Box(new Vec3(0.1, h, 0.1));
  const pelvis = part(new Box(new Vec3(0.3, 0.15, 0.15)), 0, 0);
  const chest = part(new Box(new Vec3(0.35, 0.3, 0.15)), 0, 0.5);
  const head = part(new Sphere(0.22), 0, 1.05);
  const upperL = part(limb(0.25), -0.5, 0.6);
  const lowerL = part(limb(0.25), -0.5, 0.1);
  const upperR = part(limb(0.25), 0.5, 0.6);
  const lowerR = part(limb(0.25), 0.5, 0.1);
  const thighL = part(limb(0.3), -0.18, -0.5);
  const shinL = part(limb(0.3), -0.18, -1.1);
  const thighR = part(limb(0.3), 0.18, -0.5);
  const shinR = part(limb(0.3), 0.18, -1.1);
  const cone = (a: CANNON.Body, b: CANNON.Body, pa: [number, number], pb: [number, number]) =>
    world.addConstraint(
      new CANNON.ConeTwistConstraint(a, b, {
        pivotA: new Vec3(pa[0], pa[1], 0),
        pivotB: new Vec3(pb[0], pb[1], 0),
        axisA: new Vec3(0, 1, 0),
        axisB: new Vec3(0, 1, 0),
        angle: Math.PI / 4,
        twistAngle: Math.PI / 8,
      }),
    );
  cone(pelvis, chest, [0, 0.15], [0, -0.35]);
  cone(chest, head, [0, 0.3], [0, -0.25]);
  cone(chest, upperL, [-0.4, 0.2], [0, 0.3]);
  world.addConstraint(
    new CANNON.PointToPointConstraint(upperL, new Vec3(0, -0.27, 0), lowerL, new Vec3(0, 0.27, 0)),
  );
  cone(chest, upperR, [0.4, 0.2], [0, 0.3]);
  world.addConstraint(
    new CANNON.PointToPointConstraint(upperR, new Vec3(0, -0.27, 0), lowerR, new Vec3(0, 0.27, 0)),
  );
  cone(pelvis, thighL, [-0.18, -0.15], [0, 0.32]);
  world.addConstraint(
    new CANNON.PointToPointConstraint(thighL, new Vec3(0, -0.32, 0), shinL, new Vec3(0, 0.32, 0)),
  );
  cone(pelvis, thighR, [0.18, -0.15], [0, 0.32]);
  world.addConstraint(
    new CANNON.PointToPointConstraint(thighR, new Vec3(0, -0.32, 0), shinR, new Vec3(0, 0.32, 0)),
  );
}

/** The cannon-es scenes, by demo name. Body counts include the ground. */
export const cannonScenes: Record<string, CannonSceneBuilder> = {
  /** One box resting on the README's rotated plane (2 bodies). */
  singleBodyOnPlane: (world) => {
    ground(world);
    box(world, 0, 2, 0, 0.5);
  },
  /** Three spheres of restitution 0.2, 0.5 and 0.9 bouncing on the plane (4 bodies). */
  bounce: (world) => {
    const floor = new CANNON.Material('floor');
    ground(world, floor);
    for (const [i, e] of [0.2, 0.5, 0.9].entries()) {
      const m = new CANNON.Material(`ball${i}`);
      world.addContactMaterial(new CANNON.ContactMaterial(floor, m, { friction: 0, restitution: e }));
      const b = sphere(world, -2 + 2 * i, 5, 0, 0.5);
      b.material = m;
    }
  },
  /** A 5-body pile: boxes and spheres dropped in a heap on the plane (6 bodies). */
  pile: (world, seed) => {
    const r = rng(seed);
    ground(world);
    for (let i = 0; i < 5; i++) {
      const x = (r() - 0.5) * 0.6;
      const z = (r() - 0.5) * 0.6;
      if (i % 2 === 0) box(world, x, 1 + 1.1 * i, z, 0.5);
      else sphere(world, x, 1 + 1.1 * i, z, 0.5);
    }
  },
  /** Twenty spheres of mixed sizes rolling on the plane. */
  spheresOnPlane: (world, seed) => {
    const r = rng(seed);
    ground(world);
    for (let i = 0; i < 20; i++) {
      const b = sphere(world, (r() - 0.5) * 8, 0.5 + r() * 4, (r() - 0.5) * 8, 0.3 + 0.3 * r());
      b.velocity.set((r() - 0.5) * 2, 0, (r() - 0.5) * 2);
    }
  },
  /** Three columns of 10 boxes (the stacks demo). */
  stacks: (world) => {
    ground(world);
    for (let c = 0; c < 3; c++)
      for (let k = 0; k < 10; k++) box(world, 2.5 * c - 2.5, 0.5 + 1.02 * k, 0, 0.5);
  },
  /** A pyramid of boxes, 10 at the base (55 boxes). */
  pyramid: (world) => {
    ground(world);
    for (let row = 0; row < 10; row++) {
      for (let k = 0; k < 10 - row; k++) box(world, (k - (9 - row) / 2) * 1.05, 0.5 + row * 1.01, 0, 0.5);
    }
  },
  /** A jenga tower: 12 layers of three planks, alternating direction (36 planks). */
  jenga: (world) => {
    ground(world);
    const h = 0.3;
    for (let layer = 0; layer < 12; layer++) {
      for (let k = 0; k < 3; k++) {
        const along = layer % 2 === 0;
        const half = along ? new Vec3(1.5, h, 0.45) : new Vec3(0.45, h, 1.5);
        const d = (k - 1) * 1.0;
        const b = new Body({
          mass: 1,
          shape: new Box(half),
          position: new Vec3(along ? 0 : d, h + layer * 2 * h * 1.01, along ? d : 0),
        });
        world.addBody(b);
      }
    }
  },
  /** Compound bodies (a box with two spheres, an L of boxes) dropped on the plane (13 bodies). */
  compound: (world, seed) => {
    const r = rng(seed);
    ground(world);
    for (let i = 0; i < 12; i++) {
      const b = new Body({ mass: 1, position: new Vec3((r() - 0.5) * 4, 1 + i * 1.6, (r() - 0.5) * 4) });
      if (i % 2 === 0) {
        b.addShape(new Box(new Vec3(0.5, 0.25, 0.25)));
        b.addShape(new Sphere(0.3), new Vec3(0.6, 0, 0));
        b.addShape(new Sphere(0.3), new Vec3(-0.6, 0, 0));
      } else {
        b.addShape(new Box(new Vec3(0.5, 0.15, 0.15)), new Vec3(0.35, 0, 0));
        b.addShape(new Box(new Vec3(0.15, 0.5, 0.15)), new Vec3(0, 0.35, 0));
      }
      b.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
      world.addBody(b);
    }
  },
  /** Three ragdolls (11 parts each, cone-twist and point joints) falling onto the plane. */
  ragdoll: (world) => {
    ground(world);
    for (let i = 0; i < 3; i++) ragdoll(world, (i - 1) * 2, 3 + 2 * i, 0);
  },
  /** Convex polyhedra (cubes and tetrahedra) tumbling onto the plane (25 bodies). */
  convex: (world, seed) => {
    const r = rng(seed);
    ground(world);
    const cube = convexCube(0.5);
    const t = tetra(1);
    for (let i = 0; i < 24; i++) {
      const b = new Body({
        mass: 1,
        shape: i % 3 === 2 ? t : cube,
        position: new Vec3((r() - 0.5) * 6, 1 + i * 0.8, (r() - 0.5) * 6),
      });
      b.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
      world.addBody(b);
    }
  },
  /** Sleeping allowed: 40 boxes and spheres settle and fall asleep on the plane. */
  sleep: (world, seed) => {
    const r = rng(seed);
    world.allowSleep = true;
    ground(world);
    for (let i = 0; i < 40; i++) {
      const x = (r() - 0.5) * 10;
      const z = (r() - 0.5) * 10;
      const b = i % 2 === 0 ? box(world, x, 0.5 + r() * 3, z, 0.4) : sphere(world, x, 0.5 + r() * 3, z, 0.4);
      b.sleepSpeedLimit = 0.5;
      b.sleepTimeLimit = 0.5;
      b.allowSleep = true;
    }
  },
  /** Collision filter groups and masks: three kinds of spheres, some passing through each other (31 bodies). */
  collisionFilter: (world, seed) => {
    const r = rng(seed);
    ground(world);
    const GROUND = 1;
    const A = 2;
    const B = 4;
    const C = 8;
    const plane = world.bodies[0];
    plane.collisionFilterGroup = GROUND;
    plane.collisionFilterMask = A | B | C;
    for (let i = 0; i < 30; i++) {
      const b = sphere(world, (r() - 0.5) * 3, 1 + i * 0.7, (r() - 0.5) * 3, 0.4);
      const kind = i % 3;
      b.collisionFilterGroup = kind === 0 ? A : kind === 1 ? B : C;
      // A meets everything, B meets A and the ground, C only the ground.
      b.collisionFilterMask = kind === 0 ? GROUND | A | B | C : kind === 1 ? GROUND | A : GROUND;
    }
  },
  /** Spheres and boxes dropped on a 20 × 20 heightfield of hills (31 bodies). */
  heightfield: (world, seed) => {
    const r = rng(seed);
    const data: number[][] = [];
    for (let i = 0; i < 20; i++) {
      const row: number[] = [];
      for (let j = 0; j < 20; j++)
        row.push(Math.cos((i / 20) * Math.PI * 2) * Math.cos((j / 20) * Math.PI * 2) + 2);
      data.push(row);
    }
    const field = new Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 1 }) });
    field.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
    field.position.set(-10, 0, 10);
    world.addBody(field);
    for (let i = 0; i < 30; i++) {
      const x = (r() - 0.5) * 16;
      const z = (r() - 0.5) * 16;
      if (i % 2 === 0) sphere(world, x, 5 + r() * 3, z, 0.4);
      else box(world, x, 5 + r() * 3, z, 0.35);
    }
  },
  /** Boxes sliding down onto the plane on two friction materials, all thrown sideways (61 bodies). */
  friction: (world, seed) => {
    const r = rng(seed);
    const floor = new CANNON.Material('floor');
    const slippery = new CANNON.Material('slippery');
    const grippy = new CANNON.Material('grippy');
    world.addContactMaterial(new CANNON.ContactMaterial(floor, slippery, { friction: 0.01 }));
    world.addContactMaterial(new CANNON.ContactMaterial(floor, grippy, { friction: 0.6 }));
    ground(world, floor);
    for (let i = 0; i < 60; i++) {
      const b = box(world, (r() - 0.5) * 12, 0.5 + (i % 4) * 1.1, (r() - 0.5) * 12, 0.45);
      b.material = i % 2 === 0 ? slippery : grippy;
      b.velocity.set((r() - 0.5) * 6, 0, (r() - 0.5) * 6);
    }
  },
  /** A ball pit: 200 spheres poured into a box of four static walls. */
  ballPit: (world, seed) => {
    const r = rng(seed);
    ground(world);
    for (const [x, z, hx, hz] of [
      [5, 0, 0.2, 5],
      [-5, 0, 0.2, 5],
      [0, 5, 5, 0.2],
      [0, -5, 5, 0.2],
    ]) {
      world.addBody(new Body({ mass: 0, shape: new Box(new Vec3(hx, 2, hz)), position: new Vec3(x, 2, z) }));
    }
    for (let i = 0; i < 200; i++)
      sphere(world, (r() - 0.5) * 8, 1 + i * 0.08, (r() - 0.5) * 8, 0.3 + 0.15 * r());
  },
  /** A heap of 500 boxes and spheres (the performance demo's size) dropped on the plane. */
  heap500: (world, seed) => {
    const r = rng(seed);
    ground(world);
    for (let i = 0; i < 500; i++) {
      const x = (r() - 0.5) * 14;
      const z = (r() - 0.5) * 14;
      const y = 0.5 + (i / 500) * 20;
      if (i % 2 === 0) box(world, x, y, z, 0.3);
      else sphere(world, x, y, z, 0.3);
    }
  },
};
