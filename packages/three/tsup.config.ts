import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Types of @sieve/core come from its built package, not its sources (see tsconfig paths).
  dts: { compilerOptions: { paths: {} } },
  external: ['@sieve/core', 'three'],
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
