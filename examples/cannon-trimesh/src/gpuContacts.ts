/**
 * Routes the scene's trimesh–trimesh pair tests through Sieve's GPU triangle pass (`@sieve/core/gpu`)
 * when WebGPU is present. cannon-es calls its narrowphase synchronously inside `world.step`, and a GPU
 * read-back is asynchronous, so the pass runs just before the step, on the poses the narrowphase will
 * see (cannon's step tests contacts before it integrates): every pair of trimesh bodies whose boxes
 * overlap goes to the GPU in one batch (one read-back a step), and Sieve's trimesh–trimesh handler
 * (`@sieve/cannon`) is wrapped so that the pairs the GPU found apart return "no contact" at once.
 * Pairs the GPU found touching still get their contacts from the CPU handler (which clips the
 * triangle pairs itself: @sieve/cannon has no hook yet to hand it the GPU's triangle pairs).
 */

import { SIEVE_COLLISION_TYPES, trimeshBVH } from '@sieve/cannon';
import { MeshMeshResult } from '@sieve/core';
import { GpuMeshMesh, type GpuPairQuery } from '@sieve/core/gpu';
import { type Body, type Narrowphase, Quaternion, Trimesh, Vec3, type World } from 'cannon-es';

type Handler = (this: Narrowphase, ...args: unknown[]) => boolean | undefined;

/** What the routing did in the last step. */
export interface RoutingStats {
  /** Trimesh body pairs sent to the GPU. */
  gpuPairs: number;
  /** Of those, pairs the GPU found apart (the CPU handler was skipped). */
  skipped: number;
  /** Milliseconds spent in the GPU pass before the step (culling, upload, dispatch, read-back). */
  gpuMs: number;
}

/** The GPU routing of one world's trimesh–trimesh pairs. */
export class GpuTrimeshRouting {
  /** `'gpu'` when WebGPU runs the pass, `'cpu'` when there is none (then nothing is routed). */
  readonly backend: 'gpu' | 'cpu';
  /** The adapter, or why there is no GPU. */
  readonly info: string;
  readonly stats: RoutingStats = { gpuPairs: 0, skipped: 0, gpuMs: 0 };
  private readonly pass: GpuMeshMesh;
  private readonly handles = new Map<Trimesh, number>();
  private readonly verdict = new Map<number, boolean>();
  /** Reused batch entries (result and matrices are owned by each entry). */
  private readonly pool: GpuPairQuery[] = [];
  private readonly batch: GpuPairQuery[] = [];
  private readonly keys: number[] = [];
  private world: World | null = null;
  private original: Handler | null = null;

  private constructor(pass: GpuMeshMesh) {
    this.pass = pass;
    this.backend = pass.backend;
    this.info = pass.info;
  }

  /** Asks for a WebGPU device (never fails: without one, `backend` is `'cpu'`). */
  static async create(): Promise<GpuTrimeshRouting> {
    return new GpuTrimeshRouting(await GpuMeshMesh.create({ blockSize: 64 }));
  }

  /** Wraps the trimesh–trimesh handler of a world with Sieve installed. */
  install(world: World): void {
    if (this.backend !== 'gpu') return;
    const np = world.narrowphase as unknown as Record<number, Handler>;
    const key = SIEVE_COLLISION_TYPES.trimeshTrimesh;
    const original = np[key];
    if (typeof original !== 'function')
      throw new Error('GpuTrimeshRouting.install: install Sieve on the world first');
    this.world = world;
    this.original = original;
    const verdict = this.verdict;
    const stats = this.stats;
    np[key] = function (this: Narrowphase, ...args: unknown[]) {
      const bi = args[6] as Body;
      const bj = args[7] as Body;
      if (verdict.get(pairKey(bi.id, bj.id)) === false) {
        stats.skipped++;
        return false;
      }
      return original.apply(this, args);
    };
  }

  /** Restores the handler. */
  uninstall(): void {
    if (!this.world || !this.original) return;
    (this.world.narrowphase as unknown as Record<number, Handler>)[SIEVE_COLLISION_TYPES.trimeshTrimesh] =
      this.original;
    this.world = null;
    this.original = null;
  }

  /** Runs the GPU pass on every trimesh body pair whose boxes overlap; call right before `world.step`. */
  async prepare(): Promise<void> {
    const world = this.world;
    this.verdict.clear();
    this.stats.gpuPairs = 0;
    this.stats.skipped = 0;
    this.stats.gpuMs = 0;
    if (!world) return;
    const t0 = performance.now();
    const bodies = world.bodies.filter((b) => b.shapes.length === 1 && b.shapes[0] instanceof Trimesh);
    for (const b of bodies) if (b.aabbNeedsUpdate) b.updateAABB();
    const batch = this.batch;
    batch.length = 0;
    this.keys.length = 0;
    for (let i = 0; i < bodies.length; i++) {
      for (let j = i + 1; j < bodies.length; j++) {
        const bi = bodies[i];
        const bj = bodies[j];
        if (bi.mass === 0 && bj.mass === 0) continue;
        if (bi.sleepState === 2 && bj.sleepState === 2) continue;
        if (!bi.aabb.overlaps(bj.aabb)) continue;
        if (this.pool.length === batch.length) {
          this.pool.push({
            a: 0,
            matrixA: new Float64Array(16),
            b: 0,
            matrixB: new Float64Array(16),
            result: new MeshMeshResult(),
          });
        }
        const q = this.pool[batch.length];
        q.a = this.handle(bi.shapes[0] as Trimesh);
        q.b = this.handle(bj.shapes[0] as Trimesh);
        shapeMatrix(bi, q.matrixA as Float64Array);
        shapeMatrix(bj, q.matrixB as Float64Array);
        batch.push(q);
        this.keys.push(pairKey(bi.id, bj.id));
      }
    }
    if (batch.length > 0) await this.pass.pairsBatch(batch);
    for (let k = 0; k < batch.length; k++) this.verdict.set(this.keys[k], batch[k].result.count > 0);
    this.stats.gpuPairs = batch.length;
    this.stats.gpuMs = performance.now() - t0;
  }

  /** Frees the GPU buffers. */
  destroy(): void {
    this.uninstall();
    this.pass.destroy();
  }

  private handle(shape: Trimesh): number {
    let h = this.handles.get(shape);
    if (h === undefined) {
      h = this.pass.addMesh(trimeshBVH(shape));
      this.handles.set(shape, h);
    }
    return h;
  }
}

function pairKey(a: number, b: number): number {
  return a < b ? a * 1_048_576 + b : b * 1_048_576 + a;
}

const X = new Vec3();
const Q = new Quaternion();

/** Column-major 4×4 of the body's only shape, as cannon's narrowphase places it (offset, orientation, scale). */
function shapeMatrix(body: Body, out: Float64Array): Float64Array {
  body.quaternion.vmult(body.shapeOffsets[0], X);
  X.vadd(body.position, X);
  body.quaternion.mult(body.shapeOrientations[0], Q);
  const shape = body.shapes[0] as Trimesh;
  let { x, y, z, w } = Q;
  const len = Math.hypot(x, y, z, w) || 1;
  x /= len;
  y /= len;
  z /= len;
  w /= len;
  const s = shape.scale;
  out[0] = (1 - 2 * (y * y + z * z)) * s.x;
  out[1] = 2 * (x * y + z * w) * s.x;
  out[2] = 2 * (x * z - y * w) * s.x;
  out[3] = 0;
  out[4] = 2 * (x * y - z * w) * s.y;
  out[5] = (1 - 2 * (x * x + z * z)) * s.y;
  out[6] = 2 * (y * z + x * w) * s.y;
  out[7] = 0;
  out[8] = 2 * (x * z + y * w) * s.z;
  out[9] = 2 * (y * z - x * w) * s.z;
  out[10] = (1 - 2 * (x * x + y * y)) * s.z;
  out[11] = 0;
  out[12] = X.x;
  out[13] = X.y;
  out[14] = X.z;
  out[15] = 1;
  return out;
}
