/**
 * Phaser's bundled matter-js (`Phaser.Physics.Matter.Matter`) loaded in Node, from the sources the
 * Phaser package ships: `src/physics/matter-js/CustomMain.js` is the module Phaser's own builds
 * expose as `Phaser.Physics.Matter.Matter` (its modified copy of matter-js 0.20, CommonJS, no DOM
 * needed). Phaser 4's package.json `exports` hide its sources, so the file is found from the
 * package's directory.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Matter from 'matter-js';

const require = createRequire(import.meta.url);

/** The Phaser packages installed for the tests: `phaser` (3.x) and `phaser4` (an alias of 4.x). */
export const PHASER_PACKAGES = ['phaser', 'phaser4'] as const;

/** The Matter module of an installed Phaser, and that Phaser's version. */
export function phaserMatter(pkg: (typeof PHASER_PACKAGES)[number]): {
  matter: typeof Matter;
  version: string;
} {
  const manifest = require.resolve(`${pkg}/package.json`);
  const version = (require(manifest) as { version: string }).version;
  const matter = require(join(dirname(manifest), 'src/physics/matter-js/CustomMain.js')) as typeof Matter;
  return { matter, version };
}
