/**
 * Bad input to the character controller throws a clear error naming the argument, before anything
 * changes: the capsule, the colliders, every option (unknown keys included), the displacement; a failed
 * `configure` keeps the old settings. And the documented details: `reset`, the result's collisions, the
 * `clipVelocity` rules.
 */
import { BufferGeometry, Mesh, Vector3 } from 'three';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { describe, expect, it } from 'vitest';
import { CharacterController, CharacterMove, CollisionKind, MAX_COLLISIONS } from '../src/index.js';
import { box, meshOf, playerCapsule } from './support/characterScenes.js';

const floor = () => meshOf(box(40, 1, 40, 0, -1, 0));

describe('CharacterController: bad input', () => {
  it('the constructor checks the capsule, the colliders and the options', () => {
    const level = [floor()];
    const ok = () => playerCapsule();
    const make =
      (capsule: unknown, colliders: unknown = level, options?: unknown) =>
      () =>
        new CharacterController(capsule as Capsule, colliders as Mesh[], options as never);
    expect(make(null)).toThrow(/new CharacterController: capsule must be a Capsule/);
    expect(make({ start: new Vector3(Number.NaN, 0, 0), end: new Vector3(), radius: 1 })).toThrow(
      /capsule\.start must be a vector of finite numbers/,
    );
    expect(make({ start: new Vector3(), end: { x: 0, y: Infinity, z: 0 }, radius: 1 })).toThrow(
      /capsule\.end/,
    );
    for (const radius of [0, -1, Number.NaN, Infinity, '1']) {
      expect(make(new Capsule(new Vector3(), new Vector3(0, 1, 0), radius as number))).toThrow(
        /capsule\.radius must be a finite number > 0/,
      );
    }
    expect(make(ok(), 'level')).toThrow(/colliders must be an array of meshes/);
    expect(make(ok(), [level[0], new Mesh(new BufferGeometry())])).toThrow(
      /colliders\[1\] must be a Mesh whose geometry has a bounds tree/,
    );
    expect(make(ok(), [null])).toThrow(TypeError);
    expect(make(ok(), level, { maxStepHight: 0.3 })).toThrow(/unknown key 'maxStepHight'/);
    expect(make(ok(), level, 'fast')).toThrow(TypeError);
    for (const [key, value, message] of [
      ['skin', 0, /options\.skin must be a finite number > 0/],
      ['skin', -0.01, /options\.skin/],
      ['maxStepHeight', -1, /options\.maxStepHeight must be a finite number >= 0/],
      ['maxStepHeight', Number.NaN, /options\.maxStepHeight/],
      ['minStepWidth', Infinity, /options\.minStepWidth/],
      ['snapToGround', '0.2', /options\.snapToGround/],
      [
        'maxSlopeClimbAngle',
        Math.PI / 2,
        /options\.maxSlopeClimbAngle must be an angle in radians in \[0, π\/2\)/,
      ],
      ['maxSlopeClimbAngle', -0.1, /maxSlopeClimbAngle/],
      ['maxIterations', 0, /options\.maxIterations must be an integer in 1–64/],
      ['maxIterations', 2.5, /maxIterations/],
      ['up', new Vector3(), /options\.up must be a non-zero vector/],
      ['up', new Vector3(Number.NaN, 1, 0), /options\.up/],
    ] as const) {
      expect(make(ok(), level, { [key]: value }), `${key} = ${String(value)}`).toThrow(message);
    }
  });

  it('move checks the displacement, the capsule and the colliders before the capsule moves', () => {
    const capsule = playerCapsule();
    const character = new CharacterController(capsule, [floor()]);
    character.move(new Vector3(0, -0.1, 0));
    const before = [capsule.start.clone(), capsule.end.clone()];
    const result = character.result;
    const grounded = result.grounded;
    for (const d of [new Vector3(Number.NaN, 0, 0), new Vector3(0, Infinity, 0), null, { x: 1, y: 0 }]) {
      expect(() => character.move(d as Vector3)).toThrow(
        /CharacterController\.move: displacement must be a vector of finite numbers/,
      );
    }
    character.colliders = [character.colliders[0], new Mesh(new BufferGeometry())];
    expect(() => character.move(new Vector3(1, 0, 0))).toThrow(/CharacterController\.move: colliders\[1\]/);
    const squashed = meshOf(box(1, 1, 1, 5, 0, 5));
    squashed.matrixWorld.makeScale(1, 0, 1); // a platform scaled to nothing
    character.colliders = [character.colliders[0], squashed];
    expect(() => character.move(new Vector3(1, 0, 0))).toThrow(
      /CharacterController\.move: colliders\[1\]\.matrixWorld is singular/,
    );
    squashed.matrixWorld.elements[3] = 0.5; // projective
    expect(() => character.move(new Vector3(1, 0, 0))).toThrow(/colliders\[1\]\.matrixWorld is not affine/);
    character.colliders = character.colliders.slice(0, 1);
    capsule.radius = -1;
    expect(() => character.move(new Vector3(1, 0, 0))).toThrow(/CharacterController\.move: capsule\.radius/);
    capsule.radius = 0.35;
    expect(capsule.start).toEqual(before[0]);
    expect(capsule.end).toEqual(before[1]);
    expect(result.grounded).toBe(grounded);
    // And it still works.
    character.move(new Vector3(1, 0, 0));
    expect(capsule.start.x).toBeCloseTo(1, 12);
  });

  it('a failed configure keeps every setting; a good one changes only what it names', () => {
    const capsule = playerCapsule(0, 0.2);
    const level = [floor(), meshOf(box(2, 0.25, 4, 2, 0, 0))];
    const character = new CharacterController(capsule, level, { maxStepHeight: 0.3 });
    expect(() => character.configure({ maxStepHeight: 0.1, skin: -1 })).toThrow(/options\.skin/);
    expect(() => character.configure({ nope: 1 } as never)).toThrow(
      /CharacterController\.configure: options has an unknown key 'nope'/,
    );
    const d = new Vector3(0.05, -0.01, 0);
    for (let f = 0; f < 40; f++) character.move(d);
    expect(capsule.start.y).toBeCloseTo(0.25 + 0.3635, 6); // still steps 0.25
    character.configure({ maxStepHeight: 0.2 });
    const back = new Vector3(-0.05, -0.01, 0);
    for (let f = 0; f < 60; f++) character.move(back);
    for (let f = 0; f < 60; f++) character.move(d);
    expect(capsule.start.y).toBeCloseTo(0.3635, 6); // 0.25 is now too high
  });
});

describe('CharacterController: details', () => {
  it('reset forgets the ground and the platform', () => {
    const capsule = playerCapsule();
    const character = new CharacterController(capsule, [floor()]);
    character.move(new Vector3(0, -0.1, 0));
    expect(character.grounded).toBe(true);
    character.reset();
    expect(character.grounded).toBe(false);
  });

  it('the collisions of a move: kinds, meshes, faces, points, and at most MAX_COLLISIONS', () => {
    const ground = floor();
    const wall = meshOf(box(0.2, 3, 20, 1, 0, 0));
    const capsule = playerCapsule();
    const character = new CharacterController(capsule, [ground, wall]);
    const r = character.move(new Vector3(5, -1, 0));
    expect(r.collisionCount).toBe(2);
    expect(r.collisionKinds[0]).toBe(CollisionKind.Wall);
    expect(r.collisionMeshes[0]).toBe(wall);
    expect(r.collisionFaces[0]).toBeGreaterThanOrEqual(0);
    expect(r.collisionPoints[0]).toBeCloseTo(0.9, 6);
    expect(r.slideNormals[0]).toBeCloseTo(-1, 9);
    expect(r.collisionKinds[1]).toBe(CollisionKind.Ground);
    expect(r.collisionMeshes[1]).toBe(ground);
    expect(r.collisionMeshes[2]).toBeNull();
    expect(MAX_COLLISIONS).toBe(32);
    // The next move clears them.
    const again = character.move(new Vector3(0, 0, 0));
    expect(again).toBe(r);
    expect(again.collisionCount).toBe(0);
    expect(again.collisionMeshes[0]).toBeNull();
  });

  it('clipVelocity: on ground only the downward part goes; at a wall the part into it', () => {
    const ground = floor();
    const wall = meshOf(box(0.2, 3, 20, 1, 0, 0));
    const character = new CharacterController(playerCapsule(), [ground, wall]);
    const r = character.move(new Vector3(5, -1, 2));
    const v = r.clipVelocity(new Vector3(3, -4, 2));
    expect(v.x).toBeCloseTo(0, 12);
    expect(v.y).toBe(0);
    expect(v.z).toBeCloseTo(2, 12);
    expect(r.clipVelocity(new Vector3(-3, 4, 0)).toArray()).toEqual([-3, 4, 0]);
    expect(new CharacterMove().clipVelocity(new Vector3(1, -2, 3)).toArray()).toEqual([1, -2, 3]);
  });
});
