/**
 * Differential runs of cannon-es worlds for the fault tests: the same world built twice (stock with
 * cannon's default `NaiveBroadphase`, and with Sieve installed in one configuration), the same listeners,
 * and after every step a trace of what a game sees — every body's position, velocity and orientation in
 * `world.bodies` order, and the `collide`, `beginContact` and `endContact` events of the step. Bodies
 * are named at creation (ids differ between the two worlds).
 */
import { type InstallSieveOptions, installSieve } from '@sieve/cannon';
import { SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';

/** A world under test, with the name of each of its bodies and what the listeners logged. */
export interface CannonScene {
  world: CANNON.World;
  names: WeakMap<CANNON.Body, string>;
  /** Events of the current step, in dispatch order. */
  log: string[];
  /** Makes a new dynamic sphere named `s<k>` (k counts spawns), not yet added. */
  spawn(): CANNON.Body;
}

/**
 * A static ground box and `n` dynamic spheres and boxes above it, dropping onto it; `wire(scene)` adds
 * the listeners under test.
 */
export function dropWorld(n: number, wire: (scene: CannonScene) => void): CannonScene {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  const names = new WeakMap<CANNON.Body, string>();
  const log: string[] = [];
  let spawned = 0;
  const side = Math.max(6, Math.ceil(Math.sqrt(n)) * 1.5);
  const scene: CannonScene = {
    world,
    names,
    log,
    spawn() {
      const k = spawned++;
      const body = new CANNON.Body({
        mass: 1,
        shape: k % 2 === 0 ? new CANNON.Sphere(0.5) : new CANNON.Box(new CANNON.Vec3(0.4, 0.4, 0.4)),
        position: new CANNON.Vec3(
          ((k * 7) % side) - side / 2,
          1.2 + (k % 5) * 0.9,
          ((k * 3) % side) - side / 2,
        ),
      });
      names.set(body, `s${k}`);
      body.addEventListener('collide', (e: { body: CANNON.Body }) => {
        log.push(`collide ${names.get(body)}-${names.get(e.body)}`);
      });
      return body;
    },
  };
  const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(side, 0.5, side)) });
  names.set(ground, 'ground');
  world.addBody(ground);
  for (let i = 0; i < n; i++) world.addBody(scene.spawn());
  const pairName = (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
    `${e.bodyA ? names.get(e.bodyA) : '-'}-${e.bodyB ? names.get(e.bodyB) : '-'}`;
  world.addEventListener('beginContact', (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
    log.push(`begin ${pairName(e)}`),
  );
  world.addEventListener('endContact', (e: { bodyA?: CANNON.Body; bodyB?: CANNON.Body }) =>
    log.push(`end ${pairName(e)}`),
  );
  wire(scene);
  return scene;
}

/** Steps `steps` times; one trace line per step (or the error a step threw, and no more). */
export function traceSteps(scene: CannonScene, steps: number, after?: () => void): string[] {
  const { world, names, log } = scene;
  const lines: string[] = [];
  for (let s = 0; s < steps; s++) {
    log.length = 0;
    try {
      world.step(1 / 60);
    } catch (e) {
      lines.push(`step threw: ${(e as Error).message}`);
      break;
    }
    after?.();
    const bodies = world.bodies
      .map((b) => {
        const p = b.position;
        const v = b.velocity;
        const q = b.quaternion;
        return `${names.get(b)}@${b.index}:${p.x},${p.y},${p.z},${v.x},${v.y},${v.z},${q.x},${q.y},${q.z},${q.w}`;
      })
      .join(';');
    lines.push(`${log.join('/')}|${bodies}`);
  }
  return lines;
}

/** The first step whose trace differs, with both lines (abridged), or '' when none does. */
export function firstDifference(a: string[], b: string[], names = ['stock', 'sieve']): string {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) {
      return `step ${i}:\n ${names[0]} ${String(a[i]).slice(0, 300)}\n ${names[1]} ${String(b[i]).slice(0, 300)}`;
    }
  }
  return '';
}

/**
 * Sieve configurations: the default, the sweep forced, a passed tree forced, and parts switched off.
 * (The tree path is the same code for every `@sieve/core` tree; `stock.test.ts` runs the octree too.)
 */
export const CANNON_CONFIGS: readonly { name: string; options: InstallSieveOptions }[] = [
  { name: 'default', options: {} },
  { name: 'sweep always (naiveBelow 0)', options: { broadphase: { naiveBelow: 0 } } },
  {
    name: 'SweepAndPrune always',
    // An instance serves one world: a fresh one at every read.
    get options(): InstallSieveOptions {
      return { broadphase: { sieve: new SweepAndPrune({ dimensions: 3 }), naiveBelow: 0 } };
    },
  },
  { name: "stock's collision matrices", options: { collisionMatrix: false } },
  { name: "cannon's broadphase", options: { broadphase: false } },
];

/** Traces `build()` under each of {@link CANNON_CONFIGS}. */
export function traceConfigs(build: () => CannonScene, steps: number): { name: string; trace: string[] }[] {
  return CANNON_CONFIGS.map(({ name, options }) => {
    const scene = build();
    installSieve(scene.world, options);
    return { name, trace: traceSteps(scene, steps) };
  });
}
