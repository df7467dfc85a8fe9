/**
 * Which triangles of a bounds tree three.js's `Mesh.raycast` would test, with which material side,
 * and in which order — derived from the geometry's draw range, its groups and the mesh's material(s).
 *
 * three.js's loop (`Mesh._computeIntersections`): with one material, index entries `j` from
 * `max(0, drawRange.start)` to `min(count, drawRange.start + drawRange.count)` by 3; with an array of
 * materials, for each group in order, `j` from `max(group.start, drawRange.start)` to
 * `min(count, group.start + group.count, drawRange.start + drawRange.count)` by 3, with
 * `material[group.materialIndex]`'s side — a triangle in two groups is tested twice. The hits are
 * pushed in that loop order; `Raycaster` then sorts them by distance with a stable sort, so the order
 * of equal distances is the loop order. A hit's sort key here is its place in that loop:
 * `group position · triangleCount + triangle` (one material: the triangle).
 *
 * A tree covers whole triangles `j = rangeStart + 3k`. Loops that start between two of them, or test
 * triangles outside the tree, are "not representable": the caller then runs three.js's own loop.
 */

import { growArray } from '@sieve/core';
import type { Material } from 'three';
import { sideMode } from './rayTriangle.js';

/** All triangles, one side mode. */
export const FILTER_NONE = 0;
/** Triangles `[lo, hi)`, one side mode. */
export const FILTER_RANGE = 1;
/** Per-triangle group memberships (array materials). */
export const FILTER_GROUPS = 2;
/** The loop cannot be represented on this tree: use three.js's own. */
export const FILTER_FALLBACK = 3;

/** Minimal view of a geometry group. */
interface Group {
  start: number;
  count: number;
  materialIndex?: number;
}

/** The filter of one query (module scratch, valid until the next {@link computeFilter}). */
export const FILTER = {
  mode: FILTER_NONE,
  /** Side mode for `FILTER_NONE` / `FILTER_RANGE`. */
  side: 0,
  lo: 0,
  hi: 0,
  /** `FILTER_GROUPS`: memberships of triangle k are `list[start[k] .. start[k + 1])` (group positions). */
  start: new Int32Array(0) as Int32Array,
  list: new Int32Array(0) as Int32Array,
  /** `FILTER_GROUPS`: side mode of each group position. */
  sides: new Int32Array(16),
  /** `FILTER_GROUPS`: `materialIndex` of each group position. */
  materialIndex: new Int32Array(16),
};

/** Group k-ranges of one query, compared with the cached ones to reuse the membership lists. */
let groupLo = new Int32Array(16);
let groupHi = new Int32Array(16);

/** Membership lists cached per tree identity (a `WeakMap` keyed by the caller's object). */
interface Memberships {
  triCount: number;
  groups: number;
  lo: Int32Array;
  hi: Int32Array;
  start: Int32Array;
  list: Int32Array;
}
const cache = new WeakMap<object, Memberships>();

/** Arguments of {@link kRange}: `s`, `e`, `R`, `total`, `triCount` (doubles: `e` may be `Infinity`). */
const IN = new Float64Array(5);
const OUT = new Int32Array(2);

/**
 * k-range of the three.js loop `j = s, s + 3, … < e` (restricted to whole triangles `j + 3 ≤ total`) on
 * a tree of `triCount` triangles starting at entry `R` (arguments in `IN`): writes `[lo, hi)` to `OUT`
 * and returns 0, or returns 1 if it cannot be represented (misaligned start, or triangles outside the
 * tree). Doubles travel in `IN`, not as arguments (a double crossing a call V8 does not inline is
 * boxed).
 */
function kRange(): number {
  const s = IN[0];
  const e = IN[1];
  const R = IN[2];
  const total = IN[3];
  const triCount = IN[4];
  const last = Math.min(e - 1, total - 3); // last j that is a whole triangle
  if (!(s <= last)) {
    OUT[0] = 0;
    OUT[1] = 0;
    return 0;
  }
  const rel = s - R;
  if (rel < 0 || rel % 3 !== 0) return 1;
  const lo = rel / 3;
  const hi = lo + Math.floor((last - s) / 3) + 1;
  if (hi > triCount) return 1;
  OUT[0] = lo;
  OUT[1] = hi;
  return 0;
}

/** What {@link computeFilter} reads: the draw range of a mesh-level cast, its groups and material. */
export interface FilterInput {
  /** Draw range start and count (`count` may be `Infinity`). */
  drawStart: number;
  drawCount: number;
  /** The mesh's material or materials. */
  material: Material | Material[];
}

/**
 * Computes {@link FILTER} for a raycast of a tree (`key`: the tree, for the membership cache) covering
 * entries from `R`, `triCount` triangles, of a geometry with `total` index (or vertex) entries and
 * `groups`, drawn as `input` says. Sets `FILTER.mode`.
 */
export function computeFilter(
  key: object,
  R: number,
  triCount: number,
  total: number,
  groups: readonly Group[],
  input: FilterInput,
): void {
  const drawStart = input.drawStart;
  const drawCount = input.drawCount;
  const material = input.material;
  // The common case: one material, the whole geometry drawn, a tree over all of it.
  if (
    drawStart === 0 &&
    drawCount >= total &&
    R === 0 &&
    total === 3 * triCount &&
    !Array.isArray(material)
  ) {
    FILTER.side = sideMode((material as Material).side);
    FILTER.lo = 0;
    FILTER.hi = triCount;
    FILTER.mode = FILTER_NONE;
    return;
  }
  const drawEnd = drawStart + drawCount;
  IN[2] = R;
  IN[3] = total;
  IN[4] = triCount;
  if (!Array.isArray(material)) {
    IN[0] = Math.max(0, drawStart);
    IN[1] = Math.min(total, drawEnd);
    if (kRange() !== 0) {
      FILTER.mode = FILTER_FALLBACK;
      return;
    }
    FILTER.side = sideMode((material as Material).side);
    FILTER.lo = OUT[0];
    FILTER.hi = OUT[1];
    FILTER.mode = OUT[0] === 0 && OUT[1] === triCount ? FILTER_NONE : FILTER_RANGE;
    return;
  }
  const n = groups.length;
  groupLo = growArray(groupLo, n);
  groupHi = growArray(groupHi, n);
  FILTER.sides = growArray(FILTER.sides, n);
  FILTER.materialIndex = growArray(FILTER.materialIndex, n);
  for (let g = 0; g < n; g++) {
    const group = groups[g];
    const s = Math.max(group.start, drawStart);
    const e = Math.min(total, Math.min(group.start + group.count, drawEnd));
    const m = material[group.materialIndex as number];
    // three.js reads `material.side` for every j it visits, partial triangles included: a missing
    // material throws there. Let three.js's own loop do it.
    if (s < e && (m === undefined || m === null)) {
      FILTER.mode = FILTER_FALLBACK;
      return;
    }
    IN[0] = s;
    IN[1] = e;
    if (kRange() !== 0) {
      FILTER.mode = FILTER_FALLBACK;
      return;
    }
    groupLo[g] = OUT[0];
    groupHi[g] = OUT[1];
    FILTER.sides[g] = s < e ? sideMode(m.side) : 0;
    FILTER.materialIndex[g] = group.materialIndex as number;
  }
  let c = cache.get(key);
  if (!c || c.triCount !== triCount || c.groups !== n || !sameRanges(c, n)) {
    c = buildMemberships(triCount, n);
    cache.set(key, c);
  }
  FILTER.start = c.start;
  FILTER.list = c.list;
  FILTER.mode = FILTER_GROUPS;
}

function sameRanges(c: Memberships, n: number): boolean {
  for (let g = 0; g < n; g++) if (c.lo[g] !== groupLo[g] || c.hi[g] !== groupHi[g]) return false;
  return true;
}

/** Counting sort of the groups' triangle ranges into per-triangle lists, group positions ascending. */
function buildMemberships(triCount: number, n: number): Memberships {
  const start = new Int32Array(triCount + 1);
  for (let g = 0; g < n; g++) for (let k = groupLo[g]; k < groupHi[g]; k++) start[k + 1]++;
  for (let k = 0; k < triCount; k++) start[k + 1] += start[k];
  const list = new Int32Array(start[triCount]);
  const fill = start.slice(0, triCount);
  for (let g = 0; g < n; g++) for (let k = groupLo[g]; k < groupHi[g]; k++) list[fill[k]++] = g;
  return {
    triCount,
    groups: n,
    lo: groupLo.slice(0, n),
    hi: groupHi.slice(0, n),
    start,
    list,
  };
}
