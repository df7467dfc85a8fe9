/**
 * Every broadphase the shared contract suite runs against the BruteForce reference. Adding a
 * broadphase to the project means adding one line here — the suite itself is never copied.
 */
import { type Broadphase, type BroadphaseOptions, SweepAndPrune } from '../../src/index.js';

export interface BroadphaseEntry {
  name: string;
  create: (options: BroadphaseOptions) => Broadphase;
}

export const BROADPHASES: BroadphaseEntry[] = [
  { name: 'SweepAndPrune', create: (o) => new SweepAndPrune({ ...o, validate: true }) },
  // Thresholds forced to the extremes, so both code paths of each step run on every scene.
  {
    name: 'SweepAndPrune (always full pass, always rebuild)',
    create: (o) => new SweepAndPrune({ ...o, validate: true, fullPassShare: 0, rebuildShare: 0 }),
  },
  {
    name: 'SweepAndPrune (never full pass, one-by-one inserts)',
    create: (o) => new SweepAndPrune({ ...o, validate: true, fullPassShare: 2, rebuildShare: 1e9, initialCapacity: 1 }),
  },
];
