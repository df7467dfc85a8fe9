/**
 * Browser page: the demo scene drawn with three.js; a button (or the S key) switches between stock
 * cannon-es and cannon-es with Sieve installed, R resets.
 */
import * as THREE from 'three';
import { buildScene, restingStats, type Scene } from './scene.js';

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.setSize(window.innerWidth, window.innerHeight);
document.body.appendChild(renderer.domElement);
const view = new THREE.Scene();
view.background = new THREE.Color(0x11151c);
const camera = new THREE.PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.1, 200);
camera.position.set(10, 9, 14);
camera.lookAt(0, 1, 0);
view.add(new THREE.HemisphereLight(0xffffff, 0x334455, 1.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(5, 10, 4);
view.add(sun);

const colors = { floor: 0x445566, ramp: 0x667788, ball: 0xe8a33d, meshBox: 0x4fb3a9, box: 0xc0546b };

function geometryOf(b: Scene['bodies'][number]): THREE.BufferGeometry {
  if (!b.mesh) return new THREE.BoxGeometry(2 * b.size, 2 * b.size, 2 * b.size);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(b.mesh.vertices), 3));
  g.setIndex(Array.from(b.mesh.indices));
  g.computeVertexNormals();
  return g;
}

let scene: Scene;
let meshes: THREE.Mesh[] = [];
let sieve = true;

function reset(): void {
  for (const m of meshes) {
    view.remove(m);
    m.geometry.dispose();
  }
  scene = buildScene(sieve);
  meshes = scene.bodies.map((b) => {
    const m = new THREE.Mesh(
      geometryOf(b),
      new THREE.MeshStandardMaterial({ color: colors[b.kind], flatShading: true }),
    );
    view.add(m);
    return m;
  });
  (document.getElementById('toggle') as HTMLButtonElement).textContent = sieve
    ? 'Switch to stock'
    : 'Switch to Sieve';
}

function toggle(): void {
  sieve = !sieve;
  reset();
}

document.getElementById('toggle')?.addEventListener('click', toggle);
document.getElementById('reset')?.addEventListener('click', reset);
window.addEventListener('keydown', (e) => {
  if (e.key === 's' || e.key === 'S') toggle();
  if (e.key === 'r' || e.key === 'R') reset();
});
window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
});

reset();
const stats = document.getElementById('stats') as HTMLDivElement;
let avg = 0;
function frame(): void {
  const t = performance.now();
  scene.world.step(1 / 60);
  avg = 0.95 * avg + 0.05 * (performance.now() - t);
  scene.bodies.forEach((b, i) => {
    meshes[i].position.set(b.body.position.x, b.body.position.y, b.body.position.z);
    meshes[i].quaternion.set(
      b.body.quaternion.x,
      b.body.quaternion.y,
      b.body.quaternion.z,
      b.body.quaternion.w,
    );
  });
  const rest = restingStats(scene);
  stats.textContent = `${scene.sieve ? 'Sieve installed' : 'stock cannon-es'} · ${avg.toFixed(2)} ms/step · ${scene.world.contacts.length} contacts · ${rest.above}/${rest.total} above the floor`;
  renderer.render(view, camera);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
