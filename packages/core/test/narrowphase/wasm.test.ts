import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WasmModule } from '../../../../test/support/wasmModule.js';
import { passKernelBytes } from '../../src/broadphase/sap/kernelHeap.js';
import { ocsiKernelBytes } from '../../src/narrowphase/wasm/loader.js';

const script = fileURLToPath(new URL('../../scripts/build-wasm.mjs', import.meta.url));

describe('the embedded WebAssembly kernels', () => {
  it('is built from the AssemblyScript source in the repo (the generated module is up to date)', () => {
    // Recompiles src/narrowphase/wasm/ocsiKernel.as (and the sweep and prune's pass kernel) with asc
    // and compares with the embedded base64.
    const out = execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });

  it('stays under the 4 KB browsers allow for synchronous compilation, and exports the kernels', () => {
    const bytes = ocsiKernelBytes();
    expect(bytes.length).toBeLessThan(4096);
    const mod = new WasmModule(bytes);
    const names = WasmModule.exports(mod).map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(['ocsiOverlapUniform', 'ocsiOverlapLanes', 'ocsiDistanceSq']),
    );
    expect(WasmModule.imports(mod)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
  });

  it("SweepAndPrune's pass kernel: under the same 4 KB, importing only its memory", () => {
    const bytes = passKernelBytes();
    expect(bytes.length).toBeLessThan(4096);
    const mod = new WasmModule(bytes);
    expect(WasmModule.exports(mod).map((e) => e.name)).toEqual(
      expect.arrayContaining(['setArrays', 'passRegion', 'resumeAxis', 'resumeIndex']),
    );
    expect(WasmModule.imports(mod)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
  });
});
