/**
 * The box-pile and hull-pile rows of `pnpm bench:cannon`: N boxes, or N convex hulls of 12–24 points
 * (random points on ellipsoids, triangulated, as three-to-cannon gives them), dropped in a loose column
 * on a static box ground with gravity — stepped by
 *
 * - stock cannon-es 0.20.0 (its default NaiveBroadphase),
 * - cannon-es with `installSieve(world)` (default: bit-identical to stock, checked here every run),
 * - cannon-es with `installSieve(world, { narrowphase: { convex: convexContacts } })` (`@sieve/cannon/convex`),
 * - Rapier 0.21 (`@dimforge/rapier3d-compat`, WASM) on the same bodies (boxes as cuboids, hulls through
 *   `ColliderDesc.convexHull` of the same points), its default integration parameters,
 *
 * timing the whole `step` and the collision part of it: for cannon the world's
 * `broadphase.collisionPairs` plus `narrowphase.getContacts` (wrapped), for Rapier its profiler's
 * `timingCollisionDetection` (broad + narrow phase).
 *
 * Each world first settles (`settle` steps; the stock world is settled with Sieve installed, which is
 * bit-identical, and Sieve is taken off again, to keep the run short), then the contestants take turns:
 * each round every contestant steps `steps` times, each step timed; the medians are reported.
 */
import { performance } from 'node:perf_hooks';
import RAPIER from '@dimforge/rapier3d-compat';
import { installSieve, uninstallSieve } from '@sieve/cannon';
import { convexContacts } from '@sieve/cannon/convex';
import * as CANNON from 'cannon-es';
import { hullPile } from '../../packages/cannon/test/hulls.js';
import { median } from '../lib/stats.js';

export type PileKind = 'boxes' | 'hulls';

/** One contestant's medians on one pile. */
export interface PileTiming {
  stepMs: number;
  collisionMs: number;
  /** Contacts (cannon: contact equations; Rapier: contact points of touching pairs) after the last step. */
  contacts: number;
  /** Mean height of the bodies after the run (the piles settle alike). */
  meanY: number;
}

export interface PileRow {
  kind: PileKind;
  n: number;
  stock: PileTiming;
  sieve: PileTiming;
  sieveConvex: PileTiming | null;
  rapier: PileTiming;
  /** Stock and default Sieve worlds equal bit for bit after the run. */
  identical: boolean;
}

interface Contestant {
  step(): void;
  /** Collision ms of the last step. */
  collision(): number;
  contacts(): number;
  meanY(): number;
}

const DT = 1 / 60;

function cannonWorld(kind: PileKind, n: number): CANNON.World {
  CANNON.Body.idCounter = 0;
  CANNON.Shape.idCounter = 0;
  const world = new CANNON.World();
  hullPile(world, { kind, count: n, seed: 29 });
  return world;
}

/** Wraps a cannon world's broadphase and narrowphase passes to time them. */
function cannonContestant(world: CANNON.World): Contestant {
  let ms = 0;
  const np = world.narrowphase as CANNON.Narrowphase & { getContacts: (...a: unknown[]) => void };
  const getContacts = np.getContacts;
  np.getContacts = function (this: unknown, ...a: unknown[]) {
    const t = performance.now();
    getContacts.apply(this, a);
    ms += performance.now() - t;
  };
  const bp = world.broadphase as CANNON.Broadphase & { collisionPairs: (...a: unknown[]) => void };
  const pairs = bp.collisionPairs;
  bp.collisionPairs = function (this: unknown, ...a: unknown[]) {
    const t = performance.now();
    pairs.apply(this, a);
    ms += performance.now() - t;
  };
  return {
    step() {
      ms = 0;
      world.step(DT);
    },
    collision: () => ms,
    contacts: () => world.contacts.length,
    meanY: () =>
      world.bodies.reduce((s, b) => s + (b.mass > 0 ? b.position.y : 0), 0) / (world.bodies.length - 1),
  };
}

function rapierContestant(source: CANNON.World): Contestant {
  const world = new RAPIER.World({ x: 0, y: -9.82, z: 0 });
  world.timestep = DT;
  world.profilerEnabled = true;
  const bodies: RAPIER.RigidBody[] = [];
  for (const b of source.bodies) {
    const shape = b.shapes[0];
    const desc = b.mass > 0 ? RAPIER.RigidBodyDesc.dynamic() : RAPIER.RigidBodyDesc.fixed();
    desc.setTranslation(b.position.x, b.position.y, b.position.z);
    desc.setRotation({ x: b.quaternion.x, y: b.quaternion.y, z: b.quaternion.z, w: b.quaternion.w });
    const body = world.createRigidBody(desc);
    let collider: RAPIER.ColliderDesc | null;
    if (shape instanceof CANNON.Box) {
      const h = shape.halfExtents;
      collider = RAPIER.ColliderDesc.cuboid(h.x, h.y, h.z);
    } else {
      const v = (shape as CANNON.ConvexPolyhedron).vertices;
      const points = new Float32Array(3 * v.length);
      for (let i = 0; i < v.length; i++) points.set([v[i].x, v[i].y, v[i].z], 3 * i);
      collider = RAPIER.ColliderDesc.convexHull(points);
    }
    if (!collider) throw new Error('Rapier: no convex hull for a shape');
    collider.setDensity(b.mass > 0 ? 1 : 0);
    collider.setFriction(0.3);
    world.createCollider(collider, body);
    if (b.mass > 0) bodies.push(body);
  }
  return {
    step: () => world.step(),
    collision: () => world.timingCollisionDetection(),
    contacts() {
      let n = 0;
      world.forEachCollider((c) => {
        world.contactPairsWith(c, (other) => {
          if (c.handle < other.handle) world.contactPair(c, other, (m) => (n += m.numContacts()));
        });
      });
      return n;
    },
    meanY: () => bodies.reduce((s, b) => s + b.translation().y, 0) / bodies.length,
  };
}

/** Bit-identity of two cannon worlds' bodies. */
function sameBodies(a: CANNON.World, b: CANNON.World): boolean {
  return a.bodies.every((x, i) => {
    const y = b.bodies[i];
    const u = [x.position, x.quaternion, x.velocity, x.angularVelocity] as {
      x: number;
      y: number;
      z: number;
    }[];
    const v = [y.position, y.quaternion, y.velocity, y.angularVelocity] as {
      x: number;
      y: number;
      z: number;
    }[];
    return u.every((p, k) => Object.is(p.x, v[k].x) && Object.is(p.y, v[k].y) && Object.is(p.z, v[k].z));
  });
}

/** A pile world with `narrowphase: { convex: convexContacts }`. */
function convexOptionWorld(kind: PileKind, n: number): CANNON.World {
  const world = cannonWorld(kind, n);
  uninstallSieve(world);
  installSieve(world, { narrowphase: { convex: convexContacts } });
  return world;
}

export async function convexPiles(
  sizes: number[],
  plan: { settle: number; rounds: number; steps: number },
  log: (line: string) => void,
): Promise<PileRow[]> {
  await RAPIER.init();
  const rows: PileRow[] = [];
  for (const kind of ['boxes', 'hulls'] as const) {
    for (const n of sizes) {
      const stockWorld = cannonWorld(kind, n);
      const sieveWorld = cannonWorld(kind, n);
      installSieve(stockWorld);
      installSieve(sieveWorld);
      const convexWorld = convexOptionWorld(kind, n);
      const rapier = rapierContestant(cannonWorld(kind, n));
      for (let s = 0; s < plan.settle; s++) {
        stockWorld.step(DT);
        sieveWorld.step(DT);
        convexWorld?.step(DT);
        rapier.step();
      }
      uninstallSieve(stockWorld); // stock from here on (the settling was bit-identical)
      const contestants: [string, Contestant][] = [
        ['stock', cannonContestant(stockWorld)],
        ['sieve', cannonContestant(sieveWorld)],
        ['rapier', rapier],
      ];
      if (convexWorld) contestants.splice(2, 0, ['sieveConvex', cannonContestant(convexWorld)]);
      const times = new Map<string, { step: number[]; collision: number[] }>();
      for (const [name] of contestants) times.set(name, { step: [], collision: [] });
      for (let r = 0; r < plan.rounds; r++) {
        for (const [name, c] of r % 2 ? [...contestants].reverse() : contestants) {
          const t = times.get(name)!;
          for (let s = 0; s < plan.steps; s++) {
            const t0 = performance.now();
            c.step();
            t.step.push(performance.now() - t0);
            t.collision.push(c.collision());
          }
        }
      }
      const timing = (name: string): PileTiming => {
        const t = times.get(name)!;
        const c = contestants.find(([k]) => k === name)![1];
        return {
          stepMs: median(t.step),
          collisionMs: median(t.collision),
          contacts: c.contacts(),
          meanY: c.meanY(),
        };
      };
      const row: PileRow = {
        kind,
        n,
        stock: timing('stock'),
        sieve: timing('sieve'),
        sieveConvex: convexWorld ? timing('sieveConvex') : null,
        rapier: timing('rapier'),
        identical: sameBodies(stockWorld, sieveWorld),
      };
      if (!row.identical)
        throw new Error(`${kind} pile, N = ${n}: Sieve's default install differs from stock`);
      rows.push(row);
      const f = (t: PileTiming) => `${t.stepMs.toFixed(2)} ms (collision ${t.collisionMs.toFixed(2)})`;
      log(
        `${kind} pile, N=${n}: stock ${f(row.stock)}; Sieve ${f(row.sieve)}, ×${(row.stock.stepMs / row.sieve.stepMs).toFixed(2)} step, bit-identical` +
          (row.sieveConvex
            ? `; Sieve convex ${f(row.sieveConvex)}, ×${(row.stock.stepMs / row.sieveConvex.stepMs).toFixed(1)}`
            : '; (no convex option)') +
          `; Rapier ${f(row.rapier)}`,
      );
    }
  }
  return rows;
}
