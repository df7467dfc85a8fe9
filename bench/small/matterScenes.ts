/**
 * Small matter-js scenes for `pnpm bench:small`, after the demo scenes that ship with matter-js
 * (its `examples/` folder: stack, pyramid, chains, ragdoll, compound stack, ball pool, sensors,
 * sleeping, avalanche, mixed shapes, soft bodies, cloth, bridge, Newton's cradle, catapult, slingshot,
 * static friction, time scale, stress). Written here in this project's own words: the same kinds of
 * bodies, layouts, constraints, filters and per-step scripts, sized as the demos are (2–500 bodies),
 * with a seeded generator in place of `Common.random` so two builds of a scene start bit-identical.
 * Mouse, rendering and plugins are left out; the wrap-around plugin of the avalanche demo is a
 * per-step script that lifts fallen bodies back to the top.
 */
import Matter from 'matter-js';
import { rng } from '../lib/stats.js';

const { Bodies, Body, Composite, Composites, Constraint, Engine, Events } = Matter;

/** One built scene: its engine, and an optional script run before each update. */
export interface MatterScene {
  engine: Matter.Engine;
  beforeStep?: (step: number) => void;
}

/** A scene builder: the same seed gives the same scene. */
export type MatterSceneBuilder = (seed: number) => MatterScene;

type Rand = () => number;
const between = (r: Rand, lo: number, hi: number) => lo + r() * (hi - lo);

/** The 800 × 600 box most demos use: ceiling, floor, right and left walls. */
function box(): Matter.Body[] {
  return [
    Bodies.rectangle(400, 0, 800, 50, { isStatic: true }),
    Bodies.rectangle(400, 600, 800, 50, { isStatic: true }),
    Bodies.rectangle(800, 300, 50, 600, { isStatic: true }),
    Bodies.rectangle(0, 300, 50, 600, { isStatic: true }),
  ];
}

/** A random box or polygon as the mixed-shape demos pick them. */
function randomShape(r: Rand, x: number, y: number, lo: number, hi: number, options = {}): Matter.Body {
  if (r() < 0.5) {
    return r() < 0.8
      ? Bodies.rectangle(x, y, between(r, lo, hi), between(r, lo, hi), options)
      : Bodies.rectangle(x, y, between(r, 80, 120), between(r, lo, lo + 10), options);
  }
  return Bodies.polygon(x, y, Math.round(between(r, 1, 8)), between(r, lo, hi), options);
}

function make(options?: Matter.IEngineDefinition): Matter.Engine {
  return Engine.create(options);
}

/** Circles joined in a grid by springs (the soft-body and cloth demos' helper). */
function mesh(
  x: number,
  y: number,
  columns: number,
  rows: number,
  gap: number,
  crossBrace: boolean,
  radius: number,
  bodyOptions: Matter.IBodyDefinition,
  stiffness: number,
): Matter.Composite {
  const c = Composites.stack(x, y, columns, rows, gap, gap, (px: number, py: number) =>
    Bodies.circle(px, py, radius, { inertia: Number.POSITIVE_INFINITY, ...bodyOptions }),
  );
  Composites.mesh(c, columns, rows, crossBrace, { stiffness });
  return c;
}

/** A jointed figure: head, chest, upper and lower arms and legs, its parts never colliding. */
function ragdoll(x: number, y: number, scale: number): Matter.Composite {
  const group = Body.nextGroup(true);
  const filter = { group };
  const s = scale;
  const head = Bodies.rectangle(x, y - 60 * s, 34 * s, 40 * s, {
    collisionFilter: filter,
    chamfer: { radius: 15 * s },
  });
  const chest = Bodies.rectangle(x, y, 55 * s, 80 * s, {
    collisionFilter: filter,
    chamfer: { radius: 20 * s },
  });
  const limb = (dx: number, dy: number, w: number, h: number) =>
    Bodies.rectangle(x + dx * s, y + dy * s, w * s, h * s, {
      collisionFilter: filter,
      chamfer: { radius: 10 * s },
    });
  const upperArmL = limb(-39, -15, 20, 40);
  const lowerArmL = limb(-39, 25, 20, 60);
  const upperArmR = limb(39, -15, 20, 40);
  const lowerArmR = limb(39, 25, 20, 60);
  const upperLegL = limb(-20, 57, 20, 40);
  const lowerLegL = limb(-20, 97, 20, 60);
  const upperLegR = limb(20, 57, 20, 40);
  const lowerLegR = limb(20, 97, 20, 60);
  const joint = (a: Matter.Body, pa: [number, number], b: Matter.Body, pb: [number, number]) =>
    Constraint.create({
      bodyA: a,
      pointA: { x: pa[0] * s, y: pa[1] * s },
      bodyB: b,
      pointB: { x: pb[0] * s, y: pb[1] * s },
      stiffness: 0.6,
      length: 0,
    });
  const figure = Composite.create({
    bodies: [
      chest,
      head,
      upperArmL,
      lowerArmL,
      upperArmR,
      lowerArmR,
      upperLegL,
      lowerLegL,
      upperLegR,
      lowerLegR,
    ],
  });
  Composite.add(figure, [
    joint(chest, [0, -40], head, [0, 25]),
    joint(chest, [-24, -23], upperArmL, [0, -8]),
    joint(upperArmL, [0, 15], lowerArmL, [0, -25]),
    joint(chest, [24, -23], upperArmR, [0, -8]),
    joint(upperArmR, [0, 15], lowerArmR, [0, -25]),
    joint(chest, [-10, 30], upperLegL, [0, -10]),
    joint(upperLegL, [0, 20], lowerLegL, [0, -25]),
    joint(chest, [10, 30], upperLegR, [0, -10]),
    joint(upperLegR, [0, 20], lowerLegR, [0, -25]),
  ]);
  return figure;
}

/** The matter-js scenes, by the demo's name. Body counts include walls and static bodies. */
export const matterScenes: Record<string, MatterSceneBuilder> = {
  /** One ball dropping through a static sensor bar onto the floor (3 bodies). */
  sensors: () => {
    const engine = make();
    Composite.add(engine.world, [
      Bodies.rectangle(400, 300, 500, 50, { isSensor: true, isStatic: true }),
      Bodies.rectangle(400, 600, 800, 50, { isStatic: true }),
      Bodies.circle(400, 40, 30),
    ]);
    return { engine };
  },
  /** Two cradles of pendulum balls (5 and 7) on rigid strings, the first ball of each pulled aside. */
  newtonsCradle: () => {
    const engine = make();
    for (const [x, y, n, size, length] of [
      [280, 100, 5, 30, 200],
      [280, 380, 7, 20, 140],
    ]) {
      const cradle = Composite.create();
      for (let i = 0; i < n; i++) {
        const px = x + i * size * 1.9;
        const ball = Bodies.circle(px, y + length, size, {
          inertia: Number.POSITIVE_INFINITY,
          restitution: 1,
          friction: 0,
          frictionAir: 0,
          slop: size * 0.02,
        });
        Composite.add(cradle, [ball, Constraint.create({ pointA: { x: px, y }, bodyB: ball })]);
      }
      Body.translate(cradle.bodies[0], { x: -180, y: -100 });
      Composite.add(engine.world, cradle);
    }
    return { engine };
  },
  /** A 2 × 6 tower of blocks sliding on a plank that a static block moves back and forth under it. */
  staticFriction: () => {
    const engine = make();
    const slider = Bodies.rectangle(400, 500, 200, 60, { isStatic: true, chamfer: { radius: 10 } });
    const size = 50;
    const tower = Composites.stack(350, 470 - 6 * size, 1, 6, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, size * 2, size, {
        slop: 0.5,
        friction: 1,
        frictionStatic: Number.POSITIVE_INFINITY,
      }),
    );
    Composite.add(engine.world, [slider, tower, ...box()]);
    let phase = -1;
    Events.on(engine, 'beforeUpdate', () => {
      phase += 0.014;
      if (phase < 0) return;
      const px = 400 + 100 * Math.sin(phase);
      Body.setVelocity(slider, { x: px - slider.position.x, y: 0 });
      Body.setPosition(slider, { x: px, y: slider.position.y });
    });
    return { engine };
  },
  /** A seesaw plank hinged on a post, six crates on one end and a heavy ball dropping on the other. */
  catapult: () => {
    const engine = make();
    const group = Body.nextGroup(true);
    const crates = Composites.stack(250, 255, 1, 6, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 30, 30),
    );
    const plank = Bodies.rectangle(400, 520, 320, 20, { collisionFilter: { group } });
    Composite.add(engine.world, [
      crates,
      plank,
      Bodies.rectangle(400, 600, 800, 50.5, { isStatic: true }),
      Bodies.rectangle(250, 555, 20, 50, { isStatic: true }),
      Bodies.rectangle(400, 535, 20, 80, { isStatic: true, collisionFilter: { group } }),
      Bodies.circle(560, 100, 50, { density: 0.005 }),
      Constraint.create({
        bodyA: plank,
        pointB: { x: plank.position.x, y: plank.position.y },
        stiffness: 1,
        length: 0,
      }),
    ]);
    return { engine };
  },
  /** Three ropes (boxes, balls, rounded boxes) hanging from fixed points; a rope's links never collide. */
  chains: () => {
    const engine = make();
    const rope = (
      x: number,
      n: number,
      link: (x: number, y: number, group: number) => Matter.Body,
      k: number,
      stiffness: number,
      length: number,
    ) => {
      const group = Body.nextGroup(true);
      const c = Composites.stack(x, 50, n, 1, 10, 10, (px: number, py: number) => link(px, py, group));
      Composites.chain(c, k, 0, -k, 0, { stiffness, length });
      const first = c.bodies[0];
      Composite.add(
        c,
        Constraint.create({
          bodyB: first,
          pointB: { x: -20, y: 0 },
          pointA: { x: first.position.x, y: first.position.y },
          stiffness: 0.5,
        }),
      );
      return c;
    };
    Composite.add(engine.world, [
      rope(
        100,
        8,
        (x, y, group) => Bodies.rectangle(x, y, 50, 20, { collisionFilter: { group } }),
        0.5,
        0.8,
        2,
      ),
      rope(350, 10, (x, y, group) => Bodies.circle(x, y, 20, { collisionFilter: { group } }), 0.5, 0.8, 2),
      rope(
        600,
        13,
        (x, y, group) =>
          Bodies.rectangle(x - 20, y, 50, 20, { collisionFilter: { group }, chamfer: { radius: 5 } }),
        0.3,
        1,
        0,
      ),
      Bodies.rectangle(400, 600, 1200, 50.5, { isStatic: true }),
    ]);
    return { engine };
  },
  /** A plank bridge (a chain of 15 rounded planks) between two cliffs, 18 crates dropped on it. */
  bridge: (seed) => {
    const r = rng(seed);
    const engine = make();
    const group = Body.nextGroup(true);
    const bridge = Composites.stack(160, 290, 15, 1, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x - 20, y, 53, 20, {
        collisionFilter: { group },
        chamfer: { radius: 5 },
        density: 0.005,
        frictionAir: 0.05,
      }),
    );
    Composites.chain(bridge, 0.3, 0, -0.3, 0, { stiffness: 0.99, length: 0.0001 });
    const crates = Composites.stack(250, 50, 6, 3, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 50, 50, { chamfer: { radius: between(r, 20, 40) } }),
    );
    const ends = bridge.bodies;
    Composite.add(engine.world, [
      bridge,
      crates,
      Bodies.rectangle(30, 490, 220, 380, { isStatic: true, chamfer: { radius: 20 } }),
      Bodies.rectangle(770, 490, 220, 380, { isStatic: true, chamfer: { radius: 20 } }),
      Constraint.create({
        pointA: { x: 140, y: 300 },
        bodyB: ends[0],
        pointB: { x: -25, y: 0 },
        length: 2,
        stiffness: 0.9,
      }),
      Constraint.create({
        pointA: { x: 660, y: 300 },
        bodyB: ends[ends.length - 1],
        pointB: { x: 25, y: 0 },
        length: 2,
        stiffness: 0.9,
      }),
    ]);
    return { engine };
  },
  /** Thirty-six random boxes and polygons settling on the floor, sleeping enabled. */
  sleeping: (seed) => {
    const r = rng(seed);
    const engine = make({ enableSleeping: true });
    const stack = Composites.stack(50, 50, 12, 3, 0, 0, (x: number, y: number) =>
      randomShape(r, x, y, 20, 50),
    );
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
  /** A 10 × 5 stack of 40 px boxes in a walled box. */
  stack: () => {
    const engine = make();
    const stack = Composites.stack(200, 606 - 25.25 - 5 * 40, 10, 5, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 40, 40),
    );
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
  /** Fifty random boxes and polygons of every size falling into a walled box. */
  mixed: (seed) => {
    const r = rng(seed);
    const engine = make();
    const stack = Composites.stack(20, 20, 10, 5, 0, 0, (x: number, y: number) => {
      const chamfer = r() > 0.7 ? { radius: 10 } : undefined;
      return randomShape(r, x, y, 25, 50, chamfer ? { chamfer } : {});
    });
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
  /** Three soft bodies (5 × 5, 8 × 3 and 4 × 4 balls, cross-braced springs) in a walled box. */
  softBody: () => {
    const engine = make();
    const options = { friction: 0.05, frictionStatic: 0.1 };
    Composite.add(engine.world, [
      mesh(250, 100, 5, 5, 0, true, 18, options, 0.2),
      mesh(400, 300, 8, 3, 0, true, 15, options, 0.2),
      mesh(250, 400, 4, 4, 0, true, 15, options, 0.2),
      ...box(),
    ]);
    return { engine };
  },
  /** Seventy-two compound bodies (a cross of two bars each) stacked 12 × 6 in a walled box. */
  compoundStack: () => {
    const engine = make();
    const size = 50;
    const stack = Composites.stack(100, 600 - 17 - size * 6, 12, 6, 0, 0, (x: number, y: number) =>
      Body.create({
        parts: [Bodies.rectangle(x, y, size, size / 5), Bodies.rectangle(x, y, size / 5, size)],
      }),
    );
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
  /** Eighty balls of radius 15–30 dropped on a triangle, a pentagon and a box on the floor. */
  ballPool: (seed) => {
    const r = rng(seed);
    const engine = make();
    const balls = Composites.stack(100, 0, 10, 8, 10, 10, (x: number, y: number) =>
      Bodies.circle(x, y, between(r, 15, 30), { restitution: 0.6, friction: 0.1 }),
    );
    Composite.add(engine.world, [
      Bodies.rectangle(400, 600, 1200, 50.5, { isStatic: true }),
      balls,
      Bodies.polygon(200, 460, 3, 60),
      Bodies.polygon(400, 460, 5, 60),
      Bodies.rectangle(600, 460, 80, 80),
    ]);
    return { engine };
  },
  /** A hundred near-frictionless balls rolling down three tilted ledges, lifted back to the top when they fall out. */
  avalanche: (seed) => {
    const r = rng(seed);
    const engine = make();
    const balls = Composites.stack(20, 20, 20, 5, 0, 0, (x: number, y: number) =>
      Bodies.circle(x, y, between(r, 10, 20), { friction: 0.00001, restitution: 0.5, density: 0.001 }),
    );
    Composite.add(engine.world, [
      balls,
      Bodies.rectangle(200, 150, 700, 20, { isStatic: true, angle: Math.PI * 0.06 }),
      Bodies.rectangle(500, 350, 700, 20, { isStatic: true, angle: -Math.PI * 0.06 }),
      Bodies.rectangle(340, 580, 700, 20, { isStatic: true, angle: Math.PI * 0.04 }),
    ]);
    // The demo wraps bodies around the view: those that leave at the bottom come back at the top.
    const bodies = balls.bodies;
    return {
      engine,
      beforeStep: () => {
        for (const b of bodies) {
          if (b.position.y > 700) Body.setPosition(b, { x: b.position.x, y: b.position.y - 750 });
          else if (b.position.x < -50 || b.position.x > 850)
            Body.setPosition(b, { x: ((b.position.x + 900) % 900) - 50, y: b.position.y });
        }
      },
    };
  },
  /** Six ragdolls tumbling onto a field of 45 random boxes and polygons between static pegs. */
  ragdoll: (seed) => {
    const r = rng(seed);
    const engine = make();
    const debris = Composites.stack(300, 0, 15, 3, 10, 10, (x: number, y: number) =>
      randomShape(r, x, y, 25, 50),
    );
    const pegs = Composites.stack(100, 380, 8, 1, 40, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 40, 40, { isStatic: true, angle: Math.PI / 4, chamfer: { radius: 8 } }),
    );
    Composite.add(engine.world, [debris, pegs, Bodies.rectangle(400, 620, 1200, 50, { isStatic: true })]);
    for (let i = 0; i < 6; i++) Composite.add(engine.world, ragdoll(120 + 110 * i, -50 - 120 * (i % 2), 1));
    return { engine };
  },
  /** A 15-wide pyramid of 40 px boxes (120 boxes) on the floor. */
  pyramid: () => {
    const engine = make();
    const stack = Composites.pyramid(100, 605 - 25 - 16 * 20, 15, 10, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 40, 40),
    );
    Composite.add(engine.world, [stack, ...box(), Bodies.rectangle(400, 605, 800, 50, { isStatic: true })]);
    return { engine };
  },
  /** A slingshot's rock on an elastic, and two pyramids of thin blocks, one on a ledge. */
  slingshot: () => {
    const engine = make();
    const rock = Bodies.polygon(170, 450, 8, 20, { density: 0.004 });
    const block = (x: number, y: number) => Bodies.rectangle(x, y, 25, 40);
    Composite.add(engine.world, [
      Bodies.rectangle(395, 600, 815, 50, { isStatic: true }),
      Composites.pyramid(500, 300, 9, 10, 0, 0, block),
      Bodies.rectangle(610, 250, 200, 20, { isStatic: true }),
      Composites.pyramid(550, 0, 5, 10, 0, 0, block),
      rock,
      Constraint.create({
        pointA: { x: 170, y: 450 },
        bodyB: rock,
        length: 0.01,
        damping: 0.01,
        stiffness: 0.05,
      }),
    ]);
    // The demo's released shot: the rock leaves with a push on the first step.
    Body.setVelocity(rock, { x: 25, y: -12 });
    return { engine };
  },
  /** Balls and random shapes with the time scale pulsing and an upward kick every 120 steps. */
  timescale: (seed) => {
    const r = rng(seed);
    const engine = make();
    const options = { frictionAir: 0, friction: 0.0001, restitution: 0.8 };
    Composite.add(engine.world, [
      ...box(),
      Composites.stack(20, 100, 15, 3, 20, 40, (x: number, y: number) =>
        Bodies.circle(x, y, between(r, 10, 20), options),
      ),
      Composites.stack(50, 50, 8, 3, 0, 0, (x: number, y: number) => randomShape(r, x, y, 20, 50, options)),
    ]);
    const bodies = Composite.allBodies(engine.world);
    return {
      engine,
      beforeStep: (step) => {
        engine.timing.timeScale = step % 120 < 60 ? 1 : 0.2 + 0.8 * ((step % 60) / 60);
        if (step % 120 !== 0) return;
        for (const b of bodies) {
          if (!b.isStatic && b.position.y >= 500) {
            Body.applyForce(b, b.position, { x: (r() - 0.5) * 0.02 * b.mass, y: -0.05 * b.mass });
          }
        }
      },
    };
  },
  /** A cloth of 20 × 12 particles (no self-collision), its top row pinned, draped over a ball and a box. */
  cloth: () => {
    const engine = make();
    const group = Body.nextGroup(true);
    const cloth = mesh(
      200,
      200,
      20,
      12,
      5,
      false,
      8,
      { friction: 0.00001, collisionFilter: { group } },
      0.06,
    );
    for (let i = 0; i < 20; i++) Body.setStatic(cloth.bodies[i], true);
    Composite.add(engine.world, [
      cloth,
      Bodies.circle(300, 500, 80, { isStatic: true }),
      Bodies.rectangle(500, 480, 80, 80, { isStatic: true }),
      Bodies.rectangle(400, 609, 800, 50, { isStatic: true }),
    ]);
    return { engine };
  },
  /** Stress: 25 × 18 boxes of 25 px (450) stacked in a walled box. */
  stress: () => {
    const engine = make();
    const stack = Composites.stack(100, 600 - 25 - 18 * 25, 25, 18, 0, 0, (x: number, y: number) =>
      Bodies.rectangle(x, y, 25, 25),
    );
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
  /** Stress with shapes: 30 × 16 small random boxes and polygons (480) falling into a walled box. */
  stressMixed: (seed) => {
    const r = rng(seed);
    const engine = make();
    const stack = Composites.stack(40, 40, 30, 16, 0, 0, (x: number, y: number) =>
      randomShape(r, x, y, 8, 15),
    );
    Composite.add(engine.world, [stack, ...box()]);
    return { engine };
  },
};
