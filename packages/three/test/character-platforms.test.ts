/**
 * Moving platforms: a kinematic mesh whose world matrix changes between moves carries the character
 * standing on it — rising, sinking, sliding, turning, at any frame rate — sweeps that carry against the
 * rest of the level, lets go when the character walks off, and pushes out a character it moves into.
 */
import { BoxGeometry, type Mesh, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { CharacterController, intersectsCapsule } from '../src/index.js';
import { box, meshOf, playerCapsule, Walker } from './support/characterScenes.js';

const SKIN = 0.0135;
const R = 0.35 + SKIN;

/** A 4 × 0.2 × 4 platform, top at its origin, moved by its world matrix (no parent, no auto update). */
function platform(): Mesh {
  const m = meshOf(new BoxGeometry(4, 0.2, 4).translate(0, -0.1, 0));
  m.matrixAutoUpdate = false;
  return m;
}

function place(m: Mesh, x: number, y: number, z: number, yaw = 0): void {
  m.position.set(x, y, z);
  m.rotation.set(0, yaw, 0);
  m.updateMatrix();
  m.matrixWorld.copy(m.matrix);
}

describe('CharacterController: moving platforms', () => {
  for (const fps of [5, 60, 144]) {
    it(`at ${fps} fps: an elevator carries the character up and down, exactly on its top`, () => {
      const lift = platform();
      place(lift, 0, 1, 0);
      const player = playerCapsule(0.5, 0.5, 1.2);
      const walker = new Walker(new CharacterController(player, [lift]));
      for (let f = 0; f < fps; f++) walker.frame(1 / fps); // land
      expect(walker.character.result.groundMesh).toBe(lift);
      const frames = 2 * fps;
      for (let f = 1; f <= frames; f++) {
        // Up 3 m/s for a second, then down at 8 m/s (faster than the character would fall in a frame).
        const t = f / fps;
        const y = t <= 1 ? 1 + 3 * t : 4 - 8 * (t - 1);
        place(lift, 0, y, 0);
        walker.frame(1 / fps);
        expect(player.start.y, `frame ${f}`).toBeCloseTo(y + R, 6);
        expect(player.start.x).toBeCloseTo(0.5, 9);
        expect(walker.character.grounded).toBe(true);
        expect(intersectsCapsule(lift, player)).toBe(false);
      }
      expect(walker.character.result.carried.y).toBeCloseTo(-8 / fps, 6);
    });

    it(`at ${fps} fps: a sliding platform carries the character; a wall on the way stops the carry`, () => {
      const deck = platform();
      place(deck, 0, 1, 0);
      const wall = meshOf(box(0.2, 4, 6, 6, 1.2, 0)); // above the deck's path: only the character meets it
      const player = playerCapsule(1, 0, 1.2);
      const walker = new Walker(new CharacterController(player, [deck, wall]));
      for (let f = 0; f < fps; f++) walker.frame(1 / fps);
      const x0 = player.start.x;
      for (let f = 1; f <= 2 * fps; f++) {
        const x = (4 * f) / fps; // 4 m/s along +x: 8 m in 2 s, the wall at 5.9
        place(deck, x, 1, 0);
        walker.frame(1 / fps);
        expect(intersectsCapsule(wall, player)).toBe(false);
        expect(intersectsCapsule(deck, player)).toBe(false);
        expect(player.start.x).toBeLessThanOrEqual(5.9 - R + 1e-6); // float32 geometry
        if (x0 + x < 5.9 - R) expect(player.start.x).toBeCloseTo(x0 + x, 6);
      }
      expect(player.start.x).toBeCloseTo(5.9 - R, 5);
    });
  }

  it('a turning platform carries the character round its axis and reports the turn', () => {
    const wheel = platform();
    place(wheel, 0, 0, 0);
    const player = playerCapsule(1.2, 0, 0.2);
    const walker = new Walker(new CharacterController(player, [wheel]));
    for (let f = 0; f < 60; f++) walker.frame(1 / 60);
    const start = player.start.clone();
    let yaw = 0;
    for (let f = 1; f <= 60; f++) {
      place(wheel, 0, 0, 0, f / 60); // 1 rad/s about y
      walker.frame(1 / 60);
      yaw += walker.character.result.carriedYaw;
    }
    const expected = start.clone().applyAxisAngle(new Vector3(0, 1, 0), 1);
    expect(player.start.x).toBeCloseTo(expected.x, 6);
    expect(player.start.z).toBeCloseTo(expected.z, 6);
    expect(player.start.y).toBeCloseTo(start.y, 9);
    expect(yaw).toBeCloseTo(1, 9);
  });

  it('walking off a moving platform lets go of it', () => {
    const deck = platform();
    place(deck, 0, 0.5, 0);
    const ground = meshOf(box(40, 1, 40, 0, -1, 0));
    const player = playerCapsule(1, 0, 0.7);
    const walker = new Walker(new CharacterController(player, [ground, deck]));
    for (let f = 0; f < 30; f++) walker.frame(1 / 60);
    walker.wish.set(0, 0, 4); // off the deck's +z edge, onto the floor
    let offAt = -1;
    for (let f = 0; f < 120; f++) {
      place(deck, 0, 0.5 + 0.001 * f, 0); // creeping up
      walker.frame(1 / 60);
      if (offAt < 0 && walker.character.result.groundMesh === ground) offAt = f;
      if (offAt >= 0) expect(walker.character.result.carried.length()).toBe(0);
    }
    expect(offAt).toBeGreaterThan(0);
    expect(player.start.y).toBeCloseTo(R, 6);
  });

  it('a platform moved into a character standing beside it pushes it out', () => {
    const pusher = platform();
    const ground = meshOf(box(40, 1, 40, 0, -1, 0));
    place(pusher, -2.5, 1, 0); // its +x face at x = −0.5, 1 m tall over the floor
    const tall = meshOf(new BoxGeometry(1, 2, 4).translate(0, 1, 0));
    tall.matrixAutoUpdate = false;
    place(tall, -1.2, 0, 0);
    const player = playerCapsule(0.5, 0);
    const walker = new Walker(new CharacterController(player, [ground, tall]));
    for (let f = 0; f < 10; f++) walker.frame(1 / 60);
    let pushed = false;
    for (let f = 1; f <= 60; f++) {
      place(tall, -1.2 + 0.02 * f, 0, 0); // 1.2 m/s towards the character: its face from −0.7 to 0.5
      walker.frame(1 / 60);
      pushed ||= walker.character.result.pushedOut;
      expect(intersectsCapsule(tall, player)).toBe(false);
    }
    expect(pushed).toBe(true);
    expect(player.start.x).toBeGreaterThan(0.5 + 0.35);
  });
});
