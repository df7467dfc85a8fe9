/**
 * Bullets for cannon-es (continuous collision for fast bodies): the implementation lives in
 * `bullets/`, one file per stage; this entry keeps the `./bullets.js` import path.
 */
export * from './bullets/index.js';
