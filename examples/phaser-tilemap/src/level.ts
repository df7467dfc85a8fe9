/**
 * The level: a Tiled map (JSON, orthogonal, one tile layer, one tileset) generated from a seed, as a
 * game would load it from a `.tmj` file exported by Tiled. Rolling hills of solid ground 15–33 tiles
 * deep, ledges and floating platforms, walls at both ends: 10 000+ solid tiles, each one a static
 * Matter body once Phaser's `convertTilemapLayer` has run.
 */

/** Pixels per tile. */
export const TILE = 32;

/** The fields of a Tiled JSON map that Phaser's Tiled parser reads. */
export interface TiledMap {
  type: 'map';
  version: string;
  orientation: 'orthogonal';
  renderorder: 'right-down';
  infinite: false;
  width: number;
  height: number;
  tilewidth: number;
  tileheight: number;
  nextlayerid: number;
  nextobjectid: number;
  layers: {
    id: number;
    name: string;
    type: 'tilelayer';
    x: 0;
    y: 0;
    width: number;
    height: number;
    opacity: 1;
    visible: true;
    data: number[];
  }[];
  tilesets: {
    firstgid: number;
    name: string;
    tilewidth: number;
    tileheight: number;
    tilecount: number;
    columns: number;
    image: string;
    imagewidth: number;
    imageheight: number;
    margin: 0;
    spacing: 0;
  }[];
}

/** Tile ids of the tileset (0 = empty): grass on top, earth below, stone deep down, platforms. */
export const GRASS = 1;
export const EARTH = 2;
export const STONE = 3;
export const PLATFORM = 4;

/** The same seed gives the same level (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of {@link buildLevel}. */
export interface LevelOptions {
  /** Columns (default 420). */
  width?: number;
  /** Rows (default 56). */
  height?: number;
  /** Seed (default 1). */
  seed?: number;
}

/** Generates the level's Tiled map. */
export function buildLevel(options: LevelOptions = {}): TiledMap {
  const width = options.width ?? 420;
  const height = options.height ?? 56;
  const r = rng(options.seed ?? 1);
  const data = new Array<number>(width * height).fill(0);
  const set = (x: number, y: number, id: number) => {
    if (x >= 0 && x < width && y >= 0 && y < height) data[y * width + x] = id;
  };
  const phase = r() * 6;
  for (let x = 0; x < width; x++) {
    // Ground surface: two waves and a plateau every ~60 columns.
    const wave = 6 * Math.sin(x / 19 + phase) + 3 * Math.sin(x / 7.3);
    const depth = Math.round(24 + wave);
    const surface = height - depth;
    for (let y = surface; y < height; y++) {
      set(x, y, y === surface ? GRASS : y < surface + 6 ? EARTH : STONE);
    }
  }
  // Floating platforms, 4–9 tiles long, 4–8 rows above the ground.
  for (let x = 6; x < width - 12; x += 9 + Math.floor(r() * 8)) {
    const length = 4 + Math.floor(r() * 6);
    let top = height;
    for (let k = 0; k < length; k++) {
      for (let y = 0; y < height; y++) {
        if (data[y * width + x + k] !== 0) {
          top = Math.min(top, y);
          break;
        }
      }
    }
    const y = top - 4 - Math.floor(r() * 5);
    for (let k = 0; k < length; k++) set(x + k, y, PLATFORM);
  }
  // Walls at both ends, up to the top.
  for (let y = 0; y < height; y++) {
    set(0, y, STONE);
    set(width - 1, y, STONE);
  }
  return {
    type: 'map',
    version: '1.10',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    infinite: false,
    width,
    height,
    tilewidth: TILE,
    tileheight: TILE,
    nextlayerid: 2,
    nextobjectid: 1,
    layers: [
      {
        id: 1,
        name: 'ground',
        type: 'tilelayer',
        x: 0,
        y: 0,
        width,
        height,
        opacity: 1,
        visible: true,
        data,
      },
    ],
    tilesets: [
      {
        firstgid: 1,
        name: 'tiles',
        tilewidth: TILE,
        tileheight: TILE,
        tilecount: 4,
        columns: 4,
        image: 'tiles.png',
        imagewidth: 4 * TILE,
        imageheight: TILE,
        margin: 0,
        spacing: 0,
      },
    ],
  };
}

/** How many solid tiles a map has. */
export function solidTiles(map: TiledMap): number {
  let n = 0;
  for (const id of map.layers[0].data) if (id !== 0) n++;
  return n;
}

/**
 * The height of the ground's surface in column `x` (pixels from the top: the top of the highest solid
 * tile of the column below any platform), for placing things on it.
 */
export function groundTop(map: TiledMap, x: number): number {
  const { width, height, data } = map.layers[0];
  for (let y = height - 1; y >= 0; y--) {
    if (data[y * width + x] === 0) return (y + 1) * TILE;
  }
  return 0;
}
