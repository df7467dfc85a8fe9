#!/usr/bin/env node
/**
 * Builds the package's WebAssembly kernels from their AssemblyScript sources into generated TypeScript
 * modules (base64 the library loads synchronously in Node and browsers without fetch): the OCSI SIMD
 * kernel (src/narrowphase/wasm/ocsiKernel.as) and the sweep and prune's pass kernel
 * (src/broadphase/sap/wasm/passKernel.as). `--check` exits 1 if either module is out of date
 * (scripts/wasm-kernel.mjs).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKernel } from '../../../scripts/wasm-kernel.mjs';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const kernels = [
  {
    dir: join(src, 'narrowphase', 'wasm'),
    name: 'ocsiKernel',
    exportName: 'OCSI_KERNEL_BASE64',
    description: 'The OCSI WebAssembly SIMD kernel',
  },
  {
    dir: join(src, 'broadphase', 'sap', 'wasm'),
    name: 'passKernel',
    exportName: 'PASS_KERNEL_BASE64',
    description: "The WebAssembly kernel of SweepAndPrune's insertion-sort passes",
  },
];
for (const k of kernels) {
  await buildKernel({
    script: 'packages/core/scripts/build-wasm.mjs',
    sourcePath: join(k.dir, `${k.name}.as`),
    generatedPath: join(k.dir, `${k.name}.generated.ts`),
    exportName: k.exportName,
    description: k.description,
  });
}
