/**
 * Static and sleeping bodies are static proxies in Sieve's broadphase (their mutual pairs never
 * exist), and the sweep path skips their mutual pairs too: tilemap worlds and bodies changing
 * between static and moving — `Body.setStatic` both ways, sleeping and waking, static bodies moved,
 * turned and scaled by hand, the flags written directly — must give stock's collisions, events and
 * body states bit for bit, on either path, with either broadphase of `@sieve/core`.
 */
import { Octree, SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveDetector, type SieveOptions } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { compareRuns, compareRunsEach, sharedRuns } from './harness.js';
import { changingTiles, tilemapScene } from './staticScenes.js';

/**
 * Updates of the changing-tiles scenes: past step 150, where the platform is scaled, and every other
 * change of their script (crumbling, freezing, teleports, waking, flags written directly) at least once;
 * the path switches of the last test (every 37 updates) go both ways twice.
 */
const CHANGING_STEPS = depth(160, 420);
/**
 * The tilemap world: its tiles and updates. The bodies drop from the top rows, land after about 80
 * updates and begin to fall asleep after about 150.
 */
const TILES = depth(1000, 3000);
const TILEMAP_STEPS = depth(200, 300);
/** A count as the tests' names write it: `3 000`. */
const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

const setups: [string, SieveOptions][] = [
  ['default (the sweep)', {}],
  ['broadphase path (sweepBelow 0)', { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }],
  [
    'a SweepAndPrune, the cost model choosing (the sweep, on this tilemap)',
    { broadphase: new SweepAndPrune({ dimensions: 2 }) },
  ],
  ['octree broadphase', { sweepBelow: 0, broadphase: new Octree({ dimensions: 2 }) }],
];

describe('bodies changing between static and moving', () => {
  // One stock run for every setup; per setup, the updates its detector answered on the broadphase path.
  const paths = setups.map(() => 0);
  const changing = sharedRuns(() =>
    compareRunsEach(
      () => changingTiles(Matter, 5),
      CHANGING_STEPS,
      setups.map(([, options], i) => (engine: Matter.Engine) => {
        const sieve = installSieve(engine, options);
        Matter.Events.on(engine, 'afterUpdate', () => {
          if (sieve.stats.path === 'broadphase') paths[i]++;
        });
      }),
    ),
  );
  setups.forEach(([name, options], i) => {
    it(`crumbling and freezing tiles, frozen bodies, a moved static platform, sleep and wake: ${name}`, () => {
      const r = changing(i);
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalStarts).toBeGreaterThan(100);
      if (options.sweepBelow === 0) expect(paths[i]).toBe(CHANGING_STEPS);
      // The default has no broadphase; with one, the cost model keeps a tilemap on the sweep.
      if (options.broadphase === undefined || options.sweepBelow === undefined) expect(paths[i]).toBe(0);
    });
  });
});

describe('static bodies tracked (the default) and read every step (trackStatic: false)', () => {
  const tracking: [string, SieveOptions][] = [
    ['tracked, default path', {}],
    ['tracked, broadphase path', { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }],
    ['read every step', { trackStatic: false }],
  ];
  // One stock run for the three.
  const changing = sharedRuns(() =>
    compareRunsEach(
      () => changingTiles(Matter, 7, false),
      CHANGING_STEPS,
      tracking.map(([, options]) => (engine: Matter.Engine) => {
        installSieve(engine, options);
      }),
    ),
  );
  tracking.forEach(([name], i) => {
    it(`crumbling, freezing, moved, turned and scaled static bodies, sleeping off: ${name}`, () => {
      const r = changing(i);
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalStarts).toBeGreaterThan(100);
    });
  });
});

describe('tilemap worlds', () => {
  it(`${count(TILES)} tiles and 200 bodies, sleeping enabled, default options: stock bit for bit`, () => {
    const r = compareRuns(
      () => tilemapScene(Matter, { tiles: TILES }, { dynamic: 200, sleeping: true }),
      TILEMAP_STEPS,
      (engine) => {
        installSieve(engine);
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect(r.totalCollisions).toBeGreaterThan(TILEMAP_STEPS * 150);
  });

  it('path switches in both directions while tiles crumble and bodies sleep: stock bit for bit', () => {
    const seen = new Set<string>();
    let sieve: SieveDetector | undefined;
    const r = compareRuns(
      () => changingTiles(Matter, 9),
      CHANGING_STEPS,
      (engine) => {
        sieve = installSieve(engine, { broadphase: new SweepAndPrune({ dimensions: 2 }) });
        Matter.Events.on(engine, 'afterUpdate', () => seen.add((sieve as SieveDetector).stats.path));
      },
      (_engine, step) => {
        // Forced back and forth at uneven intervals, among the scene's flips and moves.
        if (step % 37 === 0)
          (sieve as SieveDetector).sweepBelow = step % 74 === 0 ? 0 : Number.POSITIVE_INFINITY;
      },
    );
    expect(r.what).toBe('');
    expect(r.firstDifference).toBe(-1);
    expect([...seen].sort()).toEqual(['broadphase', 'sweep']);
  });
});
