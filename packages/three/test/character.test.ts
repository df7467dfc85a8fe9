/**
 * The character controller on scripted scenes: a huge displacement stops at a thin wall, steps are
 * climbed up to the step height and not above, slopes are climbed up to the climb angle and slid down
 * beyond it, the ground is found and snapped to, ceilings stop a jump, a corridor narrower than the
 * capsule cannot be entered, moving platforms (rising, sliding, turning) carry the character standing on
 * them and push out one standing beside them, a refit floor lifts it, and bad input throws before
 * anything moves.
 */
import { BoxGeometry, Mesh, PlaneGeometry, Vector3 } from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { describe, expect, it } from 'vitest';
import { CharacterController, CollisionKind, computeBoundsTree, intersectsCapsule } from '../src/index.js';
import {
  box,
  GRAVITY,
  merge,
  meshOf,
  playerCapsule,
  ramp,
  sheet,
  Walker,
} from './support/characterScenes.js';

const FPS = [5, 30, 60, 144];
const floor = () => meshOf(box(40, 1, 40, 0, -1, 0));

/** Walks `walker` for `seconds` at `fps`; returns the number of frames. */
function run(walker: Walker, fps: number, seconds: number, each?: (f: number) => void): number {
  const frames = Math.round(seconds * fps);
  for (let f = 0; f < frames; f++) {
    walker.frame(1 / fps);
    each?.(f);
  }
  return frames;
}

function inside(capsule: Capsule, meshes: Mesh[]): boolean {
  return meshes.some((m) => intersectsCapsule(m, capsule));
}

describe('CharacterController: walls', () => {
  it('the TSDoc example: one huge frame stops at a thin wall, grounded, velocity clipped', () => {
    const wall = meshOf(box(0.1, 3, 20, 2, 0, 0));
    const ground = floor();
    const player = playerCapsule();
    const character = new CharacterController(player, [ground, wall], { maxStepHeight: 0.3 });
    const velocity = new Vector3(400, 0, 0);
    const dt = 1 / 5;
    velocity.y -= GRAVITY * dt;
    const result = character.move(velocity.clone().multiplyScalar(dt));
    result.clipVelocity(velocity);
    const skin = 0.01 * 1.35;
    // Against the wall (x = 1.95) at the grown radius, standing on the floor at the grown radius.
    expect(player.start.x).toBeCloseTo(1.95 - 0.35 - skin, 6);
    expect(player.start.y).toBeCloseTo(0.35 + skin, 6);
    expect(player.end.y - player.start.y).toBeCloseTo(0.65, 12);
    expect([result.grounded, result.hitWall, character.grounded]).toEqual([true, true, true]);
    expect(velocity.x).toBe(0);
    expect(velocity.y).toBe(0);
    expect(result.translation.x).toBeCloseTo(player.start.x, 12);
    expect(result.groundMesh).toBe(ground);
    expect(result.groundNormal.y).toBeCloseTo(1, 12);
    expect(result.collisionCount).toBeGreaterThanOrEqual(2);
    const kinds = Array.from(result.collisionKinds.subarray(0, result.collisionCount));
    expect(kinds).toContain(CollisionKind.Wall);
    expect(kinds).toContain(CollisionKind.Ground);
    const w = kinds.indexOf(CollisionKind.Wall);
    expect(result.collisionMeshes[w]).toBe(wall);
    expect(result.collisionNormals[3 * w]).toBeCloseTo(-1, 9);
  });

  for (const fps of FPS) {
    it(`at ${fps} fps, a runner at 1000 m/s stops at a zero-thickness wall from either side, and slides along it`, () => {
      const wall = meshOf(sheet(0, -5, 0, 5, 3));
      const meshes = [floor(), wall];
      for (const side of [-1, 1]) {
        const player = playerCapsule(-2 * side, -3);
        const character = new CharacterController(player, meshes);
        const walker = new Walker(character);
        walker.wish.set(1000 * side, 0, 3);
        run(walker, fps, 1, () => {
          expect(Math.sign(player.start.x)).toBe(-side);
          expect(inside(player, meshes)).toBe(false);
        });
        expect(Math.abs(player.start.x)).toBeCloseTo(0.35 + 0.0135, 6);
        // Slid along the wall (z grows) at most to the wall's end, then round it.
        expect(player.start.z).toBeGreaterThan(-2.9);
      }
    });
  }

  it('a corner of two walls at 10° holds the capsule without jitter or escape', () => {
    const a = 0.17;
    const meshes = [
      floor(),
      meshOf(merge(sheet(0, 0, 8, 0, 3), sheet(0, 0, 8 * Math.cos(a), 8 * Math.sin(a), 3))),
    ];
    for (const fps of FPS) {
      const player = playerCapsule(6, 0.55);
      const character = new CharacterController(player, meshes);
      const walker = new Walker(character);
      walker.wish.set(-8, 0, 0.3); // into the acute corner
      const xs: number[] = [];
      run(walker, fps, 2, () => {
        expect(inside(player, meshes)).toBe(false);
        xs.push(player.start.x);
      });
      // Wedged where the corner is as wide as the capsule: r / sin(a/2) from the apex.
      const wedge = (0.35 + 0.0135) / Math.sin(a / 2);
      expect(player.start.x).toBeGreaterThan(wedge * 0.98);
      expect(player.start.x).toBeLessThan(wedge * 1.05);
      expect(player.start.z).toBeGreaterThan(0);
      // Settled: the last half second does not move.
      const tail = xs.slice(-Math.ceil(fps / 2));
      expect(Math.max(...tail) - Math.min(...tail)).toBeLessThan(1e-6);
    }
  });

  it('a corridor narrower than the grown capsule cannot be entered; one wider can', () => {
    for (const [gap, enters] of [
      [0.72, false], // the grown capsule is 0.727 across
      [0.76, true],
    ] as const) {
      const meshes = [
        floor(),
        meshOf(merge(box(4, 2, 0.1, 3, 0, -gap / 2 - 0.05), box(4, 2, 0.1, 3, 0, gap / 2 + 0.05))),
      ];
      for (const fps of [5, 144]) {
        const player = playerCapsule(-1, 0);
        const walker = new Walker(new CharacterController(player, meshes));
        walker.wish.set(5, 0, 0);
        run(walker, fps, 2, () => expect(inside(player, meshes)).toBe(false));
        expect(player.start.x > 2, `gap ${gap} at ${fps} fps: x = ${player.start.x}`).toBe(enters);
      }
    }
  });
});

describe('CharacterController: steps', () => {
  /** Where the grown capsule (radius 0.3635) walking along +x stops against a step of height `h` at x = 2. */
  const blockedX = (h: number) => 2 - (h >= 0.3635 ? 0.3635 : Math.sqrt(0.3635 ** 2 - (0.3635 - h) ** 2));

  /** Walks at 2.5 m/s for 2 s towards a step of height `h` whose front is at x = 2; returns the capsule. */
  function walkAt(h: number, fps: number, options: { maxStepHeight?: number }): Capsule {
    const meshes = [floor(), meshOf(box(6, h, 4, 5, 0, 0))];
    const player = playerCapsule(0, 0.2);
    const walker = new Walker(new CharacterController(player, meshes, options));
    walker.wish.set(2.5, 0, 0);
    run(walker, fps, 2, () => expect(inside(player, meshes)).toBe(false));
    return player;
  }

  for (const fps of FPS) {
    it(`at ${fps} fps: steps up to maxStepHeight (0.3) are climbed, higher ones are not`, () => {
      for (const h of [0.05, 0.15, 0.25, 0.299]) {
        const player = walkAt(h, fps, { maxStepHeight: 0.3 });
        expect(player.start.x, `step ${h}`).toBeGreaterThan(3.5);
        expect(player.start.y, `step ${h}`).toBeCloseTo(h + 0.3635, 5);
      }
      for (const h of [0.302, 0.35, 0.6]) {
        const player = walkAt(h, fps, { maxStepHeight: 0.3 });
        expect(player.start.x, `step ${h}`).toBeCloseTo(blockedX(h), 5);
        expect(player.start.y, `step ${h}`).toBeCloseTo(0.3635, 5);
      }
    });
  }

  it('without autostep, only what the round bottom rolls over: below r·(1 − cos maxSlopeClimbAngle)', () => {
    const roll = 0.3635 * (1 - Math.cos(Math.PI / 4)); // 0.106
    for (const fps of [5, 60, 144]) {
      const low = walkAt(roll - 0.01, fps, {});
      expect(low.start.y).toBeCloseTo(roll - 0.01 + 0.3635, 5);
      const high = walkAt(roll + 0.01, fps, {});
      expect(high.start.x).toBeCloseTo(blockedX(roll + 0.01), 5);
      expect(walkAt(0.2, fps, {}).start.x).toBeCloseTo(blockedX(0.2), 5);
    }
  });

  it('a flight of stairs (0.2 rise, 0.4 run) to a landing, at every frame rate', () => {
    for (const fps of FPS) {
      const stairs = meshOf(
        merge(
          ...[0, 1, 2, 3, 4].map((i) => box(0.4, 0.2 * (i + 1), 2, 1.2 + 0.4 * i, 0, 0)),
          box(8, 1, 2, 6.8, 0, 0),
        ),
      );
      const meshes = [floor(), stairs];
      const player = playerCapsule(0, 0);
      const walker = new Walker(new CharacterController(player, meshes, { maxStepHeight: 0.3 }));
      walker.wish.set(3, 0, 0);
      let stepped = 0;
      run(walker, fps, 2, () => {
        expect(inside(player, meshes)).toBe(false);
        if (walker.character.result.stepped) stepped++;
      });
      expect(player.start.y, `${fps} fps`).toBeCloseTo(1 + 0.3635, 5);
      expect(player.start.x).toBeGreaterThan(3.5);
      expect(stepped).toBeGreaterThanOrEqual(fps === 5 ? 2 : 5);
    }
  });
});

describe('CharacterController: slopes and ground', () => {
  const slope = (deg: number) => [floor(), meshOf(ramp((deg * Math.PI) / 180, 6, 3, 1, 0))];

  for (const fps of FPS) {
    it(`at ${fps} fps: a 30° ramp is walked up at walking speed, a 60° one is a wall`, () => {
      const gentle = slope(30);
      const player = playerCapsule(0, 0);
      const walker = new Walker(new CharacterController(player, gentle));
      walker.wish.set(2, 0, 0);
      run(walker, fps, 2, () => expect(inside(player, gentle)).toBe(false));
      // 4 m of level travel in 2 s, minus the acceleration: on the ramp, risen by tan 30° of it.
      expect(player.start.x).toBeGreaterThan(3);
      expect(player.start.y - 0.3635 / Math.cos(Math.PI / 6)).toBeCloseTo(
        (player.start.x - 1) * Math.tan(Math.PI / 6),
        2,
      );
      expect(walker.character.grounded).toBe(true);

      const steep = slope(60);
      const blocked = playerCapsule(0, 0);
      const w2 = new Walker(new CharacterController(blocked, steep));
      w2.wish.set(2, 0, 0);
      run(w2, fps, 2, () => expect(inside(blocked, steep)).toBe(false));
      expect(blocked.start.y).toBeLessThan(0.3635 + 0.2);
      expect(blocked.start.x).toBeLessThan(1.1);
    });
  }

  it('standing on a 30° slope stays put; on a 60° slope slides down to the floor', () => {
    for (const fps of FPS) {
      const gentle = slope(30);
      const a = playerCapsule(3, 0, 2.2); // above the ramp, dropped onto it
      const wa = new Walker(new CharacterController(a, gentle));
      run(wa, fps, 1);
      const x = a.start.x;
      const y = a.start.y;
      run(wa, fps, 2, () => expect(wa.character.grounded).toBe(true));
      expect(Math.abs(a.start.x - x)).toBeLessThan(1e-9);
      expect(Math.abs(a.start.y - y)).toBeLessThan(1e-9);

      const steep = slope(60);
      const b = playerCapsule(2.2, 0, 3);
      const wb = new Walker(new CharacterController(b, steep));
      let slid = false;
      run(wb, fps, 3, () => {
        expect(inside(b, steep)).toBe(false);
        if (
          wb.character.result.collisionKinds
            .subarray(0, wb.character.result.collisionCount)
            .includes(CollisionKind.Slope)
        )
          slid = true;
      });
      expect(slid).toBe(true);
      expect(b.start.y).toBeCloseTo(0.3635, 5);
      expect(b.start.x).toBeLessThan(1);
    }
  });

  it('snap to ground keeps a character walking down a slope grounded; without it, it leaves the ground', () => {
    for (const fps of [30, 60, 144]) {
      const counts = [undefined, 0].map((snapToGround) => {
        const meshes = slope(25);
        const player = playerCapsule(5, 0, 2.5);
        const walker = new Walker(new CharacterController(player, meshes, { snapToGround }));
        run(walker, fps, 0.5); // land
        walker.wish.set(-4, 0, 0);
        let airborne = 0;
        let snapped = 0;
        run(walker, fps, 0.6, () => {
          if (!walker.character.grounded) airborne++;
          if (walker.character.result.snapped) snapped++;
        });
        expect(player.start.x).toBeGreaterThan(1.5); // still on the ramp
        return [airborne, snapped];
      });
      expect(counts[0], `${fps} fps with snap`).toEqual([0, expect.any(Number)]);
      expect(counts[0][1]).toBeGreaterThan(0);
      expect(counts[1][0], `${fps} fps without snap`).toBeGreaterThan(0);
    }
  });

  it('a jump under a low ceiling stops at it: hitCeiling, the upward velocity clipped', () => {
    const meshes = [floor(), meshOf(box(6, 0.2, 6, 0, 1.6, 0))];
    for (const fps of FPS) {
      const player = playerCapsule(0, 0);
      const walker = new Walker(new CharacterController(player, meshes));
      run(walker, fps, 0.2);
      walker.jump = true;
      let ceiling = false;
      run(walker, fps, 0.5, () => {
        walker.jump = false;
        expect(player.end.y).toBeLessThanOrEqual(1.6 - 0.35 - 0.0135 + 1e-6);
        if (walker.character.result.hitCeiling) {
          ceiling = true;
          expect(walker.velocity.y).toBeLessThanOrEqual(0);
        }
      });
      expect(ceiling, `${fps} fps`).toBe(true);
    }
  });

  it('a capsule with a tilted up vector walks on a tilted world the same way', () => {
    // The whole scene turned 90° about z: up is −x.
    const up = new Vector3(-1, 0, 0);
    const ground = meshOf(new BoxGeometry(1, 40, 40).translate(0.5, 0, 0));
    const wall = meshOf(new BoxGeometry(3, 0.1, 20).translate(-1.5, 2, 0));
    const player = new Capsule(new Vector3(-0.4, 0, 0), new Vector3(-1.05, 0, 0), 0.35);
    const character = new CharacterController(player, [ground, wall], { up });
    const d = new Vector3();
    for (let f = 0; f < 60; f++) character.move(d.set(0.5, 0.1, 0)); // "down" and along +y into the wall
    expect(player.start.x).toBeCloseTo(-0.3635, 6);
    expect(player.start.y).toBeCloseTo(1.95 - 0.3635, 6);
    expect(character.grounded).toBe(true);
  });
});

describe('CharacterController: refit', () => {
  it('a floor whose vertices rise (refit through needsUpdate) lifts the character standing on it', () => {
    const g = new PlaneGeometry(10, 10, 4, 4).rotateX(-Math.PI / 2);
    const ground = new Mesh(g);
    computeBoundsTree.call(g);
    const player = playerCapsule(0.3, 0.2);
    const walker = new Walker(new CharacterController(player, [ground]));
    const p = g.attributes.position;
    for (let f = 0; f < 60; f++) {
      for (let i = 0; i < p.count; i++) p.setY(i, p.getY(i) + 0.05);
      p.needsUpdate = true;
      walker.frame(1 / 60);
      expect(inside(player, [ground])).toBe(false);
    }
    expect(player.start.y).toBeCloseTo(3 + 0.3635, 5);
  });
});
