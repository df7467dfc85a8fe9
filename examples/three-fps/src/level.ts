/**
 * The level, generated (nothing is downloaded): a 40 × 40 m yard closed by thin walls, with what makes a
 * character collider work — a raised walkway with a ledge to run off, stairs up to it, a ramp you can
 * walk and one too steep to, a plateau, a low tunnel, a corridor barely wider than the player, thin
 * partitions meeting at acute corners, crates, pillars and a bumpy patch — merged into one mesh with
 * vertex colours, plus the elevator, a separate mesh moved by its world matrix.
 *
 * Every part is a closed solid or a double-sided sheet; the merged geometry is what the player and the
 * spheres collide with (its bounds tree) and what is drawn.
 */
import {
  BoxGeometry,
  BufferAttribute,
  type BufferGeometry,
  Color,
  CylinderGeometry,
  PlaneGeometry,
} from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';

/** Half the yard's size: the walls' inner faces are at ±HALF. */
export const HALF = 20;
/** Height of the outer walls. */
export const WALL_HEIGHT = 8;
/** Height of the walkway along the west wall. */
export const WALKWAY = 3;
/** The walkway's east edge (a ledge, x). */
export const LEDGE_X = -12;
/** The elevator's footprint centre (x, z) and size; it rides from the floor to the walkway's height. */
export const ELEVATOR = { x: -10.5, z: -6, size: 3, thickness: 0.3 };

const parts: BufferGeometry[] = [];

/** Adds `g` in one colour (non-indexed, position + normal + colour, as the merge needs). */
function add(g: BufferGeometry, color: number, shade = 0): void {
  const flat = g.index ? g.toNonIndexed() : g;
  flat.deleteAttribute('uv');
  if (!flat.attributes.normal) flat.computeVertexNormals();
  const c = new Color(color);
  const n = flat.attributes.position.count;
  const colors = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    // A little per-triangle variation, so flat faces read as surfaces.
    const k = 1 - shade * (((Math.floor(i / 3) * 7919) % 13) / 13);
    colors[3 * i] = c.r * k;
    colors[3 * i + 1] = c.g * k;
    colors[3 * i + 2] = c.b * k;
  }
  flat.setAttribute('color', new BufferAttribute(colors, 3));
  parts.push(flat);
}

/** A box of `w × h × d` standing on `(x, y, z)` (its bottom centre), turned `yaw` about y. */
function box(w: number, h: number, d: number, x: number, y: number, z: number, yaw = 0): BufferGeometry {
  return new BoxGeometry(w, h, d)
    .translate(0, h / 2, 0)
    .rotateY(yaw)
    .translate(x, y, z);
}

/** A slab whose top surface starts at `(x, y, z)` and rises at `angle` along +z for `length` (along the slope). */
function ramp(angle: number, length: number, width: number, x: number, y: number, z: number): BufferGeometry {
  return new BoxGeometry(width, 0.3, length)
    .translate(0, -0.15, length / 2)
    .rotateX(-angle)
    .translate(x, y, z);
}

/** A double-sided sheet (a zero-thickness wall) from `(x0, z0)` to `(x1, z1)`, `h` tall. */
function sheet(x0: number, z0: number, x1: number, z1: number, h: number): BufferGeometry {
  const dx = x1 - x0;
  const dz = z1 - z0;
  return new PlaneGeometry(Math.hypot(dx, dz), h)
    .translate(0, h / 2, 0)
    .rotateY(-Math.atan2(dz, dx))
    .translate((x0 + x1) / 2, 0, (z0 + z1) / 2);
}

/** Builds the level's geometry (once; the same every time). */
export function buildLevel(): BufferGeometry {
  parts.length = 0;
  const H = HALF;
  // The floor: 2 m tiles in two shades (a double-sided sheet: nothing gets under it), and the thin outer
  // walls (10 cm).
  const tiles = new PlaneGeometry(2 * H, 2 * H, H, H).rotateX(-Math.PI / 2).toNonIndexed();
  const shades = new Float32Array(3 * tiles.attributes.position.count);
  const light = new Color(0x9aa88f);
  const dark = new Color(0x86957c);
  for (let t = 0; t < shades.length / 9; t++) {
    const quad = Math.floor(t / 2);
    const c = (quad % H) + Math.floor(quad / H);
    const color = c % 2 === 0 ? light : dark;
    for (let v = 0; v < 3; v++) color.toArray(shades, 9 * t + 3 * v);
  }
  tiles.deleteAttribute('uv');
  tiles.setAttribute('color', new BufferAttribute(shades, 3));
  parts.push(tiles);
  add(box(0.1, WALL_HEIGHT, 2 * H, -H - 0.05, 0, 0), 0xb9a88c, 0.06);
  add(box(0.1, WALL_HEIGHT, 2 * H, H + 0.05, 0, 0), 0xb9a88c, 0.06);
  add(box(2 * H + 0.2, WALL_HEIGHT, 0.1, 0, 0, -H - 0.05), 0xa89878, 0.06);
  add(box(2 * H + 0.2, WALL_HEIGHT, 0.1, 0, 0, H + 0.05), 0xa89878, 0.06);

  // The walkway along the west wall, and stairs up to it (10 × 0.3 m, up along −x).
  add(box(H + LEDGE_X, WALKWAY, 2 * H, (-H + LEDGE_X) / 2, 0, 0), 0x7c6f64, 0.05);
  for (let i = 0; i < 10; i++) {
    add(box(0.5, 0.3 * (i + 1), 3, LEDGE_X + 5 - 0.5 * (i + 0.5), 0, 11.5), 0x9c8f80, 0.04);
  }

  // A plateau 2 m up, a 25° ramp up to it from the south, a 55° one on its west side.
  add(box(6, 2, 6, 11, 0, 11), 0x6f7d8c, 0.05);
  const gentle = (25 * Math.PI) / 180;
  add(ramp(gentle, 2 / Math.sin(gentle), 3, 11, 0, 8 - 2 / Math.tan(gentle)), 0x8c9aa8, 0.03);
  const steep = (55 * Math.PI) / 180;
  add(
    ramp(steep, 2 / Math.sin(steep), 3, 0, 0, 0)
      .rotateY(Math.PI / 2)
      .translate(8 - 2 / Math.tan(steep), 0, 12),
    0xa85a4a,
    0.03,
  );

  // A low tunnel (1.6 m inside: the player is 1.35 m) and a corridor 0.85 m wide (the player: 0.7).
  add(box(6, 0.3, 3, 3, 1.6, -12), 0x70655a, 0.05);
  add(box(6, 1.6, 0.3, 3, 0, -13.35), 0x70655a, 0.05);
  add(box(6, 1.6, 0.3, 3, 0, -10.65), 0x70655a, 0.05);
  add(box(6, 2.5, 0.05, 13, 0, -4.45), 0xc4b49a, 0.04);
  add(box(6, 2.5, 0.05, 13, 0, -3.55), 0xc4b49a, 0.04);

  // Thin partitions meeting at acute corners (30° and 15°).
  add(sheet(4, 2, 9, 2, 2.5), 0xd8c8a8);
  add(sheet(4, 2, 4 + 5 * Math.cos(0.52), 2 + 5 * Math.sin(0.52), 2.5), 0xd8c8a8);
  add(sheet(-4, -4, -9, -4, 2.5), 0xd8c8a8);
  add(sheet(-4, -4, -4 - 5 * Math.cos(0.26), -4 - 5 * Math.sin(0.26), 2.5), 0xd8c8a8);

  // Pillars and crates (kept off the middle, where the player starts).
  for (const [x, z] of [
    [-6, 6],
    [6, -7],
    [-3, 14],
    [15, 3],
  ]) {
    add(new CylinderGeometry(0.45, 0.45, WALL_HEIGHT, 16).translate(x, WALL_HEIGHT / 2, z), 0x8a8f99, 0.04);
  }
  // Crates: [x, z, size, height, yaw]; a low one (0.25) to step onto, a 0.5 one too high to step.
  for (const [x, z, s, h, yaw] of [
    [-4, 9, 1.2, 0.8, 0.3],
    [2, 8, 1, 1.5, 0.9],
    [-2, -8, 1.6, 0.25, 0.1],
    [6.5, -1, 1, 1, 0.6],
    [-7, -15, 1.5, 2, 0.2],
    [-6, 16, 1.4, 0.5, 0],
    [17, 16, 1, 1.2, 0.4],
    [1, 16.5, 1.6, 0.6, 1.1],
    [-1, -16, 1.2, 1.2, 0.7],
    [17.5, 7, 1.2, 0.25, 0],
  ]) {
    add(box(s, h, s, x, 0, z, yaw), 0x9a7b4f, 0.1);
  }

  // A bumpy patch in the south-east corner.
  const bumps = new PlaneGeometry(10, 10, 24, 24).rotateX(-Math.PI / 2);
  const p = bumps.attributes.position;
  for (let i = 0; i < p.count; i++) {
    const x = p.getX(i);
    const z = p.getZ(i);
    p.setY(i, 0.35 * Math.sin(0.9 * x) * Math.cos(0.8 * z) + 0.1);
  }
  add(bumps.translate(14.5, 0, -14.5), 0x6a7a52, 0.1);

  const merged = mergeGeometries(parts, false);
  parts.length = 0;
  if (!merged) throw new Error('level: the parts could not be merged');
  return merged;
}

/** The elevator's geometry: its top face at the mesh's origin. */
export function buildElevator(): BufferGeometry {
  const { size, thickness } = ELEVATOR;
  return new BoxGeometry(size, thickness, size).translate(0, -thickness / 2, 0);
}
