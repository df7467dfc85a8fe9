/**
 * `MeshContacts`: the growable contact list filled by the mesh–sphere and mesh–OBB queries, one
 * contact per touching triangle, in a layout a physics engine can consume directly.
 */

import { growArray } from '../growArray.js';

/** The contact {@link MeshContacts.push} hands to {@link MeshContacts.pushFrom}. */
const CONTACT = new Float64Array(7);

/**
 * Contacts between a mesh and a shape, one per triangle the shape touches (touching counts, depth 0).
 * All vectors are in world space. `normals[k]` is a unit vector pointing from the mesh towards the shape:
 * moving the shape by `depths[k]·normals[k]` separates it from that triangle. `points[k]` lies on the
 * triangle. Arrays grow by doubling and are reused across queries: read them before the next one.
 */
export class MeshContacts {
  /** Number of contacts. */
  count = 0;
  /** Original index of the triangle of each contact. */
  triangles = new Uint32Array(16);
  /** Contact point on the mesh, 3 numbers each. */
  points = new Float64Array(48);
  /** Unit contact normal (mesh → shape), 3 numbers each. */
  normals = new Float64Array(48);
  /** Penetration depth (≥ 0). */
  depths = new Float64Array(16);

  /** Appends a contact. */
  push(
    triangle: number,
    px: number,
    py: number,
    pz: number,
    nx: number,
    ny: number,
    nz: number,
    depth: number,
  ): void {
    const d = CONTACT;
    d[0] = px;
    d[1] = py;
    d[2] = pz;
    d[3] = nx;
    d[4] = ny;
    d[5] = nz;
    d[6] = depth;
    this.pushFrom(triangle, d, 0);
  }

  /**
   * Appends a contact read from `data[o..o+6]` = `[px, py, pz, nx, ny, nz, depth]` (the allocation-free
   * form used by the queries: no double crosses the call).
   */
  pushFrom(triangle: number, data: Float64Array, o: number): void {
    if (this.count === this.depths.length) this.grow();
    const k = this.count++;
    this.triangles[k] = triangle;
    this.points[3 * k] = data[o];
    this.points[3 * k + 1] = data[o + 1];
    this.points[3 * k + 2] = data[o + 2];
    this.normals[3 * k] = data[o + 3];
    this.normals[3 * k + 1] = data[o + 4];
    this.normals[3 * k + 2] = data[o + 5];
    this.depths[k] = data[o + 6];
  }

  /** Doubles the arrays (`points` and `normals` three times as long as the others), keeping their contents. */
  private grow(): void {
    const n = 2 * this.depths.length;
    this.triangles = growArray(this.triangles, n);
    this.depths = growArray(this.depths, n);
    this.points = growArray(this.points, 3 * n);
    this.normals = growArray(this.normals, 3 * n);
  }
}
