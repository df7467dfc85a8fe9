/**
 * Scenarios of the parallel broadphase's process-level behaviour, each run as its own Node process by
 * parallel-process.test.ts (bundled with esbuild, so no test runner manages the threads): a forgotten
 * `dispose()` must let the process exit; a worker that dies, and a worker script that does not load,
 * must make a blocked `update()` (and `updateAsync()`) throw the real cause at once. Prints one line of
 * JSON: what happened and how long the call took.
 *
 *     node parallel-child.mjs <scenario> <worker script URL> [<broken script URL>]
 */
import { ParallelSweepAndPrune, WorkerPool } from '../../../packages/core/src/broadphase/parallel/index.js';
import {
  C_STATUS,
  CONTROL_STRIDE,
  STATUS_EXITED,
} from '../../../packages/core/src/broadphase/parallel/shared.js';

const [scenario, workerUrl, brokenUrl] = process.argv.slice(2);
const url = new URL(workerUrl);

function boxes(bp: ParallelSweepAndPrune): void {
  for (let i = 0; i < 50; i++) bp.insert([i, 0, 0, i + 1.5, 1, 1]);
}

/** Runs `call`, which must throw; prints how long it took and the message. */
async function expectThrow(call: () => unknown): Promise<void> {
  const t0 = performance.now();
  try {
    await call();
    console.log(JSON.stringify({ threw: false, ms: performance.now() - t0 }));
  } catch (error) {
    console.log(
      JSON.stringify({ threw: true, ms: performance.now() - t0, message: (error as Error).message }),
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the pool's supervisor has seen worker `w` exit (its status word says so), reading the
 * word only: nothing is recorded as the pool's failure, so the next call still has to find the death
 * itself. A fixed sleep was not enough on a loaded machine: the termination could land after a fast
 * update() had already finished. Gives up after 10 s (the call then runs anyway, and fails the test).
 */
async function untilExited(pool: WorkerPool, w: number): Promise<void> {
  const control = (pool as unknown as { control: Int32Array }).control;
  const deadline = performance.now() + 10_000;
  while (Atomics.load(control, w * CONTROL_STRIDE + C_STATUS) !== STATUS_EXITED) {
    if (performance.now() > deadline) return;
    await sleep(5);
  }
}

switch (scenario) {
  // Forgotten disposal: each leaves threads behind and just ends.
  case 'forget-after-update': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: url });
    boxes(bp);
    bp.update();
    console.log(JSON.stringify({ pairs: bp.pairCount }));
    break;
  }
  case 'forget-after-update-async': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: url });
    boxes(bp);
    await bp.updateAsync();
    console.log(JSON.stringify({ pairs: bp.pairCount }));
    break;
  }
  case 'forget-never-updated': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: url });
    boxes(bp);
    console.log(JSON.stringify({ count: bp.count }));
    break;
  }
  case 'forget-ready': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: url });
    await bp.ready();
    console.log(JSON.stringify({ ready: true }));
    break;
  }
  case 'forget-user-pool': {
    const pool = new WorkerPool({ workers: 2, workerUrl: url });
    const bp = new ParallelSweepAndPrune({ dimensions: 3, pool });
    boxes(bp);
    bp.update();
    const idle = new WorkerPool({ workers: 2, workerUrl: url });
    console.log(JSON.stringify({ pairs: bp.pairCount, idle: idle.size }));
    break;
  }
  // A worker that dies while update() blocks: terminated from outside, or exiting by itself; with
  // `-caller`, while the calling thread runs a region of its own and waits at the workers' barrier.
  case 'terminated':
  case 'exited':
  case 'terminated-async':
  case 'exited-async':
  case 'terminated-caller':
  case 'exited-caller': {
    const pool = new WorkerPool({ workers: 2, workerUrl: url });
    const bp = new ParallelSweepAndPrune({
      dimensions: 3,
      pool,
      callerRegion: scenario.endsWith('caller'),
    });
    boxes(bp);
    bp.update();
    pool.crashForTesting(1, scenario.startsWith('terminated') ? 'terminate' : 'exit');
    // A termination is done by the supervisor thread: let it land first (the worker's status word
    // says it exited), or a fast update() could finish before the worker dies. update() then meets
    // the dead worker (with the calling thread's region, at its first barrier: the calling thread
    // waits there and must not wait forever). An exit happens as the worker reads the update's
    // messages: no wait.
    if (scenario.startsWith('terminated')) await untilExited(pool, 1);
    bp.move(0, [0, 0, 0, 2, 1, 1]);
    await expectThrow(scenario.endsWith('async') ? () => bp.updateAsync() : () => bp.update());
    // Still failed, with the same error; dispose still works.
    await expectThrow(() => bp.update());
    bp.dispose();
    break;
  }
  // A worker script that is missing, or that throws as it loads: first after the failure has happened,
  // then at once after construction (the failure happens while update() blocks).
  case 'missing-script': {
    const bp = new ParallelSweepAndPrune({
      dimensions: 3,
      workers: 2,
      workerUrl: new URL('./no-such-worker.mjs', url),
    });
    boxes(bp);
    await expectThrow(() => bp.update());
    break;
  }
  case 'broken-script':
  case 'broken-script-async': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: new URL(brokenUrl) });
    boxes(bp);
    await sleep(1500);
    await expectThrow(scenario.endsWith('async') ? () => bp.updateAsync() : () => bp.update());
    break;
  }
  case 'broken-script-at-once': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: new URL(brokenUrl) });
    boxes(bp);
    await expectThrow(() => bp.update());
    break;
  }
  case 'broken-script-ready': {
    const bp = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, workerUrl: new URL(brokenUrl) });
    await expectThrow(() => bp.ready());
    break;
  }
  default:
    throw new Error(`unknown scenario ${scenario}`);
}
