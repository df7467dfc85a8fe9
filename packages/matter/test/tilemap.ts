/**
 * Tilemap worlds, as Phaser builds them for Matter: a Tiled-style level (one tile layer, tile ids, 0 =
 * empty) whose colliding tiles each become one static 32-px rectangle (`Bodies.rectangle` at the
 * tile's centre, `isStatic: true`, added one at a time — what Phaser's `convertTilemapLayer` does
 * through `MatterTileBody.setFromTileRectangle`), plus dynamic circles and boxes dropped over it.
 *
 * Generic over the Matter module, so the same level runs in plain matter-js and inside Phaser's
 * bundled copy (`Phaser.Physics.Matter.Matter`). Deterministic: the same arguments give the same world.
 */
import { rng } from '../../core/test/support/rng.js';

/** A Tiled-style map with one tile layer (the fields a Phaser tilemap loader reads). */
export interface TiledLevel {
  width: number;
  height: number;
  tilewidth: number;
  tileheight: number;
  orientation: 'orthogonal';
  layers: { name: string; type: 'tilelayer'; width: number; height: number; data: number[] }[];
}

/** Options of {@link tilemapLevel}. */
export interface LevelOptions {
  /** How many solid tiles (default 10 000). */
  tiles?: number;
  /** Average depth of the ground in rows (default 18; it rolls 8 rows up and down around it). */
  ground?: number;
  /** Rows of the map (default: the ground's depth plus 30 rows of air above it). */
  rows?: number;
  /** Tile size in pixels (default 32). */
  tileSize?: number;
  /** Seed of the terrain (default 1). */
  seed?: number;
}

/**
 * A platformer level of exactly `tiles` solid tiles: a wall column at each end, rolling ground
 * (`ground` rows deep on average, ± 8) and floating one-row platforms; as wide as the count needs.
 */
export function tilemapLevel(options: LevelOptions = {}): TiledLevel {
  const tiles = options.tiles ?? 10000;
  const depth = options.ground ?? 18;
  const rows = options.rows ?? depth + 30;
  const size = options.tileSize ?? 32;
  const r = rng(options.seed ?? 1);
  // Columns of solid cells, left to right: a full wall, the terrain until `rows` tiles are left,
  // and a full wall of those.
  const columns: Uint8Array[] = [];
  let count = 0;
  const phase = r() * 10;
  while (count < tiles) {
    const c = columns.length;
    const col = new Uint8Array(rows);
    const left = tiles - count;
    if (c === 0 || left <= rows) {
      // A wall (the last one may be shorter when the count is below two walls).
      col.fill(1, rows - Math.min(rows, left));
    } else {
      const ground = Math.round(depth + 5 * Math.sin(c / 13 + phase) + 3 * Math.sin(c / 4.7));
      for (let y = rows - ground; y < rows; y++) col[y] = 1;
      // A platform of 3–8 tiles every 11 columns, 4–9 rows above the ground.
      const k = c % 11;
      const platformLength = 3 + (((c / 11) | 0) % 6);
      const y = rows - ground - 4 - (((c / 11) | 0) % 6);
      if (k < platformLength && y > 2) col[y] = 1;
      // Never leave fewer than a wall's worth: drop this column's top cells.
      let excess = -(left - rows);
      for (let y = 0; y < rows; y++) excess += col[y];
      for (let y = 0; y < rows && excess > 0; y++) {
        if (col[y] === 1) {
          col[y] = 0;
          excess--;
        }
      }
    }
    for (let y = 0; y < rows; y++) count += col[y];
    columns.push(col);
  }
  const width = columns.length;
  const data = new Array<number>(width * rows).fill(0);
  for (let x = 0; x < width; x++) {
    const col = columns[x];
    // Tile ids 1..4 vary the look; any non-zero id collides.
    for (let y = 0; y < rows; y++) if (col[y]) data[y * width + x] = 1 + ((x * 7 + y * 3) % 4);
  }
  return {
    width,
    height: rows,
    tilewidth: size,
    tileheight: size,
    orientation: 'orthogonal',
    layers: [{ name: 'ground', type: 'tilelayer', width, height: rows, data }],
  };
}

/** The parts of a Matter module the builder uses (matter-js's or Phaser's bundled copy). */
export interface MatterModule {
  Engine: { create(options?: object): EngineLike };
  Bodies: {
    rectangle(x: number, y: number, w: number, h: number, options?: object): unknown;
    circle(x: number, y: number, r: number, options?: object): unknown;
  };
  Body: { setVelocity(body: never, v: { x: number; y: number }): void };
  Composite: { add(composite: unknown, body: unknown): unknown };
}

/** An engine as the builder needs it. */
export interface EngineLike {
  world: unknown;
  detector: { bodies: unknown[] };
}

/** Options of {@link buildTilemapWorld}. */
export interface WorldOptions {
  /** Dynamic bodies dropped over the level: circles and boxes, half each (default 300). */
  dynamic?: number;
  /** `engine.enableSleeping` (default false, as in Phaser). */
  sleeping?: boolean;
  /** Seed of the dynamic bodies (default 2). */
  seed?: number;
}

/** A tilemap world: its engine, the tile bodies and the dynamic ones. */
export interface TilemapWorld<E extends EngineLike = EngineLike> {
  engine: E;
  tiles: unknown[];
  dynamic: unknown[];
  /** The level's size in pixels. */
  widthPx: number;
  heightPx: number;
}

/**
 * Builds `level` in a fresh engine of `Matter`: one static rectangle per non-zero tile (row by row,
 * as Phaser's `getTilesWithin` walks a layer), then `dynamic` circles and boxes spread over the
 * level's width in the empty rows above the ground, with a small random push.
 */
export function buildTilemapWorld<E extends EngineLike>(
  Matter: MatterModule,
  level: TiledLevel,
  options: WorldOptions = {},
): TilemapWorld<E> {
  const engine = Matter.Engine.create({ enableSleeping: options.sleeping ?? false }) as E;
  const layer = level.layers[0];
  const s = level.tilewidth;
  const tiles: unknown[] = [];
  for (let y = 0; y < layer.height; y++) {
    for (let x = 0; x < layer.width; x++) {
      if (layer.data[y * layer.width + x] === 0) continue;
      const body = Matter.Bodies.rectangle(x * s + s / 2, y * s + s / 2, s, s, { isStatic: true });
      Matter.Composite.add(engine.world, body);
      tiles.push(body);
    }
  }
  const n = options.dynamic ?? 300;
  const r = rng(options.seed ?? 2);
  const dynamic: unknown[] = [];
  const widthPx = layer.width * s;
  for (let i = 0; i < n; i++) {
    // Spread over the inner columns; drop from the rows near the top (always empty but the walls).
    const x = s * 2 + ((i + 0.5) / n) * (widthPx - 4 * s) + (r() - 0.5) * s;
    const y = s * (2 + (i % 5) * 1.5) + r() * s;
    const size = 12 + r() * 20;
    const body =
      i % 2 === 0
        ? Matter.Bodies.circle(x, y, size / 2, { friction: 0.05, restitution: 0.2 })
        : Matter.Bodies.rectangle(x, y, size, size * (0.6 + 0.6 * r()), { friction: 0.1 });
    Matter.Body.setVelocity(body as never, { x: (r() - 0.5) * 6, y: r() * 2 });
    Matter.Composite.add(engine.world, body);
    dynamic.push(body);
  }
  return { engine, tiles, dynamic, widthPx, heightPx: layer.height * s };
}
