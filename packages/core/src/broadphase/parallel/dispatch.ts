/**
 * How a region-parallel broadphase runs its frames: the threads of its regions (a pool's workers, and
 * the calling thread for the regions it runs — all of them in-thread, region 0 with `callerRegion`) and
 * the hand-off of each phase of a frame to them (check and classify, regions, merge by key range),
 * blocking or not, with the second rounds for outputs that grew. Where the calling thread runs a region
 * beside the workers, this is the fork-join pattern in which the thread that forks takes a share
 * instead of idling (as OpenMP's master thread).
 */
import type { Dimensions } from '../types.js';
import type { Frames } from './frames.js';
import type { ResolvedParallelOptions } from './options.js';
import { WorkerPool } from './pool.js';
import { RegionRunner } from './region.js';
import { CMD_CLASSIFY, CMD_FRAME, CMD_MERGE, CMD_RESEND, CMD_STEP, H_ABORT } from './shared.js';

/** The threads of a region-parallel broadphase's regions, and its frames run on them. */
export class RegionDispatch {
  /** The workers (null when every region runs on the calling thread). */
  readonly pool: WorkerPool | null;
  /** Whether the calling thread runs region 0 beside the workers. */
  readonly callerRegion: boolean;
  private readonly ownPool: boolean;
  private readonly id: number;
  private readonly regions: number;
  /** The regions run on this thread: all of them in-thread, region 0 with `callerRegion`, else none. */
  private readonly runners: RegionRunner[] = [];
  /** Regions on this thread before the workers' (1 with `callerRegion`): region r runs on worker r − first. */
  private readonly firstOnWorkers: number;
  /** The phase the calling thread's region runs next to the workers' (see {@link ownShare}). */
  private phase = CMD_STEP;
  /** The worker that holds a command up: the one whose region got least far (see H_REGION_PROGRESS). */
  private readonly blame = (): number => Math.max(0, this.frames.laggard() - this.firstOnWorkers);
  /** The calling thread's share of a command run on the workers (bound once: nothing allocated per frame). */
  private readonly ownShare = (): void => runPhase(this.runners[0], this.phase);

  /**
   * Attaches the regions to their threads: on workers (`o.pool`, or a pool of its own) when `shared`,
   * else all on the calling thread.
   */
  constructor(
    private readonly frames: Frames,
    o: ResolvedParallelOptions,
    dimensions: Dimensions,
    shared: boolean,
  ) {
    const regions = o.regions;
    this.regions = regions;
    this.callerRegion = shared && o.callerRegion;
    this.firstOnWorkers = shared ? (this.callerRegion ? 1 : 0) : regions;
    if (!shared) {
      this.ownPool = false;
      this.pool = null;
      this.id = 0;
      for (let r = 0; r < regions; r++) {
        this.runners.push(new RegionRunner(dimensions, r, frames.buffersOf(r), o.validate));
      }
      return;
    }
    this.ownPool = o.pool === undefined;
    this.pool =
      o.pool ??
      new WorkerPool({
        workers: regions - this.firstOnWorkers,
        workerUrl: o.workerUrl,
        timeoutMs: o.timeoutMs,
      });
    this.id = this.pool.newId();
    for (let r = 0; r < regions; r++) {
      if (r < this.firstOnWorkers) {
        const runner = new RegionRunner(dimensions, r, frames.buffersOf(r), o.validate);
        // At a barrier the calling thread checks on the workers: a dead one never keeps it waiting.
        runner.waitCheck = this.pool.poll;
        this.runners.push(runner);
        continue;
      }
      this.pool.post(r - this.firstOnWorkers, {
        type: 'attach',
        id: this.id,
        dimensions,
        region: r,
        validate: o.validate,
        buffers: frames.buffersOf(r),
      });
    }
  }

  /** Runs a frame, blocking until every region is done; throws a bad written box's or a worker's error. */
  update(): void {
    const frames = this.frames;
    const regions = this.regions;
    const classify = this.prepare();
    if (this.pool) {
      // All three phases in one hand-off; the threads meet at barriers of their own.
      this.runAll(CMD_STEP);
      frames.throwIfBad();
    } else {
      if (classify) {
        this.runAll(CMD_CLASSIFY);
        frames.throwIfBad();
      }
      this.runAll(CMD_FRAME);
    }
    if (frames.growOutputs() > 0) {
      this.sendBuffers();
      for (let r = 0; r < regions; r++) if (frames.resend[r] === 1) this.runOne(CMD_RESEND, r);
      this.runAll(CMD_MERGE);
    } else if (!this.pool) this.runAll(CMD_MERGE);
    while (frames.growMerged() > 0) {
      this.sendBuffers();
      for (let w = 0; w < regions; w++) if (frames.remerge[w] === 1) this.runOne(CMD_MERGE, w);
    }
    frames.finish();
  }

  /** {@link update} on workers without blocking the calling thread (needs {@link pool}). */
  async updateAsync(): Promise<void> {
    const frames = this.frames;
    const classify = this.prepare();
    const regions = this.regions;
    if (this.callerRegion) {
      // This thread's region cannot wait at the workers' barriers here: one hand-off per phase, its
      // share run between them.
      if (classify) {
        await this.runAllAsync(CMD_CLASSIFY);
        frames.throwIfBad();
      }
      await this.runAllAsync(CMD_FRAME);
    } else {
      await this.runAllAsync(CMD_STEP);
      frames.throwIfBad();
    }
    const grown = frames.growOutputs() > 0;
    if (grown) {
      this.sendBuffers();
      for (let r = 0; r < regions; r++) if (frames.resend[r] === 1) await this.runOneAsync(CMD_RESEND, r);
    }
    if (grown || this.callerRegion) await this.runAllAsync(CMD_MERGE);
    while (frames.growMerged() > 0) {
      this.sendBuffers();
      for (let w = 0; w < regions; w++) if (frames.remerge[w] === 1) await this.runOneAsync(CMD_MERGE, w);
    }
    frames.finish();
  }

  /** Stops a pool of its own; a shared pool keeps running and forgets these regions. */
  dispose(): void {
    if (!this.pool) return;
    if (this.ownPool) this.pool.dispose();
    else {
      for (let r = this.firstOnWorkers; r < this.regions; r++) {
        this.pool.post(r - this.firstOnWorkers, { type: 'detach', id: this.id });
      }
    }
  }

  /** Runs a command for every region (on the workers, and this thread's regions alongside), blocking. */
  private runAll(cmd: number): void {
    const pool = this.pool;
    if (!pool) {
      for (const runner of this.runners) runPhase(runner, cmd);
      return;
    }
    const workers = this.regions - this.firstOnWorkers;
    if (!this.callerRegion) {
      pool.run(cmd, this.id, workers, 0, undefined, this.blame);
      return;
    }
    this.phase = cmd;
    pool.run(cmd, this.id, workers, 0, undefined, this.blame, this.ownShare);
  }

  /** Runs a command for region `r` alone (on this thread when it runs the region), blocking. */
  private runOne(cmd: number, r: number): void {
    if (!this.pool || r < this.firstOnWorkers) runPhase(this.runners[r], cmd);
    else this.pool.run(cmd, this.id, 1, r - this.firstOnWorkers);
  }

  /** {@link runAll} for `updateAsync` (never a `STEP` with a region on this thread). */
  private async runAllAsync(cmd: number): Promise<void> {
    const pool = this.pool!;
    const workers = this.regions - this.firstOnWorkers;
    this.phase = cmd;
    await pool.runAsync(cmd, this.id, workers, 0, this.blame, this.callerRegion ? this.ownShare : undefined);
  }

  /** {@link runOne} for `updateAsync`. */
  private async runOneAsync(cmd: number, r: number): Promise<void> {
    if (r < this.firstOnWorkers) runPhase(this.runners[r], cmd);
    else await this.pool!.runAsync(cmd, this.id, 1, r - this.firstOnWorkers);
  }

  /** Fills the frame header and hands replaced buffers to the regions; whether to classify first. */
  private prepare(): boolean {
    const classify = this.frames.prepare();
    this.frames.header[H_ABORT] = 0;
    if (this.frames.buffersChanged) this.sendBuffers();
    return classify;
  }

  /** Hands every region the current buffer set (after one of them was replaced). */
  private sendBuffers(): void {
    this.frames.buffersChanged = false;
    for (let r = 0; r < this.regions; r++) {
      const buffers = this.frames.buffersOf(r);
      if (!this.pool || r < this.firstOnWorkers) this.runners[r].setBuffers(buffers);
      else this.pool.post(r - this.firstOnWorkers, { type: 'buffers', id: this.id, buffers });
    }
  }
}

/** Runs one phase of a frame (a pool command) for a region on this thread. */
function runPhase(runner: RegionRunner, cmd: number): void {
  if (cmd === CMD_STEP) runner.step();
  else if (cmd === CMD_CLASSIFY) runner.classify();
  else if (cmd === CMD_FRAME) runner.frame();
  else if (cmd === CMD_MERGE) runner.merge();
  else if (cmd === CMD_RESEND) runner.writeOutput();
}
