/**
 * The game's textures, drawn at start-up (no image files): the tileset (grass, earth, stone,
 * platform; 32 px each, side by side), the player, balls and crates in three sizes.
 */
import type * as Phaser from 'phaser';
import { TILE } from './level.js';

/** Draws every texture the level uses into the scene's texture manager. */
export function makeTextures(scene: Phaser.Scene): void {
  const g = scene.make.graphics({ x: 0, y: 0 }, false);
  const colours = [
    [0x5fb34a, 0x7a5230], // grass on earth
    [0x7a5230, 0x6a4526],
    [0x62646e, 0x54555e],
    [0xc9a25a, 0xa8823f],
  ];
  colours.forEach(([top, body], i) => {
    const x = i * TILE;
    g.fillStyle(body).fillRect(x, 0, TILE, TILE);
    g.fillStyle(top).fillRect(x, 0, TILE, i === 0 ? 8 : 3);
    g.lineStyle(1, 0x000000, 0.25).strokeRect(x + 0.5, 0.5, TILE - 1, TILE - 1);
  });
  g.generateTexture('tiles', 4 * TILE, TILE);
  g.clear();
  g.fillStyle(0xffe066).fillRoundedRect(0, 0, 24, 40, 6);
  g.fillStyle(0x222222).fillRect(14, 10, 4, 6);
  g.generateTexture('player', 24, 40);
  for (let size = 1; size <= 3; size++) {
    const r = 4 + 4 * size;
    g.clear();
    g.fillStyle(0x4dabf7).fillCircle(r, r, r);
    g.fillStyle(0xffffff, 0.5).fillCircle(r * 0.65, r * 0.65, r * 0.3);
    g.generateTexture(`ball${size}`, 2 * r, 2 * r);
    g.clear();
    g.fillStyle(0xb5651d).fillRect(0, 0, 2 * r, 2 * r);
    g.lineStyle(2, 0x6b3a10).strokeRect(1, 1, 2 * r - 2, 2 * r - 2);
    g.generateTexture(`crate${size}`, 2 * r, 2 * r);
  }
  g.destroy();
}
