/**
 * `pnpm bench`: runs every benchmark in sequence, one process each (so heaps and JIT state do not mix).
 * `pnpm bench <filter>` runs the ones whose name contains the filter.
 */
import { execFileSync } from 'node:child_process';

const only = process.argv[2];
for (const name of ['broadphase', 'ocsi', 'bvh', 'matter', 'cannon', 'ccd', 'small', 'three']) {
  if (only && !name.includes(only)) continue;
  console.log(`\n=== bench:${name}`);
  execFileSync('pnpm', ['run', name], { stdio: 'inherit' });
}
