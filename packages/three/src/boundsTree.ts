/**
 * `BoundsTree`: the object `computeBoundsTree` puts on `geometry.boundsTree` — a Sieve `MeshBVH`
 * (`@sieve/core`) over a three.js `BufferGeometry`, kept in step with it.
 *
 * Follows three-mesh-bvh's `MeshBVH` as a geometry's bounds tree (`src/core/MeshBVH.js`): built from
 * the geometry's position and index attributes, optionally over a range of them (a `BatchedMesh`
 * geometry), refit after vertices move. Two differences: the geometry's index is never reordered
 * (three-mesh-bvh rewrites it unless `indirect`), so `faceIndex` and groups keep their meaning; and the
 * tree checks the geometry's attributes before every query — a position attribute flagged with
 * `needsUpdate` since the last build is refit, a replaced attribute or an edited index is rebuilt — so
 * a stale tree never answers.
 */
import {
  checkOptionKeys,
  MeshBVH,
  MeshMeshResult,
  meshMeshIntersects,
  meshObbIntersects,
  meshSphereIntersects,
  optionKeys,
  type SplitStrategy,
} from '@sieve/core';
import type { Box3, BufferGeometry, Matrix4, Sphere, Vector3 } from 'three';
import { compareStamp, readGeometry, type SourceStamp, stampOf } from './geometrySource.js';
import { affineElements } from './queries/affineElements.js';
import { obbOf } from './queries/boxes.js';
import { closestPointBvh, type HitPointInfo, nearestInto } from './queries/closestPoint.js';
import { buildRayTree, type RayTree, refreshRayTree } from './raycast/rayTree.js';

/** A range of a geometry's index (or, non-indexed, vertex) entries, as `BatchedMesh` keeps them. */
export interface BoundsTreeRange {
  /** First entry. */
  start: number;
  /** Number of entries (whole triangles of them are used). */
  count: number;
}

/**
 * Options of {@link computeBoundsTree} and the {@link BoundsTree} constructor. three-mesh-bvh's option
 * names are accepted so its calls keep working; the ones that only concern its own memory layout are
 * accepted and have no effect.
 */
export interface BoundsTreeOptions {
  /**
   * Split strategy: `'center'` (default) or `'sah'`; three-mesh-bvh's constants are accepted too
   * (`CENTER` = 0 and `AVERAGE` = 1 build `'center'`, `SAH` = 2 builds `'sah'`).
   */
  strategy?: SplitStrategy | number;
  /**
   * A node with at most this many triangles becomes a leaf (1–255, default 10: three-mesh-bvh's
   * `targetLeafSize`; measured as fast for rays as 8, with faster builds and refits).
   */
  maxLeafSize?: number;
  /** three-mesh-bvh's name for {@link BoundsTreeOptions.maxLeafSize}. */
  targetLeafSize?: number;
  /** Nodes at this depth become leaves (1–128, default 40). */
  maxDepth?: number;
  /** Compute `geometry.boundingBox` if it is `null` (default `true`, as three-mesh-bvh). */
  setBoundingBox?: boolean;
  /**
   * Only the index (or, non-indexed, vertex) entries `[start, start + count)`: a `BatchedMesh`
   * geometry's range. Default: the whole geometry.
   */
  range?: BoundsTreeRange | null;
  /** Accepted for three-mesh-bvh compatibility; no effect (the index is never reordered). */
  indirect?: boolean;
  /** Accepted for three-mesh-bvh compatibility; no effect. */
  verbose?: boolean;
  /** Accepted for three-mesh-bvh compatibility; no effect (the tree lives in an `ArrayBuffer`). */
  useSharedArrayBuffer?: boolean;
  /** Called once with `1` when the build is done (three-mesh-bvh reports progress in [0, 1]). */
  onProgress?: ((progress: number) => void) | null;
}

const OPTION_KEYS = optionKeys<BoundsTreeOptions>({
  strategy: true,
  maxLeafSize: true,
  targetLeafSize: true,
  maxDepth: true,
  setBoundingBox: true,
  range: true,
  indirect: true,
  verbose: true,
  useSharedArrayBuffer: true,
  onProgress: true,
});

function resolveStrategy(s: SplitStrategy | number | undefined): SplitStrategy {
  if (s === undefined || s === 'center' || s === 0 || s === 1) return 'center';
  if (s === 'sah' || s === 2) return 'sah';
  throw new RangeError(
    `computeBoundsTree: options.strategy must be 'center', 'sah', CENTER, AVERAGE or SAH (got ${String(s)})`,
  );
}

/**
 * A BVH over the triangles of a `BufferGeometry` (or of a range of it), as `geometry.boundsTree`.
 *
 * ```ts
 * import { TorusKnotGeometry } from 'three';
 * import { BoundsTree } from '@sieve/three';
 *
 * const geometry = new TorusKnotGeometry(1, 0.3, 200, 32);
 * const tree = new BoundsTree(geometry); // what geometry.computeBoundsTree() stores
 * console.log(tree.triangleCount); // 12800
 * ```
 */
export class BoundsTree {
  /** The geometry the tree was built from. */
  readonly geometry: BufferGeometry;
  /** First index (or vertex, non-indexed) entry the tree covers. */
  readonly rangeStart: number;
  /** Number of entries the tree was asked to cover (whole triangles of it are used). */
  readonly rangeCount: number;

  /**
   * The geometry's number (`faceIndex`) of the tree's first triangle: the queries number triangles from
   * the start of the range, and report this plus their number.
   */
  get firstTriangle(): number {
    return Math.floor(this.rangeStart / 3);
  }
  /** The Sieve BVH (local frame of the geometry), rebuilt when the geometry's attributes are replaced. */
  bvh: MeshBVH;
  /**
   * Whether the BVH's float32 vertices are exactly the values three.js reads (false only for
   * normalized-integer or half-float positions, which are rounded to float32 for the BVH).
   */
  exact: boolean;
  private copied: boolean;
  private rays: RayTree | null = null;
  private stamp: SourceStamp;
  private readonly strategy: SplitStrategy;
  private readonly maxLeafSize: number;
  private readonly maxDepth: number;

  /**
   * Builds the tree. Throws a `TypeError` for something that is not a `BufferGeometry`, a geometry
   * without positions, an unknown option key, and a `RangeError` for bad option values, a
   * non-finite position or an index out of range.
   */
  constructor(geometry: BufferGeometry, options: BoundsTreeOptions = {}) {
    if (!geometry || (geometry as { isBufferGeometry?: boolean }).isBufferGeometry !== true) {
      throw new TypeError('computeBoundsTree: geometry must be a three.js BufferGeometry');
    }
    checkOptionKeys('computeBoundsTree: options', options, OPTION_KEYS);
    const o = options ?? {};
    this.strategy = resolveStrategy(o.strategy);
    if (o.maxLeafSize !== undefined && o.targetLeafSize !== undefined && o.maxLeafSize !== o.targetLeafSize) {
      throw new RangeError('computeBoundsTree: options.maxLeafSize and options.targetLeafSize disagree');
    }
    this.maxLeafSize = o.maxLeafSize ?? o.targetLeafSize ?? 10;
    this.maxDepth = o.maxDepth ?? 40;
    const range = o.range ?? null;
    if (range !== null) {
      if (typeof range !== 'object' || !isCount(range.start) || !isCount(range.count)) {
        throw new RangeError('computeBoundsTree: options.range must be { start, count } with integers >= 0');
      }
    }
    this.geometry = geometry;
    this.rangeStart = range ? range.start : 0;
    this.rangeCount = range ? range.count : Infinity;
    const arrays = readGeometry(geometry, this.rangeStart, this.rangeCount, 'computeBoundsTree');
    this.bvh = this.build(arrays.positions, arrays.index);
    this.exact = arrays.exact;
    this.copied = arrays.copied;
    this.stamp = stampOf(geometry);
    if (o.setBoundingBox !== false && geometry.boundingBox === null) geometry.computeBoundingBox();
    if (typeof o.onProgress === 'function') o.onProgress(1);
  }

  /** Number of triangles in the tree. */
  get triangleCount(): number {
    return this.bvh.triangleCount;
  }

  private build(positions: Float32Array, index: Uint16Array | Uint32Array | null): MeshBVH {
    return new MeshBVH(positions, index, {
      strategy: this.strategy,
      maxLeafSize: this.maxLeafSize,
      maxDepth: this.maxDepth,
    });
  }

  /**
   * Recomputes the node bounds from the geometry's current positions, keeping the tree's topology
   * (fast; queries stay exact, a large deformation makes them slower — rebuild then). Queries do this
   * by themselves when the position attribute was flagged `needsUpdate` since the last build or refit.
   *
   * ```ts
   * import { PlaneGeometry } from 'three';
   * import { BoundsTree } from '@sieve/three';
   *
   * const geometry = new PlaneGeometry(10, 10, 32, 32);
   * const tree = new BoundsTree(geometry);
   * const position = geometry.attributes.position;
   * for (let i = 0; i < position.count; i++) position.setZ(i, Math.sin(position.getX(i)));
   * tree.refit();
   * ```
   */
  refit(): void {
    const kind = compareStamp(this.geometry, this.stamp);
    if (kind === 2) {
      this.rebuild();
      return;
    }
    if (this.copied) {
      const arrays = readGeometry(
        this.geometry,
        this.rangeStart,
        this.rangeCount,
        'BoundsTree.refit',
        this.bvh.positions,
      );
      this.exact = arrays.exact;
      this.bvh.refit(arrays.positions);
    } else {
      this.bvh.refit();
    }
    this.stamp = stampOf(this.geometry);
  }

  /** The tree's nodes in the ray walks' layout, copied again when the tree was rebuilt or refit. */
  rayTree(): RayTree {
    let rays = this.rays;
    if (rays === null || rays.bvh !== this.bvh) rays = this.rays = buildRayTree(this.bvh);
    else if (rays.version !== this.bvh.version) refreshRayTree(rays);
    return rays;
  }

  private rebuild(): void {
    const arrays = readGeometry(this.geometry, this.rangeStart, this.rangeCount, 'BoundsTree');
    this.bvh = this.build(arrays.positions, arrays.index);
    this.exact = arrays.exact;
    this.copied = arrays.copied;
    this.stamp = stampOf(this.geometry);
  }

  /**
   * Brings the tree in step with its geometry (refit after `needsUpdate` on the positions, rebuild
   * after the attributes were replaced or the index edited). Every query calls it first.
   */
  update(): void {
    const kind = compareStamp(this.geometry, this.stamp);
    if (kind === 1) this.refit();
    else if (kind === 2) this.rebuild();
  }

  /**
   * Whether `otherGeometry`, placed in this geometry's frame by `geometryToBvh`, intersects this
   * geometry (three-mesh-bvh's `MeshBVH.intersectsGeometry`; local frames, touching counts). The other
   * geometry's own tree is used if it has one; otherwise one is built once and kept (weakly) for later
   * calls, the geometry itself left untouched.
   *
   * ```ts
   * import { Matrix4, TorusKnotGeometry } from 'three';
   * import { BoundsTree } from '@sieve/three';
   *
   * const a = new TorusKnotGeometry();
   * const b = new TorusKnotGeometry();
   * const tree = new BoundsTree(a);
   * console.log(tree.intersectsGeometry(b, new Matrix4().makeTranslation(0.5, 0, 0))); // true
   * console.log(tree.intersectsGeometry(b, new Matrix4().makeTranslation(10, 0, 0))); // false
   * ```
   */
  intersectsGeometry(otherGeometry: BufferGeometry, geometryToBvh: Matrix4): boolean {
    this.update();
    const matrix = affineElements(geometryToBvh, 'intersectsGeometry', 'geometryToBvh');
    let other = (otherGeometry as { boundsTree?: unknown } | null)?.boundsTree;
    if (!(other instanceof BoundsTree)) {
      other = otherTrees.get(otherGeometry);
      if (!(other instanceof BoundsTree)) {
        other = new BoundsTree(otherGeometry, { setBoundingBox: false });
        otherTrees.set(otherGeometry, other as BoundsTree);
      }
    }
    const tree = other as BoundsTree;
    tree.update();
    return meshMeshIntersects(this.bvh, null, tree.bvh, matrix, anyHit);
  }

  /**
   * Whether a sphere in this geometry's frame touches it (three-mesh-bvh's `intersectsSphere`).
   *
   * ```ts
   * import { Sphere, TorusKnotGeometry, Vector3 } from 'three';
   * import { BoundsTree } from '@sieve/three';
   *
   * const tree = new BoundsTree(new TorusKnotGeometry());
   * console.log(tree.intersectsSphere(new Sphere(new Vector3(0, 0, 0), 0.1))); // false: the knot's hole
   * ```
   */
  intersectsSphere(sphere: Sphere): boolean {
    this.update();
    if (!sphere?.center) throw new TypeError('intersectsSphere: sphere must be a Sphere');
    CENTER[0] = sphere.center.x;
    CENTER[1] = sphere.center.y;
    CENTER[2] = sphere.center.z;
    return meshSphereIntersects(this.bvh, null, CENTER, sphere.radius);
  }

  /**
   * Whether `box`, placed in this geometry's frame by `boxToBvh` (rotation, translation, scale),
   * touches it (three-mesh-bvh's `intersectsBox`).
   *
   * ```ts
   * import { Box3, Matrix4, PlaneGeometry, Vector3 } from 'three';
   * import { BoundsTree } from '@sieve/three';
   *
   * const tree = new BoundsTree(new PlaneGeometry(2, 2));
   * const box = new Box3(new Vector3(-0.1, -0.1, -0.1), new Vector3(0.1, 0.1, 0.1));
   * console.log(tree.intersectsBox(box, new Matrix4().makeTranslation(0, 0, 0.05))); // true
   * ```
   */
  intersectsBox(box: Box3, boxToBvh: Matrix4): boolean {
    this.update();
    return meshObbIntersects(this.bvh, null, obbOf(box, boxToBvh, 'intersectsBox'));
  }

  /**
   * The point of this geometry nearest to `point` (both in the geometry's frame), into `target` (a new
   * object if omitted), or `null` if none lies within `maxThreshold`; stops at the first point closer
   * than `minThreshold` (three-mesh-bvh's `closestPointToPoint`).
   *
   * ```ts
   * import { SphereGeometry, Vector3 } from 'three';
   * import { BoundsTree } from '@sieve/three';
   *
   * const tree = new BoundsTree(new SphereGeometry(1, 32, 16));
   * console.log(tree.closestPointToPoint(new Vector3(0, 3, 0))?.distance.toFixed(3)); // "2.000"
   * ```
   */
  closestPointToPoint(
    point: Vector3,
    target?: HitPointInfo,
    minThreshold = 0,
    maxThreshold = Infinity,
  ): HitPointInfo | null {
    this.update();
    const found = closestPointBvh(this.bvh, null, point, minThreshold, maxThreshold);
    return nearestInto(found, this.firstTriangle, target);
  }
}

/** Trees built for the other geometry of `intersectsGeometry` when it has none of its own. */
const otherTrees = new WeakMap<BufferGeometry, BoundsTree>();
const anyHit = new MeshMeshResult();
const CENTER = new Float64Array(3);

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
