/**
 * Measures the convex option's speed-up on the hull pile (not a test; a one-command measurement):
 * `node --import tsx packages/cannon/test/convexRatio.ts [bodies=200] [rounds=7] [settle=300] [hulls|boxes]`.
 *
 * The pile (convexScenes.ts) is settled with the option, then the same state is loaded into three
 * worlds — stock cannon-es, `installSieve(world)` (default) and `installSieve(world, { narrowphase:
 * { convex: convexContacts } })` — which step in alternation, one step each per round, so a busy machine slows
 * them alike. Prints per-contestant median `world.step` times, the ratios to stock, and where the
 * option's step goes (narrowphase, solver, the rest), as JSON.
 */
import type * as CANNON from 'cannon-es';
import { convexContacts } from '../src/convex/index.js';
import { installSieve } from '../src/index.js';
import { hullPile } from './convexScenes.js';

const [hullsArg = '200', roundsArg = '7', settleArg = '300', kind = 'hulls'] = process.argv.slice(2);
const hulls = Number(hullsArg);
const boxes = kind === 'boxes';
const rounds = Number(roundsArg);
const settle = Number(settleArg);
const seed = 7;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};

// Settle the pile with the option (stock would take minutes).
const settled = hullPile(hulls, seed, boxes);
installSieve(settled, { narrowphase: { convex: convexContacts } });
for (let s = 0; s < settle; s++) settled.step(1 / 60);

/** A fresh pile (same shapes) carrying the settled state. */
const fromSettled = (install: 'stock' | 'default' | 'convex'): CANNON.World => {
  const w = hullPile(hulls, seed, boxes);
  for (let i = 0; i < w.bodies.length; i++) {
    const a = settled.bodies[i];
    const b = w.bodies[i];
    b.position.copy(a.position);
    b.quaternion.copy(a.quaternion);
    b.velocity.copy(a.velocity);
    b.angularVelocity.copy(a.angularVelocity);
    b.aabbNeedsUpdate = true;
  }
  if (install === 'default') installSieve(w);
  if (install === 'convex') installSieve(w, { narrowphase: { convex: convexContacts } });
  return w;
};

/** Splits the option's step into narrowphase and solver time. */
const phases = { narrowphase: 0, solver: 0 };
const timeMethod = (obj: Record<string, unknown>, name: string, key: keyof typeof phases) => {
  const fn = obj[name] as (...a: unknown[]) => unknown;
  obj[name] = function (this: unknown, ...a: unknown[]) {
    const t = performance.now();
    const r = fn.apply(this, a);
    phases[key] += performance.now() - t;
    return r;
  };
};

const worlds = {
  stock: fromSettled('stock'),
  default: fromSettled('default'),
  convex: fromSettled('convex'),
};
timeMethod(worlds.convex.narrowphase as unknown as Record<string, unknown>, 'getContacts', 'narrowphase');
timeMethod(worlds.convex.solver as unknown as Record<string, unknown>, 'solve', 'solver');
const times: Record<keyof typeof worlds, number[]> = { stock: [], default: [], convex: [] };
let convexTotal = 0;
// One warm-up step each (JIT), then the measured rounds.
for (const w of Object.values(worlds)) w.step(1 / 60);
phases.narrowphase = 0;
phases.solver = 0;
for (let r = 0; r < rounds; r++) {
  for (const key of Object.keys(worlds) as (keyof typeof worlds)[]) {
    const t = performance.now();
    worlds[key].step(1 / 60);
    const dt = performance.now() - t;
    times[key].push(dt);
    if (key === 'convex') convexTotal += dt;
  }
}
const m = { stock: median(times.stock), default: median(times.default), convex: median(times.convex) };
console.log(
  JSON.stringify(
    {
      kind,
      bodies: hulls,
      rounds,
      contacts: { stock: worlds.stock.contacts.length, convex: worlds.convex.contacts.length },
      medianStepMs: m,
      ratioToStock: { default: m.stock / m.default, convex: m.stock / m.convex },
      convexStepShare: {
        narrowphase: phases.narrowphase / convexTotal,
        solver: phases.solver / convexTotal,
        rest: 1 - (phases.narrowphase + phases.solver) / convexTotal,
      },
    },
    null,
    2,
  ),
);
