import { describe, expect, it } from 'vitest';
import {
  type Canvas2DLike,
  drawOverlay,
  FrameRecorder,
  formatMs,
  niceCeil,
  overlayHeight,
  PHASE_COLORS,
} from '../src/index.js';

type Op = { op: string; args: unknown[]; strokeStyle: unknown; dash: number[] };

/** A fake 2-D context recording every call, with the stroke style and dash at the time of the call. */
function fakeContext() {
  const ops: Op[] = [];
  let dash: number[] = [];
  const ctx: Canvas2DLike & { ops: Op[] } = {
    ops,
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textBaseline: '',
    clearRect: (...args) => ops.push({ op: 'clearRect', args, strokeStyle: ctx.strokeStyle, dash }),
    fillRect: (...args) => ops.push({ op: 'fillRect', args, strokeStyle: ctx.strokeStyle, dash }),
    fillText: (...args) => ops.push({ op: 'fillText', args, strokeStyle: ctx.strokeStyle, dash }),
    beginPath: () => ops.push({ op: 'beginPath', args: [], strokeStyle: ctx.strokeStyle, dash }),
    moveTo: (...args) => ops.push({ op: 'moveTo', args, strokeStyle: ctx.strokeStyle, dash }),
    lineTo: (...args) => ops.push({ op: 'lineTo', args, strokeStyle: ctx.strokeStyle, dash }),
    stroke: () => ops.push({ op: 'stroke', args: [], strokeStyle: ctx.strokeStyle, dash }),
    setLineDash: (d) => {
      dash = d;
    },
  };
  return ctx;
}

/** Splits the recorded ops into stroked paths: points and the style they were stroked with. */
function paths(ops: Op[]) {
  const out: { points: [number, number][]; style: unknown; dashed: boolean }[] = [];
  let cur: [number, number][] = [];
  for (const o of ops) {
    if (o.op === 'beginPath') cur = [];
    else if (o.op === 'moveTo' || o.op === 'lineTo') cur.push(o.args as [number, number]);
    else if (o.op === 'stroke') out.push({ points: cur, style: o.strokeStyle, dashed: o.dash.length > 0 });
  }
  return out;
}

function recorder(frames: number, cap = 50) {
  let t = 0;
  const rec = new FrameRecorder({ capacity: cap, now: () => t, phases: ['broadphase', 'render'] });
  for (let f = 0; f < frames; f++) {
    rec.record('broadphase', 1 + (f % 5)); // 1..5 ms
    rec.record('render', 0.25);
    rec.count('bodies', 1000 + f);
    t += f === frames - 1 ? 40 : 16; // one slow 40 ms frame at the end: frame-graph scale 50 ms
    rec.endFrame();
  }
  return rec;
}

describe('niceCeil / formatMs', () => {
  it('rounds up to the 1-2-5 series and keeps exact steps', () => {
    expect([0.03, 0.05, 0.7, 1, 1.2, 2, 2.1, 4.9, 5, 16.7, 20, 21, 99, 0, -1].map(niceCeil)).toEqual([
      0.05, 0.05, 1, 1, 2, 2, 5, 5, 5, 20, 20, 50, 100, 1, 1,
    ]);
    expect([0.1234, 12.345, 123.4].map(formatMs)).toEqual(['0.12', '12.3', '123']);
  });
});

describe('drawOverlay (fake 2-D context)', () => {
  it('draws one polyline per graph with one point per frame, newest at the right edge, inside its box', () => {
    const rec = recorder(30);
    const ctx = fakeContext();
    const h = drawOverlay(ctx, rec, { width: 300 });
    expect(h).toBe(overlayHeight(rec, { width: 300 }));
    const series = paths(ctx.ops).filter((p) => !p.dashed);
    // frame graph + two phases + "other"
    expect(series.length).toBe(4);
    expect(series[1].style).toBe(PHASE_COLORS[0]);
    expect(series[2].style).toBe(PHASE_COLORS[1]);
    // The first frame has no interval, so the frame and "other" graphs start one frame later.
    expect(series.map((s) => s.points.length)).toEqual([29, 30, 30, 29]);
    for (const s of series) {
      const n = s.points.length;
      expect(s.points[n - 1][0]).toBeCloseTo(300 - 6, 9); // right edge = width - padding
      for (let k = 1; k < n; k++) expect(s.points[k][0]).toBeGreaterThan(s.points[k - 1][0]);
      for (const [, y] of s.points) {
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(h);
      }
    }
    // Broadphase heights follow the values: scale niceCeil(5) = 5 ms over a 36 px graph.
    const bp = series[1].points;
    const bottom = Math.max(...bp.map((p) => p[1])); // value 1 → 36*(1 - 1/5) above the top…
    const top = Math.min(...bp.map((p) => p[1])); // value 5 = scale → top of the box
    expect(bottom - top).toBeCloseTo(36 * (4 / 5), 6);
    // last / median / max text row for broadphase, the minimum and the scale on its graph.
    const texts = ctx.ops.filter((o) => o.op === 'fillText').map((o) => o.args[0] as string);
    const row = texts.find((t) => t.startsWith('broadphase'));
    expect(row?.split(/\s+/)).toEqual(['broadphase', '5.00', '3.00', '5.00']);
    expect(texts).toContain('min 1.00');
    expect(texts).toContain('5'); // graph scale 5 ms
    // "other" = interval − phases: 16 − (1..5) − 0.25, and the slow last frame 40 − 5 − 0.25.
    const other = texts.find((t) => t.startsWith('other'));
    expect(other?.split(/\s+/)).toEqual(['other', '34.8', '12.8', '34.8']);
    expect(texts.some((t) => t.includes('bodies 1029'))).toBe(true);
  });

  it('draws the frame-budget line at 16.7 ms on the frame graph, and on phase graphs only in range', () => {
    const rec = recorder(30);
    const ctx = fakeContext();
    drawOverlay(ctx, rec);
    const dashed = paths(ctx.ops).filter((p) => p.dashed);
    // Only the frame graph's and "other"'s scales (50) contain the budget; phases top at 5 and 0.5.
    expect(dashed.length).toBe(2);
    const [[x0, y0], [x1, y1]] = dashed[0].points;
    expect(y0).toBe(y1);
    expect(x1 - x0).toBe(300 - 12);
    const frameTop = 6 + 2 * 13; // padding + header and legend lines
    expect(y0).toBeCloseTo(frameTop + 56 - (16.7 / 50) * 56, 9);
    // A phase that takes 30 ms gets its own budget line.
    rec.record('broadphase', 30);
    rec.endFrame();
    const ctx2 = fakeContext();
    drawOverlay(ctx2, rec);
    expect(paths(ctx2.ops).filter((p) => p.dashed).length).toBe(3);
  });

  it('compact mode draws text only, hidden mode draws nothing, hidden phases drop their graph', () => {
    const rec = recorder(10);
    const compact = fakeContext();
    const hc = drawOverlay(compact, rec, { mode: 'compact' });
    expect(paths(compact.ops).length).toBe(0);
    // header, legend, 2 phases, other, counters
    expect(compact.ops.filter((o) => o.op === 'fillText').length).toBe(2 + 2 + 1 + 1);
    expect(hc).toBeLessThan(overlayHeight(rec));
    const hidden = fakeContext();
    expect(drawOverlay(hidden, rec, { mode: 'hidden' })).toBe(0);
    expect(hidden.ops.every((o) => o.op === 'clearRect')).toBe(true);
    const some = fakeContext();
    drawOverlay(some, rec, { hiddenPhases: new Set([0]) });
    expect(paths(some.ops).filter((p) => !p.dashed).length).toBe(3);
    expect(overlayHeight(rec, { hiddenPhases: new Set([0]) })).toBe(overlayHeight(rec) - 40);
    expect(overlayHeight(rec, { graphHeight: 50 })).toBe(overlayHeight(rec) + 3 * 14);
    expect(overlayHeight(rec, { showOther: false })).toBe(overlayHeight(rec) - 13 - 40);
    expect(() => overlayHeight(rec, { graphHeight: 4 })).toThrow(/graphHeight/);
  });

  it('lays every line out within the panel: long titles wrap, nested names are not cut, the world has a line', () => {
    let t = 0;
    const rec = new FrameRecorder({
      now: () => t,
      phases: ['snapshot', 'physics', 'narrowphase', 'worker 1'],
      counters: ['bodies', 'candidates', 'collisions', 'pairs'],
      segment: 'sieve',
      world: '20000 debris · 10000 static',
    });
    const frame = (stockMode: boolean) => {
      rec.begin('snapshot');
      rec.record('physics', 12.5);
      rec.record('narrowphase', 4.25); // nested: drawn indented one character
      if (!stockMode) rec.record('worker 1', 1.5);
      rec.end();
      rec.count('candidates', 123_456);
      t += 16;
      rec.endFrame();
    };
    for (let f = 0; f < 10; f++) frame(false);
    rec.beginSegment('stock');
    for (let f = 0; f < 10; f++) frame(true);
    for (const width of [264, 220, 300]) {
      for (const mode of ['full', 'compact'] as const) {
        const char = 6.6;
        const options = { width, mode, title: 'arcade · 2 workers', charWidth: char };
        const ctx = fakeContext();
        const h = drawOverlay(ctx, rec, options);
        expect(h).toBe(overlayHeight(rec, options));
        const texts = ctx.ops.filter((o) => o.op === 'fillText');
        for (const o of texts) {
          const [text, x, y] = o.args as [string, number, number];
          expect(x + text.length * char, `"${text}" at ${width} px`).toBeLessThanOrEqual(width - 6 + 1e-9);
          expect(y + 13).toBeLessThanOrEqual(h);
        }
        const lines = texts.map((o) => o.args[0] as string);
        if (width >= 264) {
          expect(lines).toContain('arcade · 2 workers [stock]'); // the statistics on a line of their own
          expect(lines.some((l) => /^\d+ fps {2}self/.test(l))).toBe(true);
          expect(lines).toContain('world 20000 debris · 10000 static');
          expect(lines.some((l) => l.trim().startsWith('narrowphase '))).toBe(true); // never "narrowphas"
        }
      }
    }
    // A short title keeps one header line; no world, no world line.
    const plain = recorder(5);
    const ctx = fakeContext();
    drawOverlay(ctx, plain, { width: 300 });
    expect(ctx.ops.filter((o) => o.op === 'fillText').map((o) => o.args[0] as string)[0]).toMatch(
      /^Sieve {2}\d+ fps {2}self/,
    );
    expect(overlayHeight(plain, { width: 300 })).toBeLessThan(
      overlayHeight(plain, { width: 300, title: 'a title much too long for one line' }),
    );
  });

  it("draws each graph's labels (min, scale, frame, budget) after the graph, on a patch of background that covers them", () => {
    const rec = recorder(60);
    const ctx = fakeContext();
    drawOverlay(ctx, rec, { width: 300, charWidth: 6 });
    const ops = ctx.ops;
    const labels = ops
      .map((o, i) => ({ o, i }))
      .filter(
        ({ o }) => o.op === 'fillText' && /^(min |not measured|frame |budget |\d)/.test(String(o.args[0])),
      );
    expect(labels.length).toBeGreaterThanOrEqual(2 + 2 * 3); // frame graph's 3, then min and scale per phase graph
    let lastStroke = -1;
    for (const { o, i } of labels) {
      const patch = ops[i - 1];
      expect(patch.op, String(o.args[0])).toBe('fillRect');
      const [px, py, pw, ph] = patch.args as number[];
      const [text, x, y] = o.args as [string, number, number];
      expect(px).toBeLessThanOrEqual(x);
      expect(py).toBeLessThanOrEqual(y);
      expect(px + pw).toBeGreaterThanOrEqual(x + text.length * 6);
      expect(ph).toBeGreaterThan(8);
      // Drawn after the strokes of the graph it labels (the series and the budget line).
      const strokeBefore = ops
        .slice(0, i)
        .map((q) => q.op)
        .lastIndexOf('stroke');
      expect(strokeBefore).toBeGreaterThanOrEqual(lastStroke);
      lastStroke = strokeBefore;
    }
  });

  it('draws an empty recorder without paths', () => {
    const rec = new FrameRecorder({ now: () => 0, phases: ['a'] });
    const ctx = fakeContext();
    expect(drawOverlay(ctx, rec)).toBe(overlayHeight(rec));
    expect(paths(ctx.ops).filter((p) => p.points.length > 2).length).toBe(0);
  });

  it('shows "—" for phases and counters not measured, and the previous segment\'s medians beside', () => {
    let t = 0;
    const rec = new FrameRecorder({ now: () => t, phases: ['collision', 'broadphase'], segment: 'sieve' });
    for (let f = 0; f < 20; f++) {
      rec.record('collision', 2);
      rec.record('broadphase', 1);
      rec.count('candidates', 50);
      t += 16;
      rec.endFrame();
    }
    rec.beginSegment('stock');
    for (let f = 0; f < 20; f++) {
      rec.record('collision', 8); // stock: no broadphase timing, no candidate count
      t += 16;
      rec.endFrame();
    }
    const ctx = fakeContext();
    drawOverlay(ctx, rec);
    const texts = ctx.ops.filter((o) => o.op === 'fillText').map((o) => o.args[0] as string);
    const words = (prefix: string) =>
      texts
        .find((x) => x.startsWith(prefix))
        ?.trim()
        .split(/\s+/);
    expect(words('ms')).toEqual(['ms', 'last', 'med', 'max', 'sieve']);
    expect(words('collision')).toEqual(['collision', '8.00', '8.00', '8.00', '2.00']);
    expect(words('broadphase')).toEqual(['broadphase', '—', '—', '—', '1.00']);
    expect(texts).toContain('not measured');
    expect(texts.some((x) => x.includes('candidates —'))).toBe(true);
    expect(texts.some((x) => x.startsWith('Sieve [stock]'))).toBe(true);
    expect(texts.some((x) => x.includes('sieve 16.0'))).toBe(true); // frame graph: the other mode's median
    // No segment switch yet: no comparison column.
    const plain = fakeContext();
    drawOverlay(plain, recorder(5));
    const legend = plain.ops.find((o) => o.op === 'fillText' && String(o.args[0]).startsWith('ms'));
    expect(String(legend?.args[0]).trim().split(/\s+/)).toEqual(['ms', 'last', 'med', 'max']);
  });
});
