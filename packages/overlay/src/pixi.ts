/**
 * pixi.js binding: closes one overlay frame per tick of a pixi `Application`'s ticker and times the
 * application's render as the phase `render`.
 *
 * pixi.js (v8) renders from its ticker at priority `UPDATE_PRIORITY.LOW` (−25); this binding adds one
 * listener just before it (−24: `begin('render')`) and one just after (−26: `end()` then `endFrame()`), so
 * game logic at the default priority (0) runs inside the same frame and can `begin`/`end` its own phases.
 * Only structural types are used here — no import of pixi.js at all — so `@sieve/overlay` never depends on
 * pixi at run time and pixi's types are not needed to compile against it.
 *
 * Follows pixi.js v8's ticker documentation (listener priorities, `UPDATE_PRIORITY`).
 */
import { checkOptionKeys, optionKeys } from './options.js';
import type { FrameRecorder } from './recorder.js';

/** The part of a pixi.js `Ticker` this binding uses. */
export interface TickerLike {
  /** Adds a listener called every tick, higher `priority` first. */
  // biome-ignore lint/suspicious/noExplicitAny: matches pixi's generic TickerCallback<T> (this: T, ticker) in both directions
  add(fn: (this: any, ticker: any) => void, context?: any, priority?: number): unknown;
  /** Removes a listener added with {@link TickerLike.add}. */
  // biome-ignore lint/suspicious/noExplicitAny: see add
  remove(fn: (this: any, ticker: any) => void, context?: any): unknown;
}

/** The part of a pixi.js `Application` this binding uses. */
export interface TickerOwner {
  /** The application's ticker, which renders the stage every frame. */
  ticker: TickerLike;
}

/** Options of {@link attachToPixiTicker}. */
export interface PixiBindingOptions {
  /** Phase name for the render. Default `'render'`. */
  renderPhase?: string;
  /** Priority of pixi's render listener. Default −25 (`UPDATE_PRIORITY.LOW`). */
  renderPriority?: number;
}

/**
 * The keys of {@link PixiBindingOptions}: any other key throws a `TypeError` naming it. Kept complete
 * by the compiler (`optionKeys`): add a new option here too.
 */
const PIXI_BINDING_OPTION_KEYS = optionKeys<PixiBindingOptions>({ renderPhase: true, renderPriority: true });

/**
 * Times `app`'s render as a phase of `overlay` and closes an overlay frame after every render. Returns a
 * function that detaches the binding. If a phase is left open when the frame closes (a game `begin`
 * without `end`), `endFrame` throws from the ticker — balance your phases. Throws a `TypeError` for an
 * `app` without a ticker and a `TypeError` or `RangeError` naming the option for an unknown key or a bad
 * value, before anything is attached.
 *
 * @param app - a pixi.js `Application` (or anything with a `ticker`), or a `Ticker` itself.
 * @param overlay - the {@link Overlay} or {@link FrameRecorder} to feed.
 */
export function attachToPixiTicker(
  app: TickerOwner | TickerLike,
  overlay: FrameRecorder,
  options: PixiBindingOptions = {},
): () => void {
  const ticker: TickerLike | undefined = 'ticker' in app ? app.ticker : (app as TickerLike);
  if (!ticker || typeof ticker.add !== 'function' || typeof ticker.remove !== 'function')
    throw new TypeError('attachToPixiTicker: app must be a pixi Application (with .ticker) or a Ticker');
  checkOptionKeys('attachToPixiTicker: options', options, PIXI_BINDING_OPTION_KEYS);
  const priority = options.renderPriority ?? -25;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) {
    throw new RangeError(
      `attachToPixiTicker: options.renderPriority must be a finite number, got ${String(priority)}`,
    );
  }
  if (options.renderPhase !== undefined && typeof options.renderPhase !== 'string') {
    throw new TypeError(
      `attachToPixiTicker: options.renderPhase must be a string, got ${String(options.renderPhase)}`,
    );
  }
  const phase = overlay.phase(options.renderPhase ?? 'render');
  let open = false;
  const before = () => {
    overlay.begin(phase);
    open = true;
  };
  const after = () => {
    if (open) {
      overlay.end();
      open = false;
    }
    overlay.endFrame();
  };
  ticker.add(before, undefined, priority + 1);
  ticker.add(after, undefined, priority - 1);
  return () => {
    ticker.remove(before, undefined);
    ticker.remove(after, undefined);
    if (open) {
      overlay.end();
      open = false;
    }
  };
}
