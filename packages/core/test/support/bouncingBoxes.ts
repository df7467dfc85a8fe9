/**
 * The heap probes' scene: `n` boxes in `d` dimensions, half-extents from 0.2 to 1.7, bouncing inside a
 * cube of edge 100 at seeded random velocities (support/rng.ts). Nothing is allocated per step.
 */
import { rng } from './rng.js';

/** The scene's state and its two per-frame operations. */
export interface BouncingBoxes {
  /** Box centres, `d` numbers each (a probe may move them itself, e.g. teleport them). */
  pos: Float64Array;
  /** Moves box i one step, turning back at the cube's walls. */
  step(i: number): void;
  /** Writes box i's bounds (mins, then maxes) into `out` from index `at`. */
  write(i: number, out: Float64Array, at: number): void;
  /** Moves every box one step and writes every box's bounds into `out` (box i from i · 2·d). */
  stepAll(out: Float64Array): void;
}

export function bouncingBoxes(n: number, d: number, seed: number): BouncingBoxes {
  const r = rng(seed);
  const pos = new Float64Array(n * d).map(() => r() * 100);
  const vel = new Float64Array(n * d).map(() => (r() - 0.5) * 0.5);
  const half = new Float64Array(n * d).map(() => 0.2 + r() * 1.5);
  const scene: BouncingBoxes = {
    pos,
    step(i) {
      for (let j = i * d; j < (i + 1) * d; j++) {
        pos[j] += vel[j];
        if (pos[j] < 0 || pos[j] > 100) vel[j] = -vel[j];
      }
    },
    write(i, out, at) {
      for (let k = 0; k < d; k++) {
        out[at + k] = pos[i * d + k] - half[i * d + k];
        out[at + d + k] = pos[i * d + k] + half[i * d + k];
      }
    },
    stepAll(out) {
      for (let i = 0; i < n; i++) {
        scene.step(i);
        scene.write(i, out, i * 2 * d);
      }
    },
  };
  return scene;
}
