#!/usr/bin/env node
/**
 * Builds the ray-walk WebAssembly SIMD kernel of @sieve/three (src/raycast/wasm/rayKernel.as) into
 * src/raycast/wasm/rayKernel.generated.ts, base64 the library loads synchronously in Node and browsers
 * without fetch; `--check` exits 1 if that module is out of date (scripts/wasm-kernel.mjs).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKernel } from '../../../scripts/wasm-kernel.mjs';

const wasm = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'raycast', 'wasm');
await buildKernel({
  script: 'packages/three/scripts/build-wasm.mjs',
  sourcePath: join(wasm, 'rayKernel.as'),
  generatedPath: join(wasm, 'rayKernel.generated.ts'),
  exportName: 'RAY_KERNEL_BASE64',
  description: 'The ray-walk WebAssembly SIMD kernel',
});
