import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../../test/support/runProbe.js';
import { FrameRecorder } from '../src/index.js';

describe('FrameRecorder cost', () => {
  it('does not allocate per frame once warm (heap flat over 16000 frames)', () => {
    const probe = fileURLToPath(new URL('./support/heapProbe.ts', import.meta.url));
    const run = (...extra: string[]) => runProbe(probe, extra);
    // The runtime adds garbage to some windows at random, never to all: the quietest window is the measure.
    const quiet = run();
    expect(quiet.checksum).not.toBe(0);
    expect(Math.min(...quiet.growth), `growth per window: ${quiet.growth.join(', ')}`).toBeLessThan(1024);
    // Control: one 1-element array per frame must show in every window.
    const control = run('allocate');
    expect(Math.min(...control.growth), `control: ${control.growth.join(', ')}`).toBeGreaterThan(8192);
  });

  it('costs a small multiple of the clock reads it needs (relative, not absolute, timing)', () => {
    // A frame of 6 timed phases, 2 measured values and 3 counters needs 13 clock reads. The baseline does
    // exactly those reads and sums into a typed array; the recorder must stay within a few times that.
    const now = () => performance.now();
    const rec = new FrameRecorder({ now });
    const sink = new Float64Array(16);
    const frames = 2000;
    const withRecorder = () => {
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) {
        for (const p of ['physics', 'broadphase', 'narrowphase', 'solver', 'game', 'render']) {
          rec.begin(p);
          rec.end();
        }
        rec.record('a', 0.1);
        rec.record('b', 0.1);
        rec.count('bodies', f);
        rec.count('pairs', f);
        rec.count('contacts', f);
        rec.endFrame();
      }
      return performance.now() - t0;
    };
    const baseline = () => {
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) {
        for (let p = 0; p < 6; p++) {
          const a = now();
          sink[p] += now() - a;
        }
        sink[6] += now() + f;
      }
      return performance.now() - t0;
    };
    // The quickest of 9 alternated repetitions each; on a loaded machine (a co-running process on the
    // other hyperthread slows the recorder's map reads more than the baseline's clock reads: 4.2 was
    // seen once against 1.4 quiet) the measure is taken again, up to 3 times, and the best one counts —
    // a recorder that really costs 4 times the baseline fails every time.
    let ratio = Number.POSITIVE_INFINITY;
    let perFrame = 0;
    let attempts = 0;
    while (ratio >= 4 && attempts < 3) {
      attempts++;
      const a: number[] = [];
      const b: number[] = [];
      for (let rep = 0; rep < 9; rep++) {
        a.push(withRecorder());
        b.push(baseline());
      }
      const r = Math.min(...a) / Math.min(...b);
      if (r < ratio) {
        ratio = r;
        perFrame = Math.min(...a) / frames;
      }
    }
    expect(rec.frameCount).toBe(attempts * 9 * frames);
    expect(sink[6]).toBeGreaterThan(0);
    expect(
      ratio,
      `recorder/baseline = ${ratio.toFixed(2)} (${perFrame} ms/frame, best of ${attempts})`,
    ).toBeLessThan(4);
  });
});
