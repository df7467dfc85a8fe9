/**
 * The sweep of one bullet against its candidates: the per-body culls (filters, constraints, the
 * capsule of the two centres' relative path, the other body's grown box), the other body's motion
 * over the step, and the time of impact of every bullet shape against every shape of the other body
 * (`timeOfImpact`'s conservative advancement; planes analytically, `planeToi.ts`), keeping the
 * earliest hit at t > 0 in `HIT`. A shape that starts the step touching is not stopped there, but its
 * core sphere is (Box2D v3's fallback for a fast shape that starts touching).
 */
import {
  type CcdBox,
  type CcdSphere,
  motionFromPoses,
  type TimeOfImpactOptions,
  TOI_HIT,
  TOI_ITERATION_LIMIT,
  TOI_OVERLAP,
  timeOfImpact,
} from '@sieve/core';
import { Body, type World } from 'cannon-es';
import {
  type BodyParts,
  bodyParts,
  type CcdPart,
  PART_MESH,
  PART_NONE,
  PART_PLANE,
  PART_SPHERE,
} from '../ccdShapes.js';
import { PLANE_WORDS, planeOfPart, planeTimeOfImpact } from '../planeToi.js';
import { overlapsSwept } from './candidates.js';
import type { BulletList } from './list.js';
import { displacement, reachOf } from './movers.js';
import { readPoses } from './poses.js';
import {
  HIT,
  HIT_CORE,
  HIT_DISTANCE,
  HIT_MOTION,
  HIT_NORMAL,
  HIT_POINT,
  HIT_PUSH,
  HIT_T,
  MA,
  MB,
  OUT,
  P0,
  P1,
  SWEPT,
} from './scratch.js';
import type { BulletConfig, BulletStepStats } from './settings.js';

/** The other body's poses before and after the step. */
const OP0 = new Float64Array(3);
const OQ0 = new Float64Array(4);
const OP1 = new Float64Array(3);
const OQ1 = new Float64Array(4);
/** A plane part as `planeTimeOfImpact` takes it. */
const PLANE = new Float64Array(PLANE_WORDS);

/** Sweeps bullets against candidate bodies; holds the earliest hit's bodies and parts. */
export class Sweep {
  /** Whether body AABBs are current (synced by the SieveBroadphase at the start of the step). */
  treeBoxes = false;
  /** The other body, bullet part and other part of the earliest hit (null: none). */
  bestOther: Body | null = null;
  bestPart: CcdPart | null = null;
  bestOtherPart: CcdPart | null = null;
  readonly toiOptions: TimeOfImpactOptions;

  constructor(
    private readonly world: World,
    private readonly config: BulletConfig,
    private readonly bullets: BulletList,
    private readonly stats: BulletStepStats,
  ) {
    this.toiOptions = { dt: 0, maxIterations: config.maxIterations };
    if (config.tolerance !== undefined) this.toiOptions.tolerance = config.tolerance;
  }

  /** Starts the sweep of one bullet: no hit yet. */
  begin(): void {
    HIT[HIT_T] = Number.POSITIVE_INFINITY;
    this.bestOther = null;
  }

  /** Times of impact of the bullet against every shape of `other`, keeping the earliest hit in HIT. */
  testBody(body: Body, parts: BodyParts, other: Body, stamp: number, dt: number): void {
    // bullets do not sweep against other (dynamic) bullets, as in Box2D v3
    if (other.world !== this.world || !other.collisionResponse) return;
    if (other.type === Body.DYNAMIC && this.bullets.has(other)) return;
    if (
      (body.collisionFilterGroup & other.collisionFilterMask) === 0 ||
      (other.collisionFilterGroup & body.collisionFilterMask) === 0
    ) {
      return;
    }
    const still = other.type === Body.STATIC || other.sleepState === Body.SLEEPING;
    const p = other.position;
    const q = other.quaternion;
    if (!(p.x - p.x === 0 && p.y - p.y === 0 && p.z - p.z === 0)) return;
    // Capsule cull: both centres move on straight lines, every point of the bullet stays within
    // maxExtent of its centre and every point of the other within its bounding radius of its centre
    // (cannon's rule, from each shape's boundingSphereRadius), so they can touch only if the relative
    // path of the centres comes that close.
    const pp = still ? p : other.previousPosition;
    const ax = P0[0] - pp.x;
    const ay = P0[1] - pp.y;
    const az = P0[2] - pp.z;
    const ex = P1[0] - p.x - ax;
    const ey = P1[1] - p.y - ay;
    const ez = P1[2] - p.z - az;
    const ee = ex * ex + ey * ey + ez * ez;
    const s = ee > 0 ? Math.min(Math.max(-(ax * ex + ay * ey + az * ez) / ee, 0), 1) : 0;
    const dx = ax + s * ex;
    const dy = ay + s * ey;
    const dz = az + s * ez;
    const reach = (parts.maxExtent + reachOf(other)) * 1.001 + (this.config.tolerance ?? 0);
    if (dx * dx + dy * dy + dz * dz > reach * reach) return;
    // the other's box (from the start of the step, with the tree), grown by how far it moved, against
    // the bullet's swept box
    const margin = still ? 0 : displacement(other);
    if (this.treeBoxes && !overlapsSwept(other.aabb, margin)) return;
    if (this.world.constraints.length > 0 && this.connectedWithoutCollision(body, other)) return;
    const op = bodyParts(other, stamp, this.config.coreFraction);
    // the other's motion over the step
    if (still) {
      MB.position[0] = p.x;
      MB.position[1] = p.y;
      MB.position[2] = p.z;
      MB.quaternion[0] = q.x;
      MB.quaternion[1] = q.y;
      MB.quaternion[2] = q.z;
      MB.quaternion[3] = q.w;
      MB.linearVelocity.fill(0);
      MB.angularVelocity.fill(0);
    } else {
      if (!readPoses(other, OP0, OQ0, OP1, OQ1)) return;
      motionFromPoses(MB, OP0, OQ0, OP1, OQ1, dt);
    }
    const compound = op.parts.length > 1;
    for (const pa of parts.parts) {
      if (pa.kind === PART_NONE || pa.kind === PART_PLANE || !pa.shape.collisionResponse) continue;
      for (const pb of op.parts) {
        if (pb.kind === PART_NONE || !pb.shape.collisionResponse) continue;
        const sa = pa.shape;
        const sb = pb.shape;
        if ((sa.collisionFilterMask & sb.collisionFilterGroup) === 0) continue;
        if ((sb.collisionFilterMask & sa.collisionFilterGroup) === 0) continue;
        if (compound && pb.kind !== PART_PLANE && !this.partNear(other, pb, margin)) continue;
        this.testPair(pa, pb, other, dt);
      }
    }
  }

  /** Whether the bounding sphere of `other`'s part `pb` (at its end pose, grown by `margin`) meets SWEPT. */
  private partNear(other: Body, pb: CcdPart, margin: number): boolean {
    const o = pb.offset;
    const q = other.quaternion;
    const tx = 2 * (q.y * o[2] - q.z * o[1]);
    const ty = 2 * (q.z * o[0] - q.x * o[2]);
    const tz = 2 * (q.x * o[1] - q.y * o[0]);
    const cx = other.position.x + o[0] + q.w * tx + (q.y * tz - q.z * ty);
    const cy = other.position.y + o[1] + q.w * ty + (q.z * tx - q.x * tz);
    const cz = other.position.z + o[2] + q.w * tz + (q.x * ty - q.y * tx);
    const r = pb.maxExtent - Math.sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) + margin;
    const dx = Math.max(SWEPT[0] - cx, 0, cx - SWEPT[3]);
    const dy = Math.max(SWEPT[1] - cy, 0, cy - SWEPT[4]);
    const dz = Math.max(SWEPT[2] - cz, 0, cz - SWEPT[5]);
    return !(dx * dx + dy * dy + dz * dz > r * r);
  }

  private connectedWithoutCollision(a: Body, b: Body): boolean {
    const cs = this.world.constraints;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (!c.collideConnected && ((c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a)))
        return true;
    }
    return false;
  }

  /** One shape pair: the shape's time of impact, or its core's when the shape starts touching. */
  private testPair(pa: CcdPart, pb: CcdPart, other: Body, dt: number): void {
    this.stats.tests++;
    this.toi(pa, pb, false, dt);
    const s = OUT.status;
    if ((s === TOI_HIT || s === TOI_ITERATION_LIMIT) && OUT.t > 0) {
      this.keep(OUT.t, s === TOI_HIT, false, other, pa, pb);
      return;
    }
    if (
      (s === TOI_HIT || s === TOI_OVERLAP || s === TOI_ITERATION_LIMIT) &&
      pa.core !== null &&
      pa.core.radius > 0
    ) {
      this.stats.tests++;
      this.toi(pa, pb, true, dt);
      // Even at t = 0: the core already touches only when the shape is 3/4 deep, and then it must not
      // go deeper (the engine's solver pushes it back out at the next step).
      const c = OUT.status;
      if (c === TOI_HIT || c === TOI_ITERATION_LIMIT) this.keep(OUT.t, false, true, other, pa, pb);
    }
  }

  /** OUT = time of impact of the bullet part `pa` (or its core) against `pb`. */
  private toi(pa: CcdPart, pb: CcdPart, core: boolean, dt: number): void {
    if (pb.kind === PART_PLANE) {
      planeOfPart(pb.offset, pb.orientation, MB, PLANE);
      // a sphere (the core, or a sphere part) or a box (a box part, or a mesh part's bounding box)
      const sphere = core || pa.kind === PART_SPHERE;
      const offset =
        pa.kind === PART_MESH && !core ? ((pa.bounds as CcdBox).offset as Float64Array) : pa.offset;
      const radius = core ? (pa.core as CcdSphere).radius : pa.kind === PART_SPHERE ? pa.minExtent : 0;
      const h = sphere ? null : pa.halfExtents;
      planeTimeOfImpact(
        offset,
        pa.orientation,
        h,
        radius,
        MA,
        PLANE,
        dt,
        this.config.tolerance,
        this.config.maxIterations,
        OUT,
      );
      return;
    }
    const shapeB = pb.ccd as NonNullable<CcdPart['ccd']>;
    const shapeA = core
      ? (pa.core as NonNullable<CcdPart['core']>)
      : pa.kind === PART_MESH && pb.kind === PART_MESH
        ? (pa.bounds as NonNullable<CcdPart['bounds']>)
        : (pa.ccd as NonNullable<CcdPart['ccd']>);
    timeOfImpact(shapeA, MA, shapeB, MB, this.toiOptions, OUT);
  }

  private keep(t: number, push: boolean, core: boolean, other: Body, pa: CcdPart, pb: CcdPart): void {
    if (!(t < HIT[HIT_T])) return;
    HIT[HIT_T] = t;
    for (let k = 0; k < 3; k++) {
      HIT[HIT_NORMAL + k] = OUT.normal[k];
      HIT[HIT_POINT + k] = OUT.point[k];
      HIT_MOTION.position[k] = MB.position[k];
      HIT_MOTION.linearVelocity[k] = MB.linearVelocity[k];
      HIT_MOTION.angularVelocity[k] = MB.angularVelocity[k];
    }
    for (let k = 0; k < 4; k++) HIT_MOTION.quaternion[k] = MB.quaternion[k];
    HIT[HIT_DISTANCE] = OUT.distance;
    HIT[HIT_PUSH] = push ? 1 : 0;
    HIT[HIT_CORE] = core ? 1 : 0;
    this.bestOther = other;
    this.bestPart = pa;
    this.bestOtherPart = pb;
  }
}
