/**
 * What every package's tsup build adds to tsup's defaults, so that a user's bundle of the published
 * packages holds what a bundle of the sources does: the private members' names shortened with one
 * table for all packages (mangle.ts), and load-time initializers marked pure (pure.ts).
 */
import type { Options } from 'tsup';
import { mangleOptions } from './mangle.js';
import { pureModuleScope } from './pure.js';

/** tsup options to spread into a package's `defineConfig`. */
export const shipped: Pick<Options, 'esbuildPlugins' | 'esbuildOptions'> = {
  esbuildPlugins: [pureModuleScope()],
  esbuildOptions(options) {
    Object.assign(options, mangleOptions());
  },
};
