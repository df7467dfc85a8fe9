/**
 * Inside Phaser's own copy of matter-js (`Phaser.Physics.Matter.Matter`, Phaser 3.90 and Phaser 4),
 * as a Phaser game installs Sieve — `installSieve(this.matter.world.engine, { matter: this.matter })`
 * or `{ matter: Phaser.Physics.Matter.Matter }`: tilemap levels built the way Phaser's `convertTilemapLayer` builds
 * them, and bodies changing between static and moving, give the collisions, events and body states of
 * Phaser's stock detector bit for bit, on either path. Also checks that the copy really is another
 * module (Sieve must wrap Phaser's `Detector.collisions`, not matter-js's).
 */
import { SweepAndPrune } from '@sieve/core';
import { installSieve, type SieveDetector, type SieveOptions, uninstallSieve } from '@sieve/matter';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { compareRuns, compareRunsEach, sharedRuns } from './harness.js';
import { PHASER_PACKAGES, phaserMatter } from './phaserMatter.js';
import { changingTiles, tilemapScene } from './staticScenes.js';

/**
 * Updates of the changing-tiles scenes: past step 150, where the platform is scaled, and every other
 * change of the script (crumbling, freezing, teleports, waking, flags written directly) at least once.
 */
const CHANGING_STEPS = depth(160, 300);
/**
 * The tilemap run: its tiles and updates. The bodies drop from the top rows and land after about 80
 * updates; from then on they collide with the ground every update.
 */
const TILES = depth(1000, 5000);
const TILEMAP_STEPS = depth(160, 200);
/** A count as the tests' names write it: `5 000`. */
const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

for (const pkg of PHASER_PACKAGES) {
  const { matter: M, version } = phaserMatter(pkg);
  describe(`Phaser ${version}'s matter`, () => {
    it('is its own copy of matter-js 0.20 (the one Sieve must wrap)', () => {
      expect(M.Detector).not.toBe(Matter.Detector);
      expect((M as unknown as { version: string }).version).toBe('0.20.0');
      const engine = M.Engine.create();
      const stock = M.Detector.collisions;
      installSieve(engine, { matter: M });
      expect(M.Detector.collisions).not.toBe(stock);
      expect(Matter.Detector.collisions).not.toBe(M.Detector.collisions);
      uninstallSieve(engine);
      expect(M.Detector.collisions).toBe(stock);
    });

    it("takes the scene's Matter plugin (this.matter) as the module too: one wrapper for both forms", () => {
      // What a Phaser scene's `this.matter` holds: the bundled copy's Detector and Collision.
      const plugin = { detector: M.Detector, collision: M.Collision, world: {}, body: M.Body };
      const stock = M.Detector.collisions;
      const a = M.Engine.create();
      const b = M.Engine.create();
      installSieve(a, { matter: plugin });
      const wrapped = M.Detector.collisions;
      installSieve(b, { matter: M });
      expect(M.Detector.collisions).toBe(wrapped);
      uninstallSieve(a);
      expect(M.Detector.collisions).toBe(wrapped);
      uninstallSieve(b);
      expect(M.Detector.collisions).toBe(stock);
      expect(() => installSieve(a, { matter: { detector: {}, collision: M.Collision } })).toThrow(
        /options\.matter/,
      );
    });

    it("the plugin form tracks static bodies when the page's Phaser global bundles that copy", () => {
      const plugin = { detector: M.Detector, collision: M.Collision, world: {}, body: M.Body };
      const setPosition = M.Body.setPosition;
      const g = globalThis as { Phaser?: unknown };
      const a = M.Engine.create();
      // No global Phaser (Node): the plugin holds no Engine or Sleeping, so nothing is tracked.
      installSieve(a, { matter: plugin });
      expect(M.Body.setPosition).toBe(setPosition);
      uninstallSieve(a);
      g.Phaser = { Physics: { Matter: { Matter: M } } };
      try {
        installSieve(a, { matter: plugin });
        expect(M.Body.setPosition).not.toBe(setPosition);
        uninstallSieve(a);
        let installed: SieveDetector | undefined;
        const r = compareRuns(
          () => changingTiles(M, 13, false),
          depth(CHANGING_STEPS, 200),
          (engine) => {
            installed = installSieve(engine, { matter: plugin });
          },
          undefined,
          M,
        );
        installed?.uninstall();
        expect(r.what).toBe('');
        expect(r.firstDifference).toBe(-1);
      } finally {
        delete g.Phaser;
      }
      expect(M.Body.setPosition).toBe(setPosition);
    });

    const setups: [string, SieveOptions][] = [
      ['default (the sweep)', {}],
      ['broadphase path', { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }],
      [
        'a SweepAndPrune, the cost model choosing (the sweep, on a tilemap)',
        { broadphase: new SweepAndPrune({ dimensions: 2 }) },
      ],
    ];
    // One stock run of the tilemap for the three setups.
    const tilemapRuns = sharedRuns(() =>
      compareRunsEach(
        () => tilemapScene(M, { tiles: TILES, seed: 3 }, { dynamic: 150 }),
        TILEMAP_STEPS,
        setups.map(([, options]) => (engine: Matter.Engine) => {
          installSieve(engine, { ...options, matter: M });
        }),
        undefined,
        M,
      ),
    );
    setups.forEach(([name], i) => {
      it(`a tilemap of ${count(TILES)} tiles and 150 bodies, ${TILEMAP_STEPS} updates: ${name}`, () => {
        const r = tilemapRuns(i);
        expect(r.what).toBe('');
        expect(r.firstDifference).toBe(-1);
        expect(r.totalCollisions).toBeGreaterThan(TILEMAP_STEPS * 100);
      });
    });

    it('static bodies tracked (the default): crumbling, freezing, moved, turned and scaled, sleeping off', () => {
      const r = compareRuns(
        () => changingTiles(M, 11, false),
        CHANGING_STEPS,
        (engine) => {
          installSieve(engine, { matter: M });
        },
        undefined,
        M,
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalStarts).toBeGreaterThan(100);
    });

    it('crumbling and freezing tiles, frozen bodies, a moved static platform, sleep and wake', () => {
      const r = compareRuns(
        () => changingTiles(M, 7),
        CHANGING_STEPS,
        (engine) => {
          installSieve(engine, {
            matter: M,
            broadphase: new SweepAndPrune({ dimensions: 2 }),
            sweepBelow: 0,
          });
        },
        undefined,
        M,
      );
      expect(r.what).toBe('');
      expect(r.firstDifference).toBe(-1);
      expect(r.totalStarts).toBeGreaterThan(100);
    });
  });
}
