/**
 * What a character's last move left, to know whether the next one can skip its push-out check: the
 * capsule where the move put it, and each level mesh as it was — the same mesh, the same tree (a rebuild
 * replaces it), the same tree version (a refit bumps it) and the same world matrix. When all match,
 * nothing can have moved into the capsule since, and the ground found at the end of the last move still
 * holds.
 */
import type { MeshBVH } from '@sieve/core';
import type { Mesh } from 'three';
import type { BoundsTree } from '../boundsTree.js';
import type { CapsuleLike } from '../queries/capsule.js';
import { level } from './world.js';

export class LevelStamp {
  private meshes: (Mesh | null)[] = [];
  private trees: (MeshBVH | null)[] = [];
  private versions = new Float64Array(0);
  private matrices = new Float64Array(0);
  private count = 0;
  private readonly capsule = new Float64Array(7);
  private valid = false;

  /** Forgets the record: the next move checks everything. */
  invalidate(): void {
    this.valid = false;
  }

  /** Records the capsule and the level of the move in progress (`level`), after the move. */
  record(capsule: CapsuleLike): void {
    const n = level.count;
    if (this.versions.length < n) {
      this.versions = new Float64Array(n);
      this.matrices = new Float64Array(16 * n);
    }
    for (let i = 0; i < n; i++) {
      const mesh = level.meshes[i];
      const bvh = (level.trees[i] as BoundsTree).bvh;
      this.meshes[i] = mesh;
      this.trees[i] = bvh;
      this.versions[i] = bvh.version;
      const e = mesh.matrixWorld.elements;
      for (let k = 0; k < 16; k++) this.matrices[16 * i + k] = e[k];
    }
    for (let i = n; i < this.meshes.length; i++) {
      this.meshes[i] = null;
      this.trees[i] = null;
    }
    this.count = n;
    const c = this.capsule;
    c[0] = capsule.start.x;
    c[1] = capsule.start.y;
    c[2] = capsule.start.z;
    c[3] = capsule.end.x;
    c[4] = capsule.end.y;
    c[5] = capsule.end.z;
    c[6] = capsule.radius;
    this.valid = true;
  }

  /** Whether the capsule and the level of the move in progress are as recorded. */
  matches(capsule: CapsuleLike): boolean {
    if (!this.valid || level.count !== this.count) return false;
    const c = this.capsule;
    if (
      c[0] !== capsule.start.x ||
      c[1] !== capsule.start.y ||
      c[2] !== capsule.start.z ||
      c[3] !== capsule.end.x ||
      c[4] !== capsule.end.y ||
      c[5] !== capsule.end.z ||
      c[6] !== capsule.radius
    ) {
      return false;
    }
    for (let i = 0; i < this.count; i++) {
      const mesh = level.meshes[i];
      const bvh = (level.trees[i] as BoundsTree).bvh;
      if (mesh !== this.meshes[i] || bvh !== this.trees[i] || bvh.version !== this.versions[i]) return false;
      const e = mesh.matrixWorld.elements;
      for (let k = 0; k < 16; k++) if (e[k] !== this.matrices[16 * i + k]) return false;
    }
    return true;
  }
}
