import { defineConfig } from 'tsup';
import { shipped } from '../../scripts/tsup-shared.js';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Types of @sieve/core come from its built package, not its sources (see tsconfig paths).
  // Emitted without a type check of their own (`noCheck`): `pnpm typecheck` checks these sources, and
  // publishing runs the package's own `typecheck` first (`prepublishOnly`).
  dts: { compilerOptions: { paths: {}, noCheck: true } },
  external: ['@sieve/core', 'three'],
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Private names shortened and load-time initializers marked pure (scripts/tsup-shared.ts).
  ...shipped,
});
