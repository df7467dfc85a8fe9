/**
 * The demo scene, shared by the Node script (scene.ts) and the browser page (src/main.ts): trimesh balls,
 * trimesh boxes and plain boxes dropped onto a trimesh floor with a trimesh ramp — stock cannon-es, or the
 * same world with Sieve installed (`installSieve` of `@sieve/cannon`). Stock cannon-es 0.20.0 has no
 * trimesh–trimesh or box–trimesh contact, so there everything but the spheres' cousins falls through.
 */
import { installSieve } from '@sieve/cannon';
import * as CANNON from 'cannon-es';

/** What a body is, for drawing. */
export type Kind = 'floor' | 'ramp' | 'ball' | 'meshBox' | 'box';

export interface SceneBody {
  body: CANNON.Body;
  kind: Kind;
  /** The trimesh (for drawing), if the body has one. */
  mesh?: CANNON.Trimesh;
  /** Half size (boxes) or radius (balls). */
  size: number;
}

export interface Scene {
  world: CANNON.World;
  bodies: SceneBody[];
  sieve: boolean;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A closed box mesh (12 triangles, outward winding). */
export function boxMesh(h: number): CANNON.Trimesh {
  const v = [
    [-h, -h, -h],
    [h, -h, -h],
    [h, h, -h],
    [-h, h, -h],
    [-h, -h, h],
    [h, -h, h],
    [h, h, h],
    [-h, h, h],
  ].flat();
  const f = [
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6,
    5,
  ];
  return new CANNON.Trimesh(v, f);
}

/** A subdivided-octahedron ball of 8·4^subdivisions triangles (128 at the default 2), outward winding. */
export function ballMesh(r: number, subdivisions = 2): CANNON.Trimesh {
  let verts: number[][] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
  ];
  let faces = [
    [0, 2, 4],
    [2, 1, 4],
    [1, 3, 4],
    [3, 0, 4],
    [2, 0, 5],
    [1, 2, 5],
    [3, 1, 5],
    [0, 3, 5],
  ];
  for (let s = 0; s < subdivisions; s++) {
    const mid = new Map<string, number>();
    const midpoint = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let m = mid.get(key);
      if (m === undefined) {
        const p = verts[a].map((x, k) => (x + verts[b][k]) / 2);
        const len = Math.hypot(p[0], p[1], p[2]);
        verts.push(p.map((x) => x / len));
        m = verts.length - 1;
        mid.set(key, m);
      }
      return m;
    };
    const next: number[][] = [];
    for (const [a, b, c] of faces) {
      const ab = midpoint(a, b);
      const bc = midpoint(b, c);
      const ca = midpoint(c, a);
      next.push([a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]);
    }
    faces = next;
  }
  verts = verts.map((v) => v.map((x) => x * r));
  return new CANNON.Trimesh(verts.flat(), faces.flat());
}

/** A flat trimesh floor at y = 0 facing +y, 2n² triangles over [-half, half]². */
export function floorMesh(half: number, n: number): CANNON.Trimesh {
  const verts: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) verts.push(-half + (2 * half * i) / n, 0, -half + (2 * half * j) / n);
  }
  const at = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      idx.push(at(i, j), at(i, j + 1), at(i + 1, j));
      idx.push(at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
    }
  }
  return new CANNON.Trimesh(verts, idx);
}

/** Builds the scene with `count` falling bodies; with `sieve`, Sieve is installed on the world. */
export function buildScene(sieve: boolean, count = 60, seed = 1): Scene {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.82, 0) });
  world.allowSleep = true;
  if (sieve) installSieve(world);
  const bodies: SceneBody[] = [];
  const floorShape = floorMesh(12, 8);
  const floor = new CANNON.Body({ mass: 0, shape: floorShape });
  world.addBody(floor);
  bodies.push({ body: floor, kind: 'floor', mesh: floorShape, size: 12 });
  const rampShape = boxMesh(1);
  const ramp = new CANNON.Body({ mass: 0, shape: rampShape, position: new CANNON.Vec3(-3, 0.3, 0) });
  ramp.quaternion.setFromEuler(0, 0, 0.35);
  ramp.aabbNeedsUpdate = true; // moved after construction: cannon only recomputes a flagged AABB
  world.addBody(ramp);
  bodies.push({ body: ramp, kind: 'ramp', mesh: rampShape, size: 1 });
  const r = rng(seed);
  const ball = ballMesh(0.45);
  const meshBox = boxMesh(0.4);
  for (let i = 0; i < count; i++) {
    const kind: Kind = i % 3 === 0 ? 'ball' : i % 3 === 1 ? 'meshBox' : 'box';
    const shape =
      kind === 'ball' ? ball : kind === 'meshBox' ? meshBox : new CANNON.Box(new CANNON.Vec3(0.4, 0.4, 0.4));
    const body = new CANNON.Body({
      mass: 1,
      shape,
      position: new CANNON.Vec3((r() - 0.5) * 8, 2 + i * 0.35, (r() - 0.5) * 6),
    });
    body.quaternion.setFromEuler(r() * 3, r() * 3, r() * 3);
    body.aabbNeedsUpdate = true;
    world.addBody(body);
    bodies.push({
      body,
      kind,
      mesh: kind === 'box' ? undefined : (shape as CANNON.Trimesh),
      size: kind === 'ball' ? 0.45 : 0.4,
    });
  }
  return { world, bodies, sieve };
}

/** Where the dropped bodies are (see {@link landingStats}). */
export interface Landing {
  /**
   * Landed: centre above the floor, inside its square, and touching something (floor, ramp or a body) or
   * at rest (a sleeping body has no contacts).
   */
  onFloor: number;
  /** Of those, slower than 0.1 m/s. */
  atRest: number;
  /** Outside the floor's square: slid or bounced off its edge. */
  offEdge: number;
  /** Centre below the floor, inside its square. */
  fellThrough: number;
  /** Above the floor, touching nothing and moving: still falling (or bouncing). */
  inAir: number;
  total: number;
  /** The lowest centre height among them. */
  lowest: number;
}

/** Scratch of {@link landingStats}: 1 for a body (by its index in the world) in a contact of the last step. */
let touching = new Uint8Array(0);

/**
 * Where the scene's dropped bodies are after the last step (every body but the floor and the ramp),
 * written to `end` (a new record by default; the browser page passes the same one every frame).
 */
export function landingStats(scene: Scene, end: Landing = {} as Landing): Landing {
  const n = scene.world.bodies.length;
  if (touching.length < n) touching = new Uint8Array(2 * n);
  touching.fill(0, 0, n);
  for (const c of scene.world.contacts) touching[c.bi.index] = touching[c.bj.index] = 1;
  let half = Number.POSITIVE_INFINITY;
  for (const b of scene.bodies) if (b.kind === 'floor') half = b.size;
  end.onFloor = end.atRest = end.offEdge = end.fellThrough = end.inAir = end.total = 0;
  end.lowest = Number.POSITIVE_INFINITY;
  for (const b of scene.bodies) {
    if (b.kind === 'floor' || b.kind === 'ramp') continue;
    end.total++;
    const { position: p, velocity: v } = b.body;
    end.lowest = Math.min(end.lowest, p.y);
    if (Math.abs(p.x) > half || Math.abs(p.z) > half) end.offEdge++;
    else if (p.y < 0) end.fellThrough++;
    else {
      const resting = Math.hypot(v.x, v.y, v.z) < 0.1;
      if (touching[b.body.index] === 0 && !resting) end.inAir++;
      else {
        end.onFloor++;
        if (resting) end.atRest++;
      }
    }
  }
  return end;
}
