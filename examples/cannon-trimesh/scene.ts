/**
 * Node script: what Sieve changes in cannon-es, on two drops of the same bodies.
 *
 * 1. Trimesh bodies (the browser page's scene): trimesh balls, trimesh boxes and plain boxes on a trimesh
 *    floor and ramp. cannon-es 0.20.0 has no trimesh–trimesh or box–trimesh contact, so stock computes no
 *    contacts and every body falls through the floor; with Sieve installed they land and rest. The two
 *    times are not a race: stock's is the cost of finding nothing.
 * 2. The same drop with cannon's own shapes (spheres and boxes on a plane), which stock can answer:
 *    there Sieve gives stock's answer bit for bit (every position compared), and the times compare like
 *    with like (the two worlds stepped in alternating blocks, on one thread).
 *
 * `pnpm --filter @sieve/example-cannon-trimesh start [steps] [bodies]` (defaults 600 and 60).
 */
import { performance } from 'node:perf_hooks';
import { installSieve } from '@sieve/cannon';
import * as CANNON from 'cannon-es';
import { buildScene, type Landing, landingStats } from './src/scene.js';

const usage = 'usage: pnpm --filter @sieve/example-cannon-trimesh start [steps > 0] [bodies > 0]';
const steps = Number(process.argv[2] ?? 600);
const count = Number(process.argv[3] ?? 60);
if (!(Number.isInteger(steps) && steps > 0 && Number.isInteger(count) && count > 0)) {
  console.error(`${usage}; got ${process.argv.slice(2).join(' ')}`);
  process.exit(2);
}

const pad = (s: string, n: number) => s.padStart(n);

// 1. Trimesh bodies: what stock cannot answer.
console.log(
  `1. ${count} bodies (trimesh balls, trimesh boxes, boxes) dropped on a trimesh floor and ramp, ${steps} steps.\n` +
    '   cannon-es has no trimesh–trimesh or box–trimesh contact, so stock finds no contact for these bodies;\n' +
    "   Sieve adds those contacts. The times are not a race: stock's is the cost of finding nothing.\n",
);
console.log(
  `   ${'world'.padEnd(8)}${pad('ms/step', 9)}${pad('contacts/step', 15)}${pad('on floor', 10)}${pad('at rest', 9)}` +
    `${pad('fell through', 14)}${pad('off edge', 10)}  lowest centre y`,
);
const ends: Landing[] = [];
for (const sieve of [false, true]) {
  const scene = buildScene(sieve, count);
  let contacts = 0;
  const t = performance.now();
  for (let s = 0; s < steps; s++) {
    scene.world.step(1 / 60);
    contacts += scene.world.contacts.length;
  }
  const ms = (performance.now() - t) / steps;
  const end = landingStats(scene);
  ends.push(end);
  console.log(
    `   ${(sieve ? 'Sieve' : 'stock').padEnd(8)}${pad(ms.toFixed(2), 9)}${pad((contacts / steps).toFixed(1), 15)}` +
      `${pad(`${end.onFloor}/${end.total}`, 10)}${pad(String(end.atRest), 9)}${pad(String(end.fellThrough), 14)}` +
      `${pad(String(end.offEdge), 10)}  ${end.lowest.toFixed(2)}`,
  );
}
/** What a world's row says, in words. */
const verdict = (e: Landing) =>
  [
    e.onFloor > 0 && `${e.onFloor} on the floor (${e.atRest} at rest)`,
    e.fellThrough > 0 && `${e.fellThrough} fell through it`,
    e.offEdge > 0 && `${e.offEdge} slid or bounced off its edge`,
    e.inAir > 0 && `${e.inAir} still in the air`,
  ]
    .filter(Boolean)
    .join(', ');
console.log(`   After ${steps} steps — stock: ${verdict(ends[0])}; Sieve: ${verdict(ends[1])}.`);

// 2. cannon's own shapes: what stock answers, and Sieve answers the same.
/** The same drop with spheres and boxes on a plane; `sieve` installs Sieve with no options. */
function primitives(sieve: boolean): CANNON.World {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  world.allowSleep = true;
  if (sieve) installSieve(world);
  const floor = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  floor.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  world.addBody(floor);
  let a = 1;
  const r = () => {
    a = (a * 16807) % 2147483647;
    return a / 2147483647;
  };
  for (let i = 0; i < count; i++) {
    const shape = i % 2 === 0 ? new CANNON.Sphere(0.45) : new CANNON.Box(new CANNON.Vec3(0.4, 0.4, 0.4));
    const body = new CANNON.Body({
      mass: 1,
      shape,
      position: new CANNON.Vec3((r() - 0.5) * 8, 2 + i * 0.35, (r() - 0.5) * 6),
    });
    body.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
    world.addBody(body);
  }
  return world;
}

const worlds = [primitives(false), primitives(true)];
const time = [0, 0];
const contacts = [0, 0];
const BLOCK = 20;
for (let s = 0; s < steps; s += BLOCK) {
  for (let w = 0; w < 2; w++) {
    // Alternate which world goes first, so neither always runs on a warmer cache.
    const k = (s / BLOCK) % 2 === 0 ? w : 1 - w;
    const t = performance.now();
    for (let i = s; i < Math.min(steps, s + BLOCK); i++) {
      worlds[k].step(1 / 60);
      contacts[k] += worlds[k].contacts.length;
    }
    time[k] += performance.now() - t;
  }
}
let same = true;
for (let i = 0; i < worlds[0].bodies.length; i++) {
  const [p, q] = [worlds[0].bodies[i].position, worlds[1].bodies[i].position];
  if (!Object.is(p.x, q.x) || !Object.is(p.y, q.y) || !Object.is(p.z, q.z)) same = false;
}
console.log(
  `\n2. The same drop with cannon's own shapes (spheres and boxes on a plane), which stock answers:\n` +
    `   stock ${(time[0] / steps).toFixed(2)} ms/step, Sieve ${(time[1] / steps).toFixed(2)} ms/step ` +
    `(stock ÷ Sieve ${(time[0] / time[1]).toFixed(2)}×, one run),\n` +
    `   ${(contacts[0] / steps).toFixed(1)} and ${(contacts[1] / steps).toFixed(1)} contacts/step; ` +
    `every position after ${steps} steps ${same ? 'identical, bit for bit' : 'DIFFERS'}.`,
);
if (!same) process.exitCode = 1;
