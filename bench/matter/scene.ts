/**
 * The scenes of issue 7's matter-js measurement: circles and rectangles (half each, 8–16 px) in a
 * walled square box, starting on a jittered 24 px grid. The box grows with N (constant density), so
 * stock's sweep compares each body with about √N others in its x-strip.
 */
import Matter from 'matter-js';
import { rng } from '../lib/stats.js';

const { Bodies, Body, Composite, Engine } = Matter;

/** Grid pitch: each body starts in its own cell of this size. */
const CELL = 24;

/**
 * `'gas'`: no gravity, every body launched at random and elastic — all bodies move every step and
 * contacts come and go (the worst case for an incremental broadphase). `'obstacles'`: the same box
 * where 90 % of the bodies are static obstacles (level geometry) and 10 % move among them.
 */
export type SceneKind = 'gas' | 'obstacles';

/** A fresh engine holding `n` bodies plus 4 walls; the same seed gives the same scene. */
export function buildScene(n: number, kind: SceneKind = 'gas', seed = 7): Matter.Engine {
  const r = rng(seed);
  const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 } });
  const material = { restitution: 1, friction: 0, frictionAir: 0, frictionStatic: 0 };
  const cols = Math.ceil(Math.sqrt(n));
  const side = cols * CELL;
  const t = 50;
  const bodies: Matter.Body[] = [
    Bodies.rectangle(side / 2, side + t / 2, side + 2 * t, t, { isStatic: true }),
    Bodies.rectangle(side / 2, -t / 2, side + 2 * t, t, { isStatic: true }),
    Bodies.rectangle(-t / 2, side / 2, t, side + 2 * t, { isStatic: true }),
    Bodies.rectangle(side + t / 2, side / 2, t, side + 2 * t, { isStatic: true }),
  ];
  for (let i = 0; i < n; i++) {
    const x = ((i % cols) + 0.5) * CELL + (r() - 0.5) * 6;
    const y = (Math.floor(i / cols) + 0.5) * CELL + (r() - 0.5) * 6;
    const size = 8 + r() * 8;
    const isStatic = kind === 'obstacles' && r() < 0.9;
    const options = { ...material, isStatic };
    const body =
      r() < 0.5
        ? Bodies.circle(x, y, size / 2, options)
        : Bodies.rectangle(x, y, size, size * (0.6 + 0.6 * r()), { angle: r() * Math.PI, ...options });
    if (!isStatic) Body.setVelocity(body, { x: (r() - 0.5) * 4, y: (r() - 0.5) * 4 });
    bodies.push(body);
  }
  Composite.add(engine.world, bodies);
  return engine;
}
