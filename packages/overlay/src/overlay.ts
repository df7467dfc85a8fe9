/**
 * Overlay: a {@link FrameRecorder} that draws itself on its own `<canvas>` above the game — no dependency
 * on the game's renderer. The canvas ignores the pointer; only the small toolbar buttons (mode, export)
 * take clicks and touches. A key (default backquote) cycles full → compact → hidden. Redraws are
 * throttled (10 Hz by default: a full redraw measured ~0.2 ms in headless Chromium, so ~0.03 ms a frame
 * at 60 fps) and timed: the overlay records its own cost per frame and shows it.
 *
 * Follows the in-game performance overlays of engines and stats.js: its own canvas above the game, a key
 * to hide it, well under 0.1 ms per frame, and an export of the recorded frames as JSON.
 */
import { type DrawOptions, drawOverlay, type OverlayMode, overlayHeight } from './draw.js';
import { checkOptionKeys, optionKeys } from './options.js';
import { FrameRecorder, type RecorderOptions } from './recorder.js';
import { RECORDER_OPTION_KEYS } from './types.js';

/** Options of an {@link Overlay}. */
export interface OverlayOptions extends RecorderOptions {
  /** Element the overlay is appended to. Default `document.body` (then the overlay is `position: fixed`). */
  parent?: HTMLElement;
  /** Corner of the parent the overlay sits in. Default `'top-right'`. */
  corner?: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
  /** Width in CSS pixels, at least 120 (every line of text fits from 220). Default 300. */
  width?: number;
  /** Initial mode. Default `'full'`. */
  mode?: OverlayMode;
  /** Title in the header. Default `'Sieve'`. */
  title?: string;
  /** `KeyboardEvent.key` that cycles the mode (case-insensitive), or `null` for none. Default '`'. */
  toggleKey?: string | null;
  /** Maximum redraw rate in Hz (a positive number). Default 10. */
  redrawHz?: number;
  /** Show the toolbar buttons (mode, JSON export). Default true. */
  buttons?: boolean;
  /** CSS z-index of the overlay. Default 1000. */
  zIndex?: number;
  /** Height of each phase graph in CSS pixels (≥ 12). Default 36. */
  graphHeight?: number;
  /**
   * Shrink the phase graphs (down to 12 px) while the panel would be taller than the window, so that
   * nothing is cut off at the bottom. Default true.
   */
  fitWindow?: boolean;
  /** Show the "other" row (frame time outside every top-level phase). Default true. */
  showOther?: boolean;
}

/**
 * The keys of {@link OverlayOptions} (the recorder's and its own): any other key throws a `TypeError`
 * naming it. Kept complete by the compiler (`optionKeys`): add a new option here too.
 */
const OVERLAY_OPTION_KEYS = [
  ...RECORDER_OPTION_KEYS,
  ...optionKeys<Omit<OverlayOptions, keyof RecorderOptions>>({
    parent: true,
    corner: true,
    width: true,
    mode: true,
    title: true,
    toggleKey: true,
    redrawHz: true,
    buttons: true,
    zIndex: true,
    graphHeight: true,
    fitWindow: true,
    showOther: true,
  }),
];

const CORNERS: readonly string[] = ['top-left', 'top-right', 'bottom-left', 'bottom-right'];

/**
 * Checks the keys of `options` and the values only the overlay reads that its constructor does not check
 * itself — before the recorder is built or the page touched — and returns them. Throws a `TypeError` or
 * `RangeError` naming the option.
 */
function checkOverlayOptions(options: OverlayOptions): OverlayOptions {
  checkOptionKeys('Overlay: options', options, OVERLAY_OPTION_KEYS);
  const o = options;
  if (o.corner !== undefined && !CORNERS.includes(o.corner)) {
    throw new RangeError(`corner must be one of ${CORNERS.join(', ')}, got ${String(o.corner)}`);
  }
  if (o.title !== undefined && typeof o.title !== 'string') {
    throw new TypeError(`title must be a string, got ${String(o.title)}`);
  }
  if (o.toggleKey !== undefined && o.toggleKey !== null && typeof o.toggleKey !== 'string') {
    throw new TypeError(`toggleKey must be a string or null, got ${String(o.toggleKey)}`);
  }
  for (const flag of ['buttons', 'fitWindow', 'showOther'] as const) {
    if (o[flag] !== undefined && typeof o[flag] !== 'boolean') {
      throw new TypeError(`${flag} must be true or false, got ${String(o[flag])}`);
    }
  }
  if (o.zIndex !== undefined && !Number.isInteger(o.zIndex)) {
    throw new TypeError(`zIndex must be an integer, got ${String(o.zIndex)}`);
  }
  if (o.parent !== undefined && (o.parent === null || typeof o.parent.appendChild !== 'function')) {
    throw new TypeError(`parent must be an HTMLElement, got ${String(o.parent)}`);
  }
  return options;
}

const MODES: readonly OverlayMode[] = ['full', 'compact', 'hidden'];

/**
 * A per-frame timing overlay for the browser. Feed it like a {@link FrameRecorder}
 * (`begin`/`end`/`record`/`count`, then `endFrame()` once per frame); it redraws itself.
 *
 * @example
 * ```ts
 * import { Overlay } from '@sieve/overlay';
 *
 * const overlay = new Overlay({ phases: ['physics', 'render'], counters: ['bodies'], segment: 'stock' });
 * const bodies = Array.from({ length: 500 }, (_, i) => ({ x: i, vx: 1 }));
 * function tick(): void {
 *   overlay.begin('physics');
 *   for (const b of bodies) b.x += b.vx; // step your world
 *   overlay.end();
 *   overlay.begin('render');
 *   // ... draw it ...
 *   overlay.end();
 *   overlay.count('bodies', bodies.length);
 *   overlay.endFrame(); // closes the frame; the panel redraws at most 10 times a second
 *   requestAnimationFrame(tick);
 * }
 * requestAnimationFrame(tick);
 * // Later, on the same world, in another mode: its medians are shown beside stock's.
 * overlay.beginSegment('sieve');
 * ```
 */
export class Overlay extends FrameRecorder {
  /** The overlay's container (toolbar + canvas). */
  readonly element: HTMLDivElement;
  /** The canvas the overlay draws on. */
  readonly canvas: HTMLCanvasElement;
  /** Phases (by index) whose graphs are hidden; edit and call {@link draw} to apply. */
  readonly hiddenPhases = new Set<number>();
  /** Number of redraws so far. */
  drawCount = 0;
  /** Total time spent in redraws so far, in ms (`drawTimeMs / drawCount` is the cost of one redraw). */
  drawTimeMs = 0;

  private readonly ctx: CanvasRenderingContext2D;
  private readonly title: string;
  private readonly minInterval: number;
  private readonly toggleKey: string | null;
  private readonly modeButton: HTMLButtonElement | null = null;
  private currentMode: OverlayMode;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private readonly onKey: (e: KeyboardEvent) => void;
  private readonly drawOptions: DrawOptions;
  private readonly graphHeight: number;
  private readonly fitWindow: boolean;
  private readonly toolbar: HTMLElement | null = null;

  /**
   * Creates the overlay and appends it to `options.parent` (default `document.body`), listening for the
   * toggle key on `window`. Throws a `TypeError` or `RangeError` naming the option for an unknown key,
   * a `corner`, `title`, `toggleKey`, `buttons`, `fitWindow`, `showOther`, `zIndex` or `parent` of the
   * wrong kind (in Node too), an `Error` outside a DOM (use {@link FrameRecorder} there), a
   * `RangeError` naming the option for a `width` under 120, a non-positive `redrawHz`, an unknown
   * `mode` or a `graphHeight` under 12 — before anything is added to the page — and the
   * {@link FrameRecorder} constructor's errors for the recorder options.
   */
  constructor(options: OverlayOptions = {}) {
    super(checkOverlayOptions(options));
    if (typeof document === 'undefined')
      throw new Error(
        'Overlay needs a DOM document; use FrameRecorder (and drawOverlay) outside the browser',
      );
    const width = options.width ?? 300;
    if (!Number.isFinite(width) || width < 120) throw new RangeError(`width must be >= 120, got ${width}`);
    const hz = options.redrawHz ?? 10;
    if (!Number.isFinite(hz) || hz <= 0)
      throw new RangeError(`redrawHz must be a positive number, got ${hz}`);
    const mode = options.mode ?? 'full';
    if (!MODES.includes(mode)) throw new RangeError(`mode must be one of ${MODES.join(', ')}, got ${mode}`);
    this.title = options.title ?? 'Sieve';
    this.minInterval = 1000 / hz;
    this.toggleKey = options.toggleKey === undefined ? '`' : options.toggleKey;
    this.currentMode = mode;
    this.drawOptions = {
      width,
      mode,
      title: this.title,
      hiddenPhases: this.hiddenPhases,
      graphHeight: options.graphHeight ?? 36,
      showOther: options.showOther ?? true,
    };
    overlayHeight(this, this.drawOptions); // validates graphHeight before anything is added to the page
    this.graphHeight = this.drawOptions.graphHeight!;
    this.fitWindow = options.fitWindow ?? true;

    const parent = options.parent ?? document.body;
    const corner = options.corner ?? 'top-right';
    const el = document.createElement('div');
    el.className = 'sieve-overlay';
    const s = el.style;
    s.position = parent === document.body ? 'fixed' : 'absolute';
    s[corner.startsWith('top') ? 'top' : 'bottom'] = '0';
    s[corner.endsWith('left') ? 'left' : 'right'] = '0';
    s.zIndex = String(options.zIndex ?? 1000);
    s.pointerEvents = 'none';
    s.display = 'flex';
    s.flexDirection = 'column';
    s.alignItems = corner.endsWith('left') ? 'flex-start' : 'flex-end';
    s.font = '11px ui-monospace, Menlo, Consolas, monospace';

    if (options.buttons ?? true) {
      const bar = document.createElement('div');
      bar.style.display = 'flex';
      bar.style.gap = '2px';
      const button = (label: string, title: string, onClick: () => void) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = label;
        b.title = title;
        const bs = b.style;
        bs.pointerEvents = 'auto';
        bs.font = 'inherit';
        bs.color = '#e8eaf6';
        bs.background = 'rgba(10, 12, 20, 0.82)';
        bs.border = '1px solid #3949ab';
        bs.padding = '1px 6px';
        bs.cursor = 'pointer';
        b.addEventListener('click', (e) => {
          e.stopPropagation();
          onClick();
        });
        bar.appendChild(b);
        return b;
      };
      button('json', 'Download the recorded frames as JSON', () => this.download());
      this.modeButton = button('', 'Cycle overlay: full / compact / hidden', () => this.toggle());
      el.appendChild(bar);
      this.toolbar = bar;
    }

    const canvas = document.createElement('canvas');
    canvas.style.display = 'block';
    canvas.style.pointerEvents = 'none';
    el.appendChild(canvas);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('Overlay: canvas 2-D context unavailable');
    // Lay the text out with the font's real advance, so no line runs past the panel.
    ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
    const advance = ctx.measureText('0123456789').width / 10;
    if (advance > 0) this.drawOptions.charWidth = advance;
    this.canvas = canvas;
    this.ctx = ctx;
    this.element = el;
    parent.appendChild(el);

    this.onKey = (e: KeyboardEvent) => {
      const key = this.toggleKey;
      if (key === null || e.key.toLowerCase() !== key.toLowerCase() || e.repeat) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      this.toggle();
    };
    window.addEventListener('keydown', this.onKey);
    this.applyMode();
  }

  /** Width of the panel in CSS pixels. */
  get width(): number {
    return this.drawOptions.width ?? 300;
  }

  /** Current mode. */
  get mode(): OverlayMode {
    return this.currentMode;
  }

  /** Sets the mode and redraws. */
  setMode(mode: OverlayMode): void {
    if (!MODES.includes(mode)) throw new RangeError(`mode must be one of ${MODES.join(', ')}, got ${mode}`);
    this.currentMode = mode;
    this.applyMode();
  }

  /** Cycles full → compact → hidden → full. */
  toggle(): void {
    this.setMode(MODES[(MODES.indexOf(this.currentMode) + 1) % MODES.length]);
  }

  private applyMode(): void {
    this.drawOptions.mode = this.currentMode;
    this.canvas.style.display = this.currentMode === 'hidden' ? 'none' : 'block';
    if (this.modeButton) this.modeButton.textContent = `${this.currentMode} ▸`;
    this.draw();
  }

  /** Closes the frame (see {@link FrameRecorder.endFrame}) and redraws when the throttle allows. */
  override endFrame(): void {
    super.endFrame();
    if (this.currentMode === 'hidden') return;
    if (this.lastFrameTime - this.lastDraw < this.minInterval) return;
    this.lastDraw = this.lastFrameTime;
    this.draw();
  }

  /** Redraws now, and charges the time it took to the overlay's own cost of the last frame. */
  draw(): void {
    const t0 = this.now();
    const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
    if (this.fitWindow) this.fitGraphs();
    const h = overlayHeight(this, this.drawOptions);
    const width = this.width;
    const cw = Math.round(width * dpr);
    const ch = Math.max(1, Math.round(h * dpr));
    const c = this.canvas;
    if (c.width !== cw || c.height !== ch) {
      c.width = cw;
      c.height = ch;
      c.style.width = `${width}px`;
      c.style.height = `${h}px`;
    }
    if (h > 0) {
      this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawOverlay(this.ctx, this, this.drawOptions);
    }
    const ms = this.now() - t0;
    this.drawCount++;
    this.drawTimeMs += ms;
    this.addOverhead(ms);
  }

  /** Sets the graphs' height: the option's, or less (not under 12 px) where the window is shorter. */
  private fitGraphs(): void {
    const o = this.drawOptions;
    const want = this.graphHeight;
    o.graphHeight = want;
    if (typeof window === 'undefined' || this.currentMode !== 'full') return;
    const room = window.innerHeight - (this.toolbar?.offsetHeight ?? 0);
    const full = overlayHeight(this, o);
    if (full <= room || want <= 12) return;
    o.graphHeight = 12;
    const least = overlayHeight(this, o);
    // The height grows linearly with the graphs' height.
    const perPixel = (full - least) / (want - 12);
    o.graphHeight =
      perPixel > 0 ? Math.max(12, Math.min(want, 12 + Math.floor((room - least) / perPixel))) : 12;
  }

  /** Offers the recorded frames as a JSON file download (browser only). */
  download(filename = 'sieve-overlay.json'): void {
    const url = URL.createObjectURL(new Blob([this.exportFrames(1)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Removes the overlay from the page and its key listener. Recorded data stays readable. */
  destroy(): void {
    window.removeEventListener('keydown', this.onKey);
    this.element.remove();
  }
}
