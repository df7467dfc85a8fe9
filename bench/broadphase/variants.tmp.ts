import { SweepAndPrune } from '@sieve/core';
import { alternate, cannonDense, makeDenseScene, sieveByBody } from './dense.js';
const n = Number(process.env.N ?? 20000);
const vfs = (process.env.VFS ?? '0.02,0.05,0.1,0.2').split(',').map(Number);
const sph = (process.env.SPH ?? '0,0.5,1').split(',').map(Number);
const spins = (process.env.SPIN ?? '1').split(',').map((x) => x === '1');
for (const vf of vfs) for (const s of sph) for (const spin of spins) {
  const scene = makeDenseScene({ n, seed: 42, volumeFraction: vf, spheres: s, spin });
  const r = await alternate(scene, [
    sieveByBody('move', () => new SweepAndPrune({ dimensions: 3 })),
    sieveByBody('moveMany', () => new SweepAndPrune({ dimensions: 3 }), true),
    cannonDense(),
  ], { frames: 15, warmup: 3, budgetSeconds: 1000 });
  console.log(`vf ${vf} spheres ${s} spin ${spin}: move ${r.ms[0].toFixed(2)} many ${r.ms[1].toFixed(2)} cannon ${r.ms[2].toFixed(1)}  ratio move ${(r.ms[2] / r.ms[0]).toFixed(1)} many ${(r.ms[2] / r.ms[1]).toFixed(1)} pairs ${r.pairs[0]}`);
}
