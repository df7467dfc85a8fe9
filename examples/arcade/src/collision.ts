/**
 * The stock ↔ Sieve switch: installs @sieve/matter's detector on the game's engine (it answers matter's
 * `Detector.collisions` for that engine, in either mode, with the same collisions as stock) and feeds its
 * per-step timing into the overlay: `collision` (the whole detector call, both modes), `broadphase` and
 * `narrowphase` (Sieve mode only; stock's sweep does not split them). Timings the detector does not
 * report (NaN) are not recorded, so the overlay shows them as "—" (not measured) rather than 0.
 */
import { SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveDetector } from '@sieve/matter';
import type { FrameRecorder } from '@sieve/overlay';
import Matter from 'matter-js';

/** Which collision detection answers the engine. */
export type CollisionMode = 'stock' | 'sieve';

/** Switches an engine between stock matter-js and Sieve collision detection, and reports timings. */
export class CollisionSwitch {
  private readonly sieve: SieveDetector;
  private readonly collision: number;
  private readonly broadphase: number;
  private readonly narrowphase: number;

  constructor(
    engine: Matter.Engine,
    private readonly overlay: FrameRecorder,
    mode: CollisionMode,
  ) {
    // An explicit clock: @sieve/matter then times every path, including the sorted sweep it uses for
    // worlds where most bodies move. A SweepAndPrune passed as the broadphase: the detector answers
    // with it where it is cheaper than the sweep (without one, the sweep answers every step).
    this.sieve = installSieve(engine, {
      mode,
      matter: Matter,
      broadphase: new SweepAndPrune({ dimensions: 2 }),
      clock: () => performance.now(),
    });
    this.collision = overlay.phase('collision');
    this.broadphase = overlay.phase('broadphase');
    this.narrowphase = overlay.phase('narrowphase');
  }

  /** The mode answering the engine now. */
  get mode(): CollisionMode {
    return this.sieve.mode;
  }

  set mode(mode: CollisionMode) {
    this.sieve.mode = mode;
  }

  /**
   * How the last step was answered: `'stock'` (matter-js's own detector), or in Sieve mode `'sweep'`
   * (matter's sort and sweep, reproduced with less overhead: small worlds, or most bodies moving) or
   * `'broadphase'` (Sieve's incremental sweep and prune: large worlds with many resting bodies).
   */
  get path(): 'stock' | 'sweep' | 'broadphase' {
    return this.sieve.stats.mode === 'stock' ? 'stock' : this.sieve.stats.path;
  }

  /** Flips stock ↔ Sieve; returns the new mode. */
  toggle(): CollisionMode {
    this.mode = this.mode === 'sieve' ? 'stock' : 'sieve';
    return this.mode;
  }

  /** Adds the last engine step's detector timings to the overlay's current frame (call after each step). */
  recordStep(): void {
    const s = this.sieve.stats;
    const o = this.overlay;
    // NaN = not measured this step: leave the phase untouched so the overlay shows "—", not 0.
    if (!Number.isNaN(s.detectorMs)) o.record(this.collision, s.detectorMs);
    if (!Number.isNaN(s.broadphaseMs)) o.record(this.broadphase, s.broadphaseMs);
    if (!Number.isNaN(s.narrowphaseMs)) o.record(this.narrowphase, s.narrowphaseMs);
  }

  /** Counters of the last step: candidate pairs from the broadphase (NaN in stock mode) and collisions. */
  get candidatePairs(): number {
    return this.sieve.stats.candidatePairs;
  }

  get collisions(): number {
    return this.sieve.stats.collisions;
  }
}
