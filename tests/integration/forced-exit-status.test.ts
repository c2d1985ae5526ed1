// Ctrl+C twice: the loop exits at once without its usual end, and status.json still says it ended
// (never `running` for a loop that is gone). The built CLI, a fake agent that ignores SIGTERM.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { killTracked, track } from '../helpers/processes.js';
import { fakeClaude, readJson, runCli } from '../helpers/run-cli.js';
import { waitFor } from '../helpers/wait-for.js';

afterEach(() => killTracked());

describe('a forced exit', () => {
  it('Ctrl+C twice leaves status.json interrupted, with exit code 130', async () => {
    const dir = ralphProject();
    // The agent ignores SIGTERM: after the first Ctrl+C the loop is still waiting for it to end.
    const fake = fakeClaude([{ sleep_ms: 60_000, ignore_term: true }]);
    const child = runCli('ralph', ['--pause', '0'], dir, fake.env);
    track(child.pid ?? 0);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const statusPath = join(dir, '.ralph', 'status.json');
    await waitFor(() => fake.calls().length === 1 && existsSync(statusPath) && readJson(statusPath)['status'] === 'running', 'the agent running');
    child.kill('SIGINT');
    await waitFor(() => stderr.includes('Ctrl+C again to force'), 'the first Ctrl+C to be taken');
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(stderr).toContain('Forced exit.');
    expect(readJson(statusPath)).toMatchObject({ status: 'interrupted', exit_reason: 'interrupted', exit_code: 130, last_action: 'interrupted' });
  });
});
