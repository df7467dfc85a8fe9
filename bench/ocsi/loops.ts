/**
 * The timed loops of the OCSI benchmark. Each per-call loop is its own function so its call site sees one
 * kernel only (monomorphic, inlinable by V8), as the C benchmark of seeds/000 §3 compiles one loop per
 * algorithm. Configurations are interleaved (stride 12: r_SC then the 9 axis numbers), the JavaScript
 * counterpart of passing pointers into an array of structs; each loop returns the overlap count.
 */
import {
  arvoOverlap,
  branchFreeOverlap,
  ocsiOverlapUnchecked,
  ocsiPaper,
  qrfOverlap,
  qriOverlap,
} from './variants.js';

/** A timed loop over `n` interleaved configurations: returns the number of overlaps. */
export type PerCallLoop = (cfg: Float32Array, n: number, half: Float32Array, radius: number) => number;

export function loopArvo(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) if (arvoOverlap(cfg, o, cfg, o + 3, half, 0, radius)) c++;
  return c;
}

export function loopQri(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) if (qriOverlap(cfg, o, cfg, o + 3, half, 0, radius)) c++;
  return c;
}

export function loopQrf(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) if (qrfOverlap(cfg, o, cfg, o + 3, half, 0, radius)) c++;
  return c;
}

export function loopBranchFree(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) if (branchFreeOverlap(cfg, o, cfg, o + 3, half, 0, radius)) c++;
  return c;
}

export function loopOcsiPaper(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) if (ocsiPaper(cfg, o, cfg, o + 3, half, 0, radius)) c++;
  return c;
}

export function loopOcsi(cfg: Float32Array, n: number, half: Float32Array, radius: number): number {
  let c = 0;
  // counting with +(…) keeps the loop branch-free like the kernel itself
  for (let i = 0, o = 0; i < n; i++, o += 12) c += +ocsiOverlapUnchecked(cfg, o, cfg, o + 3, half, 0, radius);
  return c;
}

/** The per-call algorithms in the paper's order (Algorithms 1–5, then the library's form). */
export const PER_CALL: ReadonlyArray<{ name: string; loop: PerCallLoop }> = [
  { name: 'Arvo', loop: loopArvo },
  { name: 'QRI', loop: loopQri },
  { name: 'QRF', loop: loopQrf },
  { name: 'branch-free', loop: loopBranchFree },
  { name: 'OCSI (paper, Math.max)', loop: loopOcsiPaper },
  { name: 'OCSI per call', loop: loopOcsi },
];

/**
 * A layout experiment: the batched OCSI loop over the interleaved array instead of the library's planes
 * (same arithmetic as ocsiOverlapBatchUniform, flags into `out`).
 */
export function batchInterleaved(
  cfg: Float32Array,
  n: number,
  hx: number,
  hy: number,
  hz: number,
  radius: number,
  out: Uint8Array,
): number {
  const r = Math.fround(radius);
  const r2 = 4 * r * r;
  const cx = Math.fround(hx);
  const cy = Math.fround(hy);
  const cz = Math.fround(hz);
  let c = 0;
  for (let i = 0, o = 0; i < n; i++, o += 12) {
    const x = cfg[o];
    const y = cfg[o + 1];
    const z = cfg[o + 2];
    let t = x * cfg[o + 3] + y * cfg[o + 4] + z * cfg[o + 5];
    let u = x * cfg[o + 6] + y * cfg[o + 7] + z * cfg[o + 8];
    let v = x * cfg[o + 9] + y * cfg[o + 10] + z * cfg[o + 11];
    t = Math.abs(t) - cx;
    u = Math.abs(u) - cy;
    v = Math.abs(v) - cz;
    t += Math.abs(t);
    u += Math.abs(u);
    v += Math.abs(v);
    const f = +(t * t + u * u + v * v <= r2);
    out[i] = f;
    c += f;
  }
  return c;
}
