/**
 * Heap-growth probe for the exact hull path, run in a child process of its own
 * (`node --expose-gc --import tsx hullHeapProbe.ts [allocate|stock]`), so no test-runner traffic shares
 * the heap. Calls the exact `convexConvex` and `sphereConvex` (or cannon's own, `stock`) on a world's
 * narrowphase for a fixed set of hull, box, cylinder and sphere pairs, touching and apart. cannon's
 * equation factories are replaced by ones that hand out the same two equations (what cannon's own
 * `createContactEquation` allocates, the boxed numbers its equation setters store, is cannon's, and
 * the same with or without Sieve), so what is measured is the contact generation alone. Prints the
 * heap growth of each 250-round window (after a full GC), and the contacts made per window, as JSON.
 * Ours runs windows until a quiet one (see below), cannon's one, the control four.
 */
import * as CANNON from 'cannon-es';
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { convexConvexExact } from '../../src/hull/convexContacts.js';
import { sphereConvexExact } from '../../src/hull/sphereContacts.js';
import { randomHull } from '../hulls.js';
import { rng } from '../worlds.js';

const allocate = process.argv[2] === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const world = new CANNON.World();
world.dt = 1 / 60;
type Call = (...a: unknown[]) => unknown;
const np = world.narrowphase as unknown as {
  [name: string]: Call | unknown;
  convexConvex: Call;
  sphereConvex: Call;
  createContactEquation: Call;
  createFrictionEquationsFromContact: Call;
  currentContactMaterial: CANNON.ContactMaterial;
  result: unknown[];
};
// As installNarrowphase puts them (the package entry is not imported: only this path is measured).
if (process.argv[2] !== 'stock') {
  np.convexConvex = convexConvexExact as unknown as Call;
  np.sphereConvex = sphereConvexExact as unknown as Call;
}
np.currentContactMaterial = world.defaultContactMaterial;
const r = rng(3);
const shapes: CANNON.ConvexPolyhedron[] = [
  randomHull(r, 18, 0.5, 0.4, 0.5),
  randomHull(r, 24, 0.5, 0.35, 0.45),
  new CANNON.Box(new CANNON.Vec3(0.4, 0.3, 0.5)).convexPolyhedronRepresentation,
  new CANNON.Cylinder(0.3, 0.4, 0.7, 10),
];
const bi = new CANNON.Body({ mass: 1 });
const bj = new CANNON.Body({ mass: 1 });
const sphere = new CANNON.Sphere(0.3);
const poses: [CANNON.Vec3, CANNON.Quaternion, CANNON.Vec3, CANNON.Quaternion][] = [];
for (let k = 0; k < 24; k++) {
  const qa = new CANNON.Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
  const qb = new CANNON.Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
  const d = 0.5 + r() * 0.6;
  poses.push([new CANNON.Vec3(0, 0, 0), qa, new CANNON.Vec3(d * (r() - 0.5), d, d * (r() - 0.5)), qb]);
}
const equation = new CANNON.ContactEquation(bi, bj);
np.createContactEquation = () => equation;
np.createFrictionEquationsFromContact = () => false;
let contacts = 0;
export let sink: number[] = [];
const round = () => {
  for (let a = 0; a < shapes.length; a++) {
    for (let b = 0; b < shapes.length; b++) {
      const [xa, qa, xb, qb] = poses[(a * 4 + b) % poses.length];
      np.convexConvex(shapes[a], shapes[b], xa, xb, qa, qb, bi, bj, shapes[a], shapes[b], false);
      np.sphereConvex(sphere, shapes[b], xb, xa, qb, qa, bi, bj, sphere, shapes[b], false);
      // The control: one small array for every two pair calls (4 000 a window).
      if (allocate) sink = [contacts];
    }
  }
  contacts += np.result.length;
  // Emptied by popping, not `length = 0` (cannon's world's way): V8 frees the backing store of an
  // array cut to length 0, and the next round's pushes would allocate it again (about 520 B a round,
  // the array's, the same with stock's code and ours).
  const result = np.result;
  while (result.length > 0) result.pop();
};
// Warm-up: ours until V8 has optimized every path it takes (what is measured is the settled code);
// cannon's own allocates on every call however warm it is, and its SAT makes a round a hundred times
// slower, so it is warmed for fewer rounds and measured over one window (every round is the same
// calls, so every window makes the same contacts).
const stock = process.argv[2] === 'stock';
const warm = stock ? 20 : 800;
// The runtime's own traffic fills the first windows after the warm-up (~200 kB each here; see
// heapWindows), so ours runs up to 12 windows and stops at the first quiet one (under 8 kB; a boxed
// number a call would be 128 kB). The control runs 4, each of which must show its arrays.
const windows = stock ? 1 : allocate ? 4 : 12;
for (let f = 0; f < warm; f++) round();
contacts = 0;
const growth = heapWindows(round, {
  frames: 250,
  windows,
  quietBelow: stock || allocate ? undefined : 8_000,
});
console.log(JSON.stringify({ growth, contacts: contacts / growth.length }));
