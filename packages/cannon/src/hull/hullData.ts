/**
 * A cannon-es `ConvexPolyhedron` read into flat arrays for the exact hull contacts: its vertices, face
 * normals, unique edges and unique axes as `Float64Array`s (x, y, z per entry), re-read on every use so
 * shapes edited in place (the heightfield's reused pillar hull, a user's own edits) are always current,
 * plus what is derived from them and kept while they do not change:
 *
 * - `twin[e]`: the first unique edge that is the exact negation of edge `e` (or `e` itself). cannon's
 *   `computeEdges` keeps both directions of every edge (its duplicate test compares one direction
 *   twice), and the axis of a negated edge is the negated axis, whose projections and depth are the same
 *   numbers (see the separating-axis module).
 * - `support`: for hulls of 10 or more vertices, a cube map of support vertices (for each of 6·G² cell
 *   directions, the vertex farthest along it), used only for lower bounds: any vertex's projection
 *   bounds the hull's extent along an axis, so a stale or poor entry can only make a bound weaker.
 *
 * One entry per shape, in a `WeakMap`. `valid` is false when the shape has something cannon's own code
 * would choke on or answer with non-finite numbers (no vertices, no faces, non-finite or huge
 * coordinates, fewer normals than faces): the caller then hands the pair to cannon's own handler.
 */
import type { ConvexPolyhedron, Vec3 } from 'cannon-es';

/** Cells per cube-map face side. */
export const SUPPORT_GRID = 6;
/** Coordinates past this are left to cannon's own code (its arithmetic could overflow). */
const HUGE = 1e100;

/** The flat copy of one hull and what is derived from it. */
export interface HullData {
  /** Whether the exact path may answer for this hull (see the module comment). */
  valid: boolean;
  nv: number;
  /** Local vertices (3 per vertex). */
  verts: Float64Array;
  /** Faces (`shape.faces.length`); face normals, 3 each. */
  nf: number;
  normals: Float64Array;
  /** Unique edges, 3 each, and each one's first exact negation (or itself). */
  ne: number;
  edges: Float64Array;
  twin: Int32Array;
  /** Unique axes (boxes), or -1 when the hull has none and its face normals are tested. */
  na: number;
  axes: Float64Array;
  /** Largest |coordinate| of a vertex: the hull lies within this box of its origin. */
  extent: number;
  /** Support vertices of the cube-map cells, or null (small or changing hulls). */
  support: Uint16Array | null;
  /** Whether the vertices were the same at the previous use (the cube map is built on the second). */
  steady: boolean;
}

const cache = new WeakMap<ConvexPolyhedron, HullData>();

/**
 * `a` if it holds `n` numbers, else a new zeroed array of at least `n` and twice `a`'s length (the old
 * contents are not copied). Also grows the pair frame's scratch (`pairFrame.ts`).
 */
export function grow(a: Float64Array, n: number): Float64Array {
  return a.length >= n ? a : new Float64Array(Math.max(n, 2 * a.length));
}

/** The hull's flat copy, refreshed from the shape's current arrays. */
export function hullData(shape: ConvexPolyhedron): HullData {
  let h = cache.get(shape);
  if (h === undefined) {
    h = {
      valid: false,
      nv: 0,
      verts: new Float64Array(24),
      nf: 0,
      normals: new Float64Array(18),
      ne: 0,
      edges: new Float64Array(18),
      twin: new Int32Array(0),
      na: -1,
      axes: new Float64Array(9),
      extent: 0,
      support: null,
      steady: false,
    };
    cache.set(shape, h);
  }
  refresh(h, shape);
  return h;
}

/**
 * What {@link copyVectors} found (typed-array slots: a returned double would box): the largest absolute
 * coordinate copied (0), 1 if `out` held the same numbers before (1), 1 if a null entry stopped it (2).
 */
const COPIED = new Float64Array(3);

/**
 * Copies `list` into `out` (3 per entry), stopping at a null entry; whether every coordinate is finite
 * and under 1e100 (false at a null entry). With `compare`, also whether `out` held them already (`!==`
 * treats 0 and -0 alike, as the twin relation may: see the separating-axis module). See {@link COPIED}.
 */
function copyVectors(list: Vec3[], n: number, out: Float64Array, compare: boolean): boolean {
  let same = compare;
  let big = 0;
  let bad = 0;
  COPIED[2] = 0;
  for (let i = 0; i < n; i++) {
    const v = list[i];
    if (v == null) {
      COPIED[2] = 1;
      bad = Number.NaN;
      break;
    }
    const x = v.x;
    const y = v.y;
    const z = v.z;
    const k = 3 * i;
    if (same && (out[k] !== x || out[k + 1] !== y || out[k + 2] !== z)) same = false;
    out[k] = x;
    out[k + 1] = y;
    out[k + 2] = z;
    bad += x - x + (y - y) + (z - z);
    const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
    if (m > big) big = m;
  }
  COPIED[0] = big;
  COPIED[1] = same ? 1 : 0;
  return bad === 0 && big < HUGE;
}

function refresh(h: HullData, shape: ConvexPolyhedron): void {
  const vs = shape.vertices;
  const nv = vs.length;
  // Vertices: compared (for the cube map) while copied.
  h.verts = grow(h.verts, 3 * nv);
  const V = h.verts;
  const vertsOk = copyVectors(vs, nv, V, nv === h.nv);
  const same = COPIED[1] === 1;
  h.nv = nv;
  h.extent = COPIED[0];
  const nf = shape.faces.length;
  h.nf = nf;
  h.normals = grow(h.normals, 3 * nf);
  const normalsOk = shape.faceNormals.length >= nf && copyVectors(shape.faceNormals, nf, h.normals, false);
  const axes = shape.uniqueAxes;
  let axesOk = true;
  if (axes) {
    h.na = axes.length;
    h.axes = grow(h.axes, 3 * axes.length);
    axesOk = copyVectors(axes, axes.length, h.axes, false);
  } else h.na = -1;
  const edgesOk = refreshEdges(h, shape.uniqueEdges);
  h.valid = vertsOk && nv > 0 && nf > 0 && normalsOk && axesOk && edgesOk;
  if (!same) {
    h.support = null;
    h.steady = false;
  } else if (!h.steady) h.steady = true;
  else if (h.support === null && nv >= 10 && nv < 65536 && h.valid) h.support = buildSupport(V, nv);
}

/**
 * Copies the unique edges; when they changed, finds each edge's first exact negation again. Whether
 * every coordinate is finite and under 1e100.
 */
function refreshEdges(h: HullData, list: Vec3[]): boolean {
  const ne = list.length;
  h.edges = grow(h.edges, 3 * ne);
  const E = h.edges;
  const ok = copyVectors(list, ne, E, ne === h.ne);
  if (COPIED[2] === 1) return false;
  h.ne = ne;
  if (COPIED[1] === 0 || h.twin.length !== ne) {
    const twin = h.twin.length === ne ? h.twin : new Int32Array(ne);
    for (let i = 0; i < ne; i++) {
      twin[i] = i;
      const x = E[3 * i];
      const y = E[3 * i + 1];
      const z = E[3 * i + 2];
      for (let j = 0; j < i; j++) {
        if (twin[j] === j && E[3 * j] === -x && E[3 * j + 1] === -y && E[3 * j + 2] === -z) {
          twin[i] = j;
          break;
        }
      }
    }
    h.twin = twin;
  }
  return ok;
}

/** The support-vertex cube map of a vertex set (see the module comment). */
function buildSupport(V: Float64Array, nv: number): Uint16Array {
  const G = SUPPORT_GRID;
  const out = new Uint16Array(6 * G * G);
  const d = [0, 0, 0];
  for (let face = 0; face < 6; face++) {
    const a = face >> 1;
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    d[a] = face & 1 ? -1 : 1;
    for (let i = 0; i < G; i++) {
      d[b] = (2 * (i + 0.5)) / G - 1;
      for (let j = 0; j < G; j++) {
        d[c] = (2 * (j + 0.5)) / G - 1;
        let best = 0;
        let max = -Infinity;
        for (let k = 0; k < nv; k++) {
          const p = V[3 * k] * d[0] + V[3 * k + 1] * d[1] + V[3 * k + 2] * d[2];
          if (p > max) {
            max = p;
            best = k;
          }
        }
        out[(face * G + i) * G + j] = best;
      }
    }
  }
  return out;
}

/**
 * The cube-map cell of the direction `d[o..o+2]` (any length, not zero): `face * G² + i * G + j`. The
 * cell of the opposite direction is {@link oppositeCell} of it.
 */
export function supportCell(d: Float64Array, o: number): number {
  const G = SUPPORT_GRID;
  const x = d[o];
  const y = d[o + 1];
  const z = d[o + 2];
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face: number;
  let s: number;
  let t: number;
  let m: number;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    s = y;
    t = z;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    s = z;
    t = x;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    s = x;
    t = y;
  }
  const k = (0.5 * G) / m;
  let i = Math.floor(s * k + 0.5 * G);
  let j = Math.floor(t * k + 0.5 * G);
  if (i >= G) i = G - 1;
  else if (i < 0) i = 0;
  if (j >= G) j = G - 1;
  else if (j < 0) j = 0;
  return (face * G + i) * G + j;
}

/** The cell of the direction opposite to the one of `cell` (mirrored through the centre). */
export function oppositeCell(cell: number): number {
  const GG = SUPPORT_GRID * SUPPORT_GRID;
  const face = Math.floor(cell / GG);
  // The other face of the same axis, and the cell (i, j) of the face mirrored to (G−1−i, G−1−j):
  // (G−1−i)·G + (G−1−j) = G² − 1 − (i·G + j).
  return (face ^ 1) * GG + GG - 1 - (cell - face * GG);
}
