#!/usr/bin/env node
/**
 * Builds the OCSI WebAssembly SIMD kernel (src/narrowphase/wasm/ocsiKernel.as) into
 * src/narrowphase/wasm/ocsiKernel.generated.ts, base64 the library loads synchronously in Node and
 * browsers without fetch; `--check` exits 1 if that module is out of date (scripts/wasm-kernel.mjs).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKernel } from '../../../scripts/wasm-kernel.mjs';

const wasm = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'narrowphase', 'wasm');
await buildKernel({
  script: 'packages/core/scripts/build-wasm.mjs',
  sourcePath: join(wasm, 'ocsiKernel.as'),
  generatedPath: join(wasm, 'ocsiKernel.generated.ts'),
  exportName: 'OCSI_KERNEL_BASE64',
  description: 'The OCSI WebAssembly SIMD kernel',
});
