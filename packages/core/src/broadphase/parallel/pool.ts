/**
 * The worker threads of the region-parallel sweep and prune: started once, reused for every frame,
 * shut down by `dispose()`; one pool can serve several broadphases.
 *
 * Hand-off follows the sweep-and-prune notes, §2.3 (a barrier per time step), with `Atomics` on a
 * shared control block (shared.ts): the host stores a command and its sequence number and notifies;
 * each worker acknowledges by storing the sequence number back and notifying. The host's wait is
 * `Atomics.wait` (synchronous: Node's main thread, inside a worker) or `Atomics.waitAsync` (a browser's
 * main thread, which must not block), falling back to an acknowledgement message where `waitAsync`
 * is missing. Every wait is bounded by `timeoutMs`, and a worker that fails or exits marks its status
 * word and wakes the host, so a crashed worker surfaces as an error, never as a hang.
 *
 * In Node the workers are started by a supervisor thread (supervisor.ts) that watches them: a worker
 * that dies — terminated, a fatal error, a script that does not load — is reported to a host blocked
 * in `update()` at once, with the real cause. Neither the supervisor nor the workers keep the process
 * alive (a pool never disposed does not stop Node from exiting). Workers run in Node through
 * `worker_threads` (found with `process.getBuiltinModule`, so browser bundles never see a Node import)
 * and in browsers as module Web Workers.
 */
import { checkPoolOptions, type WorkerPoolOptions } from './options.js';
import {
  C_ACK,
  C_ARG,
  C_CMD,
  C_ERROR_LENGTH,
  C_READY,
  C_SEQ,
  C_STATUS,
  CMD_DRAIN,
  CMD_EXIT,
  CONTROL_STRIDE,
  ERROR_BYTES,
  STATUS_EXITED,
} from './shared.js';
import { SUPERVISOR_SOURCE, type SupervisorData, type SupervisorMessage } from './supervisor.js';
import type { HostMessage } from './worker.js';

export type { WorkerPoolOptions } from './options.js';

/** The little of a Node or Web worker that the pool uses. */
interface WorkerHandle {
  post(message: HostMessage): void;
  terminate(): void;
}

/** The little of Node's `worker_threads` the pool uses. */
interface NodeThreads {
  Worker: new (
    source: string | URL,
    options?: { eval?: boolean; workerData?: unknown; transferList?: unknown[] },
  ) => NodeWorker;
  MessageChannel: new () => { port1: NodePort; port2: unknown };
}

interface NodeWorker {
  postMessage(message: unknown): void;
  terminate(): Promise<number>;
  unref(): void;
  on(event: 'error', handler: (error: Error) => void): void;
  on(event: 'exit', handler: (code: number) => void): void;
}

interface NodePort {
  postMessage(message: unknown): void;
  on(event: 'message', handler: (message: { type: string }) => void): void;
  unref(): void;
  close(): void;
}

interface WebWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: { type: string } }) => void) | null;
  onerror: ((event: { message?: string; preventDefault?: () => void }) => void) | null;
}

/** What a Web Worker's failure to load its default script says about where the script is. */
const notLoadedDefault =
  "parallel-worker.js beside the @sieve/core/parallel module, which a dev server that pre-bundles dependencies or a bundler that does not follow the worker's URL leaves out: for Vite's dev server optimizeDeps: { exclude: ['@sieve/core'] }, for esbuild a second entry point parallel-worker=@sieve/core/parallel-worker, or pass workerUrl";

// The browser's Worker constructor, written as `new Worker(new URL(..., import.meta.url))` below so
// that bundlers find and emit the worker file.
declare const Worker: new (url: string | URL, options: { type: 'module' }) => WebWorker;

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeout: number,
) => { async: boolean; value: Promise<string> | string };

function nodeThreads(): NodeThreads | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.('node:worker_threads') as NodeThreads | undefined;
}

/** Why worker threads cannot be started here, or null when they can. */
export function workersUnavailable(): string | null {
  if (nodeThreads()) return null;
  if (typeof (globalThis as { Worker?: unknown }).Worker === 'function') return null;
  return 'this environment has no worker threads (neither node:worker_threads nor Web Workers)';
}

/** Hardware threads of this machine (at least 1). */
export function hardwareThreads(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = proc?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number } | undefined;
  return Math.max(1, os?.availableParallelism?.() ?? 1);
}

/**
 * Why a worker script on disk cannot be loaded (it is missing or unreadable), or null: checked as the
 * pool starts, so the first update reports it at once rather than when a thread fails to load it.
 */
function missingScript(script: string | URL): string | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as
    | { accessSync(path: string, mode?: number): void }
    | undefined;
  const url = proc?.getBuiltinModule?.('node:url') as { fileURLToPath(url: URL): string } | undefined;
  if (!fs || !url) return null;
  let path: string;
  if (typeof script === 'string') path = script;
  else if (script.protocol === 'file:') path = url.fileURLToPath(script);
  else return null;
  try {
    fs.accessSync(path, 4 /* R_OK */);
    return null;
  } catch (error) {
    return `Cannot find module '${path}' (the worker script): ${(error as Error).message}`;
  }
}

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();
/** Absolute time in ms, comparable across threads. */
const clock: () => number =
  typeof performance !== 'undefined' ? () => performance.timeOrigin + performance.now() : () => Date.now();

/** Slice of one asynchronous wait (ms): the status words are re-read between slices. */
const WAIT_SLICE_MS = 50;

/**
 * Longest single blocking wait (ms). A failing worker, or the supervisor seeing one die, wakes the host
 * through the acknowledgement words at once; the slice only bounds how long a death that nobody
 * reported (a browser worker's, whose events need the blocked thread) waits to be re-checked.
 */
const BLOCKING_SLICE_MS = 1000;

/** A fixed set of worker threads driven through a shared control block. */
export class WorkerPool {
  /** Worker threads. */
  readonly size: number;
  /** Longest wait for a worker (ms). */
  readonly timeoutMs: number;
  private readonly control: Int32Array;
  private readonly errorText: Uint8Array;
  private readonly workers: WorkerHandle[] = [];
  private readonly sequence: Int32Array;
  private readonly pending: HostMessage[][] = [];
  private readonly waitAsync: WaitAsync | undefined;
  private supervisor: NodeWorker | null = null;
  private wakers: Array<() => void> = [];
  private failure: Error | null = null;
  /**
   * When the last `run` / `runAsync` started, had issued its command to every worker, and had every
   * acknowledgement (absolute ms, `performance.timeOrigin + performance.now()`), while `tracing`.
   * @internal
   */
  readonly trace = new Float64Array(3);
  /** Whether to write {@link trace} (each clock read allocates). @internal */
  tracing = false;
  /** The current command's `blame` (see {@link run}). */
  private blame: (() => number) | undefined = undefined;
  /** When the current command times out (`now()` ms). */
  private deadline = 0;
  private disposed = false;
  private busy = false;
  private nextId = 1;

  /**
   * Starts the workers. Checks every option first (keys, types, ranges: a `TypeError` or `RangeError`
   * naming it); a worker script that fails to load is reported by the first `update()` or `ready()`.
   */
  constructor(options: WorkerPoolOptions = {}) {
    checkPoolOptions(options);
    const size = options.workers ?? Math.min(hardwareThreads(), 8);
    const timeoutMs = options.timeoutMs ?? 20_000;
    if (typeof SharedArrayBuffer !== 'function') {
      throw new Error('WorkerPool: SharedArrayBuffer is unavailable (the page is not cross-origin isolated)');
    }
    const missing = workersUnavailable();
    if (missing) throw new Error(`WorkerPool: ${missing}`);
    this.size = size;
    this.timeoutMs = timeoutMs;
    this.control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_STRIDE * size));
    this.errorText = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES * size));
    this.sequence = new Int32Array(size);
    this.waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
    for (let w = 0; w < size; w++) this.pending.push([]);
    const threads = nodeThreads();
    if (threads) this.startSupervised(threads, options.workerUrl);
    else for (let w = 0; w < size; w++) this.workers.push(this.startWebWorker(w, options.workerUrl));
    for (let w = 0; w < size; w++) {
      this.workers[w].post({
        type: 'init',
        control: this.control.buffer,
        errors: this.errorText.buffer,
        index: w,
        postAck: this.waitAsync === undefined,
      });
    }
  }

  /** A new id for a broadphase that uses this pool (its regions are kept per id in the workers). */
  newId(): number {
    return this.nextId++;
  }

  /** Queues a message for a worker; it is delivered before the worker's next command. */
  post(worker: number, message: HostMessage): void {
    if (!this.disposed) this.pending[worker].push(message);
  }

  /**
   * Resolves once every worker has started; rejects with a worker's failure (a script that did not
   * load, with its error) or after `timeoutMs`. A synchronous first update does not need it in Node.
   */
  async ready(): Promise<void> {
    if (this.disposed) throw new Error('WorkerPool.ready: used after dispose()');
    const deadline = now() + this.timeoutMs;
    for (let w = 0; w < this.size; w++) {
      while (Atomics.load(this.control, w * CONTROL_STRIDE + C_READY) !== 1) {
        this.check();
        if (now() > deadline) throw this.timeout(w, 'to start');
        await this.sleep(w, Atomics.load(this.control, w * CONTROL_STRIDE + C_ACK));
      }
    }
    this.check();
  }

  /**
   * Runs `cmd` with `arg` on workers `first ... first + count - 1` and blocks until all have
   * acknowledged. `during`, when given, runs on this thread once the command is issued (the calling
   * thread's own share of the work, alongside the workers'); while it waits for them it must call
   * {@link poll}. `onEach(w)`, when given, is called on this thread as soon as worker `w` has
   * acknowledged, in worker order, while the later workers may still run. Throws if a worker failed,
   * exited or did not answer within `timeoutMs`, or what `during` or `onEach` threw, once every worker
   * has acknowledged. `blame`, when given, names the worker a timeout is reported for (the workers of
   * a command that wait for each other all miss the deadline; the caller knows which one held the
   * others up).
   */
  run(
    cmd: number,
    arg: number,
    count: number,
    first = 0,
    onEach?: (w: number) => void,
    blame?: () => number,
    during?: () => void,
  ): void {
    this.blame = blame;
    this.enter();
    try {
      const deadline = now() + this.timeoutMs;
      this.deadline = deadline;
      for (let w = first; w < first + count; w++) {
        const n = this.flush(w);
        if (n > 0) this.waitSync(w, this.issue(w, CMD_DRAIN, n), deadline);
      }
      if (this.tracing) this.trace[0] = clock();
      for (let w = first; w < first + count; w++) this.issue(w, cmd, arg);
      if (this.tracing) this.trace[1] = clock();
      let thrown: unknown = null;
      if (during) {
        try {
          during();
        } catch (error) {
          // A worker that failed, exited or timed out (seen by poll) fails the pool: nothing to wait for.
          if (this.failure) throw this.failure;
          thrown = error ?? new Error("WorkerPool.run: the calling thread's share threw");
        }
      }
      for (let w = first; w < first + count; w++) {
        this.waitSync(w, this.sequence[w], deadline);
        if (onEach && thrown === null) {
          try {
            onEach(w);
          } catch (error) {
            // Every worker is waited for before the pool can take the next command.
            thrown = error ?? new Error('WorkerPool.run: onEach threw');
          }
        }
      }
      if (this.tracing) this.trace[2] = clock();
      if (thrown !== null) throw thrown;
    } finally {
      this.busy = false;
    }
  }

  /**
   * {@link run} without blocking the calling thread while it waits (for a browser's main thread);
   * `during`, when given, runs on this thread once the command is issued, and must not wait for the
   * workers.
   */
  async runAsync(
    cmd: number,
    arg: number,
    count: number,
    first = 0,
    blame?: () => number,
    during?: () => void,
  ): Promise<void> {
    this.enter();
    this.blame = blame;
    try {
      const deadline = now() + this.timeoutMs;
      this.deadline = deadline;
      for (let w = first; w < first + count; w++) {
        const n = this.flush(w);
        if (n > 0) await this.waitUntil(w, this.issue(w, CMD_DRAIN, n), deadline);
      }
      if (this.tracing) this.trace[0] = clock();
      for (let w = first; w < first + count; w++) this.issue(w, cmd, arg);
      if (this.tracing) this.trace[1] = clock();
      let thrown: unknown = null;
      if (during) {
        try {
          during();
        } catch (error) {
          thrown = error ?? new Error("WorkerPool.runAsync: the calling thread's share threw");
        }
      }
      for (let w = first; w < first + count; w++) await this.waitUntil(w, this.sequence[w], deadline);
      if (this.tracing) this.trace[2] = clock();
      if (thrown !== null) throw thrown;
    } finally {
      this.busy = false;
    }
  }

  /**
   * For a `during` share that waits for the workers (at a barrier): throws the failure of a worker that
   * failed or exited, or a timeout once the current command is past its deadline (naming the worker
   * `blame` gives). Bound once, so passing it around allocates nothing.
   */
  readonly poll = (): void => {
    this.check();
    if (now() > this.deadline) throw this.timeout(this.blame?.() ?? 0, 'to a command');
  };

  /** Stops every worker. The pool cannot be used afterwards; calling it again does nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (let w = 0; w < this.size; w++) {
      if (!this.busy) this.issue(w, CMD_EXIT, 0);
      this.workers[w].terminate();
    }
    if (this.supervisor) {
      this.supervisor.postMessage({ type: 'stop' } satisfies SupervisorMessage);
      void this.supervisor.terminate();
      this.supervisor = null;
    }
    this.wake();
  }

  /** Whether {@link dispose} was called. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Test hook: makes worker `w` throw in its next frame (`'throw'`), loop forever in it (`'hang'`),
   * exit as it reads its next messages (`'exit'`), or be terminated from outside at once
   * (`'terminate'`, Node only), to check that failures surface as errors.
   * @internal
   */
  crashForTesting(w: number, mode: 'throw' | 'exit' | 'hang' | 'terminate'): void {
    if (mode === 'terminate') {
      if (this.supervisor)
        this.supervisor.postMessage({ type: 'terminate', index: w } satisfies SupervisorMessage);
      else this.workers[w].terminate();
      return;
    }
    this.post(w, { type: 'crash', mode });
  }

  private enter(): void {
    if (this.disposed) throw new Error('WorkerPool: used after dispose()');
    if (this.failure) throw this.failure;
    if (this.busy) throw new Error('WorkerPool: another update is still running on these workers');
    this.busy = true;
  }

  /** Posts a worker's queued messages; returns how many. */
  private flush(w: number): number {
    const queue = this.pending[w];
    const n = queue.length;
    for (let i = 0; i < n; i++) this.workers[w].post(queue[i]);
    queue.length = 0;
    return n;
  }

  private issue(w: number, cmd: number, arg: number): number {
    const c = this.control;
    const b = w * CONTROL_STRIDE;
    const seq = (this.sequence[w] + 1) | 0;
    this.sequence[w] = seq;
    Atomics.store(c, b + C_CMD, cmd);
    Atomics.store(c, b + C_ARG, arg);
    Atomics.store(c, b + C_SEQ, seq);
    Atomics.notify(c, b + C_SEQ);
    return seq;
  }

  /** Throws the pool's failure, or the first worker's whose status word says it failed or exited. */
  private check(): void {
    if (this.failure) throw this.failure;
    if (this.disposed) throw new Error('WorkerPool: disposed while waiting for a worker');
    for (let w = 0; w < this.size; w++) {
      const status = Atomics.load(this.control, w * CONTROL_STRIDE + C_STATUS);
      if (status === 0) continue;
      const length = Atomics.load(this.control, w * CONTROL_STRIDE + C_ERROR_LENGTH);
      // Copied out first: TextDecoder does not read shared memory in browsers.
      const bytes = this.errorText.slice(w * ERROR_BYTES, w * ERROR_BYTES + length);
      const text = new TextDecoder().decode(bytes);
      this.fail(
        new Error(
          `ParallelSweepAndPrune: worker ${w} ${status === STATUS_EXITED ? 'exited' : 'failed'}: ${text}`,
        ),
      );
      throw this.failure;
    }
  }

  private timeout(w: number, what: string): Error {
    return this.fail(
      new Error(`ParallelSweepAndPrune: worker ${w} did not answer within ${this.timeoutMs} ms ${what}`),
    );
  }

  private fail(error: Error): Error {
    if (!this.failure) this.failure = error;
    this.wake();
    return this.failure;
  }

  private waitSync(w: number, seq: number, deadline: number): void {
    const c = this.control;
    const i = w * CONTROL_STRIDE + C_ACK;
    for (;;) {
      const ack = Atomics.load(c, i);
      // A failed frame is acknowledged too: read the status after the acknowledgement.
      this.check();
      if (ack === seq) return;
      const left = deadline - now();
      if (left <= 0) throw this.timeout(this.blame?.() ?? w, 'to a command');
      Atomics.wait(c, i, ack, Math.min(left, BLOCKING_SLICE_MS));
    }
  }

  private async waitUntil(w: number, seq: number, deadline: number): Promise<void> {
    const c = this.control;
    const i = w * CONTROL_STRIDE + C_ACK;
    for (;;) {
      const ack = Atomics.load(c, i);
      this.check();
      if (ack === seq) return;
      if (now() > deadline) throw this.timeout(this.blame?.() ?? w, 'to a command');
      await this.sleep(w, ack);
    }
  }

  /** Resolves when worker `w`'s acknowledgement word may have left `value`, or after a slice. */
  private sleep(w: number, value: number): Promise<unknown> {
    const i = w * CONTROL_STRIDE + C_ACK;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.wakers.push(wake);
    // The timer also keeps a Node process alive while an asynchronous wait is pending (an
    // `Atomics.waitAsync` does not, and the workers never do).
    const timer = setTimeout(wake, WAIT_SLICE_MS);
    if (this.waitAsync) {
      const r = this.waitAsync(this.control, i, value, WAIT_SLICE_MS);
      if (!r.async) {
        clearTimeout(timer);
        return Promise.resolve(r.value);
      }
      return Promise.race([r.value, woken]).then(() => clearTimeout(timer));
    }
    return woken.then(() => clearTimeout(timer));
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  /** Node: a supervisor thread starts and watches the workers; the host talks to each through a channel. */
  private startSupervised(threads: NodeThreads, url: string | URL | undefined): void {
    // Name and base in variables: bundlers read `new URL(<name>, import.meta.url)` as an asset of the page
    // (Vite warns that a literal one does not exist at build time; webpack makes a context of the package
    // folder for an expression one, and warns); this path is Node's only.
    const file = './parallel-worker.js';
    const base = import.meta.url;
    const script = url ?? new URL(file, base);
    const isUrl = typeof script !== 'string';
    const missing = missingScript(script);
    if (missing) {
      // No thread could load it: every command fails at once, with the reason.
      this.failure = new Error(`ParallelSweepAndPrune: worker 0 failed: ${missing}`);
      for (let w = 0; w < this.size; w++) this.workers.push({ post: () => {}, terminate: () => {} });
      return;
    }
    const channels = Array.from({ length: this.size }, () => new threads.MessageChannel());
    const ports = channels.map((c) => c.port2);
    const data: SupervisorData = {
      script: isUrl ? script.href : script,
      isUrl,
      size: this.size,
      control: this.control.buffer,
      errors: this.errorText.buffer,
      ports,
    };
    const supervisor = new threads.Worker(SUPERVISOR_SOURCE, {
      eval: true,
      workerData: data,
      transferList: ports,
    });
    supervisor.on('error', (error) => {
      if (!this.disposed)
        this.fail(new Error(`ParallelSweepAndPrune: the worker supervisor failed: ${error.message}`));
    });
    supervisor.on('exit', (code) => {
      if (!this.disposed)
        this.fail(new Error(`ParallelSweepAndPrune: the worker supervisor exited with code ${code}`));
    });
    // After the listeners: an undisposed pool must not keep a Node process alive.
    supervisor.unref();
    this.supervisor = supervisor;
    for (const { port1 } of channels) {
      if (this.waitAsync === undefined) {
        port1.on('message', (message) => {
          if (message.type === 'ack' || message.type === 'ready') this.wake();
        });
      }
      port1.unref();
      this.workers.push({ post: (m) => port1.postMessage(m), terminate: () => port1.close() });
    }
  }

  /** Browsers: a module Web Worker, its failures reported through its error event. */
  private startWebWorker(w: number, url: string | URL | undefined): WorkerHandle {
    const worker =
      url === undefined
        ? new Worker(new URL('./parallel-worker.js', import.meta.url), { type: 'module' })
        : new Worker(url, { type: 'module' });
    worker.onmessage = (event) => {
      if (event.data.type === 'ack' || event.data.type === 'ready') this.wake();
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (!this.disposed) {
        // A script that does not load fires an error event with no message (a 404, a bundler's dev
        // server that pre-bundled the package without its worker file), before the worker marks itself
        // ready in the control words.
        const started = Atomics.load(this.control, w * CONTROL_STRIDE + C_READY) === 1;
        const why =
          event.message ??
          (started
            ? 'error in worker'
            : `its script did not load (${url === undefined ? notLoadedDefault : `workerUrl ${String(url)}`})`);
        this.fail(new Error(`ParallelSweepAndPrune: worker ${w} failed: ${why}`));
      }
    };
    return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate() };
  }
}
