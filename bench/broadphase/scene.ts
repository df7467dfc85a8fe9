/**
 * The benchmark scenes' motion: N boxes of varied size moving with random velocities and bouncing
 * inside a cube sized for a given volume fraction. Every contestant replays the same seeded motion.
 * Positions and bounds live in flat Float64Arrays (SoA), so feeding a broadphase costs what an engine
 * would pay anyway.
 */
import { rng } from '../lib/stats.js';

export interface SceneOptions {
  n: number;
  seed?: number;
  /** Share of the cube's volume the boxes fill (default 0.05). */
  volumeFraction?: number;
  /** Displacement per frame as a share of the mean box size (default 0.05: coherent motion). */
  speed?: number;
}

export interface Scene {
  n: number;
  /** Edge of the cube the boxes bounce in. */
  world: number;
  pos: Float64Array;
  vel: Float64Array;
  half: Float64Array;
  /** `[minX, minY, minZ, maxX, maxY, maxZ]` per box, refreshed by `step()`. */
  bounds: Float64Array;
  step(): void;
}

export function makeScene(o: SceneOptions): Scene {
  const n = o.n;
  const r = rng(o.seed ?? 1);
  const half = new Float64Array(3 * n);
  let volume = 0;
  for (let i = 0; i < n; i++) {
    // Varied sizes: half extents from 0.25 to 1.25, independently per axis.
    const hx = 0.25 + r();
    const hy = 0.25 + r();
    const hz = 0.25 + r();
    half[3 * i] = hx;
    half[3 * i + 1] = hy;
    half[3 * i + 2] = hz;
    volume += 8 * hx * hy * hz;
  }
  const world = Math.cbrt(volume / (o.volumeFraction ?? 0.05));
  const pos = new Float64Array(3 * n);
  const vel = new Float64Array(3 * n);
  const speed = (o.speed ?? 0.05) * 1.5;
  for (let i = 0; i < 3 * n; i++) {
    pos[i] = r() * world;
    vel[i] = (r() * 2 - 1) * speed;
  }
  const bounds = new Float64Array(6 * n);
  const refresh = () => {
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        bounds[6 * i + k] = pos[3 * i + k] - half[3 * i + k];
        bounds[6 * i + 3 + k] = pos[3 * i + k] + half[3 * i + k];
      }
    }
  };
  refresh();
  return {
    n,
    world,
    pos,
    vel,
    half,
    bounds,
    step() {
      for (let i = 0; i < 3 * n; i++) {
        const p = pos[i] + vel[i];
        if (p < 0 || p > world) vel[i] = -vel[i];
        else pos[i] = p;
      }
      refresh();
    },
  };
}

/** Canonical key of an unordered pair of box indices (test-side bookkeeping, not a hot path). */
export function pairKey(i: number, j: number): number {
  return i < j ? i * 4194304 + j : j * 4194304 + i;
}
