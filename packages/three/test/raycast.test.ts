/**
 * `acceleratedRaycast` against three.js's own `Mesh.raycast`: the same intersections, in the same
 * order, every number bit for bit, on procedural meshes under many world matrices, material sides,
 * near/far ranges, draw ranges and groups.
 */
import {
  BackSide,
  BatchedMesh,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  Euler,
  FrontSide,
  Group,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  type Intersection,
  type Material,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  Quaternion,
  Raycaster,
  type Side,
  Vector3,
} from 'three';
import { afterAll, beforeAll, expect, describe as group, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import {
  acceleratedRaycast,
  type BoundsTree,
  computeBatchedBoundsTree,
  computeBoundsTree,
  disposeBatchedBoundsTree,
} from '../src/index.js';
import { configureRayKernel } from '../src/raycast/wasmTree.js';
import { caster, describe, knot, place, raysFor, rng, soup, terrain, worldMatrices } from './scenes.js';

declare module 'three' {
  interface BufferGeometry {
    computeBoundsTree: typeof computeBoundsTree;
  }
}

const stock = Mesh.prototype.raycast;

/**
 * `n` rays at the full depth, a third of them at the standard depth: the first rays of the same seed,
 * every kind of ray among them ({@link raysFor} cycles through its six kinds).
 */
const RAYS = (n: number) => depth(Math.ceil(n / 3), n);

/** three.js's answer: its loop, then Raycaster's stable sort by distance. */
function stockHits(mesh: Mesh, raycaster: Raycaster): Intersection[] {
  const out: Intersection[] = [];
  stock.call(mesh, raycaster, out);
  return out.sort((a, b) => a.distance - b.distance);
}

function ourHits(mesh: Mesh, raycaster: Raycaster, firstHitOnly = false): Intersection[] {
  const out: Intersection[] = [];
  (raycaster as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = firstHitOnly;
  acceleratedRaycast.call(mesh, raycaster, out);
  return out.sort((a, b) => a.distance - b.distance);
}

/**
 * Whether `a` and `b` are equal with every primitive `Object.is`, the same prototypes and the same own
 * keys in the same order: stricter than `toEqual`, so where it holds `toEqual` holds too, and the
 * suite calls `expect(…).toEqual` (its deep comparison is a large share of this file's time) only
 * where it does not.
 */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) if (!same(ra[k], rb[k])) return false;
  return true;
}

/**
 * three.js's hits (described) for each ray of a scene both walks cast: the same geometry, world
 * matrix, material side and rays give the same answers, so the second walk's test reuses the first's
 * (with the mesh id of its own mesh: every hit of a lone mesh is on that mesh).
 */
const stockByScene = new Map<string, { meshId: number; hits: unknown[][] }>();

/**
 * Casts every ray at `mesh` both ways (all hits and first hit) and compares; returns the hit count.
 * `scene`, when given, names the scene for {@link stockByScene}.
 */
function compareRays(
  mesh: Mesh,
  rays: Array<[Vector3, Vector3]>,
  near = 0,
  far = Infinity,
  scene?: string,
): number {
  const known = scene === undefined ? undefined : stockByScene.get(scene);
  const fresh: unknown[][] = [];
  let hits = 0;
  rays.forEach((ray, r) => {
    const rc = caster(ray, near, far);
    const want = known
      ? known.hits[r].map((d) => {
          const hit = d as { object: number };
          return hit.object === known.meshId ? { ...hit, object: mesh.id } : hit;
        })
      : stockHits(mesh, rc).map(describe);
    if (scene !== undefined && !known) fresh.push(want);
    const got = ourHits(mesh, rc).map(describe);
    if (!same(got, want)) expect(got).toEqual(want);
    const first = ourHits(mesh, rc, true).map(describe);
    if (!same(first, want.slice(0, 1))) expect(first).toEqual(want.slice(0, 1));
    hits += want.length;
  });
  if (scene !== undefined && !known) stockByScene.set(scene, { meshId: mesh.id, hits: fresh });
  return hits;
}

const geometries: Array<[string, () => BufferGeometry]> = [
  ['torus knot', () => knot()],
  ['torus knot, non-indexed', () => knot().toNonIndexed()],
  ['terrain', () => terrain(24, 3)],
  ['soup with slivers and degenerate triangles', () => soup(400, 7)],
  ['huge torus knot (1e6)', () => knot(1e6)],
  ['tiny torus knot (1e-6)', () => knot(1e-6)],
  ['torus knot far from the origin', () => knot().translate(1e5, -3e4, 2e5)],
  ['torus knot, 12 800 triangles (deep tree)', () => knot(1, 400, 16)],
  // The ray walks read inner nodes only: a root that is a leaf, and leaves right under the root.
  ['one quad (the root is a leaf)', () => new PlaneGeometry(2, 2)],
  ['a box (12 triangles: leaves under the root)', () => new BoxGeometry(2, 1, 1)],
];

const sides: Array<[string, Side]> = [
  ['FrontSide', FrontSide],
  ['BackSide', BackSide],
  ['DoubleSide', DoubleSide],
];

// Both walks: the WebAssembly kernel's (on every mesh here, small ones included) and TypeScript's
// (where WebAssembly SIMD is unavailable, and for array materials).
const walks: Array<[string, { enabled: boolean; minTriangles: number }]> = [
  ['WebAssembly walk', { enabled: true, minTriangles: 0 }],
  ['TypeScript walk', { enabled: false, minTriangles: 2048 }],
];

for (const [walkName, config] of walks)
  group(`acceleratedRaycast equals Mesh.raycast (${walkName})`, () => {
    beforeAll(() => configureRayKernel(config));
    afterAll(() => configureRayKernel({ enabled: true, minTriangles: 2048 }));
    for (const [name, make] of geometries) {
      it(name, () => {
        const geometry = make();
        computeBoundsTree.call(geometry);
        let hits = 0;
        let seed = 1;
        for (const [matrix, m] of worldMatrices()) {
          for (const [sideName, side] of sides) {
            const mesh = place(new Mesh(geometry, new MeshBasicMaterial({ side })), m);
            const scene = `${name} ${matrix} ${sideName} ${seed}`;
            hits += compareRays(mesh, raysFor(mesh, RAYS(120), seed++), 0, Infinity, scene);
          }
        }
        expect(hits).toBeGreaterThan(100);
      });
    }

    it('near and far, on the ray and at the hits', () => {
      const geometry = knot();
      computeBoundsTree.call(geometry);
      const mesh = place(
        new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })),
        worldMatrices()[2][1],
      );
      const rays = raysFor(mesh, RAYS(60), 11);
      let hits = 0;
      for (const [near, far] of [
        [0, 2],
        [1, 3],
        [2.5, 2.6],
        [3, Infinity],
        [0, 0],
      ]) {
        hits += compareRays(mesh, rays, near, far);
      }
      // Bounds set exactly at hit distances: equal distances count as inside, as in three.js.
      for (const ray of rays) {
        for (const h of stockHits(mesh, caster(ray))) {
          hits += compareRays(mesh, [ray], h.distance, h.distance);
          hits += compareRays(mesh, [ray], 0, h.distance);
        }
      }
      expect(hits).toBeGreaterThan(100);
    });
  });

/** A knot with three groups (one overlapping another, a gap between them) and a uv1 set. */
function grouped(): BufferGeometry {
  const g = knot(1, 48, 8);
  const n = g.index!.count;
  const third = Math.floor(n / 9) * 3;
  g.addGroup(0, third, 0);
  g.addGroup(third + 30, third, 1);
  g.addGroup(third, 2 * third, 2); // overlaps the second group
  return g;
}

for (const [walkName, config] of walks)
  group(`groups, draw ranges and material arrays (${walkName})`, () => {
    beforeAll(() => configureRayKernel(config));
    afterAll(() => configureRayKernel({ enabled: true, minTriangles: 2048 }));
    const materials = (sides: Side[]): Material[] => sides.map((side) => new MeshBasicMaterial({ side }));

    it('array materials with mixed sides, overlapping groups and gaps', () => {
      for (const make of [grouped, () => grouped().toNonIndexed()]) {
        const geometry = make();
        computeBoundsTree.call(geometry);
        let hits = 0;
        let seed = 40;
        for (const sides of [
          [FrontSide, BackSide, DoubleSide],
          [DoubleSide, DoubleSide, DoubleSide],
          [BackSide, FrontSide, FrontSide],
        ] as Side[][]) {
          for (const [, m] of worldMatrices().slice(0, 3)) {
            const mesh = place(new Mesh(geometry, materials(sides)), m);
            hits += compareRays(mesh, raysFor(mesh, RAYS(80), seed++));
          }
        }
        expect(hits).toBeGreaterThan(100);
      }
    });

    it('draw ranges, with and without groups', () => {
      const geometry = grouped();
      computeBoundsTree.call(geometry);
      let hits = 0;
      for (const [start, count] of [
        [0, Infinity],
        [30, 600],
        [300, 3],
        [0, 0],
        [600, 10_000],
        [3, 601], // ends inside a triangle: three.js still tests that one
      ]) {
        geometry.setDrawRange(start, count);
        for (const material of [
          new MeshBasicMaterial({ side: DoubleSide }),
          materials([DoubleSide, FrontSide, BackSide]),
        ]) {
          const mesh = place(new Mesh(geometry, material), worldMatrices()[1][1]);
          hits += compareRays(mesh, raysFor(mesh, RAYS(60), start + 1));
        }
      }
      expect(hits).toBeGreaterThan(100);
    });

    it('ranges that start inside a triangle, and missing materials, go to three.js’s own loop', () => {
      const geometry = grouped();
      computeBoundsTree.call(geometry);
      geometry.setDrawRange(2, Infinity);
      const mesh = place(new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })), new Matrix4());
      expect(compareRays(mesh, raysFor(mesh, RAYS(300), 5))).toBeGreaterThan(0);
      geometry.setDrawRange(0, Infinity);
      // material[2] is missing: three.js throws when its loop reaches group 2; so does the drop-in.
      const partial = place(new Mesh(geometry, materials([DoubleSide, DoubleSide])), new Matrix4());
      const rc = caster(raysFor(partial, 1, 3)[0]);
      expect(() => stockHits(partial, rc)).toThrow(TypeError);
      expect(() => ourHits(partial, rc)).toThrow(TypeError);
    });
  });

group('other meshes and geometries', () => {
  it('InstancedMesh: per instance, as three.js', () => {
    const geometry = knot(1, 48, 8);
    computeBoundsTree.call(geometry);
    const mesh = new InstancedMesh(geometry, new MeshBasicMaterial({ side: DoubleSide }), 5);
    const r = rng(2);
    for (let i = 0; i < 5; i++) {
      const m = new Matrix4().compose(
        new Vector3(r() * 4 - 2, r() * 4 - 2, r() * 4 - 2),
        new Quaternion().setFromEuler(new Euler(r(), r(), r())),
        new Vector3(0.5 + r(), 0.5 + r(), 0.5 + r()),
      );
      mesh.setMatrixAt(i, m);
    }
    mesh.updateMatrixWorld();
    const stockInstanced = InstancedMesh.prototype.raycast;
    let hits = 0;
    for (const ray of raysFor(place(new Mesh(geometry), new Matrix4().makeScale(3, 3, 3)), 150, 9)) {
      const rc = caster(ray);
      const want: Intersection[] = [];
      // three.js's InstancedMesh.raycast calls Mesh.prototype.raycast for each instance: stock here.
      stockInstanced.call(mesh, rc, want);
      want.sort((a, b) => a.distance - b.distance);
      const got: Intersection[] = [];
      acceleratedRaycast.call(mesh, rc, got);
      got.sort((a, b) => a.distance - b.distance);
      expect(got.map(describe)).toEqual(want.map(describe));
      hits += want.length;
    }
    expect(hits).toBeGreaterThan(50);
  });

  it('BatchedMesh: per instance, per geometry tree, as three.js', () => {
    const a = knot(1, 48, 8);
    a.deleteAttribute('uv1');
    const b = terrain(6, 2).scale(0.2, 0.2, 0.2);
    const batched = new BatchedMesh(6, 5000, 20000, new MeshBasicMaterial({ side: DoubleSide }));
    const ids = [a, b].map((g) => batched.addGeometry(g));
    const r = rng(6);
    for (let i = 0; i < 6; i++) {
      const id = batched.addInstance(ids[i % 2]);
      batched.setMatrixAt(
        id,
        new Matrix4().compose(
          new Vector3(r() * 4 - 2, r() * 2 - 1, r() * 4 - 2),
          new Quaternion().setFromEuler(new Euler(r(), r(), r())),
          new Vector3(1, 1, 1),
        ),
      );
    }
    batched.setVisibleAt(3, false);
    batched.updateMatrixWorld();
    const stockBatched = BatchedMesh.prototype.raycast;
    const check = () => {
      let hits = 0;
      for (const ray of raysFor(place(new Mesh(a), new Matrix4().makeScale(3, 3, 3)), RAYS(120), 4)) {
        const rc = caster(ray);
        const want: Intersection[] = [];
        stockBatched.call(batched, rc, want);
        want.sort((x, y) => x.distance - y.distance);
        const got: Intersection[] = [];
        acceleratedRaycast.call(batched, rc, got);
        got.sort((x, y) => x.distance - y.distance);
        expect(got.map(describe)).toEqual(want.map(describe));
        hits += want.length;
      }
      return hits;
    };
    expect(check()).toBeGreaterThan(20);
    const trees = computeBatchedBoundsTree.call(batched) as BoundsTree[];
    expect(trees.length).toBe(2);
    expect(trees[0].triangleCount).toBe(a.index!.count / 3);
    expect(check()).toBeGreaterThan(20);
    disposeBatchedBoundsTree.call(batched, 0);
    expect(check()).toBeGreaterThan(20);
  });

  it('morph targets and skinned meshes go to three.js’s own raycast', () => {
    const geometry = knot(1, 48, 8);
    const p = geometry.attributes.position;
    const target = p.clone();
    for (let i = 0; i < target.count; i++) target.setY(i, target.getY(i) + 0.5 * Math.sin(target.getX(i)));
    geometry.morphAttributes.position = [target];
    computeBoundsTree.call(geometry);
    const mesh = place(new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })), new Matrix4());
    mesh.morphTargetInfluences = [0.7];
    expect(compareRays(mesh, raysFor(mesh, RAYS(60), 8))).toBeGreaterThan(10);
  });

  it('more candidates than the WebAssembly walk returns: the TypeScript walk answers, the same hits', () => {
    // 2600 stacked quads (5200 triangles): a ray down the stack crosses all of them.
    const layers = 2600;
    const positions = new Float32Array(layers * 12);
    const index = new Uint32Array(layers * 6);
    for (let k = 0; k < layers; k++) {
      const z = k * 0.01;
      positions.set([-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z], 12 * k);
      index.set([4 * k, 4 * k + 1, 4 * k + 2, 4 * k, 4 * k + 2, 4 * k + 3], 6 * k);
    }
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3));
    geometry.setIndex(new BufferAttribute(index, 1));
    const bounds = computeBoundsTree.call(geometry);
    const mesh = place(new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })), new Matrix4());
    const rays: Array<[Vector3, Vector3]> = [
      [new Vector3(0.1, 0.2, 40), new Vector3(0, 0, -1)],
      [new Vector3(-0.3, 0.4, -5), new Vector3(0.01, 0, 1).normalize()],
      [new Vector3(5, 0, 10), new Vector3(-1, 0, 0)],
    ];
    expect(compareRays(mesh, rays)).toBeGreaterThanOrEqual(2 * layers);
    // The kernel walks this tree (it has more than 2048 triangles); its candidate list holds 2048.
    expect(bounds.rayTree().wasm).not.toBeNull();
  });

  it('interleaved and quantized positions', () => {
    const base = knot(1, 48, 8);
    const n = base.attributes.position.count;
    // Interleaved float32 (position + normal), as glTF files often are: exact, on the tree.
    const data = new Float32Array(6 * n);
    for (let i = 0; i < n; i++) {
      data.set(
        [
          base.attributes.position.getX(i),
          base.attributes.position.getY(i),
          base.attributes.position.getZ(i),
        ],
        6 * i,
      );
      data.set(
        [base.attributes.normal.getX(i), base.attributes.normal.getY(i), base.attributes.normal.getZ(i)],
        6 * i + 3,
      );
    }
    const buffer = new InterleavedBuffer(data, 6);
    const interleaved = new BufferGeometry();
    interleaved.setIndex(base.index);
    interleaved.setAttribute('position', new InterleavedBufferAttribute(buffer, 3, 0));
    interleaved.setAttribute('normal', new InterleavedBufferAttribute(buffer, 3, 3));
    const tree = computeBoundsTree.call(interleaved);
    expect(tree.exact).toBe(true);
    // Quantized (normalized int16, KHR_mesh_quantization): not float32 values; three.js's loop answers.
    const quantized = new BufferGeometry();
    quantized.setIndex(base.index);
    const q = new Int16Array(3 * n);
    for (let i = 0; i < 3 * n; i++) q[i] = Math.round((base.attributes.position.array[i] / 2) * 32767);
    quantized.setAttribute('position', new BufferAttribute(q, 3, true));
    expect(computeBoundsTree.call(quantized).exact).toBe(false);
    for (const g of [interleaved, quantized]) {
      const mesh = place(new Mesh(g, new MeshBasicMaterial({ side: DoubleSide })), worldMatrices()[1][1]);
      expect(compareRays(mesh, raysFor(mesh, RAYS(60), 2))).toBeGreaterThan(10);
    }
  });
});

for (const [walkName, config] of walks)
  group(`the tree follows its geometry (${walkName})`, () => {
    beforeAll(() => configureRayKernel(config));
    afterAll(() => configureRayKernel({ enabled: true, minTriangles: 2048 }));
    it('vertices moved with needsUpdate are refit; refit() by hand; replaced attributes rebuild', () => {
      const geometry = terrain(16, 1);
      const tree = computeBoundsTree.call(geometry);
      const mesh = place(new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide })), new Matrix4());
      const p = geometry.attributes.position;
      const wave = (k: number) => {
        for (let i = 0; i < p.count; i++) p.setY(i, Math.sin(0.5 * p.getX(i) + k) * 2);
      };
      const rays = () => raysFor(place(new Mesh(terrain(16, 1)), new Matrix4()), RAYS(60), 5);
      wave(1);
      p.needsUpdate = true; // no refit: the next query refits
      expect(compareRays(mesh, rays())).toBeGreaterThan(10);
      wave(2);
      tree.refit(); // by hand, without needsUpdate
      expect(compareRays(mesh, rays())).toBeGreaterThan(10);
      const bvh = tree.bvh;
      geometry.setAttribute('position', p.clone());
      geometry.attributes.position.setY(0, 5);
      expect(compareRays(mesh, rays())).toBeGreaterThan(10);
      expect(tree.bvh).not.toBe(bvh); // rebuilt
      geometry.setIndex(geometry.index!.clone());
      geometry.index!.setX(0, 3);
      expect(compareRays(mesh, rays())).toBeGreaterThan(10);
    });

    it('the patched prototypes: Raycaster.intersectObject(s) over a scene', () => {
      const saved = { mesh: Mesh.prototype.raycast, compute: BufferGeometry.prototype.computeBoundsTree };
      const scene = new Group();
      const meshes: Mesh[] = [];
      for (const [i, make] of [knot, () => terrain(10, 2), () => soup(100, 1)].entries()) {
        const mesh = new Mesh(make(), new MeshBasicMaterial({ side: i === 1 ? DoubleSide : FrontSide }));
        mesh.position.set(i - 1, 0, 0);
        scene.add(mesh);
        meshes.push(mesh);
      }
      scene.updateMatrixWorld();
      const rays = raysFor(meshes[0], RAYS(80), 12);
      const rc = new Raycaster();
      const want = rays.map(([o, d]) => {
        rc.set(o, d);
        return rc.intersectObject(scene).map(describe);
      });
      try {
        BufferGeometry.prototype.computeBoundsTree = computeBoundsTree;
        Mesh.prototype.raycast = acceleratedRaycast;
        for (const m of meshes) m.geometry.computeBoundsTree();
        const got = rays.map(([o, d]) => {
          rc.set(o, d);
          return rc.intersectObject(scene).map(describe);
        });
        expect(got).toEqual(want);
        (rc as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = true;
        const first = rays.map(([o, d]) => {
          rc.set(o, d);
          return rc.intersectObjects(meshes)[0];
        });
        expect(first.map((h) => (h ? describe(h) : undefined))).toEqual(want.map((w) => w[0]));
      } finally {
        Mesh.prototype.raycast = saved.mesh;
        BufferGeometry.prototype.computeBoundsTree = saved.compute;
      }
    });
  });
