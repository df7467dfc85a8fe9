/**
 * Heap-growth probe for the mesh queries, run in a child process of its own (`node --expose-gc
 * --import tsx heapProbe.ts [allocate]`): a "frame" moves a capsule and a sphere over a terrain and
 * makes one call of each query — capsule contacts, overlap, push-out and sweep, sphere and box contacts,
 * closest point, mesh–mesh any hit, and a first-hit raycast that misses (a hit allocates the result
 * objects three.js's raycast returns, by design). Warms up, then prints the heap growth of each window
 * of 500 frames (after a full GC) as JSON.
 */
import { Box3, Matrix4, Mesh, PlaneGeometry, Raycaster, Sphere, TorusKnotGeometry, Vector3 } from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { heapWindows } from '../../../../test/support/heapWindows.js';
import * as three from '../../src/index.js';

const control = process.argv[2] === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const level = new Mesh(new PlaneGeometry(20, 20, 32, 32).rotateX(-Math.PI / 2));
const p = level.geometry.attributes.position;
for (let i = 0; i < p.count; i++) p.setY(i, Math.sin(p.getX(i)) * Math.cos(p.getZ(i)));
three.computeBoundsTree.call(level.geometry);
const knot = new Mesh(new TorusKnotGeometry(1, 0.3, 64, 8));
three.computeBoundsTree.call(knot.geometry);
knot.matrixAutoUpdate = false;
knot.matrixWorld.makeTranslation(0, 1, 0);
level.raycast = three.acceleratedRaycast;
const capsule = new Capsule(new Vector3(), new Vector3(), 0.35);
const sphere = new Sphere(new Vector3(0, 0.3, 0), 0.5);
const box = new Box3(new Vector3(-0.3, -0.3, -0.3), new Vector3(0.3, 0.3, 0.3));
const boxMatrix = new Matrix4().makeTranslation(0, 0.1, 0);
const motion = new Vector3(0.3, -0.2, 0.1);
const contacts = new three.MeshContacts();
const cast = new three.CapsuleCastHit();
const push = { normal: new Vector3(), depth: 0 };
const nearest = { point: new Vector3(), distance: 0, faceIndex: 0 };
const point = new Vector3(0, 2, 0);
const raycaster = new Raycaster(new Vector3(0, 50, 0), new Vector3(0, 1, 0));
(raycaster as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = true;
const hits: unknown[] = [];
// A typed array: a module-level `let` holding a double would box it on every write.
const SUM = new Float64Array(1);
export let sink: Float64Array = new Float64Array(0);
// The frame's own bookkeeping stores fields directly: passing doubles to three.js's setters from here
// would allocate in the probe itself.
const XZ = new Float64Array(2);
const frame = (f: number) => {
  XZ[0] = ((f * 0.37) % 16) - 8;
  XZ[1] = ((f * 0.53) % 16) - 8;
  capsule.start.x = capsule.end.x = XZ[0];
  capsule.start.z = capsule.end.z = XZ[1];
  capsule.start.y = 0.2;
  capsule.end.y = 1.2;
  SUM[0] += three.capsuleContacts(level, capsule, contacts);
  SUM[0] += three.intersectsCapsule(level, capsule) ? 1 : 0;
  const r = three.capsuleIntersect(level, capsule, push);
  SUM[0] += r ? r.depth : 0;
  SUM[0] += three.capsuleCast(level, capsule, motion, cast) ? cast.fraction : 0;
  sphere.center.x = XZ[1];
  sphere.center.z = XZ[0];
  SUM[0] += three.sphereContacts(level, sphere, contacts);
  boxMatrix.elements[12] = XZ[0];
  boxMatrix.elements[14] = XZ[1];
  SUM[0] += three.boxContacts(level, box, boxMatrix, contacts);
  point.x = XZ[0];
  point.z = XZ[1];
  SUM[0] += three.closestPointToPoint(level, point, nearest)?.distance ?? 0;
  SUM[0] += three.meshesIntersect(level, knot) ? 1 : 0;
  hits.length = 0;
  raycaster.ray.origin.x = XZ[0]; // pointing up from above the level: a miss
  raycaster.ray.origin.z = XZ[1];
  raycaster.intersectObject(level, false, hits as never[]);
  SUM[0] += hits.length;
  if (control) sink = new Float64Array(64);
};
for (let f = 0; f < 3000; f++) frame(f);
const growth = heapWindows(frame, { frames: 500, windows: 8 });
console.log(JSON.stringify({ growth, checksum: SUM[0] }));
