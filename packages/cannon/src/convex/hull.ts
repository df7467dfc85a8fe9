/**
 * Convex hulls as flat typed arrays, built once per cannon-es shape and cached: what the separating-axis
 * queries and the clipping of the convex narrowphase read, in the shape's local frame.
 *
 * From a `ConvexPolyhedron` (or `Cylinder`), or a `Box`'s half extents: the vertices; the faces as planes
 * (outward unit normal and offset, Newell's normal from the face loop, oriented away from the vertex
 * centroid whatever the input winding) with their vertex loops wound counter-clockwise about the normal;
 * coplanar adjacent faces merged into one polygon (hulls from mesh tools come triangulated, and a
 * triangle as reference face would clip a resting box's four corners down to three); the unique edges
 * with their two faces, which are the arcs of the Gauss map (Dirk Gregorius, "The Separating Axis Test
 * between Convex Polyhedra", GDC 2013); and which faces meet at each vertex.
 *
 * The cache (a `WeakMap` on the shape) notices changes cheaply: a box's half extents on every call; a
 * polyhedron's vertex and face arrays by identity and length on every call, and their contents once per
 * world step (an exact comparison with the copy taken at the build), so editing vertices in place and
 * calling cannon's `updateConvexPolyhedronRepresentation` / `computeNormals` is picked up.
 */
import type { Box, ConvexPolyhedron, Shape } from 'cannon-es';

/** One convex hull in its shape's local frame, in flat arrays. */
export interface Hull {
  /** Vertex count. */
  nv: number;
  /** Face count (after merging coplanar faces). */
  nf: number;
  /** Unique edge count (edges between two distinct faces). */
  ne: number;
  /** Vertices, xyz each. */
  verts: Float64Array;
  /** Face planes: outward unit normal xyz and offset d (`n·x ≤ d` inside), 4 each. */
  planes: Float64Array;
  /** Face `f`'s vertex loop is `faceVerts[faceStart[f] … faceStart[f + 1])`, counter-clockwise about n. */
  faceStart: Int32Array;
  /** Vertex indices of the face loops. */
  faceVerts: Int32Array;
  /** Edges: vertex a, vertex b, face left of a→b, face on the other side; 4 each. */
  edges: Int32Array;
  /** Unit edge directions (b − a), 3 each. */
  edgeDirs: Float64Array;
  /**
   * Gauss-map arcs: n(other face) × n(left face) per edge, 3 each (Gregorius's `b × a`). Zero for an
   * edge between opposite faces (a flat hull), whose arc is a half circle the sign tests cannot use.
   */
  arcs: Float64Array;
  /** Whether some edge lies between opposite faces (a flat hull): its edge axes are tested in full. */
  flat: boolean;
  /** Faces around vertex `v`: `vertFaces[vertStart[v] … vertStart[v + 1])`. */
  vertStart: Int32Array;
  /** Face indices around the vertices. */
  vertFaces: Int32Array;
  /** Vertex centroid, an interior point. */
  center: Float64Array;
  /** Largest distance from the centroid to a vertex: the hull's scale for tolerances. */
  radius: number;
  /** Most vertices in one face loop. */
  maxFaceVerts: number;
  /** Largest distance from the shape's origin to a vertex. */
  reach: number;
}

/** Cosine above which adjacent faces count as coplanar and are merged. */
const COPLANAR_COS = 1 - 1e-9;

/**
 * Builds the hull of a vertex list (flat xyz) and face loops (any winding): normals, merged coplanar
 * faces, edges and vertex–face adjacency. Faces with no area are dropped; edges with a single face
 * (an open input) get no Gauss-map arc.
 */
export function buildHull(v: ArrayLike<number>, faceLoops: ArrayLike<ArrayLike<number>>): Hull {
  const nv = Math.floor(v.length / 3);
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let k = 0; k < nv; k++) {
    cx += v[3 * k];
    cy += v[3 * k + 1];
    cz += v[3 * k + 2];
  }
  if (nv > 0) {
    cx /= nv;
    cy /= nv;
    cz /= nv;
  }
  // Faces: outward normal, counter-clockwise loop.
  const loops: number[][] = [];
  const normals: number[] = [];
  for (let f = 0; f < faceLoops.length; f++) {
    const src = faceLoops[f];
    const loop: number[] = [];
    for (let k = 0; k < src.length; k++) {
      const i = src[k];
      if (Number.isInteger(i) && i >= 0 && i < nv && loop[loop.length - 1] !== i) loop.push(i);
    }
    if (loop.length > 1 && loop[0] === loop[loop.length - 1]) loop.pop();
    if (loop.length < 3) continue;
    const n = newell(v, loop);
    const len = Math.hypot(n[0], n[1], n[2]);
    if (!(len > 0)) continue;
    let nx = n[0] / len;
    let ny = n[1] / len;
    let nz = n[2] / len;
    // Outward: away from the centroid (a flat hull's faces, level with it, keep their winding).
    let side = 0;
    for (const i of loop) side += nx * (v[3 * i] - cx) + ny * (v[3 * i + 1] - cy) + nz * (v[3 * i + 2] - cz);
    if (side < -1e-12 * loop.length * Math.sqrt(len)) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
      loop.reverse();
    }
    loops.push(loop);
    normals.push(nx, ny, nz);
  }
  const merged = mergeCoplanar(v, loops, normals);
  const nf = merged.length;
  const planes = new Float64Array(4 * nf);
  const faceStart = new Int32Array(nf + 1);
  let total = 0;
  for (const loop of merged) total += loop.length;
  const faceVerts = new Int32Array(total);
  let maxFaceVerts = 0;
  total = 0;
  for (let f = 0; f < nf; f++) {
    const loop = merged[f];
    const n = newell(v, loop);
    const len = Math.hypot(n[0], n[1], n[2]) || 1;
    const nx = n[0] / len;
    const ny = n[1] / len;
    const nz = n[2] / len;
    // The supporting plane: no vertex of the face lies outside it.
    let d = Number.NEGATIVE_INFINITY;
    for (const i of loop) d = Math.max(d, nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2]);
    planes.set([nx, ny, nz, d], 4 * f);
    faceStart[f] = total;
    for (const i of loop) faceVerts[total++] = i;
    maxFaceVerts = Math.max(maxFaceVerts, loop.length);
  }
  faceStart[nf] = total;
  // Unique edges: each directed edge a→b of face f meets its twin b→a of face g.
  const twin = new Map<number, number>();
  for (let f = 0; f < nf; f++) {
    for (let k = faceStart[f]; k < faceStart[f + 1]; k++) {
      const a = faceVerts[k];
      const b = faceVerts[k + 1 < faceStart[f + 1] ? k + 1 : faceStart[f]];
      twin.set(a * nv + b, f);
    }
  }
  const edgeList: number[] = [];
  for (let f = 0; f < nf; f++) {
    for (let k = faceStart[f]; k < faceStart[f + 1]; k++) {
      const a = faceVerts[k];
      const b = faceVerts[k + 1 < faceStart[f + 1] ? k + 1 : faceStart[f]];
      const g = twin.get(b * nv + a);
      if (a < b && g !== undefined && g !== f) edgeList.push(a, b, f, g);
    }
  }
  const ne = edgeList.length / 4;
  const edges = Int32Array.from(edgeList);
  const edgeDirs = new Float64Array(3 * ne);
  const arcs = new Float64Array(3 * ne);
  let flat = false;
  for (let e = 0; e < ne; e++) {
    const f = 4 * edges[4 * e + 2];
    const g = 4 * edges[4 * e + 3];
    const ax = planes[g + 1] * planes[f + 2] - planes[g + 2] * planes[f + 1];
    const ay = planes[g + 2] * planes[f] - planes[g] * planes[f + 2];
    const az = planes[g] * planes[f + 1] - planes[g + 1] * planes[f];
    const cos = planes[g] * planes[f] + planes[g + 1] * planes[f + 1] + planes[g + 2] * planes[f + 2];
    if (cos < 0 && Math.hypot(ax, ay, az) < 1e-9) flat = true;
    else {
      arcs[3 * e] = ax;
      arcs[3 * e + 1] = ay;
      arcs[3 * e + 2] = az;
    }
    const a = edges[4 * e];
    const b = edges[4 * e + 1];
    const dx = v[3 * b] - v[3 * a];
    const dy = v[3 * b + 1] - v[3 * a + 1];
    const dz = v[3 * b + 2] - v[3 * a + 2];
    const len = Math.hypot(dx, dy, dz) || 1;
    edgeDirs[3 * e] = dx / len;
    edgeDirs[3 * e + 1] = dy / len;
    edgeDirs[3 * e + 2] = dz / len;
  }
  // Faces around each vertex (compressed rows).
  const vertStart = new Int32Array(nv + 1);
  for (let k = 0; k < total; k++) vertStart[faceVerts[k] + 1]++;
  for (let k = 0; k < nv; k++) vertStart[k + 1] += vertStart[k];
  const vertFaces = new Int32Array(total);
  const fill = vertStart.slice(0, nv);
  for (let f = 0; f < nf; f++) {
    for (let k = faceStart[f]; k < faceStart[f + 1]; k++) vertFaces[fill[faceVerts[k]]++] = f;
  }
  let radius = 0;
  let reach = 0;
  for (let k = 0; k < nv; k++) {
    radius = Math.max(radius, Math.hypot(v[3 * k] - cx, v[3 * k + 1] - cy, v[3 * k + 2] - cz));
    reach = Math.max(reach, Math.hypot(v[3 * k], v[3 * k + 1], v[3 * k + 2]));
  }
  return {
    nv,
    nf,
    ne,
    verts: Float64Array.from({ length: 3 * nv }, (_, k) => v[k]),
    planes,
    faceStart,
    faceVerts,
    edges,
    edgeDirs,
    arcs,
    flat,
    vertStart,
    vertFaces,
    center: Float64Array.of(cx, cy, cz),
    radius,
    maxFaceVerts,
    reach,
  };
}

/** Newell's normal of a vertex loop (not normalized; its length is twice the area). */
function newell(v: ArrayLike<number>, loop: number[]): [number, number, number] {
  let nx = 0;
  let ny = 0;
  let nz = 0;
  for (let k = 0; k < loop.length; k++) {
    const a = 3 * loop[k];
    const b = 3 * loop[(k + 1) % loop.length];
    nx += (v[a + 1] - v[b + 1]) * (v[a + 2] + v[b + 2]);
    ny += (v[a + 2] - v[b + 2]) * (v[a] + v[b]);
    nz += (v[a] - v[b]) * (v[a + 1] + v[b + 1]);
  }
  return [nx, ny, nz];
}

/**
 * Merges adjacent faces with (nearly) equal normals into one loop each: the directed edges of the
 * group whose twin is not in it, chained. A group whose border is not one simple loop stays unmerged.
 */
function mergeCoplanar(v: ArrayLike<number>, loops: number[][], normals: number[]): number[][] {
  const nf = loops.length;
  const nv = Math.floor(v.length / 3);
  const owner = new Map<number, number>();
  for (let f = 0; f < nf; f++) {
    const l = loops[f];
    for (let k = 0; k < l.length; k++) owner.set(l[k] * nv + l[(k + 1) % l.length], f);
  }
  // Union–find over coplanar neighbours.
  const parent = Array.from({ length: nf }, (_, f) => f);
  const root = (f: number): number => {
    while (parent[f] !== f) f = parent[f] = parent[parent[f]];
    return f;
  };
  for (let f = 0; f < nf; f++) {
    const l = loops[f];
    for (let k = 0; k < l.length; k++) {
      const g = owner.get(l[(k + 1) % l.length] * nv + l[k]);
      if (g === undefined || g === f) continue;
      const dot =
        normals[3 * f] * normals[3 * g] +
        normals[3 * f + 1] * normals[3 * g + 1] +
        normals[3 * f + 2] * normals[3 * g + 2];
      if (dot > COPLANAR_COS) parent[root(f)] = root(g);
    }
  }
  const groups = new Map<number, number[]>();
  for (let f = 0; f < nf; f++) {
    const r = root(f);
    const g = groups.get(r);
    if (g) g.push(f);
    else groups.set(r, [f]);
  }
  const out: number[][] = [];
  for (const members of groups.values()) {
    if (members.length === 1) {
      out.push(loops[members[0]]);
      continue;
    }
    const inGroup = new Set(members);
    const next = new Map<number, number>();
    let ok = true;
    for (const f of members) {
      const l = loops[f];
      for (let k = 0; k < l.length; k++) {
        const a = l[k];
        const b = l[(k + 1) % l.length];
        const g = owner.get(b * nv + a);
        if (g !== undefined && inGroup.has(g)) continue; // inner edge
        if (next.has(a)) ok = false; // the border touches itself
        next.set(a, b);
      }
    }
    const loop: number[] = [];
    if (ok && next.size >= 3) {
      const start = next.keys().next().value as number;
      let a = start;
      do {
        loop.push(a);
        a = next.get(a) ?? -1;
      } while (a !== start && a >= 0 && loop.length <= next.size);
      ok = a === start && loop.length === next.size;
    }
    if (ok) out.push(loop);
    else for (const f of members) out.push(loops[f]);
  }
  return out;
}

/** The hull of a box with half extents (hx, hy, hz). */
export function boxHull(hx: number, hy: number, hz: number): Hull {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push(k & 1 ? hx : -hx, k & 2 ? hy : -hy, k & 4 ? hz : -hz);
  // biome-ignore format: one face a row
  const faces = [
    [0, 4, 6, 2], [1, 3, 7, 5], // -x, +x
    [0, 1, 5, 4], [2, 6, 7, 3], // -y, +y
    [0, 2, 3, 1], [4, 5, 7, 6], // -z, +z
  ];
  return buildHull(v, faces);
}

// --- the per-shape cache -------------------------------------------------------------------------------

interface Entry {
  hull: Hull;
  /** Box half extents at the build (boxes only). */
  hx: number;
  hy: number;
  hz: number;
  /** The polyhedron's arrays and a copy of their contents at the build (polyhedra only). */
  vertsRef: unknown;
  facesRef: unknown;
  srcVerts: Float64Array;
  srcFaces: Int32Array;
  /** The step whose contents check passed. */
  checked: number;
}

const entries = new WeakMap<Shape, Entry>();
const BOX_TYPE = 4;

/**
 * The hull of a Box, ConvexPolyhedron or Cylinder shape, built on first use and rebuilt when the shape
 * changed; `stamp` (the world's step number) limits the full contents check to once a step.
 */
export function hullOf(shape: Shape, stamp: number): Hull {
  const e = entries.get(shape);
  if (shape.type === BOX_TYPE) {
    const h = (shape as Box).halfExtents;
    if (e && e.hx === h.x && e.hy === h.y && e.hz === h.z) return e.hull;
    const hull = boxHull(h.x, h.y, h.z);
    entries.set(shape, {
      hull,
      hx: h.x,
      hy: h.y,
      hz: h.z,
      vertsRef: null,
      facesRef: null,
      srcVerts: EMPTY_F,
      srcFaces: EMPTY_I,
      checked: stamp,
    });
    return hull;
  }
  const poly = shape as ConvexPolyhedron;
  if (e && e.vertsRef === poly.vertices && e.facesRef === poly.faces) {
    if (e.checked === stamp || unchanged(poly, e)) {
      e.checked = stamp;
      return e.hull;
    }
  }
  return rebuild(poly, stamp);
}

const EMPTY_F = new Float64Array(0);
const EMPTY_I = new Int32Array(0);

function rebuild(poly: ConvexPolyhedron, stamp: number): Hull {
  const verts = poly.vertices;
  const srcVerts = new Float64Array(3 * verts.length);
  for (let k = 0; k < verts.length; k++) {
    srcVerts[3 * k] = verts[k].x;
    srcVerts[3 * k + 1] = verts[k].y;
    srcVerts[3 * k + 2] = verts[k].z;
  }
  const flat: number[] = [];
  for (const face of poly.faces) flat.push(face.length, ...face);
  const hull = buildHull(srcVerts, poly.faces);
  entries.set(poly, {
    hull,
    hx: 0,
    hy: 0,
    hz: 0,
    vertsRef: poly.vertices,
    facesRef: poly.faces,
    srcVerts,
    srcFaces: Int32Array.from(flat),
    checked: stamp,
  });
  return hull;
}

/** Whether a polyhedron's vertices and faces still equal the copy taken at the build. */
function unchanged(poly: ConvexPolyhedron, e: Entry): boolean {
  const verts = poly.vertices;
  const src = e.srcVerts;
  if (3 * verts.length !== src.length) return false;
  for (let k = 0; k < verts.length; k++) {
    const p = verts[k];
    if (p.x !== src[3 * k] || p.y !== src[3 * k + 1] || p.z !== src[3 * k + 2]) return false;
  }
  const faces = poly.faces;
  const sf = e.srcFaces;
  let o = 0;
  for (let f = 0; f < faces.length; f++) {
    const face = faces[f];
    if (sf[o++] !== face.length) return false;
    for (let k = 0; k < face.length; k++) if (sf[o++] !== face[k]) return false;
  }
  return o === sf.length;
}
