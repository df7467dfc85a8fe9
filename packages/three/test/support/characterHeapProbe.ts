/**
 * Heap-growth probe for `CharacterController.move`, run in a child process of its own (`node
 * --expose-gc --import tsx characterHeapProbe.ts [allocate]`): a player walks, jumps, climbs steps and
 * slopes, rides a moving platform and runs into walls of the test arena, one move a frame at varied
 * frame times. Warms up, then prints the heap growth of each window of 500 frames (after a full GC) and a
 * checksum of the positions as JSON. `allocate`: the frame also allocates a Float64Array(64) (the
 * control the measurement must see).
 */
import { BoxGeometry, Vector3 } from 'three';
import { heapWindows } from '../../../../test/support/heapWindows.js';
import { CharacterController } from '../../src/index.js';
import { arena, meshOf, playerCapsule } from './characterScenes.js';

const control = process.argv[2] === 'allocate';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const meshes = arena(3);
const platform = meshOf(new BoxGeometry(2, 0.2, 2).translate(0, -0.1, 0));
platform.matrixAutoUpdate = false;
meshes.push(platform);
const capsule = playerCapsule(0, 0, 0.01);
const character = new CharacterController(capsule, meshes, { maxStepHeight: 0.3 });
const velocity = new Vector3();
const displacement = new Vector3();
const SUM = new Float64Array(1);
export let sink: Float64Array = new Float64Array(0);
const DTS = [1 / 5, 1 / 30, 1 / 60, 1 / 144];
/** Scenarios: start x, z, walking velocity x, z (m/s). */
const SCENES = [
  [0, 0, 0, 0], // on the platform, which rises, falls and turns
  [-4.5, 4, -4, 0], // up the stairs
  [0.5, -8.5, 4, 0], // up the 30° ramp
  [-3, -8.5, 4, 0.5], // into the 60° ramp
  [-2.5, -2, -5, 0], // through the narrow corridor
  [0, 0, 200, 70], // far too fast, into the walls
];
// Doubles live in typed arrays: a module-level `let` holding a double would box it on every write.
const F = new Float64Array(2);

function frame(f: number): void {
  const dt = DTS[f & 3];
  const scene = SCENES[Math.floor(f / 300) % SCENES.length];
  if (f % 300 === 0) {
    capsule.start.x = capsule.end.x = scene[0];
    capsule.start.z = capsule.end.z = scene[1];
    capsule.start.y = 0.4;
    capsule.end.y = 1.05;
    velocity.x = velocity.y = velocity.z = 0;
    character.reset();
  }
  // The platform: up and down between 0.05 and 0.85, turning about y.
  F[0] = 0.02 * f;
  F[1] = 0.3 * F[0];
  const e = platform.matrixWorld.elements;
  e[0] = Math.cos(F[1]);
  e[2] = -Math.sin(F[1]);
  e[8] = Math.sin(F[1]);
  e[10] = Math.cos(F[1]);
  e[13] = 0.45 + 0.4 * Math.sin(F[0]);
  velocity.x = scene[2];
  velocity.z = scene[3];
  if (character.grounded) velocity.y = f % 97 === 0 ? 8 : -1;
  else velocity.y -= 30 * dt;
  displacement.x = velocity.x * dt;
  displacement.y = velocity.y * dt;
  displacement.z = velocity.z * dt;
  const result = character.move(displacement);
  result.clipVelocity(velocity);
  SUM[0] += capsule.start.x + capsule.start.y + capsule.start.z;
  if (control) sink = new Float64Array(64);
}

for (let f = 0; f < 6000; f++) frame(f);
let at = 6000;
const growth = heapWindows(() => frame(at++), { frames: 500, windows: 12 });
console.log(JSON.stringify({ growth, checksum: SUM[0] }));
