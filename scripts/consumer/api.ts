/**
 * Type-checked (not run) by scripts/consumer-check.mjs against the packed tarballs, with every
 * TypeScript version it tests, in `nodenext` and `bundler` resolution, `skipLibCheck: false`: one use of
 * the public API of each package, and the engine types a user passes in.
 */

import { installSieve as installCannon, SieveBroadphase, setBullet, uninstallSieve } from '@sieve/cannon';
import {
  createObb,
  growArray,
  MeshBVH,
  meshMeshIntersects,
  Octree,
  ocsiOverlap,
  RayHit,
  raycastFirst,
  SweepAndPrune,
  sphereObbOverlap,
} from '@sieve/core';
import { installSieve as installMatter, type SieveDetector, type SieveStats } from '@sieve/matter';
import { FrameRecorder, formatMs, type OverlayExport, type SeriesStats } from '@sieve/overlay';
import * as CANNON from 'cannon-es';
import Matter from 'matter-js';

// core: broadphase contract
const bp = new SweepAndPrune({ dimensions: 3 });
const a: number = bp.insert([0, 0, 0, 1, 1, 1]);
bp.insert([1, 0, 0, 2, 1, 1]);
bp.update();
const pairs: Int32Array = bp.pairs();
const octree = new Octree({ dimensions: 2 });
octree.insert(new Float64Array([0, 0, 1, 1]));
bp.remove(a);

// core: BVH, ray cast, serialize / deserialize, narrowphase
const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
const bvh = new MeshBVH(positions, null, { strategy: 'sah' });
const hit = new RayHit();
const didHit: boolean = raycastFirst(bvh, null, [0.2, 0.2, 1], [0, 0, -1], hit);
const data: ArrayBuffer = bvh.serialize();
const copy: MeshBVH = MeshBVH.deserialize(data, positions);
const touching: boolean = meshMeshIntersects(bvh, null, copy, null);
const overlap: boolean = ocsiOverlap([0.5, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1], 0.25);
const obb: Float64Array = createObb();
const sphere: boolean = sphereObbOverlap(obb, [0, 0, 0], 1);
const grown: Float64Array = growArray(new Float64Array(4), 16);

// cannon-es
const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
installCannon(world);
const ball = new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5) });
world.addBody(ball);
setBullet(ball, true);
world.step(1 / 60);
uninstallSieve(world);
world.broadphase = new SieveBroadphase();

// matter-js (types from @types/matter-js)
const engine = Matter.Engine.create();
const detector: SieveDetector = installMatter(engine, { matter: Matter });
Matter.Engine.update(engine, 1000 / 60);
const stats: SieveStats = detector.stats;
detector.mode = 'stock';

// overlay (DOM-free part; the Overlay class needs lib "DOM", which this project has)
const rec = new FrameRecorder({ phases: ['physics'], counters: ['bodies'] });
rec.begin('physics');
rec.end();
rec.count('bodies', world.bodies.length);
rec.endFrame();
const s: SeriesStats = rec.phaseStats('physics');
const exported: OverlayExport = rec.toJSON();

export const results = [
  pairs,
  didHit,
  touching,
  overlap,
  sphere,
  grown,
  stats.broadphaseMs,
  formatMs(s.median),
  exported.version,
];
