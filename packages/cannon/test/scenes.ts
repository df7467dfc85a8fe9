/**
 * Small cannon-es scenes in the spirit of cannon-es's own examples (getting started, stacks, pyramid,
 * pile, jenga, ragdoll, compound, convex, heightfield, trimesh, sleep, constraints, collision filters,
 * body types, bounce, trigger, friction), written anew for the differential tests against stock and for
 * timing. Each builder resets cannon's id counters first, so two builds of a scene have the same ids.
 * `late(step)` applies the scene's changes after bodies were added (poses, shapes, types, filters,
 * sleep, membership), between steps.
 */
import * as CANNON from 'cannon-es';
import { rng } from '../../core/test/support/rng.js';
import { boxTrimesh, resetIds } from './worlds.js';

export interface Scene {
  world: CANNON.World;
  /** Changes made between steps (called before step `k`). */
  late?: (k: number) => void;
}

const V = (x: number, y: number, z: number) => new CANNON.Vec3(x, y, z);

function world(allowSleep = false): CANNON.World {
  resetIds();
  const w = new CANNON.World({ gravity: V(0, -9.82, 0) });
  w.allowSleep = allowSleep;
  return w;
}

/** cannon-es README's floor: a static plane, turned to face +y with setFromEuler (before or after adding). */
function ground(w: CANNON.World, rotateAfterAdd = false): CANNON.Body {
  const g = new CANNON.Body({ type: CANNON.Body.STATIC, shape: new CANNON.Plane() });
  if (!rotateAfterAdd) g.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  w.addBody(g);
  if (rotateAfterAdd) g.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  return g;
}

/** The getting-started idiom with `n` boxes and spheres dropped on the turned plane. */
export function gettingStarted(n: number, rotateAfterAdd = false, seed = 1): Scene {
  const w = world();
  ground(w, rotateAfterAdd);
  const r = rng(seed);
  const side = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n; i++) {
    const shape = i % 2 ? new CANNON.Sphere(0.5) : new CANNON.Box(V(0.5, 0.5, 0.5));
    const b = new CANNON.Body({ mass: 1, shape });
    b.position.set((i % side) * 1.3 - side * 0.65, 1 + Math.floor(i / side) * 0.2 + r() * 4, r() * 6 - 3);
    b.quaternion.setFromEuler(r(), r(), r());
    w.addBody(b);
  }
  return { world: w };
}

export function stacks(): Scene {
  const w = world();
  ground(w);
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < 6; k++) {
      const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(0.5, 0.5, 0.5)) });
      b.position.set(c * 2.5 - 2.5, 0.5 + k * 1.02, 0);
      w.addBody(b);
    }
  }
  for (let k = 0; k < 5; k++) {
    const s = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5) });
    s.position.set(5, 0.5 + k * 1.01, 0.01 * k);
    w.addBody(s);
  }
  return { world: w };
}

export function pyramid(rows = 7): Scene {
  const w = world();
  ground(w);
  for (let row = 0; row < rows; row++) {
    for (let k = 0; k < rows - row; k++) {
      const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(0.5, 0.5, 0.5)) });
      b.position.set(k * 1.05 - (rows - row) * 0.525, 0.5 + row * 1.0, 0);
      w.addBody(b);
    }
  }
  return { world: w };
}

/** Spheres poured into a box of four static walls (walls turned after adding). */
export function pile(count = 40, seed = 3): Scene {
  const w = world();
  ground(w);
  const r = rng(seed);
  for (let k = 0; k < 4; k++) {
    const wall = new CANNON.Body({ mass: 0, shape: new CANNON.Box(V(4, 2, 0.2)) });
    w.addBody(wall);
    wall.position.set(k === 0 ? 4 : k === 1 ? -4 : 0, 2, k === 2 ? 4 : k === 3 ? -4 : 0);
    if (k < 2) wall.quaternion.setFromEuler(0, Math.PI / 2, 0);
  }
  for (let i = 0; i < count; i++) {
    const s = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.3 + 0.2 * r()) });
    s.position.set(r() * 6 - 3, 2 + i * 0.4, r() * 6 - 3);
    w.addBody(s);
  }
  return { world: w };
}

export function jenga(layers = 8): Scene {
  const w = world();
  ground(w);
  for (let l = 0; l < layers; l++) {
    for (let k = 0; k < 3; k++) {
      const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(1.5, 0.25, 0.5)) });
      const off = (k - 1) * 1.02;
      if (l % 2) {
        b.position.set(off, 0.25 + l * 0.5, 0);
        b.quaternion.setFromEuler(0, Math.PI / 2, 0);
      } else b.position.set(0, 0.25 + l * 0.5, off);
      w.addBody(b);
    }
  }
  return { world: w };
}

/** A ragdoll of boxes and a sphere head joined by cone-twist joints, dropped on the plane. */
export function ragdoll(count = 2): Scene {
  const w = world();
  ground(w);
  for (let d = 0; d < count; d++) {
    const x = d * 3;
    const part = (shape: CANNON.Shape, px: number, py: number) => {
      const b = new CANNON.Body({ mass: 1, shape, position: V(x + px, 3 + py, 0) });
      w.addBody(b);
      return b;
    };
    const head = part(new CANNON.Sphere(0.25), 0, 2.2);
    const torso = part(new CANNON.Box(V(0.3, 0.6, 0.15)), 0, 1.3);
    const armL = part(new CANNON.Box(V(0.4, 0.1, 0.1)), -0.8, 1.7);
    const armR = part(new CANNON.Box(V(0.4, 0.1, 0.1)), 0.8, 1.7);
    const legL = part(new CANNON.Box(V(0.12, 0.45, 0.12)), -0.2, 0.2);
    const legR = part(new CANNON.Box(V(0.12, 0.45, 0.12)), 0.2, 0.2);
    const joint = (a: CANNON.Body, b: CANNON.Body, pa: CANNON.Vec3, pb: CANNON.Vec3) =>
      w.addConstraint(
        new CANNON.ConeTwistConstraint(a, b, {
          pivotA: pa,
          pivotB: pb,
          axisA: CANNON.Vec3.UNIT_Y,
          axisB: CANNON.Vec3.UNIT_Y,
          angle: Math.PI / 4,
          twistAngle: Math.PI / 8,
        }),
      );
    joint(head, torso, V(0, -0.3, 0), V(0, 0.6, 0));
    joint(torso, armL, V(-0.35, 0.4, 0), V(0.45, 0, 0));
    joint(torso, armR, V(0.35, 0.4, 0), V(-0.45, 0, 0));
    joint(torso, legL, V(-0.2, -0.6, 0), V(0, 0.5, 0));
    joint(torso, legR, V(0.2, -0.6, 0), V(0, 0.5, 0));
  }
  return { world: w };
}

export function compound(count = 6): Scene {
  const w = world();
  ground(w);
  for (let i = 0; i < count; i++) {
    const b = new CANNON.Body({ mass: 1 });
    if (i % 2) {
      b.addShape(new CANNON.Box(V(0.5, 0.1, 0.1)), V(0, 0, 0));
      b.addShape(new CANNON.Box(V(0.1, 0.5, 0.1)), V(0.4, 0.4, 0));
      b.addShape(new CANNON.Sphere(0.3), V(-0.6, 0, 0));
    } else {
      b.addShape(new CANNON.Sphere(0.3), V(0.5, 0, 0), new CANNON.Quaternion());
      b.addShape(new CANNON.Sphere(0.3), V(-0.5, 0, 0));
      b.addShape(new CANNON.Box(V(0.2, 0.2, 0.6)), V(0, 0, 0.3));
    }
    b.position.set((i % 3) * 2 - 2, 1 + i * 1.2, 0);
    b.quaternion.setFromEuler(0.3 * i, 0.2, 0.1);
    w.addBody(b);
  }
  return { world: w };
}

function tetra(s: number): CANNON.ConvexPolyhedron {
  const vertices = [V(0, 0, 0), V(s, 0, 0), V(0, s, 0), V(0, 0, s)];
  const faces = [
    [0, 3, 2],
    [0, 1, 3],
    [0, 2, 1],
    [1, 2, 3],
  ];
  return new CANNON.ConvexPolyhedron({ vertices, faces });
}

export function convex(count = 8): Scene {
  const w = world();
  ground(w);
  for (let i = 0; i < count; i++) {
    const shape =
      i % 3 === 0
        ? tetra(0.8)
        : i % 3 === 1
          ? new CANNON.Cylinder(0.4, 0.4, 0.8, 10)
          : new CANNON.Box(V(0.4, 0.4, 0.4));
    const b = new CANNON.Body({ mass: 1, shape });
    b.position.set((i % 4) * 1.2 - 2, 1 + i, (i % 2) * 0.5);
    b.quaternion.setFromEuler(0.4 * i, 0.3, 0);
    w.addBody(b);
  }
  return { world: w };
}

export function heightfield(count = 12): Scene {
  const w = world();
  const data: number[][] = [];
  for (let i = 0; i < 12; i++) {
    data.push([]);
    for (let j = 0; j < 12; j++)
      data[i].push(0.6 * Math.cos((i / 12) * Math.PI * 2) * Math.cos((j / 12) * Math.PI * 2));
  }
  const hf = new CANNON.Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 1 }) });
  hf.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  hf.position.set(-6, 0, 6);
  w.addBody(hf);
  for (let i = 0; i < count; i++) {
    const shape = i % 3 === 2 ? new CANNON.Box(V(0.3, 0.3, 0.3)) : new CANNON.Sphere(0.35);
    const b = new CANNON.Body({
      mass: 1,
      shape,
      position: V((i % 4) * 2 - 4, 3 + i * 0.5, ((i * 7) % 5) - 2),
    });
    w.addBody(b);
  }
  return { world: w };
}

/** Spheres on a static trimesh (sphere–trimesh is cannon's own), and a trimesh body on the plane. */
export function trimesh(count = 8): Scene {
  const w = world();
  ground(w);
  const ramp = new CANNON.Body({ mass: 0, shape: boxTrimesh(3, 0.3, 3) });
  w.addBody(ramp);
  ramp.position.set(0, 1, 0);
  ramp.quaternion.setFromEuler(0.15, 0, 0.1);
  for (let i = 0; i < count; i++) {
    const b = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Sphere(0.3),
      position: V((i % 4) - 1.5, 3 + i, (i % 3) - 1),
    });
    w.addBody(b);
  }
  const falling = new CANNON.Body({ mass: 1, shape: boxTrimesh(0.4, 0.4, 0.4), position: V(5, 2, 0) });
  w.addBody(falling);
  return { world: w };
}

/** Sleeping on: bodies come to rest and sleep; then one is woken, one moved, one hit. */
export function sleep(): Scene {
  const w = world(true);
  ground(w);
  const bodies: CANNON.Body[] = [];
  for (let i = 0; i < 6; i++) {
    const b = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Sphere(0.5),
      position: V(i * 1.5 - 4, 1 + 0.3 * i, 0),
    });
    b.allowSleep = true;
    b.sleepSpeedLimit = 0.5;
    b.sleepTimeLimit = 0.5;
    w.addBody(b);
    bodies.push(b);
  }
  const late = (k: number) => {
    if (k === 120) bodies[1].wakeUp();
    if (k === 140) {
      bodies[2].position.set(-2.5, 3, 0.2); // moved while asleep (stays asleep: cannon's rule)
    }
    if (k === 160) {
      bodies[3].velocity.set(0, 6, 0);
      bodies[3].wakeUp();
    }
    if (k === 170) bodies[4].sleep();
  };
  return { world: w, late };
}

export function constraints(): Scene {
  const w = world();
  ground(w);
  let prev: CANNON.Body | null = null;
  for (let i = 0; i < 6; i++) {
    const b = new CANNON.Body({
      mass: i === 0 ? 0 : 1,
      shape: new CANNON.Box(V(0.1, 0.4, 0.3)),
      position: V(0, 8 - i * 0.9, 0),
    });
    w.addBody(b);
    if (prev) {
      const c = new CANNON.HingeConstraint(prev, b, {
        pivotA: V(0, -0.45, 0),
        pivotB: V(0, 0.45, 0),
        axisA: V(0, 0, 1),
        axisB: V(0, 0, 1),
      });
      w.addConstraint(c);
    }
    prev = b;
  }
  let last: CANNON.Body | null = null;
  for (let i = 0; i < 5; i++) {
    const s = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.3), position: V(3 + i * 0.7, 4, 0) });
    w.addBody(s);
    if (last) {
      const dc = new CANNON.DistanceConstraint(last, s, 0.7);
      dc.collideConnected = i % 2 === 0;
      w.addConstraint(dc);
    }
    last = s;
  }
  const a = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(0.3, 0.3, 0.3)), position: V(-3, 3, 0) });
  const b = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(0.3, 0.3, 0.3)), position: V(-3, 3.65, 0) });
  w.addBody(a);
  w.addBody(b);
  w.addConstraint(new CANNON.LockConstraint(a, b));
  const p2p = new CANNON.PointToPointConstraint(a, V(0.3, 0, 0), s0(w), V(0, 0, 0));
  w.addConstraint(p2p);
  return { world: w };
}

function s0(w: CANNON.World): CANNON.Body {
  const s = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.2), position: V(-2.5, 3, 0) });
  w.addBody(s);
  return s;
}

/** Three filter groups; masks changed after the bodies were added, and again mid-run. */
export function collisionFilters(): Scene {
  const w = world();
  const g = ground(w);
  const bodies: CANNON.Body[] = [];
  for (let i = 0; i < 9; i++) {
    const shape = i % 2 ? new CANNON.Sphere(0.4) : new CANNON.Box(V(0.4, 0.4, 0.4));
    const b = new CANNON.Body({ mass: 1, shape, position: V(0.1 * i, 1 + i * 1.1, 0) });
    w.addBody(b);
    b.collisionFilterGroup = 1 << (i % 3);
    b.collisionFilterMask = i % 3 === 1 ? 1 | 4 : -1;
    bodies.push(b);
  }
  const late = (k: number) => {
    if (k === 60) bodies[4].collisionFilterMask = 0;
    if (k === 90) g.collisionFilterMask = ~2;
    if (k === 120) {
      bodies[4].collisionFilterMask = -1;
      bodies[0].shapes[0].collisionFilterMask = 0;
    }
  };
  return { world: w, late };
}

/** Static, kinematic and dynamic bodies; poses and types changed after adding. */
export function bodyTypes(): Scene {
  const w = world();
  ground(w);
  const platform = new CANNON.Body({ type: CANNON.Body.KINEMATIC, shape: new CANNON.Box(V(1.5, 0.2, 1.5)) });
  w.addBody(platform);
  platform.position.set(0, 1, 0);
  platform.velocity.set(0.5, 0, 0);
  const wall = new CANNON.Body({ mass: 0, shape: new CANNON.Box(V(0.2, 1, 2)) });
  w.addBody(wall);
  wall.position.set(4, 1, 0); // a static body placed after adding (its AABB was computed at the origin)
  const crates: CANNON.Body[] = [];
  for (let i = 0; i < 5; i++) {
    const b = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Box(V(0.3, 0.3, 0.3)),
      position: V(-0.5 + i * 0.25, 2 + i * 0.7, 0),
    });
    w.addBody(b);
    crates.push(b);
  }
  const late = (k: number) => {
    if (k === 50) platform.velocity.set(-0.5, 0.2, 0);
    if (k === 80) {
      wall.position.set(-3, 1, 0);
      wall.quaternion.setFromEuler(0, 0.5, 0);
    }
    if (k === 100) {
      crates[0].type = CANNON.Body.STATIC;
      crates[0].mass = 0;
      crates[0].updateMassProperties();
      crates[0].velocity.setZero();
    }
    if (k === 130) {
      crates[0].type = CANNON.Body.DYNAMIC;
      crates[0].mass = 1;
      crates[0].updateMassProperties();
    }
    if (k === 150) platform.type = CANNON.Body.STATIC;
  };
  return { world: w, late };
}

/** Restitution materials and a trigger body (no collision response). */
export function bounceAndTrigger(): Scene {
  const w = world();
  const groundMat = new CANNON.Material('ground');
  const ballMat = new CANNON.Material('ball');
  w.addContactMaterial(new CANNON.ContactMaterial(groundMat, ballMat, { friction: 0.1, restitution: 0.7 }));
  const g = ground(w);
  g.material = groundMat;
  for (let i = 0; i < 3; i++) {
    const b = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Sphere(0.4),
      material: ballMat,
      position: V(i * 1.5, 2 + i, 0),
    });
    w.addBody(b);
  }
  const trigger = new CANNON.Body({ isTrigger: true, mass: 0, shape: new CANNON.Box(V(2, 0.5, 2)) });
  w.addBody(trigger);
  trigger.position.set(1.5, 1, 0);
  const sensor = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.3), position: V(1.5, 5, 0.2) });
  sensor.collisionResponse = false;
  w.addBody(sensor);
  return { world: w };
}

/** Shapes added and removed, a radius changed, a plane turned, bodies removed and added — all late. */
export function lateEdits(): Scene {
  const w = world(true);
  const g = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  w.addBody(g);
  const bodies: CANNON.Body[] = [];
  for (let i = 0; i < 10; i++) {
    const b = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Sphere(0.4),
      position: V(i - 5, 3 + i * 0.3, i % 2),
    });
    b.allowSleep = true;
    w.addBody(b);
    bodies.push(b);
  }
  const extra = new CANNON.Box(V(0.6, 0.2, 0.2));
  const late = (k: number) => {
    if (k === 5) g.quaternion.setFromEuler(-Math.PI / 2, 0, 0); // the README's floor, turned late
    if (k === 40) bodies[2].addShape(extra, V(0.8, 0, 0));
    if (k === 70) {
      const s = bodies[3].shapes[0] as CANNON.Sphere;
      s.radius = 0.9;
      s.updateBoundingSphereRadius();
      bodies[3].updateBoundingRadius();
    }
    if (k === 90) bodies[2].removeShape(extra);
    if (k === 100) w.removeBody(bodies[6]);
    if (k === 110) {
      const nb = new CANNON.Body({ mass: 1, shape: new CANNON.Box(V(0.5, 0.5, 0.5)), position: V(0, 4, 0) });
      w.addBody(nb);
    }
    if (k === 130) w.addBody(bodies[6]);
    if (k === 150) g.quaternion.setFromEuler(-Math.PI / 2 + 0.2, 0, 0);
    if (k === 170) bodies[0].position.set(bodies[1].position.x, 6, bodies[1].position.z);
  };
  return { world: w, late };
}

/** Every scene above at its default size, by name. */
export const scenes: Record<string, () => Scene> = {
  single: () => gettingStarted(1),
  gettingStarted20: () => gettingStarted(20),
  stacks,
  pyramid: () => pyramid(),
  pile5: () => pile(5),
  pile: () => pile(),
  jenga: () => jenga(),
  ragdoll: () => ragdoll(),
  compound: () => compound(),
  convex: () => convex(),
  heightfield: () => heightfield(),
  trimesh: () => trimesh(),
  sleep,
  constraints,
  collisionFilters,
  bodyTypes,
  bounceAndTrigger,
  lateEdits,
};
