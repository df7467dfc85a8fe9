/**
 * Node script: runs the demo scene stock vs Sieve and prints ms per step, contacts and resting heights.
 * `pnpm --filter @sieve/example-cannon-trimesh start [steps] [bodies]`.
 */
import { performance } from 'node:perf_hooks';
import { buildScene, restingStats } from './src/scene.js';

const steps = Number(process.argv[2] ?? 600);
const count = Number(process.argv[3] ?? 60);

for (const sieve of [false, true]) {
  const scene = buildScene(sieve, count);
  let contacts = 0;
  const t = performance.now();
  for (let s = 0; s < steps; s++) {
    scene.world.step(1 / 60);
    contacts += scene.world.contacts.length;
  }
  const ms = (performance.now() - t) / steps;
  const rest = restingStats(scene);
  console.log(
    `${sieve ? 'Sieve  ' : 'stock  '} ${ms.toFixed(2)} ms/step, ${(contacts / steps).toFixed(1)} contacts/step, ` +
      `${rest.above}/${rest.total} bodies above the floor after ${steps} steps (lowest centre y = ${rest.lowest.toFixed(2)})`,
  );
}
