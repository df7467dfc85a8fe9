import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MeshBVH } from '../../src/bvh/MeshBVH.js';
import { type BvhCast, CUTOFF, KEY, shapecast } from '../../src/bvh/shapecast.js';
import { uvSphere } from './helpers.js';

const mesh = uvSphere(1, 24, 12);
const bvh = new MeshBVH(mesh.positions, mesh.index, { maxLeafSize: 4 });

/** A cast that accepts every node (key: the box's min x) and records the leaf ranges it is given. */
function recorder(keys: Float64Array | null, stopAfter = Infinity) {
  const ranges: Array<[number, number]> = [];
  const cast: BvhCast = {
    keys,
    intersectsBounds(f, w) {
      if (keys) keys[KEY] = f[w];
      return true;
    },
    intersectsRange(offset, count) {
      ranges.push([offset, count]);
      if (keys && ranges.length === 1) keys[CUTOFF] = Number.NEGATIVE_INFINITY;
      return ranges.length >= stopAfter;
    },
  };
  return { cast, ranges };
}

describe('shapecast: the one single-tree walk', () => {
  it('unordered: visits every leaf once, in slot order (depth first, left first)', () => {
    const { cast, ranges } = recorder(null);
    expect(shapecast(bvh, cast)).toBe(false);
    let next = 0;
    for (const [offset, count] of ranges) {
      expect(offset).toBe(next);
      next += count;
    }
    expect(next).toBe(bvh.triangleCount);
  });

  it('returns true as soon as intersectsRange asks to stop', () => {
    const { cast, ranges } = recorder(null, 3);
    expect(shapecast(bvh, cast)).toBe(true);
    expect(ranges.length).toBe(3);
  });

  it('skips nodes that miss, and everything below them', () => {
    let tested = 0;
    const cast: BvhCast = {
      keys: null,
      intersectsBounds: () => tested++ === 0,
      intersectsRange: () => {
        throw new Error('no leaf should be reached');
      },
    };
    expect(shapecast(bvh, cast)).toBe(false);
    expect(tested).toBe(3); // the root, then its two children
  });

  it('ordered: popped nodes whose key exceeds the cutoff are skipped', () => {
    const { cast, ranges } = recorder(new Float64Array([0, Number.POSITIVE_INFINITY]));
    shapecast(bvh, cast);
    // The first leaf drops the cutoff below every key: nothing left on the stack is visited.
    expect(ranges.length).toBe(1);
  });
});

describe('generated walks', () => {
  it('are up to date with shapecast() (scripts/generate-casts.mjs --check)', () => {
    const script = fileURLToPath(new URL('../../scripts/generate-casts.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
