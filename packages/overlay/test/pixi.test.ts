import { beforeAll, describe, expect, it } from 'vitest';
import { attachToPixiTicker, FrameRecorder } from '../src/index.js';

// pixi.js touches `navigator` at import time; Node 20 has none.
type PixiModule = typeof import('pixi.js');
let PIXI: PixiModule;
beforeAll(async () => {
  (globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };
  PIXI = await import('pixi.js');
});

describe('attachToPixiTicker (real pixi.js Ticker, manual updates)', () => {
  it('wraps the LOW-priority render in a "render" phase and closes one frame per tick', () => {
    let t = 0;
    const rec = new FrameRecorder({ now: () => t, phases: ['game'] });
    const ticker = new PIXI.Ticker();
    ticker.autoStart = false;
    const order: string[] = [];
    // What Application's TickerPlugin does: render at UPDATE_PRIORITY.LOW.
    ticker.add(
      () => {
        order.push('render');
        t += 3;
      },
      null,
      PIXI.UPDATE_PRIORITY.LOW,
    );
    const detach = attachToPixiTicker({ ticker }, rec);
    // Game logic at the default priority runs in the same frame, before the render.
    ticker.add(() => {
      order.push('game');
      rec.begin('game');
      t += 2;
      rec.end();
    });
    for (let f = 1; f <= 5; f++) ticker.update(f * 16);
    expect(order.slice(0, 4)).toEqual(['game', 'render', 'game', 'render']);
    expect(rec.frameCount).toBe(5);
    expect(Array.from(rec.phaseHistory('render'))).toEqual([3, 3, 3, 3, 3]);
    expect(Array.from(rec.phaseHistory('game'))).toEqual([2, 2, 2, 2, 2]);
    detach();
    ticker.update(6 * 16);
    expect(rec.frameCount).toBe(5); // detached: no more frames
    expect(rec.open).toBe(false);
    ticker.destroy();
  });

  it('accepts a Ticker directly, type-checks against pixi Application, and rejects other objects', () => {
    const rec = new FrameRecorder({ now: () => 0 });
    const ticker = new PIXI.Ticker();
    ticker.autoStart = false;
    const detach = attachToPixiTicker(ticker, rec);
    ticker.update(16);
    expect(rec.frameCount).toBe(1);
    detach();
    // Compile-time check only: a pixi Application is accepted by the structural type.
    const typeCheck = (app: InstanceType<PixiModule['Application']>) => attachToPixiTicker(app, rec);
    expect(typeof typeCheck).toBe('function');
    expect(() => attachToPixiTicker({} as never, rec)).toThrow(/pixi Application/);
    ticker.destroy();
  });
});
