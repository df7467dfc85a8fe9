/**
 * The worker threads of the region-parallel sweep and prune: started once, reused for every frame,
 * shut down by `dispose()`; one pool can serve several broadphases.
 *
 * Hand-off follows the sweep-and-prune notes, §2.3 (a barrier per time step), with `Atomics` on a
 * shared control block (shared.ts): the host stores a command and its sequence number and notifies;
 * each worker acknowledges by storing the sequence number back and notifying. The host's wait is
 * `Atomics.wait` (synchronous: Node's main thread, inside a worker) or `Atomics.waitAsync` (a browser's
 * main thread, which must not block), falling back to an acknowledgement message where `waitAsync`
 * is missing. Every wait is cut into slices and bounded by `timeoutMs`, and a worker that fails or
 * exits marks its status word first, so a crashed worker surfaces as an error, never as a hang.
 *
 * Workers run in Node through `worker_threads` (found with `process.getBuiltinModule`, so browser
 * bundles never see a Node import) and in browsers as module Web Workers.
 */
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
import type { HostMessage } from './worker.js';

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Worker threads to start. Default: the hardware's threads, at most 8. */
  workers?: number;
  /**
   * Where the worker script is (`parallel-worker.js` of this package's build). Default: the file next
   * to this module, found through `import.meta.url` (bundlers recognise the pattern).
   */
  workerUrl?: string | URL;
  /** Longest wait for a worker, in milliseconds, before an update throws. Default 20 000. */
  timeoutMs?: number;
}

/** The little of a Node or Web worker that the pool uses. */
interface WorkerHandle {
  post(message: HostMessage): void;
  terminate(): void;
}

interface NodeWorker {
  postMessage(message: unknown): void;
  terminate(): Promise<number>;
  unref(): void;
  on(event: 'message', handler: (message: { type: string }) => void): void;
  on(event: 'error', handler: (error: Error) => void): void;
  on(event: 'exit', handler: (code: number) => void): void;
}

interface WebWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: { type: string } }) => void) | null;
  onerror: ((event: { message?: string; preventDefault?: () => void }) => void) | null;
}

// The browser's Worker constructor, written as `new Worker(new URL(..., import.meta.url))` below so
// that bundlers find and emit the worker file.
declare const Worker: new (url: string | URL, options: { type: 'module' }) => WebWorker;

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeout: number,
) => { async: boolean; value: Promise<string> | string };

function nodeThreads():
  | { Worker: new (url: string | URL, options?: { execArgv?: string[] }) => NodeWorker }
  | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.('node:worker_threads') as
    | { Worker: new (url: string | URL, options?: { execArgv?: string[] }) => NodeWorker }
    | undefined;
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

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * Slice of one asynchronous wait (ms): the status words are re-read between slices. A blocking wait
 * needs none — a failing or exiting worker wakes it through the acknowledgement word — and each
 * wake-up costs the host CPU time, so it sleeps until the deadline.
 */
const WAIT_SLICE_MS = 50;

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
  private wakers: Array<() => void> = [];
  private failure: Error | null = null;
  private disposed = false;
  private busy = false;
  private nextId = 1;

  constructor(options: WorkerPoolOptions = {}) {
    const size = options.workers ?? Math.min(hardwareThreads(), 8);
    if (!Number.isInteger(size) || size < 1 || size > 256) {
      throw new RangeError(`WorkerPool: workers must be an integer from 1 to 256, got ${String(size)}`);
    }
    const timeoutMs = options.timeoutMs ?? 20_000;
    if (!(typeof timeoutMs === 'number' && timeoutMs > 0)) {
      throw new RangeError(`WorkerPool: timeoutMs must be a positive number, got ${String(timeoutMs)}`);
    }
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
    for (let w = 0; w < size; w++) {
      this.pending.push([]);
      const worker = this.spawn(w, options.workerUrl);
      this.workers.push(worker);
      worker.post({
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

  /** Resolves once every worker has started (a synchronous first update does not need it in Node). */
  async ready(): Promise<void> {
    const deadline = now() + this.timeoutMs;
    for (let w = 0; w < this.size; w++) {
      while (Atomics.load(this.control, w * CONTROL_STRIDE + C_READY) !== 1) {
        this.check(w);
        if (now() > deadline) throw this.timeout(w, 'to start');
        await this.sleep(w, Atomics.load(this.control, w * CONTROL_STRIDE + C_ACK));
      }
    }
  }

  /**
   * Runs `cmd` with `arg` on workers `first ... first + count - 1` and blocks until all have
   * acknowledged. `onEach(w)`, when given, is called on this thread as soon as worker `w` has
   * acknowledged, in worker order, while the later workers may still run (the caller's share of the
   * work overlaps theirs). Throws if a worker failed, exited or did not answer within `timeoutMs`, or
   * what `onEach` threw, once every worker has acknowledged.
   */
  run(cmd: number, arg: number, count: number, first = 0, onEach?: (w: number) => void): void {
    this.enter();
    try {
      const deadline = now() + this.timeoutMs;
      for (let w = first; w < first + count; w++) {
        const n = this.flush(w);
        if (n > 0) this.waitSync(w, this.issue(w, CMD_DRAIN, n), deadline);
      }
      for (let w = first; w < first + count; w++) this.issue(w, cmd, arg);
      let thrown: unknown = null;
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
      if (thrown !== null) throw thrown;
    } finally {
      this.busy = false;
    }
  }

  /** {@link run} without blocking the calling thread (for a browser's main thread). */
  async runAsync(cmd: number, arg: number, count: number, first = 0): Promise<void> {
    this.enter();
    try {
      const deadline = now() + this.timeoutMs;
      for (let w = first; w < first + count; w++) {
        const n = this.flush(w);
        if (n > 0) await this.waitUntil(w, this.issue(w, CMD_DRAIN, n), deadline);
      }
      for (let w = first; w < first + count; w++) this.issue(w, cmd, arg);
      for (let w = first; w < first + count; w++) await this.waitUntil(w, this.sequence[w], deadline);
    } finally {
      this.busy = false;
    }
  }

  /** Stops every worker. The pool cannot be used afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (let w = 0; w < this.size; w++) {
      if (!this.busy) this.issue(w, CMD_EXIT, 0);
      this.workers[w].terminate();
    }
    this.wake();
  }

  /** Whether {@link dispose} was called. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Test hook: makes worker `w` throw in its next frame (`'throw'`), loop forever in it (`'hang'`) or
   * exit as it reads its next messages (`'exit'`), to check that failures surface as errors.
   * @internal
   */
  crashForTesting(w: number, mode: 'throw' | 'exit' | 'hang'): void {
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

  /** Throws the pool's failure, or worker `w`'s if its status word says it failed or exited. */
  private check(w: number): void {
    if (this.failure) throw this.failure;
    if (this.disposed) throw new Error('WorkerPool: disposed while waiting for a worker');
    const status = Atomics.load(this.control, w * CONTROL_STRIDE + C_STATUS);
    if (status === 0) return;
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
      this.check(w);
      if (ack === seq) return;
      const left = deadline - now();
      if (left <= 0) throw this.timeout(w, 'to a command');
      Atomics.wait(c, i, ack, left);
    }
  }

  private async waitUntil(w: number, seq: number, deadline: number): Promise<void> {
    const c = this.control;
    const i = w * CONTROL_STRIDE + C_ACK;
    for (;;) {
      const ack = Atomics.load(c, i);
      this.check(w);
      if (ack === seq) return;
      if (now() > deadline) throw this.timeout(w, 'to a command');
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
    if (this.waitAsync) {
      const r = this.waitAsync(this.control, i, value, WAIT_SLICE_MS);
      return r.async ? Promise.race([r.value, woken]) : Promise.resolve(r.value);
    }
    const timer = setTimeout(wake, WAIT_SLICE_MS);
    return woken.then(() => clearTimeout(timer));
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  private spawn(w: number, url: string | URL | undefined): WorkerHandle {
    const onMessage = (message: { type: string }) => {
      if (message.type === 'ack' || message.type === 'ready') this.wake();
    };
    const onError = (error: Error) => {
      if (!this.disposed) this.fail(new Error(`ParallelSweepAndPrune: worker ${w} failed: ${error.message}`));
    };
    const threads = nodeThreads();
    if (threads) {
      const worker = new threads.Worker(url ?? new URL('./parallel-worker.js', import.meta.url));
      // An undisposed pool must not keep a Node process alive.
      worker.unref();
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', (code) => {
        if (!this.disposed)
          this.fail(new Error(`ParallelSweepAndPrune: worker ${w} exited with code ${code}`));
      });
      return { post: (m) => worker.postMessage(m), terminate: () => void worker.terminate() };
    }
    const worker =
      url === undefined
        ? new Worker(new URL('./parallel-worker.js', import.meta.url), { type: 'module' })
        : new Worker(url, { type: 'module' });
    worker.onmessage = (event) => onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      onError(new Error(event.message ?? 'error in worker'));
    };
    return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate() };
  }
}
