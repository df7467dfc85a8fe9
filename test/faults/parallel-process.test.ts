/**
 * The parallel broadphase and its worker pool at the level of the process, each case in a child Node
 * process of its own (not under the test runner's worker management, which would hide a thread that
 * keeps a process alive): a forgotten `dispose()` never keeps Node running — after `update()`, after
 * `updateAsync()`, never updated, a user-made `WorkerPool` too; a worker that dies (terminated from
 * outside, or exiting mid-update) and a worker script that does not load (missing, or throwing as it
 * loads) are reported by a blocked `update()` and by `updateAsync()` at once, with the real cause —
 * not after `timeoutMs` (20 s by default).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parallelBuild } from './support/parallelBuild.js';

interface Run {
  status: number | null;
  ms: number;
  lines: Array<{ threw?: boolean; ms?: number; message?: string; [key: string]: unknown }>;
  stderr: string;
}

/** Runs one scenario of parallelChild.ts in a child process (killed after `limitMs`). */
function run(scenario: string, limitMs = 15_000): Run {
  const b = parallelBuild();
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [b.child, scenario, b.worker.href, b.broken.href], {
    encoding: 'utf8',
    timeout: limitMs,
  });
  const ms = performance.now() - t0;
  const lines = child.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  return { status: child.status, ms, lines, stderr: child.stderr };
}

/**
 * How long a reported failure may take. The call returns within a millisecond or two of the
 * supervisor seeing the death; the bound leaves room for a loaded shared machine, and is far below
 * the 20 s a missed death used to cost.
 */
const PROMPT_MS = 500;

describe('a forgotten dispose() never keeps a Node process alive', () => {
  for (const scenario of [
    'forget-after-update',
    'forget-after-update-async',
    'forget-never-updated',
    'forget-ready',
    'forget-user-pool',
  ]) {
    it(scenario, () => {
      const r = run(scenario);
      // Killed at the limit (status null) if the threads kept it alive.
      expect(r.status, r.stderr).toBe(0);
      expect(r.lines.length).toBe(1);
      expect(r.ms).toBeLessThan(10_000);
    });
  }
});

describe('a worker that dies is reported by the blocked update() at once, with the real cause', () => {
  for (const scenario of [
    'terminated',
    'exited',
    'terminated-async',
    'exited-async',
    'terminated-caller',
    'exited-caller',
  ]) {
    it(scenario, () => {
      const r = run(scenario);
      expect(r.status, r.stderr).toBe(0);
      const [first, again] = r.lines;
      expect(first.threw, JSON.stringify(first)).toBe(true);
      expect(first.message).toMatch(/worker 1 exited: exited with code 1/);
      expect(first.ms).toBeLessThan(PROMPT_MS);
      // The broadphase stays failed, with the same error, and dispose() still works.
      expect(again.threw).toBe(true);
      expect(again.message).toBe(first.message);
    });
  }
});

describe('a worker script that does not load is reported by update() with its load error', () => {
  it('a missing script: at once, naming the file', () => {
    const r = run('missing-script');
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines[0].threw).toBe(true);
    expect(r.lines[0].message).toMatch(/Cannot find module '.*no-such-worker\.mjs'.*ENOENT/);
    expect(r.lines[0].ms).toBeLessThan(PROMPT_MS);
  });

  for (const scenario of ['broken-script', 'broken-script-async']) {
    it(`a script that throws as it loads (${scenario.endsWith('async') ? 'updateAsync' : 'update'})`, () => {
      const r = run(scenario);
      expect(r.status, r.stderr).toBe(0);
      expect(r.lines[0].threw).toBe(true);
      expect(r.lines[0].message).toMatch(/worker \d failed: .*broken worker script/s);
      expect(r.lines[0].ms).toBeLessThan(PROMPT_MS);
    });
  }

  it('a script that throws as it loads, update() called at once: the load error, not a timeout', () => {
    const r = run('broken-script-at-once');
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines[0].threw).toBe(true);
    expect(r.lines[0].message).toMatch(/broken worker script/);
    // Starting two threads and failing to load the script: well under the 20 s timeout.
    expect(r.lines[0].ms).toBeLessThan(5000);
  });

  it('ready() rejects with the load error', () => {
    const r = run('broken-script-ready');
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines[0].threw).toBe(true);
    expect(r.lines[0].message).toMatch(/broken worker script/);
  });
});
