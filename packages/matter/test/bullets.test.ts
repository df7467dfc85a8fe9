import { SweepAndPrune } from '@sieve/core';
import Matter from 'matter-js';
import { describe, expect, it } from 'vitest';
import { depth } from '../../../test/support/depth.js';
import { rng } from '../../core/test/support/rng.js';
import {
  type BulletOptions,
  installBullets,
  installSieve,
  isBullet,
  setBullet,
  uninstallBullets,
} from '../src/index.js';

const { Bodies, Body, Composite, Engine } = Matter;

const STEP = 1000 / 60;
/** 500 units per second, in matter's per-update velocity at 60 Hz. */
const SPEED = 500 / 60;
const WALL_T = 0.1;
const RADIUS = 0.5;
const SPACING = 200;
const UPDATES = 4;
/**
 * Shots of the tunnelling test (in batches of 2 500, seeds 1000 on): at the standard depth its first
 * batch, where about 99 % of the shots tunnel without the option.
 */
const SHOTS = depth(2500, 10_000);
/** Shots of each other batch (bounce, stock mode, boxes, the broadphase's query). */
const BATCH = depth(500, 2000);
/** A count as the tests' names write it: `10 000`. */
const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

interface Batch {
  /** Shots whose centre ended beyond the wall's far face. */
  tunnelled: number;
  /** Shots whose centre ended past the wall's near face (in it or beyond). */
  crossedNearFace: number;
  /** Milliseconds spent in the bullets' afterUpdate work. */
  ms: number;
  /** Bullet sweeps whose candidates came from the Sieve broadphase's query (not a scan of the bodies). */
  broadphaseQueries: number;
}

/**
 * `n` shots in one engine, each in its own cell with its own static wall (60 × 0.1, its near face at
 * y = wy − 0.05): random lateral offset (±5), angle (±30° from the wall's normal) and phase (start 3 to
 * 3 + one update's travel before the wall).
 */
function shootBatch(
  n: number,
  seed: number,
  bullet: BulletOptions | null,
  opts: { sieve: boolean; box?: boolean; broadphase?: boolean } = { sieve: true },
): Batch {
  const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
  let broadphaseQueries = 0;
  if (opts.sieve) {
    // With a broadphase (its path forced), the bullets gather their candidates from its query.
    const sieve = installSieve(
      engine,
      opts.broadphase ? { broadphase: new SweepAndPrune({ dimensions: 2 }), sweepBelow: 0 } : {},
    );
    const query = sieve.queryBodies.bind(sieve);
    sieve.queryBodies = (box, out) => {
      const n = query(box, out);
      if (n >= 0) broadphaseQueries++;
      return n;
    };
  }
  // Listeners run in order: these two bracket the bullets' afterUpdate work (registered in between).
  let t0 = 0;
  let ms = 0;
  Matter.Events.on(engine, 'afterUpdate', () => {
    t0 = performance.now();
  });
  const random = rng(seed);
  const cols = Math.ceil(Math.sqrt(n));
  const shots: Matter.Body[] = [];
  const wallY: number[] = [];
  const bodies: Matter.Body[] = [];
  for (let i = 0; i < n; i++) {
    const cx = (i % cols) * SPACING;
    const wy = Math.floor(i / cols) * SPACING;
    bodies.push(Bodies.rectangle(cx, wy, 60, WALL_T, { isStatic: true }));
    const theta = ((random() * 2 - 1) * Math.PI) / 6;
    const d = 3 + random() * SPEED;
    const x = cx + (random() * 2 - 1) * 5;
    const common = { frictionAir: 0, friction: 0, restitution: 0 };
    const shot = opts.box
      ? Bodies.rectangle(x, wy - d, 2, 0.5, { ...common, angle: random() * Math.PI })
      : Bodies.circle(x, wy - d, RADIUS, common);
    Body.setVelocity(shot, { x: SPEED * Math.sin(theta), y: SPEED * Math.cos(theta) });
    if (opts.box) Body.setAngularVelocity(shot, (random() * 2 - 1) * 0.3);
    if (bullet !== null) setBullet(engine, shot, bullet);
    shots.push(shot);
    wallY.push(wy);
    bodies.push(shot);
  }
  Matter.Events.on(engine, 'afterUpdate', () => {
    ms += performance.now() - t0;
  });
  Composite.add(engine.world, bodies);
  for (let u = 0; u < UPDATES; u++) Engine.update(engine, STEP);
  let tunnelled = 0;
  let crossedNearFace = 0;
  for (let i = 0; i < n; i++) {
    const y = shots[i].position.y;
    if (y > wallY[i] + WALL_T / 2) tunnelled++;
    if (y > wallY[i] - WALL_T / 2) crossedNearFace++;
  }
  return { tunnelled, crossedNearFace, ms, broadphaseQueries };
}

function shoot(total: number, batch: number, bullet: BulletOptions | null, sieve = true): Batch {
  const sum: Batch = { tunnelled: 0, crossedNearFace: 0, ms: 0, broadphaseQueries: 0 };
  for (let b = 0; b < total / batch; b++) {
    const r = shootBatch(batch, 1000 + b, bullet, { sieve });
    sum.tunnelled += r.tunnelled;
    sum.crossedNearFace += r.crossedNearFace;
    sum.ms += r.ms;
    sum.broadphaseQueries += r.broadphaseQueries;
  }
  return sum;
}

describe(`bullets: ${count(SHOTS)} shots at 500 units/s at a 0.1-thick wall`, () => {
  it('without the option a measured share tunnels; with it none does (Sieve mode)', () => {
    const without = shoot(SHOTS, 2500, null);
    const withStop = shoot(SHOTS, 2500, { response: 'stop' });
    const perBulletUpdateUs = (withStop.ms * 1000) / (SHOTS * UPDATES);
    console.log(
      `[bullets] tunnelled without option: ${without.tunnelled} / ${SHOTS}; with: ${withStop.tunnelled} / ${SHOTS}; ` +
        `bullet work ≈ ${perBulletUpdateUs.toFixed(2)} µs per bullet per update (noisy)`,
    );
    expect(without.tunnelled).toBeGreaterThan(0);
    expect(withStop.tunnelled).toBe(0);
    expect(withStop.crossedNearFace).toBe(0);
  });

  it('bounce, stock mode (no Sieve: scan fallback) and spinning box bullets never tunnel either', () => {
    const bounce = shootBatch(BATCH, 7, { response: 'bounce', restitution: 0.5 });
    expect(bounce.crossedNearFace).toBe(0);
    const stock = shootBatch(BATCH, 8, { response: 'stop' }, { sieve: false });
    expect(stock.crossedNearFace).toBe(0);
    const boxesWithout = shootBatch(BATCH, 9, null, { sieve: true, box: true });
    const boxes = shootBatch(BATCH, 9, { response: 'stop' }, { sieve: true, box: true });
    expect(boxesWithout.tunnelled).toBeGreaterThan(0);
    expect(boxes.crossedNearFace).toBe(0);
    // The default answers with the sweep: the bullets scan the bodies.
    expect(boxes.broadphaseQueries).toBe(0);
  });

  it('with a SweepAndPrune passed (its path forced), the candidates come from its query: none tunnels either', () => {
    const viaQuery = shootBatch(BATCH, 10, { response: 'stop' }, { sieve: true, broadphase: true });
    expect(viaQuery.crossedNearFace).toBe(0);
    // Every update after the first (which builds the proxies) answers from the query: every bullet each.
    expect(viaQuery.broadphaseQueries).toBeGreaterThanOrEqual(BATCH * (UPDATES - 1));
    const boxes = shootBatch(BATCH, 11, { response: 'stop' }, { sieve: true, box: true, broadphase: true });
    expect(boxes.crossedNearFace).toBe(0);
    expect(boxes.broadphaseQueries).toBeGreaterThan(0);
  });
});

/** One bullet and one wall (near face at y = −0.05); returns both and the engine. */
function single(x: number, y: number, vx: number, vy: number, bullet: BulletOptions | null) {
  const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
  installSieve(engine);
  const wall = Bodies.rectangle(0, 0, 60, WALL_T, { isStatic: true });
  const shot = Bodies.circle(x, y, RADIUS, { frictionAir: 0, friction: 0, restitution: 0 });
  Body.setVelocity(shot, { x: vx, y: vy });
  if (bullet !== null) setBullet(engine, shot, bullet);
  Composite.add(engine.world, [wall, shot]);
  return { engine, shot, wall };
}

describe('bullets: single shots', () => {
  it('a grazing shot passes exactly as without the option', () => {
    const near = -WALL_T / 2 - RADIUS - 0.01;
    // Along the wall, 0.01 from its face; and straight past its end, 0.01 from the corner.
    for (const [x, y, vx, vy] of [
      [-40, near, SPEED, 0],
      [30 + RADIUS + 0.01, -20, 0, SPEED],
    ]) {
      const a = single(x, y, vx, vy, { response: 'stop' });
      const b = single(x, y, vx, vy, null);
      for (let u = 0; u < 12; u++) {
        Engine.update(a.engine, STEP);
        Engine.update(b.engine, STEP);
      }
      expect(a.shot.position.x).toBe(b.shot.position.x);
      expect(a.shot.position.y).toBe(b.shot.position.y);
      expect(a.shot.velocity.x).toBe(b.shot.velocity.x);
      expect(Math.hypot(a.shot.position.x - x, a.shot.position.y - y)).toBeGreaterThan(90);
    }
  });

  it('stop: a head-on shot rests at the wall with no normal velocity', () => {
    const { engine, shot } = single(0, -5, 0, SPEED, { response: 'stop' });
    Engine.update(engine, STEP);
    expect(shot.position.y).toBeLessThan(-WALL_T / 2 - RADIUS * Math.cos(Math.PI / 10) + 1e-9);
    expect(shot.position.y).toBeGreaterThan(-WALL_T / 2 - RADIUS - 0.01);
    expect(Math.abs(shot.velocity.y)).toBeLessThan(1e-9);
    for (let u = 0; u < 5; u++) Engine.update(engine, STEP);
    expect(shot.position.y).toBeLessThan(-WALL_T / 2);
  });

  it('a compound bullet (two parts) stops at the wall too, with Sieve and without', () => {
    for (const sieve of [true, false]) {
      const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
      if (sieve) installSieve(engine);
      const wall = Bodies.rectangle(0, 0, 60, WALL_T, { isStatic: true });
      const common = { frictionAir: 0, friction: 0, restitution: 0 };
      // Two circles side by side, 5 units above the wall, head-on at a speed that tunnels.
      const shot = Body.create({
        parts: [Bodies.circle(-RADIUS, -5, RADIUS, common), Bodies.circle(RADIUS, -5, RADIUS, common)],
        ...common,
      });
      Body.setVelocity(shot, { x: 0, y: SPEED });
      setBullet(engine, shot, { response: 'stop' });
      Composite.add(engine.world, [wall, shot]);
      for (let u = 0; u < 6; u++) Engine.update(engine, STEP);
      expect(shot.position.y).toBeLessThan(-WALL_T / 2);
    }
  });

  it('bounce reflects the normal velocity with the restitution', () => {
    const hits: number[] = [];
    const { engine, shot, wall } = single(1, -5, 0, SPEED, {
      response: 'bounce',
      restitution: 0.8,
      onHit: (b, other, hit) => {
        expect(b).toBe(shot);
        expect(other).toBe(wall);
        expect(hit.normalY).toBeCloseTo(1, 6);
        hits.push(hit.t);
      },
    });
    Engine.update(engine, STEP);
    expect(hits.length).toBe(1);
    expect(hits[0]).toBeGreaterThan(0.4);
    expect(hits[0]).toBeLessThan(0.6);
    expect(shot.velocity.y).toBeCloseTo(-0.8 * SPEED, 6);
    expect(shot.velocity.x).toBeCloseTo(0, 9);
    const y = shot.position.y;
    for (let u = 0; u < 3; u++) Engine.update(engine, STEP);
    expect(shot.position.y).toBeLessThan(y - 15);
    expect(hits.length).toBe(1);
  });

  it('a bullet starting in contact is not stuck: it leaves, or slides along', () => {
    // Overlapping the wall by 0.1, moving away.
    const a = single(0, -WALL_T / 2 - RADIUS + 0.1, 0, -SPEED, { response: 'stop' });
    // Touching it (gap 0), moving along it.
    const b = single(-20, -WALL_T / 2 - RADIUS, SPEED, 0, { response: 'stop' });
    for (let u = 0; u < 3; u++) {
      Engine.update(a.engine, STEP);
      Engine.update(b.engine, STEP);
    }
    expect(a.shot.position.y).toBeLessThan(-20);
    expect(b.shot.position.x).toBeGreaterThan(0);
    expect(b.shot.position.y).toBeLessThan(-WALL_T / 2);
  });

  it('filters: a masked-out or sensor wall is passed through; a removed bullet is skipped', () => {
    const a = single(0, -5, 0, SPEED, { response: 'stop' });
    a.wall.collisionFilter.mask = 0;
    const b = single(0, -5, 0, SPEED, { response: 'stop' });
    b.wall.isSensor = true;
    for (let u = 0; u < 3; u++) {
      Engine.update(a.engine, STEP);
      Engine.update(b.engine, STEP);
    }
    expect(a.shot.position.y).toBeGreaterThan(15);
    expect(b.shot.position.y).toBeGreaterThan(15);
    const c = single(0, -5, 0, SPEED, { response: 'stop' });
    Composite.remove(c.engine.world, c.shot);
    Engine.update(c.engine, STEP);
    expect(c.shot.position.y).toBe(-5);
  });

  it('API: isBullet, unmarking, bad input', () => {
    const { engine, shot, wall } = single(0, -5, 0, SPEED, { response: 'stop' });
    expect(isBullet(engine, shot)).toBe(true);
    expect(isBullet(engine, wall)).toBe(false);
    setBullet(engine, shot, false);
    expect(isBullet(engine, shot)).toBe(false);
    Engine.update(engine, STEP);
    Engine.update(engine, STEP);
    // Not a bullet any more: it tunnels (head-on at 8.33/update through 0.1 from 5 away).
    expect(shot.position.y).toBeGreaterThan(WALL_T / 2);
    expect(() => setBullet(engine, shot, { response: 'slide' as never })).toThrow(/response/);
    expect(() => setBullet(engine, shot, { response: 'bounce', restitution: 2 })).toThrow(/restitution/);
    expect(() => setBullet(engine, shot, { response: 'bounce', restitution: Number.NaN })).toThrow(
      /restitution/,
    );
    expect(() => setBullet(null as never, shot)).toThrow(/engine/);
    expect(() => setBullet(engine, {} as never)).toThrow(/body/);
  });

  it('body-first API (as @sieve/cannon): installBullets(engine), setBullet(body, settings), isBullet(body)', () => {
    const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
    installSieve(engine);
    installBullets(engine);
    installBullets(engine); // idempotent
    const wall = Bodies.rectangle(0, 0, 60, WALL_T, { isStatic: true });
    const shot = Bodies.circle(0, -5, RADIUS, { frictionAir: 0, friction: 0, restitution: 0 });
    Body.setVelocity(shot, { x: 0, y: SPEED });
    setBullet(shot, { response: 'stop' }); // marked before it joins the world
    expect(isBullet(shot)).toBe(true);
    expect(isBullet(wall)).toBe(false);
    Composite.add(engine.world, [wall, shot]);
    for (let i = 0; i < 3; i++) Engine.update(engine, STEP);
    expect(shot.position.y).toBeLessThan(-WALL_T / 2);
    // Unmarked: it tunnels through a second wall at the same speed.
    setBullet(shot, false);
    expect(isBullet(shot)).toBe(false);
    Body.setPosition(shot, { x: 40, y: -5 });
    Body.setVelocity(shot, { x: 0, y: SPEED });
    Composite.add(engine.world, Bodies.rectangle(40, 0, 10, WALL_T, { isStatic: true }));
    for (let i = 0; i < 2; i++) Engine.update(engine, STEP);
    expect(shot.position.y).toBeGreaterThan(WALL_T / 2);
    // Marked again, but the engine no longer sweeps bullets: it tunnels too.
    expect(uninstallBullets(engine)).toBe(true);
    expect(uninstallBullets(engine)).toBe(false);
    setBullet(shot, true);
    Body.setPosition(shot, { x: 40, y: -5 });
    Body.setVelocity(shot, { x: 0, y: SPEED });
    for (let i = 0; i < 2; i++) Engine.update(engine, STEP);
    expect(shot.position.y).toBeGreaterThan(WALL_T / 2);
    expect(() => setBullet({} as never, true)).toThrow(/body/);
    expect(() => setBullet(shot, { response: 'slide' as never })).toThrow(/response/);
    expect(() => installBullets({} as never)).toThrow(/engine/);
  });
});
