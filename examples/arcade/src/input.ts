/**
 * Keyboard and touch input. Arrows or WASD turn and thrust, Space fires; the action keys (flood, clear,
 * static level, collision mode, overlay, restart, parallel mode) fire callbacks once per press. Touch
 * buttons drive the same state.
 */
import type { Input } from './game.js';

/** One-shot actions. */
export type Action = 'flood' | 'clear' | 'rubble' | 'mode' | 'overlay' | 'restart' | 'parallel';

const HOLD: Record<string, keyof Input> = {
  ArrowLeft: 'left',
  KeyA: 'left',
  ArrowRight: 'right',
  KeyD: 'right',
  ArrowUp: 'thrust',
  KeyW: 'thrust',
  Space: 'fire',
};

const ACTIONS: Record<string, Action> = {
  KeyF: 'flood',
  KeyX: 'clear',
  KeyL: 'rubble',
  KeyC: 'mode',
  KeyO: 'overlay',
  KeyR: 'restart',
  KeyP: 'parallel',
};

/** Held-key state plus the action callback. */
export class Controls {
  /** What is held right now (keyboard or touch). */
  readonly input: Input = { left: false, right: false, thrust: false, fire: false };
  private readonly keys = new Set<string>();
  private readonly touches: Record<keyof Input, number> = { left: 0, right: 0, thrust: 0, fire: 0 };

  constructor(private readonly onAction: (action: Action) => void) {
    window.addEventListener('keydown', (e) => {
      const hold = HOLD[e.code];
      if (hold) {
        e.preventDefault();
        this.keys.add(e.code);
        this.refresh();
        return;
      }
      const action = ACTIONS[e.code];
      if (action && !e.repeat && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        this.onAction(action);
      }
    });
    window.addEventListener('keyup', (e) => {
      if (this.keys.delete(e.code)) this.refresh();
    });
    // Losing focus must not leave a key stuck down.
    window.addEventListener('blur', () => {
      this.keys.clear();
      this.refresh();
    });
  }

  private refresh(): void {
    for (const k of ['left', 'right', 'thrust', 'fire'] as const) this.input[k] = this.touches[k] > 0;
    for (const code of this.keys) this.input[HOLD[code]] = true;
  }

  /** Makes `el` hold `what` while pressed (touch or mouse). */
  bindHold(el: HTMLElement, what: keyof Input): void {
    const down = (e: PointerEvent) => {
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      this.touches[what]++;
      el.classList.add('down');
      this.refresh();
    };
    const up = (e: PointerEvent) => {
      if (!el.hasPointerCapture(e.pointerId)) return;
      el.releasePointerCapture(e.pointerId);
      this.touches[what] = Math.max(0, this.touches[what] - 1);
      el.classList.remove('down');
      this.refresh();
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  }

  /** Makes `el` trigger `action` on click/tap. */
  bindAction(el: HTMLElement, action: Action): void {
    el.addEventListener('click', (e) => {
      e.preventDefault();
      this.onAction(action);
    });
  }
}
