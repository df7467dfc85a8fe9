/**
 * Browser entry of the GPU pass test (bundled by `browser.test.ts`): runs the scenarios on the page's
 * WebGPU (`navigator.gpu`, SwiftShader in headless Chromium) and on the forced CPU fallback, and
 * leaves both reports on `window.__gpuReport`.
 */
import { GpuMeshMesh } from '../../src/gpu/GpuMeshMesh.js';
import { runScenarios, type ScenarioReport } from './scenarios.js';

/** What the page leaves for the test. */
export interface PageReport {
  navigatorGpu: boolean;
  gpu: ScenarioReport | null;
  /** The GPU's float32 answers taken as they are (`exact: false`), on the hardest scenarios. */
  f32: ScenarioReport | null;
  cpu: ScenarioReport | null;
  error: string | null;
}

/** The page's globals this file reads or writes (core's type checks have no DOM library). */
const page = globalThis as unknown as {
  navigator: { gpu?: unknown };
  location: { search: string };
  __gpuReport?: PageReport;
};

async function main(): Promise<void> {
  const report: PageReport = {
    navigatorGpu: !!page.navigator.gpu,
    gpu: null,
    f32: null,
    cpu: null,
    error: null,
  };
  try {
    const scale = Number(new URLSearchParams(page.location.search).get('scale') ?? '1');
    const g = await GpuMeshMesh.create({ node: false, blockSize: 64 });
    report.gpu = await runScenarios(g, scale);
    g.destroy();
    if (report.gpu.backend === 'gpu') {
      const f = await GpuMeshMesh.create({ node: false, blockSize: 64, exact: false });
      report.f32 = await runScenarios(f, 0.5, ['touching', 'coplanar']);
      f.destroy();
    }
    const c = await GpuMeshMesh.create({ forceCpu: true });
    report.cpu = await runScenarios(c, 0.25);
  } catch (e) {
    report.error = `${(e as Error).message}\n${(e as Error).stack ?? ''}`;
  }
  page.__gpuReport = report;
}

void main();
