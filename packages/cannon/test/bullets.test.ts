/**
 * Bullets (issue 8, cannon-es): continuous collision for bodies marked with `setBullet`. Each scene is
 * run twice, stock (the body not marked: the discrete step) and as a bullet, so every test shows both
 * the miss and the catch.
 */
import * as CANNON from 'cannon-es';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import {
  type BulletOptions,
  getBulletSettings,
  getBulletSystem,
  installBullets,
  installSieve,
  isBullet,
  type SieveInstallation,
  setBullet,
  uninstallBullets,
  uninstallSieve,
} from '../src/index.js';
import { boxTrimesh, rng } from './worlds.js';

const DT = 1 / 60;

interface Scene {
  world: CANNON.World;
  install: SieveInstallation;
}

function scene(gravity = 0, bullets: BulletOptions = {}): Scene {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, gravity, 0) });
  const install = installSieve(world, { bullets });
  return { world, install };
}

/** A static box centred at (x, y, z). */
function staticBox(
  world: CANNON.World,
  hx: number,
  hy: number,
  hz: number,
  x = 0,
  y = 0,
  z = 0,
): CANNON.Body {
  const body = new CANNON.Body({
    mass: 0,
    shape: new CANNON.Box(new CANNON.Vec3(hx, hy, hz)),
    position: new CANNON.Vec3(x, y, z),
  });
  world.addBody(body);
  return body;
}

/** A sphere body without damping (so velocities can be checked exactly). */
function ball(world: CANNON.World, r: number, x: number, y: number, z: number, mass = 1): CANNON.Body {
  const body = new CANNON.Body({ mass, shape: new CANNON.Sphere(r), position: new CANNON.Vec3(x, y, z) });
  body.linearDamping = 0;
  world.addBody(body);
  return body;
}

/** A two-triangle square of half side `h` in the plane x = 0, facing −x (a wall of no thickness). */
function sheet(h: number): CANNON.Trimesh {
  return new CANNON.Trimesh([0, -h, -h, 0, h, -h, 0, h, h, 0, -h, h], [0, 2, 1, 0, 3, 2]);
}

function hits(s: Scene): number {
  return s.install.bullets?.stats.hits ?? 0;
}

describe('bullets: the discrete step misses, the sweep catches', () => {
  it('a small sphere at 500 units/s against a 0.1-thick static box', () => {
    for (const marked of [false, true]) {
      const s = scene();
      staticBox(s.world, 0.05, 5, 5);
      const b = ball(s.world, 0.05, -1, 0, 0);
      b.velocity.set(500, 0, 0);
      if (marked) setBullet(b, { response: 'stop' });
      s.world.step(DT);
      if (!marked) {
        expect(b.position.x).toBeGreaterThan(5); // straight through
        continue;
      }
      expect(hits(s)).toBe(1);
      // in front of the face (x = -0.05), touching it by the slop (1 % of the radius)
      expect(b.position.x).toBeCloseTo(-0.1 + 0.0005, 9);
      expect(b.velocity.x).toBeCloseTo(0, 9);
      for (let i = 0; i < 60; i++) s.world.step(DT);
      expect(b.position.x).toBeLessThan(-0.09);
      expect(b.position.x).toBeGreaterThan(-0.11);
    }
  });

  it('a bullet through a thin trimesh wall (sphere and box bullets; a closed 0.02 slab and a bare sheet)', () => {
    for (const wallKind of ['slab', 'sheet'] as const) {
      for (const kind of ['sphere', 'box'] as const) {
        for (const marked of [false, true]) {
          const s = scene();
          const mesh = wallKind === 'slab' ? boxTrimesh(0.01, 3, 3) : sheet(3);
          s.world.addBody(new CANNON.Body({ mass: 0, shape: mesh }));
          const shape =
            kind === 'sphere' ? new CANNON.Sphere(0.05) : new CANNON.Box(new CANNON.Vec3(0.05, 0.05, 0.05));
          const b = new CANNON.Body({ mass: 1, shape, position: new CANNON.Vec3(-2, 0.3, -0.2) });
          b.linearDamping = 0;
          b.velocity.set(500, 0, 0);
          s.world.addBody(b);
          if (marked) setBullet(b, { response: 'stop' });
          s.world.step(DT);
          if (!marked) {
            s.world.step(DT);
            expect(b.position.x).toBeGreaterThan(5);
            continue;
          }
          const face = wallKind === 'slab' ? -0.01 : 0;
          expect(hits(s)).toBe(1);
          expect(b.position.x).toBeCloseTo(face - 0.05 + 0.0005, 6);
          expect(b.velocity.length()).toBeLessThan(1e-6);
          // face on: the impulse acts at the middle of the face, so no spin from a corner
          expect(b.angularVelocity.length()).toBeLessThan(1e-6);
          for (let i = 0; i < 30; i++) s.world.step(DT);
          expect(b.position.x).toBeLessThan(face - 0.045);
          expect(b.position.x).toBeGreaterThan(face - 0.06);
        }
      }
    }
  });

  it('a spinning thin plank sweeping past a ball', () => {
    // Plank: half extents (1, 0.01, 0.2), spinning about z at 40 rad/s (0.67 rad a step) from -0.4 rad.
    // Its poses at the steps (-0.4, 0.27, 0.93, ...) never touch the ball at (0.8, 0, 0), r = 0.1.
    const results: { ballSpeed: number; plankSpin: number; hits: number }[] = [];
    for (const marked of [false, true]) {
      const s = scene();
      const plank = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(1, 0.01, 0.2)) });
      plank.quaternion.setFromAxisAngle(new CANNON.Vec3(0, 0, 1), -0.4);
      plank.angularVelocity.set(0, 0, 40);
      plank.angularDamping = 0;
      s.world.addBody(plank);
      const target = ball(s.world, 0.1, 0.8, 0, 0);
      if (marked) setBullet(plank, { response: 'stop' });
      let h = 0;
      for (let i = 0; i < 3; i++) {
        s.world.step(DT);
        h += hits(s);
        if (marked && hits(s) > 0) {
          // at the contact, the plank does not overlap the ball
          const local = plank.quaternion.conjugate().vmult(target.position.vsub(plank.position));
          expect(Math.abs(local.y) - 0.01 - 0.1).toBeGreaterThan(-0.001);
        }
      }
      results.push({ ballSpeed: target.velocity.length(), plankSpin: plank.angularVelocity.z, hits: h });
    }
    const [stock, bullet] = results;
    expect(stock.ballSpeed).toBe(0); // the plank went through the ball
    expect(stock.plankSpin).toBe(40);
    expect(bullet.hits).toBeGreaterThan(0);
    expect(bullet.ballSpeed).toBeGreaterThan(1); // pushed
    expect(bullet.plankSpin).toBeLessThan(40);
  });

  it('a bullet falling onto a plane, a heightfield, a scaled trimesh and a thin convex wall', () => {
    const cases: [string, (w: CANNON.World) => void][] = [
      [
        'plane',
        (w) => {
          const b = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
          b.quaternion.setFromEuler(-Math.PI / 2, 0, 0); // normal +y
          b.aabbNeedsUpdate = true; // moved by hand after construction (cannon's rule)
          w.addBody(b);
        },
      ],
      [
        'heightfield',
        (w) => {
          const data: number[][] = [];
          for (let i = 0; i < 12; i++) {
            data.push([]);
            for (let j = 0; j < 12; j++) data[i].push(0.2 * Math.sin(i) * Math.cos(j));
          }
          const b = new CANNON.Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 1 }) });
          b.quaternion.setFromEuler(-Math.PI / 2, 0, 0); // local z → world y
          b.position.set(-5.5, 0, 5.5);
          b.aabbNeedsUpdate = true; // moved by hand after construction (cannon's rule)
          w.addBody(b);
        },
      ],
      [
        'scaled trimesh',
        (w) => {
          // a sheet of half side 1 scaled 4× in y and z, turned to lie in y = 0: only the scale covers x = 3
          const mesh = sheet(1);
          mesh.setScale(new CANNON.Vec3(1, 4, 4));
          const b = new CANNON.Body({ mass: 0, shape: mesh });
          b.quaternion.setFromEuler(0, 0, -Math.PI / 2); // facing +y
          b.position.set(-3, 0, 0);
          b.aabbNeedsUpdate = true; // moved by hand after construction (cannon's rule)
          w.addBody(b);
        },
      ],
      [
        'convex',
        (w) => {
          const v = [
            [-5, -0.05, -5],
            [5, -0.05, -5],
            [5, 0.05, -5],
            [-5, 0.05, -5],
            [-5, -0.05, 5],
            [5, -0.05, 5],
            [5, 0.05, 5],
            [-5, 0.05, 5],
          ].map(([x, y, z]) => new CANNON.Vec3(x, y, z));
          const faces = [
            [3, 2, 1, 0],
            [4, 5, 6, 7],
            [5, 4, 0, 1],
            [2, 3, 7, 6],
            [0, 4, 7, 3],
            [1, 2, 6, 5],
          ];
          w.addBody(new CANNON.Body({ mass: 0, shape: new CANNON.ConvexPolyhedron({ vertices: v, faces }) }));
        },
      ],
    ];
    for (const [name, build] of cases) {
      const s = scene(-9.82);
      build(s.world);
      // the surface under the bullet's path (the heightfield's by cannon's own ray cast)
      let floor = name === 'convex' ? 0.05 : 0;
      if (name === 'heightfield') {
        const ray = new CANNON.RaycastResult();
        s.world.raycastClosest(new CANNON.Vec3(0.3, 10, -0.2), new CANNON.Vec3(0.3, -10, -0.2), {}, ray);
        expect(ray.hasHit).toBe(true);
        floor = ray.hitPointWorld.y;
      }
      const b = ball(s.world, 0.05, 0.3, 3, -0.2);
      b.velocity.set(0, -500, 0);
      setBullet(b, { response: 'stop' });
      s.world.step(DT);
      expect(hits(s), name).toBe(1);
      expect(b.position.y, name).toBeGreaterThan(floor + 0.05 - 0.002);
      expect(b.position.y, name).toBeLessThan(floor + 0.06);
      // stopped along the surface normal (vertical except on the heightfield's slopes)
      if (name === 'heightfield') expect(b.velocity.y, name).toBeGreaterThan(-100);
      else expect(Math.abs(b.velocity.y), name).toBeLessThan(1e-9);
      // and stays on its side
      for (let i = 0; i < 30; i++) s.world.step(DT);
      expect(b.position.y, name).toBeGreaterThan(floor);
    }
  });

  it('a bullet against a fast dynamic plate coming the other way (its motion is swept too)', () => {
    for (const marked of [false, true]) {
      const s = scene();
      const plate = new CANNON.Body({ mass: 5, shape: new CANNON.Box(new CANNON.Vec3(0.02, 2, 2)) });
      plate.position.set(3, 0, 0);
      plate.velocity.set(-200, 0, 0);
      plate.linearDamping = 0;
      s.world.addBody(plate);
      const b = ball(s.world, 0.05, -3, 0, 0, 0.1);
      b.velocity.set(500, 0, 0);
      if (marked) setBullet(b, { response: 'stop' });
      s.world.step(DT);
      if (!marked) {
        expect(b.position.x).toBeGreaterThan(plate.position.x); // passed each other
        continue;
      }
      expect(hits(s)).toBe(1);
      // momentum along x is kept by the impulse, and the two now move together
      expect(0.1 * b.velocity.x + 5 * plate.velocity.x).toBeCloseTo(0.1 * 500 + 5 * -200, 6);
      expect(b.velocity.x).toBeCloseTo(plate.velocity.x, 6);
      // and it ends the step where it touched the plate, carried along with it
      expect(b.position.x).toBeCloseTo(plate.position.x - 0.02 - 0.05 + 0.0005, 6);
    }
  });
});

describe('bullets: what must not change', () => {
  it('grazing passes (a wall missed by a small margin) are not hits and leave the trajectory bit for bit', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
        fc.double({ min: -0.8, max: 0.8, noNaN: true }),
        fc.boolean(),
        fc.constantFrom('over the top', 'past the side', 'along the face'),
        (gap, slope, box, where) => {
          const run = (marked: boolean) => {
            const s = scene();
            staticBox(s.world, 0.05, 1, 1);
            const shape = box ? new CANNON.Box(new CANNON.Vec3(0.05, 0.05, 0.05)) : new CANNON.Sphere(0.05);
            const b = new CANNON.Body({ mass: 1, shape });
            if (where === 'over the top') {
              b.position.set(-3, 1 + 0.05 + gap, 0);
              b.velocity.set(500, 0, 500 * slope);
            } else if (where === 'past the side') {
              b.position.set(-3, 0.5 * slope, 1 + 0.05 + gap);
              b.velocity.set(500, 0, 0);
            } else {
              b.position.set(-0.05 - 0.05 - gap, -3, 0);
              b.velocity.set(0, 500, 500 * slope);
            }
            s.world.addBody(b);
            if (marked) setBullet(b, { response: 'stop' });
            let h = 0;
            for (let i = 0; i < 3; i++) {
              s.world.step(DT);
              h += hits(s);
            }
            return { h, p: b.position.toArray(), v: b.velocity.toArray() };
          };
          const stock = run(false);
          const bullet = run(true);
          expect(bullet.h).toBe(0);
          expect(bullet.p).toEqual(stock.p);
          expect(bullet.v).toEqual(stock.v);
        },
      ),
      { seed: 42, numRuns: depth(40, 120) },
    );
  });

  it('a bullet resting on the floor (swept every step) neither sticks nor jumps, and slides like stock', () => {
    const run = (marked: boolean) => {
      const s = scene(-9.82, { motionThreshold: 0 });
      staticBox(s.world, 20, 0.5, 20, 0, -0.5, 0);
      const b = ball(s.world, 0.05, 0, 0.05, 0);
      if (marked) setBullet(b, { response: 'stop' });
      const ys: number[] = [];
      for (let i = 0; i < 60; i++) {
        s.world.step(DT);
        ys.push(b.position.y);
      }
      // then shot along the floor
      b.velocity.set(500, 0, 0);
      const xs: number[] = [];
      for (let i = 0; i < 2; i++) {
        s.world.step(DT);
        xs.push(b.position.x);
      }
      return { ys, xs };
    };
    const stock = run(false);
    const bullet = run(true);
    for (let i = 0; i < stock.ys.length; i++) {
      expect(Math.abs(bullet.ys[i] - stock.ys[i])).toBeLessThan(1e-3);
      expect(bullet.ys[i]).toBeLessThan(0.0505);
      expect(bullet.ys[i]).toBeGreaterThan(0.04);
    }
    expect(bullet.xs[0]).toBeGreaterThan(7); // slid on: not stopped by the floor it touches
    expect(Math.abs(bullet.xs[1] - stock.xs[1])).toBeLessThan(0.05);
  });

  it('a box already 3/4 into the wall (its core touching) and moving in is stopped, not let through', () => {
    for (const marked of [false, true]) {
      const s = scene();
      staticBox(s.world, 0.05, 5, 5);
      const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(0.04, 0.04, 0.04)) });
      b.position.set(-0.05 - 0.01, 0, 0); // 0.03 of its 0.04 inside; core radius 0.01 touches the face
      b.velocity.set(500, 0, 0);
      s.world.addBody(b);
      if (marked) setBullet(b, { response: 'stop' });
      s.world.step(DT);
      s.world.step(DT);
      if (marked) expect(b.position.x).toBeLessThan(-0.05);
      else expect(b.position.x).toBeGreaterThan(0.05); // stock: through (slowed by its contact)
    }
  });

  it('starting in contact with the wall: moving away is free, moving in is stopped', () => {
    for (const away of [true, false]) {
      const s = scene();
      staticBox(s.world, 0.05, 5, 5);
      const b = ball(s.world, 0.05, -0.1, 0, 0); // touching the face x = -0.05
      b.velocity.set(away ? -500 : 500, away ? 0 : 100, 0);
      setBullet(b, { response: 'stop' });
      s.world.step(DT);
      if (away) {
        expect(hits(s)).toBe(0);
        expect(b.position.x).toBeCloseTo(-0.1 - 500 * DT, 9);
      } else {
        expect(b.position.x).toBeLessThan(-0.05); // its centre stays in front (core sweep)
        expect(b.velocity.x).toBeLessThanOrEqual(1e-9);
        for (let i = 0; i < 10; i++) s.world.step(DT);
        expect(b.position.x).toBeLessThan(-0.05);
        expect(b.position.y).toBeGreaterThan(1); // and slides on along the wall
      }
    }
  });
});

describe('bullets: a closed room of thin walls', () => {
  it('bouncing spinning bullets (restitution 1 and 0.5, with and without gravity) never get out', () => {
    const r = rng(5);
    const L = 2;
    let escaped = 0;
    let hitCount = 0;
    for (let trial = 0; trial < 4; trial++) {
      const s = scene(trial % 2 ? -9.82 : 0);
      for (const [hx, hy, hz, x, y, z] of [
        [0.05, L, L, -L, 0, 0],
        [0.05, L, L, L, 0, 0],
        [L, 0.05, L, 0, -L, 0],
        [L, 0.05, L, 0, L, 0],
        [L, L, 0.05, 0, 0, -L],
        [L, L, 0.05, 0, 0, L],
      ]) {
        staticBox(s.world, hx, hy, hz, x, y, z);
      }
      const bodies: CANNON.Body[] = [];
      for (let i = 0; i < 30; i++) {
        const sphere = r() < 0.5;
        const size = 0.02 + 0.08 * r();
        const shape = sphere
          ? new CANNON.Sphere(size)
          : new CANNON.Box(new CANNON.Vec3(size, 0.02 + 0.08 * r(), 0.02 + 0.08 * r()));
        const b = new CANNON.Body({ mass: 1, shape });
        b.position.set((r() - 0.5) * 3, (r() - 0.5) * 3, (r() - 0.5) * 3);
        const u = 2 * r() - 1;
        const a = 2 * Math.PI * r();
        const q = Math.sqrt(1 - u * u);
        b.velocity.set(500 * q * Math.cos(a), 500 * q * Math.sin(a), 500 * u);
        if (!sphere) {
          b.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
          b.angularVelocity.set(50 * (r() - 0.5), 50 * (r() - 0.5), 50 * (r() - 0.5));
        }
        b.collisionFilterGroup = 2;
        b.collisionFilterMask = 1;
        s.world.addBody(b);
        setBullet(b, { response: 'bounce', restitution: trial % 3 === 0 ? 1 : 0.5 });
        bodies.push(b);
      }
      for (let k = 0, steps = depth(45, 90); k < steps; k++) {
        s.world.step(DT);
        hitCount += hits(s);
      }
      for (const b of bodies) {
        const p = b.position;
        if (Math.abs(p.x) > L || Math.abs(p.y) > L || Math.abs(p.z) > L) escaped++;
      }
    }
    expect(hitCount).toBeGreaterThan(2000);
    expect(escaped).toBe(0);
  });
});

describe('bullets: response', () => {
  it('bounce reflects the normal component with the restitution and keeps the tangential one', () => {
    const s = scene();
    staticBox(s.world, 0.05, 5, 5);
    const b = ball(s.world, 0.05, -1, 0, 0);
    b.velocity.set(500, 100, -50);
    setBullet(b, { response: 'bounce', restitution: 0.5 });
    s.world.step(DT);
    expect(hits(s)).toBe(1);
    expect(b.velocity.x).toBeCloseTo(-250, 9);
    expect(b.velocity.y).toBeCloseTo(100, 9);
    expect(b.velocity.z).toBeCloseTo(-50, 9);
    expect(b.position.x).toBeLessThan(-0.09);
  });

  it("the default bounce follows cannon's contact materials (default: restitution 0, a stop)", () => {
    for (const [materials, expected] of [
      [false, 0],
      [true, -0.3 * 500],
    ] as const) {
      const s = scene();
      const wall = staticBox(s.world, 0.05, 5, 5);
      const b = ball(s.world, 0.05, -1, 0, 0);
      if (materials) {
        const mb = new CANNON.Material('bullet');
        const mw = new CANNON.Material('wall');
        b.material = mb;
        wall.material = mw;
        s.world.addContactMaterial(new CANNON.ContactMaterial(mb, mw, { restitution: 0.3 }));
      }
      b.velocity.set(500, 0, 0);
      setBullet(b);
      s.world.step(DT);
      expect(b.velocity.x).toBeCloseTo(expected, 9);
    }
  });

  it('a compound bullet stops at the shape that touches first', () => {
    const s = scene();
    staticBox(s.world, 0.05, 5, 5);
    const b = new CANNON.Body({ mass: 1, position: new CANNON.Vec3(-2, 0, 0) });
    b.addShape(new CANNON.Sphere(0.05), new CANNON.Vec3(0, 0.5, 0));
    b.addShape(new CANNON.Box(new CANNON.Vec3(0.1, 0.05, 0.05)), new CANNON.Vec3(0.3, -0.5, 0));
    b.velocity.set(500, 0, 0);
    s.world.addBody(b);
    setBullet(b, { response: 'stop' });
    s.world.step(DT);
    expect(hits(s)).toBe(1);
    // the box (front at x + 0.4) touches first
    expect(b.position.x + 0.4).toBeCloseTo(-0.05 + 0.01 * 0.05, 6); // slop: 1 % of its smallest half extent
    expect(b.angularVelocity.z).toBeLessThan(0); // hit below its centre of mass: it turns clockwise
  });
});

describe('bullets: filters, stepping modes, installation', () => {
  it('collision filters and collisionResponse let a bullet through, as they do a stock body', () => {
    const setups: [string, (wall: CANNON.Body, b: CANNON.Body) => void][] = [
      ['body mask', (_w, b) => (b.collisionFilterMask = 2)],
      ['shape mask', (w) => (w.shapes[0].collisionFilterMask = 2)],
      ['body response', (w) => (w.collisionResponse = false)],
      ['shape response', (_w, b) => (b.shapes[0].collisionResponse = false)],
    ];
    for (const [name, setup] of setups) {
      const s = scene();
      const wall = staticBox(s.world, 0.05, 5, 5);
      const b = ball(s.world, 0.05, -1, 0, 0);
      b.velocity.set(500, 0, 0);
      setup(wall, b);
      setBullet(b);
      s.world.step(DT);
      expect(hits(s), name).toBe(0);
      expect(b.position.x, name).toBeGreaterThan(5);
    }
    // a constraint with collideConnected: false between the two
    const s = scene();
    const wall = staticBox(s.world, 0.05, 5, 5);
    const b = ball(s.world, 0.05, -1, 0, 0);
    b.velocity.set(500, 0, 0);
    const c = new CANNON.DistanceConstraint(b, wall, 100);
    c.collideConnected = false;
    s.world.addConstraint(c);
    setBullet(b);
    s.world.step(DT);
    expect(hits(s)).toBe(0);
  });

  it('world.step(dt, elapsed, maxSubSteps) sweeps each internal step; fixedStep() too', () => {
    const s = scene();
    staticBox(s.world, 0.05, 5, 5);
    const b = ball(s.world, 0.05, -30, 0, 0);
    b.velocity.set(500, 0, 0);
    setBullet(b, { response: 'stop' });
    let internal = 0;
    let hitSteps = 0;
    s.world.addEventListener('postStep', () => {
      internal++;
      if (hits(s) > 0) hitSteps++;
    });
    s.world.step(DT, 6 * DT + 1e-9, 10);
    expect(internal).toBe(6);
    expect(hitSteps).toBe(1);
    expect(b.position.x).toBeLessThan(-0.099); // stopped at internal step 5, then one resting step
    expect(b.position.x).toBeGreaterThan(-0.1005);

    const f = scene();
    staticBox(f.world, 0.05, 5, 5);
    const c = ball(f.world, 0.05, -1, 0, 0);
    c.velocity.set(500, 0, 0);
    setBullet(c, { response: 'stop' });
    f.world.fixedStep();
    expect(c.position.x).toBeCloseTo(-0.0995, 9);
  });

  it('setBullet before or after addBody, unmarking, removal, and uninstalling', () => {
    const s = scene();
    const system = getBulletSystem(s.world);
    expect(system).toBe(s.install.bullets);
    const a = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.1) });
    setBullet(a, { response: 'stop', restitution: 0.2 });
    expect(isBullet(a)).toBe(true);
    expect(getBulletSettings(a)).toEqual({ response: 'stop', restitution: 0.2 });
    s.world.addBody(a);
    const b = ball(s.world, 0.1, 5, 0, 0);
    setBullet(b);
    expect(getBulletSettings(b)).toEqual({ response: 'bounce' });
    expect(system?.count).toBe(2);
    setBullet(a, false);
    expect(isBullet(a)).toBe(false);
    expect(system?.count).toBe(1);
    s.world.removeBody(b);
    expect(system?.count).toBe(0);
    expect(isBullet(b)).toBe(true); // the mark stays with the body
    s.world.addBody(b);
    expect(system?.count).toBe(1);

    // uninstalled: the bullet tunnels again
    staticBox(s.world, 0.05, 5, 5, 7);
    b.velocity.set(500, 0, 0);
    expect(uninstallSieve(s.world)).toBe(true);
    expect(getBulletSystem(s.world)).toBe(null);
    s.world.step(DT);
    expect(b.position.x).toBeGreaterThan(10);

    // standalone, on a world with cannon's own broadphase (the scan path)
    const w = new CANNON.World();
    staticBox(w, 0.05, 5, 5);
    const c = ball(w, 0.05, -1, 0, 0);
    c.velocity.set(500, 0, 0);
    setBullet(c, { response: 'stop' });
    const drifter = ball(w, 0.5, 0, 20, 0);
    drifter.velocity.set(1, 0, 0);
    const sys = installBullets(w);
    expect(sys.count).toBe(1);
    expect(() => installBullets(w)).toThrow(/already installed/);
    w.step(DT);
    expect(sys.stats.hits).toBe(1);
    expect(drifter.aabbNeedsUpdate).toBe(true); // the pass leaves cannon's flags alone
    expect(c.position.x).toBeCloseTo(-0.0995, 9);
    expect(uninstallBullets(w)).toBe(true);
    expect(uninstallBullets(w)).toBe(false);
  });

  it('bad input throws, naming the argument', () => {
    const body = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(1) });
    expect(() => setBullet(null as unknown as CANNON.Body)).toThrow(/body/);
    expect(() => setBullet(body, { response: 'slide' as 'stop' })).toThrow(/response/);
    expect(() => setBullet(body, { restitution: -1 })).toThrow(/restitution/);
    expect(() => setBullet(body, { restitution: Number.NaN })).toThrow(/restitution/);
    expect(isBullet(body)).toBe(false);
    const world = new CANNON.World();
    expect(() => installBullets(world, { tolerance: 0 })).toThrow(/tolerance/);
    expect(() => installBullets(world, { maxIterations: 1.5 })).toThrow(/maxIterations/);
    expect(() => installBullets(world, { slop: -1 })).toThrow(/slop/);
    expect(() => installBullets(world, { motionThreshold: Number.NaN })).toThrow(/motionThreshold/);
    expect(() => installBullets(world, { coreFraction: 2 })).toThrow(/coreFraction/);
    expect(() => installSieve(world, { bullets: { coreFraction: 0 } })).toThrow(/coreFraction/);
    expect(getBulletSystem(world)).toBe(null);
    // nothing was installed by the failed call
    const bp = world.broadphase;
    expect(() => installSieve(world, { bullets: { slop: Number.NaN } })).toThrow(/installSieve: slop/);
    expect(world.broadphase).toBe(bp);
    installSieve(world, { bullets: false });
    expect(getBulletSystem(world)).toBe(null);
    // and a bullet with a NaN pose is skipped, not thrown on
    const s = scene();
    staticBox(s.world, 0.05, 5, 5);
    const b = ball(s.world, 0.05, Number.NaN, 0, 0);
    setBullet(b);
    expect(() => s.world.step(DT)).not.toThrow();
  });
});

// 100 worlds of 100 bullets at the full depth, 30 at the standard one.
const BATCHES = depth(30, 100);
const SHOTS = depth('3 000', '10 000');

describe(`bullets: ${SHOTS} random shots at 500 units/s at a wall 0.1 thick`, () => {
  it('none ends on the far side with the option; without it a measured share tunnels', () => {
    const shots = (marked: boolean) => {
      const r = rng(2024);
      let crossed = 0;
      let total = 0;
      let touched = 0;
      // Worlds of 100 bullets, in lanes 4 apart that do not collide with each other
      for (let batch = 0; batch < BATCHES; batch++) {
        const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
        installSieve(world);
        const wall = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(0.05, 500, 500)) });
        world.addBody(wall);
        const bodies: CANNON.Body[] = [];
        const hit = new Set<CANNON.Body>();
        for (let i = 0; i < 100; i++) {
          const sphere = i % 2 === 0;
          const size = 0.02 + 0.08 * r();
          const shape = sphere
            ? new CANNON.Sphere(size)
            : new CANNON.Box(new CANNON.Vec3(size, 0.02 + 0.08 * r(), 0.02 + 0.08 * r()));
          // a direction within 45° of the wall's normal, a random start (timing phase) within one step
          const a = (r() * Math.PI) / 4;
          const c = r() * 2 * Math.PI;
          const dx = Math.cos(a);
          const back = 0.25 + r() * 500 * DT * dx;
          const body = new CANNON.Body({
            mass: 1,
            shape,
            position: new CANNON.Vec3(-back, 4 * ((i % 10) - 4.5), 4 * (Math.floor(i / 10) - 4.5)),
          });
          body.velocity.set(500 * dx, 500 * Math.sin(a) * Math.cos(c), 500 * Math.sin(a) * Math.sin(c));
          if (!sphere) {
            body.quaternion.setFromEuler(r() * 6, r() * 6, r() * 6);
            body.angularVelocity.set(30 * (r() - 0.5), 30 * (r() - 0.5), 30 * (r() - 0.5));
          }
          body.collisionFilterGroup = 2;
          body.collisionFilterMask = 1;
          body.addEventListener('collide', () => hit.add(body));
          world.addBody(body);
          if (marked) setBullet(body, { response: 'stop' });
          bodies.push(body);
        }
        for (let k = 0; k < 3; k++) world.step(DT);
        for (const body of bodies) {
          total++;
          if (body.position.x > 0) crossed++;
        }
        touched += hit.size;
      }
      return { crossed, total, touched };
    };
    const stock = shots(false);
    const bullets = shots(true);
    console.log(
      `${SHOTS} shots at 500 units/s, wall 0.1 thick, dt = 1/60: without bullets ${stock.crossed}/${stock.total} ` +
        `ended on the far side (${stock.touched} had a discrete contact with the wall on the way); ` +
        `with bullets ${bullets.crossed}/${bullets.total} (${bullets.touched} reported a contact)`,
    );
    expect(stock.total).toBe(100 * BATCHES);
    expect(bullets.total).toBe(100 * BATCHES);
    expect(bullets.crossed).toBe(0);
    expect(stock.crossed).toBeGreaterThan(0);
    expect(bullets.touched).toBe(100 * BATCHES); // every bullet's hit reaches cannon's contact events
  });
});
