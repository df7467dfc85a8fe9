/**
 * The denser scene of the parallel-broadphase benchmark: unit-sized bodies — cubes of edge 1 and
 * spheres of diameter 1, half and half — with random orientations that keep turning, at a 5 % volume
 * fraction, each body's AABB recomputed from its pose every frame and handed to the broadphase body by
 * body through `move()`, as an engine feeds it. Contestants: Sieve's SweepAndPrune (through `move()`,
 * and through `moveMany` to tell the feeding cost apart), cannon-es's SAPBroadphase on the same bodies
 * (Box and Sphere shapes, `useBoundingBoxes`), and Rapier's broad phase (cuboid and ball sensors).
 *
 * `runDenseDiagnosis` times SweepAndPrune on variants of the scene against the coherent scene to find
 * the per-box cost that makes this scene slower (see the report it prints).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Broadphase } from '@sieve/core';
import * as CANNON from 'cannon-es';
import { median, rng } from '../lib/stats.js';
import type { Contestant } from './contestants.js';
import { pairKey, type Scene } from './scene.js';

export interface DenseOptions {
  n: number;
  seed?: number;
  /** Share of the cube's volume the bodies fill (default 0.05). */
  volumeFraction?: number;
  /** Turn the bodies (default true); false keeps every orientation fixed. */
  spin?: boolean;
  /** Share of spheres (default 0.5). */
  spheres?: number;
}

/** The dense scene: a {@link Scene} whose boxes are the AABBs of turning cubes and of spheres. */
export interface DenseScene extends Scene {
  /** Orientation per body (x, y, z, w). */
  quat: Float64Array;
  /** 1 for a sphere (radius 0.5), 0 for a cube (half extent 0.5). */
  sphere: Uint8Array;
}

export function makeDenseScene(o: DenseOptions): DenseScene {
  const n = o.n;
  const r = rng(o.seed ?? 7);
  const spin = o.spin ?? true;
  const sphere = new Uint8Array(n);
  let volume = 0;
  for (let i = 0; i < n; i++) {
    sphere[i] = r() < (o.spheres ?? 0.5) ? 1 : 0;
    volume += sphere[i] ? Math.PI / 6 : 1;
  }
  const world = Math.cbrt(volume / (o.volumeFraction ?? 0.05));
  const pos = new Float64Array(3 * n);
  const vel = new Float64Array(3 * n);
  const quat = new Float64Array(4 * n);
  const omega = new Float64Array(3 * n);
  // Same speed as the coherent scene: up to 7.5 % of the body size per frame.
  for (let i = 0; i < 3 * n; i++) {
    pos[i] = r() * world;
    vel[i] = (r() * 2 - 1) * 0.075;
    omega[i] = spin ? (r() * 2 - 1) * 0.05 : 0;
  }
  for (let i = 0; i < n; i++) {
    // A uniformly random rotation (Shoemake).
    const u1 = r();
    const u2 = 2 * Math.PI * r();
    const u3 = 2 * Math.PI * r();
    const a = Math.sqrt(1 - u1);
    const b = Math.sqrt(u1);
    quat[4 * i] = a * Math.sin(u2);
    quat[4 * i + 1] = a * Math.cos(u2);
    quat[4 * i + 2] = b * Math.sin(u3);
    quat[4 * i + 3] = b * Math.cos(u3);
  }
  const half = new Float64Array(3 * n).fill(0.5);
  const bounds = new Float64Array(6 * n);
  const refresh = () => {
    for (let i = 0; i < n; i++) {
      let ex = 0.5;
      let ey = 0.5;
      let ez = 0.5;
      if (sphere[i] === 0) {
        const x = quat[4 * i];
        const y = quat[4 * i + 1];
        const z = quat[4 * i + 2];
        const w = quat[4 * i + 3];
        // |R| · h for h = (0.5, 0.5, 0.5): half the row sums of |R|.
        const r00 = 1 - 2 * (y * y + z * z);
        const r01 = 2 * (x * y - z * w);
        const r02 = 2 * (x * z + y * w);
        const r10 = 2 * (x * y + z * w);
        const r11 = 1 - 2 * (x * x + z * z);
        const r12 = 2 * (y * z - x * w);
        const r20 = 2 * (x * z - y * w);
        const r21 = 2 * (y * z + x * w);
        const r22 = 1 - 2 * (x * x + y * y);
        ex = 0.5 * (Math.abs(r00) + Math.abs(r01) + Math.abs(r02));
        ey = 0.5 * (Math.abs(r10) + Math.abs(r11) + Math.abs(r12));
        ez = 0.5 * (Math.abs(r20) + Math.abs(r21) + Math.abs(r22));
      }
      const o6 = 6 * i;
      bounds[o6] = pos[3 * i] - ex;
      bounds[o6 + 1] = pos[3 * i + 1] - ey;
      bounds[o6 + 2] = pos[3 * i + 2] - ez;
      bounds[o6 + 3] = pos[3 * i] + ex;
      bounds[o6 + 4] = pos[3 * i + 1] + ey;
      bounds[o6 + 5] = pos[3 * i + 2] + ez;
    }
  };
  refresh();
  return {
    n,
    world,
    pos,
    vel,
    half,
    bounds,
    quat,
    sphere,
    step() {
      for (let i = 0; i < 3 * n; i++) {
        const p = pos[i] + vel[i];
        if (p < 0 || p > world) vel[i] = -vel[i];
        else pos[i] = p;
      }
      if (spin) {
        for (let i = 0; i < n; i++) {
          // q += ½ ω ⊗ q, normalised.
          const wx = omega[3 * i];
          const wy = omega[3 * i + 1];
          const wz = omega[3 * i + 2];
          const x = quat[4 * i];
          const y = quat[4 * i + 1];
          const z = quat[4 * i + 2];
          const w = quat[4 * i + 3];
          const nx = x + 0.5 * (wx * w + wy * z - wz * y);
          const ny = y + 0.5 * (wy * w + wz * x - wx * z);
          const nz = z + 0.5 * (wz * w + wx * y - wy * x);
          const nw = w - 0.5 * (wx * x + wy * y + wz * z);
          const len = Math.hypot(nx, ny, nz, nw);
          quat[4 * i] = nx / len;
          quat[4 * i + 1] = ny / len;
          quat[4 * i + 2] = nz / len;
          quat[4 * i + 3] = nw / len;
        }
      }
      refresh();
    },
  };
}

/**
 * A Sieve broadphase fed body by body through `move(handle, aabb)` from a reused scratch array, as
 * an engine's per-body loop does (`bulk`: one `moveMany` over the scene's bounds instead).
 */
export function sieveByBody(
  name: string,
  create: () => Broadphase & { moveMany?: (h: Int32Array, b: Float64Array) => void; dispose?: () => void },
  bulk = false,
): Contestant {
  let bp: ReturnType<typeof create>;
  let handles: Int32Array;
  let scene: Scene;
  const scratch = new Float64Array(6);
  const index = new Map<number, number>();
  return {
    name,
    maxN: Number.POSITIVE_INFINITY,
    async setup(s) {
      scene = s;
      bp = create();
      // Workers started before the first blocking update (a parallel broadphase).
      await (bp as { ready?: () => Promise<void> }).ready?.();
      handles = new Int32Array(s.n);
      for (let i = 0; i < s.n; i++) {
        handles[i] = bp.insert(s.bounds.subarray(6 * i, 6 * i + 6));
        index.set(handles[i], i);
      }
      bp.update();
    },
    frame() {
      const b = scene.bounds;
      if (bulk && bp.moveMany) bp.moveMany(handles, b);
      else {
        for (let i = 0; i < scene.n; i++) {
          const o = 6 * i;
          scratch[0] = b[o];
          scratch[1] = b[o + 1];
          scratch[2] = b[o + 2];
          scratch[3] = b[o + 3];
          scratch[4] = b[o + 4];
          scratch[5] = b[o + 5];
          bp.move(handles[i], scratch);
        }
      }
      bp.update();
      return bp.pairCount;
    },
    pairKeys() {
      const out = new Set<number>();
      const p = bp.pairs();
      for (let i = 0; i < p.length; i += 2) out.add(pairKey(index.get(p[i])!, index.get(p[i + 1])!));
      return out;
    },
    dispose() {
      bp.dispose?.();
    },
  };
}

/** cannon-es SAPBroadphase on the dense scene: Box and Sphere bodies, posed every frame. */
export function cannonDense(): Contestant {
  let world: CANNON.World;
  let bodies: CANNON.Body[];
  let bp: CANNON.SAPBroadphase;
  let scene: DenseScene;
  const p1: CANNON.Body[] = [];
  const p2: CANNON.Body[] = [];
  return {
    name: 'cannon-es SAPBroadphase',
    maxN: 20_000,
    setup(s) {
      scene = s as DenseScene;
      world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
      bp = new CANNON.SAPBroadphase(world);
      bp.useBoundingBoxes = true;
      world.broadphase = bp;
      bodies = [];
      for (let i = 0; i < s.n; i++) {
        const shape = scene.sphere[i]
          ? new CANNON.Sphere(0.5)
          : new CANNON.Box(new CANNON.Vec3(0.5, 0.5, 0.5));
        const body = new CANNON.Body({ mass: 1, shape });
        (body as unknown as { benchIndex: number }).benchIndex = i;
        world.addBody(body);
        bodies.push(body);
      }
    },
    frame() {
      const q = scene.quat;
      const p = scene.pos;
      for (let i = 0; i < scene.n; i++) {
        const b = bodies[i];
        b.position.set(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        b.quaternion.set(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]);
        b.aabbNeedsUpdate = true;
      }
      p1.length = 0;
      p2.length = 0;
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

/** Rapier's broad phase on the dense scene: kinematic bodies with cuboid and ball sensors. */
export function rapierDense(): Contestant {
  // biome-ignore lint/suspicious/noExplicitAny: the compat build's types are loaded lazily.
  let R: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  let world: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  let bodies: any[];
  let scene: DenseScene;
  const v = { x: 0, y: 0, z: 0 };
  const q = { x: 0, y: 0, z: 0, w: 1 };
  return {
    name: 'Rapier 0.21 broad phase (WASM)',
    maxN: Number.POSITIVE_INFINITY,
    async setup(s) {
      scene = s as DenseScene;
      R = (await import('@dimforge/rapier3d-compat')).default;
      await R.init();
      world = new R.World({ x: 0, y: 0, z: 0 });
      world.profilerEnabled = true;
      bodies = [];
      for (let i = 0; i < s.n; i++) {
        const body = world.createRigidBody(
          R.RigidBodyDesc.kinematicPositionBased()
            .setTranslation(s.pos[3 * i], s.pos[3 * i + 1], s.pos[3 * i + 2])
            .setRotation({
              x: scene.quat[4 * i],
              y: scene.quat[4 * i + 1],
              z: scene.quat[4 * i + 2],
              w: scene.quat[4 * i + 3],
            }),
        );
        const desc = scene.sphere[i] ? R.ColliderDesc.ball(0.5) : R.ColliderDesc.cuboid(0.5, 0.5, 0.5);
        world.createCollider(desc.setSensor(true).setActiveCollisionTypes(R.ActiveCollisionTypes.ALL), body);
        bodies.push(body);
      }
      world.step();
    },
    frame() {
      for (let i = 0; i < scene.n; i++) {
        v.x = scene.pos[3 * i];
        v.y = scene.pos[3 * i + 1];
        v.z = scene.pos[3 * i + 2];
        q.x = scene.quat[4 * i];
        q.y = scene.quat[4 * i + 1];
        q.z = scene.quat[4 * i + 2];
        q.w = scene.quat[4 * i + 3];
        bodies[i].setNextKinematicTranslation(v);
        bodies[i].setNextKinematicRotation(q);
      }
      world.step();
      return -1;
    },
    selfTimed: () => world.timingBroadPhase(),
    pairKeys: () => new Set<number>(),
    unchecked: true,
    dispose() {
      world.free();
    },
  };
}

/** What {@link alternate} measured per contestant. */
export interface Alternated {
  /** Median ms per frame (wall clock). */
  ms: number[];
  /** Median CPU ms per frame of all the process's threads (schedstat; NaN where missing). */
  cpuMs: number[];
  /**
   * Median "critical path" per frame: the main thread's own CPU time, plus, for a multi-threaded
   * contestant, the busiest other thread's (Linux `/proc/self/task/<tid>/schedstat`, nanoseconds on
   * CPU). Time spent waiting for a CPU does not count, so on a loaded shared machine this is what a
   * frame would take with a free core per thread (plus the hand-off latency, ~0.03–0.3 ms measured);
   * NaN where schedstat is missing. For a self-timed contestant (Rapier's profiler: wall-clock broad-phase
   * time), that time scaled by the share of its step its thread was on a CPU.
   */
  criticalMs: number[];
  /** Median CPU ms per frame of the main thread alone (a parallel contestant's serial part). */
  mainMs: number[];
  /** Pairs at the checked frame, and those the reference found that this one did not (and the reverse); −1 when not checked. */
  pairs: number[];
  missed: number[];
  extra: number[];
  /** Timed frames per contestant. */
  frames: number[];
  /** The pairs checked against: the one passed in, else the first checked contestant's. */
  reference: Set<number> | undefined;
}

/**
 * Median ms per frame of each contestant, with frames alternating between them in one process (who
 * goes first rotates). The first frame after setup is the pair check: every contestant's pairs
 * against `reference`, or else the first checked contestant's (`unchecked` ones are not checked).
 */
export async function alternate(
  scene: Scene,
  contestants: Contestant[],
  o: { frames: number; warmup: number; budgetSeconds: number },
  /** Which contestants run threads of their own (their critical path counts the busiest other thread). */
  multiThreaded: boolean[] = [],
  /** Pairs to check against (another call's `reference`, on the same scene and frame). */
  reference?: Set<number>,
): Promise<Alternated> {
  for (const c of contestants) await c.setup(scene);
  scene.step();
  const out: Alternated = {
    ms: [],
    cpuMs: [],
    criticalMs: [],
    mainMs: [],
    pairs: [],
    missed: [],
    extra: [],
    frames: [],
    reference,
  };
  for (const c of contestants) {
    const pairs = c.frame();
    if (c.unchecked) {
      out.pairs.push(-1);
      out.missed.push(-1);
      out.extra.push(-1);
      continue;
    }
    const keys = c.pairKeys();
    out.reference ??= keys;
    let missed = 0;
    let extra = 0;
    for (const k of out.reference) if (!keys.has(k)) missed++;
    for (const k of keys) if (!out.reference.has(k)) extra++;
    out.pairs.push(pairs >= 0 ? pairs : keys.size);
    out.missed.push(missed);
    out.extra.push(extra);
  }
  const times: number[][] = contestants.map(() => []);
  const cpu: number[][] = contestants.map(() => []);
  const critical: number[][] = contestants.map(() => []);
  const mains: number[][] = contestants.map(() => []);
  const start = performance.now();
  for (let f = 0; f < o.warmup + o.frames; f++) {
    scene.step();
    for (let j = 0; j < contestants.length; j++) {
      const k = (j + f) % contestants.length;
      const c = contestants[k];
      const before = threadTimes();
      const t0 = performance.now();
      c.frame();
      const t1 = performance.now();
      const after = threadTimes();
      if (f >= o.warmup) {
        times[k].push(c.selfTimed ? c.selfTimed() : t1 - t0);
        const [main, busiest, all] = threadDeltas(before, after);
        cpu[k].push(all);
        mains[k].push(main);
        // A self-timed contestant (Rapier) reports wall time for part of its step: scale it by the share
        // of the step its thread actually ran.
        if (c.selfTimed) critical[k].push((times[k][times[k].length - 1] * main) / (t1 - t0));
        else if (!multiThreaded[k]) critical[k].push(main);
        else critical[k].push(c.criticalPath ? c.criticalPath(main, busiest) : main + busiest);
      }
    }
    if (f >= o.warmup + 5 && (performance.now() - start) / 1000 > o.budgetSeconds) break;
  }
  for (const c of contestants) c.dispose?.();
  out.ms = times.map((t) => median(t));
  out.cpuMs = cpu.map((t) => median(t));
  out.criticalMs = critical.map((t) => median(t));
  out.mainMs = mains.map((t) => median(t));
  out.frames = times.map((t) => t.length);
  return out;
}

const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * Nanoseconds on CPU of every thread of this process (empty where schedstat is missing). The kernel
 * brings a running thread's figure up to date only at a tick or a context switch, so the main thread
 * first sleeps for 20 µs: its own figure is then exact, not up to a tick (4 ms at HZ=250) behind.
 */
function threadTimes(): Map<number, number> {
  const out = new Map<number, number>();
  Atomics.wait(nap, 0, 0, 0.02);
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const text = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
      out.set(Number(tid), Number(text.slice(0, text.indexOf(' '))));
    }
  } catch {
    // Not Linux, or a thread ended between the listing and the read.
  }
  return out;
}

/** CPU ms between two snapshots: the main thread's, the busiest other thread's, all threads'. */
function threadDeltas(before: Map<number, number>, after: Map<number, number>): [number, number, number] {
  if (after.size === 0) return [Number.NaN, Number.NaN, Number.NaN];
  let main = 0;
  let busiest = 0;
  let all = 0;
  for (const [tid, ns] of after) {
    const delta = (ns - (before.get(tid) ?? ns)) / 1e6;
    all += delta;
    if (tid === process.pid) main = delta;
    else if (delta > busiest) busiest = delta;
  }
  return [main, busiest, all];
}
