/**
 * Worker entry of the region-parallel sweep and prune (built as its own file, `parallel-worker.js`):
 * runs in Node `worker_threads` and in browser Web Workers alike.
 *
 * After its `init` message the worker sits in a command loop, blocked in `Atomics.wait` on its command
 * word — the sweep-and-prune notes, §2.3, run every region in its own thread and synchronise them at
 * a barrier each time step; here the barrier is the host waiting for every worker's acknowledgement.
 * `CLASSIFY`, `FRAME` and `MERGE` run one phase of a frame of one broadphase (shared.ts; regions of
 * several broadphases can share a worker), `STEP` all three for a one-region broadphase, `DRAIN n`
 * leaves the loop to read `n` messages (new or grown buffers) and comes back, `EXIT` stops. A failure
 * is written into shared memory (status word and error text) before the acknowledgement, so a host
 * blocked in `Atomics.wait` sees it at once; an exiting worker marks itself exited. In Node the worker
 * is started by the pool's supervisor (supervisor.ts) and hears the host through a `MessagePort`.
 */
import { RegionRunner } from './region.js';
import {
  C_ACK,
  C_ARG,
  C_CMD,
  C_ERROR_LENGTH,
  C_POST_ACK,
  C_READY,
  C_SEQ,
  C_STATUS,
  CMD_CLASSIFY,
  CMD_DRAIN,
  CMD_EXIT,
  CMD_FRAME,
  CMD_MERGE,
  CMD_RESEND,
  CMD_STEP,
  CONTROL_STRIDE,
  ERROR_BYTES,
  type InstanceBuffers,
  STATUS_EXITED,
  STATUS_FAILED,
} from './shared.js';

/**
 * Messages the host (`WorkerPool`) posts to a worker (never per-frame data: buffers are shared, sent
 * once). This is the private protocol between `@sieve/core/parallel` and this script, exported only so
 * the two halves type-check against each other; it may change in any release.
 */
export type HostMessage =
  | {
      /** First message: the worker's control block and its place in it; the command loop starts after. */
      type: 'init';
      /** The pool's control block (int32 words, `CONTROL_STRIDE` per worker), shared by all workers. */
      control: ArrayBufferLike;
      /** The pool's error-text area (`ERROR_BYTES` UTF-8 bytes per worker). */
      errors: ArrayBufferLike;
      /** This worker's index in the pool, from 0: which words of `control` and `errors` are its own. */
      index: number;
      /**
       * Also post an `{ type: 'ack' }` message with every acknowledgement, for a host that can neither
       * block (`Atomics.wait`) nor wait asynchronously (`Atomics.waitAsync`).
       */
      postAck: boolean;
    }
  | {
      /** Attaches one region of a broadphase to this worker. */
      type: 'attach';
      /** The broadphase's id in the pool (`WorkerPool.newId`); `FRAME` commands name it. */
      id: number;
      /** 2 or 3, as the broadphase's. */
      dimensions: 2 | 3;
      /** The region's index, from 0 (one region per worker). */
      region: number;
      /** Check the region's sweep-and-prune invariants after every frame (slow; for tests). */
      validate: boolean;
      /** The broadphase's shared buffers (bounds, live flags, changed slots, regions, outputs). */
      buffers: InstanceBuffers;
    }
  | {
      /** Replaces the buffers of an attached broadphase (after one of them grew). */
      type: 'buffers';
      /** The broadphase's id in the pool. */
      id: number;
      /** The new buffer set, as in `attach`. */
      buffers: InstanceBuffers;
    }
  | {
      /** Drops an attached broadphase's region (its broadphase was disposed). */
      type: 'detach';
      /** The broadphase's id in the pool. */
      id: number;
    }
  | {
      /** Test hook (`WorkerPool.crashForTesting`): fail on purpose, to check failures surface as errors. */
      type: 'crash';
      /**
       * `'throw'` in the next frame, `'exit'` as soon as this message is read, or `'hang'` (loop
       * forever) in the next frame.
       */
      mode: 'throw' | 'exit' | 'hang';
    };

interface Channel {
  post(message: unknown): void;
  listen(handler: (message: HostMessage) => void): void;
  exit(): void;
  onExit(handler: (code?: number) => void): void;
}

interface NodeProcess {
  getBuiltinModule?: (id: string) => unknown;
  exit(code?: number): never;
  on(event: string, handler: (code?: number) => void): void;
}

interface NodePort {
  postMessage(message: unknown): void;
  on(event: 'message', handler: (message: HostMessage) => void): void;
}

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: string, handler: (event: { data: HostMessage }) => void): void;
  close(): void;
}

/** The message channel to the host: Node's `parentPort`, or the Web Worker global scope. */
function channel(): Channel {
  const proc = (globalThis as { process?: NodeProcess }).process;
  const threads = proc?.getBuiltinModule?.('node:worker_threads') as
    | { parentPort: NodePort | null; workerData?: { role?: string; port?: NodePort } }
    | undefined;
  // Started by the pool's supervisor: the host's end of the channel is the port it handed over.
  const port = threads?.workerData?.role === 'region' ? threads.workerData.port : threads?.parentPort;
  if (proc && port) {
    return {
      post: (m) => port.postMessage(m),
      listen: (h) => port.on('message', h),
      exit: () => proc.exit(1),
      onExit: (h) => proc.on('exit', h),
    };
  }
  const scope = globalThis as unknown as WorkerScope;
  return {
    post: (m) => scope.postMessage(m),
    listen: (h) => scope.addEventListener('message', (e) => h(e.data)),
    exit: () => scope.close(),
    onExit: (h) => scope.addEventListener('error', () => h()),
  };
}

const io = channel();
let control: Int32Array | null = null;
let errors: Uint8Array | null = null;
let base = 0;
let index = 0;
let seen = 0;
let draining = 0;
/** Test hook: what the next frame does instead of its work. */
let crashNext: 'throw' | 'hang' | null = null;
const runners = new Map<number, RegionRunner>();

function acknowledge(seq: number): void {
  const c = control!;
  Atomics.store(c, base + C_ACK, seq);
  Atomics.notify(c, base + C_ACK);
  if (Atomics.load(c, base + C_POST_ACK) === 1) io.post({ type: 'ack', index, seq });
}

/** Records a failure where a blocked host can read it, and wakes the host. */
function fail(status: number, error: unknown): void {
  const c = control;
  if (!c || Atomics.load(c, base + C_STATUS) !== 0) return;
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const bytes = new TextEncoder().encode(text.slice(0, ERROR_BYTES));
  const n = Math.min(bytes.length, ERROR_BYTES);
  errors!.set(bytes.subarray(0, n), index * ERROR_BYTES);
  Atomics.store(c, base + C_ERROR_LENGTH, n);
  Atomics.store(c, base + C_STATUS, status);
  // The host may be waiting on any worker's acknowledgement (one held up by this one, say): wake all.
  for (let at = C_ACK; at < c.length; at += CONTROL_STRIDE) Atomics.notify(c, at);
}

/** Blocks on the command word and runs commands until one sends the worker back to its messages. */
function loop(): void {
  const c = control!;
  for (;;) {
    Atomics.wait(c, base + C_SEQ, seen);
    const seq = Atomics.load(c, base + C_SEQ);
    if (seq === seen) continue;
    seen = seq;
    const cmd = Atomics.load(c, base + C_CMD);
    const arg = Atomics.load(c, base + C_ARG);
    if (cmd === CMD_DRAIN) {
      draining = arg;
      acknowledge(seq);
      if (draining > 0) return;
      continue;
    }
    if (cmd === CMD_EXIT) {
      // The host terminates the thread once it has this acknowledgement.
      acknowledge(seq);
      return;
    }
    try {
      const runner = runners.get(arg);
      if (!runner) throw new Error(`no region attached for broadphase ${arg}`);
      if (cmd === CMD_FRAME || cmd === CMD_STEP) {
        // Test hook: the region's frame throws or never ends (in a STEP, after the first barrier).
        runner.crash = crashNext;
        if (cmd === CMD_FRAME) runner.frame();
        else runner.step();
      } else if (cmd === CMD_CLASSIFY) runner.classify();
      else if (cmd === CMD_MERGE) runner.merge();
      else if (cmd === CMD_RESEND) runner.writeOutput();
      else throw new Error(`unknown command ${cmd}`);
    } catch (error) {
      fail(STATUS_FAILED, error);
    }
    acknowledge(seq);
  }
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'init':
      control = new Int32Array(message.control);
      errors = new Uint8Array(message.errors);
      index = message.index;
      base = index * CONTROL_STRIDE;
      // Commands count from 0 in a new pool; one may already be waiting (the host does not wait for
      // this message), and the loop picks it up.
      seen = 0;
      Atomics.store(control, base + C_POST_ACK, message.postAck ? 1 : 0);
      Atomics.store(control, base + C_READY, 1);
      Atomics.notify(control, base + C_ACK);
      io.post({ type: 'ready', index });
      return;
    case 'attach':
      runners.set(
        message.id,
        new RegionRunner(message.dimensions, message.region, message.buffers, message.validate),
      );
      return;
    case 'buffers':
      runners.get(message.id)?.setBuffers(message.buffers);
      return;
    case 'detach':
      runners.delete(message.id);
      return;
    case 'crash':
      if (message.mode === 'exit') io.exit();
      else crashNext = message.mode;
      return;
  }
}

io.onExit((code) => fail(STATUS_EXITED, typeof code === 'number' ? `exited with code ${code}` : 'exited'));
io.listen((message) => {
  try {
    handle(message);
  } catch (error) {
    fail(STATUS_FAILED, error);
  }
  if (message.type === 'init') {
    loop();
    return;
  }
  if (draining > 0 && --draining === 0) loop();
});
