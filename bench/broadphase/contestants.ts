/**
 * The broadphases compared on one scene, each behind the same small interface: `setup` builds it
 * from the scene's first frame, `frame` applies the scene's current bounds and finds the pairs
 * (the timed part), `pairKeys` lists the pairs of the last frame as box-index keys (to check that
 * everybody finds the same pairs).
 */
import { type Broadphase, BruteForce, SweepAndPrune } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { pairKey, type Scene } from './scene.js';

export interface Contestant {
  name: string;
  /** Largest N it is run at (slow references stop earlier). */
  maxN: number;
  setup(scene: Scene): Promise<void> | void;
  /** Moves everything to the scene's current bounds and finds the pairs; returns the pair count. */
  frame(): number;
  /** Milliseconds of the last frame as the contestant itself measures it, when it has a profiler. */
  selfTimed?: () => number;
  /**
   * The last frame's critical path from its main thread's and busiest other thread's CPU ms, for a
   * multi-threaded contestant whose main thread also works while its other threads do (default: their
   * sum, for one whose main thread only waits for them).
   */
  criticalPath?: (mainMs: number, busiestMs: number) => number;
  pairKeys(): Set<number>;
  /** Set when `pairKeys` lists nothing (a peer whose pairs are not read out): its pairs are not checked. */
  unchecked?: true;
  dispose?(): void;
}

/** A Sieve broadphase driven through its bulk entry point. */
export function sieve(
  name: string,
  create: () => Broadphase & { moveMany?: SweepAndPrune['moveMany'] },
  maxN: number,
): Contestant {
  let bp: Broadphase & { moveMany?: SweepAndPrune['moveMany'] };
  let handles: Int32Array;
  let scene: Scene;
  const slotOf = new Map<number, number>();
  return {
    name,
    maxN,
    setup(s) {
      scene = s;
      bp = create();
      handles = new Int32Array(s.n);
      for (let i = 0; i < s.n; i++) {
        handles[i] = bp.insert(s.bounds.subarray(6 * i, 6 * i + 6));
        slotOf.set(handles[i], i);
      }
      bp.update();
    },
    frame() {
      if (bp.moveMany) bp.moveMany(handles, scene.bounds);
      else for (let i = 0; i < scene.n; i++) bp.move(handles[i], scene.bounds.subarray(6 * i, 6 * i + 6));
      bp.update();
      return bp.pairs().length >> 1;
    },
    pairKeys() {
      const out = new Set<number>();
      const p = bp.pairs();
      for (let i = 0; i < p.length; i += 2) out.add(pairKey(slotOf.get(p[i])!, slotOf.get(p[i + 1])!));
      return out;
    },
  };
}

export const sieveSap = (maxN = Number.POSITIVE_INFINITY) =>
  sieve('Sieve SweepAndPrune', () => new SweepAndPrune({ dimensions: 3 }), maxN);
export const sieveBrute = (maxN: number) =>
  sieve('Sieve BruteForce', () => new BruteForce({ dimensions: 3 }), maxN);

/** cannon-es: bodies with Box shapes, moved by position; `collisionPairs` is the timed call. */
export function cannon(kind: 'SAP' | 'Naive', maxN: number): Contestant {
  let world: CANNON.World;
  let bodies: CANNON.Body[];
  let bp: CANNON.Broadphase;
  let scene: Scene;
  const p1: CANNON.Body[] = [];
  const p2: CANNON.Body[] = [];
  return {
    name: `cannon-es ${kind}Broadphase`,
    maxN,
    setup(s) {
      scene = s;
      world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
      bp = kind === 'SAP' ? new CANNON.SAPBroadphase(world) : new CANNON.NaiveBroadphase();
      // Test boxes, not bounding spheres, so the pairs are comparable with everybody else's.
      bp.useBoundingBoxes = true;
      world.broadphase = bp;
      bodies = [];
      for (let i = 0; i < s.n; i++) {
        const h = s.half;
        const body = new CANNON.Body({
          mass: 1,
          shape: new CANNON.Box(new CANNON.Vec3(h[3 * i], h[3 * i + 1], h[3 * i + 2])),
        });
        body.position.set(s.pos[3 * i], s.pos[3 * i + 1], s.pos[3 * i + 2]);
        (body as unknown as { benchIndex: number }).benchIndex = i;
        world.addBody(body);
        bodies.push(body);
      }
    },
    frame() {
      for (let i = 0; i < scene.n; i++) {
        const b = bodies[i];
        b.position.set(scene.pos[3 * i], scene.pos[3 * i + 1], scene.pos[3 * i + 2]);
        b.aabbNeedsUpdate = true;
      }
      p1.length = 0;
      p2.length = 0;
      // World.step marks the broadphase dirty every step; SAPBroadphase only re-sorts when it is.
      bp.dirty = true;
      bp.collisionPairs(world, p1, p2);
      return p1.length;
    },
    pairKeys() {
      const out = new Set<number>();
      const idx = (b: CANNON.Body) => (b as unknown as { benchIndex: number }).benchIndex;
      for (let i = 0; i < p1.length; i++) out.add(pairKey(idx(p1[i]), idx(p2[i])));
      return out;
    },
  };
}

/**
 * matter-js's detector, transposed to 3-D: every frame, sort all bodies by min x (Array.sort on
 * objects), then sweep each body against the following ones while their x ranges overlap.
 */
export function sortAndSweep(maxN: number): Contestant {
  interface Body {
    index: number;
    min: { x: number; y: number; z: number };
    max: { x: number; y: number; z: number };
  }
  let bodies: Body[];
  let scene: Scene;
  const pairs: number[] = [];
  const byMinX = (a: Body, b: Body) => a.min.x - b.min.x;
  return {
    name: 'matter-js-style sort and sweep',
    maxN,
    setup(s) {
      scene = s;
      bodies = [];
      for (let i = 0; i < s.n; i++)
        bodies.push({ index: i, min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } });
    },
    frame() {
      const b = scene.bounds;
      for (const body of bodies) {
        const o = 6 * body.index;
        body.min.x = b[o];
        body.min.y = b[o + 1];
        body.min.z = b[o + 2];
        body.max.x = b[o + 3];
        body.max.y = b[o + 4];
        body.max.z = b[o + 5];
      }
      bodies.sort(byMinX);
      pairs.length = 0;
      const n = bodies.length;
      for (let i = 0; i < n; i++) {
        const a = bodies[i];
        for (let j = i + 1; j < n; j++) {
          const c = bodies[j];
          if (c.min.x > a.max.x) break;
          if (a.max.y < c.min.y || a.min.y > c.max.y || a.max.z < c.min.z || a.min.z > c.max.z) continue;
          pairs.push(a.index, c.index);
        }
      }
      return pairs.length >> 1;
    },
    pairKeys() {
      const out = new Set<number>();
      for (let i = 0; i < pairs.length; i += 2) out.add(pairKey(pairs[i], pairs[i + 1]));
      return out;
    },
  };
}

/**
 * Rapier (Rust in WebAssembly): kinematic bodies with cuboid sensor colliders, moved each frame;
 * `world.step()` runs the whole pipeline, and the figure is its own profiler's broad-phase time.
 */
export function rapier(maxN: number): Contestant {
  // biome-ignore lint/suspicious/noExplicitAny: the compat build's types are loaded lazily.
  let R: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  let world: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  let bodies: any[];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  let colliders: any[];
  let scene: Scene;
  const index = new Map<number, number>();
  const v = { x: 0, y: 0, z: 0 };
  return {
    name: 'Rapier 0.21 broad phase (WASM)',
    maxN,
    async setup(s) {
      scene = s;
      R = (await import('@dimforge/rapier3d-compat')).default;
      await R.init();
      world = new R.World({ x: 0, y: 0, z: 0 });
      world.profilerEnabled = true;
      bodies = [];
      colliders = [];
      for (let i = 0; i < s.n; i++) {
        const body = world.createRigidBody(
          R.RigidBodyDesc.kinematicPositionBased().setTranslation(
            s.pos[3 * i],
            s.pos[3 * i + 1],
            s.pos[3 * i + 2],
          ),
        );
        const collider = world.createCollider(
          R.ColliderDesc.cuboid(s.half[3 * i], s.half[3 * i + 1], s.half[3 * i + 2])
            .setSensor(true)
            .setActiveCollisionTypes(R.ActiveCollisionTypes.ALL),
          body,
        );
        bodies.push(body);
        colliders.push(collider);
        index.set(collider.handle, i);
      }
      world.step();
    },
    frame() {
      for (let i = 0; i < scene.n; i++) {
        v.x = scene.pos[3 * i];
        v.y = scene.pos[3 * i + 1];
        v.z = scene.pos[3 * i + 2];
        bodies[i].setNextKinematicTranslation(v);
      }
      world.step();
      return -1;
    },
    selfTimed: () => world.timingBroadPhase(),
    pairKeys() {
      // Rapier's intersection graph trails the kinematic targets by one step: step once more in place.
      world.step();
      const out = new Set<number>();
      for (let i = 0; i < colliders.length; i++) {
        world.narrowPhase.intersectionPairsWith(colliders[i].handle, (other: number) => {
          out.add(pairKey(i, index.get(other)!));
        });
      }
      return out;
    },
    dispose() {
      world.free();
    },
  };
}
