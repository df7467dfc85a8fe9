/**
 * The page's side of the parallel mode: starts the physics worker (physics.worker.ts), hands it each
 * frame's steps, held input and one-shot actions, and keeps the last snapshot it sent back as a
 * {@link RemoteGame} for the view and the HUD. One batch is in flight at a time: while the worker is
 * still stepping, a frame's steps are dropped (as the default mode drops steps past two per frame), so
 * a slow step slows the game down instead of piling up work. The page never blocks.
 */
import type { Input } from './game.js';
import type { Action } from './input.js';
import type { FromPhysics, ToPhysics } from './physics.worker.js';
import { RemoteGame } from './state.js';

/** What the physics worker reported about its parallel broadphase. */
export interface ParallelInfo {
  /** 'workers', or 'in-thread' where the regions run on the physics worker itself. */
  mode: 'workers' | 'in-thread';
  /** Regions (one worker thread each in 'workers' mode). */
  regions: number;
  /** Why it fell back to 'in-thread' (null on workers). */
  fallbackReason: string | null;
  /** Whether the physics worker is cross-origin isolated. */
  crossOriginIsolated: boolean;
}

/** Options of a {@link WorkerGame}. */
export interface WorkerGameOptions {
  seed: number;
  test: boolean;
  /** Debris to start with. */
  flood: number;
  /** Debris poured by the flood action. */
  floodSize: number;
  /** Regions (worker threads) of the parallel broadphase. */
  workers: number;
  onReady(info: ParallelInfo): void;
  /** Called once per snapshot, after `game` took it over. */
  onSnapshot(game: RemoteGame): void;
  onError(message: string): void;
}

/** The game running in a Web Worker on Sieve's parallel broadphase. */
export class WorkerGame {
  /** The state of the last snapshot. */
  readonly game = new RemoteGame();
  /** Null until the worker is ready. */
  info: ParallelInfo | null = null;
  /** The ship's outline in body space (empty until the worker is ready). */
  shipOutline: number[] = [];
  /** Snapshots received. */
  snapshots = 0;
  private readonly worker: Worker;
  private inFlight = true;
  private actions: Action[] = [];
  private buffer: ArrayBuffer | null = null;

  constructor(private readonly options: WorkerGameOptions) {
    this.worker = new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (event: MessageEvent<FromPhysics>) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      options.onError(event.message || 'the physics worker failed to start');
    };
    const init: ToPhysics = {
      type: 'init',
      seed: options.seed,
      test: options.test,
      flood: options.flood,
      floodSize: options.floodSize,
      workers: options.workers,
    };
    this.worker.postMessage(init);
  }

  /** Queues a one-shot action for the next batch. */
  action(action: Action): void {
    this.actions.push(action);
  }

  /** Sends `steps` steps with `input` (and the queued actions) unless a batch is still running. */
  tick(steps: number, input: Input): void {
    if (this.inFlight || (steps === 0 && this.actions.length === 0)) return;
    const buffer = this.buffer;
    this.buffer = null;
    const message: ToPhysics = { type: 'step', steps, input: { ...input }, actions: this.actions, buffer };
    this.actions = [];
    this.inFlight = true;
    this.worker.postMessage(message, buffer ? [buffer] : []);
  }

  /** Stops the worker (and with it the broadphase's workers). */
  terminate(): void {
    this.worker.terminate();
  }

  private receive(m: FromPhysics): void {
    if (m.type === 'ready') {
      this.info = {
        mode: m.parallelMode,
        regions: m.regions,
        fallbackReason: m.fallbackReason,
        crossOriginIsolated: m.crossOriginIsolated,
      };
      this.shipOutline = m.shipOutline;
      this.inFlight = false;
      this.options.onReady(this.info);
    } else if (m.type === 'snapshot') {
      this.game.apply(m.data);
      this.buffer = m.data.buffer as ArrayBuffer;
      this.snapshots++;
      this.inFlight = false;
      this.options.onSnapshot(this.game);
    } else {
      this.options.onError(m.message);
    }
  }
}
