/**
 * Scenes whose bodies change between static and moving, for the equivalence tests of static
 * proxies: tilemap levels (thousands of static tiles), tiles that crumble (`Body.setStatic(tile,
 * false)`) and freeze again, bodies frozen in mid-air, a platform of static tiles moved, turned and
 * scaled by hand, static tiles teleported into a pile, sleeping bodies woken, and the flags written
 * directly instead of through `Body.setStatic` / `Sleeping.set`. Generic over the Matter module, so
 * they run in matter-js and in Phaser's bundled copy alike.
 */
import type Matter from 'matter-js';
import type { Scene } from './scenes.js';
import { rng } from './scenes.js';
import { buildTilemapWorld, type LevelOptions, tilemapLevel, type WorldOptions } from './tilemap.js';

/** The Matter modules the scenes are built with (matter-js, or Phaser's `Phaser.Physics.Matter.Matter`). */
export type AnyMatter = typeof Matter;

/** A tilemap level built with `M`, as a {@link Scene}. */
export function tilemapScene(M: AnyMatter, level: LevelOptions, world: WorldOptions = {}): Scene {
  const built = buildTilemapWorld<Matter.Engine>(M as never, tilemapLevel(level), world);
  return { engine: built.engine };
}

/**
 * A level of 1 200 tiles with 120 dynamic bodies (sleeping enabled), scripted so that every way a
 * body changes between resting and moving happens again and again:
 * - tiles under the pile crumble (`Body.setStatic(tile, false)`, then a mass and inertia: matter-js
 *   cannot restore those of a body created static) and, once fallen, freeze where they lie
 *   (`Body.setStatic(tile, true)`);
 * - dynamic bodies freeze in mid-air and are released;
 * - a platform of static tiles slides (`Body.setPosition`), turns (`Body.setAngle`) and is scaled
 *   about its corner (its bounds' min stays, max moves);
 * - a static tile is teleported into the pile now and then;
 * - sleeping bodies are woken (`Sleeping.set`) and pushed;
 * - `isSleeping` and `isStatic` written directly on a few bodies for some steps (stock's detector
 *   reads the flags as they are, and so must Sieve's).
 */
export function changingTiles(M: AnyMatter, seed: number, sleeping = true): Scene {
  const { Body, Bodies, Composite, Sleeping } = M;
  const level = tilemapLevel({ tiles: 1200, ground: 10, rows: 30, seed });
  const built = buildTilemapWorld<Matter.Engine>(M as never, level, {
    dynamic: 120,
    sleeping,
    seed: seed + 1,
  });
  const engine = built.engine;
  const tiles = built.tiles as Matter.Body[];
  const dynamic = built.dynamic as Matter.Body[];
  const r = rng(seed + 2);
  // A platform of 6 static tiles in the air, moved as one.
  const platform: Matter.Body[] = [];
  const px = built.widthPx / 3;
  for (let i = 0; i < 6; i++) {
    const t = Bodies.rectangle(px + i * 32, 200, 32, 32, { isStatic: true });
    platform.push(t);
  }
  Composite.add(engine.world, platform);
  const crumbled: Matter.Body[] = [];
  const frozen: Matter.Body[] = [];
  const forced: Matter.Body[] = [];
  // The tiles of the ground's top row: the ones the pile lands on.
  const top = tiles.filter(
    (t) => !tiles.some((u) => u.position.x === t.position.x && u.position.y < t.position.y),
  );
  return {
    engine,
    beforeStep(step) {
      // The platform slides back and forth, turns a little every 40 steps, grows at step 150.
      for (let i = 0; i < platform.length; i++) {
        const t = platform[i];
        Body.setPosition(t, {
          x: px + i * 32 + 120 * Math.sin(step / 25),
          y: 200 + 20 * Math.cos(step / 40),
        });
        if (step % 40 === 20) Body.setAngle(t, 0.1 * Math.sin(step));
        if (step === 150) Body.scale(t, 1.5, 1.25, { x: t.bounds.min.x, y: t.bounds.min.y });
      }
      if (step % 17 === 5) {
        const t = top[Math.floor(r() * top.length)];
        if (t.isStatic) {
          Body.setStatic(t, false);
          // A body created static has no mass to go back to (matter-js restores Infinity): give it one.
          Body.setMass(t, 1);
          Body.setInertia(t, 400);
          crumbled.push(t);
        }
      }
      if (step % 23 === 11 && crumbled.length > 0) {
        const t = crumbled.shift() as Matter.Body;
        if (!t.isStatic) Body.setStatic(t, true);
      }
      if (step % 29 === 7) {
        const b = dynamic[Math.floor(r() * dynamic.length)];
        if (!b.isStatic) {
          Body.setStatic(b, true);
          frozen.push(b);
        }
      }
      if (step % 31 === 19 && frozen.length > 0) Body.setStatic(frozen.shift() as Matter.Body, false);
      if (step % 37 === 13) {
        const t = tiles[Math.floor(r() * tiles.length)];
        if (t.isStatic) {
          const b = dynamic[Math.floor(r() * dynamic.length)];
          Body.setPosition(t, { x: b.position.x + 20, y: b.position.y - 10 });
        }
      }
      if (step % 45 === 30) {
        for (let k = 0; k < 8; k++) {
          const b = dynamic[Math.floor(r() * dynamic.length)];
          if (b.isStatic) continue;
          Sleeping.set(b, false);
          Body.setVelocity(b, { x: (r() - 0.5) * 8, y: -r() * 6 });
        }
      }
      // Flags written directly, then put back.
      if (step % 50 === 25) {
        for (let k = 0; k < 4; k++) {
          const b = dynamic[Math.floor(r() * dynamic.length)];
          if (b.isStatic || b.isSleeping) continue;
          if (k % 2 === 0) b.isSleeping = true;
          else b.isStatic = true;
          forced.push(b);
        }
      }
      if (step % 50 === 40) {
        for (const b of forced) {
          // Only what this script wrote: a body frozen or put to sleep since stays so.
          if (b.isSleeping && !b.isStatic) b.isSleeping = false;
          else if (b.isStatic && !frozen.includes(b)) b.isStatic = false;
        }
        forced.length = 0;
      }
    },
  };
}
