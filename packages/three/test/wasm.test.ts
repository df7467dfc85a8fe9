/**
 * The embedded ray-walk kernel is built from the AssemblyScript source in the repo, compiles
 * synchronously in browsers (under 4 KB), and exports the two walks over an imported memory.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WasmModule } from '../../../test/support/wasmModule.js';
import { rayKernelBytes } from '../src/raycast/wasm/rayKernel.js';

const script = fileURLToPath(new URL('../scripts/build-wasm.mjs', import.meta.url));

describe('the embedded WebAssembly ray kernel', () => {
  it('is built from the AssemblyScript source in the repo (the generated module is up to date)', () => {
    const out = execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });

  it('stays under the 4 KB browsers allow for synchronous compilation, and exports the walks', () => {
    const bytes = rayKernelBytes();
    expect(bytes.length).toBeLessThan(4096);
    const mod = new WasmModule(bytes);
    expect(WasmModule.exports(mod).map((e) => e.name)).toEqual(
      expect.arrayContaining(['walkAll', 'walkFirst']),
    );
    expect(WasmModule.imports(mod)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
  });
});
