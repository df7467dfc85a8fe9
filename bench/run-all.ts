/** Runs every benchmark in sequence (one process each, so their heaps and JIT state do not mix). */
import { execFileSync } from 'node:child_process';

const only = process.argv[2];
for (const name of ['broadphase', 'ocsi', 'bvh']) {
  if (only && !name.includes(only)) continue;
  console.log(`\n=== bench:${name}`);
  execFileSync('pnpm', ['run', name], { stdio: 'inherit' });
}
