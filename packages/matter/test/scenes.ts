/**
 * Deterministic matter-js scenes for the equivalence tests: each builder fills a fresh engine the same
 * way every time (seeded), so two engines built one after the other start bit-identical (body ids
 * differ by a constant offset, which keeps every id comparison matter-js makes the same).
 */
import Matter from 'matter-js';
import { rng } from '../../core/test/support/rng.js';

export { rng };

const { Bodies, Body, Composite, Engine } = Matter;

/** A scene: its engine plus an optional per-step script (adds, removes, pushes...). */
export interface Scene {
  engine: Matter.Engine;
  /** Called before each `Engine.update` with the step index. */
  beforeStep?: (step: number) => void;
}

/** Four static walls around [0, w] × [0, h]. */
export function walls(w: number, h: number, t = 40): Matter.Body[] {
  return [
    Bodies.rectangle(w / 2, h + t / 2, w + 2 * t, t, { isStatic: true, label: 'floor' }),
    Bodies.rectangle(w / 2, -t / 2, w + 2 * t, t, { isStatic: true, label: 'ceiling' }),
    Bodies.rectangle(-t / 2, h / 2, t, h + 2 * t, { isStatic: true, label: 'left' }),
    Bodies.rectangle(w + t / 2, h / 2, t, h + 2 * t, { isStatic: true, label: 'right' }),
  ];
}

function randomShape(
  r: () => number,
  x: number,
  y: number,
  size: number,
  options: Matter.IChamferableBodyDefinition = {},
) {
  const k = r();
  if (k < 0.4) return Bodies.circle(x, y, size / 2, options);
  if (k < 0.8) return Bodies.rectangle(x, y, size, size * (0.5 + r()), { angle: r() * Math.PI, ...options });
  return Bodies.polygon(x, y, 3 + Math.floor(r() * 5), size / 2, { angle: r() * Math.PI, ...options });
}

/** Stacks of boxes (many equal min.x: ties in the x-order) next to a pile of mixed shapes falling in. */
export function stacksAndPile(seed: number, n = 300): Scene {
  const r = rng(seed);
  const engine = Engine.create();
  const w = 900;
  const h = 600;
  const bodies: Matter.Body[] = [...walls(w, h)];
  for (let s = 0; s < 4; s++) {
    for (let k = 0; k < 10; k++) bodies.push(Bodies.rectangle(60 + s * 60, h - 15 - k * 30, 40, 30));
  }
  for (let i = 0; i < n; i++) {
    bodies.push(randomShape(r, 320 + r() * 540, 40 + r() * 400, 12 + r() * 20));
  }
  Composite.add(engine.world, bodies);
  return { engine };
}

/** Fast bodies (large velocities, tunnelling-prone) bouncing around a box full of slow ones. */
export function fastBodies(seed: number, n = 200): Scene {
  const r = rng(seed);
  const engine = Engine.create({ gravity: { x: 0, y: 0.2 } });
  const w = 800;
  const h = 600;
  const bodies: Matter.Body[] = [...walls(w, h)];
  for (let i = 0; i < n; i++) {
    const b = randomShape(r, 30 + r() * (w - 60), 30 + r() * (h - 60), 10 + r() * 14, { restitution: 0.9 });
    if (i % 5 === 0) Body.setVelocity(b, { x: (r() - 0.5) * 60, y: (r() - 0.5) * 60 });
    bodies.push(b);
  }
  Composite.add(engine.world, bodies);
  return { engine };
}

/** Compound bodies (L shapes, dumbbells) among simple ones. */
export function compoundBodies(seed: number, n = 80): Scene {
  const r = rng(seed);
  const engine = Engine.create();
  const w = 800;
  const h = 600;
  const bodies: Matter.Body[] = [...walls(w, h)];
  for (let i = 0; i < n; i++) {
    const x = 40 + r() * (w - 80);
    const y = 40 + r() * (h - 200);
    if (i % 2 === 0) {
      const parts =
        r() < 0.5
          ? [Bodies.rectangle(x, y, 40, 10), Bodies.rectangle(x - 15, y + 15, 10, 30)]
          : [Bodies.circle(x - 15, y, 8), Bodies.rectangle(x, y, 30, 6), Bodies.circle(x + 15, y, 8)];
      bodies.push(Body.create({ parts, angle: r() * Math.PI }));
    } else {
      bodies.push(randomShape(r, x, y, 12 + r() * 16));
    }
  }
  Composite.add(engine.world, bodies);
  return { engine };
}

/** Collision filters: positive and negative groups, categories and masks, plus sensors. */
export function filtersAndSensors(seed: number, n = 240): Scene {
  const r = rng(seed);
  const engine = Engine.create();
  const w = 800;
  const h = 600;
  const bodies: Matter.Body[] = [...walls(w, h)];
  const categories = [0x0001, 0x0002, 0x0004];
  for (let i = 0; i < n; i++) {
    const kind = i % 6;
    const filter: Matter.ICollisionFilter = {};
    if (kind === 0) filter.group = -1; // never collide with each other
    if (kind === 1) filter.group = 2; // always collide with each other
    if (kind === 2) {
      filter.category = categories[i % 3];
      filter.mask = 0x0001 | categories[(i >> 1) % 3];
    }
    if (kind === 3) {
      filter.category = 0x0004;
      filter.mask = 0xffff ^ 0x0002;
    }
    const b = randomShape(r, 40 + r() * (w - 80), 40 + r() * (h - 100), 12 + r() * 18, {
      collisionFilter: filter,
      isSensor: kind === 4 && i % 12 === 4,
    });
    bodies.push(b);
  }
  // A static sensor band across the middle.
  bodies.push(Bodies.rectangle(w / 2, h / 2, w, 30, { isStatic: true, isSensor: true, label: 'band' }));
  Composite.add(engine.world, bodies);
  return { engine };
}

/** Sleeping enabled: bodies settle and fall asleep; a few get woken by late arrivals. */
export function sleepingPile(seed: number, n = 200): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const w = 600;
  const h = 500;
  const bodies: Matter.Body[] = [...walls(w, h)];
  for (let i = 0; i < n; i++)
    bodies.push(randomShape(r, 30 + r() * (w - 60), h - 30 - r() * 250, 14 + r() * 14));
  Composite.add(engine.world, bodies);
  const late = rng(seed + 1);
  return {
    engine,
    beforeStep(step) {
      if (step % 60 === 59) Composite.add(engine.world, randomShape(late, 50 + late() * 500, 20, 20));
    },
  };
}

/** Bodies added and removed mid-run, a static platform moved by hand, gravity changing. */
export function churn(seed: number, n = 150): Scene {
  const r = rng(seed);
  const engine = Engine.create();
  const w = 800;
  const h = 600;
  const platform = Bodies.rectangle(400, 400, 200, 12, { isStatic: true, label: 'platform' });
  const bodies: Matter.Body[] = [...walls(w, h), platform];
  for (let i = 0; i < n; i++) bodies.push(randomShape(r, 30 + r() * (w - 60), 30 + r() * 300, 10 + r() * 20));
  Composite.add(engine.world, bodies);
  const s = rng(seed + 7);
  return {
    engine,
    beforeStep(step) {
      Body.setPosition(platform, { x: 400 + 150 * Math.sin(step / 30), y: 400 });
      if (step % 7 === 3) {
        Composite.add(engine.world, randomShape(s, 40 + s() * (w - 80), 30, 8 + s() * 16));
      }
      if (step % 11 === 5) {
        const all = Composite.allBodies(engine.world).filter((b) => !b.isStatic);
        const victim = all[Math.floor(s() * all.length)];
        if (victim) Composite.remove(engine.world, victim);
      }
      if (step === 150) engine.gravity.x = 0.5;
    },
  };
}

/**
 * Many bodies of every kind at once: mixed shapes, every 15th compound, filters, a few sensors and
 * fast bodies, gravity on and sleeping enabled, in a box that makes a deep pile.
 */
export function largeMix(seed: number, n = 2000): Scene {
  const r = rng(seed);
  const engine = Engine.create({ enableSleeping: true });
  const w = 1600;
  const h = 900;
  const bodies: Matter.Body[] = [...walls(w, h)];
  const cols = 80;
  for (let i = 0; i < n; i++) {
    const x = 10 + (i % cols) * 19.5 + r() * 4;
    const y = h - 10 - Math.floor(i / cols) * 19 - r() * 4;
    const filter: Matter.ICollisionFilter = {};
    if (i % 9 === 0) filter.group = -3;
    if (i % 13 === 0) {
      filter.category = 0x0002;
      filter.mask = 0xffff ^ 0x0002;
    }
    let b: Matter.Body;
    if (i % 15 === 0) {
      b = Body.create({
        parts: [Bodies.rectangle(x, y, 14, 4), Bodies.rectangle(x, y, 4, 14)],
        collisionFilter: filter,
      });
    } else {
      b = randomShape(r, x, y, 6 + r() * 10, { collisionFilter: filter, isSensor: i % 97 === 0 });
    }
    if (i % 50 === 0) Body.setVelocity(b, { x: (r() - 0.5) * 30, y: -r() * 20 });
    bodies.push(b);
  }
  Composite.add(engine.world, bodies);
  return { engine };
}
