/**
 * The supervisor thread of a worker pool in Node: a small thread that starts the region workers and
 * watches them, so that a worker's death is seen while the host thread is blocked.
 *
 * The host sleeps in `Atomics.wait` during `update()`, so it cannot receive a worker's `'error'` or
 * `'exit'` event; and a worker's own exit handlers do not run when it is terminated or dies of a
 * fatal error. A worker's events go to the thread that created it, so the workers are created by this
 * supervisor, whose event loop never blocks: on a worker's `'error'` (a script that does not load, an
 * uncaught error) or `'exit'` it writes the status word and the error text of that worker into the
 * pool's shared control block and notifies every acknowledgement word — the host wakes at once and
 * throws the real cause (the watchdog pattern of thread pools such as Java's `ThreadPoolExecutor`,
 * which learns of a worker's death from the thread that runs it).
 *
 * The supervisor is started from source (a CommonJS string, Node's `eval` workers), not from the
 * worker script: it must run even when that script cannot be loaded, to report why. The host talks to
 * each region worker directly through a `MessageChannel` whose far end the supervisor hands over.
 */
import {
  C_ACK,
  C_ERROR_LENGTH,
  C_STATUS,
  CONTROL_STRIDE,
  ERROR_BYTES,
  STATUS_EXITED,
  STATUS_FAILED,
} from './shared.js';

/** What the host passes to the supervisor (as `workerData`). */
export interface SupervisorData {
  /** The worker script: a `file:` (or other) URL's href, or a path. */
  script: string;
  /** Whether `script` is a URL's href (else a path). */
  isUrl: boolean;
  /** Workers to start. */
  size: number;
  /** The pool's control block (int32, `CONTROL_STRIDE` words per worker). */
  control: ArrayBufferLike;
  /** The pool's error-text block (`ERROR_BYTES` per worker). */
  errors: ArrayBufferLike;
  /** One `MessagePort` per worker: the far ends of the host's channels. */
  ports: unknown[];
}

/**
 * Messages the host posts to the supervisor: `'terminate'` stops one worker from outside (a test
 * hook: the worker's death must surface as an error), `'stop'` stops them all quietly (dispose).
 */
export type SupervisorMessage = { type: 'terminate'; index: number } | { type: 'stop' };

/** The supervisor's source (CommonJS, run with `new Worker(source, { eval: true })`). */
export const SUPERVISOR_SOURCE = `'use strict';
const { Worker, workerData, parentPort } = require('node:worker_threads');
const { script, isUrl, size, control, errors, ports } = workerData;
const c = new Int32Array(control);
const text = new Uint8Array(errors);
const workers = [];
let stopping = false;
function record(w, status, message) {
  const base = w * ${CONTROL_STRIDE};
  if (stopping) return;
  // The first word of a failure wins (a worker's own, written as it exits, may come first); the host is
  // woken either way, whichever worker's acknowledgement it waits on.
  if (Atomics.load(c, base + ${C_STATUS}) === 0) {
    const bytes = new TextEncoder().encode(String(message).slice(0, ${ERROR_BYTES}));
    const n = Math.min(bytes.length, ${ERROR_BYTES});
    text.set(bytes.subarray(0, n), w * ${ERROR_BYTES});
    Atomics.store(c, base + ${C_ERROR_LENGTH}, n);
    Atomics.store(c, base + ${C_STATUS}, status);
  }
  for (let v = 0; v < size; v++) Atomics.notify(c, v * ${CONTROL_STRIDE} + ${C_ACK});
}
for (let w = 0; w < size; w++) {
  try {
    const worker = new Worker(isUrl ? new URL(script) : script, {
      workerData: { role: 'region', port: ports[w] },
      transferList: [ports[w]],
    });
    worker.on('error', (error) => record(w, ${STATUS_FAILED}, error && error.stack ? error.stack : String(error)));
    worker.on('exit', (code) => record(w, ${STATUS_EXITED}, 'exited with code ' + code));
    workers.push(worker);
  } catch (error) {
    workers.push(null);
    record(w, ${STATUS_FAILED}, error && error.stack ? error.stack : String(error));
  }
}
parentPort.on('message', (m) => {
  if (m.type === 'terminate') {
    if (workers[m.index]) workers[m.index].terminate();
  } else if (m.type === 'stop') {
    stopping = true;
    for (const worker of workers) if (worker) worker.terminate();
  }
});
`;
