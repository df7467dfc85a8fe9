/** Type-checked with pixi.js's own types: the overlay's pixi binding accepts a real `Application`. */
import { attachToPixiTicker, Overlay } from '@sieve/overlay';
import { Application } from 'pixi.js';

export async function start(): Promise<() => void> {
  const app = new Application();
  await app.init({ width: 800, height: 600 });
  const overlay = new Overlay({ phases: ['physics'], corner: 'top-right' });
  return attachToPixiTicker(app, overlay);
}
