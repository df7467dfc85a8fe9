/**
 * Continuous collision benchmark (issue 8): Sieve's conservative-advancement time of impact.
 *
 * 1. Cost per bullet per frame (µs per TOI call), bullets at 500 units/s, dt = 1/60 (8.3 units a frame),
 *    half of them aimed to hit:
 *    - sphere–box, box–box (translation only): against Rapier's `Shape.castShape` (parry's linear shape
 *      cast, WebAssembly) on the same configurations — hit/miss answers are checked to agree;
 *    - the same with the bullet spinning (no peer: Rapier's cast is linear);
 *    - sphere–mesh against a three.js torus knot (~10 k triangles) through its BVH;
 *    - a discrete reference that is just as safe: sub-stepping the frame so the sphere never moves more
 *      than its radius between two overlap tests (OCSI), for scale.
 * 2. A frame of 1 000 bullets among 5 000 moving boxes (every body's swept bounds in Sieve's
 *    SweepAndPrune, `update()`), then a TOI for each bullet–box candidate — the bullets either as SAP
 *    proxies of their own (candidates from `pairs()`) or as `queryBounds` queries of their swept
 *    bounds: ms per frame and its parts, candidates and hits per frame.
 *
 * Medians of several repetitions; `CCD_QUICK=1` (or `--quick`) for a short check. Writes
 * bench/results/ccd.json and bench/results/ccd.svg. Run `pnpm --filter @sieve/core build` first.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import {
  type CcdShape,
  createMotion,
  createTimeOfImpactResult,
  MeshBVH,
  SweepAndPrune,
  sphereObbOverlap,
  sweptBounds,
  timeOfImpact,
} from '@sieve/core';
import { TorusKnotGeometry } from 'three';
import { writeJson, writeText } from '../lib/results.js';
import { median, rng } from '../lib/stats.js';
import { lineChart, svgPage } from '../lib/svg.js';

const QUICK = process.env.CCD_QUICK === '1' || process.argv.includes('--quick');
const REPS = QUICK ? 3 : 9;
const N_CONFIGS = QUICK ? 500 : 2000;
const DT = 1 / 60;
const SPEED = 500;

type Motion = ReturnType<typeof createMotion>;
interface Config {
  bullet: Motion;
  target: Motion;
}

/** Median µs per call of `fn(i)` over `n` configurations, batched to ≥ ~5 ms per sample. */
function usPerCall(n: number, fn: (i: number) => void): number {
  const w0 = performance.now();
  for (let k = 0; k < 3 || performance.now() - w0 < 50; k++) for (let i = 0; i < n; i++) fn(i);
  let rounds = 1;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < rounds; k++) for (let i = 0; i < n; i++) fn(i);
    if (performance.now() - t0 >= 5 || rounds >= 1 << 16) break;
    rounds *= 2;
  }
  const samples: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    for (let k = 0; k < rounds; k++) for (let i = 0; i < n; i++) fn(i);
    samples.push(((performance.now() - t0) * 1000) / (rounds * n));
  }
  return median(samples);
}

/** Bullets fired from x ≈ 0 towards a target at x = 5 (a thin wall or a knot), half of them off target. */
function configs(seed: number, spin: number, targetHalf: number): Config[] {
  const r = rng(seed);
  const out: Config[] = [];
  for (let i = 0; i < N_CONFIGS; i++) {
    const bullet = createMotion();
    const target = createMotion();
    const miss = i % 2 === 1;
    const y =
      (r() * 2 - 1) * targetHalf * (miss ? 0 : 0.9) +
      (miss ? (r() < 0.5 ? -1 : 1) * (targetHalf + 0.2 + r()) : 0);
    bullet.position.set([r() * 0.5, y, (r() * 2 - 1) * targetHalf * 0.9]);
    const a = (r() - 0.5) * 0.05;
    bullet.linearVelocity.set([SPEED * Math.cos(a), SPEED * Math.sin(a), 0]);
    if (spin > 0) {
      const ax = [r() - 0.5, r() - 0.5, r() - 0.5];
      const l = Math.hypot(ax[0], ax[1], ax[2]);
      bullet.angularVelocity.set(ax.map((v) => (v / l) * spin));
    }
    target.position.set([5, 0, 0]);
    out.push({ bullet, target });
  }
  return out;
}

await RAPIER.init();
const out = createTimeOfImpactResult();
const opts = { dt: DT };

console.log(`CCD benchmark${QUICK ? ' (quick)' : ''}: medians of ${REPS}, ${N_CONFIGS} configurations each`);

// --- 1. per bullet -----------------------------------------------------------------------------------

const sphere: CcdShape = { kind: 'sphere', radius: 0.05 };
const brick: CcdShape = { kind: 'box', halfExtents: [0.1, 0.03, 0.03] };
const wall: CcdShape = { kind: 'box', halfExtents: [0.05, 2, 2] };
const knotGeom = new TorusKnotGeometry(1.5, 0.4, 250, 20);
const knotBvh = new MeshBVH(
  knotGeom.attributes.position.array as Float32Array,
  knotGeom.index?.array as Uint32Array,
);
const knot: CcdShape = { kind: 'mesh', bvh: knotBvh };

interface Row {
  case: string;
  sieveUs: number;
  peer?: string;
  peerUs?: number;
  ratio?: number;
  hits: number;
  meanIterations: number;
}
const rows: Row[] = [];

function runSieve(
  name: string,
  a: CcdShape,
  b: CcdShape,
  cfg: Config[],
): { us: number; hits: boolean[]; it: number } {
  const hits: boolean[] = [];
  let it = 0;
  for (const c of cfg) {
    hits.push(timeOfImpact(a, c.bullet, b, c.target, opts, out));
    it += out.iterations;
  }
  let sink = 0;
  const us = usPerCall(cfg.length, (i) => {
    const c = cfg[i];
    if (timeOfImpact(a, c.bullet, b, c.target, opts, out)) sink++;
  });
  if (sink === 0) throw new Error(`${name}: no hit at all — the work may have been optimized away`);
  return { us, hits, it: it / cfg.length };
}

// Rapier peer: a linear shape cast over the frame (maxToi = dt, velocities in units/s).
function runRapier(
  shape1: RAPIER.Shape,
  shape2: RAPIER.Shape,
  cfg: Config[],
): { us: number; hits: boolean[] } {
  const rot = { x: 0, y: 0, z: 0, w: 1 };
  const zero = { x: 0, y: 0, z: 0 };
  const pos1 = { x: 0, y: 0, z: 0 };
  const vel1 = { x: 0, y: 0, z: 0 };
  const pos2 = { x: 0, y: 0, z: 0 };
  const cast = (c: Config) => {
    pos1.x = c.bullet.position[0];
    pos1.y = c.bullet.position[1];
    pos1.z = c.bullet.position[2];
    vel1.x = c.bullet.linearVelocity[0];
    vel1.y = c.bullet.linearVelocity[1];
    vel1.z = c.bullet.linearVelocity[2];
    pos2.x = c.target.position[0];
    pos2.y = c.target.position[1];
    pos2.z = c.target.position[2];
    return shape1.castShape(pos1, rot, vel1, shape2, pos2, rot, zero, 0, DT, true);
  };
  const hits = cfg.map((c) => cast(c) !== null);
  let sink = 0;
  const us = usPerCall(cfg.length, (i) => {
    if (cast(cfg[i]) !== null) sink++;
  });
  if (sink === 0) throw new Error('rapier: no hit at all');
  return { us, hits };
}

function agree(a: boolean[], b: boolean[], name: string): void {
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  if (diff > 0)
    throw new Error(`${name}: Sieve and Rapier disagree on ${diff} of ${a.length} configurations`);
}

const rSphere = new RAPIER.Ball(0.05);
const rBrick = new RAPIER.Cuboid(0.1, 0.03, 0.03);
const rWall = new RAPIER.Cuboid(0.05, 2, 2);

for (const [name, a, ra] of [
  ['sphere–box', sphere, rSphere],
  ['box–box', brick, rBrick],
] as const) {
  const cfg = configs(7, 0, 2);
  const s = runSieve(name, a, wall, cfg);
  const p = runRapier(ra, rWall, cfg);
  agree(s.hits, p.hits, name);
  const hits = s.hits.filter(Boolean).length;
  rows.push({
    case: `${name} (linear)`,
    sieveUs: s.us,
    peer: 'Rapier castShape',
    peerUs: p.us,
    ratio: p.us / s.us,
    hits,
    meanIterations: s.it,
  });
}
for (const [name, a] of [
  ['sphere–box', sphere],
  ['box–box', brick],
] as const) {
  const cfg = configs(8, 40, 2); // 40 rad/s: 0.67 rad a frame
  const s = runSieve(name, a, wall, cfg);
  rows.push({
    case: `${name} (spinning bullet)`,
    sieveUs: s.us,
    hits: s.hits.filter(Boolean).length,
    meanIterations: s.it,
  });
}
{
  const cfg = configs(9, 0, 1.6);
  const s = runSieve('sphere–mesh', sphere, knot, cfg);
  rows.push({
    case: `sphere–mesh (${knotBvh.triangleCount} triangles)`,
    sieveUs: s.us,
    hits: s.hits.filter(Boolean).length,
    meanIterations: s.it,
  });
  const cfgB = configs(10, 40, 1.6);
  const b = runSieve('box–mesh', brick, knot, cfgB);
  rows.push({
    case: `spinning box–mesh (${knotBvh.triangleCount} triangles)`,
    sieveUs: b.us,
    hits: b.hits.filter(Boolean).length,
    meanIterations: b.it,
  });
}
{
  // Discrete but just as safe: sub-steps of at most one radius (8.3 / 0.05 ≈ 167 OCSI tests a frame).
  const cfg = configs(7, 0, 2);
  const obb = new Float64Array([5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.05, 2, 2]);
  const steps = Math.ceil((SPEED * DT) / 0.05);
  const c0 = new Float64Array(3);
  let sink = 0;
  const us = usPerCall(cfg.length, (i) => {
    const m = cfg[i].bullet;
    for (let k = 0; k <= steps; k++) {
      const t = (k / steps) * DT;
      c0[0] = m.position[0] + t * m.linearVelocity[0];
      c0[1] = m.position[1] + t * m.linearVelocity[1];
      c0[2] = m.position[2] + t * m.linearVelocity[2];
      if (sphereObbOverlap(obb, c0, 0.05)) {
        sink++;
        break;
      }
    }
  });
  if (sink === 0) throw new Error('sub-stepping: no hit');
  const sieve = rows[0].sieveUs;
  rows.push({
    case: `sphere–box by ${steps} sub-steps (OCSI)`,
    sieveUs: us,
    peer: 'vs Sieve TOI',
    peerUs: sieve,
    ratio: us / sieve,
    hits: -1,
    meanIterations: steps,
  });
}

for (const r of rows) {
  const peer =
    r.peerUs !== undefined ? `  ${r.peer}: ${r.peerUs.toFixed(2)} µs (${r.ratio?.toFixed(2)}×)` : '';
  console.log(
    `  ${r.case.padEnd(44)} ${r.sieveUs.toFixed(2).padStart(7)} µs/bullet  ${r.meanIterations.toFixed(1)} it.${peer}`,
  );
}

// --- 2. a frame: 1 000 bullets among 5 000 moving boxes --------------------------------------------------

interface FrameResult {
  mode: string;
  bodies: number;
  bullets: number;
  msPerFrame: number;
  sweptMs: number;
  broadphaseMs: number;
  toiMs: number;
  candidatesPerFrame: number;
  hitsPerFrame: number;
  usPerBullet: number;
}

function frameBench(
  nBodies: number,
  nBullets: number,
  frames: number,
  mode: 'proxies' | 'queries',
): FrameResult {
  const r = rng(3);
  // 5 000 boxes (half extents 0.2–1) in a 120-unit cube, drifting at up to 5 units/s.
  const world = 120;
  const bodyShapes: CcdShape[] = [];
  const bodyMotion: Motion[] = [];
  for (let i = 0; i < nBodies; i++) {
    bodyShapes.push({ kind: 'box', halfExtents: [0.2 + 0.8 * r(), 0.2 + 0.8 * r(), 0.2 + 0.8 * r()] });
    const m = createMotion();
    m.position.set([r() * world, r() * world, r() * world]);
    m.linearVelocity.set([(r() - 0.5) * 10, (r() - 0.5) * 10, (r() - 0.5) * 10]);
    m.angularVelocity.set([(r() - 0.5) * 2, (r() - 0.5) * 2, (r() - 0.5) * 2]);
    bodyMotion.push(m);
  }
  const bullet: CcdShape = { kind: 'sphere', radius: 0.05 };
  const bulletMotion: Motion[] = [];
  const fire = (m: Motion) => {
    m.position.set([r() * world, r() * world, r() * world]);
    const d = [r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(d[0], d[1], d[2]);
    m.linearVelocity.set(d.map((v) => (v / l) * SPEED));
  };
  for (let i = 0; i < nBullets; i++) {
    const m = createMotion();
    fire(m);
    bulletMotion.push(m);
  }
  const sap = new SweepAndPrune({ dimensions: 3, initialCapacity: nBodies + nBullets });
  const box = new Float64Array(6);
  const found = new Int32Array(4096);
  for (let i = 0; i < nBodies; i++) sap.insert(sweptBounds(bodyShapes[i], bodyMotion[i], DT, box));
  if (mode === 'proxies')
    for (let i = 0; i < nBullets; i++) sap.insert(sweptBounds(bullet, bulletMotion[i], DT, box));
  sap.update();
  const wrap = (m: Motion) => {
    for (let k = 0; k < 3; k++) {
      if (m.position[k] < 0) m.position[k] += world;
      else if (m.position[k] > world) m.position[k] -= world;
    }
  };
  const tSwept: number[] = [];
  const tBp: number[] = [];
  const tToi: number[] = [];
  const tAll: number[] = [];
  let candidates = 0;
  let hits = 0;
  const firstT = new Float64Array(nBullets);
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    // every body's swept bounds (bodies move too: their motion over the frame)
    for (let i = 0; i < nBodies; i++) sap.move(i, sweptBounds(bodyShapes[i], bodyMotion[i], DT, box));
    if (mode === 'proxies') {
      for (let i = 0; i < nBullets; i++) sap.move(nBodies + i, sweptBounds(bullet, bulletMotion[i], DT, box));
    }
    const t1 = performance.now();
    sap.update();
    const t2 = performance.now();
    firstT.fill(2);
    if (mode === 'proxies') {
      const pairs = sap.pairs();
      for (let p = 0; p < pairs.length; p += 2) {
        const a = pairs[p];
        const b = pairs[p + 1];
        // pairs are (a < b): bodies come first; bullet–bullet pairs are ignored
        if (a >= nBodies || b < nBodies) continue;
        const k = b - nBodies;
        candidates++;
        if (
          timeOfImpact(bullet, bulletMotion[k], bodyShapes[a], bodyMotion[a], opts, out) &&
          out.t < firstT[k]
        ) {
          firstT[k] = out.t;
        }
      }
    } else {
      // each bullet's swept bounds as a query against the bodies (no bullet proxies at all)
      for (let k = 0; k < nBullets; k++) {
        const nFound = sap.queryBounds(sweptBounds(bullet, bulletMotion[k], DT, box), found);
        candidates += nFound;
        for (let j = 0; j < nFound; j++) {
          const a = found[j];
          if (
            timeOfImpact(bullet, bulletMotion[k], bodyShapes[a], bodyMotion[a], opts, out) &&
            out.t < firstT[k]
          ) {
            firstT[k] = out.t;
          }
        }
      }
    }
    const t3 = performance.now();
    // integrate: bullets stop at their first hit (and are fired again), bodies drift
    for (let k = 0; k < nBullets; k++) {
      const m = bulletMotion[k];
      if (firstT[k] <= 1) {
        hits++;
        fire(m);
      } else {
        for (let j = 0; j < 3; j++) m.position[j] += DT * m.linearVelocity[j];
        wrap(m);
      }
    }
    for (const m of bodyMotion) {
      for (let j = 0; j < 3; j++) m.position[j] += DT * m.linearVelocity[j];
      wrap(m);
    }
    if (f >= 5) {
      tSwept.push(t1 - t0);
      tBp.push(t2 - t1);
      tToi.push(t3 - t2);
      tAll.push(t3 - t0);
    }
  }
  const toiMs = median(tToi);
  return {
    mode,
    bodies: nBodies,
    bullets: nBullets,
    msPerFrame: median(tAll),
    sweptMs: median(tSwept),
    broadphaseMs: median(tBp),
    toiMs,
    candidatesPerFrame: candidates / frames,
    hitsPerFrame: hits / frames,
    usPerBullet: (1000 * toiMs) / nBullets,
  };
}

const frames: FrameResult[] = [];
for (const mode of ['proxies', 'queries'] as const) {
  const frame = frameBench(5000, 1000, QUICK ? 40 : 200, mode);
  frames.push(frame);
  console.log(
    `  frame (bullets as SAP ${mode}), ${frame.bullets} bullets among ${frame.bodies} boxes: ${frame.msPerFrame.toFixed(2)} ms ` +
      `(swept bounds + moves ${frame.sweptMs.toFixed(2)}, SAP update ${frame.broadphaseMs.toFixed(2)}, ` +
      `queries + TOI ${frame.toiMs.toFixed(2)}); ${frame.candidatesPerFrame.toFixed(0)} bullet–box candidates, ` +
      `${frame.hitsPerFrame.toFixed(1)} hits a frame`,
  );
}

const scaling: Record<string, Array<[number, number]>> = { proxies: [], queries: [] };
for (const mode of ['proxies', 'queries'] as const) {
  for (const nb of QUICK ? [250, 1000] : [250, 500, 1000, 2000]) {
    const f = frameBench(5000, nb, QUICK ? 20 : 60, mode);
    scaling[mode].push([nb, f.msPerFrame]);
  }
}

const jsonPath = writeJson('ccd', {
  quick: QUICK,
  reps: REPS,
  dt: DT,
  speed: SPEED,
  perBullet: rows,
  frames,
  scaling: Object.entries(scaling).map(([mode, pts]) => ({
    mode,
    bodies: 5000,
    points: pts.map(([bullets, ms]) => ({ bullets, msPerFrame: ms })),
  })),
});
const svg = svgPage(
  [
    lineChart(
      [
        { name: 'bullets as SAP proxies', points: scaling.proxies },
        { name: 'bullets as SAP queries', points: scaling.queries },
      ],
      {
        title: 'Frame cost with 5 000 moving boxes',
        xLabel: 'bullets',
        yLabel: 'ms per frame',
        logX: true,
        logY: true,
        guides: [{ y: 16.7, label: '60 fps budget' }],
      },
    ),
  ],
  1,
  'Continuous collision (conservative advancement)',
);
const svgPath = writeText('ccd.svg', svg);
console.log(`wrote ${jsonPath} and ${svgPath}`);
