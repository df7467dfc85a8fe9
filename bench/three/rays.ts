/**
 * `pnpm --filter @sieve/bench three:rays`: only the ray rows of `bench:three` — @sieve/three's
 * `acceleratedRaycast` against three-mesh-bvh 0.9.17's on the same meshes and rays (torus knots of
 * ~10 k, 50 k, 200 k triangles, picking rays on an 80 k terrain; `FrontSide` and `DoubleSide`; first
 * hit and all hits), for A/B work on the ray walks without the rest of the benchmark.
 *
 * With `BASE=<path to another build's index>[,<another>…]` (for example a copy of
 * `packages/three/src/index.ts` taken before a change) those builds run as further contenders in the
 * same interleaved samples, so a change is measured as ratios against the same peer in one process.
 * Medians of interleaved samples in process CPU time (`timing.ts`, as `run.ts`); prints each row's
 * ratios and their geometric means. `REPS` (default 15), `RAYS` (4000) and `ONLY` (a scene name's
 * part) narrow a run. Writes nothing.
 */
import * as sieveThree from '@sieve/three';
import {
  DoubleSide,
  FrontSide,
  type Intersection,
  Mesh,
  MeshBasicMaterial,
  type Raycaster,
  type Side,
} from 'three';
import { computeBoundsTree as tmbComputeBoundsTree, acceleratedRaycast as tmbRaycast } from 'three-mesh-bvh';
import { rng } from '../lib/stats.js';
import { knotGeometry, knotRays, pickRays, terrainGeometry } from './scenes.js';
import { compareCpu } from './timing.js';

type RaycastApi = Pick<typeof sieveThree, 'acceleratedRaycast' | 'computeBoundsTree'>;

const REPS = Number(process.env.REPS ?? 15);
const RAYS = Number(process.env.RAYS ?? 4000);
const ONLY = process.env.ONLY ?? '';

const contenders: Array<{ name: string; api: RaycastApi }> = [{ name: 'ours', api: sieveThree }];
for (const [k, path] of (process.env.BASE ?? '').split(',').filter(Boolean).entries()) {
  contenders.push({ name: k === 0 ? 'base' : `base${k + 1}`, api: (await import(path)) as RaycastApi });
}

const scenes = [
  { name: 'knot 10k', geometry: knotGeometry(250, 20), rays: knotRays(rng(7), RAYS) },
  { name: 'knot 50k', geometry: knotGeometry(500, 50), rays: knotRays(rng(7), RAYS) },
  { name: 'knot 200k', geometry: knotGeometry(1000, 100), rays: knotRays(rng(7), RAYS) },
  { name: 'terrain 80k', geometry: terrainGeometry(200), rays: pickRays(rng(9), RAYS) },
].filter((s) => ONLY === '' || s.name.includes(ONLY));

const logs: Record<string, number[]> = {};
const out: Intersection[] = [];
const cast = (mesh: Mesh, rays: Raycaster[]) => () => {
  for (const rc of rays) {
    out.length = 0;
    rc.intersectObject(mesh, false, out);
  }
};
for (const scene of scenes) {
  const tmbGeometry = scene.geometry.clone();
  tmbComputeBoundsTree.call(tmbGeometry);
  const geometries = contenders.map((c) => {
    const g = scene.geometry.clone();
    c.api.computeBoundsTree.call(g);
    return g;
  });
  for (const [sideName, side] of [
    ['FrontSide', FrontSide],
    ['DoubleSide', DoubleSide],
  ] as Array<[string, Side]>) {
    const tmb = new Mesh(tmbGeometry, new MeshBasicMaterial({ side }));
    tmb.raycast = tmbRaycast;
    const meshes = contenders.map((c, k) => {
      const m = new Mesh(geometries[k], new MeshBasicMaterial({ side }));
      m.raycast = c.api.acceleratedRaycast;
      return m;
    });
    for (const firstHitOnly of [true, false]) {
      for (const rc of scene.rays) (rc as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = firstHitOnly;
      const times = compareCpu([cast(tmb, scene.rays), ...meshes.map((m) => cast(m, scene.rays))], REPS);
      const kind = firstHitOnly ? 'first' : 'all';
      const parts = contenders.map((c, k) => {
        const r = times[0] / times[k + 1];
        const key = `${c.name} ${kind}`;
        if (!logs[key]) logs[key] = [];
        logs[key].push(Math.log(r));
        return `${c.name} ${r.toFixed(2)}×`;
      });
      for (let k = 1; k < contenders.length; k++) {
        const key = `ours / ${contenders[k].name} ${kind}`;
        if (!logs[key]) logs[key] = [];
        logs[key].push(Math.log(times[k + 1] / times[1]));
      }
      const perRay = (ms: number) => ((ms / scene.rays.length) * 1e6).toFixed(0);
      console.log(
        `${scene.name.padEnd(12)} ${sideName.padEnd(10)} ${kind.padEnd(5)} tmb ${perRay(times[0])} ns/ray | ` +
          contenders.map((c, k) => `${c.name} ${perRay(times[k + 1])}`).join(' ') +
          ` | ${parts.join(', ')}`,
      );
    }
  }
}
for (const [key, l] of Object.entries(logs)) {
  const g = Math.exp(l.reduce((a, b) => a + b, 0) / l.length);
  console.log(`geometric mean ${key}: ${g.toFixed(2)}×`);
}
