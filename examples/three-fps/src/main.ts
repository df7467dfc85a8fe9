/**
 * The page: draws the game with three.js, runs one game step per frame at the frame's own duration
 * (capped at 1/5 s — no substeps), shows what the collision work costs, and exposes `window.__fps`, a
 * test hook that steps the game at a given frame time without real time (`?test=1` stops the real-time
 * stepping so a test drives it alone). `?res=R` draws at R canvas pixels per CSS pixel.
 */

import { intersectsSphere } from '@sieve/three';
import {
  Color,
  DirectionalLight,
  Fog,
  HemisphereLight,
  IcosahedronGeometry,
  InstancedMesh,
  Matrix4,
  MeshLambertMaterial,
  PerspectiveCamera,
  Scene,
  Sphere,
  WebGLRenderer,
} from 'three';
import { Game, type PlayerInput, SPHERE_COUNT, SPHERE_RADIUS } from './game.js';
import { Input } from './input.js';
import { stepChecked, type WalkReport } from './walks.js';

/** The test hook on `window.__fps`. */
export interface FpsHook {
  /** Frames drawn so far. */
  frames: number;
  /** Game steps run so far. */
  steps: number;
  /** Whether the page steps the game in real time (false with `?test=1`). */
  realTime: boolean;
  /** The renderer three.js chose, for the test's log. */
  renderer: string;
  /** Steps `n` times at `dt` seconds with `input` held; counts the steps ending inside or outside. */
  step(dt: number, n: number, input: PlayerInput): WalkReport;
  /** Puts the player's feet at `(x, y, z)`, looking along `yaw`, at rest. */
  teleport(x: number, y: number, z: number, yaw: number): void;
  /** Sets the look direction. */
  look(yaw: number, pitch: number): void;
  /** Throws a sphere (strength in [0, 1]). */
  throwBall(strength: number): void;
  /** Active spheres, and how many of them are inside the level (deeper than a micrometre). */
  balls(): { active: number; inside: number; outOfYard: number };
  /** Draws one frame now. */
  render(): void;
}

declare global {
  interface Window {
    __fps?: FpsHook;
  }
}

const params = new URLSearchParams(location.search);
const realTime = !params.has('test');
const game = new Game();

const renderer = new WebGLRenderer({ antialias: true });
// Default: the screen's pixel density, at most 2.
renderer.setPixelRatio(Number(params.get('res')) || Math.min(window.devicePixelRatio, 2));
renderer.setSize(window.innerWidth, window.innerHeight);
document.getElementById('view')!.appendChild(renderer.domElement);

const scene = new Scene();
scene.background = new Color(0x88ccee);
scene.fog = new Fog(0x88ccee, 0, 70);
scene.add(new HemisphereLight(0xe8f4ff, 0x6a705a, 2.6));
const sun = new DirectionalLight(0xfff4e0, 2.4);
sun.position.set(-5, 25, -1);
scene.add(sun);

game.level.material = new MeshLambertMaterial({ vertexColors: true });
game.elevator.material = new MeshLambertMaterial({ color: 0xe0a040 });
scene.add(game.level, game.elevator);

const balls = new InstancedMesh(
  new IcosahedronGeometry(SPHERE_RADIUS, 3),
  new MeshLambertMaterial({ color: 0xdede8d }),
  SPHERE_COUNT,
);
balls.frustumCulled = false;
scene.add(balls);
const hidden = new Matrix4().makeScale(0, 0, 0);
const placed = new Matrix4();

const camera = new PerspectiveCamera(70, window.innerWidth / window.innerHeight, 0.05, 200);
camera.rotation.order = 'YXZ';

window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
});

const blocker = document.getElementById('blocker')!;
const input = new Input(game, document.body, (locked) => {
  blocker.style.display = locked ? 'none' : '';
});

const stats = document.getElementById('stats')!;
let frames = 0;
let last = performance.now();
let shownAt = 0;
let collisionSum = 0;
let frameSum = 0;
let counted = 0;

/** Moves the drawn things to the game's state. */
function sync(): void {
  camera.position.copy(game.player.end);
  camera.rotation.set(game.pitch, game.yaw, 0);
  for (let i = 0; i < game.balls.length; i++) {
    const b = game.balls[i];
    balls.setMatrixAt(i, b.active ? placed.makeTranslation(b.center.x, b.center.y, b.center.z) : hidden);
  }
  balls.instanceMatrix.needsUpdate = true;
}

function frame(now: number): void {
  const dt = Math.min(0.2, (now - last) / 1000);
  last = now;
  if (realTime && dt > 0) {
    input.apply();
    game.step(dt);
    collisionSum += game.collisionMs;
    frameSum += dt;
    counted++;
  }
  sync();
  renderer.render(scene, camera);
  frames++;
  if (now - shownAt > 250) {
    shownAt = now;
    const p = game.player.start;
    const ms = counted > 0 ? collisionSum / counted : game.collisionMs;
    const fps = counted > 0 && frameSum > 0 ? counted / frameSum : 0;
    stats.textContent =
      `${fps.toFixed(0)} fps · collision ${ms.toFixed(2)} ms/frame · spheres ${game.activeBalls}` +
      ` · ${game.character.grounded ? 'on ground' : 'in the air'} · ` +
      `x ${p.x.toFixed(1)} y ${(p.y - 0.35).toFixed(1)} z ${p.z.toFixed(1)}`;
    collisionSum = frameSum = counted = 0;
  }
}
renderer.setAnimationLoop(frame);

const ballProbe = new Sphere();
window.__fps = {
  get frames() {
    return frames;
  },
  get steps() {
    return game.steps;
  },
  realTime,
  renderer: renderer.getContext().getParameter(renderer.getContext().VERSION) as string,
  step(dt, n, held) {
    const report = stepChecked(game, dt, n, held);
    sync();
    return report;
  },
  teleport(x, y, z, yaw) {
    game.teleport(x, y, z, yaw);
    game.pitch = 0;
    sync();
  },
  look(yaw, pitch) {
    game.yaw = yaw;
    game.pitch = pitch;
  },
  throwBall(strength) {
    game.throwBall(strength);
  },
  balls() {
    let active = 0;
    let inside = 0;
    let outOfYard = 0;
    for (const b of game.balls) {
      if (!b.active) continue;
      active++;
      ballProbe.set(b.center, SPHERE_RADIUS - 1e-6);
      if (game.colliders.some((m) => intersectsSphere(m, ballProbe))) inside++;
      if (Math.abs(b.center.x) > 20 || Math.abs(b.center.z) > 20) outOfYard++;
    }
    return { active, inside, outOfYard };
  },
  render() {
    sync();
    renderer.render(scene, camera);
  },
};
