import { defineConfig } from 'tsup';
import { shipped } from '../../scripts/tsup-shared.js';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Declarations are emitted without a type check of their own (TypeScript's `noCheck`: the same
  // files, 4 of 10 CPU-s less): `pnpm typecheck` checks these sources, and publishing runs the
  // package's own `typecheck` first (`prepublishOnly`).
  dts: { compilerOptions: { noCheck: true } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Private names shortened and load-time initializers marked pure (scripts/tsup-shared.ts).
  ...shipped,
});
