/**
 * Misuse of the parallel broadphase and its worker pool: every option is checked — key, type, range
 * and combination — and a bad one throws an error naming it before any thread starts; after
 * `dispose()` every method and count throws, as documented.
 */
import { ParallelSweepAndPrune, type ParallelSweepAndPruneOptions, WorkerPool } from '@sieve/core/parallel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { C_READY, CONTROL_STRIDE } from '../../packages/core/src/broadphase/parallel/shared.js';
import { parallelBuild } from './support/parallelBuild.js';

/** Counts the threads started through `node:worker_threads` while `body` runs. */
function threadsStarted(body: () => void): number {
  const proc = process as unknown as { getBuiltinModule: (id: string) => unknown };
  const real = proc.getBuiltinModule.bind(process);
  let started = 0;
  const spy = vi.spyOn(proc, 'getBuiltinModule').mockImplementation((id: string) => {
    const module = real(id) as Record<string, unknown>;
    if (id !== 'node:worker_threads' && id !== 'worker_threads') return module;
    const Real = module.Worker as new (...args: unknown[]) => unknown;
    return {
      ...module,
      Worker: class extends (Real as new (...args: unknown[]) => object) {
        constructor(...args: unknown[]) {
          started++;
          super(...args);
        }
      },
    };
  });
  try {
    body();
  } finally {
    spy.mockRestore();
  }
  return started;
}

afterEach(() => vi.restoreAllMocks());

describe('ParallelSweepAndPrune options are checked before any thread starts', () => {
  const url = () => parallelBuild().worker;
  const cases: Array<[string, () => ParallelSweepAndPruneOptions, RegExp]> = [
    [
      'an unknown key',
      () => ({ dimensions: 3, wokers: 2 }) as never,
      /unknown key 'wokers' \(known: dimensions, .*workers/,
    ],
    ['dimensions 4', () => ({ dimensions: 4 }) as never, /dimensions must be 2 or 3, got 4/],
    [
      'workers as a string',
      () => ({ dimensions: 3, workers: '2' }) as never,
      /workers must be an integer from 1 to 256, got '2'/,
    ],
    ['workers 0', () => ({ dimensions: 3, workers: 0 }), /workers must be an integer from 1 to 256, got 0/],
    [
      'workers 257',
      () => ({ dimensions: 3, workers: 257 }),
      /workers must be an integer from 1 to 256, got 257/,
    ],
    ['workers 1.5', () => ({ dimensions: 3, workers: 1.5 }), /workers must be an integer/],
    [
      "twoPhase 'always' with 33 workers",
      () => ({ dimensions: 3, workers: 33, twoPhase: 'always' }),
      /twoPhase 'always' needs 2 to 31 regions \(workers\), got 33/,
    ],
    [
      "twoPhase 'always' with 1 worker",
      () => ({ dimensions: 3, workers: 1, twoPhase: 'always' }),
      /twoPhase 'always' needs 2 to 31 regions \(workers\), got 1/,
    ],
    [
      "twoPhase 'sometimes'",
      () => ({ dimensions: 3, twoPhase: 'sometimes' }) as never,
      /twoPhase must be 'auto', 'always' or 'never', got 'sometimes'/,
    ],
    [
      "minBoxesPerRegion '8'",
      () => ({ dimensions: 3, minBoxesPerRegion: '8' }) as never,
      /minBoxesPerRegion must be an integer .* got '8'/,
    ],
    [
      'minBoxesPerRegion 0',
      () => ({ dimensions: 3, minBoxesPerRegion: 0 }),
      /minBoxesPerRegion must be an integer/,
    ],
    [
      'minBoxesPerRegion 2.5',
      () => ({ dimensions: 3, minBoxesPerRegion: 2.5 }),
      /minBoxesPerRegion must be an integer/,
    ],
    [
      'layoutInterval Infinity',
      () => ({ dimensions: 3, layoutInterval: Number.POSITIVE_INFINITY }),
      /layoutInterval must be an integer .* got Infinity/,
    ],
    ['layoutInterval 0', () => ({ dimensions: 3, layoutInterval: 0 }), /layoutInterval must be an integer/],
    [
      'rebalanceAt NaN',
      () => ({ dimensions: 3, rebalanceAt: Number.NaN }),
      /rebalanceAt must be a finite number >= 1, got NaN/,
    ],
    [
      'rebalanceAt 0.5',
      () => ({ dimensions: 3, rebalanceAt: 0.5 }),
      /rebalanceAt must be a finite number >= 1/,
    ],
    [
      'rebalanceAt Infinity',
      () => ({ dimensions: 3, rebalanceAt: Number.POSITIVE_INFINITY }),
      /rebalanceAt must be a finite number >= 1/,
    ],
    [
      "rebalanceAt '2'",
      () => ({ dimensions: 3, rebalanceAt: '2' }) as never,
      /rebalanceAt must be a finite number >= 1, got '2'/,
    ],
    [
      'timeoutMs -1',
      () => ({ dimensions: 3, timeoutMs: -1 }),
      /timeoutMs must be a finite number of milliseconds above 0/,
    ],
    [
      'timeoutMs Infinity',
      () => ({ dimensions: 3, timeoutMs: Number.POSITIVE_INFINITY }),
      /timeoutMs must be a finite number/,
    ],
    [
      "timeoutMs '100'",
      () => ({ dimensions: 3, timeoutMs: '100' }) as never,
      /timeoutMs must be a finite number/,
    ],
    [
      "inThread 'yes'",
      () => ({ dimensions: 3, inThread: 'yes' }) as never,
      /inThread must be true or false, got 'yes'/,
    ],
    [
      "callerRegion 'yes'",
      () => ({ dimensions: 3, callerRegion: 'yes' }) as never,
      /callerRegion must be true or false, got 'yes'/,
    ],
    [
      "validate 'true'",
      () => ({ dimensions: 3, validate: 'true' }) as never,
      /validate must be true or false/,
    ],
    [
      "initialCapacity '8'",
      () => ({ dimensions: 3, initialCapacity: '8' }) as never,
      /initialCapacity must be an integer/,
    ],
    [
      'workerUrl 42',
      () => ({ dimensions: 3, workerUrl: 42 }) as never,
      /workerUrl must be a URL or a non-empty string, got 42/,
    ],
    [
      "workerUrl ''",
      () => ({ dimensions: 3, workerUrl: '' }) as never,
      /workerUrl must be a URL or a non-empty string/,
    ],
    ['pool that is not a pool', () => ({ dimensions: 3, pool: {} }) as never, /pool must be a WorkerPool/],
    ['options that are not an object', () => 3 as never, /options must be an object/],
  ];
  for (const [label, options, message] of cases) {
    it(label, () => {
      let thrown: unknown;
      const started = threadsStarted(() => {
        try {
          new ParallelSweepAndPrune(options());
        } catch (error) {
          thrown = error;
        }
      });
      expect(String(thrown)).toMatch(message);
      expect(thrown).toBeInstanceOf(Error);
      expect(started).toBe(0);
    });
  }

  it('contradictions with a pool: workers, workerUrl, timeoutMs, inThread; a disposed pool', () => {
    const pool = new WorkerPool({ workers: 2, workerUrl: url() });
    const started = threadsStarted(() => {
      expect(() => new ParallelSweepAndPrune({ dimensions: 3, pool, workers: 4 })).toThrow(
        /workers is 4 but the pool has 2/,
      );
      expect(
        () => new ParallelSweepAndPrune({ dimensions: 3, pool, workers: 2, callerRegion: true }),
      ).toThrow(/workers is 2 but the pool has 2 \(the calling thread runs one region more\)/);
      for (const key of ['workerUrl', 'timeoutMs', 'inThread'] as const) {
        const extra = { workerUrl: url(), timeoutMs: 100, inThread: true }[key];
        expect(() => new ParallelSweepAndPrune({ dimensions: 3, pool, [key]: extra })).toThrow(
          new RegExp(`${key} configures a pool of the broadphase's own`),
        );
      }
    });
    expect(started).toBe(0);
    pool.dispose();
    expect(() => new ParallelSweepAndPrune({ dimensions: 3, pool })).toThrow(/the pool was disposed/);
  });

  it('WorkerPool options: keys, types and ranges, before any thread starts', () => {
    const started = threadsStarted(() => {
      expect(() => new WorkerPool({ wokers: 2 } as never)).toThrow(
        /WorkerPool: options has an unknown key 'wokers' \(known: workers, workerUrl, timeoutMs\)/,
      );
      expect(() => new WorkerPool({ workers: '2' } as never)).toThrow(
        /WorkerPool: workers must be an integer from 1 to 256, got '2'/,
      );
      expect(() => new WorkerPool({ workers: 0 })).toThrow(/workers must be an integer/);
      expect(() => new WorkerPool({ timeoutMs: 0 })).toThrow(/timeoutMs must be a finite number/);
      expect(() => new WorkerPool({ workerUrl: {} } as never)).toThrow(
        /workerUrl must be a URL or a non-empty string/,
      );
      expect(() => new WorkerPool(null as never)).toThrow(/options must be an object/);
    });
    expect(started).toBe(0);
  });

  it('good options do start threads (the counter works)', () => {
    let bp: ParallelSweepAndPrune | undefined;
    const started = threadsStarted(() => {
      bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: url() });
    });
    expect(started).toBeGreaterThan(0);
    bp?.dispose();
  });

  it('workers: 1 starts no thread (its region runs on the calling thread) unless callerRegion: false', () => {
    const made: ParallelSweepAndPrune[] = [];
    const none = threadsStarted(() => {
      made.push(new ParallelSweepAndPrune({ dimensions: 3, workers: 1, workerUrl: url() }));
      made.push(new ParallelSweepAndPrune({ dimensions: 3, workers: 1, callerRegion: true }));
      made.push(new ParallelSweepAndPrune({ dimensions: 3, workers: 1, inThread: true }));
    });
    expect(none).toBe(0);
    expect(made.map((bp) => bp.mode)).toEqual(['in-thread', 'in-thread', 'in-thread']);
    const one = threadsStarted(() => {
      made.push(
        new ParallelSweepAndPrune({ dimensions: 3, workers: 1, callerRegion: false, workerUrl: url() }),
      );
    });
    expect(one).toBeGreaterThan(0);
    expect(made[3].mode).toBe('workers');
    for (const bp of made) bp.dispose();
  });
});

describe('after dispose(), every method and count throws', () => {
  const uses: Array<[string, (bp: ParallelSweepAndPrune, h: number) => unknown]> = [
    ['insert', (bp) => bp.insert([0, 0, 0, 1, 1, 1])],
    ['move', (bp, h) => bp.move(h, [0, 0, 0, 1, 1, 1])],
    ['moveMany', (bp, h) => bp.moveMany([h], [0, 0, 0, 1, 1, 1])],
    ['remove', (bp, h) => bp.remove(h)],
    ['setStatic', (bp, h) => bp.setStatic(h, true)],
    ['isStatic', (bp, h) => bp.isStatic(h)],
    ['update', (bp) => bp.update()],
    ['queryBounds', (bp) => bp.queryBounds([0, 0, 0, 1, 1, 1], [])],
    ['pairs', (bp) => bp.pairs()],
    ['began', (bp) => bp.began()],
    ['ended', (bp) => bp.ended()],
    ['pairBuffers', (bp) => bp.pairBuffers()],
    ['pairTags', (bp) => bp.pairTags()],
    ['tagOf', (bp, h) => bp.tagOf(h)],
    ['has', (bp, h) => bp.has(h)],
    ['getBounds', (bp, h) => bp.getBounds(h, [])],
    ['ready', (bp) => bp.ready()],
    ['bounds', (bp) => bp.bounds],
    ['offsetOf', (bp, h) => bp.offsetOf(h)],
    ['markMoved', (bp, h) => bp.markMoved(h)],
    ['markAllMoved', (bp) => bp.markAllMoved()],
    ['regionTimes', (bp) => bp.regionTimes()],
    ['regionMembers', (bp) => bp.regionMembers()],
    ['regionBounds', (bp) => bp.regionBounds()],
    ['count', (bp) => bp.count],
    ['pairCount', (bp) => bp.pairCount],
    ['beganCount', (bp) => bp.beganCount],
    ['endedCount', (bp) => bp.endedCount],
  ];
  const setups: Array<[string, () => ParallelSweepAndPruneOptions]> = [
    ['in-thread', () => ({ dimensions: 3, workers: 2, inThread: true })],
    ['on workers', () => ({ dimensions: 3, workers: 2, workerUrl: parallelBuild().worker })],
    [
      'one worker',
      () => ({ dimensions: 3, workers: 1, callerRegion: false, workerUrl: parallelBuild().worker }),
    ],
    ['one region on the calling thread', () => ({ dimensions: 3, workers: 1 })],
  ];
  for (const [label, options] of setups) {
    it(label, async () => {
      const bp = new ParallelSweepAndPrune(options());
      const h = bp.insert([0, 0, 0, 1, 1, 1]);
      bp.insert([0.5, 0, 0, 1, 1, 1]);
      bp.update();
      bp.dispose();
      for (const [name, use] of uses) {
        expect(() => use(bp, h), name).toThrow(
          new RegExp(`ParallelSweepAndPrune\\.${name}: used after dispose\\(\\)`),
        );
      }
      await expect(bp.updateAsync()).rejects.toThrow(
        /ParallelSweepAndPrune\.updateAsync: used after dispose\(\)/,
      );
      expect(() => bp.dispose()).not.toThrow();
    });
  }
});

describe('in a browser, a worker that fails says why', () => {
  /** A stand-in for the browser's module Worker: `script` runs its events once the page yields. */
  function fakeWebWorkers(
    script: (worker: {
      onmessage: ((e: unknown) => void) | null;
      onerror: ((e: unknown) => void) | null;
      start(): void;
    }) => void,
  ): void {
    // No node:worker_threads, as in a page: the pool starts Web Workers.
    vi.spyOn(process as unknown as { getBuiltinModule: () => unknown }, 'getBuiltinModule').mockReturnValue(
      undefined,
    );
    vi.stubGlobal(
      'Worker',
      class {
        onmessage: ((e: unknown) => void) | null = null;
        onerror: ((e: unknown) => void) | null = null;
        private init: { control: SharedArrayBuffer; index: number } | undefined;
        constructor() {
          setTimeout(() => script(this), 0);
        }
        postMessage(message: { type: string; control: SharedArrayBuffer; index: number }): void {
          if (message.type === 'init') this.init = message;
        }
        /** What a worker that loaded does with its init message: marks itself ready, and says so. */
        start(): void {
          const init = this.init!;
          Atomics.store(new Int32Array(init.control), init.index * CONTROL_STRIDE + C_READY, 1);
          this.onmessage?.({ data: { type: 'ready', index: init.index } });
        }
        terminate(): void {}
      },
    );
  }
  afterEach(() => vi.unstubAllGlobals());

  it('a script that does not load (an error event with no message) is named, with the dev-server fix', async () => {
    fakeWebWorkers((w) => w.onerror?.({ preventDefault() {} }));
    const pool = new WorkerPool({ workers: 1 });
    await expect(pool.ready()).rejects.toThrow(
      /worker 0 failed: its script did not load \(parallel-worker\.js .*optimizeDeps: \{ exclude: \['@sieve\/core'\] \}/,
    );
    pool.dispose();
  });

  it('with workerUrl, the message names that URL', async () => {
    fakeWebWorkers((w) => w.onerror?.({}));
    const pool = new WorkerPool({ workers: 1, workerUrl: 'https://example.test/w.js' });
    await expect(pool.ready()).rejects.toThrow(
      /worker 0 failed: its script did not load \(workerUrl https:\/\/example\.test\/w\.js\)/,
    );
    pool.dispose();
  });

  it('an error after the worker started keeps its own message, or says it came from the worker', async () => {
    fakeWebWorkers((w) => {
      w.start();
      w.onerror?.({});
    });
    const pool = new WorkerPool({ workers: 1 });
    await expect(pool.ready()).rejects.toThrow(/worker 0 failed: error in worker$/);
    pool.dispose();
    fakeWebWorkers((w) => w.onerror?.({ message: 'Uncaught TypeError: x is not a function' }));
    const other = new WorkerPool({ workers: 1 });
    await expect(other.ready()).rejects.toThrow(/worker 0 failed: Uncaught TypeError: x is not a function/);
    other.dispose();
  });
});

describe("on a browser page's main thread, update() cannot block", () => {
  /** Runs `body` with `window` and `document` defined, as on a page's main thread. */
  async function onPage(body: () => Promise<void> | void): Promise<void> {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    try {
      await body();
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it('syncUpdate says so: update() throws, updateAsync() works; in-thread and one region update', async () => {
    await onPage(async () => {
      const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: parallelBuild().worker });
      expect(bp.mode).toBe('workers');
      expect(bp.syncUpdate).toBe(false);
      bp.insert([0, 0, 0, 1, 1, 1]);
      bp.insert([0.5, 0, 0, 1, 1, 1]);
      expect(() => bp.update()).toThrow(/a browser's main thread cannot block; use `await updateAsync\(\)`/);
      await bp.updateAsync();
      expect(bp.pairCount).toBe(1);
      bp.dispose();
      for (const options of [
        { dimensions: 3 as const, workers: 2, inThread: true },
        { dimensions: 3 as const, workers: 1, callerRegion: true },
      ]) {
        const local = new ParallelSweepAndPrune(options);
        expect(local.syncUpdate).toBe(true);
        local.insert([0, 0, 0, 1, 1, 1]);
        local.update();
        local.dispose();
      }
    });
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: parallelBuild().worker });
    expect(bp.syncUpdate).toBe(true);
    bp.dispose();
  });

  it('the engine adapters refuse such an instance at install, naming it, and leave the engine as it was', async () => {
    const CANNON = await import('cannon-es');
    const Matter = (await import('matter-js')).default;
    const { installSieve: installCannon } = await import('@sieve/cannon');
    const { installSieve: installMatter } = await import('@sieve/matter');
    await onPage(() => {
      const world = new CANNON.World();
      const stock = world.broadphase;
      const bp3 = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: parallelBuild().worker });
      expect(() => installCannon(world, { broadphase: bp3 })).toThrow(
        /installSieve: options\.broadphase(\.sieve)? cannot update synchronously on this thread .*world\.step is synchronous: run the world in a Web Worker, or build the broadphase with inThread: true/,
      );
      expect(world.broadphase).toBe(stock);
      bp3.dispose();
      const engine = Matter.Engine.create();
      const detector = engine.detector;
      const bp2 = new ParallelSweepAndPrune({ dimensions: 2, workers: 2, workerUrl: parallelBuild().worker });
      expect(() => installMatter(engine, { broadphase: bp2 })).toThrow(
        /options\.broadphase cannot update synchronously on this thread .*Engine\.update is synchronous: run the engine in a Web Worker/,
      );
      expect(engine.detector).toBe(detector);
      bp2.dispose();
    });
  });
});
