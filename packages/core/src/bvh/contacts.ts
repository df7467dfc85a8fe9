/**
 * `MeshContacts`: the growable contact list filled by the mesh–sphere and mesh–OBB queries, one
 * contact per touching triangle, in a layout a physics engine can consume directly.
 */

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
    if (this.count === this.depths.length) this.grow();
    const k = this.count++;
    this.triangles[k] = triangle;
    this.points[3 * k] = px;
    this.points[3 * k + 1] = py;
    this.points[3 * k + 2] = pz;
    this.normals[3 * k] = nx;
    this.normals[3 * k + 1] = ny;
    this.normals[3 * k + 2] = nz;
    this.depths[k] = depth;
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

  private grow(): void {
    const n = 2 * this.depths.length;
    const t = new Uint32Array(n);
    t.set(this.triangles);
    this.triangles = t;
    const d = new Float64Array(n);
    d.set(this.depths);
    this.depths = d;
    const p = new Float64Array(3 * n);
    p.set(this.points);
    this.points = p;
    const q = new Float64Array(3 * n);
    q.set(this.normals);
    this.normals = q;
  }
}
