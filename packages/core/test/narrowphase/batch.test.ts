import { describe, expect, it } from 'vitest';
import {
  OcsiBatch,
  type OcsiLanes,
  ocsiDistanceSq,
  ocsiDistanceSqBatch,
  ocsiOverlap,
  ocsiOverlapBatch,
  ocsiOverlapBatchUniform,
  ocsiWasmAvailable,
  validateOcsiLanes,
} from '../../src/index.js';
import { exactOcsi, lane, makeLanes, paperSet, rng } from './exact.js';

function copyLanes(from: OcsiLanes, to: OcsiLanes, n: number): void {
  for (const k of Object.keys(from) as (keyof OcsiLanes)[]) to[k].set(from[k].subarray(0, n));
}

function both(n: number): [OcsiBatch, OcsiBatch] {
  const w = new OcsiBatch(n, { backend: 'wasm' });
  const j = new OcsiBatch(n, { backend: 'js' });
  return [w, j];
}

/** Runs both back ends on the same lanes (per-lane shapes) and returns their flags and counts. */
function runBoth(w: OcsiBatch, j: OcsiBatch, n: number) {
  const cw = w.overlap(n);
  const cj = j.overlap(n);
  return { cw, cj, fw: w.flags.slice(0, n), fj: j.flags.slice(0, n) };
}

function setShapes(b: OcsiBatch, n: number, half: ArrayLike<number>, radius: number): void {
  b.hx.fill(half[0], 0, n);
  b.hy.fill(half[1], 0, n);
  b.hz.fill(half[2], 0, n);
  b.radius.fill(radius, 0, n);
}

// The float32 decision and certification of the WebAssembly kernel (ocsiKernel.as, block4), emulated with
// Math.fround after every operation (WebAssembly f32x4 arithmetic is IEEE single, no fused multiply-add).
function kernelF32(
  r: number[],
  e: number[],
  h: number[],
  radius: number,
): { overlap: boolean; certain: boolean } {
  const f = Math.fround;
  const [x, y, z] = r;
  const dot = (k: number) => f(f(f(x * e[k]) + f(y * e[k + 1])) + f(z * e[k + 2]));
  const lane2 = (k: number, c: number) => {
    const t = f(Math.abs(dot(k)) - c);
    return f(t + Math.abs(t));
  };
  const t = lane2(0, h[0]);
  const u = lane2(3, h[1]);
  const v = lane2(6, h[2]);
  const sum = f(f(f(t * t) + f(u * u)) + f(v * v));
  const r2 = f(f(4 * radius) * radius);
  const n2 = f(f(f(x * x) + f(y * y)) + f(z * z));
  const bound = f(f(f(3.0517578125e-5) * f(n2 + f(radius * radius))) + f(7.888609052210118e-31));
  return { overlap: sum <= r2, certain: f(Math.abs(f(sum - r2))) > bound };
}

describe('WebAssembly and TypeScript back ends give identical results', () => {
  it('WebAssembly SIMD is available in this Node', () => {
    expect(ocsiWasmAvailable()).toBe(true);
    expect(new OcsiBatch(4).backend).toBe('wasm');
    expect(new OcsiBatch(4, { backend: 'js' }).backend).toBe('js');
  });

  for (const R of [0.05, 0.5, 5]) {
    it(`paper configurations, R* = ${R}: flags, counts and distances equal, and equal the per-call API`, () => {
      for (const [L, W] of [
        [1, 1],
        [6, 13],
        [20, 20],
      ]) {
        const n = 3001; // not a multiple of 16: exercises the tail
        const s = paperSet(L, W, R, n, 7 * L + W);
        const [w, j] = both(n);
        copyLanes(s.lanes, w, n);
        copyLanes(s.lanes, j, n);
        const cw = w.overlapUniform(s.half[0], s.half[1], s.half[2], s.radius, n);
        const cj = j.overlapUniform(s.half[0], s.half[1], s.half[2], s.radius, n);
        expect(cw).toBe(cj);
        expect(w.flags).toEqual(j.flags);
        let count = 0;
        for (let i = 0; i < n; i++) {
          const [r, e] = lane(s.lanes, i);
          const one = ocsiOverlap(r, e, s.half, s.radius);
          expect(w.flags[i]).toBe(+one);
          count += +one;
        }
        expect(cw).toBe(count);
        // per-lane shapes give the same as the uniform shape
        setShapes(w, n, s.half, s.radius);
        setShapes(j, n, s.half, s.radius);
        const lanes = runBoth(w, j, n);
        expect(lanes.cw).toBe(cw);
        expect(lanes.cj).toBe(cw);
        expect(lanes.fw).toEqual(lanes.fj);
        // distances: double arithmetic, rounded once to float32, in both
        const dw = w.distanceSqUniform(s.half[0], s.half[1], s.half[2], n).slice(0, n);
        const dj = j.distanceSqUniform(s.half[0], s.half[1], s.half[2], n).slice(0, n);
        expect(dw).toEqual(dj);
        expect(w.distanceSq(n).slice(0, n)).toEqual(dw);
        for (let i = 0; i < n; i += 37) {
          const [r, e] = lane(s.lanes, i);
          expect(dw[i]).toBe(Math.fround(ocsiDistanceSq(r, e, s.half)));
        }
      }
    });
  }

  it('lanes placed within float32 rounding of the boundary: float32 alone would err, the kernel does not', () => {
    // Per-lane radius = the lane's own distance, nudged by ±1 float32 ulp: the float32 decision is a coin
    // toss there, so the kernel must fall back to double for these lanes.
    const n = 4000;
    const s = paperSet(3, 8, 0.5, n, 99);
    const [w, j] = both(n);
    copyLanes(s.lanes, w, n);
    copyLanes(s.lanes, j, n);
    const random = rng(4);
    let f32Wrong = 0;
    let uncertain = 0;
    for (let i = 0; i < n; i++) {
      const [r, e] = lane(s.lanes, i);
      const d = Math.sqrt(ocsiDistanceSq(r, e, s.half));
      const k = Math.floor(random() * 3) - 1;
      const R = Math.fround(d * (1 + k * 2 ** -23));
      for (const b of [w, j]) {
        b.hx[i] = s.half[0];
        b.hy[i] = s.half[1];
        b.hz[i] = s.half[2];
        b.radius[i] = R;
      }
      const kf = kernelF32(r, e, s.half, R);
      const ex = exactOcsi(r, e, s.half, R);
      if (kf.overlap !== ex.overlap) f32Wrong++;
      if (!kf.certain) uncertain++;
      // the kernel's certificate is sound: whatever it certifies is the exact answer
      if (kf.certain) expect(kf.overlap).toBe(ex.overlap);
    }
    expect(f32Wrong).toBeGreaterThan(50);
    expect(uncertain).toBeGreaterThan(f32Wrong);
    const res = runBoth(w, j, n);
    expect(res.fw).toEqual(res.fj);
    expect(res.cw).toBe(res.cj);
    for (let i = 0; i < n; i++) {
      const [r, e] = lane(s.lanes, i);
      expect(res.fw[i]).toBe(+ocsiOverlap(r, e, s.half, w.radius[i]));
    }
  });

  it('the certificate is sound on random near-boundary configurations (emulated float32 kernel)', () => {
    const s = paperSet(10, 2, 5, 3000, 123);
    const random = rng(6);
    let certified = 0;
    for (let i = 0; i < s.count; i++) {
      const [r, e] = lane(s.lanes, i);
      const d = Math.sqrt(ocsiDistanceSq(r, e, s.half));
      // relative offsets from 1e-8 to 1e-3 around the boundary
      const R = Math.fround(d * (1 + (random() - 0.5) * 10 ** (-8 + 5 * random())));
      const kf = kernelF32(r, e, s.half, R);
      if (kf.certain) {
        certified++;
        expect(kf.overlap).toBe(exactOcsi(r, e, s.half, R).overlap);
      }
    }
    expect(certified).toBeGreaterThan(400);
  });

  it('huge and tiny scales (float32 squares overflow or underflow) and non-finite lanes', () => {
    const n = 500;
    const s = paperSet(5, 5, 0.5, n, 3);
    const ref = new Uint8Array(n);
    const base = makeLanes(n);
    copyLanes(s.lanes, base, n);
    ocsiOverlapBatchUniform(base, s.half[0], s.half[1], s.half[2], s.radius, n, ref);
    for (const k of [2 ** -70, 2 ** -40, 2 ** 40, 2 ** 64]) {
      const [w, j] = both(n);
      for (const b of [w, j]) {
        copyLanes(s.lanes, b, n);
        for (const p of [b.rx, b.ry, b.rz]) for (let i = 0; i < n; i++) p[i] *= k;
        setShapes(b, n, [s.half[0] * k, s.half[1] * k, s.half[2] * k], s.radius * k);
      }
      const res = runBoth(w, j, n);
      expect(res.fw).toEqual(ref);
      expect(res.fj).toEqual(ref);
    }
    const [w, j] = both(n);
    for (const b of [w, j]) {
      copyLanes(s.lanes, b, n);
      setShapes(b, n, s.half, s.radius);
      b.rx[0] = Number.NaN;
      b.ry[1] = Number.POSITIVE_INFINITY;
      b.e0x[2] = Number.NaN;
      b.radius[3] = Number.POSITIVE_INFINITY;
    }
    const res = runBoth(w, j, n);
    expect(res.fw).toEqual(res.fj);
    expect([...res.fw.subarray(0, 3)]).toEqual([0, 0, 0]);
  });

  it('tails: any count from 0 to 40, and lanes past the count do not matter', () => {
    const s = paperSet(2, 3, 0.5, 48, 8);
    for (let n = 0; n <= 40; n++) {
      const [w, j] = both(48);
      for (const b of [w, j]) {
        copyLanes(s.lanes, b, 48);
        for (let i = n; i < 48; i++) b.rx[i] = 0; // centre inside: would overlap
      }
      const cw = w.overlapUniform(s.half[0], s.half[1], s.half[2], s.radius, n);
      const cj = j.overlapUniform(s.half[0], s.half[1], s.half[2], s.radius, n);
      expect(cw).toBe(cj);
      expect(w.flags.slice(0, n)).toEqual(j.flags.slice(0, n));
      let c = 0;
      for (let i = 0; i < n; i++) c += w.flags[i];
      expect(cw).toBe(c);
    }
  });
});

describe('functional kernels, lane setters, validation', () => {
  it('ocsiOverlapBatch / ocsiDistanceSqBatch on plain arrays equal the OcsiBatch results', () => {
    const n = 777;
    const s = paperSet(9, 4, 0.5, n, 21);
    const b = new OcsiBatch(n);
    copyLanes(s.lanes, b, n);
    setShapes(b, n, s.half, s.radius);
    const shapes = {
      hx: new Float32Array(n).fill(s.half[0]),
      hy: new Float32Array(n).fill(s.half[1]),
      hz: new Float32Array(n).fill(s.half[2]),
      radius: new Float32Array(n).fill(s.radius),
    };
    const out = new Uint8Array(n);
    expect(ocsiOverlapBatch(s.lanes, shapes, n, out)).toBe(b.overlap(n));
    expect(out).toEqual(b.flags.slice(0, n));
    const d = new Float32Array(n);
    ocsiDistanceSqBatch(s.lanes, shapes, n, d);
    expect(d).toEqual(b.distanceSq(n).slice(0, n));
  });

  it('setLane and setSphereObb fill a lane like the planes', () => {
    const b = new OcsiBatch(3);
    const e = [0, 1, 0, -1, 0, 0, 0, 0, 1];
    b.setLane(1, [2, 0, 0], 0, e, 0, [1, 0.5, 0.25], 0, 0.5);
    expect([b.rx[1], b.e0y[1], b.e1x[1], b.hy[1], b.radius[1]]).toEqual([2, 1, -1, 0.5, 0.5]);
    const obb = [10, 0, 0, ...e, 1, 0.5, 0.25];
    b.setSphereObb(2, [10, 1.5, 0], 0, 0.5, obb, 0);
    expect(b.rx[2]).toBe(0);
    expect(b.ry[2]).toBe(1.5);
    expect(b.overlap(3)).toBe(2); // lane 0 is all zeros: a degenerate box at the centre, radius 0 — touching
    expect([...b.flags]).toEqual([1, 0, 1]);
    expect(() => b.setLane(3, [0, 0, 0], 0, e, 0, [1, 1, 1], 0, 1)).toThrow(/lane index/);
  });

  it('validating mode names the bad lane and field; the hot path checks the count', () => {
    const b = new OcsiBatch(20, { validate: true });
    for (let i = 0; i < 20; i++) b.setLane(i, [0, 0, 0], 0, [1, 0, 0, 0, 1, 0, 0, 0, 1], 0, [1, 1, 1], 0, 1);
    expect(b.overlap()).toBe(20);
    b.e1y[7] = 2;
    expect(() => b.overlap()).toThrow(/lane 7: axes are not orthonormal/);
    b.e1y[7] = 1;
    b.rz[3] = Number.NaN;
    expect(() => b.overlapUniform(1, 1, 1, 1)).toThrow(/lane 3: rz is NaN/);
    b.rz[3] = 0;
    b.radius[5] = -1;
    expect(() => b.distanceSq()).toThrow(/lane 5: radius is -1/);
    expect(() => b.overlapUniform(1, 1, 1, -2)).toThrow(/radius must be a finite number >= 0/);
    expect(() => validateOcsiLanes(b, 21)).toThrow(/count 21 exceeds/);
    const fast = new OcsiBatch(4);
    expect(() => fast.overlap(5)).toThrow(/count must be an integer in \[0, 4\]/);
    expect(() => new OcsiBatch(0)).toThrow(/capacity/);
    expect(() => new OcsiBatch(4, { backend: 'gpu' as 'js' })).toThrow(/backend/);
    expect(() => ocsiOverlapBatch(makeLanes(3), b, 4, new Uint8Array(4))).toThrow(/count 4 exceeds/);
  });
});
