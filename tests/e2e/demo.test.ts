// `ralph demo` as a new user runs it (npm test builds first).
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('ralph demo', () => {
  it('runs a whole loop on the mock backend: progress, a failing then passing verify gate, a clean exit', async () => {
    // An empty HOME: no git identity, no Claude, no API key.
    const home = tempDir('ralph-demo-home-');
    const r = await runCli('ralph', ['demo'], home, cleanEnv({ HOME: home, GIT_CONFIG_NOSYSTEM: '1' }), 60_000);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stdout).toContain('Verify runs:  fail → fail → pass');
    expect(r.stdout).toContain('Exit reason:  project_complete (exit code 0)');
    expect(r.stderr).toContain('Verify failed (attempt 1/5): exit code 1 — FAIL multiply is not implemented');
    expect(r.stderr).toContain('Verify passed: node test.js');
    expect(r.stdout).toContain('multiply: (a, b) => a * b');
  });
});
