/**
 * `setBullet`: marks a body as a bullet. It is the one entry that brings the sweep (`system.ts`, and
 * with it `@sieve/core`'s continuous collision) into a bundle: before marking, it tells `settings.ts`
 * how to make a world's system, so a world that wants bullets (`installSieve`) gets one when its first
 * body is marked — and a page that never calls it never ships the sweep.
 */
import type { Body } from 'cannon-es';
import { type BulletSettings, markBullet, setSystemMaker } from './settings.js';
import { BulletSystem } from './system.js';

/**
 * Marks `body` as a bullet (`true` or settings: see {@link BulletSettings}) or unmarks it (`false`).
 * Works before or after the body is added to a world; a world sweeps its bullets once bullets are
 * installed on it (`installSieve(world)` does it by default, or `installBullets`). Only dynamic bodies
 * are swept. Throws a TypeError/RangeError for a non-body or bad settings.
 *
 * @example
 * ```ts
 * import { installSieve, setBullet } from '@sieve/cannon';
 * import { Body, Box, Sphere, Vec3, World } from 'cannon-es';
 *
 * const world = new World();
 * installSieve(world);
 * const wall = new Body({ mass: 0, shape: new Box(new Vec3(0.05, 5, 5)) });
 * const shot = new Body({ mass: 1, shape: new Sphere(0.05), position: new Vec3(-1, 0, 0) });
 * shot.velocity.set(500, 0, 0); // 8 units a step at 60 Hz: the discrete step would skip the wall
 * world.addBody(wall);
 * world.addBody(shot);
 * setBullet(shot, { response: 'stop' });
 * world.fixedStep();
 * console.log(shot.position.x < 0); // true: stopped at the wall
 * ```
 */
export function setBullet(body: Body, bullet: boolean | BulletSettings = true): void {
  setSystemMaker(makeSystem);
  markBullet(body, bullet);
}

function makeSystem(...args: ConstructorParameters<typeof BulletSystem>): BulletSystem {
  return new BulletSystem(...args);
}
