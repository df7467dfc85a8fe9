/**
 * Heap-growth probe for the convex option, run in a child process of its own (`TSX_TSCONFIG_PATH=
 * <this folder>/convexHeapProbe.tsconfig.json node --expose-gc --import tsx convexHeapProbe.ts
 * [quiet|baseline|allocate]`), so no test-runner traffic shares the heap. A settled hull pile with boxes, cylinders,
 * spheres and a heightfield: the world's narrowphase (`getContacts`) runs over the same broadphase
 * pairs round after round — hull–hull touching and apart, sphere–hull, hull–heightfield. cannon's
 * equation factories are replaced by ones that hand out pre-made equations (what cannon's own
 * `createContactEquation` allocates — the boxed numbers its setters store — is cannon's, with or
 * without Sieve), so what is measured is the contact generation. Prints the heap growth of each window
 * (after a full GC), and the contacts made, as JSON.
 */
import * as CANNON from 'cannon-es';
import { heapWindows } from '../../../test/support/heapWindows.js';
import { convexContacts } from '../src/convex/index.js';
import { installSieve } from '../src/index.js';
import { hullPile, randomHull, rng } from './convexScenes.js';

// 'quiet' (the option's handlers), 'baseline' (handlers that do nothing: what cannon's own
// `getContacts` allocates around them) or 'allocate' (the option's, plus a small array a call).
const mode = process.argv[2] ?? 'quiet';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const world = hullPile(60, 11);
const r = rng(12);
for (let k = 0; k < 12; k++) {
  const shape =
    k % 3 === 0
      ? new CANNON.Sphere(0.25)
      : k % 3 === 1
        ? new CANNON.Box(new CANNON.Vec3(0.3, 0.2, 0.25))
        : new CANNON.Cylinder(0.2, 0.25, 0.4, 8);
  const body = new CANNON.Body({ mass: 1, shape });
  body.position.set(-3 + r(), 2 + k * 0.6, -3 + r());
  world.addBody(body);
}
// A heightfield patch with hulls dropped on it.
const data: number[][] = [];
for (let i = 0; i < 10; i++) data.push(Array.from({ length: 10 }, (_, j) => 0.2 * Math.sin(i + j)));
const hf = new CANNON.Body({ mass: 0, shape: new CANNON.Heightfield(data, { elementSize: 0.5 }) });
hf.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
hf.position.set(5, 0.5, 5);
world.addBody(hf);
for (let k = 0; k < 8; k++) {
  const body = new CANNON.Body({ mass: 1, shape: randomHull(r, 14, 0.3, 0.25, 0.3) });
  body.position.set(6 + (k % 4) * 0.8, 1.5, 3 + Math.floor(k / 4) * 0.8);
  world.addBody(body);
}
installSieve(world, { narrowphase: { convex: convexContacts } });
for (let s = 0; s < 240; s++) world.step(1 / 60);

// The step's narrowphase input, replayed.
const p1: CANNON.Body[] = [];
const p2: CANNON.Body[] = [];
world.broadphase.collisionPairs(world, p1, p2);
const np = world.narrowphase;
type Call = (...a: unknown[]) => unknown;
const table = np as unknown as Record<number, Call>;
let calls = 0;
export let sink: unknown[] = [];
for (const key of Object.getOwnPropertyNames(np)
  .map(Number)
  .filter((k) => Number.isInteger(k))) {
  const handler = table[key];
  if (mode === 'baseline') table[key] = () => false;
  if (mode === 'allocate') {
    table[key] = function (this: unknown, ...a: unknown[]) {
      sink = [calls++];
      return handler.apply(this, a);
    };
  }
}
// Equations whose vectors hold doubles from the start (cannon's own Vec3 fields may box every store;
// its own handlers store the same numbers, so that cost is cannon's).
const vec = () => ({ x: 0.5, y: 0.5, z: 0.5 });
const made = Array.from({ length: 8 }, () => ({ ni: vec(), ri: vec(), rj: vec() }));
let next = 0;
np.createContactEquation = () => made[next++ & 7] as unknown as CANNON.ContactEquation;
// Friction pairs likewise, so what the handlers do to them (a face patch's anchored pairs) is measured.
const rows = Array.from({ length: 8 }, () => ({
  ri: vec(),
  rj: vec(),
  t: vec(),
  maxForce: 0.5,
  minForce: -0.5,
}));
let nextRow = 0;
// A result list that counts (an array emptied each round would reallocate its store: cannon's).
const result = { length: 0, push: (_c: unknown) => result.length++ };
// The friction list is read back by index: slots filled once, a length that counts.
const friction = { length: 0 } as unknown as Record<number, unknown> & { length: number };
for (let k = 0; k < 1 << 14; k++) friction[k] = rows[k & 7];
np.createFrictionEquationsFromContact = (_c, out) => {
  const list = out as unknown as typeof friction;
  list[list.length++] = rows[nextRow++ & 7];
  list[list.length++] = rows[nextRow++ & 7];
  return true;
};
let contacts = 0;
const none: never[] = [];
const round = () => {
  np.getContacts(
    p1,
    p2,
    world,
    result as unknown as CANNON.ContactEquation[],
    none,
    friction as unknown as CANNON.FrictionEquation[],
    none,
  );
  contacts += result.length;
  result.length = 0;
  friction.length = 0;
};
for (let k = 0; k < 300; k++) round();
contacts = 0;
const growth = heapWindows(round, { frames: 200, windows: 10 });
console.log(JSON.stringify({ growth, contacts, pairs: p1.length }));
