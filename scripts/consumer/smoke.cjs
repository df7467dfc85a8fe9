// CommonJS smoke test of the four installed tarballs (`require` condition): each package loads and works.
const assert = require('node:assert/strict');
const { installSieve: installCannon, SieveBroadphase } = require('@sieve/cannon');
const { MeshBVH, RayHit, raycastFirst, SweepAndPrune } = require('@sieve/core');
const { installSieve: installMatter } = require('@sieve/matter');
const { FrameRecorder } = require('@sieve/overlay');
const { acceleratedRaycast, computeBoundsTree } = require('@sieve/three');
const CANNON = require('cannon-es');
const Matter = require('matter-js');
const THREE = require('three');

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
console.log(
  'CommonJS smoke test: @sieve/core, @sieve/cannon, @sieve/matter, @sieve/overlay, @sieve/three ok',
);
