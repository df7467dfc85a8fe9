/**
 * The meshes and rays of `bench:three` (`run.ts`) and its ray-only companion (`rays.ts`): three.js
 * torus knots with random rays from a sphere around them, and a terrain with picking rays from a
 * camera-like height. Seeded, so every run casts the same rays.
 */
import { type BufferGeometry, PlaneGeometry, Raycaster, TorusKnotGeometry, Vector3 } from 'three';
import { rng } from '../lib/stats.js';

/** A torus knot of radius 1, tube 0.3, `tubular × radial × 2` triangles. */
export function knotGeometry(tubular: number, radial: number): BufferGeometry {
  return new TorusKnotGeometry(1, 0.3, tubular, radial);
}

/** `count` rays from random points of a sphere of radius 3 towards random points near the knot. */
export function knotRays(r: () => number, count: number): Raycaster[] {
  const out: Raycaster[] = [];
  for (let i = 0; i < count; i++) {
    const u = 2 * r() - 1;
    const th = 2 * Math.PI * r();
    const s = Math.sqrt(1 - u * u);
    const o = new Vector3(3 * s * Math.cos(th), 3 * s * Math.sin(th), 3 * u);
    const t = new Vector3(1.6 * (r() - 0.5), 1.6 * (r() - 0.5), 0.8 * (r() - 0.5));
    out.push(new Raycaster(o, t.sub(o).normalize()));
  }
  return out;
}

/** A 100 × 100 terrain of `2n²` triangles: rolling hills plus seeded noise, vertex normals. */
export function terrainGeometry(n: number): BufferGeometry {
  const g = new PlaneGeometry(100, 100, n, n).rotateX(-Math.PI / 2);
  const p = g.attributes.position;
  const r = rng(n);
  for (let i = 0; i < p.count; i++) {
    const x = p.getX(i);
    const z = p.getZ(i);
    p.setY(i, 4 * Math.sin(0.1 * x) * Math.cos(0.13 * z) + 0.3 * r());
  }
  g.computeVertexNormals();
  return g;
}

/** `count` picking rays: from a camera-like height down onto random points of the terrain. */
export function pickRays(r: () => number, count: number): Raycaster[] {
  const out: Raycaster[] = [];
  for (let i = 0; i < count; i++) {
    const o = new Vector3((r() - 0.5) * 60, 30, (r() - 0.5) * 60 + 40);
    const t = new Vector3((r() - 0.5) * 90, 0, (r() - 0.5) * 90);
    out.push(new Raycaster(o, t.sub(o).normalize()));
  }
  return out;
}
