/**
 * Where the type checks' compiler is: TypeScript 7, the native port (the root's `typescript-7`
 * devDependency, an npm alias of `typescript@7`), which checks this repository in a third of the CPU
 * time of TypeScript 5.9. TypeScript 5.9 (`typescript`) stays for the tools that use its JavaScript API
 * (tsup's declaration bundling, TypeDoc), which TypeScript 7 does not offer as stable yet.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The folder of the TypeScript 7 package. */
export const typescript7 = join(root, 'node_modules', 'typescript-7');

/** The `tsc` script of TypeScript 7: run it with Node (`node <tsc> -p …`). */
export const tsc = join(typescript7, 'bin', 'tsc');
