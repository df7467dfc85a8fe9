/**
 * The GPU triangle pass in Node through the npm package `webgpu` (Dawn, an optional peer dependency),
 * in a child process. Without a GPU, Dawn can use the SwiftShader Vulkan driver that Debian's Chromium
 * ships (`/usr/lib/chromium/libvk_swiftshader.so`): the child gets `VK_ICD_FILENAMES` and
 * `LD_LIBRARY_PATH` pointing there when they are not set already. Where Dawn finds no adapter the
 * case is reported as skipped with the reason (SIEVE_REQUIRE_WEBGPU=1 fails instead).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScenarioReport } from './scenarios.js';

const child = fileURLToPath(new URL('./dawnChild.ts', import.meta.url));
const coreDir = fileURLToPath(new URL('../..', import.meta.url));
const chromiumLib = '/usr/lib/chromium';

describe('GPU triangle pass in Node (npm webgpu / Dawn)', () => {
  it('equals the CPU query on every pose, or says why it cannot run', (ctx) => {
    const env = { ...process.env };
    const icd = `${chromiumLib}/vk_swiftshader_icd.json`;
    if (!env.VK_ICD_FILENAMES && existsSync(icd)) {
      env.VK_ICD_FILENAMES = icd;
      env.LD_LIBRARY_PATH = env.LD_LIBRARY_PATH ? `${chromiumLib}:${env.LD_LIBRARY_PATH}` : chromiumLib;
    }
    const out = execFileSync(process.execPath, ['--import', 'tsx', child, '0.5'], {
      cwd: coreDir,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });
    const lines = out.trim().split('\n');
    const report = JSON.parse(lines[lines.length - 1]) as ScenarioReport;
    if (report.backend !== 'gpu') {
      if (process.env.SIEVE_REQUIRE_WEBGPU === '1') throw new Error(`no WebGPU in Node: ${report.info}`);
      console.warn(`GPU pass NOT tested in Node: ${report.info}`);
      ctx.skip();
      return;
    }
    console.info(
      `GPU pass in Node on ${report.info}: ${report.cases.map((c) => `${c.name} ${c.poses} poses, ${c.pairs} pairs, ${c.uncertain} re-tested`).join('; ')}`,
    );
    expect(report.cases.map((c) => c.name)).toEqual([
      'random',
      'touching',
      'coplanar',
      'degenerate',
      'far',
      'batch',
      'deforming',
    ]);
    for (const c of report.cases) {
      expect(c.errors, c.name).toEqual([]);
      expect(c.pairs, c.name).toBeGreaterThan(0);
    }
  }, 300_000);
});
