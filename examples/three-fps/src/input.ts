/**
 * Keyboard and mouse, as three.js's FPS example reads them: WASD (or the arrows) to move, space to jump,
 * the mouse to look once the pointer is locked (click the page), a click to throw a sphere — held
 * longer, thrown harder.
 */
import type { Game } from './game.js';

/** Radians of look per pixel of mouse motion. */
const LOOK = 0.002;

export class Input {
  private readonly keys = new Set<string>();
  private downAt = -1;

  constructor(
    private readonly game: Game,
    private readonly target: HTMLElement,
    /** Called when the pointer lock starts or ends. */
    private readonly onLock: (locked: boolean) => void,
  ) {
    document.addEventListener('keydown', (e) => {
      this.keys.add(e.code);
      if (e.code === 'Space') e.preventDefault();
    });
    document.addEventListener('keyup', (e) => this.keys.delete(e.code));
    window.addEventListener('blur', () => this.keys.clear());
    target.addEventListener('click', () => {
      if (!this.locked) void target.requestPointerLock();
    });
    document.addEventListener('pointerlockchange', () => {
      this.keys.clear();
      this.onLock(this.locked);
    });
    document.addEventListener('mousemove', (e) => {
      if (!this.locked) return;
      this.game.yaw -= e.movementX * LOOK;
      this.game.pitch = Math.max(-1.55, Math.min(1.55, this.game.pitch - e.movementY * LOOK));
    });
    document.addEventListener('mousedown', () => {
      if (this.locked) this.downAt = performance.now();
    });
    document.addEventListener('mouseup', () => {
      if (!this.locked || this.downAt < 0) return;
      // The example's impulse: 15 m/s plus up to 30 more the longer the button was held.
      this.game.throwBall(1 - Math.exp((this.downAt - performance.now()) * 0.001));
      this.downAt = -1;
    });
  }

  get locked(): boolean {
    return document.pointerLockElement === this.target;
  }

  /** Writes the held keys into the game's input. */
  apply(): void {
    const k = this.keys;
    const input = this.game.input;
    input.forward =
      (k.has('KeyW') || k.has('ArrowUp') ? 1 : 0) - (k.has('KeyS') || k.has('ArrowDown') ? 1 : 0);
    input.right =
      (k.has('KeyD') || k.has('ArrowRight') ? 1 : 0) - (k.has('KeyA') || k.has('ArrowLeft') ? 1 : 0);
    input.jump = k.has('Space');
  }
}
