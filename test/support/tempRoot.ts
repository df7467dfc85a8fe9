/**
 * Vitest global setup: one temporary folder for the whole run (`SIEVE_TEST_TMP`, which the test
 * processes inherit), removed when the run ends. Tests that write scratch files (bundled worker
 * scripts) make their folders inside it, so nothing is left in the system's temp folder even when the
 * runner ends its test processes without letting them exit normally.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'sieve-tests-'));
  process.env.SIEVE_TEST_TMP = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The run's temporary folder (the system's when a test runs outside that setup). */
export function testTemp(): string {
  return process.env.SIEVE_TEST_TMP ?? tmpdir();
}
