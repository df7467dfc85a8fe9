/**
 * Child process of `dawn.test.ts`: runs the GPU-pass scenarios in Node through the npm package
 * `webgpu` (Dawn) and prints the report as JSON on its last line. Run in a child because Dawn finds
 * its Vulkan driver through environment variables read at process start.
 */
import { GpuMeshMesh } from '../../src/gpu/GpuMeshMesh.js';
import { runScenarios } from './scenarios.js';

const scale = Number(process.argv[2] ?? '0.5');
const g = await GpuMeshMesh.create({ blockSize: 64 });
const report =
  g.backend === 'gpu' ? await runScenarios(g, scale) : { backend: g.backend, info: g.info, cases: [], ms: 0 };
g.destroy();
process.stdout.write(`\n${JSON.stringify(report)}\n`);
// Dawn's instance keeps the event loop alive.
process.exit(0);
