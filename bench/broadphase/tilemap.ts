/**
 * Static proxies on a tilemap level: a grid of touching static 2-D tiles (32 px, as a Tiled map turned
 * into static bodies) with 300 dynamic boxes moving through it, each frame "move the dynamic boxes +
 * update + read began/ended". Each broadphase runs twice on the same level: with the tiles inserted
 * static (`insert(bounds, tag, true)`: two static proxies never pair), and with every tile dynamic —
 * as a caller without static proxies had it, every touching tile pair in the pair set. Contestants
 * alternate frame by frame in one process; the figure is the median. Writes
 * bench/results/broadphase-tilemap.{json,svg}.
 *
 * `pnpm exec tsx broadphase/tilemap.ts [--quick]` (from bench/), or `pnpm bench:broadphase --tilemap`.
 */
import { performance } from 'node:perf_hooks';
import { type Broadphase, Octree, SweepAndPrune } from '@sieve/core';
import { writeJson, writeText } from '../lib/results.js';
import { median, rng } from '../lib/stats.js';
import { lineChart, seriesBy, svgPage } from '../lib/svg.js';

const TILE = 32;
const DYNAMIC = 300;

export interface TilemapResult {
  tiles: number;
  contestant: string;
  /** Median ms per frame. */
  msPerFrame: number;
  /** Pairs at the end (tile–tile pairs included when the tiles are dynamic). */
  pairs: number;
  frames: number;
}

/** A level of `tiles` touching tiles, 4 rows of tiles per 25 columns (a side-scroller's proportions). */
function level(tiles: number) {
  const rows = Math.max(1, Math.round(Math.sqrt(tiles / 6)));
  const cols = Math.ceil(tiles / rows);
  const r = rng(7 + tiles);
  const pos = new Float64Array(2 * DYNAMIC);
  const vel = new Float64Array(2 * DYNAMIC);
  const half = new Float64Array(2 * DYNAMIC);
  const w = cols * TILE;
  const h = rows * TILE;
  for (let i = 0; i < DYNAMIC; i++) {
    pos[2 * i] = r() * w;
    pos[2 * i + 1] = r() * h;
    vel[2 * i] = (r() - 0.5) * 4;
    vel[2 * i + 1] = (r() - 0.5) * 4;
    half[2 * i] = 8 + r() * 12;
    half[2 * i + 1] = 8 + r() * 12;
  }
  const bounds = new Float64Array(4 * DYNAMIC);
  const step = () => {
    for (let i = 0; i < 2 * DYNAMIC; i++) {
      const p = pos[i] + vel[i];
      if (p < 0 || p > ((i & 1) === 1 ? h : w)) vel[i] = -vel[i];
      else pos[i] = p;
    }
    for (let i = 0; i < DYNAMIC; i++) {
      for (let k = 0; k < 2; k++) {
        bounds[4 * i + k] = pos[2 * i + k] - half[2 * i + k];
        bounds[4 * i + 2 + k] = pos[2 * i + k] + half[2 * i + k];
      }
    }
  };
  step();
  return { rows, cols, bounds, step };
}

function contestant(name: string, create: () => Broadphase, tiles: number, statics: boolean) {
  const scene = level(tiles);
  const bp = create();
  let made = 0;
  for (let y = 0; y < scene.rows && made < tiles; y++) {
    for (let x = 0; x < scene.cols && made < tiles; x++, made++) {
      bp.insert([x * TILE, y * TILE, (x + 1) * TILE, (y + 1) * TILE], made, statics);
    }
  }
  const handles = new Int32Array(DYNAMIC);
  for (let i = 0; i < DYNAMIC; i++) handles[i] = bp.insert(scene.bounds.subarray(4 * i, 4 * i + 4));
  bp.update();
  let checksum = 0;
  return {
    name,
    bp,
    times: [] as number[],
    frame(): number {
      scene.step();
      const t0 = performance.now();
      bp.moveMany(handles, scene.bounds);
      bp.update();
      const buffers = bp.pairBuffers();
      for (let i = 0; i < 2 * bp.beganCount; i++) checksum = (checksum + buffers.began[i]) | 0;
      for (let i = 0; i < 2 * bp.endedCount; i++) checksum = (checksum - buffers.ended[i]) | 0;
      return performance.now() - t0;
    },
    get checksum() {
      return checksum;
    },
  };
}

/** Runs every contestant on levels of the given sizes; returns one row per contestant and size. */
export function runTilemap(o: {
  sizes: number[];
  frames: number;
  log: (line: string) => void;
}): TilemapResult[] {
  const out: TilemapResult[] = [];
  for (const tiles of o.sizes) {
    const cs = [
      contestant('SweepAndPrune, tiles static', () => new SweepAndPrune({ dimensions: 2 }), tiles, true),
      contestant('SweepAndPrune, tiles dynamic', () => new SweepAndPrune({ dimensions: 2 }), tiles, false),
      contestant('Octree, tiles static', () => new Octree({ dimensions: 2 }), tiles, true),
      contestant('Octree, tiles dynamic', () => new Octree({ dimensions: 2 }), tiles, false),
    ];
    const warmup = Math.min(100, o.frames);
    for (let f = 0; f < warmup + o.frames; f++) {
      for (let j = 0; j < cs.length; j++) {
        const c = cs[(j + f) % cs.length];
        const t = c.frame();
        if (f >= warmup) c.times.push(t);
      }
    }
    // The dynamic boxes' pairs with tiles are the same either way: only the tile–tile pairs differ.
    for (const c of cs) {
      const row = {
        tiles,
        contestant: c.name,
        msPerFrame: median(c.times),
        pairs: c.bp.pairCount,
        frames: c.times.length,
      };
      out.push(row);
      o.log(
        `tiles=${String(tiles).padStart(6)}  ${c.name.padEnd(30)} ${row.msPerFrame.toFixed(4)} ms/frame  pairs ${row.pairs}`,
      );
    }
    for (const kind of ['SweepAndPrune', 'Octree']) {
      const s = out.find((r) => r.tiles === tiles && r.contestant === `${kind}, tiles static`)!;
      const d = out.find((r) => r.tiles === tiles && r.contestant === `${kind}, tiles dynamic`)!;
      o.log(
        `tiles=${String(tiles).padStart(6)}  ${kind}: static tiles ${(d.msPerFrame / s.msPerFrame).toFixed(2)}× faster`,
      );
    }
  }
  return out;
}

/** Writes bench/results/broadphase-tilemap.{json,svg}. */
export function writeTilemapResults(rows: TilemapResult[], quick: boolean): void {
  const chart = lineChart(
    seriesBy(
      rows,
      (r) => r.contestant,
      (r) => [r.tiles, r.msPerFrame],
    ),
    {
      title: 'Tilemap: static tiles + 300 moving boxes (2-D)',
      xLabel: 'static tiles',
      yLabel: 'ms per frame (median)',
      width: 760,
    },
  );
  writeText('broadphase-tilemap.svg', svgPage([chart], 1));
  const path = writeJson('broadphase-tilemap', { quick, dynamicBoxes: DYNAMIC, tile: TILE, rows });
  console.log(`wrote ${path} and broadphase-tilemap.svg`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const rows = runTilemap({
    sizes: quick ? [2500, 10000] : [2500, 10000, 40000],
    frames: quick ? 200 : 1000,
    log: (line) => console.log(line),
  });
  writeTilemapResults(rows, quick);
}
