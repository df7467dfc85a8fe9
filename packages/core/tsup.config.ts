import { defineConfig } from 'tsup';
import { shipped } from '../../scripts/tsup-shared.js';

export default defineConfig({
  // The parallel broadphase is its own entry point (the root stays free of worker code), and its worker
  // script its own file, loaded by `new Worker(new URL('./parallel-worker.js', import.meta.url))`.
  entry: {
    index: 'src/index.ts',
    parallel: 'src/broadphase/parallel/index.ts',
    'parallel-worker': 'src/broadphase/parallel/worker.ts',
    // The WebGPU triangle pass: its own entry so the root never references WebGPU.
    gpu: 'src/gpu/index.ts',
  },
  // `import.meta.url` in the CommonJS build (the parallel entry finds its worker file with it).
  shims: true,
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
