// After the verify gate stops a run, doing what Ralph says — fix the cause, run 'ralph' again — works.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../helpers/run-cli.js';

const working = (text = 'Working.'): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const done = (text = 'Done.'): string => `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
const mock = (...args: string[]): string[] => ['--backend', 'mock', '--pause', '0', ...args];

describe('a new run after a verify abort', () => {
  it('starts a fresh gate once the cause is fixed', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [
      { output: working(), files: { 'a.txt': '1' } },
      { output: working(), files: { 'b.txt': '2' } },
    ]);
    const first = await ralph(mock('--verify', 'test -f fixed.txt', '--verify-max', '2'), dir, cleanEnv());
    expect(first.exitCode).toBe(6);
    expect(first.stderr).toContain("run 'ralph' again");

    // The user fixes the cause and does exactly what the message said.
    writeFileSync(join(dir, 'fixed.txt'), 'fixed\n');
    writeMockScript(dir, [{ output: done(), files: { 'c.txt': '3' } }]);
    const again = await ralph(mock('--verify', 'test -f fixed.txt', '--verify-max', '2'), dir, cleanEnv());
    expect(again.stderr).not.toContain('answered with abort');
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('verify attempt 1/2');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', verify: { state: 'passing' } });
  });
});

describe('the one-line summary of a failed verify', () => {
  it("names the test runner's reason, not npm's banner", async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    const npmLike =
      "printf '\\n> calc@1.0.0 test\\n> node --test\\n\\nnot ok 1 - adds\\n  AssertionError: expected 4 to be 3\\n'; echo 'npm error Lifecycle script `test` failed with error:' >&2; exit 1";
    const r = await ralph(mock('--verify', npmLike, '--verify-max', '2', '--max-loops', '1'), dir, cleanEnv());
    expect(r.stderr).toContain('Verify failed (attempt 1/2): exit code 1 — not ok 1 - adds: AssertionError: expected 4 to be 3');
    expect(r.stderr).not.toContain('exit code 1 — > calc@1.0.0 test');
  });
});
