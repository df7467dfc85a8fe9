/**
 * Wrong arguments at the public entry points that take options: an unknown key (a typo) throws a
 * `TypeError` naming the key, where it was given and the keys that are known; a value of the wrong type
 * or out of range throws naming the option; and in every case nothing was built or changed — a world
 * or engine is left exactly as it was. (`ParallelSweepAndPrune` and `WorkerPool` have their own suite.)
 */
import {
  getBulletSystem,
  installSieve as installCannon,
  installBullets as installCannonBullets,
  installNarrowphase,
  isBullet as isCannonBullet,
  isSieveInstalled,
  PairOverlapKeeper,
  SieveBroadphase,
  setBullet as setCannonBullet,
} from '@sieve/cannon';
import { sphereBoxContact } from '@sieve/cannon/convex';
import {
  BodyTable,
  BruteForce,
  checkOptionKeys,
  createMotion,
  createMotion2D,
  createTimeOfImpactResult,
  createTimeOfImpactResult2D,
  MeshBVH,
  MeshMeshResult,
  meshMeshPairs,
  OcsiBatch,
  Octree,
  SweepAndPrune,
  timeOfImpact,
  timeOfImpact2D,
} from '@sieve/core';
import { GpuMeshMesh, requestGpuDevice } from '@sieve/core/gpu';
import {
  getSieve,
  installSieve as installMatter,
  isBullet as isMatterBullet,
  setBullet as setMatterBullet,
  uninstallBullets as uninstallMatterBullets,
} from '@sieve/matter';
import { attachToPixiTicker, drawOverlay, FrameRecorder, Overlay, overlayHeight } from '@sieve/overlay';
import * as CANNON from 'cannon-es';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';

/** The message of an unknown key: the receiver, the key and (some of) the known keys. */
function unknownKey(where: string, key: string, knownSample: string): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${esc(where)} has an unknown key '${esc(key)}' \\(known: .*\\b${esc(knownSample)}\\b`);
}

/** Expects `f` to throw a `kind` whose message matches `message`. */
function expectThrow(f: () => unknown, kind: typeof TypeError | typeof RangeError, message: RegExp): void {
  let caught: unknown = null;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a ${kind.name} matching ${message}`).toBeInstanceOf(kind);
  expect((caught as Error).message).toMatch(message);
}

/** One refused `installSieve` call: what it shows, its options, the error's class and message. */
type Refusal = [string, object, typeof TypeError | typeof RangeError, RegExp];

/**
 * A test per refusal: `install` on a fresh `make()` throws as expected, `state` is unchanged, and the
 * world (or engine) still steps.
 */
function refusals<W>(
  noun: string,
  list: readonly Refusal[],
  how: { make(): W; state(w: W): unknown[]; install(w: W, options: object): unknown; step(w: W): void },
): void {
  for (const [what, options, kind, message] of list) {
    it(`installSieve refuses ${what}, leaving the ${noun} as it was`, () => {
      const w = how.make();
      const before = how.state(w);
      expectThrow(() => how.install(w, options), kind, message);
      expect(how.state(w)).toEqual(before);
      how.step(w);
    });
  }
}

const quad = () => {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
  return { positions, index: new Uint32Array([0, 1, 2, 0, 2, 3]) };
};

describe('checkOptionKeys', () => {
  it('names the key, the receiver and the known keys; refuses non-objects', () => {
    expect(() => checkOptionKeys('f: options', { typo: 1 }, ['a'])).toThrow(
      /unknown key 'typo' \(known: a\)/,
    );
    expect(() => checkOptionKeys('f: options', null, ['a'])).toThrow(
      /f: options must be an object, got null/,
    );
    expect(() => checkOptionKeys('f: options', [], ['a'])).toThrow(/got an array/);
    // Own keys only: an inherited enumerable key is not the caller's.
    const inherited = Object.create({ typo: 1 }) as object;
    expect(() => checkOptionKeys('f: options', inherited, ['a'])).not.toThrow();
    // Unlisted keys are known (a removed option, whose own message the caller gives) but not named.
    expect(() => checkOptionKeys('f: options', { old: 1 }, ['a', 'old'], ['old'])).not.toThrow();
    expect(() => checkOptionKeys('f: options', { typo: 1 }, ['a', 'old'], ['old'])).toThrow(/\(known: a\)$/);
  });

  it("the adapters' unknown-key errors do not list their removed options as known", () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return String((e as Error).message);
      }
      return '';
    };
    const matter = message(() => installMatter(Matter.Engine.create(), { sweepbelow: 1 } as never));
    expect(matter).toMatch(/unknown key 'sweepbelow' \(known: broadphase, mode, sweepBelow/);
    expect(matter).not.toMatch(/\b(sap|octree|parallel)\b/);
    const cannon = message(() => new SieveBroadphase({ naivebelow: 1 } as never));
    expect(cannon).toMatch(/unknown key 'naivebelow' \(known: hugeExtent, .*naiveBelow/);
    expect(cannon).not.toMatch(/\b(kind|sap|octree)\b/);
  });
});

describe('@sieve/core entry points', () => {
  it('broadphase constructors: unknown keys, types and ranges', () => {
    expectThrow(
      () => new SweepAndPrune({ dimensions: 2, cellsize: 4 } as never),
      TypeError,
      unknownKey('SweepAndPrune: options', 'cellsize', 'cellSize'),
    );
    expectThrow(
      () => new Octree({ dimensions: 3, leafcapacity: 4 } as never),
      TypeError,
      unknownKey('Octree: options', 'leafcapacity', 'leafCapacity'),
    );
    expectThrow(
      () => new BruteForce({ dimensions: 2, isStatic: true } as never),
      TypeError,
      unknownKey('BruteForce: options', 'isStatic', 'initialCapacity'),
    );
    for (const make of [
      (o: object) => new SweepAndPrune(o as never),
      (o: object) => new Octree(o as never),
      (o: object) => new BruteForce(o as never),
    ]) {
      expectThrow(
        () => make({ dimensions: 2, validate: 'yes' }),
        TypeError,
        /options\.validate must be true or false/,
      );
      expect(() => make({ dimensions: 4 })).toThrow(/dimensions/);
      expect(() => make({ dimensions: 2, initialCapacity: -1 })).toThrow(/initialCapacity/);
      expect(() => make(null as never)).toThrow(TypeError);
    }
    expectThrow(() => new SweepAndPrune({ dimensions: 2, cellSize: -1 }), RangeError, /cellSize/);
    expectThrow(() => new Octree({ dimensions: 2, looseness: 0.5 }), RangeError, /looseness/);
  });

  it('MeshBVH, OcsiBatch and BodyTable options', () => {
    const { positions, index } = quad();
    expectThrow(
      () => new MeshBVH(positions, index, { stratgy: 'sah' } as never),
      TypeError,
      unknownKey('MeshBVH: options', 'stratgy', 'strategy'),
    );
    expectThrow(() => new MeshBVH(positions, index, { strategy: 'best' as 'sah' }), RangeError, /strategy/);
    expectThrow(() => new MeshBVH(positions, index, { maxLeafSize: 0 }), RangeError, /maxLeafSize/);
    expectThrow(
      () => new OcsiBatch(4, { backnd: 'js' } as never),
      TypeError,
      unknownKey('OcsiBatch: options', 'backnd', 'backend'),
    );
    expectThrow(
      () => new OcsiBatch(4, { validate: 1 as never }),
      TypeError,
      /validate must be true or false/,
    );
    const bp = new SweepAndPrune({ dimensions: 2 });
    const hooks = { grow() {}, added() {}, removed() {} };
    expectThrow(
      () => new BodyTable(bp, hooks, { capacity: 8 } as never),
      TypeError,
      unknownKey('BodyTable: options', 'capacity', 'initialCapacity'),
    );
  });

  it('timeOfImpact and timeOfImpact2D options, on every call', () => {
    const sphere = { kind: 'sphere' as const, radius: 0.5 };
    const a = createMotion();
    const b = createMotion();
    b.position[0] = 3;
    a.linearVelocity[0] = 5;
    const out = createTimeOfImpactResult();
    expect(timeOfImpact(sphere, a, sphere, b, { dt: 1 }, out)).toBe(true);
    expectThrow(
      () => timeOfImpact(sphere, a, sphere, b, { dt: 1, tolerence: 1e-3 } as never, out),
      TypeError,
      unknownKey('timeOfImpact: options', 'tolerence', 'tolerance'),
    );
    expectThrow(() => timeOfImpact(sphere, a, sphere, b, { dt: -1 }, out), RangeError, /dt/);
    expectThrow(
      () => timeOfImpact(sphere, a, sphere, b, { dt: 1, maxIterations: 1.5 }, out),
      RangeError,
      /maxIterations/,
    );
    const circle = { kind: 'circle' as const, radius: 0.5 };
    const out2 = createTimeOfImpactResult2D();
    expectThrow(
      () =>
        timeOfImpact2D(
          circle,
          createMotion2D(),
          circle,
          createMotion2D(),
          { dt: 1, iterations: 3 } as never,
          out2,
        ),
      TypeError,
      unknownKey('timeOfImpact2D: options', 'iterations', 'maxIterations'),
    );
  });

  it('the BVH queries take matrices of exactly 16 numbers', () => {
    const { positions, index } = quad();
    const bvh = new MeshBVH(positions, index);
    const id = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const res = new MeshMeshResult();
    expect(meshMeshPairs(bvh, id, bvh, id, res)).toBeGreaterThan(0);
    expectThrow(
      () => meshMeshPairs(bvh, [...id, 0], bvh, null, res),
      RangeError,
      /matrixA must be a 4x4 matrix \(16 numbers.*17/,
    );
    expectThrow(() => meshMeshPairs(bvh, null, bvh, id.slice(0, 15), res), RangeError, /matrixB .*15/);
  });

  it('GpuMeshMesh.create, requestGpuDevice and query options', async () => {
    await expect(GpuMeshMesh.create({ forcecpu: true } as never)).rejects.toThrow(
      unknownKey('GpuMeshMesh.create: options', 'forcecpu', 'forceCpu'),
    );
    await expect(GpuMeshMesh.create({ forceCpu: 'yes' as never })).rejects.toThrow(
      /forceCpu must be true or false/,
    );
    await expect(GpuMeshMesh.create({ forceCpu: true, node: 5 as never })).rejects.toThrow(/options\.node/);
    await expect(GpuMeshMesh.create({ forceCpu: true, powerPreference: 'fast' as never })).rejects.toThrow(
      RangeError,
    );
    await expect(GpuMeshMesh.create({ forceCpu: true, blockSize: 0 })).rejects.toThrow(/blockSize/);
    await expect(requestGpuDevice({ nod: false } as never)).rejects.toThrow(
      unknownKey('requestGpuDevice: options', 'nod', 'node'),
    );
    const g = await GpuMeshMesh.create({ forceCpu: true });
    const { positions, index } = quad();
    const h = g.addMesh(new MeshBVH(positions, index));
    const res = new MeshMeshResult();
    await expect(g.pairs(h, null, h, null, res, { bruteforce: true } as never)).rejects.toThrow(
      unknownKey('GpuMeshMesh.pairs: options', 'bruteforce', 'bruteForce'),
    );
    await expect(g.pairs(h, null, h, null, res, { bruteForce: 1 as never })).rejects.toThrow(TypeError);
    await expect(
      g.pairsBatch([{ a: h, matrixA: null, b: h, matrixB: null, result: res, matrix: null } as never]),
    ).rejects.toThrow(unknownKey('GpuMeshMesh.pairsBatch: queries[0]', 'matrix', 'matrixA'));
    g.destroy();
  });
});

/** A small cannon world with a few bodies, stepped once. */
function cannonWorld(): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  for (let i = 0; i < 4; i++) {
    world.addBody(
      new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5), position: new CANNON.Vec3(i * 0.8, 1, 0) }),
    );
  }
  world.step(1 / 60);
  return world;
}

/** What installSieve would change on a cannon world: equal before and after a refused install. */
function cannonState(world: CANNON.World): unknown[] {
  const w = world as unknown as Record<string, unknown>;
  return [
    w.broadphase,
    w.collisionMatrix,
    w.collisionMatrixPrevious,
    w.bodyOverlapKeeper,
    w.shapeOverlapKeeper,
    Object.getOwnPropertyNames(world).sort().join(','),
    Object.getOwnPropertyNames(world.narrowphase).sort().join(','),
    getBulletSystem(world),
    isSieveInstalled(world),
  ];
}

describe('@sieve/cannon entry points', () => {
  const refused: Refusal[] = [
    [
      'a top-level typo',
      { narrowPhase: {} },
      TypeError,
      unknownKey('installSieve: options', 'narrowPhase', 'narrowphase'),
    ],
    [
      'a narrowphase typo',
      { narrowphase: { convx: true } },
      TypeError,
      unknownKey('installSieve: options.narrowphase', 'convx', 'convex'),
    ],
    [
      'a broadphase typo',
      { broadphase: { naivebelow: 0 } },
      TypeError,
      unknownKey('installSieve: options.broadphase', 'naivebelow', 'naiveBelow'),
    ],
    [
      'tree options (a SweepAndPrune is passed built, its options given to it)',
      { broadphase: { sap: { cellsize: 2 } } },
      TypeError,
      /options\.broadphase\.sap is not supported; pass sieve: new SweepAndPrune\(\{ dimensions: 3/,
    ],
    [
      'the octree by name (it is passed built, as sieve)',
      { broadphase: { kind: 'octree' } },
      RangeError,
      /kind 'octree' is not supported: the adapter builds no tree .*pass sieve: new Octree/,
    ],
    [
      'the sweep and prune by name (it is passed built, as sieve)',
      { broadphase: { kind: 'sap' } },
      RangeError,
      /kind 'sap' is not supported: the adapter builds no tree .*pass sieve: new SweepAndPrune/,
    ],
    [
      'octree options (an Octree is passed built, its options given to it)',
      { broadphase: { octree: {} } },
      TypeError,
      /options\.broadphase\.octree is not supported/,
    ],
    [
      'a bullets typo',
      { bullets: { tolerence: 1 } },
      TypeError,
      unknownKey('installSieve: options.bullets', 'tolerence', 'tolerance'),
    ],
    ['a broadphase that is a number', { broadphase: 5 }, TypeError, /options\.broadphase must be/],
    [
      'a narrowphase switch that is a string',
      { narrowphase: { trimesh: 'no' } },
      TypeError,
      /narrowphase\.trimesh/,
    ],
    [
      'convex: true (the generator is imported from its own entry point)',
      { narrowphase: { convex: true } },
      TypeError,
      /options\.narrowphase\.convex takes the convex contact generator, not true: import \{ convexContacts \} from '@sieve\/cannon\/convex'/,
    ],
    ['collisionMatrix not a boolean', { collisionMatrix: 'yes' }, TypeError, /options\.collisionMatrix/],
    ['deferRemovals not a boolean', { deferRemovals: 1 }, TypeError, /options\.deferRemovals/],
    [
      'wideContactIds without the matrices',
      { wideContactIds: true, collisionMatrix: false },
      TypeError,
      /wideContactIds/,
    ],
    ['bullets a string', { bullets: 'on' }, TypeError, /options\.bullets/],
    ['maxContacts 0', { narrowphase: { maxContacts: 0 } }, RangeError, /narrowphase\.maxContacts/],
    ['naiveBelow -1', { broadphase: { naiveBelow: -1 } }, RangeError, /naiveBelow/],
    [
      'a bad broadphase option value',
      { broadphase: { naiveBelow: 0, margin: -2 } },
      RangeError,
      /options\.broadphase\.margin|margin must be/,
    ],
    ['bullets slop NaN', { bullets: { slop: Number.NaN } }, RangeError, /slop/],
  ];
  refusals('world', refused, {
    make: cannonWorld,
    state: cannonState,
    install: (world, options) => installCannon(world, options as never),
    step: (world) => world.step(1 / 60),
  });

  it('installSieve refuses a narrowphase that already has the handlers, before changing the world', () => {
    const world = cannonWorld();
    installNarrowphase(world.narrowphase);
    const before = cannonState(world);
    expect(() => installCannon(world)).toThrow(/already installed on world\.narrowphase/);
    expect(cannonState(world)).toEqual(before);
    expect(installCannon(world, { narrowphase: false }).broadphase).not.toBeNull();
  });

  it('SieveBroadphase, installNarrowphase, installBullets, setBullet and PairOverlapKeeper', () => {
    expectThrow(
      () => new SieveBroadphase({ naivebelow: 0 } as never),
      TypeError,
      unknownKey('SieveBroadphase: options', 'naivebelow', 'naiveBelow'),
    );
    expectThrow(
      () => new SieveBroadphase({ useBoundingBoxes: 'yes' as never }),
      TypeError,
      /useBoundingBoxes/,
    );
    const world = cannonWorld();
    expectThrow(
      () => installNarrowphase(world.narrowphase, { sphereBox: 'yes' as never }),
      TypeError,
      /installNarrowphase: options\.sphereBox must be false or sphereBoxContact of '@sieve\/cannon\/convex'/,
    );
    // The opt-in handlers are values of their own entry point (pages without them do not bundle them).
    expectThrow(
      () => installNarrowphase(world.narrowphase, { sphereBox: true as never }),
      TypeError,
      /options\.sphereBox takes the handler, not true: import \{ sphereBoxContact \} from '@sieve\/cannon\/convex'/,
    );
    expectThrow(
      () => installNarrowphase(world.narrowphase, { boxBox: true as never }),
      TypeError,
      /options\.boxBox takes the handler, not true: import \{ boxBoxPrefilter \}/,
    );
    // Each value turns on its own option only.
    expectThrow(
      () => installNarrowphase(world.narrowphase, { boxBox: sphereBoxContact as never }),
      TypeError,
      /options\.boxBox must be false or boxBoxPrefilter/,
    );
    expectThrow(
      () => installNarrowphase(world.narrowphase, { bogus: true } as never),
      TypeError,
      unknownKey('installNarrowphase: options', 'bogus', 'trimesh'),
    );
    expect(Object.getOwnPropertyNames(world.narrowphase).some((k) => /^\d+$/.test(k))).toBe(false);
    expectThrow(
      () => installCannonBullets(world, { slopp: 0.1 } as never),
      TypeError,
      unknownKey('installBullets: options', 'slopp', 'slop'),
    );
    expect(getBulletSystem(world)).toBeNull();
    const body = world.bodies[0];
    expectThrow(
      () => setCannonBullet(body, { bogus: 1 } as never),
      TypeError,
      unknownKey('setBullet: settings', 'bogus', 'response'),
    );
    expectThrow(() => setCannonBullet(body, { restitution: '1' as never }), RangeError, /restitution/);
    expect(isCannonBullet(body)).toBe(false);
    expectThrow(
      () => new PairOverlapKeeper({ stockkeys: true } as never),
      TypeError,
      unknownKey('PairOverlapKeeper: options', 'stockkeys', 'stockKeys'),
    );
    expectThrow(() => new PairOverlapKeeper({ stockKeys: 1 as never }), TypeError, /stockKeys/);
  });
});

/** A small matter engine; its event lists, to compare before and after a refused call. */
function matterEngine(): Matter.Engine {
  const engine = Matter.Engine.create();
  Matter.Composite.add(engine.world, [
    Matter.Bodies.rectangle(0, 100, 400, 20, { isStatic: true }),
    Matter.Bodies.rectangle(0, 0, 20, 20),
  ]);
  return engine;
}

function matterState(engine: Matter.Engine): unknown[] {
  const events = (engine as unknown as { events?: Record<string, unknown[]> }).events ?? {};
  return [
    getSieve(engine) ?? null,
    Matter.Detector.collisions,
    Object.entries(events)
      .map(([k, v]) => `${k}:${v.length}`)
      .join(','),
  ];
}

describe('@sieve/matter entry points', () => {
  const refused: Refusal[] = [
    [
      'a top-level typo',
      { sweepbelow: 0 },
      TypeError,
      unknownKey('installSieve: options', 'sweepbelow', 'sweepBelow'),
    ],
    [
      'sap options (a SweepAndPrune is passed built, its options given to it)',
      { sap: { cellSize: 8 } },
      TypeError,
      /options\.sap is not supported; pass broadphase: new SweepAndPrune/,
    ],
    [
      'octree options (an Octree is passed built, its options given to it)',
      { octree: { leafCapacity: 8 } },
      TypeError,
      /options\.octree is not supported; pass broadphase: new Octree/,
    ],
    ['the octree by name', { broadphase: 'octree' }, RangeError, /'octree' is not built by name/],
    [
      'the sweep and prune by name',
      { broadphase: 'sap' },
      RangeError,
      /'sap' is not built by name; pass broadphase: new SweepAndPrune/,
    ],
    [
      'sap options next to a broadphase instance',
      { broadphase: new Octree({ dimensions: 2 }), sap: {} },
      TypeError,
      /options\.sap is not supported/,
    ],
    [
      'a path threshold without a broadphase',
      { sweepBelow: 0 },
      RangeError,
      /options\.sweepBelow: without options\.broadphase the sweep answers every step/,
    ],
    ['a bad sweepBelow', { sweepBelow: -1 }, RangeError, /sweepBelow/],
    ['a bad mode', { mode: 'fast' }, RangeError, /options\.mode/],
    ['a bad clock', { clock: 5 }, TypeError, /options\.clock/],
    ['a bad broadphase name', { broadphase: 'grid' }, RangeError, /options\.broadphase/],
    [
      'options that are not an object',
      7 as unknown as object,
      TypeError,
      /installSieve: options must be an object/,
    ],
  ];
  refusals('engine', refused, {
    make: matterEngine,
    state: matterState,
    install: (engine, options) => installMatter(engine, options as never),
    step: (engine) => Matter.Engine.update(engine, 16),
  });

  it('setBullet: unknown keys and bad values, the deprecated form refused before the engine changes', () => {
    const engine = matterEngine();
    const body = Matter.Composite.allBodies(engine.world)[1];
    expectThrow(
      () => setMatterBullet(body, { respone: 'stop' } as never),
      TypeError,
      unknownKey('setBullet: options', 'respone', 'response'),
    );
    expectThrow(() => setMatterBullet(body, { restitution: '0.5' as never }), RangeError, /restitution/);
    expectThrow(() => setMatterBullet(body, { onHit: 3 as never }), TypeError, /onHit/);
    expect(isMatterBullet(body)).toBe(false);
    const before = matterState(engine);
    expectThrow(
      () => setMatterBullet(engine, body, { bogus: true } as never),
      TypeError,
      unknownKey('setBullet: options', 'bogus', 'onHit'),
    );
    expect(matterState(engine)).toEqual(before);
    expect(uninstallMatterBullets(engine)).toBe(false); // never installed
  });
});

describe('@sieve/overlay entry points', () => {
  it('FrameRecorder, Overlay, drawOverlay, overlayHeight and attachToPixiTicker', () => {
    expectThrow(
      () => new FrameRecorder({ capacty: 10 } as never),
      TypeError,
      unknownKey('FrameRecorder: options', 'capacty', 'capacity'),
    );
    expectThrow(
      () => new FrameRecorder({ phases: 'physics' as never }),
      TypeError,
      /phases must be an array/,
    );
    expectThrow(() => new FrameRecorder({ capacity: 1 }), RangeError, /capacity/);
    // Checked before the overlay looks for a DOM (so in Node too).
    expectThrow(
      () => new Overlay({ widht: 300 } as never),
      TypeError,
      unknownKey('Overlay: options', 'widht', 'width'),
    );
    expectThrow(() => new Overlay({ corner: 'middle' as never }), RangeError, /corner/);
    expectThrow(() => new Overlay({ buttons: 'no' as never }), TypeError, /buttons/);
    const rec = new FrameRecorder({ phases: ['a'] });
    const calls: string[] = [];
    const ctx = new Proxy(
      {},
      {
        get: (_t, prop) => (prop === 'measureText' ? () => ({ width: 6 }) : () => calls.push(String(prop))),
        set: () => true,
      },
    );
    expectThrow(
      () => drawOverlay(ctx as never, rec, { mdoe: 'full' } as never),
      TypeError,
      unknownKey('drawOverlay: options', 'mdoe', 'mode'),
    );
    expect(calls).toEqual([]); // nothing drawn
    expectThrow(() => overlayHeight(rec, { mode: 'tiny' as never }), RangeError, /mode/);
    expectThrow(() => overlayHeight(rec, { showOther: 1 as never }), TypeError, /showOther/);
    expect(overlayHeight(rec, { mode: 'full' })).toBeGreaterThan(0);
    const added: unknown[] = [];
    const ticker = { add: (f: unknown) => added.push(f), remove: () => {} };
    expectThrow(
      () => attachToPixiTicker(ticker, rec, { priority: 1 } as never),
      TypeError,
      unknownKey('attachToPixiTicker: options', 'priority', 'renderPriority'),
    );
    expectThrow(
      () => attachToPixiTicker(ticker, rec, { renderPriority: Number.NaN }),
      RangeError,
      /renderPriority/,
    );
    expect(added).toEqual([]);
    expect(rec.phaseNames).toEqual(['a']);
  });
});
