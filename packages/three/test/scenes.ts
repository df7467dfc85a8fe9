/**
 * Procedural meshes and rays for the differential tests against three.js's own `Mesh.raycast`:
 * torus knots, terrain, slivers, degenerate triangles, huge and tiny scales, non-indexed copies, world
 * matrices with rotation, non-uniform scale and mirroring; rays at random, through vertices and edge
 * midpoints, along the axes, from inside.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Euler,
  type Intersection,
  Matrix4,
  type Mesh,
  PlaneGeometry,
  Quaternion,
  Raycaster,
  TorusKnotGeometry,
  Vector3,
} from 'three';
import { rng } from '../../core/test/support/rng.js';

export { rng };

/** A terrain: a plane of `n × n` quads with height noise, lying in xz. */
export function terrain(n: number, seed: number, height = 2): BufferGeometry {
  const g = new PlaneGeometry(20, 20, n, n);
  g.rotateX(-Math.PI / 2);
  const r = rng(seed);
  const p = g.attributes.position;
  for (let i = 0; i < p.count; i++) {
    const x = p.getX(i);
    const z = p.getZ(i);
    p.setY(i, height * (Math.sin(0.7 * x) * Math.cos(0.5 * z) + 0.3 * r()));
  }
  g.computeVertexNormals();
  return g;
}

/** Random triangles in a box, some thin slivers and some degenerate (collinear, repeated vertices). */
export function soup(count: number, seed: number, scale = 1): BufferGeometry {
  const r = rng(seed);
  const pos = new Float32Array(9 * count);
  for (let t = 0; t < count; t++) {
    const cx = (r() - 0.5) * 4 * scale;
    const cy = (r() - 0.5) * 4 * scale;
    const cz = (r() - 0.5) * 4 * scale;
    const kind = t % 7;
    for (let v = 0; v < 3; v++) {
      let x = cx + (r() - 0.5) * scale;
      let y = cy + (r() - 0.5) * scale;
      let z = cz + (r() - 0.5) * scale;
      if (kind === 3 && v === 2) {
        // Sliver: the third vertex almost on the first edge.
        const e = 1e-6 * scale;
        x = 0.5 * (pos[9 * t] + pos[9 * t + 3]) + e;
        y = 0.5 * (pos[9 * t + 1] + pos[9 * t + 4]);
        z = 0.5 * (pos[9 * t + 2] + pos[9 * t + 5]);
      } else if (kind === 5 && v === 2) {
        // Degenerate: a repeated vertex.
        x = pos[9 * t];
        y = pos[9 * t + 1];
        z = pos[9 * t + 2];
      } else if (kind === 6 && v === 2) {
        // Degenerate: exactly collinear (the midpoint, float32-exact for these inputs or close).
        x = 2 * pos[9 * t + 3] - pos[9 * t];
        y = 2 * pos[9 * t + 4] - pos[9 * t + 1];
        z = 2 * pos[9 * t + 5] - pos[9 * t + 2];
      }
      pos[9 * t + 3 * v] = x;
      pos[9 * t + 3 * v + 1] = y;
      pos[9 * t + 3 * v + 2] = z;
    }
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(pos, 3));
  const uv = new Float32Array(6 * count).map(() => r());
  g.setAttribute('uv', new BufferAttribute(uv, 2));
  g.computeVertexNormals();
  return g;
}

/** A torus knot scaled by `scale` (positions multiplied in place, so the geometry itself is huge or tiny). */
export function knot(scale = 1, tubular = 64, radial = 8): BufferGeometry {
  const g = new TorusKnotGeometry(1, 0.3, tubular, radial);
  if (scale !== 1) g.scale(scale, scale, scale);
  // A second uv set so uv1 is interpolated too.
  g.setAttribute('uv1', g.attributes.uv.clone());
  return g;
}

/** World matrices: identity, rotated + translated, non-uniform scale, mirrored, sheared. */
export function worldMatrices(): Array<[string, Matrix4]> {
  const rot = new Quaternion().setFromEuler(new Euler(0.3, -0.7, 1.1));
  const shear = new Matrix4().set(1, 0.3, 0, 0, 0, 1, 0.2, 0, 0.1, 0, 1, 0, 0, 0, 0, 1);
  return [
    ['identity', new Matrix4()],
    ['rotated', new Matrix4().compose(new Vector3(1, -2, 0.5), rot, new Vector3(1, 1, 1))],
    ['non-uniform', new Matrix4().compose(new Vector3(-3, 0, 2), rot, new Vector3(2, 0.5, 3))],
    ['mirrored', new Matrix4().compose(new Vector3(0, 1, 0), rot, new Vector3(-1, 1, 1))],
    ['sheared', new Matrix4().compose(new Vector3(0.5, 0.5, 0.5), rot, new Vector3(1, 1, 1)).multiply(shear)],
  ];
}

/** Places `mesh` by `m` (as its matrixWorld, auto-update off). */
export function place(mesh: Mesh, m: Matrix4): Mesh {
  mesh.matrixAutoUpdate = false;
  mesh.matrix.copy(m);
  mesh.matrixWorld.copy(m);
  return mesh;
}

/**
 * Rays at the world mesh `mesh`: from a sphere around its world box towards random points of it,
 * towards vertices and edge midpoints (exact ties and edges), axis-aligned, and from inside.
 */
export function raysFor(mesh: Mesh, count: number, seed: number): Array<[Vector3, Vector3]> {
  const r = rng(seed);
  const g = mesh.geometry;
  g.computeBoundingBox();
  const box = g.boundingBox!.clone().applyMatrix4(mesh.matrixWorld);
  const center = box.getCenter(new Vector3());
  const size = box.getSize(new Vector3());
  const radius = Math.max(size.length(), 1e-30);
  const pos = g.attributes.position;
  const out: Array<[Vector3, Vector3]> = [];
  const vertex = (i: number) => new Vector3().fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld);
  for (let i = 0; i < count; i++) {
    const kind = i % 6;
    const u = 2 * r() - 1;
    const th = 2 * Math.PI * r();
    const s = Math.sqrt(1 - u * u);
    const origin = new Vector3(s * Math.cos(th), s * Math.sin(th), u).multiplyScalar(radius).add(center);
    let target: Vector3;
    if (kind === 0 || kind === 1) {
      target = new Vector3(r(), r(), r()).multiply(size).add(box.min);
    } else if (kind === 2) {
      target = vertex(Math.floor(r() * pos.count));
    } else if (kind === 3) {
      const a = Math.floor(r() * pos.count);
      target = vertex(a)
        .add(vertex(a % 3 === 2 ? a - 2 : a + 1))
        .multiplyScalar(0.5);
    } else if (kind === 4) {
      // Axis-aligned through a random point of the box.
      target = new Vector3(r(), r(), r()).multiply(size).add(box.min);
      const axis = Math.floor(r() * 3);
      origin.copy(target);
      origin.setComponent(axis, box.min.getComponent(axis) - radius);
    } else {
      // From inside the box.
      origin.set(r(), r(), r()).multiply(size).add(box.min);
      target = new Vector3(r(), r(), r()).multiply(size).add(box.min);
    }
    const dir = target.sub(origin);
    if (dir.lengthSq() === 0) dir.set(0, 0, 1);
    out.push([origin, dir.normalize()]);
  }
  return out;
}

/** What a hit is, as plain data (numbers compared bit for bit by `toEqual`). */
export function describe(h: Intersection): unknown {
  const v = (x: { x: number; y: number; z?: number } | undefined | null) =>
    x ? (x.z === undefined ? [x.x, x.y] : [x.x, x.y, x.z]) : x;
  return {
    keys: Object.keys(h),
    distance: h.distance,
    point: v(h.point),
    object: h.object.id,
    faceIndex: h.faceIndex,
    face: h.face ? { ...h.face, normal: v(h.face.normal) } : h.face,
    uv: v(h.uv),
    uv1: v(h.uv1),
    normal: v(h.normal),
    barycoord: v(h.barycoord),
    instanceId: h.instanceId,
    batchId: h.batchId,
  };
}

/** A raycaster for `[origin, direction]` with optional near/far. */
export function caster(ray: [Vector3, Vector3], near = 0, far = Infinity): Raycaster {
  return new Raycaster(ray[0].clone(), ray[1].clone(), near, far);
}
