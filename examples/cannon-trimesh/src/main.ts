/**
 * Browser page: the demo scene drawn with three.js; a button (or the S key) switches between stock
 * cannon-es and cannon-es with Sieve installed, another (or G) routes Sieve's trimesh–trimesh pair tests
 * through the WebGPU triangle pass when the browser has WebGPU; R resets. The status line says which
 * path runs.
 */
import * as THREE from 'three';
import { GpuTrimeshRouting } from './gpuContacts.js';
import { buildScene, type Kind, type Landing, landingStats, type Scene, type SceneBody } from './scene.js';

/** The HUD's landing counts, rewritten every frame. */
const landing = {} as Landing;

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

const material = (color: number) => new THREE.MeshStandardMaterial({ color, flatShading: true });
const materials: Record<Kind, THREE.Material> = {
  floor: material(0x445566),
  ramp: material(0x667788),
  ball: material(0xe8a33d),
  meshBox: material(0x4fb3a9),
  box: material(0xc0546b),
};

/** One geometry per shape (the scene's balls share one trimesh, its plain boxes one size). */
const geometries = new Map<SceneBody['mesh'] | number, THREE.BufferGeometry>();

function geometryOf(b: SceneBody): THREE.BufferGeometry {
  const key = b.mesh ?? b.size;
  let g = geometries.get(key);
  if (g) return g;
  if (b.mesh) {
    g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(b.mesh.vertices), 3));
    g.setIndex(Array.from(b.mesh.indices));
    g.computeVertexNormals();
  } else {
    g = new THREE.BoxGeometry(2 * b.size, 2 * b.size, 2 * b.size);
  }
  geometries.set(key, g);
  return g;
}

let scene: Scene;
let meshes: THREE.Mesh[] = [];
let sieve = true;
/** The GPU routing (created on the first switch to it), and whether it is switched on. */
let routing: GpuTrimeshRouting | null = null;
let gpu = false;

function reset(): void {
  for (const m of meshes) view.remove(m);
  for (const g of geometries.values()) g.dispose();
  geometries.clear(); // the new scene has new shapes
  routing?.uninstall();
  scene = buildScene(sieve);
  if (gpu && sieve && routing) routing.install(scene.world);
  meshes = scene.bodies.map((b) => {
    const m = new THREE.Mesh(geometryOf(b), materials[b.kind]);
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

async function toggleGpu(): Promise<void> {
  gpu = !gpu;
  if (gpu && !routing) routing = await GpuTrimeshRouting.create();
  (document.getElementById('gpu') as HTMLButtonElement).textContent = gpu
    ? 'Trimesh pairs on the CPU'
    : 'Trimesh pairs on the GPU';
  reset();
}

/** Which path the trimesh–trimesh pairs take, for the status line. */
function pathText(): string {
  if (!scene.sieve) return 'trimesh pairs: none (stock cannon-es has no trimesh–trimesh)';
  if (!gpu) return 'trimesh pairs: CPU (Sieve BVH)';
  if (routing?.backend !== 'gpu') return `trimesh pairs: CPU — ${routing?.info ?? 'no WebGPU'}`;
  const s = routing.stats;
  return `trimesh pairs: GPU (${routing.info}) · ${s.gpuPairs} pairs, ${s.skipped} skipped on the CPU, ${s.gpuMs.toFixed(2)} ms`;
}

document.getElementById('toggle')?.addEventListener('click', toggle);
document.getElementById('gpu')?.addEventListener('click', () => void toggleGpu());
document.getElementById('reset')?.addEventListener('click', reset);
window.addEventListener('keydown', (e) => {
  if (e.key === 's' || e.key === 'S') toggle();
  if (e.key === 'g' || e.key === 'G') void toggleGpu();
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
async function frame(): Promise<void> {
  const t = performance.now();
  // The GPU pass runs on the poses the step's narrowphase will see (before it integrates).
  if (gpu && scene.sieve && routing?.backend === 'gpu') await routing.prepare();
  scene.world.step(1 / 60);
  avg = 0.95 * avg + 0.05 * (performance.now() - t);
  for (let i = 0; i < meshes.length; i++) {
    const { position: p, quaternion: q } = scene.bodies[i].body;
    meshes[i].position.set(p.x, p.y, p.z);
    meshes[i].quaternion.set(q.x, q.y, q.z, q.w);
  }
  const rest = landingStats(scene, landing);
  stats.textContent = `${scene.sieve ? 'Sieve installed' : 'stock cannon-es'} · ${avg.toFixed(2)} ms/step · ${scene.world.contacts.length} contacts · ${rest.onFloor}/${rest.total} on the floor${rest.fellThrough > 0 ? ` · ${rest.fellThrough} fell through` : ''}${rest.offEdge > 0 ? ` · ${rest.offEdge} off the edge` : ''}`;
  (document.getElementById('path') as HTMLDivElement).textContent = pathText();
  renderer.render(view, camera);
  requestAnimationFrame(() => void frame());
}
requestAnimationFrame(() => void frame());
