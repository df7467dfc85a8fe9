// ESM smoke test of the four installed tarballs (`import` condition): each package loads and works.
import assert from 'node:assert/strict';
import { installSieve as installCannon, SieveBroadphase } from '@sieve/cannon';
import { MeshBVH, RayHit, raycastFirst, SweepAndPrune } from '@sieve/core';
import { ParallelSweepAndPrune } from '@sieve/core/parallel';
import { installSieve as installMatter } from '@sieve/matter';
import { FrameRecorder } from '@sieve/overlay';
import { acceleratedRaycast, computeBoundsTree } from '@sieve/three';
import * as CANNON from 'cannon-es';
import Matter from 'matter-js';
import * as THREE from 'three';

const bp = new SweepAndPrune({ dimensions: 3 });
const a = bp.insert([0, 0, 0, 1, 1, 1]);
const b = bp.insert([1, 0, 0, 2, 1, 1]);
bp.update();
assert.deepEqual([...bp.pairs()], [a, b]);
const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
const copy = MeshBVH.deserialize(new MeshBVH(positions).serialize(), positions);
const hit = new RayHit();
assert.equal(raycastFirst(copy, null, [0.2, 0.2, 1], [0, 0, -1], hit), true);

const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -10, 0) });
installCannon(world);
assert.ok(world.broadphase instanceof SieveBroadphase);
const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(5, 0.5, 5)) });
const ball = new CANNON.Body({
  mass: 1,
  shape: new CANNON.Sphere(0.5),
  position: new CANNON.Vec3(0, 1.2, 0),
});
world.addBody(ground);
world.addBody(ball);
for (let i = 0; i < 120; i++) world.step(1 / 60);
assert.ok(Math.abs(ball.position.y - 1) < 0.1, `ball rests on the box (y = ${ball.position.y})`);

const engine = Matter.Engine.create();
const sieve = installMatter(engine);
const floor = Matter.Bodies.rectangle(0, 100, 400, 20, { isStatic: true });
const box = Matter.Bodies.rectangle(0, 80, 20, 20);
Matter.Composite.add(engine.world, [floor, box]);
Matter.Engine.update(engine, 1000 / 60);
assert.ok(sieve.stats.collisions >= 1, 'matter: the box touches the floor');

const rec = new FrameRecorder({ phases: ['step'], now: () => 0 });
rec.record('step', 2);
rec.endFrame();
assert.equal(rec.phaseStats('step').last, 2);
const knot = new THREE.Mesh(new THREE.TorusKnotGeometry(1, 0.3, 64, 8), new THREE.MeshBasicMaterial());
computeBoundsTree.call(knot.geometry);
const caster = new THREE.Raycaster(new THREE.Vector3(1.5, 0, 5), new THREE.Vector3(0, 0, -1));
const stockHits = caster.intersectObject(knot).map((h) => h.distance);
knot.raycast = acceleratedRaycast;
assert.ok(stockHits.length > 0);
assert.deepEqual(
  caster.intersectObject(knot).map((h) => h.distance),
  stockHits,
);
// The shipped builds shorten their private names (scripts/mangle.ts): they must still step as the
// sources do. A mixed cannon-es world and a matter-js level of static tiles, stock and with Sieve, bit
// for bit; the sweep and prune against every pair tested directly, through small moves (its slides and
// passes), teleports (its rebuild), removals and inserts.
/** A seeded generator of numbers in [0, 1) (a linear congruential one: the same on every machine). */
const rng = (seed) => () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
function cannonRun(options) {
  const random = rng(7);
  CANNON.Body.idCounter = 0;
  const w = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  if (options) installCannon(w, options);
  const floor = new CANNON.Body({ mass: 0, shape: new CANNON.Plane() });
  floor.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
  w.addBody(floor);
  for (let i = 0; i < 40; i++) {
    const k = i % 4;
    const shape =
      k === 0
        ? new CANNON.Sphere(0.3 + 0.2 * random())
        : k === 1
          ? new CANNON.Box(new CANNON.Vec3(0.2 + 0.3 * random(), 0.3, 0.2 + 0.2 * random()))
          : k === 2
            ? new CANNON.Cylinder(0.3, 0.3, 0.6, 7)
            : new CANNON.Particle();
    const body = new CANNON.Body({ mass: 1, shape });
    body.position.set(4 * random() - 2, 0.5 + 6 * random(), 4 * random() - 2);
    body.quaternion.setFromEuler(3 * random(), 3 * random(), 3 * random());
    w.addBody(body);
  }
  const out = [];
  for (let step = 0; step < 150; step++) {
    w.step(1 / 60);
    for (const body of w.bodies) out.push(body.position.x, body.position.y, body.quaternion.w);
  }
  return out;
}
const stockCannon = cannonRun(null);
assert.deepEqual(
  cannonRun({}),
  stockCannon,
  'cannon-es: Sieve (default) steps the mixed world as stock does',
);
assert.deepEqual(
  cannonRun({ broadphase: { naiveBelow: 0 } }),
  stockCannon,
  'cannon-es: Sieve (its sweep from 0 bodies) as stock',
);
assert.deepEqual(
  cannonRun({ broadphase: { sieve: new SweepAndPrune({ dimensions: 3 }), naiveBelow: 0 } }),
  stockCannon,
  'cannon-es: Sieve (on a passed SweepAndPrune) as stock',
);

function matterRun(options) {
  const random = rng(11);
  const e = Matter.Engine.create();
  if (options) installMatter(e, options);
  const bodies = [];
  for (let x = 0; x < 60; x++) bodies.push(Matter.Bodies.rectangle(x * 16, 400, 16, 16, { isStatic: true }));
  for (let i = 0; i < 120; i++)
    bodies.push(
      i % 2 === 0
        ? Matter.Bodies.circle(960 * random(), 300 * random(), 4 + 8 * random())
        : Matter.Bodies.polygon(960 * random(), 300 * random(), 3 + (i % 5), 6 + 6 * random()),
    );
  Matter.Composite.add(e.world, bodies);
  const out = [];
  for (let step = 0; step < 150; step++) {
    Matter.Engine.update(e, 1000 / 60);
    for (const body of bodies) out.push(body.position.x, body.position.y, body.angle);
  }
  return out;
}
const stockMatter = matterRun(null);
assert.deepEqual(matterRun({}), stockMatter, 'matter-js: Sieve (default) steps the level as stock does');
assert.deepEqual(
  matterRun({ broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 }),
  stockMatter,
  'matter-js: Sieve (broadphase path) as stock',
);

{
  const random = rng(3);
  const sap = new SweepAndPrune({ dimensions: 3 });
  // The shipped parallel build (its worker file included) on 2 worker threads, given the same calls.
  const parallel = new ParallelSweepAndPrune({ dimensions: 3, workers: 2, minBoxesPerRegion: 32 });
  const twin = new Map(); // SweepAndPrune's handle → the parallel one's
  const back = new Map(); // and back
  const boxes = new Map(); // SweepAndPrune's handle → its latest box
  const insert = (box) => {
    const h = sap.insert(box);
    const t = parallel.insert(box);
    twin.set(h, t);
    back.set(t, h);
    boxes.set(h, box);
  };
  // A frame's pairs as sorted keys of SweepAndPrune's handles (`handleOf` maps the parallel one's back).
  const keys = (pairs, handleOf = (h) => h) => {
    const out = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const a = handleOf(pairs[i]);
      const b = handleOf(pairs[i + 1]);
      out.push(`${Math.min(a, b)},${Math.max(a, b)}`);
    }
    return out.sort();
  };
  const fromParallel = (t) => back.get(t);
  const place = () => {
    const x = 30 * random();
    const y = 30 * random();
    const z = 30 * random();
    const h = 0.2 + 2 * random();
    return [x, y, z, x + h, y + 1.5 * h * random(), z + h];
  };
  for (let i = 0; i < 400; i++) insert(place());
  for (let frame = 0; frame < 40; frame++) {
    const teleport = frame % 10 === 9;
    const share = frame % 3 === 0 ? 0.05 : 1;
    for (const [h, box] of boxes) {
      if (random() >= share) continue;
      const moved = teleport ? place() : box;
      if (!teleport) {
        const dx = 0.3 * random() - 0.15;
        const dy = 0.3 * random() - 0.15;
        for (let k = 0; k < 6; k++) moved[k] += k % 3 === 0 ? dx : k % 3 === 1 ? dy : 0;
      }
      boxes.set(h, moved);
      sap.move(h, moved);
      parallel.move(twin.get(h), moved);
    }
    if (frame % 4 === 1) {
      const [h] = boxes.keys();
      boxes.delete(h);
      sap.remove(h);
      parallel.remove(twin.get(h));
      back.delete(twin.get(h));
      twin.delete(h);
      insert(place());
    }
    sap.update();
    parallel.update();
    const found = keys(sap.pairs());
    const expected = [];
    const list = [...boxes];
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const [ha, a] = list[i];
        const [hb, b] = list[j];
        if (a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5])
          expected.push(`${Math.min(ha, hb)},${Math.max(ha, hb)}`);
      }
    assert.deepEqual(found, expected.sort(), `SweepAndPrune: the pairs of frame ${frame}`);
    assert.deepEqual(keys(parallel.pairs(), fromParallel), found, `ParallelSweepAndPrune: frame ${frame}`);
    assert.deepEqual(
      keys(parallel.began(), fromParallel),
      keys(sap.began()),
      `ParallelSweepAndPrune: began, frame ${frame}`,
    );
  }
  assert.ok(parallel.regionCount > 1, 'ParallelSweepAndPrune: the boxes were cut into regions');
  parallel.dispose();
}
console.log('ESM smoke test: @sieve/core, @sieve/cannon, @sieve/matter, @sieve/overlay, @sieve/three ok');
